// Text reports of an estimate. Every figure is formatted by quantity.hpp; nothing is recomputed here.
//
// Sections: result lines (from the terms table) · GPU sentences · units and padding · describe_inputs ·
//   json_escape · report_json · recipe_range_sentence · report_table · report_markdown · report_summary ·
//   report_view_json.
#include "report.hpp"

#include "hybrid.hpp"
#include "kv_cache.hpp"

#include "architecture.hpp"

#include <algorithm>
#include <vector>

#include "formats.hpp"
#include "gpus.hpp"
#include "engines/engine.hpp"
#include "recipes.hpp"

namespace llm_memory {
namespace {

struct Line {
    std::string label;
    std::uint64_t bytes;
    std::string key;  // the term's key (JSON "<key>_bytes")
};

// The rows of the memory-terms table that the text reports show, in table order; a recipe's stored
// values are indented under gradient+optimizer memory.
std::vector<Line> result_lines(const Estimate& e) {
    std::vector<Line> lines;
    for (const MemoryTerm& t : e.terms)
        if (t.in_report) lines.push_back({(t.part ? "  " : "") + t.label, t.bytes, t.key});
    return lines;
}

// "fits with 12.5 GB to spare" / "does not fit: 40 GB short".
std::string verdict_phrase(FitVerdict verdict, std::uint64_t margin_bytes) {
    if (verdict == FitVerdict::does_not_fit) return "does not fit: " + format_gb(margin_bytes) + " short";
    return std::string(verdict_text(verdict)) + ", " + format_gb(margin_bytes) + " to spare";
}

}  // namespace

std::string training_verdict_text(const GpuFit& g) {
    if (!g.training_uses_peak) return verdict_text(g.training_verdict);
    switch (g.training_verdict) {
        case FitVerdict::fits: return "fits";
        case FitVerdict::tight: return "fits unless the run lands at the high end";
        case FitVerdict::does_not_fit: return "does not fit";
    }
    return "fits";
}

std::string training_verdict_phrase(const GpuFit& g) {
    if (g.training_verdict == FitVerdict::does_not_fit) return "does not fit: " + format_gb(g.training_margin_bytes) + " short";
    if (g.training_verdict == FitVerdict::tight)
        return training_verdict_text(g) + " (" + format_gb(g.training_peak_high_per_gpu_bytes) + " is " +
               format_gb(g.training_peak_high_per_gpu_bytes - g.capacity_bytes) + " over), " + format_gb(g.training_margin_bytes) +
               " to spare at our figure";
    return "fits, " + format_gb(g.training_margin_bytes) + " to spare (" +
           format_gb(g.capacity_bytes - g.training_peak_high_per_gpu_bytes) + " at the high end)";
}

std::string training_band_sentence(const Estimate& e) {
    if (!e.training_peak_known) return {};
    const PeakBand band = training_peak_band(e.training_class);
    auto percent = [](std::uint64_t ppm) {
        const std::uint64_t tenths = ppm >= 1'000'000 ? (ppm - 1'000'000 + 500) / 1000 : (1'000'000 - ppm + 500) / 1000;
        return std::string(ppm >= 1'000'000 ? "+" : "−") + std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " %";
    };
    return "Likely " + format_gb(e.training_peak_low_bytes) + " to " + format_gb(e.training_peak_high_bytes) + " (" +
           percent(band.low_ppm) + " to " + percent(band.high_ppm) + " of " + format_gb(e.training_peak_bytes) +
           "): where published " + training_class_text(e.training_class) +
           " runs in the reality table measured against our figure (10th to 90th percentile).";
}

std::string card_split_heading(const Scenario& s, const Estimate& e) {
    const GpuFit& g = e.gpu;
    if (g.inference_cards.empty()) return {};
    std::string split;
    for (const Decimal& part : s.tensor_split) split += (split.empty() ? "" : ":") + format_decimal(part);
    return "Per card (" + (split.empty() ? std::string("even split") : "tensor split " + split) + " of " +
           format_gb(chosen_inference_bytes(e)) + "; pooled " + format_gb(g.capacity_bytes * g.gpu_count) +
           ", but each card holds its own share)";
}

std::string card_sentence(const Scenario& s, const Estimate& e) {
    const GpuFit& g = e.gpu;
    if (g.inference_cards.empty()) return {};
    std::string out = card_split_heading(s, e) + ": ";
    constexpr std::size_t kListed = 16;  // a long list of equal cards says nothing more
    for (std::size_t i = 0; i < g.inference_cards.size() && i < kListed; ++i) {
        const CardFit& card = g.inference_cards[i];
        out += (i > 0 ? "; GPU " : "GPU ") + std::to_string(i) + " " + format_gb(card.bytes) + ": " +
               verdict_phrase(card.verdict, card.margin_bytes);
    }
    if (g.inference_cards.size() > kListed)
        out += "; and " + std::to_string(g.inference_cards.size() - kListed) + " more";
    return out;
}

namespace {

// The GPU verdict sentences (empty without a GPU): training model states under ZeRO, then inference.
std::vector<std::string> gpu_sentences(const Scenario& s, const Estimate& e) {
    std::vector<std::string> out;
    const GpuFit& g = e.gpu;
    if (!g.requested) return out;
    out.push_back("GPU: " + std::to_string(g.gpu_count) + " x " + gpu_name(s) + ", " + format_gb(g.capacity_bytes) + " (" +
                  format_gib(g.capacity_bytes) + ") each, ZeRO stage " + std::to_string(g.zero_stage));
    std::string training = g.training_uses_peak
                               ? "Training peak per GPU " + format_gb(g.training_peak_per_gpu_bytes) + " (likely " +
                                     format_gb(e.training_peak_low_bytes) + " to " + format_gb(e.training_peak_high_bytes) + "): "
                               : "Training model states per GPU " + format_gb(g.training_per_gpu.total()) + ": ";
    training += (g.training_uses_peak ? training_verdict_phrase(g) : verdict_phrase(g.training_verdict, g.training_margin_bytes)) + "; ";
    if (g.training_gpus_needed == 0)
        training += "no number of GPUs fits at ZeRO stage " + std::to_string(g.zero_stage);
    else
        training += std::to_string(g.training_gpus_needed) + " GPU" + (g.training_gpus_needed == 1 ? "" : "s") +
                    " needed at ZeRO stage " + std::to_string(g.zero_stage);
    if (g.training_uses_peak)
        out.push_back(training + " (model states + activations at seq-len " + std::to_string(s.training.seq_len) +
                      " × micro-batch " + std::to_string(s.training.micro_batch) + " + logits and loss + framework + allocator margin" +
                      (e.detailed_training ? ")" : "; training-mode detailed lists them)"));
    else
        out.push_back(training + " (weights, gradients, optimizer states only; no activations: choose a model for the peak)");
    out.push_back(std::string("Inference ") + (e.detailed_inference ? "(detailed)" : "(simple)") + " per GPU " +
                  format_gb(g.inference_per_gpu_bytes) + ": " + verdict_phrase(g.inference_verdict, g.inference_margin_bytes) +
                  "; " + std::to_string(g.inference_gpus_needed) + " GPU" + (g.inference_gpus_needed == 1 ? "" : "s") +
                  " needed if split evenly");
    if (!g.inference_cards.empty()) out.push_back(card_sentence(s, e));
    return out;
}

// GB/GiB for figures of a gigabyte or more; smaller ones (LoRA adapters, their optimizer states) in
// MB/MiB or KB/KiB so they do not print as "0.01 GB".
std::string in_units(std::uint64_t bytes, UnitChoice units) {
    const std::string decimal = bytes >= 1'000'000'000ULL ? format_gb(bytes) : format_bytes_decimal(bytes);
    const std::string binary = bytes >= (1ULL << 30) ? format_gib(bytes) : format_bytes_binary(bytes);
    switch (units) {
        case UnitChoice::gb: return decimal;
        case UnitChoice::gib: return binary;
        case UnitChoice::both: return decimal + " (" + binary + ")";
    }
    return decimal;
}

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string describe_inputs(const Scenario& s, const Estimate& e) {
    std::string b = format_decimal(s.bytes_per_param) + " bytes";
    if (!e.weight_format.empty()) {
        const Expected<WeightFormat> format = find_weight_format(e.weight_format);
        if (format) b = format_bits_per_weight(*format) + " bits (" + format->label + ")";
    }
    std::string training = "k = " + format_decimal(s.values_per_trainable) + " x " + format_decimal(s.bytes_per_value) + " bytes";
    if (!is_seed_recipe(s.recipe)) {
        std::uint64_t pico = 0;
        for (const TrainingComponent& c : e.training_components) pico += c.bytes_per_trainable_pico;
        training = "recipe " + s.recipe + " (" + format_pico_bytes(pico) + " bytes per trainable)";
    }
    std::string out = "N = " + format_count_short(e.param_count, 3) + " parameters, b = " + b + ", overhead " +
                      format_decimal(s.overhead_factor) + ", trainable " + format_count_short(e.trainable_count, 3) +
                      ", " + training;
    if (e.lora_trainable_count > 0)
        out += "\n" + std::string(s.qlora ? "QLoRA" : "LoRA") + " rank " + std::to_string(s.lora_rank) + " on " +
               s.lora_targets + ": " + format_count_exact(e.lora_trainable_count) + " trainable parameters";
    if (s.qlora && e.lora_trainable_count > 0)
        out += std::string("\nQLoRA base: the decoder's linear weights in NF4, embeddings, output head and norms in ") +
               (s.upcast_nonquantized ? "fp32 (PEFT's prepare_model_for_kbit_training upcasts them)"
                                      : "16 bits (upcast-nonquantized false)");
    if (e.detailed_training) out += "\n" + training_settings_line(s) + "\n  " + training_band_sentence(e);
    if (s.context_tokens > 0) {
        out += "\nKV cache: " + std::to_string(s.context_tokens) + " tokens x batch " + std::to_string(s.batch_size) +
               " in " + s.kv_dtype;
        const Expected<WeightFormat> kv_format = find_weight_format(s.kv_dtype);
        if (s.model && kv_format) {
            const std::string note = sliding_window_note(s.model->architecture, s.context_tokens, s.batch_size, *kv_format);
            if (!note.empty()) out += "\n  " + note;
        }
        if (s.model && e.image_tokens > 0)
            out += "\n  Images: " + std::to_string(s.image_count) + " x " + std::to_string(e.image_tokens / s.image_count) +
                   " tokens at " + std::to_string(s.image_width) + "x" + std::to_string(s.image_height) + " added to the context (" +
                   image_token_rule(s.model->architecture.vision) + ")";
        if (s.model) {
            const std::string recurrent = recurrent_layers_note(s.model->architecture);
            if (!recurrent.empty()) out += "\n  " + recurrent;
        }
    }
    return out;
}

}  // namespace

std::string cards_json(const GpuFit& g) {
    if (g.inference_cards.empty()) return {};
    std::string out = ",\"cards\":[";
    for (std::size_t i = 0; i < g.inference_cards.size(); ++i) {
        const CardFit& c = g.inference_cards[i];
        out += std::string(i > 0 ? "," : "") + "{\"bytes\":" + std::to_string(c.bytes) + ",\"fits\":" +
               (c.verdict != FitVerdict::does_not_fit ? "true" : "false") + ",\"verdict\":\"" + verdict_text(c.verdict) +
               "\",\"margin_bytes\":" + std::to_string(c.margin_bytes) + "}";
    }
    return out + "]";
}

std::string gpu_name(const Scenario& s) {
    if (s.gpu_memory_bytes > 0) return "custom GPU";
    if (s.gpu.empty()) return {};
    const Expected<Gpu> gpu = find_gpu(s.gpu);
    return gpu ? gpu->label : std::string("custom GPU");
}

std::string training_settings_line(const Scenario& s) {
    std::string line = "Training (detailed): seq-len " + std::to_string(s.training.seq_len) + " x micro-batch " +
                       std::to_string(s.training.micro_batch) + ", recompute " + recompute_text(s.training.recompute) + ", " +
                       attention_text(s.training.attention) + " attention, " + loss_text(s.training.loss) + " loss, tp " + std::to_string(s.training.tp) +
                       (s.training.sp ? " with sp" : "") + ", pp " + std::to_string(s.training.pp);
    return line + "\n  " + training_metric_sentence(s);
}

std::string weight_format_value(const Estimate& e) {
    if (e.weight_format.empty()) return {};
    const Expected<WeightFormat> format = find_weight_format(e.weight_format);
    if (!format) return e.weight_format;
    return format->label + " = " + format_bits_per_weight(*format) + " bits";
}

std::string weight_format_note(const Scenario& s, const Estimate& e) {
    if (e.weight_format.empty()) return {};
    const std::string value = weight_format_value(e);
    if (e.qlora_linear_count > 0)
        return "QLoRA decides: the decoder's linear weights in " + value + "; embeddings, output head and norms in " +
               (s.upcast_nonquantized ? "fp32 (PEFT's upcast)" : "16 bits") + ". b is not used.";
    if (s.qlora) return "QLoRA decides: the base in " + value + ". b is not used.";
    return "The weight format decides: " + value + " per weight. b is not used.";
}

std::string training_fit_note(const Scenario& s, const Estimate& e) {
    const GpuFit& g = e.gpu;
    if (!g.requested) return {};
    if (!g.training_uses_peak)
        return "Model states only (weights, gradients, optimizer states): choose a model to include the activations, "
               "logits and framework memory.";
    return "The training peak: model states + activations at seq-len " + std::to_string(s.training.seq_len) + " x micro-batch " +
           std::to_string(s.training.micro_batch) + " + logits and loss + framework memory + allocator margin" +
           (e.detailed_training ? "." : " (Training mode: detailed lists each term).");
}

std::string training_metric_sentence(const Scenario& s) {
    const bool allocated = !s.framework_overhead_auto && s.framework_overhead_bytes == 0 && s.allocator_margin_percent.is_zero();
    if (allocated)
        return "The peak estimates torch.cuda.max_memory_allocated (tensors only: no framework memory, no allocator margin).";
    return "The peak estimates what nvidia-smi shows for the process: allocated tensors, the caching allocator's margin "
           "(reserved) and the CUDA context.";
}

std::string json_escape(const std::string& text) {
    std::string out;
    static const char kHex[] = "0123456789abcdef";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (u < 0x20) {
            out += "\\u00";
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        } else out.push_back(c);
    }
    return out;
}

// The detailed training settings as a JSON object (what the figures were computed for).
static std::string training_settings_json(const Scenario& s, const Estimate& e) {
    const bool allocated = !s.framework_overhead_auto && s.framework_overhead_bytes == 0 && s.allocator_margin_percent.is_zero();
    return "{\"seq_len\":" + std::to_string(s.training.seq_len) + ",\"micro_batch\":" + std::to_string(s.training.micro_batch) +
           ",\"recompute\":\"" + recompute_text(s.training.recompute) + "\",\"attention\":\"" + attention_text(s.training.attention) +
           "\",\"loss\":\"" + loss_text(s.training.loss) + "\",\"tp\":" + std::to_string(s.training.tp) + ",\"sp\":" +
           (s.training.sp ? "true" : "false") + ",\"pp\":" + std::to_string(s.training.pp) + ",\"activation_bytes_per_value\":" +
           std::to_string(e.training_activations.value_bytes) + ",\"allocator_margin_percent\":" +
           format_decimal(s.allocator_margin_percent) + ",\"metric\":\"" + (allocated ? "allocated" : "nvidia-smi") + "\"}";
}

// The activation row's parts (bytes) and the pipeline stage they are for.
static std::string activation_breakdown_json(const Estimate& e) {
    const TrainingActivations& a = e.training_activations;
    return "{\"norms\":" + std::to_string(a.per_layer_sum.norms) + ",\"attention\":" + std::to_string(a.per_layer_sum.attention) +
           ",\"attention_core\":" + std::to_string(a.per_layer_sum.attention_core) + ",\"mlp\":" +
           std::to_string(a.per_layer_sum.mlp) + ",\"recompute_live\":" + std::to_string(a.recompute_live_bytes) +
           ",\"outside_layers\":" + std::to_string(a.outside_layers_bytes) + ",\"stage\":\"" +
           (a.first_stage ? "first" : "last") + "\",\"stage_layers\":" + std::to_string(a.stage_layers) +
           ",\"micro_batches_in_flight\":" + std::to_string(a.micro_batches_in_flight) + "}";
}

// The chosen model, when N is still its count: one line for the text reports.
static std::string model_line(const Scenario& s, const Estimate& e) {
    if (!s.model || s.model->counts.total_count != e.param_count) return {};
    const ModelSource& m = *s.model;
    std::string line = "Model " + m.display_name + ": " + format_count_exact(m.counts.total_count) + " parameters";
    if (m.architecture.is_moe()) line += ", " + format_count_exact(m.counts.active_count) + " active per token";
    if (m.architecture.approximate())
        line += " (an approximation: model_type \"" + m.architecture.model_type +
                "\" is not known, so it is counted as a Llama-style decoder)";
    return line + "\n";
}

std::string report_json(const Scenario& s, const Estimate& e) {
    std::string out = "{";
    auto field = [&out](const char* key, const std::string& raw) {
        if (out.size() > 1) out += ",";
        out += "\"";
        out += key;
        out += "\":";
        out += raw;
    };
    field("parameters", std::to_string(e.param_count));
    field("trainable_parameters", std::to_string(e.trainable_count));
    field("bytes_per_parameter", format_decimal(s.bytes_per_param));
    field("overhead_factor", format_decimal(s.overhead_factor));
    field("values_per_trainable", format_decimal(s.values_per_trainable));
    field("bytes_per_value", format_decimal(s.bytes_per_value));
    // The table's rows, "<key>_bytes": the seed's figures here, the features' after the model.
    bool training_keys = false;
    auto term_fields = [&](JsonPlace place) {
        for (const MemoryTerm& t : e.terms) {
            if (t.json != place) continue;
            // Keys that belong beside a feature's first figure.
            if (t.key == "adapter_weight") field("lora_trainable_parameters", std::to_string(e.lora_trainable_count));
            if (t.key == "inference_activation") field("inference_mode", "\"detailed\"");
            const bool training_row = t.key == "weight_per_gpu" || t.key == "activation";
            if (training_row && !training_keys) {
                training_keys = true;
                field("training_mode", "\"detailed\"");
                field("training", training_settings_json(s, e));
            }
            field((t.key + "_bytes").c_str(), std::to_string(t.bytes));
            if (t.key == "training_peak") {
                field("training_peak_low_bytes", std::to_string(e.training_peak_low_bytes));
                field("training_peak_high_bytes", std::to_string(e.training_peak_high_bytes));
                field("training_peak_class", std::string("\"") + training_class_text(e.training_class) + "\"");
                field("activation_breakdown", activation_breakdown_json(e));
                std::string list = "[";
                for (const MemoryTerm* part : parts_of(e, Total::training_peak))
                    list += std::string(list.size() > 1 ? "," : "") + "{\"key\":\"" + json_escape(part->key) +
                            "\",\"label\":\"" + json_escape(part->label) + "\",\"formula\":\"" +
                            json_escape(part->formula) + "\",\"bytes\":" + std::to_string(part->bytes) + "}";
                field("training_peak_terms", list + "]");
            }
        }
    };
    term_fields(JsonPlace::top);
    // The model N came from: present only when a model is chosen and N is still its count.
    if (s.model && s.model->counts.total_count == e.param_count) {
        const ModelSource& m = *s.model;
        field("model", "\"" + json_escape(m.preset_key.empty() ? m.display_name : m.preset_key) + "\"");
        field("model_name", "\"" + json_escape(m.display_name) + "\"");
        if (m.architecture.is_moe()) field("active_parameters", std::to_string(m.counts.active_count));
        const ParamBreakdown& c = m.counts;
        field("breakdown", "{\"embeddings\":" + std::to_string(c.embedding_count) + ",\"attention\":" +
                               std::to_string(c.attention_count) + ",\"mlp\":" + std::to_string(c.mlp_count) +
                               ",\"experts\":" + std::to_string(c.expert_count) + ",\"shared_experts\":" +
                               std::to_string(c.shared_expert_count) + ",\"router\":" + std::to_string(c.router_count) +
                               ",\"recurrent\":" + std::to_string(c.recurrent_count) +
                               ",\"vision\":" + std::to_string(c.vision_count) +
                               ",\"norms\":" + std::to_string(c.norm_count) + ",\"output_head\":" +
                               std::to_string(c.output_head_count) + "}");
        if (c.mtp_count > 0) field("mtp_parameters", std::to_string(c.mtp_count));
        if (m.architecture.approximate()) field("count_is_approximation", "true");
        if (m.architecture.recurrent_layer_count() > 0) {
            field("attention_layers", std::to_string(m.architecture.attention_layer_count()));
            field("recurrent_layers", std::to_string(m.architecture.recurrent_layer_count()));
            field("recurrent_kind", "\"" + std::string(mixer_kind_name(m.architecture.recurrent.kind)) + "\"");
        }
        if (!m.architecture.warnings.empty()) {
            std::string list = "[";
            for (const std::string& w : m.architecture.warnings) list += (list.size() > 1 ? ",\"" : "\"") + json_escape(w) + "\"";
            field("model_warnings", list + "]");
        }
    }
    // How it runs: keys appear only when the feature is in use, so the seed's object is unchanged.
    if (!e.weight_format.empty()) field("weight_format", "\"" + json_escape(e.weight_format) + "\"");
    if (!is_seed_recipe(s.recipe)) {
        std::string list = "[";
        for (const TrainingComponent& c : e.training_components) {
            if (list.size() > 1) list += ",";
            list += "{\"name\":\"" + json_escape(c.name) + "\",\"bytes_per_trainable\":" +
                    format_pico_bytes(c.bytes_per_trainable_pico) + ",\"bytes\":" + std::to_string(c.bytes) +
                    ",\"kind\":\"" + (c.kind == StateKind::gradient ? "gradient" : "optimizer") + "\"}";
        }
        field("recipe", "\"" + json_escape(s.recipe) + "\"");
        field("training_components", list + "]");
    }
    term_fields(JsonPlace::feature);
    if (e.gpu.requested) {
        const GpuFit& g = e.gpu;
        auto verdict_key = [](FitVerdict v) { return std::string("\"") + verdict_text(v) + "\""; };
        field("gpu", "{\"name\":\"" + json_escape(s.gpu_memory_bytes > 0 ? std::string("custom") : s.gpu) +
                         "\",\"capacity_bytes\":" + std::to_string(g.capacity_bytes) + ",\"gpus\":" +
                         std::to_string(g.gpu_count) + ",\"zero_stage\":" + std::to_string(g.zero_stage) +
                         ",\"per_gpu_bytes\":" + std::to_string(g.training_per_gpu.total()) + ",\"training_basis\":" +
                         (g.training_uses_peak ? "\"training_peak\",\"peak_per_gpu_bytes\":" +
                                                     std::to_string(g.training_peak_per_gpu_bytes) +
                                                     ",\"peak_high_per_gpu_bytes\":" +
                                                     std::to_string(g.training_peak_high_per_gpu_bytes)
                                               : std::string("\"model_states\"")) +
                         ",\"fits\":" +
                         (g.training_verdict != FitVerdict::does_not_fit ? "true" : "false") + ",\"verdict\":\"" +
                         training_verdict_text(g) + "\"" + ",\"margin_bytes\":" + std::to_string(g.training_margin_bytes) +
                         ",\"gpus_needed\":" + std::to_string(g.training_gpus_needed) + ",\"inference\":{\"per_gpu_bytes\":" +
                         std::to_string(g.inference_per_gpu_bytes) + ",\"fits\":" +
                         (g.inference_verdict != FitVerdict::does_not_fit ? "true" : "false") + ",\"verdict\":" +
                         verdict_key(g.inference_verdict) + ",\"margin_bytes\":" + std::to_string(g.inference_margin_bytes) +
                         ",\"gpus_needed\":" + std::to_string(g.inference_gpus_needed) + cards_json(g) + "}}");
    }
    if (s.engine.kind != EngineKind::none) {
        const Expected<EngineEstimate> engine = engine_estimate(s);
        field("engine", engine ? engine_json(*engine) : "{\"name\":\"" + json_escape(engine_name(s.engine.kind)) + "\",\"error\":\"" + json_escape(engine.error()) + "\"}");
        const std::string trains = training_verdict_sentence(s, e);
        field("verdicts", "{\"runs\":\"" + json_escape(engine ? engine->verdict : engine.error()) + "\",\"trains\":\"" + json_escape(trains) + "\"}");
    }
    out += "}";
    return out;
}

std::vector<std::string> verdict_sentences(const Scenario& s, const Estimate& e) {
    std::vector<std::string> out;
    if (s.engine.kind != EngineKind::none) {
        const Expected<EngineEstimate> engine = engine_estimate(s);
        out.push_back(engine ? engine->verdict : std::string(engine_name(s.engine.kind)) + ": " + engine.error());
    }
    const std::string trains = training_verdict_sentence(s, e);
    if (!trains.empty() && (s.engine.kind != EngineKind::none || inference_only_format(s))) out.push_back(trains);
    return out;
}

Expected<std::string> recipe_range_sentence(const Scenario& s) {
    Scenario seed = s;
    seed.recipe = kSeedRecipe;
    Scenario mixed = s;
    mixed.recipe = "adamw-mixed";
    const Expected<Estimate> seed_e = estimate(seed);
    if (!seed_e) return Error{seed_e.error()};
    const Expected<Estimate> mixed_e = estimate(mixed);
    if (!mixed_e) return Error{mixed_e.error()};
    auto per_trainable = [](const Estimate& e) {
        std::uint64_t pico = 0;
        for (const TrainingComponent& c : e.training_components) pico += c.bytes_per_trainable_pico;
        return format_pico_bytes(pico) + " bytes";
    };
    return "Conventions differ: training total " + format_gb(seed_e->training_bytes) + " (seed-adam, " +
           per_trainable(*seed_e) + ") vs " + format_gb(mixed_e->training_bytes) + " (adamw-mixed, " +
           per_trainable(*mixed_e) + ") per trainable parameter.";
}

std::string report_table(const Scenario& s, const Estimate& e, UnitChoice units) {
    std::string out;
    if (s.engine.kind != EngineKind::none) {
        // The question people bring first: does it run, with this engine. Then training, its own verdict.
        const Expected<EngineEstimate> engine = engine_estimate(s);
        out += engine ? engine_report(*engine, units == UnitChoice::gb ? 0 : units == UnitChoice::gib ? 1 : 2)
                      : std::string(engine_name(s.engine.kind)) + ": " + engine.error() + "\n";
        const std::string trains = training_verdict_sentence(s, e);
        if (!trains.empty()) out += trains + "\n";
        out += "\nThe seed's figures:\n";
    } else if (inference_only_format(s)) {
        out += training_verdict_sentence(s, e) + "\n";
    }
    out += describe_inputs(s, e) + "\n";
    out += model_line(s, e);
    const std::vector<Line> lines = result_lines(e);
    std::size_t width = 28;  // the seed's column; a longer label widens it for every line
    for (const Line& line : lines) width = std::max(width, line.label.size() + 2);
    for (const Line& line : lines) out += pad(std::string(line.label), width) + in_units(line.bytes, units) + "\n";
    for (const std::string& sentence : gpu_sentences(s, e)) out += sentence + "\n";
    out += "(GB = 10^9 bytes, GiB = 2^30 bytes)\n";
    return out;
}

std::string report_markdown(const Scenario& s, const Estimate& e, UnitChoice units) {
    std::string out = describe_inputs(s, e);
    // Markdown joins lines of a paragraph: end each input line with two spaces (a hard line break).
    for (std::size_t at = out.find('\n'); at != std::string::npos; at = out.find('\n', at + 3)) out.insert(at, "  ");
    out += "\n\n";
    const bool gb = units != UnitChoice::gib;
    const bool gib = units != UnitChoice::gb;
    out += "| Result |";
    if (gb) out += " GB |";
    if (gib) out += " GiB |";
    out += "\n|---|";
    if (gb) out += "---:|";
    if (gib) out += "---:|";
    out += "\n";
    for (const Line& line : result_lines(e)) {
        out += "| " + std::string(line.label) + " |";
        if (gb) out += " " + format_gb(line.bytes) + " |";
        if (gib) out += " " + format_gib(line.bytes) + " |";
        out += "\n";
    }
    const std::vector<std::string> sentences = gpu_sentences(s, e);
    if (!sentences.empty()) out += "\n";
    for (const std::string& sentence : sentences) out += "- " + sentence + "\n";
    return out;
}

std::string report_summary(const Estimate& e) {
    std::string out;
    for (const Line& line : result_lines(e)) {
        if (!out.empty()) out += " ";
        out += std::string(trim(line.label)) + " " + format_gb(line.bytes) + " (" + format_gib(line.bytes) + ").";
    }
    if (e.gpu.requested)
        out += " On " + std::to_string(e.gpu.gpu_count) + " GPU" + (e.gpu.gpu_count == 1 ? "" : "s") +
               ", training model states " + verdict_text(e.gpu.training_verdict) + "; inference " +
               verdict_text(e.gpu.inference_verdict) + ".";
    return out;
}

std::string report_view_json(const Scenario& s, const Estimate& e) {
    // The report's lines above its figures (the inputs, LoRA, KV cache and model lines), one string each.
    std::string out = "{\"inputs\":[";
    const std::string inputs = describe_inputs(s, e) + "\n" + model_line(s, e);
    bool first = true;
    for (std::size_t at = 0, end; at < inputs.size(); at = end + 1) {
        end = inputs.find('\n', at);
        if (end == std::string::npos) end = inputs.size();
        const std::string_view line = trim(std::string_view(inputs).substr(at, end - at));
        if (line.empty()) continue;
        out += std::string(first ? "\"" : ",\"") + json_escape(std::string(line)) + "\"";
        first = false;
    }
    out += "],\"results\":[";
    first = true;
    for (const Line& line : result_lines(e)) {
        out += std::string(first ? "" : ",") + "{\"key\":\"" + json_escape(line.key) + "\",\"label\":\"" + json_escape(std::string(trim(line.label))) +
               "\",\"bytes\":" + std::to_string(line.bytes) + ",\"gb\":\"" + json_escape(format_gb(line.bytes)) +
               "\",\"gib\":\"" + json_escape(format_gib(line.bytes)) + "\"}";
        first = false;
    }
    out += "],\"gpu\":[";
    first = true;
    for (const std::string& sentence : gpu_sentences(s, e)) {
        out += std::string(first ? "\"" : ",\"") + json_escape(sentence) + "\"";
        first = false;
    }
    // The run and training verdicts, first on every face, and the engine's per-device report lines.
    out += "],\"verdicts\":[";
    first = true;
    for (const std::string& sentence : verdict_sentences(s, e)) {
        out += std::string(first ? "\"" : ",\"") + json_escape(sentence) + "\"";
        first = false;
    }
    out += "],\"engine\":[";
    if (s.engine.kind != EngineKind::none) {
        if (const Expected<EngineEstimate> engine = engine_estimate(s)) {
            const std::string text = engine_report(*engine, 2);
            first = true;
            for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
                end = text.find('\n', at);
                if (end == std::string::npos) end = text.size();
                if (end == at) continue;
                out += std::string(first ? "\"" : ",\"") + json_escape(text.substr(at, end - at)) + "\"";
                first = false;
            }
        }
    }
    return out + "]}";
}

}  // namespace llm_memory
