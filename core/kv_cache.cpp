// KV-cache arithmetic in 128-bit integers. MLA's per-token cache is (d_c + d_h^R) x layers values
// (DeepSeek-V2 paper, sec. 2.1.4 and Table 1); sliding layers cap tokens at the window as a rolling
// buffer does (Mistral 7B paper, sec. 2 "Rolling Buffer Cache"; Hugging Face HybridCache for Gemma 2).
#include "kv_cache.hpp"

#include <algorithm>

#include "quantity.hpp"

namespace llm_memory {
namespace {


constexpr u128 kU64Max = static_cast<u128>(~0ULL);

}  // namespace

Expected<KvCacheShape> kv_cache_shape(const Architecture& arch) {
    KvCacheShape shape;
    // Hybrid models: recurrent layers keep a state, not a KV cache. Gemma 4's last kv_shared_layers layers read an
    // earlier layer's cache and keep none.
    shape.layers = arch.attention_layer_count() - arch.kv_shared_layers;
    if (shape.layers == 0) return Error{"context", "the model has no attention layers to cache"};
    if (arch.kv_lora_rank > 0) {
        shape.mla_kv_lora_rank = arch.kv_lora_rank;
        shape.mla_qk_rope_head_dim = arch.qk_rope_head_dim;
        return shape;
    }
    shape.kv_heads = arch.num_key_value_heads > 0 ? arch.num_key_value_heads : arch.num_attention_heads;
    shape.head_dim = arch.head_dim;
    if (shape.head_dim == 0 && arch.num_attention_heads > 0) shape.head_dim = arch.hidden_size / arch.num_attention_heads;
    if (shape.kv_heads == 0 || shape.head_dim == 0) return Error{"context", "the model has no attention heads to cache"};
    if (arch.global_head_dim > 0) {
        shape.global_kv_heads = arch.global_kv_heads;
        shape.global_head_dim = arch.global_head_dim;
    }
    if (arch.sliding_window > 0) {
        shape.sliding_window = arch.sliding_window;
        if (arch.sliding_layers.empty()) {
            shape.sliding_layers = shape.layers;  // a window with no per-layer list applies to every layer
        } else {
            for (std::size_t i = 0; i < arch.sliding_layers.size() && i < shape.layers; ++i)
                if (arch.sliding_layers[i]) ++shape.sliding_layers;
        }
    }
    return shape;
}

Expected<std::uint64_t> kv_cache_elements(const KvCacheShape& s, std::uint64_t tokens, std::uint64_t batch) {
    if (s.layers == 0) return Error{"context", "the model has no layers to cache"};
    if (tokens > kMaxContextTokens) return Error{"context", too_large(kMaxContextTokens, kContextLimit)};
    if (batch == 0) return Error{"batch", "must be at least 1"};
    if (batch > kMaxBatch) return Error{"batch", too_large(kMaxBatch)};
    u128 per_token_layers = 0;  // sum over layers of (values per token) x (tokens that layer keeps)
    if (s.mla_kv_lora_rank > 0) {
        per_token_layers = static_cast<u128>(s.mla_kv_lora_rank + s.mla_qk_rope_head_dim) * s.layers * tokens;
    } else {
        if (s.kv_heads == 0 || s.head_dim == 0) return Error{"context", "the model has no attention heads to cache"};
        const u128 per_token = static_cast<u128>(2) * s.kv_heads * s.head_dim;  // K and V
        const u128 global_per_token = s.global_head_dim > 0 ? static_cast<u128>(2) * s.global_kv_heads * s.global_head_dim : per_token;
        const std::uint64_t sliding = std::min(s.sliding_layers, s.layers);
        const std::uint64_t full = s.layers - sliding;
        const std::uint64_t window_tokens = s.sliding_window > 0 ? std::min(tokens, s.sliding_window) : tokens;
        per_token_layers = global_per_token * full * tokens + per_token * sliding * window_tokens;
    }
    const u128 total = per_token_layers * batch;
    if (total > kU64Max / 64) return Error{"context", "the KV cache is too large to represent"};
    return static_cast<std::uint64_t>(total);
}

Expected<std::uint64_t> kv_cache_bytes(const KvCacheShape& shape, std::uint64_t tokens, std::uint64_t batch,
                                       const WeightFormat& format) {
    const Expected<std::uint64_t> elements = kv_cache_elements(shape, tokens, batch);
    if (!elements) return Error{elements.error()};
    const u128 numerator = static_cast<u128>(*elements) * format.block_bytes;
    const u128 bytes = (numerator + format.block_weights / 2) / format.block_weights;
    if (bytes > kU64Max / 4) return Error{"context", "the KV cache is too large to represent"};
    return static_cast<std::uint64_t>(bytes);
}

std::string sliding_window_note(const Architecture& arch, std::uint64_t tokens, std::uint64_t batch,
                                const WeightFormat& format) {
    const Expected<KvCacheShape> shape = kv_cache_shape(arch);
    if (!shape || shape->sliding_layers == 0 || tokens <= shape->sliding_window) return {};
    const Expected<std::uint64_t> windowed = kv_cache_bytes(*shape, tokens, batch, format);
    KvCacheShape full = *shape;
    full.sliding_window = 0;  // every layer keeps the whole context, each at its own width
    const Expected<std::uint64_t> everything = kv_cache_bytes(full, tokens, batch, format);
    if (!windowed || !everything) return {};
    const char* kind = arch.chunked_attention ? "chunked-attention" : "sliding-window";
    return std::to_string(shape->sliding_layers) + " of " + std::to_string(shape->layers) + " layers are " + kind +
           " layers keeping " + format_count_exact(shape->sliding_window) + " tokens: " + format_bytes_decimal(*windowed) + " (" + format_bytes_binary(*windowed) + ")" +
           " (llama.cpp's default, Hugging Face's hybrid cache); a runtime that gives every layer the full context " +
           "(llama.cpp --swa-full, vLLM without its hybrid KV-cache manager) needs " + format_bytes_decimal(*everything) + " (" + format_bytes_binary(*everything) + ")" + ".";
}

}  // namespace llm_memory
