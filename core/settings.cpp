// The settings table: every input's key, how it is parsed and how it is written back.
// The same table drives the CLI flags, URL state, the JS API and stored state.
//
// Sections: apply/show functions per kind of value (count, model, decimal, trainable, dtype, recipe, whole
//   numbers, LoRA targets, bools, context, GPU, GPU memory) · the settings table (setting_specs) ·
//   apply_setting / apply_state / to_state · URL encoding.
#include "settings.hpp"

#include "model_presets.hpp"

#include "formats.hpp"
#include "gpus.hpp"
#include "kv_cache.hpp"
#include "lora.hpp"
#include "recipes.hpp"

namespace llm_memory {
namespace {

std::string apply_params(Scenario& s, std::string_view text) {
    const Expected<std::uint64_t> n = parse_count(text);
    if (!n) return n.error();
    if (*n == 0) return "must be greater than zero";
    if (s.model && *n != s.param_count) s.model.reset();  // a typed N that differs is no longer that model
    s.param_count = *n;
    return {};
}

// A built-in model (core/model_presets.hpp): N becomes its exact count. "" or "none" forgets the model.
std::string apply_model(Scenario& s, std::string_view text) {
    const std::string_view t = trim(text);
    if (t.empty() || t == "none") {
        s.model.reset();
        return {};
    }
    Expected<ModelSource> source = load_preset(t);
    if (!source) return source.error();
    if (s.text_only && source->architecture.vision.kind != VisionKind::none) source = text_only_model(*source);
    if (!source) return source.error();
    s.param_count = source->counts.total_count;
    s.model = std::make_shared<const ModelSource>(std::move(source.value()));
    return {};
}

// The preset key while N is still that preset's count; "" for no model or a user's config.json.
std::string show_model(const Scenario& s) {
    if (!s.model || s.model->preset_key.empty() || s.model->counts.total_count != s.param_count) return {};
    return s.model->preset_key;
}

std::string apply_decimal(Decimal& field, std::string_view text, std::uint64_t max_micros, bool allow_zero) {
    const Expected<Decimal> d = parse_decimal(text, max_micros);
    if (!d) return d.error();
    if (!allow_zero && d->is_zero()) return "must be greater than zero";
    field = *d;
    return {};
}

std::string apply_trainable(Scenario& s, std::string_view text) {
    const std::string_view t = trim(text);
    if (t == "all") {
        s.trainable = TrainableSpec::all_params();
        return {};
    }
    if (!t.empty() && t.back() == '%') {
        const Expected<Decimal> p = parse_decimal(t.substr(0, t.size() - 1), kMaxParamCount);
        if (!p) return p.error();
        if (p->micros > 100 * Decimal::kScale) return "is more than 100%";
        s.trainable = TrainableSpec::percent_of(*p);
        return {};
    }
    const Expected<std::uint64_t> n = parse_count(t);
    if (!n) return n.error() + " (a count such as 1B, or a percentage such as 7.7%)";
    s.trainable = TrainableSpec::exact(*n);
    return {};
}

std::string show_trainable(const Scenario& s) {
    switch (s.trainable.kind) {
        case TrainableSpec::Kind::all: return {};
        case TrainableSpec::Kind::count: return format_count_state(s.trainable.count);
        case TrainableSpec::Kind::percent: return format_decimal(s.trainable.percent) + "%";
    }
    return {};
}

std::string show_if_changed(Decimal value, Decimal default_value) {
    return value == default_value ? std::string() : format_decimal(value);
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}


// How it runs: weight format, recipe, LoRA, KV cache, GPU.

std::string lower_text(std::string_view text) {
    std::string out;
    for (char c : trim(text)) out.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    return out;
}

std::string apply_dtype(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t.empty() || t == "default" || t == "bytes") {
        s.dtype.clear();
        return {};
    }
    const Expected<WeightFormat> format = find_weight_format(t);
    if (!format) return format.error();
    s.dtype = format->key;
    return {};
}

std::string apply_kv_dtype(Scenario& s, std::string_view text) {
    const Expected<WeightFormat> format = find_weight_format(text);
    if (!format) return format.error();
    s.kv_dtype = format->key;
    return {};
}

std::string apply_recipe(Scenario& s, std::string_view text) {
    const Expected<Recipe> recipe = find_recipe(text);
    if (!recipe) return recipe.error();
    s.recipe = recipe->key;
    return {};
}

// A whole number in [min_value, max_value]; `what` completes "must be ...".
std::string apply_whole(std::uint64_t& field, std::string_view text, std::uint64_t min_value, std::uint64_t max_value) {
    const Expected<std::uint64_t> n = parse_whole_count(text, max_value);
    if (!n) return n.error();
    if (*n < min_value) return "must be at least " + std::to_string(min_value);
    field = *n;
    return {};
}

std::string apply_lora_targets(Scenario& s, std::string_view text) {
    const Expected<std::vector<std::string>> targets = parse_lora_targets(text);
    if (!targets) return targets.error();
    std::string joined;
    for (const std::string& target : *targets) joined += (joined.empty() ? "" : ",") + target;
    s.lora_targets = joined;
    return {};
}

std::string apply_bool(bool& field, std::string_view text) {
    const std::string t = lower_text(text);
    if (t == "" || t == "1" || t == "true" || t == "yes" || t == "on") field = true;
    else if (t == "0" || t == "false" || t == "no" || t == "off") field = false;
    else return "\"" + printable_excerpt(text, 40) + "\" is not true or false";
    return {};
}

// Tokens: plain, or K/M meaning 1024/1048576 as context sizes are usually written (8K = 8192).
std::string apply_tokens(std::uint64_t& field, std::string_view text) {
    std::string t(trim(text));
    std::uint64_t unit = 1;
    if (!t.empty() && (t.back() == 'k' || t.back() == 'K')) unit = 1024;
    if (!t.empty() && (t.back() == 'm' || t.back() == 'M')) unit = 1024 * 1024;
    if (unit > 1) t.pop_back();
    const Expected<std::uint64_t> tokens = parse_whole_count(t, kMaxContextTokens / unit, kContextLimit);
    if (!tokens) return tokens.error();
    field = *tokens * unit;
    return {};
}

std::string apply_context(Scenario& s, std::string_view text) { return apply_tokens(s.context_tokens, text); }

std::string apply_seq_len(Scenario& s, std::string_view text) {
    std::uint64_t tokens = 0;
    std::string error = apply_tokens(tokens, text);
    if (!error.empty()) return error;
    if (tokens == 0) return "must be at least 1";
    s.seq_len = tokens;
    return {};
}

std::string apply_training_mode(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t == "simple") s.detailed_training = false;
    else if (t == "detailed") s.detailed_training = true;
    else return "\"" + printable_excerpt(text, 40) + "\" is not simple or detailed";
    return {};
}

// One of a few words: the value's index in `words`, or an error listing them.
template <typename Enum, std::size_t N>
std::string apply_choice(Enum& field, std::string_view text, const char* const (&words)[N]) {
    const std::string t = lower_text(text);
    for (std::size_t i = 0; i < N; ++i)
        if (t == words[i]) {
            field = static_cast<Enum>(i);
            return {};
        }
    std::string list;
    for (std::size_t i = 0; i < N; ++i) list += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + words[i];
    return "\"" + printable_excerpt(text, 40) + "\" is not " + list;
}
constexpr const char* kRecomputeWords[] = {"none", "selective", "full"};
constexpr const char* kAttentionWords[] = {"flash", "eager"};
constexpr const char* kLossWords[] = {"full", "chunked"};

// A percentage from 0 to 100, with or without the % sign.
std::string apply_percent(Decimal& field, std::string_view text) {
    std::string_view t = trim(text);
    if (!t.empty() && t.back() == '%') t.remove_suffix(1);
    const Expected<Decimal> d = parse_decimal(t, 100 * Decimal::kScale, "100%");
    if (!d) return d.error();
    field = *d;
    return {};
}

std::string apply_inference_mode(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t == "simple") s.detailed_inference = false;
    else if (t == "detailed") s.detailed_inference = true;
    else return "\"" + printable_excerpt(text, 40) + "\" is not simple or detailed";
    return {};
}

std::string apply_gpu(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t.empty() || t == "none") {
        s.gpu.clear();
        return {};
    }
    const Expected<Gpu> gpu = find_gpu(t);
    if (!gpu) return gpu.error();
    s.gpu = gpu->key;
    return {};
}

// A memory size with a unit ("80GiB", "24 GB", "16384MiB", "512MiB"; quantity.hpp's parse_memory_size),
// at most 1 PiB, into `out`. Zero is an error (callers that accept "0" check for it first).
std::string read_memory_size(std::uint64_t& out, std::string_view text) {
    const Expected<std::uint64_t> bytes = parse_memory_size(text, kMaxGpuMemoryBytes, "1 PiB");
    if (!bytes) return bytes.error();
    out = *bytes;
    return {};
}

// Memory per GPU: a size, or "0" / "none" (clears).
std::string apply_gpu_memory(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t == "0" || t.empty() || t == "none") {
        s.gpu_memory_bytes = 0;
        return {};
    }
    return read_memory_size(s.gpu_memory_bytes, t);
}

// The framework's memory per GPU: "auto" (CUDA context + NCCL from the GPU count), "0", or a size.
std::string apply_framework_overhead(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t == "auto" || t.empty()) {
        s.framework_overhead_auto = true;
        s.framework_overhead_bytes = 0;
        return {};
    }
    std::uint64_t bytes = 0;
    if (t != "0") {
        const std::string error = read_memory_size(bytes, t);
        if (!error.empty()) return error + " (or auto)";
    }
    s.framework_overhead_auto = false;
    s.framework_overhead_bytes = bytes;
    return {};
}

std::string show_size(std::uint64_t b) {
    if (b % (1ULL << 30) == 0) return std::to_string(b >> 30) + "GiB";
    if (b % (1ULL << 20) == 0) return std::to_string(b >> 20) + "MiB";
    if (b % 1'000'000'000ULL == 0) return std::to_string(b / 1'000'000'000ULL) + "GB";
    if (b % 1'000'000ULL == 0) return std::to_string(b / 1'000'000ULL) + "MB";
    return std::to_string(b) + "B";
}

std::string show_gpu_memory(const Scenario& s) {
    const std::uint64_t b = s.gpu_memory_bytes;
    if (b == 0) return {};
    if (b % (1ULL << 30) == 0) return std::to_string(b >> 30) + "GiB";
    if (b % 1'000'000'000ULL == 0) return std::to_string(b / 1'000'000'000ULL) + "GB";
    return std::to_string(b) + "B";
}

// "3,1" or "0.6,0.4": one proportion per GPU (llama.cpp --tensor-split); "" or "even" = an even split.
inline constexpr std::size_t kMaxTensorSplitParts = 64;
std::string apply_tensor_split(Scenario& s, std::string_view text) {
    const std::string t = lower_text(text);
    if (t.empty() || t == "even") {
        s.tensor_split.clear();
        return {};
    }
    std::vector<Decimal> parts;
    std::size_t start = 0;
    while (start <= t.size()) {
        std::size_t end = t.find(',', start);
        if (end == std::string::npos) end = t.size();
        if (parts.size() == kMaxTensorSplitParts) return "has more than " + std::to_string(kMaxTensorSplitParts) + " parts";
        const Expected<Decimal> part = parse_decimal(std::string_view(t).substr(start, end - start), 1'000'000 * Decimal::kScale);
        if (!part) return "part " + std::to_string(parts.size() + 1) + " " + part.error();
        if (part->is_zero()) return "part " + std::to_string(parts.size() + 1) + " must be greater than zero";
        parts.push_back(*part);
        start = end + 1;
    }
    s.tensor_split = std::move(parts);
    return {};
}

std::string show_tensor_split(const Scenario& s) {
    std::string out;
    for (const Decimal& part : s.tensor_split) out += (out.empty() ? "" : ",") + format_decimal(part);
    return out;
}

// Text only: the chosen model without its vision tower (and back); remembered for the next model chosen.
std::string apply_text_only(Scenario& s, std::string_view text) {
    bool on = false;
    if (std::string bad = apply_bool(on, text); !bad.empty()) return bad;
    if (s.model && s.model->counts.total_count == s.param_count) {
        if (on && s.model->architecture.vision.kind == VisionKind::none) return "the model has no vision tower to leave out";
        Expected<ModelSource> changed = on ? text_only_model(*s.model) : full_model(*s.model);
        if (!changed) return changed.error();
        s.param_count = changed->counts.total_count;
        s.model = std::make_shared<const ModelSource>(std::move(changed.value()));
    }
    s.text_only = on;
    return {};
}

// "896x896" (also 896X896, 896*896 or 896×896): pixels wide by high.
std::string apply_image_size(Scenario& s, std::string_view text) {
    const std::string t(trim(text));
    if (t.empty() || t == "none") {
        s.image_width = s.image_height = 0;
        return {};
    }
    std::size_t at = t.find_first_of("xX*");
    std::size_t skip = 1;
    if (at == std::string::npos && (at = t.find("\xC3\x97")) != std::string::npos) skip = 2;
    if (at == std::string::npos) return "must be W x H pixels, such as 896x896";
    std::uint64_t w = 0, h = 0;
    if (!apply_whole(w, t.substr(0, at), 1, 100000).empty() || !apply_whole(h, t.substr(at + skip), 1, 100000).empty())
        return "must be W x H pixels, each from 1 to 100000, such as 896x896";
    s.image_width = w;
    s.image_height = h;
    return {};
}

std::string show_whole_if(std::uint64_t value, std::uint64_t default_value) {
    return value == default_value ? std::string() : std::to_string(value);
}

}  // namespace

const std::vector<SettingSpec>& setting_specs() {
    static const Scenario kDefaults;
    // The catalogue's keys, so a new GPU entry needs no edit here (Apple: the GPU's working set, not the RAM).
    static const std::string kGpuHelp = [] {
        std::string help = "GPU to check the fit on:";
        for (const Gpu& gpu : gpu_catalogue()) help += " " + gpu.key;
        return help + " (Apple: the GPU's working set of the unified memory)";
    }();
    static const std::vector<SettingSpec> kSpecs = {
        {"model", "NAME", "a built-in model (see --list-models); sets N to its exact parameter count",
         apply_model, show_model},
        {"text-only", "[BOOL]", "leave the model's vision tower out, as engines load the language model alone",
         apply_text_only, [](const Scenario& s) { return s.text_only ? std::string("true") : std::string(); }},
        {"params", "N", "parameter count N: 13B, 6.7e9, 350M, 70 billion (default 13B)",
         apply_params, [](const Scenario& s) { return format_count_state(s.param_count); }},
        {"bytes", "B", "bytes per parameter b: 4 fp32, 2 fp16/bf16, 1 int8, 0.5 int4 (default 2)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_param, t, kMaxBytesPerValueMicros, false); },
         [](const Scenario& s) { return show_if_changed(s.bytes_per_param, kDefaults.bytes_per_param); }},
        {"overhead", "F", "inference overhead factor applied to the weights (default 1.2)",
         [](Scenario& s, std::string_view t) {
             Decimal d;
             std::string error = apply_decimal(d, t, kMaxFactorMicros, false);
             if (!error.empty()) return error;
             if (d.micros < Decimal::kScale) return std::string("must be at least 1 (it multiplies the weights)");
             s.overhead_factor = d;
             return std::string();
         },
         [](const Scenario& s) { return show_if_changed(s.overhead_factor, kDefaults.overhead_factor); }},
        {"trainable", "N|P%", "trainable parameters: a count (1B) or a percentage (7.7%) (default all)",
         apply_trainable, show_trainable},
        {"k", "K", "values stored per trainable parameter (default 3: gradient + two Adam states)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.values_per_trainable, t, kMaxFactorMicros, true); },
         [](const Scenario& s) { return show_if_changed(s.values_per_trainable, kDefaults.values_per_trainable); }},
        {"state-bytes", "B", "bytes per stored gradient/optimizer value (default 2)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_value, t, kMaxBytesPerValueMicros, false); },
         [](const Scenario& s) { return show_if_changed(s.bytes_per_value, kDefaults.bytes_per_value); }},
        {"dtype", "NAME", "weight format instead of --bytes: fp32 fp16 bf16 fp8 int8 int4 nf4 nf4_dq q8_0 q6_k q5_k_m q4_k_m q4_0 q3_k_m q2_k, or 4.65bpw",
         apply_dtype, [](const Scenario& s) { return s.dtype; }},
        {"recipe", "NAME", "training recipe: seed-adam (default, k x state-bytes), adamw-mixed, adamw-mixed-fp32-grads, adam-fp32, adam-8bit, sgd, sgd-momentum",
         apply_recipe, [](const Scenario& s) { return s.recipe == kDefaults.recipe ? std::string() : s.recipe; }},
        {"lora-rank", "R", "LoRA rank: trainable = r x (in + out) per targeted linear, as PEFT counts (needs --model or --config; 0 = off)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.lora_rank, t, 0, kMaxLoraRank); },
         [](const Scenario& s) { return show_whole_if(s.lora_rank, 0); }},
        {"lora-targets", "LIST", "LoRA target modules: q,k,v,o,gate,up,down, PEFT names, or all-linear (default q,v)",
         apply_lora_targets,
         [](const Scenario& s) { return s.lora_targets == kDefaults.lora_targets ? std::string() : s.lora_targets; }},
        {"qlora", "[BOOL]", "QLoRA: the frozen base in 4-bit NF4 with double quantization (needs --lora-rank)",
         [](Scenario& s, std::string_view t) { return apply_bool(s.qlora, t); },
         [](const Scenario& s) { return s.qlora ? std::string("true") : std::string(); }},
        {"context", "T", "KV-cache tokens per sequence: 4096, 8K = 8192, 128K (needs --model or --config; default 0 = none)",
         apply_context, [](const Scenario& s) { return show_whole_if(s.context_tokens, 0); }},
        {"images", "N", "images per sequence: each adds the model family's image tokens (from --image-size) to the context and KV cache",
         [](Scenario& s, std::string_view t) { return apply_whole(s.image_count, t, 0, 10000); },
         [](const Scenario& s) { return show_whole_if(s.image_count, 0); }},
        {"image-size", "WxH", "image size in pixels for --images, such as 896x896",
         apply_image_size,
         [](const Scenario& s) {
             return s.image_width == 0 ? std::string() : std::to_string(s.image_width) + "x" + std::to_string(s.image_height);
         }},
        {"batch", "N", "sequences decoded together, multiplies the KV cache (default 1)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.batch_size, t, 1, kMaxBatch); },
         [](const Scenario& s) { return show_whole_if(s.batch_size, 1); }},
        {"kv-dtype", "NAME", "KV-cache format: fp16 (default), bf16, fp8, fp32, q8_0, q4_0",
         apply_kv_dtype, [](const Scenario& s) { return s.kv_dtype == kDefaults.kv_dtype ? std::string() : s.kv_dtype; }},
        {"inference-mode", "MODE", "simple (default: weights x overhead) or detailed (weights + KV cache + activations + reserve)",
         apply_inference_mode,
         [](const Scenario& s) { return s.detailed_inference ? std::string("detailed") : std::string(); }},
        {"training-mode", "MODE", "simple (default: weights + gradients + optimizer states) or detailed (+ activations, logits and loss, framework memory: the peak per GPU; needs --model or --config)",
         apply_training_mode,
         [](const Scenario& s) { return s.detailed_training ? std::string("detailed") : std::string(); }},
        {"seq-len", "T", "training tokens per sequence: 2048 (default), 8K = 8192",
         apply_seq_len, [](const Scenario& s) { return show_whole_if(s.seq_len, kDefaults.seq_len); }},
        {"micro-batch", "N", "training sequences per step per GPU (default 1)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.micro_batch, t, 1, kMaxMicroBatch); },
         [](const Scenario& s) { return show_whole_if(s.micro_batch, kDefaults.micro_batch); }},
        {"recompute", "MODE", "activation checkpointing: none (default: keep every saved tensor), selective (recompute attention scores) or full (keep one tensor per layer, recompute the rest in the backward pass)",
         [](Scenario& s, std::string_view t) { return apply_choice(s.recompute, t, kRecomputeWords); },
         [](const Scenario& s) { return s.recompute == kDefaults.recompute ? std::string() : std::string(recompute_text(s.recompute)); }},
        {"attention", "KERNEL", "flash (default: FlashAttention/SDPA, no s x s scores kept) or eager (softmax scores kept for the backward pass)",
         [](Scenario& s, std::string_view t) { return apply_choice(s.attention, t, kAttentionWords); },
         [](const Scenario& s) { return s.attention == kDefaults.attention ? std::string() : std::string(attention_text(s.attention)); }},
        {"loss", "KIND", "full (default: all logits with an fp32 copy, the saved log-softmax and its gradient) or chunked (logits upcast one chunk of 8 at a time)",
         [](Scenario& s, std::string_view t) { return apply_choice(s.loss, t, kLossWords); },
         [](const Scenario& s) { return s.loss == kDefaults.loss ? std::string() : std::string(loss_text(s.loss)); }},
        {"tp", "N", "tensor-parallel GPUs per layer: must divide the attention heads (default 1)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.tp, t, 1, kMaxParallel); },
         [](const Scenario& s) { return show_whole_if(s.tp, 1); }},
        {"sp", "[BOOL]", "sequence parallel: tensor-parallel GPUs also split the norm and dropout activations (with --tp)",
         [](Scenario& s, std::string_view t) { return apply_bool(s.sp, t); },
         [](const Scenario& s) { return s.sp ? std::string("true") : std::string(); }},
        {"pp", "N", "pipeline stages, 1F1B schedule (the first stage holds the most activations): must divide the layers (default 1)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.pp, t, 1, kMaxParallel); },
         [](const Scenario& s) { return show_whole_if(s.pp, 1); }},
        {"framework-overhead", "SIZE", "CUDA context and NCCL per GPU: auto (default: 512MiB, + 1.5GiB with more than one GPU), 0, or a size such as 1GiB",
         apply_framework_overhead,
         [](const Scenario& s) { return s.framework_overhead_auto ? std::string() : s.framework_overhead_bytes == 0 ? std::string("0") : show_size(s.framework_overhead_bytes); }},
        {"allocator-margin", "P%", "PyTorch caching allocator's margin over allocated activations and logits, 0-100% (default 10%)",
         [](Scenario& s, std::string_view t) { return apply_percent(s.allocator_margin_percent, t); },
         [](const Scenario& s) { return s.allocator_margin_percent == kDefaults.allocator_margin_percent ? std::string() : format_decimal(s.allocator_margin_percent) + "%"; }},
        {"gpu", "NAME", kGpuHelp.c_str(),
         apply_gpu, [](const Scenario& s) { return s.gpu; }},
        {"gpus", "N", "GPUs the model states are spread over (default 1)",
         [](Scenario& s, std::string_view t) { return apply_whole(s.gpu_count, t, 1, kMaxGpuCount); },
         [](const Scenario& s) { return show_whole_if(s.gpu_count, 1); }},
        {"zero", "S", "ZeRO/FSDP stage: 0 none, 1 optimizer states, 2 + gradients, 3 + weights split over --gpus",
         [](Scenario& s, std::string_view t) {
             std::uint64_t stage = 0;
             const std::string error = apply_whole(stage, t, 0, 3);
             if (!error.empty()) return std::string("must be 0, 1, 2 or 3");
             s.zero_stage = static_cast<int>(stage);
             return std::string();
         },
         [](const Scenario& s) { return s.zero_stage == 0 ? std::string() : std::to_string(s.zero_stage); }},
        {"gpu-memory", "SIZE", "custom memory per GPU instead of --gpu: 80GiB, 24GB (GB = 10^9, GiB = 2^30)",
         apply_gpu_memory, show_gpu_memory},
        {"tensor-split", "LIST", "how inference splits over --gpus, one proportion per GPU as llama.cpp's --tensor-split: 3,1 (default even); each card gets its own verdict",
         apply_tensor_split, show_tensor_split},
    };
    return kSpecs;
}

const SettingSpec* find_setting(std::string_view key) {
    for (const SettingSpec& spec : setting_specs())
        if (key == spec.key) return &spec;
    return nullptr;
}

Expected<bool> apply_setting(Scenario& scenario, std::string_view key, std::string_view value) {
    const SettingSpec* spec = find_setting(key);
    if (spec == nullptr) {
        return Error{"unknown setting \"" + printable_excerpt(key, 40) + "\""};
    }
    std::string message = spec->apply(scenario, value);
    if (!message.empty()) return Error{spec->key, message};
    return true;
}

StateResult apply_state_pairs(const Scenario& base, std::string_view state) {
    StateResult result{base, {}};
    if (!state.empty() && (state.front() == '#' || state.front() == '?')) state.remove_prefix(1);
    std::size_t start = 0;
    std::size_t unlisted_problems = 0;
    while (start <= state.size()) {
        std::size_t end = state.find('&', start);
        if (end == std::string_view::npos) end = state.size();
        const std::string_view pair = state.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        const std::string key = url_decode(pair.substr(0, eq));
        const std::string value = eq == std::string_view::npos ? std::string() : url_decode(pair.substr(eq + 1));
        Scenario candidate = result.scenario;
        const Expected<bool> applied = apply_setting(candidate, key, value);
        if (applied) {
            result.scenario = candidate;
        } else if (result.problems.size() < kMaxListedStateProblems) {
            result.problems.push_back(applied.error());
        } else {
            ++unlisted_problems;
        }
    }
    if (unlisted_problems > 0)
        result.problems.push_back("and " + std::to_string(unlisted_problems) + " more bad settings (not listed)");
    return result;
}

StateResult apply_state(const Scenario& base, std::string_view state) {
    StateResult result = apply_state_pairs(base, state);
    const Expected<Estimate> check = estimate(result.scenario);
    if (!check) {
        result.problems.push_back(check.error());
        result.scenario = base;
        result.combination_rejected = true;
    }
    return result;
}

std::string to_state(const Scenario& scenario) {
    std::string out;
    for (const SettingSpec& spec : setting_specs()) {
        const std::string value = spec.show(scenario);
        if (value.empty()) continue;
        if (!out.empty()) out += '&';
        out += spec.key;
        out += '=';
        out += url_encode(value);
    }
    return out;
}

std::string url_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out.push_back(' ');
        } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
            i += 2;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

std::string url_encode(std::string_view text) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '_' || c == '.' || c == '~' || c == ',';
        if (keep) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        }
    }
    return out;
}

std::string format_count_state(std::uint64_t count) {
    struct Unit { std::uint64_t size; const char* suffix; };
    static constexpr Unit kUnits[] = {{1'000'000'000'000ULL, "T"}, {1'000'000'000ULL, "B"}, {1'000'000ULL, "M"}, {1'000ULL, "K"}};
    for (const Unit& unit : kUnits)
        if (count >= unit.size) return format_ratio(count, unit.size, 12) + unit.suffix;
    return std::to_string(count);
}

}  // namespace llm_memory
