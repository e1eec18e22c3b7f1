// config.json -> exact parameter counts: golden totals of real models (sources named per case), the
// per-part breakdown, MoE total vs active, the linear-layer list LoRA uses, sliding layers, and errors.
// Fixtures are the published config.json texts in tests/fixtures/configs, embedded at build time.
#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "architecture.hpp"

using namespace llm_memory;

namespace {

struct Fixture {
    const char* name;
    const char* json;
};

const Fixture kFixtures[] = {
#include "config_fixtures.inc"
};

std::string fixture(const char* name) {
    for (const Fixture& f : kFixtures)
        if (std::strcmp(f.name, name) == 0) return f.json;
    FAIL("missing fixture " << name);
    return {};
}

ParamBreakdown counts_of(const std::string& json) {
    const Expected<ModelSource> m = model_from_config(json);
    INFO(m.error());
    REQUIRE(m.ok());
    return m->counts;
}

std::uint64_t total_of(const char* name) { return counts_of(fixture(name)).total_count; }

std::string error_of(const std::string& json) {
    const Expected<ModelSource> m = model_from_config(json);
    REQUIRE_FALSE(m.ok());
    return m.error();
}

const LinearLayer* find_linear(const std::vector<LinearLayer>& linears, const std::string& path) {
    for (const LinearLayer& l : linears)
        if (l.module_path == path) return &l;
    return nullptr;
}

}  // namespace

// Each total is the sum of the checkpoint's parameter tensors (what `sum(p.numel() for p in
// model.parameters())` prints in transformers, tied weights once); the published rounded figure is named.
TEST_CASE("exact totals of real models from their config.json", "[architecture]") {
    // openai-community/gpt2: 124,439,808. The "124M" counts the tied wte/lm_head once; the checkpoint's
    // attn.bias causal-mask tensors are buffers, not parameters, and are not counted.
    CHECK(total_of("gpt2") == 124'439'808ULL);
    // meta-llama/Llama-2-7b-hf model card "7B"; transformers prints 6,738,415,616.
    CHECK(total_of("llama-2-7b") == 6'738'415'616ULL);
    // meta-llama/Llama-2-13b-hf "13B": 13,015,864,320.
    CHECK(total_of("llama-2-13b") == 13'015'864'320ULL);
    // meta-llama/Llama-2-70b-hf "70B" (GQA, 8 KV heads): 68,976,648,192.
    CHECK(total_of("llama-2-70b") == 68'976'648'192ULL);
    // meta-llama/Meta-Llama-3-8B "8B" (128,256-token vocabulary, untied): 8,030,261,248.
    CHECK(total_of("meta-llama-3-8b") == 8'030'261'248ULL);
    // meta-llama/Llama-3.2-1B "1.23B" on the model card (tied head counted once): 1,235,814,400.
    CHECK(total_of("llama-3.2-1b") == 1'235'814'400ULL);
    // mistralai/Mistral-7B-v0.1 "7.24B" on its Hugging Face page: 7,241,732,096.
    CHECK(total_of("mistral-7b-v0.1") == 7'241'732'096ULL);
    // mistralai/Mixtral-8x7B-v0.1 "46.7B" total (Mistral's announcement: 46.7B total, 12.9B per token).
    CHECK(total_of("mixtral-8x7b-v0.1") == 46'702'792'704ULL);
    // Qwen/Qwen2.5-7B model card "Number of Parameters: 7.61B": 7,615,616,512 (q/k/v biases included).
    CHECK(total_of("qwen2.5-7b") == 7'615'616'512ULL);
    // google/gemma-7b "8.54B" on its Hugging Face page (head_dim 256 != hidden/heads, tied head): 8,537,680,896.
    CHECK(total_of("gemma-7b") == 8'537'680'896ULL);
    // google/gemma-2-9b "9.24B" on its Hugging Face page (four norms per layer): 9,241,705,984.
    CHECK(total_of("gemma-2-9b") == 9'241'705'984ULL);
    // microsoft/Phi-3-mini-4k-instruct "3.8B" (model card): 3,821,079,552.
    CHECK(total_of("phi-3-mini-4k-instruct") == 3'821'079'552ULL);
    // tiiuae/falcon-7b "7B" (multi-query: one shared K/V head; tied head): 6,921,720,704.
    CHECK(total_of("falcon-7b") == 6'921'720'704ULL);
    // facebook/opt-1.3b "1.3B" (positional table has 2050 rows: OPT's offset of 2): 1,315,758,080.
    CHECK(total_of("opt-1.3b") == 1'315'758'080ULL);
    // Qwen/Qwen1.5-MoE-A2.7B model card: "14.3B parameters in total and 2.7B activated".
    CHECK(total_of("qwen1.5-moe-a2.7b") == 14'315'784'192ULL);
    // deepseek-ai/DeepSeek-V3 paper/model card: "671B total parameters" for the main model (61 layers).
    CHECK(total_of("deepseek-v3") == 671'026'419'200ULL);
}

TEST_CASE("mixture of experts: total for memory, active per token", "[architecture][moe]") {
    const ParamBreakdown mixtral = counts_of(fixture("mixtral-8x7b-v0.1"));
    // Mistral AI, "Mixtral of experts": 12.9B active parameters per token (2 of 8 experts).
    CHECK(mixtral.active_count == 12'879'925'248ULL);
    CHECK(mixtral.router_count == 32ULL * 4096 * 8);                 // block_sparse_moe.gate per layer
    CHECK(mixtral.expert_count == 32ULL * 8 * 3 * 4096 * 14336);    // w1, w2, w3 of every expert

    const ParamBreakdown qwen_moe = counts_of(fixture("qwen1.5-moe-a2.7b"));
    // Model card: 2.7B activated (4 of 60 routed experts + the shared expert and its gate).
    CHECK(qwen_moe.active_count == 2'689'173'504ULL);
    CHECK(qwen_moe.shared_expert_count == 24ULL * (3 * 2048 * 5632 + 2048));

    const ParamBreakdown v3 = counts_of(fixture("deepseek-v3"));
    // Paper: 37B activated per token. Ours counts every tensor a token touches including the input
    // embedding table (0.93B); without it, 36.6B, which is DeepSeek's "36.7B activation parameters" rounding.
    CHECK(v3.active_count == 37'552'297'472ULL);
    CHECK(v3.active_count - v3.embedding_count == 36'625'618'432ULL);
    // The Hugging Face checkpoint holds 685B: 671B main + the MTP module (layer 61: its own embedding and
    // head copies, enorm/hnorm, eh_proj and one MoE layer) = 13.46B here; DeepSeek's "14B" and "685B"
    // also count the FP8 checkpoint's weight_scale_inv tensors, which are not model parameters.
    CHECK(v3.mtp_count == 13'463'426'304ULL);
    CHECK(v3.total_count + v3.mtp_count == 684'489'845'504ULL);
}

TEST_CASE("the breakdown adds up and names each part", "[architecture]") {
    for (const Fixture& f : kFixtures) {
        INFO(f.name);
        const ParamBreakdown b = counts_of(f.json);
        std::uint64_t sum = 0;
        for (const BreakdownRow& row : breakdown_rows(b)) sum += row.count;
        CHECK(sum == b.total_count);
        CHECK(b.active_count <= b.total_count);
    }
    // Llama-2-7b by hand: embed 32000 x 4096; per layer 4 x 4096^2 attention, 3 x 4096 x 11008 MLP, 2 norms.
    const ParamBreakdown llama = counts_of(fixture("llama-2-7b"));
    CHECK(llama.embedding_count == 131'072'000ULL);
    CHECK(llama.output_head_count == 131'072'000ULL);
    CHECK(llama.attention_count == 32ULL * 4 * 4096 * 4096);
    CHECK(llama.mlp_count == 32ULL * 3 * 4096 * 11008);
    CHECK(llama.norm_count == 65ULL * 4096);
    CHECK(llama.expert_count == 0);
}

TEST_CASE("tied heads are counted once; the per-family default applies when the key is absent", "[architecture]") {
    std::string untied = fixture("llama-3.2-1b");
    const std::size_t at = untied.find("\"tie_word_embeddings\": true");
    REQUIRE(at != std::string::npos);
    untied.replace(at, std::strlen("\"tie_word_embeddings\": true"), "\"tie_word_embeddings\": false");
    CHECK(counts_of(untied).total_count == 1'235'814'400ULL + 128'256ULL * 2048);
    CHECK(counts_of(fixture("llama-3.2-1b")).output_head_count == 0);
    // Gemma's config has no tie key: GemmaConfig ties by default. Llama's default is untied.
    CHECK(counts_of(fixture("gemma-7b")).output_head_count == 0);
    const std::string llama_no_key =
        R"({"model_type":"llama","hidden_size":64,"intermediate_size":128,"num_attention_heads":4,"num_hidden_layers":2,"vocab_size":100})";
    CHECK(counts_of(llama_no_key).output_head_count == 6400);
}

TEST_CASE("architecture fields: GQA, head_dim, MLA, legacy keys", "[architecture]") {
    const Architecture llama70 = *parse_config(fixture("llama-2-70b"));
    CHECK(llama70.num_key_value_heads == 8);
    CHECK(llama70.head_dim == 128);
    const Architecture gemma = *parse_config(fixture("gemma-7b"));
    CHECK(gemma.head_dim == 256);  // explicit, not 3072 / 16 = 192
    const Architecture falcon = *parse_config(fixture("falcon-7b"));
    CHECK(falcon.num_key_value_heads == 1);  // multi_query
    const Architecture v3 = *parse_config(fixture("deepseek-v3"));
    CHECK(v3.uses_mla());
    CHECK(v3.kv_lora_rank == 512);
    CHECK(v3.qk_rope_head_dim == 64);
    CHECK(v3.moe_layer_count() == 58);  // first_k_dense_replace = 3 of 61
    CHECK_FALSE(v3.layer_is_moe(2));
    CHECK(v3.layer_is_moe(3));
    // The original falcon-7b upload used model_type "RefinedWebModel" with n_head / n_layer.
    const std::string legacy_falcon =
        R"({"model_type":"RefinedWebModel","hidden_size":4544,"n_head":71,"n_layer":32,"multi_query":true,"parallel_attn":true,"bias":false,"vocab_size":65024})";
    CHECK(counts_of(legacy_falcon).total_count == 6'921'720'704ULL);
}

TEST_CASE("sliding-window layers", "[architecture]") {
    const Architecture mistral = *parse_config(fixture("mistral-7b-v0.1"));
    CHECK(mistral.sliding_window == 4096);
    CHECK(mistral.sliding_layer_count() == 32);
    const Architecture gemma2 = *parse_config(fixture("gemma-2-9b"));
    CHECK(gemma2.sliding_window == 4096);
    CHECK(gemma2.sliding_layer_count() == 21);
    CHECK(gemma2.sliding_layers[0]);
    CHECK_FALSE(gemma2.sliding_layers[1]);
    CHECK(parse_config(fixture("mixtral-8x7b-v0.1"))->sliding_window == 0);  // "sliding_window": null
    CHECK(parse_config(fixture("qwen2.5-7b"))->sliding_window == 0);        // use_sliding_window false
    CHECK(parse_config(fixture("llama-2-7b"))->sliding_layer_count() == 0);
}

TEST_CASE("linear layers carry PEFT names and shapes", "[architecture][lora]") {
    const auto llama = decoder_linear_layers(*parse_config(fixture("llama-2-7b")));
    REQUIRE(llama.size() == 7);
    const LinearLayer* q = find_linear(llama, "self_attn.q_proj");
    REQUIRE(q != nullptr);
    CHECK(q->target_name == "q_proj");
    CHECK(q->in_features == 4096);
    CHECK(q->out_features == 4096);
    CHECK(q->instance_count() == 32);
    // PEFT on Llama-2-7b, r=8, target_modules q_proj,v_proj: "trainable params: 4,194,304".
    std::uint64_t lora = 0;
    for (const LinearLayer& l : llama)
        if (l.target_name == "q_proj" || l.target_name == "v_proj") lora += 8 * (l.in_features + l.out_features) * l.instance_count();
    CHECK(lora == 4'194'304ULL);

    const auto llama70 = decoder_linear_layers(*parse_config(fixture("llama-2-70b")));
    CHECK(find_linear(llama70, "self_attn.k_proj")->out_features == 1024);  // 8 KV heads x 128

    const auto gpt2 = decoder_linear_layers(*parse_config(fixture("gpt2")));
    CHECK(find_linear(gpt2, "attn.c_attn")->out_features == 3 * 768);
    CHECK(find_linear(gpt2, "mlp.c_proj")->target_name == "c_proj");
    const auto falcon = decoder_linear_layers(*parse_config(fixture("falcon-7b")));
    CHECK(find_linear(falcon, "self_attention.query_key_value")->out_features == 4544 + 2 * 64);
    CHECK(find_linear(falcon, "mlp.dense_h_to_4h")->out_features == 4 * 4544);
    const auto phi3 = decoder_linear_layers(*parse_config(fixture("phi-3-mini-4k-instruct")));
    CHECK(find_linear(phi3, "self_attn.qkv_proj")->out_features == 3 * 3072);
    CHECK(find_linear(phi3, "mlp.gate_up_proj")->out_features == 2 * 8192);
    const auto mixtral = decoder_linear_layers(*parse_config(fixture("mixtral-8x7b-v0.1")));
    const LinearLayer* w1 = find_linear(mixtral, "block_sparse_moe.experts.*.w1");
    REQUIRE(w1 != nullptr);
    CHECK(w1->per_layer_count == 8);
    CHECK(w1->instance_count() == 256);
    const auto v3 = decoder_linear_layers(*parse_config(fixture("deepseek-v3")));
    CHECK(find_linear(v3, "self_attn.kv_b_proj")->in_features == 512);
    CHECK(find_linear(v3, "self_attn.kv_b_proj")->out_features == 128 * (128 + 128));
    CHECK(find_linear(v3, "mlp.gate_proj")->layer_count == 3);  // the dense first layers
    CHECK(find_linear(v3, "mlp.experts.*.gate_proj")->instance_count() == 58ULL * 256);
}

TEST_CASE("an unknown model_type is estimated with warnings naming the assumptions", "[architecture]") {
    std::string custom = fixture("llama-2-7b");
    const std::size_t at = custom.find("\"llama\"");
    REQUIRE(at != std::string::npos);
    custom.replace(at, 7, "\"my_llama\"");
    const Expected<ModelSource> m = model_from_config(custom);
    REQUIRE(m.ok());
    CHECK(m->counts.total_count == 6'738'415'616ULL);
    REQUIRE_FALSE(m->architecture.warnings.empty());
    CHECK(m->architecture.warnings[0].find("my_llama") != std::string::npos);
    CHECK(m->architecture.warnings[0].find("gated MLP") != std::string::npos);
    // No intermediate_size either: 4 x hidden is assumed, and said.
    const Expected<ModelSource> bare =
        model_from_config(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100})");
    REQUIRE(bare.ok());
    CHECK(bare->architecture.warnings.size() == 2);
    CHECK(bare->architecture.intermediate_size == 256);
    // Known types carry no warnings.
    CHECK(parse_config(fixture("gpt2"))->warnings.empty());
}

TEST_CASE("malformed, truncated, wrongly typed and absurd configs are errors naming the key", "[architecture][errors]") {
    const std::string llama = fixture("llama-2-7b");
    CHECK(error_of(llama.substr(0, llama.size() / 2)).find("not valid JSON") != std::string::npos);
    CHECK(error_of("").find("empty") != std::string::npos);
    CHECK(error_of("[1, 2]").find("JSON object") != std::string::npos);
    CHECK(error_of("{\"hidden_size\": 4096,}").find("not valid JSON") != std::string::npos);
    const std::string base = R"("model_type":"llama","num_attention_heads":32,"intermediate_size":11008,"vocab_size":32000)";
    CHECK(error_of("{" + base + R"(,"hidden_size":"4096","num_hidden_layers":32})") ==
          "hidden_size: must be a number (got a string)");
    CHECK(error_of("{" + base + R"(,"hidden_size":-4096,"num_hidden_layers":32})") ==
          "hidden_size: must not be negative (got -4096)");
    CHECK(error_of("{" + base + R"(,"hidden_size":4096.5,"num_hidden_layers":32})") ==
          "hidden_size: must be a whole number");
    CHECK(error_of("{" + base + R"(,"hidden_size":4096,"num_hidden_layers":10000000})") ==
          "num_hidden_layers: must be at most 10,000 (got 10,000,000)");
    CHECK(error_of("{" + base + R"(,"hidden_size":10000000,"num_hidden_layers":32})") ==
          "hidden_size: must be at most 1,000,000 (got 10,000,000)");
    CHECK(error_of("{" + base + R"(,"hidden_size":4096,"num_hidden_layers":0})") ==
          "num_hidden_layers: must be at least 1 (got 0)");
    CHECK(error_of("{" + base + R"(,"hidden_size":-0,"num_hidden_layers":32})") == "hidden_size: must be at least 1 (got 0)");
    CHECK(error_of("{" + base + R"(,"hidden_size":1e30,"num_hidden_layers":32})") ==
          "hidden_size: must be at most 1,000,000 (got more than 10^18)");
    CHECK(error_of("{" + base + R"(,"hidden_size":[4096],"num_hidden_layers":32})") == "hidden_size: must be a number (got a list)");
    CHECK(error_of("{" + base + R"(,"num_hidden_layers":32})") == "hidden_size: is missing");
    CHECK(error_of("{" + base + R"(,"hidden_size":4096,"num_hidden_layers":32,"num_key_value_heads":5})")
              .rfind("num_key_value_heads:", 0) == 0);
    CHECK(error_of("{" + base + R"(,"hidden_size":4096,"num_hidden_layers":32,"tie_word_embeddings":"yes"})") ==
          "tie_word_embeddings: must be true or false (got a string)");
    CHECK(error_of("{" + base + R"(,"hidden_size":4096,"num_hidden_layers":32,"model_type":7})") ==
          "model_type: must be a string (got a number)");
    CHECK(error_of(R"({"model_type":"mixtral","hidden_size":64,"intermediate_size":128,"num_attention_heads":4,"num_hidden_layers":2,"vocab_size":100,"num_local_experts":4,"num_experts_per_tok":5})")
              .rfind("num_experts_per_tok:", 0) == 0);
    // Within every per-key limit but beyond 10^15 parameters in total.
    CHECK(error_of(R"({"model_type":"llama","hidden_size":1000000,"intermediate_size":10000000,"num_attention_heads":1000,"num_hidden_layers":10000,"vocab_size":1000})")
              .find("10^15") != std::string::npos);
}

TEST_CASE("deeply nested JSON is refused before parsing (no stack overflow)", "[architecture][errors]") {
    const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
    CHECK(error_of(deep).find("nested deeper than 64") != std::string::npos);
    const std::string deep_object = "{\"a\":" + std::string(70, '[') + std::string(70, ']') + "}";
    CHECK(error_of(deep_object).find("nested deeper") != std::string::npos);
    // Brackets inside strings do not count.
    const std::string in_string = "{\"note\":\"" + std::string(1000, '[') + "\"," +
                                  R"("model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257})";
    CHECK(counts_of(in_string).total_count == 124'439'808ULL);
}

TEST_CASE("multimodal configs: the language model under text_config", "[architecture]") {
    const std::string wrapped = "{\"model_type\":\"llava\",\"text_config\":" + fixture("llama-2-7b") + "}";
    CHECK(counts_of(wrapped).total_count == 6'738'415'616ULL);
}
