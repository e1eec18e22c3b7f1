// Weight formats: each built-in size against its named source, exact byte figures, custom bpw, errors.
#include <catch_amalgamated.hpp>

#include <memory>

#include "estimator.hpp"
#include "formats.hpp"
#include "model_presets.hpp"
#include "report.hpp"

using namespace llm_memory;

namespace {
WeightFormat get(const char* key) {
    const Expected<WeightFormat> f = find_weight_format(key);
    REQUIRE(f.ok());
    return *f;
}
// A scenario of a built-in model stored in `dtype`.
Scenario preset_in(const char* key, const char* dtype) {
    const Expected<ModelSource> model = load_preset(key);
    REQUIRE(model.ok());
    Scenario s;
    s.model = std::make_shared<ModelSource>(*model);
    s.param_count = model->counts.total_count;
    s.dtype = dtype;
    return s;
}
}  // namespace

TEST_CASE("formats: float and integer sizes in bits per weight", "[formats]") {
    // IEEE 754 binary32/binary16; bfloat16; FP8 (Micikevicius et al. 2022); int8; two int4 per byte.
    CHECK(format_bits_per_weight(get("fp32")) == "32");
    CHECK(format_bits_per_weight(get("fp16")) == "16");
    CHECK(format_bits_per_weight(get("bf16")) == "16");
    CHECK(format_bits_per_weight(get("fp8")) == "8");
    CHECK(format_bits_per_weight(get("int8")) == "8");
    CHECK(format_bits_per_weight(get("int4")) == "4");
}

TEST_CASE("formats: bitsandbytes NF4 with and without double quantization (QLoRA paper sec. 2)", "[formats]") {
    // QLoRA: blocksize 64 with an fp32 absmax = 32/64 = 0.5 extra bits; double quant: 8/64 + 32/(64*256).
    CHECK(format_bits_per_weight(get("nf4")) == "4.5");
    CHECK(format_bits_per_weight(get("nf4_dq")) == "4.126953");  // 4.126953125 exactly, shown to 6 decimals
    CHECK(format_bytes(get("nf4_dq"), 16384) == 8452);             // 8192 + 256 + 4 bytes
    CHECK(format_bytes(get("NF4-DQ"), 16384) == 8452);
}

// A GPTQ / AWQ linear of k inputs and n outputs, as AutoGPTQ's QuantLinear (and vLLM's gptq.py create_weights)
// allocates it at 4 bits and group size 128: qweight [k/8, n] int32, scales [k/128, n] fp16, qzeros
// [k/128, n/8] int32, and (GPTQ only) g_idx [k] int32. AutoAWQ's WQLinear_GEMM: the same bytes, no g_idx.
namespace {
struct PackedLinear { std::uint64_t k, n; };
std::uint64_t packed_bytes(PackedLinear l) { return l.k / 8 * l.n * 4 + l.k / 128 * l.n * 2 + l.k / 128 * (l.n / 8) * 4; }
}  // namespace

TEST_CASE("formats: GPTQ and AWQ checkpoints: 4-bit linears with group scales, 16-bit embeddings, head and norms", "[formats]") {
    CHECK(format_bits_per_weight(get("gptq")) == "4.15625");  // 4 + 16/128 + 4/128
    CHECK(format_bits_per_weight(get("AWQ")) == "4.15625");
    CHECK(get("gptq-int4").key == "gptq");
    CHECK(get("gptq").linear_only);
    CHECK_FALSE(get("int4").linear_only);

    // Llama 2 7B: the buffers of its 32 x 7 linears, plus the 262,410,240 other parameters (embeddings and
    // lm_head 131,072,000 each, norms 266,240) in fp16.
    const Expected<ModelSource> model = load_preset("llama-2-7b");
    REQUIRE(model.ok());
    std::uint64_t packed = 0, g_idx = 0;
    for (const PackedLinear l : {PackedLinear{4096, 4096}, PackedLinear{4096, 4096}, PackedLinear{4096, 4096}, PackedLinear{4096, 4096},
                                 PackedLinear{4096, 11008}, PackedLinear{4096, 11008}, PackedLinear{11008, 4096}}) {
        packed += 32 * packed_bytes(l);
        g_idx += 32 * l.k * 4;
    }
    const std::uint64_t unquantized = 262'410'240ULL * 2;
    Scenario s;
    s.model = std::make_shared<ModelSource>(*model);
    s.param_count = model->counts.total_count;
    s.dtype = "gptq";
    const Estimate gptq = estimate(s).value();
    CHECK(gptq.quantized_linear_count == 6'476'005'376ULL);
    CHECK(gptq.weight_bytes == packed + unquantized);  // 3,889,307,648 B: AWQ's buffers exactly
    CHECK(gptq.weight_bytes == 3'889'307'648ULL);
    // GPTQ's g_idx (4,554,752 B) is the only buffer left out: 0.12 % of the checkpoint.
    CHECK(g_idx == 4'554'752ULL);
    CHECK(static_cast<double>(g_idx) / static_cast<double>(packed + g_idx + unquantized) < 0.0012);
    // "4 bits everywhere" (int4) would say 3,369,207,808 B: 520 MB light.
    s.dtype = "int4";
    CHECK(estimate(s).value().weight_bytes == 3'369'207'808ULL);
    // QLoRA's fp32 upcast is a training matter: a GPTQ checkpoint loaded for inference keeps 16 bits.
    CHECK(s.upcast_nonquantized);
    CHECK(weight_format_note(s, gptq).find("16 bits") != std::string::npos);

    // MoE: GPTQ and AWQ leave the router (mlp.gate) in 16 bits; Mixtral 8x7B's 32 x 8 x 4096 routers.
    const Scenario m = preset_in("mixtral-8x7b", "awq");
    const Estimate awq = estimate(m).value();
    const ParamBreakdown& c = m.model->counts;
    CHECK(awq.quantized_linear_count == c.total_count - c.embedding_count - c.output_head_count - c.norm_count - 32 * 8 * 4096);

    // Without an architecture there is nothing to split: N x 4.15625 bits, and the note says what that misses.
    Scenario typed;
    typed.param_count = 7'000'000'000ULL;
    typed.dtype = "gptq";
    const Estimate bare = estimate(typed).value();
    CHECK(bare.weight_bytes == 7'000'000'000ULL * 133 / 256);
    CHECK(weight_format_note(typed, bare).find("Without a model's architecture") != std::string::npos);
}

TEST_CASE("formats: MXFP4 stores gpt-oss's routed experts at 4.25 bits and the rest in 16 bits", "[formats]") {
    // ggml block_mxfp4 (and the OCP MX spec): 16 bytes of E2M1 nibbles and one E8M0 scale per 32 values.
    CHECK(format_bits_per_weight(get("mxfp4")) == "4.25");
    CHECK(get("MXFP4").experts_only);
    CHECK(get("mxfp4").linear_only);
    // gpt-oss-120b: 36 layers x 128 experts x (2,880 x 5,760 gate_up + 2,880 x 2,880 down) = 114,661,785,600 expert
    // weights at 17/32 bytes; the other 2,167,371,072 parameters (attention, routers, embeddings, head, norms, sinks,
    // the experts' biases) in bf16: 65,248,815,744 B = 60.77 GiB. Published: unsloth's gpt-oss-120b GGUF with its
    // non-expert tensors in F16, "file size = 60.868 GiB" (ikawrakow/ik_llama.cpp#895), and Ollama 0.30's gpt-oss:120b
    // blob, 60.87 GiB (ollama/ollama#16416): -0.16 %, the f32 norms the files keep. bf16 everywhere says 217.6 GiB.
    const Scenario s = preset_in("gpt-oss-120b", "mxfp4");
    const Estimate e = estimate(s).value();
    CHECK(e.quantized_linear_count == 114'661'785'600ULL);
    CHECK(e.weight_bytes == 114'661'785'600ULL * 17 / 32 + (116'829'156'672ULL - 114'661'785'600ULL) * 2);
    CHECK(static_cast<double>(e.weight_bytes) == Catch::Approx(60.868 * 1073741824.0).epsilon(0.002));
    CHECK(weight_format_note(s, e).find("decides: the experts in") != std::string::npos);
    // A dense model has no experts to store so: refused, naming the choices.
    const Expected<Estimate> refused = estimate(preset_in("llama-2-7b", "mxfp4"));
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("the model has no MoE experts for MXFP4") != std::string::npos);
}

TEST_CASE("formats: GGUF type sizes from ggml's block structs", "[formats]") {
    // ggml-common.h: block_q8_0 34 B / 32, block_q6_K 210 B / 256, block_q5_K 176, block_q4_K 144,
    // block_q4_0 18 B / 32, block_q3_K 110, block_q2_K 84 (per 256).
    CHECK(format_bits_per_weight(get("q8_0")) == "8.5");
    CHECK(format_bits_per_weight(get("Q6_K")) == "6.5625");
    CHECK(format_bits_per_weight(get("q5_k")) == "5.5");
    CHECK(format_bits_per_weight(get("q4_k")) == "4.5");
    CHECK(format_bits_per_weight(get("q4_0")) == "4.5");
    CHECK(format_bits_per_weight(get("q3_k")) == "3.4375");
    CHECK(format_bits_per_weight(get("q2_k")) == "2.625");
}

TEST_CASE("formats: GGUF _M mixes use llama.cpp's published averages for Llama 2 7B", "[formats]") {
    // llama.cpp tools/quantize/README.md, "Llama 2 7B" table: Q3_K_M 3.91, Q4_K_M 4.84, Q5_K_M 5.68 bpw.
    CHECK(format_bits_per_weight(get("Q3_K_M")) == "3.91");
    CHECK(format_bits_per_weight(get("q4_k_m")) == "4.84");
    CHECK(format_bits_per_weight(get("q5-k-m")) == "5.68");
}

TEST_CASE("formats: weight bytes of the seed's 13B in several formats", "[formats]") {
    // 13B x 4.84 / 8 = 7.865 GB; 13B x 6.5625 / 8 = 10.6640625 GB; 13B x 8.5 / 8 = 13.8125 GB.
    CHECK(format_bytes(get("q4_k_m"), 13'000'000'000ULL) == 7'865'000'000ULL);
    CHECK(format_bytes(get("q6_k"), 13'000'000'000ULL) == 10'664'062'500ULL);
    CHECK(format_bytes(get("q8_0"), 13'000'000'000ULL) == 13'812'500'000ULL);
    CHECK(format_bytes(get("fp32"), 13'000'000'000ULL) == 52'000'000'000ULL);
    Scenario s;
    s.dtype = "int4";
    CHECK(estimate(s)->weight_bytes == 6'500'000'000ULL);
    CHECK(estimate(s)->inference_bytes == 7'800'000'000ULL);  // x 1.2, the seed's overhead
    s.dtype = "fp16";
    CHECK(estimate(s)->weight_bytes == 26'000'000'000ULL);  // the seed's 26 GB
}

TEST_CASE("formats: a custom size in bits per weight", "[formats]") {
    const WeightFormat custom = get("4.65bpw");
    CHECK(format_bits_per_weight(custom) == "4.65");
    CHECK(format_bytes(custom, 8'000'000'000ULL) == 4'650'000'000ULL);
}

TEST_CASE("formats: unknown names and bad custom values are errors that list the choices", "[formats]") {
    const Expected<WeightFormat> bad = find_weight_format("q9_k");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().find("\"q9_k\" is not a known format (fp32, fp16, bf16") == 0);
    CHECK_FALSE(find_weight_format("").ok());
    CHECK_FALSE(find_weight_format("0bpw").ok());
    CHECK_FALSE(find_weight_format("65bpw").ok());
    CHECK_FALSE(find_weight_format("-4bpw").ok());
    Scenario s;
    s.dtype = "nope";
    CHECK(estimate(s).error().rfind("dtype: ", 0) == 0);
}
