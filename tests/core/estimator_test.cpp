// Golden values from the seed document (../shared/seed, "Effect of Trainable Parameters on Memory").
// Every figure the document states is a named test case here.
#include <catch_amalgamated.hpp>
#include <algorithm>

#include "estimator.hpp"
#include "settings.hpp"
#include "test_support.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GB = 1'000'000'000ULL;

Estimate run(const Scenario& s) { return test::required(estimate(s)); }

Scenario with_params(std::uint64_t n) {
    Scenario s;
    s.param_count = n;
    return s;
}
}  // namespace

TEST_CASE("seed: 13B at 2 bytes per parameter needs 26 GB of weights", "[seed]") {
    // Seed, "Weight memory for a 13B model": 13 x 2 = 26, so the weights need 26 GB.
    CHECK(run(Scenario{}).weight_bytes == 26 * GB);
}

TEST_CASE("seed: predict-and-reveal, 70B at 2 bytes needs 140 GB", "[seed]") {
    // Seed, "What do you think happens?": 70B x 2 bytes = 140 GB.
    CHECK(run(with_params(70 * GB)).weight_bytes == 140 * GB);
}

TEST_CASE("seed: scaling table rows 26, 140 and 13 GB", "[seed]") {
    // Seed, "How Weight Memory Scales" table.
    CHECK(run(with_params(13 * GB)).weight_bytes == 26 * GB);
    CHECK(run(with_params(70 * GB)).weight_bytes == 140 * GB);
    Scenario one_byte = with_params(13 * GB);
    one_byte.bytes_per_param = Decimal::from_int(1);
    CHECK(run(one_byte).weight_bytes == 13 * GB);  // "halving b halves the result"
}

TEST_CASE("seed: inference total is 26 x 1.2 = 31.2 GB", "[seed]") {
    // Seed, "Overhead Factor and Inference Total".
    const Estimate e = run(Scenario{});
    CHECK(e.inference_bytes == 31'200'000'000ULL);
    CHECK(e.overhead_margin_bytes == 5'200'000'000ULL);  // the 20 percent margin
}

TEST_CASE("seed: 3 values x 2 bytes = 6 bytes per trainable parameter", "[seed]") {
    // Seed, "Values Stored During Training": 3 x 2 = 6 bytes of additional storage.
    Scenario s = with_params(1);
    CHECK(run(s).gradient_optimizer_bytes == 6);
}

TEST_CASE("seed: fully trainable 13B needs 78 GB of gradient and optimizer memory, 104 GB in all", "[seed]") {
    // Seed, "Training memory for a fully trainable 13B model": 13B x 3 x 2 = 78 GB; 26 + 78 = 104 GB.
    const Estimate e = run(Scenario{});
    CHECK(e.gradient_optimizer_bytes == 78 * GB);
    CHECK(e.training_bytes == 104 * GB);
    CHECK(e.gradient_optimizer_bytes == 3 * e.weight_bytes);  // "three times the 26 GB of weights"
    CHECK(e.reduction_bytes == 0);
}

TEST_CASE("seed: 1B trainable of 13B needs 6 GB, a 72 GB reduction, 32 GB in all", "[seed]") {
    // Seed, "Gradient and optimizer memory with 1B trainable parameters": 6 GB, 78 - 6 = 72, 26 + 6 = 32.
    Scenario s;
    s.trainable = TrainableSpec::exact(1 * GB);
    const Estimate e = run(s);
    CHECK(e.gradient_optimizer_bytes == 6 * GB);
    CHECK(e.reduction_bytes == 72 * GB);
    CHECK(e.weight_bytes == 26 * GB);  // the weights keep their full storage
    CHECK(e.training_bytes == 32 * GB);
    CHECK(e.full_training_bytes == 104 * GB);
    CHECK(e.full_gradient_optimizer_bytes == 78 * GB);
}

TEST_CASE("seed: the 7B exercise gives 14, 16.8, 42 and 56 GB; with 1B trainable 6 and 20 GB", "[seed]") {
    // Seed, "Estimating a 7B Model".
    const Estimate e = run(with_params(7 * GB));
    CHECK(e.weight_bytes == 14 * GB);
    CHECK(e.inference_bytes == 16'800'000'000ULL);
    CHECK(e.gradient_optimizer_bytes == 42 * GB);
    CHECK(e.training_bytes == 56 * GB);
    Scenario frozen = with_params(7 * GB);
    frozen.trainable = TrainableSpec::exact(1 * GB);
    const Estimate f = run(frozen);
    CHECK(f.gradient_optimizer_bytes == 6 * GB);
    CHECK(f.training_bytes == 20 * GB);
    CHECK(f.inference_bytes == e.inference_bytes);  // only the trainable term changes
}

TEST_CASE("seed mistake: weight memory is not the inference total", "[seed]") {
    // Seed, common mistake 1: stopping at 26 GB; the right answer is 31.2 GB.
    const Estimate e = run(Scenario{});
    CHECK(e.inference_bytes != e.weight_bytes);
    CHECK(e.inference_bytes == 31'200'000'000ULL);
}

TEST_CASE("seed mistake: one value per trainable parameter gives 26 GB, not 78 GB", "[seed]") {
    // Seed, common mistake 2: N x b = 26 GB is the wrong training term; k = 3 gives 78 GB.
    Scenario k1;
    k1.values_per_trainable = Decimal::from_int(1);
    CHECK(run(k1).gradient_optimizer_bytes == 26 * GB);
    CHECK(run(Scenario{}).gradient_optimizer_bytes == 78 * GB);
}

TEST_CASE("estimator: fractional bytes and factors round half up once", "[estimator]") {
    Scenario s = with_params(7);
    s.bytes_per_param = Decimal{500'000};  // int4, 0.5 bytes: 3.5 -> 4
    CHECK(run(s).weight_bytes == 4);
    s.param_count = 13 * GB;
    CHECK(run(s).weight_bytes == 6'500'000'000ULL);
    CHECK(run(s).inference_bytes == 7'800'000'000ULL);
}

TEST_CASE("estimator: trainable percentage resolves against N", "[estimator]") {
    Scenario s = with_params(13 * GB);
    s.trainable = TrainableSpec::percent_of(Decimal{7'700'000});  // 7.7 %
    CHECK(run(s).trainable_count == 1'001'000'000ULL);
    s.trainable = TrainableSpec::percent_of(Decimal::from_int(100));
    CHECK(run(s).trainable_count == 13 * GB);
}

TEST_CASE("estimator: invalid scenarios are errors naming the field", "[estimator]") {
    Scenario s;
    s.param_count = 0;
    CHECK(estimate(s).error() == "params: must be greater than zero");
    s = Scenario{};
    s.trainable = TrainableSpec::exact(14 * GB);
    CHECK(estimate(s).error().rfind("trainable: ", 0) == 0);
    s = Scenario{};
    s.bytes_per_param = Decimal{0};
    CHECK(estimate(s).error() == "bytes: must be greater than zero");
    s = Scenario{};
    s.overhead_factor = Decimal{900'000};
    CHECK(estimate(s).error().rfind("overhead: must be at least 1", 0) == 0);
    s = Scenario{};
    s.trainable = TrainableSpec::percent_of(Decimal::from_int(101));
    CHECK(estimate(s).error() == "trainable: 101% is more than 100%");
}

TEST_CASE("estimator: the largest accepted scenario stays below 2^64 bytes", "[estimator]") {
    Scenario s;
    s.param_count = kMaxParamCount;
    s.bytes_per_param = Decimal{kMaxBytesPerValueMicros};
    s.overhead_factor = Decimal{kMaxFactorMicros};
    s.values_per_trainable = Decimal{kMaxFactorMicros};
    s.bytes_per_value = Decimal{kMaxBytesPerValueMicros};
    const Estimate e = run(s);
    CHECK(e.weight_bytes == 64'000'000'000'000'000ULL);
    CHECK(e.inference_bytes == 6'400'000'000'000'000'000ULL);
    CHECK(e.training_bytes == 6'464'000'000'000'000'000ULL);
}

// ---- The memory-terms table ----

namespace {
// Scenarios that turn on every feature that adds rows (LoRA, QLoRA, recipes, KV cache, detailed mode).
const char* const kFeatureStates[] = {
    "",
    "trainable=1B",
    "params=70B&trainable=7.7%&k=4",
    "model=llama-2-7b&recipe=adamw-mixed&lora-rank=8&gpu=rtx-4090",
    "model=llama-2-7b&lora-rank=16&qlora&context=8K&batch=4&inference-mode=detailed",
    "model=llama-2-7b&context=4096",
    "model=mixtral-8x7b&dtype=q4_k_m&context=32K&kv-dtype=fp8&inference-mode=detailed",
    "model=llama-2-7b&recipe=adam-8bit&trainable=10%",
};
}  // namespace

TEST_CASE("terms: the seed's table, in display order, with its totals", "[terms][seed]") {
    const Estimate e = run(Scenario{});
    std::vector<std::string> keys;
    for (const MemoryTerm& t : e.terms) keys.push_back(t.key);
    // The seed's recipe has three stored values (gradient, Adam m, Adam v): parts of gradient+optimizer.
    CHECK(keys == std::vector<std::string>{"weight", "overhead_margin", "inference", "gradient_optimizer",
                                           "training_component", "training_component", "training_component", "training",
                                           "full_training", "reduction"});
    CHECK(find_total(e, Total::inference)->bytes == 31'200'000'000ULL);   // seed: 26 x 1.2
    CHECK(find_total(e, Total::training)->bytes == 104 * GB);             // seed: 26 + 78
    CHECK(find_total(e, Total::detailed_inference) == nullptr);           // simple mode
    CHECK(find_term(e, "overhead_margin")->bytes == 5'200'000'000ULL);
    CHECK(training_without_weights_bytes(e) == 78 * GB);
    CHECK(term_formula(e, *find_total(e, Total::training)) == "weights + gradients + optimizer");
    int headlines = 0;
    for (const MemoryTerm& t : e.terms) headlines += t.headline ? 1 : 0;
    CHECK(headlines == 4);  // the seed's four results
}

TEST_CASE("terms: every total is its parts combined, and the named fields are the rows", "[terms]") {
    for (const char* state : kFeatureStates) {
        INFO(state);
        const StateResult r = apply_state(Scenario{}, state);
        REQUIRE(r.problems.empty());
        const Estimate e = run(r.scenario);
        for (const MemoryTerm& t : e.terms) {
            if (!t.total) continue;
            // A sum, or for the training peak the larger of its two phases (Combine::max).
            const bool add = t.combine == Combine::sum;
            std::uint64_t sum = 0, all = 0;
            for (const MemoryTerm* part : parts_of(e, *t.total)) {
                sum = add ? sum + part->bytes : std::max(sum, part->bytes);
                all = add ? all + part->all_trainable_bytes : std::max(all, part->all_trainable_bytes);
                CHECK_FALSE(part->part);  // a share of a row is never counted twice
            }
            CHECK(t.bytes == sum);
            CHECK(t.all_trainable_bytes == all);
        }
        CHECK(e.weight_bytes == find_term(e, "weight")->bytes);
        CHECK(e.training_bytes == e.weight_bytes + e.adapter_weight_bytes + e.gradient_optimizer_bytes);
        CHECK(e.full_training_bytes == e.weight_bytes + e.full_gradient_optimizer_bytes);
        CHECK(e.reduction_bytes == e.full_gradient_optimizer_bytes - e.gradient_optimizer_bytes);
        CHECK(e.inference_bytes == e.weight_bytes + e.overhead_margin_bytes);
        CHECK(training_without_weights_bytes(e) == e.gradient_optimizer_bytes);  // the adapter is weights
        if (e.detailed_inference)
            CHECK(e.detailed_inference_bytes ==
                  e.weight_bytes + e.kv_cache_bytes + e.inference_activation_bytes + e.runtime_reserve_bytes);
        std::uint64_t parts = 0;  // a recipe's stored values add up to gradient+optimizer memory
        for (const MemoryTerm& t : e.terms)
            if (t.part) parts += t.bytes;
        CHECK(parts == e.gradient_optimizer_bytes);
    }
}

TEST_CASE("terms: the LoRA adapter is a weight of the training total that a full fine-tune lacks", "[terms]") {
    // PEFT on Llama-2-7b, r=8 on q,v: 4,194,304 trainable parameters, 4 bytes each in fp32 (PEFT's
    // autocast_adapter_dtype, src/peft/tuners/tuners_utils.py cast_adapter_dtype), 2 each at adapter-dtype bf16.
    const StateResult r = apply_state(Scenario{}, "model=llama-2-7b&lora-rank=8");
    const Estimate e = run(r.scenario);
    const MemoryTerm* adapter = find_term(e, "adapter_weight");
    REQUIRE(adapter != nullptr);
    CHECK(adapter->bytes == 16'777'216ULL);
    CHECK(find_term(run(apply_state(Scenario{}, "model=llama-2-7b&lora-rank=8&adapter-dtype=bf16").scenario), "adapter_weight")->bytes ==
          8'388'608ULL);
    CHECK(adapter->all_trainable_bytes == 0);
    CHECK(adapter->kind == TermKind::weights);
    CHECK(term_formula(e, *find_total(e, Total::training)) == "weights + gradients + optimizer + LoRA adapter");
}
