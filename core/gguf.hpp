// GGUF header reader: the metadata and tensor infos of a llama.cpp model file, fed in chunks, never the
// tensor data. Exact weight bytes per ggml type (block sizes from ggml's type traits), the architecture
// from the metadata, and so an exact KV cache. No file I/O: the caller passes bytes in file order (the CLI
// reads the header only; the page reads File.slice chunks). Bad files are errors naming the problem and
// the byte offset; no count or length from the file is trusted before it is checked against the file size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "architecture.hpp"
#include "result.hpp"

namespace llm_memory {

// One ggml tensor type: values per block and bytes per block (ggml.c type_traits, gguf-py GGML_QUANT_SIZES).
struct GgmlType {
    std::uint32_t id;
    const char* name;            // "Q4_K", "F16", "MXFP4"
    std::uint32_t block_weights; // values per block (1 for plain types, 32 or 256 for quantized ones)
    std::uint32_t block_bytes;   // bytes per block including its scales
};

// The type with this id, or nullptr for an id ggml does not define (or removed: 4, 5, 31-33, 36-38).
const GgmlType* find_ggml_type(std::uint32_t id);
// Every type the reader knows, by id.
const std::vector<GgmlType>& ggml_types();

// Tensors of one type in the file.
struct GgufTypeTotal {
    std::uint32_t type = 0;
    std::uint64_t tensor_count = 0;
    std::uint64_t element_count = 0;
    std::uint64_t bytes = 0;
};

// An mmproj file's clip.* header (llama.cpp's projector, general.architecture "clip"), as read_clip_item collects
// it; empty in a model file.
struct ClipHeader {
    std::string projector_type;  // clip.projector_type (clip.vision. or clip.audio.projector_type in a file with both)
    std::vector<std::pair<std::string, std::uint64_t>> numbers;  // every integer clip.* key, in file order
    std::uint64_t deepstack_layers = 0;  // Qwen3-VL: the layers with a deepstack merger (their v.deepstack.N.fc1 tensors)
};

// What the header says. Metadata counts are 0 when the key is absent.
struct GgufSummary {
    std::uint32_t version = 0;
    std::uint64_t tensor_count = 0;
    std::uint64_t metadata_count = 0;
    std::string architecture;           // general.architecture ("llama", "qwen3moe", "gemma3", ...)
    std::string model_name;             // general.name
    std::uint64_t alignment = 32;       // general.alignment
    std::uint64_t block_count = 0;      // <arch>.block_count: layers
    std::uint64_t context_length = 0;
    std::uint64_t embedding_length = 0;
    std::uint64_t feed_forward_length = 0;
    std::uint64_t head_count = 0;
    std::uint64_t head_count_kv = 0;    // per-layer arrays: the largest entry
    std::uint64_t key_length = 0;       // attention.key_length (head_dim of keys), 0: embedding / heads
    std::uint64_t value_length = 0;
    std::uint64_t sliding_window = 0;
    std::uint64_t expert_count = 0;
    std::uint64_t expert_used_count = 0;
    std::uint64_t kv_lora_rank = 0;     // MLA (deepseek2)
    std::uint64_t rope_dimension_count = 0;
    std::uint64_t vocab_size = 0;       // <arch>.vocab_size, else the tokenizer.ggml.tokens count
    // Recurrent layers (llama.cpp's ssm_d_conv, ssm_d_inner, ssm_d_state, ssm_dt_rank, ssm_n_group; LFM2's
    // shortconv.l_cache): <arch>.ssm.conv_kernel, .inner_size, .state_size, .time_step_rank, .group_count.
    std::uint64_t ssm_conv_kernel = 0;
    std::uint64_t ssm_inner_size = 0;
    std::uint64_t ssm_state_size = 0;
    std::uint64_t ssm_time_step_rank = 0;
    std::uint64_t ssm_group_count = 0;
    std::uint64_t shortconv_l_cache = 0;
    // Gemma 4: the sliding layers' head size, the layers that read an earlier layer's cache, the per-layer
    // embedding width (<arch>.attention.key_length_swa, .attention.shared_kv_layers,
    // .embedding_length_per_layer_input), and two per-layer lists: attention.sliding_window_pattern (1: the layer
    // slides) and attention.head_count_kv when it is an array. Empty when the file has no such array.
    std::uint64_t key_length_swa = 0;
    std::uint64_t shared_kv_layers = 0;
    std::uint64_t embedding_length_per_layer_input = 0;
    std::vector<std::uint64_t> sliding_window_pattern;
    std::vector<std::uint64_t> head_count_kv_layers;
    std::vector<GgufTypeTotal> by_type; // ascending type id
    ClipHeader clip;
    std::uint64_t param_count = 0;      // every tensor's elements
    std::uint64_t weight_bytes = 0;     // every tensor's bytes (the data section without padding)
    std::uint64_t data_offset = 0;      // where the tensor data starts (header size, aligned)
    // Per-part element counts from tensor names (token_embd, output, attn_*, ffn_*_exps, ffn_*_shexp, ...).
    ParamBreakdown parts;
    // Bytes by llama.cpp placement group (blk.N, token_embd, output, output_norm, the rest).
    WeightLayout layout;
};

// Reads a GGUF header from bytes given in file order, in chunks of any size. Memory use is bounded by the
// largest single item (a string of at most 64 MiB), not the header: a 20 MB tokenizer array is skipped
// element by element.
class GgufReader {
public:
    // file_size: the whole file's size in bytes (counts and lengths are checked against it).
    explicit GgufReader(std::uint64_t file_size);
    // Feeds the next chunk. true: the header is complete (summary() is ready); false: feed more;
    // an error names the problem ("GGUF: not a GGUF file (magic is \"PK\\3\\4\")", "GGUF: tensor 3
    // \"blk.0.attn_q.weight\" has unknown type 99", "GGUF: the file ends inside the header at byte 812").
    Expected<bool> feed(std::string_view chunk);
    // Call when the file has no more bytes: an error if the header is incomplete.
    Expected<bool> finish() const;
    // Bytes consumed so far (the position in the file).
    std::uint64_t position() const { return consumed_; }
    const GgufSummary& summary() const { return summary_; }

private:
    bool step(std::string& error);  // parses one item from buffer_; false when it needs more bytes
    // One function per phase (each parses one item, as step does).
    bool read_header(std::string& error);
    bool read_metadata_pair(std::string& error);
    bool read_array_run(std::string& error);
    bool read_tensor_info(std::string& error);
    bool string_at(std::size_t at, std::uint64_t& length, const char* what, std::string& error) const;
    void end_metadata_pair();
    std::uint64_t file_size_;
    std::uint64_t consumed_ = 0;     // file offset of buffer_[0]
    std::string buffer_;
    std::size_t at_ = 0;             // read position in buffer_
    int phase_ = 0;                  // header, metadata, array elements, tensor infos, done
    std::uint64_t index_ = 0;        // metadata or tensor index
    std::uint64_t array_left_ = 0;   // elements left in the current array
    std::uint32_t array_type_ = 0;
    std::string array_key_;
    std::uint64_t array_max_ = 0;
    std::vector<std::pair<std::string, std::uint64_t>> numbers_;  // integer metadata, by key
    int array_list_ = -1;            // the per-layer list (gguf.cpp kLayerLists) the current array fills; -1: none
    std::uint64_t token_count_ = 0;
    std::uint64_t data_end_ = 0;     // the furthest tensor end, relative to the data section
    GgufSummary summary_;
    bool done_ = false;
};

// The reader hands every string and integer metadata pair (text or number) and every tensor name (key, no value)
// to core/mmproj.cpp, which keeps an mmproj file's clip.* items in summary.clip. (The lean page links a stand-in
// that keeps nothing: it has no engine to load a projector.)
void read_clip_item(GgufSummary& summary, const std::string& key, std::string_view text, std::uint64_t number);

// Reads a whole header held in memory (tests, fuzzing): feed + finish.
Expected<GgufSummary> read_gguf_header(std::string_view bytes, std::uint64_t file_size);

// The model described by a GGUF header: architecture for the KV cache (layers, KV heads, head size,
// sliding layers by the architecture's pattern, MLA), exact counts from the tensors. Error when the
// metadata lacks block_count, head_count or embedding_length.
Expected<ModelSource> gguf_model(const GgufSummary& summary, const std::string& display_name);

// The header as a JSON object: format, architecture, metadata counts, tensors, parameters, weight_bytes,
// data_offset, and per type {type, tensors, weights, bytes}.
std::string gguf_json(const GgufSummary& summary);

// The header as report lines: architecture, tensors by type with bytes, total, bits per weight.
std::string gguf_report(const GgufSummary& summary);

}  // namespace llm_memory
