// The built-in presets: each is the counting-relevant subset of the model's published config.json
// (values copied from the Hugging Face repository named in hf_id), parsed by parse_config like any
// user config. Search ignores case and separators so "llama2 7b" and "Llama-2-7B" both match.
#include "model_presets.hpp"

#include <algorithm>
#include <cctype>
#include <string>

#include "quantity.hpp"

namespace llm_memory {
namespace {

#define LLAMA2(h, i, heads, layers, kv)                                                                          \
    "{\"model_type\":\"llama\",\"hidden_size\":" #h ",\"intermediate_size\":" #i ",\"num_attention_heads\":" #heads \
    ",\"num_hidden_layers\":" #layers ",\"num_key_value_heads\":" #kv                                              \
    ",\"vocab_size\":32000,\"max_position_embeddings\":4096,\"tie_word_embeddings\":false}"

#define QWEN3(h, i, heads, layers, tied)                                                                          \
    "{\"model_type\":\"qwen3\",\"hidden_size\":" #h ",\"intermediate_size\":" #i ",\"num_attention_heads\":" #heads \
    ",\"num_hidden_layers\":" #layers ",\"num_key_value_heads\":8,\"head_dim\":128,\"vocab_size\":151936"          \
    ",\"max_position_embeddings\":40960,\"tie_word_embeddings\":" tied "}"

#define VOXTRAL(h, i, layers)                                                                                    \
    "{\"model_type\":\"voxtral\",\"audio_config\":{\"hidden_size\":1280,\"intermediate_size\":5120,\"num_hidden_layers\":32,"   \
    "\"num_mel_bins\":128,\"max_source_positions\":1500},\"text_config\":{\"model_type\":\"llama\",\"hidden_size\":" #h            \
    ",\"intermediate_size\":" #i ",\"num_attention_heads\":32,\"num_hidden_layers\":" #layers ",\"num_key_value_heads\":8,"       \
    "\"head_dim\":128,\"vocab_size\":131072,\"max_position_embeddings\":131072,\"tie_word_embeddings\":false}}"

#define LLAMA4(experts, step, positions)                                                                            \
    "{\"model_type\":\"llama4\",\"vision_config\":{\"model_type\":\"llama4_vision_model\",\"hidden_size\":1408,\"intermediate_size\":5632,\"num_hidden_layers\":34,\"num_attention_heads\":16,\"patch_size\":14,\"image_size\":336,\"projector_input_dim\":4096,\"projector_output_dim\":4096,\"vision_output_dim\":4096,\"pixel_shuffle_ratio\":0.5,\"multi_modal_projector_bias\":false},\"text_config\":{\"model_type\":\"llama4_text\",\"hidden_size\":5120,"                \
    "\"intermediate_size\":8192,\"intermediate_size_mlp\":16384,\"num_attention_heads\":40,\"num_hidden_layers\":48," \
    "\"num_key_value_heads\":8,\"head_dim\":128,\"num_local_experts\":" #experts ",\"num_experts_per_tok\":1,"       \
    "\"interleave_moe_layer_step\":" #step ",\"attention_chunk_size\":8192,\"vocab_size\":202048,"                    \
    "\"max_position_embeddings\":" #positions "}}"

#define GEMMA3(h, i, heads, layers, kv, head_dim)                                                                 \
    "{\"model_type\":\"gemma3\",\"mm_tokens_per_image\":256,\"vision_config\":{\"model_type\":\"siglip_vision_model\",\"hidden_size\":1152,\"intermediate_size\":4304,\"num_hidden_layers\":27,\"num_attention_heads\":16,\"patch_size\":14,\"image_size\":896,\"vision_use_head\":false},\"text_config\":{\"model_type\":\"gemma3_text\",\"hidden_size\":" #h                \
    ",\"intermediate_size\":" #i ",\"num_attention_heads\":" #heads ",\"num_hidden_layers\":" #layers               \
    ",\"num_key_value_heads\":" #kv ",\"head_dim\":" #head_dim ",\"sliding_window\":1024,\"vocab_size\":262208,"      \
    "\"max_position_embeddings\":131072,\"rope_scaling\":{\"rope_type\":\"linear\",\"factor\":8.0}}}"

#define QWEN35(type, h, layers, heads, kv, value_heads, mlp, out)                                                     \
    "{\"model_type\":\"" type "\",\"text_config\":{\"hidden_size\":" #h ",\"num_hidden_layers\":" #layers         \
    ",\"num_attention_heads\":" #heads ",\"num_key_value_heads\":" #kv ",\"head_dim\":256,\"full_attention_interval\":4," \
    "\"linear_conv_kernel_dim\":4,\"linear_key_head_dim\":128,\"linear_num_key_heads\":16,\"linear_num_value_heads\":" \
    #value_heads ",\"linear_value_head_dim\":128,\"mamba_ssm_dtype\":\"float32\",\"mtp_num_hidden_layers\":1,"       \
    "\"max_position_embeddings\":262144,\"partial_rotary_factor\":0.25,\"tie_word_embeddings\":false,\"vocab_size\":248320," mlp "},"               \
    "\"vision_config\":{\"depth\":27,\"hidden_size\":1152,\"intermediate_size\":4304,\"num_heads\":16,"          \
    "\"out_hidden_size\":" #out ",\"patch_size\":16,\"spatial_merge_size\":2,\"temporal_patch_size\":2}}"

#define QWEN3VL(type, h, layers, kv, mlp, out)                                                                  \
    "{\"model_type\":\"" type "\",\"text_config\":{\"model_type\":\"" type "_text\",\"hidden_size\":" #h                  \
    ",\"num_hidden_layers\":" #layers ",\"num_attention_heads\":32,\"num_key_value_heads\":" #kv ",\"head_dim\":128,"   \
    "\"max_position_embeddings\":262144,\"tie_word_embeddings\":false,\"vocab_size\":151936," mlp "},"                   \
    "\"vision_config\":{\"deepstack_visual_indexes\":[8,16,24],\"depth\":27,\"hidden_size\":1152,\"intermediate_size\":4304," \
    "\"num_heads\":16,\"out_hidden_size\":" #out ",\"patch_size\":16,\"spatial_merge_size\":2,\"temporal_patch_size\":2}}"

// Gemma 4: five sliding layers, then a global one (layer_types), and the 27-layer vision encoder of the 26B and 31B.
#define GEMMA4_SIX "\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"full_attention\""
#define GEMMA4_FIVE "\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"sliding_attention\",\"full_attention\""
// Gemma 4 E2B/E4B: per-layer embeddings, the last `shared` layers reading an earlier layer's cache, the small vision
// encoder (Gemma4VisionConfig's defaults) and the audio encoder (Gemma4AudioConfig's).
#define GEMMA4_E(h, i, layers, kv, shared, wide, types)                                                           \
    "{\"model_type\":\"gemma4\",\"vision_soft_tokens_per_image\":280,\"text_config\":{\"model_type\":\"gemma4_text\","     \
    "\"hidden_size\":" #h ",\"intermediate_size\":" #i ",\"num_hidden_layers\":" #layers ",\"num_attention_heads\":8,"       \
    "\"num_key_value_heads\":" #kv ",\"head_dim\":256,\"global_head_dim\":512,\"sliding_window\":512,"                    \
    "\"max_position_embeddings\":131072,\"vocab_size\":262144,\"tie_word_embeddings\":true,\"hidden_size_per_layer_input\":256," \
    "\"vocab_size_per_layer_input\":262144,\"num_kv_shared_layers\":" #shared ",\"use_double_wide_mlp\":" #wide ","           \
    "\"layer_types\":[" types "]},\"vision_config\":{\"model_type\":\"gemma4_vision\",\"use_clipped_linears\":true},"       \
    "\"audio_config\":{\"model_type\":\"gemma4_audio\"}}"
#define GEMMA4(h, i, layers, heads, kv, global_kv, types, moe)                                                     \
    "{\"model_type\":\"gemma4\",\"vision_soft_tokens_per_image\":280,\"text_config\":{\"model_type\":\"gemma4_text\","     \
    "\"hidden_size\":" #h ",\"intermediate_size\":" #i ",\"num_hidden_layers\":" #layers ",\"num_attention_heads\":" #heads   \
    ",\"num_key_value_heads\":" #kv ",\"num_global_key_value_heads\":" #global_kv ",\"attention_k_eq_v\":true,"              \
    "\"head_dim\":256,\"global_head_dim\":512,\"sliding_window\":1024,\"max_position_embeddings\":262144,"              \
    "\"vocab_size\":262144,\"tie_word_embeddings\":true,\"hidden_size_per_layer_input\":0,\"layer_types\":[" types "]" moe "},"                             \
    "\"vision_config\":{\"model_type\":\"gemma4_vision\",\"hidden_size\":1152,\"intermediate_size\":4304,"                \
    "\"num_hidden_layers\":27,\"num_attention_heads\":16,\"num_key_value_heads\":16,\"head_dim\":72,\"standardize\":true}}"

#define GPT_OSS(layers, experts)                                                                                  \
    "{\"model_type\":\"gpt_oss\",\"hidden_size\":2880,\"intermediate_size\":2880,\"num_attention_heads\":64,"         \
    "\"num_hidden_layers\":" #layers ",\"num_key_value_heads\":8,\"head_dim\":64,\"num_local_experts\":" #experts     \
    ",\"num_experts_per_tok\":4,\"sliding_window\":128,\"attention_bias\":true,\"vocab_size\":201088,"               \
    "\"max_position_embeddings\":131072,\"tie_word_embeddings\":false}"

const std::vector<ModelPreset>& preset_table() {
    static const std::vector<ModelPreset> kPresets = {
        // GPT-2 (openai-community): n_positions 1024, vocab 50257, tied head.
        {"gpt2", "openai-community/gpt2", "GPT-2",
         R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"n_positions":1024,"vocab_size":50257})"},
        {"gpt2-medium", "openai-community/gpt2-medium", "GPT-2",
         R"({"model_type":"gpt2","n_embd":1024,"n_layer":24,"n_head":16,"n_positions":1024,"vocab_size":50257})"},
        {"gpt2-large", "openai-community/gpt2-large", "GPT-2",
         R"({"model_type":"gpt2","n_embd":1280,"n_layer":36,"n_head":20,"n_positions":1024,"vocab_size":50257})"},
        {"gpt2-xl", "openai-community/gpt2-xl", "GPT-2",
         R"({"model_type":"gpt2","n_embd":1600,"n_layer":48,"n_head":25,"n_positions":1024,"vocab_size":50257})"},
        // OPT (facebook): vocab 50272, 2048 positions (+2 offset rows), tied head.
        {"opt-125m", "facebook/opt-125m", "OPT",
         R"({"model_type":"opt","hidden_size":768,"ffn_dim":3072,"num_attention_heads":12,"num_hidden_layers":12,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":768,"do_layer_norm_before":true})"},
        {"opt-350m", "facebook/opt-350m", "OPT",
         R"({"model_type":"opt","hidden_size":1024,"ffn_dim":4096,"num_attention_heads":16,"num_hidden_layers":24,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":512,"do_layer_norm_before":false})"},
        {"opt-1.3b", "facebook/opt-1.3b", "OPT",
         R"({"model_type":"opt","hidden_size":2048,"ffn_dim":8192,"num_attention_heads":32,"num_hidden_layers":24,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":2048,"do_layer_norm_before":true})"},
        {"opt-6.7b", "facebook/opt-6.7b", "OPT",
         R"({"model_type":"opt","hidden_size":4096,"ffn_dim":16384,"num_attention_heads":32,"num_hidden_layers":32,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":4096,"do_layer_norm_before":true})"},
        {"opt-13b", "facebook/opt-13b", "OPT",
         R"({"model_type":"opt","hidden_size":5120,"ffn_dim":20480,"num_attention_heads":40,"num_hidden_layers":40,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":5120,"do_layer_norm_before":true})"},
        {"opt-30b", "facebook/opt-30b", "OPT",
         R"({"model_type":"opt","hidden_size":7168,"ffn_dim":28672,"num_attention_heads":56,"num_hidden_layers":48,"vocab_size":50272,"max_position_embeddings":2048,"word_embed_proj_dim":7168,"do_layer_norm_before":true})"},
        // Llama 2 (meta-llama, *-hf): vocab 32000, untied; 70B uses 8 KV heads.
        {"llama-2-7b", "meta-llama/Llama-2-7b-hf", "Llama 2", LLAMA2(4096, 11008, 32, 32, 32)},
        {"llama-2-13b", "meta-llama/Llama-2-13b-hf", "Llama 2", LLAMA2(5120, 13824, 40, 40, 40)},
        {"llama-2-70b", "meta-llama/Llama-2-70b-hf", "Llama 2", LLAMA2(8192, 28672, 64, 80, 8)},
        // Llama 3 / 3.1 / 3.2 (meta-llama): vocab 128256, 8 KV heads; 3.2 1B/3B tie the head.
        {"llama-3-8b", "meta-llama/Meta-Llama-3-8B", "Llama 3",
         R"({"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192,"tie_word_embeddings":false})"},
        {"llama-3-70b", "meta-llama/Meta-Llama-3-70B", "Llama 3",
         R"({"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_attention_heads":64,"num_hidden_layers":80,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":8192,"tie_word_embeddings":false})"},
        {"llama-3.1-8b", "meta-llama/Llama-3.1-8B", "Llama 3.1",
         R"({"model_type":"llama","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        {"llama-3.1-70b", "meta-llama/Llama-3.1-70B", "Llama 3.1",
         R"({"model_type":"llama","hidden_size":8192,"intermediate_size":28672,"num_attention_heads":64,"num_hidden_layers":80,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        {"llama-3.1-405b", "meta-llama/Llama-3.1-405B", "Llama 3.1",
         R"({"model_type":"llama","hidden_size":16384,"intermediate_size":53248,"num_attention_heads":128,"num_hidden_layers":126,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        {"llama-3.2-1b", "meta-llama/Llama-3.2-1B", "Llama 3.2",
         R"({"model_type":"llama","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":16,"num_key_value_heads":8,"head_dim":64,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true})"},
        {"llama-3.2-3b", "meta-llama/Llama-3.2-3B", "Llama 3.2",
         R"({"model_type":"llama","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":24,"num_hidden_layers":28,"num_key_value_heads":8,"head_dim":128,"vocab_size":128256,"max_position_embeddings":131072,"tie_word_embeddings":true})"},
        // Mistral AI: v0.1 slides a 4096-token window on every layer; Mixtral has 8 experts, 2 per token.
        {"mistral-7b-v0.1", "mistralai/Mistral-7B-v0.1", "Mistral",
         R"({"model_type":"mistral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":32000,"max_position_embeddings":32768,"sliding_window":4096,"tie_word_embeddings":false})"},
        {"mixtral-8x7b", "mistralai/Mixtral-8x7B-v0.1", "Mixtral",
         R"({"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"num_local_experts":8,"num_experts_per_tok":2,"vocab_size":32000,"max_position_embeddings":32768,"sliding_window":null,"tie_word_embeddings":false})"},
        {"mixtral-8x22b", "mistralai/Mixtral-8x22B-v0.1", "Mixtral",
         R"({"model_type":"mixtral","hidden_size":6144,"intermediate_size":16384,"num_attention_heads":48,"num_hidden_layers":56,"num_key_value_heads":8,"num_local_experts":8,"num_experts_per_tok":2,"vocab_size":32768,"max_position_embeddings":65536,"sliding_window":null,"tie_word_embeddings":false})"},
        // Qwen (Qwen): q/k/v biases; 0.5B ties its head.
        {"qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B", "Qwen2.5",
         R"({"model_type":"qwen2","hidden_size":896,"intermediate_size":4864,"num_attention_heads":14,"num_hidden_layers":24,"num_key_value_heads":2,"vocab_size":151936,"max_position_embeddings":32768,"tie_word_embeddings":true,"use_sliding_window":false})"},
        {"qwen2-7b", "Qwen/Qwen2-7B", "Qwen2",
         R"({"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"max_position_embeddings":131072,"tie_word_embeddings":false,"use_sliding_window":false})"},
        {"qwen2.5-7b", "Qwen/Qwen2.5-7B", "Qwen2.5",
         R"({"model_type":"qwen2","hidden_size":3584,"intermediate_size":18944,"num_attention_heads":28,"num_hidden_layers":28,"num_key_value_heads":4,"vocab_size":152064,"max_position_embeddings":131072,"tie_word_embeddings":false,"use_sliding_window":false})"},
        {"qwen2.5-14b", "Qwen/Qwen2.5-14B", "Qwen2.5",
         R"({"model_type":"qwen2","hidden_size":5120,"intermediate_size":13824,"num_attention_heads":40,"num_hidden_layers":48,"num_key_value_heads":8,"vocab_size":152064,"max_position_embeddings":131072,"tie_word_embeddings":false,"use_sliding_window":false})"},
        {"qwen2.5-72b", "Qwen/Qwen2.5-72B", "Qwen2.5",
         R"({"model_type":"qwen2","hidden_size":8192,"intermediate_size":29568,"num_attention_heads":64,"num_hidden_layers":80,"num_key_value_heads":8,"vocab_size":152064,"max_position_embeddings":131072,"tie_word_embeddings":false,"use_sliding_window":false})"},
        {"qwen1.5-moe-a2.7b", "Qwen/Qwen1.5-MoE-A2.7B", "Qwen MoE",
         R"({"model_type":"qwen2_moe","hidden_size":2048,"intermediate_size":5632,"num_attention_heads":16,"num_hidden_layers":24,"num_key_value_heads":16,"vocab_size":151936,"max_position_embeddings":8192,"tie_word_embeddings":false,"decoder_sparse_step":1,"moe_intermediate_size":1408,"shared_expert_intermediate_size":5632,"num_experts_per_tok":4,"num_experts":60,"use_sliding_window":false})"},
        // Gemma (google): head_dim 256 (27B: 128), vocab 256000, tied head; Gemma 2 has four norms per layer.
        {"gemma-2b", "google/gemma-2b", "Gemma",
         R"({"model_type":"gemma","hidden_size":2048,"intermediate_size":16384,"num_attention_heads":8,"num_hidden_layers":18,"num_key_value_heads":1,"head_dim":256,"vocab_size":256000,"max_position_embeddings":8192})"},
        {"gemma-7b", "google/gemma-7b", "Gemma",
         R"({"model_type":"gemma","hidden_size":3072,"intermediate_size":24576,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":16,"head_dim":256,"vocab_size":256000,"max_position_embeddings":8192})"},
        {"gemma-2-2b", "google/gemma-2-2b", "Gemma 2",
         R"({"model_type":"gemma2","hidden_size":2304,"intermediate_size":9216,"num_attention_heads":8,"num_hidden_layers":26,"num_key_value_heads":4,"head_dim":256,"vocab_size":256000,"max_position_embeddings":8192,"sliding_window":4096})"},
        {"gemma-2-9b", "google/gemma-2-9b", "Gemma 2",
         R"({"model_type":"gemma2","hidden_size":3584,"intermediate_size":14336,"num_attention_heads":16,"num_hidden_layers":42,"num_key_value_heads":8,"head_dim":256,"vocab_size":256000,"max_position_embeddings":8192,"sliding_window":4096})"},
        {"gemma-2-27b", "google/gemma-2-27b", "Gemma 2",
         R"({"model_type":"gemma2","hidden_size":4608,"intermediate_size":36864,"num_attention_heads":32,"num_hidden_layers":46,"num_key_value_heads":16,"head_dim":128,"vocab_size":256000,"max_position_embeddings":8192,"sliding_window":4096})"},
        // Phi-3 (microsoft): fused qkv_proj and gate_up_proj, vocab 32064.
        {"phi-3-mini-4k", "microsoft/Phi-3-mini-4k-instruct", "Phi-3",
         R"({"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":32064,"max_position_embeddings":4096,"sliding_window":2047,"tie_word_embeddings":false})"},
        {"phi-3-medium-4k", "microsoft/Phi-3-medium-4k-instruct", "Phi-3",
         R"({"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":10,"vocab_size":32064,"max_position_embeddings":4096,"sliding_window":2047,"tie_word_embeddings":false})"},
        // Falcon (tiiuae): 7B multi-query with parallel attention; 40B the new decoder (8 KV groups, 2 norms).
        {"falcon-7b", "tiiuae/falcon-7b", "Falcon",
         R"({"model_type":"falcon","hidden_size":4544,"num_attention_heads":71,"num_hidden_layers":32,"vocab_size":65024,"multi_query":true,"new_decoder_architecture":false,"parallel_attn":true,"bias":false})"},
        {"falcon-40b", "tiiuae/falcon-40b", "Falcon",
         R"({"model_type":"falcon","hidden_size":8192,"num_attention_heads":128,"num_hidden_layers":60,"num_kv_heads":8,"vocab_size":65024,"new_decoder_architecture":true,"parallel_attn":true,"bias":false})"},
        // DeepSeek (deepseek-ai): shared + routed experts, dense first layers; V2/V3 use MLA.
        {"deepseek-moe-16b", "deepseek-ai/deepseek-moe-16b-base", "DeepSeek",
         R"({"model_type":"deepseek","hidden_size":2048,"intermediate_size":10944,"moe_intermediate_size":1408,"num_attention_heads":16,"num_hidden_layers":28,"num_key_value_heads":16,"n_routed_experts":64,"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"moe_layer_freq":1,"vocab_size":102400,"max_position_embeddings":4096,"tie_word_embeddings":false})"},
        {"deepseek-v2-lite", "deepseek-ai/DeepSeek-V2-Lite", "DeepSeek",
         R"({"model_type":"deepseek_v2","hidden_size":2048,"intermediate_size":10944,"moe_intermediate_size":1408,"num_attention_heads":16,"num_hidden_layers":27,"num_key_value_heads":16,"n_routed_experts":64,"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"moe_layer_freq":1,"q_lora_rank":null,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"topk_method":"greedy","vocab_size":102400,"max_position_embeddings":163840,"tie_word_embeddings":false})"},
        {"deepseek-v2", "deepseek-ai/DeepSeek-V2", "DeepSeek",
         R"({"model_type":"deepseek_v2","hidden_size":5120,"intermediate_size":12288,"moe_intermediate_size":1536,"num_attention_heads":128,"num_hidden_layers":60,"num_key_value_heads":128,"n_routed_experts":160,"n_shared_experts":2,"num_experts_per_tok":6,"first_k_dense_replace":1,"moe_layer_freq":1,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"topk_method":"group_limited_greedy","vocab_size":102400,"max_position_embeddings":163840,"tie_word_embeddings":false})"},
        {"deepseek-v3", "deepseek-ai/DeepSeek-V3", "DeepSeek",
         R"({"model_type":"deepseek_v3","hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,"num_attention_heads":128,"num_hidden_layers":61,"num_key_value_heads":128,"n_routed_experts":256,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"moe_layer_freq":1,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"topk_method":"noaux_tc","num_nextn_predict_layers":1,"vocab_size":129280,"max_position_embeddings":163840,"tie_word_embeddings":false})"},
        {"deepseek-r1", "deepseek-ai/DeepSeek-R1", "DeepSeek",
         R"({"model_type":"deepseek_v3","hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,"num_attention_heads":128,"num_hidden_layers":61,"num_key_value_heads":128,"n_routed_experts":256,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"moe_layer_freq":1,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"topk_method":"noaux_tc","num_nextn_predict_layers":1,"vocab_size":129280,"max_position_embeddings":163840,"tie_word_embeddings":false})"},
        // Kimi K2 (moonshotai): the DeepSeek-V3 architecture with 384 experts, 64 heads, one dense layer.
        {"kimi-k2", "moonshotai/Kimi-K2-Instruct", "Kimi K2",
         R"({"model_type":"kimi_k2","hidden_size":7168,"intermediate_size":18432,"moe_intermediate_size":2048,"num_attention_heads":64,"num_hidden_layers":61,"num_key_value_heads":64,"n_routed_experts":384,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":1,"moe_layer_freq":1,"q_lora_rank":1536,"kv_lora_rank":512,"qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"topk_method":"noaux_tc","num_nextn_predict_layers":0,"vocab_size":163840,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        // Qwen3 (Qwen): head_dim 128, q/k norms, no biases; 0.6B-4B tie the head. MoE: 128 experts, 8 per token.
        {"qwen3-0.6b", "Qwen/Qwen3-0.6B", "Qwen3", QWEN3(1024, 3072, 16, 28, "true")},
        {"qwen3-1.7b", "Qwen/Qwen3-1.7B", "Qwen3", QWEN3(2048, 6144, 16, 28, "true")},
        {"qwen3-4b", "Qwen/Qwen3-4B", "Qwen3", QWEN3(2560, 9728, 32, 36, "true")},
        {"qwen3-8b", "Qwen/Qwen3-8B", "Qwen3", QWEN3(4096, 12288, 32, 36, "false")},
        {"qwen3-14b", "Qwen/Qwen3-14B", "Qwen3", QWEN3(5120, 17408, 40, 40, "false")},
        {"qwen3-32b", "Qwen/Qwen3-32B", "Qwen3", QWEN3(5120, 25600, 64, 64, "false")},
        {"qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B", "Qwen3 MoE",
         R"({"model_type":"qwen3_moe","hidden_size":2048,"intermediate_size":6144,"moe_intermediate_size":768,"num_attention_heads":32,"num_hidden_layers":48,"num_key_value_heads":4,"head_dim":128,"num_experts":128,"num_experts_per_tok":8,"decoder_sparse_step":1,"mlp_only_layers":[],"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false})"},
        {"qwen3-235b-a22b", "Qwen/Qwen3-235B-A22B", "Qwen3 MoE",
         R"({"model_type":"qwen3_moe","hidden_size":4096,"intermediate_size":12288,"moe_intermediate_size":1536,"num_attention_heads":64,"num_hidden_layers":94,"num_key_value_heads":4,"head_dim":128,"num_experts":128,"num_experts_per_tok":8,"decoder_sparse_step":1,"mlp_only_layers":[],"vocab_size":151936,"max_position_embeddings":40960,"tie_word_embeddings":false})"},
        // Llama 4 (meta-llama): the text model; 16 experts on every layer (Scout) or 128 on every other (Maverick).
        {"llama-4-scout", "meta-llama/Llama-4-Scout-17B-16E", "Llama 4", LLAMA4(16, 1, 10485760)},
        {"llama-4-maverick", "meta-llama/Llama-4-Maverick-17B-128E", "Llama 4", LLAMA4(128, 2, 1048576)},
        // Gemma 3 (google): 5 sliding (1024; 1B: 512) to 1 global layer, q/k norms, tied head; 4B+ carry a vision tower.
        {"gemma-3-1b", "google/gemma-3-1b-pt", "Gemma 3",
         R"({"model_type":"gemma3_text","hidden_size":1152,"intermediate_size":6912,"num_attention_heads":4,"num_hidden_layers":26,"num_key_value_heads":1,"head_dim":256,"vocab_size":262144,"max_position_embeddings":32768,"sliding_window":512,"sliding_window_pattern":6})"},
        {"gemma-3-4b", "google/gemma-3-4b-pt", "Gemma 3", GEMMA3(2560, 10240, 8, 34, 4, 256)},
        {"gemma-3-12b", "google/gemma-3-12b-pt", "Gemma 3", GEMMA3(3840, 15360, 16, 48, 8, 256)},
        {"gemma-3-27b", "google/gemma-3-27b-pt", "Gemma 3", GEMMA3(5376, 21504, 32, 62, 16, 128)},
        // gpt-oss (openai): MoE with biased experts, attention sinks, 128-token sliding window on every other layer.
        {"gpt-oss-20b", "openai/gpt-oss-20b", "gpt-oss", GPT_OSS(24, 32)},
        {"gpt-oss-120b", "openai/gpt-oss-120b", "gpt-oss", GPT_OSS(36, 128)},
        // MiniMax-M2 (MiniMaxAI; M2.1, M2.5 and M2.7 share the shapes): 256 experts, q/k norms over all heads, partial
        // RoPE; the checkpoint is FP8 (--dtype fp8).
        {"minimax-m2.7", "MiniMaxAI/MiniMax-M2.7", "MiniMax",
         R"({"model_type":"minimax_m2","hidden_size":3072,"intermediate_size":1536,"num_attention_heads":48,"num_hidden_layers":62,"num_key_value_heads":8,"head_dim":128,"num_local_experts":256,"num_experts_per_tok":8,"use_qk_norm":true,"qk_norm_type":"per_layer","use_routing_bias":true,"rotary_dim":64,"vocab_size":200064,"max_position_embeddings":204800,"tie_word_embeddings":false})"},
        // GLM-4.5 (zai-org): q/k/v biases, 1 shared + 8 of N routed experts, an MTP layer stored beside.
        {"glm-4.5-air", "zai-org/GLM-4.5-Air", "GLM-4.5",
         R"({"model_type":"glm4_moe","hidden_size":4096,"intermediate_size":10944,"moe_intermediate_size":1408,"num_attention_heads":96,"num_hidden_layers":46,"num_key_value_heads":8,"head_dim":128,"n_routed_experts":128,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":1,"attention_bias":true,"use_qk_norm":false,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"vocab_size":151552,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        {"glm-4.5", "zai-org/GLM-4.5", "GLM-4.5",
         R"({"model_type":"glm4_moe","hidden_size":5120,"intermediate_size":12288,"moe_intermediate_size":1536,"num_attention_heads":96,"num_hidden_layers":92,"num_key_value_heads":8,"head_dim":128,"n_routed_experts":160,"n_shared_experts":1,"num_experts_per_tok":8,"first_k_dense_replace":3,"attention_bias":true,"use_qk_norm":false,"num_nextn_predict_layers":1,"partial_rotary_factor":0.5,"vocab_size":151552,"max_position_embeddings":131072,"tie_word_embeddings":false})"},
        // Phi-4 (microsoft): the Phi-3 layout; mini ties its head over a 200K vocabulary.
        {"phi-4-mini", "microsoft/Phi-4-mini-instruct", "Phi-4",
         R"({"model_type":"phi3","hidden_size":3072,"intermediate_size":8192,"num_attention_heads":24,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":200064,"max_position_embeddings":131072,"tie_word_embeddings":true})"},
        {"phi-4", "microsoft/phi-4", "Phi-4",
         R"({"model_type":"phi3","hidden_size":5120,"intermediate_size":17920,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":10,"vocab_size":100352,"max_position_embeddings":16384,"tie_word_embeddings":false})"},
        // Mistral Nemo and Small 3 (mistralai): explicit head_dim 128 (not 5120 / 32 = 160), 131K vocabulary.
        {"mistral-nemo-12b", "mistralai/Mistral-Nemo-Base-2407", "Mistral",
         R"({"model_type":"mistral","hidden_size":5120,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072,"max_position_embeddings":1024000,"sliding_window":null,"tie_word_embeddings":false})"},
        {"mistral-small-24b", "mistralai/Mistral-Small-24B-Base-2501", "Mistral",
         R"({"model_type":"mistral","hidden_size":5120,"intermediate_size":32768,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"head_dim":128,"vocab_size":131072,"max_position_embeddings":32768,"sliding_window":null,"tie_word_embeddings":false})"},
        // OLMo 2 (allenai): norms after attention and MLP, q/k RMSNorm over all heads.
        {"olmo-2-7b", "allenai/OLMo-2-1124-7B", "OLMo 2",
         R"({"model_type":"olmo2","hidden_size":4096,"intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":32,"vocab_size":100352,"max_position_embeddings":4096,"tie_word_embeddings":false})"},
        {"olmo-2-13b", "allenai/OLMo-2-1124-13B", "OLMo 2",
         R"({"model_type":"olmo2","hidden_size":5120,"intermediate_size":13824,"num_attention_heads":40,"num_hidden_layers":40,"num_key_value_heads":40,"vocab_size":100352,"max_position_embeddings":4096,"tie_word_embeddings":false})"},
        // Command R (CohereForAI): parallel attention/MLP, one bias-free LayerNorm per layer, tied head.
        {"command-r", "CohereForAI/c4ai-command-r-v01", "Command R",
         R"({"model_type":"cohere","hidden_size":8192,"intermediate_size":22528,"num_attention_heads":64,"num_hidden_layers":40,"num_key_value_heads":64,"vocab_size":256000,"max_position_embeddings":8192,"use_qk_norm":false})"},
        {"command-r-plus", "CohereForAI/c4ai-command-r-plus", "Command R",
         R"({"model_type":"cohere","hidden_size":12288,"intermediate_size":33792,"num_attention_heads":96,"num_hidden_layers":64,"num_key_value_heads":8,"vocab_size":256000,"max_position_embeddings":8192,"use_qk_norm":true})"},
        // Granite 3.1 (ibm-granite): Llama layout with scaling multipliers, 49,155-token vocabulary, tied head.
        {"granite-3.1-2b", "ibm-granite/granite-3.1-2b-base", "Granite",
         R"({"model_type":"granite","hidden_size":2048,"intermediate_size":8192,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"vocab_size":49155,"max_position_embeddings":131072,"tie_word_embeddings":true})"},
        {"granite-3.1-8b", "ibm-granite/granite-3.1-8b-base", "Granite",
         R"({"model_type":"granite","hidden_size":4096,"intermediate_size":12800,"num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"vocab_size":49155,"max_position_embeddings":131072,"tie_word_embeddings":true})"},
        // Vision-language models with their vision towers counted (--text-only leaves them out).
        {"qwen2.5-vl-3b", "Qwen/Qwen2.5-VL-3B-Instruct", "Qwen2.5-VL",
         R"({"hidden_size":2048,"intermediate_size":11008,"max_position_embeddings":128000,"model_type":"qwen2_5_vl","num_attention_heads":16,"num_hidden_layers":36,"num_key_value_heads":2,"tie_word_embeddings":true,"vision_config":{"depth":32,"hidden_size":1280,"intermediate_size":3420,"num_heads":16,"in_chans":3,"out_hidden_size":2048,"patch_size":14,"spatial_merge_size":2,"temporal_patch_size":2},"vocab_size":151936})"},
        // Qwen3-VL: Qwen3's decoder (dense, or Qwen3-MoE's experts) under the Qwen3-VL ViT with its deepstack mergers.
        {"qwen3-vl-8b", "Qwen/Qwen3-VL-8B-Instruct", "Qwen3-VL", QWEN3VL("qwen3_vl", 4096, 36, 8, "\"intermediate_size\":12288", 4096)},
        {"qwen3-vl-30b-a3b", "Qwen/Qwen3-VL-30B-A3B-Instruct", "Qwen3-VL",
         QWEN3VL("qwen3_vl_moe", 2048, 48, 4, "\"intermediate_size\":6144,\"moe_intermediate_size\":768,\"num_experts\":128,\"num_experts_per_tok\":8", 2048)},
        {"mistral-small-3.1-24b", "mistralai/Mistral-Small-3.1-24B-Instruct-2503", "Mistral",
         R"({"model_type":"mistral3","multimodal_projector_bias":false,"spatial_merge_size":2,"text_config":{"head_dim":128,"hidden_size":5120,"intermediate_size":32768,"max_position_embeddings":131072,"model_type":"mistral","num_attention_heads":32,"num_hidden_layers":40,"num_key_value_heads":8,"vocab_size":131072},"vision_config":{"head_dim":64,"hidden_size":1024,"image_size":1540,"intermediate_size":4096,"model_type":"pixtral","num_attention_heads":16,"num_channels":3,"num_hidden_layers":24,"patch_size":14}})"},
        // Voxtral (mistralai): a Whisper-encoder audio tower and a four-frame projector before a Llama text model.
        {"voxtral-mini-3b", "mistralai/Voxtral-Mini-3B-2507", "Voxtral", VOXTRAL(3072, 8192, 30)},
        {"voxtral-small-24b", "mistralai/Voxtral-Small-24B-2507", "Voxtral", VOXTRAL(5120, 32768, 40)},
        // Gemma 4 (google): sliding layers of 256-wide heads, global layers of 512 (K = V), a vision encoder.
        {"gemma-4-e2b", "google/gemma-4-E2B-it", "Gemma 4",
         GEMMA4_E(1536, 6144, 35, 1, 20, true, GEMMA4_FIVE "," GEMMA4_FIVE "," GEMMA4_FIVE "," GEMMA4_FIVE "," GEMMA4_FIVE "," GEMMA4_FIVE "," GEMMA4_FIVE)},
        {"gemma-4-e4b", "google/gemma-4-E4B-it", "Gemma 4",
         GEMMA4_E(2560, 10240, 42, 2, 18, false, GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX)},
        {"gemma-4-26b-a4b", "google/gemma-4-26B-A4B-it", "Gemma 4",
         GEMMA4(2816, 2112, 30, 16, 8, 2, GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX,
                ",\"enable_moe_block\":true,\"num_experts\":128,\"top_k_experts\":8,\"moe_intermediate_size\":704")},
        {"gemma-4-31b", "google/gemma-4-31B-it", "Gemma 4",
         GEMMA4(5376, 21504, 60, 32, 16, 4,
                GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX "," GEMMA4_SIX,
                "")},
        // Hybrid models: recurrent layers (Gated DeltaNet, Mamba-2, Mamba, short convolutions) keep a fixed state
        // per sequence; only their attention layers keep a KV cache.
        {"qwen3-next-80b-a3b", "Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen3-Next",
         R"({"attention_bias":false,"decoder_sparse_step":1,"full_attention_interval":4,"head_dim":256,"hidden_size":2048,"intermediate_size":5120,"linear_conv_kernel_dim":4,"linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,"max_position_embeddings":262144,"mlp_only_layers":[],"model_type":"qwen3_next","moe_intermediate_size":512,"partial_rotary_factor":0.25,"num_attention_heads":16,"num_experts":512,"num_experts_per_tok":10,"num_hidden_layers":48,"num_key_value_heads":2,"shared_expert_intermediate_size":512,"tie_word_embeddings":false,"vocab_size":151936})"},
        // Qwen3.5: Qwen3-Next's layers (dense MLP in the 27B) under a vision tower; full_attention_interval gives the
        // config's layer_types (every 4th layer full attention).
        {"qwen3.5-27b", "Qwen/Qwen3.5-27B", "Qwen3.5", QWEN35("qwen3_5", 5120, 64, 24, 4, 48, "\"intermediate_size\":17408", 5120)},
        {"qwen3.5-35b-a3b", "Qwen/Qwen3.5-35B-A3B", "Qwen3.5",
         QWEN35("qwen3_5_moe", 2048, 40, 16, 2, 32, "\"num_experts\":256,\"num_experts_per_tok\":8,\"moe_intermediate_size\":512,\"shared_expert_intermediate_size\":512", 2048)},
        {"granite-4.0-h-small", "ibm-granite/granite-4.0-h-small", "Granite 4.0",
         R"({"attention_bias":false,"hidden_size":4096,"intermediate_size":768,"layer_types":["mamba","mamba","mamba","mamba","mamba","attention","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","attention","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","attention","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","mamba","attention","mamba","mamba","mamba","mamba"],"mamba_conv_bias":true,"mamba_d_conv":4,"mamba_d_head":64,"mamba_d_state":128,"mamba_expand":2,"mamba_n_groups":1,"mamba_n_heads":128,"mamba_proj_bias":false,"max_position_embeddings":131072,"model_type":"granitemoehybrid","num_attention_heads":32,"num_experts_per_tok":10,"num_hidden_layers":40,"num_key_value_heads":8,"num_local_experts":72,"shared_intermediate_size":1536,"tie_word_embeddings":true,"vocab_size":100352})"},
        {"jamba-mini-1.7", "ai21labs/AI21-Jamba-Mini-1.7", "Jamba",
         R"({"attn_layer_offset":4,"attn_layer_period":8,"expert_layer_offset":1,"expert_layer_period":2,"hidden_size":4096,"intermediate_size":14336,"mamba_conv_bias":true,"mamba_d_conv":4,"mamba_d_state":16,"mamba_dt_rank":256,"mamba_expand":2,"mamba_proj_bias":false,"max_position_embeddings":262144,"model_type":"jamba","num_attention_heads":32,"num_experts":16,"num_experts_per_tok":2,"num_hidden_layers":32,"num_key_value_heads":8,"tie_word_embeddings":false,"vocab_size":65536})"},
        {"lfm2-1.2b", "LiquidAI/LFM2-1.2B", "LFM2",
         R"({"block_auto_adjust_ff_dim":true,"block_ff_dim":12288,"block_ffn_dim_multiplier":1.0,"block_multiple_of":256,"conv_L_cache":3,"conv_bias":false,"hidden_size":2048,"layer_types":["conv","conv","full_attention","conv","conv","full_attention","conv","conv","full_attention","conv","full_attention","conv","full_attention","conv","full_attention","conv"],"max_position_embeddings":128000,"model_type":"lfm2","num_attention_heads":32,"num_hidden_layers":16,"num_key_value_heads":8,"vocab_size":65536})"},
        {"nemotron-nano-9b-v2", "nvidia/NVIDIA-Nemotron-Nano-9B-v2", "Nemotron-H",
         R"({"attention_bias":false,"conv_kernel":4,"head_dim":128,"hidden_size":4480,"hybrid_override_pattern":"M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-","intermediate_size":15680,"mamba_head_dim":80,"mamba_num_heads":128,"mamba_ssm_cache_dtype":"float32","max_position_embeddings":131072,"mlp_bias":false,"model_type":"nemotron_h","n_groups":8,"num_attention_heads":40,"num_hidden_layers":56,"num_key_value_heads":8,"ssm_state_size":128,"tie_word_embeddings":false,"use_bias":false,"use_conv_bias":true,"vocab_size":131072})"},
        // Nemotron 3 Nano: Nemotron-H's Mamba-2 and attention blocks with MoE blocks (E) in place of the MLP ones.
        {"nemotron-3-nano-30b-a3b", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "Nemotron-H",
         R"({"attention_bias":false,"conv_kernel":4,"head_dim":128,"hidden_size":2688,"hybrid_override_pattern":"MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME","intermediate_size":1856,"mamba_head_dim":64,"mamba_num_heads":64,"mamba_ssm_cache_dtype":"float32","max_position_embeddings":262144,"mlp_bias":false,"model_type":"nemotron_h","moe_intermediate_size":1856,"moe_shared_expert_intermediate_size":3712,"n_groups":8,"n_routed_experts":128,"n_shared_experts":1,"num_attention_heads":32,"num_experts_per_tok":6,"num_hidden_layers":52,"num_key_value_heads":2,"ssm_state_size":128,"tie_word_embeddings":false,"use_bias":false,"use_conv_bias":true,"vocab_size":131072})"},
        // Falcon-H1 (tiiuae): attention and Mamba-2 side by side in every layer (sources: tests/core/hybrid_test.cpp).
        {"falcon-h1-34b", "tiiuae/Falcon-H1-34B-Instruct", "Falcon-H1",
         R"({"head_dim":128,"hidden_size":5120,"intermediate_size":21504,"mamba_conv_bias":true,"mamba_d_conv":4,"mamba_d_head":128,"mamba_d_ssm":4096,"mamba_d_state":256,"mamba_n_groups":2,"mamba_n_heads":32,"mamba_proj_bias":false,"mamba_rms_norm":true,"max_position_embeddings":262144,"model_type":"falcon_h1","num_attention_heads":20,"num_hidden_layers":72,"num_key_value_heads":4,"projectors_bias":false,"tie_word_embeddings":false,"vocab_size":261120})"},
    };
    return kPresets;
}

#undef LLAMA2
#undef QWEN3
#undef LLAMA4
#undef GEMMA3
#undef QWEN35
#undef QWEN3VL
#undef GEMMA4
#undef GEMMA4_SIX
#undef GEMMA4_FIVE
#undef GEMMA4_E
#undef GPT_OSS

// Lower-case letters and digits only: "Llama-2_7B" -> "llama27b".
std::string fold(std::string_view text) {
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u) != 0) out.push_back(static_cast<char>(std::tolower(u)));
    }
    return out;
}

bool equal_ignoring_case(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

// Edit distance between folded names, for "did you mean".
std::size_t distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0u : 1u)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

const std::vector<ModelPreset>& model_presets() { return preset_table(); }

const ModelPreset* find_preset(std::string_view name) {
    const std::string_view wanted = trim(name);
    for (const ModelPreset& preset : preset_table())
        if (equal_ignoring_case(wanted, preset.key) || equal_ignoring_case(wanted, preset.hf_id)) return &preset;
    // The id without its organisation: "Llama-2-7b-hf".
    for (const ModelPreset& preset : preset_table()) {
        const std::string_view id = preset.hf_id;
        const std::size_t slash = id.find('/');
        if (slash != std::string_view::npos && equal_ignoring_case(wanted, id.substr(slash + 1))) return &preset;
    }
    return nullptr;
}

std::vector<const ModelPreset*> search_presets(std::string_view query) {
    std::vector<std::string> words;
    std::size_t start = 0;
    while (start < query.size()) {
        std::size_t end = query.find_first_of(" \t", start);
        if (end == std::string_view::npos) end = query.size();
        std::string word = fold(query.substr(start, end - start));
        if (!word.empty()) words.push_back(std::move(word));
        start = end + 1;
    }
    std::vector<const ModelPreset*> found;
    for (const ModelPreset& preset : preset_table()) {
        const std::string haystack = fold(preset.key) + " " + fold(preset.hf_id) + " " + fold(preset.family);
        bool all = true;
        for (const std::string& word : words) all = all && haystack.find(word) != std::string::npos;
        if (all) found.push_back(&preset);
    }
    return found;
}

Expected<ModelSource> preset_model(const ModelPreset& preset) {
    Expected<ModelSource> source = model_from_config(preset.config_json, preset.hf_id);
    if (!source) return Error{std::string("model ") + preset.key + ": " + source.error()};
    source.value().preset_key = preset.key;
    return source;
}

Expected<ModelSource> load_preset(std::string_view name) {
    if (const ModelPreset* preset = find_preset(name)) return preset_model(*preset);
    const std::string shown = printable_excerpt(trim(name), 60);
    const std::string folded = fold(shown);
    const ModelPreset* best = nullptr;
    std::size_t best_distance = 0;
    for (const ModelPreset& preset : preset_table()) {
        const std::size_t d = distance(folded, fold(preset.key));
        if (best == nullptr || d < best_distance) {
            best = &preset;
            best_distance = d;
        }
    }
    std::string message = "unknown model \"" + shown + "\" (";
    if (best != nullptr && best_distance <= 3) message += std::string("did you mean ") + best->key + "? ";
    return Error{message + "see --list-models)"};
}

}  // namespace llm_memory
