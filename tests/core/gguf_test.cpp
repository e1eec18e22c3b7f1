// GGUF header reader: files written here by a small writer of our own (header, metadata of every value
// type, a multi-megabyte tokenizer array, one tensor of every ggml type) are read whole and in chunks of
// 1, 7 and 65,536 bytes with the same result; bad files give messages naming the problem. Type sizes:
// ggml.c type_traits / gguf-py GGML_QUANT_SIZES (e.g. Q4_K: 256 values in 144 bytes = 4.5 bits).
#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "gguf.hpp"
#include "kv_cache.hpp"
#include "../files/gguf_writer.hpp"

using namespace llm_memory;

namespace {

using llm_memory::test::GgufWriter;

GgufSummary read_in_chunks(const std::string& file, std::size_t chunk) {
    GgufReader reader(file.size());
    for (std::size_t at = 0; at < file.size(); at += chunk) {
        const Expected<bool> r = reader.feed(std::string_view(file).substr(at, chunk));
        if (!r.ok()) FAIL(r.error());
        if (*r) break;
    }
    REQUIRE(reader.finish().ok());
    return reader.summary();
}

std::string error_of(const std::string& file, std::uint64_t size = 0) {
    const Expected<GgufSummary> s = read_gguf_header(file, size == 0 ? file.size() : size);
    REQUIRE_FALSE(s.ok());
    return s.error();
}

// A small Llama-style file: 2 layers, 4 heads, 2 KV heads, width 64 (head size 16).
GgufWriter llama_like() {
    GgufWriter w;
    w.text("general.architecture", "llama");
    w.text("general.name", "tiny");
    w.u32("llama.block_count", 2);
    w.u32("llama.context_length", 4096);
    w.u32("llama.embedding_length", 64);
    w.u32("llama.feed_forward_length", 128);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.f32("llama.rope.freq_base");
    w.boolean("tokenizer.ggml.add_bos_token");
    w.strings("tokenizer.ggml.tokens", 100, "tok");
    w.tensor("token_embd.weight", {64, 100}, 0, 64 * 100 * 4);
    return w;
}

}  // namespace

TEST_CASE("ggml types: block sizes from ggml's type traits", "[gguf]") {
    REQUIRE(find_ggml_type(12) != nullptr);
    CHECK(std::string(find_ggml_type(12)->name) == "Q4_K");
    CHECK(find_ggml_type(12)->block_bytes == 144);   // 4.5 bits per weight
    CHECK(find_ggml_type(14)->block_bytes == 210);   // Q6_K: 6.5625 bits
    CHECK(find_ggml_type(8)->block_bytes == 34);     // Q8_0: 32 values + fp16 scale
    CHECK(find_ggml_type(39)->block_bytes == 17);    // MXFP4: 32 values, one E8M0 scale
    CHECK(find_ggml_type(23)->block_bytes == 136);   // IQ4_XS
    CHECK(find_ggml_type(4) == nullptr);             // Q4_2: removed from ggml
    CHECK(find_ggml_type(31) == nullptr);            // Q4_0_4_4: removed from GGUF files
    CHECK(ggml_types().size() == 34);
}

TEST_CASE("gguf: every tensor type, metadata of every kind, read whole and in chunks", "[gguf]") {
    GgufWriter w;
    w.text("general.architecture", "qwen3");
    w.text("general.name", "every type");
    w.u32("qwen3.block_count", 3);
    w.u64("qwen3.context_length", 40960);
    w.u32("qwen3.embedding_length", 512);
    w.u32("qwen3.attention.head_count", 8);
    w.u32("qwen3.attention.head_count_kv", 4);
    w.u32("qwen3.attention.key_length", 128);
    w.f32("qwen3.rope.freq_base");
    w.boolean("general.some_flag");
    // A tokenizer array of 200,000 strings (3.4 MB of metadata), skipped element by element.
    w.strings("tokenizer.ggml.tokens", 200'000, "token-string");
    std::uint64_t expected_bytes = 0;
    std::uint64_t expected_elements = 0;
    for (const GgmlType& t : ggml_types()) {
        const std::uint64_t row = t.block_weights * 2;
        const std::uint64_t elements = row * 3;
        const std::uint64_t bytes = elements / t.block_weights * t.block_bytes;
        w.tensor(std::string("blk.0.t") + t.name, {row, 3}, t.id, bytes);
        expected_bytes += bytes;
        expected_elements += elements;
    }
    const std::string file = w.file();
    for (const std::size_t chunk : {file.size(), std::size_t{65'536}, std::size_t{7}, std::size_t{1}}) {
        if (chunk == 1 && file.size() > 5'000'000) continue;
        INFO("chunk " << chunk);
        const GgufSummary s = read_in_chunks(file, chunk);
        CHECK(s.version == 3);
        CHECK(s.architecture == "qwen3");
        CHECK(s.model_name == "every type");
        CHECK(s.block_count == 3);
        CHECK(s.context_length == 40960);
        CHECK(s.head_count_kv == 4);
        CHECK(s.key_length == 128);
        CHECK(s.vocab_size == 200'000);  // from the tokenizer array's count
        CHECK(s.tensor_count == ggml_types().size());
        CHECK(s.by_type.size() == ggml_types().size());
        CHECK(s.param_count == expected_elements);
        CHECK(s.weight_bytes == expected_bytes);
        CHECK(s.data_offset % 32 == 0);
        for (const GgufTypeTotal& t : s.by_type) {
            const GgmlType* type = find_ggml_type(t.type);
            REQUIRE(type != nullptr);
            CHECK(t.bytes == 6ULL * type->block_bytes);
        }
    }
}

TEST_CASE("gguf: architecture and KV cache from the metadata", "[gguf][kv]") {
    GgufWriter w;
    w.text("general.architecture", "gemma3");
    w.u32("gemma3.block_count", 12);
    w.u32("gemma3.context_length", 32768);
    w.u32("gemma3.embedding_length", 1152);
    w.u32("gemma3.attention.head_count", 4);
    w.u32("gemma3.attention.head_count_kv", 1);
    w.u32("gemma3.attention.key_length", 256);
    w.u32("gemma3.attention.sliding_window", 512);
    w.u32("gemma3.vocab_size", 262144);
    w.tensor("token_embd.weight", {1152, 16}, 8, 1152 * 16 / 32 * 34);
    w.tensor("blk.0.attn_q.weight", {1152, 1024}, 8, 1152ULL * 1024 / 32 * 34);
    w.tensor("blk.0.attn_norm.weight", {1152}, 0, 1152 * 4);
    const std::string file = w.file();
    const Expected<GgufSummary> read = read_gguf_header(file, file.size());
    INFO(read.error());
    REQUIRE(read.ok());
    const GgufSummary& s = *read;
    CHECK(s.parts.embedding_count == 1152 * 16);
    CHECK(s.parts.attention_count == 1152ULL * 1024);
    CHECK(s.parts.norm_count == 1152);
    const Expected<ModelSource> m = gguf_model(s, "tiny.gguf");
    REQUIRE(m.ok());
    CHECK(m->counts.total_count == s.param_count);
    // llama.cpp's Gemma 3 pattern: 5 sliding layers to 1 global; 12 layers -> 10 sliding.
    CHECK(m->architecture.sliding_layer_count() == 10);
    const Expected<KvCacheShape> shape = kv_cache_shape(m->architecture);
    REQUIRE(shape.ok());
    // 8192 tokens in fp16: 2 global layers keep 8192, 10 sliding keep 512; K and V x 1 head x 256 x 2 bytes.
    const WeightFormat fp16{"fp16", "FP16", 2, 1, "", "", false};
    CHECK(*kv_cache_bytes(*shape, 8192, 1, fp16) == 2ULL * 256 * 2 * (2 * 8192 + 10 * 512));
}

TEST_CASE("gguf: bad files are refused with a message naming the problem", "[gguf][errors]") {
    const std::string good = llama_like().file(false);
    CHECK(error_of("PK\x03\x04 not a model").rfind("GGUF: not a GGUF file (it starts with \"PK??\"", 0) == 0);
    // Truncated inside the metadata: finish() says where the file ends.
    const Expected<GgufSummary> cut = read_gguf_header(good.substr(0, 100), good.size());
    REQUIRE_FALSE(cut.ok());
    CHECK(cut.error() == "GGUF: the file ends inside the header at byte 100 (a truncated download?)");
    // A tensor count of 2^63.
    std::string huge = good;
    huge[15] = '\x80';
    CHECK(error_of(huge).find("tensors, more than a file of") != std::string::npos);
    std::string many_keys = good;
    many_keys[23] = '\x7f';
    CHECK(error_of(many_keys).find("metadata entries, more than a file of") != std::string::npos);
    // A key whose length runs past the end of the file.
    std::string long_key = good;
    long_key[24 + 7] = '\x10';
    CHECK(error_of(long_key).find("a metadata key has a length of") != std::string::npos);
    CHECK(error_of(std::string("GGUF\x01", 5) + std::string(19, '\0')).find("version 1") != std::string::npos);
    // An unknown tensor type and too many dimensions.
    GgufWriter w = llama_like();
    w.tensor("blk.0.x", {32}, 99, 32);
    CHECK(error_of(w.file()).find("tensor 1 \"blk.0.x\" has unknown tensor type 99") != std::string::npos);
    GgufWriter dims;
    dims.tensor("t", {1, 1, 1, 1, 1}, 0, 4);
    CHECK(error_of(dims.file()).find("has 5 dimensions") != std::string::npos);
    // Rows that are not whole blocks, and tensor data past the end of the file.
    GgufWriter rows;
    rows.tensor("t", {100, 2}, 12, 0);
    CHECK(error_of(rows.file()).find("not a multiple of Q4_K's block of 256") != std::string::npos);
    GgufWriter past;
    past.tensor("t", {4096, 4096}, 1, 4096ULL * 4096 * 2);
    CHECK(error_of(past.file(false)).find("(a truncated download?)") != std::string::npos);
    // An array claiming 2^62 elements.
    GgufWriter arr;
    arr.key("a", 9);
    GgufWriter::put(arr.meta, 4, 4);
    GgufWriter::put(arr.meta, 1ULL << 62, 8);
    CHECK(error_of(arr.file()).find("claims 4,611,686,018,427,387,904 elements") != std::string::npos);
}
