// Reports of an estimate as text: the JSON object shared by the CLI and the JS API, a plain table,
// Markdown, and the one-paragraph summary read by screen readers. Byte figures are JSON integers.
#pragma once

#include <string>
#include <vector>

#include "estimator.hpp"
#include "json_writer.hpp"

namespace llm_memory {

// Which units a human-readable report shows.
enum class UnitChoice { gb, gib, both };

// One JSON object (no trailing newline) with the inputs and the byte figures as integers:
// parameters, trainable_parameters, bytes_per_parameter, overhead_factor, values_per_trainable,
// bytes_per_value, weight_bytes, inference_bytes, gradient_optimizer_bytes, training_bytes,
// full_training_bytes, reduction_bytes. Keys that appear only when their feature is in use (so the
// seed's object is unchanged): weight_format (--dtype/--qlora); recipe and training_components
// [{name, bytes_per_trainable, bytes, kind}] (--recipe other than seed-adam); lora_trainable_parameters,
// adapter_weight_bytes (--lora-rank); kv_cache_bytes (--context); inference_mode, inference_activation_bytes,
// runtime_reserve_bytes, detailed_inference_bytes (--inference-mode detailed); training_mode, training
// {seq_len, micro_batch, recompute, attention, loss, tp, sp, pp, optimizer_impl, grad_accum,
// activation_bytes_per_value, metric}, weight_per_gpu_bytes, gradient_per_gpu_bytes, optimizer_per_gpu_bytes,
// optimizer_temp_bytes (foreach Adam/AdamW), activation_bytes, logits_loss_bytes, framework_overhead_bytes,
// allocator_margin_bytes, backward_peak_bytes, step_peak_bytes, training_peak_bytes (the larger),
// training_peak_phase ("backward pass" or "optimizer step"), activation_breakdown {norms, attention,
// attention_core, mlp, recompute_live, outside_layers, stage, stage_layers, micro_batches_in_flight},
// training_peak_terms [{key, label, formula, bytes}: the terms of the phase that peaks] (--training-mode detailed); gpu {name, capacity_bytes, gpus, zero_stage, per_gpu_bytes
// (model states), training_basis ("training_peak" when a model is known, else "model_states"),
// peak_per_gpu_bytes (with the peak), fits, verdict, margin_bytes, gpus_needed, inference {per_gpu_bytes,
// fits, verdict, margin_bytes, gpus_needed, cards [per GPU: bytes, fits, verdict, margin_bytes; with --gpus
// above 1]}} (--gpu or --gpu-memory; fits, verdict, margin_bytes and
// gpus_needed are for training_basis; gpus_needed 0 means no number of GPUs suffices at that ZeRO stage).
// `leading` members come first, before "parameters" (the CLI's "from_command", a model file's "file", a Hub
// look-up's "hub").
std::string report_json(const Scenario& scenario, const Estimate& estimate, const std::vector<JsonField>& leading = {});

// A verdict sentence and its verdict as data, so that a face colours it without reading the words.
struct VerdictLine {
    std::string text;
    FitVerdict verdict = FitVerdict::fits;
    bool run = false;  // the run verdict ("Runs on ..."), which a phone shows above its totals
};

// The verdicts that lead every face, in order: "Runs on ..." with the engine (when one is chosen), then the
// training verdict as its own sentence ("Trains on ..." or why an inference-only format cannot train).
// An inference-only format on a GPU without an engine leads with the seed's run verdict ("Runs on 1 x
// NVIDIA GeForce RTX 4070 by the seed's rule: no, ..."): the question such a user asked is whether it runs.
// Empty without an engine and without an inference-only format. An engine that cannot be estimated (its
// error) and an inference-only format are does_not_fit.
std::vector<VerdictLine> verdict_lines(const Scenario& scenario, const Estimate& estimate);

// An aligned plain-text table, one result per line. With an engine it leads with the engine's report
// (the run verdict, per-device terms, the command line) and the training verdict, then the seed's figures.
std::string report_table(const Scenario& scenario, const Estimate& estimate, UnitChoice units);

// A Markdown table of the same figures.
std::string report_markdown(const Scenario& scenario, const Estimate& estimate, UnitChoice units);

// "Weight memory 26 GB (24.21 GiB). Inference total 31.2 GB (29.06 GiB). ..."
std::string report_summary(const Estimate& estimate);

// What a page's text view shows of the report, formatted by core: {"inputs": [the plain-text report's lines
// above its figures: inputs, LoRA count, KV cache and its runtime note, chosen model], "results": [{"key",
// "label", "bytes", "gb", "gib"}] in the table's order, "gpu": [the GPU verdict sentences]} (gpu empty without
// --gpu / --gpu-memory).
std::string report_view_json(const Scenario& scenario, const Estimate& estimate);

// The honest range of training conventions for this scenario: its training total under the seed's
// k x state-bytes and under mixed-precision AdamW, each with its bytes per trainable parameter:
// "Conventions differ: training total 104 GB (seed-adam, 6 bytes) vs 208 GB (adamw-mixed, 14 bytes) per
// trainable parameter." The seed's bytes follow k and state-bytes (k = 4 x 2 bytes gives 8 bytes).
// Error: either variant does not estimate (its message).
Expected<std::string> recipe_range_sentence(const Scenario& scenario);

// The inference line of the GPU sentences. Without an engine, the seed's verdict: "Inference (simple) per GPU
// 31.2 GB: fits, 48.8 GB to spare; 1 GPU needed if split evenly". With one, the engine's run verdict is the
// answer and this is a comparison without a verdict word: "For comparison, the seed's rule (weights x 1.2,
// every layer on the GPUs, none of llama.cpp's placement): 40.2 GB per GPU, 9.28 GB more than a card holds;
// 2 GPUs if split evenly".
std::string inference_gpu_sentence(const Scenario& scenario, const Estimate& estimate);

// With more than one GPU, each card's share of the inference total and its verdict, pooled memory beside:
// "Per card (tensor split 3:1 of 31.2 GB; pooled 51.54 GB, but each card holds its own share): GPU 0
// 23.4 GB: tight, 2.37 GB to spare; GPU 1 7.8 GB: fits, 17.97 GB to spare". "" with one GPU.
std::string card_sentence(const Scenario& scenario, const Estimate& estimate);
// The part of card_sentence before the list: "Per card (tensor split 3:1 of 31.2 GB; pooled ...)".
std::string card_split_heading(const Scenario& scenario, const Estimate& estimate);

// The chosen GPU as reports name it: the catalogue label ("NVIDIA GeForce RTX 4090"), or "custom GPU" for
// --gpu-memory; "" without a GPU.
std::string gpu_name(const Scenario& scenario);

// "Training (detailed): seq-len 2048 x micro-batch 1, recompute none, flash attention, full loss, tp 1, pp 1"
// and, on a second indented line, training_metric_sentence.
std::string training_settings_line(const Scenario& scenario);

// The training verdict in words: on the peak "fits", "fits unless the run lands at the high end" or
// "does not fit"; on model states alone the plain verdict text.
std::string training_verdict_text(const GpuFit& gpu);
// The same with its figures: "fits, 5.9 GB to spare (2.1 GB at the high end)".
std::string training_verdict_phrase(const GpuFit& gpu);
// "Likely 17.4 GB to 29.8 GB (−9.2 % to +50.4 % of 19.8 GB): where published QLoRA runs in the reality
// table measured against our figure (10th to 90th percentile)."; "" without a training peak.
std::string training_band_sentence(const Estimate& estimate);

// Which measurement the training peak estimates: nvidia-smi's figure (allocated + allocator margin +
// framework memory) by default, torch.cuda.max_memory_allocated when framework-overhead and
// allocator-margin are both 0.
std::string training_metric_sentence(const Scenario& scenario);

// What decides the weights' bytes when it is not the seed's b: "" when b is used; else one line such as
// "QLoRA decides: the decoder's linear weights in NF4 + double quant (4.126953 bits); embeddings, output
// head and norms in 16 bits." or "The weight format decides: Q4_K_M (4.85 bits per weight); b is not used."
std::string weight_format_note(const Scenario& scenario, const Estimate& estimate);
// The format as the bytes field shows it: "NF4 + double quant = 4.126953 bits"; "" when b is used.
std::string weight_format_value(const Estimate& estimate);

// The training verdict's basis in one sentence: what the peak includes, or that only model states are
// counted (no model known). "" without a GPU.
std::string training_fit_note(const Scenario& scenario, const Estimate& estimate);

}  // namespace llm_memory
