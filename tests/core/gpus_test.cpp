// GPU catalogue, fit verdicts and ZeRO stages. ZeRO figures are the paper's own example.
#include <catch_amalgamated.hpp>

#include "estimator.hpp"
#include "gpus.hpp"
#include "settings.hpp"
#include "test_support.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GB = 1'000'000'000ULL;
constexpr std::uint64_t GiB = 1ULL << 30;

Estimate run(const Scenario& s) { return test::required(estimate(s)); }
}  // namespace

TEST_CASE("gpus: catalogue capacities follow the binary convention", "[gpus]") {
    // nvidia-smi reports the A100 80GB as 81920 MiB = 85,899,345,920 bytes = 80 GiB.
    CHECK(find_gpu("a100-80gb")->capacity_bytes == 81920ULL * 1024 * 1024);
    CHECK(find_gpu("A100-80GB")->capacity_bytes == 85'899'345'920ULL);
    CHECK(find_gpu("rtx-4090")->capacity_bytes == 24 * GiB);
    // The 12 and 16 GB cards most people run models on (NVIDIA's spec pages: 12 GB GDDR6X, 16 GB GDDR7 ...),
    // read as GiB like the rest. nvidia-smi shows a little less than the GiB figure (24564 of 24576 MiB on an
    // RTX 4090, RLinf/RLinf#255): the margin the verdict's "tight" band is for.
    CHECK(find_gpu("rtx-4070")->capacity_bytes == 12 * GiB);
    CHECK(find_gpu("4070")->key == "rtx-4070");
    CHECK(find_gpu("3060")->capacity_bytes == 12 * GiB);
    CHECK(find_gpu("rtx-4060-ti-16gb")->capacity_bytes == 16 * GiB);
    CHECK(find_gpu("4080")->capacity_bytes == 16 * GiB);
    CHECK(find_gpu("5080")->vendor_memory == "16 GB GDDR7");
    CHECK(find_gpu("h200")->capacity_bytes == 141 * GiB);
    CHECK(find_gpu("mi300x")->capacity_bytes == 192 * GiB);
    CHECK(find_gpu("h100")->key == "h100-80gb");
    CHECK(gpu_catalogue().size() >= 15);
    const Expected<Gpu> bad = find_gpu("rtx-9999");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().find("is not a known GPU (rtx-3060, rtx-3090, rtx-4060-ti-16gb, rtx-4070") != std::string::npos);
}

TEST_CASE("gpus: Apple unified memory counts the GPU's working set, not the RAM", "[gpus][apple]") {
    // Metal's recommendedMaxWorkingSetSize as llama.cpp's ggml_metal_init logs it (MiB), macOS 13-14:
    // 16 GB Mac 10922.67 MiB (abetlen/llama-cpp-python#687), 32 GB 21845.34 MiB (ollama/ollama#434):
    // 2/3 of the RAM; 64 GB 49152.00 MiB (ggml-org/llama.cpp#1870), 96 GB 73728.00 MiB
    // (ggml-org/llama.cpp#3213): 3/4.
    constexpr std::uint64_t MiB = 1ULL << 20;
    // The logs print MiB with two decimals: round(bytes x 100 / MiB) must give those digits.
    const auto centi_mib = [](std::uint64_t bytes) { return (bytes * 100 + (1ULL << 19)) >> 20; };
    CHECK(find_gpu("apple-16gb")->capacity_bytes == 11'453'251'584ULL);  // 2/3 of 16 GiB up to a 16 KiB page
    CHECK(centi_mib(find_gpu("apple-16gb")->capacity_bytes) == 1'092'267);   // 10922.67
    CHECK(centi_mib(find_gpu("apple-32gb")->capacity_bytes) == 2'184'534);   // 21845.34
    CHECK(find_gpu("apple-64gb")->capacity_bytes == 49152 * MiB);
    CHECK(find_gpu("apple-96gb")->capacity_bytes == 73728 * MiB);
    CHECK(find_gpu("apple-128gb")->capacity_bytes == 96 * GiB);
    CHECK(find_gpu("apple-192gb")->capacity_bytes == 144 * GiB);
    CHECK(find_gpu("apple-36gb")->capacity_bytes == 24 * GiB);  // 36 GiB is still in the 2/3 band
    CHECK(find_gpu("apple-128gb")->unified_memory_bytes == 128 * GiB);
    CHECK(find_gpu("rtx-4090")->unified_memory_bytes == 0);
    CHECK(apple_gpu_working_set_bytes(36 * GiB + 16384) == 27 * GiB + 16384);  // just above 36 GiB: 3/4
    CHECK(find_gpu("apple-64gb")->note.find("3/4 of the 64 GiB (48 GiB") != std::string::npos);
    // A 70B model at 4 bits (35 GB, 42 GB inference) does not fit a 64 GB Mac's GPU once the limit counts.
    Scenario s;
    s.param_count = 70'000'000'000ULL;
    s.dtype = "int4";
    s.gpu = "apple-64gb";
    CHECK(run(s).gpu.inference_verdict == FitVerdict::fits);  // 42 GB of 51.54 GB
    s.gpu = "apple-32gb";
    CHECK(run(s).gpu.inference_verdict == FitVerdict::does_not_fit);
}

TEST_CASE("gpus: verdict is fits, tight under a 10% margin, or does not fit", "[gpus]") {
    CHECK(fit_verdict(72 * GiB, 80 * GiB) == FitVerdict::fits);       // 8 GiB free = exactly 10%
    CHECK(fit_verdict(72 * GiB + 1, 80 * GiB) == FitVerdict::tight);  // just under 10% free
    CHECK(fit_verdict(80 * GiB, 80 * GiB) == FitVerdict::tight);
    CHECK(fit_verdict(80 * GiB + 1, 80 * GiB) == FitVerdict::does_not_fit);
    CHECK(std::string(verdict_text(FitVerdict::does_not_fit)) == "does not fit");
}

TEST_CASE("gpus: ZeRO stages reproduce the ZeRO paper's Figure 1 (7.5B, 64 GPUs, K = 12)", "[gpus][zero]") {
    // Rajbhandari et al. 2019, Fig. 1: baseline 120 GB, P_os 31.4 GB, P_os+g 16.6 GB, P_os+g+p 1.9 GB per GPU.
    Scenario s;
    s.param_count = 7'500'000'000ULL;
    s.recipe = "adamw-mixed";  // 2 + 2 + 12 bytes
    s.gpu_count = 64;
    s.gpu_memory_bytes = 80 * GiB;
    s.zero_stage = 0;
    CHECK(run(s).gpu.training_per_gpu.total() == 120 * GB);
    s.zero_stage = 1;
    CHECK(run(s).gpu.training_per_gpu.total() == 31'406'250'000ULL);
    s.zero_stage = 2;
    CHECK(run(s).gpu.training_per_gpu.total() == 16'640'625'000ULL);
    s.zero_stage = 3;
    const Estimate e = run(s);
    CHECK(e.gpu.training_per_gpu.total() == 1'875'000'000ULL);
    CHECK(e.gpu.training_per_gpu.weight_bytes == 234'375'000ULL);
    CHECK(e.gpu.training_verdict == FitVerdict::fits);
}

TEST_CASE("gpus: GPUs needed per ZeRO stage (7.5B, adamw-mixed, 120 GB of model states)", "[gpus][zero]") {
    const ModelStates states{15 * GB, 15 * GB, 90 * GB};
    // 80 GiB: stage 0 cannot (replicated 120 GB); stage 1: 30 + 90/N <= 85.9 -> N = 2; stage 3: ceil(120/85.9) = 2.
    CHECK(gpus_needed(states, 0, 80 * GiB) == 0);
    CHECK(gpus_needed(states, 1, 80 * GiB) == 2);
    CHECK(gpus_needed(states, 2, 80 * GiB) == 2);
    CHECK(gpus_needed(states, 3, 80 * GiB) == 2);
    // 24 GiB (25.77 GB): stage 1 cannot (30 GB unsharded); stage 2: 15 + 105/N -> N = 10; stage 3: 5.
    CHECK(gpus_needed(states, 1, 24 * GiB) == 0);
    CHECK(gpus_needed(states, 2, 24 * GiB) == 10);
    CHECK(gpus_needed(states, 3, 24 * GiB) == 5);
    CHECK(per_gpu_states(states, 2, 10).total() <= 24 * GiB);
    CHECK(per_gpu_states(states, 2, 9).total() > 24 * GiB);
    // Everything fits on one: 1.
    CHECK(gpus_needed(ModelStates{GB, GB, GB}, 0, 80 * GiB) == 1);
    CHECK(gpus_needed_split(31'200'000'000ULL, 24 * GiB) == 2);
}

TEST_CASE("gpus: the seed's 13B on one RTX 4090 and on eight H100s", "[gpus]") {
    Scenario s;  // seed: inference 31.2 GB, training 104 GB
    s.gpu = "rtx-4090";
    Estimate e = run(s);
    REQUIRE(e.gpu.requested);
    CHECK(e.gpu.capacity_bytes == 24 * GiB);
    CHECK(e.gpu.inference_verdict == FitVerdict::does_not_fit);
    CHECK(e.gpu.inference_margin_bytes == 31'200'000'000ULL - 24 * GiB);
    CHECK(e.gpu.inference_gpus_needed == 2);
    CHECK(e.gpu.training_verdict == FitVerdict::does_not_fit);
    CHECK(e.gpu.training_gpus_needed == 0);  // ZeRO 0 replicates 104 GB on every GPU
    s.gpu = "h100-80gb";
    s.gpu_count = 8;
    s.zero_stage = 3;
    e = run(s);
    CHECK(e.gpu.training_per_gpu.total() == 13 * GB);  // 104 GB / 8
    CHECK(e.gpu.training_verdict == FitVerdict::fits);
    CHECK(e.gpu.training_gpus_needed == 2);
    CHECK(e.inference_bytes == 31'200'000'000ULL);  // the seed's figure is untouched
}

TEST_CASE("gpus: bad GPU settings are errors naming the key", "[gpus]") {
    Scenario s;
    s.gpu = "nope";
    CHECK(estimate(s).error().rfind("gpu: ", 0) == 0);
    s.gpu.clear();
    s.gpu_count = 0;
    CHECK(estimate(s).error() == "gpus: must be at least 1");
    s.gpu_count = 1;
    s.zero_stage = 4;
    CHECK(estimate(s).error() == "zero: must be 0, 1, 2 or 3");
}

TEST_CASE("gpus: with several GPUs each card gets its share of the inference total and its own verdict", "[gpus][split]") {
    // 13B at 2 bytes: 31.2 GB inference. Two 24 GiB cards (25.77 GB each, 51.54 GB pooled).
    Scenario s;
    s.gpu = "rtx-4090";
    s.gpu_count = 2;
    Estimate e = run(s);
    REQUIRE(e.gpu.inference_cards.size() == 2);
    CHECK(e.gpu.inference_cards[0].bytes == 15'600'000'000ULL);  // an even split
    CHECK(e.gpu.inference_cards[1].bytes == 15'600'000'000ULL);
    CHECK(e.gpu.inference_per_gpu_bytes == 15'600'000'000ULL);
    // llama.cpp --tensor-split 5,1: GPU 0 takes 5/6 = 26 GB, more than its 25.77 GB, though the pool (51.54 GB)
    // holds the whole 31.2 GB: the verdict is the fullest card's.
    REQUIRE(apply_setting(s, "tensor-split", "5,1"));
    e = run(s);
    CHECK(e.gpu.inference_cards[0].bytes == 26'000'000'000ULL);
    CHECK(e.gpu.inference_cards[1].bytes == 5'200'000'000ULL);
    CHECK(e.gpu.inference_cards[0].verdict == FitVerdict::does_not_fit);
    CHECK(e.gpu.inference_cards[0].margin_bytes == 26'000'000'000ULL - 24 * GiB);
    CHECK(e.gpu.inference_cards[1].verdict == FitVerdict::fits);
    CHECK(e.gpu.inference_per_gpu_bytes == 26'000'000'000ULL);
    CHECK(e.gpu.inference_verdict == FitVerdict::does_not_fit);
    // Shares add up to the total exactly, however the proportions divide it: 31.2 GB over 1:1:1 is
    // 10.4 GB each; over 0.3:0.3:0.4 it is 9.36 + 9.36 + 12.48.
    s.gpu_count = 3;
    REQUIRE(apply_setting(s, "tensor-split", "0.3,0.3,0.4"));
    e = run(s);
    CHECK(e.gpu.inference_cards[0].bytes + e.gpu.inference_cards[1].bytes + e.gpu.inference_cards[2].bytes == 31'200'000'000ULL);
    CHECK(e.gpu.inference_cards[2].bytes == 12'480'000'000ULL);
    // One GPU: no cards listed (the seed's figures and JSON stay as they were).
    Scenario one;
    one.gpu = "rtx-4090";
    CHECK(run(one).gpu.inference_cards.empty());
    // A split that is not one part per GPU is an error naming the key.
    s.gpu_count = 2;
    const Expected<Estimate> bad = estimate(s);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error() == "tensor-split: has 3 parts for 2 GPUs (give one proportion per GPU, e.g. 3,1 for --gpus 2)");
}
