// A GGUF v3 writer for tests (little-endian values appended to a string): metadata of every value kind,
// tensor infos laid out at 32-byte aligned offsets, and zero-filled data. Shared by the core and UI tests.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace llm_memory::test {

// A GGUF v3 writer: little-endian values appended to a string.
struct GgufWriter {
    std::string bytes;
    std::uint64_t metadata = 0;
    std::string meta;
    std::string infos;
    std::uint64_t tensors = 0;
    std::uint64_t data_end = 0;

    static void put(std::string& out, std::uint64_t v, int size) {
        for (int i = 0; i < size; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    static void put_string(std::string& out, const std::string& s) {
        put(out, s.size(), 8);
        out += s;
    }
    void key(const std::string& k, std::uint32_t type) {
        put_string(meta, k);
        put(meta, type, 4);
        ++metadata;
    }
    void u32(const std::string& k, std::uint32_t v) { key(k, 4); put(meta, v, 4); }
    void u64(const std::string& k, std::uint64_t v) { key(k, 10); put(meta, v, 8); }
    void f32(const std::string& k) { key(k, 6); put(meta, 0x3f800000, 4); }
    void boolean(const std::string& k) { key(k, 7); put(meta, 1, 1); }
    void text(const std::string& k, const std::string& v) { key(k, 8); put_string(meta, v); }
    void strings(const std::string& k, std::uint64_t n, const std::string& each) {
        key(k, 9);
        put(meta, 8, 4);
        put(meta, n, 8);
        for (std::uint64_t i = 0; i < n; ++i) put_string(meta, each);
    }
    void int_array(const std::string& k, std::initializer_list<std::uint32_t> values) {
        key(k, 9);
        put(meta, 5, 4);
        put(meta, values.size(), 8);
        for (std::uint32_t v : values) put(meta, v, 4);
    }
    // A list per layer as llama.cpp's converter writes it: booleans (arr[bool]) or int32s (arr[i32]).
    void list(const std::string& k, const std::vector<std::uint32_t>& values, bool booleans) {
        key(k, 9);
        put(meta, booleans ? 7 : 5, 4);
        put(meta, values.size(), 8);
        for (std::uint32_t v : values) put(meta, v, booleans ? 1 : 4);
    }
    void tensor(const std::string& name, std::initializer_list<std::uint64_t> dims, std::uint32_t type, std::uint64_t byte_count) {
        put_string(infos, name);
        put(infos, dims.size(), 4);
        for (std::uint64_t d : dims) put(infos, d, 8);
        put(infos, type, 4);
        put(infos, data_end, 8);
        data_end += (byte_count + 31) / 32 * 32;
        ++tensors;
    }
    // The whole file: header, metadata, tensor infos, padding to 32, and (zero) data.
    std::string file(bool with_data = true) const {
        std::string out = "GGUF";
        put(out, 3, 4);
        put(out, tensors, 8);
        put(out, metadata, 8);
        out += meta + infos;
        out.append((32 - out.size() % 32) % 32, '\0');
        if (with_data) out.append(static_cast<std::size_t>(data_end), '\0');
        return out;
    }
};

}  // namespace llm_memory::test
