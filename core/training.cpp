// Training activations, logits/loss and framework memory (see training.hpp for the model and sources).
// Every figure is exact in 128-bit arithmetic; a division by the tensor-parallel size rounds up.
#include "training.hpp"

#include <algorithm>

#include "architecture.hpp"
#include "quantity.hpp"

namespace llm_memory {
namespace {


u128 ceil_div(u128 n, u128 d) { return (n + d - 1) / d; }

// Bytes eager attention keeps per score. Hugging Face's eager attention for Llama-style models
// (eager_attention_forward: softmax(..., dtype=torch.float32).to(query.dtype)) keeps the fp32 softmax output
// (its backward needs it), the dropout mask where there is one, and the 16-bit tensor the product with V
// keeps: 4 + d + B. OPT's code upcast only fp16 (in bf16 this counts 4 bytes a score it did not keep).
// GPT-2's and Falcon's softmax (softmax(..., dtype=hidden_states.dtype)) stays in the activations' dtype, as
// Megatron's kernel does (Korthikanti's 5as^2b): the softmax output, the dropout mask and its output, B + d(1 + B).
u128 eager_score_bytes(const Architecture& arch, u128 big_b) {
    const u128 d = arch.attention_dropout ? 1 : 0;
    if (is_one_of(arch.family, {ModelFamily::gpt2, ModelFamily::falcon})) return big_b + d * (1 + big_b);
    return 4 + d + big_b;
}

std::string big_error() {
    return "the activations come to more than 1 EiB; lower seq-len or micro-batch";
}

// What torchtitan's op-level policy keeps of one layer beside its input, by part (bytes, this TP rank).
struct OpSelectiveLayer {
    u128 attention = 0;  // q and v projections' outputs, the attention output and its fp32 log-sum-exp
    u128 mlp = 0;        // the gate projection's output (width I) and the down projection's output (width h)
};

OpSelectiveLayer op_selective_layer(const Architecture& arch, const TrainingShape& shape, bool moe_layer) {
    const u128 t = shape.tp;
    const u128 big_b = shape.activation_bytes;
    const u128 sb = static_cast<u128>(shape.seq_len) * shape.micro_batch;
    const u128 q_heads = arch.num_attention_heads / shape.tp;
    const u128 kv_total = arch.num_key_value_heads == 0 ? arch.num_attention_heads : arch.num_key_value_heads;
    const u128 kv_heads = std::max<u128>(1, kv_total / t);
    u128 qk_dim = arch.head_dim;
    u128 v_dim = arch.head_dim;
    if (arch.uses_mla()) {
        qk_dim = static_cast<u128>(arch.qk_nope_head_dim) + arch.qk_rope_head_dim;
        v_dim = arch.v_head_dim;
    }
    const u128 v_heads = arch.uses_mla() ? q_heads : kv_heads;
    OpSelectiveLayer out;
    // The attention output and its fp32 log-sum-exp are kept only from the flash/efficient kernels (eager
    // attention's matmuls are batched, not aten.mm, so they are recomputed).
    out.attention = big_b * sb * (q_heads * qk_dim + v_heads * v_dim) +
                    (shape.attention == AttentionKernel::flash ? big_b * sb * q_heads * v_dim + q_heads * sb * 4 : 0);
    u128 width = arch.intermediate_size;
    if (moe_layer)
        width = static_cast<u128>(arch.moe_intermediate_size) * std::max<std::uint64_t>(1, arch.num_experts_per_tok) +
                arch.shared_expert_intermediate_size;
    out.mlp = big_b * (ceil_div(sb * width, t) + sb * arch.hidden_size);
    return out;
}

}  // namespace

const std::vector<Choice>& recompute_choices() {
    static const std::vector<Choice> kChoices = {
        {"none", "none: keep every tensor the backward pass needs",
         "no recompute: keep every tensor the backward pass needs (most memory, no extra compute)"},
        {"selective", "selective: recompute the attention scores",
         "selective recompute: recompute the attention scores in the backward pass (Korthikanti: about 3% more compute)"},
        {"full", "full: keep one tensor per layer, recompute the rest",
         "full recompute: keep one tensor per layer, recompute the rest in the backward pass (about a third more compute)"},
        {"op-selective", "op-selective: torchtitan's policy, every other matmul's output kept",
         "op-selective recompute (torchtitan's policy): keep the layer input, every other matmul's output and the "
         "attention output; recompute the rest"},
    };
    return kChoices;
}

const std::vector<Choice>& attention_choices() {
    static const std::vector<Choice> kChoices = {
        {"flash", "flash: FlashAttention / SDPA, no s x s scores kept",
         "flash attention (FlashAttention, PyTorch SDPA): the s x s scores are never stored, only one number per row"},
        {"eager", "eager: softmax scores kept",
         "eager attention: the softmax scores (heads x s x s per sequence) are kept for the backward pass"},
    };
    return kChoices;
}

const std::vector<Choice>& loss_choices() {
    static const std::vector<Choice> kChoices = {
        {"full", "full: fp32 over all logits at once",
         "full loss: the fp32 log-softmax of all logits and two gradients at once (Hugging Face's causal-LM loss)"},
        {"chunked", "chunked: fp32 one chunk of 8 at a time",
         "chunked loss: 16-bit logits, the fp32 loss computed one chunk of 8 at a time (torchtune)"},
        {"half", "half: 16-bit throughout, no fp32 copy",
         "half loss: no fp32 copy; the saved 16-bit log-softmax and two gradients (Qwen's first-generation code)"},
    };
    return kChoices;
}

const std::vector<Choice>& optimizer_impl_choices() {
    static const std::vector<Choice> kChoices = {
        {"foreach", "foreach: PyTorch's default, one state-sized temporary in the step",
         "foreach (PyTorch's default on CUDA): the step computes sqrt(v) for every parameter at once, one temporary "
         "the size of Adam's second moment"},
        {"fused", "fused: fused=True, no temporary",
         "fused (fused=True, torchtune's configs): one kernel updates the weights in place, no temporary"},
    };
    return kChoices;
}

const char* recompute_text(Recompute recompute) { return recompute_choices()[static_cast<std::size_t>(recompute)].word.c_str(); }
const char* attention_text(AttentionKernel attention) { return attention_choices()[static_cast<std::size_t>(attention)].word.c_str(); }
const char* loss_text(LossKind loss) { return loss_choices()[static_cast<std::size_t>(loss)].word.c_str(); }
const char* optimizer_impl_text(OptimizerImpl impl) {
    return optimizer_impl_choices()[static_cast<std::size_t>(impl)].word.c_str();
}
const char* recompute_help(Recompute recompute) { return recompute_choices()[static_cast<std::size_t>(recompute)].help.c_str(); }
const char* attention_help(AttentionKernel attention) { return attention_choices()[static_cast<std::size_t>(attention)].help.c_str(); }
const char* loss_help(LossKind loss) { return loss_choices()[static_cast<std::size_t>(loss)].help.c_str(); }

Expected<LayerActivations> layer_activations(const Architecture& arch, const TrainingShape& shape, bool moe_layer) {
    const u128 t = shape.tp;
    const std::uint64_t heads = arch.num_attention_heads;
    if (heads == 0 || heads % shape.tp != 0)
        return Error{"tp", std::to_string(shape.tp) + " does not divide the model's " + std::to_string(heads) +
                               " attention heads (each tensor-parallel rank holds whole heads)"};
    const u128 big_b = shape.activation_bytes;
    const u128 sb = static_cast<u128>(shape.seq_len) * shape.micro_batch;
    const u128 h = arch.hidden_size;
    const u128 sbh = sb * h;
    const u128 dropout_hidden = arch.hidden_dropout ? 1 : 0;
    // The norm and dropout regions are replicated on every TP rank unless sequence parallel splits them.
    auto replicated = [&](u128 bytes) { return shape.sp ? ceil_div(bytes, t) : bytes; };

    // Per-rank head widths. K and V heads are replicated when there are fewer of them than ranks
    // (Megatron-LM does the same for GQA with tp > kv heads).
    const u128 q_heads = heads / shape.tp;
    const u128 kv_total = arch.num_key_value_heads == 0 ? heads : arch.num_key_value_heads;
    const u128 kv_heads = std::max<u128>(1, kv_total / t);
    u128 qk_dim = arch.head_dim;
    u128 v_dim = arch.head_dim;
    if (arch.uses_mla()) {  // MLA: the decompressed per-head keys and values (DeepSeek-V2 training path)
        qk_dim = static_cast<u128>(arch.qk_nope_head_dim) + arch.qk_rope_head_dim;
        v_dim = arch.v_head_dim;
    }
    const u128 k_heads = arch.uses_mla() ? q_heads : kv_heads;

    LayerActivations out;
    // c: the compute dtype's bytes. It equals B except for QLoRA under PEFT's upcast (B = 4, c = 2), where
    // the residual stream, the norms and the MLP's own tensors are fp32, but autocast saves 16-bit copies
    // for the matmuls: the LoRA linears' inputs, the attention's Q, K, V and its output.
    const u128 c = shape.compute_bytes;
    const u128 norms = replicated(static_cast<u128>(arch.norms_per_layer) * big_b * sbh);
    // QKV input (c sbh) and the dropout mask after attention (1 byte per element), then Q, K, V and the
    // out-projection input on this rank.
    const bool keep_out = shape.keep_out_input || shape.attention == AttentionKernel::flash;
    const u128 attention = replicated((shape.keep_qkv_input ? c * sbh : 0) + dropout_hidden * sbh) +
                           c * sb * (q_heads * qk_dim + k_heads * qk_dim + k_heads * v_dim + (keep_out ? q_heads * v_dim : 0));
    u128 core = 0;
    if (shape.recompute != Recompute::selective) {
        if (shape.attention == AttentionKernel::eager) {
            core = q_heads * static_cast<u128>(shape.seq_len) * sb * eager_score_bytes(arch, c);
        } else {
            core = q_heads * sb * 4;  // FlashAttention keeps one fp32 log-sum-exp per row and head
        }
    }
    // MLP: its input and dropout mask, then the inner activations on this rank. Non-gated: the activation
    // function's input and fc2's input (2 tensors of width I). Gated (SwiGLU/GeGLU, unfused): gate output,
    // up output, act(gate) and their product (4 tensors of width I).
    u128 width = arch.intermediate_size;
    bool gated = arch.gated_mlp;
    if (moe_layer) {
        width = static_cast<u128>(arch.moe_intermediate_size) * std::max<std::uint64_t>(1, arch.num_experts_per_tok) +
                arch.shared_expert_intermediate_size;
        gated = true;
    }
    const u128 inner = ceil_div(sb * width, t) * (big_b * (gated ? 3 : 1) + (shape.keep_down_input ? c : 0));
    const u128 mlp = replicated((shape.keep_mlp_input ? c * sbh : 0) + dropout_hidden * sbh) + inner;
    const u128 total = norms + attention + core + mlp;
    if (total > kMaxActivationBytes) return Error{"seq-len", big_error()};
    out.norms = static_cast<std::uint64_t>(norms);
    out.attention = static_cast<std::uint64_t>(attention);
    out.attention_core = static_cast<std::uint64_t>(core);
    out.mlp = static_cast<std::uint64_t>(mlp);
    return out;
}

Expected<TrainingActivations> training_activations(const Architecture& arch, const TrainingShape& shape) {
    if (shape.seq_len == 0) return Error{"seq-len", "must be at least 1"};
    if (shape.seq_len > kMaxSeqLen) return Error{"seq-len", too_large(kMaxSeqLen, "100M tokens")};
    if (shape.micro_batch == 0) return Error{"micro-batch", "must be at least 1"};
    if (shape.micro_batch > kMaxMicroBatch) return Error{"micro-batch", too_large(kMaxMicroBatch)};
    if (shape.tp == 0) return Error{"tp", "must be at least 1"};
    if (shape.tp > kMaxParallel) return Error{"tp", too_large(kMaxParallel)};
    if (shape.pp == 0) return Error{"pp", "must be at least 1"};
    const std::uint64_t layers = arch.num_hidden_layers;
    if (shape.pp > layers)
        return Error{"pp", std::to_string(shape.pp) + " pipeline stages is more than the model's " + std::to_string(layers) +
                               " layers (each stage needs at least one)"};
    if (layers % shape.pp != 0)
        return Error{"pp", std::to_string(shape.pp) + " does not divide the model's " + std::to_string(layers) +
                               " layers (1F1B stages hold equal numbers of layers, as Megatron-LM requires)"};
    const u128 t = shape.tp;
    const u128 big_b = shape.activation_bytes;
    const u128 c = shape.compute_bytes;  // 16-bit copies under autocast, the logits (see layer_activations)
    const u128 sb = static_cast<u128>(shape.seq_len) * shape.micro_batch;
    const u128 sbh = sb * arch.hidden_size;
    const std::uint64_t per_stage = layers / shape.pp;
    auto replicated = [&](u128 bytes) { return shape.sp ? ceil_div(bytes, t) : bytes; };

    // One stage: `count` layers starting at `first`, `in_flight` micro-batches.
    struct Stage { u128 norms = 0, attention = 0, core = 0, mlp = 0, live = 0, scores = 0, outside = 0, logits = 0; u128 total() const {
        return norms + attention + core + mlp + live + scores + outside + logits; } };
    auto stage = [&](std::uint64_t first, std::uint64_t count, u128 in_flight, bool last) -> Expected<Stage> {
        Stage st;
        for (std::uint64_t layer = first; layer < first + count; ++layer) {
            const Expected<LayerActivations> one = layer_activations(arch, shape, arch.layer_is_moe(layer));
            if (!one) return one.failure();
            if (shape.recompute == Recompute::full) {
                st.norms += in_flight * replicated(big_b * sbh);  // the layer's input, kept (Table 2: 2sbh)
            } else if (shape.recompute == Recompute::op_selective) {
                // torchtitan's op-level policy: save the outputs of mm and of the flash/efficient attention
                // kernels, except every second mm. A layer's mms run q, k, v, o, gate (w1), up (w3), down (w2):
                // the 1st, 3rd, 5th and 7th are kept (q, v, gate, down), with the attention output and its fp32
                // log-sum-exp, and the layer's input as the checkpoint's own.
                const OpSelectiveLayer kept = op_selective_layer(arch, shape, arch.layer_is_moe(layer));
                st.norms += in_flight * replicated(big_b * sbh);
                st.attention += in_flight * kept.attention;
                st.mlp += in_flight * kept.mlp;
            } else {
                st.norms += in_flight * one->norms;
                st.attention += in_flight * one->attention;
                st.core += in_flight * one->attention_core;
                st.mlp += in_flight * one->mlp;
            }
        }
        if (shape.recompute == Recompute::full || shape.recompute == Recompute::op_selective) {
            // The backward pass rebuilds one layer's activations at a time, without recompute.
            TrainingShape none = shape;
            none.recompute = Recompute::none;
            u128 live = 0;
            for (std::uint64_t layer = first; layer < first + count; ++layer) {
                const Expected<LayerActivations> one = layer_activations(arch, none, arch.layer_is_moe(layer));
                if (!one) return one.failure();
                live = std::max<u128>(live, one->total());
            }
            st.live = live;
            if (shape.attention == AttentionKernel::eager)
                // Beside the rebuilt layer's kept scores (its `live` total), the backward pass of the product
                // with V makes the probabilities' gradient, c bytes per score (16-bit under autocast).
                st.scores = static_cast<u128>(arch.num_attention_heads / shape.tp) * shape.seq_len * sb * c;
        }
        if (last) {
            // Outside the layers (Korthikanti sec. 4.3): the final norm's input and the output head's input.
            st.outside = replicated((big_b + c) * sbh);  // the head's input: autocast's copy
            const u128 logits = ceil_div(sb * arch.vocab_size, t);
            // The peak is at the log-softmax's backward. The training loop has dropped the model's output
            // by then: Hugging Face's Trainer.compute_loss returns only the loss, torchtune's recipes
            // `del logits`, and an upcast's backward keeps nothing. (A loop that holds its output through
            // the backward pass, as DeepSpeed-Chat's step 1 does, keeps c more bytes a logit.)
            // full: the fp32 upcast's result saved by log-softmax (PyTorch's derivatives.yaml: _log_softmax's
            // gradient is computed from its result), the NLL loss's fp32 gradient and the log-softmax's:
            // 4 + 4 + 4 bytes a logit. Hugging Face's loss (transformers loss_utils.py) upcasts with
            // logits.float() before the cross-entropy; torchtune's model returns output.float().
            // chunked: the 16-bit logits, one of 8 chunks upcast with its gradient at a time.
            // half: the same three tensors in 16 bits (no upcast: Qwen's first-generation code under fp16).
            switch (shape.loss) {
                case LossKind::full: st.logits = logits * 12; break;
                case LossKind::chunked: st.logits = logits * c + ceil_div(logits, 8) * 8; break;
                case LossKind::half: st.logits = logits * c * 3; break;
            }
        }
        if (st.total() > kMaxActivationBytes) return Error{"seq-len", big_error()};
        return st;
    };

    const bool one_stage = shape.pp == 1;
    const Expected<Stage> first = stage(0, per_stage, shape.pp, one_stage);
    if (!first) return first.failure();
    Stage chosen = *first;
    bool is_first = true;
    if (!one_stage) {
        const Expected<Stage> last = stage(layers - per_stage, per_stage, 1, true);
        if (!last) return last.failure();
        if (last->total() > first->total()) {
            chosen = *last;
            is_first = false;
        }
    }
    TrainingActivations out;
    out.per_layer_sum.norms = static_cast<std::uint64_t>(chosen.norms);
    out.per_layer_sum.attention = static_cast<std::uint64_t>(chosen.attention);
    out.per_layer_sum.attention_core = static_cast<std::uint64_t>(chosen.core);
    out.per_layer_sum.mlp = static_cast<std::uint64_t>(chosen.mlp);
    out.recompute_live_bytes = static_cast<std::uint64_t>(chosen.live);
    out.recompute_scores_bytes = static_cast<std::uint64_t>(chosen.scores);
    out.outside_layers_bytes = static_cast<std::uint64_t>(chosen.outside);
    out.activation_bytes = static_cast<std::uint64_t>(chosen.norms + chosen.attention + chosen.core + chosen.mlp +
                                                      chosen.live + chosen.scores + chosen.outside);
    out.logits_loss_bytes = static_cast<std::uint64_t>(chosen.logits);
    out.first_stage = is_first;
    out.value_bytes = shape.activation_bytes;
    out.compute_bytes = shape.compute_bytes;
    out.stage_layers = per_stage;
    out.micro_batches_in_flight = is_first ? shape.pp : 1;
    return out;
}

const char* training_class_text(TrainingClass klass) {
    switch (klass) {
        case TrainingClass::full: return "full";
        case TrainingClass::lora: return "LoRA";
        case TrainingClass::qlora: return "QLoRA";
        case TrainingClass::sharded: return "sharded";
    }
    return "full";
}

TrainingClass training_class(bool lora, bool qlora, std::uint64_t gpu_count, int zero_stage) {
    if (gpu_count > 1 && zero_stage >= 1) return TrainingClass::sharded;
    if (qlora) return TrainingClass::qlora;
    return lora ? TrainingClass::lora : TrainingClass::full;
}

PeakBand training_peak_band(TrainingClass klass) {
    // scripts/reality_table.py --band over tests/fixtures/reality.json (the rows used while fitting).
    switch (klass) {
        case TrainingClass::full: return {1'000'000, 1'141'572};
        case TrainingClass::lora: return {937'563, 1'168'259};
        case TrainingClass::qlora: return {914'073, 1'444'798};
        case TrainingClass::sharded: return {765'609, 1'170'977};
    }
    return {};
}

const std::vector<Choice>& confidence_choices() {
    static const std::vector<Choice> kChoices = {
        {"safe", "safe: the band's high end fits",
         "fit answers so that the training peak's likely high end fits (the reality table's runs of this class)"},
        {"typical", "typical: the estimate fits", "fit answers so that the training peak as estimated fits"},
    };
    return kChoices;
}
const char* confidence_text(FitConfidence confidence) {
    return confidence_choices()[static_cast<std::size_t>(confidence)].word.c_str();
}

std::uint64_t default_framework_overhead_bytes(std::uint64_t world_size, int zero_stage) {
    return kCudaContextBytes + (world_size > 1 || zero_stage >= 1 ? kNcclBytes : 0);
}

}  // namespace llm_memory
