// The seed's estimator in exact integer arithmetic (128-bit intermediates, one rounding per figure).
#include "estimator.hpp"

namespace llm_memory {
namespace {

__extension__ typedef unsigned __int128 u128;

std::uint64_t round_div(u128 numerator, u128 denominator) {
    return static_cast<std::uint64_t>((numerator + denominator / 2) / denominator);
}

constexpr u128 kScale = Decimal::kScale;

}  // namespace

Expected<std::uint64_t> resolve_trainable(const TrainableSpec& spec, std::uint64_t param_count) {
    switch (spec.kind) {
        case TrainableSpec::Kind::all:
            return param_count;
        case TrainableSpec::Kind::count:
            if (spec.count > param_count)
                return Error{"trainable: " + format_count_exact(spec.count) + " is more than the " +
                             format_count_exact(param_count) + " parameters of the model"};
            return spec.count;
        case TrainableSpec::Kind::percent:
            if (spec.percent.micros > 100 * Decimal::kScale)
                return Error{"trainable: " + format_decimal(spec.percent) + "% is more than 100%"};
            return round_div(static_cast<u128>(param_count) * spec.percent.micros, 100 * kScale);
    }
    return Error{"trainable: unknown kind"};
}

Expected<Estimate> estimate(const Scenario& s) {
    if (s.param_count == 0) return Error{"params: must be greater than zero"};
    if (s.param_count > kMaxParamCount) return Error{"params: is too large (at most 1000T = 10^15)"};
    if (s.bytes_per_param.is_zero()) return Error{"bytes: must be greater than zero"};
    if (s.bytes_per_param.micros > kMaxBytesPerValueMicros) return Error{"bytes: is too large (at most 64)"};
    if (s.overhead_factor.micros < Decimal::kScale) return Error{"overhead: must be at least 1 (it multiplies the weights)"};
    if (s.overhead_factor.micros > kMaxFactorMicros) return Error{"overhead: is too large (at most 100)"};
    if (s.values_per_trainable.micros > kMaxFactorMicros) return Error{"k: is too large (at most 100)"};
    if (s.bytes_per_value.is_zero()) return Error{"state-bytes: must be greater than zero"};
    if (s.bytes_per_value.micros > kMaxBytesPerValueMicros) return Error{"state-bytes: is too large (at most 64)"};
    const Expected<std::uint64_t> trainable = resolve_trainable(s.trainable, s.param_count);
    if (!trainable) return Error{trainable.error()};

    Estimate e;
    e.param_count = s.param_count;
    e.trainable_count = *trainable;
    const u128 n = s.param_count;
    e.weight_bytes = round_div(n * s.bytes_per_param.micros, kScale);
    e.inference_bytes = round_div(n * s.bytes_per_param.micros * s.overhead_factor.micros, kScale * kScale);
    e.overhead_margin_bytes = e.inference_bytes - e.weight_bytes;
    const u128 per_trainable = static_cast<u128>(s.values_per_trainable.micros) * s.bytes_per_value.micros;
    e.gradient_optimizer_bytes = round_div(static_cast<u128>(*trainable) * per_trainable, kScale * kScale);
    e.full_gradient_optimizer_bytes = round_div(n * per_trainable, kScale * kScale);
    e.training_bytes = e.weight_bytes + e.gradient_optimizer_bytes;
    e.full_training_bytes = e.weight_bytes + e.full_gradient_optimizer_bytes;
    e.reduction_bytes = e.full_gradient_optimizer_bytes - e.gradient_optimizer_bytes;
    return e;
}

}  // namespace llm_memory
