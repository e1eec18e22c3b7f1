// Engine command lines both ways (see command_line.hpp). One table per engine maps each flag, in every
// spelling the engine accepts, to llm-memory's keys; the printer walks the same tables backwards, so a
// flag added to a table is read and printed alike.
#include "command_line.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "../architecture.hpp"
#include "../estimator.hpp"
#include "../json.hpp"
#include "../model_presets.hpp"
#include "../quantity.hpp"
#include "../settings.hpp"

namespace llm_memory {
namespace {

std::string lower(std::string_view text) {
    std::string out(text);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string shown(std::string_view text) { return "\"" + printable_excerpt(text, 40) + "\""; }

// A whole number written with digits only (llama.cpp's flags), or with vLLM's k/K/m/M suffixes
// (lower case 10^3, upper case 2^10) when `suffixes`.
Expected<unsigned long long> parse_whole(std::string_view text, bool suffixes) {
    if (text.empty()) return Error("needs a value");
    unsigned long long multiplier = 1;
    std::string_view digits = text;
    if (suffixes && !digits.empty()) {
        const char last = digits.back();
        if (last == 'k') multiplier = 1000ULL;
        else if (last == 'K') multiplier = 1024ULL;
        else if (last == 'm') multiplier = 1000000ULL;
        else if (last == 'M') multiplier = 1048576ULL;
        if (multiplier != 1) digits.remove_suffix(1);
    }
    if (digits.empty() || digits.size() > 12) return Error(shown(text) + " is not a whole number");
    unsigned long long value = 0;
    for (char c : digits) {
        if (c < '0' || c > '9') return Error(shown(text) + " is not a whole number");
        value = value * 10 + static_cast<unsigned long long>(c - '0');
    }
    return value * multiplier;
}

// A decimal number such as 0.9 or .95 (no exponent, no sign).
Expected<double> parse_decimal(std::string_view text) {
    if (text.empty() || text.size() > 20) return Error(shown(text) + " is not a number");
    bool dot = false, digit = false;
    for (char c : text) {
        if (c == '.' && !dot) dot = true;
        else if (c >= '0' && c <= '9') digit = true;
        else return Error(shown(text) + " is not a number");
    }
    if (!digit) return Error(shown(text) + " is not a number");
    return std::strtod(std::string(text).c_str(), nullptr);
}

// ---- shell words -------------------------------------------------------------------------------------

bool is_env_assignment(std::string_view word) {
    const std::size_t eq = word.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    for (std::size_t i = 0; i < eq; ++i) {
        const char c = word[i];
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
        if (i == 0 && std::isdigit(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

std::string basename_of(std::string_view path) {
    const std::size_t cut = path.find_last_of("/\\");
    return std::string(cut == std::string_view::npos ? path : path.substr(cut + 1));
}

// ---- flag tables -------------------------------------------------------------------------------------

enum class ValueKind {
    none,        // a switch: no value
    whole,       // a whole number (llama.cpp spelling)
    whole_k,     // a whole number with vLLM's k/K suffixes
    fraction,    // 0 < x <= 1
    ngl,         // llama.cpp -ngl: a number, "all" or "auto"
    split_mode,  // none|layer|row
    on_off_auto, // -fa: on|off|auto (a bare -fa is on)
    llama_cache, // f16 bf16 f32 q8_0 q4_0 (llama.cpp cache types llm-memory models)
    vllm_kv,     // auto fp8 fp8_e4m3 fp8_e5m2
    list,        // -ts 3,1 or 3/1
    vllm_dtype,  // auto half float16 bfloat16 float float32
    vllm_quant,  // awq gptq fp8 ...
    n_cpu_moe,   // --n-cpu-moe N (0 allowed)
    draft_model, // -md FILE: a built-in model by its name (and its weight format from the file name)
    overrides,   // -ot PATTERN=CPU[,...]: repeated flags add to the list
    mmproj,      // --mmproj FILE: a projector file (its name is not read; the model's vision tower is counted)
    speculative, // vLLM --speculative-config JSON: read and checked; a drafter is named as not priced
    spec_types,  // llama.cpp --spec-type LIST: draft-simple drafts with -md; the others are named as not priced
    text,        // any value (ignored or unmodelled flags)
};

struct FlagSpec {
    const char* names;  // every spelling, separated by '|': "-c|--ctx-size"
    const char* key;    // the llm-memory key; "" for flags that are ignored or not modelled
    ValueKind kind;
    const char* fixed;  // the value a switch stands for ("on", "off"); nullptr otherwise
    const char* why;    // for unmodelled flags: what llm-memory leaves out; nullptr for ignored flags
};

// llama.cpp's common arguments (common/arg.cpp), as llama-server and llama-cli accept them.
const std::vector<FlagSpec>& llama_flags() {
    static const std::vector<FlagSpec> kFlags = {
        {"-m|--model", "", ValueKind::text, nullptr, nullptr},
        {"-hf|-hfr|--hf-repo", "", ValueKind::text, nullptr, nullptr},
        {"-c|--ctx-size", "context", ValueKind::whole, nullptr, nullptr},
        {"-b|--batch-size", "nbatch", ValueKind::whole, nullptr, nullptr},
        {"-ub|--ubatch-size", "ubatch", ValueKind::whole, nullptr, nullptr},
        {"-ngl|--gpu-layers|--n-gpu-layers", "ngl", ValueKind::ngl, nullptr, nullptr},
        {"-sm|--split-mode", "split-mode", ValueKind::split_mode, nullptr, nullptr},
        {"-ts|--tensor-split", "tensor-split", ValueKind::list, nullptr, nullptr},
        {"-fa|--flash-attn", "flash-attn", ValueKind::on_off_auto, nullptr, nullptr},
        {"-ctk|--cache-type-k", "kv-dtype", ValueKind::llama_cache, nullptr, nullptr},
        {"-ctv|--cache-type-v", "v-dtype", ValueKind::llama_cache, nullptr, nullptr},
        {"-np|--parallel", "parallel", ValueKind::whole, nullptr, nullptr},
        {"-kvu|--kv-unified", "kv-unified", ValueKind::none, "on", nullptr},
        {"-no-kvu|--no-kv-unified", "kv-unified", ValueKind::none, "off", nullptr},
        {"--swa-full", "swa-full", ValueKind::none, "on", nullptr},
        {"--no-mmap", "mmap", ValueKind::none, "off", nullptr},
        {"--mmap", "mmap", ValueKind::none, "on", nullptr},
        // Change memory, not modelled.
        {"-cmoe|--cpu-moe", "n-cpu-moe", ValueKind::none, "all", nullptr},
        {"-ncmoe|--n-cpu-moe", "n-cpu-moe", ValueKind::n_cpu_moe, nullptr, nullptr},
        {"-ot|--override-tensor", "override-tensor", ValueKind::overrides, nullptr, nullptr},
        {"-nkvo|--no-kv-offload", "", ValueKind::none, nullptr, "a KV cache kept in system RAM is not modelled"},
        {"-md|--model-draft|--spec-draft-model", "draft-model", ValueKind::draft_model, nullptr, nullptr},
        {"--spec-draft-n-max", "draft-max", ValueKind::whole, nullptr, nullptr},
        {"--spec-type", "spec-type", ValueKind::spec_types, nullptr, nullptr},
        {"--spec-type draft-mtp", "mtp", ValueKind::none, "on", nullptr},  // printed only: --spec-type above reads it
        // The drafter's K and V cache types, read apart and joined after the flags (draft-kv-dtype is both).
        {"-ctkd|--cache-type-k-draft|--spec-draft-type-k", "draft-k", ValueKind::llama_cache, nullptr, nullptr},
        {"-ctvd|--cache-type-v-draft|--spec-draft-type-v", "draft-v", ValueKind::llama_cache, nullptr, nullptr},
        {"-ngld|--gpu-layers-draft|--n-gpu-layers-draft|--spec-draft-ngl", "draft-ngl", ValueKind::text, nullptr, nullptr},
        {"-cd|--ctx-size-draft", "", ValueKind::text, nullptr, "the drafter's KV cache is sized at the target's context; -cd is not modelled"},
        {"-mm|--mmproj|-mmu|--mmproj-url", "mmproj", ValueKind::mmproj, nullptr, nullptr},
        {"--no-mmproj", "mmproj", ValueKind::none, "off", nullptr},
        {"--no-mmproj-offload", "mmproj-offload", ValueKind::none, "off", nullptr},
        {"--mmproj-offload", "mmproj-offload", ValueKind::none, "on", nullptr},
        {"-mg|--main-gpu", "", ValueKind::text, nullptr, "the main GPU's choice is not modelled (GPU 0 is assumed)"},
        {"-dev|--device", "", ValueKind::text, nullptr, "device lists are not modelled (give -ts)"},
        {"--lora", "", ValueKind::text, nullptr, "LoRA adapters' memory is not counted"},
        {"--fit", "", ValueKind::text, nullptr, "llama.cpp's --fit search is not run; the flags given are used"},
        {"-fitt|--fit-target", "fit-target", ValueKind::whole, nullptr, nullptr},
        {"--image-min-tokens", "image-min-tokens", ValueKind::whole, nullptr, nullptr},
        {"--image-max-tokens", "image-max-tokens", ValueKind::whole, nullptr, nullptr},
        {"--mlock", "", ValueKind::none, nullptr, "locked pages do not change the sizes; mlock is not modelled"},
        // Do not change memory.
        {"--host", "", ValueKind::text, nullptr, nullptr},
        {"--port", "", ValueKind::text, nullptr, nullptr},
        {"-t|--threads", "", ValueKind::text, nullptr, nullptr},
        {"-tb|--threads-batch", "", ValueKind::text, nullptr, nullptr},
        {"-a|--alias", "", ValueKind::text, nullptr, nullptr},
        {"--api-key", "", ValueKind::text, nullptr, nullptr},
        {"--jinja", "", ValueKind::none, nullptr, nullptr},
        {"--no-webui", "", ValueKind::none, nullptr, nullptr},
        {"--metrics", "", ValueKind::none, nullptr, nullptr},
        {"--slots", "", ValueKind::none, nullptr, nullptr},
        {"--no-context-shift", "", ValueKind::none, nullptr, nullptr},
        {"--context-shift", "", ValueKind::none, nullptr, nullptr},
        {"-cb|--cont-batching", "", ValueKind::none, nullptr, nullptr},
        {"-nocb|--no-cont-batching", "", ValueKind::none, nullptr, nullptr},
        {"--no-warmup", "", ValueKind::none, nullptr, nullptr},
        {"-v|--verbose|--log-verbose", "", ValueKind::none, nullptr, nullptr},
        {"--log-disable", "", ValueKind::none, nullptr, nullptr},
        {"--log-file", "", ValueKind::text, nullptr, nullptr},
        {"-n|--n-predict|--predict", "", ValueKind::text, nullptr, nullptr},
        {"-p|--prompt", "", ValueKind::text, nullptr, nullptr},
        {"-f|--file", "", ValueKind::text, nullptr, nullptr},
        {"-s|--seed", "", ValueKind::text, nullptr, nullptr},
        {"--temp", "", ValueKind::text, nullptr, nullptr},
        {"--top-k", "", ValueKind::text, nullptr, nullptr},
        {"--top-p", "", ValueKind::text, nullptr, nullptr},
        {"--min-p", "", ValueKind::text, nullptr, nullptr},
        {"--repeat-penalty", "", ValueKind::text, nullptr, nullptr},
        {"--chat-template", "", ValueKind::text, nullptr, nullptr},
        {"--chat-template-file", "", ValueKind::text, nullptr, nullptr},
        {"--reasoning-format", "", ValueKind::text, nullptr, nullptr},
        {"--reasoning-budget", "", ValueKind::text, nullptr, nullptr},
        {"--timeout", "", ValueKind::text, nullptr, nullptr},
        {"--numa", "", ValueKind::text, nullptr, nullptr},
        {"--prio", "", ValueKind::text, nullptr, nullptr},
        {"-cnv|--conversation", "", ValueKind::none, nullptr, nullptr},
        {"-no-cnv|--no-conversation", "", ValueKind::none, nullptr, nullptr},
        {"-i|--interactive", "", ValueKind::none, nullptr, nullptr},
        {"-sys|--system-prompt", "", ValueKind::text, nullptr, nullptr},
        {"--color", "", ValueKind::none, nullptr, nullptr},
        {"-st|--single-turn", "", ValueKind::none, nullptr, nullptr},
        {"--path", "", ValueKind::text, nullptr, nullptr},
        {"--embedding|--embeddings", "", ValueKind::none, nullptr, nullptr},
        {"--rope-scaling", "", ValueKind::text, nullptr, nullptr},
        {"--rope-freq-base", "", ValueKind::text, nullptr, nullptr},
        {"--rope-freq-scale", "", ValueKind::text, nullptr, nullptr},
        {"--cache-reuse", "", ValueKind::text, nullptr, nullptr},
        {"--no-perf", "", ValueKind::none, nullptr, nullptr},
    };
    return kFlags;
}

// vLLM's engine arguments (vllm/engine/arg_utils.py), dashes and underscores alike.
const std::vector<FlagSpec>& vllm_flags() {
    static const std::vector<FlagSpec> kFlags = {
        {"--model", "", ValueKind::text, nullptr, nullptr},
        {"-tp|--tensor-parallel-size", "tp", ValueKind::whole, nullptr, nullptr},
        {"-pp|--pipeline-parallel-size", "pp", ValueKind::whole, nullptr, nullptr},
        {"--gpu-memory-utilization", "gpu-util", ValueKind::fraction, nullptr, nullptr},
        {"--max-model-len", "context", ValueKind::whole_k, nullptr, nullptr},
        {"--max-num-seqs", "max-num-seqs", ValueKind::whole, nullptr, nullptr},
        {"--max-num-batched-tokens", "max-batched-tokens", ValueKind::whole_k, nullptr, nullptr},
        {"--kv-cache-dtype", "kv-dtype", ValueKind::vllm_kv, nullptr, nullptr},
        {"--block-size", "block-size", ValueKind::whole, nullptr, nullptr},
        {"--enforce-eager", "enforce-eager", ValueKind::none, "on", nullptr},
        {"--disable-hybrid-kv-cache-manager", "disable-hybrid-kv-cache-manager", ValueKind::none, "on", nullptr},
        {"--dtype", "dtype", ValueKind::vllm_dtype, nullptr, nullptr},
        {"-q|--quantization", "dtype", ValueKind::vllm_quant, nullptr, nullptr},
        {"--cpu-offload-gb", "", ValueKind::text, nullptr, "weights offloaded to system RAM are not modelled"},
        {"--limit-mm-per-prompt", "", ValueKind::text, nullptr, "multimodal inputs are not modelled"},
        {"--speculative-config", "", ValueKind::speculative, nullptr, nullptr},
        {"--num-gpu-blocks-override", "", ValueKind::text, nullptr, "a fixed block count is not modelled"},
        {"--kv-transfer-config", "", ValueKind::text, nullptr, "KV transfer connectors are not modelled"},
        {"--enable-lora", "", ValueKind::none, nullptr, "LoRA adapters' memory is not counted"},
        {"-dp|--data-parallel-size", "dp", ValueKind::whole, nullptr, nullptr},
        {"--enable-expert-parallel|-ep", "expert-parallel", ValueKind::none, "on", nullptr},
        {"--swap-space", "", ValueKind::text, nullptr, nullptr},
        {"--host", "", ValueKind::text, nullptr, nullptr},
        {"--port", "", ValueKind::text, nullptr, nullptr},
        {"--api-key", "", ValueKind::text, nullptr, nullptr},
        {"--served-model-name", "", ValueKind::text, nullptr, nullptr},
        {"--tokenizer", "", ValueKind::text, nullptr, nullptr},
        {"--tokenizer-mode", "", ValueKind::text, nullptr, nullptr},
        {"--revision", "", ValueKind::text, nullptr, nullptr},
        {"--download-dir", "", ValueKind::text, nullptr, nullptr},
        {"--seed", "", ValueKind::text, nullptr, nullptr},
        {"--trust-remote-code", "", ValueKind::none, nullptr, nullptr},
        {"--enable-prefix-caching", "", ValueKind::none, nullptr, nullptr},
        {"--no-enable-prefix-caching", "", ValueKind::none, nullptr, nullptr},
        {"--enable-chunked-prefill", "", ValueKind::none, nullptr, nullptr},
        {"--no-enable-chunked-prefill", "", ValueKind::none, nullptr, nullptr},
        {"--enable-auto-tool-choice", "", ValueKind::none, nullptr, nullptr},
        {"--tool-call-parser", "", ValueKind::text, nullptr, nullptr},
        {"--reasoning-parser", "", ValueKind::text, nullptr, nullptr},
        {"--chat-template", "", ValueKind::text, nullptr, nullptr},
        {"--disable-log-requests", "", ValueKind::none, nullptr, nullptr},
        {"--disable-log-stats", "", ValueKind::none, nullptr, nullptr},
        {"--uvicorn-log-level", "", ValueKind::text, nullptr, nullptr},
        {"--load-format", "", ValueKind::text, nullptr, nullptr},
        {"--config-format", "", ValueKind::text, nullptr, nullptr},
        {"--max-logprobs", "", ValueKind::text, nullptr, nullptr},
        {"--generation-config", "", ValueKind::text, nullptr, nullptr},
        {"--distributed-executor-backend", "", ValueKind::text, nullptr, nullptr},
        {"--disable-custom-all-reduce", "", ValueKind::none, nullptr, nullptr},
        {"--enable-sleep-mode", "", ValueKind::none, nullptr, nullptr},
    };
    return kFlags;
}

bool spelled(const FlagSpec& spec, std::string_view name) {
    std::string_view names = spec.names;
    while (!names.empty()) {
        const std::size_t bar = names.find('|');
        if (names.substr(0, bar) == name) return true;
        if (bar == std::string_view::npos) break;
        names.remove_prefix(bar + 1);
    }
    return false;
}

const FlagSpec* find_flag(const std::vector<FlagSpec>& table, std::string_view name) {
    for (const FlagSpec& spec : table)
        if (spelled(spec, name)) return &spec;
    return nullptr;
}

// The first spelling whose form is "--long" (the printer's choice), else the first.
std::string print_name(const FlagSpec& spec, bool prefer_short) {
    std::string_view names = spec.names;
    std::string first, long_form;
    while (!names.empty()) {
        const std::size_t bar = names.find('|');
        const std::string_view one = names.substr(0, bar);
        if (first.empty()) first = std::string(one);
        if (long_form.empty() && one.rfind("--", 0) == 0) long_form = std::string(one);
        if (bar == std::string_view::npos) break;
        names.remove_prefix(bar + 1);
    }
    return prefer_short || long_form.empty() ? first : long_form;
}

void set_setting(CommandReading& r, const std::string& key, const std::string& value, const std::string& source) {
    for (CommandSetting& s : r.settings)
        if (s.key == key) {
            s.value = value;
            s.source = source;
            return;
        }
    r.settings.push_back({key, value, source});
}

void drop_setting(CommandReading& r, const std::string& key) {
    r.settings.erase(std::remove_if(r.settings.begin(), r.settings.end(), [&](const CommandSetting& s) { return s.key == key; }),
                     r.settings.end());
}

const CommandSetting* get_setting(const CommandReading& r, const std::string& key) {
    for (const CommandSetting& s : r.settings)
        if (s.key == key) return &s;
    return nullptr;
}

// vLLM's --speculative-config (vllm/config/speculative.py SpeculativeConfig): a JSON object with "method"
// and/or "model" and "num_speculative_tokens" (> 0). Prompt-lookup methods hold no weights (ignored, with
// why); a built-in draft model becomes draft-model; other drafters are named as not priced.
Status read_speculative(CommandReading& r, const std::string& flag, const std::string& value) {
    auto bad = [&](const std::string& problem) { return Status(Error(flag, problem)); };
    const JsonDocument doc = parse_json(value);
    if (!doc.ok())
        return bad(shown(value) + " is not valid JSON (" +
                   (doc.error_position > value.size() ? std::string("it ends too soon") : "reading stops at character " + std::to_string(doc.error_position)) +
                   "); write '{\"model\": \"NAME\", \"num_speculative_tokens\": 5}' in single quotes");
    if (!doc.value.is_object()) return bad("takes a JSON object such as {\"method\": \"ngram\", \"num_speculative_tokens\": 5}");
    std::string text[2];  // "method", "model"
    for (int i = 0; i < 2; ++i) {
        const char* key = i == 0 ? "method" : "model";
        const JsonValue* v = doc.value.find(key);
        if (v == nullptr || v->is_null()) continue;
        if (!v->is_string() || v->text().empty()) return bad(std::string("\"") + key + "\" must be a non-empty string");
        text[i] = v->text();
    }
    std::string& method = text[0];
    std::string& model = text[1];
    const JsonValue* k = doc.value.find("num_speculative_tokens");
    if (k != nullptr && !k->is_null() && !(k->is_unsigned() && k->unsigned_value() > 0 && k->unsigned_value() <= 1024))
        return bad("\"num_speculative_tokens\" must be a whole number from 1 to 1024");
    // A priced drafter's tokens a step (draft-max): a hybrid target keeps a state block for each.
    auto take_tokens = [&](const std::string& source) {
        if (k != nullptr && !k->is_null()) set_setting(r, "draft-max", std::to_string(k->unsigned_value()), source);
    };
    if (model == "[ngram]") method = "ngram", model.clear();  // vLLM's older spelling
    const bool mtp = method == "mtp" || (method.size() > 4 && method.compare(method.size() - 4, 4, "_mtp") == 0);
    const std::string methods = " ngram ngram_gpu suffix draft_model eagle eagle3 medusa mlp_speculator extract_hidden_states dflash dspark custom_class ";
    if (!method.empty() && !mtp && methods.find(" " + method + " ") == std::string::npos)
        return bad("\"method\": " + shown(method) + " is not one of vLLM's:" + methods + "mtp or a *_mtp model type");
    if (method.empty() && model.empty()) return bad("names no drafter: give \"method\" (ngram, eagle, mtp, ...) or \"model\"");
    const std::string source = flag + " " + value;
    if (method == "ngram" || method == "ngram_gpu" || method == "suffix") {
        r.ignored.push_back(source + " (" + method + " proposes tokens from the text itself: no draft weights or KV cache)");
        return std::nullopt;
    }
    // The target's own MTP layers (method mtp, or the older deepseek_mtp, glm4_moe_mtp, ... spellings) are --mtp.
    if (mtp) {
        set_setting(r, "mtp", "on", source);
        take_tokens(source);
        return std::nullopt;
    }
    const std::string preset = model.empty() ? std::string() : match_model_reference(model, false).preset_key;
    // A separate draft model that is a built-in model is priced (core/engines/vllm.cpp vllm_drafter); EAGLE and
    // Medusa heads, and drafters llm-memory does not know, are named as left out.
    if ((method.empty() || method == "draft_model") && !preset.empty()) {
        set_setting(r, "draft-model", preset, source);
        take_tokens(source);
        return std::nullopt;
    }
    r.unmodelled.push_back(source + " (" + (model.empty() ? std::string("the drafter") : "the drafter " + model) +
                           (preset.empty() ? "" : ", built-in " + preset) + ": vLLM drafters are not priced yet; their weights and KV cache are left out)");
    return std::nullopt;
}

// Translates one valued flag into a setting (or a note); an Error keyed by the flag when the value is bad.
Status take_value(CommandReading& r, const FlagSpec& spec, const std::string& flag, const std::string& value) {
    const std::string source = flag + " " + value;
    const std::string key = spec.key;
    auto bad = [&](const std::string& problem) { return Status(Error(flag, problem)); };
    switch (spec.kind) {
        case ValueKind::none:
            return std::nullopt;
        case ValueKind::speculative:
            return read_speculative(r, flag, value);
        case ValueKind::text:  // kept as written for a later look (-ngld)
            set_setting(r, key, value, source);
            return std::nullopt;
        case ValueKind::whole:
        case ValueKind::whole_k: {
            const Expected<unsigned long long> n = parse_whole(value, spec.kind == ValueKind::whole_k);
            if (!n) return bad(n.error());
            if (*n == 0 && key == "context" && r.engine == "llama.cpp") {
                r.unmodelled.push_back(source + " (0 means the model's training context: give -c N for a figure)");
                drop_setting(r, key);
                return std::nullopt;
            }
            if (*n == 0 && key != "context" && key != "fit-target") return bad(shown(value) + " must be at least 1");  // -fitt 0: no margin
            set_setting(r, key, std::to_string(*n), source);
            return std::nullopt;
        }
        case ValueKind::fraction: {
            const Expected<double> x = parse_decimal(value);
            if (!x) return bad(x.error());
            if (!(*x > 0.0) || *x > 1.0) return bad(shown(value) + " must be above 0 and at most 1");
            set_setting(r, key, value, source);
            return std::nullopt;
        }
        case ValueKind::mmproj: {
            std::string v = value;
            while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.pop_back();
            if (v.empty()) return bad("needs the projector's file (an mmproj .gguf)");
            set_setting(r, key, "on", source);
            return std::nullopt;
        }
        case ValueKind::draft_model: {
            const ModelReference m = match_model_reference(value, false);
            if (m.preset_key.empty()) {
                r.unmodelled.push_back(source + " (a drafter llm-memory does not know by its name: give --draft-model NAME)");
                return std::nullopt;
            }
            set_setting(r, key, m.preset_key, source);
            if (!m.weight_dtype.empty()) set_setting(r, "draft-dtype", m.weight_dtype, source);
            return std::nullopt;
        }
        case ValueKind::spec_types: {
            // common/speculative.cpp's names. Since llama.cpp PR #23988 (June 2026) -md drafts only under draft-simple.
            std::string list = lower(value);
            for (std::size_t at = 0; at <= list.size();) {
                const std::size_t end = std::min(list.find(',', at), list.size());
                const std::string type = list.substr(at, end - at);
                at = end + 1;
                if (type == "none") continue;
                if (type == "draft-simple") {
                    set_setting(r, key, type, source);
                } else if (type == "draft-mtp") {
                    set_setting(r, "mtp", "on", source);
                } else if (type == "draft-eagle3" || type == "draft-dflash" || type == "draft-dspark") {
                    r.unmodelled.push_back(source + " (" + type + ": its sidecar drafter and its draft context are not priced)");
                } else if (type == "ngram-simple" || type == "ngram-map-k" || type == "ngram-map-k4v" || type == "ngram-mod" || type == "ngram-cache") {
                    r.unmodelled.push_back(source + " (" + type + " drafts from the text itself, no weights; the logits rows its " +
                                           (type == "ngram-mod" ? "64" : type == "ngram-cache" ? "8" : "48") + "-token drafts add are not modelled)");
                } else {
                    return bad(shown(type) + " is not a speculative type (none, draft-simple, draft-eagle3, draft-mtp, draft-dflash, draft-dspark, "
                                             "ngram-simple, ngram-map-k, ngram-map-k4v, ngram-mod, ngram-cache)");
                }
            }
            return std::nullopt;
        }
        case ValueKind::n_cpu_moe: {
            const Expected<unsigned long long> n = parse_whole(value, false);
            if (!n) return bad(shown(value) + " is not a number of layers");
            set_setting(r, key, std::to_string(*n), source);
            return std::nullopt;
        }
        case ValueKind::overrides: {
            // Each -ot adds to the list (llama.cpp appends); only =CPU overrides are modelled.
            std::string list = value;
            for (std::size_t at = 0; at <= list.size();) {
                const std::size_t end = std::min(list.find(',', at), list.size());
                const std::string entry = list.substr(at, end - at);
                at = end + 1;
                const std::size_t eq = entry.rfind('=');
                if (eq == std::string::npos || eq == 0) return bad(shown(entry) + " is not PATTERN=BUFFER_TYPE");
                if (entry.substr(eq + 1) != "CPU") {
                    r.unmodelled.push_back(source + " (only =CPU overrides are modelled; tensors sent to another device are not)");
                    return std::nullopt;
                }
            }
            if (const CommandSetting* before = get_setting(r, key)) list = before->value + "," + list;
            set_setting(r, key, list, source);
            return std::nullopt;
        }
        case ValueKind::ngl: {
            const std::string v = lower(value);
            if (v == "all") {
                set_setting(r, key, "all", source);
                return std::nullopt;
            }
            if (v == "auto" || v == "-1") {  // llama.cpp's --fit chooses the layers
                set_setting(r, key, "auto", source);
                return std::nullopt;
            }
            const Expected<unsigned long long> n = parse_whole(value, false);
            if (!n) return bad(shown(value) + " is not a number of layers (a whole number, all or auto)");
            set_setting(r, key, std::to_string(*n), source);
            return std::nullopt;
        }
        case ValueKind::split_mode: {
            const std::string v = lower(value);
            if (v != "none" && v != "layer" && v != "row")
                return bad(shown(value) + " is not a split mode (none, layer or row)");
            set_setting(r, key, v, source);
            return std::nullopt;
        }
        case ValueKind::on_off_auto: {
            const std::string v = lower(value);
            std::string word;
            if (v == "on" || v == "1" || v == "true" || v == "enabled") word = "on";
            else if (v == "off" || v == "0" || v == "false" || v == "disabled") word = "off";
            else if (v == "auto") word = "auto";
            else return bad(shown(value) + " is not on, off or auto");
            set_setting(r, key, word, source);
            return std::nullopt;
        }
        case ValueKind::llama_cache: {
            const std::string v = lower(value);
            std::string ours;
            if (v == "f16") ours = "fp16";
            else if (v == "f32") ours = "fp32";
            else if (v == "bf16" || v == "q8_0" || v == "q4_0") ours = v;
            else if (v == "q4_1" || v == "q5_0" || v == "q5_1" || v == "iq4_nl")
                return bad(shown(value) + " is a llama.cpp cache type llm-memory does not model (f16, bf16, f32, q8_0, q4_0)");
            else return bad(shown(value) + " is not a llama.cpp cache type (f16, bf16, f32, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1)");
            set_setting(r, key, ours, source);
            return std::nullopt;
        }
        case ValueKind::vllm_kv: {
            const std::string v = lower(value);
            if (v == "auto") {
                drop_setting(r, key);  // the model's dtype
                return std::nullopt;
            }
            if (v == "fp8" || v == "fp8_e4m3" || v == "fp8_e5m2" || v == "fp8_inc") {
                set_setting(r, key, "fp8", source);
                return std::nullopt;
            }
            if (v == "bfloat16" || v == "float16" || v == "half") {
                set_setting(r, key, v == "bfloat16" ? "bf16" : "fp16", source);
                return std::nullopt;
            }
            return bad(shown(value) + " is not a vLLM KV-cache dtype (auto, fp8, fp8_e4m3, fp8_e5m2)");
        }
        case ValueKind::list: {
            std::string list;
            std::size_t count = 0;
            std::size_t start = 0;
            while (start <= value.size()) {
                std::size_t end = value.find_first_of(",/", start);
                if (end == std::string::npos) end = value.size();
                const std::string item = value.substr(start, end - start);
                const Expected<double> x = parse_decimal(item);
                if (!x) return bad(shown(value) + " is not a list of proportions such as 3,1 (" + shown(item) + " is not a number)");
                list += (list.empty() ? "" : ",") + item;
                ++count;
                start = end + 1;
            }
            if (count > 64) return bad("lists more than 64 GPUs");
            set_setting(r, key, list, source);
            if (count > 1) set_setting(r, "gpus", std::to_string(count), source);
            return std::nullopt;
        }
        case ValueKind::vllm_dtype: {
            const std::string v = lower(value);
            std::string ours;
            if (v == "auto") {
                drop_setting(r, key);
                return std::nullopt;
            }
            if (v == "half" || v == "float16") ours = "fp16";
            else if (v == "bfloat16") ours = "bf16";
            else if (v == "float" || v == "float32") ours = "fp32";
            else return bad(shown(value) + " is not a vLLM dtype (auto, half, float16, bfloat16, float, float32)");
            set_setting(r, key, ours, source);
            return std::nullopt;
        }
        case ValueKind::vllm_quant: {
            const std::string v = lower(value);
            if (v == "fp8") {
                set_setting(r, key, "fp8", source);
            } else if (v == "gptq" || v == "gptq_marlin" || v == "marlin") {
                set_setting(r, key, "gptq", source);  // 4-bit, group 128: the common GPTQ export
            } else if (v == "awq" || v == "awq_marlin") {
                set_setting(r, key, "awq", source);
            } else if (v == "mxfp4") {
                set_setting(r, key, "mxfp4", source);
            } else if (v == "bitsandbytes") {
                set_setting(r, key, "nf4", source);
            } else {
                r.unmodelled.push_back(source + " (this quantization method is not modelled)");
            }
            return std::nullopt;
        }
    }
    return std::nullopt;
}

// ---- model references --------------------------------------------------------------------------------

std::string alnum_fold(std::string_view text) {
    std::string out;
    for (char c : text)
        if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// GGUF quantization names in file names, with the weight format llm-memory calls them.
struct QuantName {
    const char* in_name;
    const char* dtype;
};
const QuantName kQuantNames[] = {
    {"q4_k_m", "q4_k_m"}, {"q5_k_m", "q5_k_m"}, {"q3_k_m", "q3_k_m"}, {"q6_k", "q6_k"}, {"q8_0", "q8_0"},
    {"q4_0", "q4_0"},     {"q2_k", "q2_k"},     {"f16", "fp16"},      {"fp16", "fp16"}, {"bf16", "bf16"},
    {"f32", "fp32"},      {"q4_k_s", ""},       {"q5_k_s", ""},       {"q3_k_s", ""},   {"q3_k_l", ""},
    {"iq4_xs", ""},       {"iq4_nl", ""},       {"q5_0", ""},         {"q4_1", ""},     {"q5_1", ""},
    {"q4_k_xl", ""},      {"q2_k_xl", ""},      {"q3_k_xl", ""},      {"iq2_xxs", ""},  {"iq3_xxs", ""},
    {"iq1_s", ""},        {"iq1_m", ""},        {"iq2_m", ""},        {"iq3_m", ""},    {"q8_k_xl", ""},
};

// Words in model names that do not change the architecture.
bool noise_word(const std::string& word) {
    static const char* const kWords[] = {"instruct", "chat", "it", "hf", "gguf", "base", "pt", "ud", "latest", "text"};
    for (const char* w : kWords)
        if (word == w) return true;
    return false;
}

// Splits a name into words at '-', '_', ' ' and '/' (dots stay: "3.1", "2.5", "v0.1").
std::vector<std::string> name_words(std::string_view name) {
    std::vector<std::string> words;
    std::string word;
    for (char c : name) {
        if (c == '-' || c == '_' || c == ' ' || c == '/') {
            if (!word.empty()) words.push_back(lower(word));
            word.clear();
        } else {
            word += c;
        }
    }
    if (!word.empty()) words.push_back(lower(word));
    return words;
}

// Takes a quantization name off the end of the words ("...-Q4_K_M" is the words "q4","k","m"); returns its dtype.
bool take_quant(std::vector<std::string>& words, std::string& dtype) {
    for (std::size_t n = 3; n >= 1; --n) {
        if (words.size() < n) continue;
        for (std::size_t start = 0; start + n <= words.size(); ++start) {
            std::string joined;
            for (std::size_t i = start; i < start + n; ++i) joined += (i == start ? "" : "_") + words[i];
            for (const QuantName& q : kQuantNames)
                if (joined == q.in_name) {
                    dtype = q.dtype;
                    words.erase(words.begin() + static_cast<std::ptrdiff_t>(start), words.begin() + static_cast<std::ptrdiff_t>(start + n));
                    return true;
                }
        }
    }
    return false;
}

std::string key_of_words(std::vector<std::string> words) {
    if (!words.empty() && words.front() == "meta") words.erase(words.begin());
    std::string folded;
    for (const std::string& w : words)
        if (!noise_word(w)) folded += alnum_fold(w);
    return folded;
}

std::string preset_matching(const std::string& folded) {
    if (folded.empty()) return {};
    for (const ModelPreset& preset : model_presets()) {
        if (alnum_fold(preset.key) == folded) return preset.key;
        std::string_view id = preset.hf_id;
        const std::size_t slash = id.find('/');
        if (slash != std::string_view::npos) id.remove_prefix(slash + 1);
        if (key_of_words(name_words(id)) == folded) return preset.key;
    }
    return {};
}

// ---- reading ------------------------------------------------------------------------------------------

struct Words {
    std::vector<std::string> list;
    std::size_t at = 0;
    bool done() const { return at >= list.size(); }
    const std::string& peek() const { return list[at]; }
};

bool looks_like_flag(const std::string& word) {
    if (word.size() < 2 || word[0] != '-') return false;
    // "-1" is a value (-ngl -1), not a flag.
    return !(std::isdigit(static_cast<unsigned char>(word[1])) || word[1] == '.');
}

Status read_flags(CommandReading& r, Words& w, const std::vector<FlagSpec>& table, bool vllm) {
    while (!w.done()) {
        std::string word = w.list[w.at++];
        if (!looks_like_flag(word)) {
            if (vllm && r.model_ref.empty()) {
                r.model_ref = word;
                r.model_source = r.program + " MODEL";
                continue;
            }
            r.ignored.push_back(word + " (not a flag)");
            continue;
        }
        std::string name = word, value;
        bool has_value = false;
        const std::size_t eq = word.find('=');
        if (eq != std::string::npos) {
            name = word.substr(0, eq);
            value = word.substr(eq + 1);
            has_value = true;
        }
        if (vllm && name.rfind("--", 0) == 0) std::replace(name.begin() + 2, name.end(), '_', '-');
        const FlagSpec* spec = find_flag(table, name);
        if (spec == nullptr && vllm && name.rfind("--", 0) == 0 && name.size() > 4) {
            // argparse accepts an unambiguous prefix of a long option ("--tensor_parallel").
            for (const FlagSpec& candidate : table) {
                const std::string long_name = print_name(candidate, false);
                if (long_name.rfind(name, 0) == 0) {
                    if (spec != nullptr) {
                        spec = nullptr;
                        break;
                    }
                    spec = &candidate;
                }
            }
            if (spec != nullptr) name = print_name(*spec, false);
        }
        if (spec == nullptr) {
            // An unknown flag: its value, if any, is the next word that is not a flag.
            std::string as_written = word;
            if (!has_value && !w.done() && !looks_like_flag(w.peek()) && !(vllm && r.model_ref.empty())) as_written += " " + w.list[w.at++];
            r.ignored.push_back(as_written + " (not a flag llm-memory knows)");
            continue;
        }
        const bool optional_value = spec->kind == ValueKind::on_off_auto;  // a bare -fa is on
        if (spec->kind == ValueKind::none) {
            if (has_value) return Error(name, "takes no value");
            if (spec->key[0] != '\0') set_setting(r, spec->key, spec->fixed, name);
            else if (spec->why != nullptr) r.unmodelled.push_back(name + " (" + spec->why + ")");
            else r.ignored.push_back(name);
            continue;
        }
        if (!has_value) {
            if (w.done() || (looks_like_flag(w.peek()))) {
                if (optional_value) {
                    set_setting(r, spec->key, "on", name);
                    continue;
                }
                return Error(name, "needs a value");
            }
            if (optional_value) {
                // Older llama.cpp: -fa is a switch, so "-fa model.gguf"-like words are not its value.
                const std::string v = lower(w.peek());
                const bool word_is_value = v == "on" || v == "off" || v == "auto" || v == "1" || v == "0" ||
                                           v == "true" || v == "false" || v == "enabled" || v == "disabled";
                if (!word_is_value) {
                    set_setting(r, spec->key, "on", name);
                    continue;
                }
            }
            value = w.list[w.at++];
        }
        if (name == "-m" || name == "--model" || name == "-hf" || name == "-hfr" || name == "--hf-repo") {
            r.model_ref = value;
            r.model_source = name;
            continue;
        }
        if (spec->key[0] == '\0' && spec->kind != ValueKind::speculative) {  // noted only; take_value reads the JSON
            if (spec->why != nullptr) r.unmodelled.push_back(name + " " + value + " (" + spec->why + ")");
            else r.ignored.push_back(name + " " + value);
            continue;
        }
        if (Status problem = take_value(r, *spec, name, value)) return problem;
    }
    return std::nullopt;
}

// OLLAMA_* variables that change memory, as Ollama's server reads them (envconfig/config.go).
Status read_ollama_env(CommandReading& r, const std::string& name, const std::string& value) {
    if (name == "OLLAMA_CONTEXT_LENGTH" || name == "OLLAMA_NUM_CTX") {
        const Expected<unsigned long long> n = parse_whole(value, false);
        if (!n || *n == 0) return Error(name, shown(value) + " is not a whole number of tokens");
        set_setting(r, "context", std::to_string(*n), name + "=" + value);
    } else if (name == "OLLAMA_FLASH_ATTENTION") {
        const std::string v = lower(value);
        if (v == "1" || v == "true") set_setting(r, "flash-attn", "on", name + "=" + value);
        else if (v == "0" || v == "false" || v.empty()) set_setting(r, "flash-attn", "off", name + "=" + value);
        else return Error(name, shown(value) + " is not 1 or 0");
    } else if (name == "OLLAMA_KV_CACHE_TYPE") {
        const std::string v = lower(value);
        if (v == "f16" || v.empty()) set_setting(r, "kv-dtype", "fp16", name + "=" + value);
        else if (v == "q8_0" || v == "q4_0") set_setting(r, "kv-dtype", v, name + "=" + value);
        else return Error(name, shown(value) + " is not an Ollama KV-cache type (f16, q8_0, q4_0)");
        if (!v.empty() && v != "f16") set_setting(r, "v-dtype", get_setting(r, "kv-dtype")->value, name + "=" + value);
    } else if (name == "OLLAMA_NUM_PARALLEL") {
        const Expected<unsigned long long> n = parse_whole(value, false);
        if (!n || *n == 0) return Error(name, shown(value) + " is not a whole number of slots");
        set_setting(r, "parallel", std::to_string(*n), name + "=" + value);
    } else if (name == "LLAMA_ARG_FIT_TARGET") {
        // Ollama keeps a fit target its own environment sets and adds no projector margin (llm/llama_server.go extraEnvsForStart).
        const Expected<unsigned long long> n = parse_whole(value, false);
        if (!n) return Error(name, shown(value) + " is not a whole number of MiB (one margin for every GPU)");
        set_setting(r, "fit-target", std::to_string(*n), name + "=" + value);
    } else if (name == "OLLAMA_GPU_OVERHEAD" || name == "OLLAMA_SCHED_SPREAD") {
        r.unmodelled.push_back(name + "=" + value + " (Ollama's placement margin is not modelled)");
    } else {
        r.ignored.push_back(name + "=" + value);
    }
    return std::nullopt;
}

// The drafter's flags read apart (draft-k, draft-v, draft-ngl) made settings: one draft-kv-dtype when -ctkd
// and -ctvd name one type (llama.cpp's default for either is f16, common/arg.cpp), a warning when they differ
// (the drafter's cache is sized in one type); -ngld is the drafter whole on the GPU (what is modelled) when
// it is "all", "auto" or at least the drafter's layers are asked for (a number of 99 or more is read so), a
// warning otherwise.
void join_draft_flags(CommandReading& r) {
    const CommandSetting* k = get_setting(r, "draft-k");
    const CommandSetting* v = get_setting(r, "draft-v");
    if (k != nullptr || v != nullptr) {
        const std::string kt = k ? k->value : "fp16", vt = v ? v->value : "fp16";
        const std::string source = k && v ? k->source + " " + v->source : (k ? k : v)->source;
        if (kt == vt) set_setting(r, "draft-kv-dtype", kt, source);
        else
            r.unmodelled.push_back(source + " (the drafter's K cache in " + kt + ", V in " + vt + ": one type is modelled, f16 here)");
    }
    if (const CommandSetting* ngl = get_setting(r, "draft-ngl")) {
        const std::string w = lower(ngl->value);
        const Expected<unsigned long long> n = parse_whole(w, false);
        if (!(w == "all" || w == "auto" || (n && *n >= 99)))
            r.unmodelled.push_back(ngl->source + " (the drafter is placed whole on GPU 0)");
    }
    drop_setting(r, "draft-k");
    drop_setting(r, "draft-v");
    drop_setting(r, "draft-ngl");
    // llama-server loads a drafter given without --spec-type draft-simple but does not draft with it (PR #23988).
    const CommandSetting* drafter = get_setting(r, "draft-model");
    if (drafter != nullptr && get_setting(r, "spec-type") == nullptr)
        r.unmodelled.push_back(drafter->source + " (without --spec-type draft-simple llama-server loads the drafter but does not draft; priced drafting)");
    drop_setting(r, "spec-type");
}

bool is_python(const std::string& program) {
    return program == "python" || program == "python3" || program.rfind("python3.", 0) == 0;
}

}  // namespace

Expected<std::vector<std::string>> split_command_words(std::string_view text) {
    std::vector<std::string> words;
    std::string word;
    bool in_word = false;
    std::size_t i = 0;
    // A pasted prompt: "$ llama-server ..." or "> ...".
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r')) ++i;
    if (i + 1 < text.size() && (text[i] == '$' || text[i] == '>') && text[i + 1] == ' ') i += 2;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\\') {
            if (i + 1 < text.size() && text[i + 1] == '\n') {
                ++i;
                continue;
            }
            if (i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
                i += 2;
                continue;
            }
            if (i + 1 < text.size()) {
                word += text[++i];
                in_word = true;
            }
            continue;
        }
        if (c == '\'') {
            const std::size_t end = text.find('\'', i + 1);
            if (end == std::string_view::npos) return Error("the command has an unterminated ' quote");
            word.append(text.substr(i + 1, end - i - 1));
            in_word = true;
            i = end;
            continue;
        }
        if (c == '"') {
            std::size_t j = i + 1;
            for (; j < text.size() && text[j] != '"'; ++j) {
                if (text[j] == '\\' && j + 1 < text.size() &&
                    (text[j + 1] == '"' || text[j + 1] == '\\' || text[j + 1] == '$' || text[j + 1] == '`')) {
                    word += text[++j];
                } else if (text[j] == '\\' && j + 1 < text.size() && text[j + 1] == '\n') {
                    ++j;
                } else {
                    word += text[j];
                }
            }
            if (j >= text.size()) return Error("the command has an unterminated \" quote");
            in_word = true;
            i = j;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) words.push_back(word);
            word.clear();
            in_word = false;
            continue;
        }
        if (c == '#' && !in_word) {  // a comment runs to the end of the line
            while (i < text.size() && text[i] != '\n') ++i;
            continue;
        }
        if ((c == ';' || c == '|' || c == '&') && !in_word) break;  // only the first command counts
        word += c;
        in_word = true;
    }
    if (in_word) words.push_back(word);
    if (words.size() > 4096) return Error("the command has more than 4,096 words");
    return words;
}

ModelReference match_model_reference(std::string_view ref, bool ollama_name) {
    ModelReference out;
    const std::string_view trimmed = trim(ref);
    if (trimmed.empty()) return out;
    if (const ModelPreset* direct = find_preset(trimmed)) {
        out.preset_key = direct->key;
        return out;
    }
    std::string name = basename_of(trimmed);
    std::string tag;
    const std::size_t colon = name.find(':');
    if (colon != std::string::npos) {
        tag = name.substr(colon + 1);
        name.erase(colon);
    }
    // "-hf org/repo:Q4_K_M": the part after the last '/' with the repository, the quant after ':'.
    if (!ollama_name && trimmed.find('/') != std::string_view::npos && find_preset(trimmed) == nullptr) {
        const std::string whole(trimmed.substr(0, trimmed.find(':')));
        if (const ModelPreset* p = find_preset(whole)) out.preset_key = p->key;
    }
    std::string lowered = lower(name);
    if (lowered.size() > 5 && lowered.compare(lowered.size() - 5, 5, ".gguf") == 0) name.erase(name.size() - 5);
    // "v0.2.Q4_K_M": a dot before a letter separates words; "3.1" and "2.5" keep theirs.
    for (std::size_t i = 0; i + 1 < name.size(); ++i)
        if (name[i] == '.' && std::isalpha(static_cast<unsigned char>(name[i + 1]))) name[i] = '-';
    std::vector<std::string> words = name_words(name);
    // Shards: "...-00001-of-00004".
    if (words.size() >= 3 && words[words.size() - 2] == "of" && alnum_fold(words.back()) == words.back() &&
        std::all_of(words.back().begin(), words.back().end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
        words.resize(words.size() - 3);
    }
    std::string dtype;
    take_quant(words, dtype);
    if (ollama_name) {
        // "llama3.1:70b-instruct-q4_K_M": the size leads the tag; Ollama's default tags are Q4_K_M.
        std::vector<std::string> tag_words = name_words(tag);
        std::string tag_dtype;
        take_quant(tag_words, tag_dtype);
        if (!tag_words.empty() && tag_words.front() != "latest") words.push_back(tag_words.front());
        dtype = tag_dtype.empty() ? (tag.find("fp16") != std::string::npos ? "fp16" : "q4_k_m") : tag_dtype;
    } else if (!tag.empty() && dtype.empty()) {
        std::vector<std::string> tag_words = name_words(tag);
        take_quant(tag_words, dtype);
    }
    if (out.preset_key.empty()) out.preset_key = preset_matching(key_of_words(words));
    out.weight_dtype = dtype;
    return out;
}

Expected<CommandReading> read_engine_command(std::string_view text) {
    if (text.size() > 65536) return Error("the command is longer than 64 KiB");
    Expected<std::vector<std::string>> split = split_command_words(text);
    if (!split) return split.failure();
    Words w{std::move(split.value()), 0};
    CommandReading r;
    std::vector<std::pair<std::string, std::string>> env;
    // Wrappers and variables before the program: "env", "sudo", "nohup", "VAR=value".
    while (!w.done()) {
        const std::string& word = w.peek();
        if (is_env_assignment(word)) {
            const std::size_t eq = word.find('=');
            env.emplace_back(word.substr(0, eq), word.substr(eq + 1));
            ++w.at;
        } else if (word == "env" || word == "sudo" || word == "nohup" || word == "exec" || word == "time") {
            ++w.at;
        } else {
            break;
        }
    }
    if (w.done()) return Error("the command names no program (paste a llama-server, llama-cli, vllm serve or ollama run command)");
    std::string program = basename_of(w.list[w.at++]);
    const std::string lowered = lower(program);
    const bool exe = lowered.size() > 4 && lowered.compare(lowered.size() - 4, 4, ".exe") == 0;
    if (exe) program.erase(program.size() - 4);
    const std::string prog = lower(program);
    if (is_python(prog)) {
        if (w.done() || w.peek() != "-m") return Error("a python command is read only as python -m vllm.entrypoints.openai.api_server");
        ++w.at;
        if (w.done()) return Error("python -m needs a module");
        const std::string module = w.list[w.at++];
        if (module.rfind("vllm.entrypoints", 0) != 0) return Error("the module " + shown(module) + " is not vLLM's server (vllm.entrypoints.openai.api_server)");
        r.engine = "vllm";
        r.program = "python -m " + module;
    } else if (prog == "vllm") {
        if (w.done() || w.peek() != "serve") return Error("only `vllm serve MODEL` is read among vllm's commands");
        ++w.at;
        r.engine = "vllm";
        r.program = "vllm serve";
    } else if (prog == "ollama") {
        if (w.done()) return Error("ollama needs a command (ollama run MODEL)");
        const std::string sub = w.list[w.at++];
        if (sub != "run" && sub != "serve") return Error("`ollama " + printable_excerpt(sub, 20) + "` is not read: paste `ollama run MODEL` (with its OLLAMA_* variables)");
        r.engine = "ollama";
        r.program = "ollama " + sub;
    } else if (prog.rfind("llama-", 0) == 0 || prog == "main" || prog == "server" || prog == "llama" ||
               prog.rfind("llama.cpp", 0) == 0) {
        r.engine = "llama.cpp";
        r.program = program;
    } else {
        return Error(shown(program) + " is not an engine llm-memory reads (llama-server, llama-cli, vllm serve, python -m vllm.entrypoints.openai.api_server, ollama run)");
    }
    r.settings.push_back({"engine", r.engine, r.program});
    // llama-server caps the logits rows its graph reserves (server_output_limits), and so do llama-cli, rebuilt on
    // the server in December 2025, and the single `llama` binary; the other tools (llama-bench, llama-completion,
    // the old llama-cli, llama-perplexity) keep libllama's default, a whole u-batch.
    if (r.engine == "llama.cpp" && prog != "llama-server" && prog != "server" && prog != "llama-cli" && prog != "llama")
        r.settings.push_back({"n-outputs-max", "all", program + " (libllama's default: logits for every u-batch token)"});
    for (const auto& [name, value] : env) {
        if (name == "CUDA_VISIBLE_DEVICES" || name == "HIP_VISIBLE_DEVICES") {
            std::size_t count = value.empty() ? 0 : 1;
            for (char c : value) count += c == ',' ? 1 : 0;
            if (count > 1) set_setting(r, "gpus", std::to_string(count), name + "=" + value);
            else r.ignored.push_back(name + "=" + value);
        } else if (r.engine == "ollama") {
            if (Status problem = read_ollama_env(r, name, value)) return *problem;
        } else {
            r.ignored.push_back(name + "=" + value);
        }
    }
    if (r.engine == "ollama") {
        if (r.program == "ollama run") {
            if (w.done()) return Error("ollama run needs a model name");
            r.model_ref = w.list[w.at++];
            r.model_source = "ollama run MODEL";
        }
        while (!w.done()) r.ignored.push_back(w.list[w.at++]);  // a prompt or --verbose
    } else if (Status problem = read_flags(r, w, r.engine == "vllm" ? vllm_flags() : llama_flags(), r.engine == "vllm")) {
        return *problem;
    }
    if (r.engine == "llama.cpp") join_draft_flags(r);
    if (r.engine == "vllm") {
        unsigned long long tp = 1, pp = 1, dp = 1;
        if (const CommandSetting* s = get_setting(r, "tp")) tp = std::stoull(s->value);
        if (const CommandSetting* s = get_setting(r, "pp")) pp = std::stoull(s->value);
        if (const CommandSetting* s = get_setting(r, "dp")) dp = std::stoull(s->value);
        const bool sane = tp <= 1'000'000 && pp <= 1'000'000 && dp <= 1'000'000;  // larger ones are refused by their settings
        if (sane && tp * pp * dp > 1) set_setting(r, "gpus", std::to_string(tp * pp * dp), dp > 1 ? "-dp x -tp x -pp" : "-tp x -pp");
    }
    if (!r.model_ref.empty()) {
        const ModelReference m = match_model_reference(r.model_ref, r.engine == "ollama");
        r.preset_key = m.preset_key;
        r.weight_dtype = m.weight_dtype;
    }
    return r;
}

namespace {

std::string shell_quote(std::string_view value) {
    bool plain = !value.empty();
    for (char c : value)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/' || c == ',' ||
              c == ':' || c == '=' || c == '+' || c == '@'))
            plain = false;
    if (plain) return std::string(value);
    std::string out = "'";
    for (char c : value) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

std::string llama_cache_name(const std::string& ours) {
    if (ours == "fp16") return "f16";
    if (ours == "fp32") return "f32";
    return ours;
}

}  // namespace

std::string engine_command_line(std::string_view engine, std::string_view model_ref, const std::vector<CommandSetting>& settings) {
    const std::string model = model_ref.empty() ? std::string("MODEL") : shell_quote(model_ref);
    auto value_of = [&](const char* key) -> const CommandSetting* {
        for (const CommandSetting& s : settings)
            if (s.key == key) return &s;
        return nullptr;
    };
    // The drafter's (or the MTP context's) cache type: -ctkd and -ctvd, one type for both.
    auto draft_cache_flags = [&]() {
        const CommandSetting* kv = value_of("draft-kv-dtype");
        return kv == nullptr ? std::string() : " -ctkd " + llama_cache_name(kv->value) + " -ctvd " + llama_cache_name(kv->value);
    };
    if (engine == "ollama") {
        std::string out;
        if (const CommandSetting* s = value_of("context")) out += "OLLAMA_CONTEXT_LENGTH=" + s->value + " ";
        if (const CommandSetting* s = value_of("flash-attn")) out += std::string("OLLAMA_FLASH_ATTENTION=") + (s->value == "on" ? "1" : "0") + " ";
        if (const CommandSetting* s = value_of("kv-dtype")) out += "OLLAMA_KV_CACHE_TYPE=" + llama_cache_name(s->value) + " ";
        if (const CommandSetting* s = value_of("parallel")) out += "OLLAMA_NUM_PARALLEL=" + s->value + " ";
        if (const CommandSetting* s = value_of("fit-target")) out += "LLAMA_ARG_FIT_TARGET=" + s->value + " ";
        return out + "ollama run " + model;
    }
    const bool vllm = engine == "vllm";
    std::string out = vllm ? "vllm serve " + model : "llama-server -m " + model;
    const std::vector<FlagSpec>& table = vllm ? vllm_flags() : llama_flags();
    for (const FlagSpec& spec : table) {
        if (spec.key[0] == '\0') continue;
        const CommandSetting* s = value_of(spec.key);
        if (s == nullptr) continue;
        const std::string flag = print_name(spec, !vllm);
        if (spec.kind == ValueKind::none) {
            if (s->value == spec.fixed) out += " " + flag;
            continue;
        }
        std::string value = s->value;
        if (spec.kind == ValueKind::mmproj) {
            if (value == "on") out += " --mmproj mmproj-f16.gguf";  // the file's name is not kept
            continue;
        }
        if (spec.kind == ValueKind::n_cpu_moe && value == "all") continue;  // written as --cpu-moe
        if (spec.kind == ValueKind::draft_model && !vllm) {  // -md drafts only under --spec-type draft-simple (PR #23988)
            // The drafter's format rides in its file's name, as -md is read; its cache type is -ctkd and -ctvd.
            const CommandSetting* format = value_of("draft-dtype");
            out += " " + flag + " " + shell_quote(value + (format != nullptr ? "-" + format->value + ".gguf" : "")) + " --spec-type draft-simple";
            out += draft_cache_flags();
            continue;
        }
        if (spec.kind == ValueKind::llama_cache) value = llama_cache_name(value);
        if (spec.kind == ValueKind::vllm_dtype) {
            if (value == "fp16") value = "float16";
            else if (value == "bf16") value = "bfloat16";
            else if (value == "fp32") value = "float32";
            else continue;  // int4, gptq, awq, fp8, nf4: written by --quantization
        }
        if (spec.kind == ValueKind::vllm_quant) {
            if (value == "fp8") value = "fp8";
            else if (value == "nf4") value = "bitsandbytes";
            else if (value == "int4" || value == "awq") value = "awq";
            else if (value == "gptq") value = "gptq";
            else continue;
        }
        if (spec.kind == ValueKind::vllm_kv && value != "fp8") continue;
        out += " " + flag + " " + shell_quote(value);
    }
    // MTP drafting's cache type (-ctkd/-ctvd, as a drafter's; printed with -md when there is one).
    if (!vllm && value_of("draft-model") == nullptr && value_of("mtp") != nullptr) out += draft_cache_flags();
    // vLLM names its drafter inside --speculative-config, with its tokens a step (draft-max; required there for a draft
    // model: 5 when none was read, as the estimate prints; an MTP config without it takes the model's MTP layers).
    const CommandSetting* tokens = value_of("draft-max");
    if (const CommandSetting* d = value_of("draft-model"); vllm && d != nullptr && d->value.find_first_of("'\"\\") == std::string::npos)
        out += " --speculative-config '{\"method\": \"draft_model\", \"model\": \"" + d->value + "\", \"num_speculative_tokens\": " +
               (tokens != nullptr ? tokens->value : std::string("5")) + "}'";
    if (vllm && value_of("draft-model") == nullptr && value_of("mtp") != nullptr)
        out += std::string(" --speculative-config '{\"method\": \"mtp\"") + (tokens != nullptr ? ", \"num_speculative_tokens\": " + tokens->value : std::string()) + "}'";
    // vLLM spreads over -tp x -pp GPUs; llama.cpp over the -ts list (its length); a bare --gpus N with
    // llama.cpp is an even split, which llama.cpp does by itself on the visible devices.
    if (!vllm && value_of("tensor-split") == nullptr) {
        if (const CommandSetting* g = value_of("gpus"); g != nullptr && g->value != "1") {
            std::string devices;
            const unsigned long long n = std::stoull(g->value);
            for (unsigned long long i = 0; i < n && i < 64; ++i) devices += (i ? "," : "") + std::to_string(i);
            out = "CUDA_VISIBLE_DEVICES=" + devices + " " + out;
        }
    }
    return out;
}

std::string command_state(const CommandReading& reading) {
    std::string out;
    for (const CommandSetting& s : reading.settings) out += (out.empty() ? "" : "&") + s.key + "=" + s.value;
    return out;
}

std::string scenario_engine_command(const Scenario& scenario) {
    const std::string state = to_state(scenario);
    std::vector<CommandSetting> settings;
    std::string engine;
    std::size_t start = 0;
    while (start < state.size()) {
        std::size_t end = state.find('&', start);
        if (end == std::string::npos) end = state.size();
        const std::string pair = state.substr(start, end - start);
        const std::size_t eq = pair.find('=');
        if (eq != std::string::npos) {
            const std::string key = url_decode(pair.substr(0, eq));
            const std::string value = url_decode(pair.substr(eq + 1));
            if (key == "engine") engine = value;
            else settings.push_back({key, value, ""});
        }
        start = end + 1;
    }
    if (engine.empty() || engine == "none" || engine == "transformers") return {};
    std::string model = "MODEL";
    if (scenario.model != nullptr) {
        const ModelSource& m = *scenario.model;
        const ModelPreset* preset = m.preset_key.empty() ? nullptr : find_preset(m.preset_key);
        if (engine == "vllm") {
            model = preset != nullptr ? preset->hf_id : m.display_name;
        } else if (engine == "ollama") {
            model = preset != nullptr ? preset->key : m.display_name;
        } else if (preset != nullptr) {
            std::string id = preset->hf_id;
            id = id.substr(id.find('/') + 1);
            std::string dtype;
            for (const CommandSetting& s : settings)
                if (s.key == "dtype") dtype = s.value;
            for (char& c : dtype) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
            model = id + "-" + (dtype.empty() ? std::string("F16") : dtype) + ".gguf";
        } else {
            model = m.display_name;
        }
    }
    return engine_command_line(engine, model, settings);
}

}  // namespace llm_memory
