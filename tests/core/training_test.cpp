// Training activations, logits/loss, framework memory and the training peak (core/training.hpp).
// Formula identities from Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
// Models", arXiv 2205.05198), Table 2, at the paper's assumptions (16-bit activations, 1-byte dropout masks,
// MHA, a 4h GeLU MLP, dropout everywhere, materialised attention scores), and the generalisation of
// shared/research/activations.md section 5 for GQA, gated MLPs, no dropout and FlashAttention.
#include <catch_amalgamated.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "architecture.hpp"
#include "config_fixtures.hpp"
#include "estimator.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "steps.hpp"
#include "training.hpp"

using namespace llm_memory;

namespace {

// A GPT-3-style layer under the paper's assumptions.
Architecture paper_layer(std::uint64_t h, std::uint64_t a, std::uint64_t layers) {
    Architecture arch;
    arch.model_type = "gpt2";
    arch.family = ModelFamily::gpt2;  // the softmax stays in 16 bits, as in Megatron's kernel
    arch.hidden_size = h;
    arch.num_attention_heads = a;
    arch.num_key_value_heads = a;
    arch.head_dim = h / a;
    arch.intermediate_size = 4 * h;
    arch.gated_mlp = false;
    arch.hidden_dropout = true;
    arch.attention_dropout = true;
    arch.norms_per_layer = 2;
    arch.num_hidden_layers = layers;
    arch.vocab_size = 51200;  // the paper's
    return arch;
}

TrainingShape paper_shape(std::uint64_t s, std::uint64_t t, bool sp, Recompute recompute) {
    TrainingShape shape;
    shape.seq_len = s;
    shape.micro_batch = 1;
    shape.activation_bytes = 2;
    shape.attention = AttentionKernel::eager;
    shape.recompute = recompute;
    shape.tp = t;
    shape.sp = sp;
    return shape;
}

std::uint64_t layer_total(const Architecture& arch, const TrainingShape& shape) {
    return layer_activations(arch, shape, false).value().total();
}

Estimate run(const char* state) {
    const StateResult r = apply_state(Scenario{}, state);
    INFO(state);
    REQUIRE(r.problems.empty());
    return estimate(r.scenario).value();
}

}  // namespace

TEST_CASE("Korthikanti Table 2, Eq. 1: one layer stores sbh(34 + 5as/h) bytes", "[training][korthikanti]") {
    // GPT-3 175B (Table 3): h 12288, a 96, s 2048, b 1. 5as/h = 80, so 114 sbh = 2,868,903,936 bytes
    // (2.672 GiB per layer, activations.md 1.3).
    const Architecture gpt3 = paper_layer(12288, 96, 96);
    const std::uint64_t sbh = 2048ULL * 12288;
    const std::uint64_t eq1 = layer_total(gpt3, paper_shape(2048, 1, false, Recompute::none));
    CHECK(eq1 == sbh * 34 + 5ULL * 96 * 2048 * 2048);
    CHECK(eq1 == sbh * 114);
    CHECK(eq1 == 2'868'903'936ULL);
    // The parts: attention 11sbh + 5as^2b, MLP 19sbh, two LayerNorms 4sbh (Section 4.1).
    const LayerActivations parts = layer_activations(gpt3, paper_shape(2048, 1, false, Recompute::none), false).value();
    CHECK(parts.attention + parts.attention_core == 11 * sbh + 5ULL * 96 * 2048 * 2048);
    CHECK(parts.mlp == 19 * sbh);
    CHECK(parts.norms == 4 * sbh);
    // MT-NLG 530B: h 20480, a 128, 5as/h = 64, so 98 sbh.
    const Architecture mtnlg = paper_layer(20480, 128, 105);
    CHECK(layer_total(mtnlg, paper_shape(2048, 1, false, Recompute::none)) == 2048ULL * 20480 * 98);
}

TEST_CASE("Korthikanti Table 2: tensor parallel, sequence parallel and selective recompute", "[training][korthikanti]") {
    // 22B (Table 3): h 6144, a 64, L 48, s 2048, t 8. Per layer, in units of sbh = 12,582,912 bytes:
    const Architecture m22 = paper_layer(6144, 64, 48);
    const std::uint64_t sbh = 2048ULL * 6144;
    const std::uint64_t scores = 5ULL * 64 * 2048 * 2048;  // 5as^2b
    // Eq. 2, TP baseline: sbh(10 + 24/t + 5as/(ht)).
    CHECK(layer_total(m22, paper_shape(2048, 8, false, Recompute::none)) == 10 * sbh + 24 * sbh / 8 + scores / 8);
    // Eq. 4, TP + SP: sbh(34/t + 5as/(ht)) = Eq. 1 / t.
    CHECK(layer_total(m22, paper_shape(2048, 8, true, Recompute::none)) == (34 * sbh + scores) / 8);
    // TP + selective recompute: sbh(10 + 24/t).
    CHECK(layer_total(m22, paper_shape(2048, 8, false, Recompute::selective)) == 10 * sbh + 24 * sbh / 8);
    // Eq. 6, TP + SP + selective: 34 sbh / t.
    CHECK(layer_total(m22, paper_shape(2048, 8, true, Recompute::selective)) == 34 * sbh / 8);
    // activations.md 1.3 test vector: TP only, 48 layers = 14.81 GiB (15,904,800,768 bytes).
    const TrainingActivations all = training_activations(m22, paper_shape(2048, 8, false, Recompute::none)).value();
    CHECK(all.per_layer_sum.total() == 48ULL * (10 * sbh + 24 * sbh / 8 + scores / 8));
    CHECK(all.per_layer_sum.total() == 15'904'800'768ULL);
    // Selective recompute alone saves 70% for GPT-3 (80 of 114 sbh) and 65% for MT-NLG (64 of 98).
    const Architecture gpt3 = paper_layer(12288, 96, 96);
    const std::uint64_t none = layer_total(gpt3, paper_shape(2048, 1, false, Recompute::none));
    const std::uint64_t selective = layer_total(gpt3, paper_shape(2048, 1, false, Recompute::selective));
    CHECK(selective * 114 == none * 34);
}

TEST_CASE("Korthikanti Table 2: full recompute keeps 2sbh per layer plus one layer rebuilt", "[training][korthikanti]") {
    const Architecture gpt3 = paper_layer(12288, 96, 96);
    const std::uint64_t sbh = 2048ULL * 12288;
    const TrainingActivations full = training_activations(gpt3, paper_shape(2048, 1, false, Recompute::full)).value();
    CHECK(full.per_layer_sum.total() == 96 * 2 * sbh);       // Table 2: 2sbh per layer
    CHECK(full.recompute_live_bytes == 114 * sbh);           // the backward pass rebuilds one layer (Eq. 1)
    CHECK(full.outside_layers_bytes == 2 * 2 * sbh);         // final norm and output-head inputs (Sec. 4.3)
    // Eager attention: beside the rebuilt layer (its 5as^2b of Table 2 in recompute_live_bytes), the
    // probabilities' gradient in its backward pass (ours, outside Table 2): 96 heads x s x s x 2 bytes.
    CHECK(full.recompute_scores_bytes == 96ULL * 2048 * 2048 * 2);
    CHECK(full.activation_bytes == 96 * 2 * sbh + 114 * sbh + full.recompute_scores_bytes + 4 * sbh);
    // With SP the kept layer input is split too (Megatron-LM's distributed checkpoint input).
    const TrainingActivations full_sp = training_activations(gpt3, paper_shape(2048, 8, true, Recompute::full)).value();
    CHECK(full_sp.per_layer_sum.total() == 96 * 2 * sbh / 8);
}

TEST_CASE("op-selective: torchtitan's op-level policy keeps every other matmul's output", "[training][recompute]") {
    // pytorch/torchtitan, distributed/activation_checkpoint.py (_apply_op_sac, the llama3 parallelize.py
    // save list): save the outputs of aten.mm and of the flash/efficient attention kernels, except every
    // second mm of the layer. A Llama layer's mms run wq, wk, wv, wo, w1, w3, w2: the 1st, 3rd, 5th and 7th
    // (q, v, gate, down) are kept, with the attention output and its fp32 log-sum-exp; the checkpoint keeps
    // the layer's input. Llama 3 8B, 2048 tokens: h 4096, 32 heads of 128, 8 KV heads, MLP 14336.
    const Estimate none = run("model=llama-3-8b&training-mode=detailed");
    const Estimate op = run("model=llama-3-8b&training-mode=detailed&recompute=op-selective");
    const std::uint64_t sb = 2048;
    const std::uint64_t kept = 2 * sb * 4096                              // the layer's input
                               + 2 * sb * (4096 + 1024 + 4096) + 4 * 32 * sb  // q, v, attention output, LSE
                               + 2 * sb * (14336 + 4096);                   // gate (w1) and down (w2) outputs
    const TrainingActivations& a = op.training_activations;
    CHECK(a.per_layer_sum.total() == 32 * kept);
    // One layer is rebuilt in the backward pass at a time, as with full recompute.
    const TrainingActivations full = run("model=llama-3-8b&training-mode=detailed&recompute=full").training_activations;
    CHECK(a.recompute_live_bytes == full.recompute_live_bytes);
    CHECK(a.recompute_scores_bytes == 0);  // flash attention: no s x s scores
    CHECK(op.training_activation_bytes == 32 * kept + a.recompute_live_bytes + a.outside_layers_bytes);
    // It sits between full recompute and none, and well under Korthikanti's selective (which keeps the MLP).
    const Estimate selective = run("model=llama-3-8b&training-mode=detailed&recompute=selective");
    CHECK(op.training_activation_bytes > full.activation_bytes);
    CHECK(op.training_activation_bytes < selective.training_activation_bytes);
    CHECK(op.training_activation_bytes < none.training_activation_bytes);
    // Eager attention under op-selective: the scores are recomputed (the math kernel is not in the save
    // list): the rebuilt layer keeps its fp32 softmax and 16-bit probabilities (4 + 2 bytes a score), and
    // its backward pass makes the probabilities' gradient (2 bytes a score) beside them.
    const Estimate eager = run("model=llama-3-8b&training-mode=detailed&recompute=op-selective&attention=eager");
    const Estimate flash = run("model=llama-3-8b&training-mode=detailed&recompute=op-selective");
    CHECK(eager.training_activations.recompute_scores_bytes == 32ULL * 2048 * 2048 * 2);
    CHECK(eager.training_activations.recompute_live_bytes - flash.training_activations.recompute_live_bytes ==
          32ULL * 2048 * 2048 * (4 + 2) - 32ULL * 2048 * 4);  // the scores replace FlashAttention's log-sum-exp
}

TEST_CASE("pipeline 1F1B: the first stage holds L layers' worth whatever p is", "[training][korthikanti]") {
    const Architecture gpt3 = paper_layer(12288, 96, 96);
    TrainingShape one = paper_shape(2048, 1, false, Recompute::selective);
    TrainingShape four = one;
    four.pp = 4;
    const TrainingActivations a1 = training_activations(gpt3, one).value();
    const TrainingActivations a4 = training_activations(gpt3, four).value();
    CHECK(a4.first_stage);
    CHECK(a4.stage_layers == 24);
    CHECK(a4.micro_batches_in_flight == 4);
    CHECK(a4.per_layer_sum.total() == a1.per_layer_sum.total());  // p micro-batches x L/p layers
    CHECK(a4.logits_loss_bytes == 0);                              // the logits live on the last stage
    CHECK(a1.logits_loss_bytes == 2048ULL * 51200 * (4 + 4 + 4));
}

TEST_CASE("the generalisation: GQA, a gated MLP, no dropout, FlashAttention (Llama 3 8B)", "[training]") {
    // meta-llama/Meta-Llama-3-8B: h 4096, 32 heads of 128, 8 KV heads, SwiGLU width 14336, 32 layers,
    // vocab 128256, no dropout. s 2048, b 1, bf16, flash, no recompute, per layer:
    //   norms 2 x 2 sbh; attention QKV input 2 sbh + Q 2 x 4096 + K, V 2 x 1024 each + out-proj input 2 x 4096
    //   per token; flash LSE 32 heads x 4 bytes per token; MLP input 2 sbh + 4 tensors of 14336 x 2 bytes.
    const Estimate e = run("model=llama-3-8b&training-mode=detailed");
    const std::uint64_t sb = 2048;
    const std::uint64_t per_layer = 4 * sb * 4096 + (2 * sb * 4096 + 2 * sb * (4096 + 1024 + 1024 + 4096)) + 32 * sb * 4 +
                                    (2 * sb * 4096 + 4 * 2 * sb * 14336);
    const std::uint64_t outside = 2 * 2 * sb * 4096;
    CHECK(e.training_activation_bytes == 32 * per_layer + outside);
    CHECK(e.training_activation_bytes == 11'047'796'736ULL);
    // Logits: 2048 x 128256 logits x (4 + 4 + 4) bytes at the log-softmax's backward: the fp32 log-softmax
    // cross-entropy saves (PyTorch computes _log_softmax's gradient from its result), the NLL loss's gradient and
    // the log-softmax's. The 16-bit logits are gone: transformers' Trainer.compute_loss returns only the loss
    // (the model's output is dropped before accelerator.backward), and the .float() upcast saves nothing.
    CHECK(e.logits_loss_bytes == 2048ULL * 128256 * 12);
    CHECK(e.framework_overhead_bytes == 512ULL << 20);  // one GPU: the CUDA context only
    CHECK(e.allocator_margin_bytes == (e.training_activation_bytes + e.logits_loss_bytes + 5) / 10);
    // The backward pass holds the weights and the optimizer states but no gradients (one micro-batch per step);
    // the optimizer step holds the gradients and foreach's temporary. The peak is the larger.
    const std::uint64_t gradients = find_term(e, "gradient_per_gpu")->bytes;
    CHECK(e.training_backward_peak_bytes == e.weight_bytes + e.gradient_optimizer_bytes - gradients +
                                                e.training_activation_bytes + e.logits_loss_bytes +
                                                e.framework_overhead_bytes + e.allocator_margin_bytes);
    CHECK(e.training_peak_bytes == std::max(e.training_backward_peak_bytes, e.training_step_peak_bytes));
    // Chunked loss: 16-bit logits + one chunk of 8 in fp32 with its gradient.
    const Estimate chunked = run("model=llama-3-8b&training-mode=detailed&loss=chunked");
    CHECK(chunked.logits_loss_bytes == 2048ULL * 128256 * 2 + 2048ULL * 128256 / 8 * 8);
    // Half loss (Qwen's first-generation modeling_qwen.py: CrossEntropyLoss on the 16-bit logits, no .float();
    // under DeepSpeed fp16/bf16 nothing autocasts it): at the log-softmax's backward the saved log-softmax, the
    // NLL gradient and the log-softmax gradient, 2 bytes each (the Trainer has dropped the logits).
    const Estimate half = run("model=llama-3-8b&training-mode=detailed&loss=half");
    CHECK(half.logits_loss_bytes == 2048ULL * 128256 * 2 * 3);
    CHECK(half.logits_loss_bytes < e.logits_loss_bytes);
    // Eager attention: transformers' eager_attention_forward (modeling_llama.py) calls
    // softmax(attn_weights, dim=-1, dtype=torch.float32).to(query.dtype), so the fp32 softmax output (kept by
    // its backward) and the 16-bit copy (kept by the product with V) are saved: 4 + 2 bytes per score (no
    // dropout: no mask). The FlashAttention log-sum-exp it replaces is 4 bytes per row and head.
    const Estimate eager = run("model=llama-3-8b&training-mode=detailed&attention=eager");
    CHECK(eager.training_activation_bytes - e.training_activation_bytes == 32 * (32ULL * 2048 * 2048 * (4 + 2) - 32 * sb * 4));
    // GPT-2's own eager attention (modeling_gpt2.py) keeps its softmax in the weights' dtype: 2 bytes per score
    // plus the attention dropout's mask (1) and output (2) with GPT-2's attn_pdrop 0.1: Korthikanti's 5as^2b.
    const Estimate gpt2_flash = run("model=gpt2&training-mode=detailed&seq-len=1024");
    const Estimate gpt2_eager = run("model=gpt2&training-mode=detailed&seq-len=1024&attention=eager");
    CHECK(gpt2_eager.training_activation_bytes - gpt2_flash.training_activation_bytes ==
          12 * (12ULL * 1024 * 1024 * (2 + 1 + 2) - 12 * 1024 * 4));
}

TEST_CASE("LoRA: a frozen base keeps only the adapted linears' inputs", "[training][lora]") {
    // Llama-3-8B, LoRA on q,v: the q/v input stays (the adapters need it), FlashAttention keeps its output,
    // the MLP's input and down_proj's input go (their weights need no gradient), so per layer 2 + 2 sbh less
    // than a full fine-tune: the MLP input (2 sbh) and the gate*up product (2 x 14336 per token).
    const Estimate full = run("model=llama-3-8b&training-mode=detailed");
    const Estimate lora = run("model=llama-3-8b&training-mode=detailed&lora-rank=16");
    const std::uint64_t sb = 2048;
    CHECK(full.training_activation_bytes - lora.training_activation_bytes == 32 * (2 * sb * 4096 + 2 * sb * 14336));
    const Estimate all = run("model=llama-3-8b&training-mode=detailed&lora-rank=16&lora-targets=all-linear");
    CHECK(all.training_activation_bytes == full.training_activation_bytes);
}

TEST_CASE("QLoRA: decoder linears at NF4, embeddings, head and norms at 16 bits or PEFT's fp32", "[training][lora]") {
    // Llama-3-8B: 32 x (4096 x 4096 x 2 + 4096 x 1024 x 2 + 3 x 4096 x 14336) = 6,979,321,856 linear weights;
    // the other 1,050,939,392 (embeddings and lm_head 525,336,576 each, norms 266,240) stay at 2 bytes when
    // the framework leaves them alone (torchtune, LitGPT).
    const Estimate e = run("model=llama-3-8b&lora-rank=16&qlora&upcast-nonquantized=false");
    CHECK(e.weight_bytes == (6'979'321'856ULL * 8452 + 16384 / 2) / 16384 + 1'050'939'392ULL * 2);
    // About 1.56 GB more than counting all 8.03B parameters at NF4 (the issue's "about 1.5 GB").
    CHECK(e.weight_bytes - (8'030'261'248ULL * 8452 + 8192) / 16384 == 1'559'731'583ULL);
    // By default as PEFT: huggingface/peft, utils/other.py, prepare_model_for_kbit_training: "cast all non
    // INT8 parameters to fp32" (every float16/bfloat16 parameter that is not a Params4bit), unless the model
    // is GPTQ/AQLM/EETQ/HQQ/torchao-quantized. The 1,050,939,392 others take 4 bytes: 2.1 GB more.
    const Estimate peft = run("model=llama-3-8b&lora-rank=16&qlora");
    CHECK(peft.weight_bytes == e.weight_bytes + 1'050'939'392ULL * 2);
    // Not a QLoRA run: the setting changes nothing.
    CHECK(run("model=llama-3-8b&lora-rank=16&upcast-nonquantized=false").weight_bytes ==
          run("model=llama-3-8b&lora-rank=16").weight_bytes);
    // With the upcast the residual stream is fp32: the embedding's output is fp32, the norms keep it
    // (transformers' LlamaRMSNorm returns weight * hidden_states.to(input_dtype)), and bitsandbytes' Linear4bit
    // returns its input's dtype (bitsandbytes/nn/modules.py: matmul_4bit(...).to(inp_dtype)). So the norms'
    // inputs and the MLP's gate, up and act(gate) outputs are saved in fp32. The matmuls run under autocast,
    // which saves 16-bit copies: the attention's Q, K, V and output (FlashAttention/SDPA take bf16), the LoRA
    // linears' inputs and the head's input. The logits stay 16-bit, so the loss does not move.
    const Estimate kept = run("model=llama-3-8b&lora-rank=16&qlora&upcast-nonquantized=false&training-mode=detailed");
    const Estimate upcast = run("model=llama-3-8b&lora-rank=16&qlora&training-mode=detailed");
    const LayerActivations& k = kept.training_activations.per_layer_sum;
    const LayerActivations& u = upcast.training_activations.per_layer_sum;
    CHECK(kept.training_activations.value_bytes == 2);
    CHECK(upcast.training_activations.value_bytes == 4);
    CHECK(u.norms == 2 * k.norms);
    CHECK(u.attention == k.attention);
    CHECK(u.attention_core == k.attention_core);  // FlashAttention's fp32 log-sum-exp either way
    CHECK(u.mlp == 2 * k.mlp);                    // q,v targets: the MLP keeps no LoRA input
    CHECK(upcast.training_activations.outside_layers_bytes * 4 == kept.training_activations.outside_layers_bytes * 6);
    CHECK(upcast.logits_loss_bytes == kept.logits_loss_bytes);
    // Measured (bitsandbytes issue #1569, 2025-05-08: Ministral 8B, sequence length 4096, batch 1, NF4 with double
    // quantization, peft 0.15.2, transformers 4.51.3, bitsandbytes 0.45.5): 63,082 MB without
    // prepare_model_for_kbit_training and 81,076 MB with it, 17,994 more. The thread gives no LoRA rank, targets or
    // optimizer; the difference does not depend on them here (the LoRA inputs are 16-bit copies either way), and its
    // size says no checkpointing. Ours: the fp32 embeddings and head plus the fp32 stream, 16,023 MiB, within 11 %
    // whether the thread's MB are MiB or 10^6 bytes; counting every activation in fp32 gave 25.0 GiB (+42 %).
    // Ministral-8B-Instruct-2410's config.json: 8,019,808,256 parameters, the model card's 8.02B.
    Scenario ministral;
    const ModelSource m8 = model_from_config(R"({"architectures":["MistralForCausalLM"],"model_type":"mistral","hidden_size":4096,)"
                                             R"("intermediate_size":12288,"num_hidden_layers":36,"num_attention_heads":32,"num_key_value_heads":8,)"
                                             R"("head_dim":128,"vocab_size":131072,"tie_word_embeddings":false,"max_position_embeddings":32768,)"
                                             R"("sliding_window":32768,"rms_norm_eps":1e-05,"rope_theta":100000000.0,"hidden_act":"silu",)"
                                             R"("torch_dtype":"bfloat16"})")
                                .value();
    CHECK(m8.counts.total_count == 8'019'808'256ULL);
    ministral.param_count = m8.counts.total_count;
    ministral.model = std::make_shared<const ModelSource>(m8);
    auto peak = [&](const char* extra) {
        const StateResult r = apply_state(ministral, std::string("training-mode=detailed&lora-rank=16&lora-targets=all-linear&qlora"
                                                                 "&seq-len=4096&") + extra);
        REQUIRE(r.problems.empty());
        return static_cast<double>(estimate(r.scenario).value().training_peak_bytes);
    };
    const double delta = peak("upcast-nonquantized=true") - peak("upcast-nonquantized=false");
    CHECK(std::abs(delta / (17'994.0 * 1'048'576) - 1.0) < 0.12);
    CHECK(std::abs(delta / 17'994e6 - 1.0) < 0.12);
    // The same thread: plain bf16 LoRA measured 72,840, 9,758 more than QLoRA without the upcast. Ours is the
    // weights' difference less the dequantization workspace, 9,735 MiB: bitsandbytes keeps no activation that
    // a 16-bit frozen linear does not.
    const StateResult bf16 = apply_state(ministral, "training-mode=detailed&lora-rank=16&lora-targets=all-linear&seq-len=4096");
    REQUIRE(bf16.problems.empty());
    const double weights = static_cast<double>(estimate(bf16.scenario).value().training_peak_bytes) - peak("upcast-nonquantized=false");
    CHECK(std::abs(weights / (9'758.0 * 1'048'576) - 1.0) < 0.05);
    CHECK(std::abs(weights / 9'758e6 - 1.0) < 0.05);
}

TEST_CASE("LoRA adapters in fp32 by default, as PEFT's autocast_adapter_dtype casts them", "[training][lora]") {
    // huggingface/peft, src/peft/tuners/tuners_utils.py, cast_adapter_dtype: with autocast_adapter_dtype=True
    // (get_peft_model's and PeftModel's default since PEFT 0.12) every float16/bfloat16 adapter parameter
    // becomes float32. torch AdamW keeps its gradient, exp_avg and exp_avg_sq in the parameter's dtype, so
    // the gradient and both states are fp32 and no fp32 master copy exists beside the fp32 adapter.
    // Llama-3-8B, rank 16 on q,v: 32 x (16 x (4096 + 4096) + 16 x (4096 + 1024)) = 6,815,744 adapter parameters.
    const std::uint64_t n = 6'815'744;
    const Estimate fp32 = run("model=llama-3-8b&lora-rank=16&recipe=adamw-mixed");
    REQUIRE(fp32.lora_trainable_count == n);
    CHECK(fp32.adapter_fp32);
    CHECK(fp32.adapter_weight_bytes == n * 4);
    CHECK(find_term(fp32, "adapter_weight")->bytes == n * 4);
    REQUIRE(fp32.training_components.size() == 3);  // gradient, m, v: the master copy is the adapter itself
    CHECK(fp32.training_components[0].name == "gradient (fp32 adapter)");
    CHECK(fp32.training_components[0].bytes == n * 4);
    CHECK(fp32.gradient_optimizer_bytes == n * 12);
    // 16-bit adapters (torchtune, LitGPT, PEFT 0.6 to 0.11, which cast adapters to the base layer's dtype):
    // the recipe's own bf16 gradient, fp32 master, m and v.
    const Estimate bf16 = run("model=llama-3-8b&lora-rank=16&recipe=adamw-mixed&adapter-dtype=bf16");
    CHECK_FALSE(bf16.adapter_fp32);
    CHECK(bf16.adapter_weight_bytes == n * 2);
    CHECK(bf16.training_components.size() == 4);
    CHECK(bf16.gradient_optimizer_bytes == n * 14);
    // adamw-mixed comes to 16 bytes per adapter parameter either way; the seed's k x b (3 x 2 bytes) doubles
    // with fp32 adapters: 4 + 3 x 4 = 16 against 2 + 3 x 2 = 8.
    CHECK(fp32.training_bytes == bf16.training_bytes);
    const Estimate seed_fp32 = run("model=llama-3-8b&lora-rank=16");
    const Estimate seed_bf16 = run("model=llama-3-8b&lora-rank=16&adapter-dtype=fp16");
    CHECK(seed_fp32.gradient_optimizer_bytes == n * 12);
    CHECK(seed_bf16.gradient_optimizer_bytes == n * 6);
    CHECK(seed_fp32.training_bytes - seed_bf16.training_bytes == n * 8);
    // 8-bit Adam keeps its 8-bit states (bitsandbytes quantizes them whatever the parameter's dtype).
    const Estimate eight = run("model=llama-3-8b&lora-rank=16&recipe=adam-8bit");
    REQUIRE(eight.training_components.size() == 3);
    CHECK(eight.training_components[0].bytes == n * 4);
    CHECK(eight.training_components[1].name == "Adam m (8-bit)");
    // QLoRA too: PEFT casts the adapters whatever the base's storage.
    CHECK(run("model=llama-3-8b&lora-rank=16&qlora").adapter_weight_bytes == n * 4);
    // ZeRO-2 over 2 GPUs splits the fp32 gradient and states, not the fp32 adapter weights.
    const Estimate zero = run("model=llama-3-8b&lora-rank=16&recipe=adamw-mixed&gpus=2&zero=2&training-mode=detailed");
    REQUIRE(find_term(zero, "gradient_per_gpu") != nullptr);
    CHECK(find_term(zero, "gradient_per_gpu")->bytes == n * 4 / 2);
    CHECK(find_term(zero, "optimizer_per_gpu")->bytes == n * 8 / 2);
    // The worked steps show the 4 bytes and name PEFT's setting.
    const StateResult r = apply_state(Scenario{}, "model=llama-3-8b&lora-rank=16&recipe=adamw-mixed");
    const std::vector<Derivation> d = worked_steps(r.scenario, fp32);
    const Derivation* adapter = find_derivation(d, "adapter-weight");
    REQUIRE(adapter != nullptr);
    CHECK(adapter->result_bytes == n * 4);
    CHECK(adapter->steps[0].text ==
          "LoRA adapter weights = adapter parameters × 4 bytes (fp32: PEFT's autocast_adapter_dtype)");
    CHECK(adapter->steps[1].text == "6.815744M adapter parameters × 4 bytes");
    const Derivation* states = find_derivation(d, "gradient-optimizer");
    REQUIRE(states != nullptr);
    CHECK(states->steps[1].text.find("PEFT's autocast_adapter_dtype") != std::string::npos);
    CHECK(states->steps[1].text.find("gradient (fp32 adapter) 4, Adam m (fp32) 4, Adam v (fp32) 4 bytes") != std::string::npos);
}

TEST_CASE("adapter-dtype: a full fine-tune and the seed's frozen parameters are not LoRA", "[training][lora][seed]") {
    // The seed's 13B: 26 GB of weights, 31.2 GB inference, 104 GB fully trainable, 32 GB with 1B trainable.
    for (const char* dtype : {"", "&adapter-dtype=bf16"}) {
        INFO(dtype);
        const Estimate all = run((std::string("params=13B") + dtype).c_str());
        CHECK(all.weight_bytes == 26'000'000'000ULL);
        CHECK(all.inference_bytes == 31'200'000'000ULL);
        CHECK(all.training_bytes == 104'000'000'000ULL);
        CHECK_FALSE(all.adapter_fp32);
        CHECK(run((std::string("params=13B&trainable=1B") + dtype).c_str()).training_bytes == 32'000'000'000ULL);
        CHECK(run((std::string("model=llama-3-8b&recipe=adamw-mixed") + dtype).c_str()).gradient_optimizer_bytes ==
              8'030'261'248ULL * 14);
    }
}

TEST_CASE("adapter-dtype: fp32 or bf16 (fp16 reads as bf16), other words name the setting", "[training][lora][settings]") {
    StateResult r = apply_state(Scenario{}, "adapter-dtype=bf16");
    CHECK(r.problems.empty());
    CHECK_FALSE(r.scenario.adapter_fp32);
    CHECK(find_setting("adapter-dtype")->show(r.scenario) == "bf16");
    r = apply_state(Scenario{}, "adapter-dtype=FP16");
    CHECK(r.problems.empty());
    CHECK(find_setting("adapter-dtype")->show(r.scenario) == "bf16");
    r = apply_state(Scenario{}, "adapter-dtype=fp32");
    CHECK(r.scenario.adapter_fp32);
    CHECK(find_setting("adapter-dtype")->show(r.scenario).empty());
    Scenario kept;
    kept.adapter_fp32 = false;
    r = apply_state(kept, "adapter-dtype=int8");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].find("adapter-dtype") != std::string::npos);
    CHECK(r.problems[0].find("\"int8\" is not fp32 or bf16") != std::string::npos);
    CHECK_FALSE(r.scenario.adapter_fp32);  // the last good value stays
}

TEST_CASE("QLoRA: bitsandbytes dequantizes the largest 4-bit linear to 16 bits", "[training][lora]") {
    // bitsandbytes' matmul_4bit (bitsandbytes/autograd/_functions.py, MatMul4Bit) calls
    // dequantize_4bit(B, quant_state).to(A.dtype) for the whole weight before torch.nn.functional.linear,
    // in forward and backward. Llama-3-8B's largest linears are gate/up/down, 4096 x 14336.
    const Estimate e = run("model=llama-3-8b&lora-rank=16&qlora&training-mode=detailed");
    CHECK(e.dequant_linear_elements == 4096ULL * 14336);
    CHECK(e.dequant_workspace_bytes == 4096ULL * 14336 * 2);
    CHECK(find_term(e, "dequant_workspace")->bytes == e.dequant_workspace_bytes);
    CHECK(run("model=llama-3-8b&lora-rank=16&training-mode=detailed").dequant_workspace_bytes == 0);  // 16-bit base
}

TEST_CASE("ZeRO-3/FSDP: the gathered layers, the prefetched one and one layer's gradients", "[training][gpu]") {
    // PyTorch FSDP gathers a wrapped layer whole before it runs and, by default (BackwardPrefetch.BACKWARD_PRE;
    // FSDP2's implicit prefetch), the next one too; its gradients are whole until the reduce-scatter.
    // Llama-3-8B full fine-tune on 8 GPUs at ZeRO-3: a layer is 218,112,000 parameters
    // (4096 x 6144 + 4096 x 4096 + 3 x 4096 x 14336 + 2 x 4096), and the final norm's 4,096 are shared out
    // over the 32 layers: (8,030,261,248 - 2 x 525,336,576) / 32 = 218,112,128 parameters, 2 bytes each.
    const Estimate e = run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=3&recipe=adamw-mixed");
    CHECK(e.zero3_layer_weight_bytes == (8'030'261'248ULL - 2 * 525'336'576ULL) / 32 * 2);
    CHECK(e.zero3_gathered_bytes == 2 * e.zero3_layer_weight_bytes + e.zero3_layer_gradient_bytes);
    CHECK(find_term(e, "zero3_gathered")->bytes == e.zero3_gathered_bytes);
    // --fsdp-prefetch 0 gathers only the layer computing; 2 adds one more.
    const Estimate none = run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=3&recipe=adamw-mixed&fsdp-prefetch=0");
    CHECK(none.zero3_gathered_bytes == e.zero3_gathered_bytes - e.zero3_layer_weight_bytes);
    CHECK(none.training_peak_bytes == e.training_peak_bytes - e.zero3_layer_weight_bytes);
    // Not sharded (one GPU, or ZeRO-2): no gathered layers.
    CHECK(run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=2").zero3_gathered_bytes == 0);
    CHECK(find_term(run("model=llama-3-8b&training-mode=detailed&zero=3"), "zero3_gathered") == nullptr);
}

TEST_CASE("DeepSpeed ZeRO's gradient bucket: reduce_bucket_size, doubled by overlap_comm at stages 1-2", "[training][gpu]") {
    // DeepSpeed (deepspeed/runtime/zero): with contiguous_gradients (its default) stage_1_and_2.py's
    // setup_buckets allocates torch.empty(reduce_bucket_size, dtype=self.dtype) and, with overlap_comm, a
    // second buffer; stage3.py allocates one per communication dtype. Qwen's finetune/ds_config_zero2.json
    // (its single-GPU Q-LoRA script) sets reduce_bucket_size 2e8 and overlap_comm true: 2 x 2e8 x 2 bytes.
    const Estimate qwen = run("model=llama-3-8b&training-mode=detailed&zero=2&zero-bucket=2e8&overlap-comm=true");
    CHECK(qwen.zero_bucket_bytes == 800'000'000ULL);
    CHECK(find_term(qwen, "zero_bucket")->bytes == qwen.zero_bucket_bytes);
    const Estimate plain = run("model=llama-3-8b&training-mode=detailed&zero=2");
    CHECK(plain.zero_bucket_bytes == 0);
    CHECK(find_term(plain, "zero_bucket") == nullptr);  // the default: PyTorch FSDP/DDP keep no bucket
    CHECK(qwen.training_peak_bytes == plain.training_peak_bytes + 800'000'000ULL);
    // DeepSpeed's own default, 5e8 elements, without overlap_comm (its default at stages 1-2): one buffer.
    CHECK(run("model=llama-3-8b&training-mode=detailed&zero=1&zero-bucket=500M").zero_bucket_bytes == 1'000'000'000ULL);
    // Stage 3 keeps one buffer whatever overlap_comm says; fp32 training keeps it in 4 bytes.
    CHECK(run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=3&zero-bucket=5e8&overlap-comm=true").zero_bucket_bytes ==
          1'000'000'000ULL);
    CHECK(run("model=llama-3-8b&training-mode=detailed&zero=2&zero-bucket=5e8&recipe=adam-fp32").zero_bucket_bytes ==
          2'000'000'000ULL);
    // Without ZeRO there is no DeepSpeed bucket to count.
    CHECK(run("model=llama-3-8b&training-mode=detailed&zero-bucket=2e8").zero_bucket_bytes == 0);
}

TEST_CASE("ZeRO/FSDP start NCCL on one GPU too, as Qwen's single-GPU Q-LoRA runs under DeepSpeed", "[training][gpu][reality]") {
    // DeepSpeed's initialize calls init_distributed with the accelerator's backend (NCCL on CUDA) whatever the
    // GPU count (deepspeed/__init__.py), and the engine's _broadcast_model, its first collective, creates the
    // communicator (runtime/engine.py; read at v0.12.6). FSDP needs a process group as well. So ZeRO/FSDP on one
    // GPU holds the same 1.5 GiB for torch.distributed and NCCL as more than one GPU does.
    CHECK(run("model=llama-3-8b&training-mode=detailed").framework_overhead_bytes == 512ULL << 20);
    CHECK(run("model=llama-3-8b&training-mode=detailed&zero=2").framework_overhead_bytes == (512ULL << 20) + (3ULL << 29));
    CHECK(run("model=llama-3-8b&training-mode=detailed&gpus=2").framework_overhead_bytes == (512ULL << 20) + (3ULL << 29));
    const StateResult zero = apply_state(Scenario{}, "model=llama-3-8b&training-mode=detailed&zero=2");
    const Estimate one = estimate(zero.scenario).value();
    CHECK(find_derivation(worked_steps(zero.scenario, one), "framework-overhead")->steps[1].text ==
          "512 MiB CUDA context + 1.5 GiB NCCL (more than one GPU, or ZeRO/FSDP)");
    // Measured: Qwen's README, 'Profiling of Memory and Speed' (tests/fixtures/reality.json rows qwen-7b-qlora-256
    // and -8192): Qwen-7B-Chat-Int4 Q-LoRA, rank 64 on every linear, finetune_qlora_single_gpu.sh under DeepSpeed
    // ZeRO-2 (ds_config_zero2.json), one A100, 11.5 GB at 256 tokens and 23.5 GB at 8,192 (the whole device).
    Scenario qwen;
    const ModelSource qwen_7b = model_from_config(llm_memory::test::fixture("qwen-7b")).value();
    qwen.param_count = qwen_7b.counts.total_count;  // as the CLI's --config sets them
    qwen.model = std::make_shared<const ModelSource>(qwen_7b);
    auto at = [&](const std::string& extra) {
        const StateResult r = apply_state(qwen, "training-mode=detailed&lora-rank=64&lora-targets=all-linear&qlora&upcast-nonquantized=false"
                                                "&recipe=adamw-mixed&recompute=full&attention=flash&loss=half&zero=2&zero-bucket=2e8"
                                                "&overlap-comm=true&grad-accum=8&optimizer-impl=fused" + extra);
        INFO(extra << ": " << (r.problems.empty() ? std::string() : r.problems.front()));
        REQUIRE(r.problems.empty());
        return static_cast<double>(estimate(r.scenario).value().training_peak_bytes);
    };
    CHECK(std::abs(at("&seq-len=256") / 11.5e9 - 1.0) < 0.05);
    CHECK(std::abs(at("&seq-len=8192") / 23.5e9 - 1.0) < 0.05);
    // Without NCCL's share the short run, where nothing else is large, is 11 % low.
    CHECK(at("&seq-len=256&framework-overhead=512MiB") / 11.5e9 < 0.9);
}

TEST_CASE("the GPU verdict for training uses the peak whenever the model is known", "[training][gpu]") {
    // An 8B QLoRA run on a 24 GB RTX 4090 with gradient checkpointing (PEFT's prepare_model_for_kbit_training
    // turns it on by default): fits at 2048 tokens, does not at 16K, in simple mode too.
    const Estimate short_run = run("model=llama-3-8b&lora-rank=16&qlora&gpu=rtx-4090&recompute=full");
    CHECK(short_run.gpu.training_uses_peak);
    CHECK(short_run.gpu.training_verdict != FitVerdict::does_not_fit);
    CHECK(find_term(short_run, "activation")->in_report == false);  // simple mode: the rows stay hidden
    const Estimate long_run = run("model=llama-3-8b&lora-rank=16&qlora&gpu=rtx-4090&seq-len=16K&recompute=full");
    CHECK(long_run.gpu.training_verdict == FitVerdict::does_not_fit);
    CHECK(long_run.training_bytes == short_run.training_bytes);  // the seed's training total is unchanged
    // Unsloth's benchmarks (docs.unsloth.ai, 'Llama 3.1 (8B) max. context length'): Hugging Face + FA2 fits
    // 5,789 tokens of Llama 3.1 8B QLoRA (rank 32, all linear) on a 24 GB card, and no more; so does ours, and
    // even the chunked loss does not bring 16K back under it.
    const Estimate measured = run("model=llama-3.1-8b&lora-rank=32&lora-targets=all-linear&qlora&recipe=adamw-mixed&gpu=rtx-4090"
                                  "&seq-len=5789&recompute=full");
    CHECK(measured.gpu.training_verdict != FitVerdict::does_not_fit);
    const Estimate chunked = run("model=llama-3-8b&lora-rank=16&qlora&gpu=rtx-4090&seq-len=16K&recompute=full&loss=chunked");
    CHECK(chunked.gpu.training_verdict == FitVerdict::does_not_fit);
    // Without a model there is no peak: the verdict stays on the model states, and says so.
    const Estimate typed = run("params=8B&gpu=rtx-4090&trainable=1%");
    CHECK_FALSE(typed.gpu.training_uses_peak);
}

TEST_CASE("a band on every peak, from the reality table's errors for runs of its class", "[training][band]") {
    // The class: sharded (more than one GPU under ZeRO), else QLoRA, LoRA or full.
    CHECK(run("model=llama-3-8b&training-mode=detailed").training_class == TrainingClass::full);
    CHECK(run("model=llama-3-8b&training-mode=detailed&lora-rank=16").training_class == TrainingClass::lora);
    CHECK(run("model=llama-3-8b&training-mode=detailed&lora-rank=16&qlora").training_class == TrainingClass::qlora);
    CHECK(run("model=llama-3-8b&training-mode=detailed&lora-rank=16&gpus=8&zero=3").training_class == TrainingClass::sharded);
    CHECK(run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=0").training_class == TrainingClass::full);  // plain DDP
    // The band is the class's multipliers (tests/cli/reality_test.py checks them against the table) applied to
    // the peak, rounded to the byte, and always holds the peak.
    const Estimate q = run("model=llama-3-8b&training-mode=detailed&lora-rank=16&qlora");
    const PeakBand band = training_peak_band(TrainingClass::qlora);
    const long double low = static_cast<long double>(q.training_peak_bytes) * band.low_ppm / 1e6L;
    CHECK(q.training_peak_low_bytes >= static_cast<std::uint64_t>(low) - 1);
    CHECK(q.training_peak_low_bytes <= static_cast<std::uint64_t>(low) + 1);
    const long double high = static_cast<long double>(q.training_peak_bytes) * band.high_ppm / 1e6L;
    CHECK(q.training_peak_high_bytes >= static_cast<std::uint64_t>(high) - 1);
    CHECK(q.training_peak_high_bytes <= static_cast<std::uint64_t>(high) + 1);
    for (TrainingClass c : {TrainingClass::full, TrainingClass::lora, TrainingClass::qlora, TrainingClass::sharded}) {
        CHECK(training_peak_band(c).low_ppm <= 1'000'000);
        CHECK(training_peak_band(c).high_ppm >= 1'000'000);
    }
    // The verdict's three answers, on a custom GPU set around the QLoRA peak and its high end.
    auto verdict_at = [](std::uint64_t capacity) {
        StateResult r = apply_state(Scenario{}, "model=llama-3-8b&training-mode=detailed&lora-rank=16&qlora");
        REQUIRE(r.problems.empty());
        r.scenario.gpu_memory_bytes = capacity;
        return estimate(r.scenario).value().gpu;
    };
    const GpuFit roomy = verdict_at(q.training_peak_high_bytes);
    CHECK(roomy.training_verdict == FitVerdict::fits);
    CHECK(training_verdict_text(roomy) == "fits");
    const GpuFit middle = verdict_at(q.training_peak_high_bytes - 1);
    CHECK(middle.training_verdict == FitVerdict::tight);
    CHECK(training_verdict_text(middle) == "fits unless the run lands at the high end");
    const GpuFit exact = verdict_at(q.training_peak_bytes);
    CHECK(exact.training_verdict == FitVerdict::tight);
    const GpuFit short_gpu = verdict_at(q.training_peak_bytes - 1);
    CHECK(short_gpu.training_verdict == FitVerdict::does_not_fit);
    CHECK(training_verdict_text(short_gpu) == "does not fit");
    // Without a model there is no peak and no band.
    CHECK(run("params=8B&gpu=rtx-4090").training_peak_high_bytes == 0);
}

TEST_CASE("model parallelism divides the model states; data parallelism adds NCCL", "[training][gpu]") {
    // Llama-2-7b, adamw-mixed (16 bytes per parameter with the bf16 weights), 8 GPUs as tp 2 x pp 2 x dp 2.
    const Estimate e = run("model=llama-2-7b&recipe=adamw-mixed&training-mode=detailed&tp=2&pp=2&gpus=8&zero=1");
    const MemoryTerm* weights = find_term(e, "weight_per_gpu");
    REQUIRE(weights != nullptr);
    CHECK(weights->bytes == (e.weight_bytes + 3) / 4);
    CHECK(e.framework_overhead_bytes == (512ULL << 20) + (3ULL << 29));
    CHECK(e.training_activations.micro_batches_in_flight == 2);  // first stage of 2
    // The whole model's rows no longer add to the per-GPU peak.
    for (const MemoryTerm* part : parts_of(e, Total::training_peak)) CHECK(part->key != "weight");
}

TEST_CASE("training-mode simple is the seed's; detailed needs a model and says what is missing", "[training][seed]") {
    const Estimate seed = run("");
    CHECK(seed.training_bytes == 104'000'000'000ULL);
    CHECK(find_total(seed, Total::training_peak) == nullptr);
    CHECK(run("training-mode=detailed&model=llama-2-7b").training_bytes ==
          run("model=llama-2-7b").training_bytes);
    Scenario s;
    s.detailed_training = true;
    CHECK(estimate(s).error() ==
          "training-mode: detailed needs a model architecture (--model or --config): the activations need its layers, "
          "hidden size, FFN width and gating, KV heads, vocabulary and dropout");
}

TEST_CASE("JSON: the training keys, the per-term breakdown and the metric", "[training][report]") {
    const StateResult r = apply_state(Scenario{}, "model=llama-3-8b&training-mode=detailed");
    const Estimate e = estimate(r.scenario).value();
    const std::string json = report_json(r.scenario, e);
    for (const char* key : {"\"training_mode\":\"detailed\"", "\"activation_bytes\":", "\"logits_loss_bytes\":",
                            "\"framework_overhead_bytes\":", "\"allocator_margin_bytes\":", "\"training_peak_bytes\":",
                            "\"training_peak_terms\":[", "\"activation_breakdown\":{", "\"metric\":\"nvidia-smi\""}) {
        INFO(key);
        CHECK(json.find(key) != std::string::npos);
    }
    CHECK(json.find("\"activation_bytes\":" + std::to_string(e.training_activation_bytes)) != std::string::npos);
    CHECK(json.find("inference_activation") == std::string::npos);  // detailed inference is off
    // framework-overhead 0 and allocator-margin 0: the peak is torch.cuda.max_memory_allocated's.
    const StateResult allocated =
        apply_state(Scenario{}, "model=llama-3-8b&training-mode=detailed&framework-overhead=0&allocator-margin=0");
    REQUIRE(allocated.problems.empty());
    CHECK(report_json(allocated.scenario, estimate(allocated.scenario).value()).find("\"metric\":\"allocated\"") !=
          std::string::npos);
    CHECK(training_metric_sentence(allocated.scenario).find("max_memory_allocated") != std::string::npos);
}

TEST_CASE("config.json dropout: GPT-2 and OPT store masks, Llama does not", "[training][config]") {
    const Architecture gpt2 = parse_config(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257})").value();
    CHECK(gpt2.hidden_dropout);
    CHECK(gpt2.attention_dropout);
    const Architecture opt = parse_config(
        R"({"model_type":"opt","hidden_size":768,"ffn_dim":3072,"num_attention_heads":12,"num_hidden_layers":12,"vocab_size":50272})").value();
    CHECK(opt.hidden_dropout);
    CHECK_FALSE(opt.attention_dropout);
    const Architecture off = parse_config(
        R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"resid_pdrop":0,"attn_pdrop":0.0})").value();
    CHECK_FALSE(off.hidden_dropout);
    CHECK_FALSE(off.attention_dropout);
    CHECK(parse_config(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"attn_pdrop":1.5})").error() ==
          "attn_pdrop: must be a number from 0 to 1");
    CHECK(parse_config(R"({"model_type":"gpt2","n_embd":768,"n_layer":12,"n_head":12,"vocab_size":50257,"resid_pdrop":"x"})").error() ==
          "resid_pdrop: must be a number from 0 to 1 (got a string)");
}

TEST_CASE("worked steps: every training term shows its formula with the user's values", "[training][steps]") {
    const StateResult r = apply_state(Scenario{}, "model=llama-3-8b&lora-rank=16&qlora&training-mode=detailed&gpu=rtx-4090");
    REQUIRE(r.problems.empty());
    const Estimate e = estimate(r.scenario).value();
    const std::vector<Derivation> d = worked_steps(r.scenario, e);
    for (const char* id : {"weight", "activation", "logits-loss", "framework-overhead", "allocator-margin", "training-peak"}) {
        INFO(id);
        const Derivation* one = find_derivation(d, id);
        REQUIRE(one != nullptr);
        CHECK(one->result_bytes == find_term(e, one->id == "logits-loss" ? "logits_loss"
                                                  : one->id == "framework-overhead" ? "framework_overhead"
                                                  : one->id == "allocator-margin" ? "allocator_margin"
                                                  : one->id == "training-peak" ? "training_peak" : one->id)->bytes);
    }
    CHECK(find_derivation(d, "logits-loss")->steps[1].text == "1 × 2048 × 128256 × (4 + 4 + 4) bytes");
    CHECK(find_derivation(d, "allocator-margin")->steps[1].text == "10% × (15.36 GB + 3.15 GB)");
    CHECK(find_derivation(d, "framework-overhead")->steps[1].text == "512 MiB CUDA context (one GPU, no NCCL)");
    CHECK(find_derivation(d, "weight")->steps[1].text ==
          "N_linear = 6.979321856B decoder linear weights at 4.126953 bits, N − N_linear = 1.050939392B (embeddings, "
          "output head, norms) at 4 bytes, so 6.979321856B × 4.126953 bits + 1.050939392B × 4 bytes");
    // QLoRA with PEFT's upcast: the residual stream is fp32 (B = 4); the norms and the MLP double, the attention's
    // autocast copies do not, and the head's input is one of them.
    CHECK(find_derivation(d, "activation")->steps[1].text ==
          "s = 2048, b = 1, B = 4 bytes, flash attention, 32 layers × 1 micro-batch in flight: norms 2.15 GB + attention "
          "1.88 GB + attention core 0.0084 GB + MLP 11.27 GB + outside 0.05 GB");
}

TEST_CASE("worked steps: the gathered layers, the gradient bucket and the dequantization workspace", "[training][steps]") {
    // Llama-3-8B QLoRA under ZeRO-3 on 2 GPUs, two layers prefetched, DeepSpeed's own reduce_bucket_size
    // (5e8 elements, deepspeed/runtime/zero/config.py) at stage 3 (one buffer, stage3.py): each term's steps
    // put the user's values in its formula and end on the term's own bytes.
    const StateResult r = apply_state(Scenario{}, "model=llama-3-8b&lora-rank=16&qlora&training-mode=detailed&gpus=2&zero=3"
                                                  "&fsdp-prefetch=2&zero-bucket=5e8");
    REQUIRE(r.problems.empty());
    const Estimate e = estimate(r.scenario).value();
    const std::vector<Derivation> d = worked_steps(r.scenario, e);
    for (const auto& [id, key] : {std::pair<const char*, const char*>{"zero3-gathered", "zero3_gathered"},
                                  {"zero-bucket", "zero_bucket"}, {"dequant-workspace", "dequant_workspace"}}) {
        INFO(id);
        const Derivation* one = find_derivation(d, id);
        REQUIRE(one != nullptr);
        REQUIRE(find_term(e, key) != nullptr);
        CHECK(one->result_bytes == find_term(e, key)->bytes);
        REQUIRE(one->steps.size() == 3);
    }
    // bitsandbytes' MatMul4Bit dequantizes the largest linear whole: gate/up/down, 4096 x 14336, to 2 bytes.
    CHECK(find_derivation(d, "dequant-workspace")->steps[1].text == "58720256 weights × 2 bytes");
    CHECK(find_derivation(d, "dequant-workspace")->result_bytes == 4096ULL * 14336 * 2);
    CHECK(find_derivation(d, "zero-bucket")->steps[1].text == "1 × 500000000 × 2 bytes");
    CHECK(find_derivation(d, "zero-bucket")->result_bytes == 1'000'000'000ULL);
    // (1 + 2) layers' weights as QLoRA stores them and one layer's gradients (the adapter's, 16-bit).
    CHECK(find_derivation(d, "zero3-gathered")->steps[1].text.rfind("(1 + 2) × ", 0) == 0);
    CHECK(find_derivation(d, "zero3-gathered")->result_bytes == 3 * e.zero3_layer_weight_bytes + e.zero3_layer_gradient_bytes);
}

TEST_CASE("the optimizer step's peak: weights, gradients, AdamW's states and foreach's temporary", "[training][step]") {
    // PyTorch's torch/optim/adam.py and adamw.py: with neither foreach nor fused given, adamw() asks
    // _default_to_fused_or_foreach(params, differentiable, use_fused=False) and takes foreach on CUDA;
    // _multi_tensor_adamw then builds exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs) for every
    // parameter at once, divides it, adds eps and applies it with torch._foreach_addcdiv_: one temporary the
    // size of the second moment. fused=True runs torch._fused_adamw_ in place: none. The Hugging Face Trainer
    // frees the gradients after each step (model.zero_grad(), set_to_none=True since PyTorch 2.0), so without
    // gradient accumulation the backward pass's peak holds no gradients.
    // Llama-3-8B, the seed's recipe (gradient, Adam m, Adam v at 2 bytes: pure 16-bit), one GPU.
    const std::uint64_t n = 8'030'261'248ULL;
    const std::uint64_t context = 512ULL << 20;  // the CUDA context, one GPU
    const Estimate e = run("model=llama-3-8b&training-mode=detailed");
    CHECK(e.optimizer_temp_bytes == 2 * n);
    CHECK(find_term(e, "optimizer_temp")->bytes == 2 * n);
    CHECK(e.training_step_peak_bytes == 2 * n + 2 * n + 4 * n + 2 * n + context);  // weights, gradients, m + v, temp
    // The backward pass: weights and both states, no gradients, then what the pass itself holds.
    CHECK(e.training_backward_peak_bytes ==
          2 * n + 4 * n + e.training_activation_bytes + e.logits_loss_bytes + context + e.allocator_margin_bytes);
    CHECK(e.training_peak_bytes == std::max(e.training_backward_peak_bytes, e.training_step_peak_bytes));
    CHECK(e.training_peak_bytes == e.training_step_peak_bytes);  // 2,048 tokens: the step peaks
    CHECK(training_peak_phase(e) == Total::training_step);
    CHECK(find_total(e, Total::training_peak)->combine == Combine::max);
    // fused: no temporary, no row.
    const Estimate fused = run("model=llama-3-8b&training-mode=detailed&optimizer-impl=fused");
    CHECK(fused.optimizer_temp_bytes == 0);
    CHECK(find_term(fused, "optimizer_temp") == nullptr);
    CHECK(fused.training_step_peak_bytes == e.training_step_peak_bytes - 2 * n);
    CHECK(fused.training_backward_peak_bytes == e.training_backward_peak_bytes);
    // Gradient accumulation keeps every gradient through the next micro-batches' backward passes.
    const Estimate accumulated = run("model=llama-3-8b&training-mode=detailed&grad-accum=8");
    CHECK(accumulated.training_backward_peak_bytes == e.training_backward_peak_bytes + 2 * n);
    CHECK(accumulated.training_step_peak_bytes == e.training_step_peak_bytes);
    // adamw-mixed keeps Adam's states in fp32: the temporary is 4 bytes per parameter; 8-bit Adam and SGD have none.
    CHECK(run("model=llama-3-8b&training-mode=detailed&recipe=adamw-mixed").optimizer_temp_bytes == 4 * n);
    CHECK(run("model=llama-3-8b&training-mode=detailed&recipe=adam-8bit").optimizer_temp_bytes == 0);
    CHECK(run("model=llama-3-8b&training-mode=detailed&recipe=sgd-momentum").optimizer_temp_bytes == 0);
    // Long sequences: the backward pass peaks, and its terms are the peak's.
    const Estimate long_run = run("model=llama-3-8b&training-mode=detailed&seq-len=16K");
    CHECK(training_peak_phase(long_run) == Total::training_backward);
    CHECK(long_run.training_peak_bytes == long_run.training_backward_peak_bytes);
    // ZeRO-1 splits the temporary with the states it is made from.
    const Estimate zero = run("model=llama-3-8b&training-mode=detailed&gpus=8&zero=1");
    CHECK(zero.optimizer_temp_bytes == (2 * n + 7) / 8);
}

TEST_CASE("the optimizer step's peak meets fms-acceleration's Mistral-7B full fine-tunes", "[training][step][reality]") {
    // fms-acceleration, scripts/benchmarks/refs/a100_80gb.csv at f1895b7c (tests/fixtures/reality.json rows
    // fms-mistral-7b-full-1gpu-b4 and -b8): Mistral-7B, pure fp16, AdamW (the Trainer's adamw_torch: foreach),
    // gradient checkpointing, FlashAttention, 4,096 tokens, gradient_accumulation_steps 1, one A100;
    // peak_torch_mem_alloc_in_bytes 72,971,724,288 at 4 sequences and 72,972,117,504 at 8. The measured peak
    // does not grow with the batch: it is the optimizer step's. Adding the whole batch's activations to every
    // state, as the peak did before it had two phases, put the 8-sequence run 19.6 % over.
    const char* state = "model=mistral-7b-v0.1&training-mode=detailed&seq-len=4096&recompute=full&attention=flash&loss=full"
                        "&framework-overhead=0&allocator-margin=0%&micro-batch=";
    for (const auto& [batch, measured] : {std::pair<const char*, double>{"4", 72'971'724'288.0}, {"8", 72'972'117'504.0}}) {
        const Estimate e = run((std::string(state) + batch).c_str());
        INFO("micro-batch " << batch << ": ours " << e.training_peak_bytes);
        // At 4 sequences and at 8 the step peaks, as the measured figures (equal to 0.0005 %) say.
        CHECK(training_peak_phase(e) == Total::training_step);
        CHECK(std::abs(static_cast<double>(e.training_peak_bytes) / measured - 1.0) < 0.01);
    }
}

TEST_CASE("optimizer-impl and grad-accum: defaults, round trips and keyed errors", "[training][step][settings]") {
    // The defaults are PyTorch's (foreach) and the Trainer's (one micro-batch per step); the seed's state shows neither.
    const Scenario seed;
    CHECK(seed.training.optimizer_impl == OptimizerImpl::foreach);
    CHECK(seed.training.grad_accum == 1);
    CHECK(find_setting("optimizer-impl")->show(seed).empty());
    CHECK(find_setting("grad-accum")->show(seed).empty());
    const Estimate plain = run("");
    CHECK(plain.weight_bytes == 26'000'000'000ULL);
    CHECK(plain.training_bytes == 104'000'000'000ULL);
    CHECK(find_total(plain, Total::training_step) == nullptr);
    const StateResult set = apply_state(Scenario{}, "optimizer-impl=fused&grad-accum=4");
    REQUIRE(set.problems.empty());
    CHECK(set.scenario.training.optimizer_impl == OptimizerImpl::fused);
    CHECK(set.scenario.training.grad_accum == 4);
    CHECK(find_setting("optimizer-impl")->show(set.scenario) == "fused");
    CHECK(find_setting("grad-accum")->show(set.scenario) == "4");
    Scenario s;
    CHECK(find_setting("grad-accum")->apply(s, "0") == "must be at least 1");
    CHECK_FALSE(find_setting("grad-accum")->apply(s, "2000000").empty());
    CHECK_FALSE(find_setting("grad-accum")->apply(s, "many").empty());
    const std::string bad = find_setting("optimizer-impl")->apply(s, "adam");
    INFO(bad);
    CHECK(bad.find("foreach") != std::string::npos);
    CHECK(bad.find("fused") != std::string::npos);
}
