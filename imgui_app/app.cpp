// The app's frame: a header with the theme toggle, then a tab bar (Calculator, Scaling, Practice) whose
// Calculator reflows from one column (phones, 360 px) to three (2560 px desktops). Embed mode (web, ~700x420
// iframe) shows a compact calculator with a link to the full app. Panels live in panels_*.cpp.
#include "app.hpp"
#include "engine_panel.hpp"
#include "engines/engine.hpp"
#include "hub_panel.hpp"
#include "fit_panel.hpp"
#include "model_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "embedded_font.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "settings.hpp"
#include "theme.hpp"

#include "practice_panel.hpp"

namespace llm_memory {
namespace {

// Broad glyph ranges for the UI font: the embedded font is already subset to font_glyphs.txt, so only
// glyphs it holds are baked.
constexpr ImWchar kGlyphRanges[] = {0x0020, 0x00FF, 0x0100, 0x017F, 0x2000, 0x206F, 0x2190, 0x21FF,
                                    0x2200, 0x22FF, 0x2500, 0x25FF, 0x2700, 0x27BF, 0};

std::string field_text_for(const Scenario& s, const char* key) {
    const SettingSpec* spec = find_setting(key);
    return spec != nullptr ? setting_field_text(*spec, s) : std::string();
}

// Layout widths are compared in logical pixels (framebuffer pixels / ui_scale).
constexpr float kTwoColumnMin = 760.0f;
constexpr float kThreeColumnMin = 1400.0f;
constexpr float kEmbedTwoColumnMin = 560.0f;

// A scrolling column; keyboard navigation passes through it as if it were part of the window.
template <typename Draw>
void column(const char* id, float width, Draw draw) {
    ImGui::BeginChild(id, ImVec2(width, 0.0f), ImGuiChildFlags_None, ImGuiWindowFlags_NavFlattened);
    draw();
    ImGui::Dummy(ImVec2(0.0f, ImGui::GetStyle().ItemSpacing.y));
    ImGui::EndChild();
}

bool right_aligned_button(const char* label) {
    const float w = ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SameLine(std::max(ImGui::GetWindowContentRegionMax().x - w, ImGui::GetCursorPosX()));
    return ImGui::Button(label);
}

void draw_header(AppState& app, float logical_width) {
    ImGui::TextUnformatted(app.embed_mode ? "LLM memory" : "LLM Memory Estimator");
    const bool subtitle_inline = logical_width >= 900.0f && !app.embed_mode;
    if (subtitle_inline) {
        ImGui::SameLine();
        ImGui::TextDisabled("how much memory a model needs to run and to train, step by step");
    }
    if (app.embed_mode) {
        if (right_aligned_button("Open the full app")) app.open_full_app_requested = true;
    } else if (right_aligned_button(app.dark_theme ? "Light theme##theme" : "Dark theme##theme")) {
        app.dark_theme = !app.dark_theme;
        apply_theme(app.dark_theme, app.ui_scale, app.touch_layout);
    }
    if (!subtitle_inline && !app.embed_mode) muted_text("How much memory a model needs to run and to train, step by step.");
}

void draw_calculator(AppState& app, float logical_width) {
    const float avail = ImGui::GetContentRegionAvail().x;
    const float gap = ImGui::GetStyle().ItemSpacing.x * 2.0f;
    if (logical_width >= kThreeColumnMin) {
        const float w1 = std::floor(avail * 0.26f);
        const float w2 = std::floor(avail * 0.36f);
        column("inputs##col", w1, [&] { draw_inputs_panel(app, false); });
        ImGui::SameLine(0.0f, gap);
        column("results##col", w2, [&] {
            draw_verdicts(app);
            draw_engine_panel(app);
            draw_results_panel(app);
            draw_steps_panel(app);
        });
        ImGui::SameLine(0.0f, gap);
        column("charts##col", 0.0f, [&] {
            draw_diagram_panel(app);
            draw_bars_panel(app);
            draw_fit_panel(app);
            draw_before_after_panel(app);
        });
    } else if (logical_width >= kTwoColumnMin) {
        const float w1 = std::floor(std::max(avail * 0.36f, 300.0f * app.ui_scale));
        column("inputs##col", w1, [&] { draw_inputs_panel(app, false); });
        ImGui::SameLine(0.0f, gap);
        column("results##col", 0.0f, [&] {
            draw_verdicts(app);
            draw_engine_panel(app);
            draw_results_panel(app);
            draw_diagram_panel(app);
            draw_bars_panel(app);
            draw_fit_panel(app);
            draw_before_after_panel(app);
            draw_steps_panel(app);
        });
    } else {
        // Phones: the four totals stay in view above the scrolling column.
        draw_summary_strip(app);
        column("single##col", 0.0f, [&] {
            draw_verdicts(app, false);  // the strip above leads with the run verdict
            draw_inputs_panel(app, false);
            draw_engine_panel(app);
            draw_results_panel(app);
            draw_diagram_panel(app);
            draw_steps_panel(app);
            draw_bars_panel(app);
            draw_fit_panel(app);
            draw_before_after_panel(app);
        });
    }
}

void draw_embed(AppState& app, float logical_width) {
    if (logical_width >= kEmbedTwoColumnMin) {
        const float avail = ImGui::GetContentRegionAvail().x;
        column("inputs##embed", std::floor(avail * 0.42f), [&] { draw_inputs_panel(app, true); });
        ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 2.0f);
        column("results##embed", 0.0f, [&] {
            draw_results_panel(app);
            draw_bars_panel(app);
        });
    } else {
        column("single##embed", 0.0f, [&] {
            draw_results_panel(app);
            draw_inputs_panel(app, true);
        });
    }
}

}  // namespace

namespace {

// The commit: the scenario, its estimate, the text fields and a new generation.
void take_estimated(AppState& app, const Scenario& scenario, const Estimate& estimate) {
    app.scenario = scenario;
    app.estimate = estimate;
    app_scenario_replaced(app);
    app.scenario_changed = true;
    app.copied_message.clear();
    app.engine_notice.clear();
    app.scenario_error.clear();
    for (TextField& field : app.fields) {
        std::snprintf(field.text.data(), field.text.size(), "%s", field_text_for(scenario, field.key).c_str());
        field.error.clear();
    }
}

}  // namespace

Status app_take_scenario(AppState& app, const Scenario& scenario) {
    const Expected<Estimate> result = estimate(scenario);
    if (!result) return result.failure();
    take_estimated(app, scenario, *result);
    return std::nullopt;
}

bool app_set_scenario(AppState& app, const Scenario& scenario) { return !app_take_scenario(app, scenario); }

bool app_take_state(AppState& app, const StateResult& result) {
    if (!result.estimate) return false;
    take_estimated(app, result.scenario, *result.estimate);
    return true;
}

Status app_try_setting(AppState& app, const char* key, std::string_view text) {
    Scenario candidate = app.scenario;
    const Expected<bool> applied = apply_setting(candidate, key, text);
    if (!applied) return applied.failure();
    // Switching engines here clears the settings the new engine does not read, and says so.
    std::vector<std::string> cleared;
    if (std::string_view(key) == "engine") cleared = clear_unread_engine_settings(candidate);
    follow_engine_gpus(candidate);
    if (Status bad = app_take_scenario(app, candidate)) return bad;
    if (!cleared.empty()) {
        std::string names;
        for (const std::string& k : cleared) names += (names.empty() ? "" : ", ") + k;
        app.engine_notice = "Cleared what " + std::string(engine_name(candidate.engine.kind)) + " does not read: " + names + ".";
    }
    return std::nullopt;
}

void app_scenario_replaced(AppState& app) {
    ++app.scenario_generation;  // starts at 0; the views' "never synced" marker is ~0
}

void app_setup_style(AppState& app, float font_pixels) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;  // the TTF is static data
    config.OversampleH = 2;
    config.OversampleV = 1;
    // Broad ranges (kGlyphRanges): only the glyphs the subset font holds are baked.
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kUiFontTtf), static_cast<int>(kUiFontTtfSize), font_pixels,
                                   &config, kGlyphRanges);
    apply_theme(app.dark_theme, app.ui_scale, app.touch_layout);
}

void draw_frame(AppState& app) {
    app.editing_key = nullptr;
    app.hovered_key = nullptr;
    apply_pending_model_configs(app);  // a config.json dropped on the window or the page
    if (app.theme_changed) {
        apply_theme(app.dark_theme, app.ui_scale, app.touch_layout);
        app.theme_changed = false;
    }
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                                   ImGuiWindowFlags_NoBringToFrontOnFocus | ImGuiWindowFlags_NoScrollWithMouse;
    ImGui::Begin("llm-memory##main", nullptr, flags);
    const float logical_width = ImGui::GetContentRegionAvail().x / std::max(app.ui_scale, 0.25f);
    draw_header(app, logical_width);

    if (app.embed_mode) {
        draw_embed(app, logical_width);
        ImGui::End();
        return;
    }
    draw_hub_prompt(app);  // the Hugging Face consent prompt, wherever the look-up was asked for
    if (ImGui::BeginTabBar("views##tabs")) {
        auto tab = [&app](const char* label, Tab which) {
            const bool open = ImGui::BeginTabItem(label, nullptr,
                                                  app.select_tab == which ? ImGuiTabItemFlags_SetSelected : ImGuiTabItemFlags_None);
            if (open) app.active_tab = which;
            return open;
        };
        if (tab("Calculator", Tab::calculator)) {
            draw_calculator(app, logical_width);
            ImGui::EndTabItem();
        }
        if (tab("Scaling", Tab::scaling)) {
            column("scaling##col", 0.0f, [&] { draw_scaling_panel(app); });
            ImGui::EndTabItem();
        }
        if (tab("Practice", Tab::practice)) {
            column("practice##col", 0.0f, [&] { draw_practice_panel(app); });
            ImGui::EndTabItem();
        }
        ImGui::EndTabBar();
    }
    app.select_tab.reset();
    ImGui::End();
}

}  // namespace llm_memory
