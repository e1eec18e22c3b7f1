// The "How it runs" panel: every setting beyond the seed's inputs as one setting_control each (its label,
// unit, kind, choices and note come from core's settings table), placed in sections by hand, with any row no
// section places drawn under "More settings"; and the GPU verdict card.
// Its view state is AppState::runtime (one text buffer per settings row); every edit goes through
// app_try_setting. Figures come from app.estimate (or core's recipe_range_sentence for the side-by-side range).
//
// Sections: buffer sync from the scenario generation · applying an edit · setting_control · the sections
//   (format and recipe, LoRA, training, KV cache, GPU) · verdict colours and lines · draw_runtime_panel ·
//   draw_gpu_fit.
#include "runtime_panel.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "architecture.hpp"
#include "engine_panel.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "recipes.hpp"
#include "engines/engine.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "theme.hpp"

namespace llm_memory {
namespace {

// Controls other panels draw: the model picker (model_panel.cpp) and the seed's inputs (panels_inputs.cpp).
constexpr const char* kDrawnElsewhere[] = {"model", "params", "bytes", "overhead", "trainable", "k", "state-bytes"};

std::size_t setting_index(const char* key) {
    const std::vector<SettingSpec>& specs = setting_specs();
    std::size_t i = 0;
    while (i < specs.size() && std::strcmp(specs[i].key, key) != 0) ++i;
    return i;
}

// Refills the text buffers when the scenario changed anywhere but here.
void sync_view(AppState& app) {
    RuntimeView& v = app.runtime;
    const std::vector<SettingSpec>& specs = setting_specs();
    if (v.text.size() != specs.size()) {
        v.text.assign(specs.size(), {});
        v.placed.assign(specs.size(), 0);
        v.drawn.assign(specs.size(), 0);
        v.synced_generation = ~std::uint64_t{0};
    }
    if (v.synced_generation == app.scenario_generation) return;
    for (std::size_t i = 0; i < specs.size(); ++i)
        std::snprintf(v.text[i].data(), v.text[i].size(), "%s", setting_field_text(specs[i], app.scenario).c_str());
    v.synced_generation = app.scenario_generation;
}

// Applies one key; keeps the last valid scenario on any error and shows it under the control it is about.
bool apply_key(AppState& app, const char* key, const std::string& value) {
    RuntimeView& v = app.runtime;
    const Status bad = app_try_setting(app, key, value);
    if (bad) {
        v.error_key = key;  // shown where the user is typing; a problem of another key names that key
        v.error = bad->key == key ? bad->problem : bad->message();
        return false;
    }
    if (v.error_key == key) v.error.clear();
    v.synced_generation = app.scenario_generation;  // the buffers already show what was typed
    return true;
}

void explain(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text("%s", text.c_str());
    ImGui::PopStyleColor();
}

void control_error(const AppState& app, const char* key) {
    const RuntimeView& v = app.runtime;
    if (v.error.empty() || v.error_key != key) return;
    ImGui::PushStyleColor(ImGuiCol_Text, theme_palette(app.dark_theme).error_text);
    wrapped_text("%s", v.error.c_str());
    ImGui::PopStyleColor();
}

void choice_tooltip(const Choice& choice) {
    if (!ImGui::IsItemHovered() || choice.help.empty()) return;
    if (choice.source.empty()) ImGui::SetTooltip("%s", choice.help.c_str());
    else ImGui::SetTooltip("%s\nSource: %s", choice.help.c_str(), choice.source.c_str());
}

// A choice's control: radio buttons for a few words, a list for a catalogue. True when a choice was applied.
bool choice_input(AppState& app, const SettingSpec& spec, std::size_t current) {
    const std::vector<Choice>& choices = spec.choices();
    bool applied = false;
    if (choices.size() <= 4) {
        for (std::size_t j = 0; j < choices.size(); ++j) {
            const std::string& word = choices[j].word;
            if (j > 0 && ImGui::GetContentRegionAvail().x > ImGui::CalcTextSize(word.c_str()).x * 2.5f) ImGui::SameLine();
            if (ImGui::RadioButton((word + "##" + spec.key).c_str(), j == current)) applied = apply_key(app, spec.key, word);
            choice_tooltip(choices[j]);
        }
        return applied;
    }
    ImGui::SetNextItemWidth(-1.0f);
    const std::string preview = current < choices.size() ? choices[current].label : setting_field_text(spec, app.scenario);
    if (ImGui::BeginCombo((std::string("##") + spec.key).c_str(), preview.c_str())) {
        for (std::size_t j = 0; j < choices.size(); ++j) {
            if (ImGui::Selectable((choices[j].label + "##" + choices[j].word).c_str(), j == current))
                applied = apply_key(app, spec.key, choices[j].word);
            choice_tooltip(choices[j]);
        }
        ImGui::EndCombo();
    }
    return applied;
}

}  // namespace

bool setting_drawn_elsewhere(const char* key) {
    for (const char* other : kDrawnElsewhere)
        if (std::strcmp(other, key) == 0) return true;
    return engine_panel_draws(key);
}

bool setting_control(AppState& app, const char* key, Shown shown) {
    sync_view(app);
    const std::size_t i = setting_index(key);
    const std::vector<SettingSpec>& specs = setting_specs();
    if (i == specs.size()) return false;
    RuntimeView& v = app.runtime;
    v.placed[i] = 1;
    if (shown == Shown::hidden) return false;
    v.drawn[i] = 1;
    const SettingSpec& spec = specs[i];
    std::string label = spec.label;
    if (spec.unit[0] != '\0') label = label + " (" + spec.unit + ")";
    std::size_t current = ~std::size_t{0};
    bool applied = false;
    ImGui::PushID(spec.key);
    ImGui::BeginDisabled(shown == Shown::disabled);
    if (spec.kind == SettingKind::flag) {
        bool on = setting_field_text(spec, app.scenario) == "true";  // a flag whose default is on shows "true"
        if (ImGui::Checkbox((label + "##" + spec.key).c_str(), &on)) applied = apply_key(app, spec.key, on ? "true" : "false");
    } else if (spec.kind == SettingKind::choice && spec.choices != nullptr) {
        ImGui::TextUnformatted(label.c_str());
        current = choice_index(spec.choices(), setting_field_text(spec, app.scenario));
        applied = choice_input(app, spec, current);
        current = choice_index(spec.choices(), setting_field_text(spec, app.scenario));
    } else {
        ImGui::TextUnformatted(label.c_str());
        ImGui::SetNextItemWidth(-1.0f);
        std::array<char, 128>& buffer = v.text[i];
        if (ImGui::InputTextWithHint((std::string("##") + spec.key).c_str(), spec.hint, buffer.data(), buffer.size()))
            applied = apply_key(app, spec.key, buffer.data());
        if (ImGui::IsItemHovered()) app.hovered_key = spec.key;
        if (ImGui::IsItemActive()) app.editing_key = spec.key;
    }
    ImGui::EndDisabled();
    control_error(app, spec.key);
    if (spec.note[0] != '\0') explain(spec.note);
    else if (spec.choices != nullptr && current < spec.choices().size() && !spec.choices()[current].help.empty())
        explain(spec.choices()[current].help);
    ImGui::PopID();
    return applied;
}

namespace {

void format_and_recipe(AppState& app) {
    const Scenario& s = app.scenario;
    setting_control(app, "dtype", s.qlora ? Shown::disabled : Shown::enabled);
    if (s.qlora) explain(weight_format_note(s, app.estimate));
    setting_control(app, "recipe");
    const Expected<Recipe> current = find_recipe(app.scenario.recipe);
    if (current && !current->weight_note.empty()) explain("Assumes " + current->weight_note + ".");
    // The honest range: the same model under the seed's convention and mixed-precision AdamW
    // (recomputed only when the scenario changes).
    RuntimeView& v = app.runtime;
    if (v.range_generation != app.scenario_generation) {
        const Expected<std::string> range = recipe_range_sentence(app.scenario);
        v.range_text = range ? *range : std::string();
        v.range_generation = app.scenario_generation;
    }
    if (!v.range_text.empty()) explain(v.range_text);
}

// A section whose settings need a model: its heading, and without a model why they are greyed out. Returns how
// those settings are shown.
Shown model_section(const AppState& app, const char* title, const char* without_model) {
    ImGui::SeparatorText(title);
    if (app.scenario.model != nullptr) return Shown::enabled;
    explain(without_model);
    return Shown::disabled;
}

void lora_section(AppState& app) {
    const Shown with_model = model_section(app, "LoRA / QLoRA", "Choose a model (preset or config.json) to count LoRA parameters from its layers.");
    const bool has_model = with_model == Shown::enabled;
    setting_control(app, "lora-rank", with_model);
    setting_control(app, "lora-targets", with_model);
    setting_control(app, "qlora", has_model && app.scenario.lora_rank > 0 ? Shown::enabled : Shown::disabled);
    setting_control(app, "upcast-nonquantized", app.scenario.qlora ? Shown::enabled : Shown::disabled);
    setting_control(app, "adapter-dtype", app.scenario.lora_rank > 0 ? Shown::enabled : Shown::disabled);
    if (app.estimate.lora_trainable_count > 0)
        explain("Adapter: " + format_count_exact(app.estimate.lora_trainable_count) + " trainable parameters (" +
                format_bytes_decimal(app.estimate.adapter_weight_bytes) + " of " +
                (app.estimate.adapter_fp32 ? "fp32" : "16-bit") + " adapter weights).");
}

void training_section(AppState& app) {
    const Scenario& s = app.scenario;
    const bool has_model = s.model != nullptr;
    ImGui::SeparatorText("Training as it runs");
    setting_control(app, "training-mode", !has_model && !s.detailed_training ? Shown::disabled : Shown::enabled);
    if (!has_model)
        explain("Detailed needs a model (preset or config.json): the activations come from its layers, hidden size, FFN "
                "width and gating, KV heads, vocabulary and dropout.");
    const Shown shown = has_model ? Shown::enabled : Shown::hidden;
    for (const char* key : {"seq-len", "micro-batch", "recompute", "attention", "loss", "tp", "sp", "pp",
                            "fsdp-prefetch", "zero-bucket", "overlap-comm", "optimizer-impl", "grad-accum", "framework-overhead",
                            "allocator-margin"})
        setting_control(app, key, shown);
    if (has_model) explain(training_metric_sentence(app.scenario));
}

void kv_section(AppState& app) {
    const Shown with_model = model_section(app, "KV cache and inference", "Choose a model to size the KV cache from its layers, KV heads and head_dim.");
    const bool has_model = with_model == Shown::enabled;
    setting_control(app, "context", with_model);
    setting_control(app, "batch", with_model);
    // A vision or audio tower: the text-only switch; a vision tower: images that become context tokens.
    const VisionKind tower = has_model ? app.scenario.model->architecture.vision.kind : VisionKind::none;
    setting_control(app, "text-only", tower != VisionKind::none || app.scenario.text_only ? Shown::enabled : Shown::hidden);
    const Shown images = tower != VisionKind::none && tower != VisionKind::voxtral && !app.scenario.text_only ? Shown::enabled : Shown::hidden;
    setting_control(app, "images", images);
    setting_control(app, "image-size", images);
    if (images == Shown::enabled) explain(image_token_rule(app.scenario.model->architecture.vision, image_processor(app.scenario)));
    if (app.estimate.image_tokens > 0)
        explain("Images: " + format_count_exact(app.estimate.image_tokens) + " tokens added to the context.");
    const bool audio = has_model && app.scenario.model->architecture.vision.audio && !app.scenario.text_only;
    setting_control(app, "audio-seconds", audio ? Shown::enabled : Shown::hidden);
    if (audio)
        explain(audio_token_rule(app.scenario.model->architecture.vision, image_processor(app.scenario)) +
                (app.estimate.audio_tokens > 0 ? ": " + format_count_exact(app.estimate.audio_tokens) + " tokens added to the context." : "."));
    setting_control(app, "kv-dtype", with_model);
    const Estimate& e = app.estimate;
    if (e.kv_cache_bytes > 0)
        explain("KV cache: " + format_gb(e.kv_cache_bytes) + " (" + format_gib(e.kv_cache_bytes) +
                ") = 2 x layers x KV heads x head_dim x tokens x batch x bytes.");
    setting_control(app, "inference-mode");
    if (e.detailed_inference) {
        std::string sum;
        for (const MemoryTerm* part : parts_of(e, Total::detailed_inference))
            sum += (sum.empty() ? "" : " + ") + part->short_label + " " + format_gb(part->bytes);
        explain(sum + " = " + format_gb(e.detailed_inference_bytes));
    }
}

void gpu_section(AppState& app) {
    ImGui::SeparatorText("GPU");
    // A GPU picked from the list replaces a custom size.
    if (setting_control(app, "gpu") && app.scenario.gpu_memory_bytes > 0) apply_key(app, "gpu-memory", "0");
    setting_control(app, "gpu-memory");
    setting_control(app, "gpus");
    const Scenario& s = app.scenario;
    setting_control(app, "tensor-split", s.gpu_count > 1 || !s.tensor_split.empty() ? Shown::enabled : Shown::hidden);
    setting_control(app, "zero");
    setting_control(app, "confidence", Shown::hidden);  // drawn in the What fits panel (fit_panel.cpp)
}

void verdict_line(const AppState& app, const char* what, std::uint64_t per_gpu_bytes, FitVerdict verdict,
                  std::uint64_t margin_bytes, const char* per = " per GPU") {
    ImGui::TextUnformatted(what);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, verdict_colour(app, verdict));
    const std::string margin = verdict == FitVerdict::does_not_fit ? format_gb(margin_bytes) + " short"
                                                                   : format_gb(margin_bytes) + " to spare";
    wrapped_text("%s%s: %s (%s)", format_gb(per_gpu_bytes).c_str(), per, verdict_text(verdict), margin.c_str());
    ImGui::PopStyleColor();
}

}  // namespace

void draw_runtime_panel(AppState& app) {
    sync_view(app);
    RuntimeView& v = app.runtime;
    std::fill(v.placed.begin(), v.placed.end(), 0);
    std::fill(v.drawn.begin(), v.drawn.end(), 0);
    ImGui::PushID("runtime_panel");
    ImGui::SeparatorText("How it runs");
    format_and_recipe(app);
    lora_section(app);
    training_section(app);
    kv_section(app);
    gpu_section(app);
    // A row no section places (a new setting) still gets its control, here.
    bool heading = false;
    const std::vector<SettingSpec>& specs = setting_specs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (v.placed[i] || setting_drawn_elsewhere(specs[i].key)) continue;
        if (!heading) ImGui::SeparatorText("More settings");
        heading = true;
        setting_control(app, specs[i].key);
    }
    ImGui::PopID();
}

void draw_gpu_fit(AppState& app) {
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
    // Running comes first: it is the question most people bring. Training is its own verdict below. With an
    // engine, its own answer leads (layers it offloads to the CPU included); the whole-model line follows.
    const VerdictLine engine_run = app.scenario.engine.kind != EngineKind::none ? run_verdict(app) : VerdictLine{};
    if (!engine_run.text.empty()) {
        // One answer to "does it run": the engine's. The seed's rule follows as a muted comparison.
        verdict_text_line(app, engine_run.text, engine_run.verdict);
        explain(inference_gpu_sentence(app.scenario, app.estimate) + ".");
    } else {
        verdict_line(app, app.estimate.detailed_inference ? "Inference (detailed):" : "Inference:", g.inference_per_gpu_bytes,
                     g.inference_verdict, g.inference_margin_bytes);
        explain(std::to_string(g.inference_gpus_needed) + " GPU" + (g.inference_gpus_needed == 1 ? "" : "s") +
                " needed if the inference total is split evenly (tensor or pipeline parallel).");
    }
    if (inference_only_format(app.scenario)) {
        // A GGUF quantization has no training path: say so instead of a training peak nobody would run.
        verdict_text_line(app, training_verdict_sentence(app.scenario, app.estimate), FitVerdict::does_not_fit);
    } else {
        if (g.training_uses_peak) {
            ImGui::TextUnformatted("Training peak:");
            ImGui::SameLine();
            ImGui::PushStyleColor(ImGuiCol_Text, verdict_colour(app, g.training_verdict));
            wrapped_text("%s per GPU: %s", format_gb(g.training_peak_per_gpu_bytes).c_str(), training_verdict_phrase(g).c_str());
            ImGui::PopStyleColor();
            explain(training_band_sentence(app.estimate));
        } else
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
    }
    if (!g.inference_cards.empty() && engine_run.text.empty()) {  // an engine lists its own cards
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
