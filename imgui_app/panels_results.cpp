// The results (GB and GiB side by side), the live worked steps with Markdown/LaTeX copies, the two-step
// diagram, the inference-vs-training bars with an optional GPU capacity line, and the before/after view.
// Every figure is core's: Estimate fields formatted by quantity.hpp, or text from core/steps.
#include <algorithm>
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

#include "engine_panel.hpp"
#include "runtime_panel.hpp"

namespace llm_memory {

namespace {

// A bar segment's colour from its term's kind: the n-th segment of a kind in one bar takes that kind's
// n-th series colour, so a new term gets a colour without a list of keys here.
ImU32 segment_colour(const Palette& palette, TermKind kind, int nth) {
    const ImU32 weights[] = {palette.weights, palette.current};
    const ImU32 states[] = {palette.grad_opt, palette.runtime_third};
    const ImU32 runtime[] = {palette.overhead, palette.runtime_second, palette.runtime_third};
    switch (kind) {
        case TermKind::weights: return weights[nth % 2];
        case TermKind::state: return states[nth % 2];
        default: {
            // A fourth runtime term and beyond (the training peak has four): the same hues, lighter.
            const ImU32 c = runtime[nth % 3];
            return nth < 3 ? c : (c & ~IM_COL32_A_MASK) | (static_cast<ImU32>(150) << IM_COL32_A_SHIFT);
        }
    }
}

// The segments of one total's bar: its parts in table order, in now's or the all-trainable column.
std::vector<BarSegment> total_segments(const Estimate& e, Total total, const Palette& palette, bool all_trainable = false) {
    std::vector<BarSegment> segments;
    std::vector<TermKind> kinds;  // of the segments so far
    for (const MemoryTerm* part : parts_of(e, total)) {
        const std::uint64_t bytes = all_trainable ? part->all_trainable_bytes : part->bytes;
        if (bytes == 0 && all_trainable) continue;  // a term a full fine-tune does not have (the LoRA adapter)
        const int nth = static_cast<int>(std::count(kinds.begin(), kinds.end(), part->kind));
        kinds.push_back(part->kind);
        segments.push_back({bytes, segment_colour(palette, part->kind, nth), part->short_label.c_str()});
    }
    return segments;
}

}  // namespace

void draw_results_panel(AppState& app) {
    section_heading("Results");
    const Estimate& e = app.estimate;
    const Palette& palette = theme_palette(app.dark_theme);
    if (begin_stretch_table("results##table", {{"Result", 2.2f}, {"GB", 1.0f}, {"GiB", 1.1f}})) {
        for (const MemoryTerm& term : e.terms) {
            if (!term.in_report) continue;
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (term.part) ImGui::Indent();
            wrapped_text("%s", term.label.c_str());
            if (!app.embed_mode) muted_text(term_formula(e, term));
            if (term.part) ImGui::Unindent();
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
            ImGui::TextUnformatted(format_gb(term.bytes).c_str());
            ImGui::PopStyleColor();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(term.bytes).c_str());
        }
        ImGui::EndTable();
    }
    muted_text(app.embed_mode ? "GB = 10^9 bytes, GiB = 2^30 bytes."
                              : "GB = 10^9 bytes (decimal), GiB = 2^30 bytes (binary): the same figure in two units.");
    if (e.trainable_count != e.param_count) {
        wrapped_text("Training %s of %s parameters saves %s of gradient + optimizer memory; the weights keep their %s.",
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
    // The strip leads with the run verdict (the engine's, or the seed's for a GGUF format): the question
    // the phone user asked.
    const VerdictLine runs = run_verdict(app);
    if (!runs.text.empty()) verdict_text_line(app, runs.text, runs.verdict);
    std::vector<const MemoryTerm*> cells;
    for (const MemoryTerm& term : e.terms)
        if (term.headline) cells.push_back(&term);
    if (!cells.empty() && ImGui::BeginTable("summary##strip", static_cast<int>(cells.size()),
                                            ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_BordersInnerV)) {
        for (const MemoryTerm* cell : cells) {
            ImGui::TableNextColumn();
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            wrapped_text("%s", cell->short_label.c_str());
            ImGui::PopStyleColor();
            ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
            ImGui::TextUnformatted(format_gb(cell->bytes).c_str());
            ImGui::PopStyleColor();
        }
        ImGui::EndTable();
    }
}

void draw_steps_panel(AppState& app) {
    section_heading("Worked steps");
    // Rebuilt only when the scenario changes (every derivation is a vector of formatted strings).
    if (app.steps_generation != app.scenario_generation) {
        app.steps = worked_steps(app.scenario, app.estimate);
        app.steps_generation = app.scenario_generation;
    }
    const std::vector<Derivation>& derivations = app.steps;
    const Palette& palette = theme_palette(app.dark_theme);
    if (ImGui::Button("Copy as Markdown##steps")) copy_to_clipboard(app, steps_markdown(derivations), "the steps as Markdown");
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("Copy as LaTeX").x + ImGui::GetStyle().FramePadding.x * 2.0f)
        ImGui::NewLine();
    if (ImGui::Button("Copy as LaTeX##steps")) copy_to_clipboard(app, steps_latex(derivations), "the steps as LaTeX");
    if (!app.copied_message.empty()) muted_text(app.copied_message);
    for (const Derivation& d : derivations) {
        ImGui::PushID(d.id.c_str());
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
        wrapped_text("%s", d.title.c_str());
        ImGui::PopStyleColor();
        int number = 1;
        for (const WorkedStep& step : d.steps) {
            ImGui::TextDisabled("%d", number++);
            ImGui::SameLine();
            wrapped_text("%s", step.text.c_str());
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
    const MemoryTerm* inference = find_total(e, chosen_inference_total(e));
    const MemoryTerm* training = find_total(e, Total::training);
    std::vector<StackedBar> bars = {
        {inference->short_label, inference->bytes, format_gb(inference->bytes), total_segments(e, *inference->total, palette)},
        {training->short_label, training->bytes, format_gb(training->bytes), total_segments(e, Total::training, palette)},
    };
    // Training-mode detailed: the peak per GPU, every term of the phase that peaks (backward pass or optimizer
    // step) a segment.
    const MemoryTerm* peak = find_total(e, Total::training_peak);
    if (peak != nullptr && peak->in_report)
        bars.push_back({peak->short_label + " (per GPU)", peak->bytes, format_gb(peak->bytes),
                        total_segments(e, training_peak_phase(e), palette)});
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
        const std::string text = trim(app.capacity_text.data()).empty() ? std::string("0") : std::string(app.capacity_text.data());
        const Status bad = app_try_setting(app, "gpu-memory", text);
        app.capacity_error = bad ? bad->problem : std::string();
        if (!bad) app.capacity_generation = app.scenario_generation;  // the field already shows what was typed
    } else if (!active && app.capacity_generation != app.scenario_generation) {
        // The scenario changed elsewhere (runtime panel, URL): show its size.
        const SettingSpec* spec = find_setting("gpu-memory");
        const std::string shown = spec != nullptr ? spec->show(app.scenario) : std::string();
        std::snprintf(app.capacity_text.data(), app.capacity_text.size(), "%s", shown.c_str());
        app.capacity_generation = app.scenario_generation;
        app.capacity_error.clear();
    }
    if (!app.capacity_error.empty()) error_text("GPU memory " + app.capacity_error, palette);
    draw_gpu_fit(app);
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
    // Every part of the training total, with every parameter trainable and now (the table's two columns).
    const MemoryTerm& training = *find_total(e, Total::training);
    const std::vector<StackedBar> bars = {
        {"All " + format_count_short(e.param_count) + " trainable", training.all_trainable_bytes,
         format_gb(training.all_trainable_bytes), total_segments(e, Total::training, palette, true)},
        {format_count_short(e.trainable_count) + " trainable", training.bytes, format_gb(training.bytes),
         total_segments(e, Total::training, palette)},
    };
    draw_stacked_bars("before_after_bars", bars, 0, std::string(), palette);
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("before_after##table", 3, flags)) {
        ImGui::TableSetupColumn("Term", ImGuiTableColumnFlags_WidthStretch, 1.6f);
        ImGui::TableSetupColumn("All trainable", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("Now", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableHeadersRow();
        std::vector<const MemoryTerm*> rows = parts_of(e, Total::training);
        rows.push_back(&training);
        for (const MemoryTerm* row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            wrapped_text("%s", row == &training ? row->label.c_str() : row->short_label.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row->all_trainable_bytes).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row->bytes).c_str());
        }
        ImGui::EndTable();
    }
    ImGui::PushStyleColor(ImGuiCol_Text, palette.ok_text);
    wrapped_text("Reduction: −%s of gradient + optimizer memory, from %s to %s.", format_gb(e.reduction_bytes).c_str(),
                       format_gb(e.full_gradient_optimizer_bytes).c_str(), format_gb(e.gradient_optimizer_bytes).c_str());
    ImGui::PopStyleColor();
    muted_text("The weights do not shrink: every parameter is still stored, trainable or frozen.");
}

}  // namespace llm_memory
