// GGUF header parsing as a resumable sequence of items (the fixed header, one metadata pair, a run of
// array elements, one tensor info). An item is parsed only when all its bytes are buffered, so a chunk
// may end anywhere; consumed bytes are dropped. Every count and length is checked against the bytes the
// file can still hold before anything is reserved, so 2^63 counts and 1 TB strings are errors, not
// allocations. Layout: github.com/ggml-org/ggml docs/gguf.md; type sizes: ggml.c type_traits.
//
// Sections: ggml type table · metadata keys we keep · little-endian readers · GgufReader::step and its
//   phases (header, metadata pair, array run, tensor info) · feed / finish · read_gguf_header · gguf_model (architecture from metadata) · gguf_json · gguf_report.
#include "gguf.hpp"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <utility>

#include "json_writer.hpp"
#include "quantity.hpp"
#include "report.hpp"

namespace llm_memory {
namespace {


constexpr std::uint64_t kMaxString = 64ULL << 20;  // one metadata string or name
constexpr std::uint32_t kMaxDims = 4;              // GGML_MAX_DIMS
constexpr std::size_t kCompactAt = 1 << 20;
enum Phase { kHeader, kMetadata, kArray, kTensors, kDone };

// gguf value types: uint8, int8, uint16, int16, uint32, int32, float32, bool, string, array, uint64, int64, float64.
constexpr int kValueSize[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};
constexpr std::uint32_t kString = 8;
constexpr std::uint32_t kArrayType = 9;

constexpr GgmlType kTypes[] = {
    {0, "F32", 1, 4},        {1, "F16", 1, 2},        {2, "Q4_0", 32, 18},     {3, "Q4_1", 32, 20},
    {6, "Q5_0", 32, 22},     {7, "Q5_1", 32, 24},     {8, "Q8_0", 32, 34},     {9, "Q8_1", 32, 36},
    {10, "Q2_K", 256, 84},   {11, "Q3_K", 256, 110},  {12, "Q4_K", 256, 144},  {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210},  {15, "Q8_K", 256, 292},  {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},
    {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50}, {20, "IQ4_NL", 32, 18},  {21, "IQ3_S", 256, 110},
    {22, "IQ2_S", 256, 82},  {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},       {25, "I16", 1, 2},
    {26, "I32", 1, 4},       {27, "I64", 1, 8},       {28, "F64", 1, 8},       {29, "IQ1_M", 256, 56},
    {30, "BF16", 1, 2},      {34, "TQ1_0", 256, 54},  {35, "TQ2_0", 256, 66},  {39, "MXFP4", 32, 17},
    {40, "NVFP4", 64, 36},   {41, "Q1_0", 128, 18},
};

// Metadata integers the model needs, as key suffixes after "<architecture>.", and the summary's field
// each one fills.
struct NumberKey {
    const char* suffix;
    std::uint64_t GgufSummary::*field;
};
constexpr NumberKey kNumberKeys[] = {
    {"block_count", &GgufSummary::block_count},
    {"context_length", &GgufSummary::context_length},
    {"embedding_length", &GgufSummary::embedding_length},
    {"feed_forward_length", &GgufSummary::feed_forward_length},
    {"attention.head_count", &GgufSummary::head_count},
    {"attention.head_count_kv", &GgufSummary::head_count_kv},
    {"attention.key_length", &GgufSummary::key_length},
    {"attention.value_length", &GgufSummary::value_length},
    {"attention.sliding_window", &GgufSummary::sliding_window},
    {"expert_count", &GgufSummary::expert_count},
    {"expert_used_count", &GgufSummary::expert_used_count},
    {"attention.kv_lora_rank", &GgufSummary::kv_lora_rank},
    {"rope.dimension_count", &GgufSummary::rope_dimension_count},
    {"vocab_size", &GgufSummary::vocab_size},
    {"ssm.conv_kernel", &GgufSummary::ssm_conv_kernel},
    {"ssm.inner_size", &GgufSummary::ssm_inner_size},
    {"ssm.state_size", &GgufSummary::ssm_state_size},
    {"ssm.time_step_rank", &GgufSummary::ssm_time_step_rank},
    {"ssm.group_count", &GgufSummary::ssm_group_count},
    {"shortconv.l_cache", &GgufSummary::shortconv_l_cache},
    {"attention.key_length_swa", &GgufSummary::key_length_swa},
    {"attention.shared_kv_layers", &GgufSummary::shared_kv_layers},
    {"embedding_length_per_layer_input", &GgufSummary::embedding_length_per_layer_input},
};

// Per-layer lists kept whole (integers or booleans, at most kMaxLayerList entries), by key suffix.
struct ListKey {
    const char* suffix;
    std::vector<std::uint64_t> GgufSummary::*field;
};
constexpr ListKey kLayerLists[] = {{"attention.sliding_window_pattern", &GgufSummary::sliding_window_pattern},
                                   {"attention.head_count_kv", &GgufSummary::head_count_kv_layers}};
constexpr std::uint64_t kMaxLayerList = 10'000;

bool wanted_number(const std::string& key) {
    if (key == "general.alignment") return true;
    const std::size_t dot = key.find('.');
    if (dot == std::string::npos) return false;
    for (const NumberKey& k : kNumberKeys)
        if (key.compare(dot + 1, std::string::npos, k.suffix) == 0) return true;
    return false;
}

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
    std::uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<std::size_t>(i)]);
    return v;
}

// An integer metadata value as unsigned (negative signed values read as 0).
std::uint64_t integer_value(const std::string& b, std::size_t at, std::uint32_t type) {
    const int size = kValueSize[type];
    const std::uint64_t raw = le(b, at, size);
    const bool is_signed = type == 1 || type == 3 || type == 5 || type == 11;
    if (is_signed && (raw >> (size * 8 - 1)) != 0) return 0;
    return raw;
}

bool is_integer_type(std::uint32_t type) { return type <= 5 || type == 10 || type == 11; }

// The pieces joined: one call where a chain of operator+ builds and frees a temporary per piece (the
// page's wasm is smaller so; messages and report lines).
std::string cat(std::initializer_list<std::string_view> pieces) {
    std::size_t length = 0;
    for (const std::string_view piece : pieces) length += piece.size();
    std::string out;
    out.reserve(length);
    for (const std::string_view piece : pieces) out.append(piece.data(), piece.size());
    return out;
}

// The breakdown part of a GGUF tensor name (llama.cpp's names: token_embd, output, blk.N.attn_q, ...).
void add_part(ParamBreakdown& p, const std::string& name, std::uint64_t elements) {
    auto has = [&](const char* s) { return name.find(s) != std::string::npos; };
    if (name.rfind("token_embd", 0) == 0 || name.rfind("position_embd", 0) == 0) p.embedding_count += elements;
    else if (name.rfind("output.", 0) == 0) p.output_head_count += elements;
    else if (name.rfind("v.", 0) == 0 || name.rfind("mm.", 0) == 0) p.vision_count += elements;  // a vision tower, projector
    else if (has(".ssm_") || has(".shortconv.")) p.recurrent_count += elements;  // Mamba / GDN / short-conv mixers
    else if (has("norm")) p.norm_count += elements;
    else if (has("_exps")) p.expert_count += elements;
    else if (has("_shexp")) p.shared_expert_count += elements;
    else if (has("ffn_gate_inp") || has("exp_probs")) p.router_count += elements;
    else if (has("ffn")) p.mlp_count += elements;
    else p.attention_count += elements;
}

// The placement group of a tensor: blk.N.* to layer N (N below 100000), token_embd / position_embd,
// output.*, output_norm.*, and the rest.
void add_layout(WeightLayout& layout, const std::string& name, std::uint64_t bytes) {
    layout.known = true;
    if (name.rfind("blk.", 0) == 0) {
        std::uint64_t layer = 0;
        std::size_t i = 4;
        while (i < name.size() && i < 10 && name[i] >= '0' && name[i] <= '9') layer = layer * 10 + static_cast<std::uint64_t>(name[i++] - '0');
        if (i > 4 && i < name.size() && name[i] == '.' && layer < 100000) {
            if (layout.layer_bytes.size() <= layer) layout.layer_bytes.resize(static_cast<std::size_t>(layer) + 1, 0);
            layout.layer_bytes[static_cast<std::size_t>(layer)] += bytes;
            layout.layer_tensors.push_back({name, layer, bytes});
            return;
        }
    }
    if (name.rfind("token_embd", 0) == 0 || name.rfind("position_embd", 0) == 0) layout.token_embd_bytes += bytes;
    else if (name.rfind("output_norm", 0) == 0) layout.output_norm_bytes += bytes;
    else if (name.rfind("output.", 0) == 0) layout.output_bytes += bytes;
    else layout.other_bytes += bytes;
}

}  // namespace

const std::vector<GgmlType>& ggml_types() {
    static const std::vector<GgmlType> types(std::begin(kTypes), std::end(kTypes));  // built on first use only
    return types;
}

const GgmlType* find_ggml_type(std::uint32_t id) {
    for (const GgmlType& t : kTypes)
        if (t.id == id) return &t;
    return nullptr;
}

GgufReader::GgufReader(std::uint64_t file_size) : file_size_(file_size) {}

// The phase's next item at at_; false (leaving at_) when its bytes are not all buffered yet, or on an error.
bool GgufReader::step(std::string& error) {
    switch (phase_) {
        case kHeader: return read_header(error);
        case kMetadata: return read_metadata_pair(error);
        case kArray: return read_array_run(error);
        case kTensors: return read_tensor_info(error);
        default: return false;
    }
}

// A length-prefixed string at `at`: true when it is all buffered, with its length (checked against the file);
// false when not yet buffered, or with `error` set when the length cannot be right.
bool GgufReader::string_at(std::size_t at, std::uint64_t& length, const char* what, std::string& error) const {
    const std::string& b = buffer_;
    if (b.size() - at < 8) return false;
    length = le(b, at, 8);
    const std::uint64_t offset = consumed_ + at;
    if (length > kMaxString || length > (file_size_ > offset + 8 ? file_size_ - offset - 8 : 0)) {
        error = cat({"GGUF: ", what, " has a length of ", format_count_exact(length),
                     " bytes, longer than the rest of the file at byte ", format_count_exact(offset)});
        return false;
    }
    return b.size() - at - 8 >= length;
}

// After a metadata pair (or its array): the next pair, or the tensor infos after the last one.
void GgufReader::end_metadata_pair() {
    phase_ = kMetadata;
    if (++index_ == summary_.metadata_count) {
        index_ = 0;
        phase_ = summary_.tensor_count > 0 ? kTensors : kDone;
    }
}

// The fixed header: magic, version, tensor and metadata counts (each checked against the file size).
bool GgufReader::read_header(std::string& error) {
    const std::string& b = buffer_;
    const std::size_t avail = b.size() - at_;
    if (avail < 4) return false;
    if (b.compare(0, 4, "GGUF") != 0) {
        error = cat({"GGUF: not a GGUF file (it starts with \"", printable_excerpt(std::string_view(b).substr(0, 4), 4),
                     "\", not \"GGUF\")"});
        return false;
    }
    if (avail < 24) return false;
    summary_.version = static_cast<std::uint32_t>(le(b, 4, 4));
    if (summary_.version == 1) {
        error = "GGUF: version 1 files (2023) are not supported; convert the model again";
        return false;
    }
    if (summary_.version < 2 || summary_.version > 3) {
        error = cat({"GGUF: unknown version ", std::to_string(summary_.version), " (2 and 3 are read)"});
        return false;
    }
    summary_.tensor_count = le(b, 8, 8);
    summary_.metadata_count = le(b, 16, 8);
    // A tensor info takes at least 32 bytes, a metadata pair at least 13.
    if (summary_.tensor_count > file_size_ / 32) {
        error = cat({"GGUF: the header claims ", format_count_exact(summary_.tensor_count), " tensors, more than a file of ",
                     format_count_exact(file_size_), " bytes can hold"});
        return false;
    }
    if (summary_.metadata_count > file_size_ / 13) {
        error = cat({"GGUF: the header claims ", format_count_exact(summary_.metadata_count),
                     " metadata entries, more than a file of ", format_count_exact(file_size_), " bytes can hold"});
        return false;
    }
    at_ += 24;
    phase_ = summary_.metadata_count > 0 ? kMetadata : (summary_.tensor_count > 0 ? kTensors : kDone);
    return true;
}

// One metadata pair: its key, type and value; an array's elements follow in read_array_run.
bool GgufReader::read_metadata_pair(std::string& error) {
    const std::string& b = buffer_;
    const std::uint64_t pos = consumed_ + at_;
    const std::uint64_t left_in_file = file_size_ > pos ? file_size_ - pos : 0;
    std::size_t p = at_;
    std::uint64_t key_length = 0;
    if (!string_at(p, key_length, "a metadata key", error)) return false;
    const std::string key = b.substr(p + 8, static_cast<std::size_t>(key_length));
    p += 8 + static_cast<std::size_t>(key_length);
    if (b.size() - p < 4) return false;
    const std::uint32_t type = static_cast<std::uint32_t>(le(b, p, 4));
    p += 4;
    const std::string shown = cat({"metadata \"", printable_excerpt(key, 60), "\""});
    if (type > 12) {
        error = cat({"GGUF: ", shown, " has unknown value type ", std::to_string(type), " at byte ",
                     format_count_exact(consumed_ + p - 4)});
        return false;
    }
    if (type == kString) {
        std::uint64_t length = 0;
        if (!string_at(p, length, shown.c_str(), error)) return false;
        const std::string value = b.substr(p + 8, static_cast<std::size_t>(std::min<std::uint64_t>(length, 200)));
        if (key == "general.architecture") summary_.architecture = printable_excerpt(value, 40);
        if (key == "general.name") summary_.model_name = printable_excerpt(value, 80);
        read_clip_item(summary_, key, value, 0);
        p += 8 + static_cast<std::size_t>(length);
    } else if (type == kArrayType) {
        if (b.size() - p < 12) return false;
        array_type_ = static_cast<std::uint32_t>(le(b, p, 4));
        array_left_ = le(b, p + 4, 8);
        p += 12;
        if (array_type_ > 12 || array_type_ == kArrayType) {
            error = cat({"GGUF: ", shown, " is an array of unsupported type ", std::to_string(array_type_)});
            return false;
        }
        const std::uint64_t smallest = array_type_ == kString ? 8 : static_cast<std::uint64_t>(kValueSize[array_type_]);
        if (array_left_ > left_in_file / smallest) {
            error = cat({"GGUF: ", shown, " claims ", format_count_exact(array_left_),
                         " elements, more than the rest of the file can hold"});
            return false;
        }
        if (key == "tokenizer.ggml.tokens") token_count_ = array_left_;
        array_key_ = wanted_number(key) && is_integer_type(array_type_) ? key : std::string();
        array_max_ = 0;
        array_list_ = -1;
        const std::size_t dot = key.find('.');
        for (int i = 0; i < static_cast<int>(std::size(kLayerLists)); ++i)
            if (dot != std::string::npos && key.compare(dot + 1, std::string::npos, kLayerLists[i].suffix) == 0 &&
                (is_integer_type(array_type_) || array_type_ == 7) && array_left_ <= kMaxLayerList) {
                array_list_ = i;
                (summary_.*kLayerLists[i].field).clear();
                array_key_ = key;
            }
        phase_ = kArray;
    } else {
        const std::size_t size = static_cast<std::size_t>(kValueSize[type]);
        if (b.size() - p < size) return false;
        if (is_integer_type(type)) {
            const std::uint64_t value = integer_value(b, p, type);
            if (wanted_number(key)) numbers_.emplace_back(key, value);
            read_clip_item(summary_, key, {}, value);
        }
        p += size;
    }
    at_ = p;
    if (phase_ != kArray) end_metadata_pair();
    return true;
}

// As many elements of the current array as are buffered (integers of a wanted key keep their maximum).
bool GgufReader::read_array_run(std::string& error) {
    const std::string& b = buffer_;
    const std::size_t avail = b.size() - at_;
    const std::size_t p = at_;
    if (array_left_ > 0) {
        if (array_type_ == kString) {
            std::uint64_t length = 0;
            if (!string_at(p, length, "an array string", error)) return false;
            at_ = p + 8 + static_cast<std::size_t>(length);
            --array_left_;
        } else {
            const std::size_t size = static_cast<std::size_t>(kValueSize[array_type_]);
            const std::uint64_t n = std::min<std::uint64_t>(array_left_, avail / size);
            if (n == 0) return false;
            if (!array_key_.empty())
                for (std::uint64_t i = 0; i < n; ++i) {
                    const std::uint64_t v = integer_value(b, p + static_cast<std::size_t>(i) * size, array_type_);
                    array_max_ = std::max(array_max_, v);
                    if (array_list_ >= 0) (summary_.*kLayerLists[array_list_].field).push_back(v);
                }
            at_ = p + static_cast<std::size_t>(n) * size;
            array_left_ -= n;
        }
    }
    if (array_left_ == 0) {
        if (!array_key_.empty() && wanted_number(array_key_)) numbers_.emplace_back(array_key_, array_max_);
        end_metadata_pair();
    }
    return true;
}

// One tensor info: name, dimensions, type and offset; its bytes join the totals by type.
bool GgufReader::read_tensor_info(std::string& error) {
    const std::string& b = buffer_;
    std::size_t p = at_;
    std::uint64_t name_length = 0;
    const std::string which = "tensor " + std::to_string(index_);
    if (!string_at(p, name_length, which.c_str(), error)) return false;
    const std::string name = b.substr(p + 8, static_cast<std::size_t>(name_length));
    p += 8 + static_cast<std::size_t>(name_length);
    const std::string shown = cat({which, " \"", printable_excerpt(name, 60), "\""});
    if (b.size() - p < 4) return false;
    const std::uint32_t dims = static_cast<std::uint32_t>(le(b, p, 4));
    if (dims == 0 || dims > kMaxDims) {
        error = cat({"GGUF: ", shown, " has ", std::to_string(dims), " dimensions (1 to 4 are valid)"});
        return false;
    }
    if (b.size() - p < 4 + 8ULL * dims + 12) return false;
    p += 4;
    u128 elements = 1;
    std::uint64_t row = 0;
    for (std::uint32_t d = 0; d < dims; ++d) {
        const std::uint64_t extent = le(b, p, 8);
        if (d == 0) row = extent;
        elements *= extent;
        if (elements > (static_cast<u128>(1) << 62)) {
            error = cat({"GGUF: ", shown, " has more elements than any model (dimensions too large)"});
            return false;
        }
        p += 8;
    }
    const std::uint32_t type_id = static_cast<std::uint32_t>(le(b, p, 4));
    const std::uint64_t offset = le(b, p + 4, 8);
    p += 12;
    const GgmlType* type = find_ggml_type(type_id);
    if (type == nullptr) {
        error = cat({"GGUF: ", shown, " has unknown tensor type ", std::to_string(type_id), " (not a ggml type this reader knows)"});
        return false;
    }
    if (row % type->block_weights != 0) {
        error = cat({"GGUF: ", shown, " has rows of ", format_count_exact(row), " values, not a multiple of ", type->name,
                     "'s block of ", std::to_string(type->block_weights)});
        return false;
    }
    const u128 bytes = elements / type->block_weights * type->block_bytes;
    if (offset > file_size_ || bytes > file_size_ - offset) {
        error = cat({"GGUF: ", shown, " (", format_count_exact(static_cast<std::uint64_t>(bytes)), " bytes at data offset ",
                     format_count_exact(offset), ") runs past the end of the file (a truncated download?)"});
        return false;
    }
    const std::uint64_t count = static_cast<std::uint64_t>(elements);
    // by_type stays in ascending type order: a new type is inserted at its place.
    auto it = summary_.by_type.begin();
    while (it != summary_.by_type.end() && it->type < type_id) ++it;
    if (it == summary_.by_type.end() || it->type != type_id) it = summary_.by_type.insert(it, GgufTypeTotal{type_id, 0, 0, 0});
    it->tensor_count += 1;
    it->element_count += count;
    it->bytes += static_cast<std::uint64_t>(bytes);
    summary_.param_count += count;
    summary_.weight_bytes += static_cast<std::uint64_t>(bytes);
    add_part(summary_.parts, name, count);
    add_layout(summary_.layout, name, static_cast<std::uint64_t>(bytes));
    read_clip_item(summary_, name, {}, 0);
    data_end_ = std::max<std::uint64_t>(data_end_, offset + static_cast<std::uint64_t>(bytes));
    at_ = p;
    if (++index_ == summary_.tensor_count) phase_ = kDone;
    return true;
}

Expected<bool> GgufReader::feed(std::string_view chunk) {
    if (done_) return true;
    buffer_.append(chunk.data(), chunk.size());
    std::string error;
    while (phase_ != kDone && step(error)) {
    }
    if (!error.empty()) return Error{error};
    if (at_ >= kCompactAt || phase_ == kDone) {
        buffer_.erase(0, at_);
        consumed_ += at_;
        at_ = 0;
    }
    if (phase_ != kDone) return false;

    // The header is complete: resolve the metadata and check the data section fits the file.
    done_ = true;
    auto number = [&](const std::string& key) -> std::uint64_t {
        for (const auto& kv : numbers_)
            if (kv.first == key) return kv.second;
        return 0;
    };
    GgufSummary& s = summary_;
    const std::uint64_t alignment = number("general.alignment");
    if (alignment != 0) {
        if ((alignment & (alignment - 1)) != 0 || alignment > (1u << 20))
            return Error{cat({"GGUF: general.alignment ", format_count_exact(alignment), " is not a power of two up to 1 MiB"})};
        s.alignment = alignment;
    }
    s.data_offset = (consumed_ + s.alignment - 1) / s.alignment * s.alignment;
    const std::uint64_t data_end = data_end_;
    if (s.tensor_count > 0 && (s.data_offset > file_size_ || data_end > file_size_ - s.data_offset))
        return Error{cat({"GGUF: the tensor data needs ", format_count_exact(s.data_offset + data_end), " bytes but the file has ",
                          format_count_exact(file_size_), " (a truncated download?)"})};
    const std::string prefix = s.architecture + ".";
    for (const NumberKey& k : kNumberKeys) s.*k.field = number(prefix + k.suffix);
    if (s.vocab_size == 0) s.vocab_size = token_count_;
    ParamBreakdown& parts = s.parts;
    parts.total_count = s.param_count;
    parts.active_count = s.param_count;
    if (s.expert_count > 0 && s.expert_used_count <= s.expert_count)
        parts.active_count = s.param_count - parts.expert_count +
                             static_cast<std::uint64_t>(static_cast<u128>(parts.expert_count) * s.expert_used_count / s.expert_count);
    return true;
}

Expected<bool> GgufReader::finish() const {
    if (done_) return true;
    if (file_size_ < 4 && buffer_.size() < 4) return Error{"GGUF: the file is too short to be a GGUF file"};
    return Error{cat({"GGUF: the file ends inside the header at byte ", format_count_exact(consumed_ + buffer_.size()),
                      " (a truncated download?)"})};
}

Expected<GgufSummary> read_gguf_header(std::string_view bytes, std::uint64_t file_size) {
    GgufReader reader(file_size);
    const Expected<bool> fed = reader.feed(bytes);
    if (!fed) return Error{fed.error()};
    const Expected<bool> done = reader.finish();
    if (!done) return Error{done.error()};
    return reader.summary();
}

namespace {

// The recurrent layers of a hybrid or recurrent model, from the tensor names of each blk.N: a layer with
// ssm_* or shortconv.* tensors is recurrent, one with attn_q/attn_k/attn_v is attention (llama.cpp's names,
// src/llama-arch.cpp; Qwen3-Next's linear-attention layers also hold attn_qkv/attn_gate, which are not
// these). The mixer kind follows the architecture, the sizes its ssm.* keys. A layer with both is Falcon-H1's
// parallel attention and Mamba-2 (MixerKind::parallel) in falcon-h1 files and an error in any other; a layer with
// neither is Nemotron-H's MLP or MoE block (ffn_*_exps tensors) in nemotron_h and nemotron_h_moe files and an error
// in any other, as are recurrent tensors in an architecture not listed: named, never guessed.
Expected<bool> read_recurrent_layers(const GgufSummary& s, Architecture& a) {
    const std::uint64_t layers = s.block_count;
    std::vector<std::uint8_t> attention(static_cast<std::size_t>(layers), 0), recurrent(static_cast<std::size_t>(layers), 0),
        seen(static_cast<std::size_t>(layers), 0), experts(static_cast<std::size_t>(layers), 0);
    bool any_recurrent = false;
    for (const WeightLayout::Tensor& t : s.layout.layer_tensors) {
        if (t.layer >= layers) continue;
        seen[static_cast<std::size_t>(t.layer)] = 1;
        const std::size_t dot = t.name.find('.', 4);
        const std::string base = dot == std::string::npos ? std::string() : t.name.substr(dot + 1, t.name.find('.', dot + 1) - dot - 1);
        if (base.rfind("ssm_", 0) == 0 || base == "shortconv") recurrent[static_cast<std::size_t>(t.layer)] = 1, any_recurrent = true;
        else if (base == "attn_q" || base == "attn_k" || base == "attn_v") attention[static_cast<std::size_t>(t.layer)] = 1;
        else if (base.size() > 5 && base.compare(base.size() - 5, 5, "_exps") == 0) experts[static_cast<std::size_t>(t.layer)] = 1;
    }
    if (!any_recurrent) return true;
    const std::string& arch = s.architecture;
    RecurrentShape r;
    const bool nemotron = arch == "nemotron_h" || arch == "nemotron_h_moe";
    if (arch == "qwen3next" || arch == "qwen35" || arch == "qwen35moe") r.kind = MixerKind::gated_deltanet;
    else if (arch == "mamba2" || arch == "granitehybrid" || arch == "nemotron_h" || arch == "nemotron_h_moe" || arch == "falcon-h1") r.kind = MixerKind::mamba2;
    else if (arch == "mamba" || arch == "jamba") r.kind = MixerKind::mamba;
    else if (arch == "lfm2" || arch == "lfm2moe") r.kind = MixerKind::short_conv;
    else
        return Error{cat({"GGUF: ", arch, " has recurrent layers (ssm_* tensors) of a kind not modelled"})};
    for (std::uint64_t il = 0; il < layers; ++il) {
        const std::size_t i = static_cast<std::size_t>(il);
        if (!seen[i])
            return Error{cat({"GGUF: layer ", std::to_string(il), "'s tensors are not in this file (a split file?)"})};
        if (attention[i] && recurrent[i] && arch != "falcon-h1")
            return Error{cat({"GGUF: layer ", std::to_string(il), " holds attention and a recurrent mixer side by side, which only falcon-h1 files do (this is ", arch, ")"})};
        if (!attention[i] && !recurrent[i] && !nemotron)
            return Error{cat({"GGUF: layer ", std::to_string(il), " has neither attention nor a recurrent mixer, which only Nemotron-H's MLP and MoE blocks have (this is ", arch, ")"})};
    }
    auto need = [&](std::uint64_t value, const char* key) -> Expected<bool> {
        if (value == 0 || value > 1'000'000) return Error{cat({"GGUF: the metadata lacks ", arch, ".", key, ", which sizes the recurrent state"})};
        return true;
    };
    if (r.kind == MixerKind::short_conv) {
        if (auto ok = need(s.shortconv_l_cache, "shortconv.l_cache"); !ok) return ok;
        r.d_inner = s.embedding_length;
        r.conv_kernel = s.shortconv_l_cache;
    } else {
        for (const auto& [value, key] : {std::pair<std::uint64_t, const char*>{s.ssm_conv_kernel, "ssm.conv_kernel"},
                                         {s.ssm_inner_size, "ssm.inner_size"}, {s.ssm_state_size, "ssm.state_size"},
                                         {s.ssm_time_step_rank, "ssm.time_step_rank"}})
            if (auto ok = need(value, key); !ok) return ok;
        if (r.kind != MixerKind::mamba)
            if (auto ok = need(s.ssm_group_count, "ssm.group_count"); !ok) return ok;
        r.conv_kernel = s.ssm_conv_kernel;
        r.d_inner = s.ssm_inner_size;
        r.d_state = s.ssm_state_size;
        if (r.kind == MixerKind::mamba) r.dt_rank = s.ssm_time_step_rank;  // Mamba-1: no groups
        else r.n_heads = s.ssm_time_step_rank, r.n_groups = s.ssm_group_count;
    }
    a.recurrent = r;
    a.layer_mixers.assign(static_cast<std::size_t>(layers), static_cast<std::uint8_t>(r.kind));
    for (std::size_t i = 0; i < a.layer_mixers.size(); ++i)
        if (attention[i]) a.layer_mixers[i] = static_cast<std::uint8_t>(recurrent[i] ? MixerKind::parallel : MixerKind::attention);
        else if (!recurrent[i]) a.layer_mixers[i] = static_cast<std::uint8_t>(MixerKind::none);
    if (nemotron) {
        // Nemotron-H: the MoE blocks are the ones whose tensors include experts; the other token-free blocks are MLPs.
        a.family = ModelFamily::nemotron_h;
        a.dense_mlp_layers.assign(static_cast<std::size_t>(layers), 0);
        for (std::size_t i = 0; i < a.layer_mixers.size(); ++i)
            a.dense_mlp_layers[i] = a.layer_mixers[i] == static_cast<std::uint8_t>(MixerKind::none) && !experts[i];
    }
    return true;
}

// Gemma 4 (src/models/gemma4.cpp, llama-hparams.cpp): each layer's KV width is its head size (key_length_swa on a
// sliding layer, key_length on a global one) x its KV heads (head_count_kv, one count or a list per layer); which
// layers slide is the sliding_window_pattern list; the last shared_kv_layers layers read an earlier layer's cache. V is
// cached beside K on every layer, also where the global layers have no attn_v (K = V). Every key llama.cpp requires
// is required here, by name.
Expected<bool> read_gemma4_layers(const GgufSummary& s, Architecture& a) {
    const std::uint64_t layers = s.block_count;
    const std::vector<std::uint64_t>& pattern = s.sliding_window_pattern;
    const std::vector<std::uint64_t>& kv = s.head_count_kv_layers;
    auto bad = [](std::uint64_t v) { return v == 0 || v > 1'000'000; };
    const char* key = pattern.size() != layers           ? "attention.sliding_window_pattern, one entry a layer"
                      : bad(s.sliding_window)            ? "attention.sliding_window"
                      : bad(s.key_length_swa)            ? "attention.key_length_swa"
                      : bad(s.key_length)                ? "attention.key_length"
                      : !kv.empty() && kv.size() != layers ? "attention.head_count_kv, one count or one a layer"
                      : s.shared_kv_layers >= layers     ? "attention.shared_kv_layers, below block_count"
                                                         : nullptr;
    if (key != nullptr) return Error{cat({"GGUF: gemma4 files need ", key, ", as llama.cpp does"})};
    // One KV head count for the sliding layers and one for the global ones (as Gemma 4's configs have them).
    std::uint64_t heads[2] = {0, 0};
    for (std::size_t il = 0; il < pattern.size(); ++il) {
        const std::uint64_t h = kv.empty() ? s.head_count_kv : kv[il];
        std::uint64_t& kind = heads[pattern[il] != 0 ? 0 : 1];
        if (h == 0 || h > s.head_count || (kind != 0 && kind != h))
            return Error{cat({"GGUF: gemma4 layer ", std::to_string(il), "'s ", std::to_string(h),
                              " KV heads are not modelled: 1 to head_count, one count for the sliding layers and one for the global ones"})};
        kind = h;
    }
    a.family = ModelFamily::gemma4;
    a.sliding_window = s.sliding_window;
    a.sliding_layers.clear();
    for (const std::uint64_t x : pattern) a.sliding_layers.push_back(x != 0);
    a.head_dim = s.key_length_swa;
    a.global_head_dim = s.key_length;
    a.num_key_value_heads = heads[0] != 0 ? heads[0] : heads[1];
    a.global_kv_heads = heads[1] != 0 ? heads[1] : heads[0];
    a.kv_shared_layers = s.shared_kv_layers;
    a.per_layer_input_size = s.embedding_length_per_layer_input;
    return true;
}

}  // namespace

Expected<ModelSource> gguf_model(const GgufSummary& s, const std::string& display_name) {
    if (s.block_count == 0 || s.head_count == 0 || s.embedding_length == 0)
        return Error{cat({"GGUF: the metadata lacks ", s.architecture, ".block_count, attention.head_count or embedding_length"})};
    if (s.block_count > 10'000 || s.head_count > 100'000 || s.embedding_length > 1'000'000 || s.param_count == 0)
        return Error{"GGUF: the metadata's layer, head or width counts are out of range"};
    Architecture a;
    a.model_type = s.architecture;
    a.hidden_size = s.embedding_length;
    a.num_hidden_layers = s.block_count;
    a.num_attention_heads = s.head_count;
    a.num_key_value_heads = s.head_count_kv > 0 && s.head_count_kv <= s.head_count ? s.head_count_kv : s.head_count;
    a.head_dim = s.key_length > 0 && s.key_length <= 1'000'000 ? s.key_length : s.embedding_length / s.head_count;
    a.intermediate_size = s.feed_forward_length;
    a.vocab_size = s.vocab_size;
    a.max_position_embeddings = s.context_length;
    a.num_experts = s.expert_count <= 100'000 ? s.expert_count : 0;
    a.num_experts_per_tok = s.expert_used_count <= a.num_experts ? s.expert_used_count : 0;
    if (s.architecture == "deepseek2" && s.kv_lora_rank > 0 && s.kv_lora_rank <= 1'000'000) {
        a.kv_lora_rank = s.kv_lora_rank;
        a.qk_rope_head_dim = s.rope_dimension_count <= 1'000'000 ? s.rope_dimension_count : 0;
    }
    if (s.sliding_window > 0 && s.sliding_window <= 100'000'000) {
        // llama.cpp's per-architecture patterns (src/llama-model.cpp set_swa_pattern): Gemma 2 and gpt-oss
        // alternate (layer 0 slides), Gemma 3 slides 5 of 6, Cohere 2 slides 3 of 4; others slide every layer.
        const std::string& arch = s.architecture;
        std::uint64_t pattern = 0;
        if (arch == "gemma2" || arch == "gpt-oss") pattern = 2;
        else if (arch == "gemma3") pattern = 6;
        else if (arch == "cohere2") pattern = 4;
        a.sliding_window = s.sliding_window;
        a.sliding_layers.assign(static_cast<std::size_t>(a.num_hidden_layers), true);
        if (pattern > 0)
            for (std::size_t i = 0; i < a.sliding_layers.size(); ++i) a.sliding_layers[i] = (i + 1) % pattern != 0;
    }
    if (s.architecture == "gemma4")
        if (const Expected<bool> g = read_gemma4_layers(s, a); !g) return Error{g.error()};
    if (const Expected<bool> hybrid = read_recurrent_layers(s, a); !hybrid) return Error{hybrid.error()};
    ModelSource m;
    m.display_name = display_name;
    m.architecture = std::move(a);
    m.counts = s.parts;
    // The layout is kept only when every layer's tensors are there (a split file's first part has not all).
    if (s.layout.layer_bytes.size() == s.block_count) m.layout = s.layout;
    return m;
}

std::string gguf_json(const GgufSummary& s) {
    JsonWriter w;
    w.begin_object().field("format", "gguf").field("version", s.version).field("architecture", s.architecture).field("name", s.model_name);
    w.field("block_count", s.block_count).field("context_length", s.context_length).field("embedding_length", s.embedding_length);
    w.field("feed_forward_length", s.feed_forward_length).field("head_count", s.head_count).field("head_count_kv", s.head_count_kv);
    w.field("key_length", s.key_length).field("sliding_window", s.sliding_window).field("expert_count", s.expert_count);
    w.field("expert_used_count", s.expert_used_count).field("vocab_size", s.vocab_size).field("tensors", s.tensor_count);
    w.field("parameters", s.param_count).field("weight_bytes", s.weight_bytes).field("data_offset", s.data_offset);
    w.key("types").begin_array();
    for (const GgufTypeTotal& t : s.by_type) {
        const GgmlType* type = find_ggml_type(t.type);
        w.begin_object().field("type", type != nullptr ? type->name : "?").field("tensors", t.tensor_count);
        w.field("weights", t.element_count).field("bytes", t.bytes).end_object();
    }
    return w.end_array().end_object().take();
}

std::string gguf_report(const GgufSummary& s) {
    std::string out = "GGUF v" + std::to_string(s.version) + ": " + (s.model_name.empty() ? s.architecture : s.model_name) +
                      " (" + s.architecture + "), " + format_count_exact(s.tensor_count) + " tensors, header " +
                      format_count_exact(s.data_offset) + " bytes\n";
    if (s.block_count > 0)
        out += "  " + std::to_string(s.block_count) + " layers, width " + format_count_exact(s.embedding_length) + ", " +
               std::to_string(s.head_count) + " heads (" + std::to_string(s.head_count_kv) + " KV), context " +
               format_count_exact(s.context_length) +
               (s.sliding_window > 0 ? ", sliding window " + format_count_exact(s.sliding_window) : std::string()) +
               (s.expert_count > 0 ? ", " + std::to_string(s.expert_used_count) + " of " + std::to_string(s.expert_count) + " experts" : std::string()) +
               "\n";
    for (const GgufTypeTotal& t : s.by_type) {
        const GgmlType* type = find_ggml_type(t.type);
        out += "  " + std::string(type != nullptr ? type->name : "?") + ": " + format_count_exact(t.tensor_count) +
               (t.tensor_count == 1 ? " tensor, " : " tensors, ") + format_count_exact(t.element_count) + " weights, " + format_count_exact(t.bytes) + " bytes\n";
    }
    const std::uint64_t milli_bits = s.param_count > 0
        ? static_cast<std::uint64_t>((static_cast<u128>(s.weight_bytes) * 8000 + s.param_count / 2) / s.param_count) : 0;
    out += "  total: " + format_count_exact(s.param_count) + " weights in " + format_count_exact(s.weight_bytes) + " bytes (" +
           std::to_string(milli_bits / 1000) + "." + std::string(milli_bits % 1000 < 100 ? (milli_bits % 1000 < 10 ? "00" : "0") : "") +
           std::to_string(milli_bits % 1000) + " bits per weight)\n";
    return out;
}

}  // namespace llm_memory
