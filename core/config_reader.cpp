// config.json -> Architecture: the reading half of the model's description (counting is in
// architecture.cpp). JSON is read with core's reader (json.hpp: no exceptions, type-checked access), so the
// same code runs in the -fno-exceptions web build. Nesting depth and text size are checked before parsing.
//
// Sections: JSON checks (nesting depth, syntax) · FieldReader (typed, bounded access) · the families table
//   · the read steps (sizes, heads, MLP, layout, layer types, sliding, experts, MLA, hybrid layers,
//   unmodelled fields) · parse_config · model_from_config.
#include "architecture.hpp"

#include <cmath>

#include "json.hpp"
#include "quantity.hpp"

namespace llm_memory {
namespace {

using json = JsonValue;

constexpr std::size_t kMaxConfigBytes = 4 * 1024 * 1024;
constexpr int kMaxDepth = 64;

// Bounds for sizes: far beyond any published model, small enough that no product overflows u128.
constexpr std::uint64_t kMaxLayers = 10'000;
constexpr std::uint64_t kMaxHidden = 1'000'000;
constexpr std::uint64_t kMaxHeads = 100'000;
constexpr std::uint64_t kMaxIntermediate = 10'000'000;
constexpr std::uint64_t kMaxVocab = 10'000'000;
constexpr std::uint64_t kMaxPositions = 100'000'000;
constexpr std::uint64_t kMaxExperts = 100'000;

}  // namespace

// Depth of [ and { nesting outside strings. The JSON reader recurses per level, so 100,000 nested
// brackets are refused before parsing, with a message that says why.
int max_nesting_depth(std::string_view text) {
    int depth = 0;
    int max_depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '[' || c == '{') {
            if (++depth > max_depth) max_depth = depth;
            if (max_depth > kMaxDepth) return max_depth;
        } else if (c == ']' || c == '}') --depth;
    }
    return max_depth;
}

namespace {

const char* type_word(const json& value) {
    switch (value.kind()) {
        case json::Kind::string: return "a string";
        case json::Kind::boolean: return "true/false";
        case json::Kind::array: return "a list";
        case json::Kind::object: return "an object";
        case json::Kind::null: return "null";
        default: return "a number";
    }
}

// Reads typed fields from one JSON object. The first problem is kept in `error` (naming the key);
// later reads are skipped once an error is set.
class FieldReader {
public:
    // `defaults` (may be null) answers for keys the object lacks: the family's config-class defaults.
    explicit FieldReader(const json& object, const json* defaults = nullptr) : object_(object), defaults_(defaults) {}

    std::string error;
    std::vector<std::string> warnings;

    // The value of the first present, non-null key among `keys`, or nullptr.
    const json* find(std::initializer_list<const char*> keys, const char** found_key = nullptr) const {
        for (const char* key : keys) {
            const json* value = object_.find(key);
            if (value != nullptr && !value->is_null()) {
                if (found_key != nullptr) *found_key = key;
                return value;
            }
        }
        if (defaults_ != nullptr) {
            for (const char* key : keys) {
                const json* value = defaults_->find(key);
                if (value != nullptr) {
                    if (found_key != nullptr) *found_key = key;
                    return value;
                }
            }
        }
        return nullptr;
    }

    bool has(std::initializer_list<const char*> keys) const { return find(keys) != nullptr; }

    // True when the config itself writes `key` as null (Python None), which some config classes read
    // differently from an absent key (LFM2's block_ffn_dim_multiplier).
    bool written_as_null(const char* key) const {
        const json* value = object_.find(key);
        return value != nullptr && value->is_null();
    }

    // A whole number in [minimum, maximum]; `fallback` when absent (or null).
    std::uint64_t count(std::initializer_list<const char*> keys, std::uint64_t fallback, std::uint64_t minimum,
                        std::uint64_t maximum) {
        const char* key = *keys.begin();
        const json* value = find(keys, &key);
        if (value == nullptr || !error.empty()) return fallback;
        std::uint64_t result = 0;
        if (value->is_unsigned()) {
            result = value->unsigned_value();
        } else if (value->is_integer() && value->signed_value() >= 0) {
            result = static_cast<std::uint64_t>(value->signed_value());  // "-0"
        } else if (value->is_integer()) {
            fail(key, "must not be negative (got " + std::to_string(value->signed_value()) + ")");
            return fallback;
        } else if (value->is_float()) {
            const double d = value->number();
            if (std::isfinite(d) && d > 1e18) {  // 1e30 or 2^64 is whole, just far too large
                fail(key, "must be at most " + format_count_exact(maximum) + " (got more than 10^18)");
                return fallback;
            }
            if (!std::isfinite(d) || d < 0 || d != std::floor(d)) {
                fail(key, d < 0 ? "must not be negative" : "must be a whole number");
                return fallback;
            }
            result = static_cast<std::uint64_t>(d);
        } else {
            fail(key, std::string("must be a number (got ") + type_word(*value) + ")");
            return fallback;
        }
        if (result < minimum) {
            fail(key, "must be at least " + std::to_string(minimum) + " (got " + std::to_string(result) + ")");
            return fallback;
        }
        if (result > maximum) {
            fail(key, "must be at most " + format_count_exact(maximum) + " (got " + format_count_exact(result) + ")");
            return fallback;
        }
        return result;
    }

    // A required whole number; error "key: is missing" when absent.
    std::uint64_t required(std::initializer_list<const char*> keys, std::uint64_t minimum, std::uint64_t maximum) {
        if (error.empty() && find(keys) == nullptr) {
            fail(*keys.begin(), "is missing");
            return 0;
        }
        return count(keys, 0, minimum, maximum);
    }

    bool flag(std::initializer_list<const char*> keys, bool fallback) {
        const char* key = *keys.begin();
        const json* value = find(keys, &key);
        if (value == nullptr || !error.empty()) return fallback;
        if (!value->is_boolean()) {
            fail(key, std::string("must be true or false (got ") + type_word(*value) + ")");
            return fallback;
        }
        return value->boolean();
    }

    // A number in [low, high] (`range` says it: "from 0 to 1"); `fallback` when absent (or null).
    double number(std::initializer_list<const char*> keys, double fallback, double low, double high, const char* range) {
        const char* key = *keys.begin();
        const json* value = find(keys, &key);
        if (value == nullptr || !error.empty()) return fallback;
        if (!value->is_number()) {
            fail(key, std::string("must be a number ") + range + " (got " + type_word(*value) + ")");
            return fallback;
        }
        const double p = value->number();
        if (!std::isfinite(p) || p < low || p > high) {
            fail(key, std::string("must be a number ") + range);
            return fallback;
        }
        return p;
    }
    double probability(std::initializer_list<const char*> keys, double fallback) { return number(keys, fallback, 0, 1, "from 0 to 1"); }

    std::string text(const char* key) {
        const json* value = find({key});
        if (value == nullptr || !error.empty()) return {};
        if (!value->is_string()) {
            fail(key, std::string("must be a string (got ") + type_word(*value) + ")");
            return {};
        }
        return value->text();
    }

    // A list of layer indices below layer_count (Qwen2-MoE mlp_only_layers).
    std::vector<std::uint8_t> layer_set(const char* key, std::uint64_t layer_count) {
        std::vector<std::uint8_t> layers;
        const json* value = find({key});
        if (value == nullptr || !error.empty()) return layers;
        if (!value->is_array()) {
            fail(key, std::string("must be a list of layer numbers (got ") + type_word(*value) + ")");
            return layers;
        }
        if (value->items().empty()) return layers;
        layers.assign(static_cast<std::size_t>(layer_count), false);
        for (const json& item : value->items()) {
            if (!item.is_unsigned() || item.unsigned_value() >= layer_count) {
                fail(key, "must list layer numbers from 0 to " + std::to_string(layer_count - 1));
                return {};
            }
            layers[static_cast<std::size_t>(item.unsigned_value())] = true;
        }
        return layers;
    }

    void fail(const std::string& key, const std::string& problem) {
        if (!error.empty()) return;
        error = key + ": " + problem;
        failure_ = Error{key, problem};
    }
    // The first problem with its key ("config.json" for the file as a whole); only meaningful when error is set.
    const Error& failure() const { return failure_; }

private:
    const json& object_;
    const json* defaults_;
    Error failure_{std::string()};
};

// One row per model_type: its layout and the per-family defaults the Hugging Face config class applies
// when a key is absent (Gemma 3's multimodal configs leave most text_config keys at their defaults).
struct FamilyRow {
    const char* model_type;
    ModelFamily family;
    bool ties_by_default;     // tie_word_embeddings when the config does not say
    const char* defaults;     // JSON object of config-class defaults, or nullptr
};

constexpr const char* kGemma3Defaults =
    R"({"vocab_size":262208,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,"num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"max_position_embeddings":131072,"sliding_window":4096,"sliding_window_pattern":6})";

// Lfm2Config's defaults for the FFN-width rule and the short convolution.
constexpr const char* kLfm2Defaults =
    R"({"block_auto_adjust_ff_dim":true,"block_multiple_of":256,"block_ffn_dim_multiplier":1.0,"conv_bias":false,"conv_L_cache":3})";

constexpr FamilyRow kFamilies[] = {
    {"gpt2", ModelFamily::gpt2, true, nullptr},
    {"opt", ModelFamily::opt, true, nullptr},
    {"llama", ModelFamily::llama, false, nullptr},
    {"mistral", ModelFamily::mistral, false, nullptr},
    {"mixtral", ModelFamily::mixtral, false, nullptr},
    {"qwen2", ModelFamily::qwen2, false, nullptr},
    {"qwen2_moe", ModelFamily::qwen2_moe, false, nullptr},
    {"gemma", ModelFamily::gemma, true, nullptr},
    {"gemma2", ModelFamily::gemma2, true, nullptr},
    {"phi3", ModelFamily::phi3, false, nullptr},
    {"falcon", ModelFamily::falcon, true, nullptr},
    {"RefinedWeb", ModelFamily::falcon, true, nullptr},
    {"RefinedWebModel", ModelFamily::falcon, true, nullptr},
    {"deepseek", ModelFamily::deepseek, false, nullptr},
    {"deepseek_v2", ModelFamily::deepseek_v2, false, nullptr},
    {"deepseek_v3", ModelFamily::deepseek_v2, false, nullptr},
    {"kimi_k2", ModelFamily::deepseek_v2, false, nullptr},
    {"qwen3", ModelFamily::qwen3, false, nullptr},
    {"qwen3_moe", ModelFamily::qwen3_moe, false, nullptr},
    {"llama4", ModelFamily::llama4, false, nullptr},
    {"llama4_text", ModelFamily::llama4, false, nullptr},
    {"gemma3", ModelFamily::gemma3, true, kGemma3Defaults},
    {"gemma3_text", ModelFamily::gemma3, true, kGemma3Defaults},
    {"gemma4", ModelFamily::gemma4, true, nullptr},
    {"gemma4_text", ModelFamily::gemma4, true, nullptr},
    {"gpt_oss", ModelFamily::gpt_oss, false, nullptr},
    {"glm4_moe", ModelFamily::glm4_moe, false, nullptr},
    {"minimax_m2", ModelFamily::minimax_m2, false, nullptr},
    {"olmo2", ModelFamily::olmo2, false, nullptr},
    {"cohere", ModelFamily::cohere, true, nullptr},
    {"granite", ModelFamily::granite, false, nullptr},
    {"qwen3_next", ModelFamily::qwen3_next, false, nullptr},
    // Qwen3.5 (Qwen3_5TextConfig, Qwen3_5MoeTextConfig): Qwen3-Next's layers, a dense MLP or its MoE.
    {"qwen3_5", ModelFamily::qwen3_next, false, nullptr},
    {"qwen3_5_text", ModelFamily::qwen3_next, false, nullptr},
    {"qwen3_5_moe", ModelFamily::qwen3_next, false, nullptr},
    {"qwen3_5_moe_text", ModelFamily::qwen3_next, false, nullptr},
    {"granitemoehybrid", ModelFamily::granite_hybrid, false, nullptr},
    {"jamba", ModelFamily::jamba, false, nullptr},
    {"lfm2", ModelFamily::lfm2, true, kLfm2Defaults},
    {"nemotron_h", ModelFamily::nemotron_h, false, nullptr},
    {"falcon_h1", ModelFamily::falcon_h1, false, nullptr},
    {"qwen2_5_vl", ModelFamily::qwen2, false, nullptr},
    {"qwen2_5_vl_text", ModelFamily::qwen2, false, nullptr},
    // Qwen3-VL (Qwen3VLTextConfig, Qwen3VLMoeTextConfig): Qwen3's decoder layers, dense or with Qwen3-MoE's experts.
    {"qwen3_vl", ModelFamily::qwen3, false, nullptr},
    {"qwen3_vl_text", ModelFamily::qwen3, false, nullptr},
    {"qwen3_vl_moe", ModelFamily::qwen3_moe, false, nullptr},
    {"qwen3_vl_moe_text", ModelFamily::qwen3_moe, false, nullptr},
};

const FamilyRow* family_row(const std::string& model_type) {
    for (const FamilyRow& f : kFamilies)
        if (model_type == f.model_type) return &f;
    return nullptr;
}

// Dropout probabilities (training stores their masks). Defaults are the config classes': GPT2Config 0.1
// (resid_pdrop, attn_pdrop), OPTConfig dropout 0.1 and attention_dropout 0.0, the others 0.0.
void read_dropout_fields(FieldReader& r, Architecture& a);

// Each step reads one group of fields into `a`; the first problem stops the reading (r.error names the key).
using ReadStep = void (*)(FieldReader& r, Architecture& a);

// hidden_size, num_hidden_layers, num_attention_heads, vocab_size (all required), context length.
void read_sizes(FieldReader& r, Architecture& a) {
    a.hidden_size = r.required({"hidden_size", "n_embd", "n_embed", "d_model"}, 1, kMaxHidden);
    a.num_hidden_layers = r.required({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, 1, kMaxLayers);
    a.num_attention_heads = r.required({"num_attention_heads", "n_head", "n_heads", "num_heads"}, 1, kMaxHeads);
    a.vocab_size = r.required({"vocab_size"}, 1, kMaxVocab);
    a.max_position_embeddings =
        r.count({"max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"}, 0, 0, kMaxPositions);
}

// head_dim (explicit, else hidden / heads; MLA sets its own in read_mla) and KV heads.
void read_heads(FieldReader& r, Architecture& a) {
    const ModelFamily f = a.family;
    const bool mla = f == ModelFamily::deepseek_v2 && r.count({"kv_lora_rank"}, 0, 0, kMaxHidden) > 0;
    if (!mla) {
        a.head_dim = r.count({"head_dim"}, 0, 1, kMaxHidden);
        if (a.head_dim == 0 && f == ModelFamily::gemma) a.head_dim = 256;  // GemmaConfig default
        if (a.head_dim == 0) {
            if (a.hidden_size % a.num_attention_heads != 0) {
                r.fail("num_attention_heads", std::to_string(a.num_attention_heads) + " does not divide hidden_size " +
                                                  std::to_string(a.hidden_size) + " and head_dim is absent");
                return;
            }
            a.head_dim = a.hidden_size / a.num_attention_heads;
        }
    }
    if (f == ModelFamily::falcon) {
        // Key/value heads: Falcon's multi_query / n_head_kv.
        const bool new_arch = r.flag({"new_decoder_architecture"}, false);
        const bool multi_query = r.flag({"multi_query"}, true);
        const std::uint64_t kv = r.count({"num_kv_heads", "n_head_kv"}, 0, 1, kMaxHeads);
        if (new_arch) a.num_key_value_heads = kv != 0 ? kv : a.num_attention_heads;
        else a.num_key_value_heads = multi_query ? 1 : a.num_attention_heads;
        a.parallel_attn = r.flag({"parallel_attn"}, true);
        const std::uint64_t ln_count = new_arch ? r.count({"num_ln_in_parallel_attn"}, 2, 1, 2) : 1;
        a.norms_per_layer = (new_arch && ln_count == 2 ? 2 : 1) + (a.parallel_attn ? 0 : 1);
        const bool bias = r.flag({"bias"}, false);
        a.qkv_bias = a.out_proj_bias = a.mlp_bias = bias;
    } else {
        a.num_key_value_heads =
            r.count({"num_key_value_heads", "num_kv_heads", "n_head_kv"}, a.num_attention_heads, 1, kMaxHeads);
    }
    if (!r.error.empty()) return;
    if (a.num_key_value_heads > a.num_attention_heads || a.num_attention_heads % a.num_key_value_heads != 0)
        r.fail("num_key_value_heads", std::to_string(a.num_key_value_heads) + " must divide num_attention_heads " +
                                          std::to_string(a.num_attention_heads));
}

// LFM2's FFN width (Lfm2MLP): block_ff_dim, and with block_auto_adjust_ff_dim int(2 x ff / 3), then with
// a block_ffn_dim_multiplier (not null) int(multiplier x ff) rounded up to block_multiple_of. LFM2-700M:
// 10240 -> 6826 -> 6912. The config has no intermediate_size to fall back on: a missing block_ff_dim is an error.
void read_lfm2_ffn_width(FieldReader& r, Architecture& a) {
    std::uint64_t width = r.required({"block_ff_dim", "intermediate_size"}, 1, kMaxIntermediate);
    if (!r.flag({"block_auto_adjust_ff_dim"}, true) || !r.error.empty()) {
        a.intermediate_size = width;
        return;
    }
    width = 2 * width / 3;
    if (!r.written_as_null("block_ffn_dim_multiplier")) {
        const json* multiplier = r.find({"block_ffn_dim_multiplier"});
        if (multiplier == nullptr || !multiplier->is_number() || !std::isfinite(multiplier->number()) ||
            multiplier->number() <= 0 || multiplier->number() > 1000) {
            r.fail("block_ffn_dim_multiplier", "must be a positive number or null");
            return;
        }
        width = static_cast<std::uint64_t>(multiplier->number() * static_cast<double>(width));
        const std::uint64_t multiple = r.count({"block_multiple_of"}, 256, 1, kMaxIntermediate);
        width = multiple * ((width + multiple - 1) / multiple);
    }
    if (width == 0 || width > kMaxIntermediate) {
        r.fail("block_ff_dim", "gives an FFN width of " + std::to_string(width) + " after LFM2's adjustment");
        return;
    }
    a.intermediate_size = width;
}

// Dense MLP width. GPT-2's n_inner and Falcon's ffn_hidden_size default to 4 x hidden; Llama 4's dense
// layers use intermediate_size_mlp (its intermediate_size is one expert's width).
void read_mlp(FieldReader& r, Architecture& a) {
    const ModelFamily f = a.family;
    if (f == ModelFamily::gpt2) a.intermediate_size = r.count({"n_inner", "intermediate_size"}, 4 * a.hidden_size, 1, kMaxIntermediate);
    else if (f == ModelFamily::opt) a.intermediate_size = r.required({"ffn_dim", "intermediate_size"}, 1, kMaxIntermediate);
    else if (f == ModelFamily::falcon) a.intermediate_size = r.count({"ffn_hidden_size", "intermediate_size"}, 4 * a.hidden_size, 1, kMaxIntermediate);
    else if (f == ModelFamily::llama4) a.intermediate_size = r.required({"intermediate_size_mlp"}, 1, kMaxIntermediate);
    else if (f == ModelFamily::lfm2) read_lfm2_ffn_width(r, a);
    // Qwen3.5-MoE's config has no intermediate_size (every layer is MoE); read_qwen3_next checks that no layer needs it.
    else if (f == ModelFamily::qwen3_next && r.has({"num_experts"}) && !r.has({"intermediate_size"})) a.intermediate_size = 0;
    else if (f == ModelFamily::generic && !r.has({"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"})) {
        // An unknown family has no config class to supply a default: a guessed width would give a figure
        // that looks exact and is not.
        r.fail("intermediate_size", std::string("is missing, and ") +
                                        (a.model_type.empty() ? std::string("so is model_type")
                                                              : "model_type \"" + printable_excerpt(a.model_type, 40) + "\" is not known") +
                                        ", so no family default applies (a width is never assumed)");
    } else {
        a.intermediate_size = r.required({"intermediate_size", "ffn_dim", "n_inner", "ffn_hidden_size"}, 1, kMaxIntermediate);
    }
}

// Norms, biases, positions, tied head, q/k norms and attention sinks.
void read_layout(FieldReader& r, Architecture& a) {
    const ModelFamily f = a.family;
    const FamilyRow* row = family_row(a.model_type);
    a.tie_word_embeddings = r.flag({"tie_word_embeddings"}, row != nullptr && row->ties_by_default);
    const std::uint64_t per_head_norms = 2 * a.head_dim;  // one head_dim weight for queries, one for keys
    switch (f) {
        case ModelFamily::gpt2:
            a.norm_kind = NormKind::layer_norm;
            a.gated_mlp = false;
            a.qkv_bias = a.out_proj_bias = a.mlp_bias = true;
            a.position_embedding_rows = r.count({"n_positions", "max_position_embeddings"}, 1024, 1, kMaxPositions);
            break;
        case ModelFamily::opt: {
            a.norm_kind = NormKind::layer_norm;
            a.gated_mlp = false;
            const bool bias = r.flag({"enable_bias"}, true);
            a.qkv_bias = a.out_proj_bias = a.mlp_bias = bias;
            // OPTLearnedPositionalEmbedding keeps 2 extra rows (offset 2).
            a.position_embedding_rows = r.count({"max_position_embeddings"}, 2048, 1, kMaxPositions) + 2;
            a.word_embed_proj_dim = r.count({"word_embed_proj_dim"}, a.hidden_size, 1, kMaxHidden);
            a.has_final_norm = r.flag({"do_layer_norm_before"}, true) && !r.flag({"_remove_final_layer_norm"}, false);
            break;
        }
        case ModelFamily::falcon:
            a.norm_kind = NormKind::layer_norm;
            a.gated_mlp = false;
            break;
        case ModelFamily::qwen2:
        case ModelFamily::qwen2_moe:
            a.qkv_bias = true;  // Qwen2Attention: q/k/v with bias, o_proj without
            break;
        case ModelFamily::gemma2:
            a.norms_per_layer = 4;  // input, post_attention, pre_feedforward, post_feedforward
            break;
        case ModelFamily::gemma3:
            a.norms_per_layer = 4;
            a.qk_norm_count = per_head_norms;  // Gemma3Attention q_norm, k_norm (RMSNorm over head_dim)
            break;
        case ModelFamily::gemma4: {
            // Gemma4TextAttention: q_proj, k_proj, v_proj (none on a global layer with attention_k_eq_v), o_proj
            // without bias; q_norm and k_norm over the layer's head width (counted in count_decoder), v_norm
            // without a weight. Global layers use global_head_dim (config default 512) and, with attention_k_eq_v,
            // num_global_key_value_heads. The E2B and E4B's per-layer embeddings (hidden_size_per_layer_input:
            // Gemma4TextConfig's default is 256, the 26B and 31B write 0), their last num_kv_shared_layers layers
            // that read an earlier layer's cache, and use_double_wide_mlp (those layers' MLP twice as wide).
            a.norms_per_layer = 4;
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.per_layer_input_size = r.count({"hidden_size_per_layer_input"}, 256, 0, kMaxHidden);
            if (a.per_layer_input_size > 0) a.per_layer_input_vocab = r.count({"vocab_size_per_layer_input"}, 262144, 1, kMaxVocab);
            a.kv_shared_layers = r.count({"num_kv_shared_layers"}, 0, 0, kMaxLayers);
            if (r.error.empty() && a.kv_shared_layers >= a.num_hidden_layers) {
                r.fail("num_kv_shared_layers", std::to_string(a.kv_shared_layers) + " leaves no layer of the " +
                                                   std::to_string(a.num_hidden_layers) + " to keep a cache for them");
                break;
            }
            a.double_wide_shared_mlp = a.kv_shared_layers > 0 && r.flag({"use_double_wide_mlp"}, false);
            a.global_head_dim = r.count({"global_head_dim"}, 512, 1, kMaxHidden);
            a.attention_k_eq_v = r.flag({"attention_k_eq_v"}, false);
            a.global_kv_heads = a.attention_k_eq_v ? r.required({"num_global_key_value_heads"}, 1, kMaxHeads) : a.num_key_value_heads;
            break;
        }
        case ModelFamily::qwen3:
        case ModelFamily::qwen3_moe:
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.qk_norm_count = per_head_norms;
            break;
        case ModelFamily::olmo2:
            // Olmo2Attention: q_norm over every query head, k_norm over every KV head; the decoder layer
            // has post_attention_layernorm and post_feedforward_layernorm only (2 norms, the default).
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.qk_norm_count = (a.num_attention_heads + a.num_key_value_heads) * a.head_dim;
            break;
        case ModelFamily::cohere:
            // CohereLayerNorm: weight, no bias; input_layernorm only (attention and MLP in parallel).
            a.norm_kind = NormKind::layer_norm_no_bias;
            a.norms_per_layer = 1;
            a.parallel_attn = true;
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            if (r.flag({"use_qk_norm"}, false))  // Command R+: per-head LayerNorm weights [heads, head_dim]
                a.qk_norm_count = (a.num_attention_heads + a.num_key_value_heads) * a.head_dim;
            break;
        case ModelFamily::gpt_oss:
            // GptOssAttention: q/k/v/o with bias (attention_bias true) and a sinks vector per layer.
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, true);
            a.attention_sinks = true;
            break;
        case ModelFamily::qwen3_next:
            // Qwen3NextAttention: q_proj yields queries and a per-head output gate; q/k RMSNorms of head_dim.
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.qk_norm_count = per_head_norms;
            a.attention_output_gate = true;
            break;
        case ModelFamily::lfm2:
            // Lfm2Attention: q/k/v/out_proj without bias, q_layernorm and k_layernorm of head_dim.
            a.qk_norm_count = per_head_norms;
            a.tie_word_embeddings = r.flag({"tie_word_embeddings", "tie_embedding"}, true);
            break;
        case ModelFamily::nemotron_h:
            // NemotronHBlock: one RMSNorm before its one mixer; NemotronHMLP is up/down only (relu²).
            a.norms_per_layer = 1;
            a.gated_mlp = false;
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.mlp_bias = r.flag({"mlp_bias"}, false);
            break;
        case ModelFamily::falcon_h1:
            // FalconH1Attention: q/k/v/o with bias from attention_bias; FalconH1MLP with mlp_bias (config-class
            // defaults false); input_layernorm and pre_ff_layernorm (2 norms, the default).
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.mlp_bias = r.flag({"mlp_bias"}, false);
            break;
        case ModelFamily::minimax_m2:
            // MiniMaxM2Attention: q/k/v/o without bias; with use_qk_norm, q_norm and k_norm over all the layer's
            // query and key heads (qk_norm_type "per_layer", the only kind transformers' modeling_minimax_m2.py builds).
            if (r.flag({"use_qk_norm"}, true)) {
                if (const std::string kind = r.text("qk_norm_type"); r.error.empty() && !kind.empty() && kind != "per_layer") {
                    r.fail("qk_norm_type", "must be per_layer (the only kind transformers builds)");
                    break;
                }
                a.qk_norm_count = (a.num_attention_heads + a.num_key_value_heads) * a.head_dim;
            }
            break;
        case ModelFamily::glm4_moe:
            // Glm4MoeAttention: q/k/v with bias (attention_bias), o_proj without; optional q/k norms.
            a.qkv_bias = r.flag({"attention_bias"}, false);
            if (r.flag({"use_qk_norm"}, false)) a.qk_norm_count = per_head_norms;
            break;
        default:
            // Llama, Mistral, Mixtral, Phi-3, Gemma, DeepSeek, Llama 4 (its q/k L2 norm has no weight),
            // Granite, and the Llama-style estimate for unknown types.
            a.qkv_bias = a.out_proj_bias = r.flag({"attention_bias"}, false);
            a.mlp_bias = r.flag({"mlp_bias"}, false);
            break;
    }
}

// "layer_types": ["sliding_attention", "full_attention", ...]: a tested generic rule for any family.
// Returns false (nothing read) when the key is absent; other layer kinds are an error naming the value.
bool read_layer_types(FieldReader& r, Architecture& a) {
    const json* value = r.find({"layer_types"});
    if (value == nullptr) return false;
    if (!value->is_array() || value->items().size() != a.num_hidden_layers) {
        r.fail("layer_types", "must list one type per layer (" + std::to_string(a.num_hidden_layers) + ")");
        return true;
    }
    a.sliding_layers.assign(static_cast<std::size_t>(a.num_hidden_layers), false);
    std::size_t i = 0;
    for (const json& item : value->items()) {
        const std::string kind = item.is_string() ? item.text() : std::string();
        if (kind == "sliding_attention" || kind == "chunked_attention") a.sliding_layers[i] = true;
        else if (kind != "full_attention") {
            r.fail("layer_types", "layer " + std::to_string(i) + " is \"" + printable_excerpt(kind, 40) +
                                      "\" (only full_attention and sliding_attention layers are modelled)");
            return true;
        }
        ++i;
    }
    return true;
}

// Sliding-window (and Llama 4 chunked) attention: the window and which layers use it.
void read_sliding(FieldReader& r, Architecture& a) {
    const ModelFamily f = a.family;
    const std::size_t layers = static_cast<std::size_t>(a.num_hidden_layers);
    if (f == ModelFamily::llama4) {
        // Llama4TextConfig: layers with RoPE attend within chunks of attention_chunk_size; every
        // no_rope_layer_interval-th layer (NoPE) is global. no_rope_layers lists 1 for RoPE layers.
        a.sliding_window = r.count({"attention_chunk_size"}, 8192, 1, kMaxPositions);
        a.chunked_attention = true;
        const std::uint64_t interval = r.count({"no_rope_layer_interval"}, 4, 1, kMaxLayers);
        a.sliding_layers.assign(layers, false);
        const json* listed = r.find({"no_rope_layers"});
        if (listed != nullptr && listed->is_array() && !listed->items().empty()) {
            if (listed->items().size() != layers) {
                r.fail("no_rope_layers", "must list one entry per layer (" + std::to_string(layers) + ")");
                return;
            }
            for (std::size_t i = 0; i < layers; ++i)
                a.sliding_layers[i] = listed->items()[i].is_number() && listed->items()[i].number() != 0;
        } else {
            for (std::size_t i = 0; i < layers; ++i) a.sliding_layers[i] = (i + 1) % interval != 0;
        }
        return;
    }
    if (f == ModelFamily::gemma4) {
        // Gemma4TextConfig: layer_types names every layer; without it five sliding layers to one global
        // (sliding_window_pattern 6), and the last layer is always global (a sliding one is forced to full_attention).
        a.sliding_window = r.count({"sliding_window"}, 512, 1, kMaxPositions);
        if (!read_layer_types(r, a)) {
            a.sliding_layers.assign(layers, false);
            for (std::size_t i = 0; i < layers; ++i) a.sliding_layers[i] = (i + 1) % 6 != 0;
        }
        if (!a.sliding_layers.empty() && a.sliding_layers.back()) {
            a.sliding_layers.back() = false;
            r.warnings.push_back("layer_types: the last layer is sliding_attention; Gemma 4 forces it to full_attention, as counted here");
        }
        return;
    }
    if (f == ModelFamily::gemma2) {
        a.sliding_window = r.count({"sliding_window"}, 4096, 1, kMaxPositions);
        a.sliding_layers.assign(layers, false);
        for (std::size_t i = 0; i < layers; i += 2) a.sliding_layers[i] = true;  // Gemma2: not layer_idx % 2
        return;
    }
    if (f == ModelFamily::gemma3 || f == ModelFamily::gpt_oss) {
        a.sliding_window = r.count({"sliding_window"}, f == ModelFamily::gpt_oss ? 128 : 4096, 1, kMaxPositions);
        if (read_layer_types(r, a)) return;
        // Gemma3: layer i is global when (i + 1) % sliding_window_pattern == 0 (5 sliding to 1 global);
        // gpt-oss: even layers slide, odd layers are global.
        const std::uint64_t pattern = f == ModelFamily::gemma3 ? r.count({"sliding_window_pattern"}, 6, 1, kMaxLayers) : 2;
        a.sliding_layers.assign(layers, false);
        for (std::size_t i = 0; i < layers; ++i) a.sliding_layers[i] = (i + 1) % pattern != 0;
        return;
    }
    if (is_one_of(f, {ModelFamily::qwen2, ModelFamily::qwen2_moe, ModelFamily::qwen3, ModelFamily::qwen3_moe})) {
        if (r.flag({"use_sliding_window"}, false)) {
            a.sliding_window = r.count({"sliding_window"}, 0, 1, kMaxPositions);
            const std::uint64_t from = r.count({"max_window_layers"}, 0, 0, kMaxLayers);
            a.sliding_layers.assign(layers, false);
            for (std::size_t i = static_cast<std::size_t>(from); i < layers; ++i) a.sliding_layers[i] = true;
        }
        return;
    }
    if (is_one_of(f, {ModelFamily::mistral, ModelFamily::mixtral, ModelFamily::phi3, ModelFamily::generic})) {
        a.sliding_window = r.count({"sliding_window"}, 0, 1, kMaxPositions);
        if (a.sliding_window > 0 && !read_layer_types(r, a)) a.sliding_layers.assign(layers, true);
        else if (a.sliding_window == 0) read_layer_types(r, a);  // validates; no window, nothing slides
        if (a.sliding_window == 0) a.sliding_layers.clear();
    }
}

// Routed and shared experts, routers, MoE layer placement.
void read_experts(FieldReader& r, Architecture& a) {
    const ModelFamily f = a.family;
    switch (f) {
        case ModelFamily::mixtral:
        case ModelFamily::minimax_m2:
            // MiniMax-M2: Mixtral's block_sparse_moe (experts w1/w3/w2 of intermediate_size, a linear gate) with the
            // sigmoid router's e_score_correction_bias (use_routing_bias); its config's MTP modules are not in the
            // checkpoint (no mtp tensors), so none are counted.
            a.num_experts = r.count({"num_local_experts"}, 8, 1, kMaxExperts);
            a.num_experts_per_tok = r.count({"num_experts_per_tok"}, 2, 1, kMaxExperts);
            a.moe_intermediate_size = a.intermediate_size;
            a.router_bias_vector = f == ModelFamily::minimax_m2 && r.flag({"use_routing_bias"}, true);
            break;
        case ModelFamily::qwen2_moe:
        case ModelFamily::qwen3_moe:
            a.num_experts = r.count({"num_experts"}, f == ModelFamily::qwen2_moe ? 60 : 128, 1, kMaxExperts);
            a.num_experts_per_tok = r.count({"num_experts_per_tok"}, f == ModelFamily::qwen2_moe ? 4 : 8, 1, kMaxExperts);
            a.moe_intermediate_size = r.required({"moe_intermediate_size"}, 1, kMaxIntermediate);
            if (f == ModelFamily::qwen2_moe) {
                a.shared_expert_intermediate_size = r.count({"shared_expert_intermediate_size"}, 0, 0, kMaxIntermediate);
                a.num_shared_experts = a.shared_expert_intermediate_size > 0 ? 1 : 0;
            }
            a.moe_layer_freq = r.count({"decoder_sparse_step"}, 1, 1, kMaxLayers);
            a.dense_mlp_layers = r.layer_set("mlp_only_layers", a.num_hidden_layers);
            break;
        case ModelFamily::llama4:
            // Llama4TextMoe: experts of width intermediate_size, one shared expert of the same width, a
            // linear router; MoE on layers (i + 1) % interleave_moe_layer_step == 0 (moe_layers default).
            a.num_experts = r.count({"num_local_experts"}, 16, 1, kMaxExperts);
            a.num_experts_per_tok = r.count({"num_experts_per_tok"}, 1, 1, kMaxExperts);
            a.moe_intermediate_size = r.required({"intermediate_size"}, 1, kMaxIntermediate);
            a.shared_expert_intermediate_size = a.moe_intermediate_size;
            a.num_shared_experts = 1;
            a.moe_layer_freq = r.count({"interleave_moe_layer_step"}, 1, 1, kMaxLayers);
            break;
        case ModelFamily::gemma4:
            // Gemma4TextRouter (proj E x hidden, scale, per_expert_scale) and Gemma4TextExperts (gate_up 2 x moe width,
            // down) beside the dense MLP in every layer, when enable_moe_block. The official configs also write the
            // width as expert_intermediate_size.
            if (r.flag({"enable_moe_block"}, false)) {
                a.num_experts = r.required({"num_experts"}, 1, kMaxExperts);
                a.num_experts_per_tok = r.required({"top_k_experts", "num_experts_per_tok"}, 1, kMaxExperts);
                a.moe_intermediate_size = r.required({"moe_intermediate_size", "expert_intermediate_size"}, 1, kMaxIntermediate);
            }
            break;
        case ModelFamily::gpt_oss:
            // GptOssMLP: router Linear(hidden, experts) with bias; experts gate_up_proj [E, h, 2w] + bias,
            // down_proj [E, w, h] + bias, w = intermediate_size.
            a.num_experts = r.count({"num_local_experts"}, 32, 1, kMaxExperts);
            a.num_experts_per_tok = r.count({"num_experts_per_tok", "experts_per_token"}, 4, 1, kMaxExperts);
            a.moe_intermediate_size = a.intermediate_size;
            a.router_bias = true;
            a.expert_bias = true;
            break;
        case ModelFamily::deepseek:
        case ModelFamily::deepseek_v2:
        case ModelFamily::glm4_moe:
            a.num_experts = r.count({"n_routed_experts"}, 0, 0, kMaxExperts);
            if (a.num_experts > 0) {
                a.num_experts_per_tok = r.required({"num_experts_per_tok"}, 1, kMaxExperts);
                a.moe_intermediate_size = r.required({"moe_intermediate_size"}, 1, kMaxIntermediate);
                a.num_shared_experts = r.count({"n_shared_experts"}, 0, 0, kMaxExperts);
                a.shared_expert_intermediate_size = a.moe_intermediate_size * a.num_shared_experts;
                a.first_k_dense_replace = r.count({"first_k_dense_replace"}, 0, 0, kMaxLayers);
                a.moe_layer_freq = r.count({"moe_layer_freq"}, 1, 1, kMaxLayers);
                // DeepSeek-V3 MoEGate / Glm4MoeTopkRouter e_score_correction_bias.
                a.router_bias_vector = f == ModelFamily::glm4_moe || r.text("topk_method") == "noaux_tc";
            }
            if (f != ModelFamily::deepseek) a.num_nextn_predict_layers = r.count({"num_nextn_predict_layers"}, 0, 0, 16);
            break;
        default:
            break;
    }
    if (a.num_experts > 0 && a.num_experts_per_tok > a.num_experts)
        r.fail("num_experts_per_tok", std::to_string(a.num_experts_per_tok) + " is more than the " +
                                          std::to_string(a.num_experts) + " experts");
}

// Multi-head latent attention (DeepSeek-V2/V3, Kimi K2).
void read_mla(FieldReader& r, Architecture& a) {
    if (a.family != ModelFamily::deepseek_v2) return;
    a.q_lora_rank = r.count({"q_lora_rank"}, 0, 0, kMaxHidden);
    a.kv_lora_rank = r.required({"kv_lora_rank"}, 1, kMaxHidden);
    a.qk_nope_head_dim = r.required({"qk_nope_head_dim"}, 1, kMaxHidden);
    a.qk_rope_head_dim = r.required({"qk_rope_head_dim"}, 1, kMaxHidden);
    a.v_head_dim = r.required({"v_head_dim"}, 1, kMaxHidden);
    a.head_dim = a.qk_nope_head_dim + a.qk_rope_head_dim;
}

// Rotary embedding (RopeSettings): no parameter count depends on it; vLLM sizes its cos/sin table from it
// (vllm/model_executor/layers/rotary_embedding/__init__.py get_rope). rope_scaling, or transformers 5's
// rope_parameters, which for Gemma 3 is keyed by layer type (the full-attention entry is the scaled one). Phi-3
// writes the original length beside rope_scaling; rope_scaling's own one comes first.
void read_rope(FieldReader& r, Architecture& a) {
    RopeSettings& p = a.rope;
    p.rotary = r.text("position_embedding_type") != "nope";
    p.partial = r.probability({"partial_rotary_factor", "rotary_pct"}, 1);
    if (a.family == ModelFamily::minimax_m2 && a.head_dim > 0)  // MiniMax-M2 names the rotary width itself
        p.partial = static_cast<double>(r.count({"rotary_dim"}, a.head_dim, 1, a.head_dim)) / static_cast<double>(a.head_dim);
    p.original_positions = r.count({"original_max_position_embeddings"}, 0, 1, kMaxPositions);
    const char* key = "rope_scaling";
    const json* scaling = r.find({"rope_scaling", "rope_parameters"}, &key);
    if (scaling == nullptr || !r.error.empty()) return;
    if (!scaling->is_object()) {
        r.fail(key, std::string("must be an object (got ") + type_word(*scaling) + ")");
        return;
    }
    if (const json* full = scaling->find("full_attention"); full != nullptr && full->is_object()) scaling = full;
    FieldReader sub(*scaling);
    p.type = sub.text("rope_type");
    if (p.type.empty()) p.type = sub.text("type");
    if (p.type.empty()) p.type = "default";
    p.alpha = sub.has({"alpha"});
    p.factor = sub.number({"factor"}, 0, 0, 1e4, "from 0 to 10,000");
    p.original_positions = sub.count({"original_max_position_embeddings"}, p.original_positions, 1, kMaxPositions);
    if (!sub.error.empty()) r.fail(std::string(key) + "." + sub.failure().key, sub.failure().problem);
}

// ---- Hybrid models: which layers are recurrent, and the recurrent layers' sizes ----

struct MixerName {
    const char* name;
    MixerKind kind;
};

// A per-layer list of mixer names (layer_types, layers_block_type) into a.layer_mixers; an unknown name is
// an error naming the layer and the value, never a guess.
void read_mixer_list(FieldReader& r, Architecture& a, const char* key, std::initializer_list<MixerName> names) {
    const json* value = r.find({key});
    if (value == nullptr) {
        r.fail(key, "is missing (it says which layers are attention and which are recurrent)");
        return;
    }
    if (!value->is_array() || value->items().size() != a.num_hidden_layers) {
        r.fail(key, "must list one type per layer (" + std::to_string(a.num_hidden_layers) + ")");
        return;
    }
    a.layer_mixers.assign(static_cast<std::size_t>(a.num_hidden_layers), 0);
    std::size_t i = 0;
    for (const json& item : value->items()) {
        const std::string kind = item.is_string() ? item.text() : std::string();
        const MixerName* found = nullptr;
        for (const MixerName& n : names)
            if (kind == n.name) found = &n;
        if (found == nullptr) {
            std::string known;
            for (const MixerName& n : names) known += (known.empty() ? "" : ", ") + std::string(n.name);
            r.fail(key, "layer " + std::to_string(i) + " is \"" + printable_excerpt(kind, 40) + "\" (this family's layers are " +
                            known + ")");
            return;
        }
        a.layer_mixers[i++] = static_cast<std::uint8_t>(found->kind);
    }
}

// Every layer attention unless (i + 1) % interval == 0 ... or a layer index list: the mixer of layer i.
void set_mixers(Architecture& a, MixerKind recurrent, bool (*is_attention)(std::uint64_t, std::uint64_t, std::uint64_t),
                std::uint64_t p, std::uint64_t q) {
    a.layer_mixers.assign(static_cast<std::size_t>(a.num_hidden_layers), static_cast<std::uint8_t>(recurrent));
    for (std::uint64_t i = 0; i < a.num_hidden_layers; ++i)
        if (is_attention(i, p, q)) a.layer_mixers[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(MixerKind::attention);
}

// Qwen3-Next (Qwen3NextConfig, Qwen3NextGatedDeltaNet): layer_types of linear_attention/full_attention, or
// without it every full_attention_interval-th layer (i + 1) % interval == 0 is full attention. The GDN sizes
// are required (the published config writes them); MoE as Qwen3-MoE plus one gated shared expert; the
// checkpoint stores one MTP block (mtp.*) that config.json does not announce. Qwen3.5 is read here too: its GDN
// splits in_proj_qkvz/in_proj_ba into in_proj_qkv, _z, _b, _a (the same weights) and it writes mtp_num_hidden_layers.
void read_qwen3_next(FieldReader& r, Architecture& a) {
    if (r.has({"layer_types"})) {
        read_mixer_list(r, a, "layer_types",
                        {{"full_attention", MixerKind::attention}, {"linear_attention", MixerKind::gated_deltanet}});
    } else {
        const std::uint64_t interval = r.required({"full_attention_interval"}, 1, kMaxLayers);
        set_mixers(a, MixerKind::gated_deltanet, [](std::uint64_t i, std::uint64_t n, std::uint64_t) { return (i + 1) % n == 0; },
                   interval, 0);
    }
    RecurrentShape& g = a.recurrent;
    g.kind = MixerKind::gated_deltanet;
    g.n_groups = r.required({"linear_num_key_heads"}, 1, kMaxHeads);
    g.d_state = r.required({"linear_key_head_dim"}, 1, kMaxHidden);
    g.n_heads = r.required({"linear_num_value_heads"}, 1, kMaxHeads);
    const std::uint64_t value_head_dim = r.required({"linear_value_head_dim"}, 1, kMaxHidden);
    g.conv_kernel = r.required({"linear_conv_kernel_dim"}, 1, 1024);
    g.d_inner = g.n_heads * value_head_dim;
    a.num_experts = r.count({"num_experts"}, 0, 0, kMaxExperts);
    if (a.num_experts > 0) {
        a.num_experts_per_tok = r.required({"num_experts_per_tok"}, 1, kMaxExperts);
        a.moe_intermediate_size = r.required({"moe_intermediate_size"}, 1, kMaxIntermediate);
        a.shared_expert_intermediate_size = r.count({"shared_expert_intermediate_size"}, 0, 0, kMaxIntermediate);
        a.num_shared_experts = a.shared_expert_intermediate_size > 0 ? 1 : 0;
        a.moe_layer_freq = r.count({"decoder_sparse_step"}, 1, 1, kMaxLayers);
        a.dense_mlp_layers = r.layer_set("mlp_only_layers", a.num_hidden_layers);
    }
    if (r.error.empty() && a.intermediate_size == 0 && a.moe_layer_count() < a.num_hidden_layers)
        r.fail("intermediate_size", "is missing, and some layers have a dense MLP (num_experts, mlp_only_layers, decoder_sparse_step)");
    a.mtp_from_checkpoint = !r.has({"num_nextn_predict_layers", "mtp_num_hidden_layers"});
    a.num_nextn_predict_layers = r.count({"num_nextn_predict_layers", "mtp_num_hidden_layers"}, 1, 0, 16);
}

// Granite 4.0-H (GraniteMoeHybridConfig): layer_types of mamba/attention; Mamba-2 mixer with
// d_inner = mamba_expand x hidden = mamba_n_heads x mamba_d_head; a routed MoE (num_local_experts of width
// intermediate_size; 0 = none) and a shared SwiGLU of shared_intermediate_size in every layer.
void read_granite_hybrid(FieldReader& r, Architecture& a) {
    read_mixer_list(r, a, "layer_types", {{"attention", MixerKind::attention}, {"mamba", MixerKind::mamba2}});
    RecurrentShape& m = a.recurrent;
    m.kind = MixerKind::mamba2;
    const std::uint64_t expand = r.required({"mamba_expand"}, 1, 64);
    m.n_heads = r.required({"mamba_n_heads"}, 1, kMaxHeads);
    m.n_groups = r.required({"mamba_n_groups"}, 1, kMaxHeads);
    m.d_state = r.required({"mamba_d_state"}, 1, kMaxHidden);
    m.conv_kernel = r.required({"mamba_d_conv"}, 1, 1024);
    m.conv_bias = r.flag({"mamba_conv_bias"}, true);
    m.proj_bias = r.flag({"mamba_proj_bias"}, false);
    m.d_inner = expand * a.hidden_size;
    const json* head = r.find({"mamba_d_head"});
    std::uint64_t head_dim = 0;
    if (head != nullptr && head->is_string() && head->text() == "auto") head_dim = m.d_inner / m.n_heads;
    else head_dim = r.required({"mamba_d_head"}, 1, kMaxHidden);
    if (r.error.empty() && m.n_heads * head_dim != m.d_inner)
        r.fail("mamba_d_head", std::to_string(m.n_heads) + " heads x " + std::to_string(head_dim) + " is not mamba_expand x hidden_size (" +
                                   std::to_string(m.d_inner) + ")");
    a.num_experts = r.count({"num_local_experts"}, 0, 0, kMaxExperts);
    if (a.num_experts > 0) {
        a.num_experts_per_tok = r.required({"num_experts_per_tok"}, 1, kMaxExperts);
        a.moe_intermediate_size = a.intermediate_size;
    }
    a.shared_expert_intermediate_size = r.required({"shared_intermediate_size"}, 1, kMaxIntermediate);
    a.num_shared_experts = 1;
}

// Jamba (JambaConfig, JambaMambaMixer): layer i is attention when i % attn_layer_period == attn_layer_offset,
// else Mamba-1 (d_inner = mamba_expand x hidden; dt_rank "auto" = ceil(hidden / 16)); MoE of num_experts
// when i % expert_layer_period == expert_layer_offset, else a dense MLP.
void read_jamba(FieldReader& r, Architecture& a) {
    const std::uint64_t period = r.required({"attn_layer_period"}, 1, kMaxLayers);
    const std::uint64_t offset = r.required({"attn_layer_offset"}, 0, kMaxLayers);
    if (r.error.empty() && offset >= period) r.fail("attn_layer_offset", "must be less than attn_layer_period");
    set_mixers(a, MixerKind::mamba, [](std::uint64_t i, std::uint64_t p, std::uint64_t q) { return i % p == q; }, period, offset);
    RecurrentShape& m = a.recurrent;
    m.kind = MixerKind::mamba;
    m.d_state = r.required({"mamba_d_state"}, 1, kMaxHidden);
    m.conv_kernel = r.required({"mamba_d_conv"}, 1, 1024);
    m.d_inner = r.required({"mamba_expand"}, 1, 64) * a.hidden_size;
    const json* rank = r.find({"mamba_dt_rank"});
    if (rank != nullptr && rank->is_string() && rank->text() == "auto") m.dt_rank = (a.hidden_size + 15) / 16;
    else m.dt_rank = r.required({"mamba_dt_rank"}, 1, kMaxHidden);
    m.conv_bias = r.flag({"mamba_conv_bias"}, true);
    m.proj_bias = r.flag({"mamba_proj_bias"}, false);
    const std::uint64_t experts = r.required({"num_experts"}, 1, kMaxExperts);
    if (experts > 1) {
        a.num_experts = experts;
        a.num_experts_per_tok = r.required({"num_experts_per_tok"}, 1, kMaxExperts);
        a.moe_intermediate_size = a.intermediate_size;
        a.moe_layer_freq = r.required({"expert_layer_period"}, 1, kMaxLayers);
        a.moe_layer_offset = r.required({"expert_layer_offset"}, 0, kMaxLayers);
        if (r.error.empty() && a.moe_layer_offset >= a.moe_layer_freq)
            r.fail("expert_layer_offset", "must be less than expert_layer_period");
    }
}

// LFM2 (Lfm2Config, Lfm2ShortConv): layer_types of conv/full_attention (older configs: full_attn_idxs);
// the short conv is in_proj h -> 3h, a depthwise conv of conv_L_cache taps, out_proj h -> h.
void read_lfm2(FieldReader& r, Architecture& a) {
    if (r.has({"layer_types"}) || !r.has({"full_attn_idxs"})) {
        read_mixer_list(r, a, "layer_types", {{"full_attention", MixerKind::attention}, {"conv", MixerKind::short_conv}});
    } else {
        const std::vector<std::uint8_t> attention = r.layer_set("full_attn_idxs", a.num_hidden_layers);
        a.layer_mixers.assign(static_cast<std::size_t>(a.num_hidden_layers), static_cast<std::uint8_t>(MixerKind::short_conv));
        for (std::size_t i = 0; i < attention.size(); ++i)
            if (attention[i]) a.layer_mixers[i] = static_cast<std::uint8_t>(MixerKind::attention);
    }
    RecurrentShape& c = a.recurrent;
    c.kind = MixerKind::short_conv;
    c.d_inner = a.hidden_size;
    c.conv_kernel = r.count({"conv_L_cache"}, 3, 2, 1024);
    c.conv_bias = c.proj_bias = r.flag({"conv_bias"}, false);
}

// Nemotron-H (NemotronHConfig, NemotronHBlock): each block holds one mixer, named per layer by
// layers_block_type (mamba / attention / mlp / moe, or transformers' linear_attention / full_attention) or by
// the older hybrid_override_pattern string (M Mamba-2, * attention, - MLP, E MoE). The Mamba-2 mixer has
// d_inner = mamba_num_heads x mamba_head_dim (not expand x hidden), in/out_proj biases from use_bias. MLP and MoE
// blocks mix no tokens (MixerKind::none); with MoE blocks, dense_mlp_layers marks the MLP ones.
void read_nemotron_h(FieldReader& r, Architecture& a) {
    std::vector<std::uint8_t> moe_blocks(static_cast<std::size_t>(a.num_hidden_layers), 0);
    if (const json* listed = r.find({"layers_block_type"}); listed != nullptr) {
        for (std::size_t i = 0; listed->is_array() && i < listed->items().size() && i < moe_blocks.size(); ++i)
            moe_blocks[i] = listed->items()[i].is_string() && listed->items()[i].text() == "moe";
        read_mixer_list(r, a, "layers_block_type",
                        {{"mamba", MixerKind::mamba2}, {"linear_attention", MixerKind::mamba2}, {"attention", MixerKind::attention},
                         {"full_attention", MixerKind::attention}, {"mlp", MixerKind::none}, {"moe", MixerKind::none}});
    } else {
        const json* pattern = r.find({"hybrid_override_pattern"});
        if (pattern == nullptr) {
            r.fail("hybrid_override_pattern", "is missing, and so is layers_block_type (they say which blocks are Mamba-2, attention or MLP)");
            return;
        }
        if (!pattern->is_string() || pattern->text().size() != a.num_hidden_layers) {
            r.fail("hybrid_override_pattern", "must be a string of one letter per layer (" + std::to_string(a.num_hidden_layers) + ")");
            return;
        }
        a.layer_mixers.assign(static_cast<std::size_t>(a.num_hidden_layers), 0);
        const std::string& letters = pattern->text();
        for (std::size_t i = 0; i < letters.size(); ++i) {
            const char c = letters[i];
            MixerKind kind = MixerKind::none;
            if (c == 'M') kind = MixerKind::mamba2;
            else if (c == '*') kind = MixerKind::attention;
            else if (c == 'E') moe_blocks[i] = 1;
            else if (c != '-') {
                r.fail("hybrid_override_pattern", "layer " + std::to_string(i) + " is '" + printable_excerpt(std::string(1, c), 4) +
                                                      "' (the letters are M Mamba-2, * attention, - MLP, E MoE)");
                return;
            }
            a.layer_mixers[i] = static_cast<std::uint8_t>(kind);
        }
    }
    RecurrentShape& m = a.recurrent;
    m.kind = MixerKind::mamba2;
    m.n_heads = r.required({"mamba_num_heads"}, 1, kMaxHeads);
    const std::uint64_t head_dim = r.required({"mamba_head_dim"}, 1, kMaxHidden);
    m.n_groups = r.required({"n_groups", "mamba_n_groups"}, 1, kMaxHeads);
    m.d_state = r.required({"ssm_state_size"}, 1, kMaxHidden);
    m.conv_kernel = r.required({"conv_kernel", "mamba_d_conv"}, 1, 1024);
    m.conv_bias = r.flag({"use_conv_bias", "mamba_conv_bias"}, true);
    m.proj_bias = r.flag({"use_bias"}, false);
    m.d_inner = m.n_heads * head_dim;
    if (r.error.empty() && m.d_inner % m.n_groups != 0)
        r.fail("n_groups", std::to_string(m.n_groups) + " does not divide the Mamba-2 width " + std::to_string(m.d_inner) +
                               " (mamba_num_heads x mamba_head_dim)");
    // Nemotron 3 Super's mtp.* block (mtp_hybrid_override_pattern, e.g. "*E") is stored beside the model; transformers
    // skips it on load and vLLM loads it only as a drafter.
    if (r.count({"num_nextn_predict_layers"}, 0, 0, 16) > 0)
        r.warnings.push_back("num_nextn_predict_layers: the multi-token-prediction block (mtp.*) is not counted; transformers skips it "
                             "and vLLM loads it only for speculative decoding");
    bool any_moe = false;
    for (std::uint8_t moe : moe_blocks) any_moe = any_moe || moe != 0;
    if (!r.error.empty() || !any_moe) return;
    // NemotronHMoE (DeepseekV3MoE's routing): NemotronHTopkRouter (n_routed x hidden and its fp32
    // e_score_correction_bias), NemotronHExperts (up_proj and down_proj only, relu², at moe_latent_size when set,
    // between fc1_latent_proj and fc2_latent_proj), and one NemotronHMLP shared expert of
    // moe_shared_expert_intermediate_size, whatever n_shared_experts says.
    a.num_experts = r.required({"n_routed_experts"}, 1, kMaxExperts);
    a.num_experts_per_tok = r.required({"num_experts_per_tok"}, 1, kMaxExperts);
    a.moe_intermediate_size = r.required({"moe_intermediate_size"}, 1, kMaxIntermediate);
    a.shared_expert_intermediate_size = r.required({"moe_shared_expert_intermediate_size"}, 1, kMaxIntermediate);
    a.num_shared_experts = 1;
    a.moe_latent_size = r.count({"moe_latent_size"}, 0, 1, kMaxHidden);
    a.router_bias_vector = true;
    a.dense_mlp_layers.assign(moe_blocks.size(), 0);
    for (std::size_t i = 0; i < moe_blocks.size(); ++i)
        a.dense_mlp_layers[i] = !moe_blocks[i] && a.layer_mixers[i] == static_cast<std::uint8_t>(MixerKind::none);
}

// Falcon-H1 (FalconH1Config, FalconH1DecoderLayer): every layer runs FalconH1Attention and FalconH1Mixer (Mamba-2)
// side by side on the same normed input, then FalconH1MLP. The mixer's width is mamba_d_ssm (mamba_expand x hidden
// only when mamba_d_ssm is written as null) = mamba_n_heads x mamba_d_head ("auto": width / heads); in_proj's
// bias is mamba_proj_bias, out_proj's projectors_bias; the gated RMSNorm exists only with mamba_rms_norm. The
// booleans take FalconH1Config's defaults; the sizes are required. The muP multipliers (ssm_multipliers, ...)
// are scalars of the config and mup_vector a non-persistent buffer: no parameters.
void read_falcon_h1(FieldReader& r, Architecture& a) {
    // FalconH1Config's own default is 8 KV heads, not the query heads the shared reader falls back to.
    if (!r.has({"num_key_value_heads"})) {
        r.fail("num_key_value_heads", "is missing");
        return;
    }
    a.layer_mixers.assign(static_cast<std::size_t>(a.num_hidden_layers), static_cast<std::uint8_t>(MixerKind::parallel));
    RecurrentShape& m = a.recurrent;
    m.kind = MixerKind::mamba2;
    m.n_heads = r.required({"mamba_n_heads"}, 1, kMaxHeads);
    m.n_groups = r.required({"mamba_n_groups"}, 1, kMaxHeads);
    m.d_state = r.required({"mamba_d_state"}, 1, kMaxHidden);
    m.conv_kernel = r.required({"mamba_d_conv"}, 1, 1024);
    m.d_inner = r.written_as_null("mamba_d_ssm") ? r.required({"mamba_expand"}, 1, 64) * a.hidden_size
                                                 : r.required({"mamba_d_ssm"}, 1, kMaxIntermediate);
    m.conv_bias = r.flag({"mamba_conv_bias"}, true);
    m.proj_bias = r.flag({"mamba_proj_bias"}, false);
    m.out_proj_bias = r.flag({"projectors_bias"}, false);
    m.gated_norm = r.flag({"mamba_rms_norm"}, false);
    if (!r.error.empty()) return;
    const json* head = r.find({"mamba_d_head"});
    std::uint64_t head_dim = m.d_inner / m.n_heads;
    if (head == nullptr || !head->is_string() || head->text() != "auto") head_dim = r.required({"mamba_d_head"}, 1, kMaxHidden);
    if (r.error.empty() && m.n_heads * head_dim != m.d_inner)
        r.fail("mamba_d_head", std::to_string(m.n_heads) + " heads x " + std::to_string(head_dim) + " is not the Mamba-2 width " +
                                   std::to_string(m.d_inner) + " (mamba_d_ssm)");
    if (r.error.empty() && m.d_inner % m.n_groups != 0)
        r.fail("mamba_n_groups", std::to_string(m.n_groups) + " does not divide the Mamba-2 width " + std::to_string(m.d_inner));
}

void read_hybrid(FieldReader& r, Architecture& a) {
    switch (a.family) {
        case ModelFamily::qwen3_next: read_qwen3_next(r, a); break;
        case ModelFamily::granite_hybrid: read_granite_hybrid(r, a); break;
        case ModelFamily::jamba: read_jamba(r, a); break;
        case ModelFamily::lfm2: read_lfm2(r, a); break;
        case ModelFamily::nemotron_h: read_nemotron_h(r, a); break;
        case ModelFamily::falcon_h1: read_falcon_h1(r, a); break;
        default: return;
    }
    // The SSM state's dtype where the config names it (Qwen3.5 mamba_ssm_dtype, Nemotron-H mamba_ssm_cache_dtype):
    // vLLM keeps the recurrent state in it (MambaStateDtypeCalculator); it changes no parameter count.
    const char* dtype_key = nullptr;
    if (const json* d = r.find({"mamba_ssm_dtype", "mamba_ssm_cache_dtype"}, &dtype_key); d != nullptr) {
        const std::string name = d->is_string() ? d->text() : std::string();
        if (name == "float32") a.recurrent.ssm_state_bytes = 4;
        else if (name == "float16" || name == "bfloat16") a.recurrent.ssm_state_bytes = 2;
        else if (name != "auto")
            r.fail(dtype_key, "is \"" + printable_excerpt(name, 40) + "\" (float32, float16, bfloat16 or auto)");
    }
    if (r.error.empty() && a.num_experts > 0 && a.num_experts_per_tok > a.num_experts)
        r.fail("num_experts_per_tok", std::to_string(a.num_experts_per_tok) + " is more than the " +
                                          std::to_string(a.num_experts) + " experts");
}

void read_dropout_fields(FieldReader& r, Architecture& a) {
    const bool gpt2 = a.family == ModelFamily::gpt2;
    const bool opt = a.family == ModelFamily::opt;
    const double hidden = r.probability({"resid_pdrop", "hidden_dropout", "dropout", "hidden_dropout_prob"},
                                        gpt2 || opt ? 0.1 : 0.0);
    const double attention = r.probability({"attn_pdrop", "attention_dropout", "attention_probs_dropout_prob"},
                                           gpt2 ? 0.1 : 0.0);
    a.hidden_dropout = hidden > 0;
    a.attention_dropout = attention > 0;
}

// A field whose presence (with a non-zero, non-empty value) changes the count in a way the Llama-style
// estimate for unknown types does not model, and what it stands for.
struct UnmodelledField {
    const char* key;
    const char* meaning;
};
constexpr UnmodelledField kUnmodelledFields[] = {
    // One field per kind first, so the three the message names are three different kinds.
    {"num_local_experts", "routed experts"},     {"num_experts", "routed experts"},
    {"n_routed_experts", "routed experts"},      {"n_shared_experts", "shared experts"},
    {"vision_config", "a vision tower"},         {"num_nextn_predict_layers", "multi-token-prediction layers"},
    {"kv_lora_rank", "latent attention (MLA)"},  {"sliding_window_pattern", "a per-layer attention pattern"},
    {"layers_block_type", "per-layer block types"}, {"hybrid_override_pattern", "per-layer block types"},
    {"linear_num_value_heads", "linear-attention layers"},
    {"full_attention_interval", "linear-attention layers"}, {"mamba_d_state", "Mamba layers"},
    {"ssm_state_size", "Mamba layers"},          {"attn_layer_period", "per-layer block types"},
    {"conv_L_cache", "short-convolution layers"}, {"audio_config", "an audio tower"},
    {"mtp_num_hidden_layers", "multi-token-prediction layers"},
    {"moe_intermediate_size", "expert width"},   {"num_experts_per_tok", "experts per token"},
    {"shared_expert_intermediate_size", "shared expert"}, {"q_lora_rank", "latent attention (MLA)"},
};

bool meaningful(const json& value) {
    if (value.is_null()) return false;
    if (value.is_number()) return value.number() != 0;
    if (value.is_boolean()) return value.boolean();
    if (value.is_array()) return !value.items().empty();
    if (value.is_object()) return !value.members().empty();
    return true;  // any string, even "" (the reader before json.hpp counted every string)
}

// Unknown model_type: refuse (error naming the fields) rather than give a confident wrong count. The
// message names at most three fields and counts the rest, so it stays one short line (a DeepSeek-V3
// config renamed to an unknown type has seven such fields).
void check_unmodelled(FieldReader& r, Architecture& a) {
    if (a.family != ModelFamily::generic) return;
    constexpr std::size_t kNamed = 3;
    std::string found;
    std::size_t count = 0;
    for (const UnmodelledField& field : kUnmodelledFields) {
        const json* value = r.find({field.key});
        const bool vision = a.has_vision_tower && std::string(field.key) == "vision_config";
        if (!vision && (value == nullptr || !meaningful(*value))) continue;
        if (count++ < kNamed) found += (found.empty() ? "" : ", ") + std::string(field.key) + " (" + field.meaning + ")";
    }
    if (count > kNamed) found += " and " + std::to_string(count - kNamed) + " more";
    if (count > 0)
        r.fail("config.json", "model_type \"" + printable_excerpt(a.model_type, 40) +
                                  "\" is not known, and these fields change the count in ways the Llama-style "
                                  "estimate does not model: " + found + ". Use a known model_type or --params");
}

// Fills `a` from the reader, one named step after another; false (with r.error set) on a problem.
bool read_fields(FieldReader& r, Architecture& a) {
    static constexpr ReadStep kSteps[] = {check_unmodelled, read_sizes,   read_heads,   read_mlp,
                                          read_layout,      read_sliding, read_experts, read_mla,
                                          read_hybrid,      read_rope,    read_dropout_fields};
    for (ReadStep step : kSteps) {
        step(r, a);
        if (!r.error.empty()) return false;
    }
    return true;
}

}  // namespace

Expected<Architecture> parse_config(std::string_view json_text) {
    if (json_text.size() > kMaxConfigBytes) return Error{"config.json", "is larger than 4 MB"};
    if (trim(json_text).empty()) return Error{"config.json", "is empty"};
    if (max_nesting_depth(json_text) > kMaxDepth)
        return Error{"config.json", "nested deeper than " + std::to_string(kMaxDepth) + " levels"};

    const JsonDocument parsed = parse_json(json_text);
    if (!parsed.ok())
        return Error{"config.json", "not valid JSON (truncated or malformed) at byte " + std::to_string(parsed.error_position)};
    const json& document = parsed.value;
    if (!document.is_object()) return Error{"config.json", "must be a JSON object ({...})"};

    // Multimodal configs keep the language model under text_config (Voxtral's top level also repeats its width).
    const json* object = &document;
    const json* const text_config = document.find("text_config");
    const json* const top_type = document.find("model_type");
    const bool voxtral = top_type != nullptr && top_type->is_string() && top_type->text() == "voxtral";
    if ((voxtral || document.find("hidden_size") == nullptr) && text_config != nullptr && text_config->is_object()) object = text_config;

    // model_type: the language model's own, else the top-level one.
    std::string model_type;
    {
        FieldReader text(*object);
        model_type = text.text("model_type");
        if (!text.error.empty()) return text.failure();
        if (model_type.empty() && object != &document) {
            FieldReader top(document);
            model_type = top.text("model_type");
            if (!top.error.empty()) return top.failure();
        }
    }
    const FamilyRow* row = family_row(model_type);
    JsonDocument defaults;
    if (row != nullptr && row->defaults != nullptr) defaults = parse_json(row->defaults);

    Architecture a;
    // Shown in names, warnings and reports: keep it one printable line (known types are short ASCII).
    a.model_type = printable_excerpt(model_type, 64);
    a.family = row != nullptr ? row->family : ModelFamily::generic;
    const json* const vision = document.find("vision_config");
    a.has_vision_tower = (vision != nullptr && vision->is_object() && !vision->members().empty()) || voxtral;
    FieldReader r(*object, defaults.value.is_object() ? &defaults.value : nullptr);
    if (a.family == ModelFamily::generic) {
        r.warnings.push_back(
            (a.model_type.empty() ? std::string("model_type is missing") : "model_type \"" + printable_excerpt(a.model_type, 40) + "\" is not known") +
            ": counted as a Llama-style decoder (q/k/v/o attention, gated MLP gate/up/down, RMSNorm, no biases " +
            "unless attention_bias/mlp_bias say so, untied head unless tie_word_embeddings)");
    }
    if (!read_fields(r, a)) return r.failure();
    if (const json* audio = document.find("audio_config");
        a.family == ModelFamily::gemma4 && !a.has_vision_tower && audio != nullptr && !audio->is_null())
        return Error{"audio_config: a Gemma 4 audio tower without a vision_config is not modelled"};
    if (a.has_vision_tower) {
        Expected<VisionTower> tower = read_vision_tower(document, a.hidden_size);
        if (!tower) return Error{tower.error()};
        a.vision = *tower;
    }
    a.warnings = std::move(r.warnings);
    return a;
}

Expected<ModelSource> model_from_config(std::string_view json_text, std::string display_name) {
    Expected<Architecture> arch = parse_config(json_text);
    if (!arch) return arch.failure();
    Expected<ParamBreakdown> counts = count_parameters(*arch);
    if (!counts) return counts.failure();
    ModelSource source;
    source.display_name = display_name.empty() ? "config.json (" + (arch->model_type.empty() ? std::string("unknown") : arch->model_type) + ")"
                                               : std::move(display_name);
    source.architecture = std::move(arch.value());
    source.counts = *counts;
    return source;
}

}  // namespace llm_memory
