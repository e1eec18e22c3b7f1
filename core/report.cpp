// Text reports of an estimate. Every figure is formatted by quantity.hpp; nothing is recomputed here.
//
// Sections: result lines (from the terms table) · GPU sentences · units and padding · describe_inputs ·
//   report_json · recipe_range_sentence · report_table · report_markdown · report_summary ·
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

std::string inference_gpu_sentence(const Scenario& s, const Estimate& e) {
    const GpuFit& g = e.gpu;
    const std::string needed = std::to_string(g.inference_gpus_needed) + " GPU" + (g.inference_gpus_needed == 1 ? "" : "s");
    const std::string per_gpu = format_gb(g.inference_per_gpu_bytes);
    if (s.engine.kind == EngineKind::none)
        return std::string("Inference ") + (e.detailed_inference ? "(detailed)" : "(simple)") + " per GPU " + per_gpu + ": " +
               verdict_phrase(g.inference_verdict, g.inference_margin_bytes) + "; " + needed + " needed if split evenly";
    // The engine's verdict leads; the seed's rule is a comparison, worded without a verdict of its own.
    const bool over = g.inference_verdict == FitVerdict::does_not_fit;
    return std::string("For comparison, the seed's rule (") + (e.detailed_inference ? "detailed inference" : "weights x 1.2") +
           ", every layer on the GPUs, none of " + engine_name(s.engine.kind) + "'s placement): " + per_gpu + " per GPU, " +
           format_gb(g.inference_margin_bytes) + (over ? " more than" : " less than") + " a card holds; " + needed +
           " if split evenly";
}

namespace {

// The GPU line's training sentence: the peak (or the model states without a model) per GPU, its verdict and
// how many GPUs it needs.
std::string training_gpu_sentence(const Scenario& s, const Estimate& e) {
    const GpuFit& g = e.gpu;
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
        return training + " (model states + activations at seq-len " + std::to_string(s.training.seq_len) + " × micro-batch " +
               std::to_string(s.training.micro_batch) + " + logits and loss + framework + allocator margin" +
               (e.detailed_training ? ")" : "; training-mode detailed lists them)");
    return training + " (weights, gradients, optimizer states only; no activations: choose a model for the peak)";
}

// The GPU verdict sentences (empty without a GPU): training model states under ZeRO, then inference.
std::vector<std::string> gpu_sentences(const Scenario& s, const Estimate& e) {
    std::vector<std::string> out;
    const GpuFit& g = e.gpu;
    if (!g.requested) return out;
    out.push_back("GPU: " + std::to_string(g.gpu_count) + " x " + gpu_name(s) + ", " + format_gb(g.capacity_bytes) + " (" +
                  format_gib(g.capacity_bytes) + ") each, ZeRO stage " + std::to_string(g.zero_stage));
    // An inference-only format has no training run: its verdict sentence says so, and no training figure follows.
    if (!inference_only_format(s)) out.push_back(training_gpu_sentence(s, e));
    out.push_back(inference_gpu_sentence(s, e));
    // With an engine, its per-device lines say what each card holds; the seed's even split would be a
    // second answer to the same question.
    if (!g.inference_cards.empty() && s.engine.kind == EngineKind::none) out.push_back(card_sentence(s, e));
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
    if (is_seed_recipe(s.recipe) && e.adapter_fp32) {
        std::uint64_t pico = 0;
        for (const TrainingComponent& c : e.training_components) pico += c.bytes_per_trainable_pico;
        training += " (" + format_pico_bytes(pico) + " bytes per fp32 adapter parameter)";
    }
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
               s.lora_targets + ": " + format_count_exact(e.lora_trainable_count) + " trainable parameters" +
               (e.adapter_fp32 ? ", adapters in fp32 (PEFT's autocast_adapter_dtype)" : ", 16-bit adapters");
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
                   image_token_rule(media_tower(s, s.model->architecture), image_processor(s)) + ")";
        if (s.model && e.audio_tokens > 0)
            out += "\n  Audio: " + std::to_string(s.audio_seconds) + " s = " + std::to_string(e.audio_tokens) + " tokens added to the context (" +
                   audio_token_rule(media_tower(s, s.model->architecture), image_processor(s)) + ")";
        if (s.model) {
            const std::string recurrent = recurrent_layers_note(s.model->architecture);
            if (!recurrent.empty()) out += "\n  " + recurrent;
        }
    }
    return out;
}

}  // namespace

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
                       (s.training.sp ? " with sp" : "") + ", pp " + std::to_string(s.training.pp) + ", Adam/AdamW " +
                       optimizer_impl_text(s.training.optimizer_impl) + ", grad-accum " + std::to_string(s.training.grad_accum);
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
    if (e.quantized_linear_count > 0)
        return std::string(s.qlora ? "QLoRA" : "The weight format") + " decides: the " +
               (e.weight_format == "mxfp4" ? "experts in " + value + "; attention, embeddings, output head" : "decoder's linear weights in " + value + "; embeddings, output head") +
               " and norms in " + (unquantized_bytes(s) == 4 ? "fp32 (PEFT's upcast)" : "16 bits") +
               ". b is not used.";
    if (s.qlora) return "QLoRA decides: the base in " + value + ". b is not used.";
    const Expected<WeightFormat> format = find_weight_format(e.weight_format);
    if (format && format->linear_only)
        return "The weight format decides: " + value +
               " per weight. Without a model's architecture every weight counts at that size; a real checkpoint keeps its "
               "embeddings, head and norms in 16 bits (pick a model to split them). b is not used.";
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

// The detailed training settings as a JSON object (what the figures were computed for).
static void write_training_settings(JsonWriter& w, const Scenario& s, const Estimate& e) {
    const bool allocated = !s.framework_overhead_auto && s.framework_overhead_bytes == 0 && s.allocator_margin_percent.is_zero();
    w.begin_object().field("seq_len", s.training.seq_len).field("micro_batch", s.training.micro_batch);
    w.field("recompute", recompute_text(s.training.recompute)).field("attention", attention_text(s.training.attention));
    w.field("loss", loss_text(s.training.loss)).field("tp", s.training.tp).field("sp", s.training.sp).field("pp", s.training.pp);
    w.field("optimizer_impl", optimizer_impl_text(s.training.optimizer_impl)).field("grad_accum", s.training.grad_accum);
    w.field("activation_bytes_per_value", e.training_activations.value_bytes);
    w.raw_field("allocator_margin_percent", format_decimal(s.allocator_margin_percent));
    w.field("metric", allocated ? "allocated" : "nvidia-smi").end_object();
}

// The activation row's parts (bytes) and the pipeline stage they are for.
static void write_activation_breakdown(JsonWriter& w, const Estimate& e) {
    const TrainingActivations& a = e.training_activations;
    w.begin_object().field("norms", a.per_layer_sum.norms).field("attention", a.per_layer_sum.attention);
    w.field("attention_core", a.per_layer_sum.attention_core).field("mlp", a.per_layer_sum.mlp);
    w.field("recompute_live", a.recompute_live_bytes).field("outside_layers", a.outside_layers_bytes);
    w.field("stage", a.first_stage ? "first" : "last").field("stage_layers", a.stage_layers);
    w.field("micro_batches_in_flight", a.micro_batches_in_flight).end_object();
}

// gpu.inference's cards: each card's share of the inference total, with more than one GPU.
static void write_cards(JsonWriter& w, const GpuFit& g) {
    if (g.inference_cards.empty()) return;
    w.key("cards").begin_array();
    for (const CardFit& c : g.inference_cards)
        w.begin_object().field("bytes", c.bytes).field("fits", c.verdict != FitVerdict::does_not_fit).field("verdict", verdict_text(c.verdict))
            .field("margin_bytes", c.margin_bytes).end_object();
    w.end_array();
}

// The GPU verdicts: training on training_basis, inference on its total.
static void write_gpu(JsonWriter& w, const Scenario& s, const GpuFit& g) {
    w.begin_object().field("name", s.gpu_memory_bytes > 0 ? std::string("custom") : s.gpu).field("capacity_bytes", g.capacity_bytes);
    w.field("gpus", g.gpu_count).field("zero_stage", g.zero_stage).field("per_gpu_bytes", g.training_per_gpu.total());
    if (g.training_uses_peak)
        w.field("training_basis", "training_peak").field("peak_per_gpu_bytes", g.training_peak_per_gpu_bytes)
            .field("peak_high_per_gpu_bytes", g.training_peak_high_per_gpu_bytes);
    else
        w.field("training_basis", "model_states");
    w.field("fits", g.training_verdict != FitVerdict::does_not_fit).field("verdict", training_verdict_text(g));
    w.field("margin_bytes", g.training_margin_bytes).field("gpus_needed", g.training_gpus_needed);
    w.key("inference").begin_object().field("per_gpu_bytes", g.inference_per_gpu_bytes);
    w.field("fits", g.inference_verdict != FitVerdict::does_not_fit).field("verdict", verdict_text(g.inference_verdict));
    w.field("margin_bytes", g.inference_margin_bytes).field("gpus_needed", g.inference_gpus_needed);
    write_cards(w, g);
    w.end_object().end_object();
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

std::string report_json(const Scenario& s, const Estimate& e, const std::vector<JsonField>& leading) {
    JsonWriter w;
    w.begin_object().raw_fields(leading).field("parameters", e.param_count).field("trainable_parameters", e.trainable_count);
    w.raw_field("bytes_per_parameter", format_decimal(s.bytes_per_param)).raw_field("overhead_factor", format_decimal(s.overhead_factor));
    w.raw_field("values_per_trainable", format_decimal(s.values_per_trainable)).raw_field("bytes_per_value", format_decimal(s.bytes_per_value));
    // The table's rows, "<key>_bytes": the seed's figures here, the features' after the model.
    bool training_keys = false;
    auto term_fields = [&](JsonPlace place) {
        for (const MemoryTerm& t : e.terms) {
            if (t.json != place) continue;
            // Keys that belong beside a feature's first figure.
            if (t.key == "adapter_weight")
                w.field("lora_trainable_parameters", e.lora_trainable_count).field("adapter_dtype", e.adapter_fp32 ? "fp32" : "bf16");
            if (t.key == "inference_activation") w.field("inference_mode", "detailed");
            const bool training_row = t.key == "weight_per_gpu" || t.key == "activation";
            if (training_row && !training_keys) {
                training_keys = true;
                w.field("training_mode", "detailed").key("training");
                write_training_settings(w, s, e);
            }
            w.field(t.key + "_bytes", t.bytes);
            if (t.key == "training_peak") {
                w.field("training_peak_low_bytes", e.training_peak_low_bytes).field("training_peak_high_bytes", e.training_peak_high_bytes);
                w.field("training_peak_class", training_class_text(e.training_class)).key("activation_breakdown");
                write_activation_breakdown(w, e);
                // The terms of the phase that peaks (the backward pass or the optimizer step): they add up to the peak.
                const Total phase = training_peak_phase(e);
                w.field("training_peak_phase", phase == Total::training_step ? "optimizer step" : "backward pass");
                w.key("training_peak_terms").begin_array();
                for (const MemoryTerm* part : parts_of(e, phase))
                    w.begin_object().field("key", part->key).field("label", part->label).field("formula", part->formula)
                        .field("bytes", part->bytes).end_object();
                w.end_array();
            }
        }
    };
    term_fields(JsonPlace::top);
    // The model N came from: present only when a model is chosen and N is still its count.
    if (s.model && s.model->counts.total_count == e.param_count) {
        const ModelSource& m = *s.model;
        w.field("model", m.preset_key.empty() ? m.display_name : m.preset_key).field("model_name", m.display_name);
        if (m.architecture.is_moe()) w.field("active_parameters", m.counts.active_count);
        const ParamBreakdown& c = m.counts;
        w.key("breakdown").begin_object().field("embeddings", c.embedding_count).field("attention", c.attention_count);
        w.field("mlp", c.mlp_count).field("experts", c.expert_count).field("shared_experts", c.shared_expert_count);
        w.field("router", c.router_count).field("recurrent", c.recurrent_count).field("vision", c.vision_count);
        w.field("norms", c.norm_count).field("output_head", c.output_head_count).end_object();
        if (c.mtp_count > 0) w.field("mtp_parameters", c.mtp_count);
        if (m.architecture.approximate()) w.field("count_is_approximation", true);
        if (m.architecture.recurrent_layer_count() > 0) {
            w.field("attention_layers", m.architecture.attention_layer_count());
            w.field("recurrent_layers", m.architecture.recurrent_layer_count());
            w.field("recurrent_kind", mixer_kind_name(m.architecture.recurrent.kind));
        }
        if (!m.architecture.warnings.empty()) w.field("model_warnings", m.architecture.warnings);
    }
    // How it runs: keys appear only when the feature is in use, so the seed's object is unchanged.
    if (!e.weight_format.empty()) w.field("weight_format", e.weight_format);
    if (!is_seed_recipe(s.recipe)) {
        w.field("recipe", s.recipe).key("training_components").begin_array();
        for (const TrainingComponent& c : e.training_components)
            w.begin_object().field("name", c.name).raw_field("bytes_per_trainable", format_pico_bytes(c.bytes_per_trainable_pico))
                .field("bytes", c.bytes).field("kind", c.kind == StateKind::gradient ? "gradient" : "optimizer").end_object();
        w.end_array();
    }
    term_fields(JsonPlace::feature);
    if (e.gpu.requested) write_gpu(w.key("gpu"), s, e.gpu);
    if (s.engine.kind != EngineKind::none) {
        const Expected<EngineEstimate> engine = engine_estimate(s);
        w.key("engine");
        if (engine) w.raw(engine_json(*engine));
        else w.begin_object().field("name", engine_name(s.engine.kind)).field("error", engine.error()).end_object();
        w.key("verdicts").begin_object().field("runs", engine ? engine->verdict : engine.error());
        w.field("trains", training_verdict_sentence(s, e)).end_object();
    }
    return w.end_object().take();
}

namespace {

// An engine's refusal as one line, the engine named once: its own words ("vLLM: Total number of attention heads
// ...") as they are, anything else after its name.
std::string engine_failure_line(EngineKind kind, const Error& failure) {
    const std::string name = engine_name(kind);
    return failure.problem.rfind(name + ":", 0) == 0 ? failure.problem : name + ": " + failure.problem;
}

}  // namespace

std::vector<VerdictLine> verdict_lines(const Scenario& s, const Estimate& e) {
    std::vector<VerdictLine> out;
    if (s.engine.kind != EngineKind::none) {
        const Expected<EngineEstimate> engine = engine_estimate(s);
        if (engine) out.push_back({engine->verdict, engine->run_verdict, true});
        else out.push_back({engine_failure_line(s.engine.kind, engine.failure()), FitVerdict::does_not_fit, true});
    } else if (inference_only_format(s) && e.gpu.requested) {
        const GpuFit& g = e.gpu;
        const bool fits = g.inference_verdict != FitVerdict::does_not_fit;
        out.push_back({"Runs on " + std::to_string(g.gpu_count) + " x " + gpu_name(s) + " by the seed's rule: " +
                           (fits ? "yes" : "no") + " (" + (e.detailed_inference ? "detailed inference " : "weights x 1.2 = ") +
                           format_gb(g.inference_per_gpu_bytes) + " per GPU, " + format_gb(g.inference_margin_bytes) +
                           (fits ? " to spare" : " short") + (g.inference_verdict == FitVerdict::tight ? ", tight" : "") +
                           "). Choose an engine to see what llama.cpp or Ollama would place on the GPU and offload to the CPU.",
                       g.inference_verdict, true});
    }
    const std::string trains = training_verdict_sentence(s, e);
    if (!trains.empty() && (s.engine.kind != EngineKind::none || inference_only_format(s)))
        out.push_back({trains, inference_only_format(s) ? FitVerdict::does_not_fit : e.gpu.training_verdict});
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
                      : engine_failure_line(s.engine.kind, engine.failure()) + "\n";
        const std::string trains = training_verdict_sentence(s, e);
        if (!trains.empty()) out += trains + "\n";
        out += "\nThe seed's figures:\n";
    } else if (inference_only_format(s)) {
        for (const VerdictLine& line : verdict_lines(s, e)) out += line.text + "\n";
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

// Each non-empty line of `text` (trimmed when `trim_lines`) as a string of the writer's open array.
static void write_lines(JsonWriter& w, std::string_view text, bool trim_lines) {
    for (std::size_t at = 0, end; at < text.size(); at = end + 1) {
        end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        const std::string_view line = trim_lines ? trim(text.substr(at, end - at)) : text.substr(at, end - at);
        if (!line.empty()) w.value(line);
    }
}

std::string report_view_json(const Scenario& s, const Estimate& e) {
    JsonWriter w;
    // The report's lines above its figures (the inputs, LoRA, KV cache and model lines), one string each.
    w.begin_object().key("inputs").begin_array();
    write_lines(w, describe_inputs(s, e) + "\n" + model_line(s, e), true);
    w.end_array().key("results").begin_array();
    for (const Line& line : result_lines(e))
        w.begin_object().field("key", line.key).field("label", trim(line.label)).field("bytes", line.bytes).field("gb", format_gb(line.bytes))
            .field("gib", format_gib(line.bytes)).end_object();
    w.end_array().field("gpu", gpu_sentences(s, e));
    // The run and training verdicts, first on every face, and the engine's per-device report lines.
    w.key("verdicts").begin_array();
    for (const VerdictLine& line : verdict_lines(s, e)) w.value(line.text);
    w.end_array().key("engine").begin_array();
    if (s.engine.kind != EngineKind::none)
        if (const Expected<EngineEstimate> engine = engine_estimate(s)) write_lines(w, engine_report(*engine, 2), false);
    return w.end_array().end_object().take();
}

}  // namespace llm_memory
