// config.json -> exact parameter counts: golden totals of real models (sources named per case), the
// per-part breakdown, MoE total vs active, the linear-layer list LoRA uses, sliding layers, and errors.
// Fixtures are the published config.json texts in tests/fixtures/configs, embedded at build time.
//
// Sections: fixtures · exact totals of real models · MoE · breakdown · tied heads · fields (GQA, head_dim,
//   MLA) · sliding layers · linear layers · unknown model_type · bad configs · multimodal · new families
//   (totals, per-layer parts, sliding/chunked layers) · unknown types refused.
#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "architecture.hpp"
#include "config_fixtures.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

ParamBreakdown counts_of(const std::string& json) { return model_of(json).counts; }

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
    // Qwen (first generation) in Qwen2's layout (fixtures/configs/README.md): the Qwen-1.8B/7B/14B/72B model
    // cards' 1.8B/7.7B/14.2B/72.3B, exactly the sums of their QWenLMHeadModel parameters.
    CHECK(total_of("qwen-1.8b") == 1'836'828'672ULL);
    CHECK(total_of("qwen-7b") == 7'721'324'544ULL);
    CHECK(total_of("qwen-14b") == 14'167'290'880ULL);
    CHECK(total_of("qwen-72b") == 72'287'920'128ULL);
    // The book's GPT-2 of rasbt/LLMs-from-scratch (fixtures/configs/README.md), untied head: chapter 4 prints
    // "Total number of parameters: 163,009,536" for vocabulary 50,257 without QKV biases; a GPT-2 config
    // counts the 27,648 biases too. Its speed chapter's vocabulary of 50,304 adds 47 x 768 x 2 parameters.
    CHECK(total_of("llms-from-scratch-gpt-124m-v50257") == 163'009'536ULL + 27'648ULL);
    CHECK(total_of("llms-from-scratch-gpt-124m") == 163'009'536ULL + 27'648ULL + 47ULL * 768 * 2);
    // Megatron-LM's GPT-345M (fixtures/configs/README.md): its training log (liguodongiot/llm-action,
    // train/megatron/gpt2/model_train.md) prints "number of parameters on (tensor, pipeline) model parallel
    // rank (0, 0): 354871296" at vocabulary 50,304. Under tp 4 it pads to 50,688 and prints 89,714,688 a rank:
    // four ranks hold it all once and, three times more, what each keeps whole (the 1024 x 1024 position
    // table, 49 LayerNorms of 2 x 1024, the 48 row-parallel biases of 1024).
    CHECK(total_of("megatron-gpt-345m-v50304") == 354'871'296ULL);
    CHECK(total_of("megatron-gpt-345m-v50688") == 4ULL * 89'714'688 - 3ULL * (1024 * 1024 + 49 * 2048 + 48 * 1024));
    CHECK(total_of("megatron-gpt-345m-v50432") == 354'871'296ULL + (50'432ULL - 50'304) * 1024);
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
    CHECK(m->architecture.approximate());
    // No intermediate_size either: an error naming it, never an assumed 4 x hidden_size.
    CHECK(error_of(R"({"hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100})") ==
          "intermediate_size: is missing, and so is model_type, so no family default applies (a width is never assumed)");
    CHECK(error_of(R"({"model_type":"my_llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100})") ==
          "intermediate_size: is missing, and model_type \"my_llama\" is not known, so no family default applies (a width "
          "is never assumed)");
    // Hybrid and multimodal fields an unknown type cannot model are refused, naming them.
    CHECK(error_of(R"({"model_type":"x","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100,)"
                   R"("intermediate_size":128,"mamba_d_state":16})")
              .find("mamba_d_state (Mamba layers)") != std::string::npos);
    CHECK_FALSE(parse_config(fixture("llama-2-7b"))->approximate());
    // Known types carry no warnings.
    CHECK(parse_config(fixture("gpt2"))->warnings.empty());
}

TEST_CASE("rotary embedding settings are read as the configs write them, and bad ones are errors naming the key", "[architecture]") {
    // The published configs (tests/fixtures/configs): rope_scaling, partial_rotary_factor, position_embedding_type.
    const Architecture gemma = model_of(fixture("gemma-3-27b-it")).architecture;
    CHECK(gemma.rope.rotary);
    CHECK(gemma.rope.type == "linear");
    CHECK(gemma.rope.factor == 8.0);
    const Architecture oss = model_of(fixture("gpt-oss-20b")).architecture;
    CHECK(oss.rope.type == "yarn");
    CHECK(oss.rope.original_positions == 4096);
    CHECK(model_of(fixture("deepseek-v3")).architecture.rope.type == "yarn");  // the legacy "type" key
    CHECK(model_of(fixture("qwen3-next-80b-a3b-instruct")).architecture.rope.partial == 0.25);
    CHECK(model_of(fixture("llama-2-7b")).architecture.rope.type == "default");  // rope_scaling null
    CHECK_FALSE(model_of(fixture("granite-4.0-h-small")).architecture.rope.rotary);  // position_embedding_type "nope"
    CHECK(model_of(fixture("phi-4")).architecture.rope.original_positions == 16384);  // written beside rope_scaling
    // transformers 5's rope_parameters, keyed by layer type for Gemma 3: the full-attention entry is the scaled one.
    const std::string base = R"("model_type":"llama","num_attention_heads":32,"hidden_size":4096,"num_hidden_layers":32,"intermediate_size":11008,"vocab_size":32000)";
    CHECK(model_of("{" + base + R"(,"rope_parameters":{"full_attention":{"rope_type":"linear","factor":8.0},"sliding_attention":{"rope_type":"default"}}})")
              .architecture.rope.factor == 8.0);
    // Bad values name the key, inside rope_scaling too; the count is not given on a config that says something wrong.
    CHECK(error_of("{" + base + R"(,"rope_scaling":"linear"})") == "rope_scaling: must be an object (got a string)");
    CHECK(error_of("{" + base + R"(,"rope_scaling":{"type":"yarn","factor":-4}})") == "rope_scaling.factor: must be a number from 0 to 10,000");
    CHECK(error_of("{" + base + R"(,"rope_scaling":{"type":"yarn","factor":"4"}})") == "rope_scaling.factor: must be a number from 0 to 10,000 (got a string)");
    CHECK(error_of("{" + base + R"(,"rope_scaling":{"rope_type":"yarn","factor":4,"original_max_position_embeddings":"32k"}})") ==
          "rope_scaling.original_max_position_embeddings: must be a number (got a string)");
    CHECK(error_of("{" + base + R"(,"rope_parameters":{"rope_type":7}})") == "rope_parameters.rope_type: must be a string (got a number)");
    CHECK(error_of("{" + base + R"(,"partial_rotary_factor":1.5})") == "partial_rotary_factor: must be a number from 0 to 1");
    CHECK(error_of("{" + base + R"(,"rotary_pct":true})") == "rotary_pct: must be a number from 0 to 1 (got true/false)");
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

// Families added for the models people run today. Each total is our exact count from the fixture (the
// published config.json); the comment names the published figure it reproduces and, where they differ,
// why. "total_size / 2" is the bf16 checkpoint's model.safetensors.index.json total_size in parameters.
TEST_CASE("new families: exact totals with their sources", "[architecture][families]") {
    // Qwen/Qwen3-8B model card: "Number of Parameters: 8.2B, Non-Embedding: 6.95B"; index total_size
    // 16,381,470,720 bytes = 8,190,735,360 bf16 parameters. q_norm/k_norm (2 x 128 per layer) included.
    const ParamBreakdown qwen3 = counts_of(fixture("qwen3-8b"));
    CHECK(qwen3.total_count == 8'190'735'360ULL);
    CHECK(qwen3.total_count - qwen3.embedding_count - qwen3.output_head_count == 6'946'075'648ULL);
    // Qwen/Qwen3-30B-A3B model card: "30.5B in total and 3.3B activated"; index total_size 61,064,245,248.
    const ParamBreakdown qwen3_moe = counts_of(fixture("qwen3-30b-a3b"));
    CHECK(qwen3_moe.total_count == 30'532'122'624ULL);
    CHECK(qwen3_moe.active_count == 3'353'032'704ULL);
    CHECK(qwen3_moe.shared_expert_count == 0);
    CHECK(qwen3_moe.router_count == 48ULL * 2048 * 128);
    // openai/gpt-oss-20b model card table: 20.91B total, 3.61B active. OpenAI's active figure leaves out
    // the input embedding table (579M) but keeps the unembedding; ours with it is 4.19B.
    const ParamBreakdown oss = counts_of(fixture("gpt-oss-20b"));
    CHECK(oss.total_count == 20'914'757'184ULL);
    CHECK(oss.active_count - oss.embedding_count == 3'608'307'264ULL);
    CHECK(oss.router_count == 24ULL * (2880 * 32 + 32));  // router Linear with bias
    // google/gemma-3-1b-pt "1B": 999,885,952 (tied head; four norms and q/k norms per layer).
    CHECK(total_of("gemma-3-1b-pt") == 999'885'952ULL);
    // google/gemma-3-4b-pt "4.3B" on its Hugging Face page is 4,300,079,472 with the SigLIP vision tower and
    // projector (419,816,304, core/vision.cpp); the text model alone is 3,880,263,168.
    CHECK(total_of("gemma-3-4b-pt") == 4'300'079'472ULL);
    CHECK(counts_of(fixture("gemma-3-4b-pt")).vision_count == 419'816'304ULL);
    CHECK(parse_config(fixture("gemma-3-4b-pt"))->has_vision_tower);
    // meta-llama/Llama-4-Scout-17B-16E model card: "17B active, 109B total": the 107.77B text model + the
    // vision encoder and projector (871,932,416) = 108,641,793,536, the Hub's safetensors total.
    const ParamBreakdown scout = counts_of(fixture("llama-4-scout-17b-16e"));
    CHECK(scout.total_count == 108'641'793'536ULL);
    CHECK(scout.active_count == 17'172'894'720ULL);
    CHECK(scout.shared_expert_count == 48ULL * 3 * 5120 * 8192);
    // zai-org/GLM-4.5-Air model card: "106B total parameters and 12B active". Active without the
    // embedding and head tables: 12.18B. The checkpoint also stores the MTP layer (model.layers.46): 3.62B.
    const ParamBreakdown air = counts_of(fixture("glm-4.5-air"));
    CHECK(air.total_count == 106'852'251'264ULL);
    CHECK(air.active_count - air.embedding_count - air.output_head_count == 12'182'615'680ULL);
    CHECK(air.mtp_count == 3'616'573'568ULL);
    // microsoft/phi-4 "14.7B" on its Hugging Face page (the Phi-3 layout, 100,352-token vocabulary).
    CHECK(total_of("phi-4") == 14'659'507'200ULL);
    // mistralai/Mistral-Small-24B-Base-2501 "23.6B" and Mistral-Nemo-Base-2407 "12.2B" on their pages:
    // head_dim 128 is explicit (5120 / 32 would be 160 and give 24.9B and 13.5B).
    CHECK(total_of("mistral-small-24b-base-2501") == 23'572'403'200ULL);
    CHECK(total_of("mistral-nemo-base-2407") == 12'247'782'400ULL);
    CHECK(parse_config(fixture("mistral-nemo-base-2407"))->head_dim == 128);
    // allenai/OLMo-2-1124-7B "7.3B" (q_norm and k_norm over all 32 heads: 8,192 per layer).
    CHECK(total_of("olmo-2-1124-7b") == 7'298'617'344ULL);
    // CohereForAI/c4ai-command-r-v01 "35B" (bias-free LayerNorm, one per layer, tied head).
    CHECK(total_of("c4ai-command-r-v01") == 34'980'831'232ULL);
    // ibm-granite/granite-3.1-8b-base "8.17B" on its Hugging Face page (tied head).
    CHECK(total_of("granite-3.1-8b-base") == 8'170'848'256ULL);
    // moonshotai/Kimi-K2-Instruct model card: "1 trillion total parameters, 32 billion activated"
    // (DeepSeek-V3 architecture, 384 experts, no MTP layer).
    const ParamBreakdown kimi = counts_of(fixture("kimi-k2-instruct"));
    CHECK(kimi.total_count == 1'026'408'232'448ULL);
    CHECK(kimi.active_count == 32'861'500'928ULL);
    CHECK(kimi.mtp_count == 0);
    // MiniMaxAI/MiniMax-M2.7 (MiniMax-M2's layout): 228,689,764,864 weights, llama.cpp's model_n_params for
    // unsloth/MiniMax-M2.7-GGUF (llama-bench), which a published tensor dump of the FP8 checkpoint gives too: its
    // 228,703,644,928 "total parameters" less the 13,880,064 fp32 weight_scale_inv values. q_norm and k_norm span
    // all heads ((48 + 8) x 128 per layer); 256 experts of 3 x 3,072 x 1,536 with a 256 x 3,072 gate and a
    // 256-value e_score_correction_bias per layer; the config's use_mtp modules have no tensors in the checkpoint.
    const ParamBreakdown minimax = counts_of(fixture("minimax-m2.7"));
    CHECK(minimax.total_count == 228'689'764'864ULL);
    CHECK(minimax.router_count == 62ULL * (3072 * 256 + 256));
    CHECK(minimax.mtp_count == 0);
    CHECK(parse_config(fixture("minimax-m2.7"))->qk_norm_count == (48 + 8) * 128);
    CHECK(parse_config(fixture("minimax-m2.7"))->rope.partial == 0.5);  // rotary_dim 64 of head_dim 128
    std::string per_head = fixture("minimax-m2.7");
    per_head.replace(per_head.find("\"per_layer\""), 11, "\"per_head\"");
    CHECK(model_from_config(per_head).error() == "qk_norm_type: must be per_layer (the only kind transformers builds)");
}

TEST_CASE("new families: per-layer parts that change the count", "[architecture][families]") {
    // Qwen3: per layer q/k norms of head_dim each; no q/k/v bias (Qwen2 had them).
    const Architecture qwen3 = *parse_config(fixture("qwen3-8b"));
    CHECK(qwen3.qk_norm_count == 256);
    CHECK_FALSE(qwen3.qkv_bias);
    // OLMo 2: the norms span all heads: (32 + 32) x 128.
    CHECK(parse_config(fixture("olmo-2-1124-7b"))->qk_norm_count == 8192);
    // gpt-oss: sinks (64 per layer) and biases everywhere in attention.
    const Architecture oss = *parse_config(fixture("gpt-oss-20b"));
    CHECK(oss.attention_sinks);
    const ParamBreakdown oss_counts = counts_of(fixture("gpt-oss-20b"));
    CHECK(oss_counts.attention_count ==
          24ULL * (2880 * 4096 + 4096 + 2 * (2880 * 512 + 512) + 4096 * 2880 + 2880 + 64));
    CHECK(oss_counts.expert_count == 24ULL * 32 * (2880 * 5760 + 5760 + 2880 * 2880 + 2880));
    // Llama 4 Maverick: MoE on every other layer (interleave_moe_layer_step 2), dense layers 16,384 wide.
    const Expected<ModelSource> maverick = model_from_config(
        R"({"model_type":"llama4","text_config":{"model_type":"llama4_text","hidden_size":5120,"intermediate_size":8192,"intermediate_size_mlp":16384,"num_attention_heads":40,"num_hidden_layers":48,"num_key_value_heads":8,"head_dim":128,"num_local_experts":128,"num_experts_per_tok":1,"interleave_moe_layer_step":2,"vocab_size":202048}})");
    REQUIRE(maverick.ok());
    CHECK(maverick->architecture.moe_layer_count() == 24);
    CHECK_FALSE(maverick->architecture.layer_is_moe(0));
    CHECK(maverick->architecture.layer_is_moe(1));
    // Model card "17B active, 400B total".
    CHECK(maverick->counts.total_count == 400'711'848'960ULL);
    CHECK(maverick->counts.mlp_count == 24ULL * 3 * 5120 * 16384);
}

TEST_CASE("new families: sliding, chunked and global layers", "[architecture][families][kv]") {
    // Gemma 3: (i + 1) % 6 != 0 slides: 5 of every 6 layers; 26 layers -> 22 sliding, 4 global.
    const Architecture g1 = *parse_config(fixture("gemma-3-1b-pt"));
    CHECK(g1.sliding_window == 512);
    CHECK(g1.sliding_layer_count() == 22);
    CHECK_FALSE(g1.sliding_layers[5]);
    CHECK(g1.sliding_layers[6]);
    // 4B: 34 layers, window 1024 from text_config; heads, KV heads, head_dim and vocabulary from
    // Gemma3TextConfig's defaults (8, 4, 256, 262,208), which its config.json leaves out.
    const Architecture g4 = *parse_config(fixture("gemma-3-4b-pt"));
    CHECK(g4.sliding_window == 1024);
    CHECK(g4.sliding_layer_count() == 29);
    CHECK(g4.num_key_value_heads == 4);
    CHECK(g4.vocab_size == 262208);
    // gpt-oss: layer_types alternate, starting with a sliding layer; window 128.
    const Architecture oss = *parse_config(fixture("gpt-oss-20b"));
    CHECK(oss.sliding_window == 128);
    CHECK(oss.sliding_layer_count() == 12);
    CHECK(oss.sliding_layers[0]);
    CHECK_FALSE(oss.sliding_layers[1]);
    // Llama 4: chunked attention (8192) on RoPE layers; every 4th layer (NoPE) is global.
    const Architecture scout = *parse_config(fixture("llama-4-scout-17b-16e"));
    CHECK(scout.chunked_attention);
    CHECK(scout.sliding_window == 8192);
    CHECK(scout.sliding_layer_count() == 36);
    CHECK_FALSE(scout.sliding_layers[3]);
    // Qwen3 with use_sliding_window false: nothing slides.
    CHECK(parse_config(fixture("qwen3-8b"))->sliding_layer_count() == 0);
}

TEST_CASE("an unknown model_type with parts the estimate cannot model is refused, naming the fields", "[architecture][errors]") {
    // The issue's case: Qwen3-30B-A3B under an unknown name printed 3,340,437,504 (9x too low) and exit 0.
    std::string moe = fixture("qwen3-30b-a3b");
    moe.replace(moe.find("\"qwen3_moe\""), 11, "\"my_moe\"");
    const std::string moe_error = error_of(moe);
    CHECK(moe_error.rfind("config.json: model_type \"my_moe\" is not known", 0) == 0);
    CHECK(moe_error.find("num_experts (routed experts)") != std::string::npos);
    CHECK(moe_error.find("moe_intermediate_size (expert width)") != std::string::npos);
    // gpt-oss under another name (was 2.39B instead of 20.9B): num_local_experts names it.
    std::string oss = fixture("gpt-oss-20b");
    oss.replace(oss.find("\"gpt_oss\""), 9, "\"oss_next\"");
    CHECK(error_of(oss).find("num_local_experts (routed experts)") != std::string::npos);
    // A vision tower, MTP layers and MLA are named too.
    std::string glm = fixture("glm-4.5-air");
    glm.replace(glm.find("\"glm4_moe\""), 10, "\"glm5\"");
    const std::string glm_error = error_of(glm);
    CHECK(glm_error.find("n_shared_experts (shared experts)") != std::string::npos);
    CHECK(glm_error.find("num_nextn_predict_layers (multi-token-prediction layers)") != std::string::npos);
    // Found by fuzz/fuzz_config.cpp in CI: DeepSeek-V3 under an unknown name has seven such fields, and
    // naming them all made a message over 400 bytes. Three kinds are named, the rest counted, in one short line.
    std::string deepseek = fixture("deepseek-v3");
    deepseek.replace(deepseek.find("\"deepseek_v3\""), 13, "\"deepseek_v9\"");
    const std::string deepseek_error = error_of(deepseek);
    CHECK(deepseek_error == "config.json: model_type \"deepseek_v9\" is not known, and these fields change the count in ways "
                            "the Llama-style estimate does not model: n_routed_experts (routed experts), n_shared_experts "
                            "(shared experts), num_nextn_predict_layers (multi-token-prediction layers) and 4 more. Use a "
                            "known model_type or --params");
    CHECK(deepseek_error.size() <= 400);
    std::string gemma = fixture("gemma-3-4b-pt");
    gemma.replace(gemma.find("\"gemma3_text\""), 13, "\"gemma9_text\"");
    CHECK(error_of(gemma).find("vision_config (a vision tower)") != std::string::npos);
    // Zero or null values of those keys change nothing: still counted (with the Llama-style warning).
    std::string dense = fixture("llama-2-7b");
    dense.replace(dense.find("\"llama\""), 7, "\"my_llama\"");
    dense.insert(1, R"("num_experts": 0, "n_shared_experts": null, "layer_types": null, )");
    CHECK(counts_of(dense).total_count == 6'738'415'616ULL);
    // layer_types is a generic rule: sliding/full layers are read for any family; other kinds are refused.
    std::string typed = R"({"model_type":"my_swa","hidden_size":64,"intermediate_size":128,"num_attention_heads":4,"num_hidden_layers":3,"vocab_size":100,"sliding_window":16,"layer_types":["sliding_attention","full_attention","sliding_attention"]})";
    const Architecture swa = *parse_config(typed);
    CHECK(swa.sliding_layer_count() == 2);
    typed.replace(typed.find("\"full_attention\""), 16, "\"linear_attention\"");
    CHECK(error_of(typed) == "layer_types: layer 1 is \"linear_attention\" (only full_attention and sliding_attention layers are modelled)");
}
