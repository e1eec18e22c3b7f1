// GGUF header reader: files written here by a small writer of our own (header, metadata of every value
// type, a multi-megabyte tokenizer array, one tensor of every ggml type) are read whole and in chunks of
// 1, 7 and 65,536 bytes with the same result; bad files give messages naming the problem. Type sizes:
// ggml.c type_traits / gguf-py GGML_QUANT_SIZES (e.g. Q4_K: 256 values in 144 bytes = 4.5 bits).
#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "gguf.hpp"
#include "hybrid.hpp"
#include "kv_cache.hpp"
#include "model_presets.hpp"
#include "../files/gguf_writer.hpp"
#include "engine_test_support.hpp"

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

namespace {

// A hybrid GGUF's header as llama.cpp's converter writes it (src/llama-arch.cpp tensor and key names): per
// layer attn_q/attn_k/attn_v on the attention layers, the mixer's ssm_* (or shortconv) tensors on the others.
// `kind` of layer il: 'a' attention, 'r' recurrent, 'b' both side by side, 'm' an MLP alone, 'n' no tensors.
GgufWriter hybrid_file(const std::string& arch, std::uint32_t layers, char (*kind)(std::uint32_t)) {
    GgufWriter w;
    w.text("general.architecture", arch);
    w.u32(arch + ".block_count", layers);
    w.u32(arch + ".context_length", 262144);
    w.u32(arch + ".embedding_length", 2048);
    w.u32(arch + ".attention.head_count", 16);
    w.u32(arch + ".attention.head_count_kv", 2);
    w.u32(arch + ".attention.key_length", 256);
    w.u32(arch + ".vocab_size", 151936);
    w.tensor("token_embd.weight", {2048, 16}, 0, 2048 * 16 * 4);
    for (std::uint32_t il = 0; il < layers; ++il) {
        const std::string blk = "blk." + std::to_string(il) + ".";
        const char k = kind(il);
        if (k == 'a' || k == 'b')
            for (const char* t : {"attn_q", "attn_k", "attn_v"}) w.tensor(blk + t + ".weight", {2048, 16}, 0, 2048 * 16 * 4);
        if (k == 'r' || k == 'b') {
            w.tensor(blk + "attn_qkv.weight", {2048, 16}, 0, 2048 * 16 * 4);  // Qwen3-Next's in_proj_qkvz
            w.tensor(blk + "ssm_conv1d.weight", {4, 8192}, 0, 4 * 8192 * 4);
        }
        if (k != 'n') w.tensor(blk + "ffn_up.weight", {2048, 16}, 0, 2048 * 16 * 4);
    }
    return w;
}

// The five ssm.* keys llama.cpp sizes a recurrent state from.
void ssm_keys(GgufWriter& w, const std::string& arch, std::uint32_t conv, std::uint32_t inner, std::uint32_t state, std::uint32_t rank,
              std::uint32_t groups) {
    w.u32(arch + ".ssm.conv_kernel", conv);
    w.u32(arch + ".ssm.inner_size", inner);
    w.u32(arch + ".ssm.state_size", state);
    w.u32(arch + ".ssm.time_step_rank", rank);
    w.u32(arch + ".ssm.group_count", groups);
}

// A written file read back as a model: its header, then gguf_model; both must succeed.
ModelSource model_of_file(GgufWriter& w, const char* name) {
    const std::string file = w.file(false);
    const Expected<GgufSummary> read = read_gguf_header(file, w.file().size());
    REQUIRE(read.ok());
    const Expected<ModelSource> m = gguf_model(*read, name);
    INFO(m.error());
    REQUIRE(m.ok());
    return *m;
}

// A written file whose header reads but which gguf_model refuses: the message.
std::string model_error(GgufWriter w) {
    const std::string file = w.file(false);
    const Expected<GgufSummary> read = read_gguf_header(file, w.file().size());
    REQUIRE(read.ok());
    const Expected<ModelSource> m = gguf_model(*read, "x.gguf");
    REQUIRE_FALSE(m.ok());
    return m.error();
}

}  // namespace

TEST_CASE("gguf: a hybrid file's recurrent layers from its tensor names and ssm.* keys", "[gguf][hybrid]") {
    // Qwen3-Next-80B-A3B as llama.cpp converts it: every 4th layer full attention, the rest Gated DeltaNet, and
    // print_info's ssm_d_conv 4, ssm_d_inner 4096, ssm_d_state 128, ssm_dt_rank 32, ssm_n_group 16
    // (https://github.com/ggml-org/llama.cpp/pull/17578).
    GgufWriter w = hybrid_file("qwen3next", 48, [](std::uint32_t il) { return (il + 1) % 4 == 0 ? 'a' : 'r'; });
    ssm_keys(w, "qwen3next", 4, 4096, 128, 32, 16);
    const std::string file = w.file(false);
    const Expected<GgufSummary> read = read_gguf_header(file, w.file().size());
    REQUIRE(read.ok());
    CHECK(read->parts.recurrent_count == 36ULL * 4 * 8192);
    const Expected<ModelSource> m = gguf_model(*read, "qwen3-next.gguf");
    INFO(m.error());
    REQUIRE(m.ok());
    const Architecture& a = m->architecture;
    CHECK(a.attention_layer_count() == 12);
    CHECK(a.recurrent_layer_count() == 36);
    CHECK(a.recurrent.kind == MixerKind::gated_deltanet);
    // llama.cpp's RS buffer per sequence (src/llama-hparams.cpp n_embd_r/n_embd_s, f32): 36 x (3 x (4096 +
    // 2 x 16 x 128) + 4096 x 128) x 4 = 79,036,416 B = 75.38 MiB, and the same as the built-in preset's
    // config.json gives, so a dropped GGUF and the preset agree.
    CHECK(recurrent_state_bytes(a, 1, 4, 4) == 79'036'416);
    const ModelPreset* preset = find_preset("qwen3-next-80b-a3b");
    REQUIRE(preset != nullptr);
    const Expected<ModelSource> from_config = preset_model(*preset);
    REQUIRE(from_config.ok());
    CHECK(recurrent_state_bytes(from_config->architecture, 1, 4, 4) == 79'036'416);
    // Only the 12 attention layers keep a KV cache: K and V x 2 heads x 256 x 2 bytes (fp16) x 12 layers.
    const Expected<KvCacheShape> shape = kv_cache_shape(a);
    REQUIRE(shape.ok());
    const WeightFormat fp16{"fp16", "FP16", 2, 1, "", "", false};
    CHECK(*kv_cache_bytes(*shape, 1024, 1, fp16) == 2ULL * 2 * 256 * 2 * 1024 * 12);
}

TEST_CASE("gguf: Falcon-H1's layers hold attention and Mamba-2 side by side, with a KV cache and a state each", "[gguf][hybrid]") {
    // Falcon-H1 as llama.cpp converts it (src/llama-arch.cpp: attn_q/k/v and ssm_* tensors in every blk.N; the
    // hybrid memory keeps every layer in the KV cache and in the RS buffer, src/llama-model.cpp create_memory's
    // LLM_ARCH_FALCON_H1 filters). Falcon-H1-34B's ssm keys: d_conv 4, d_inner 4096, d_state 256, 32 heads, 2 groups.
    GgufWriter w = hybrid_file("falcon-h1", 6, [](std::uint32_t) { return 'b'; });
    ssm_keys(w, "falcon-h1", 4, 4096, 256, 32, 2);
    const ModelSource m = model_of_file(w, "falcon-h1.gguf");
    const Architecture& a = m.architecture;
    CHECK(a.attention_layer_count() == 6);
    CHECK(a.recurrent_layer_count() == 6);
    CHECK(a.recurrent.kind == MixerKind::mamba2);
    // Per layer and sequence the same state as the falcon-h1-34b preset's config.json gives: 306,413,568 B / 72.
    CHECK(recurrent_state_bytes(a, 1, 4, 4) == 6ULL * 306'413'568 / 72);
    const Expected<KvCacheShape> shape = kv_cache_shape(a);
    REQUIRE(shape.ok());
    CHECK(shape->layers == 6);
}

TEST_CASE("gguf: hybrid layers llm-memory does not model are refused by name, never guessed", "[gguf][hybrid][errors]") {
    auto every_fourth = [](std::uint32_t il) { return (il + 1) % 4 == 0 ? 'a' : 'r'; };
    // A recurrent mixer in an architecture not listed.
    CHECK(model_error(hybrid_file("rwkv7", 8, every_fourth)).find("rwkv7 has recurrent layers (ssm_* tensors) of a kind not modelled") != std::string::npos);
    // A missing size key is named, not assumed.
    GgufWriter no_state = hybrid_file("granitehybrid", 8, every_fourth);
    no_state.u32("granitehybrid.ssm.conv_kernel", 4);
    no_state.u32("granitehybrid.ssm.inner_size", 8192);
    no_state.u32("granitehybrid.ssm.time_step_rank", 128);
    no_state.u32("granitehybrid.ssm.group_count", 1);
    CHECK(model_error(no_state) == "GGUF: the metadata lacks granitehybrid.ssm.state_size, which sizes the recurrent state");
    // Attention and a recurrent mixer side by side in one layer: only Falcon-H1 files have that.
    GgufWriter parallel = hybrid_file("granitehybrid", 4, [](std::uint32_t il) { return il == 1 ? 'b' : 'a'; });
    CHECK(model_error(parallel) == "GGUF: layer 1 holds attention and a recurrent mixer side by side, which only falcon-h1 files do (this is granitehybrid)");
    // A layer with neither attention nor a recurrent mixer outside Nemotron-H.
    GgufWriter mlp_only = hybrid_file("granitehybrid", 5, [](std::uint32_t il) { return il == 4 ? 'm' : il == 3 ? 'a' : 'r'; });
    // Gemma 4's per-layer KV widths are refused, not flattened to one.
    CHECK(model_error(hybrid_file("gemma4", 6, [](std::uint32_t) { return 'a'; })) ==
          "GGUF: gemma4 files need attention.sliding_window_pattern, one entry a layer, as llama.cpp does");
    // A split file's first part: the later layers' tensors are elsewhere, so their kind cannot be read.
    GgufWriter split = hybrid_file("qwen3next", 8, [](std::uint32_t il) { return il >= 6 ? 'n' : (il + 1) % 4 == 0 ? 'a' : 'r'; });
    CHECK(model_error(split) == "GGUF: layer 6's tensors are not in this file (a split file?)");
    CHECK(model_error(mlp_only) == "GGUF: layer 4 has neither attention nor a recurrent mixer, which only Nemotron-H's MLP and MoE blocks have (this is granitehybrid)");
}

TEST_CASE("gguf: Nemotron-H's MLP and MoE blocks keep neither a KV cache nor a state", "[gguf][hybrid]") {
    // llama.cpp's nemotron_h and nemotron_h_moe files (src/llama-arch.cpp): an MLP block holds ffn_up/ffn_down only,
    // a MoE block ffn_up_exps/ffn_down_exps beside its shared expert (src/llama-model.cpp, LLM_ARCH_NEMOTRON_H_MOE).
    // Nemotron-3-Nano-30B-A3B's pattern begins M E M E M * E: here layers 0, 2, 4 Mamba-2, 5 attention, 1 and 6 MoE,
    // and 3 an MLP block as Nemotron-Nano-9B-v2 has them.
    GgufWriter w = hybrid_file("nemotron_h_moe", 7, [](std::uint32_t il) { return il == 5 ? 'a' : il < 5 && il % 2 == 0 ? 'r' : 'm'; });
    for (const char* blk : {"blk.1.", "blk.6."}) w.tensor(std::string(blk) + "ffn_up_exps.weight", {2048, 16, 8}, 0, 2048 * 16 * 8 * 4);
    w.u32("nemotron_h_moe.expert_count", 8);
    w.u32("nemotron_h_moe.expert_used_count", 2);
    ssm_keys(w, "nemotron_h_moe", 4, 4096, 128, 64, 8);
    const ModelSource m = model_of_file(w, "nemotron-3-nano.gguf");
    const Architecture& a = m.architecture;
    CHECK(a.attention_layer_count() == 1);
    CHECK(a.recurrent_layer_count() == 3);
    CHECK(a.moe_layer_count() == 2);
    CHECK(a.layer_is_moe(1));
    CHECK_FALSE(a.layer_is_moe(3));
    CHECK_FALSE(a.layer_is_moe(0));
    CHECK(kv_cache_shape(a)->layers == 1);
}

namespace {

// A gemma4 file with the keys llama.cpp's converter writes (conversion/gemma.py): `layers` layers, every
// `period`-th one global (the rest slide), `kv` KV heads (one count: a u32; two: the per-layer i32 list of the
// 26B and 31B), 256-wide sliding heads and 512-wide global ones, `shared` layers reading an earlier cache.
GgufWriter gemma4_file(std::uint32_t layers, std::uint32_t period, std::uint32_t kv_sliding, std::uint32_t kv_global, std::uint32_t window,
                       std::uint32_t shared, std::uint32_t width, std::uint32_t heads, std::uint32_t listed = 0) {
    GgufWriter w;
    w.text("general.architecture", "gemma4");
    w.u32("gemma4.block_count", layers);
    w.u32("gemma4.context_length", 262144);
    w.u32("gemma4.embedding_length", width);
    w.u32("gemma4.feed_forward_length", 4 * width);
    w.u32("gemma4.attention.head_count", heads);
    std::vector<std::uint32_t> pattern, kv;
    for (std::uint32_t il = 0; il < (listed > 0 ? listed : layers); ++il) {
        const bool slides = (il + 1) % period != 0;
        pattern.push_back(slides ? 1 : 0);
        kv.push_back(slides ? kv_sliding : kv_global);
    }
    if (kv_sliding == kv_global) w.u32("gemma4.attention.head_count_kv", kv_sliding);
    else w.list("gemma4.attention.head_count_kv", kv, false);
    w.u32("gemma4.attention.key_length", 512);
    w.u32("gemma4.attention.value_length", 512);
    w.u32("gemma4.attention.sliding_window", window);
    w.u32("gemma4.attention.shared_kv_layers", shared);
    w.u32("gemma4.embedding_length_per_layer_input", shared > 0 ? 256 : 0);
    w.list("gemma4.attention.sliding_window_pattern", pattern, true);
    w.u32("gemma4.attention.key_length_swa", 256);
    w.u32("gemma4.attention.value_length_swa", 256);
    w.strings("tokenizer.ggml.tokens", 16, "tok");
    w.tensor("token_embd.weight", {width, 16}, 0, std::uint64_t{width} * 16 * 4);
    for (std::uint32_t il = 0; il < layers; ++il)
        for (const char* t : {"attn_q", "attn_k", "attn_v"})
            w.tensor("blk." + std::to_string(il) + "." + t + ".weight", {width, 16}, 0, std::uint64_t{width} * 16 * 4);
    return w;
}

}  // namespace

TEST_CASE("gguf: Gemma 4 files: each layer's KV width from the sliding pattern, the two head sizes and the KV heads", "[gguf][kv]") {
    using llm_memory::test::run;
    using llm_memory::test::with;
    constexpr std::uint64_t MiB = 1024 * 1024;
    auto kv_buffer = [](const ModelSource& m, std::initializer_list<std::pair<const char*, const char*>> pairs) {
        Scenario s = with(pairs);
        s.model = std::make_shared<const ModelSource>(m);
        s.param_count = m.counts.total_count;
        for (const EngineDevice& d : run(s).devices)
            for (const EngineTerm& t : d.terms)
                if (d.device == "gpu0" && t.key == "kv_buffer") return t.bytes;
        return std::uint64_t{0};
    };
    // gemma-4-E2B-it-Q4_K_M.gguf as a published llama.cpp log dumps its keys (block_count 35, embedding_length 1536,
    // head_count 8, head_count_kv u32 1, key_length 512, sliding_window 512, shared_kv_layers 20,
    // sliding_window_pattern arr[bool,35] = [true, true, true, true, false, ...], key_length_swa 256) and sizes its
    // cache at n_ctx 2048 with a full-size SWA cache: "non-SWA ... 12.00 MiB (2048 cells, 3 layers)" and
    // "SWA ... 24.00 MiB (2048 cells, 12 layers)"; layers 15 to 34 have none.
    GgufWriter e2b_file = gemma4_file(35, 5, 1, 1, 512, 20, 1536, 8);
    const ModelSource e2b = model_of_file(e2b_file, "gemma-4-E2B-it-Q4_K_M.gguf");
    const Architecture& a = e2b.architecture;
    CHECK(a.family == ModelFamily::gemma4);
    CHECK(a.head_dim == 256);
    CHECK(a.global_head_dim == 512);
    CHECK(a.sliding_layer_count() == 28);
    CHECK(a.kv_shared_layers == 20);
    CHECK(kv_buffer(e2b, {{"engine", "llama.cpp"}, {"gpu", "rtx-4060-ti-16gb"}, {"context", "2048"}, {"parallel", "1"}, {"ngl", "all"},
                          {"swa-full", "true"}}) == 12 * MiB + 24 * MiB);
    // gemma-4-26B-A4B: head_count_kv arr[i32,30] = [8, 8, 8, 8, 8, 2, ...], sliding_window 1024, no shared layers. At
    // n_ctx 262144 with q8_0 K and V (a published run's lines): "2720.00 MiB (262144 cells, 5 layers)" and
    // "159.38 MiB (1536 cells, 25 layers)": the global layers keep V beside K though their file has no attn_v.
    GgufWriter a26_file = gemma4_file(30, 6, 8, 2, 1024, 0, 2816, 16);
    const ModelSource a26 = model_of_file(a26_file, "gemma-4-26B-A4B-it-Q8_0.gguf");
    CHECK(a26.architecture.num_key_value_heads == 8);
    CHECK(a26.architecture.global_kv_heads == 2);
    CHECK(kv_buffer(a26, {{"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "262144"}, {"parallel", "1"}, {"ngl", "all"},
                          {"kv-dtype", "q8_0"}}) == 2720 * MiB + 5ULL * 1536 * 4096 * 34 / 32 * 5);
    // Flash attention off (-fa off) pads every layer's V to the widest: the E4B (2 KV heads) at n_ctx 4096 with a
    // full-size SWA cache, as a llama-cpp-python run prints it: "64.00 MiB (4096 cells, 4 layers) K 32.00 MiB, V 32.00 MiB"
    // and "240.00 MiB (4096 cells, 20 layers) K (f16): 80.00 MiB, V (f16): 160.00 MiB".
    GgufWriter e4b_file = gemma4_file(42, 6, 2, 2, 512, 18, 2560, 8);
    const ModelSource e4b = model_of_file(e4b_file, "gemma-4-E4B-it.gguf");
    CHECK(kv_buffer(e4b, {{"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "4096"}, {"parallel", "1"}, {"ngl", "all"},
                          {"swa-full", "true"}, {"flash-attn", "off"}}) == 64 * MiB + 240 * MiB);
    CHECK(kv_buffer(e4b, {{"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "4096"}, {"parallel", "1"}, {"ngl", "all"},
                          {"swa-full", "true"}}) == 64 * MiB + 160 * MiB);
}

TEST_CASE("gguf: Gemma 4 files missing a key llama.cpp requires, or with lists of the wrong length, are refused by name", "[gguf][errors]") {
    CHECK(model_error(gemma4_file(6, 3, 1, 1, 0, 0, 64, 4)) == "GGUF: gemma4 files need attention.sliding_window, as llama.cpp does");
    CHECK(model_error(gemma4_file(6, 3, 1, 1, 512, 6, 64, 4)) == "GGUF: gemma4 files need attention.shared_kv_layers, below block_count, as llama.cpp does");
    CHECK(model_error(gemma4_file(6, 3, 8, 1, 512, 0, 64, 4)) == "GGUF: gemma4 layer 0's 8 KV heads are not modelled: 1 to head_count, one count for the sliding layers and one for the global ones");
    CHECK(model_error(gemma4_file(6, 3, 1, 1, 512, 0, 64, 4, 2)) == "GGUF: gemma4 files need attention.sliding_window_pattern, one entry a layer, as llama.cpp does");
    GgufWriter short_kv = gemma4_file(6, 3, 2, 1, 512, 0, 64, 4);
    short_kv.list("gemma4.attention.head_count_kv", {2, 2, 1}, false);  // read after the file's own list
    CHECK(model_error(short_kv) == "GGUF: gemma4 files need attention.head_count_kv, one count or one a layer, as llama.cpp does");
}
