// The seed's memory model: Scenario in, Estimate out, deterministic and exact in integer bytes.
//   weight memory             = N x b
//   inference total           = weight memory x overhead factor (1.2)
//   gradient+optimizer memory = N_trainable x k x bytes per value (k = 3, 2 bytes: the seed's Adam)
//   training total            = weight memory + gradient+optimizer memory
// Byte figures are rounded half up once, from the exact product, only when b or a factor is fractional.
#pragma once

#include <cstdint>
#include <memory>

#include "quantity.hpp"
#include "result.hpp"

namespace llm_memory {

struct ModelSource;  // core/architecture.hpp: a preset or config.json with its exact counts

// How many parameters train: all of them, an exact count, or a percentage of N.
struct TrainableSpec {
    enum class Kind { all, count, percent };
    Kind kind = Kind::all;
    std::uint64_t count = 0;  // when kind == count
    Decimal percent{};        // when kind == percent: 7.7 means 7.7 %

    static TrainableSpec all_params() { return {}; }
    static TrainableSpec exact(std::uint64_t n) { return {Kind::count, n, {}}; }
    static TrainableSpec percent_of(Decimal p) { return {Kind::percent, 0, p}; }
    friend bool operator==(const TrainableSpec& a, const TrainableSpec& b) {
        return a.kind == b.kind && a.count == b.count && a.percent == b.percent;
    }
};

// The inputs of the seed's model. Defaults are the seed's 13B example.
struct Scenario {
    std::uint64_t param_count = 13'000'000'000ULL;       // N
    Decimal bytes_per_param = Decimal::from_int(2);      // b
    Decimal overhead_factor = Decimal{1'200'000};        // 1.2
    TrainableSpec trainable;                             // default: every parameter
    Decimal values_per_trainable = Decimal::from_int(3); // k
    Decimal bytes_per_value = Decimal::from_int(2);      // bytes per stored value
    // The model N came from (a preset or a config.json), or null when N was typed in. When set,
    // param_count == model->counts.total_count (the settings "model" key keeps them in step, and
    // typing a different N clears it). Reports add its breakdown; KV-cache/LoRA read its architecture.
    std::shared_ptr<const ModelSource> model;
};

// The seed's four results, plus the comparison with training every parameter.
struct Estimate {
    std::uint64_t param_count = 0;
    std::uint64_t trainable_count = 0;
    std::uint64_t weight_bytes = 0;                   // N x b
    std::uint64_t inference_bytes = 0;                // weight x overhead
    std::uint64_t overhead_margin_bytes = 0;          // inference - weight
    std::uint64_t gradient_optimizer_bytes = 0;       // N_trainable x k x bytes per value
    std::uint64_t training_bytes = 0;                 // weight + gradient+optimizer
    std::uint64_t full_gradient_optimizer_bytes = 0;  // the same term with every parameter trainable
    std::uint64_t full_training_bytes = 0;            // weight + full gradient+optimizer
    std::uint64_t reduction_bytes = 0;                // full - current gradient+optimizer
};

// Resolves the trainable spec against N: a percentage is rounded half up to a whole count.
// Errors: count above N, percentage above 100.
Expected<std::uint64_t> resolve_trainable(const TrainableSpec& spec, std::uint64_t param_count);

// Checks every field (the message names the field as the CLI spells it) and computes the estimate.
// Errors: params zero or above 10^15, bytes zero or above 64, overhead below 1 or above 100,
// trainable above params, k above 100, state-bytes zero or above 64.
Expected<Estimate> estimate(const Scenario& scenario);

}  // namespace llm_memory
