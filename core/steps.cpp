// Worked derivations: text and LaTeX for the seed's three steps per result. Every number is either an
// input as the user gave it or a figure of the Estimate, formatted by quantity.hpp; nothing is computed.
#include "steps.hpp"

#include <cstring>

#include "formats.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

constexpr std::uint64_t kBytesPerGb = 1'000'000'000ULL;
constexpr std::uint64_t kBytesPerGib = 1ULL << 30;

// "13B" (exact, as the settings table writes counts) and its LaTeX form "13\text{B}".
std::string count_text(std::uint64_t count) { return format_count_state(count); }
std::string count_latex(std::uint64_t count) {
    std::string text = format_count_state(count);
    if (!text.empty() && text.back() >= 'A' && text.back() <= 'Z') {
        const char suffix = text.back();
        text.pop_back();
        return text + "\\text{" + suffix + "}";
    }
    return text;
}

std::string gb_latex(std::uint64_t bytes) { return format_ratio(bytes, kBytesPerGb, 2) + "\\ \\text{GB}"; }
std::string both_text(std::uint64_t bytes) { return "= " + format_gb(bytes) + " (" + format_gib(bytes) + ")"; }
std::string both_latex(std::uint64_t bytes) {
    return "= " + gb_latex(bytes) + "\\ (" + format_ratio(bytes, kBytesPerGib, 2) + "\\ \\text{GiB})";
}

WorkedStep formula(std::string text, std::string latex) { return {"Write the formula", std::move(text), std::move(latex)}; }
WorkedStep substitute(std::string text, std::string latex) {
    return {"Substitute the values", std::move(text), std::move(latex)};
}
WorkedStep compute(std::uint64_t bytes) { return {"Compute", both_text(bytes), both_latex(bytes)}; }

// "N_trainable = 13B (all parameters)", "= 1B" or "= 7.7% of 13B = 1.001B".
void trainable_values(const Scenario& s, const Estimate& e, std::string& text, std::string& latex) {
    text = "N_trainable = ";
    latex = "N_{\\text{trainable}} = ";
    if (e.lora_trainable_count > 0) {
        text += count_text(e.trainable_count) + " (the LoRA adapter, rank " + std::to_string(s.lora_rank) + ")";
        latex += count_latex(e.trainable_count) + "\\ (\\text{LoRA, rank } " + std::to_string(s.lora_rank) + ")";
        return;
    }
    switch (s.trainable.kind) {
        case TrainableSpec::Kind::all:
            text += count_text(e.trainable_count) + " (all parameters)";
            latex += count_latex(e.trainable_count) + "\\ (\\text{all parameters})";
            return;
        case TrainableSpec::Kind::count:
            text += count_text(e.trainable_count);
            latex += count_latex(e.trainable_count);
            return;
        case TrainableSpec::Kind::percent:
            text += format_decimal(s.trainable.percent) + "% of " + count_text(e.param_count) + " = " +
                    count_text(e.trainable_count);
            latex += format_decimal(s.trainable.percent) + "\\% \\times " + count_latex(e.param_count) + " = " +
                     count_latex(e.trainable_count);
            return;
    }
}

}  // namespace

std::vector<Derivation> worked_steps(const Scenario& s, const Estimate& e) {
    const std::string n_text = count_text(e.param_count);
    const std::string n_latex = count_latex(e.param_count);
    const std::string b_text = format_decimal(s.bytes_per_param);
    const std::string k_text = format_decimal(s.values_per_trainable);
    const std::string bv_text = format_decimal(s.bytes_per_value);
    const std::string factor_text = format_decimal(s.overhead_factor);
    std::string nt_values;
    std::string nt_values_latex;
    trainable_values(s, e, nt_values, nt_values_latex);
    const std::string nt_text = count_text(e.trainable_count);
    const std::string nt_latex = count_latex(e.trainable_count);

    std::vector<Derivation> out;
    // A weight format (dtype, or QLoRA's NF4) replaces b by its exact bits per weight.
    std::string b_weight_text = b_text + " bytes";
    std::string b_weight_latex = b_text + "\\ \\text{bytes}";
    std::string b_name_text = "b = " + b_text + " bytes";
    std::string b_name_latex = "b = " + b_text;
    if (!e.weight_format.empty()) {
        const Expected<WeightFormat> format = find_weight_format(e.weight_format);
        if (format) {
            const std::string bits = format_bits_per_weight(*format);
            b_weight_text = bits + " bits";
            b_weight_latex = bits + "\\ \\text{bits}";
            b_name_text = "b = " + bits + " bits (" + format->label + ")";
            b_name_latex = "b = " + bits + "\\ \\text{bits}";
        }
    }
    out.push_back({"weight", "Weight memory",
                   {formula("Weight memory = N × b", "\\text{Weight memory} = N \\times b"),
                    substitute("N = " + n_text + " and " + b_name_text + ", so " + n_text + " × " + b_weight_text,
                               "N = " + n_latex + ",\\ " + b_name_latex + " \\Rightarrow " + n_latex + " \\times " +
                                   b_weight_latex),
                    compute(e.weight_bytes)},
                   e.weight_bytes});
    out.push_back({"inference", "Inference total",
                   {formula("Inference total = weight memory × overhead factor",
                            "\\text{Inference total} = \\text{weight memory} \\times \\text{overhead factor}"),
                    substitute(format_gb(e.weight_bytes) + " × " + factor_text,
                               gb_latex(e.weight_bytes) + " \\times " + factor_text),
                    compute(e.inference_bytes)},
                   e.inference_bytes});
    if (e.detailed_inference) {
        out.push_back({"detailed-inference", "Inference total (detailed)",
                       {formula("Detailed inference = weights + KV cache + activations + runtime reserve",
                                "\\text{Detailed inference} = \\text{weights} + \\text{KV cache} + \\text{activations} + "
                                "\\text{reserve}"),
                        substitute(format_gb(e.weight_bytes) + " + " + format_gb(e.kv_cache_bytes) + " + " +
                                       format_gb(e.activation_bytes) + " + " + format_gb(e.runtime_reserve_bytes),
                                   gb_latex(e.weight_bytes) + " + " + gb_latex(e.kv_cache_bytes) + " + " +
                                       gb_latex(e.activation_bytes) + " + " + gb_latex(e.runtime_reserve_bytes)),
                        compute(e.detailed_inference_bytes)},
                       e.detailed_inference_bytes});
    }
    const bool seed_recipe = s.recipe.empty() || s.recipe == "seed-adam";
    if (seed_recipe || e.training_components.empty()) {
        out.push_back({"gradient-optimizer", "Gradient+optimizer memory",
                       {formula("Gradient+optimizer memory = N_trainable × k × b",
                                "\\text{Gradient+optimizer memory} = N_{\\text{trainable}} \\times k \\times b"),
                        substitute(nt_values + ", k = " + k_text + " and b = " + bv_text + " bytes, so " + nt_text + " × " +
                                       k_text + " × " + bv_text + " bytes",
                                   nt_values_latex + ",\\ k = " + k_text + ",\\ b = " + bv_text + " \\Rightarrow " + nt_latex +
                                       " \\times " + k_text + " \\times " + bv_text + "\\ \\text{bytes}"),
                        compute(e.gradient_optimizer_bytes)},
                       e.gradient_optimizer_bytes});
    } else {
        // A recipe: each stored value has its own bytes per trainable parameter; they add up per parameter.
        std::string names;
        std::string per_text;
        std::string per_latex;
        for (const TrainingComponent& c : e.training_components) {
            const std::string bytes = format_ratio(c.bytes_per_trainable_pico, 1'000'000'000'000ULL, 6);
            if (!names.empty()) {
                names += ", ";
                per_text += " + ";
                per_latex += " + ";
            }
            names += c.name + " " + bytes;
            per_text += bytes;
            per_latex += bytes;
        }
        out.push_back({"gradient-optimizer", "Gradient+optimizer memory",
                       {formula("Gradient+optimizer memory = N_trainable × (bytes of each stored value, added)",
                                "\\text{Gradient+optimizer memory} = N_{\\text{trainable}} \\times \\textstyle\\sum \\text{bytes}"),
                        substitute(nt_values + "; recipe " + s.recipe + ": " + names + " bytes, so " + nt_text + " × (" +
                                       per_text + ") bytes",
                                   nt_values_latex + " \\Rightarrow " + nt_latex + " \\times (" + per_latex + ")\\ \\text{bytes}"),
                        compute(e.gradient_optimizer_bytes)},
                       e.gradient_optimizer_bytes});
    }
    out.push_back({"training", "Training total",
                   {formula("Training total = weight memory + gradient+optimizer memory",
                            "\\text{Training total} = \\text{weight memory} + \\text{gradient+optimizer memory}"),
                    e.adapter_weight_bytes == 0
                        ? substitute(format_gb(e.weight_bytes) + " + " + format_gb(e.gradient_optimizer_bytes),
                                     gb_latex(e.weight_bytes) + " + " + gb_latex(e.gradient_optimizer_bytes))
                        : substitute(format_gb(e.weight_bytes) + " + " + format_gb(e.adapter_weight_bytes) +
                                         " (LoRA adapter weights) + " + format_gb(e.gradient_optimizer_bytes),
                                     gb_latex(e.weight_bytes) + " + " + gb_latex(e.adapter_weight_bytes) + " + " +
                                         gb_latex(e.gradient_optimizer_bytes)),
                    compute(e.training_bytes)},
                   e.training_bytes});
    if (e.trainable_count != e.param_count) {
        out.push_back({"reduction", "Reduction from training fewer parameters",
                       {formula("Reduction = gradient+optimizer memory (all " + n_text + " trainable) − gradient+optimizer memory (" +
                                    nt_text + " trainable)",
                                "\\text{Reduction} = \\text{grad+opt}(" + n_latex + ") - \\text{grad+opt}(" + nt_latex + ")"),
                        substitute(format_gb(e.full_gradient_optimizer_bytes) + " − " + format_gb(e.gradient_optimizer_bytes) +
                                       "; the weights keep their " + format_gb(e.weight_bytes),
                                   gb_latex(e.full_gradient_optimizer_bytes) + " - " + gb_latex(e.gradient_optimizer_bytes)),
                        compute(e.reduction_bytes)},
                       e.reduction_bytes});
    }
    return out;
}

const Derivation* find_derivation(const std::vector<Derivation>& derivations, const char* id) {
    for (const Derivation& d : derivations)
        if (std::strcmp(d.id, id) == 0) return &d;
    return nullptr;
}

std::string steps_markdown(const std::vector<Derivation>& derivations) {
    std::string out;
    for (const Derivation& d : derivations) {
        out += "### ";
        out += d.title;
        out += "\n\n";
        int number = 1;
        for (const WorkedStep& step : d.steps) {
            out += std::to_string(number++) + ". " + step.label + ": " + step.text + "\n";
        }
        out += "\n";
    }
    out += "GB = 10^9 bytes, GiB = 2^30 bytes.\n";
    return out;
}

std::string steps_latex(const std::vector<Derivation>& derivations) {
    std::string out;
    for (const Derivation& d : derivations) {
        out += "\\paragraph{";
        out += d.title;
        out += "}\n\\begin{align*}\n";
        // The steps align on the formula's first "=".
        std::string first = d.steps[0].latex;
        const std::size_t eq = first.find(" = ");
        if (eq != std::string::npos) first.replace(eq, 3, " &= ");
        out += first + " \\\\\n";
        out += "&\\quad " + d.steps[1].latex + " \\\\\n";
        out += "&" + d.steps[2].latex + "\n";
        out += "\\end{align*}\n";
    }
    out += "% GB = 10^9 bytes, GiB = 2^30 bytes.\n";
    return out;
}

}  // namespace llm_memory
