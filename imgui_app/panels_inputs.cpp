// The inputs: parameter count as text or on a logarithmic slider, bytes per parameter as a named format
// or a custom value, trainable parameters as a count, a percentage or a slider, the overhead factor, k
// and bytes per stored value, each with its one-line meaning. Text goes through core's settings table;
// a bad value shows its message under the field while the results keep the last valid scenario.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>

#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "report.hpp"
#include "settings.hpp"

#include "model_panel.hpp"
#include "engine_io_panel.hpp"
#include "engines/engine.hpp"
#include "runtime_panel.hpp"

namespace llm_memory {
namespace {

TextField& field_by_key(AppState& app, const char* key) {
    for (TextField& field : app.fields)
        if (std::strcmp(field.key, key) == 0) return field;
    return app.fields[0];
}

// A labelled text input bound to a settings key. Returns true when the text changed.
bool field_input(AppState& app, const char* key, const char* label, const char* hint, float width) {
    TextField& field = field_by_key(app, key);
    ImGui::PushID(key);
    if (label != nullptr) ImGui::TextUnformatted(label);
    ImGui::SetNextItemWidth(width);
    const bool changed = ImGui::InputTextWithHint("##value", hint, field.text.data(), field.text.size());
    // The web page's phone keyboard asks which field is under the finger and which one is edited.
    if (ImGui::IsItemHovered()) app.hovered_key = key;
    if (ImGui::IsItemActive()) app.editing_key = key;
    ImGui::PopID();
    return changed;
}

// The field's inline message: its error if any, else its explanation.
void field_note(AppState& app, const char* key, const std::string& explanation) {
    const TextField& field = field_by_key(app, key);
    if (!field.error.empty()) error_text(field.error + " (results show the last valid value)", theme_palette(app.dark_theme));
    else if (!explanation.empty() && !app.embed_mode) muted_text(explanation);
}

struct NamedFormat {
    const char* label;       // in the list
    const char* short_label; // in the closed combo
    const char* bytes_text;
};
constexpr NamedFormat kFormats[] = {
    {"fp32 (4 bytes)", "fp32", "4"},
    {"fp16 / bf16 (2 bytes)", "fp16 / bf16", "2"},
    {"fp8 / int8 (1 byte)", "fp8 / int8", "1"},
    {"int4 (0.5 bytes)", "int4", "0.5"},
};
constexpr int kCustomFormat = 4;

int current_format(const Scenario& s) {
    for (int i = 0; i < kCustomFormat; ++i) {
        const Expected<Decimal> d = parse_decimal(kFormats[i].bytes_text, 64 * Decimal::kScale);
        if (d && *d == s.bytes_per_param) return i;
    }
    return kCustomFormat;
}

void params_input(AppState& app, float width) {
    if (field_input(app, "params", "Parameters (N)", "13B, 6.7e9, 70 billion", width)) apply_fields(app);
    // The slider shows the last valid count; dragging writes a rounded count into the text field.
    float position = static_cast<float>(log_slider_position(app.scenario.param_count));
    const std::string shown = format_count_short(app.scenario.param_count);
    ImGui::SetNextItemWidth(width);
    if (ImGui::SliderFloat("##param_slider", &position, 0.0f, 1.0f, shown.c_str(), ImGuiSliderFlags_NoInput))
        set_field_and_apply(app, "params", format_count_state(log_slider_param_count(position)));
    field_note(app, "params", "How many parameters the model has (B = 10^9). The slider spans 1M to 2T on a log scale.");
}

void bytes_input(AppState& app, float width) {
    ImGui::TextUnformatted("Bytes per parameter (b)");
    // QLoRA, a model file or a chosen weight format decides the bytes: show that format, not b (the settings
    // row's decision, which the text view shows too).
    const FieldDecision decided = find_setting("bytes")->decided(app.scenario, app.estimate);
    if (!decided.value.empty()) {
        std::array<char, 96> shown{};
        std::snprintf(shown.data(), shown.size(), "%s", decided.value.c_str());
        ImGui::SetNextItemWidth(width);
        ImGui::BeginDisabled();
        ImGui::InputText("##format_decided", shown.data(), shown.size(), ImGuiInputTextFlags_ReadOnly);
        ImGui::EndDisabled();
        if (!app.embed_mode) muted_text(decided.note);
        return;
    }
    const int selected = current_format(app.scenario);
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const float combo_w = std::max(width * 0.6f - spacing, 1.0f);
    ImGui::SetNextItemWidth(combo_w);
    const char* preview = selected == kCustomFormat ? "custom" : kFormats[selected].short_label;
    if (ImGui::BeginCombo("##format", preview)) {
        for (int i = 0; i < kCustomFormat; ++i) {
            if (ImGui::Selectable(kFormats[i].label, i == selected)) set_field_and_apply(app, "bytes", kFormats[i].bytes_text);
            if (i == selected) ImGui::SetItemDefaultFocus();
        }
        ImGui::EndCombo();
    }
    ImGui::SameLine();
    if (field_input(app, "bytes", nullptr, "2", std::max(width - combo_w - spacing, 1.0f))) apply_fields(app);
    field_note(app, "bytes", "How each weight is stored: fp32 4, fp16/bf16 2, fp8/int8 1, int4 0.5 (custom: type it).");
    mistake_guard(app, 3,
                  "Using 2 bytes for every model. b depends on the storage format, and halving b halves the weight "
                  "memory: check it before calculating.");
}

void trainable_input(AppState& app, float width) {
    if (field_input(app, "trainable", "Trainable parameters", "all, 1B or 7.7%", width)) apply_fields(app);
    // The slider position follows the valid scenario (a view value; the count comes from core).
    const Estimate& e = app.estimate;
    float percent = e.param_count == 0 ? 100.0f
                                       : static_cast<float>(100.0 * static_cast<double>(e.trainable_count) /
                                                            static_cast<double>(e.param_count));
    const std::string shown = format_count_short(e.trainable_count) + " trainable (" +
                              (e.lora_trainable_count > 0                                ? std::string("LoRA adapter")
                               : app.scenario.trainable.kind == TrainableSpec::Kind::all ? std::string("all")
                                                                                         : "%.1f%%") +
                              ")";
    ImGui::SetNextItemWidth(width);
    if (ImGui::SliderFloat("##trainable_slider", &percent, 0.0f, 100.0f, shown.c_str(), ImGuiSliderFlags_NoInput)) {
        char text[32];
        if (percent >= 99.95f) std::snprintf(text, sizeof text, "all");
        else std::snprintf(text, sizeof text, "%.1f%%", static_cast<double>(percent));
        set_field_and_apply(app, "trainable", text);
    }
    field_note(app, "trainable", "Only these store gradients and optimizer states: a count (1B), a percentage (7.7%) or all.");
    mistake_guard(app, 2,
                  "Believing that freezing removes weight memory. Frozen parameters are still stored: the weights keep their " +
                      format_gb(e.weight_bytes) + " whatever trains.");
}

}  // namespace

void draw_inputs_panel(AppState& app, bool compact) {
    section_heading("Inputs");
    if (!app.scenario_error.empty()) error_text(app.scenario_error, theme_palette(app.dark_theme));
    const float width = ImGui::GetContentRegionAvail().x;
    params_input(app, width);
    if (model_panel_open_requested(app)) ImGui::SetNextItemOpen(true);  // a dropped config.json
    if (!compact && ImGui::CollapsingHeader("Model: preset, config.json or model file##model_section")) draw_model_panel(app);
    ImGui::Spacing();
    bytes_input(app, width);
    ImGui::Spacing();
    trainable_input(app, width);
    if (compact) return;
    ImGui::Spacing();
    if (field_input(app, "overhead", "Overhead factor", "1.2", width)) apply_fields(app);
    field_note(app, "overhead", "Multiplies the weights to give the inference total; 1.2 adds a 20% margin.");
    ImGui::Spacing();
    if (field_input(app, "k", "Values per trainable parameter (k)", "3", width)) apply_fields(app);
    field_note(app, "k", "k = 3 is the seed's Adam example: a gradient and two optimizer states.");
    mistake_guard(app, 1,
                  "Counting one value per trainable parameter (N × b). Adam stores a gradient and two optimizer "
                  "states: k = 3.");
    ImGui::Spacing();
    if (field_input(app, "state-bytes", "Bytes per stored value", "2", width)) apply_fields(app);
    field_note(app, "state-bytes", "Bytes for each gradient or optimizer value (2 in the seed's example).");
    ImGui::Spacing();
    // A link or saved state that asks for detailed training opens the section its controls are in.
    if (app.scenario.detailed_training) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    if (ImGui::CollapsingHeader("Runtime and GPU##runtime_section")) draw_runtime_panel(app);
    ImGui::Spacing();
    if (engines_in_build() && app.reveal_engine_io) ImGui::SetNextItemOpen(true);
    if (engines_in_build() && ImGui::CollapsingHeader("Engine command and log##engine_io_section")) {
        if (app.reveal_engine_io) ImGui::SetScrollHereY(0.0f);
        draw_engine_io_panel(app);
    }
    app.reveal_engine_io = false;
    if (engines_in_build()) ImGui::Spacing();
    if (ImGui::Button("Reset to the seed's 13B example")) app_set_scenario(app, Scenario{});
    if (std::any_of(app.mistake_dismissed.begin(), app.mistake_dismissed.end(), [](bool d) { return d; }) &&
        ImGui::Button("Show the common-mistake notes again"))
        app.mistake_dismissed = {};
}

}  // namespace llm_memory
