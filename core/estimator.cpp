// The seed's estimator in exact integer arithmetic (128-bit intermediates, one rounding per figure).
// estimate() is a list of named steps; each checks its own inputs and pushes its rows of the memory-terms
// table, then add_totals computes every total from the rows that add to it.
//
// Sections: input checks · the steps (weights, training states, comparison, KV cache, detailed
// inference, totals, GPU fit) · estimate() · table lookups.
#include "estimator.hpp"

#include <algorithm>
#include <atomic>

#include "architecture.hpp"
#include "formats.hpp"
#include "hybrid.hpp"
#include "kv_cache.hpp"
#include "lora.hpp"
#include "settings.hpp"
#include "training.hpp"

namespace llm_memory {
namespace {


std::uint64_t round_div(u128 numerator, u128 denominator) {
    return static_cast<std::uint64_t>((numerator + denominator / 2) / denominator);
}

constexpr u128 kScale = Decimal::kScale;


// What the steps share while one estimate is built.
struct Build {
    explicit Build(const Scenario& scenario) : s(scenario) {}
    const Scenario& s;
    const Architecture* arch = nullptr;            // the model's architecture, or null when N was typed
    u128 weight_numerator = 0;                     // bytes per parameter = numerator / denominator
    u128 weight_denominator = 1;
    std::uint64_t trainable = 0;                   // N_trainable (the adapter's count with LoRA)
    std::vector<StoredValue> values;               // the recipe's stored values per trainable parameter
    // QLoRA: the decoder's linear weights are NF4, every other parameter (embeddings, output head, norms,
    // biases) stays at 16 bits, as bitsandbytes/PEFT load it. Zero otherwise.
    std::uint64_t quantized_linear_count = 0;
    std::uint64_t unquantized_count = 0;
    // The training peak as a function of the data-parallel degree (for the GPUs-needed search).
    std::uint64_t peak_ranks = 1;                  // tp x pp GPUs per model replica
    ModelStates peak_replica_states;               // model states of one tp x pp rank before ZeRO
    ModelStates peak_whole_states;                 // the whole model's states (weights + adapter, gradients, optimizer)
    std::uint64_t peak_backward_bytes = 0;         // the backward pass's own: activations + logits/loss + margin + workspace
    std::uint64_t peak_common_bytes = 0;           // held through both phases: DeepSpeed's gradient bucket
    std::uint64_t peak_gathered_bytes = 0;         // ZeRO-3/FSDP's gathered layers, when dp > 1 (backward pass)
    std::uint64_t peak_replica_temp_bytes = 0;     // the foreach step's temporary of one tp x pp rank, before ZeRO
    Estimate e;
};

// A row with the fields every row sets; the caller fills the rest.
MemoryTerm row(const char* key, const char* label, const char* short_label, std::string formula, std::uint64_t bytes,
               TermKind kind, TotalSet adds_to) {
    MemoryTerm t;
    t.key = key;
    t.label = label;
    t.short_label = short_label;
    t.formula = std::move(formula);
    t.bytes = bytes;
    t.all_trainable_bytes = bytes;
    t.kind = kind;
    t.adds_to = adds_to;
    return t;
}

// A total's row; its bytes are filled by add_totals.
MemoryTerm total_row(const char* key, const char* label, const char* short_label, std::string formula, Total total) {
    MemoryTerm t = row(key, label, short_label, std::move(formula), 0, TermKind::total, 0);
    t.total = total;
    return t;
}

// One of the seed's two totals: a headline, and a top-level JSON key.
MemoryTerm seed_total(const char* key, const char* label, const char* short_label, std::string formula, Total total) {
    MemoryTerm t = total_row(key, label, short_label, std::move(formula), total);
    t.headline = true;
    t.json = JsonPlace::top;
    return t;
}

// ---- Input checks ----

// The seed's inputs: each within its range (the message names the key as the CLI spells it).
Status check_seed_inputs(const Scenario& s) {
    if (s.param_count == 0) return Error{"params", "must be greater than zero"};
    if (s.param_count > kMaxParamCount) return Error{"params", "is too large (at most 1000T = 10^15)"};
    if (s.bytes_per_param.is_zero()) return Error{"bytes", "must be greater than zero"};
    if (s.bytes_per_param.micros > kMaxBytesPerValueMicros) return Error{"bytes", "is too large (at most 64)"};
    if (s.overhead_factor.micros < Decimal::kScale) return Error{"overhead", "must be at least 1 (it multiplies the weights)"};
    if (s.overhead_factor.micros > kMaxFactorMicros) return Error{"overhead", "is too large (at most 100)"};
    if (s.values_per_trainable.micros > kMaxFactorMicros) return Error{"k", "is too large (at most 100)"};
    if (s.bytes_per_value.is_zero()) return Error{"state-bytes", "must be greater than zero"};
    if (s.bytes_per_value.micros > kMaxBytesPerValueMicros) return Error{"state-bytes", "is too large (at most 64)"};
    return std::nullopt;
}

// The weight format: the seed's b unless a dtype (or QLoRA's NF4) is chosen.
Status choose_weight_format(Build& b) {
    const Scenario& s = b.s;
    b.weight_numerator = s.bytes_per_param.micros;
    b.weight_denominator = kScale;
    if (s.file_param_count != 0 && s.file_param_count == s.param_count &&
        Decimal::from_ratio(s.file_weight_bytes, s.file_param_count) == s.bytes_per_param) {
        b.weight_numerator = s.file_weight_bytes;  // the file's own total, exactly
        b.weight_denominator = s.file_param_count;
    }
    std::string key = s.dtype;
    bool linear_only = false;
    bool experts_only = false;
    if (s.qlora) {
        if (s.lora_rank == 0) return Error{"qlora", "needs --lora-rank (QLoRA trains a LoRA adapter on a 4-bit base)"};
        if (key.empty()) key = "nf4_dq";
    }
    if (!key.empty()) {
        const Expected<WeightFormat> format = find_weight_format(key);
        if (!format) return Error{"dtype", format.error()};
        if (s.qlora && format->key != "nf4" && format->key != "nf4_dq")
            return Error{"qlora", "the base is 4-bit NF4, so --dtype must be nf4, nf4_dq or left out"};
        key = format->key;
        b.weight_numerator = format->block_bytes;
        b.weight_denominator = format->block_weights;
        linear_only = format->linear_only;
        experts_only = format->experts_only;
    }
    b.e.weight_format = key;
    // QLoRA's NF4, GPTQ and AWQ quantize the decoder's linear weights, MXFP4 only the routed experts' (gpt-oss); the
    // rest stays in 16 bits. GPTQ and AWQ also leave the MoE routers unquantized (AutoGPTQ and AutoAWQ skip mlp.gate;
    // bitsandbytes quantizes it).
    // Without an architecture there is no split: N x b, and the weight note says so.
    if (b.arch != nullptr && ((s.qlora && s.lora_rank > 0) || linear_only)) {
        u128 linear = 0;
        for (const LinearLayer& layer : decoder_linear_layers(*b.arch))
            if (experts_only ? std::string_view(layer.part) == "experts" : !linear_only || std::string_view(layer.part) != "router")
                linear += static_cast<u128>(layer.in_features) * layer.out_features * layer.instance_count();
        if (linear > s.param_count) linear = s.param_count;  // cannot happen for a counted model; never wrap
        if (experts_only && linear == 0)
            return Error{"dtype", "the model has no MoE experts for MXFP4"};
        b.quantized_linear_count = static_cast<std::uint64_t>(linear);
        b.unquantized_count = s.param_count - b.quantized_linear_count;
        b.e.quantized_linear_count = b.quantized_linear_count;
    }
    return std::nullopt;
}

// N_trainable: all, a count, a percentage, or (LoRA) the adapter's count from the architecture's linears.
Status count_trainable(Build& b) {
    const Scenario& s = b.s;
    const Expected<std::uint64_t> trainable = resolve_trainable(s.trainable, s.param_count);
    if (!trainable) return trainable.failure();
    b.trainable = *trainable;
    if (s.lora_rank == 0) return std::nullopt;
    if (b.arch == nullptr) return Error{"lora-rank", "needs a model architecture (--model or --config)"};
    const Expected<std::vector<std::string>> targets = parse_lora_targets(s.lora_targets);
    if (!targets) return Error{"lora-targets", targets.error()};
    const Expected<LoraCount> lora = lora_trainable_count(decoder_linear_layers(*b.arch), s.lora_rank, *targets);
    if (!lora) return lora.failure();
    b.e.lora_trainable_count = lora->trainable_count;
    b.trainable = lora->trainable_count;
    return std::nullopt;
}

// The training recipe: the values stored per trainable parameter (seed-adam: k values of b bytes).
Status choose_recipe(Build& b) {
    Expected<std::vector<StoredValue>> values =
        recipe_values(b.s.recipe, b.s.values_per_trainable, b.s.bytes_per_value);
    if (!values) return Error{"recipe", values.error()};
    b.values = std::move(values.value());
    return std::nullopt;
}

// The GPU count and ZeRO stage (checked before the training peak divides by them).
Status check_gpu_inputs(const Scenario& s) {
    if (s.gpu_count == 0) return Error{"gpus", "must be at least 1"};
    if (s.gpu_count > kMaxGpuCount) return Error{"gpus", too_large(kMaxGpuCount)};
    if (s.zero_stage < 0 || s.zero_stage > 3) return Error{"zero", "must be 0, 1, 2 or 3"};
    return std::nullopt;
}

// ---- The steps: each pushes its rows of the table ----

// Weight memory N x b, and the simple inference total N x b x overhead (its margin is a row of its own).
void add_weights(Build& b) {
    Estimate& e = b.e;
    const u128 n = b.s.param_count;
    // Weight bytes x the format's denominator, exact: N x b, or QLoRA's NF4 linears + 16-bit rest.
    u128 exact = n * b.weight_numerator;
    if (b.quantized_linear_count > 0)
        exact = static_cast<u128>(b.quantized_linear_count) * b.weight_numerator +
                static_cast<u128>(b.unquantized_count) * unquantized_bytes(b.s) * b.weight_denominator;
    const std::uint64_t weight = round_div(exact, b.weight_denominator);
    const std::uint64_t inference = round_div(exact * b.s.overhead_factor.micros, b.weight_denominator * kScale);
    MemoryTerm w = row("weight", "Weight memory", "Weights",
                       b.quantized_linear_count > 0 ? (unquantized_bytes(b.s) == 4
                                                           ? "N_linear × b + (N − N_linear) × 4 bytes (fp32: PEFT's upcast)"
                                                           : "N_linear × b + (N − N_linear) × 2 bytes")
                                                    : "N × b",
                       weight,
                       TermKind::weights,
                       in_total(Total::inference) | in_total(Total::detailed_inference) | in_total(Total::training));
    w.headline = true;
    w.json = JsonPlace::top;
    e.terms.push_back(w);
    MemoryTerm margin = row("overhead_margin", "Overhead margin", "Overhead margin", "weights × (overhead factor − 1)",
                            inference - weight, TermKind::runtime, in_total(Total::inference));
    margin.in_report = false;
    margin.json = JsonPlace::none;
    e.terms.push_back(margin);
    e.terms.push_back(seed_total("inference", "Inference total", "Inference", "weights × overhead factor", Total::inference));
}

// The MTP module (DeepSeek-V3/R1, GLM-4.5, Qwen3-Next) in the weights' format, beside the totals: the
// checkpoint stores it, but the engines load it only for MTP speculative decoding (core/steps.cpp says which).
// Shown when N is the model's own count.
void add_mtp_module(Build& b) {
    const Scenario& s = b.s;
    if (!s.model || s.model->counts.mtp_count == 0 || s.param_count != s.model->counts.total_count) return;
    const std::uint64_t bytes =
        round_div(static_cast<u128>(s.model->counts.mtp_count) * b.weight_numerator, b.weight_denominator);
    MemoryTerm mtp = row("mtp_weight", "MTP module (not in the totals)", "MTP module",
                         "MTP parameters × b: stored in the checkpoint, loaded only for MTP speculative decoding", bytes,
                         TermKind::weights, 0);
    const auto weight = std::find_if(b.e.terms.begin(), b.e.terms.end(), [](const MemoryTerm& t) { return t.key == "weight"; });
    b.e.terms.insert(weight + 1, mtp);
}

// Gradient+optimizer memory N_trainable x the recipe's bytes (its stored values as parts), the LoRA
// adapter's own weights, and the training total.
// The stored values of fp32 adapters (PEFT's autocast_adapter_dtype): a 16-bit gradient or Adam/momentum
// state becomes fp32, as torch keeps them in the parameter's dtype; the fp32 master copy goes, the fp32
// adapter being what the optimizer updates. 8-bit states and 4-byte values stay as the recipe has them.
std::vector<StoredValue> fp32_adapter_values(const std::vector<StoredValue>& values) {
    std::vector<StoredValue> out;
    for (StoredValue v : values) {
        if (v.name.rfind("master weights", 0) == 0) continue;
        const bool named = v.kind == StateKind::gradient || v.name.rfind("Adam m", 0) == 0 ||
                           v.name.rfind("Adam v", 0) == 0 || v.name.rfind("momentum", 0) == 0;
        if (named && v.pico_bytes < 4 * kPicoPerByte && v.name.find("8-bit") == std::string::npos) {
            const std::size_t paren = v.name.find(" (");
            v.name = v.name.substr(0, paren) + " (fp32 adapter)";
            v.pico_bytes = 4 * kPicoPerByte;
        }
        out.push_back(std::move(v));
    }
    return out;
}

void add_training_states(Build& b) {
    Estimate& e = b.e;
    const Scenario& s = b.s;
    // The full fine-tune it is compared with keeps the recipe's own values.
    const std::uint64_t all_trainable_pico = recipe_pico_bytes(b.values);
    e.adapter_fp32 = e.lora_trainable_count > 0 && s.adapter_fp32;
    if (e.adapter_fp32) b.values = fp32_adapter_values(b.values);
    const std::uint64_t per_trainable_pico = recipe_pico_bytes(b.values);
    const bool seed_formula = is_seed_recipe(s.recipe) && !e.adapter_fp32;
    // Seed path: per_trainable_pico == k.micros x b.micros, so this is N_trainable x k x b rounded once.
    MemoryTerm states = row("gradient_optimizer", "Gradient+optimizer memory", "Gradients + optimizer",
                            seed_formula ? "N_trainable × k × b"
                                         : e.adapter_fp32 ? "N_trainable × the recipe's bytes, fp32 for the fp32 adapter"
                                                          : "N_trainable × the recipe's bytes",
                            pico_bytes_for(b.trainable, per_trainable_pico), TermKind::state, in_total(Total::training));
    states.all_trainable_bytes = pico_bytes_for(s.param_count, all_trainable_pico);
    states.headline = true;
    states.json = JsonPlace::top;
    e.terms.push_back(states);
    const bool show_parts = !seed_formula && b.values.size() > 1;
    for (const StoredValue& value : b.values) {
        const std::uint64_t bytes = pico_bytes_for(b.trainable, value.pico_bytes);
        e.training_components.push_back({value.name, value.pico_bytes, bytes, value.kind});
        MemoryTerm part = row("training_component", "", "", format_pico_bytes(value.pico_bytes) + " bytes × N_trainable",
                              bytes, TermKind::state, 0);
        part.label = value.name;
        part.short_label = value.name;
        part.all_trainable_bytes = pico_bytes_for(s.param_count, value.pico_bytes);
        part.part = true;
        part.in_report = show_parts;
        part.json = JsonPlace::none;  // report_json lists them in training_components
        e.terms.push_back(part);
    }
    if (e.lora_trainable_count > 0) {
        // The adapter's weights (PEFT counts them in all params): fp32 as PEFT's autocast_adapter_dtype casts
        // them, or 16-bit; a full fine-tune has no adapter.
        MemoryTerm adapter = row("adapter_weight", "LoRA adapter weights", "LoRA adapter",
                                 e.adapter_fp32 ? "adapter parameters × 4 bytes, fp32 as PEFT's autocast_adapter_dtype casts them"
                                                : "adapter parameters × 2 bytes",
                                 e.lora_trainable_count * (e.adapter_fp32 ? 4 : 2), TermKind::weights, in_total(Total::training));
        adapter.all_trainable_bytes = 0;
        e.terms.push_back(adapter);
    }
    e.terms.push_back(seed_total("training", "Training total", "Training", "", Total::training));
}

// The KV cache (its own format) for `context` tokens x `batch` sequences; it adds to the detailed total.
Status add_kv_cache(Build& b) {
    const Scenario& s = b.s;
    const Expected<WeightFormat> kv_format = find_weight_format(s.kv_dtype);
    if (!kv_format) return Error{"kv-dtype", kv_format.error()};
    if (s.batch_size == 0) return Error{"batch", "must be at least 1"};
    if (s.batch_size > kMaxBatch) return Error{"batch", too_large(kMaxBatch)};
    if (s.context_tokens > kMaxContextTokens) return Error{"context", too_large(kMaxContextTokens, kContextLimit)};
    std::uint64_t tokens = s.context_tokens;
    const VisionTower* media = b.arch != nullptr ? &media_tower(s, *b.arch) : nullptr;
    if (s.image_count > 0) {
        // Images become tokens of the sequence, as the family's processor expands them (core/vision.hpp).
        if (b.arch == nullptr) return Error{"images", "need a model with a vision tower (--model or --config)"};
        if (media->kind == VisionKind::none) return Error{"images", "the model has no vision tower (vision_config)"};
        if (b.arch->text_only) return Error{"images", "--text-only leaves the vision tower out"};
        if (s.image_width == 0 || s.image_height == 0)
            return Error{"image-size", "is needed with --images: W x H pixels, such as 896x896"};
        const Expected<std::uint64_t> per_image = image_tokens(*media, s.image_width, s.image_height, image_processor(s));
        if (!per_image) return per_image.failure();
        b.e.image_tokens = *per_image * s.image_count;
        tokens += b.e.image_tokens;
        if (tokens > kMaxContextTokens) return Error{"images", too_large(kMaxContextTokens, kContextLimit)};
    }
    if (s.audio_seconds > 0) {
        if (b.arch == nullptr) return Error{"audio-seconds", "the model has no audio tower (audio_config)"};
        if (b.arch->text_only) return Error{"audio-seconds", "--text-only leaves the audio tower out"};
        const Expected<std::uint64_t> audio = audio_tokens(*media, s.audio_seconds, image_processor(s));
        if (!audio) return audio.failure();
        b.e.audio_tokens = *audio;
        tokens += *audio;
        if (tokens > kMaxContextTokens) return Error{"audio-seconds", too_large(kMaxContextTokens, kContextLimit)};
    }
    if (tokens == 0) return std::nullopt;
    if (b.arch == nullptr) return Error{"context", "the KV cache needs a model architecture (--model or --config)"};
    const Expected<KvCacheShape> shape = kv_cache_shape(*b.arch);
    if (!shape) return Error{"context", shape.error()};
    const Expected<std::uint64_t> kv = kv_cache_bytes(*shape, tokens, s.batch_size, *kv_format);
    if (!kv) return kv.failure();
    b.e.terms.push_back(row("kv_cache", "KV cache", "KV cache",
                            b.arch->recurrent_layer_count() > 0
                                ? "2 × attention layers × KV heads × head dim × tokens × batch × bytes"
                                : "2 × layers × KV heads × head dim × tokens × batch × bytes",
                            *kv, TermKind::runtime, in_total(Total::detailed_inference)));
    return std::nullopt;
}

// Hybrid models: the recurrent layers' fixed state per sequence (conv window + SSM state), in f32 as
// llama.cpp's RS buffer holds it (src/llama-memory-recurrent.cpp); it does not grow with the context.
Status add_recurrent_state(Build& b) {
    const Scenario& s = b.s;
    if (b.arch == nullptr || s.context_tokens + b.e.image_tokens + b.e.audio_tokens == 0 || b.arch->recurrent_layer_count() == 0) return std::nullopt;
    const std::uint64_t bytes = recurrent_state_bytes(*b.arch, s.batch_size, 4, 4);
    b.e.terms.push_back(row("recurrent_state", "Recurrent state", "Recurrent state",
                            "recurrent layers × (conv state + SSM state) × sequences × 4 bytes (f32, llama.cpp's RS buffer)",
                            bytes, TermKind::runtime, in_total(Total::detailed_inference)));
    return std::nullopt;
}

// Detailed inference: an activation workspace and a runtime reserve beside the weights and KV cache.
Status add_detailed_inference(Build& b) {
    const Scenario& s = b.s;
    b.e.detailed_inference = s.detailed_inference;
    if (!s.detailed_inference) return std::nullopt;
    std::uint64_t activation_bytes = 0;
    if (b.arch != nullptr && s.context_tokens > 0) {
        // Our rule of thumb, not a measurement (labelled so on screen): the prefill peak of one layer, the
        // residual stream plus the MLP's two intermediate outputs in 16 bits for every token, plus fp32
        // logits of the last position. vLLM instead measures its peak in a profiling run (PR #10511 logs
        // 1.26 GiB for Llama-3-8B at its default batched-token budget).
        const u128 tokens = static_cast<u128>(s.context_tokens) * s.batch_size;
        const u128 width = static_cast<u128>(b.arch->hidden_size) + 2 * static_cast<u128>(b.arch->intermediate_size);
        const u128 activation = tokens * width * 2 + static_cast<u128>(s.batch_size) * b.arch->vocab_size * 4;
        if (activation > kMaxParamCount * 64) return Error{"context", "the activation workspace is too large"};
        activation_bytes = static_cast<std::uint64_t>(activation);
    }
    b.e.terms.push_back(row("inference_activation", "Activation workspace (rule of thumb)", "Activations",
                            "tokens × (hidden + 2 × MLP width) × 2 bytes + batch × vocabulary × 4 bytes (our rule of "
                            "thumb for one layer's prefill, not measured)",
                            activation_bytes, TermKind::runtime, in_total(Total::detailed_inference)));
    b.e.terms.push_back(row("runtime_reserve", "Runtime reserve (round allowance)", "Runtime reserve",
                            "1 GiB, a round allowance for the CUDA context and allocator (not measured; vLLM logged "
                            "1.79 GiB of non-torch memory for Llama-3-8B, PR #10511)",
                            kRuntimeReserveBytes, TermKind::runtime, in_total(Total::detailed_inference)));
    b.e.terms.push_back(total_row("detailed_inference", "Inference total (detailed)", "Inference (detailed)", "",
                                  Total::detailed_inference));
    return std::nullopt;
}

// ---- The training peak (training-mode detailed, and the GPU verdict whenever a model is known) ----

// tp, pp and the GPU count fit the model and each other: tp divides the heads, the GPUs are whole replicas.
Status check_parallel_layout(const Scenario& s, const Architecture& arch) {
    const TrainingSettings& t = s.training;
    if (t.tp == 0) return Error{"tp", "must be at least 1"};
    if (t.pp == 0) return Error{"pp", "must be at least 1"};
    if (t.tp > kMaxParallel) return Error{"tp", too_large(kMaxParallel)};
    if (t.pp > kMaxParallel) return Error{"pp", too_large(kMaxParallel)};
    if (arch.num_attention_heads % t.tp != 0)
        return Error{"tp", std::to_string(t.tp) + " does not divide the model's " + std::to_string(arch.num_attention_heads) +
                               " attention heads (each tensor-parallel rank holds whole heads)"};
    const std::uint64_t ranks = t.tp * t.pp;
    if (s.gpu_count % ranks != 0)
        return Error{"gpus", std::to_string(s.gpu_count) + " GPU" + (s.gpu_count == 1 ? " is" : "s are") +
                                 " not a multiple of tp × pp = " + std::to_string(ranks) +
                                 " (the GPUs of one model replica); set --gpus to a multiple of " + std::to_string(ranks)};
    return std::nullopt;
}

// The step's shape: the user's training settings, the activation width from the recipe and weights, and
// with LoRA which linear inputs the frozen base keeps (only the adapted linears keep theirs).
Expected<TrainingShape> training_shape(const Scenario& s, const Estimate& e, const Architecture& arch) {
    TrainingShape shape;
    static_cast<TrainingSettings&>(shape) = s.training;
    // Activations are 16-bit unless the model trains in fp32 (fp32 weights or the pure-fp32 recipe).
    const bool fp32 = s.recipe == "adam-fp32" || e.weight_format == "fp32" ||
                      (e.weight_format.empty() && s.bytes_per_param == Decimal::from_int(4));
    shape.compute_bytes = fp32 ? 4 : 2;
    shape.activation_bytes = s.qlora && s.upcast_nonquantized ? 4 : shape.compute_bytes;  // see TrainingShape
    if (s.lora_rank == 0) return shape;
    shape.keep_qkv_input = shape.keep_out_input = shape.keep_mlp_input = shape.keep_down_input = false;
    const Expected<std::vector<std::string>> targets = parse_lora_targets(s.lora_targets);
    const std::vector<LinearLayer> linears = decoder_linear_layers(arch);
    const Expected<LoraCount> lora = targets ? lora_trainable_count(linears, s.lora_rank, *targets) : Expected<LoraCount>(targets.failure());
    if (!lora) return lora.failure();
    for (const LoraModule& m : lora->modules) {
        std::string part;
        for (const LinearLayer& l : linears)
            if (l.target_name == m.target_name) part = l.part;
        const bool output_side = is_output_projection(m.target_name);
        if (part == "attention") (output_side ? shape.keep_out_input : shape.keep_qkv_input) = true;
        else (output_side ? shape.keep_down_input : shape.keep_mlp_input) = true;
        // GPT-2's c_proj is in both blocks: keep both inputs.
        if (m.target_name == "c_proj") shape.keep_out_input = shape.keep_down_input = true;
    }
    return shape;
}

// A row of the peak: shown in training-mode detailed; otherwise kept only for the GPU verdict.
void push_peak_row(Build& b, MemoryTerm t) {
    if (!b.s.detailed_training) {
        t.in_report = false;
        t.json = JsonPlace::none;
    }
    b.e.terms.push_back(std::move(t));
}

// The phases a peak row adds to: the backward pass, the optimizer step, or both.
constexpr TotalSet kBackward = in_total(Total::training_backward);
constexpr TotalSet kStep = in_total(Total::training_step);
constexpr TotalSet kBothPhases = kBackward | kStep;

// Model states of one GPU: the whole model's divided by tp x pp (rounded up), then ZeRO over the
// data-parallel GPUs, as three rows of the peak. The weights and the optimizer states are held in both
// phases; the gradients in the optimizer step, and in the backward pass only when gradient accumulation
// keeps them (with one micro-batch per step the Trainer's zero_grad(set_to_none=True) frees them after each
// step, and the backward pass allocates each as it frees the activations that made it).
void add_per_gpu_states(Build& b) {
    const Scenario& s = b.s;
    Estimate& e = b.e;
    const std::uint64_t ranks = s.training.tp * s.training.pp;
    const std::uint64_t dp = s.gpu_count / ranks;
    ModelStates whole;
    whole.weight_bytes = find_term(e, "weight")->bytes;
    if (const MemoryTerm* adapter = find_term(e, "adapter_weight")) whole.weight_bytes += adapter->bytes;
    for (const TrainingComponent& c : e.training_components)
        (c.kind == StateKind::gradient ? whole.gradient_bytes : whole.optimizer_bytes) += c.bytes;
    auto split = [ranks](std::uint64_t bytes) { return bytes / ranks + (bytes % ranks != 0 ? 1 : 0); };
    b.peak_ranks = ranks;
    b.peak_whole_states = whole;
    b.peak_replica_states = {split(whole.weight_bytes), split(whole.gradient_bytes), split(whole.optimizer_bytes)};
    const ModelStates per_gpu = per_gpu_states(b.peak_replica_states, s.zero_stage, dp);
    const std::string divided = "÷ (tp × pp = " + std::to_string(ranks) + ")";
    const std::string zero = ", ZeRO stage " + std::to_string(s.zero_stage) + " over " + std::to_string(dp) +
                             " data-parallel GPU" + (dp == 1 ? "" : "s");
    const bool kept = s.training.grad_accum > 1;
    push_peak_row(b, row("weight_per_gpu", "Weights on one GPU", "Weights (this GPU)",
                "(weights + adapter) " + divided + (s.zero_stage >= 3 ? zero : ""), per_gpu.weight_bytes,
                TermKind::weights, kBothPhases));
    push_peak_row(b, row("gradient_per_gpu", "Gradients on one GPU", "Gradients (this GPU)",
                "gradients " + divided + (s.zero_stage >= 2 ? zero : "") +
                    (kept ? "; kept through the backward passes (grad-accum " + std::to_string(s.training.grad_accum) + ")"
                          : "; the optimizer step only (grad-accum 1: freed after each step)"),
                per_gpu.gradient_bytes, TermKind::state, kStep | (kept ? kBackward : 0)));
    push_peak_row(b, row("optimizer_per_gpu", "Optimizer states on one GPU", "Optimizer (this GPU)",
                "optimizer states " + divided + (s.zero_stage >= 1 ? zero : ""), per_gpu.optimizer_bytes,
                TermKind::state, kBothPhases));
    // Adam/AdamW foreach (PyTorch's default on CUDA; torch/optim/adam.py _multi_tensor_adam, adamw.py
    // _multi_tensor_adamw): exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs) is a new tensor for every
    // parameter of the group, live until the in-place addcdiv_ has applied it: one second moment's size, in
    // its dtype, on this GPU's share of the states. Fused (torch._fused_adamw_) allocates none; bitsandbytes'
    // 8-bit Adam updates in its own kernel; SGD's foreach updates in place.
    std::uint64_t second_moment = 0;
    if (s.training.optimizer_impl == OptimizerImpl::foreach && s.recipe != "adam-8bit")
        for (const TrainingComponent& c : e.training_components)
            if (c.name.rfind("Adam v", 0) == 0) second_moment += c.bytes;
    b.peak_replica_temp_bytes = split(second_moment);
    const std::uint64_t temp = per_gpu_states({0, 0, b.peak_replica_temp_bytes}, s.zero_stage, dp).optimizer_bytes;
    e.optimizer_temp_bytes = temp;
    if (temp > 0)
        push_peak_row(b, row("optimizer_temp", "AdamW update temporary (foreach)", "Step temporary",
                    "Adam's second moment on this GPU, once more: foreach's sqrt(v) for every parameter at once "
                    "(PyTorch's default; fused has none)",
                    temp, TermKind::runtime, kStep));
}

// The peak's own rows: activations, logits and loss, the framework's memory, the allocator's margin, and
// where they apply ZeRO-3/FSDP's gathered layers and the 4-bit dequantization workspace.
void add_peak_rows(Build& b, const TrainingActivations& a) {
    const Scenario& s = b.s;
    const TrainingSettings& t = s.training;
    std::string where = t.pp > 1 ? (a.first_stage ? " on the first pipeline stage (" : " on the last pipeline stage (") +
                                       std::to_string(a.stage_layers) + " layers × " +
                                       std::to_string(a.micro_batches_in_flight) + " micro-batch" +
                                       (a.micro_batches_in_flight == 1 ? "" : "es") + " in flight)"
                                 : std::string();
    const std::string eager_scores =
        a.recompute_scores_bytes > 0 ? " (with its scores' gradient: eager attention)" : "";
    std::string activation_formula =
        t.recompute == Recompute::full
            ? "layers × each layer's input (B·s·b·h) + one layer rebuilt in the backward pass" + eager_scores +
                  " + final norm and head inputs"
        : t.recompute == Recompute::op_selective
            ? "layers × (input + the q, v, gate and down outputs + the attention output and its log-sum-exp; torchtitan's "
              "op-level policy) + one layer rebuilt in the backward pass" + eager_scores + " + final norm and head inputs"
            : std::string("layers × (norms + attention") + (t.recompute == Recompute::selective ? "" : " + attention core") +
                  " + MLP) + final norm and head inputs";
    push_peak_row(b, row("activation", "Activations (saved for backward)", "Activations", activation_formula + where,
                a.activation_bytes, TermKind::runtime, kBackward));
    push_peak_row(b, row("logits_loss", "Logits and loss", "Logits + loss",
                t.loss == LossKind::full
                    ? "micro-batch × seq-len × vocabulary × (4 + 4 + 4) bytes: the fp32 log-softmax saved for the backward "
                      "pass and two gradients (the loop has dropped the logits)"
                : t.loss == LossKind::half
                    ? "micro-batch × seq-len × vocabulary × 3 × 2 bytes: the saved log-softmax and two gradients, in 16 "
                      "bits"
                    : "micro-batch × seq-len × vocabulary × 2 + one of 8 chunks × (4 + 4) bytes (chunked loss)",
                a.logits_loss_bytes, TermKind::runtime, kBackward));
    const std::uint64_t framework =
        s.framework_overhead_auto ? default_framework_overhead_bytes(s.gpu_count, s.zero_stage) : s.framework_overhead_bytes;
    push_peak_row(b, row("framework_overhead", "Framework (CUDA context, NCCL)", "Framework",
                s.framework_overhead_auto ? (framework > kCudaContextBytes ? "512 MiB CUDA context + 1.5 GiB NCCL (more than one GPU, or ZeRO/FSDP)"
                                                                           : "512 MiB CUDA context (one GPU, no NCCL)")
                                          : "as set by framework-overhead",
                framework, TermKind::runtime, kBothPhases));
    const u128 dynamic = static_cast<u128>(a.activation_bytes) + a.logits_loss_bytes;
    const std::uint64_t margin = round_div(dynamic * s.allocator_margin_percent.micros, 100 * kScale);
    push_peak_row(b, row("allocator_margin", "Allocator margin", "Allocator margin",
                format_decimal(s.allocator_margin_percent) + "% × (activations + logits and loss)", margin,
                TermKind::runtime, kBackward));
    // ZeRO-3/FSDP: the layer computing and the ones prefetched are gathered whole (16-bit, or NF4 as QLoRA
    // stores them), and one layer's gradients are whole until their reduce-scatter. Constant in the
    // sequence length, so short runs feel it most.
    Estimate& e = b.e;
    const std::uint64_t dp = s.gpu_count / (t.tp * t.pp);
    const std::uint64_t layers = b.arch->num_hidden_layers;
    const ParamBreakdown& counts = s.model->counts;
    const u128 layer_params = counts.total_count - counts.embedding_count - counts.output_head_count;
    u128 layer_weight = 0;
    if (b.quantized_linear_count > 0)
        layer_weight = (static_cast<u128>(b.quantized_linear_count) * b.weight_numerator + b.weight_denominator - 1) /
                           b.weight_denominator +
                       (layer_params - b.quantized_linear_count) * unquantized_bytes(s);
    else
        layer_weight = counts.total_count == 0
                           ? 0
                           : static_cast<u128>(b.peak_whole_states.weight_bytes) * layer_params / counts.total_count;
    layer_weight = (layer_weight / layers + t.tp - 1) / t.tp;
    const u128 layer_gradient = (static_cast<u128>(b.peak_whole_states.gradient_bytes) / layers + t.tp - 1) / t.tp;
    b.peak_gathered_bytes = static_cast<std::uint64_t>((1 + t.fsdp_prefetch) * layer_weight + layer_gradient);
    if (s.zero_stage >= 3 && dp > 1) {
        e.zero3_gathered_bytes = b.peak_gathered_bytes;
        e.zero3_layer_weight_bytes = static_cast<std::uint64_t>(layer_weight);
        e.zero3_layer_gradient_bytes = static_cast<std::uint64_t>(layer_gradient);
        push_peak_row(b, row("zero3_gathered", "ZeRO-3/FSDP gathered layers", "Gathered layers",
                    "(1 + fsdp-prefetch " + std::to_string(t.fsdp_prefetch) +
                        ") × one layer's weights gathered whole + one layer's gradients before their reduce-scatter",
                    b.peak_gathered_bytes, TermKind::runtime, kBackward));
    }
    // DeepSpeed ZeRO keeps its gradient bucket whole through the backward pass: with contiguous_gradients
    // (its default) stage 1-2 allocates one reduce_bucket_size buffer in the model's 16-bit dtype and a
    // second with overlap_comm (stage_1_and_2.py setup_buckets), stage 3 one (stage3.py, ipg_buckets). It
    // does so on one GPU too. Constant in the sequence length, like the gathered layers.
    std::uint64_t bucket = 0;
    if (s.zero_stage >= 1 && s.zero_bucket_elements > 0) {
        const std::uint64_t buffers = s.zero_stage <= 2 && s.overlap_comm ? 2 : 1;
        bucket = buffers * s.zero_bucket_elements * a.compute_bytes;
        e.zero_bucket_bytes = bucket;
        e.zero_bucket_buffers = buffers;
        push_peak_row(b, row("zero_bucket", "DeepSpeed gradient bucket", "Gradient bucket",
                    std::to_string(buffers) + " × zero-bucket " + std::to_string(s.zero_bucket_elements) +
                        " elements × 2 bytes, 4 in fp32 (DeepSpeed's reduce_bucket_size; two with overlap_comm at stage 1-2)",
                    bucket, TermKind::runtime, kBothPhases));
    }
    // bitsandbytes' 4-bit matmul dequantizes the whole weight to 16 bits before it multiplies (forward and
    // backward): the largest linear, one at a time.
    std::uint64_t workspace = 0;
    if (b.quantized_linear_count > 0 && s.qlora) {
        u128 largest = 0;
        for (const LinearLayer& l : decoder_linear_layers(*b.arch))
            largest = std::max<u128>(largest, static_cast<u128>(l.in_features) * l.out_features);
        workspace = static_cast<std::uint64_t>((largest * 2 + t.tp - 1) / t.tp);
        e.dequant_workspace_bytes = workspace;
        e.dequant_linear_elements = static_cast<std::uint64_t>(largest);
        push_peak_row(b, row("dequant_workspace", "4-bit dequantization workspace", "Dequant workspace",
                    "the largest 4-bit linear (in × out) dequantized to 2 bytes (bitsandbytes' 4-bit matmul)", workspace,
                    TermKind::runtime, kBackward));
    }
    b.peak_backward_bytes = a.activation_bytes + a.logits_loss_bytes + margin + workspace;
    b.peak_common_bytes = bucket;
}

// Training as it runs, per GPU: the saved activations, logits and loss, the framework's memory and the
// caching allocator's margin on top of the model states (divided by tp x pp, then by ZeRO over the
// data-parallel GPUs). Shown in training-mode detailed; computed whenever a model is known and the
// detailed mode or a GPU verdict needs it.
Status add_training_peak(Build& b) {
    const Scenario& s = b.s;
    Estimate& e = b.e;
    e.detailed_training = s.detailed_training;
    if (s.allocator_margin_percent.micros > 100 * kScale) return Error{"allocator-margin", "must be at most 100%"};
    if (!s.framework_overhead_auto && s.framework_overhead_bytes > kMaxGpuMemoryBytes)
        return Error{"framework-overhead", too_large(kMaxGpuMemoryBytes, "1 PiB")};
    const bool gpu_asked = s.gpu_memory_bytes > 0 || !s.gpu.empty();
    if (b.arch == nullptr) {
        if (s.detailed_training)
            return Error{"training-mode", "detailed needs a model architecture (--model or --config): the activations "
                                          "need its layers, hidden size, FFN width and gating, KV heads, vocabulary and dropout"};
        return std::nullopt;
    }
    if (!s.detailed_training && !gpu_asked) return std::nullopt;
    if (Status bad = check_parallel_layout(s, *b.arch)) return *bad;
    const Expected<TrainingShape> shape = training_shape(s, e, *b.arch);
    if (!shape) return shape.failure();
    const Expected<TrainingActivations> acts = training_activations(*b.arch, *shape);
    if (!acts) return acts.failure();
    e.training_activations = *acts;
    e.training_peak_known = true;
    add_per_gpu_states(b);
    add_peak_rows(b, *acts);
    // The two phases, then the peak: the larger of them (the rows above say which phase holds each).
    MemoryTerm backward = total_row("backward_peak", "Backward-pass peak", "Backward pass", "", Total::training_backward);
    MemoryTerm step = total_row("step_peak", "Optimizer-step peak", "Optimizer step", "", Total::training_step);
    backward.adds_to = step.adds_to = in_total(Total::training_peak);
    MemoryTerm total = total_row("training_peak", "Training peak per GPU", "Training peak", "", Total::training_peak);
    total.combine = Combine::max;
    for (MemoryTerm* t : {&backward, &step, &total}) {
        if (s.detailed_training) t->json = JsonPlace::feature;
        else {
            t->in_report = false;
            t->json = JsonPlace::none;
        }
        e.terms.push_back(*t);
    }
    return std::nullopt;
}

// Every total from the rows that add to it (in both columns: now and with every parameter trainable).
void add_totals(Estimate& e) {
    for (MemoryTerm& total : e.terms) {
        if (!total.total) continue;
        std::uint64_t bytes = 0;
        std::uint64_t all_trainable = 0;
        for (const MemoryTerm* part : parts_of(e, *total.total)) {
            const bool sum = total.combine == Combine::sum;
            bytes = sum ? bytes + part->bytes : std::max(bytes, part->bytes);
            all_trainable = sum ? all_trainable + part->all_trainable_bytes : std::max(all_trainable, part->all_trainable_bytes);
        }
        total.bytes = bytes;
        total.all_trainable_bytes = all_trainable;
    }
}

// The comparison with training every parameter, right after the training total: the full training total
// (JSON only) and the reduction of every training state (shown when fewer parameters train).
void add_comparison(Estimate& e) {
    const MemoryTerm* training = find_total(e, Total::training);
    std::uint64_t reduction = 0;
    for (const MemoryTerm* part : parts_of(e, Total::training))
        if (part->kind == TermKind::state) reduction += part->all_trainable_bytes - part->bytes;
    MemoryTerm full = row("full_training", "Training total, all trainable", "All trainable", "", training->all_trainable_bytes,
                          TermKind::comparison, 0);
    full.in_report = false;
    full.json = JsonPlace::top;
    MemoryTerm saved = row("reduction", "Reduction vs all trainable", "Reduction",
                           "gradient+optimizer memory (all trainable) − gradient+optimizer memory (now)", reduction,
                           TermKind::comparison, 0);
    saved.in_report = e.trainable_count != e.param_count;
    saved.json = JsonPlace::top;
    const auto after = std::find_if(e.terms.begin(), e.terms.end(), [](const MemoryTerm& t) { return t.key == "training"; });
    e.terms.insert(e.terms.insert(after + 1, full) + 1, saved);
}

// The named byte fields, read from the table.
void name_figures(Estimate& e) {
    e.weight_bytes = find_term(e, "weight")->bytes;
    e.inference_bytes = find_total(e, Total::inference)->bytes;
    e.overhead_margin_bytes = find_term(e, "overhead_margin")->bytes;
    const MemoryTerm* states = find_term(e, "gradient_optimizer");
    e.gradient_optimizer_bytes = states->bytes;
    e.full_gradient_optimizer_bytes = states->all_trainable_bytes;
    e.training_bytes = find_total(e, Total::training)->bytes;
    e.full_training_bytes = find_term(e, "full_training")->bytes;
    e.reduction_bytes = find_term(e, "reduction")->bytes;
    const MemoryTerm* adapter = find_term(e, "adapter_weight");
    e.adapter_weight_bytes = adapter != nullptr ? adapter->bytes : 0;
    const MemoryTerm* kv = find_term(e, "kv_cache");
    e.kv_cache_bytes = kv != nullptr ? kv->bytes : 0;
    const MemoryTerm* activation = find_term(e, "inference_activation");
    e.inference_activation_bytes = activation != nullptr ? activation->bytes : 0;
    auto bytes_of = [&e](const char* key) {
        const MemoryTerm* t = find_term(e, key);
        return t != nullptr ? t->bytes : 0;
    };
    e.training_activation_bytes = bytes_of("activation");
    e.logits_loss_bytes = bytes_of("logits_loss");
    e.framework_overhead_bytes = bytes_of("framework_overhead");
    e.allocator_margin_bytes = bytes_of("allocator_margin");
    const MemoryTerm* peak = find_total(e, Total::training_peak);
    e.training_peak_bytes = peak != nullptr ? peak->bytes : 0;
    const MemoryTerm* backward = find_total(e, Total::training_backward);
    e.training_backward_peak_bytes = backward != nullptr ? backward->bytes : 0;
    const MemoryTerm* step = find_total(e, Total::training_step);
    e.training_step_peak_bytes = step != nullptr ? step->bytes : 0;
    const MemoryTerm* reserve = find_term(e, "runtime_reserve");
    e.runtime_reserve_bytes = reserve != nullptr ? reserve->bytes : 0;
    const MemoryTerm* detailed = find_total(e, Total::detailed_inference);
    e.detailed_inference_bytes = detailed != nullptr ? detailed->bytes : 0;
}

// The training peak on one GPU with `dp` data-parallel replicas of tp x pp GPUs each: the larger of the
// backward pass's peak and the optimizer step's, as add_per_gpu_states and add_peak_rows split them.
std::uint64_t peak_with_dp(const Build& b, std::uint64_t dp) {
    const Scenario& s = b.s;
    const std::uint64_t framework =
        s.framework_overhead_auto ? default_framework_overhead_bytes(dp * b.peak_ranks, s.zero_stage) : s.framework_overhead_bytes;
    const ModelStates states = per_gpu_states(b.peak_replica_states, s.zero_stage, dp);
    const std::uint64_t temp = per_gpu_states({0, 0, b.peak_replica_temp_bytes}, s.zero_stage, dp).optimizer_bytes;
    const std::uint64_t held = states.weight_bytes + states.optimizer_bytes + framework + b.peak_common_bytes;
    const std::uint64_t backward = held + (s.training.grad_accum > 1 ? states.gradient_bytes : 0) + b.peak_backward_bytes +
                                   (s.zero_stage >= 3 && dp > 1 ? b.peak_gathered_bytes : 0);
    const std::uint64_t step = held + states.gradient_bytes + temp;
    return std::max(backward, step);
}

// The fewest GPUs (a multiple of tp x pp) whose training peak fits, or 0 when none up to kMaxGpuCount does.
// From two replicas on the peak only falls as dp grows (ZeRO divides more), so a binary search finds it.
std::uint64_t peak_gpus_needed(const Build& b, std::uint64_t capacity) {
    if (peak_with_dp(b, 1) <= capacity) return b.peak_ranks;
    std::uint64_t lo = 2, hi = kMaxGpuCount / b.peak_ranks;
    if (hi < lo || peak_with_dp(b, hi) > capacity) return 0;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (peak_with_dp(b, mid) <= capacity) hi = mid;
        else lo = mid + 1;
    }
    return lo * b.peak_ranks;
}

// GPU fit: the training peak (or, without a model, the model states under the ZeRO stage), and the chosen
// inference total split evenly.
Status add_gpu_fit(const Build& b, const Scenario& s, Estimate& e) {
    if (!s.tensor_split.empty() && s.tensor_split.size() != s.gpu_count)
        return Error{"tensor-split", "has " + std::to_string(s.tensor_split.size()) + " parts for " + std::to_string(s.gpu_count) +
                                         " GPU" + (s.gpu_count == 1 ? "" : "s") + " (give one proportion per GPU, e.g. 3,1 for --gpus 2)"};
    std::uint64_t capacity = s.gpu_memory_bytes;
    if (capacity == 0 && !s.gpu.empty()) {
        const Expected<Gpu> gpu = find_gpu(s.gpu);
        if (!gpu) return Error{"gpu", gpu.error()};
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
    if (e.training_peak_known) {
        fit.training_per_gpu = per_gpu_states(b.peak_replica_states, s.zero_stage, s.gpu_count / b.peak_ranks);
        fit.training_uses_peak = true;
        fit.training_peak_per_gpu_bytes = e.training_peak_bytes;
        fit.training_peak_high_per_gpu_bytes = e.training_peak_high_bytes;
        fit.training_fit_at_high = s.fit_confidence == FitConfidence::safe;
    }
    if (capacity == 0) return std::nullopt;
    fit.requested = true;
    fit.capacity_bytes = capacity;
    const std::uint64_t per_gpu = fit.training_uses_peak ? fit.training_peak_per_gpu_bytes : fit.training_per_gpu.total();
    fit.training_verdict = fit_verdict(per_gpu, capacity);
    if (fit.training_uses_peak)
        fit.training_verdict = per_gpu > capacity                                    ? FitVerdict::does_not_fit
                               : fit.training_peak_high_per_gpu_bytes > capacity ? FitVerdict::tight
                                                                                  : FitVerdict::fits;
    fit.training_margin_bytes = per_gpu > capacity ? per_gpu - capacity : capacity - per_gpu;
    fit.training_gpus_needed = fit.training_uses_peak ? peak_gpus_needed(b, capacity)
                                                      : gpus_needed(fit.training_states, s.zero_stage, capacity);
    const std::uint64_t inference = chosen_inference_bytes(e);
    fit.inference_per_gpu_bytes = inference / s.gpu_count + (inference % s.gpu_count != 0 ? 1 : 0);
    if (s.gpu_count > 1) {
        // Each card's share: the cumulative split rounded down, so the shares add up to the total exactly
        // (an even split's fullest card is then ceil(total / GPUs), as above).
        const auto weight = [&s](std::uint64_t i) -> u128 {
            return s.tensor_split.empty() ? 1 : s.tensor_split[static_cast<std::size_t>(i)].micros;
        };
        u128 weight_sum = 0;
        for (std::uint64_t i = 0; i < s.gpu_count; ++i) weight_sum += weight(i);
        u128 cumulative = 0;
        std::uint64_t before = 0;
        fit.inference_per_gpu_bytes = 0;
        for (std::uint64_t i = 0; i < s.gpu_count; ++i) {
            cumulative += weight(i);
            const std::uint64_t upto = static_cast<std::uint64_t>(static_cast<u128>(inference) * cumulative / weight_sum);
            CardFit card;
            card.bytes = upto - before;
            before = upto;
            card.verdict = fit_verdict(card.bytes, capacity);
            card.margin_bytes = card.bytes > capacity ? card.bytes - capacity : capacity - card.bytes;
            fit.inference_per_gpu_bytes = std::max(fit.inference_per_gpu_bytes, card.bytes);
            fit.inference_cards.push_back(card);
        }
    }
    fit.inference_verdict = fit_verdict(fit.inference_per_gpu_bytes, capacity);
    fit.inference_margin_bytes = fit.inference_per_gpu_bytes > capacity ? fit.inference_per_gpu_bytes - capacity
                                                                         : capacity - fit.inference_per_gpu_bytes;
    fit.inference_gpus_needed = gpus_needed_split(inference, capacity);
    return std::nullopt;
}

}  // namespace

Expected<std::uint64_t> resolve_trainable(const TrainableSpec& spec, std::uint64_t param_count) {
    switch (spec.kind) {
        case TrainableSpec::Kind::all:
            return param_count;
        case TrainableSpec::Kind::count:
            if (spec.count > param_count)
                return Error{"trainable", format_count_exact(spec.count) + " is more than the " +
                             format_count_exact(param_count) + " parameters of the model"};
            return spec.count;
        case TrainableSpec::Kind::percent:
            if (spec.percent.micros > 100 * Decimal::kScale)
                return Error{"trainable", format_decimal(spec.percent) + "% is more than 100%"};
            return round_div(static_cast<u128>(param_count) * spec.percent.micros, 100 * kScale);
    }
    return Error{"trainable", "unknown kind"};
}

ImageProcessor image_processor(const Scenario& s) {
    const bool ollama = s.engine.kind == EngineKind::ollama;
    if (!ollama && s.engine.kind != EngineKind::llama_cpp) return ImageProcessor::transformers;
    ImageProcessor p = ImageProcessor::llama_cpp;
    p.min_tokens = s.engine.image_min_tokens;
    p.max_tokens = s.engine.image_max_tokens;
    p.ollama = ollama;
    return p;
}

const VisionTower& media_tower(const Scenario& s, const Architecture& a) {
    return a.vision.kind == VisionKind::none && s.engine.mmproj && s.engine.mmproj_file ? s.engine.mmproj_file->tower : a.vision;
}

std::uint64_t unquantized_bytes(const Scenario& scenario) { return scenario.qlora && scenario.upcast_nonquantized ? 4 : 2; }

// ---- estimate() ----

namespace {
std::atomic<std::uint64_t> g_estimate_runs{0};
}  // namespace

std::uint64_t estimate_runs() { return g_estimate_runs.load(std::memory_order_relaxed); }

Expected<Estimate> estimate(const Scenario& s) {
    g_estimate_runs.fetch_add(1, std::memory_order_relaxed);
    Build b(s);
    b.arch = s.model ? &s.model->architecture : nullptr;
    if (Status bad = check_seed_inputs(s)) return *bad;
    if (Status bad = engine_setting_problem(s)) return *bad;  // an engine's setting the chosen engine ignores
    if (Status bad = choose_weight_format(b)) return *bad;
    if (Status bad = count_trainable(b)) return *bad;
    if (Status bad = choose_recipe(b)) return *bad;
    Estimate& e = b.e;
    e.param_count = s.param_count;
    e.trainable_count = b.trainable;
    add_weights(b);
    add_mtp_module(b);
    add_training_states(b);
    if (Status bad = add_kv_cache(b)) return *bad;
    if (Status bad = add_recurrent_state(b)) return *bad;
    if (Status bad = add_detailed_inference(b)) return *bad;
    if (Status bad = check_gpu_inputs(s)) return *bad;
    if (Status bad = add_training_peak(b)) return *bad;
    add_totals(e);
    add_comparison(e);
    name_figures(e);
    if (e.training_peak_known) {
        e.training_class = training_class(s.lora_rank > 0, s.qlora, s.gpu_count, s.zero_stage);
        const PeakBand band = training_peak_band(e.training_class);
        e.training_peak_low_bytes = static_cast<std::uint64_t>(round_div(static_cast<u128>(e.training_peak_bytes) * band.low_ppm, 1'000'000));
        e.training_peak_high_bytes = static_cast<std::uint64_t>(round_div(static_cast<u128>(e.training_peak_bytes) * band.high_ppm, 1'000'000));
    }
    if (Status bad = add_gpu_fit(b, s, e)) return *bad;
    return std::move(b.e);
}

// ---- Table lookups ----

const MemoryTerm* find_term(const Estimate& e, std::string_view key) {
    for (const MemoryTerm& t : e.terms)
        if (t.key == key) return &t;
    return nullptr;
}

const MemoryTerm* find_total(const Estimate& e, Total total) {
    for (const MemoryTerm& t : e.terms)
        if (t.total == total) return &t;
    return nullptr;
}

std::vector<const MemoryTerm*> parts_of(const Estimate& e, Total total) {
    std::vector<const MemoryTerm*> parts;
    for (const MemoryTerm& t : e.terms)
        if ((t.adds_to & in_total(total)) != 0) parts.push_back(&t);
    return parts;
}

Total training_peak_phase(const Estimate& e) {
    const MemoryTerm* backward = find_total(e, Total::training_backward);
    const MemoryTerm* step = find_total(e, Total::training_step);
    return backward != nullptr && step != nullptr && step->bytes > backward->bytes ? Total::training_step
                                                                                 : Total::training_backward;
}

Total chosen_inference_total(const Estimate& e) {
    return e.detailed_inference ? Total::detailed_inference : Total::inference;
}

std::uint64_t training_without_weights_bytes(const Estimate& e) {
    std::uint64_t bytes = 0;
    for (const MemoryTerm* part : parts_of(e, Total::training))
        if (part->kind != TermKind::weights) bytes += part->bytes;
    return bytes;
}

std::string mid_sentence_label(std::string label) {
    const std::size_t word_end = std::min(label.find(' '), label.size());
    bool acronym = false;  // "LoRA", "KV": a capital after the first letter keeps the word as it is
    for (std::size_t i = 1; i < word_end; ++i) acronym = acronym || (label[i] >= 'A' && label[i] <= 'Z');
    if (!acronym && !label.empty() && label[0] >= 'A' && label[0] <= 'Z') label[0] = static_cast<char>(label[0] - 'A' + 'a');
    return label;
}

std::string term_formula(const Estimate& e, const MemoryTerm& term) {
    if (!term.formula.empty() || !term.total) return term.formula;
    std::string joined;
    for (const MemoryTerm* part : parts_of(e, *term.total)) {
        std::string name = part->short_label;
        name = mid_sentence_label(name);
        joined += (joined.empty() ? "" : term.combine == Combine::sum ? " + " : ", ") + name;
    }
    return term.combine == Combine::sum ? joined : "the largest of " + joined;
}

}  // namespace llm_memory
