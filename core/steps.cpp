// Worked derivations: text and LaTeX for the seed's three steps per result. Every number is either an
// input as the user gave it or a figure of the Estimate, formatted by quantity.hpp; nothing is computed.
#include "steps.hpp"

#include <algorithm>
#include <optional>

#include "formats.hpp"
#include "recipes.hpp"
#include "settings.hpp"
#include "training.hpp"
#include "architecture.hpp"
#include "hybrid.hpp"

namespace llm_memory {
namespace {


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

// What every derivation may substitute: the inputs as the user gave them, as text and LaTeX.
struct Values {
    std::string n_text, n_latex, b_text, k_text, bv_text, factor_text, nt_values, nt_values_latex, nt_text, nt_latex;
    std::string b_weight_text, b_weight_latex, b_name_text, b_name_latex;  // b, or a weight format's bits
};

Values values_of(const Scenario& s, const Estimate& e) {
    Values v;
    v.n_text = count_text(e.param_count);
    v.n_latex = count_latex(e.param_count);
    v.b_text = format_decimal(s.bytes_per_param);
    v.k_text = format_decimal(s.values_per_trainable);
    v.bv_text = format_decimal(s.bytes_per_value);
    v.factor_text = format_decimal(s.overhead_factor);
    trainable_values(s, e, v.nt_values, v.nt_values_latex);
    v.nt_text = count_text(e.trainable_count);
    v.nt_latex = count_latex(e.trainable_count);
    // A weight format (dtype, or QLoRA's NF4) replaces b by its exact bits per weight.
    v.b_weight_text = v.b_text + " bytes";
    v.b_weight_latex = v.b_text + "\\ \\text{bytes}";
    v.b_name_text = "b = " + v.b_text + " bytes";
    v.b_name_latex = "b = " + v.b_text;
    if (!e.weight_format.empty()) {
        const Expected<WeightFormat> format = find_weight_format(e.weight_format);
        if (format) {
            const std::string bits = format_bits_per_weight(*format);
            v.b_weight_text = bits + " bits";
            v.b_weight_latex = bits + "\\ \\text{bits}";
            v.b_name_text = "b = " + bits + " bits (" + format->label + ")";
            v.b_name_latex = "b = " + bits + "\\ \\text{bits}";
        }
    }
    return v;
}

// "Weight memory" reads "weight memory" mid-sentence; "KV cache" and "LoRA adapter weights" keep capitals.
std::string mid_sentence(const std::string& label) {
    return mid_sentence_label(label);
}

// A total: its label = its parts, added (or the largest of them), substituted by their figures.
Derivation total_derivation(const Estimate& e, const MemoryTerm& t) {
    std::string names, names_latex, figures, figures_latex;
    const bool sum = t.combine == Combine::sum;
    const char* join = sum ? " + " : ", ";
    for (const MemoryTerm* part : parts_of(e, *t.total)) {
        const bool first = names.empty();
        names += (first ? "" : join) + mid_sentence(part->label);
        names_latex += (first ? "" : join) + std::string("\\text{") + mid_sentence(part->label) + "}";
        figures += (first ? "" : join) + format_gb(part->bytes);
        figures_latex += (first ? "" : join) + gb_latex(part->bytes);
    }
    if (!sum) {
        names = "the largest of " + names;
        names_latex = "\\max(" + names_latex + ")";
        figures = "the largest of " + figures;
        figures_latex = "\\max(" + figures_latex + ")";
    }
    return {"", t.label,
            {formula(t.label + " = " + names, "\\text{" + t.label + "} = " + names_latex), substitute(figures, figures_latex),
             compute(t.bytes)},
            t.bytes};
}

// "2.15 GB" in text, its LaTeX twin.
std::string gb(std::uint64_t bytes) { return format_gb(bytes); }

// The training peak's rows (training-mode detailed): activations, logits and loss, framework memory,
// allocator margin and one GPU's share of the model states.
std::optional<Derivation> derive_training(const Scenario& s, const Estimate& e, const MemoryTerm& t) {
    const TrainingActivations& a = e.training_activations;
    const std::string B = std::to_string(a.value_bytes);
    const std::string shape = "s = " + std::to_string(s.training.seq_len) + ", b = " + std::to_string(s.training.micro_batch) + ", B = " + B +
                              " bytes" + (s.training.tp > 1 ? ", tp = " + std::to_string(s.training.tp) + (s.training.sp ? " with sp" : "") : "");
    const std::string stage = std::to_string(a.stage_layers) + " layers × " + std::to_string(a.micro_batches_in_flight) +
                              " micro-batch" + (a.micro_batches_in_flight == 1 ? "" : "es") + " in flight";
    if (t.key == "activation") {
        const LayerActivations& p = a.per_layer_sum;
        const std::string scores = a.recompute_scores_bytes > 0 ? " + its scores' gradient " + gb(a.recompute_scores_bytes) : "";
        const std::string scores_tex = a.recompute_scores_bytes > 0 ? " + \\text{" + gb(a.recompute_scores_bytes) + "}" : "";
        if (s.training.recompute == Recompute::full)
            return Derivation{"", t.label,
                              {formula(std::string("Activations = layers × each layer's input (B·s·b·h) + one layer rebuilt") +
                                           (a.recompute_scores_bytes > 0 ? " (+ its scores' gradient, eager attention)" : "") +
                                           " + final norm and head inputs",
                                       "\\text{Activations} = L \\cdot B s b h + \\text{one layer} + \\text{outside}"),
                               substitute(shape + ", " + stage + ": inputs " + gb(p.total()) + " + one layer " +
                                              gb(a.recompute_live_bytes) + scores + " + outside " + gb(a.outside_layers_bytes),
                                          "\\text{" + gb(p.total()) + "} + \\text{" + gb(a.recompute_live_bytes) + "}" + scores_tex +
                                              " + \\text{" + gb(a.outside_layers_bytes) + "}"),
                               compute(t.bytes)},
                              t.bytes};
        if (s.training.recompute == Recompute::op_selective)
            return Derivation{"", t.label,
                              {formula("Activations = layers × (input + q, v, attention output and its log-sum-exp + gate and down "
                                       "outputs) + one layer rebuilt + final norm and head inputs",
                                       "\\text{Activations} = L \\times (\\text{input} + \\text{attention kept} + \\text{MLP kept}) + "
                                       "\\text{one layer} + \\text{outside}"),
                               substitute(shape + ", " + stage + ": inputs " + gb(p.norms) + " + attention kept " + gb(p.attention) +
                                              " + MLP kept " + gb(p.mlp) + " + one layer " + gb(a.recompute_live_bytes) + scores +
                                              " + outside " + gb(a.outside_layers_bytes),
                                          "\\text{" + gb(p.norms) + "} + \\text{" + gb(p.attention) + "} + \\text{" + gb(p.mlp) +
                                              "} + \\text{" + gb(a.recompute_live_bytes) + "}" + scores_tex + " + \\text{" +
                                              gb(a.outside_layers_bytes) + "}"),
                               compute(t.bytes)},
                              t.bytes};
        const bool core = s.training.recompute != Recompute::selective;
        return Derivation{"", t.label,
                          {formula(std::string("Activations = layers × (norms + attention") + (core ? " + attention core" : "") +
                                       " + MLP) + final norm and head inputs",
                                   std::string("\\text{Activations} = L \\times (\\text{norms} + \\text{attention}") +
                                       (core ? " + \\text{core}" : "") + " + \\text{MLP}) + \\text{outside}"),
                           substitute(shape + ", " + attention_text(s.training.attention) + " attention, " + stage + ": norms " +
                                          gb(p.norms) + " + attention " + gb(p.attention) + (core ? " + attention core " + gb(p.attention_core) : "") +
                                          " + MLP " + gb(p.mlp) + " + outside " + gb(a.outside_layers_bytes),
                                      "\\text{" + gb(p.norms) + "} + \\text{" + gb(p.attention) + "} + " +
                                          (core ? "\\text{" + gb(p.attention_core) + "} + " : "") + "\\text{" + gb(p.mlp) +
                                          "} + \\text{" + gb(a.outside_layers_bytes) + "}"),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "logits_loss") {
        const std::string vocab = s.model ? std::to_string(s.model->architecture.vocab_size) : "V";
        const std::string c = std::to_string(a.compute_bytes);
        const std::string per = s.training.loss == LossKind::full  ? "(4 + 4 + 4) bytes"
                                : s.training.loss == LossKind::half ? "3 × " + c + " bytes"
                                                                    : c + " bytes + one of 8 chunks × (4 + 4) bytes";
        const std::string tp = s.training.tp > 1 ? " ÷ tp " + std::to_string(s.training.tp) : "";
        return Derivation{"", t.label,
                          {formula("Logits and loss = " + t.formula,  // the terms table's words (estimator.cpp)
                                   "\\text{Logits and loss} = b \\times s \\times V \\times \\text{bytes per logit}"),
                           substitute(std::to_string(s.training.micro_batch) + " × " + std::to_string(s.training.seq_len) + " × " + vocab + tp + " × " + per,
                                      std::to_string(s.training.micro_batch) + " \\times " + std::to_string(s.training.seq_len) + " \\times " + vocab),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "framework_overhead") {
        const std::string values = s.framework_overhead_auto ? t.formula : "as set: " + format_gib(t.bytes);  // estimator.cpp's words
        return Derivation{"", t.label,
                          {formula("Framework = CUDA context + NCCL buffers (with more than one GPU, or ZeRO/FSDP)",
                                   "\\text{Framework} = \\text{CUDA context} + \\text{NCCL}"),
                           substitute(values, "\\text{" + values + "}"), compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "zero3_gathered") {
        const std::string k = std::to_string(s.training.fsdp_prefetch);
        return Derivation{"", t.label,
                          {formula("Gathered layers = (1 + fsdp-prefetch) × one layer's weights + one layer's gradients",
                                   "\\text{Gathered} = (1 + p) \\times W_{\\text{layer}} + G_{\\text{layer}}"),
                           substitute("(1 + " + k + ") × " + gb(e.zero3_layer_weight_bytes) + " + " + gb(e.zero3_layer_gradient_bytes),
                                      "(1 + " + k + ") \\times " + gb_latex(e.zero3_layer_weight_bytes) + " + " +
                                          gb_latex(e.zero3_layer_gradient_bytes)),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "zero_bucket") {
        const std::string n = std::to_string(s.zero_bucket_elements);
        const std::string k = std::to_string(e.zero_bucket_buffers);
        const std::string bytes = std::to_string(e.zero_bucket_buffers == 0 ? 0 : t.bytes / e.zero_bucket_buffers / s.zero_bucket_elements);
        return Derivation{"", t.label,
                          {formula("Gradient bucket = buffers (2 with overlap_comm at ZeRO 1-2, else 1) × reduce_bucket_size × B",
                                   "\\text{Bucket} = k \\times N_{\\text{bucket}} \\times B"),
                           substitute(k + " × " + n + " × " + bytes + " bytes", k + " \\times " + n + " \\times " + bytes),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "dequant_workspace") {
        const std::string n = std::to_string(e.dequant_linear_elements);
        const std::string tp = s.training.tp > 1 ? " ÷ tp " + std::to_string(s.training.tp) : "";
        return Derivation{"", t.label,
                          {formula("Dequantization workspace = the largest 4-bit linear's in × out weights × 2 bytes",
                                   "\\text{Workspace} = \\max(\\text{in} \\times \\text{out}) \\times 2"),
                           substitute(n + " weights × 2 bytes" + tp, n + " \\times 2"),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "optimizer_temp") {
        // torch/optim/adam.py and adamw.py, _multi_tensor_adam(w): exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs),
        // divided and eps added in place, applied by torch._foreach_addcdiv_ and only then released.
        return Derivation{"", t.label,
                          {formula("Step temporary = Adam's second moment v on this GPU once more (foreach builds sqrt(v) "
                                   "for every parameter at once before applying it; fused builds none)",
                                   "\\text{Step temporary} = |v|_{\\text{this GPU}}"),
                           substitute("v on this GPU = " + gb(t.bytes) + " (recipe " + s.recipe + ", Adam/AdamW " +
                                          optimizer_impl_text(s.training.optimizer_impl) + ")",
                                      gb_latex(t.bytes)),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "allocator_margin") {
        const std::string pct = format_decimal(s.allocator_margin_percent);
        return Derivation{"", t.label,
                          {formula("Allocator margin = margin × (activations + logits and loss)",
                                   "\\text{Allocator margin} = m \\times (\\text{activations} + \\text{logits})"),
                           substitute(pct + "% × (" + gb(e.training_activation_bytes) + " + " + gb(e.logits_loss_bytes) + ")",
                                      pct + "\\% \\times (" + gb_latex(e.training_activation_bytes) + " + " +
                                          gb_latex(e.logits_loss_bytes) + ")"),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "weight_per_gpu" || t.key == "gradient_per_gpu" || t.key == "optimizer_per_gpu") {
        const std::uint64_t dp = s.gpu_count / (s.training.tp * s.training.pp);
        const int needs_stage = t.key == "weight_per_gpu" ? 3 : t.key == "gradient_per_gpu" ? 2 : 1;
        const bool zero = s.zero_stage >= needs_stage && dp > 1;
        const std::string what = t.key == "weight_per_gpu" ? "weights + adapter" : t.key == "gradient_per_gpu" ? "gradients" : "optimizer states";
        return Derivation{"", t.label,
                          {formula(t.label + " = " + what + " ÷ (tp × pp)" + (zero ? " ÷ data-parallel GPUs (ZeRO)" : ""),
                                   "\\text{" + t.label + "} = \\text{" + what + "} \\div (t \\cdot p)" + (zero ? " \\div d" : "")),
                           substitute("tp × pp = " + std::to_string(s.training.tp * s.training.pp) + (zero ? ", " + std::to_string(dp) +
                                                                                          " data-parallel GPUs at ZeRO stage " +
                                                                                          std::to_string(s.zero_stage) : ""),
                                      "t \\cdot p = " + std::to_string(s.training.tp * s.training.pp)),
                           compute(t.bytes)},
                          t.bytes};
    }
    return std::nullopt;
}

// The derivation of one row, or nothing when the row has none (see worked_steps).
std::optional<Derivation> derive(const Scenario& s, const Estimate& e, const Values& v, const MemoryTerm& t) {
    if (t.key == "weight" && e.quantized_linear_count > 0) {
        const std::uint64_t other = e.param_count - e.quantized_linear_count;
        const std::string lin = count_text(e.quantized_linear_count), rest = count_text(other);
        const bool fp32 = unquantized_bytes(s) == 4;
        const std::string rest_bytes = fp32 ? "4" : "2";
        return Derivation{"", "Weight memory",
                          {formula("Weight memory = N_linear × b + (N − N_linear) × " + rest_bytes + " bytes" +
                                       (fp32 ? " (fp32: PEFT's prepare_model_for_kbit_training)" : ""),
                                   "\\text{Weight memory} = N_{\\text{linear}} \\times b + (N - N_{\\text{linear}}) \\times " +
                                       rest_bytes),
                           substitute("N_linear = " + lin + (e.weight_format == "mxfp4" ? " expert" : " decoder linear") + " weights at " +
                                          v.b_weight_text + ", N − N_linear = " + rest +
                                          (e.weight_format == "mxfp4" ? " (attention, embeddings, output head, norms)" : " (embeddings, output head, norms)") +
                                          " at " + rest_bytes + " bytes, so " + lin + " × " +
                                          v.b_weight_text + " + " + rest + " × " + rest_bytes + " bytes",
                                      count_latex(e.quantized_linear_count) + " \\times " + v.b_weight_latex + " + " +
                                          count_latex(other) + " \\times " + rest_bytes + "\\ \\text{bytes}"),
                           compute(e.weight_bytes)},
                          e.weight_bytes};
    }
    if (std::optional<Derivation> d = derive_training(s, e, t)) return d;
    if (t.key == "weight")
        return Derivation{"", "Weight memory",
                          {formula("Weight memory = N × b", "\\text{Weight memory} = N \\times b"),
                           substitute("N = " + v.n_text + " and " + v.b_name_text + ", so " + v.n_text + " × " + v.b_weight_text,
                                      "N = " + v.n_latex + ",\\ " + v.b_name_latex + " \\Rightarrow " + v.n_latex + " \\times " +
                                          v.b_weight_latex),
                           compute(e.weight_bytes)},
                          e.weight_bytes};
    if (t.key == "inference")
        return Derivation{"", "Inference total",
                          {formula("Inference total = weight memory × overhead factor",
                                   "\\text{Inference total} = \\text{weight memory} \\times \\text{overhead factor}"),
                           substitute(format_gb(e.weight_bytes) + " × " + v.factor_text,
                                      gb_latex(e.weight_bytes) + " \\times " + v.factor_text),
                           compute(e.inference_bytes)},
                          e.inference_bytes};
    if (t.key == "adapter_weight") {
        const std::string bytes = e.adapter_fp32 ? "4" : "2";
        const std::string n = count_text(e.lora_trainable_count);
        return Derivation{"", t.label,
                          {formula("LoRA adapter weights = adapter parameters × " + bytes + " bytes" +
                                       (e.adapter_fp32 ? " (fp32: PEFT's autocast_adapter_dtype)" : ""),
                                   "\\text{LoRA adapter weights} = N_{\\text{adapter}} \\times " + bytes),
                           substitute(n + " adapter parameters × " + bytes + " bytes",
                                      count_latex(e.lora_trainable_count) + " \\times " + bytes + "\\ \\text{bytes}"),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.key == "gradient_optimizer" && ((is_seed_recipe(s.recipe) && !e.adapter_fp32) || e.training_components.empty()))
        return Derivation{"", "Gradient+optimizer memory",
                          {formula("Gradient+optimizer memory = N_trainable × k × b",
                                   "\\text{Gradient+optimizer memory} = N_{\\text{trainable}} \\times k \\times b"),
                           substitute(v.nt_values + ", k = " + v.k_text + " and b = " + v.bv_text + " bytes, so " + v.nt_text +
                                          " × " + v.k_text + " × " + v.bv_text + " bytes",
                                      v.nt_values_latex + ",\\ k = " + v.k_text + ",\\ b = " + v.bv_text + " \\Rightarrow " +
                                          v.nt_latex + " \\times " + v.k_text + " \\times " + v.bv_text + "\\ \\text{bytes}"),
                           compute(e.gradient_optimizer_bytes)},
                          e.gradient_optimizer_bytes};
    if (t.key == "gradient_optimizer") {
        // A recipe: each stored value has its own bytes per trainable parameter; they add up per parameter.
        std::string names, per_text, per_latex;
        for (const TrainingComponent& c : e.training_components) {
            const std::string bytes = format_ratio(c.bytes_per_trainable_pico, kPicoPerByte, 6);
            if (!names.empty()) {
                names += ", ";
                per_text += " + ";
                per_latex += " + ";
            }
            names += c.name + " " + bytes;
            per_text += bytes;
            per_latex += bytes;
        }
        return Derivation{"", "Gradient+optimizer memory",
                          {formula("Gradient+optimizer memory = N_trainable × (bytes of each stored value, added)",
                                   "\\text{Gradient+optimizer memory} = N_{\\text{trainable}} \\times \\textstyle\\sum \\text{bytes}"),
                           substitute(v.nt_values + "; recipe " + s.recipe +
                                          (e.adapter_fp32 ? " with fp32 adapters (PEFT's autocast_adapter_dtype)" : "") +
                                          ": " + names + " bytes, so " + v.nt_text + " × (" +
                                          per_text + ") bytes",
                                      v.nt_values_latex + " \\Rightarrow " + v.nt_latex + " \\times (" + per_latex +
                                          ")\\ \\text{bytes}"),
                           compute(e.gradient_optimizer_bytes)},
                          e.gradient_optimizer_bytes};
    }
    if (t.key == "reduction")
        return Derivation{"", "Reduction from training fewer parameters",
                          {formula("Reduction = gradient+optimizer memory (all " + v.n_text +
                                       " trainable) − gradient+optimizer memory (" + v.nt_text + " trainable)",
                                   "\\text{Reduction} = \\text{grad+opt}(" + v.n_latex + ") - \\text{grad+opt}(" + v.nt_latex + ")"),
                           substitute(format_gb(e.full_gradient_optimizer_bytes) + " − " + format_gb(e.gradient_optimizer_bytes) +
                                          "; the weights keep their " + format_gb(e.weight_bytes),
                                      gb_latex(e.full_gradient_optimizer_bytes) + " - " + gb_latex(e.gradient_optimizer_bytes)),
                           compute(e.reduction_bytes)},
                          e.reduction_bytes};
    if (t.key == "mtp_weight" && s.model) {
        // The module as count_parameters counts it, then where the engines put it.
        const ParamBreakdown& c = s.model->counts;
        const Architecture& a = s.model->architecture;
        const std::string layers = std::to_string(a.num_nextn_predict_layers);
        const std::string rest = count_text(c.mtp_count - c.mtp_table_count), tables = count_text(c.mtp_table_count);
        const std::string parts = c.mtp_table_count > 0
                                      ? rest + " (" + layers + " decoder layer" + (a.num_nextn_predict_layers == 1 ? "" : "s") +
                                            " with its 2h → h projection and norms) + " + tables +
                                            " (its own copies of the embedding and output head, 2 × vocabulary × hidden)"
                                      : rest + " (" + layers + " decoder layer" + (a.num_nextn_predict_layers == 1 ? "" : "s") +
                                            " with its 2h → h projection and norms; it shares the model's embedding and head)";
        std::string engines =
            "Not in the totals: transformers ignores these weights when it loads the model. vLLM skips them too, and loads "
            "them only as the drafter of --speculative-config '{\"method\":\"mtp\"}'";
        engines += c.mtp_table_count > 0 ? ", sharing the target's embedding and head (" + rest + " parameters then stay resident)."
                                         : ".";
        if (a.family == ModelFamily::deepseek_v2)
            engines += " llama.cpp's converter leaves this MTP layer out of the GGUF (convert_hf_to_gguf.py, skip_mtp).";
        else if (a.family == ModelFamily::glm4_moe)
            engines += " GLM-4.5 GGUFs store the NextN layer, and llama.cpp's loader skips it (TENSOR_SKIP): in the file, not in memory.";
        else if (a.family == ModelFamily::qwen3_next)
            engines += " llama.cpp loads it only under --spec-type draft-mtp (--mtp; src/models/qwen35.cpp and qwen3next.cpp skip it otherwise), with a draft context of its own.";
        WorkedStep result = compute(t.bytes);
        result.text += ". " + engines;  // the figure, then where the engines put it
        return Derivation{"", t.label,
                          {formula("MTP module = MTP parameters × b", "\\text{MTP module} = N_{\\text{MTP}} \\times b"),
                           substitute("N_MTP = " + parts + " = " + count_text(c.mtp_count) + ", so " + count_text(c.mtp_count) +
                                          " × " + v.b_weight_text,
                                      count_latex(c.mtp_count) + " \\times " + v.b_weight_latex),
                           result},
                          t.bytes};
    }
    if (t.key == "recurrent_state" && s.model) {
        // llama.cpp's RS buffer per recurrent layer and sequence: n_embd_r conv values + n_embd_s SSM values, f32.
        const Architecture& a = s.model->architecture;
        const RecurrentStateValues r = recurrent_state_values(a);
        const std::string layers = std::to_string(r.layers), conv = format_count_exact(r.conv_values),
                          ssm = format_count_exact(r.ssm_values), seqs = std::to_string(s.batch_size);
        return Derivation{"", t.label,
                          {formula("Recurrent state = recurrent layers × (conv state + SSM state) × sequences × 4 bytes",
                                   "\\text{Recurrent state} = L_{\\text{rec}} \\times (n_{\\text{conv}} + n_{\\text{ssm}}) \\times "
                                   "\\text{seqs} \\times 4"),
                           substitute(layers + " " + mixer_kind_name(a.recurrent.kind) + " layers, conv state (" +
                                          std::to_string(a.recurrent.conv_kernel) + " − 1) × " +
                                          format_count_exact(a.recurrent.d_inner + 2 * a.recurrent.n_groups * a.recurrent.d_state) +
                                          " = " + conv + ", SSM state " + ssm + ", " + seqs + " sequence" +
                                          (s.batch_size == 1 ? "" : "s") + ": " + layers + " × (" + conv + " + " + ssm + ") × " +
                                          seqs + " × 4 bytes (f32; the context length does not change it)",
                                      layers + " \\times (" + conv + " + " + ssm + ") \\times " + seqs + " \\times 4"),
                           compute(t.bytes)},
                          t.bytes};
    }
    if (t.total) return total_derivation(e, t);
    return std::nullopt;
}

}  // namespace

std::vector<Derivation> worked_steps(const Scenario& s, const Estimate& e) {
    const Values v = values_of(s, e);
    std::vector<Derivation> out;
    for (const MemoryTerm& t : e.terms) {
        if (!t.in_report || t.part) continue;
        std::optional<Derivation> d = derive(s, e, v, t);
        if (!d) continue;
        d->id = t.key;
        std::replace(d->id.begin(), d->id.end(), '_', '-');
        out.push_back(std::move(*d));
    }
    return out;
}

const Derivation* find_derivation(const std::vector<Derivation>& derivations, std::string_view id) {
    for (const Derivation& d : derivations)
        if (d.id == id) return &d;
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
