// Hugging Face look-ups in core: ids and URLs read (huggingface.co's URL shapes: /org/name, /tree/REV,
// /blob/REV/FILE, /resolve/REV/FILE), and HubLookup driven against an in-memory repo that answers Range
// requests as the Hub does (206 with the bytes asked), so the planned requests and bytes are exact.
#include <catch_amalgamated.hpp>

#include <cstdint>
#include <map>
#include <string>

#include "../files/gguf_writer.hpp"
#include "test_support.hpp"
#include "hub.hpp"
#include "settings.hpp"

using namespace llm_memory;
using llm_memory::test::GgufWriter;

namespace {

struct FakeRepo {
    std::string api;                        // the /api/models answer
    std::map<std::string, std::string> files;
    std::map<std::string, int> refused;     // file -> HTTP status
    std::vector<std::string> asked;         // the requests' "what"
};

// Runs a look-up against the repo; resolve URLs are ENDPOINT/REPO/resolve/REV/FILE.
Expected<HubResult> run(const std::string& text, FakeRepo& repo, HubClient client = HubClient::cli, bool token = false) {
    const Expected<HubRef> ref = parse_hub_ref(text);
    REQUIRE(ref.ok());
    HubLookup lookup(*ref, "http://hub.test", client, token);
    while (const HubRequest* r = lookup.next()) {
        repo.asked.push_back(r->what);
        HubResponse answer;
        if (r->url.find("/api/models/") != std::string::npos) {
            answer.status = repo.api.empty() ? 404 : 200;
            answer.body = repo.api;
        } else {
            const std::size_t at = r->url.find("/resolve/");
            const std::string rest = r->url.substr(at + 9);
            const std::string file = rest.substr(rest.find('/') + 1);
            if (repo.refused.count(file)) {
                answer.status = repo.refused[file];
            } else if (!repo.files.count(file)) {
                answer.status = 404;
            } else if (r->ranged) {
                answer.status = 206;
                answer.body = repo.files[file].substr(static_cast<std::size_t>(r->range_begin), static_cast<std::size_t>(r->range_length));
            } else {
                answer.status = 200;
                answer.body = repo.files[file];
            }
        }
        lookup.answer(answer);
    }
    return lookup.result();
}

std::string sibling(const std::string& name, std::uint64_t size) {
    return "{\"rfilename\":\"" + name + "\",\"size\":" + std::to_string(size) + "}";
}

// A repo that ships Mistral's params.json alone, looked up by `id`: the model its params.json gives.
ModelSource params_only(const std::string& id, const std::string& params) {
    FakeRepo repo;
    repo.files["params.json"] = params;
    repo.api = R"({"siblings":[)" + sibling("params.json", params.size()) + "]}";
    const Expected<HubResult> r = run(id, repo);
    INFO(r.error());
    REQUIRE(r.ok());
    REQUIRE(r->config_model);
    return *r->config_model;
}

std::string safetensors_file(const std::string& json, std::size_t data_bytes) {
    std::string out;
    const std::uint64_t length = json.size();  // 64-bit before shifting: size_t is 32 bits in the wasm build
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((length >> (8 * i)) & 0xff));
    return out + json + std::string(data_bytes, '\0');
}

const char* kTinyConfig =
    R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_hidden_layers":1,"num_attention_heads":4,)"
    R"("num_key_value_heads":2,"vocab_size":100,"tie_word_embeddings":true,"max_position_embeddings":4096})";

}  // namespace

TEST_CASE("hub ids: org/name, files, revisions and huggingface.co URLs", "[hub]") {
    auto ref = [](const char* text) { return parse_hub_ref(text); };
    CHECK(ref("meta-llama/Llama-3.1-8B")->repo == "meta-llama/Llama-3.1-8B");
    CHECK(ref("meta-llama/Llama-3.1-8B")->revision == "main");
    CHECK(ref("  unsloth/Qwen3-8B-GGUF:Qwen3-8B-Q4_K_M.gguf ")->file == "Qwen3-8B-Q4_K_M.gguf");
    CHECK(ref("org/name@v1.0:sub/dir/model.gguf")->revision == "v1.0");
    CHECK(ref("org/name@v1.0:sub/dir/model.gguf")->file == "sub/dir/model.gguf");
    CHECK(ref("https://huggingface.co/Qwen/Qwen3-8B")->repo == "Qwen/Qwen3-8B");
    CHECK(ref("huggingface.co/Qwen/Qwen3-8B/tree/refs-pr-1")->revision == "refs-pr-1");
    const Expected<HubRef> blob = ref("https://huggingface.co/unsloth/Qwen3-8B-GGUF/blob/main/Qwen3-8B-Q8_0.gguf?download=true");
    CHECK(blob->file == "Qwen3-8B-Q8_0.gguf");
    CHECK(ref("https://hf.co/org/name/resolve/abc123/a%20b.gguf")->file == "a b.gguf");
    CHECK(hub_ref_text(*ref("org/name@dev:x.gguf")) == "org/name@dev:x.gguf");
    CHECK(ref("https://huggingface.co/datasets/org/data").error() == "hf: \"https://huggingface.co/datasets/org/data\" is a dataset, not a model");
    CHECK(ref("https://example.com/org/name").error() == "hf: \"https://example.com/org/name\" is not a huggingface.co address");
    CHECK(ref("llama").error().find("is not a model id") != std::string::npos);
    CHECK(ref("a/b/c").error().find("is not a model id") != std::string::npos);
    CHECK(ref("org/na me").error().find("is not a model id") != std::string::npos);
    CHECK(ref("org/name:../../etc/passwd").error() == "hf: \"../../etc/passwd\" is not a file path in a repo");
    CHECK(ref("org/name:").error() == "hf: the file name after ':' is empty");
    CHECK(ref("").error() == "hf: is empty: type a model id (org/name) or a huggingface.co address");
    CHECK(!ref("org/-name").ok());
    CHECK(!ref("org/name@a..b").ok());
}

TEST_CASE("hub look-up: config.json and a safetensors file's header read in two ranges (8 bytes, then the header)", "[hub]") {
    // The tiny config counts 64*100 (tied embeddings) + one layer + the final norm; the header lists exactly
    // those tensors, so the config's architecture is kept (its count agrees).
    const std::string header =
        R"({"model.embed_tokens.weight":{"dtype":"BF16","shape":[100,64],"data_offsets":[0,12800]},)"
        R"("model.layers.0.self_attn.q_proj.weight":{"dtype":"BF16","shape":[64,64],"data_offsets":[12800,20992]},)"
        R"("model.layers.0.self_attn.k_proj.weight":{"dtype":"BF16","shape":[32,64],"data_offsets":[20992,25088]},)"
        R"("model.layers.0.self_attn.v_proj.weight":{"dtype":"BF16","shape":[32,64],"data_offsets":[25088,29184]},)"
        R"("model.layers.0.self_attn.o_proj.weight":{"dtype":"BF16","shape":[64,64],"data_offsets":[29184,37376]},)"
        R"("model.layers.0.mlp.gate_proj.weight":{"dtype":"BF16","shape":[128,64],"data_offsets":[37376,53760]},)"
        R"("model.layers.0.mlp.up_proj.weight":{"dtype":"BF16","shape":[128,64],"data_offsets":[53760,70144]},)"
        R"("model.layers.0.mlp.down_proj.weight":{"dtype":"BF16","shape":[64,128],"data_offsets":[70144,86528]},)"
        R"("model.layers.0.input_layernorm.weight":{"dtype":"BF16","shape":[64],"data_offsets":[86528,86656]},)"
        R"("model.layers.0.post_attention_layernorm.weight":{"dtype":"BF16","shape":[64],"data_offsets":[86656,86784]},)"
        R"("model.norm.weight":{"dtype":"BF16","shape":[64],"data_offsets":[86784,86912]}})";
    FakeRepo repo;
    repo.files["config.json"] = kTinyConfig;
    repo.files["model.safetensors"] = safetensors_file(header, 86912);
    repo.api = R"({"sha":"0123456789abcdef","siblings":[)" + sibling("config.json", repo.files["config.json"].size()) + "," +
               sibling("model.safetensors", repo.files["model.safetensors"].size()) + "]}";
    const Expected<HubResult> r = run("org/tiny", repo);
    REQUIRE(r.ok());
    CHECK(repo.asked == std::vector<std::string>{"the file list", "config.json", "model.safetensors header length (bytes 0-7)",
                                                  "model.safetensors header (bytes 8-" + std::to_string(7 + header.size()) + ")"});
    CHECK(r->request_count == 4);
    CHECK(r->bytes_read == repo.api.size() + repo.files["config.json"].size() + 8 + header.size());
    CHECK(r->source == "safetensors header");
    CHECK(r->commit == "0123456789abcdef");
    CHECK(r->weights.param_count == 43456);  // 86,912 bytes of BF16
    CHECK(r->weights.weight_bytes == 86912);
    REQUIRE(r->config_model);
    CHECK(r->config_model->counts.total_count == 43456);
    Scenario s;
    REQUIRE(apply_hub_result(s, *r).ok());
    CHECK(s.param_count == 43456);
    CHECK(s.model == r->config_model);  // the architecture stays: its count agrees with the weights
    CHECK(format_decimal(s.bytes_per_param) == "2");
}

TEST_CASE("hub look-up: several GGUF files ask for a pick; a picked one reads only its header's chunks", "[hub]") {
    GgufWriter w;
    w.text("general.architecture", "llama");
    w.u32("llama.block_count", 1);
    w.u32("llama.context_length", 4096);
    w.u32("llama.embedding_length", 64);
    w.u32("llama.feed_forward_length", 128);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.strings("tokenizer.ggml.tokens", 100, "tok");
    w.tensor("token_embd.weight", {64, 100}, 0, 64 * 100 * 4);
    w.tensor("blk.0.big.weight", {1024, 1024}, 0, 1024 * 1024 * 4);  // 4 MiB of data after the header
    const std::string file = w.file();
    const std::size_t header_bytes = w.file(false).size();
    REQUIRE(header_bytes < kHubFirstGgufChunkBytes);
    FakeRepo repo;
    repo.files["m-Q8_0.gguf"] = file;
    repo.files["m-F32.gguf"] = file;
    repo.api = R"({"siblings":[)" + sibling("m-Q8_0.gguf", file.size()) + "," + sibling("m-F32.gguf", file.size()) + "," +
               sibling("mmproj-F16.gguf", 100) + "," + sibling("README.md", 10) + "]}";
    const Expected<HubResult> list = run("org/m-GGUF", repo);
    REQUIRE(list.ok());
    CHECK(list->needs_choice);
    REQUIRE(list->gguf_choices.size() == 2);  // not the vision projector
    CHECK(list->request_count == 1);
    Scenario s;
    CHECK(apply_hub_result(s, *list).error() == "hf: org/m-GGUF: pick one of its GGUF files first");

    repo.asked.clear();
    const Expected<HubResult> picked = run("org/m-GGUF:m-Q8_0.gguf", repo);
    REQUIRE(picked.ok());
    CHECK(repo.asked == std::vector<std::string>{"the file list", "m-Q8_0.gguf header (bytes 0-65535)"});
    CHECK(picked->bytes_read == repo.api.size() + kHubFirstGgufChunkBytes);  // one 64 KiB chunk of a 4 MiB file
    CHECK(picked->source == "GGUF header");
    CHECK(picked->weights.param_count == 6400 + 1024 * 1024);
    REQUIRE(apply_hub_result(s, *picked).ok());
    REQUIRE(s.model);
    CHECK(s.model->architecture.num_key_value_heads == 2);
}

TEST_CASE("hub look-up: a gated repo falls back to the Hub's public totals, or names the gate", "[hub]") {
    FakeRepo repo;
    repo.refused["config.json"] = 401;
    repo.api = R"({"gated":"manual","safetensors":{"parameters":{"BF16":8030261248},"total":8030261248},"siblings":[)" +
               sibling("config.json", 800) + "," + sibling("model.safetensors.index.json", 900) + "]}";
    const Expected<HubResult> page = run("meta-llama/Llama-3.1-8B", repo, HubClient::page);
    REQUIRE(page.ok());
    CHECK(repo.asked.size() == 1);  // without a token no file is asked for
    CHECK(page->source == "Hub metadata");
    CHECK(page->weights.param_count == 8030261248);  // the model card's 8.03B
    CHECK(page->weights.weight_bytes == 16060522496);
    CHECK(page->report.find("drop it on the page") != std::string::npos);
    CHECK(page->gate == "manual");

    repo.asked.clear();
    const Expected<HubResult> cli = run("meta-llama/Llama-3.1-8B", repo, HubClient::cli, true);  // a token without access
    REQUIRE(cli.ok());
    CHECK(repo.asked.size() == 2);
    CHECK(cli->report.find("the token in HF_TOKEN has no access yet") != std::string::npos);

    repo.api = R"({"gated":"auto","siblings":[)" + sibling("config.json", 800) + "]}";
    const Expected<HubResult> none = run("org/gated", repo, HubClient::cli, false);
    CHECK(none.error() == "hf: org/gated: it is a gated model (\"auto\" approval), and the Hub publishes no parameter totals for it. "
                          "To read it, accept the conditions on its Hub page, then set HF_TOKEN to a token of that account.");
}

TEST_CASE("hub look-up: failures name the problem", "[hub]") {
    FakeRepo repo;
    CHECK(run("org/missing", repo).error() ==
          "hf: org/missing: no such model on hub.test (HTTP 404): check the id; a private repo needs HF_TOKEN");

    repo.api = R"({"siblings":[)" + sibling("model.safetensors", 1000) + "]}";
    repo.files["model.safetensors"] = std::string("\xff\xff\xff\xff\xff\xff\x00\x00", 8) + std::string(992, '\0');
    const std::string huge = run("org/huge", repo).error();
    CHECK(huge.find("model.safetensors: ") != std::string::npos);

    repo.api = R"({"siblings":[)" + sibling("model.safetensors", 200000000) + "]}";
    repo.files["model.safetensors"] = std::string("\x00\x00\x00\x02\x00\x00\x00\x00", 8);  // 32 MiB header
    CHECK(run("org/huge", repo).error() ==
          "hf: org/huge: model.safetensors: its header is 33.55 MB, more than the 16 MiB this look-up reads of one header");

    repo.files["model.safetensors"] = safetensors_file("{\"a\":", 100);
    repo.api = R"({"siblings":[)" + sibling("model.safetensors", repo.files["model.safetensors"].size()) + "]}";
    CHECK(run("org/bad", repo).error().rfind("hf: org/bad: model.safetensors: ", 0) == 0);

    repo.api = "<html>";
    CHECK(run("org/html", repo).error() == "hf: org/html: the file list is not valid JSON (at byte 1)");

    repo.api = R"({"siblings":[)" + sibling("README.md", 10) + "]}";
    CHECK(run("org/empty", repo).error() == "hf: org/empty: the repo has no config.json, params.json, safetensors or GGUF file to read");
    CHECK(run("org/empty:x.gguf", repo).error() == "hf: org/empty: no file \"x.gguf\" in the repo");
}

TEST_CASE("hub look-up: a repo with Mistral's params.json only", "[hub]") {
    // Mistral-7B-v0.3's params.json (mistralai/Mistral-7B-v0.3 on the Hub). Reference: the v0.1 config's
    // exact count (7,241,732,096, our preset and its model card) plus 768 more vocabulary rows in the
    // embeddings and the untied head: 768 x 4096 x 2 = 6,291,456, so 7,248,023,552 (the v0.3 card's 7.25B).
    const std::string params = R"({"dim":4096,"n_layers":32,"head_dim":128,"hidden_dim":14336,"n_heads":32,"n_kv_heads":8,)"
                               R"("norm_eps":1e-05,"vocab_size":32768,"rope_theta":1000000.0})";
    FakeRepo repo;
    repo.files["params.json"] = params;
    repo.api = R"({"siblings":[)" + sibling("params.json", params.size()) + "," + sibling("consolidated.safetensors", 14496078512) + "]}";
    const Expected<HubResult> r = run("mistralai/Mistral-7B-v0.3", repo);
    REQUIRE(r.ok());
    REQUIRE(r->config_model);
    CHECK(r->config_model->counts.total_count == 7248023552);
    CHECK(r->source == "params.json");
    CHECK(config_from_params_json(R"({"dim":4096})").error() == "params.json: n_layers: is missing");
    CHECK(config_from_params_json(R"({"dim":"x"})").error() == "params.json: dim: must be a whole number");
}

TEST_CASE("hub look-up: params.json with Mistral 3's vision_encoder counts the Pixtral tower", "[hub]") {
    // Mistral-Small-3.1-24B-Instruct-2503's model in params.json's layout (mistral_common's VisionEncoderArgs
    // keys). Reference: 24,011,361,280, the Hub's safetensors total for that repo (its model card's 24B), which
    // its config.json gives too (vision_test.cpp): 23,572,403,200 text, 403,305,472 Pixtral, 35,652,608 projector.
    const std::string params =
        R"({"dim":5120,"n_layers":40,"head_dim":128,"hidden_dim":32768,"n_heads":32,"n_kv_heads":8,"rope_theta":1000000000.0,)"
        R"("norm_eps":1e-05,"vocab_size":131072,"vision_encoder":{"hidden_size":1024,"num_channels":3,"max_image_size":1540,)"
        R"("patch_size":14,"rope_theta":10000.0,"intermediate_size":4096,"num_hidden_layers":24,"num_attention_heads":16,)"
        R"("mm_projector_id":"patch_merge","spatial_merge_size":2,"add_pre_mm_projector_layer_norm":true,"adapter_bias":false,)"
        R"("image_token_id":10,"image_break_token_id":12,"image_end_token_id":13,"image_size":1540}})";
    const ModelSource mistral3 = params_only("org/mistral3", params);
    CHECK(mistral3.counts.total_count == 24'011'361'280ULL);
    CHECK(mistral3.architecture.vision.encoder_count == 403'305'472ULL);
    CHECK(mistral3.architecture.vision.projector_count == 35'652'608ULL);
    // Pixtral 12B's params.json (mistralai/Pixtral-12B-2409: no mm_projector_id, so no patch merger and no norm, and
    // a biased two-layer adapter) counts as transformers' conversion of the same weights does: 12,682,739,712, the
    // mistral-community/pixtral-12b count (vision_test.cpp), whose six BF16 shards hold 25.37 GB = 2 bytes x that
    // count and whose card says "12.7B params".
    const std::string pixtral = R"({"dim":5120,"n_layers":40,"head_dim":128,"hidden_dim":14336,"n_heads":32,"n_kv_heads":8,)"
                                R"("rope_theta":1000000000.0,"norm_eps":1e-05,"vocab_size":131072,)"
                                R"("vision_encoder":{"hidden_size":1024,"num_channels":3,"image_size":1024,"patch_size":16,)"
                                R"("rope_theta":10000.0,"intermediate_size":4096,"num_hidden_layers":24,"num_attention_heads":16,)"
                                R"("image_token_id":10,"image_break_token_id":12,"image_end_token_id":13,"adapter_bias":true}})";
    const ModelSource p12 = params_only("mistralai/Pixtral-12B-2409", pixtral);
    CHECK(p12.counts.total_count == 12'682'739'712ULL);
    CHECK(p12.architecture.vision.kind == VisionKind::llava_pixtral);
    CHECK(p12.architecture.vision.projector_count == 1024ULL * 5120 + 5120 + 5120ULL * 5120 + 5120);
    // adapter_bias left out is true (vLLM's VisionEncoderArgs); false drops the two biases.
    std::string unbiased = pixtral;
    unbiased.replace(unbiased.find(R"("adapter_bias":true)"), 19, R"("adapter_bias":false)");
    CHECK(test::required(config_from_params_json(unbiased)).find(R"("multimodal_projector_bias":false)") != std::string::npos);
    std::string no_bias_key = pixtral;
    no_bias_key.replace(no_bias_key.find(R"(,"adapter_bias":true)"), 20, "");
    CHECK(test::required(config_from_params_json(no_bias_key)).find(R"("multimodal_projector_bias":true)") != std::string::npos);
    // Adapters that are neither are refused, not dropped.
    std::string other = pixtral;
    other.replace(other.find(R"("adapter_bias":true)"), 19, R"("mm_projector_id":"mlp2x")");
    CHECK(config_from_params_json(other).error() ==
          "params.json: vision_encoder: mm_projector_id \"mlp2x\" is not modelled (known: Mistral 3's \"patch_merge\" with the "
          "pre-projector norm, or none as in Pixtral 12B); it would be left out of the count");
    std::string merged = pixtral;
    merged.replace(merged.find(R"("adapter_bias":true)"), 19, R"("spatial_merge_size":2)");
    CHECK(config_from_params_json(merged).error() ==
          "params.json: vision_encoder: a pre-projector norm or a spatial_merge_size other than 1 without mm_projector_id is "
          "not modelled; it would be left out of the count");
    std::string bad_bias = pixtral;
    bad_bias.replace(bad_bias.find(R"("adapter_bias":true)"), 19, R"("adapter_bias":"yes")");
    CHECK(config_from_params_json(bad_bias).error() == "params.json: vision_encoder.adapter_bias: must be true or false");
    CHECK(config_from_params_json(R"({"dim":1,"vision_encoder":3})").error() == "params.json: vision_encoder: must be an object");
}
