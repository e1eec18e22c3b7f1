// llama.cpp (and Ollama, which runs llama-server) as it allocates at load: model buffers per device from
// the tensors' bytes with -ngl counted from the output layer back, the KV buffer per layer on its layer's
// device (SWA cells, -np streams or one unified cache, q8_0/q4_0 blocks), one compute buffer per GPU sized
// at n_ubatch, the host's input and output buffers, and the CUDA context. Defaults: llama.cpp b9993-b10437.
#include "engine.hpp"

#include <algorithm>
#include <functional>

#include "../formats.hpp"
#include "../gpus.hpp"
#include "../hybrid.hpp"
#include "../kv_cache.hpp"
#include "../model_file.hpp"
#include "../model_presets.hpp"
#include "../settings.hpp"

namespace llm_memory {
namespace {


constexpr std::uint64_t kMiB = 1ULL << 20;
// Defaults of llama.cpp b9993-b10437 (common/common.h): n_ctx 0 = the model's training context, n_batch
// 2048, n_ubatch 512, n_gpu_layers -1 = --fit decides, flash_attn_type auto, fit_params_target 1024 MiB per
// device, fit_params_min_ctx 4096; llama-server's -np auto = 4 slots with a unified cache.
constexpr std::uint64_t kDefaultUbatch = 512;
constexpr std::uint64_t kDefaultBatch = 2048;
constexpr std::uint64_t kOllamaBatch = 512;       // Ollama's num_batch default (api/types.go DefaultOptions)
constexpr std::uint64_t kOllamaContext = 4096;    // Ollama's num_ctx default (envconfig OLLAMA_CONTEXT_LENGTH)
constexpr std::uint64_t kServerSlots = 4;         // llama-server: "n_parallel is set to auto, using n_parallel = 4 and kv_unified = true"
constexpr std::uint64_t kFitMarginBytes = 1024 * kMiB;  // common/common.h fit_params_target
constexpr std::uint64_t kFitMinContext = 4096;    // common/common.h fit_params_min_ctx
constexpr std::uint64_t kCellPad = 256;           // n_ctx and SWA cells are padded to 256 (src/llama-kv-cache-iswa.cpp)
// The CUDA context and cuBLAS workspace a process holds beside llama.cpp's buffers: Ollama's measured
// allowance per CUDA GPU (ollama discover/gpu.go, MinimumMemory = 457 MiB).
constexpr std::uint64_t kCudaContextBytes = 457 * kMiB;
constexpr std::uint64_t kF32 = 4;
// ggml-cuda's offload_op: the smallest batch for which an op on host weights runs on the GPU instead.
constexpr std::uint64_t kOpOffloadMinBatch = 32;

std::uint64_t pad_up(std::uint64_t value, std::uint64_t pad) { return (value + pad - 1) / pad * pad; }
std::string n(std::uint64_t v) { return format_count_exact(v); }

// llama.cpp's tensor overrides match a tensor's name with std::regex_search (ECMAScript). This is that
// search for the patterns people write (literals, ., escapes \d \w \s, [classes], (groups|alternatives),
// * + ? {m,n}, ^ $), without std::regex and its exceptions; anything else is refused by name.
struct Pattern {
    struct Atom;
    using Seq = std::vector<Atom>;
    struct Atom {
        enum Kind : std::uint8_t { chr, any, cls, grp, bol, eol } kind = chr;
        unsigned char c = 0;
        bool negated = false;
        std::string set;               // cls: the bytes in the class
        std::vector<Seq> alts;         // grp
        unsigned min = 1, max = 1;
    };
    std::vector<Seq> alts;
};

using Cont = std::function<bool(std::size_t)>;

struct PatternParser {
    const std::string& p;
    std::size_t i = 0;
    std::string error;
    static std::string escape_class(char e) {
        std::string out;
        for (int b = 0; b < 256; ++b) {
            const char ch = static_cast<char>(b);
            const bool digit = ch >= '0' && ch <= '9';
            const bool word = digit || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
            const bool space = ch == ' ' || (ch >= '\t' && ch <= '\r');
            const bool in = e == 'd' ? digit : e == 'w' ? word : e == 's' ? space : e == 'D' ? !digit : e == 'W' ? !word : !space;
            if (in) out += ch;
        }
        return out;
    }
    std::vector<Pattern::Seq> alternatives(bool nested) {
        std::vector<Pattern::Seq> out(1);
        while (i < p.size() && error.empty()) {
            const char ch = p[i];
            if (ch == ')') {
                if (!nested) error = "an unmatched ')'";
                return out;
            }
            if (ch == '|') {
                ++i;
                out.emplace_back();
                continue;
            }
            Pattern::Atom a;
            ++i;
            if (ch == '(') {
                if (p.compare(i, 2, "?:") == 0) i += 2;
                a.kind = Pattern::Atom::grp;
                a.alts = alternatives(true);
                if (i >= p.size() || p[i] != ')') {
                    if (error.empty()) error = "an unclosed '('";
                    return out;
                }
                ++i;
            } else if (ch == '[') {
                a.kind = Pattern::Atom::cls;
                if (i < p.size() && p[i] == '^') a.negated = true, ++i;
                bool first = true;
                while (i < p.size() && (p[i] != ']' || first)) {
                    first = false;
                    char lo = p[i++];
                    if (lo == '\\' && i < p.size()) {
                        const char e = p[i++];
                        if (std::string("dwsDWS").find(e) != std::string::npos) { a.set += escape_class(e); continue; }
                        lo = e;
                    }
                    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
                        const char hi = p[i + 1];
                        i += 2;
                        for (int b = static_cast<unsigned char>(lo); b <= static_cast<unsigned char>(hi); ++b) a.set += static_cast<char>(b);
                    } else {
                        a.set += lo;
                    }
                }
                if (i >= p.size()) {
                    error = "an unclosed '['";
                    return out;
                }
                ++i;
            } else if (ch == '\\') {
                if (i >= p.size()) {
                    error = "a trailing '\\'";
                    return out;
                }
                const char e = p[i++];
                if (std::string("dwsDWS").find(e) != std::string::npos) {
                    a.kind = Pattern::Atom::cls;
                    a.set = escape_class(e);
                } else if (std::string("bBnrtfv0123456789xuck").find(e) != std::string::npos) {
                    error = std::string("the escape \\") + e + " is not modelled";
                    return out;
                } else {
                    a.c = static_cast<unsigned char>(e);
                }
            } else if (ch == '.') {
                a.kind = Pattern::Atom::any;
            } else if (ch == '^') {
                a.kind = Pattern::Atom::bol;
            } else if (ch == '$') {
                a.kind = Pattern::Atom::eol;
            } else if (ch == '*' || ch == '+' || ch == '?' || ch == '{') {
                error = std::string("'") + ch + "' follows nothing it could repeat";
                return out;
            } else {
                a.c = static_cast<unsigned char>(ch);
            }
            // A quantifier.
            if (i < p.size()) {
                const char q = p[i];
                constexpr unsigned kMany = ~0U;
                if (q == '*') a.min = 0, a.max = kMany, ++i;
                else if (q == '+') a.min = 1, a.max = kMany, ++i;
                else if (q == '?') a.min = 0, a.max = 1, ++i;
                else if (q == '{') {
                    std::size_t j = i + 1;
                    auto number = [&](unsigned& v) {
                        const std::size_t from = j;
                        v = 0;
                        while (j < p.size() && p[j] >= '0' && p[j] <= '9' && v < 100000) v = v * 10 + static_cast<unsigned>(p[j++] - '0');
                        return j > from;
                    };
                    unsigned lo = 0, hi = 0;
                    if (!number(lo)) {
                        error = "a '{' without a count";
                        return out;
                    }
                    hi = lo;
                    if (j < p.size() && p[j] == ',') {
                        ++j;
                        if (!number(hi)) hi = kMany;
                    }
                    if (j >= p.size() || p[j] != '}' || hi < lo) {
                        error = "a malformed {m,n}";
                        return out;
                    }
                    a.min = lo, a.max = hi, i = j + 1;
                }
                if (i < p.size() && p[i] == '?' && (q == '*' || q == '+' || q == '?' || q == '{')) ++i;  // lazy: the same matches
            }
            out.back().push_back(std::move(a));
        }
        return out;
    }
};

bool match_seq(const Pattern::Seq& seq, std::size_t at, const std::string& s, std::size_t pos, const Cont& k);

bool match_alts(const std::vector<Pattern::Seq>& alts, const std::string& s, std::size_t pos, const Cont& k) {
    for (const Pattern::Seq& seq : alts)
        if (match_seq(seq, 0, s, pos, k)) return true;
    return false;
}

bool match_one(const Pattern::Atom& a, const std::string& s, std::size_t pos, const Cont& k) {
    switch (a.kind) {
        case Pattern::Atom::chr: return pos < s.size() && static_cast<unsigned char>(s[pos]) == a.c && k(pos + 1);
        case Pattern::Atom::any: return pos < s.size() && s[pos] != '\n' && s[pos] != '\r' && k(pos + 1);
        case Pattern::Atom::cls: return pos < s.size() && ((a.set.find(s[pos]) != std::string::npos) != a.negated) && k(pos + 1);
        case Pattern::Atom::grp: return match_alts(a.alts, s, pos, k);
        case Pattern::Atom::bol: return pos == 0 && k(pos);
        case Pattern::Atom::eol: return pos == s.size() && k(pos);
    }
    return false;
}

bool match_rep(const Pattern::Atom& a, unsigned count, const Pattern::Seq& seq, std::size_t at, const std::string& s, std::size_t pos, const Cont& k) {
    if (count < a.max &&
        match_one(a, s, pos, [&](std::size_t p) { return !(p == pos && count >= a.min) && match_rep(a, count + 1, seq, at, s, p, k); }))
        return true;
    return count >= a.min && match_seq(seq, at + 1, s, pos, k);
}

bool match_seq(const Pattern::Seq& seq, std::size_t at, const std::string& s, std::size_t pos, const Cont& k) {
    if (at == seq.size()) return k(pos);
    return match_rep(seq[at], 0, seq, at, s, pos, k);
}

// The pattern, or the reason it is refused.
Expected<Pattern> compile_pattern(const std::string& text) {
    PatternParser parser{text, 0, {}};
    Pattern out;
    out.alts = parser.alternatives(false);
    if (parser.error.empty() && parser.i < text.size()) parser.error = "an unmatched ')'";
    if (!parser.error.empty()) return Error{"override-tensor", "the pattern \"" + text + "\" has " + parser.error};
    return out;
}

// std::regex_search: the pattern matches somewhere in the name.
bool pattern_finds(const Pattern& p, const std::string& name) {
    const Cont done = [](std::size_t) { return true; };
    for (std::size_t start = 0; start <= name.size(); ++start)
        if (match_alts(p.alts, name, start, done)) return true;
    return false;
}

// llama.cpp's --n-cpu-moe N adds, for each of the first N layers, the override
// "blk\.<i>\.ffn_(up|down|gate|gate_up)_(ch|)exps" = CPU (common/common.h LLM_FFN_EXPS_REGEX,
// llm_ffn_exps_block_regex; common/arg.cpp; "the MoE weights of the first N layers", llama.cpp PR #15077);
// --cpu-moe adds the same pattern without the block.
const char* kExpertsPattern = "\\.ffn_(up|down|gate|gate_up)_(ch|)exps";

// The weights by placement group: the GGUF's own layout, or one derived from the estimate's weight bytes
// spread over the architecture's parts (every layer the same size).
WeightLayout weight_layout(const Scenario& s, const Estimate& e, std::vector<std::string>& notes) {
    const ModelSource& m = *s.model;
    if (m.layout.known && m.layout.layer_bytes.size() == m.architecture.num_hidden_layers) return m.layout;
    const Architecture& a = m.architecture;
    const ParamBreakdown& c = m.counts;
    WeightLayout w;
    w.known = false;
    const std::uint64_t total = c.total_count > 0 ? c.total_count : 1;
    auto bytes_of = [&](std::uint64_t params) {
        return static_cast<std::uint64_t>(static_cast<u128>(e.weight_bytes) * params / total);
    };
    const std::uint64_t final_norm = std::min<std::uint64_t>(a.hidden_size * (a.norm_kind == NormKind::layer_norm ? 2 : 1), c.norm_count);
    const std::uint64_t outside = c.embedding_count + c.output_head_count + final_norm;
    const std::uint64_t layers_params = c.total_count > outside ? c.total_count - outside : 0;
    const std::uint64_t layers = a.num_hidden_layers;
    w.token_embd_bytes = bytes_of(c.embedding_count);
    w.per_layer_embd_bytes = bytes_of(c.per_layer_embedding_count);
    w.output_bytes = a.tie_word_embeddings ? 0 : bytes_of(c.output_head_count);
    w.output_norm_bytes = bytes_of(final_norm);
    // The model's GGUF holds the language model alone: convert_hf_to_gguf.py writes a vision tower to its
    // own mmproj file (counted apart, with --mmproj).
    std::uint64_t placed = w.token_embd_bytes + w.output_bytes + w.output_norm_bytes + bytes_of(c.vision_count);
    const std::uint64_t layers_bytes = e.weight_bytes > placed ? e.weight_bytes - placed : 0;
    (void)layers_params;
    // Routed experts sit in the MoE layers only (gate, up and down of equal size), the rest spread evenly.
    const std::uint64_t moe_layers = a.is_moe() ? a.moe_layer_count() : 0;
    const std::uint64_t experts = moe_layers > 0 ? std::min(bytes_of(c.expert_count), layers_bytes) / moe_layers / 3 * 3 : 0;
    const std::uint64_t rest = layers_bytes - experts * moe_layers;
    w.layer_bytes.assign(static_cast<std::size_t>(layers), layers > 0 ? rest / layers : 0);
    if (layers > 0) w.layer_bytes.back() += rest - rest / layers * layers;
    for (std::uint64_t il = 0; il < layers && moe_layers > 0; ++il) {
        if (!a.layer_is_moe(il)) continue;
        w.layer_bytes[static_cast<std::size_t>(il)] += experts;
        for (const char* part : {"gate", "up", "down"})
            w.layer_tensors.push_back({"blk." + std::to_string(il) + ".ffn_" + part + "_exps.weight", il, experts / 3});
    }
    notes.push_back("No GGUF file: each tensor group's bytes are the weight format's average over its parameters "
                    "(a GGUF's own tensor types give the exact per-layer bytes: --gguf FILE).");
    return w;
}

// The bytes of each layer that tensor overrides keep in host RAM (--n-cpu-moe, --cpu-moe, -ot PATTERN=CPU),
// tried in llama.cpp's order: -ot patterns first, then the --n-cpu-moe ones; any match means the CPU.
struct Overrides {
    std::vector<std::uint64_t> cpu_bytes;    // per layer
    std::vector<std::uint64_t> cpu_largest;  // per layer, its largest tensor kept in host RAM
    std::vector<std::string> cpu_largest_name;
    std::uint64_t layers = 0;                // layers with at least one tensor kept in host RAM
    std::uint64_t bytes = 0;
    bool any = false;                      // overrides were given (llama.cpp's --fit then leaves -ngl alone)
    std::string steps;
};

Expected<Overrides> tensor_overrides(const Scenario& s, const WeightLayout& w, std::uint64_t layers) {
    Overrides o;
    o.cpu_bytes.assign(static_cast<std::size_t>(layers), 0);
    o.cpu_largest.assign(static_cast<std::size_t>(layers), 0);
    o.cpu_largest_name.assign(static_cast<std::size_t>(layers), std::string());
    std::vector<Pattern> patterns;
    std::vector<std::string> texts;
    const std::string& list = s.engine.override_tensor;
    for (std::size_t at = 0; at < list.size();) {
        const std::size_t end = std::min(list.find(',', at), list.size());
        const std::string entry = list.substr(at, end - at);
        at = end + 1;
        const std::size_t eq = entry.rfind('=');
        if (eq == std::string::npos) continue;
        texts.push_back(entry.substr(0, eq));
        Expected<Pattern> p = compile_pattern(texts.back());
        if (!p) return p.failure();
        patterns.push_back(std::move(*p));
    }
    const std::uint64_t first_n = s.engine.cpu_moe_all ? layers : std::min(s.engine.n_cpu_moe, layers);
    Expected<Pattern> experts = compile_pattern(kExpertsPattern);
    if (!experts) return experts.failure();
    o.any = !patterns.empty() || first_n > 0;
    if (!o.any) return o;
    const bool has_experts = std::any_of(w.layer_tensors.begin(), w.layer_tensors.end(),
                                         [&](const WeightLayout::Tensor& t) { return pattern_finds(*experts, t.name); });
    if (first_n > 0 && !has_experts)
        return Error{"n-cpu-moe", "the model has no routed-expert tensors (blk.N.ffn_{gate,up,down}_exps) to keep on the CPU"};
    std::vector<bool> used(patterns.size(), false);
    for (const WeightLayout::Tensor& t : w.layer_tensors) {
        if (t.layer >= layers) continue;
        bool cpu = false;
        for (std::size_t i = 0; i < patterns.size() && !cpu; ++i)
            if (pattern_finds(patterns[i], t.name)) cpu = used[i] = true;
        if (!cpu && t.layer < first_n) cpu = pattern_finds(*experts, t.name);
        if (!cpu) continue;
        std::uint64_t& b = o.cpu_bytes[static_cast<std::size_t>(t.layer)];
        if (b == 0) ++o.layers;
        b += t.bytes;
        o.bytes += t.bytes;
        if (t.bytes > o.cpu_largest[static_cast<std::size_t>(t.layer)]) {
            o.cpu_largest[static_cast<std::size_t>(t.layer)] = t.bytes;
            o.cpu_largest_name[static_cast<std::size_t>(t.layer)] = t.name;
        }
    }
    for (std::size_t i = 0; i < patterns.size(); ++i)
        if (!used[i])
            return Error{"override-tensor", "the pattern \"" + texts[i] + "\" finds no tensor of this model's layers" +
                                                (w.known ? std::string() : " (without a GGUF file only the routed experts, blk.N.ffn_{gate,up,down}_exps.weight, are named: give --gguf FILE)")};
    if (first_n > 0) o.steps = (s.engine.cpu_moe_all ? std::string("--cpu-moe: every layer's") : "--n-cpu-moe " + n(first_n) + ": the first " + n(first_n) + " layers'") + " routed experts";
    if (!patterns.empty()) o.steps += (o.steps.empty() ? "" : " + ") + std::string("-ot ") + list;
    o.steps += ": " + n(o.bytes) + " bytes in " + n(o.layers) + (o.layers == 1 ? " layer" : " layers");
    return o;
}

struct KvTypes {
    WeightFormat k;
    WeightFormat v;
};

Expected<KvTypes> kv_types(const Scenario& s) {
    auto allowed = [](const std::string& key) {
        return key == "fp16" || key == "bf16" || key == "fp32" || key == "q8_0" || key == "q4_0";
    };
    if (!allowed(s.kv_dtype))
        return Error{"kv-dtype", "llama.cpp's -ctk takes f16, bf16, f32, q8_0 or q4_0 here (not " + s.kv_dtype + ")"};
    const std::string v_key = s.engine.v_dtype.empty() ? s.kv_dtype : s.engine.v_dtype;
    if (!allowed(v_key))
        return Error{"v-dtype", "llama.cpp's -ctv takes f16, bf16, f32, q8_0 or q4_0 here (not " + v_key + ")"};
    Expected<WeightFormat> k = find_weight_format(s.kv_dtype);
    Expected<WeightFormat> v = find_weight_format(v_key);
    if (!k) return Error{"kv-dtype", k.error()};
    if (!v) return Error{"v-dtype", v.error()};
    return KvTypes{*k, *v};
}

const char* ggml_kv_name(const std::string& key) {
    if (key == "fp16") return "f16";
    if (key == "fp32") return "f32";
    return key.c_str();
}

struct Resolved {
    std::uint64_t n_ctx = 0;        // total cells of the full-attention cache (padded)
    std::uint64_t n_seq = 1;        // -np
    bool unified = true;
    std::uint64_t n_ubatch = kDefaultUbatch;
    std::uint64_t n_batch = kDefaultBatch;
    bool flash_attn = true;
    std::uint64_t ngl = 0;          // -ngl value (layers + 1 = all)
    bool context_from_model = false;
    std::uint64_t outputs_max = 0;  // n_outputs_max, the logits rows the graph is reserved for; 0 = n_batch
};

// The rows whose logits a u-batch of t tokens reserves (src/llama-context.cpp sched_reserve:
// n_outputs_pp = min(n_tokens, n_outputs_max), n_outputs_max = n_batch unless the caller caps it).
std::uint64_t output_rows(const Resolved& r, std::uint64_t t) {
    const std::uint64_t cap = r.outputs_max == 0 ? r.n_batch : std::min(r.outputs_max, r.n_batch);
    return std::min(t, cap);
}

// The run's figures for one choice of n_ctx and -ngl.
struct Layout {
    std::vector<EngineDevice> devices;  // GPUs, then host
};

std::vector<std::uint64_t> kv_bytes_per_layer(const Architecture& a, const Resolved& r, const KvTypes& t, bool swa_full,
                                              std::uint64_t& swa_cells, std::string& steps) {
    const std::uint64_t layers = a.num_hidden_layers;
    const std::uint64_t n_stream = r.unified ? 1 : r.n_seq;
    const std::uint64_t cells_per_stream = r.n_ctx / n_stream;
    std::uint64_t k_row = 0, v_row = 0;
    if (a.uses_mla()) {
        k_row = a.kv_lora_rank + a.qk_rope_head_dim;  // the latent and the RoPE key, one "head"; V is a view of it
        v_row = 0;
    } else {
        k_row = a.num_key_value_heads * a.head_dim;
        v_row = a.num_key_value_heads * a.head_dim;
    }
    // Gemma 4's global layers: their own K and V rows (global_kv_heads x global_head_dim; V is cached too when it
    // equals K, src/llama-model.cpp gemma4's Vcur = Kcur), hparams.n_embd_k_gqa(il) per layer. With flash attention
    // off (-fa off; auto counts as on when the cache is made), the V cache is transposed and every layer's V row is
    // the widest of any layer (llama-kv-cache.cpp, n_embd_v_gqa_max).
    const std::uint64_t global_row = a.global_head_dim > 0 ? a.global_kv_heads * a.global_head_dim : k_row;
    const bool v_padded = a.global_head_dim > 0 && !r.flash_attn && global_row != v_row;
    if (v_padded) v_row = std::max(v_row, global_row);
    const std::uint64_t k_row_bytes = format_bytes(t.k, k_row);
    const std::uint64_t v_row_bytes = v_row > 0 ? format_bytes(t.v, v_row) : 0;
    swa_cells = 0;
    if (a.sliding_window > 0) {
        const std::uint64_t want = a.sliding_window * (r.unified ? r.n_seq : 1) + r.n_ubatch;
        swa_cells = swa_full ? cells_per_stream : pad_up(std::min(cells_per_stream, want), kCellPad);
    }
    const std::uint64_t global_row_bytes =
        a.global_head_dim > 0 ? format_bytes(t.k, global_row) + format_bytes(t.v, v_padded ? v_row : global_row) : k_row_bytes + v_row_bytes;
    std::vector<std::uint64_t> out(static_cast<std::size_t>(layers), 0);
    for (std::size_t il = 0; il < out.size(); ++il) {
        if (!a.layer_is_attention(il)) continue;  // a recurrent layer keeps its RS state instead
        // Gemma 4's shared-KV layers read an earlier layer's cache (n_layer_kv_from_start = n_layer - shared).
        if (il + a.kv_shared_layers >= layers) continue;
        const bool slides = il < a.sliding_layers.size() && a.sliding_layers[il] != 0;
        const std::uint64_t cells = (slides ? swa_cells : cells_per_stream) * n_stream;
        out[il] = cells * (slides ? k_row_bytes + v_row_bytes : global_row_bytes);
    }
    steps = n(cells_per_stream) + " cells" + (n_stream > 1 ? " x " + n(n_stream) + " streams (-np without a unified cache)" : "") +
            " x (K " + n(k_row) + " values in " + t.k.label + " = " + n(k_row_bytes) + " bytes" +
            (v_row > 0 ? " + V " + n(v_row) + " values in " + t.v.label + " = " + n(v_row_bytes) + " bytes" : std::string(" ; no V: MLA reads V from the latent")) +
            ") per layer" + (a.global_head_dim > 0 ? " (sliding); global layers K and V " + n(global_row) + " values each" : "") +
            (v_padded ? "; -fa off: every V row padded to the widest layer's, " + n(v_row) + " values" : "");
    if (a.sliding_window > 0)
        steps += swa_full ? "; sliding-window layers full size (--swa-full)"
                          : "; sliding-window layers keep GGML_PAD(min(" + n(cells_per_stream) + ", " + n(a.sliding_window) + " x " +
                                n(r.unified ? r.n_seq : 1) + " + " + n(r.n_ubatch) + "), 256) = " + n(swa_cells) + " cells";
    return out;
}

// Compute-buffer phases at n_ubatch (ggml-alloc reuses memory, so a buffer is the largest phase it runs).
struct Phases {
    std::uint64_t tokens = 0;       // min(n_ctx, n_ubatch)
    std::uint64_t attention = 0;
    std::uint64_t ffn = 0;
    std::uint64_t output = 0;
    std::string attention_steps, ffn_steps, output_steps;
};

Phases phases(const Architecture& a, const Resolved& r) {
    Phases p;
    const std::uint64_t t = std::min(r.n_ctx, r.n_ubatch);
    p.tokens = t;
    const std::uint64_t n_kv = r.unified ? r.n_ctx : r.n_ctx / r.n_seq;
    const std::uint64_t h = a.hidden_size;
    const std::uint64_t hidden4 = 4 * h * t * kF32;  // input, norm, Q and the attention output, f32
    // The KQ mask is a graph input, allocated before every layer's tensors: the f32 mask, and with flash
    // attention its f16 cast, which every layer reads. Both count in every phase. ggml-alloc frees the f32
    // mask once cast, but its 8 MiB (Qwen3-0.6B at -c 4096) sit at the buffer's start, where a buffer's
    // size is its high-water mark: the measured buffers of gguf-parser-go#45 hold both.
    const std::uint64_t mask = n_kv * t * (r.flash_attn ? kF32 + 2 : kF32);
    const std::string mask_steps = "mask " + n(n_kv) + " x " + n(t) + (r.flash_attn ? " x (4 + 2)" : " x 4");
    if (r.flash_attn) {
        p.attention = mask + hidden4;
        p.attention_steps = "flash attention: " + mask_steps + " bytes + 4 x " + n(h) + " x " + n(t) + " x 4";
    } else {
        const std::uint64_t kq = n_kv * t * a.num_attention_heads * kF32;
        p.attention = kq + mask + hidden4;
        p.attention_steps = "KQ scores " + n(n_kv) + " x " + n(t) + " x " + n(a.num_attention_heads) + " heads x 4 + " + mask_steps +
                            " + 4 x " + n(h) + " x " + n(t) + " x 4";
    }
    // The feed-forward's live set at its widest (llama-graph.cpp build_ffn / build_moe_ffn): the residual
    // (ffn_inp) beside up, gate and their SwiGLU product; the normed input is freed once up and gate are
    // made. Routed experts keep k columns each: up, gate and their product (GGML_OP_GLU cannot run in place,
    // ggml-alloc.c ggml_op_can_inplace). Freeing up and gate leaves a 2 x ff x k hole under the product; the
    // down projection's k outputs (h wide) take it when they fit (h <= 2 x ff: OLMoE, Mixtral), and otherwise go
    // on top with the hole still below them (ggml_dyn_tallocr_alloc's best fit: Granite 3.0 3B-A800M, h 1,536 over
    // ff 512, measured at 61.04 MiB). A shared block then runs beside the routed sum and its input.
    std::uint64_t width = 0;
    if (a.is_moe()) {
        const std::uint64_t k = std::max<std::uint64_t>(a.num_experts_per_tok, 1);
        const std::uint64_t routed_ff = a.moe_intermediate_size * k;
        const std::uint64_t shared_ff = a.shared_expert_intermediate_size;
        const bool down_on_top = h > 2 * a.moe_intermediate_size;
        const std::uint64_t routed = h + (shared_ff > 0 ? h : 0) + 3 * routed_ff + (down_on_top ? h * k : 0);
        const std::string routed_steps = n(h) + (shared_ff > 0 ? " x 2" : "") + " + 3 x " + n(routed_ff) +
                                         (down_on_top ? " + the down outputs " + n(h) + " x " + n(k) + " experts (wider than the freed gate and up)" : std::string());
        width = std::max(routed, shared_ff > 0 ? 2 * h + 3 * shared_ff : 0);
        p.ffn_steps = n(t) + (shared_ff > 0 ? " x max(" + routed_steps + ", shared: 2 x " + n(h) + " + 3 x " + n(shared_ff) + ")"
                                            : " x (" + routed_steps + ")") + " x 4";
    } else {
        width = h + 3 * a.intermediate_size;
        p.ffn_steps = n(t) + " x (" + n(h) + " + 3 x " + n(a.intermediate_size) + ") x 4";
    }
    p.ffn = mask + t * width * kF32;
    p.ffn_steps = mask_steps + " + " + p.ffn_steps;
    const std::uint64_t rows = output_rows(r, t);
    p.output = rows * (a.vocab_size + a.hidden_size) * kF32;
    p.output_steps = (rows == t ? "logits of one u-batch " : "logits of the " + std::string(rows == 1 ? "row" : "rows") + " reserved (n_outputs_max) ") +
                     n(rows) + " x (" + n(a.vocab_size) + " vocab + " + n(a.hidden_size) + ") x 4";
    return p;
}

struct Inputs {
    const Scenario* s;
    const Architecture* a;
    WeightLayout w;
    KvTypes types;
    std::uint64_t gpu_count = 1;
    std::uint64_t capacity = 0;
    std::string gpu_label;
    bool ollama = false;
    Overrides overrides;
    // The speculative-decoding drafter (-md): its model, weight bytes and cache types.
    std::shared_ptr<const ModelSource> draft;
    std::uint64_t draft_weight_bytes = 0;
    std::string draft_format;
    KvTypes draft_types;
    // MTP drafting (--spec-type draft-mtp): the model's MTP layers, their bytes in the weights' format.
    std::uint64_t mtp_layers = 0;
    std::uint64_t mtp_weight_bytes = 0;
    // The vision projector (--mmproj): its f16 weights and its clip graph's compute buffer, on GPU 0 unless
    // --no-mmproj-offload (then host RAM).
    bool projector = false;
    bool projector_on_gpu = true;  // --mmproj-offload, or Ollama's own choice (llm/llama_server.go shouldDisableMMProjOffload)
    std::uint64_t projector_weight_bytes = 0;
    std::uint64_t projector_compute_bytes = 0;  // 0: not modelled for this family
    std::string projector_weight_steps, projector_compute_steps;
    std::uint64_t fit_margin = kFitMarginBytes;  // what --fit keeps free on every GPU: --fit-target, or Ollama's
};

// The projector's clip graph, reserved once at the encoder's warm-up size (tools/mtmd/clip.cpp warmup,
// reserve_compute_meta): Gemma 3's SigLIP and Llama 4's tiles at their own image_size; Pixtral and Gemma 4 at 256
// output tokens (set_warmup_n_tokens(256): 16 x merge patches a side); the Qwen ViTs at 46 x 46 merged tokens (92 x 92
// patches); Voxtral's audio encoder at 3,000 mel frames (1,500 positions). Qwen3.5's tower is converted as Qwen3-VL's
// (mmproj qwen3vl_merger) and built by its graph, without the deepstack mergers.
//
// The buffer is ggml-alloc's high-water mark, always inside the first layers: f32 activations of N positions E wide
// ("slots" of 4 x E x N bytes), plus what the allocator cannot reuse. Flash attention off, the peak is one layer's f32
// scores (heads x N^2) beside Q and K after RoPE, V made contiguous and the residual; on, the feed-forward: the
// residual, the freed slots it cannot fill, then gate, up and their product (a gated MLP: 12 x F x N) or the one
// up-projection (GELU in place: 4 x F x N). Under Pixtral, Llama 4 and Gemma 4's 26B/31B the f32 input image (12 x
// patch^2 bytes a patch, narrower than a slot) stays a hole below everything; the int32 positions and Pixtral's
// [IMG_BREAK] row (text width x rows) live throughout. Each rule reproduces clip.cpp's buffer to the byte: measured on
// llama.cpp d32676d's CPU backend with synthetic mmproj files at 2 to 7 sizes a family (73 figures, bench/mmproj),
// and against published logs (tests/core/engines_test.cpp). Qwen3-VL's deepstack mergers keep the layers they read
// until the final concatenation (below).
namespace {

// One clip graph of a columns x rows patch grid (the rule above); 0 for a tower whose widths are not read.
std::uint64_t clip_graph_bytes(const VisionTower& t, std::uint64_t text_width, bool flash_attn, std::uint64_t columns, std::uint64_t rows,
                               const std::string& grid, std::string& steps) {
    const std::uint64_t e = t.hidden_size, f = t.intermediate_size, h = t.attention_heads, p = t.patch_size;
    if (e == 0 || f == 0 || (p == 0 && t.kind != VisionKind::voxtral)) return 0;
    auto a32 = [](std::uint64_t x) { return (x + 31) / 32 * 32; };
    const std::uint64_t patches = columns * rows;
    std::uint64_t pos = patches, base = 0, slots_off = 4, slots_on = 3, ffn = 4 * f;
    const char* beside = "the input image and positions";
    switch (t.kind) {
        case VisionKind::gemma3_siglip:  // the transposed input projection (f16) takes the freed image's place
            slots_off = 6;
            break;
        case VisionKind::llama4:  // plus the class token
            pos = patches + 1;
            base = 12 * p * p * patches + 2 * a32(4 * pos);
            break;
        case VisionKind::mistral3_pixtral:
        case VisionKind::llava_pixtral:  // the [IMG_BREAK] row: text width x rows of merged tokens
            base = 12 * p * p * patches + 2 * a32(4 * patches) + 4 * text_width * (rows / t.merge_size);
            ffn = 12 * f;
            beside = "the input image, positions and the [IMG_BREAK] rows";
            break;
        case VisionKind::gemma4:
            ffn = 12 * f;
            slots_off = 5;
            base = 2 * a32(4 * patches);
            if (12 * p * p >= 4 * e) {  // the image's slot is reused (E2B, E4B)
                slots_on = 1;
                if (flash_attn) base += 12 * p * p * patches;
            } else {  // 26B, 31B: one and a half slots more stay free
                slots_on = 2;
                base += 12 * p * p * patches + (flash_attn ? 0 : 2 * e * patches);
            }
            beside = "positions, the input image or the slots it frees";
            break;
        case VisionKind::voxtral:
            pos = 1500;
            break;
        case VisionKind::qwen2_5_vl:  // positions, the f32 window mask and its f16 copy; gate and up sit in the freed mask's room
            base = 12 * p * p * patches + 2 * a32(patches) + 16 * patches + 4 * patches * patches + (flash_attn ? 2 * patches * patches : 0);
            slots_off = 5;
            slots_on = 4;
            beside = "the input image, positions and the window mask";
            break;
        case VisionKind::qwen3_5:
        case VisionKind::qwen3_vl: {
            // Qwen3-VL's graph concatenates its deepstack mergers' outputs last, so the layers they read stay allocated:
            // one slot more after each (the peak moves to the last layer), beside a 3-slot hole the fused QKV leaves.
            // With flash attention the peak is the attention (fused QKV live), the feed-forward, or, when a merger's
            // f32 output (text width x N / 4) outgrows the freed input image's hole, the mergers' outputs and their
            // concatenations stacked on four slots. Qwen3.5's tower has no mergers.
            const std::uint64_t d = t.deepstack_mergers, w = t.out_hidden_size;
            base = 12 * p * p * patches + a32(16 * patches);
            slots_off = d + 7;
            slots_on = d + 6;
            if (flash_attn) {
                const std::uint64_t attention = (d + 6) * 4 * e * patches, feed_forward = (d + 2) * 4 * e * patches + 4 * f * patches;
                const std::uint64_t tail = d > 0 && w > 12 * p * p + 16 ? 16 * e * patches + w * patches * d * (d + 1) / 2 : 0;
                const std::uint64_t peak = std::max({attention, feed_forward, tail});
                steps = "flash attention on, at " + grid + " + " + n(base) + " bytes beside them (" + beside + "): " +
                        (peak == tail ? "4 x " + n(patches) + " x " + n(e) + " x 4 + the " + n(d) + " deepstack outputs and their concatenations, " +
                                            n(d * (d + 1) / 2) + " x " + n(patches / 4) + " x " + n(w) + " x 4"
                         : peak == attention ? n(d + 6) + " x " + n(patches) + " x " + n(e) + " x 4 (the attention, " + n(d) + " layers kept for the deepstack mergers)"
                                             : n(d + 2) + " x " + n(patches) + " x " + n(e) + " x 4 + " + n(patches) + " x " + n(f) + " x 4 (the feed-forward)");
                return base + peak;
            }
            break;
        }
        case VisionKind::none:
            return 0;
    }
    const std::string at = grid + (base > 0 ? " + " + n(base) + " bytes beside them (" + beside + ")" : "");
    const std::uint64_t feed = slots_on * 4 * e * pos + ffn * pos + base;
    const std::string feed_steps = n(slots_on) + " x " + n(pos) + " x " + n(e) + " x 4 + " + n(ffn / f) + " x " + n(pos) + " x " + n(f) + " x 4";
    if (flash_attn) {
        steps = "flash attention on, the feed-forward phase at " + at + ": " + feed_steps;
        return feed;
    }
    const std::uint64_t scores = h * pos * pos * kF32 + slots_off * 4 * e * pos + base;
    if (feed > scores) {
        steps = "flash attention off; the feed-forward phase outgrows the scores at " + at + ": " + feed_steps;
        return feed;
    }
    steps = "flash attention off, one layer's attention at " + at + ": scores " + n(h) + " heads x " + n(pos) + " x " + n(pos) + " x 4 + " + n(slots_off) + " x " +
            n(pos) + " x " + n(e) + " x 4";
    return scores;
}

}  // namespace

std::uint64_t projector_compute_bytes(const VisionTower& t, const Scenario& s, std::uint64_t text_width, bool flash_attn, std::string& steps) {
    // The warm-up grid, in patches a side.
    std::uint64_t side = t.patch_size > 0 ? t.image_size / t.patch_size : 0;
    std::string grid;
    switch (t.kind) {
        case VisionKind::llama4: grid = " and the class token"; break;
        case VisionKind::mistral3_pixtral:
        case VisionKind::llava_pixtral:
        case VisionKind::gemma4:
            side = 16 * t.merge_size;
            grid = ", 256 output tokens";
            break;
        case VisionKind::qwen2_5_vl:
        case VisionKind::qwen3_5:
        case VisionKind::qwen3_vl:
            side = 46 * t.merge_size;
            grid = ", 46 x 46 merged tokens";
            break;
        default: break;
    }
    grid = t.kind == VisionKind::voxtral ? "3,000 mel frames, 1,500 positions"
                                         : n(side * side + (t.kind == VisionKind::llama4 ? 1 : 0)) + " positions (" + n(side) + " x " + n(side) + " patches" + grid + ")";
    std::uint64_t bytes = clip_graph_bytes(t, text_width, flash_attn, side, side, grid, steps);
    // A larger image than the warm-up's grows the buffer when it is encoded (ggml_backend_sched reserves again): the
    // towers llama.cpp resizes to a grid of its own (Pixtral, the Qwen ViTs, Gemma 4's up to 280 tokens) at the user's
    // image size.
    const bool dynamic = t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::llava_pixtral || t.kind == VisionKind::qwen2_5_vl ||
                         t.kind == VisionKind::qwen3_5 || t.kind == VisionKind::qwen3_vl || t.kind == VisionKind::gemma4;
    if (bytes > 0 && dynamic && s.image_count > 0 && s.image_width > 0 && s.image_height > 0) {
        const ImageGrid g = image_grid(t, s.image_width, s.image_height, image_processor(s));
        const std::uint64_t columns = g.columns * t.merge_size, rows = g.rows * t.merge_size;
        std::string image_steps;
        const std::uint64_t image = clip_graph_bytes(t, text_width, flash_attn, columns, rows,
                                                     n(columns * rows) + " positions (" + n(columns) + " x " + n(rows) + " patches of one " + n(s.image_width) +
                                                         " x " + n(s.image_height) + " image, " + n(g.columns) + " x " + n(g.rows) + " tokens)",
                                                     image_steps);
        if (image > bytes) {
            steps = image_steps + "; the warm-up reserved " + n(bytes) + " bytes, and encoding the larger image grows it";
            bytes = image;
        }
    }
    if (t.kind == VisionKind::gemma4 && t.audio && bytes > 0) {
        // The E2B/E4B file also holds the audio encoder, a second clip context with its own graph (models/gemma4a.cpp),
        // reserved for 3,000 mel frames (30 s), 750 positions after two stride-2 convolutions. Its peak is the second
        // convolution's unfolded f16 input beside the first one's f32 output, the freed mel input, the relative positions
        // and the chunked attention's mask, with or without flash attention (it does its own chunked attention). For
        // Gemma4AudioConfig's shapes, which E2B and E4B ship (1,024 wide; 128 and 32 subsampling channels; 128 mel bins):
        // 4 x 3,000 x 128 + 4 x 1,024 x 13 + 4 x 24 x 12 x 63 + 4 x 64 x 1,500 x 128 + 2 x 9 x 128 x 32 x 750 bytes.
        constexpr std::uint64_t kGemma4Audio = 4 * 3000 * 128 + 4 * 1024 * 13 + 4 * 24 * 12 * 63 + 4 * 64 * 1500 * 128 + 2 * 9 * 128 * 32 * 750;
        bytes += kGemma4Audio;
        steps += "; + the audio encoder's graph at 3,000 mel frames (750 positions): " + n(kGemma4Audio) + " bytes";
    }
    return bytes;
}

// -ngl as llama.cpp counts it: the output layer, then blocks from the last back. A GGUF that keeps MTP layers counts
// them as its last blocks (block_count includes them; src/llama-model.cpp i_gpu_start over n_layer_all), so with --mtp
// they come right after the output layer, where llm-memory places them.
std::uint64_t printed_ngl(const Inputs& in, const Resolved& r) { return r.ngl + (r.ngl > 0 ? in.mtp_layers : 0); }

Layout lay_out(const Inputs& in, const Resolved& r, std::vector<std::string>* settings) {
    const Scenario& s = *in.s;
    const Architecture& a = *in.a;
    const std::uint64_t layers = a.num_hidden_layers;
    const std::uint64_t gpus = in.gpu_count;
    const SplitMode mode = gpus > 1 ? s.engine.split_mode : SplitMode::none;
    Layout out;
    out.devices.resize(static_cast<std::size_t>(gpus + 1));
    for (std::uint64_t g = 0; g < gpus; ++g) {
        EngineDevice& d = out.devices[static_cast<std::size_t>(g)];
        d.device = "gpu" + std::to_string(g);
        d.label = "GPU " + std::to_string(g) + (in.gpu_label.empty() ? "" : " (" + in.gpu_label + ")");
        d.is_gpu = true;
        d.capacity_bytes = in.capacity;
    }
    EngineDevice& host = out.devices.back();
    host.device = "host";
    host.label = "Host RAM";

    // Split points: cumulative shares (-ts, else even: llama.cpp splits by free memory, equal on equal cards).
    std::vector<long double> splits(static_cast<std::size_t>(gpus), 0);
    long double sum = 0;
    for (std::uint64_t g = 0; g < gpus; ++g) {
        const long double share = s.tensor_split.size() == gpus ? static_cast<long double>(s.tensor_split[static_cast<std::size_t>(g)].micros) : 1.0L;
        sum += share;
        splits[static_cast<std::size_t>(g)] = sum;
    }
    for (long double& x : splits) x /= sum;
    const std::uint64_t ngl = r.ngl;
    const std::uint64_t i_gpu_start = layers + 1 > ngl ? layers + 1 - ngl : 0;
    const std::uint64_t act = std::min(ngl, layers + 1);
    // The device of layer il (il == layers: the output layer); gpus = host. src/llama-model.cpp load_tensors.
    auto device_of = [&](std::uint64_t il) -> std::uint64_t {
        if (gpus == 0 || il < i_gpu_start || il - i_gpu_start >= act) return gpus;
        if (mode != SplitMode::layer) return 0;  // row and none: the main GPU holds the layer's other tensors
        const long double x = static_cast<long double>(il - i_gpu_start) / static_cast<long double>(act);
        const auto it = std::upper_bound(splits.begin(), splits.end(), x);
        return static_cast<std::uint64_t>(std::min<std::ptrdiff_t>(it - splits.begin(), static_cast<std::ptrdiff_t>(gpus - 1)));
    };

    // Model buffers.
    std::vector<std::uint64_t> model(static_cast<std::size_t>(gpus + 1), 0);
    std::vector<std::uint64_t> layers_on(static_cast<std::size_t>(gpus + 1), 0);
    std::uint64_t host_experts = 0;
    std::uint64_t largest_host_layer = 0;  // the largest layer left on the CPU, copied in when its ops are offloaded
    std::uint64_t largest_kept = 0;        // the largest tensor an override keeps in host RAM from an offloaded layer
    std::string largest_kept_name;
    for (std::uint64_t il = 0; il < layers; ++il) {
        const std::uint64_t dev = device_of(il);
        const std::uint64_t bytes = in.w.layer_bytes[static_cast<std::size_t>(il)];
        if (dev == gpus) largest_host_layer = std::max(largest_host_layer, bytes);
        if (mode == SplitMode::row && dev < gpus) {
            // Row split: every matrix is cut by rows over the GPUs in -ts proportion (norms stay on the main GPU).
            long double prev = 0;
            for (std::uint64_t g = 0; g < gpus; ++g) {
                const long double share = splits[static_cast<std::size_t>(g)] - prev;
                prev = splits[static_cast<std::size_t>(g)];
                model[static_cast<std::size_t>(g)] += static_cast<std::uint64_t>(static_cast<long double>(bytes) * share);
            }
        } else {
            // Tensor overrides keep their tensors of an offloaded layer in host RAM (CPU_Mapped with mmap).
            const std::uint64_t kept = dev < gpus ? std::min(in.overrides.cpu_bytes[static_cast<std::size_t>(il)], bytes) : 0;
            model[static_cast<std::size_t>(dev)] += bytes - kept;
            model[static_cast<std::size_t>(gpus)] += kept;
            host_experts += kept;
            if (kept > 0 && in.overrides.cpu_largest[static_cast<std::size_t>(il)] > largest_kept) {
                largest_kept = in.overrides.cpu_largest[static_cast<std::size_t>(il)];
                largest_kept_name = in.overrides.cpu_largest_name[static_cast<std::size_t>(il)];
            }
        }
        layers_on[static_cast<std::size_t>(dev)] += 1;
    }
    const std::uint64_t out_dev = device_of(layers);
    const bool tied = in.w.output_bytes == 0;
    // A tied output copies token_embd alone (Gemma 4's per-layer embedding table stays with the input layer).
    const std::uint64_t output_weight = tied ? in.w.token_embd_bytes - in.w.per_layer_embd_bytes : in.w.output_bytes;
    model[static_cast<std::size_t>(out_dev)] += output_weight + in.w.output_norm_bytes;
    model[static_cast<std::size_t>(gpus)] += in.w.token_embd_bytes + in.w.other_bytes;  // the input layer stays on the CPU

    // KV per layer on its layer's device (row split: the main GPU).
    std::uint64_t swa_cells = 0;
    std::string kv_steps;
    const std::vector<std::uint64_t> kv = kv_bytes_per_layer(a, r, in.types, s.engine.swa_full, swa_cells, kv_steps);
    std::vector<std::uint64_t> kv_on(static_cast<std::size_t>(gpus + 1), 0);
    std::vector<std::uint64_t> attention_on(static_cast<std::size_t>(gpus + 1), 0);
    std::vector<std::uint64_t> recurrent_on(static_cast<std::size_t>(gpus + 1), 0);
    for (std::uint64_t il = 0; il < layers; ++il) {
        kv_on[static_cast<std::size_t>(device_of(il))] += kv[static_cast<std::size_t>(il)];
        // Nemotron-H's MLP-only blocks keep neither a KV cache nor a recurrent state; Falcon-H1's layers keep both
        // (llama_memory_hybrid: every layer in the KV cache and in the RS buffer).
        if (a.layer_is_attention(il) && il + a.kv_shared_layers < layers) attention_on[static_cast<std::size_t>(device_of(il))] += 1;
        if (a.layer_is_recurrent(il)) recurrent_on[static_cast<std::size_t>(device_of(il))] += 1;
    }
    // Recurrent layers (Gated DeltaNet, Mamba, short conv): llama.cpp's RS buffer, per layer an f32 R (conv)
    // and S (state) row for each of n_seq_max sequences (src/llama-memory-recurrent.cpp, n_embd_r/n_embd_s).
    const RecurrentStateValues rs = recurrent_state_values(a);
    const std::uint64_t rs_layer_bytes = (rs.conv_values + rs.ssm_values) * kF32 * r.n_seq;

    const Phases p = phases(a, r);
    const std::uint64_t gpu_layers_total = layers - layers_on[static_cast<std::size_t>(gpus)];
    // Op offload (ggml-backend.cpp, ggml_backend_sched_backend_id_from_cur): an op whose weights sit in host
    // memory runs on the first GPU when that GPU takes it (CUDA: a batch of at least 32), so a partial
    // offload computes its CPU layers on GPU 0 with their weights copied into its compute buffer, and the
    // host's compute buffer keeps only the graph's inputs. -ngl 0 is read as a CPU-only run: the CPU computes.
    // The whole layer's weights are counted, as Ollama issue 4139's build of April 2024 allocated; a current
    // build's split per weight (below) may hold one tensor at a time: no current log to check it against.
    const bool op_offload = gpus > 0 && ngl > 0 && layers_on[static_cast<std::size_t>(gpus)] > 0 && p.tokens >= kOpOffloadMinBatch;
    // The same rule for the tensors an override keeps in host RAM (the experts of --n-cpu-moe, -ot exps=CPU):
    // with CUDA a host buffer (CPU_Mapped, CUDA_Host), so each matmul on one of them runs on GPU 0 with the
    // tensor copied in. The scheduler starts a new split at every such weight so that the next copy reuses
    // the last one's memory (ggml_backend_sched_split_graph, pass 5): one tensor at a time, the largest.
    const bool kept_offload = gpus > 0 && largest_kept > 0 && p.tokens >= kOpOffloadMinBatch;
    for (std::uint64_t g = 0; g <= gpus; ++g) {
        EngineDevice& d = out.devices[static_cast<std::size_t>(g)];
        const bool is_host = g == gpus;
        const std::uint64_t count = layers_on[static_cast<std::size_t>(g)];
        const bool has_output = out_dev == g;
        if (model[static_cast<std::size_t>(g)] > 0 || !is_host) {
            std::string steps;
            if (!is_host) {
                steps = n(count) + (count == 1 ? " layer" : " layers") + (has_output ? " + the output layer (" + n(output_weight) + " bytes" +
                                                                                         (tied ? ", a copy of the tied token_embd" : "") + ")" : "");
                if (mode == SplitMode::row) steps = "row split: its -ts share of every offloaded layer" + std::string(has_output ? " + the output layer" : "");
            } else {
                steps = "token_embd " + n(in.w.token_embd_bytes) + " bytes (the input layer stays on the CPU)" +
                        (count > 0 ? " + " + n(count) + " layers not offloaded" : "") + (has_output ? " + the output layer" : "") +
                        (host_experts > 0 ? " + " + n(host_experts) + " bytes of offloaded layers' tensors kept here (" + in.overrides.steps + ")" : "") +
                        (s.engine.mmap ? "; memory-mapped from the file (CPU_Mapped)" : "; --no-mmap: read into RAM");
            }
            d.terms.push_back({"model_buffer", "Model buffer", steps, model[static_cast<std::size_t>(g)], EngineTermKind::weights});
        }
        if (kv_on[static_cast<std::size_t>(g)] > 0)
            d.terms.push_back({"kv_buffer", "KV buffer", n(attention_on[static_cast<std::size_t>(g)]) + (rs.layers > 0 ? " attention layers: " : " layers: ") + kv_steps,
                               kv_on[static_cast<std::size_t>(g)], EngineTermKind::kv_cache});
        if (const std::uint64_t rec = recurrent_on[static_cast<std::size_t>(g)]; rec > 0 && rs_layer_bytes > 0)
            d.terms.push_back({"rs_buffer", "RS buffer",
                               n(rec) + " recurrent layers x (R " + n(rs.conv_values) + " + S " + n(rs.ssm_values) + " values) x 4 bytes (f32) x " + n(r.n_seq) +
                                   (r.n_seq == 1 ? " sequence" : " sequences (n_seq_max)"),
                               rec * rs_layer_bytes, EngineTermKind::kv_cache});
        if (!is_host) {
            // A GPU with no layer and not the output's (-ngl 0, or fewer layers than cards) computes nothing:
            // the output layer is the first one -ngl offloads, so a partial offload has it on a GPU.
            if (count == 0 && !has_output) continue;
            // Every GPU of a split reserves its own compute buffer for the phases it runs.
            std::uint64_t bytes = std::max(p.attention, p.ffn);
            std::string steps = "max(attention: " + p.attention_steps + ", feed-forward: " + p.ffn_steps;
            if (has_output) {
                bytes = std::max(bytes, p.output);
                steps += ", output: " + p.output_steps;
            }
            if (g == 0 && op_offload) {
                const std::uint64_t copied = std::max(p.attention, p.ffn) + largest_host_layer;
                bytes = std::max(bytes, copied);
                steps += ", a CPU layer run here (op offload): its weights " + n(largest_host_layer) + " bytes copied in + its largest phase";
            }
            if (g == 0 && kept_offload) {
                bytes = std::max(bytes, p.ffn + largest_kept);
                steps += ", a host-RAM tensor's matmul run here (op offload): " + largest_kept_name + " " + n(largest_kept) +
                         " bytes copied in + the feed-forward phase";
            }
            steps += ") at n_ubatch " + n(p.tokens) + " tokens";
            d.terms.push_back({"compute_buffer", "Compute buffer", steps, bytes, EngineTermKind::compute});
            d.terms.push_back({"cuda_context", "CUDA context", "CUDA context and cuBLAS workspace (Ollama's allowance per CUDA GPU: 457 MiB)",
                               kCudaContextBytes, EngineTermKind::other});
            d.reserved_bytes = in.fit_margin;  // --fit keeps this free on the device
        } else {
            const std::uint64_t n_kv = r.unified ? r.n_ctx : r.n_ctx / r.n_seq;
            std::uint64_t inputs = a.hidden_size * p.tokens * kF32 + n_kv * p.tokens * kF32;
            std::string steps = "inputs: embeddings " + n(a.hidden_size) + " x " + n(p.tokens) + " x 4 + mask " + n(n_kv) + " x " + n(p.tokens) + " x 4";
            if (a.sliding_window > 0 && swa_cells > 0) {
                inputs += swa_cells * p.tokens * kF32;
                steps += " + sliding mask " + n(swa_cells) + " x " + n(p.tokens) + " x 4";
            }
            std::uint64_t bytes = inputs;
            if (op_offload) {
                steps += " (the " + n(count) + " CPU layers" + (has_output ? " and the output layer" : "") +
                         " compute on GPU 0: llama.cpp's op offload at a batch of " + n(p.tokens) + ")";
            } else if (count > 0 || has_output) {
                std::uint64_t cpu_phase = count > 0 ? std::max(p.attention, p.ffn) : 0;
                if (has_output) cpu_phase = std::max(cpu_phase, p.output);
                bytes += cpu_phase;
                steps += " + the largest phase of the layers computed on the CPU";
            }
            d.terms.push_back({"host_compute_buffer", gpus > 0 ? "Host compute buffer" : "CPU compute buffer", steps, bytes, EngineTermKind::compute});
            const std::uint64_t output = r.n_seq * a.vocab_size * kF32;
            d.terms.push_back({"output_buffer", "Output buffer", "logits of " + n(r.n_seq) + (r.n_seq == 1 ? " sequence" : " sequences") + " x " +
                                                                     n(a.vocab_size) + " vocab x 4 bytes",
                               output, EngineTermKind::other});
        }
    }
    // The drafter (-md): its own model buffer, a second KV cache at the target's n_ctx in its cache type
    // (-ctkd, default f16) and its own compute buffer, on GPU 0 (-ngld offloads it whole by default).
    if (in.draft) {
        const Architecture& da = in.draft->architecture;
        EngineDevice& d = out.devices[gpus > 0 ? 0 : static_cast<std::size_t>(gpus)];
        const std::string name = in.draft->display_name;
        d.terms.push_back({"draft_model_buffer", "Draft model buffer",
                           name + ": " + n(in.draft->counts.total_count) + " parameters in " + in.draft_format, in.draft_weight_bytes,
                           EngineTermKind::weights});
        std::uint64_t draft_swa = 0;
        std::string draft_steps;
        const std::vector<std::uint64_t> dkv = kv_bytes_per_layer(da, r, in.draft_types, s.engine.swa_full, draft_swa, draft_steps);
        std::uint64_t dkv_total = 0;
        for (std::uint64_t b : dkv) dkv_total += b;
        d.terms.push_back({"draft_kv_buffer", "Draft KV buffer",
                           n(da.num_hidden_layers) + " drafter layers at the target's context: " + draft_steps, dkv_total, EngineTermKind::kv_cache});
        const Phases dp = phases(da, r);
        d.terms.push_back({"draft_compute_buffer", "Draft compute buffer",
                           "the drafter's own graph: max(attention: " + dp.attention_steps + ", feed-forward: " + dp.ffn_steps + ", output: " +
                               dp.output_steps + ")",
                           std::max({dp.attention, dp.ffn, dp.output}), EngineTermKind::compute});
    }
    // MTP drafting: the MTP layers load after the model's last layer and go with the output layer (common/fit.cpp counts
    // them in -ngl). The MTP draft context keeps a plain KV cache of those layers at the target's cells, in the
    // drafter's cache type (src/llama-model.cpp create_memory: mtp_on_hybrid_qwen; -ctkd, default f16), and reserves
    // its one-layer graph with -np rows of logits (common/speculative.cpp, ggml-org/llama.cpp#23988).
    if (in.mtp_layers > 0) {
        EngineDevice& d = out.devices[static_cast<std::size_t>(out_dev)];
        d.terms.push_back({"mtp_buffer", "MTP layers", n(in.mtp_layers) + " MTP layer" + (in.mtp_layers == 1 ? "" : "s") +
                                                           " in the weights' format (the model's MTP module)",
                           in.mtp_weight_bytes, EngineTermKind::weights});
        std::uint64_t mtp_swa = 0;
        std::string mtp_steps;
        std::uint64_t layer_kv = 0;
        for (std::uint64_t b : kv_bytes_per_layer(a, r, in.draft_types, false, mtp_swa, mtp_steps)) layer_kv = std::max(layer_kv, b);
        d.terms.push_back({"mtp_kv_buffer", "MTP KV buffer", n(in.mtp_layers) + " MTP layer" + (in.mtp_layers == 1 ? "" : "s") + ": " + mtp_steps,
                           layer_kv * in.mtp_layers, EngineTermKind::kv_cache});
        Resolved m = r;
        m.outputs_max = s.engine.outputs_all ? 0 : r.n_seq;  // n-outputs-max all: a u-batch of logits, as before PR #23988
        const Phases mp = phases(a, m);
        d.terms.push_back({"mtp_compute_buffer", "MTP compute buffer",
                           "its one-layer graph: max(attention: " + mp.attention_steps + ", feed-forward: " + mp.ffn_steps + ", output: " + mp.output_steps + ")",
                           std::max({mp.attention, mp.ffn, mp.output}), EngineTermKind::compute});
    }
    // The vision projector (llama-server / llama-mtmd-cli --mmproj): mtmd puts the clip model and its graph on
    // the first GPU (--no-mmproj-offload: the CPU), and llama-server adds both to --fit's target for that device.
    if (in.projector) {
        const bool on_gpu = gpus > 0 && in.projector_on_gpu;
        EngineDevice& d = out.devices[on_gpu ? 0 : static_cast<std::size_t>(gpus)];
        d.terms.push_back({"mmproj_buffer", "Projector weights (mmproj)", in.projector_weight_steps, in.projector_weight_bytes, EngineTermKind::weights});
        if (in.projector_compute_bytes > 0)
            d.terms.push_back({"mmproj_compute_buffer", "Projector compute buffer", in.projector_compute_steps, in.projector_compute_bytes,
                               EngineTermKind::compute});
    }
    for (EngineDevice& d : out.devices) {
        const std::uint64_t margin = d.reserved_bytes;
        finish_device(d);
        d.reserved_bytes = d.total_bytes + margin;
        if (d.is_gpu && d.capacity_bytes > 0) judge_device(d, d.total_bytes, d.capacity_bytes);
    }
    if (settings != nullptr) {
        const std::uint64_t n_stream = r.unified ? 1 : r.n_seq;
        settings->push_back("n_ctx " + n(r.n_ctx) + (r.context_from_model ? " (the model's training context)" : "") +
                            (n_stream > 1 ? " = " + n(n_stream) + " slots x " + n(r.n_ctx / n_stream) : r.n_seq > 1 ? ", one unified cache for " + n(r.n_seq) + " slots" : ""));
        settings->push_back("n_batch " + n(r.n_batch) + ", n_ubatch " + n(r.n_ubatch) + (p.tokens < r.n_ubatch ? " (graph reserved at " + n(p.tokens) + " tokens: n_ctx is smaller)" : ""));
        settings->push_back("logits reserved for " + n(output_rows(r, p.tokens)) + " of the u-batch's " + n(p.tokens) + " rows" +
                            (s.engine.outputs_all ? " (n_outputs_max = n_batch: libllama's default, and llama-server before May 2026)"
                             : s.engine.n_outputs_max > 0 ? " (n_outputs_max " + n(s.engine.n_outputs_max) + ")"
                                                          : " (llama-server: -np x (1 + the drafter's tokens per step))"));
        settings->push_back("-ngl " + n(printed_ngl(in, r)) + ": " + n(gpu_layers_total) + " of " + n(layers) + " layers on the GPU" +
                            (in.mtp_layers > 0 && r.ngl > 0 ? " + the MTP layer" + std::string(in.mtp_layers == 1 ? "" : "s") : std::string()) +
                            (out_dev < gpus ? " + the output layer" : ", output layer on the CPU") + "; token_embd on the CPU");
        settings->push_back(std::string("flash attention ") + (r.flash_attn ? "on" : "off") + ", K cache " + ggml_kv_name(in.types.k.key) + ", V cache " + ggml_kv_name(in.types.v.key));
        if (in.overrides.any) settings->push_back("tensor overrides: " + in.overrides.steps + "; of offloaded layers " + n(host_experts) + " bytes stay in host RAM");
        if (gpus > 1) settings->push_back(std::string("split mode ") + (mode == SplitMode::layer ? "layer" : mode == SplitMode::row ? "row" : "none") +
                                          (s.tensor_split.size() == gpus ? ", -ts " + [&] { std::string t; for (const Decimal& d : s.tensor_split) t += (t.empty() ? "" : ",") + format_decimal(d); return t; }() : ", even split"));
    }
    return out;
}

bool gpus_fit(const Layout& l, std::uint64_t margin) {
    for (const EngineDevice& d : l.devices)
        if (d.is_gpu && d.capacity_bytes > 0 && d.total_bytes + margin > d.capacity_bytes) return false;
    return true;
}

std::string command_line(const Scenario& s, const Resolved& r, const Inputs& in, bool ollama) {
    const std::string model = s.model->preset_key.empty() ? "model.gguf" : s.model->preset_key + ".gguf";
    if (ollama) {
        std::string cmd = "OLLAMA_NUM_PARALLEL=" + std::to_string(r.n_seq);
        if (s.engine.flash_attn == Switch::on) cmd += " OLLAMA_FLASH_ATTENTION=1";
        if (s.kv_dtype != "fp16") cmd += std::string(" OLLAMA_KV_CACHE_TYPE=") + ggml_kv_name(s.kv_dtype);
        if (s.engine.fit_target_set) cmd += " LLAMA_ARG_FIT_TARGET=" + std::to_string(s.engine.fit_target_mib);
        cmd += " ollama serve  # then a request with options {\"num_ctx\": " + std::to_string(r.n_ctx / std::max<std::uint64_t>(r.unified ? 1 : r.n_seq, 1)) +
               ", \"num_batch\": " + std::to_string(r.n_batch) + ", \"num_gpu\": " + std::to_string(r.ngl) + "}";
        return cmd;
    }
    std::string cmd = "llama-server -m " + model + " -c " + std::to_string(r.n_ctx) + " -ngl " + std::to_string(printed_ngl(in, r));
    cmd += std::string(" -fa ") + (r.flash_attn ? "on" : "off");
    if (r.n_batch != kDefaultBatch) cmd += " -b " + std::to_string(r.n_batch);
    if (r.n_ubatch != kDefaultUbatch) cmd += " -ub " + std::to_string(r.n_ubatch);
    if (s.kv_dtype != "fp16") cmd += std::string(" -ctk ") + ggml_kv_name(in.types.k.key);
    if (in.types.v.key != "fp16") cmd += std::string(" -ctv ") + ggml_kv_name(in.types.v.key);
    if (s.engine.parallel > 0) cmd += " -np " + std::to_string(r.n_seq);
    if (s.engine.kv_unified == Switch::on && s.engine.parallel > 0) cmd += " --kv-unified";
    if (s.engine.kv_unified == Switch::off && s.engine.parallel == 0) cmd += " -np 4 --no-kv-unified";
    if (in.gpu_count > 1) {
        if (s.engine.split_mode == SplitMode::row) cmd += " -sm row";
        if (s.engine.split_mode == SplitMode::none) cmd += " -sm none";
        if (s.tensor_split.size() == in.gpu_count) {
            std::string ts;
            for (const Decimal& d : s.tensor_split) ts += (ts.empty() ? "" : ",") + format_decimal(d);
            cmd += " -ts " + ts;
        }
    }
    if (s.engine.cpu_moe_all) cmd += " --cpu-moe";
    else if (s.engine.n_cpu_moe > 0) cmd += " --n-cpu-moe " + std::to_string(s.engine.n_cpu_moe);
    if (!s.engine.override_tensor.empty()) cmd += " -ot \"" + s.engine.override_tensor + "\"";
    if (in.draft) {
        // Since llama.cpp PR #23988 (June 2026) -md drafts only under --spec-type draft-simple.
        cmd += " -md " + (s.engine.draft_file ? s.engine.draft_model : in.draft->preset_key + ".gguf") + " --spec-type draft-simple";
    }
    if (in.mtp_layers > 0) cmd += " --spec-type draft-mtp";
    if (in.draft || in.mtp_layers > 0) {  // the drafter's (or the MTP context's) cache type and tokens a step
        if (!s.engine.draft_kv_dtype.empty()) cmd += std::string(" -ctkd ") + ggml_kv_name(s.engine.draft_kv_dtype) + " -ctvd " + ggml_kv_name(s.engine.draft_kv_dtype);
        if (s.engine.draft_max > 0) cmd += " --spec-draft-n-max " + std::to_string(s.engine.draft_max);
    }
    if (in.projector)
        cmd += " --mmproj " +
               (s.engine.mmproj_file ? s.engine.mmproj_file->name : "mmproj-" + (s.model->preset_key.empty() ? std::string("model") : s.model->preset_key) + "-f16.gguf") +
               (s.engine.mmproj_offload ? "" : " --no-mmproj-offload");
    if (s.engine.image_min_tokens > 0) cmd += " --image-min-tokens " + std::to_string(s.engine.image_min_tokens);
    if (s.engine.image_max_tokens > 0) cmd += " --image-max-tokens " + std::to_string(s.engine.image_max_tokens);
    if (s.engine.fit_target_set) cmd += " -fitt " + std::to_string(s.engine.fit_target_mib);
    if (s.engine.swa_full) cmd += " --swa-full";
    if (!s.engine.mmap) cmd += " --no-mmap";
    return cmd;
}

// Where the projector goes and the margin --fit keeps for it. llama.cpp: GPU 0 unless --no-mmproj-offload, and
// llama-server adds the projector's weights and graph to --fit's target for that device (tools/server/server-context.cpp,
// mtmd_get_memory_usage): here they are GPU 0's own terms. Ollama decides itself (llm/llama_server.go
// shouldDisableMMProjOffload): host RAM under num_gpu 0, under a num_gpu that leaves layers on the CPU, or when a GPU
// holds less than the projector's weights + 1 GiB; on the GPU it raises --fit's margin to those bytes in MiB
// (LLAMA_ARG_FIT_TARGET, mmprojFitTargetMiB) unless the environment sets one.
void place_projector(Inputs& in, std::vector<std::string>& notes, VisionKind kind) {
    const Scenario& s = *in.s;
    const EngineSettings& e = s.engine;
    constexpr std::uint64_t kOllamaProjectorHeadroom = 1024 * kMiB;  // mmprojOffloadHeadroom
    std::string where = "--no-mmproj-offload";
    in.projector_on_gpu = e.mmproj_offload;
    if (in.ollama) {
        const std::uint64_t needed = in.projector_weight_bytes + kOllamaProjectorHeadroom;
        const bool explicit_layers = !e.ngl_auto && !e.ngl_all;  // num_gpu set below the layers + 1 Ollama counts
        in.projector_on_gpu = !explicit_layers && !(in.capacity > 0 && in.capacity < needed);
        where = explicit_layers ? (e.ngl_layers == 0 ? "num_gpu 0" : "num_gpu " + n(e.ngl_layers) + " leaves layers on the CPU")
                                : "the GPU holds less than its weights + 1 GiB (" + n(needed / kMiB) + " MiB)";
        if (in.projector_on_gpu && in.gpu_count > 0 && !e.fit_target_set) in.fit_margin = (needed + kMiB - 1) / kMiB * kMiB;
    }
    const bool on_gpu = in.projector_on_gpu && in.gpu_count > 0;
    if (!on_gpu) in.projector_weight_steps += in.gpu_count > 0 ? "; in host RAM (" + where + ")" : "; in host RAM";
    const std::string who = "The " + std::string(kind == VisionKind::voxtral ? "audio" : "vision") + " projector (--mmproj" +
                            (in.ollama ? ", which Ollama passes for a model with one)" : ")");
    if (in.projector_compute_bytes == 0)
        notes.push_back(std::string("The projector's own compute buffer for ") + vision_kind_name(kind) + " is not counted: the config does not give the encoder's widths.");
    else
        notes.push_back(who + " is a second model: its weights and its own compute buffer for one " + (kind == VisionKind::voxtral ? "30 s chunk, " : "image, ") +
                        (!on_gpu ? "in host RAM (" + (in.gpu_count > 0 ? where : std::string("no GPU")) + ")."
                         : in.ollama && !e.fit_target_set ? "on GPU 0, counted in --fit's target as llama-server does; Ollama also raises --fit's margin to the projector's weights + 1 GiB (LLAMA_ARG_FIT_TARGET=" +
                                                                std::to_string(in.fit_margin / kMiB) + ")."
                                                          : "on GPU 0, counted in --fit's target as llama-server does."));
}

// The drafter's cache type, which the MTP context takes too: -ctkd and -ctvd (draft-kv-dtype, default f16; common/arg.cpp),
// a quantized V only with flash attention, as llama.cpp requires of every cache.
Expected<KvTypes> draft_cache_types(const Scenario& s) {
    Scenario dk = s;
    dk.kv_dtype = s.engine.draft_kv_dtype.empty() ? "fp16" : s.engine.draft_kv_dtype;
    dk.engine.v_dtype.clear();
    const Expected<KvTypes> t = kv_types(dk);
    if (!t) return Error{"draft-kv-dtype", t.error()};
    if (s.engine.flash_attn == Switch::off && t->v.key != "fp16" && t->v.key != "bf16" && t->v.key != "fp32")
        return Error{"draft-kv-dtype", "llama.cpp: V cache quantization requires flash_attn (-fa on)"};
    return t;
}

}  // namespace

Expected<EngineEstimate> llama_cpp_estimate(const Scenario& s) {
    const bool ollama = s.engine.kind == EngineKind::ollama;
    if (!s.model) return Error{"engine", std::string(ollama ? "Ollama" : "llama.cpp") + " needs the model's architecture: give --model, --config or --gguf"};
    const Architecture& a = s.model->architecture;
    if (a.num_hidden_layers == 0 || a.hidden_size == 0 || a.num_attention_heads == 0 || a.vocab_size == 0)
        return Error{"engine", "the model's architecture lacks layers, width, heads or vocabulary size"};
    if (const Expected<WeightFormat> f = find_weight_format(s.dtype); f && f->linear_only && !f->experts_only)
        return Error{"dtype", std::string(ollama ? "Ollama" : "llama.cpp") + " loads GGUF files, not " + f->label.substr(0, f->label.find(' ')) +
                                  " checkpoints: pick a GGUF type such as q4_k_m, or run the checkpoint with --engine vllm"};
    const Expected<Estimate> e = estimate(s);
    if (!e) return e.failure();
    const Expected<KvTypes> types = kv_types(s);
    if (!types) return types.failure();

    Inputs in;
    in.s = &s;
    in.a = &a;
    in.ollama = ollama;
    in.types = *types;
    EngineEstimate out;
    out.kind = s.engine.kind;
    out.name = ollama ? "Ollama" : "llama.cpp";
    out.version = ollama ? "Ollama on llama-server (since ollama PR #16031) with llama.cpp b9993-b10437; num_ctx 4096, num_batch 512, one slot"
                         : "llama.cpp b9993-b10437 (common/common.h defaults; src/llama-model.cpp placement)";
    in.w = weight_layout(s, *e, out.notes);
    Expected<Overrides> overrides = tensor_overrides(s, in.w, a.num_hidden_layers);
    if (!overrides) return overrides.failure();
    in.overrides = std::move(*overrides);
    if (!s.engine.draft_model.empty()) {
        if (ollama) return Error{"draft-model", "Ollama has no draft-model flag: choose --engine llama.cpp"};
        Scenario d = s;
        d.engine = EngineSettings{};
        if (s.engine.draft_file) {  // -md FILE: the file's architecture, exact counts and tensor bytes
            if (!s.engine.draft_dtype.empty()) return Error{"draft-dtype", "a drafter file holds its own format: leave --draft-dtype out"};
            const Expected<bool> model = apply_file_model(d, *s.engine.draft_file);
            if (!model) return Error{"draft-model", model.error()};
            if (!d.model) return Error{"draft-model", "the drafter file gives no architecture (a GGUF model file is needed)"};
        } else if (const Expected<bool> model = apply_setting(d, "model", s.engine.draft_model); !model) {
            return Error{"draft-model", model.error()};
        }
        if (!s.engine.draft_dtype.empty()) {
            const Expected<bool> dtype = apply_setting(d, "dtype", s.engine.draft_dtype);
            if (!dtype) return Error{"draft-dtype", dtype.error()};
        }
        const Expected<Estimate> de = estimate(d);
        if (!de) return Error{"draft-model", de.error()};
        if (!d.model) return Error{"draft-model", "the drafter has no architecture"};
        const Architecture& da = d.model->architecture;
        // common/speculative.cpp: the target and the drafter must share a vocabulary (SPEC_VOCAB_MAX_SIZE_DIFFERENCE 128).
        const std::uint64_t va = a.vocab_size, vb = da.vocab_size;
        if ((va > vb ? va - vb : vb - va) > 128)
            return Error{"draft-model", "llama.cpp refuses a drafter whose vocabulary differs from the target's by more than 128 tokens (" +
                                            n(va) + " vs " + n(vb) + ")"};
        if (!da.layer_mixers.empty()) return Error{"draft-model", "a hybrid drafter's recurrent state is not modelled"};
        in.draft = d.model;
        in.draft_weight_bytes = de->weight_bytes;
        const Expected<WeightFormat> df = find_weight_format(d.dtype);
        in.draft_format = s.engine.draft_file ? "the file's tensors, " + n(d.file_weight_bytes) + " bytes"
                          : df                ? df->label
                                              : format_decimal(d.bytes_per_param) + " bytes per parameter";
        const Expected<KvTypes> dt = draft_cache_types(s);
        if (!dt) return dt.failure();
        in.draft_types = *dt;
        out.notes.push_back("The drafter (" + d.model->display_name + ") is a second model in memory: its weights, its own KV cache at the "
                            "target's full context (not a small one) and its own compute buffer.");
    }
    // MTP drafting: llama.cpp loads the MTP layers of Qwen3-Next and Qwen3.5 only under --spec-type draft-mtp
    // (src/models/qwen35.cpp, qwen3next.cpp: TENSOR_SKIP unless load_mtp, ggml-org/llama.cpp#26296); GLM-4.5's NextN
    // layer is always skipped (glm4-moe.cpp) and DeepSeek's is left out of the GGUF at conversion.
    if (s.engine.mtp) {
        if (ollama) return Error{"mtp", "Ollama drafts with MTP layers only when a model's options set draft_num_predict: choose --engine llama.cpp"};
        if (s.model->counts.mtp_count == 0 || a.num_nextn_predict_layers == 0)
            return Error{"mtp", "the model has no MTP layers to draft with (num_nextn_predict_layers)"};
        if (a.family != ModelFamily::qwen3_next)
            return Error{"mtp", "llama.cpp drafts with the MTP layers of Qwen3-Next and Qwen3.5 among llm-memory's models; it skips GLM-4.5's NextN "
                                "layer and DeepSeek's MTP layer is not in its GGUF"};
        if (in.draft) return Error{"mtp", "one drafter at a time is modelled: --draft-model or --mtp"};
        in.mtp_layers = a.num_nextn_predict_layers;
        const MemoryTerm* module = find_term(*e, "mtp_weight");
        if (module == nullptr) return Error{"mtp", "the model's MTP module is counted only at its own parameter count (--params unchanged)"};
        in.mtp_weight_bytes = module->bytes;
        const Expected<KvTypes> mt = draft_cache_types(s);
        if (!mt) return mt.failure();
        in.draft_types = *mt;
        out.notes.push_back("MTP drafting loads the model's " + n(in.mtp_layers) + " MTP layer" + (in.mtp_layers == 1 ? "" : "s") +
                            " (left in the file otherwise) beside the output layer, with a draft context of its own: a KV cache of those layers at the "
                            "target's cells and its graph.");
    }
    // Ollama starts llama-server with --mmproj whenever the model has a projector: its own layer in the manifest, or
    // the v.* tensors of an older Ollama GGUF (llm/llama_server.go NewLlamaServerRunner, appendMMProjArgs). It has no
    // flag to leave it out, to move it or to bound an image's tokens.
    const bool ollama_projector = ollama && !a.text_only && a.vision.kind != VisionKind::none;
    VisionKind projector_kind = VisionKind::none;
    if (ollama) {
        if (s.engine.mmproj)
            return Error{"mmproj", "Ollama loads a model's projector itself, without a flag (counted here whenever the model has one): choose --engine llama.cpp for a file of your own"};
        if (!s.engine.mmproj_offload)
            return Error{"mmproj-offload", "Ollama decides where the projector goes itself (host RAM when num_gpu leaves layers on the CPU, or a GPU is "
                                           "smaller than the projector's weights + 1 GiB): choose --engine llama.cpp"};
        if (s.engine.image_min_tokens > 0 || s.engine.image_max_tokens > 0)
            return Error{s.engine.image_min_tokens > 0 ? "image-min-tokens" : "image-max-tokens",
                         "Ollama starts llama-server with its own image bounds (at least 1,024 tokens for Qwen-VL, the model's otherwise): choose --engine llama.cpp"};
    }
    if (s.engine.mmproj || ollama_projector) {
        const ProjectorFile* file = s.engine.mmproj_file.get();
        const VisionTower& t = file != nullptr ? file->tower : a.vision;
        if (Status problem = mtmd_limits_problem(t, image_processor(s))) return *problem;
        if (t.kind == VisionKind::none)
            return Error{"mmproj", "the model has no vision tower (vision_config) for a projector file: choose a multimodal model, or give the mmproj file"};
        if (a.text_only && file == nullptr) return Error{"mmproj", "--text-only leaves the vision tower out: turn one of them off"};
        // mtmd_init_from_file: "mismatch between text model (n_embd = ...) and mmproj (n_embd = ...)".
        if (file != nullptr && t.out_hidden_size > 0 && a.hidden_size > 0 && t.out_hidden_size != a.hidden_size)
            return Error{"mmproj", file->name + " hands the model " + n(t.out_hidden_size) + "-wide embeddings (its projection_dim) and the model is " +
                                       n(a.hidden_size) + " wide: llama.cpp refuses the pair (\"mismatch between text model and mmproj\"); give the model's own mmproj file"};
        in.projector = true;
        if (file != nullptr) {
            // The file's own tensors, whatever their types (an f16, bf16 or q8_0 mmproj).
            in.projector_weight_bytes = file->weight_bytes;
            in.projector_weight_steps = file->name + " (" + file->projector_type + ", " + vision_kind_name(t.kind) + "): " + n(t.encoder_count) +
                                        " parameters in " + n(file->weight_bytes) + " bytes, as the file stores them";
        } else {
            // mmproj files are written in f16 (convert_hf_to_gguf.py --mmproj, its default outtype); llama.cpp has no
            // flag to convert them at load.
            in.projector_weight_bytes = t.total() * 2;
            in.projector_weight_steps = std::string(vision_kind_name(t.kind)) + ": " + n(t.encoder_count) + " encoder + " + n(t.projector_count) +
                                        " projector parameters x 2 bytes (f16, the mmproj file's type; the few small tensors a file keeps in f32 are not told apart)";
        }
        const bool fa = s.engine.flash_attn != Switch::off;
        const std::uint64_t text_width = file != nullptr && t.out_hidden_size > 0 ? t.out_hidden_size : a.hidden_size;
        in.projector_compute_bytes = projector_compute_bytes(t, s, text_width, fa, in.projector_compute_steps);
        projector_kind = t.kind;
    }
    if (s.engine.draft_max > 0 && !in.draft && in.mtp_layers == 0)
        out.notes.push_back("--draft-max " + n(s.engine.draft_max) + " changes nothing without a drafter (--draft-model): llama-server reserves one row of logits a slot.");
    if (ollama && in.overrides.any)
        return Error{s.engine.override_tensor.empty() ? "n-cpu-moe" : "override-tensor", "Ollama has no flag for tensor overrides: choose --engine llama.cpp"};
    if (in.overrides.bytes > 0)
        out.notes.push_back("Routed experts kept in host RAM run at system-memory bandwidth: each token reads its active experts of those "
                            "layers from RAM (CPU), not from VRAM, so generation slows as more expert layers stay on the CPU.");
    in.gpu_count = s.gpu_count;
    if (!s.gpu.empty()) {
        const Expected<Gpu> g = find_gpu(s.gpu);
        if (g) {
            in.capacity = g->capacity_bytes;
            in.gpu_label = g->label;
        }
    }
    if (s.gpu_memory_bytes > 0) {
        in.capacity = s.gpu_memory_bytes;
        in.gpu_label = "custom " + format_bytes_binary(s.gpu_memory_bytes);
    }
    if (in.projector) place_projector(in, out.notes, projector_kind);
    if (s.engine.fit_target_set) in.fit_margin = s.engine.fit_target_mib * kMiB;

    Resolved r;
    r.n_seq = s.engine.parallel > 0 ? s.engine.parallel : ollama ? 1 : kServerSlots;
    r.unified = s.engine.kv_unified == Switch::on || (s.engine.kv_unified == Switch::automatic && s.engine.parallel == 0 && !ollama);
    if (r.n_seq == 1) r.unified = true;
    r.flash_attn = s.engine.flash_attn != Switch::off;
    if (!r.flash_attn && types->v.key != "fp16" && types->v.key != "bf16" && types->v.key != "fp32")
        return Error{"v-dtype", "llama.cpp: V cache quantization requires flash_attn (-fa on)"};
    r.n_batch = s.engine.nbatch_tokens > 0 ? s.engine.nbatch_tokens : ollama ? kOllamaBatch : kDefaultBatch;
    r.n_ubatch = std::min(s.engine.ubatch_tokens > 0 ? s.engine.ubatch_tokens : kDefaultUbatch, r.n_batch);
    // llama-server caps the logits rows at what its slots sample: -np x (1 + the drafter's tokens per step)
    // (tools/server/server-context.cpp server_output_limits, common_speculative_get_output_limits; PR #23861,
    // May 2026). libllama's default, and every build before, reserves a whole u-batch of logits.
    if (!s.engine.outputs_all)
        r.outputs_max = s.engine.n_outputs_max > 0 ? s.engine.n_outputs_max : r.n_seq * (1 + (in.draft || in.mtp_layers > 0 ? draft_tokens(s) : 0));
    std::uint64_t ctx = s.context_tokens;
    r.context_from_model = false;
    if (ctx == 0) {
        ctx = ollama ? kOllamaContext : a.max_position_embeddings > 0 ? a.max_position_embeddings : kFitMinContext;
        r.context_from_model = !ollama && a.max_position_embeddings > 0;
    }
    const std::uint64_t n_stream = r.unified ? 1 : r.n_seq;
    auto set_ctx = [&](std::uint64_t c) {
        // llama.cpp pads n_ctx to 256 cells; without a unified cache each of the -np streams gets n_ctx / np.
        std::uint64_t per_stream = pad_up(std::max<std::uint64_t>(c / n_stream, 1), kCellPad);
        if (!r.unified) per_stream = std::max<std::uint64_t>(c / n_stream / kCellPad * kCellPad, kCellPad);
        r.n_ctx = per_stream * n_stream;
    };
    set_ctx(ctx);
    r.n_batch = std::min(r.n_batch, r.n_ctx);
    const std::uint64_t all = a.num_hidden_layers + 1;
    r.ngl = s.engine.ngl_auto || s.engine.ngl_all ? all : std::min(s.engine.ngl_layers, all);

    // ggml-org's gpt-oss GGUFs (and LM Studio's) keep attention, embeddings and head in Q8_0, not 16 bits: the 20b's
    // file is 11.27 GiB (4.63 BPW) where the 16-bit rest gives 12.82 GiB; unsloth's F16 files match the latter.
    if (s.dtype == "mxfp4" && !s.model->layout.known)
        out.notes.push_back("MXFP4 experts with the rest in 16 bits, as unsloth's F16 GGUFs and Ollama's blobs store gpt-oss; ggml-org's files keep "
                            "the rest in Q8_0 (the 20b: 11.27 GiB, not 12.82): drop the GGUF file to count its tensors as they are.");
    else if (a.family == ModelFamily::gpt_oss && !s.model->layout.known && (s.dtype.empty() || s.dtype == "bf16" || s.dtype == "fp16"))
        out.notes.push_back(std::string(ollama ? "Ollama's gpt-oss blobs" : "gpt-oss's GGUFs") + " store the experts in MXFP4: --dtype mxfp4, or drop the GGUF file.");
    // --fit (when -ngl and -c are left to it and the GPUs' capacity is known): first the context, down to
    // 4096, then the layers, back to front, until every GPU keeps the 1024 MiB margin free.
    // llama.cpp's --fit leaves the user's tensor overrides alone and does not search then (common/fit.cpp).
    const bool fit = s.engine.ngl_auto && in.capacity > 0 && !in.overrides.any;
    if (s.engine.ngl_auto && in.capacity > 0 && in.overrides.any)
        out.notes.push_back("With tensor overrides (--n-cpu-moe, --cpu-moe, -ot) llama.cpp's --fit does not search: every layer is offloaded unless -ngl says otherwise.");
    if (fit && !gpus_fit(lay_out(in, r, nullptr), in.fit_margin)) {
        const std::uint64_t asked_ctx = r.n_ctx;
        if (s.context_tokens == 0 && !ollama && r.n_ctx > kFitMinContext) {
            std::uint64_t lo = kFitMinContext, hi = r.n_ctx;
            set_ctx(lo);
            if (gpus_fit(lay_out(in, r, nullptr), in.fit_margin)) {
                while (hi - lo > kCellPad * n_stream) {
                    const std::uint64_t mid = (lo + hi) / 2 / (kCellPad * n_stream) * (kCellPad * n_stream);
                    set_ctx(mid);
                    if (gpus_fit(lay_out(in, r, nullptr), in.fit_margin)) lo = mid;
                    else hi = mid;
                }
            }
            set_ctx(lo);
            out.notes.push_back("--fit lowered the context from " + n(asked_ctx) + " to " + n(r.n_ctx) + " (not below 4096) so every GPU keeps " +
                                n(in.fit_margin / kMiB) + " MiB free.");
            r.context_from_model = false;
        }
        r.n_batch = std::min(s.engine.nbatch_tokens > 0 ? s.engine.nbatch_tokens : kDefaultBatch, r.n_ctx);
        r.n_ubatch = std::min(s.engine.ubatch_tokens > 0 ? s.engine.ubatch_tokens : kDefaultUbatch, r.n_batch);
        if (!gpus_fit(lay_out(in, r, nullptr), in.fit_margin)) {
            std::uint64_t layers_fit = 0;
            for (std::uint64_t k = all; k > 0; --k) {
                r.ngl = k;
                if (gpus_fit(lay_out(in, r, nullptr), in.fit_margin)) {
                    layers_fit = k;
                    break;
                }
            }
            r.ngl = layers_fit;
            out.notes.push_back("--fit offloads " + n(layers_fit) + " of " + n(all) +
                                " layers (-ngl counts the output layer first, then blocks from the last back); the rest run on the CPU.");
        }
    }
    Layout l = lay_out(in, r, &out.settings);
    out.devices = std::move(l.devices);
    out.context_tokens = r.n_ctx;
    out.gpu_layers = r.ngl;
    out.ngl = printed_ngl(in, r);
    out.fit_margin_bytes = in.fit_margin;
    out.layer_count = a.num_hidden_layers;
    out.command = command_line(s, r, in, ollama);
    out.gpu_known = in.capacity > 0;
    if (!in.w.known) out.notes.push_back("llama.cpp keeps token_embd on the CPU at full offload; a tied output is copied to the GPU.");
    finish_estimate(out, s);
    return out;
}

Expected<CpuMoeAnswer> llama_cpp_fewest_cpu_moe(const Scenario& s) {
    if (s.engine.kind != EngineKind::llama_cpp) return Error{"n-cpu-moe", "fit --minimize n-cpu-moe needs --engine llama.cpp (Ollama has no such flag)"};
    if (!s.model) return Error{"n-cpu-moe", "needs the model's architecture: give --model, --config or --gguf"};
    const Architecture& a = s.model->architecture;
    if (!a.is_moe()) return Error{"n-cpu-moe", "the model has no routed experts to keep on the CPU (a dense model: use -ngl)"};
    Scenario t = s;
    t.engine.cpu_moe_all = false;
    if (t.engine.ngl_auto) {  // with overrides llama.cpp's --fit does not search: every layer is offloaded
        t.engine.ngl_auto = false;
        t.engine.ngl_all = true;
    }
    CpuMoeAnswer out;
    const std::uint64_t layers = a.num_hidden_layers;
    auto fits = [](const EngineEstimate& e) {
        for (const EngineDevice& d : e.devices)
            if (d.is_gpu && d.verdict == FitVerdict::does_not_fit) return false;
        return true;
    };
    // The GPU total falls as N grows (each layer's experts leave the GPU): the smallest N that fits, by bisection.
    std::uint64_t lo = 0, hi = layers;
    t.engine.n_cpu_moe = hi;
    Expected<EngineEstimate> at_hi = llama_cpp_estimate(t);
    if (!at_hi) return at_hi.failure();
    if (!at_hi->gpu_known) return Error{"n-cpu-moe", "needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)"};
    auto host_experts = [](const EngineEstimate& e) {
        std::uint64_t b = 0;
        for (const EngineDevice& d : e.devices)
            if (!d.is_gpu)
                for (const EngineTerm& term : d.terms)
                    if (term.key == "model_buffer") b = term.bytes;
        return b;
    };
    if (!fits(*at_hi)) {
        out.n_cpu_moe = layers;
        out.estimate = std::move(*at_hi);
        const EngineDevice& g = out.estimate.devices.front();
        out.sentence = "Even with every layer's routed experts on the CPU (--cpu-moe) GPU 0 needs " + format_gib(g.total_bytes) + " of " +
                       format_gib(g.capacity_bytes) + ": lower the context, the cache type or -ngl.";
        return out;
    }
    EngineEstimate best = std::move(*at_hi);
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        t.engine.n_cpu_moe = mid;
        Expected<EngineEstimate> e = llama_cpp_estimate(t);
        if (!e) return e.failure();
        if (fits(*e)) {
            hi = mid;
            best = std::move(*e);
        } else {
            lo = mid + 1;
        }
    }
    if (hi == 0) {  // the loop may not have run at 0
        t.engine.n_cpu_moe = 0;
        Expected<EngineEstimate> e = llama_cpp_estimate(t);
        if (!e) return e.failure();
        best = std::move(*e);
    }
    out.found = true;
    out.n_cpu_moe = hi;
    out.estimate = std::move(best);
    std::uint64_t fullest = 0, capacity = 0;
    for (const EngineDevice& d : out.estimate.devices)
        if (d.is_gpu && d.total_bytes >= fullest) fullest = d.total_bytes, capacity = d.capacity_bytes;
    if (hi == 0) {
        out.sentence = "Every routed expert fits on the GPU: --n-cpu-moe 0 (the fullest GPU holds " + format_gib(fullest) + " of " + format_gib(capacity) + ").";
        return out;
    }
    // The experts that moved: the host's model buffer less what it holds at N = 0.
    t.engine.n_cpu_moe = 0;
    const Expected<EngineEstimate> none = llama_cpp_estimate(t);
    const std::uint64_t base = none ? host_experts(*none) : 0;
    const std::uint64_t host = host_experts(out.estimate);
    out.expert_bytes = host > base ? host - base : 0;
    out.sentence = "--n-cpu-moe " + n(hi) + ": the routed experts of layers 0-" + n(hi - 1) + " (" + format_gib(out.expert_bytes) +
                   ") stay in host RAM; the fullest GPU then holds " + format_gib(fullest) + " of " + format_gib(capacity) + " (--n-cpu-moe " + n(hi - 1) +
                   " would not fit). Those experts run at system-memory bandwidth: every generated token reads "
                   "its active experts of those layers from RAM, so generation is slower than with every expert in VRAM.";
    return out;
}

}  // namespace llm_memory
