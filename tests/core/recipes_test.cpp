// Training recipes: each recipe's stored values against its source, and the seed path unchanged.
#include <catch_amalgamated.hpp>

#include "estimator.hpp"
#include "recipes.hpp"
#include "settings.hpp"
#include "test_support.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GB = 1'000'000'000ULL;

std::uint64_t bytes_per_trainable_pico(const char* key) {
    const auto values = recipe_values(key, Decimal::from_int(3), Decimal::from_int(2));
    REQUIRE(values.ok());
    return recipe_pico_bytes(*values);
}

Estimate run(const Scenario& s) { return test::required(estimate(s)); }
}  // namespace

TEST_CASE("recipes: bytes per trainable parameter of every recipe", "[recipes]") {
    // seed: 3 x 2 (the seed document). ZeRO paper sec. 3.1: 2 (fp16 gradient) + 12 (fp32 master, m, v).
    // DeepSpeed estimate_zero3_model_states_mem_needs: 18 per parameter = 2 weights + 16 (fp32 gradient + 12).
    // Transformer Math 101: vanilla AdamW 12 bytes of state (incl. fp32 copy) + fp32 gradient 4; SGD with
    // momentum 4; bitsandbytes 8-bit states: 1 byte + fp32 absmax per 2048 (Dettmers et al. 2021).
    CHECK(bytes_per_trainable_pico("seed-adam") == 6 * kPicoPerByte);
    CHECK(bytes_per_trainable_pico("adamw-mixed") == 14 * kPicoPerByte);
    CHECK(bytes_per_trainable_pico("adamw-mixed-fp32-grads") == 16 * kPicoPerByte);
    CHECK(bytes_per_trainable_pico("adam-fp32") == 12 * kPicoPerByte);
    CHECK(format_pico_bytes(bytes_per_trainable_pico("adam-8bit")) == "8.003906");  // 2 + 4 + 2 x 1.001953125
    CHECK(bytes_per_trainable_pico("adam-8bit") == 8'003'906'250'000ULL);
    CHECK(bytes_per_trainable_pico("sgd") == 4 * kPicoPerByte);
    CHECK(bytes_per_trainable_pico("sgd-momentum") == 8 * kPicoPerByte);
}

TEST_CASE("recipes: adamw-mixed on 13B is 182 GB of gradient+optimizer and 208 GB in all (the README's figures)", "[recipes]") {
    // ZeRO paper: 16 bytes per parameter with the 2-byte weights: 13B x 14 = 182 GB, 13B x 16 = 208 GB.
    Scenario s;
    s.recipe = "adamw-mixed";
    Estimate e = run(s);
    CHECK(e.gradient_optimizer_bytes == 182 * GB);
    CHECK(e.training_bytes == 208 * GB);
    REQUIRE(e.training_components.size() == 4);
    CHECK(e.training_components[0].name == "gradient (bf16)");
    CHECK(e.training_components[0].bytes == 26 * GB);
    CHECK(e.training_components[0].kind == StateKind::gradient);
    CHECK(e.training_components[1].bytes == 52 * GB);
    CHECK(e.training_components[1].kind == StateKind::optimizer);
    // With 1B trainable: 14 GB and 26 + 14 = 40 GB.
    s.trainable = TrainableSpec::exact(1 * GB);
    e = run(s);
    CHECK(e.gradient_optimizer_bytes == 14 * GB);
    CHECK(e.training_bytes == 40 * GB);
    CHECK(e.full_gradient_optimizer_bytes == 182 * GB);
}

TEST_CASE("recipes: training totals with weights, per recipe (13B)", "[recipes]") {
    Scenario s;
    s.recipe = "adamw-mixed-fp32-grads";
    CHECK(run(s).training_bytes == 18 * 13 * GB);  // DeepSpeed's 18 bytes per parameter
    s.recipe = "adam-fp32";
    s.dtype = "fp32";
    CHECK(run(s).training_bytes == 16 * 13 * GB);  // 4 + 12
    s.recipe = "sgd";
    CHECK(run(s).training_bytes == 8 * 13 * GB);
    s.recipe = "sgd-momentum";
    CHECK(run(s).training_bytes == 12 * 13 * GB);
    s.recipe = "adam-8bit";
    s.dtype.clear();
    CHECK(run(s).gradient_optimizer_bytes == 104'050'781'250ULL);  // 13B x 8.00390625
}

TEST_CASE("recipes: seed-adam reproduces the seed's k x b exactly, also for other k and b", "[recipes][seed]") {
    Scenario s;  // seed 13B: 78 GB, 104 GB
    Estimate e = run(s);
    CHECK(e.gradient_optimizer_bytes == 78 * GB);
    CHECK(e.training_bytes == 104 * GB);
    REQUIRE(e.training_components.size() == 3);
    CHECK(e.training_components[2].name == "Adam v (second moment)");
    s.values_per_trainable = Decimal{2'500'000};  // k = 2.5, b = 1.5: 13B x 3.75
    s.bytes_per_value = Decimal{1'500'000};
    e = run(s);
    CHECK(e.gradient_optimizer_bytes == 48'750'000'000ULL);
    REQUIRE(e.training_components.size() == 1);
    CHECK(e.training_components[0].bytes == 48'750'000'000ULL);
}

TEST_CASE("recipes: unknown recipe is an error naming the choices", "[recipes]") {
    const Expected<Recipe> r = find_recipe("adafactor");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error() == "\"adafactor\" is not a known recipe (seed-adam, adamw-mixed, adamw-mixed-fp32-grads, "
                       "adam-fp32, adam-8bit, sgd, sgd-momentum)");
    CHECK(find_recipe("AdamW-Mixed").ok());
    Scenario s;
    s.recipe = "x";
    CHECK(estimate(s).error().rfind("recipe: ", 0) == 0);
}

TEST_CASE("settings: the issue-5 keys parse, validate and round-trip through the URL state", "[recipes][settings]") {
    // Every new input is a row of the one settings table, so the CLI, URL state and JS API share it.
    const std::string state =
        "model=llama-2-7b&dtype=Q4_K_M&recipe=adamw-mixed&lora-targets=Q,K,V&context=8K&batch=4&kv-dtype=fp8&"
        "inference-mode=detailed&gpu=H100&gpus=8&zero=3";
    const StateResult r = apply_state(Scenario{}, state);
    REQUIRE(r.problems.empty());
    const Scenario& s = r.scenario;
    CHECK(s.dtype == "q4_k_m");
    CHECK(s.recipe == "adamw-mixed");
    CHECK(s.lora_targets == "q,k,v");
    CHECK(s.context_tokens == 8192);  // context sizes are binary: 8K = 8192 tokens
    CHECK(s.batch_size == 4);
    CHECK(s.kv_dtype == "fp8");
    CHECK(s.detailed_inference);
    CHECK(s.gpu == "h100-80gb");
    CHECK(s.gpu_count == 8);
    CHECK(s.zero_stage == 3);
    CHECK(s.model != nullptr);  // the KV cache needs the architecture
    CHECK(to_state(s) ==
          "model=llama-2-7b&params=6.738415616B&dtype=q4_k_m&recipe=adamw-mixed&lora-targets=q,k,v&context=8192&batch=4&kv-dtype=fp8&"
          "inference-mode=detailed&gpu=h100-80gb&gpus=8&zero=3");
    CHECK(to_state(Scenario{}) == "params=13B");  // the new keys write nothing at their defaults
    Scenario custom;
    REQUIRE(apply_setting(custom, "gpu-memory", "80GiB").ok());
    CHECK(custom.gpu_memory_bytes == 85'899'345'920ULL);
    REQUIRE(apply_setting(custom, "gpu-memory", "24 GB").ok());
    CHECK(custom.gpu_memory_bytes == 24'000'000'000ULL);
    CHECK(to_state(custom) == "params=13B&gpu-memory=24GB");
    REQUIRE(apply_setting(custom, "qlora", "").ok());  // a bare flag means true
    CHECK(custom.qlora);
}

TEST_CASE("settings: bad issue-5 values name the key and keep the scenario", "[recipes][settings]") {
    Scenario s;
    CHECK(apply_setting(s, "zero", "4").error() == "zero: must be 0, 1, 2 or 3");
    CHECK(apply_setting(s, "gpus", "0").error() == "gpus: must be at least 1");
    CHECK(apply_setting(s, "gpu-memory", "80").error() == "gpu-memory: needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB");
    CHECK(apply_setting(s, "inference-mode", "fast").error() == "inference-mode: \"fast\" is not simple or detailed");
    CHECK(apply_setting(s, "qlora", "maybe").error() == "qlora: \"maybe\" is not true or false");
    CHECK(apply_setting(s, "context", "200M").error() == "context: is too large (at most 100M tokens)");
    CHECK(apply_setting(s, "recipe", "lion").error().rfind("recipe: \"lion\" is not a known recipe", 0) == 0);
    CHECK(apply_setting(s, "lora-rank", "70000").error() == "lora-rank: is too large (at most 65,536)");
    CHECK(s.recipe == "seed-adam");
    CHECK(s.zero_stage == 0);
}
