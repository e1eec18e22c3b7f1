// The seed's estimator in exact integer arithmetic (128-bit intermediates, one rounding per figure).
#include "estimator.hpp"

#include "architecture.hpp"
#include "formats.hpp"
#include "kv_cache.hpp"
#include "lora.hpp"

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
    Expected<std::uint64_t> trainable = resolve_trainable(s.trainable, s.param_count);
    if (!trainable) return Error{trainable.error()};

    // Weight format: the seed's b (micros per parameter) unless a dtype (or QLoRA's NF4) is chosen.
    u128 weight_numerator = s.bytes_per_param.micros;  // bytes per parameter = numerator / denominator
    u128 weight_denominator = kScale;
    std::string weight_format;
    if (s.qlora) {
        if (s.lora_rank == 0) return Error{"qlora: needs --lora-rank (QLoRA trains a LoRA adapter on a 4-bit base)"};
        weight_format = s.dtype.empty() ? "nf4_dq" : s.dtype;
    } else {
        weight_format = s.dtype;
    }
    if (!weight_format.empty()) {
        const Expected<WeightFormat> format = find_weight_format(weight_format);
        if (!format) return Error{"dtype: " + format.error()};
        if (s.qlora && format->key != "nf4" && format->key != "nf4_dq")
            return Error{"qlora: the base is 4-bit NF4, so --dtype must be nf4, nf4_dq or left out"};
        weight_format = format->key;
        weight_numerator = format->block_bytes;
        weight_denominator = format->block_weights;
    }

    // LoRA: the trainable count is the adapter's, from the architecture's linear layers.
    const Architecture* arch = s.model ? &s.model->architecture : nullptr;
    std::uint64_t lora_count = 0;
    if (s.lora_rank > 0) {
        if (arch == nullptr) return Error{"lora-rank: needs a model architecture (--model or --config)"};
        const Expected<std::vector<std::string>> targets = parse_lora_targets(s.lora_targets);
        if (!targets) return Error{"lora-targets: " + targets.error()};
        const Expected<LoraCount> lora = lora_trainable_count(decoder_linear_layers(*arch), s.lora_rank, *targets);
        if (!lora) return Error{lora.error()};
        lora_count = lora->trainable_count;
        trainable = lora_count;
    }

    // Training recipe: the values stored per trainable parameter (seed-adam: k values of b bytes).
    const Expected<std::vector<StoredValue>> values = recipe_values(s.recipe, s.values_per_trainable, s.bytes_per_value);
    if (!values) return Error{"recipe: " + values.error()};
    const std::uint64_t per_trainable_pico = recipe_pico_bytes(*values);

    Estimate e;
    e.param_count = s.param_count;
    e.trainable_count = *trainable;
    const u128 n = s.param_count;
    e.weight_bytes = round_div(n * weight_numerator, weight_denominator);
    e.inference_bytes = round_div(n * weight_numerator * s.overhead_factor.micros, weight_denominator * kScale);
    e.overhead_margin_bytes = e.inference_bytes - e.weight_bytes;
    // Seed path: per_trainable_pico == k.micros x b.micros, so this is N_trainable x k x b rounded once.
    e.gradient_optimizer_bytes = pico_bytes_for(*trainable, per_trainable_pico);
    e.full_gradient_optimizer_bytes = pico_bytes_for(s.param_count, per_trainable_pico);
    e.weight_format = weight_format;
    e.lora_trainable_count = lora_count;
    e.adapter_weight_bytes = lora_count * 2;  // the adapter's bf16 weights (PEFT counts them in all params)
    e.training_bytes = e.weight_bytes + e.adapter_weight_bytes + e.gradient_optimizer_bytes;
    e.full_training_bytes = e.weight_bytes + e.full_gradient_optimizer_bytes;
    e.reduction_bytes = e.full_gradient_optimizer_bytes - e.gradient_optimizer_bytes;
    for (const StoredValue& value : *values)
        e.training_components.push_back(
            {value.name, value.pico_bytes, pico_bytes_for(*trainable, value.pico_bytes), value.kind});

    // KV cache (its own format) and the detailed inference total.
    const Expected<WeightFormat> kv_format = find_weight_format(s.kv_dtype);
    if (!kv_format) return Error{"kv-dtype: " + kv_format.error()};
    if (s.batch_size == 0) return Error{"batch: must be at least 1"};
    if (s.batch_size > kMaxBatch) return Error{"batch: is too large (at most 1000000)"};
    if (s.context_tokens > kMaxContextTokens) return Error{"context: is too large (at most 100M tokens)"};
    if (s.context_tokens > 0) {
        if (arch == nullptr) return Error{"context: the KV cache needs a model architecture (--model or --config)"};
        const Expected<KvCacheShape> shape = kv_cache_shape(*arch);
        if (!shape) return Error{shape.error()};
        const Expected<std::uint64_t> kv = kv_cache_bytes(*shape, s.context_tokens, s.batch_size, *kv_format);
        if (!kv) return Error{kv.error()};
        e.kv_cache_bytes = *kv;
    }
    e.detailed_inference = s.detailed_inference;
    if (s.detailed_inference) {
        if (arch != nullptr && s.context_tokens > 0) {
            // Rule of thumb (our convention, not a measurement): the prefill peak of one layer, the residual
            // stream plus the MLP's two intermediate outputs in 16 bits for every token, plus fp32 logits of
            // the last position.
            const u128 tokens = static_cast<u128>(s.context_tokens) * s.batch_size;
            const u128 width = static_cast<u128>(arch->hidden_size) + 2 * static_cast<u128>(arch->intermediate_size);
            const u128 activation = tokens * width * 2 + static_cast<u128>(s.batch_size) * arch->vocab_size * 4;
            if (activation > kMaxParamCount * 64) return Error{"context: the activation workspace is too large"};
            e.activation_bytes = static_cast<std::uint64_t>(activation);
        }
        e.runtime_reserve_bytes = kRuntimeReserveBytes;
        e.detailed_inference_bytes = e.weight_bytes + e.kv_cache_bytes + e.activation_bytes + e.runtime_reserve_bytes;
    }

    // GPU fit: model states under the ZeRO stage, and the chosen inference total split evenly.
    if (s.gpu_count == 0) return Error{"gpus: must be at least 1"};
    if (s.gpu_count > kMaxGpuCount) return Error{"gpus: is too large (at most 100000)"};
    if (s.zero_stage < 0 || s.zero_stage > 3) return Error{"zero: must be 0, 1, 2 or 3"};
    std::uint64_t capacity = s.gpu_memory_bytes;
    if (capacity == 0 && !s.gpu.empty()) {
        const Expected<Gpu> gpu = find_gpu(s.gpu);
        if (!gpu) return Error{"gpu: " + gpu.error()};
        capacity = gpu->capacity_bytes;
    }
    GpuFit& fit = e.gpu;
    fit.gpu_count = s.gpu_count;
    fit.zero_stage = s.zero_stage;
    fit.training_states.weight_bytes = e.weight_bytes + e.adapter_weight_bytes;
    for (const TrainingComponent& component : e.training_components)
        (component.kind == StateKind::gradient ? fit.training_states.gradient_bytes : fit.training_states.optimizer_bytes) +=
            component.bytes;
    fit.training_per_gpu = per_gpu_states(fit.training_states, s.zero_stage, s.gpu_count);
    if (capacity > 0) {
        fit.requested = true;
        fit.capacity_bytes = capacity;
        const std::uint64_t per_gpu = fit.training_per_gpu.total();
        fit.training_verdict = fit_verdict(per_gpu, capacity);
        fit.training_margin_bytes = per_gpu > capacity ? per_gpu - capacity : capacity - per_gpu;
        fit.training_gpus_needed = gpus_needed(fit.training_states, s.zero_stage, capacity);
        const std::uint64_t inference = chosen_inference_bytes(e);
        fit.inference_per_gpu_bytes = inference / s.gpu_count + (inference % s.gpu_count != 0 ? 1 : 0);
        fit.inference_verdict = fit_verdict(fit.inference_per_gpu_bytes, capacity);
        fit.inference_margin_bytes = fit.inference_per_gpu_bytes > capacity ? fit.inference_per_gpu_bytes - capacity
                                                                             : capacity - fit.inference_per_gpu_bytes;
        fit.inference_gpus_needed = gpus_needed_split(inference, capacity);
    }
    return e;
}

}  // namespace llm_memory
