// safetensors header reader: exact bytes per dtype from a .safetensors file's header (8 bytes of
// little-endian length, then that many bytes of JSON: name -> {dtype, shape, data_offsets}), or the
// total_size of a sharded model.safetensors.index.json. No file I/O and never the tensor data: the CLI
// reads 8 + length bytes, the page File.slice(0, 8 + length). Packed formats are named and counted as the
// weights they hold: GPTQ/AWQ int32 qweight (32 / bits values each), MXFP4 *_blocks (2 per byte); their
// scales, zeros, g_idx and FP8 weight_scale_inv tensors are bytes but not parameters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "result.hpp"

namespace llm_memory {

// The safetensors header is at most 100 MB (the format's own limit).
inline constexpr std::uint64_t kMaxSafetensorsHeader = 100'000'000;

// Tensors of one dtype and role.
struct SafetensorsGroup {
    std::string dtype;              // "BF16", "F8_E4M3", "I32", "U8", ...
    std::string role;               // "weights", "packed int4 (qweight)", "MXFP4 blocks", "scales/zeros"
    std::uint64_t tensor_count = 0;
    std::uint64_t element_count = 0;  // stored elements (an int32 qweight is one element)
    std::uint64_t bytes = 0;          // from data_offsets
    std::uint64_t param_count = 0;    // the weights they hold (0 for scales and zeros)
};

struct SafetensorsSummary {
    bool is_index = false;            // model.safetensors.index.json
    std::uint64_t header_bytes = 0;   // 8 + JSON length (a .safetensors file)
    std::uint64_t tensor_count = 0;
    std::uint64_t data_bytes = 0;     // every tensor's bytes (the index: metadata.total_size)
    std::uint64_t param_count = 0;    // weights incl. unpacked int4/MXFP4 values (0 for an index)
    std::uint64_t shard_count = 0;    // an index: distinct files in weight_map
    std::vector<SafetensorsGroup> groups;
    std::vector<std::string> notes;   // assumptions ("qweight read as 4-bit: ...")
};

// The JSON length from the first 8 bytes. Error when fewer than 8 bytes, 0, or above the 100 MB limit
// or the file ("safetensors: the header length 2^63 is longer than the file (1,024 bytes)").
Expected<std::uint64_t> safetensors_header_length(std::string_view first_bytes, std::uint64_t file_size);

// Reads a .safetensors header: `header` is the file's first 8 + length bytes (more is ignored). Errors
// name the tensor: unknown dtype, shape/offsets disagreeing, offsets past the file or overlapping.
Expected<SafetensorsSummary> read_safetensors_header(std::string_view header, std::uint64_t file_size);

// Reads a model.safetensors.index.json (metadata.total_size and weight_map).
Expected<SafetensorsSummary> read_safetensors_index(std::string_view json_text);

// The summary as a JSON object: format, tensors, data_bytes, parameters, shards, groups.
std::string safetensors_json(const SafetensorsSummary& summary);

// Report lines: groups by dtype and role with bytes, the total, notes.
std::string safetensors_report(const SafetensorsSummary& summary);

}  // namespace llm_memory
