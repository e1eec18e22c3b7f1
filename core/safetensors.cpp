// safetensors headers and index files through core's JSON reader (json.hpp, as config.json), with the
// nesting depth checked first. Sizes: the safetensors format's dtype table (huggingface/safetensors
// Dtype::bitsize); every tensor's data_offsets must match its shape and dtype and lie inside the file.
#include "safetensors.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "architecture.hpp"
#include "json.hpp"
#include "json_writer.hpp"
#include "quantity.hpp"

namespace llm_memory {
namespace {


struct DtypeBits {
    const char* name;
    unsigned bits;
};
constexpr DtypeBits kDtypes[] = {
    {"BOOL", 8},  {"U8", 8},   {"I8", 8},   {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16},
    {"U16", 16},  {"F16", 16}, {"BF16", 16}, {"I32", 32},   {"U32", 32},    {"F32", 32},    {"F64", 64},
    {"I64", 64},  {"U64", 64}, {"F4", 4},   {"F6_E2M3", 6}, {"F6_E3M2", 6},
};

unsigned dtype_bits(const std::string& dtype) {
    for (const DtypeBits& d : kDtypes)
        if (dtype == d.name) return d.bits;
    return 0;
}

bool ends_with(const std::string& s, const char* suffix) {
    const std::string t = suffix;
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// The role of a tensor by its name and dtype, and how many weights one stored element holds (0: none).
const char* role_of(const std::string& name, const std::string& dtype, unsigned& weights_per_element) {
    weights_per_element = 1;
    if (ends_with(name, ".qweight") && dtype == "I32") {
        weights_per_element = 8;  // GPTQ/AWQ pack eight 4-bit values per int32
        return "packed int4 (qweight)";
    }
    if (ends_with(name, "_blocks") && dtype == "U8") {
        weights_per_element = 2;  // MXFP4: two 4-bit values per byte (gpt-oss *_blocks)
        return "MXFP4 blocks";
    }
    for (const char* aux : {".qzeros", ".scales", ".g_idx", "weight_scale_inv", "weight_scale", "input_scale", "_scales",
                            ".absmax", ".quant_map", "quant_state", ".SCB"}) {
        if (ends_with(name, aux)) {
            weights_per_element = 0;
            return "scales/zeros";
        }
    }
    return "weights";
}

Expected<JsonValue> read_json_object(std::string_view text, const char* what) {
    if (max_nesting_depth(text) > 64) return Error{std::string(what) + ": nested deeper than 64 levels"};
    JsonDocument document = parse_json(text);
    if (!document.ok()) return Error{std::string(what) + ": not valid JSON (truncated or malformed)"};
    if (!document.value.is_object()) return Error{std::string(what) + ": must be a JSON object ({...})"};
    return std::move(document.value);
}

bool read_u64(const JsonValue& value, std::uint64_t& out) {
    if (value.is_unsigned()) {
        out = value.unsigned_value();
        return true;
    }
    if (value.is_integer() && value.signed_value() >= 0) {  // "-0"
        out = static_cast<std::uint64_t>(value.signed_value());
        return true;
    }
    return false;
}

// Byte-wise order of two strings (for qsort: libc's, already linked, instead of std::sort's or std::set's
// template code in the page).
int compare_bytes(const std::string& a, const std::string& b) {
    const std::size_t n = std::min(a.size(), b.size());
    const int c = n > 0 ? std::memcmp(a.data(), b.data(), n) : 0;
    if (c != 0) return c;
    return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

}  // namespace

Expected<std::uint64_t> safetensors_header_length(std::string_view first_bytes, std::uint64_t file_size) {
    if (first_bytes.size() < 8 || file_size < 8)
        return Error{"safetensors", "the file is shorter than its 8-byte header length"};
    std::uint64_t length = 0;
    for (int i = 7; i >= 0; --i) length = (length << 8) | static_cast<unsigned char>(first_bytes[static_cast<std::size_t>(i)]);
    if (length == 0) return Error{"safetensors", "the header length is 0"};
    if (length > file_size - 8)
        return Error{"safetensors", "the header length " + format_count_exact(length) + " is longer than the file (" +
                     format_count_exact(file_size) + " bytes; not a safetensors file, or truncated)"};
    if (length > kMaxSafetensorsHeader)
        return Error{"safetensors", "the header length " + format_count_exact(length) + " is above the format's 100 MB limit"};
    if (first_bytes.size() > 8 && first_bytes[8] != '{')
        return Error{"safetensors", "the header does not start with '{' (not a safetensors file)"};
    return length;
}

Expected<SafetensorsSummary> read_safetensors_header(std::string_view header, std::uint64_t file_size) {
    const Expected<std::uint64_t> length = safetensors_header_length(header, file_size);
    if (!length) return length.failure();
    if (header.size() - 8 < *length)
        return Error{"safetensors: the header is cut short (" + format_count_exact(header.size() - 8) + " of " +
                     format_count_exact(*length) + " bytes)"};
    const Expected<JsonValue> document = read_json_object(header.substr(8, static_cast<std::size_t>(*length)), "safetensors header");
    if (!document) return Error{document.error()};
    SafetensorsSummary s;
    s.header_bytes = 8 + *length;
    const std::uint64_t data_size = file_size - s.header_bytes;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;
    for (const JsonMember& member : document->members()) {  // sorted by tensor name
        if (member.key == "__metadata__") continue;
        const std::string shown = "safetensors: tensor \"" + printable_excerpt(member.key, 60) + "\"";
        const JsonValue& t = member.value;
        if (!t.is_object()) return Error{shown + " is not an object"};
        const JsonValue* const dtype_it = t.find("dtype");
        const JsonValue* const shape_it = t.find("shape");
        const JsonValue* const offsets_it = t.find("data_offsets");
        if (dtype_it == nullptr || !dtype_it->is_string()) return Error{shown + " has no dtype"};
        const std::string dtype = dtype_it->text();
        const unsigned bits = dtype_bits(dtype);
        if (bits == 0) return Error{shown + " has unknown dtype \"" + printable_excerpt(dtype, 20) + "\""};
        if (shape_it == nullptr || !shape_it->is_array() || shape_it->items().size() > 16) return Error{shown + " has no valid shape"};
        u128 elements = 1;
        for (const JsonValue& extent : shape_it->items()) {
            std::uint64_t e = 0;
            if (!read_u64(extent, e)) return Error{shown + " has a shape entry that is not a whole number"};
            elements *= e;
            if (elements > (static_cast<u128>(1) << 62)) return Error{shown + " has more elements than any model"};
        }
        std::uint64_t begin = 0;
        std::uint64_t end = 0;
        if (offsets_it == nullptr || !offsets_it->is_array() || offsets_it->items().size() != 2 ||
            !read_u64(offsets_it->items()[0], begin) || !read_u64(offsets_it->items()[1], end) || end < begin)
            return Error{shown + " has no valid data_offsets [begin, end]"};
        if (end > data_size)
            return Error{shown + " ends at data byte " + format_count_exact(end) + ", past the file's " +
                         format_count_exact(data_size) + " data bytes (truncated?)"};
        const u128 expected_bits = elements * bits;
        if (expected_bits % 8 != 0 || expected_bits / 8 != end - begin)
            return Error{shown + ": " + format_count_exact(static_cast<std::uint64_t>(elements)) + " " + dtype +
                         " values do not fill its " + format_count_exact(end - begin) + " bytes"};
        ranges.emplace_back(begin, end);
        unsigned per_element = 1;
        const char* role = role_of(member.key, dtype, per_element);
        auto group = std::find_if(s.groups.begin(), s.groups.end(),
                                  [&](const SafetensorsGroup& g) { return g.dtype == dtype && g.role == role; });
        if (group == s.groups.end()) {
            s.groups.push_back(SafetensorsGroup{dtype, role, 0, 0, 0, 0});
            group = s.groups.end() - 1;
        }
        const std::uint64_t count = static_cast<std::uint64_t>(elements);
        group->tensor_count += 1;
        group->element_count += count;
        group->bytes += end - begin;
        group->param_count += count * per_element;
        s.tensor_count += 1;
        s.data_bytes += end - begin;
        s.param_count += count * per_element;
    }
    using Range = std::pair<std::uint64_t, std::uint64_t>;
    if (ranges.size() > 1)  // (qsort must not get an empty vector's null data)
        std::qsort(ranges.data(), ranges.size(), sizeof(Range), [](const void* a, const void* b) {
            const Range& x = *static_cast<const Range*>(a);
            const Range& y = *static_cast<const Range*>(b);
            return x < y ? -1 : y < x ? 1 : 0;
        });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].first < ranges[i - 1].second)
            return Error{"safetensors: two tensors overlap at data byte " + format_count_exact(ranges[i].first)};
    // The notes in their sorted order, each once.
    bool packed = false;
    bool auxiliary = false;
    for (const SafetensorsGroup& g : s.groups) {
        packed = packed || g.role == "packed int4 (qweight)";
        auxiliary = auxiliary || g.role == "scales/zeros";
    }
    if (packed)
        s.notes.push_back("qweight int32 tensors are read as eight 4-bit weights each (GPTQ/AWQ bits = 4; "
                          "config.json's quantization_config.bits says otherwise for 2, 3 or 8 bits)");
    if (auxiliary)
        s.notes.push_back("scales, zeros, g_idx and FP8 weight_scale_inv tensors are stored bytes but not parameters");
    return s;
}

Expected<SafetensorsSummary> read_safetensors_index(std::string_view json_text) {
    if (json_text.size() > kMaxSafetensorsHeader) return Error{"safetensors index: is larger than 100 MB"};
    const Expected<JsonValue> document = read_json_object(json_text, "safetensors index");
    if (!document) return Error{document.error()};
    SafetensorsSummary s;
    s.is_index = true;
    const JsonValue* const metadata = document->find("metadata");
    const JsonValue* const total_size = metadata != nullptr ? metadata->find("total_size") : nullptr;
    std::uint64_t total = 0;
    if (total_size == nullptr || !read_u64(*total_size, total))
        return Error{"safetensors index: metadata.total_size is missing or not a whole number"};
    s.data_bytes = total;
    const JsonValue* const map = document->find("weight_map");
    if (map == nullptr || !map->is_object()) return Error{"safetensors index: weight_map is missing"};
    std::vector<const std::string*> shards;  // file names, sorted to count the distinct ones
    for (const JsonMember& entry : map->members()) {
        if (!entry.value.is_string()) return Error{"safetensors index: weight_map values must be file names"};
        shards.push_back(&entry.value.text());
        s.tensor_count += 1;
    }
    if (shards.size() > 1)
        std::qsort(shards.data(), shards.size(), sizeof(const std::string*), [](const void* a, const void* b) {
            return compare_bytes(**static_cast<const std::string* const*>(a), **static_cast<const std::string* const*>(b));
        });
    for (std::size_t i = 0; i < shards.size(); ++i)
        if (i == 0 || compare_bytes(*shards[i], *shards[i - 1]) != 0) s.shard_count += 1;
    s.notes.push_back("an index gives the total bytes (metadata.total_size) but not the dtypes; read a shard's "
                      "header (--safetensors model-00001-of-*.safetensors) for bytes per dtype");
    return s;
}

std::string safetensors_json(const SafetensorsSummary& s) {
    JsonWriter w;
    w.begin_object().field("format", s.is_index ? "safetensors-index" : "safetensors").field("tensors", s.tensor_count);
    w.field("data_bytes", s.data_bytes).field("parameters", s.param_count).field("shards", s.shard_count).key("groups").begin_array();
    for (const SafetensorsGroup& g : s.groups) {
        w.begin_object().field("dtype", g.dtype).field("role", g.role).field("tensors", g.tensor_count);
        w.field("bytes", g.bytes).field("weights", g.param_count).end_object();
    }
    return w.end_array().end_object().take();
}

std::string safetensors_report(const SafetensorsSummary& s) {
    std::string out;
    if (s.is_index) {
        out = "safetensors index: " + format_count_exact(s.tensor_count) + " tensors in " + format_count_exact(s.shard_count) +
              " files, total_size " + format_count_exact(s.data_bytes) + " bytes\n";
    } else {
        out = "safetensors: " + format_count_exact(s.tensor_count) + " tensors, header " + format_count_exact(s.header_bytes) +
              " bytes\n";
        for (const SafetensorsGroup& g : s.groups)
            out += "  " + g.dtype + " " + g.role + ": " + format_count_exact(g.tensor_count) + (g.tensor_count == 1 ? " tensor, " : " tensors, ") +
                   format_count_exact(g.bytes) + " bytes" +
                   (g.param_count > 0 ? ", " + format_count_exact(g.param_count) + " weights" : std::string()) + "\n";
        out += "  total: " + format_count_exact(s.param_count) + " weights, " + format_count_exact(s.data_bytes) + " bytes\n";
    }
    for (const std::string& note : s.notes) out += "  note: " + note + "\n";
    return out;
}

}  // namespace llm_memory
