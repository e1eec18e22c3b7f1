// Training as it really runs: the activations saved for the backward pass, the logits and loss buffers,
// and the framework's own memory, per GPU. Pure arithmetic in exact integer bytes (128-bit
// intermediates); estimate() (core/estimator.cpp) turns the figures into rows of the memory-terms table.
//
// Activations follow Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
// Models" (arXiv 2205.05198), Table 2, generalised per shared/research/activations.md section 5 for
// grouped-query attention, gated MLPs, models without dropout and FlashAttention. With 16-bit activations,
// dropout everywhere, MHA, a 4h GeLU MLP and eager attention one layer stores exactly sbh(34 + 5as/h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "choice.hpp"
#include "result.hpp"

namespace llm_memory {

struct Architecture;

// Activation checkpointing. none: keep every tensor the backward pass needs. selective: recompute the
// attention core (QK^T, softmax, dropout, attention over V; Korthikanti sec. 4.2). full: keep each layer's
// input only and recompute the rest of the layer in the backward pass. op_selective: PyTorch's selective
// activation checkpointing with torchtitan's op-level policy (torchtitan's apply_ac, selective_ac_option
// "op"): per layer keep its input, the outputs of every other matmul (the 1st, 3rd, 5th and 7th of q, k,
// v, o, gate, up, down: q, v, gate and down) and the attention kernel's output (with its log-sum-exp);
// recompute the rest in the backward pass.
enum class Recompute : std::uint8_t { none, selective, full, op_selective };
// eager: the a x s x s score tensors are materialised and saved (the fp32 softmax output beside them where the
// model's code upcasts it, as Hugging Face's Llama-style models do); flash (FlashAttention, PyTorch SDPA):
// only the output and the fp32 log-sum-exp per row are saved.
enum class AttentionKernel : std::uint8_t { flash, eager };
// full: the whole b x s x V logits, their fp32 upcast, the fp32 log-softmax cross-entropy saves and its
// gradient (Hugging Face's causal-LM loss).
// chunked: torchtune's CEWithChunkedOutputLoss, 16-bit logits with one of 8 chunks upcast at a time.
// half: no fp32 upcast at all. At the loss's backward four 16-bit tensors of the logits' size are live: the
// logits (kept in the model's output), the log-softmax cross-entropy saved, the loss's gradient and the
// log-softmax's gradient (models whose own code calls CrossEntropyLoss on the half-precision logits, e.g.
// Qwen's first-generation modeling_qwen.py).
enum class LossKind : std::uint8_t { full, chunked, half };
// How PyTorch's Adam/AdamW updates the weights (torch/optim/adam.py and adamw.py; the step's own memory).
// foreach (_multi_tensor_adam/_multi_tensor_adamw, what torch.optim picks on CUDA when neither foreach nor
// fused is given: _default_to_fused_or_foreach(..., use_fused=False)): torch._foreach_sqrt(exp_avg_sqs)
// builds exp_avg_sq_sqrt for every parameter of a (device, dtype) group at once, then divides, adds eps
// and applies it in place: one temporary the size of the second moment. fused (fused=True,
// torch._fused_adamw_): one kernel per chunk of tensors, no temporary.
enum class OptimizerImpl : std::uint8_t { foreach, fused };

// Each enum's one table of words, in enum order: the word the settings read and write, a list label and
// the choice in plain words (the line under a control, a tooltip).
const std::vector<Choice>& recompute_choices();
const std::vector<Choice>& attention_choices();
const std::vector<Choice>& loss_choices();
const std::vector<Choice>& optimizer_impl_choices();

const char* recompute_text(Recompute recompute);        // "none", "selective", "full", "op-selective"
const char* attention_text(AttentionKernel attention);  // "flash", "eager"
const char* loss_text(LossKind loss);                   // "full", "chunked", "half"
const char* optimizer_impl_text(OptimizerImpl impl);    // "foreach", "fused"
// Each choice in plain words, for help text: "full recompute: keep one tensor per layer, ...".
const char* recompute_help(Recompute recompute);
const char* attention_help(AttentionKernel attention);
const char* loss_help(LossKind loss);

// How training runs, as the user sets it (Scenario::training; the settings rows seq-len to grad-accum). The
// defaults, with their sources (README "Training, detailed"): one 2048-token sequence per GPU, no recompute
// (Hugging Face Trainer's gradient_checkpointing=False), FlashAttention/SDPA (Transformers' default
// attention on CUDA), the full causal-LM loss, no model parallelism.
struct TrainingSettings {
    std::uint64_t seq_len = 2048;          // s: tokens per sequence
    std::uint64_t micro_batch = 1;         // b: sequences per step per GPU
    Recompute recompute = Recompute::none;
    AttentionKernel attention = AttentionKernel::flash;
    LossKind loss = LossKind::full;
    std::uint64_t tp = 1;                  // t: tensor-parallel ranks
    bool sp = false;                       // sequence parallel (splits the norm and dropout regions by t)
    std::uint64_t pp = 1;                  // p: pipeline stages, 1F1B schedule
    // ZeRO-3/FSDP over more than one GPU: layers gathered ahead of the one computing (FSDP's default
    // BACKWARD_PRE and FSDP2's implicit prefetch gather one; 0 = none).
    std::uint64_t fsdp_prefetch = 1;
    // Adam/AdamW's implementation: foreach (PyTorch's default on CUDA) keeps one second-moment-sized
    // temporary through the optimizer step; fused keeps none.
    OptimizerImpl optimizer_impl = OptimizerImpl::foreach;
    // Micro-batches whose gradients add up before one optimizer step (Hugging Face's
    // gradient_accumulation_steps). 1: the gradients exist only from the backward pass to the step (the
    // Trainer's model.zero_grad() sets them to None: torch.nn.Module.zero_grad(set_to_none=True) is
    // PyTorch's default since 2.0), so the backward pass's peak does not hold them. More than 1: every
    // gradient is kept through the next micro-batches' backward passes.
    std::uint64_t grad_accum = 1;
};

// What one training step looks like on one GPU: the settings plus what the estimator derives from the
// model and the recipe. Sizes are element counts; bytes are bytes.
struct TrainingShape : TrainingSettings {
    // B: bytes of a saved activation. 2 in bf16/fp16 compute, 4 in fp32, and 4 for QLoRA after PEFT's
    // prepare_model_for_kbit_training: it casts the embeddings and norms to fp32, and bitsandbytes' Linear4bit
    // returns its input's dtype (out.to(inp_dtype)), so the residual stream and the layers stay in fp32.
    std::uint64_t activation_bytes = 2;
    std::uint64_t compute_bytes = 2;       // the compute dtype's bytes (2, or 4 in fp32): logits, gradient bucket
    // Which linear inputs are saved. A full fine-tune keeps every one. With LoRA the base is frozen: a
    // linear keeps its input only for its weight gradient, so only the LoRA-adapted ones keep theirs
    // (PyTorch's autograd saves mm's input only when the weight needs a gradient; bitsandbytes'
    // MatMul4Bit saves (None, B) for a frozen 4-bit weight). FlashAttention keeps its output whatever
    // o_proj does, and the MLP's activation function and product keep their own inputs.
    bool keep_qkv_input = true;   // norm output into q/k/v (LoRA on q, k or v)
    bool keep_out_input = true;   // attention output into o_proj (LoRA on o)
    bool keep_mlp_input = true;   // norm output into gate/up or fc1 (LoRA on gate, up or fc1)
    bool keep_down_input = true;  // product into down_proj or fc2 (LoRA on down or fc2)
};

// One layer's saved activations on one tensor-parallel rank, by part (bytes).
struct LayerActivations {
    std::uint64_t norms = 0;           // the norms' inputs
    std::uint64_t attention = 0;       // QKV input, Q, K, V, the out-projection input, dropout mask
    std::uint64_t attention_core = 0;  // eager: softmax output (+ dropout mask and output); flash: fp32 LSE
    std::uint64_t mlp = 0;             // fc1/gate-up input, the inner activations, dropout mask
    std::uint64_t total() const { return norms + attention + attention_core + mlp; }
};

// The activations of one GPU (the pipeline stage that holds the most) and its logits/loss buffers.
struct TrainingActivations {
    LayerActivations per_layer_sum;     // the stage's layers x micro-batches in flight, by part
    std::uint64_t recompute_live_bytes = 0;  // full or op-selective: one layer rebuilt in the backward pass
    // Eager attention under full or op-selective recompute: beside the rebuilt layer's kept scores (in
    // recompute_live_bytes: 4 + d + B bytes each for Hugging Face's Llama-style softmax in fp32, B + d(1 + B)
    // where it stays in 16 bits, see training.cpp), the probabilities' gradient, c (compute_bytes) per score.
    std::uint64_t recompute_scores_bytes = 0;
    std::uint64_t outside_layers_bytes = 0;  // final norm and output-head inputs (the last stage)
    std::uint64_t activation_bytes = 0;      // all of the above
    std::uint64_t logits_loss_bytes = 0;     // at the loss's backward: saved log-softmax, two gradients (last stage)
    std::uint64_t stage_layers = 0;          // layers on this stage: L / p
    std::uint64_t micro_batches_in_flight = 1;  // 1F1B: p on the first stage, 1 on the last
    bool first_stage = true;                 // which stage holds the most (always true when p = 1)
    std::uint64_t value_bytes = 2;           // B, the bytes of one saved activation
    std::uint64_t compute_bytes = 2;         // the compute dtype's bytes: the logits' (and DeepSpeed's bucket's) width
};

// The largest sequence length accepted (the same limit as the KV cache's context): 10^8 tokens.
inline constexpr std::uint64_t kMaxSeqLen = 100'000'000;
inline constexpr std::uint64_t kMaxMicroBatch = 1'000'000;
inline constexpr std::uint64_t kMaxParallel = 100'000;  // tp, pp
inline constexpr std::uint64_t kMaxFsdpPrefetch = 64;    // layers gathered ahead under ZeRO-3/FSDP
inline constexpr std::uint64_t kMaxGradAccum = 1'000'000;  // gradient accumulation steps
inline constexpr std::uint64_t kMaxZeroBucket = 1'000'000'000'000ULL;  // DeepSpeed reduce_bucket_size, elements
// Activations above this are an error rather than a figure (1 EiB).
inline constexpr std::uint64_t kMaxActivationBytes = 1ULL << 60;

// One layer's saved activations (bytes) for a dense or MoE layer of `arch`. Errors: tp that does not
// divide the attention heads, a figure above kMaxActivationBytes. `moe_layer` picks the routed-expert
// MLP (k routed experts per token + the shared experts) instead of the dense one.
Expected<LayerActivations> layer_activations(const Architecture& arch, const TrainingShape& shape, bool moe_layer);

// The activations and logits/loss of the GPU that holds the most. 1F1B: the first stage keeps p
// micro-batches of L/p layers (L layers' worth, Korthikanti sec. 4.2.3); the last keeps one
// micro-batch plus the logits; the larger of the two is returned. Errors name the setting: seq-len or
// micro-batch above their limits or zero, tp not dividing the heads, pp above or not dividing the layers.
Expected<TrainingActivations> training_activations(const Architecture& arch, const TrainingShape& shape);

// The class of a training run, for its band: sharded (more than one GPU under ZeRO/FSDP), else QLoRA, LoRA
// or full (one GPU or plain data parallel).
enum class TrainingClass : std::uint8_t { full, lora, qlora, sharded };
const char* training_class_text(TrainingClass klass);  // "full", "LoRA", "QLoRA", "sharded"
TrainingClass training_class(bool lora, bool qlora, std::uint64_t gpu_count, int zero_stage);

// Where a measured peak of this class lands around our figure: multipliers of the estimate in parts per
// million (low <= 1,000,000 <= high), from the 10th and 90th percentile errors of the class's rows in the
// reality table (tests/fixtures/reality.json) used while fitting; scripts/reality_table.py --band prints
// them and tests/cli/reality_test.py checks that these constants are what the table gives.
struct PeakBand {
    std::uint64_t low_ppm = 1'000'000;
    std::uint64_t high_ppm = 1'000'000;
};
PeakBand training_peak_band(TrainingClass klass);

// Which figure `fit` keeps within the GPU on the training side when the peak is known. safe: the band's
// high end, so the longest sequence (largest micro-batch, fewest GPUs) it answers fits even when the run
// lands there; typical: the estimate itself. The settings row "confidence" reads the words.
enum class FitConfidence : std::uint8_t { safe, typical };
const std::vector<Choice>& confidence_choices();      // in enum order: "safe", "typical"
const char* confidence_text(FitConfidence confidence);  // "safe", "typical"

// The framework's memory when not given: a CUDA context of 512 MiB (PyTorch >= 2.1 with lazy module
// loading measured 0.47 GB; stas00/ml-engineering, training/performance) plus 1.5 GiB for torch.distributed
// and NCCL ("~1-2GB", same source) whenever a process group runs: more than one GPU, or ZeRO/FSDP on one.
// DeepSpeed's initialize starts NCCL on a single GPU too (init_distributed in deepspeed/__init__.py), and
// its engine's _broadcast_model, the first collective, creates the communicator; FSDP needs a process group.
std::uint64_t default_framework_overhead_bytes(std::uint64_t world_size, int zero_stage);
inline constexpr std::uint64_t kCudaContextBytes = 512ULL << 20;
inline constexpr std::uint64_t kNcclBytes = 3ULL << 29;  // 1.5 GiB

}  // namespace llm_memory
