// KV cache: grouped-query attention, explicit head_dim, sliding-window layers and DeepSeek's MLA.
// Shapes are the models' config.json values (Hugging Face model repositories named per case).
#include <catch_amalgamated.hpp>

#include <memory>

#include "estimator.hpp"
#include "kv_cache.hpp"
#include "model_presets.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GiB = 1ULL << 30;

WeightFormat fmt(const char* key) { return *find_weight_format(key); }

std::uint64_t kv(const KvCacheShape& shape, std::uint64_t tokens, std::uint64_t batch = 1, const char* format = "fp16") {
    const Expected<std::uint64_t> bytes = kv_cache_bytes(shape, tokens, batch, fmt(format));
    INFO(bytes.error());
    REQUIRE(bytes.ok());
    return *bytes;
}

KvCacheShape preset_shape(const char* key) {
    const Expected<ModelSource> model = load_preset(key);
    INFO(model.error());
    REQUIRE(model.ok());
    const Expected<KvCacheShape> shape = kv_cache_shape(model->architecture);
    INFO(shape.error());
    REQUIRE(shape.ok());
    return *shape;
}
}  // namespace

TEST_CASE("kv: Llama-2-7B (multi-head, 32 KV heads) keeps 512 KiB per token, 2 GiB at 4096", "[kv]") {
    // meta-llama/Llama-2-7b-hf config.json: 32 layers, 32 heads, hidden 4096 (head_dim 128).
    // 2 x 32 x 32 x 128 x 2 bytes = 524,288 bytes per token.
    const KvCacheShape shape{32, 32, 128, 0, 0, 0, 0};
    CHECK(kv(shape, 1) == 524'288);
    CHECK(kv(shape, 4096) == 2 * GiB);
    CHECK(kv(shape, 4096, 8) == 16 * GiB);            // batch multiplies
    CHECK(kv(shape, 4096, 1, "fp8") == 1 * GiB);      // 1-byte cache halves it
    CHECK(kv(shape, 4096, 1, "q8_0") == 1'140'850'688);  // 8.5 bits = 1.0625 bytes: 2^30 x 17/16
}

TEST_CASE("kv: grouped-query attention uses the KV heads, not the query heads (Llama-3-8B)", "[kv][gqa]") {
    // meta-llama/Meta-Llama-3-8B config.json: 32 layers, 32 attention heads, 8 key_value heads, head_dim 128.
    // 2 x 32 x 8 x 128 x 2 = 131,072 bytes per token; counting 32 query heads would give 4x too much.
    const KvCacheShape shape{32, 8, 128, 0, 0, 0, 0};
    CHECK(kv(shape, 8192) == 1 * GiB);
    const KvCacheShape from_config = preset_shape("llama-3-8b");
    CHECK(from_config.kv_heads == 8);
    CHECK(from_config.head_dim == 128);
    CHECK(kv(from_config, 8192) == 1 * GiB);
    // Llama-2-70B: 80 layers, 8 KV heads: 327,680 bytes per token (320 KiB).
    CHECK(kv(preset_shape("llama-2-70b"), 1) == 327'680);
}

TEST_CASE("kv: explicit head_dim (Gemma 7B: 256, not hidden / heads = 192)", "[kv][head_dim]") {
    // google/gemma-7b config.json: hidden 3072, 16 heads, 16 KV heads, head_dim 256, 28 layers.
    // 2 x 28 x 16 x 256 x 2 = 458,752 bytes per token (hidden/heads would give 344,064).
    const KvCacheShape shape = preset_shape("gemma-7b");
    CHECK(shape.head_dim == 256);
    CHECK(kv(shape, 1) == 458'752);
    CHECK(kv(shape, 8192) == 3'758'096'384ULL);
}

TEST_CASE("kv: sliding-window layers cap their tokens at the window (Gemma 2 9B, Mistral 7B v0.1)", "[kv][sliding]") {
    // google/gemma-2-9b config.json: 42 layers alternating local (sliding_window 4096) and global attention,
    // 8 KV heads, head_dim 256. At 8192 tokens: 21 layers x 8192 + 21 layers x 4096 tokens.
    const KvCacheShape gemma2{42, 8, 256, 4096, 21, 0, 0};
    CHECK(kv(gemma2, 8192) == 2'113'929'216ULL);             // 4096 values x 258,048 layer-tokens x 2 bytes
    CHECK(kv(gemma2, 4096) == 2 * 8 * 256 * 42 * 4096ULL * 2);  // under the window every layer keeps all
    const KvCacheShape from_config = preset_shape("gemma-2-9b");
    CHECK(from_config.sliding_layers == 21);
    CHECK(from_config.sliding_window == 4096);
    CHECK(kv(from_config, 8192) == 2'113'929'216ULL);
    // mistralai/Mistral-7B-v0.1: every layer slides over 4096 tokens (rolling buffer, Mistral 7B paper sec. 2),
    // so 32768 tokens cost what 4096 do: 2 x 32 x 8 x 128 x 4096 x 2 = 512 MiB.
    const KvCacheShape mistral = preset_shape("mistral-7b-v0.1");
    CHECK(mistral.sliding_layers == 32);
    CHECK(kv(mistral, 32768) == 512ULL * 1024 * 1024);
    CHECK(kv(mistral, 32768) == kv(mistral, 4096));
}

TEST_CASE("kv: DeepSeek MLA caches (kv_lora_rank + qk_rope_head_dim) per layer", "[kv][mla]") {
    // DeepSeek-V2 paper, Table 1: MLA caches (d_c + d_h^R) x l values per token = 4.5 d_h l with d_h = 128.
    // deepseek-ai/DeepSeek-V2 config.json: 60 layers, kv_lora_rank 512, qk_rope_head_dim 64: 34,560 values.
    const KvCacheShape v2{60, 0, 0, 0, 0, 512, 64};
    CHECK(kv(v2, 1) == 34'560 * 2);
    CHECK(kv_cache_elements(v2, 1, 1).value() == 4 * 128 * 60 + 64 * 60);
    // deepseek-ai/DeepSeek-V2-Lite: 27 layers, same ranks: 31,104 bytes per token in fp16.
    const KvCacheShape lite = preset_shape("deepseek-v2-lite");
    CHECK(lite.mla_kv_lora_rank == 512);
    CHECK(kv(lite, 1) == 31'104);
}

TEST_CASE("kv: the estimate reports kv_cache_bytes and the detailed inference total", "[kv]") {
    Scenario s;
    const Expected<ModelSource> model = load_preset("llama-2-7b");
    REQUIRE(model.ok());
    s.model = std::make_shared<ModelSource>(*model);
    s.param_count = model->counts.total_count;
    s.context_tokens = 4096;
    Estimate e = estimate(s).value();
    CHECK(e.kv_cache_bytes == 2 * GiB);
    CHECK(e.detailed_inference_bytes == 0);  // simple mode: nothing is added to the seed's total
    CHECK(e.inference_bytes == 16'172'197'478ULL);  // 6,738,415,616 x 2 x 1.2, rounded once
    s.detailed_inference = true;
    e = estimate(s).value();
    // 4096 x (4096 + 2 x 11008) x 2 bytes + 32000 x 4 bytes of logits.
    CHECK(e.inference_activation_bytes == 4096ULL * (4096 + 2 * 11008) * 2 + 32000 * 4);
    CHECK(e.runtime_reserve_bytes == GiB);
    CHECK(e.detailed_inference_bytes == e.weight_bytes + 2 * GiB + e.inference_activation_bytes + GiB);
}

TEST_CASE("kv: bad KV inputs are errors naming the key", "[kv]") {
    Scenario s;
    s.context_tokens = 4096;  // no architecture
    CHECK(estimate(s).error() == "context: the KV cache needs a model architecture (--model or --config)");
    const KvCacheShape shape{32, 8, 128, 0, 0, 0, 0};
    CHECK(kv_cache_bytes(shape, kMaxContextTokens + 1, 1, fmt("fp16")).error() ==
          "context: is too large (at most 100M tokens)");
    CHECK(kv_cache_bytes(shape, 10, 0, fmt("fp16")).error() == "batch: must be at least 1");
    CHECK_FALSE(kv_cache_bytes(KvCacheShape{}, 10, 1, fmt("fp16")).ok());
    // The largest accepted inputs do not overflow: 100M tokens x 10^6 sequences is an error, not a wrap.
    CHECK_FALSE(kv_cache_bytes(KvCacheShape{10000, 1000, 1000, 0, 0, 0, 0}, kMaxContextTokens, kMaxBatch, fmt("fp32")).ok());
}

// Runtimes differ on sliding layers: llama.cpp (default) and Hugging Face's hybrid cache keep the window;
// llama.cpp --swa-full and vLLM without its hybrid manager give every layer the full context.
TEST_CASE("sliding-window layers: the note gives both runtime figures", "[kv][families]") {
    const WeightFormat fp16{"fp16", "FP16", 2, 1, "", "", false};
    // google/gemma-3-27b: 62 layers, 16 KV heads x 128, window 1024, 52 sliding (5 of every 6).
    // Full: 62 x 131,072 x 2 x 16 x 128 x 2 bytes = 66,571,993,088; windowed: 10 full + 52 x 1,024 tokens.
    const Expected<ModelSource> gemma = load_preset("gemma-3-27b");
    REQUIRE(gemma.ok());
    const std::string note = sliding_window_note(gemma->architecture, 131072, 1, fp16);
    CHECK(note.rfind("52 of 62 layers are sliding-window layers keeping 1,024 tokens: 11.17 GB", 0) == 0);
    CHECK(note.find("needs 66.57 GB (62 GiB)") != std::string::npos);
    const KvCacheShape shape = *kv_cache_shape(gemma->architecture);
    CHECK(*kv_cache_bytes(shape, 131072, 1, fp16) == 8192ULL * (10 * 131072 + 52 * 1024));
    // Llama 4 Scout: chunked attention on 36 of 48 layers.
    CHECK(sliding_window_note(load_preset("llama-4-scout")->architecture, 65536, 1, fp16)
              .rfind("36 of 48 layers are chunked-attention layers keeping 8,192 tokens", 0) == 0);
    // Within the window, or no sliding layers: nothing to say.
    CHECK(sliding_window_note(gemma->architecture, 1024, 1, fp16).empty());
    CHECK(sliding_window_note(load_preset("qwen3-8b")->architecture, 131072, 1, fp16).empty());
}
