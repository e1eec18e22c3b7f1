// The app's panels: inputs on the left (or on top when narrow), results in GB and GiB on the right.
// Text edits go through core's settings table; a bad value shows its message under the field and
// the results keep the last valid scenario.
#include "app.hpp"

#include <cstdio>
#include <cstring>

#include "embedded_font.hpp"
#include "imgui.h"
#include "quantity.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

struct FieldInfo {
    const char* label;
    const char* hint;
    const char* explanation;
};

// Labels and one-line explanations, in the order of AppState::fields.
constexpr FieldInfo kFieldInfo[] = {
    {"Parameters (N)", "13B, 6.7e9, 70 billion", "How many parameters the model has."},
    {"Bytes per parameter (b)", "2", "4 fp32, 2 fp16/bf16, 1 int8/fp8, 0.5 int4."},
    {"Overhead factor", "1.2", "Multiplies the weights to give the inference total (20% margin)."},
    {"Trainable parameters", "all, 1B or 7.7%", "Only these store gradients and optimizer states."},
    {"Values per trainable (k)", "3", "k = 3 is the seed's Adam: a gradient and two optimizer states."},
    {"Bytes per stored value", "2", "Bytes for each gradient or optimizer value."},
};

std::string field_text_for(const Scenario& s, const char* key) {
    const SettingSpec* spec = find_setting(key);
    if (spec == nullptr) return {};
    if (std::strcmp(key, "trainable") == 0 && s.trainable.kind == TrainableSpec::Kind::all) return "all";
    std::string shown = spec->show(s);
    if (!shown.empty()) return shown;
    // Default values: show them rather than an empty box.
    if (std::strcmp(key, "bytes") == 0) return format_decimal(s.bytes_per_param);
    if (std::strcmp(key, "overhead") == 0) return format_decimal(s.overhead_factor);
    if (std::strcmp(key, "k") == 0) return format_decimal(s.values_per_trainable);
    if (std::strcmp(key, "state-bytes") == 0) return format_decimal(s.bytes_per_value);
    return {};
}

void copy_into(std::array<char, 128>& buffer, const std::string& text) {
    std::snprintf(buffer.data(), buffer.size(), "%s", text.c_str());
}

// Re-reads every field on top of the defaults; on success the scenario becomes the new valid one.
void apply_fields(AppState& app) {
    Scenario candidate = app.scenario;
    bool all_parse = true;
    for (TextField& field : app.fields) {
        const Expected<bool> applied = apply_setting(candidate, field.key, field.text.data());
        field.error = applied ? std::string() : applied.error().substr(std::strlen(field.key) + 2);
        all_parse = all_parse && applied.ok();
    }
    if (!all_parse) return;
    const Expected<Estimate> result = estimate(candidate);
    if (!result) {
        // A cross-field problem (e.g. trainable > params): show it under the field it names.
        for (TextField& field : app.fields) {
            const std::string prefix = std::string(field.key) + ": ";
            if (result.error().rfind(prefix, 0) == 0) field.error = result.error().substr(prefix.size());
        }
        return;
    }
    app.scenario = candidate;
    app.estimate = *result;
    app.scenario_changed = true;
}

void draw_inputs(AppState& app) {
    ImGui::SeparatorText("Inputs");
    bool edited = false;
    for (std::size_t i = 0; i < app.fields.size(); ++i) {
        TextField& field = app.fields[i];
        const FieldInfo& info = kFieldInfo[i];
        ImGui::PushID(field.key);
        ImGui::TextUnformatted(info.label);
        ImGui::SetNextItemWidth(-1.0f);
        if (ImGui::InputTextWithHint("##value", info.hint, field.text.data(), field.text.size())) edited = true;
        if (!field.error.empty()) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.35f, 0.30f, 1.0f));
            ImGui::TextWrapped("%s", field.error.c_str());
            ImGui::PopStyleColor();
        } else {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
            ImGui::TextWrapped("%s", info.explanation);
            ImGui::PopStyleColor();
        }
        ImGui::Spacing();
        ImGui::PopID();
    }
    if (edited) apply_fields(app);
}

void draw_results(const AppState& app) {
    ImGui::SeparatorText("Results");
    const Estimate& e = app.estimate;
    struct Row {
        const char* label;
        std::uint64_t bytes;
        const char* formula;
    };
    const Row rows[] = {
        {"Weight memory", e.weight_bytes, "N x b"},
        {"Inference total", e.inference_bytes, "weights x overhead"},
        {"Gradient+optimizer", e.gradient_optimizer_bytes, "N_trainable x k x bytes"},
        {"Training total", e.training_bytes, "weights + gradient+optimizer"},
    };
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (ImGui::BeginTable("results##table", 3, flags)) {
        ImGui::TableSetupColumn("Result", ImGuiTableColumnFlags_WidthStretch, 2.0f);
        ImGui::TableSetupColumn("GB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableSetupColumn("GiB", ImGuiTableColumnFlags_WidthStretch, 1.0f);
        ImGui::TableHeadersRow();
        for (const Row& row : rows) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(row.label);
            ImGui::TextDisabled("%s", row.formula);
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row.bytes).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gib(row.bytes).c_str());
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("GB = 10^9 bytes, GiB = 2^30 bytes.");
    if (e.trainable_count != e.param_count) {
        ImGui::Spacing();
        ImGui::TextWrapped("Training %s of %s parameters saves %s of gradient+optimizer memory; the weights keep their %s.",
                           format_count_short(e.trainable_count).c_str(), format_count_short(e.param_count).c_str(),
                           format_gb(e.reduction_bytes).c_str(), format_gb(e.weight_bytes).c_str());
    }
}

void apply_theme(bool dark, float scale) {
    ImGuiStyle style;
    if (dark) {
        ImGui::StyleColorsDark(&style);
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.11f, 0.13f, 1.0f);
    } else {
        ImGui::StyleColorsLight(&style);
        style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.98f, 1.0f);
    }
    style.WindowPadding = ImVec2(16, 14);
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(10, 6);
    style.FrameRounding = 4.0f;
    style.WindowRounding = 0.0f;
    style.CellPadding = ImVec2(8, 6);
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

}  // namespace

bool app_set_scenario(AppState& app, const Scenario& scenario) {
    const Expected<Estimate> result = estimate(scenario);
    if (!result) return false;
    app.scenario = scenario;
    app.estimate = *result;
    for (TextField& field : app.fields) {
        copy_into(field.text, field_text_for(scenario, field.key));
        field.error.clear();
    }
    return true;
}

void app_setup_style(AppState& app, float font_pixels) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;  // the TTF is static data
    config.OversampleH = 2;
    config.OversampleV = 1;
    io.Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(kUiFontTtf), static_cast<int>(kUiFontTtfSize),
                                   font_pixels, &config);
    apply_theme(app.dark_theme, app.ui_scale);
}

void draw_frame(AppState& app) {
    app.scenario_changed = false;
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(viewport->WorkPos);
    ImGui::SetNextWindowSize(viewport->WorkSize);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
    ImGui::Begin("llm-memory##main", nullptr, flags);
    ImGui::Text("LLM Memory Estimator");
    ImGui::SameLine();
    ImGui::TextDisabled("how much memory a model needs to run and to train");
    ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorStartPos().x - ImGui::CalcTextSize("Light theme").x -
                    ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton(app.dark_theme ? "Light theme" : "Dark theme")) {
        app.dark_theme = !app.dark_theme;
        apply_theme(app.dark_theme, app.ui_scale);
    }
    ImGui::Separator();

    const float width = ImGui::GetContentRegionAvail().x;
    const bool wide = width > 640.0f * app.ui_scale;
    if (wide) {
        if (ImGui::BeginTable("layout##columns", 2, ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("inputs", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            ImGui::TableSetupColumn("results", ImGuiTableColumnFlags_WidthStretch, 1.4f);
            ImGui::TableNextColumn();
            draw_inputs(app);
            ImGui::TableNextColumn();
            draw_results(app);
            ImGui::EndTable();
        }
    } else {
        draw_results(app);
        draw_inputs(app);
    }
    ImGui::End();
}

}  // namespace llm_memory
