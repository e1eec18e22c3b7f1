// The "What fits" panel: one block per question, its headline in the verdict colour and core's sentence
// under it, with a "Use this" button that applies the answer's scenario (app_set_scenario).
// View state: AppState::fit_panel (the cached reports); figures and sentences all come from core.
#include "fit_panel.hpp"

#include <memory>
#include <string>

#include "engines/engine_fit.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "runtime_panel.hpp"
#include "settings.hpp"

namespace llm_memory {

const std::vector<FitReport>& fit_reports(AppState& app) {
    if (!app.fit_panel) app.fit_panel = std::make_shared<FitPanelView>();
    FitPanelView& view = *app.fit_panel;
    if (view.generation != app.scenario_generation) {
        view.reports = engine_answer_applicable_fit_questions(app.scenario);
        view.generation = app.scenario_generation;
        // "Use this" per answer, decided once per scenario rather than every frame. Layers on the GPU
        // changes no setting; every other answer is a scenario one can switch to.
        const std::string current = to_state(app.scenario);
        view.usable.clear();
        for (const FitReport& report : view.reports)
            for (const FitAnswer& answer : report.answers)
                view.usable.push_back(static_cast<char>(answer.found && report.question.kind != FitQuestionKind::layers_on_gpu &&
                                                        to_state(answer.scenario) != current));
    }
    return view.reports;
}

void draw_fit_panel(AppState& app) {
    section_heading("What fits");
    const std::vector<FitReport>& reports = fit_reports(app);
    if (!app.estimate.gpu.requested) {
        muted_text("Choose a GPU (Runtime and GPU, or a GPU memory size) to see the largest context and batch that fit, "
                   "the fewest GPUs, the format with the most bits that fits and how many layers llama.cpp can offload.");
        return;
    }
    // Which end of the training peak's band the training answers keep within the GPU.
    if (app.estimate.gpu.training_uses_peak) setting_control(app, "confidence");
    const Palette& palette = theme_palette(app.dark_theme);
    const std::vector<char>& usable = app.fit_panel->usable;
    std::size_t index = 0;  // the answer's place in `usable`
    const Scenario* chosen = nullptr;  // applied after the loop, so the reports drawn stay valid this frame
    ImGui::PushID("fit_panel");
    for (const FitReport& report : reports) {
        ImGui::PushID(report.json_key.c_str());
        ImGui::Spacing();
        ImGui::TextUnformatted(report.title.c_str());
        if (!report.error.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
            wrapped_text("No answer");
            ImGui::PopStyleColor();
            muted_text(report.error);
        }
        for (const FitAnswer& answer : report.answers) {
            ImGui::PushID(fit_side_key(answer.side));
            ImGui::PushStyleColor(ImGuiCol_Text, answer.found ? palette.ok_text : palette.error_text);
            wrapped_text("%s", answer.headline.c_str());
            ImGui::PopStyleColor();
            muted_text(answer.sentence);
            if (usable[index++] != 0 && ImGui::SmallButton("Use this")) chosen = &answer.scenario;
            ImGui::PopID();
        }
        ImGui::PopID();
    }
    ImGui::PopID();
    if (chosen != nullptr) {
        const Scenario next = *chosen;
        app_set_scenario(app, next);
    }
}

}  // namespace llm_memory
