// The seed's memory model: Scenario in, Estimate out, deterministic and exact in integer bytes.
//   weight memory             = N x b
//   inference total           = weight memory x overhead factor (1.2)
//   gradient+optimizer memory = N_trainable x k x bytes per value (k = 3, 2 bytes: the seed's Adam)
//   training total            = weight memory + gradient+optimizer memory
// Byte figures are rounded half up once, from the exact product, only when b or a factor is fractional.
//
// Sections: Scenario (the inputs) · the memory-terms table (MemoryTerm, Total) · Estimate · estimate().
//
// The output side is one table, as the input side is (core/settings.hpp). Every figure of an Estimate is a
// row of Estimate::terms, in display order; a total is a row whose bytes are the sum (or the max) of the
// rows that add to it, computed from the table. The reports (table, Markdown, summary, JSON), the worked
// steps, practice and the app's results, bars and before/after views loop over the rows and never list
// terms by hand. Adding a memory term therefore means:
//   1. a named step in estimator.cpp pushes its row (key, label, formula, bytes, kind, totals it adds to);
//   2. optionally a worked derivation for its key (core/steps.cpp; totals derive themselves from their parts);
//   3. its inputs, if any, are settings rows (core/settings.cpp).
// Every report, total, chart, JSON key ("<key>_bytes") and practice diagnosis then follows.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine_settings.hpp"
#include "gpus.hpp"
#include "recipes.hpp"
#include "training.hpp"
#include "vision.hpp"

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

// ---- Scenario ----

// The inputs of the seed's model. Defaults are the seed's 13B example.
struct Scenario {
    std::uint64_t param_count = 13'000'000'000ULL;       // N
    Decimal bytes_per_param = Decimal::from_int(2);      // b
    // A model file's exact weight bytes and the N they belong to (apply_file_model sets both; 0 = none).
    // While N and b are still the file's, the weights are these bytes, not N x b rounded to six places.
    std::uint64_t file_weight_bytes = 0;
    std::uint64_t file_param_count = 0;
    Decimal overhead_factor = Decimal{1'200'000};        // 1.2
    TrainableSpec trainable;                             // default: every parameter
    Decimal values_per_trainable = Decimal::from_int(3); // k
    Decimal bytes_per_value = Decimal::from_int(2);      // bytes per stored value
    // The model N came from (a preset or a config.json), or null when N was typed in. When set,
    // param_count == model->counts.total_count (the settings "model" key keeps them in step, and
    // typing a different N clears it). Reports add its breakdown; KV-cache/LoRA read its architecture.
    std::shared_ptr<const ModelSource> model;

    // How it runs. The defaults reproduce the seed's figures exactly.
    std::string dtype;                 // weight format key (core/formats.hpp); "" = use bytes_per_param
    std::string recipe = "seed-adam";  // training recipe (core/recipes.hpp); seed-adam = k x bytes per value
    std::uint64_t lora_rank = 0;       // > 0: LoRA; trainable = the adapter's count (needs `model`)
    std::string lora_targets = "q,v";  // PEFT target modules: q,k,v,o,gate,up,down or all-linear
    bool qlora = false;                // QLoRA: the frozen base in 4-bit NF4 (double quant unless dtype=nf4)
    // QLoRA: the parameters left unquantized (embeddings, output head, norms) in fp32, as PEFT's
    // prepare_model_for_kbit_training casts every 16-bit parameter that is not 4-bit (its default path for
    // bitsandbytes); false keeps them in 16 bits (torchtune, LitGPT, a GPTQ base, which PEFT leaves alone).
    bool upcast_nonquantized = true;
    // LoRA/QLoRA: the adapter's weights in fp32 (PEFT >= 0.12 casts fp16/bf16 adapters to fp32 by default:
    // get_peft_model's autocast_adapter_dtype=True, tuners_utils.cast_adapter_dtype), so their gradients and
    // AdamW states are fp32 too and need no fp32 master copy; false keeps them 16-bit (torchtune, LitGPT,
    // PEFT before 0.12, a model DeepSpeed or FSDP casts to bf16 whole).
    bool adapter_fp32 = true;
    std::uint64_t context_tokens = 0;  // KV-cache tokens per sequence; 0 = no KV cache (needs `model`)
    bool text_only = false;            // the model without its vision tower (the settings keep `model` in step)
    std::uint64_t image_count = 0;     // images per sequence: each adds the family's image tokens to the context
    std::uint64_t image_width = 0;     // pixels (--image-size W x H); needed with image_count > 0
    std::uint64_t image_height = 0;
    std::uint64_t audio_seconds = 0;   // one audio clip per sequence (--audio-seconds): its tokens join the context
    std::uint64_t batch_size = 1;      // sequences decoded together
    std::string kv_dtype = "fp16";     // KV-cache format (core/formats.hpp)
    bool detailed_inference = false;   // inference-mode: simple (weights x overhead) or detailed
    std::string gpu;                   // GPU catalogue key (core/gpus.hpp); "" = none
    std::uint64_t gpu_memory_bytes = 0;  // custom capacity per GPU; > 0 replaces the catalogue's
    std::uint64_t gpu_count = 1;       // GPUs the model states are spread over
    int zero_stage = 0;                // ZeRO/FSDP stage 0-3
    // fit's training answers: at the peak band's high end (safe, the default) or at the peak (typical).
    FitConfidence fit_confidence = FitConfidence::safe;
    // How the inference total is split over the GPUs (llama.cpp --tensor-split): one proportion per GPU;
    // empty = an even split. Each card's share is checked against its memory (GpuFit::inference_cards).
    std::vector<Decimal> tensor_split;

    // Training as it runs (training-mode detailed; the GPU verdict also uses it whenever a model is known):
    // the detailed mode, the step's shape (training.hpp, defaults and their sources there), the framework's
    // memory from training.hpp's default_framework_overhead_bytes and a 10% caching-allocator margin.
    bool detailed_training = false;    // training-mode: simple (the seed's total) or detailed (+ peak)
    TrainingSettings training;         // seq-len, micro-batch, recompute, attention, loss, tp, sp, pp, fsdp-prefetch
    bool framework_overhead_auto = true;   // true: CUDA context + NCCL from the GPU count
    std::uint64_t framework_overhead_bytes = 0;  // when not auto: per GPU
    Decimal allocator_margin_percent = Decimal::from_int(10);  // of activations + logits/loss
    // DeepSpeed ZeRO's gradient bucket (reduce_bucket_size, elements; 0 = none, as PyTorch FSDP/DDP have)
    // and overlap_comm, which doubles it at stages 1-2 (DeepSpeed's default: off there, on at stage 3).
    std::uint64_t zero_bucket_elements = 0;
    bool overlap_comm = false;

    // The inference engine and its settings (core/engines/ reads them; the estimate above ignores them).
    EngineSettings engine;
};

// One stored value of the training recipe, for the whole trainable count.
struct TrainingComponent {
    std::string name;                  // "master weights (fp32)"
    std::uint64_t bytes_per_trainable_pico = 0;  // per trainable parameter, x 10^12
    std::uint64_t bytes = 0;           // N_trainable x bytes per trainable, rounded once
    StateKind kind = StateKind::optimizer;
};

// One GPU's share of a split total and its verdict (per card, never the pooled memory).
struct CardFit {
    std::uint64_t bytes = 0;           // this card's share (the split's shares add up to the total exactly)
    FitVerdict verdict = FitVerdict::fits;
    std::uint64_t margin_bytes = 0;    // capacity - share when it fits, else share - capacity
};

// Whether the estimate fits the chosen GPU(s). Training: the training peak per GPU whenever a model is
// known (model states + activations + logits/loss + framework + allocator margin), else the model states
// alone (weights, gradients, optimizer states); inference is the chosen inference total split evenly.
struct GpuFit {
    bool requested = false;            // a GPU or a custom capacity was given
    std::uint64_t capacity_bytes = 0;  // per GPU
    std::uint64_t gpu_count = 1;
    int zero_stage = 0;
    ModelStates training_states;       // whole model states (weights incl. adapter, gradients, optimizer)
    ModelStates training_per_gpu;      // per GPU under the stage (and divided by tp x pp)
    bool training_uses_peak = false;   // the verdict below is on training_peak_per_gpu_bytes
    std::uint64_t training_peak_per_gpu_bytes = 0;  // the training peak (0 without a model)
    std::uint64_t training_peak_high_per_gpu_bytes = 0;  // the band's high end (0 without a model)
    bool training_fit_at_high = false;  // fit answers on the high end (a peak, and confidence safe)
    // On the peak: does_not_fit when the peak is over, tight ("fits unless the run lands at the high end")
    // when only the band's high end is over, fits otherwise.
    FitVerdict training_verdict = FitVerdict::fits;
    std::uint64_t training_margin_bytes = 0;     // capacity - per GPU when it fits, else per GPU - capacity
    std::uint64_t training_gpus_needed = 0;      // fewest GPUs at this stage (a multiple of tp x pp); 0 = none suffices
    std::uint64_t inference_per_gpu_bytes = 0;   // the fullest card's share: ceil(inference total / gpu_count) when even
    FitVerdict inference_verdict = FitVerdict::fits;
    std::uint64_t inference_margin_bytes = 0;
    std::uint64_t inference_gpus_needed = 0;     // ceil(inference total / capacity)
    std::vector<CardFit> inference_cards;        // per GPU (gpu_count > 1 only): its share of the inference total
};

// ---- The memory-terms table ----

// The totals a term can add to. The simple inference total is weights + overhead margin (= weights x the
// overhead factor); the detailed one adds the KV cache, activations and a runtime reserve. The training peak
// is the larger of its two phases' peaks: the backward pass's (model states without the gradients unless
// gradient accumulation keeps them, activations, logits and loss, ...) and the optimizer step's (weights,
// gradients, optimizer states and the update's temporary).
enum class Total : std::uint8_t { inference, detailed_inference, training, training_peak, training_backward, training_step };
using TotalSet = std::uint32_t;  // a set of Totals, one bit each
constexpr TotalSet in_total(Total total) { return TotalSet{1} << static_cast<unsigned>(total); }

// How a total combines the rows that add to it: their sum, or the largest of them (a peak).
enum class Combine : std::uint8_t { sum, max };

// What a row is, for views that group rows (practice's "training without the weights" is every part of
// the training total that is not `weights`).
enum class TermKind : std::uint8_t {
    weights,     // model or adapter weights
    state,       // gradients and optimizer states
    runtime,     // memory used while running: overhead margin, KV cache, activations, reserve
    total,       // a total (Total)
    comparison,  // a figure that compares scenarios (all trainable vs now); adds to no total
};

// Where report_json writes a row as "<key>_bytes": not at all, among the seed's figures at the top of the
// object (always present), or after the model with its feature's other keys (present while in use).
enum class JsonPlace : std::uint8_t { none, top, feature };

// One row of the table: one figure of the estimate.
struct MemoryTerm {
    std::string key;             // stable: "weight"; JSON "weight_bytes"; worked-steps id "weight"
    std::string label;           // "Weight memory": reports and the results panel
    std::string short_label;     // "Weights": bar segments, summary strip, before/after
    std::string formula;         // "N × b"; "" on a total means its parts joined ("weights + KV cache")
    std::uint64_t bytes = 0;
    std::uint64_t all_trainable_bytes = 0;  // this row with every parameter trainable (before/after)
    TermKind kind = TermKind::runtime;
    TotalSet adds_to = 0;        // the totals this row is a part of
    std::optional<Total> total;  // set on the row that is this total
    Combine combine = Combine::sum;  // how that total combines its parts
    bool part = false;           // a share of the row above (a recipe's stored value): indented, adds to nothing
    bool headline = false;       // one of the seed's four results (the summary strip)
    bool in_report = true;       // a line of the text reports and the results panel
    JsonPlace json = JsonPlace::feature;
};

// ---- Estimate ----

// The seed's four results, plus the comparison with training every parameter. The named byte fields are
// the rows of `terms` by name (set from the table, so the two cannot disagree).
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

    // How it runs; zero / empty when the feature is not in use.
    std::string weight_format;               // format key used for N x b ("" = the seed's b); "nf4_dq" for QLoRA
    // Decoder linear weights in the quantized format (QLoRA's NF4, GPTQ, AWQ), the rest at unquantized_bytes()
    // each; 0 when every weight has the format's size.
    std::uint64_t quantized_linear_count = 0;
    std::uint64_t lora_trainable_count = 0;  // LoRA adapter parameters (equals trainable_count with LoRA)
    std::uint64_t adapter_weight_bytes = 0;  // the adapter's own weights (fp32 or 16-bit), in training_bytes
    bool adapter_fp32 = false;               // LoRA with fp32 adapters: 4-byte weights, fp32 gradients and states
    std::vector<TrainingComponent> training_components;  // the recipe's values; they sum to gradient+optimizer
    std::uint64_t kv_cache_bytes = 0;        // 2 x layers x kv_heads x head_dim x tokens x batch x bytes (or MLA)
    std::uint64_t image_tokens = 0;          // image_count x the family's tokens per image, added to the cached tokens
    std::uint64_t audio_tokens = 0;          // the audio clip's tokens (audio_seconds), added to the cached tokens
    std::uint64_t inference_activation_bytes = 0;  // detailed inference: one layer's prefill activations + last logits
    std::uint64_t runtime_reserve_bytes = 0; // detailed inference: CUDA context and allocator allowance
    std::uint64_t detailed_inference_bytes = 0;  // detailed mode: weights + KV + activation + reserve
    bool detailed_inference = false;         // which inference total the GPU verdict used
    // Training as it runs, per GPU (the pipeline stage that holds the most); zero without a model.
    bool detailed_training = false;          // training-mode detailed: the rows below are shown
    bool training_peak_known = false;        // the peak was computed (a model is known)
    TrainingActivations training_activations;  // the activation breakdown behind activation_bytes
    std::uint64_t training_activation_bytes = 0;   // saved activations (JSON activation_bytes)
    std::uint64_t logits_loss_bytes = 0;     // logits and loss buffers
    std::uint64_t framework_overhead_bytes = 0;  // CUDA context and NCCL
    std::uint64_t allocator_margin_bytes = 0;    // caching allocator's margin
    // ZeRO-3/FSDP over more than one GPU: (1 + fsdp_prefetch) x one layer's weights + one layer's
    // gradients, per GPU (its parts are kept for the worked steps); 0 otherwise.
    std::uint64_t zero3_gathered_bytes = 0;
    std::uint64_t zero3_layer_weight_bytes = 0;
    std::uint64_t zero3_layer_gradient_bytes = 0;
    // DeepSpeed ZeRO (stage >= 1, one GPU too): buffers x reduce_bucket_size x B; 0 otherwise.
    std::uint64_t zero_bucket_bytes = 0;
    std::uint64_t zero_bucket_buffers = 0;   // 2 with overlap_comm at stages 1-2, else 1
    // QLoRA: the largest 4-bit linear dequantized to 16 bits (in x out x 2 bytes / tp); 0 otherwise.
    std::uint64_t dequant_workspace_bytes = 0;
    std::uint64_t dequant_linear_elements = 0;
    // Adam/AdamW foreach's optimizer-step temporary (exp_avg_sq_sqrt: one second moment's size), per GPU; 0
    // when fused, or for a recipe without Adam's second moment in torch (SGD, 8-bit Adam, k x b values).
    std::uint64_t optimizer_temp_bytes = 0;
    std::uint64_t training_backward_peak_bytes = 0;  // per GPU: the backward pass's peak
    std::uint64_t training_step_peak_bytes = 0;      // per GPU: the optimizer step's peak
    std::uint64_t training_peak_bytes = 0;   // per GPU: the larger of the two phases' peaks
    // Where a real run of this class measures around the peak (training_peak_band: the reality table's
    // errors for its class); low <= peak <= high; zero without a peak.
    TrainingClass training_class = TrainingClass::full;
    std::uint64_t training_peak_low_bytes = 0;
    std::uint64_t training_peak_high_bytes = 0;
    GpuFit gpu;

    std::vector<MemoryTerm> terms;           // every figure above as a row, in display order
};

// The row with this key, or nullptr (rows of features not in use are absent).
const MemoryTerm* find_term(const Estimate& estimate, std::string_view key);
// The row that is this total, or nullptr when that total is not in use (detailed inference off).
const MemoryTerm* find_total(const Estimate& estimate, Total total);
// The rows that add to a total, in table order.
std::vector<const MemoryTerm*> parts_of(const Estimate& estimate, Total total);
// The training peak's phase that peaks: training_backward, or training_step when the optimizer step's peak
// is the larger (ties go to the backward pass). Its parts are the peak's terms (bars, JSON).
Total training_peak_phase(const Estimate& estimate);
// The chosen inference total: detailed in detailed mode, else simple.
Total chosen_inference_total(const Estimate& estimate);
// The training total without the weights: every part of the training total that is not `weights`.
std::uint64_t training_without_weights_bytes(const Estimate& estimate);

// Bytes each parameter takes that a quantized format leaves alone (embeddings, head, norms): 4 under QLoRA
// with PEFT's fp32 upcast, else 2 (a GPTQ or AWQ checkpoint stores them in 16 bits).
std::uint64_t unquantized_bytes(const Scenario& scenario);
// Whose processor turns the scenario's images into tokens: llama.cpp's mtmd under llama.cpp and Ollama (with
// --image-min-tokens and --image-max-tokens, and Ollama's own minimum for Qwen-VL), else the repo's transformers
// processor (vLLM runs that one too).
ImageProcessor image_processor(const Scenario& scenario);

// The tower that sizes the scenario's images and audio: the model's, or, for a model without one (read from a GGUF),
// the projector file llama.cpp loads beside it (--mmproj FILE).
const VisionTower& media_tower(const Scenario& scenario, const Architecture& architecture);
// A label as it reads mid-sentence: "Weight memory" -> "weight memory"; "KV cache", "LoRA adapter" unchanged.
std::string mid_sentence_label(std::string label);
// A row's formula as shown: its own, or for a total its parts' short labels joined ("weights + KV cache").
std::string term_formula(const Estimate& estimate, const MemoryTerm& term);

// The inference total of the chosen mode: detailed_inference_bytes in detailed mode, else inference_bytes.
inline std::uint64_t chosen_inference_bytes(const Estimate& e) {
    return e.detailed_inference ? e.detailed_inference_bytes : e.inference_bytes;
}

// Detailed mode's runtime reserve: 1 GiB, a round allowance for the CUDA context, library workspaces and
// allocator slack (not measured; a CUDA context alone typically takes a few hundred MiB).
inline constexpr std::uint64_t kRuntimeReserveBytes = 1ULL << 30;

// Resolves the trainable spec against N: a percentage is rounded half up to a whole count.
// Errors: count above N, percentage above 100.
Expected<std::uint64_t> resolve_trainable(const TrainableSpec& spec, std::uint64_t param_count);

// ---- estimate() ----

// Checks every field (the message names the field as the CLI spells it) and computes the estimate.
// Errors: params zero or above 10^15, bytes zero or above 64, overhead below 1 or above 100,
// trainable above params, k above 100, state-bytes zero or above 64; unknown dtype, recipe, kv-dtype or
// gpu; lora-rank or context without a model architecture; qlora without lora-rank or with a non-NF4
// dtype; gpus 0 or above 100000; zero above 3; a tensor-split whose parts are not one per GPU.
Expected<Estimate> estimate(const Scenario& scenario);

// How many times estimate() has run in this process: tests check that an edit, a link or --state is
// estimated once.
std::uint64_t estimate_runs();

}  // namespace llm_memory
