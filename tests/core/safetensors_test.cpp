// safetensors header reader: files written here (8-byte length + JSON header + data) with every dtype,
// GPTQ/AWQ packed qweight with scales/qzeros/g_idx, FP8 weights with weight_scale_inv, gpt-oss-style MXFP4
// *_blocks/*_scales; an index's total_size; and bad headers refused with the problem named.
#include <catch_amalgamated.hpp>

#include <string>

#include "model_file.hpp"
#include "safetensors.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {

// Writes a safetensors file: tensors laid out back to back in the order given.
struct SafetensorsWriter {
    std::string json = "{\"__metadata__\":{\"format\":\"pt\"}";
    std::uint64_t offset = 0;
    void tensor(const std::string& name, const std::string& dtype, const std::string& shape, std::uint64_t bytes) {
        json += ",\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":[" + shape + "],\"data_offsets\":[" +
                std::to_string(offset) + "," + std::to_string(offset + bytes) + "]}";
        offset += bytes;
    }
    std::string file(const std::string& header_json = {}) const {
        const std::string h = header_json.empty() ? json + "}" : header_json;
        std::string out;
        const std::uint64_t length = h.size();  // 64-bit: size_t is 32-bit in wasm
        for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
        return out + h + std::string(static_cast<std::size_t>(offset), '\0');
    }
};

SafetensorsSummary read(const std::string& file) {
    const Expected<SafetensorsSummary> s = read_safetensors_header(file, file.size());
    INFO(s.error());
    REQUIRE(s.ok());
    return *s;
}

std::string error_of(const std::string& file, std::uint64_t size = 0) {
    const Expected<SafetensorsSummary> s = read_safetensors_header(file, size == 0 ? file.size() : size);
    REQUIRE_FALSE(s.ok());
    return s.error();
}

}  // namespace

TEST_CASE("safetensors: bytes per dtype for every dtype", "[safetensors]") {
    SafetensorsWriter w;
    // name, dtype, bits: 4 x 8 = 32 values each.
    const std::pair<const char*, unsigned> dtypes[] = {
        {"BOOL", 8}, {"U8", 8}, {"I8", 8}, {"F8_E5M2", 8}, {"F8_E4M3", 8}, {"F8_E8M0", 8}, {"I16", 16}, {"U16", 16},
        {"F16", 16}, {"BF16", 16}, {"I32", 32}, {"U32", 32}, {"F32", 32}, {"F64", 64}, {"I64", 64}, {"U64", 64},
        {"F4", 4}, {"F6_E2M3", 6}, {"F6_E3M2", 6}};
    std::uint64_t bytes = 0;
    for (const auto& d : dtypes) {
        w.tensor(std::string("w.") + d.first, d.first, "4,8", 32ULL * d.second / 8);
        bytes += 32ULL * d.second / 8;
    }
    const SafetensorsSummary s = read(w.file());
    CHECK(s.tensor_count == 19);
    CHECK(s.groups.size() == 19);
    CHECK(s.data_bytes == bytes);
    CHECK(s.param_count == 19 * 32);
    CHECK(s.header_bytes == 8 + w.json.size() + 1);
}

TEST_CASE("safetensors: packed GPTQ/AWQ, FP8 with scales, MXFP4 blocks", "[safetensors]") {
    SafetensorsWriter w;
    // GPTQ 4-bit, group 128, a 4096 x 4096 linear: qweight int32 [512, 4096], qzeros int32 [32, 512],
    // scales fp16 [32, 4096], g_idx int32 [4096].
    w.tensor("model.layers.0.self_attn.q_proj.qweight", "I32", "512,4096", 512ULL * 4096 * 4);
    w.tensor("model.layers.0.self_attn.q_proj.qzeros", "I32", "32,512", 32ULL * 512 * 4);
    w.tensor("model.layers.0.self_attn.q_proj.scales", "F16", "32,4096", 32ULL * 4096 * 2);
    w.tensor("model.layers.0.self_attn.q_proj.g_idx", "I32", "4096", 4096ULL * 4);
    // FP8 (DeepSeek-V3 style): e4m3 weight [1024, 1024] with a 128x128-block F32 weight_scale_inv [8, 8].
    w.tensor("model.layers.0.mlp.down_proj.weight", "F8_E4M3", "1024,1024", 1024ULL * 1024);
    w.tensor("model.layers.0.mlp.down_proj.weight_scale_inv", "F32", "8,8", 64ULL * 4);
    // MXFP4 (gpt-oss): experts [32, 5760, 90, 16] blocks of 16 bytes (32 values) and [32, 5760, 90] E8M0 scales.
    w.tensor("model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", "32,5760,90,16", 32ULL * 5760 * 90 * 16);
    w.tensor("model.layers.0.mlp.experts.gate_up_proj_scales", "U8", "32,5760,90", 32ULL * 5760 * 90);
    w.tensor("model.embed_tokens.weight", "BF16", "1000,64", 1000ULL * 64 * 2);
    const SafetensorsSummary s = read(w.file());
    // Weights: 4096 x 4096 packed + 1024^2 FP8 + 32 x 5760 x 2880 MXFP4 + 64,000 BF16.
    CHECK(s.param_count == 4096ULL * 4096 + 1024ULL * 1024 + 32ULL * 5760 * 2880 + 64'000);
    std::uint64_t scale_bytes = 0;
    std::uint64_t packed_params = 0;
    std::uint64_t mxfp4_params = 0;
    for (const SafetensorsGroup& g : s.groups) {
        if (g.role == "scales/zeros") scale_bytes += g.bytes;
        if (g.role == "packed int4 (qweight)") packed_params += g.param_count;
        if (g.role == "MXFP4 blocks") mxfp4_params += g.param_count;
    }
    CHECK(scale_bytes == 32ULL * 512 * 4 + 32ULL * 4096 * 2 + 4096 * 4 + 256 + 32ULL * 5760 * 90);
    CHECK(packed_params == 4096ULL * 4096);
    CHECK(mxfp4_params == 32ULL * 5760 * 2880);
    CHECK(s.data_bytes == w.offset);
    CHECK(s.notes.size() == 2);
}

TEST_CASE("safetensors index: total_size and shards", "[safetensors]") {
    // Qwen/Qwen3-8B's model.safetensors.index.json: "total_size": 16381470720 (8,190,735,360 bf16 values).
    const Expected<SafetensorsSummary> s = read_safetensors_index(
        R"({"metadata":{"total_size":16381470720},"weight_map":{"lm_head.weight":"model-00005-of-00005.safetensors","model.embed_tokens.weight":"model-00001-of-00005.safetensors","model.norm.weight":"model-00005-of-00005.safetensors"}})");
    REQUIRE(s.ok());
    CHECK(s->data_bytes == 16'381'470'720ULL);
    CHECK(s->shard_count == 2);
    CHECK(s->tensor_count == 3);
    CHECK(read_safetensors_index(R"({"weight_map":{}})").error() ==
          "safetensors index: metadata.total_size is missing or not a whole number");
}

TEST_CASE("safetensors index read before the model is applied takes the scenario's model (the app's path)", "[safetensors]") {
    // The app reads a dropped index first and applies it on the next frame: N comes from the model the
    // scenario has then. Qwen3-8B: 8,190,735,360 parameters (tests/core/model_presets_test.cpp), index
    // total_size 16,381,470,720 bytes = exactly 2 bytes per parameter.
    const std::string index = R"({"metadata":{"total_size":16381470720},"weight_map":{"model.embed_tokens.weight":"model-00001-of-00005.safetensors"}})";
    ModelFileReader reader(index.size(), "model.safetensors.index.json");
    REQUIRE(*reader.feed(index));
    const Expected<FileModel> file = reader.finish();  // no current model
    REQUIRE(file.ok());
    CHECK(file->param_count == 0);
    Scenario none;
    CHECK(apply_file_model(none, *file).error().rfind("safetensors index: gives the bytes but not the parameter count", 0) == 0);
    CHECK(none.param_count == 13'000'000'000ULL);  // unchanged
    Scenario qwen;
    REQUIRE(apply_setting(qwen, "model", "qwen3-8b").ok());
    REQUIRE(apply_file_model(qwen, *file).ok());
    CHECK(qwen.param_count == 8'190'735'360ULL);
    CHECK(qwen.model != nullptr);
    CHECK(estimate(qwen)->weight_bytes == 16'381'470'720ULL);
}

TEST_CASE("safetensors: bad headers are refused with the problem named", "[safetensors][errors]") {
    SafetensorsWriter w;
    w.tensor("a", "F16", "2,2", 8);
    const std::string good = w.file();
    CHECK(error_of("abc") == "safetensors: the file is shorter than its 8-byte header length");
    // A length of 2^63 and a length longer than the file.
    std::string huge = good;
    huge[7] = '\x80';
    CHECK(error_of(huge).find("is longer than the file") != std::string::npos);
    CHECK(error_of(good.substr(0, 20), good.size()).find("the header is cut short") != std::string::npos);
    CHECK(error_of(w.file(R"({"a":{"dtype":"Q4","shape":[2],"data_offsets":[0,1]}})"))
              .find("has unknown dtype \"Q4\"") != std::string::npos);
    CHECK(error_of(w.file(R"({"a":{"dtype":"F16","shape":[3,2],"data_offsets":[0,8]}})"))
              .find("6 F16 values do not fill its 8 bytes") != std::string::npos);
    CHECK(error_of(w.file(R"({"a":{"dtype":"F16","shape":[4],"data_offsets":[0,8]},"b":{"dtype":"F16","shape":[4],"data_offsets":[0,8]}})"))
              .find("overlap") != std::string::npos);
    CHECK(error_of(w.file(R"({"a":{"dtype":"F16","shape":[4],"data_offsets":[0,80000]}})"))
              .find("past the file's") != std::string::npos);
    CHECK(error_of(w.file(R"({"a":{"dtype":"F16","shape":[4],)")).find("not valid JSON") != std::string::npos);
    CHECK(error_of(w.file(std::string(100, '[') + std::string(100, ']'))).find("not a safetensors file") != std::string::npos);
    CHECK(error_of(w.file("{" + std::string(100, '[') + std::string(100, ']') + "}")).find("nested deeper") != std::string::npos);
}
