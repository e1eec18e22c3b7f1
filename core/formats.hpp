// Weight (and KV-cache) storage formats as exact bytes per block: fp32 .. int4, bitsandbytes NF4 and the
// common GGUF types. A format stores block_bytes for every block_weights values, so bits per weight is
// 8 x block_bytes / block_weights exactly (Q6_K: 210 bytes per 256 weights = 6.5625 bits), and a byte
// figure is computed with one rounding. Every entry names where its size comes from.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quantity.hpp"
#include "result.hpp"

namespace llm_memory {

// One storage format.
struct WeightFormat {
    std::string key;              // lower-case name used by --dtype / --kv-dtype: "bf16", "q4_k_m", "nf4"
    std::string label;            // as people write it: "BF16", "Q4_K_M (GGUF)"
    std::uint64_t block_bytes;    // bytes stored per block (including its scales)
    std::uint64_t block_weights;  // values per block
    std::string explanation;      // one line for the UI and --help
    std::string source;           // where the size comes from
    bool gguf = false;            // a llama.cpp GGUF type or mix
    // A checkpoint format that quantizes only the decoder's linear layers (GPTQ, AWQ): the embeddings, the
    // head, the norms, the routers and the biases stay in 16 bits, as the checkpoint stores them.
    bool linear_only = false;
    // Of those, only the routed experts (MXFP4: gpt-oss's checkpoint, which keeps attention in 16 bits too).
    bool experts_only = false;
};

// Every built-in format, in display order (floats, integers, NF4, GGUF).
const std::vector<WeightFormat>& weight_formats();

// Looks a format up, ignoring case and treating '-' like '_' ("Q4_K_M", "q4-k-m", "BF16").
// A custom size is written as bits per weight with a "bpw" suffix: "4.65bpw" (above 0, at most 64).
// Errors: "\"x\" is not a known format (fp32, fp16, bf16, ...)" or the custom value's problem.
Expected<WeightFormat> find_weight_format(std::string_view name);

// Bits per weight with up to 6 decimals, exact for every built-in format: "6.5625", "4.126953".
std::string format_bits_per_weight(const WeightFormat& format);

// Bytes for `count` values in this format: count x block_bytes / block_weights, rounded half up once.
// count must be at most kMaxParamCount (the product then fits in 128 bits).
std::uint64_t format_bytes(const WeightFormat& format, std::uint64_t count);

// A comma-separated list of the built-in keys, for messages and --help.
std::string weight_format_keys();

}  // namespace llm_memory
