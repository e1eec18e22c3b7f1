// The "How it runs" panel: combos and inputs bound to settings keys (dtype, recipe, lora-rank, lora-targets,
// qlora, training-mode, seq-len, micro-batch, recompute, attention, loss, tp, sp, pp, framework-overhead,
// allocator-margin, context, batch, kv-dtype, inference-mode, gpu, gpus, zero, gpu-memory) and the GPU
// verdict card.
// Its view state is AppState::runtime; every edit goes through app_try_setting.
// Figures come from app.estimate (or from core's estimate() of a recipe variant for the side-by-side range).
//
// Sections: buffer sync from the scenario generation · applying an edit · controls (format, recipe with
//   its range sentence, LoRA, KV cache, GPU) · verdict colours and lines · draw_runtime_panel ·
//   draw_gpu_fit.
#include "runtime_panel.hpp"

#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "architecture.hpp"
#include "formats.hpp"
#include "gpus.hpp"
#include "hybrid.hpp"
#include "imgui.h"
#include "quantity.hpp"
#include "recipes.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "theme.hpp"
#include "training.hpp"

namespace llm_memory {
namespace {

// The KV-cache formats the panel offers (keys of core/formats.hpp), and one line per ZeRO stage.
constexpr const char* kKvFormats[] = {"fp16", "bf16", "fp8", "fp32", "q8_0", "q4_0"};
constexpr const char* kStageText[] = {
    "Stage 0: every GPU holds all weights, gradients and optimizer states.",
    "Stage 1: optimizer states (incl. fp32 master weights) split over the GPUs.",
    "Stage 2: optimizer states and gradients split.",
    "Stage 3 (FSDP full shard): weights too; each GPU holds 1/N of everything."};

template <std::size_t N>
void fill(std::array<char, N>& buffer, const std::string& text) {
    std::snprintf(buffer.data(), buffer.size(), "%s", text.c_str());
}

// Refills the text buffers when the scenario changed anywhere but here.
void sync_view(AppState& app) {
    RuntimeView& v = app.runtime;
    if (v.synced_generation == app.scenario_generation) return;
    const Scenario& s = app.scenario;
    fill(v.lora_rank, std::to_string(s.lora_rank));
    fill(v.lora_targets, s.lora_targets);
    fill(v.context, std::to_string(s.context_tokens));
    fill(v.batch, std::to_string(s.batch_size));
    fill(v.images, std::to_string(s.image_count));
    const SettingSpec* image_size = find_setting("image-size");
    fill(v.image_size, image_size != nullptr ? image_size->show(s) : std::string());
    fill(v.gpus, std::to_string(s.gpu_count));
    const SettingSpec* memory = find_setting("gpu-memory");
    fill(v.gpu_memory, memory != nullptr ? memory->show(s) : std::string());
    const SettingSpec* split = find_setting("tensor-split");
    fill(v.tensor_split, split != nullptr ? split->show(s) : std::string());
    fill(v.seq_len, std::to_string(s.seq_len));
    fill(v.micro_batch, std::to_string(s.micro_batch));
    fill(v.tp, std::to_string(s.tp));
    fill(v.pp, std::to_string(s.pp));
    const SettingSpec* framework = find_setting("framework-overhead");
    const std::string framework_text = framework != nullptr ? framework->show(s) : std::string();
    fill(v.framework_overhead, framework_text.empty() ? std::string("auto") : framework_text);
    fill(v.allocator_margin, format_decimal(s.allocator_margin_percent) + "%");
    v.synced_generation = app.scenario_generation;
}

// Applies one key; keeps the last valid scenario on any error and shows it under the control it is about.
void apply_key(AppState& app, const char* key, const std::string& value) {
    RuntimeView& v = app.runtime;
    const Status bad = app_try_setting(app, key, value);
    if (bad) {
        v.error_key = key;  // shown where the user is typing; a problem of another key names that key
        v.error = bad->key == key ? bad->problem : bad->message();
        return;
    }
    if (v.error_key == key) v.error.clear();
    v.synced_generation = app.scenario_generation;  // the buffers already show what was typed
}

void explain(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
}

void control_error(const AppState& app, const char* key) {
    const RuntimeView& v = app.runtime;
    if (v.error.empty() || v.error_key != key) return;
    ImGui::PushStyleColor(ImGuiCol_Text, theme_palette(app.dark_theme).error_text);
    ImGui::TextWrapped("%s", v.error.c_str());
    ImGui::PopStyleColor();
}

template <std::size_t N>
void text_control(AppState& app, const char* label, const char* key, std::array<char, N>& buffer, const char* hint,
                  const std::string& explanation, bool enabled = true) {
    ImGui::PushID(key);
    ImGui::TextUnformatted(label);
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::BeginDisabled(!enabled);
    if (ImGui::InputTextWithHint("##value", hint, buffer.data(), buffer.size())) apply_key(app, key, buffer.data());
    ImGui::EndDisabled();
    control_error(app, key);
    explain(explanation);
    ImGui::PopID();
}

void format_combo(AppState& app) {
    const Scenario& s = app.scenario;
    std::string preview = "Bytes per parameter (" + format_decimal(s.bytes_per_param) + ")";
    std::string explanation = "The seed's b: set it in the Inputs. Pick a format to use its exact size.";
    if (!s.dtype.empty()) {
        const Expected<WeightFormat> f = find_weight_format(s.dtype);
        if (f) {
            preview = f->label + " - " + format_bits_per_weight(*f) + " bits";
            explanation = f->explanation;
        }
    }
    ImGui::TextUnformatted("Weight format");
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::BeginDisabled(s.qlora);
    if (ImGui::BeginCombo("##dtype", s.qlora ? "NF4 + double quant (QLoRA)" : preview.c_str())) {
        if (ImGui::Selectable("Bytes per parameter (the seed's b)", s.dtype.empty())) apply_key(app, "dtype", "");
        for (const WeightFormat& f : weight_formats()) {
            const std::string item = f.label + " - " + format_bits_per_weight(f) + " bits##" + f.key;
            if (ImGui::Selectable(item.c_str(), s.dtype == f.key)) apply_key(app, "dtype", f.key);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nSource: %s", f.explanation.c_str(), f.source.c_str());
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    control_error(app, "dtype");
    explain(s.qlora ? weight_format_note(s, app.estimate) : explanation);
}

void recipe_combo(AppState& app) {
    const Scenario& s = app.scenario;
    const Expected<Recipe> current = find_recipe(s.recipe);
    ImGui::TextUnformatted("Training recipe");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##recipe", current ? current->label.c_str() : s.recipe.c_str())) {
        for (const Recipe& r : recipes()) {
            if (ImGui::Selectable((r.label + "##" + r.key).c_str(), s.recipe == r.key)) apply_key(app, "recipe", r.key);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nSource: %s", r.explanation.c_str(), r.source.c_str());
        }
        ImGui::EndCombo();
    }
    control_error(app, "recipe");
    if (current) {
        explain(current->explanation);
        if (!current->weight_note.empty()) explain("Assumes " + current->weight_note + ".");
    }
    // The honest range: the same model under the seed's convention and mixed-precision AdamW
    // (recomputed only when the scenario changes).
    RuntimeView& v = app.runtime;
    if (v.range_generation != app.scenario_generation) {
        const Expected<std::string> range = recipe_range_sentence(s);
        v.range_text = range ? *range : std::string();
        v.range_generation = app.scenario_generation;
    }
    if (!v.range_text.empty()) explain(v.range_text);
}

void lora_controls(AppState& app) {
    RuntimeView& v = app.runtime;
    const bool has_model = app.scenario.model != nullptr;
    ImGui::SeparatorText("LoRA / QLoRA");
    if (!has_model) explain("Choose a model (preset or config.json) to count LoRA parameters from its layers.");
    text_control(app, "LoRA rank (0 = off)", "lora-rank", v.lora_rank, "8",
                 "Each targeted linear gains r x (in + out) trainable parameters, as PEFT counts them.", has_model);
    text_control(app, "Target modules", "lora-targets", v.lora_targets, "q,v",
                 "q,k,v,o,gate,up,down (or PEFT names, or all-linear). Only the adapter trains.", has_model);
    bool qlora = app.scenario.qlora;
    ImGui::BeginDisabled(!has_model || app.scenario.lora_rank == 0);
    if (ImGui::Checkbox("QLoRA: 4-bit NF4 base##qlora", &qlora)) apply_key(app, "qlora", qlora ? "true" : "false");
    ImGui::EndDisabled();
    control_error(app, "qlora");
    if (app.estimate.lora_trainable_count > 0)
        explain("Adapter: " + format_count_exact(app.estimate.lora_trainable_count) + " trainable parameters (" +
                format_bytes_decimal(app.estimate.adapter_weight_bytes) + " of 16-bit adapter weights).");
}

// One of a few words as radio buttons, each explained in plain words under the group.
template <typename Enum, std::size_t N>
void choice_control(AppState& app, const char* label, const char* key, Enum current, const char* const (&words)[N],
                    const char* (*help)(Enum), bool enabled) {
    ImGui::PushID(key);
    ImGui::TextUnformatted(label);
    ImGui::BeginDisabled(!enabled);
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0 && ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(words[i]).x * 2.5f) ImGui::SameLine();
        if (ImGui::RadioButton(words[i], static_cast<std::size_t>(current) == i)) apply_key(app, key, words[i]);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", help(static_cast<Enum>(i)));
    }
    ImGui::EndDisabled();
    control_error(app, key);
    explain(help(current));
    ImGui::PopID();
}

void training_controls(AppState& app) {
    RuntimeView& v = app.runtime;
    const Scenario& s = app.scenario;
    const bool has_model = s.model != nullptr;
    ImGui::SeparatorText("Training as it runs");
    int mode = s.detailed_training ? 1 : 0;
    ImGui::TextUnformatted("Training estimate");
    ImGui::BeginDisabled(!has_model && !s.detailed_training);
    if (ImGui::RadioButton("Simple##training-mode", &mode, 0)) apply_key(app, "training-mode", "simple");
    ImGui::SameLine();
    if (ImGui::RadioButton("Detailed##training-mode", &mode, 1)) apply_key(app, "training-mode", "detailed");
    ImGui::EndDisabled();
    control_error(app, "training-mode");
    if (!has_model)
        explain("Detailed needs a model (preset or config.json): the activations come from its layers, hidden size, FFN "
                "width and gating, KV heads, vocabulary and dropout.");
    else
        explain(mode == 0 ? "The seed's total: weights + gradients + optimizer states. The GPU verdict still uses the peak "
                            "below, since the model is known."
                          : "Adds, per GPU: activations saved for the backward pass, logits and loss, framework memory "
                            "and the allocator's margin (the training peak).");
    if (!has_model) return;
    static const char* const kRecompute[] = {"none", "selective", "full"};
    static const char* const kAttention[] = {"flash", "eager"};
    static const char* const kLoss[] = {"full", "chunked"};
    text_control(app, "Sequence length (tokens)", "seq-len", v.seq_len, "2048 or 8K", "Tokens per training sequence; 8K = 8192.");
    text_control(app, "Micro-batch (sequences per GPU)", "micro-batch", v.micro_batch, "1",
                 "Sequences in one forward and backward pass on each GPU (gradient accumulation does not add to it).");
    choice_control(app, "Activation recompute", "recompute", s.recompute, kRecompute, recompute_help, true);
    choice_control(app, "Attention kernel", "attention", s.attention, kAttention, attention_help, true);
    choice_control(app, "Loss", "loss", s.loss, kLoss, loss_help, true);
    text_control(app, "Tensor parallel (tp)", "tp", v.tp, "1",
                 "GPUs that split every layer; must divide the attention heads. Number of GPUs must be a multiple of tp x pp.");
    bool sp = s.sp;
    if (ImGui::Checkbox("Sequence parallel (with tp)##sp", &sp)) apply_key(app, "sp", sp ? "true" : "false");
    explain("The tensor-parallel GPUs also split the norm and dropout activations along the sequence.");
    text_control(app, "Pipeline stages (pp)", "pp", v.pp, "1",
                 "1F1B schedule: the first stage holds pp micro-batches of its layers, the most activations; must divide "
                 "the layers.");
    text_control(app, "Framework memory per GPU", "framework-overhead", v.framework_overhead, "auto",
                 "auto: a 512 MiB CUDA context, + 1.5 GiB for NCCL with more than one GPU. Or a size such as 1GiB, or 0.");
    text_control(app, "Allocator margin", "allocator-margin", v.allocator_margin, "10%",
                 "PyTorch's caching allocator reserves more than it allocates: this share of the activations and logits.");
    explain(training_metric_sentence(s));
}

void kv_controls(AppState& app) {
    RuntimeView& v = app.runtime;
    const bool has_model = app.scenario.model != nullptr;
    ImGui::SeparatorText("KV cache and inference");
    if (!has_model) explain("Choose a model to size the KV cache from its layers, KV heads and head_dim.");
    text_control(app, "Context (tokens)", "context", v.context, "4096 or 8K",
                 "Tokens kept per sequence; 8K = 8192. 0 = no KV cache.", has_model);
    text_control(app, "Batch (sequences)", "batch", v.batch, "1", "Sequences decoded together; multiplies the cache.",
                 has_model);
    const bool has_vision = has_model && app.scenario.model->architecture.vision.kind != VisionKind::none;
    if (has_vision || app.scenario.text_only) {
        bool text_only = app.scenario.text_only;
        if (ImGui::Checkbox("Text only (leave the vision tower out)##text-only", &text_only))
            apply_key(app, "text-only", text_only ? "true" : "false");
        if (app.runtime.error_key == "text-only") explain(app.runtime.error);
    }
    if (has_vision && !app.scenario.text_only) {
        text_control(app, "Images per sequence", "images", v.images, "0",
                     "Each image becomes the family's image tokens in the context (and the KV cache).");
        text_control(app, "Image size (W x H pixels)", "image-size", v.image_size, "896x896",
                     image_token_rule(app.scenario.model->architecture.vision));
        if (app.estimate.image_tokens > 0)
            explain("Images: " + format_count_exact(app.estimate.image_tokens) + " tokens added to the context.");
    }
    ImGui::TextUnformatted("KV-cache format");
    ImGui::SetNextItemWidth(-1.0f);
    ImGui::BeginDisabled(!has_model);
    if (ImGui::BeginCombo("##kv-dtype", app.scenario.kv_dtype.c_str())) {
        for (const char* key : kKvFormats)
            if (ImGui::Selectable(key, app.scenario.kv_dtype == key)) apply_key(app, "kv-dtype", key);
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    explain("Bytes per cached value: fp16 2, fp8 1, q8_0 8.5 bits.");
    if (app.estimate.kv_cache_bytes > 0)
        explain("KV cache: " + format_gb(app.estimate.kv_cache_bytes) + " (" + format_gib(app.estimate.kv_cache_bytes) +
                ") = 2 x layers x KV heads x head_dim x tokens x batch x bytes.");
    if (const MemoryTerm* state = find_term(app.estimate, "recurrent_state"))
        explain("Recurrent state: " + format_gb(state->bytes) + " (" + format_gib(state->bytes) + "). " +
                recurrent_layers_note(app.scenario.model->architecture));
    int mode = app.scenario.detailed_inference ? 1 : 0;
    ImGui::TextUnformatted("Inference estimate");
    if (ImGui::RadioButton("Simple##mode", &mode, 0)) apply_key(app, "inference-mode", "simple");
    ImGui::SameLine();
    if (ImGui::RadioButton("Detailed##mode", &mode, 1)) apply_key(app, "inference-mode", "detailed");
    explain(mode == 0 ? "The seed's rule: weights x overhead factor (1.2)."
                      : "Weights + KV cache + activation workspace + runtime reserve, each shown; no overhead factor.");
    if (app.estimate.detailed_inference) {
        const Estimate& e = app.estimate;
        std::string sum;
        for (const MemoryTerm* part : parts_of(e, Total::detailed_inference))
            sum += (sum.empty() ? "" : " + ") + part->short_label + " " + format_gb(part->bytes);
        explain(sum + " = " + format_gb(e.detailed_inference_bytes));
    }
}

void gpu_controls(AppState& app) {
    RuntimeView& v = app.runtime;
    const Scenario& s = app.scenario;
    ImGui::SeparatorText("GPU");
    std::string preview = "None";
    if (s.gpu_memory_bytes > 0) preview = "Custom size";
    else if (!s.gpu.empty()) {
        const Expected<Gpu> g = find_gpu(s.gpu);
        if (g) preview = g->label + " (" + g->vendor_memory + ")";
    }
    ImGui::TextUnformatted("Accelerator");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::BeginCombo("##gpu", preview.c_str())) {
        if (ImGui::Selectable("None##gpu-none", s.gpu.empty() && s.gpu_memory_bytes == 0)) {
            apply_key(app, "gpu-memory", "0");
            apply_key(app, "gpu", "none");
        }
        for (const Gpu& g : gpu_catalogue()) {
            const std::string item = g.label + " - " + g.vendor_memory + "##" + g.key;
            if (ImGui::Selectable(item.c_str(), s.gpu == g.key && s.gpu_memory_bytes == 0)) {
                apply_key(app, "gpu-memory", "0");
                apply_key(app, "gpu", g.key);
            }
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", g.note.c_str());
        }
        ImGui::EndCombo();
    }
    control_error(app, "gpu");
    text_control(app, "Custom memory per GPU", "gpu-memory", v.gpu_memory, "80GiB or 24GB",
                 "Overrides the choice above. GB = 10^9 bytes, GiB = 2^30 (vendors' \"80 GB\" HBM is 80 GiB).");
    text_control(app, "Number of GPUs", "gpus", v.gpus, "1", "Model states are spread over these by the ZeRO stage.");
    if (s.gpu_count > 1 || !s.tensor_split.empty())
        text_control(app, "Tensor split (inference)", "tensor-split", v.tensor_split, "even, or 3,1",
                     "One proportion per GPU, as llama.cpp's --tensor-split; each card's share gets its own verdict.");
    int stage = s.zero_stage;
    ImGui::TextUnformatted("ZeRO / FSDP stage");
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderInt("##zero", &stage, 0, 3)) apply_key(app, "zero", std::to_string(stage));
    explain(kStageText[stage < 0 || stage > 3 ? 0 : stage]);
}

ImVec4 verdict_colour(const AppState& app, FitVerdict verdict) {
    const Palette& p = theme_palette(app.dark_theme);
    if (verdict == FitVerdict::fits) return p.ok_text;
    if (verdict == FitVerdict::does_not_fit) return p.error_text;
    return ImVec4(0.95f, 0.68f, 0.20f, 1.0f);  // amber: tight
}

void verdict_line(const AppState& app, const char* what, std::uint64_t per_gpu_bytes, FitVerdict verdict,
                  std::uint64_t margin_bytes, const char* per = " per GPU") {
    ImGui::TextUnformatted(what);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, verdict_colour(app, verdict));
    const std::string margin = verdict == FitVerdict::does_not_fit ? format_gb(margin_bytes) + " short"
                                                                   : format_gb(margin_bytes) + " to spare";
    ImGui::TextWrapped("%s%s: %s (%s)", format_gb(per_gpu_bytes).c_str(), per, verdict_text(verdict), margin.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

void draw_runtime_panel(AppState& app) {
    sync_view(app);
    ImGui::PushID("runtime_panel");
    ImGui::SeparatorText("How it runs");
    format_combo(app);
    recipe_combo(app);
    lora_controls(app);
    training_controls(app);
    kv_controls(app);
    gpu_controls(app);
    ImGui::PopID();
}

void draw_gpu_fit(const AppState& app) {
    const GpuFit& g = app.estimate.gpu;
    ImGui::PushID("gpu_fit");
    ImGui::SeparatorText("Does it fit?");
    if (!g.requested) {
        explain("Choose a GPU (or a custom memory size) to see whether this estimate fits and how many GPUs it needs.");
        ImGui::PopID();
        return;
    }
    ImGui::Text("%llu x %s (%s) per GPU, ZeRO stage %d", static_cast<unsigned long long>(g.gpu_count),
                format_gb(g.capacity_bytes).c_str(), format_gib(g.capacity_bytes).c_str(), g.zero_stage);
    if (g.training_uses_peak)
        verdict_line(app, "Training peak:", g.training_peak_per_gpu_bytes, g.training_verdict, g.training_margin_bytes);
    else
        verdict_line(app, "Training:", g.training_per_gpu.total(), g.training_verdict, g.training_margin_bytes);
    if (g.training_gpus_needed == 0)
        explain("No number of GPUs fits at ZeRO stage " + std::to_string(g.zero_stage) +
                " (the unsplit part alone is too big); try a higher stage" +
                (g.training_uses_peak ? std::string(", recompute, a shorter sequence or a chunked loss.") : std::string(".")));
    else
        explain(std::to_string(g.training_gpus_needed) + " GPU" + (g.training_gpus_needed == 1 ? "" : "s") +
                " needed at this stage: model states are weights " + format_gb(g.training_per_gpu.weight_bytes) + " + gradients " +
                format_gb(g.training_per_gpu.gradient_bytes) + " + optimizer " +
                format_gb(g.training_per_gpu.optimizer_bytes) + " per GPU now.");
    explain(training_fit_note(app.scenario, app.estimate));
    verdict_line(app, app.estimate.detailed_inference ? "Inference (detailed):" : "Inference:", g.inference_per_gpu_bytes,
                 g.inference_verdict, g.inference_margin_bytes);
    explain(std::to_string(g.inference_gpus_needed) + " GPU" + (g.inference_gpus_needed == 1 ? "" : "s") +
            " needed if the inference total is split evenly (tensor or pipeline parallel).");
    if (!g.inference_cards.empty()) {
        // Per card, not pooled: each card must hold its own share of the split.
        explain(card_split_heading(app.scenario, app.estimate) + ":");
        constexpr std::size_t kListed = 16;
        for (std::size_t i = 0; i < g.inference_cards.size() && i < kListed; ++i) {
            const CardFit& card = g.inference_cards[i];
            const std::string label = "  GPU " + std::to_string(i) + ":";
            verdict_line(app, label.c_str(), card.bytes, card.verdict, card.margin_bytes, "");
        }
    }
    ImGui::PopID();
}

}  // namespace llm_memory
