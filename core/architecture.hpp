// A transformer's architecture read from a Hugging Face config.json (config_reader.cpp), and its exact
// parameter count (architecture.cpp).
// Text in (no file I/O), Expected out: malformed, truncated, wrongly typed or absurd configs are errors
// naming the key. Counts are what the checkpoint stores as parameters (not buffers), tied heads once.
// The per-layer linear list is the contract for LoRA and KV-cache figures.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "result.hpp"
#include "vision.hpp"

namespace llm_memory {

// The layouts the counter knows. `generic` is an unknown model_type counted as a Llama-style decoder
// (with warnings naming each assumption).
enum class ModelFamily {
    gpt2,         // GPT-2: Conv1D c_attn/c_proj/c_fc with biases, LayerNorm, learned positions, tied head
    opt,          // OPT: q/k/v/out_proj + fc1/fc2 with biases, LayerNorm, learned positions (+2 rows)
    llama,        // Llama 1/2/3.x (also mistral and qwen2 share this layout, see flags below)
    mistral,      // Mistral: Llama layout, optional sliding window on every layer
    mixtral,      // Mixtral: Llama attention, sparse MoE of w1/w2/w3 experts, linear router "gate"
    qwen2,        // Qwen2/Qwen2.5: Llama layout with q/k/v biases
    qwen2_moe,    // Qwen2-MoE / Qwen1.5-MoE: routed experts + one gated shared expert
    gemma,        // Gemma: Llama layout, head_dim 256, tied head
    gemma2,       // Gemma 2: four norms per layer, alternating sliding/global attention, tied head
    phi3,         // Phi-3: fused qkv_proj and gate_up_proj
    falcon,       // Falcon: fused query_key_value, multi-query or grouped KV, parallel attention/MLP
    deepseek,     // DeepSeek-MoE (v1): shared + routed experts, first_k_dense_replace dense layers
    deepseek_v2,  // DeepSeek-V2/V3/R1, Kimi K2: multi-head latent attention (MLA) + shared/routed experts
    qwen3,        // Qwen3: Llama layout, explicit head_dim, per-head RMSNorm on queries and keys
    qwen3_moe,    // Qwen3-MoE: Qwen3 attention, routed experts (no shared expert), linear router
    llama4,       // Llama 4 text model: interleaved MoE (routed + one shared expert), chunked local attention
    gemma3,       // Gemma 3: four norms per layer, q/k norms, 5 sliding-window layers to 1 global, tied head
    gpt_oss,      // gpt-oss: MoE with biased experts and router, attention sinks, alternating sliding layers
    glm4_moe,     // GLM-4.5: q/k/v biases, DeepSeek-style shared + routed experts, MTP layer beside
    olmo2,        // OLMo 2: norms after attention and MLP, RMSNorm over all query/key heads
    cohere,       // Command-R: parallel attention/MLP, one bias-free LayerNorm per layer, tied head
    granite,      // Granite: Llama layout (scaling multipliers add no parameters)
    qwen3_next,   // Qwen3-Next: Gated DeltaNet layers with gated full attention every 4th layer, MoE + shared expert
    granite_hybrid,  // Granite 4.0-H (granitemoehybrid): Mamba-2 and attention layers, MoE + shared MLP in every layer
    jamba,        // Jamba: Mamba-1 layers with attention every 8th layer, MoE every 2nd layer
    lfm2,         // LFM2: gated short-convolution layers and attention layers with q/k norms
    nemotron_h,   // Nemotron-H: one mixer per block (Mamba-2, attention, or a non-gated relu² MLP), one norm each
    falcon_h1,    // Falcon-H1: attention and a Mamba-2 mixer side by side in every layer, then a SwiGLU feed_forward
    gemma4,       // Gemma 4: sliding and global layers of two head widths (global K = V with attention_k_eq_v), four
                  // norms and a scalar per layer, q/k norms; the 26B-A4B's MoE beside the dense MLP in every layer
    minimax_m2,   // MiniMax-M2: Llama attention with q/k RMSNorms over all heads, Mixtral's experts, a sigmoid router
                  // with a correction bias
    generic,      // unknown model_type: a Llama-style decoder, refused when the config has parts it cannot model
};

// How a decoder layer mixes tokens. Attention layers keep a KV cache that grows with the context; the
// others keep a fixed recurrent state per sequence (a conv window plus, for SSMs, the SSM state).
enum class MixerKind : std::uint8_t {
    attention,       // self-attention (full, sliding or chunked)
    mamba,           // Mamba-1 selective scan (Jamba)
    mamba2,          // Mamba-2 (Granite 4.0-H)
    gated_deltanet,  // Gated DeltaNet linear attention (Qwen3-Next)
    short_conv,      // LFM2's gated short convolution
    none,            // no token mixer: a block that holds only an MLP (Nemotron-H's '-' blocks); no KV, no state
    parallel,        // attention and the model's recurrent mixer (RecurrentShape::kind) side by side (Falcon-H1):
                     // the layer keeps a KV cache and a recurrent state
};

// The sizes of a model's recurrent layers (all its recurrent layers are of one kind). Element counts.
// One scheme for all kinds, as llama.cpp's GGUF keys hold them (ssm_d_inner, ssm_d_state, ssm_n_group,
// ssm_d_conv): the conv window is (conv_kernel - 1) x (d_inner + 2 x n_groups x d_state) values and the
// SSM state d_inner x d_state values per sequence.
struct RecurrentShape {
    MixerKind kind = MixerKind::attention;  // attention: the model has no recurrent layers
    std::uint64_t d_inner = 0;      // Mamba: intermediate width; Mamba-2: heads x head_dim; GDN: value heads x
                                    // value head dim; short conv: hidden_size
    std::uint64_t d_state = 0;      // SSM state per channel (GDN: the key head dim); 0 for a short conv
    std::uint64_t n_groups = 0;     // Mamba-2 B/C groups; GDN: key heads; Mamba-1 and short conv: 0
    std::uint64_t n_heads = 0;      // Mamba-2 heads; GDN value heads
    std::uint64_t conv_kernel = 0;  // mamba_d_conv / linear_conv_kernel_dim / conv_L_cache
    std::uint64_t dt_rank = 0;      // Mamba-1 time-step rank
    bool conv_bias = false;         // the depthwise conv has a bias
    bool proj_bias = false;         // in_proj/out_proj have biases
    bool out_proj_bias = false;     // Falcon-H1: out_proj's bias (projectors_bias), apart from in_proj's (proj_bias)
    bool gated_norm = true;         // Mamba-2's gated RMSNorm over d_inner (Falcon-H1: only with mamba_rms_norm)
    std::uint64_t ssm_state_bytes = 0;  // the config's mamba_ssm_dtype / mamba_ssm_cache_dtype: 4 float32, 2 for 16
                                        // bits; 0 when it names none (vLLM then keeps the state in the model's dtype)
    // Values per sequence of one recurrent layer.
    std::uint64_t conv_state_values() const {
        return conv_kernel > 0 ? (conv_kernel - 1) * (d_inner + 2 * n_groups * d_state) : 0;
    }
    std::uint64_t ssm_state_values() const { return d_inner * d_state; }
    // Bytes of one SSM state value in vLLM: the config's dtype, else the model's (`model_bytes`).
    std::uint64_t vllm_ssm_value_bytes(std::uint64_t model_bytes) const { return ssm_state_bytes > 0 ? ssm_state_bytes : model_bytes; }
};

// Whether `family` is one of `families`.
inline bool is_one_of(ModelFamily family, std::initializer_list<ModelFamily> families) {
    for (ModelFamily f : families)
        if (f == family) return true;
    return false;
}

// Normalisation layers: RMSNorm stores a weight vector, LayerNorm a weight and a bias.
// Cohere's LayerNorm keeps a weight and no bias.
enum class NormKind { rms_norm, layer_norm, layer_norm_no_bias };

// Rotary position embedding as the config writes it (rope_scaling, or transformers 5's rope_parameters;
// partial_rotary_factor / rotary_pct). It changes no parameter count: engines that keep a cos/sin table
// (vLLM) size it from these. `type` is the config's own word ("default", "linear", "dynamic", "yarn",
// "llama3", "longrope", "mrope", ...). Which families have no rotary embedding at all (GPT-2 and OPT learn their
// positions; Jamba and Nemotron-H have none) is the engine's to say from the family.
struct RopeSettings {
    bool rotary = true;                  // false: position_embedding_type "nope" (Granite 4.0-H)
    std::string type = "default";
    double factor = 0;                   // rope_scaling.factor (linear, dynamic, yarn); 0 when the config gives none
    bool alpha = false;                  // dynamic NTK by alpha (Hunyuan): the table keeps max_position rows
    std::uint64_t original_positions = 0;  // original_max_position_embeddings (yarn, longrope)
    double partial = 1;                  // the fraction of head_dim that rotates
};

// Everything the counters need from a config.json, with per-family defaults already applied.
// Sizes are element counts (not bytes). Zero means "absent / not used" for the optional groups.
struct Architecture {
    std::string model_type;             // as written in the config ("llama", "qwen2_moe", ...)
    ModelFamily family = ModelFamily::generic;

    // Standard decoder fields (legacy names are accepted: n_embd, n_layer, n_head, n_positions, ...).
    std::uint64_t hidden_size = 0;          // d_model
    std::uint64_t num_hidden_layers = 0;    // decoder layers (DeepSeek-V3's MTP layer not included)
    std::uint64_t num_attention_heads = 0;  // query heads
    std::uint64_t num_key_value_heads = 0;  // KV heads (== num_attention_heads without GQA; 1 for MQA)
    std::uint64_t head_dim = 0;             // explicit "head_dim", else hidden_size / num_attention_heads
    std::uint64_t intermediate_size = 0;    // dense MLP width (GPT-2 n_inner, OPT ffn_dim; default 4 x hidden)
    std::uint64_t vocab_size = 0;
    std::uint64_t max_position_embeddings = 0;  // context the model was trained for (0 if absent)
    bool tie_word_embeddings = false;       // output head shares the embedding matrix (counted once)

    // Layout flags (set from the family, overridable by the config's own keys where it has them).
    NormKind norm_kind = NormKind::rms_norm;
    std::uint64_t norms_per_layer = 2;      // Gemma 2 has 4; Falcon 1 (parallel) or 2
    bool gated_mlp = true;                  // gate/up/down (SwiGLU/GeGLU) vs fc1/fc2
    bool qkv_bias = false;                  // biases on q/k/v (Qwen2, GPT-2, OPT, attention_bias)
    bool out_proj_bias = false;             // bias on o_proj / dense / c_proj
    bool mlp_bias = false;                  // biases on the MLP linears
    std::uint64_t position_embedding_rows = 0;  // learned absolute positions (GPT-2 n_positions, OPT max+2)
    std::uint64_t word_embed_proj_dim = 0;  // OPT: embedding width when != hidden (adds project_in/out)
    bool parallel_attn = false;             // Falcon: attention and MLP read the same input
    bool has_final_norm = true;             // OPT without do_layer_norm_before has none
    // Gemma 4's full-attention (global) layers: their own head width and KV heads; with attention_k_eq_v they have
    // no v_proj (V is K before its norm). 0: as the other layers.
    std::uint64_t global_head_dim = 0;
    std::uint64_t global_kv_heads = 0;
    bool attention_k_eq_v = false;
    // Gemma 4 E2B/E4B: per-layer input embeddings (PLE: a vocab x layers x width table, its projection from the
    // hidden state, and a gate, projection and norm in each layer), the last kv_shared_layers layers reading an
    // earlier layer's KV cache (their own K/V weights still stored), and a doubled MLP in those layers.
    std::uint64_t per_layer_input_size = 0;
    std::uint64_t per_layer_input_vocab = 0;
    std::uint64_t kv_shared_layers = 0;
    bool double_wide_shared_mlp = false;
    std::uint64_t qk_norm_count = 0;        // q/k norm weights in one layer (Qwen3, Gemma 3: 2 x head_dim;
                                            // OLMo 2: (heads + kv_heads) x head_dim); counted as attention
    bool attention_sinks = false;           // gpt-oss: one learned sink logit per query head per layer
    // Dropout in training (it stores masks for the backward pass). From the config's probabilities, else the
    // config class's defaults: GPT-2 0.1 everywhere; OPT dropout 0.1, attention_dropout 0; the rest 0.
    bool hidden_dropout = false;            // resid_pdrop / hidden_dropout / dropout > 0 (after attention and MLP)
    bool attention_dropout = false;         // attn_pdrop / attention_dropout > 0 (on the softmax output)

    // Sliding-window attention. sliding_window == 0: none. sliding_layers[i] is true when decoder layer
    // i attends only to the last sliding_window tokens (Mistral v0.1 and Phi-3: all; Gemma 2: even
    // layers 0, 2, 4, ...; Qwen2 with use_sliding_window: layers from max_window_layers on).
    // Llama 4's chunked local attention is stored here too (window = attention_chunk_size).
    // Per-layer flags are bytes (0 or 1), not std::vector<bool>: its bit-packing code cost the page about
    // 2 KB of wasm for lists of at most a few hundred layers.
    std::uint64_t sliding_window = 0;
    std::vector<std::uint8_t> sliding_layers;
    bool chunked_attention = false;         // Llama 4: the window is a chunk (restarts every chunk) not a slide

    // Mixture of experts. num_experts == 0: dense model.
    std::uint64_t num_experts = 0;             // routed experts per MoE layer (n_routed_experts, num_local_experts)
    std::uint64_t num_experts_per_tok = 0;     // routed experts active per token
    std::uint64_t num_shared_experts = 0;      // DeepSeek n_shared_experts; Qwen2-MoE: 1 when it has one
    std::uint64_t moe_intermediate_size = 0;   // width of one routed expert (Mixtral: intermediate_size)
    std::uint64_t shared_expert_intermediate_size = 0;  // width of the shared block (DeepSeek: moe x n_shared)
    std::uint64_t first_k_dense_replace = 0;   // the first k layers use a dense MLP (DeepSeek)
    std::uint64_t moe_layer_freq = 1;          // every n-th layer after those is MoE (DeepSeek, Qwen2-MoE step)
    std::uint64_t moe_layer_offset = 0;        // Jamba: layer i is MoE when i % moe_layer_freq == this offset
    std::vector<std::uint8_t> dense_mlp_layers;  // Qwen2-MoE mlp_only_layers (extra dense layers), Nemotron-H's MLP
                                                 // blocks beside MoE ones; else empty
    bool router_bias_vector = false;           // DeepSeek-V3 e_score_correction_bias (n_routed params/layer)
    std::uint64_t moe_latent_size = 0;         // Nemotron-H: the routed experts' width in and out (0: hidden_size)
    bool router_bias = false;                  // gpt-oss: the router Linear has a bias
    bool expert_bias = false;                  // gpt-oss: every expert's gate_up and down carry biases

    // Multi-head latent attention (DeepSeek-V2/V3). kv_lora_rank == 0: ordinary attention.
    std::uint64_t q_lora_rank = 0;        // 0: queries use a plain q_proj
    std::uint64_t kv_lora_rank = 0;
    std::uint64_t qk_nope_head_dim = 0;
    std::uint64_t qk_rope_head_dim = 0;
    std::uint64_t v_head_dim = 0;
    std::uint64_t num_nextn_predict_layers = 0;  // DeepSeek-V3 / GLM-4.5 / Qwen3-Next multi-token-prediction modules (not in total)
    bool mtp_from_checkpoint = false;     // Qwen3-Next: config.json does not announce it; the checkpoint stores it

    // Hybrid models: what each decoder layer mixes with (MixerKind as bytes); empty = every layer is attention.
    std::vector<std::uint8_t> layer_mixers;
    RecurrentShape recurrent;             // the recurrent layers' sizes (kind attention when there are none)
    RopeSettings rope;                    // rotary embedding (engines' cos/sin tables; no parameters)
    bool attention_output_gate = false;   // Qwen3-Next: q_proj also yields a per-head output gate (2 x q width)
    bool has_vision_tower = false;        // the config also describes a vision encoder
    VisionTower vision;                   // its encoder and projector counts (kind none without one)
    bool text_only = false;               // count the language model alone (the engines' text-only loading)

    // What was assumed (unknown model_type, missing keys) and what is left out (a vision tower);
    // empty for a fully known text-only config.
    std::vector<std::string> warnings;

    // True for an unknown model_type counted as a Llama-style decoder: the figure is an approximation, and
    // every report says so.
    bool approximate() const { return family == ModelFamily::generic; }
    bool is_moe() const { return num_experts > 0; }
    bool uses_mla() const { return kv_lora_rank > 0; }
    // True when decoder layer `layer` (0-based) has routed experts rather than a dense MLP.
    bool layer_is_moe(std::uint64_t layer) const;
    // How many decoder layers are MoE layers (0 for a dense model).
    std::uint64_t moe_layer_count() const;
    // How many decoder layers use sliding-window attention.
    std::uint64_t sliding_layer_count() const;
    // True when decoder layer `layer` has attention (every layer of a model without layer_mixers; Falcon-H1's
    // parallel layers have attention and a recurrent mixer both).
    bool layer_is_attention(std::uint64_t layer) const;
    // True when decoder layer `layer` has a recurrent mixer (neither attention nor an MLP-only block).
    bool layer_is_recurrent(std::uint64_t layer) const;
    // Attention layers (they keep a KV cache) and recurrent layers (a fixed state per sequence); Nemotron-H's
    // MLP-only blocks are neither, Falcon-H1's parallel layers are both.
    std::uint64_t attention_layer_count() const;
    std::uint64_t recurrent_layer_count() const;
};

// One kind of linear (nn.Linear or GPT-2's Conv1D) inside decoder layers, with its PEFT name.
// LoRA of rank r on this target adds r x (in_features + out_features) x instance_count() parameters.
struct LinearLayer {
    std::string module_path;    // path inside one decoder layer: "self_attn.q_proj", "mlp.experts.*.gate_proj"
    std::string target_name;    // PEFT target_modules name (last path component): "q_proj", "c_attn", "w1"
    const char* part = "";      // breakdown part: "attention", "mlp", "experts", "shared_experts", "router"
    std::uint64_t in_features = 0;
    std::uint64_t out_features = 0;
    bool has_bias = false;
    std::uint64_t layer_count = 0;      // decoder layers that contain it
    std::uint64_t per_layer_count = 1;  // copies per such layer (routed experts: num_experts)
    std::uint64_t instance_count() const { return layer_count * per_layer_count; }
};

// Appends one LinearLayer: `path` inside a decoder layer ("self_attn.q_proj"; its last component is the
// PEFT target name), in x out features, in `layers` layers with `per_layer` copies each. Nothing when
// either count is 0.
void add_linear(std::vector<LinearLayer>& out, std::string path, const char* part, std::uint64_t in,
                std::uint64_t out_features, bool bias, std::uint64_t layers, std::uint64_t per_layer = 1);
// Appends a gated MLP's three linears, in module order: `prefix` + gate_proj and up_proj (in -> width),
// down_proj (width -> in). prefix "mlp." or "mlp.experts.*.".
void add_gated_mlp(std::vector<LinearLayer>& out, const std::string& prefix, const char* part, std::uint64_t in,
                   std::uint64_t width, bool bias, std::uint64_t layers, std::uint64_t per_layer = 1);

// Every linear inside the decoder layers (not embeddings or the output head), in module order.
// Names: Llama-style q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj; GPT-2 c_attn, c_proj
// (twice: attention and MLP), c_fc; OPT q/k/v/out_proj, fc1, fc2; Falcon query_key_value, dense,
// dense_h_to_4h, dense_4h_to_h; Phi-3 qkv_proj, o_proj, gate_up_proj, down_proj; Mixtral experts w1
// (gate), w3 (up), w2 (down) and router "gate"; Qwen2-MoE router "gate" and "shared_expert_gate";
// MLA q_a_proj, q_b_proj (or q_proj), kv_a_proj_with_mqa, kv_b_proj, o_proj. DeepSeek's router
// (MoEGate) is not an nn.Linear and is not listed.
std::vector<LinearLayer> decoder_linear_layers(const Architecture& arch);

// Exact parameter counts by part. total_count is what memory needs (every expert); active_count is
// what one token uses (MoE: shared experts + num_experts_per_tok routed experts + everything else).
struct ParamBreakdown {
    std::uint64_t embedding_count = 0;       // token embeddings + learned positions (+ OPT project_in/out)
    std::uint64_t attention_count = 0;       // q/k/v/o (or fused / MLA) weights and biases, MLA norms
    std::uint64_t mlp_count = 0;             // dense MLP blocks
    std::uint64_t expert_count = 0;          // routed experts, all of them
    std::uint64_t shared_expert_count = 0;   // shared experts (+ Qwen2-MoE shared_expert_gate)
    std::uint64_t router_count = 0;          // routers (gate weights, DeepSeek-V3 correction bias)
    std::uint64_t vision_count = 0;          // vision encoder + projector (0 when text_only or none)
    bool audio_tower = false;                // vision_count is Voxtral's audio encoder and projector
    std::uint64_t recurrent_count = 0;       // Mamba / Gated DeltaNet / short-conv mixers (projections, conv, A, D, dt, norm)
    std::uint64_t norm_count = 0;            // every norm layer, including the final one
    std::uint64_t output_head_count = 0;     // lm_head; 0 when tied to the embeddings
    // Of embedding_count, Gemma 4's per-layer embedding table and its projection (PLE), which a tied head does not
    // copy; 0 otherwise.
    std::uint64_t per_layer_embedding_count = 0;
    std::uint64_t total_count = 0;           // the sum of the parts above
    std::uint64_t active_count = 0;          // per token; equals total_count for dense models
    std::uint64_t mtp_count = 0;             // MTP module weights stored beside (DeepSeek-V3, GLM-4.5, Qwen3-Next; not in total)
    std::uint64_t mtp_table_count = 0;       // of which its own embedding and output-head copies (0 when it shares them)
};

// One row of the breakdown table, in display order; rows with a zero count are left out.
struct BreakdownRow {
    const char* key;    // JSON key: "embeddings", "attention", "mlp", "experts", "shared_experts",
                        // "router", "norms", "output_head"
    const char* label;  // "Embeddings", "Attention", ...
    std::uint64_t count;
};
std::vector<BreakdownRow> breakdown_rows(const ParamBreakdown& breakdown);

// Parses config.json text. Errors name the key: "num_hidden_layers: must be at most 10000 (got 10000000)",
// "hidden_size: must be a whole number", "config.json: not valid JSON (truncated?) at byte 812",
// "config.json: nested deeper than 64 levels". Unknown model_type: a Llama-style estimate plus warnings,
// or, when the config has fields that change the count and that estimate does not model (experts, shared
// experts, a vision tower, layer types other than full/sliding attention, MTP layers, latent attention),
// an error naming those fields: "config.json: model_type \"x\" is not known and ... num_experts (...)".
Expected<Architecture> parse_config(std::string_view json_text);

// Depth of [ and { nesting outside JSON strings (stops counting above 64): checked before any JSON is
// parsed, because the parser recurses per level.
int max_nesting_depth(std::string_view json_text);

// Counts parameters exactly. Error when a part exceeds kMaxParamCount (10^15).
Expected<ParamBreakdown> count_parameters(const Architecture& arch);

// Where a model file's weight bytes sit, by the tensor names llama.cpp places: the decoder layers
// (blk.N.*), the token embeddings, the output head and its norm. Known only from a GGUF header; engines
// derive it from the architecture and the weight format otherwise.
struct WeightLayout {
    bool known = false;
    std::vector<std::uint64_t> layer_bytes;  // blk.N.* bytes, one entry per decoder layer
    std::uint64_t token_embd_bytes = 0;      // token_embd.weight (+ position embeddings, Gemma 4's per-layer table)
    std::uint64_t per_layer_embd_bytes = 0;  // of which Gemma 4's per_layer_token_embd and its projection
    std::uint64_t output_bytes = 0;          // output.weight; 0 when tied (llama.cpp then copies token_embd)
    std::uint64_t output_norm_bytes = 0;     // output_norm.* (travels with the output layer)
    std::uint64_t other_bytes = 0;           // anything else (rope_freqs, ...): kept with the input layer
    // Every blk.N.* tensor by name (a GGUF's own), for llama.cpp's tensor overrides (-ot, --n-cpu-moe).
    struct Tensor {
        std::string name;
        std::uint64_t layer = 0;
        std::uint64_t bytes = 0;
    };
    std::vector<Tensor> layer_tensors;
};

// A model chosen by the user: a preset or a pasted/loaded config.json, with its counts.
// Scenario::model points at one of these (shared, immutable).
struct ModelSource {
    std::string preset_key;   // "llama-2-7b" for a preset; empty for a config.json from the user
    std::string display_name; // "meta-llama/Llama-2-7b-hf" or "config.json (llama)"
    Architecture architecture;
    ParamBreakdown counts;
    WeightLayout layout;      // from a GGUF header; known == false for presets and config.json
};

// parse_config + count_parameters in one step; display_name defaults to "config.json (<model_type>)".
Expected<ModelSource> model_from_config(std::string_view json_text, std::string display_name = {});

// The same model counted without its vision tower (" (text only)" appended to its name), as engines load
// the language model alone. Error: "text-only: the model has no vision tower to leave out".
Expected<ModelSource> text_only_model(const ModelSource& model);
// The model with its vision tower counted again (the inverse of text_only_model; unchanged otherwise).
Expected<ModelSource> full_model(const ModelSource& model);

}  // namespace llm_memory
