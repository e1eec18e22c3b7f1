// The results (GB and GiB side by side), the live worked steps with Markdown/LaTeX copies, the two-step
// diagram, the inference-vs-training bars with an optional GPU capacity line, and the before/after view.
// Every figure is core's: Estimate fields formatted by quantity.hpp, or text from core/steps.
#include <cstdint>
#include <cstdio>
#include <optional>
#include <vector>

#include "charts.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "scaling.hpp"
#include "settings.hpp"
#include "steps.hpp"

#if __has_include("runtime_panel.hpp")
#include "runtime_panel.hpp"
#define LLM_MEMORY_HAS_RUNTIME_PANEL 1
#endif

namespace llm_memory {

void draw_results_panel(AppState& app) {
    section_heading("Results");
    const Estimate& e = app.estimate;
    const Palette& palette = theme_palette(app.dark_theme);
    struct Row {
        const char* label;
        std::uint64_t bytes;
        const char* formula;
    };
    std::vector<Row> rows = {
        {"Weight memory", e.weight_bytes, "N × b"},
        {"Inference total", e.inference_bytes, "weights × overhead factor"},
        {"Gradient + optimizer", e.gradient_optimizer_bytes,
         app.scenario.recipe.empty() || app.scenario.recipe == "seed-adam" ? "N_trainable × k × b"
                                                                           : "N_trainable × the recipe's bytes"},
        {"Training total", e.training_bytes, "weights + gradient + optimizer"},
    };
    if (e.detailed_inference)
        rows.insert(rows.begin() + 2, Row{"Inference (detailed)", e.detailed_inference_bytes, "weights + KV cache + activations + reserve"});
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("results##table", 3, flags)) {
        ImGui::TableSetupColumn("Result", ImGuiTableColumnFlags_WidthStretch, 2.2f);
        ImGui::TableSetupColumn("GB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("GiB", ImGuiTableColumnFlags_WidthStretch, 1.1f);
        ImGui::TableHeadersRow();
        for (const Row& row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", row.label);
            if (!app.embed_mode) muted_text(row.formula);
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
            ImGui::TextUnformatted(format_gb(row.bytes).c_str());
            ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(row.bytes).c_str());
        }
        ImGui::EndTable();
    }
    muted_text(app.embed_mode ? "GB = 10^9 bytes, GiB = 2^30 bytes."
                              : "GB = 10^9 bytes (decimal), GiB = 2^30 bytes (binary): the same figure in two units.");
    if (e.trainable_count != e.param_count) {
        ImGui::TextWrapped("Training %s of %s parameters saves %s of gradient + optimizer memory; the weights keep their %s.",
                           format_count_short(e.trainable_count).c_str(), format_count_short(e.param_count).c_str(),
                           format_gb(e.reduction_bytes).c_str(), format_gb(e.weight_bytes).c_str());
    }
    mistake_guard(app, 0,
                  "Reporting the weight memory as the inference total. The overhead factor " +
                      format_decimal(app.scenario.overhead_factor) + " is applied to the weights: the inference total is " +
                      format_gb(e.inference_bytes) + ", not " + format_gb(e.weight_bytes) + ".");
}

void draw_summary_strip(AppState& app) {
    const Estimate& e = app.estimate;
    const Palette& palette = theme_palette(app.dark_theme);
    const struct {
        const char* label;
        std::uint64_t bytes;
    } cells[] = {{"Weights", e.weight_bytes}, {"Inference", e.inference_bytes}, {"Grad + opt", e.gradient_optimizer_bytes},
                 {"Training", e.training_bytes}};
    if (ImGui::BeginTable("summary##strip", 4, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) {
        for (const auto& cell : cells) {
            ImGui::TableNextColumn();
            ImGui::TextDisabled("%s", cell.label);
            ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
            ImGui::TextUnformatted(format_gb(cell.bytes).c_str());
            ImGui::PopStyleColor();
        }
        ImGui::EndTable();
    }
}

void draw_steps_panel(AppState& app) {
    section_heading("Worked steps");
    // Rebuilt only when the scenario changes (every derivation is a vector of formatted strings).
    static struct {
        std::optional<std::uint64_t> generation;
        std::vector<Derivation> derivations;
    } cache;
    if (cache.generation != app.scenario_generation) {
        cache.derivations = worked_steps(app.scenario, app.estimate);
        cache.generation = app.scenario_generation;
    }
    const std::vector<Derivation>& derivations = cache.derivations;
    const Palette& palette = theme_palette(app.dark_theme);
    if (ImGui::Button("Copy as Markdown##steps")) copy_to_clipboard(app, steps_markdown(derivations), "the steps as Markdown");
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("Copy as LaTeX").x + ImGui::GetStyle().FramePadding.x * 2.0f)
        ImGui::NewLine();
    if (ImGui::Button("Copy as LaTeX##steps")) copy_to_clipboard(app, steps_latex(derivations), "the steps as LaTeX");
    if (!app.copied_message.empty()) muted_text(app.copied_message);
    for (const Derivation& d : derivations) {
        ImGui::PushID(d.id);
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
        ImGui::TextWrapped("%s", d.title);
        ImGui::PopStyleColor();
        int number = 1;
        for (const WorkedStep& step : d.steps) {
            ImGui::TextDisabled("%d", number++);
            ImGui::SameLine();
            ImGui::TextWrapped("%s", step.text.c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", step.label);
        }
        ImGui::PopID();
    }
}

void draw_diagram_panel(AppState& app) {
    section_heading("From weights to the inference total");
    draw_two_step_diagram(app.scenario, app.estimate, theme_palette(app.dark_theme));
    muted_text("The overhead factor is a multiplier on the weights, not a separate calculation.");
}

void draw_bars_panel(AppState& app) {
    section_heading("Inference vs training");
    const Estimate& e = app.estimate;
    const Palette& palette = theme_palette(app.dark_theme);
    std::vector<BarSegment> inference = {{e.weight_bytes, palette.weights, "Weights"}};
    if (e.detailed_inference) {
        inference.push_back({e.kv_cache_bytes, palette.overhead, "KV cache"});
        inference.push_back({e.activation_bytes, palette.extra_a, "Activations"});
        inference.push_back({e.runtime_reserve_bytes, palette.extra_b, "Runtime reserve"});
    } else {
        inference.push_back({e.overhead_margin_bytes, palette.overhead, "Overhead margin"});
    }
    std::vector<BarSegment> training = {{e.weight_bytes, palette.weights, "Weights"}};
    if (e.adapter_weight_bytes > 0) training.push_back({e.adapter_weight_bytes, palette.current, "LoRA adapter"});
    training.push_back({e.gradient_optimizer_bytes, palette.grad_opt, "Gradients + optimizer"});
    const std::vector<StackedBar> bars = {
        {e.detailed_inference ? "Inference (detailed)" : "Inference", chosen_inference_bytes(e),
         format_gb(chosen_inference_bytes(e)), inference},
        {"Training", e.training_bytes, format_gb(e.training_bytes), training},
    };
    // The capacity line is the scenario's GPU (catalogue or custom size), so the verdict and the line agree.
    const std::uint64_t capacity = e.gpu.requested ? e.gpu.capacity_bytes : 0;
    const std::string capacity_label =
        "GPU " + format_gb(capacity) + (e.gpu.gpu_count > 1 ? " each" : "");
    draw_stacked_bars("memory_bars", bars, capacity, capacity_label, palette);
    if (app.embed_mode) return;  // the compact embed shows the bars only

    // A memory size typed here is the scenario's "gpu-memory" setting (the same key as the CLI and URL).
    ImGui::TextUnformatted("GPU memory (optional)");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    const bool edited =
        ImGui::InputTextWithHint("##capacity", "24 GB, 80 GiB: draws a line", app.capacity_text.data(), app.capacity_text.size());
    const bool active = ImGui::IsItemActive();
    if (edited) {
        Scenario candidate = app.scenario;
        const std::string text = trim(app.capacity_text.data()).empty() ? std::string("0") : std::string(app.capacity_text.data());
        const Expected<bool> applied = apply_setting(candidate, "gpu-memory", text);
        const Expected<Estimate> result = applied ? estimate(candidate) : Expected<Estimate>(Error{applied.error()});
        if (result) {
            app.scenario = candidate;
            app.estimate = *result;
            app_scenario_replaced(app);
            app.scenario_changed = true;
            app.capacity_bytes = candidate.gpu_memory_bytes;
            app.capacity_error.clear();
        } else {
            const std::string& message = result.error();
            app.capacity_error = message.rfind("gpu-memory: ", 0) == 0 ? message.substr(12) : message;
        }
    } else if (!active && app.capacity_bytes != app.scenario.gpu_memory_bytes) {
        // The size changed elsewhere (runtime panel, URL): show it.
        const SettingSpec* spec = find_setting("gpu-memory");
        const std::string shown = spec != nullptr && app.scenario.gpu_memory_bytes > 0 ? spec->show(app.scenario) : std::string();
        std::snprintf(app.capacity_text.data(), app.capacity_text.size(), "%s", shown.c_str());
        app.capacity_bytes = app.scenario.gpu_memory_bytes;
        app.capacity_error.clear();
    }
    if (!app.capacity_error.empty()) error_text("GPU memory " + app.capacity_error, palette);
#ifdef LLM_MEMORY_HAS_RUNTIME_PANEL
    draw_gpu_fit(app);
#endif
}

void draw_before_after_panel(AppState& app) {
    section_heading("Before and after");
    const Estimate& e = app.estimate;
    const Palette& palette = theme_palette(app.dark_theme);
    if (e.trainable_count == e.param_count) {
        muted_text("Every parameter trains now. Train fewer to see the gradient + optimizer term shrink while the weights "
                   "stay the same.");
        if (ImGui::Button("Try the seed's 1B trainable")) set_field_and_apply(app, "trainable", "1B");
        return;
    }
    const std::vector<StackedBar> bars = {
        {"All " + format_count_short(e.param_count) + " trainable", e.full_training_bytes, format_gb(e.full_training_bytes),
         {{e.weight_bytes, palette.weights, "Weights"}, {e.full_gradient_optimizer_bytes, palette.grad_opt, "Gradients + optimizer"}}},
        {format_count_short(e.trainable_count) + " trainable", e.training_bytes, format_gb(e.training_bytes),
         {{e.weight_bytes, palette.weights, "Weights"}, {e.gradient_optimizer_bytes, palette.grad_opt, "Gradients + optimizer"}}},
    };
    draw_stacked_bars("before_after_bars", bars, 0, std::string(), palette);
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("before_after##table", 3, flags)) {
        ImGui::TableSetupColumn("Term", ImGuiTableColumnFlags_WidthStretch, 1.6f);
        ImGui::TableSetupColumn("All trainable", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("Now", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableHeadersRow();
        const struct {
            const char* label;
            std::uint64_t before;
            std::uint64_t after;
        } rows[] = {
            {"Weights", e.weight_bytes, e.weight_bytes},
            {"Gradients + optimizer", e.full_gradient_optimizer_bytes, e.gradient_optimizer_bytes},
            {"Training total", e.full_training_bytes, e.training_bytes},
        };
        for (const auto& row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextWrapped("%s", row.label);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row.before).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row.after).c_str());
        }
        ImGui::EndTable();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, palette.ok_text);
    ImGui::TextWrapped("Reduction: −%s of gradient + optimizer memory, from %s to %s.", format_gb(e.reduction_bytes).c_str(),
                       format_gb(e.full_gradient_optimizer_bytes).c_str(), format_gb(e.gradient_optimizer_bytes).c_str());
    ImGui::PopStyleColor();
    muted_text("The weights do not shrink: every parameter is still stored, trainable or frozen.");
}

}  // namespace llm_memory
