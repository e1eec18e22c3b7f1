// KV-cache memory: the keys and values every attention layer keeps for each token of each sequence.
//   standard / grouped-query:  2 x layers x kv_heads x head_dim x tokens x batch x bytes
//   sliding-window layers:     the same with tokens capped at the window
//   DeepSeek MLA:              (kv_lora_rank + qk_rope_head_dim) x layers x tokens x batch x bytes
// Grouped-query attention is why kv_heads (num_key_value_heads) is used, never the query heads; head_dim is
// the explicit one when the config has it (Gemma: 256, not hidden / heads). Exact integers, one rounding.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "architecture.hpp"
#include "formats.hpp"
#include "result.hpp"

namespace llm_memory {

inline constexpr std::uint64_t kMaxContextTokens = 100'000'000;  // 10^8 tokens
inline constexpr const char* kContextLimit = "100M tokens";    // kMaxContextTokens as messages write it
inline constexpr std::uint64_t kMaxBatch = 1'000'000;

// The numbers the KV cache depends on, taken from an Architecture or given directly (tests, custom).
struct KvCacheShape {
    std::uint64_t layers = 0;          // attention layers (every decoder layer, except in hybrid models)
    std::uint64_t kv_heads = 0;        // num_key_value_heads (1 for multi-query attention)
    std::uint64_t head_dim = 0;        // per-head width of keys and values
    std::uint64_t sliding_window = 0;  // 0: no sliding-window layers
    std::uint64_t sliding_layers = 0;  // how many of `layers` keep only the last sliding_window tokens
    std::uint64_t mla_kv_lora_rank = 0;     // > 0: DeepSeek multi-head latent attention (compressed cache)
    std::uint64_t mla_qk_rope_head_dim = 0; // MLA's decoupled RoPE key width, cached beside the latent
    // Gemma 4: the other (global) layers' own KV heads and head width; 0: the same as the sliding layers'.
    std::uint64_t global_kv_heads = 0;
    std::uint64_t global_head_dim = 0;
};

// The cache shape of an architecture: MLA when kv_lora_rank > 0, otherwise GQA with its KV heads and
// head_dim, and the number of sliding-window layers. Error when the architecture lacks layers or heads.
Expected<KvCacheShape> kv_cache_shape(const Architecture& arch);

// Values (elements) cached for `batch` sequences of `tokens` tokens each (sliding layers keep
// min(tokens, window) tokens). Errors: a shape with no layers or heads, tokens above kMaxContextTokens,
// batch 0 or above kMaxBatch, a total too large to represent.
Expected<std::uint64_t> kv_cache_elements(const KvCacheShape& shape, std::uint64_t tokens, std::uint64_t batch);

// KV-cache bytes for `tokens` of context and `batch` sequences stored in `format` (fp16: 2 bytes; fp8: 1;
// q8_0: 8.5 bits). Errors as kv_cache_elements, batch 0 or above kMaxBatch, or above 2^64 bytes.
Expected<std::uint64_t> kv_cache_bytes(const KvCacheShape& shape, std::uint64_t tokens, std::uint64_t batch,
                                       const WeightFormat& format);

// How runtimes differ on sliding-window layers, as one sentence with both figures, or "" when the model
// has no sliding layers or the context fits the window. llama.cpp (without --swa-full) and Hugging Face's
// hybrid cache keep only the window on sliding layers, which is what kv_cache_bytes counts; a runtime that
// allocates every layer for the full context (llama.cpp --swa-full; vLLM without its hybrid KV-cache
// manager) needs the larger figure. Llama 4's chunked layers are said as chunks.
std::string sliding_window_note(const Architecture& arch, std::uint64_t tokens, std::uint64_t batch,
                                const WeightFormat& format);

}  // namespace llm_memory
