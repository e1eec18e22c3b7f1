// The settings table: every input's key, how it is parsed and how it is written back.
// The same table drives the CLI flags, URL state, the JS API and stored state.
//
// Sections: apply/show functions per kind of value (count, model, decimal, trainable, dtype, recipe, whole
//   numbers, LoRA targets, bools, context, GPU, GPU memory) · the settings table (setting_specs) ·
//   apply_setting / apply_state / to_state · URL encoding.
#include "settings.hpp"

#include "model_presets.hpp"

#include "catalogue.hpp"
#include "formats.hpp"
#include "gpus.hpp"
#include "kv_cache.hpp"
#include "lora.hpp"
#include "recipes.hpp"
#include "report.hpp"
#include "engines/engine.hpp"
#include "setting_rows.hpp"

namespace llm_memory {
namespace settings_detail {

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

std::string apply_dtype(Scenario& s, std::string_view text) {
    const std::string t = catalogue_key(text);
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
    // GPTQ, AWQ and MXFP4 are checkpoint formats of weights: no runtime caches K and V in them.
    if (format->linear_only) return "\"" + format->key + "\" is a weight format, not a KV-cache one";
    s.kv_dtype = format->key;
    return {};
}

std::string apply_recipe(Scenario& s, std::string_view text) {
    const Expected<Recipe> recipe = find_recipe(text);
    if (!recipe) return recipe.error();
    s.recipe = recipe->key;
    return {};
}

// A whole number in [min_value, max_value]; the message says which bound was missed.
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
    const std::string t = catalogue_key(text);
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
    s.training.seq_len = tokens;
    return {};
}

// The two modes: the seed's simple total, or the detailed one (index 1 = detailed).
const std::vector<Choice>& inference_mode_choices() {
    static const std::vector<Choice> kChoices = {
        {"simple", "simple: weights x overhead", "The seed's rule: weights x overhead factor (1.2)."},
        {"detailed", "detailed: weights + KV cache + activations + reserve",
         "Weights + KV cache + activation workspace + runtime reserve, each shown; no overhead factor."},
    };
    return kChoices;
}
const std::vector<Choice>& training_mode_choices() {
    static const std::vector<Choice> kChoices = {
        {"simple", "simple: weights + gradients + optimizer states",
         "The seed's total: weights + gradients + optimizer states. The GPU verdict still uses the peak below, since "
         "the model is known."},
        {"detailed", "detailed: + activations, logits and loss, framework memory (peak per GPU)",
         "Adds, per GPU: activations saved for the backward pass, logits and loss, framework memory and the "
         "allocator's margin (the training peak)."},
    };
    return kChoices;
}
// LoRA adapters in fp32 (PEFT's default) or 16 bits (index 1; fp16 reads as the same 2 bytes).
const std::vector<Choice>& adapter_dtype_choices() {
    static const std::vector<Choice> kChoices = {
        {"fp32", "fp32: PEFT's default",
         "PEFT 0.12+ casts adapters to fp32 (autocast_adapter_dtype): fp32 weights, gradients and AdamW states."},
        {"bf16", "bf16: 16-bit adapters",
         "torchtune, LitGPT, PEFT before 0.12, or a model cast to bf16 whole: the recipe's gradient and states."},
    };
    return kChoices;
}
std::string apply_adapter_dtype(Scenario& s, std::string_view text) {
    if (catalogue_key(text) == "fp16") {
        s.adapter_fp32 = false;
        return {};
    }
    int index = s.adapter_fp32 ? 0 : 1;
    const std::string error = apply_choice(index, text, adapter_dtype_choices());
    if (error.empty()) s.adapter_fp32 = index == 0;
    return error.empty() ? error : error + " (or fp16)";
}
std::string apply_mode(bool& detailed, std::string_view text, const std::vector<Choice>& choices) {
    int index = detailed ? 1 : 0;
    const std::string error = apply_choice(index, text, choices);
    if (error.empty()) detailed = index == 1;
    return error;
}

// A percentage from 0 to 100, with or without the % sign.
std::string apply_percent(Decimal& field, std::string_view text) {
    std::string_view t = trim(text);
    if (!t.empty() && t.back() == '%') t.remove_suffix(1);
    const Expected<Decimal> d = parse_decimal(t, 100 * Decimal::kScale, "100%");
    if (!d) return d.error();
    field = *d;
    return {};
}

std::string apply_gpu(Scenario& s, std::string_view text) {
    const std::string t = catalogue_key(text);
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
    const std::string t = catalogue_key(text);
    if (t == "0" || t.empty() || t == "none") {
        s.gpu_memory_bytes = 0;
        return {};
    }
    return read_memory_size(s.gpu_memory_bytes, t);
}

// The framework's memory per GPU: "auto" (CUDA context + NCCL from the GPU count), "0", or a size.
std::string apply_framework_overhead(Scenario& s, std::string_view text) {
    const std::string t = catalogue_key(text);
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
    const std::string t = catalogue_key(text);
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

// The catalogues as choices (built once, on first use).
const std::vector<Choice>& model_choices() {
    static const std::vector<Choice> kChoices = [] {
        std::vector<Choice> out{{"", "none (type the parameter count)", ""}};
        for (const ModelPreset& p : model_presets()) out.push_back({p.key, std::string(p.family) + ": " + p.key, ""});
        return out;
    }();
    return kChoices;
}
const std::vector<Choice>& dtype_choices() {
    static const std::vector<Choice> kChoices = [] {
        std::vector<Choice> out{{"", "none (use bytes per parameter)",
                                 "The seed's b: set it in the Inputs. Pick a format to use its exact size."}};
        for (const WeightFormat& f : weight_formats())
            out.push_back({f.key, f.label + " - " + format_bits_per_weight(f) + " bits", f.explanation, f.source});
        return out;
    }();
    return kChoices;
}
const std::vector<Choice>& recipe_choices() {
    static const std::vector<Choice> kChoices = [] {
        std::vector<Choice> out;
        for (const Recipe& r : recipes()) out.push_back({r.key, r.label, r.explanation, r.source});
        return out;
    }();
    return kChoices;
}
// The KV-cache formats offered in a list (any weight format key is accepted when typed).
const std::vector<Choice>& kv_dtype_choices() {
    static const std::vector<Choice> kChoices = [] {
        std::vector<Choice> out;
        for (const char* key : {"fp16", "bf16", "fp8", "fp32", "q8_0", "q4_0"})
            if (const Expected<WeightFormat> f = find_weight_format(key))
                out.push_back({f->key, f->label + " - " + format_bits_per_weight(*f) + " bits", f->explanation, f->source});
        return out;
    }();
    return kChoices;
}
const std::vector<Choice>& gpu_choices() {
    static const std::vector<Choice> kChoices = [] {
        std::vector<Choice> out{{"", "none", ""}};
        for (const Gpu& g : gpu_catalogue()) out.push_back({g.key, g.label + " - " + g.vendor_memory, g.note});
        return out;
    }();
    return kChoices;
}
const std::vector<Choice>& zero_choices() {
    static const std::vector<Choice> kChoices = {
        {"0", "0: none", "Stage 0: every GPU holds all weights, gradients and optimizer states."},
        {"1", "1: optimizer states split", "Stage 1: optimizer states (incl. fp32 master weights) split over the GPUs."},
        {"2", "2: + gradients split", "Stage 2: optimizer states and gradients split."},
        {"3", "3: + weights split", "Stage 3 (FSDP full shard): weights too; each GPU holds 1/N of everything."},
    };
    return kChoices;
}

std::string whole(std::uint64_t n) { return std::to_string(n); }
// Engines (core/engine_settings.hpp): the engine, llama.cpp's and vLLM's own flags.
// Each enum's one table of words, in enum order (EngineKind, Switch, SplitMode).
const std::vector<Choice>& engine_choices() {
    static const std::vector<Choice> kChoices = {
        {"none", "none: the seed's weights x overhead", "No engine: the seed's rule, weights x overhead factor."},
        {"llama.cpp", "llama.cpp (llama-server)", "llama.cpp's buffers per device: model, KV cache, compute, host (b9993-b10437)."},
        {"ollama", "Ollama (llama.cpp, Ollama's defaults)", "llama.cpp with Ollama's defaults: num_ctx 4096, num_batch 512, one slot."},
        {"vllm", "vLLM", "vLLM 0.11 (v1): weights, the profile run's peak, then the KV pool it takes of gpu-util."},
        {"transformers", "transformers generate", "transformers generate with device_map=\"auto\": weights, DynamicCache, prefill."},
    };
    return kChoices;
}
const std::vector<Choice>& switch_choices() {
    static const std::vector<Choice> kChoices = {{"auto", "auto", ""}, {"on", "on", ""}, {"off", "off", ""}};
    return kChoices;
}
const std::vector<Choice>& split_mode_choices() {
    static const std::vector<Choice> kChoices = {
        {"layer", "layer: whole layers per GPU", "Whole layers per GPU, in proportion to the tensor split."},
        {"row", "row: every matrix split by rows", "Every matrix split by rows over the GPUs; the KV cache and compute stay on the main GPU."},
        {"none", "none: one GPU", "Everything offloaded goes to the main GPU."},
    };
    return kChoices;
}

std::string apply_engine(Scenario& s, std::string_view text) {
    std::string t = catalogue_key(text);
    if (t == "llamacpp" || t == "llama-cpp" || t == "llama_cpp" || t == "llama-server") t = "llama.cpp";
    if (t.empty()) t = "none";
    return apply_choice(s.engine.kind, t, engine_choices());
}

std::string apply_ngl(Scenario& s, std::string_view text) {
    const std::string t = catalogue_key(text);
    if (t == "auto" || t.empty() || t == "-1") {
        s.engine.ngl_auto = true;
        s.engine.ngl_all = false;
        return {};
    }
    if (t == "all" || t == "-2") {
        s.engine.ngl_auto = false;
        s.engine.ngl_all = true;
        return {};
    }
    std::uint64_t layers = 0;
    const std::string error = apply_whole(layers, t, 0, 100000);
    if (!error.empty()) return error + " (a layer count, all or auto)";
    s.engine.ngl_auto = false;
    s.engine.ngl_all = false;
    s.engine.ngl_layers = layers;
    return {};
}

std::string show_ngl(const Scenario& s) {
    if (s.engine.ngl_auto) return {};
    if (s.engine.ngl_all) return "all";
    return std::to_string(s.engine.ngl_layers);
}

std::string apply_v_dtype(Scenario& s, std::string_view text) {
    const std::string t = catalogue_key(text);
    if (t.empty() || t == "default" || t == "same") {
        s.engine.v_dtype.clear();
        return {};
    }
    const Expected<WeightFormat> format = find_weight_format(t);
    if (!format) return format.error();
    s.engine.v_dtype = format->key;
    return {};
}

std::string apply_gpu_util(Scenario& s, std::string_view text) {
    const Expected<Decimal> d = parse_decimal(text, Decimal::kScale);
    if (!d) return d.error() + " (a fraction of the GPU's memory: 0.9)";
    if (d->is_zero()) return "must be greater than 0 (at most 1)";
    s.engine.gpu_util = *d;
    return {};
}

std::string apply_engine_tokens(std::uint64_t& field, std::string_view text, std::uint64_t min_value) {
    std::uint64_t tokens = 0;
    std::string error = apply_tokens(tokens, text);
    if (!error.empty()) return error;
    if (tokens < min_value || tokens > kMaxEngineTokens) return "must be " + std::to_string(min_value) + " to 1,000,000 tokens";
    field = tokens;
    return {};
}

std::string show_switch(Switch value) { return value == Switch::automatic ? std::string() : switch_choices()[static_cast<std::size_t>(value)].word; }

// Marks a row as an engine's setting (SettingEngine): the mark is the whole of what makes it one.
SettingSpec for_engine(SettingEngine engine, SettingSpec spec) {
    spec.engine = engine;
    return spec;
}

// Marks a row as one whose figure another setting can decide (SettingSpec::decided).
SettingSpec decided_by(FieldDecision (*decided)(const Scenario&, const Estimate&), SettingSpec spec) {
    spec.decided = decided;
    return spec;
}

// b: a weight format, QLoRA or a model file decides the bytes per weight, and b is then not used.
FieldDecision bytes_decision(const Scenario& s, const Estimate& e) { return {weight_format_value(e), weight_format_note(s, e)}; }

}  // namespace settings_detail

using namespace settings_detail;

const std::vector<SettingSpec>& setting_specs() {
    static const Scenario kDefaults;
    // The catalogue's keys, so a new GPU entry needs no edit here (Apple: the GPU's working set, not the RAM).
    static const std::string kGpuHelp = [] {
        std::string help = "GPU to check the fit on:";
        for (const Gpu& gpu : gpu_catalogue()) help += " " + gpu.key;
        return help + " (Apple: the GPU's working set of the unified memory)";
    }();
    static const std::string kDtypeHelp = "weight format instead of --bytes: " + weight_format_keys() + ", or 4.65bpw";
    static const std::string kRecipeHelp = "training recipe: " + recipe_keys() + " (default seed-adam: k x state-bytes)";
    using K = SettingKind;
    using E = SettingEngine;
    // {key, value hint, --help line, label, unit, kind, example, apply, show, field shown at the default,
    //  choices, placeholder, note}
    static const std::vector<SettingSpec> kSpecs = [] {
        std::vector<SettingSpec> specs = {
            {"model", "NAME", "a built-in model (see --list-models); sets N to its exact parameter count",
             "Model", "", K::choice, "llama-3-8b", apply_model, show_model, nullptr, model_choices},
            {"text-only", "[BOOL]", "leave the model's vision or audio tower out, as engines load the language model alone",
             "Text only (no vision or audio tower)", "", K::flag, "true",
             apply_text_only, [](const Scenario& s) { return s.text_only ? std::string("true") : std::string(); }, nullptr, nullptr, "",
             "Count the language model alone, as an engine loads it without its tower."},
            {"params", "N", "parameter count N: 13B, 6.7e9, 350M, 70 billion (default 13B)",
             "Parameters (N)", "parameters", K::count, "70B",
             apply_params, [](const Scenario& s) { return format_count_state(s.param_count); }},
            decided_by(bytes_decision, {"bytes", "B", "bytes per parameter b: 4 fp32, 2 fp16/bf16, 1 int8, 0.5 int4 (default 2)",
             "Bytes per parameter (b)", "bytes", K::number, "0.5",
             [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_param, t, kMaxBytesPerValueMicros, false); },
             [](const Scenario& s) { return show_if_changed(s.bytes_per_param, kDefaults.bytes_per_param); },
             [](const Scenario& s) { return format_decimal(s.bytes_per_param); }}),
            {"overhead", "F", "inference overhead factor applied to the weights (default 1.2)",
             "Overhead factor", "x weights", K::number, "1.5",
             [](Scenario& s, std::string_view t) {
                 Decimal d;
                 std::string error = apply_decimal(d, t, kMaxFactorMicros, false);
                 if (!error.empty()) return error;
                 if (d.micros < Decimal::kScale) return std::string("must be at least 1 (it multiplies the weights)");
                 s.overhead_factor = d;
                 return std::string();
             },
             [](const Scenario& s) { return show_if_changed(s.overhead_factor, kDefaults.overhead_factor); },
             [](const Scenario& s) { return format_decimal(s.overhead_factor); }},
            {"trainable", "N|P%", "trainable parameters: a count (1B) or a percentage (7.7%) (default all)",
             "Trainable parameters", "parameters or %", K::text, "10%",
             apply_trainable, show_trainable, [](const Scenario&) { return std::string("all"); }},
            {"k", "K", "values stored per trainable parameter (default 3: gradient + two Adam states)",
             "Values per trainable parameter (k)", "values", K::number, "4",
             [](Scenario& s, std::string_view t) { return apply_decimal(s.values_per_trainable, t, kMaxFactorMicros, true); },
             [](const Scenario& s) { return show_if_changed(s.values_per_trainable, kDefaults.values_per_trainable); },
             [](const Scenario& s) { return format_decimal(s.values_per_trainable); }},
            {"state-bytes", "B", "bytes per stored gradient/optimizer value (default 2)",
             "Bytes per stored value", "bytes", K::number, "4",
             [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_value, t, kMaxBytesPerValueMicros, false); },
             [](const Scenario& s) { return show_if_changed(s.bytes_per_value, kDefaults.bytes_per_value); },
             [](const Scenario& s) { return format_decimal(s.bytes_per_value); }},
            {"dtype", "NAME", kDtypeHelp.c_str(), "Weight format", "", K::choice, "q4_k_m",
             apply_dtype, [](const Scenario& s) { return s.dtype; }, nullptr, dtype_choices},
            {"recipe", "NAME", kRecipeHelp.c_str(), "Training recipe", "", K::choice, "adamw-mixed",
             apply_recipe, [](const Scenario& s) { return s.recipe == kDefaults.recipe ? std::string() : s.recipe; },
             [](const Scenario& s) { return s.recipe; }, recipe_choices},
            {"lora-rank", "R", "LoRA rank: trainable = r x (in + out) per targeted linear, as PEFT counts (needs --model or --config; 0 = off)",
             "LoRA rank", "0 = off", K::count, "16",
             [](Scenario& s, std::string_view t) { return apply_whole(s.lora_rank, t, 0, kMaxLoraRank); },
             [](const Scenario& s) { return show_whole_if(s.lora_rank, 0); }, [](const Scenario& s) { return whole(s.lora_rank); },
             nullptr, "8", "Each targeted linear gains r x (in + out) trainable parameters, as PEFT counts them."},
            {"lora-targets", "LIST", "LoRA target modules: q,k,v,o,gate,up,down, PEFT names, or all-linear (default q,v)",
             "LoRA target modules", "", K::text, "q,k,v,o",
             apply_lora_targets,
             [](const Scenario& s) { return s.lora_targets == kDefaults.lora_targets ? std::string() : s.lora_targets; },
             [](const Scenario& s) { return s.lora_targets; }, nullptr, "q,v",
             "q,k,v,o,gate,up,down (or PEFT names, or all-linear). Only the adapter trains."},
            {"qlora", "[BOOL]", "QLoRA: the frozen base in 4-bit NF4 with double quantization (needs --lora-rank)",
             "QLoRA: 4-bit NF4 base", "", K::flag, "true",
             [](Scenario& s, std::string_view t) { return apply_bool(s.qlora, t); },
             [](const Scenario& s) { return s.qlora ? std::string("true") : std::string(); }},
            {"upcast-nonquantized", "[BOOL]",
             "QLoRA: embeddings, output head and norms in fp32 as PEFT's prepare_model_for_kbit_training casts them (default true); "
             "false keeps them in 16 bits (torchtune, LitGPT, a GPTQ base)",
             "QLoRA: unquantized parts in fp32 (PEFT)", "", K::flag, "false",
             [](Scenario& s, std::string_view t) { return apply_bool(s.upcast_nonquantized, t); },
             [](const Scenario& s) { return s.upcast_nonquantized ? std::string() : std::string("false"); },
             [](const Scenario&) { return std::string("true"); }, nullptr, "",
             "PEFT's prepare_model_for_kbit_training casts the embeddings, output head and norms to fp32; off keeps "
             "them in 16 bits (torchtune, LitGPT, a GPTQ base)."},
            {"adapter-dtype", "DTYPE",
             "LoRA adapters: fp32 (default: PEFT's autocast_adapter_dtype; fp32 gradients and AdamW states) or bf16 "
             "(16-bit: torchtune, LitGPT, PEFT before 0.12; fp16 is the same)",
             "LoRA adapter precision", "", K::choice, "bf16",
             apply_adapter_dtype,
             [](const Scenario& s) { return s.adapter_fp32 ? std::string() : std::string("bf16"); },
             [](const Scenario& s) { return std::string(s.adapter_fp32 ? "fp32" : "bf16"); }, adapter_dtype_choices},
            {"context", "T", "KV-cache tokens per sequence: 4096, 8K = 8192, 128K (needs --model or --config; default 0 = none)",
             "Context length", "tokens", K::count, "8192",
             apply_context, [](const Scenario& s) { return show_whole_if(s.context_tokens, 0); },
             [](const Scenario& s) { return whole(s.context_tokens); }, nullptr, "4096 or 8K",
             "Tokens kept per sequence; 8K = 8192. 0 = no KV cache."},
            {"images", "N", "images per sequence: each adds the model family's image tokens (from --image-size) to the context and KV cache",
             "Images per sequence", "images", K::count, "2",
             [](Scenario& s, std::string_view t) { return apply_whole(s.image_count, t, 0, 10000); },
             [](const Scenario& s) { return show_whole_if(s.image_count, 0); }, [](const Scenario& s) { return whole(s.image_count); },
             nullptr, "0", "Each image adds the family's image tokens to the context (needs a model with a vision tower)."},
            {"image-size", "WxH", "image size in pixels for --images, such as 896x896",
             "Image size", "W x H pixels", K::text, "896x896",
             apply_image_size,
             [](const Scenario& s) {
                 return s.image_width == 0 ? std::string() : std::to_string(s.image_width) + "x" + std::to_string(s.image_height);
             }, nullptr, nullptr, "896x896", "Pixels wide by high; the family's processor resizes or tiles it."},
            {"audio-seconds", "S", "seconds of audio per sequence, one clip (Voxtral, Gemma 4 E2B/E4B), added to the context",
             "Audio per sequence", "seconds", K::count, "45",
             [](Scenario& s, std::string_view t) { return apply_whole(s.audio_seconds, t, 0, 86400); },
             [](const Scenario& s) { return show_whole_if(s.audio_seconds, 0); }, [](const Scenario& s) { return whole(s.audio_seconds); },
             nullptr, "0"},
            {"batch", "N", "sequences decoded together, multiplies the KV cache (default 1)",
             "Batch size", "sequences", K::count, "4",
             [](Scenario& s, std::string_view t) { return apply_whole(s.batch_size, t, 1, kMaxBatch); },
             [](const Scenario& s) { return show_whole_if(s.batch_size, 1); }, [](const Scenario& s) { return whole(s.batch_size); },
             nullptr, "1", "Sequences decoded together; multiplies the cache."},
            {"kv-dtype", "NAME", "KV-cache format: fp16 (default), bf16, fp8, fp32, q8_0, q4_0",
             "KV-cache format", "", K::choice, "fp8",
             apply_kv_dtype, [](const Scenario& s) { return s.kv_dtype == kDefaults.kv_dtype ? std::string() : s.kv_dtype; },
             [](const Scenario& s) { return s.kv_dtype; }, kv_dtype_choices, "",
             "Bytes per cached value: fp16 2, fp8 1, q8_0 8.5 bits."},
            {"inference-mode", "MODE", "simple (default: weights x overhead) or detailed (weights + KV cache + activations + reserve)",
             "Inference estimate", "", K::choice, "detailed",
             [](Scenario& s, std::string_view t) { return apply_mode(s.detailed_inference, t, inference_mode_choices()); },
             [](const Scenario& s) { return s.detailed_inference ? std::string("detailed") : std::string(); },
             [](const Scenario&) { return std::string("simple"); }, inference_mode_choices},
            {"training-mode", "MODE", "simple (default: weights + gradients + optimizer states) or detailed (+ activations, logits and loss, framework memory: the peak per GPU; needs --model or --config)",
             "Training estimate", "", K::choice, "detailed",
             [](Scenario& s, std::string_view t) { return apply_mode(s.detailed_training, t, training_mode_choices()); },
             [](const Scenario& s) { return s.detailed_training ? std::string("detailed") : std::string(); },
             [](const Scenario&) { return std::string("simple"); }, training_mode_choices},
            {"seq-len", "T", "training tokens per sequence: 2048 (default), 8K = 8192",
             "Sequence length", "tokens", K::count, "4096",
             apply_seq_len, [](const Scenario& s) { return show_whole_if(s.training.seq_len, kDefaults.training.seq_len); },
             [](const Scenario& s) { return whole(s.training.seq_len); }, nullptr, "2048 or 8K",
             "Tokens per training sequence; 8K = 8192."},
            {"micro-batch", "N", "training sequences per step per GPU (default 1)",
             "Micro-batch", "sequences per GPU", K::count, "4",
             [](Scenario& s, std::string_view t) { return apply_whole(s.training.micro_batch, t, 1, kMaxMicroBatch); },
             [](const Scenario& s) { return show_whole_if(s.training.micro_batch, kDefaults.training.micro_batch); },
             [](const Scenario& s) { return whole(s.training.micro_batch); }, nullptr, "1",
             "Sequences in one forward and backward pass on each GPU (gradient accumulation does not add to it)."},
            {"recompute", "MODE", "activation checkpointing: none (default: keep every saved tensor), selective (recompute attention scores), full (keep one tensor per layer, recompute the rest in the backward pass) or op-selective (torchtitan's op-level policy: keep every other matmul's output and the attention output)",
             "Activation recompute", "", K::choice, "selective",
             [](Scenario& s, std::string_view t) { return apply_choice(s.training.recompute, t, recompute_choices()); },
             [](const Scenario& s) { return s.training.recompute == kDefaults.training.recompute ? std::string() : std::string(recompute_text(s.training.recompute)); },
             [](const Scenario& s) { return std::string(recompute_text(s.training.recompute)); }, recompute_choices},
            {"attention", "KERNEL", "flash (default: FlashAttention/SDPA, no s x s scores kept) or eager (softmax scores kept for the backward pass)",
             "Attention kernel", "", K::choice, "eager",
             [](Scenario& s, std::string_view t) { return apply_choice(s.training.attention, t, attention_choices()); },
             [](const Scenario& s) { return s.training.attention == kDefaults.training.attention ? std::string() : std::string(attention_text(s.training.attention)); },
             [](const Scenario& s) { return std::string(attention_text(s.training.attention)); }, attention_choices},
            {"loss", "KIND", "full (default: all logits with an fp32 copy, the saved log-softmax and its gradient) chunked (logits upcast one chunk of 8 at a time) or half (no fp32 copy: 16-bit logits, log-softmax and two gradients)",
             "Loss", "", K::choice, "chunked",
             [](Scenario& s, std::string_view t) { return apply_choice(s.training.loss, t, loss_choices()); },
             [](const Scenario& s) { return s.training.loss == kDefaults.training.loss ? std::string() : std::string(loss_text(s.training.loss)); },
             [](const Scenario& s) { return std::string(loss_text(s.training.loss)); }, loss_choices},
            {"tp", "N", "tensor-parallel GPUs per layer: must divide the attention heads (default 1)",
             "Tensor parallel", "tp", K::count, "2",
             [](Scenario& s, std::string_view t) { return apply_whole(s.training.tp, t, 1, kMaxParallel); },
             [](const Scenario& s) { return show_whole_if(s.training.tp, 1); }, [](const Scenario& s) { return whole(s.training.tp); },
             nullptr, "1", "GPUs that split every layer; must divide the attention heads. Number of GPUs must be a multiple of tp x pp."},
            {"sp", "[BOOL]", "sequence parallel: tensor-parallel GPUs also split the norm and dropout activations (with --tp)",
             "Sequence parallel (with tp)", "", K::flag, "true",
             [](Scenario& s, std::string_view t) { return apply_bool(s.training.sp, t); },
             [](const Scenario& s) { return s.training.sp ? std::string("true") : std::string(); }, nullptr, nullptr, "",
             "The tensor-parallel GPUs also split the norm and dropout activations along the sequence."},
            {"fsdp-prefetch", "N",
             "ZeRO-3/FSDP: layers gathered ahead of the one computing (default 1, FSDP's BACKWARD_PRE and FSDP2's prefetch; 0 = none)",
             "ZeRO-3/FSDP layers prefetched", "layers", K::count, "2",
             [](Scenario& s, std::string_view t) { return apply_whole(s.training.fsdp_prefetch, t, 0, kMaxFsdpPrefetch); },
             [](const Scenario& s) { return show_whole_if(s.training.fsdp_prefetch, kDefaults.training.fsdp_prefetch); },
             [](const Scenario& s) { return whole(s.training.fsdp_prefetch); }, nullptr, "1",
             "With ZeRO-3/FSDP over more than one GPU: whole layers gathered ahead of the one computing (FSDP's "
             "BACKWARD_PRE and FSDP2 gather one; 0 = none)."},
            {"zero-bucket", "N",
             "DeepSpeed ZeRO's reduce_bucket_size in elements: its gradient bucket, one GPU too (default 0: none, as PyTorch FSDP; DeepSpeed's own 5e8)",
             "DeepSpeed gradient bucket", "elements", K::count, "2e8",
             [](Scenario& s, std::string_view t) { return apply_whole(s.zero_bucket_elements, t, 0, kMaxZeroBucket); },
             [](const Scenario& s) { return show_whole_if(s.zero_bucket_elements, 0); },
             [](const Scenario& s) { return whole(s.zero_bucket_elements); }, nullptr, "0",
             "DeepSpeed's reduce_bucket_size (its default 5e8; Hugging Face's auto: hidden size squared). 0 = PyTorch FSDP."},
            {"overlap-comm", "[BOOL]", "DeepSpeed overlap_comm: a second gradient bucket at ZeRO 1-2 (default false, DeepSpeed's default there)",
             "DeepSpeed overlap_comm", "", K::flag, "true",
             [](Scenario& s, std::string_view t) { return apply_bool(s.overlap_comm, t); },
             [](const Scenario& s) { return s.overlap_comm ? std::string("true") : std::string(); }, nullptr, nullptr, "",
             "At ZeRO 1-2 DeepSpeed then keeps two gradient buckets (stage 3 keeps one either way)."},
            {"optimizer-impl", "IMPL",
             "Adam/AdamW implementation: foreach (default: PyTorch's on CUDA; the optimizer step holds one temporary the size of "
             "Adam's second moment) or fused (fused=True, torchtune's configs: no temporary)",
             "Adam/AdamW implementation", "", K::choice, "fused",
             [](Scenario& s, std::string_view t) { return apply_choice(s.training.optimizer_impl, t, optimizer_impl_choices()); },
             [](const Scenario& s) {
                 return s.training.optimizer_impl == kDefaults.training.optimizer_impl ? std::string()
                                                                                       : std::string(optimizer_impl_text(s.training.optimizer_impl));
             },
             [](const Scenario& s) { return std::string(optimizer_impl_text(s.training.optimizer_impl)); }, optimizer_impl_choices},
            {"grad-accum", "N",
             "gradient accumulation steps (default 1: the gradients are freed after each optimizer step, so the backward pass's "
             "peak does not hold them; more keeps every gradient through the backward passes)",
             "Gradient accumulation steps", "", K::count, "4",
             [](Scenario& s, std::string_view t) { return apply_whole(s.training.grad_accum, t, 1, kMaxGradAccum); },
             [](const Scenario& s) { return show_whole_if(s.training.grad_accum, kDefaults.training.grad_accum); },
             [](const Scenario& s) { return whole(s.training.grad_accum); }, nullptr, "1",
             "Micro-batches whose gradients add up before one optimizer step. 1: the gradients exist only from the backward "
             "pass to the step (zero_grad sets them to None); more keeps them through every backward pass."},
            {"pp", "N", "pipeline stages, 1F1B schedule (the first stage holds the most activations): must divide the layers (default 1)",
             "Pipeline stages", "pp", K::count, "2",
             [](Scenario& s, std::string_view t) { return apply_whole(s.training.pp, t, 1, kMaxParallel); },
             [](const Scenario& s) { return show_whole_if(s.training.pp, 1); }, [](const Scenario& s) { return whole(s.training.pp); },
             nullptr, "1", "1F1B schedule: the first stage holds pp micro-batches of its layers, the most activations; must divide the layers."},
            {"framework-overhead", "SIZE", "CUDA context and NCCL per GPU: auto (default: 512MiB, + 1.5GiB with more than one GPU or ZeRO/FSDP), 0, or a size such as 1GiB",
             "Framework memory per GPU", "", K::text, "1GiB",
             apply_framework_overhead,
             [](const Scenario& s) { return s.framework_overhead_auto ? std::string() : s.framework_overhead_bytes == 0 ? std::string("0") : show_size(s.framework_overhead_bytes); },
             [](const Scenario&) { return std::string("auto"); }, nullptr, "auto",
             "auto: a 512 MiB CUDA context, + 1.5 GiB for NCCL with more than one GPU or ZeRO/FSDP. Or a size such as 1GiB, or 0."},
            {"allocator-margin", "P%", "PyTorch caching allocator's margin over allocated activations and logits, 0-100% (default 10%)",
             "Allocator margin", "%", K::number, "20%",
             [](Scenario& s, std::string_view t) { return apply_percent(s.allocator_margin_percent, t); },
             [](const Scenario& s) { return s.allocator_margin_percent == kDefaults.allocator_margin_percent ? std::string() : format_decimal(s.allocator_margin_percent) + "%"; },
             [](const Scenario& s) { return format_decimal(s.allocator_margin_percent) + "%"; }, nullptr, "10%",
             "PyTorch's caching allocator reserves more than it allocates: this share of the activations and logits."},
            {"gpu", "NAME", kGpuHelp.c_str(), "GPU", "", K::choice, "rtx-4090",
             apply_gpu, [](const Scenario& s) { return s.gpu; }, nullptr, gpu_choices},
            {"gpus", "N", "GPUs the model states are spread over (default 1)",
             "Number of GPUs", "", K::count, "4",
             [](Scenario& s, std::string_view t) { return apply_whole(s.gpu_count, t, 1, kMaxGpuCount); },
             [](const Scenario& s) { return show_whole_if(s.gpu_count, 1); }, [](const Scenario& s) { return whole(s.gpu_count); },
             nullptr, "1", "Model states are spread over these by the ZeRO stage."},
            {"zero", "S", "ZeRO/FSDP stage: 0 none, 1 optimizer states, 2 + gradients, 3 + weights split over --gpus",
             "ZeRO/FSDP stage", "", K::choice, "3",
             [](Scenario& s, std::string_view t) {
                 std::uint64_t stage = 0;
                 const std::string error = apply_whole(stage, t, 0, 3);
                 if (!error.empty()) return std::string("must be 0, 1, 2 or 3");
                 s.zero_stage = static_cast<int>(stage);
                 return std::string();
             },
             [](const Scenario& s) { return s.zero_stage == 0 ? std::string() : std::to_string(s.zero_stage); },
             [](const Scenario&) { return std::string("0"); }, zero_choices},
            {"gpu-memory", "SIZE", "custom memory per GPU instead of --gpu: 80GiB, 24GB (GB = 10^9, GiB = 2^30)",
             "Custom memory per GPU", "GB or GiB", K::text, "80GiB",
             apply_gpu_memory, show_gpu_memory, nullptr, nullptr, "80GiB or 24GB",
             "Overrides the GPU above. GB = 10^9 bytes, GiB = 2^30 (vendors' \"80 GB\" HBM is 80 GiB)."},
            {"tensor-split", "LIST", "how inference splits over --gpus, one proportion per GPU as llama.cpp's --tensor-split: 3,1 (default even); each card gets its own verdict",
             "Tensor split", "per GPU", K::text, "3,1",
             apply_tensor_split, show_tensor_split, nullptr, nullptr, "even, or 3,1",
             "One proportion per GPU, as llama.cpp's --tensor-split; each card's share gets its own verdict."},
            for_engine(E::choice, {"engine", "NAME", "inference engine: none (default: the seed's weights x overhead), llama.cpp, ollama (llama.cpp with Ollama's defaults), vllm, transformers",
             "Inference engine", "", K::choice, "vllm",
             apply_engine, [](const Scenario& s) { return s.engine.kind == EngineKind::none ? std::string() : engine_choices()[static_cast<std::size_t>(s.engine.kind)].word; },
             [](const Scenario&) { return std::string("none"); }, engine_choices}),
        };
        // The engines' rows (core/engines/setting_rows.cpp) follow the engine choice; the rest after them.
        const std::vector<SettingSpec> engine_rows = engine_setting_rows();
        specs.insert(specs.end(), engine_rows.begin(), engine_rows.end());
        specs.insert(specs.end(), {
            {"confidence", "LEVEL",
             "fit's training answers: safe (default: the training peak's likely high end fits, so the longest sequence "
             "it names fits) or typical (the estimated peak fits)",
             "Fit answers at", "", K::choice, "typical",
             [](Scenario& s, std::string_view t) { return apply_choice(s.fit_confidence, t, confidence_choices()); },
             [](const Scenario& s) {
                 return s.fit_confidence == kDefaults.fit_confidence ? std::string() : std::string(confidence_text(s.fit_confidence));
             },
             [](const Scenario& s) { return std::string(confidence_text(s.fit_confidence)); }, confidence_choices},
        });
        return specs;
    }();
    return kSpecs;
}

std::string setting_field_text(const SettingSpec& spec, const Scenario& scenario) {
    std::string shown = spec.show(scenario);
    if (shown.empty() && spec.field != nullptr) shown = spec.field(scenario);
    return shown;
}

const SettingSpec* find_setting(std::string_view key) {
    for (const SettingSpec& spec : setting_specs())
        if (key == spec.key) return &spec;
    return nullptr;
}

bool is_engine_setting(std::string_view key) {
    const SettingSpec* spec = find_setting(key);
    return spec != nullptr && spec->engine != SettingEngine::none;
}

bool engine_reads(SettingEngine group, EngineKind kind) {
    const bool llama = kind == EngineKind::llama_cpp || kind == EngineKind::ollama;
    switch (group) {
        case SettingEngine::none:
        case SettingEngine::choice: return true;
        case SettingEngine::llama_cpp: return llama;
        case SettingEngine::vllm: return kind == EngineKind::vllm;
        case SettingEngine::drafter: return llama || kind == EngineKind::vllm;
        case SettingEngine::every: return kind != EngineKind::none;
    }
    return false;
}

Status engine_setting_problem(const Scenario& scenario) {
    static const char* const kReaders[] = {"", "", "llama.cpp and Ollama only", "vLLM only", "every engine", "llama.cpp and vLLM only"};
    const EngineKind kind = scenario.engine.kind;
    for (const SettingSpec& spec : setting_specs()) {
        if (engine_reads(spec.engine, kind) || spec.show(scenario).empty()) continue;  // read, or left at its default
        const std::string readers = kReaders[static_cast<std::size_t>(spec.engine)];
        const std::string problem =
            kind == EngineKind::none
                ? "is an engine's setting (read by " + readers + ") and no engine is chosen: choose one (--engine) or leave it out"
                : "is read by " + readers + ", not by " + engine_name(kind) + ", so it would change nothing: leave it out or choose another engine";
        return Error{spec.key, problem};
    }
    return std::nullopt;
}

std::vector<std::string> clear_unread_engine_settings(Scenario& scenario) {
    const EngineKind kind = scenario.engine.kind;
    std::vector<std::string> cleared;
    for (const SettingSpec& spec : setting_specs())
        if (!engine_reads(spec.engine, kind) && !spec.show(scenario).empty()) cleared.push_back(spec.key);
    if (cleared.empty()) return cleared;
    // The engine's settings from their defaults, then the ones this engine reads as they were (show and
    // apply round-trip every key).
    Scenario fresh = scenario;
    fresh.engine = EngineSettings{};
    fresh.engine.kind = kind;
    for (const SettingSpec& spec : setting_specs()) {
        if (spec.engine == SettingEngine::none || spec.engine == SettingEngine::choice || !engine_reads(spec.engine, kind)) continue;
        if (const std::string text = spec.show(scenario); !text.empty()) spec.apply(fresh, text);
    }
    scenario = fresh;
    return cleared;
}

bool follow_engine_gpus(Scenario& scenario) {
    if (scenario.engine.kind != EngineKind::vllm || scenario.gpu_count != 1) return false;
    const u128 gpus = static_cast<u128>(scenario.training.tp) * scenario.training.pp *
                      std::max<std::uint64_t>(1, scenario.engine.data_parallel);
    if (gpus <= 1 || gpus > kMaxGpuCount) return false;  // a count out of range stays for the estimate to refuse
    scenario.gpu_count = static_cast<std::uint64_t>(gpus);
    return true;
}

Expected<bool> apply_setting(Scenario& scenario, std::string_view key, std::string_view value) {
    const SettingSpec* spec = find_setting(key);
    if (spec == nullptr) {
        return Error{"unknown setting \"" + printable_excerpt(key, 40) + "\""};
    }
    if (spec->engine != SettingEngine::none && !engines_in_build()) return Error{spec->key, engines_left_out_note()};
    std::string message = spec->apply(scenario, value);
    if (!message.empty()) return Error{spec->key, message};
    return true;
}

StateResult apply_state_pairs(const Scenario& base, std::string_view state) {
    StateResult result{base, {}, false, std::nullopt};
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
    follow_engine_gpus(result.scenario);
    return result;
}

StateResult apply_state(const Scenario& base, std::string_view state) {
    StateResult result = apply_state_pairs(base, state);
    Expected<Estimate> check = estimate(result.scenario);
    if (!check) {
        result.problems.push_back(check.error());
        result.scenario = base;
        result.combination_rejected = true;
    } else {
        result.estimate = std::move(*check);
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

std::string url_encode(std::string_view text) { return percent_encode(text, ","); }

std::string format_count_state(std::uint64_t count) {
    struct Unit { std::uint64_t size; const char* suffix; };
    static constexpr Unit kUnits[] = {{1'000'000'000'000ULL, "T"}, {1'000'000'000ULL, "B"}, {1'000'000ULL, "M"}, {1'000ULL, "K"}};
    for (const Unit& unit : kUnits)
        if (count >= unit.size) return format_ratio(count, unit.size, 12) + unit.suffix;
    return std::to_string(count);
}

}  // namespace llm_memory
