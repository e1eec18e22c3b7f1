// The format table. Sizes are per block so they stay exact; sources are named per entry.
// GGUF block sizes are ggml's (ggml/src/ggml-common.h: block_q8_0, block_q4_0, block_q2_K ...);
// the _M mixes are the average bits per weight llama.cpp publishes for Llama 2 7B
// (tools/quantize/README.md, "Llama 2 7B" table), since a mix uses different types per tensor.
#include "formats.hpp"

#include "catalogue.hpp"

namespace llm_memory {

const std::vector<WeightFormat>& weight_formats() {
    static const std::vector<WeightFormat> kFormats = {
        {"fp32", "FP32", 4, 1, "32-bit float: full precision, 4 bytes.", "IEEE 754 binary32", false},
        {"fp16", "FP16", 2, 1, "16-bit float, 2 bytes: the usual checkpoint precision.", "IEEE 754 binary16", false},
        {"bf16", "BF16", 2, 1, "bfloat16, 2 bytes: fp32's range with fewer mantissa bits.",
         "Google brain floating point; 1 sign, 8 exponent, 7 mantissa bits", false},
        {"fp8", "FP8", 1, 1, "8-bit float (E4M3/E5M2), 1 byte; per-tensor scales are negligible.",
         "Micikevicius et al. 2022, FP8 Formats for Deep Learning", false},
        {"int8", "INT8", 1, 1, "8-bit integers, 1 byte (LLM.int8(), per-row scales negligible).",
         "Dettmers et al. 2022, LLM.int8(); bitsandbytes load_in_8bit", false},
        {"int4", "INT4", 1, 2, "4-bit integers, half a byte; group scales (GPTQ/AWQ) not counted.",
         "two 4-bit values per byte (scales excluded)", false},
        // GPTQ and AWQ at 4 bits, group size 128 (their common export): per linear of k inputs and n outputs,
        // qweight k x n x 4 bits, fp16 scales (k / 128) x n, 4-bit zeros (k / 128) x n packed in int32 =
        // 0.5 + 2/128 + 0.5/128 bytes a weight = 133 bytes per 256 (AutoGPTQ's QuantLinear buffers, vLLM's
        // gptq.py / awq.py create_weights). GPTQ's g_idx (k int32 per linear, 0.1 % of Llama 2 7B) is not counted.
        {"gptq", "GPTQ 4-bit (g128)", 133, 256,
         "GPTQ checkpoint: 4-bit linears + fp16 scale and 4-bit zero per 128 = 4.15625 bits; embeddings, head and norms in 16 bits.",
         "AutoGPTQ QuantLinear: qweight [k/8, n] int32, scales [k/128, n] fp16, qzeros [k/128, n/8] int32", false, true},
        {"awq", "AWQ 4-bit (g128)", 133, 256,
         "AWQ checkpoint: 4-bit linears + fp16 scale and 4-bit zero per 128 = 4.15625 bits; embeddings, head and norms in 16 bits.",
         "AutoAWQ WQLinear_GEMM: qweight [k, n/8] int32, qzeros [k/128, n/8] int32, scales [k/128, n] fp16", false, true},
        // OCP Microscaling MXFP4 (gpt-oss's checkpoint format): per 32 values, 16 bytes of E2M1 nibbles and one
        // E8M0 scale byte = 17 bytes (ggml block_mxfp4; the safetensors *_blocks and *_scales). Only the MoE experts
        // are stored so; attention, routers, embeddings, head, norms and the experts' biases stay in bf16.
        {"mxfp4", "MXFP4", 17, 32, "gpt-oss: MoE experts at 4.25 bits, the rest in 16 bits.", "ggml block_mxfp4", false, true, true},
        {"nf4", "NF4", 36, 64, "bitsandbytes 4-bit NormalFloat: 0.5 byte + an fp32 absmax per 64 = 4.5 bits.",
         "Dettmers et al. 2023, QLoRA sec. 2: blocksize 64, 32/64 = 0.5 bits of fp32 constants per parameter", false},
        {"nf4_dq", "NF4 + double quant", 8452, 16384,
         "NF4 with 8-bit absmax per 64 and an fp32 scale per 256 blocks = 4.127 bits (QLoRA's default).",
         "Dettmers et al. 2023, QLoRA sec. 2: 8/64 + 32/(64*256) = 0.127 bits per parameter", false},
        {"q8_0", "Q8_0 (GGUF)", 34, 32, "GGUF Q8_0: 32 int8 values + an fp16 scale = 8.5 bits.",
         "ggml block_q8_0: fp16 d + 32 x int8 = 34 bytes per 32", true},
        {"q6_k", "Q6_K (GGUF)", 210, 256, "GGUF Q6_K: 6.5625 bits per weight.",
         "ggml block_q6_K: 210 bytes per 256-weight super-block", true},
        {"q5_k", "Q5_K (GGUF)", 176, 256, "GGUF Q5_K type: 5.5 bits per weight.",
         "ggml block_q5_K: 176 bytes per 256-weight super-block", true},
        {"q5_k_m", "Q5_K_M (GGUF)", 568, 800, "GGUF Q5_K_M mix: 5.68 bits per weight on average.",
         "llama.cpp tools/quantize/README.md, Llama 2 7B: Q5_K_M 5.68 bpw", true},
        {"q4_k", "Q4_K (GGUF)", 144, 256, "GGUF Q4_K type: 4.5 bits per weight.",
         "ggml block_q4_K: 144 bytes per 256-weight super-block", true},
        {"q4_k_m", "Q4_K_M (GGUF)", 484, 800, "GGUF Q4_K_M mix: 4.84 bits per weight on average.",
         "llama.cpp tools/quantize/README.md, Llama 2 7B: Q4_K_M 4.84 bpw", true},
        {"q4_0", "Q4_0 (GGUF)", 18, 32, "GGUF Q4_0: 32 4-bit values + an fp16 scale = 4.5 bits.",
         "ggml block_q4_0: fp16 d + 16 bytes of nibbles = 18 bytes per 32", true},
        {"q3_k", "Q3_K (GGUF)", 110, 256, "GGUF Q3_K type: 3.4375 bits per weight.",
         "ggml block_q3_K: 110 bytes per 256-weight super-block", true},
        {"q3_k_m", "Q3_K_M (GGUF)", 391, 800, "GGUF Q3_K_M mix: 3.91 bits per weight on average.",
         "llama.cpp tools/quantize/README.md, Llama 2 7B: Q3_K_M 3.91 bpw", true},
        {"q2_k", "Q2_K (GGUF)", 84, 256,
         "GGUF Q2_K type: 2.625 bits per weight (llama.cpp's Q2_K file mix averages 3.35 on Llama 2 7B).",
         "ggml block_q2_K: 84 bytes per 256-weight super-block", true},
    };
    return kFormats;
}

Expected<WeightFormat> find_weight_format(std::string_view name) {
    static constexpr CatalogueAlias kAliases[] = {
        {"float32", "fp32"}, {"float16", "fp16"}, {"bfloat16", "bf16"}, {"nf4_double_quant", "nf4_dq"}, {"nf4dq", "nf4_dq"},
        {"gptq_int4", "gptq"}, {"awq_int4", "awq"}};
    const std::string key = catalogue_key(name, "-", '_');
    if (key.empty()) return Error{"is empty (one of " + weight_format_keys() + ", or bits such as 4.65bpw)"};
    if (const WeightFormat* format = find_in(weight_formats(), key, kAliases)) return *format;
    if (key.size() > 3 && key.compare(key.size() - 3, 3, "bpw") == 0) {
        // Parse the digits from the original text: catalogue_key() turned a leading '-' into '_'.
        const std::string_view original = trim(name);
        const Expected<Decimal> bits = parse_decimal(original.substr(0, original.size() - 3), 64 * Decimal::kScale);
        if (!bits) return Error{"custom bits per weight " + bits.error()};
        if (bits->is_zero()) return Error{"custom bits per weight must be greater than zero"};
        WeightFormat custom{key, format_decimal(*bits) + " bits per weight (custom)", bits->micros, 8 * Decimal::kScale,
                            "A custom size in bits per weight.", "entered by the user", false};
        return custom;
    }
    return Error{"\"" + printable_excerpt(trim(name), 40) + "\" is not a known format (" + weight_format_keys() +
                 ", or bits such as 4.65bpw)"};
}

std::string format_bits_per_weight(const WeightFormat& format) {
    return format_ratio(format.block_bytes * 8, format.block_weights, 6);
}

std::uint64_t format_bytes(const WeightFormat& format, std::uint64_t count) {
    const u128 numerator = static_cast<u128>(count) * format.block_bytes;
    return static_cast<std::uint64_t>((numerator + format.block_weights / 2) / format.block_weights);
}

std::string weight_format_keys() { return keys_of(weight_formats()); }

}  // namespace llm_memory
