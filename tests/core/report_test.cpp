// Reports: the CLI's JSON object and the screen-reader summary carry core's exact figures.
#include <catch_amalgamated.hpp>

#include "architecture.hpp"
#include "report.hpp"
#include "settings.hpp"

using namespace llm_memory;

TEST_CASE("report_json has every key with integer bytes (seed 13B)", "[report]") {
    const Scenario s;
    const std::string json = report_json(s, estimate(s).value());
    CHECK(json ==
          "{\"parameters\":13000000000,\"trainable_parameters\":13000000000,\"bytes_per_parameter\":2,"
          "\"overhead_factor\":1.2,\"values_per_trainable\":3,\"bytes_per_value\":2,\"weight_bytes\":26000000000,"
          "\"inference_bytes\":31200000000,\"gradient_optimizer_bytes\":78000000000,\"training_bytes\":104000000000,"
          "\"full_training_bytes\":104000000000,\"reduction_bytes\":0}");
}

TEST_CASE("report_summary reads the seed's figures in GB and GiB", "[report]") {
    const Scenario s;
    CHECK(report_summary(estimate(s).value()) ==
          "Weight memory 26 GB (24.21 GiB). Inference total 31.2 GB (29.06 GiB). "
          "Gradient+optimizer memory 78 GB (72.64 GiB). Training total 104 GB (96.86 GiB).");
}

namespace {
Scenario from_state(const char* state) {
    const StateResult r = apply_state(Scenario{}, state);
    REQUIRE(r.problems.empty());
    return r.scenario;
}
}  // namespace

TEST_CASE("report_json: every feature's keys, in their places, with the table's figures", "[report][terms]") {
    // QLoRA rank 16 on Llama-2-7b (6,738,415,616 parameters) with an 8K x 4 KV cache, detailed inference on
    // 4 x A100 80GB at ZeRO 3. Golden text taken from the CLI before the memory terms became one table, then
    // changed on purpose: QLoRA keeps embeddings, head and norms at 16 bits (weight 3,865,591,808, see
    // lora_test), the detailed inference activation is "inference_activation_bytes" (activation_bytes is the
    // training one), and with a model known the training verdict is on the training peak (training_basis), with ZeRO-3's
    // gathered layers and the 4-bit dequantization workspace in it; upcast-nonquantized=false keeps the
    // 16-bit rest (PEFT's default fp32 upcast is lora_test's) and adapter-dtype=bf16 the 16-bit adapter (PEFT's
    // default fp32 adapter is training_test's). The peak is the larger of the backward pass's and the optimizer
    // step's; with one micro-batch per step the backward pass holds no gradients (4,194,304 bytes less here).
    const Scenario s = from_state("model=llama-2-7b&lora-rank=16&qlora&upcast-nonquantized=false&adapter-dtype=bf16&context=8K&batch=4&inference-mode=detailed&gpu=a100-80gb&gpus=4&zero=3");
    CHECK(report_json(s, estimate(s).value()) ==
          "{\"parameters\":6738415616,\"trainable_parameters\":8388608,\"bytes_per_parameter\":2,\"overhead_factor\":1.2,"
          "\"values_per_trainable\":3,\"bytes_per_value\":2,\"weight_bytes\":3865591808,\"inference_bytes\":4638710170,"
          "\"gradient_optimizer_bytes\":50331648,\"training_bytes\":3932700672,\"full_training_bytes\":44296085504,"
          "\"reduction_bytes\":40380162048,\"model\":\"llama-2-7b\",\"model_name\":\"meta-llama/Llama-2-7b-hf\","
          "\"breakdown\":{\"embeddings\":131072000,\"attention\":2147483648,\"mlp\":4328521728,\"experts\":0,"
          "\"shared_experts\":0,\"router\":0,\"recurrent\":0,\"vision\":0,\"norms\":266240,\"output_head\":131072000},\"weight_format\":\"nf4_dq\","
          "\"lora_trainable_parameters\":8388608,\"adapter_dtype\":\"bf16\",\"adapter_weight_bytes\":16777216,\"kv_cache_bytes\":17179869184,"
          "\"inference_mode\":\"detailed\",\"inference_activation_bytes\":1711788032,\"runtime_reserve_bytes\":1073741824,"
          "\"detailed_inference_bytes\":23830990848,\"gpu\":{\"name\":\"a100-80gb\",\"capacity_bytes\":85899345920,"
          "\"gpus\":4,\"zero_stage\":3,\"per_gpu_bytes\":983175168,\"training_basis\":\"training_peak\","
          "\"peak_per_gpu_bytes\":13232490291,\"peak_high_per_gpu_bytes\":15494941783,\"fits\":true,\"verdict\":\"fits\","
          "\"margin_bytes\":72666855629,\"gpus_needed\":1,\"inference\":{\"per_gpu_bytes\":5957747712,\"fits\":true,"
          "\"verdict\":\"fits\",\"margin_bytes\":79941598208,\"gpus_needed\":1,\"cards\":["
          // each card's share of the 23,830,990,848 bytes: the cumulative quarters rounded down
          "{\"bytes\":5957747712,\"fits\":true,\"verdict\":\"fits\",\"margin_bytes\":79941598208},"
          "{\"bytes\":5957747712,\"fits\":true,\"verdict\":\"fits\",\"margin_bytes\":79941598208},"
          "{\"bytes\":5957747712,\"fits\":true,\"verdict\":\"fits\",\"margin_bytes\":79941598208},"
          "{\"bytes\":5957747712,\"fits\":true,\"verdict\":\"fits\",\"margin_bytes\":79941598208}]}}}");
}

TEST_CASE("report_table: a recipe's stored values are indented under gradient+optimizer memory", "[report][terms]") {
    // adamw-mixed on 13B with 1B trainable: 2 + 4 + 4 + 4 = 14 bytes per trainable parameter.
    const Scenario s = from_state("recipe=adamw-mixed&trainable=1B");
    const std::string table = report_table(s, estimate(s).value(), UnitChoice::gb);
    CHECK(table.find("Gradient+optimizer memory   14 GB\n  gradient (bf16)           2 GB\n"
                     "  master weights (fp32)     4 GB\n  Adam m (fp32)             4 GB\n  Adam v (fp32)             4 GB\n"
                     "Training total              40 GB\nReduction vs all trainable  168 GB\n") != std::string::npos);
}

TEST_CASE("recipe range sentence: the seed's bytes follow k and state-bytes", "[report][terms]") {
    // Seed: 13B, k = 3 x 2 bytes = 6 bytes -> 104 GB; adamw-mixed 14 bytes -> 26 + 182 = 208 GB.
    CHECK(recipe_range_sentence(Scenario{}).value() ==
          "Conventions differ: training total 104 GB (seed-adam, 6 bytes) vs 208 GB (adamw-mixed, 14 bytes) per "
          "trainable parameter.");
    // k = 4 values of 2 bytes: 8 bytes, 26 + 13 x 8 = 130 GB (the sentence used to say 6 bytes whatever k was).
    CHECK(recipe_range_sentence(from_state("k=4")).value() ==
          "Conventions differ: training total 130 GB (seed-adam, 8 bytes) vs 208 GB (adamw-mixed, 14 bytes) per "
          "trainable parameter.");
    CHECK(recipe_range_sentence(from_state("k=2&state-bytes=4")).value().find("(seed-adam, 8 bytes)") != std::string::npos);
}

TEST_CASE("an unknown model_type's count is labelled an approximation in the text and the JSON", "[report][architecture]") {
    const Expected<ModelSource> m = model_from_config(
        R"({"model_type":"my_llama","hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,"vocab_size":100,"intermediate_size":128})");
    REQUIRE(m.ok());
    Scenario s;
    s.model = std::make_shared<ModelSource>(*m);
    s.param_count = m->counts.total_count;
    const Estimate e = estimate(s).value();
    CHECK(report_table(s, e, UnitChoice::both).find("(an approximation: model_type \"my_llama\" is not known, so it is "
                                                    "counted as a Llama-style decoder)") != std::string::npos);
    CHECK(report_json(s, e).find("\"count_is_approximation\":true") != std::string::npos);
    // A known family is not labelled.
    Scenario known = from_state("model=llama-2-7b");
    CHECK(report_json(known, estimate(known).value()).find("approximation") == std::string::npos);
}
