// Shared panel widgets: applying text fields through core's settings table, headings, wrapped muted and
// error text, the dismissible mistake guards and the clipboard confirmation.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "imgui.h"
#include "imgui_internal.h"
#include "panels.hpp"
#include "settings.hpp"

namespace llm_memory {

void apply_fields(AppState& app) {
    app.copied_message.clear();
    Scenario candidate = app.scenario;
    bool all_parse = true;
    for (TextField& field : app.fields) {
        const Expected<bool> applied = apply_setting(candidate, field.key, field.text.data());
        field.error = applied ? std::string() : applied.failure().problem;
        all_parse = all_parse && applied.ok();
    }
    if (!all_parse) return;
    const Expected<Estimate> result = estimate(candidate);
    if (!result) {
        // A cross-field problem (e.g. trainable > params): show it under the field it names, or, when it
        // names a setting without a text field here (lora-rank, context, ...), under the inputs heading.
        bool shown = false;
        for (TextField& field : app.fields) {
            if (result.failure().key != field.key) continue;
            field.error = result.failure().problem;
            shown = true;
        }
        app.scenario_error = shown ? std::string() : result.error() + " (results show the last valid scenario)";
        return;
    }
    app.scenario_error.clear();
    // The text fields keep what was typed ("13b" stays "13b"), so only the scenario and its figures change.
    if (to_state(candidate) != to_state(app.scenario)) app.scenario_changed = true;
    app.scenario = candidate;
    app.estimate = *result;
    app_scenario_replaced(app);
}

void set_field_and_apply(AppState& app, const char* key, const std::string& text) {
    for (TextField& field : app.fields) {
        if (std::strcmp(field.key, key) != 0) continue;
        std::snprintf(field.text.data(), field.text.size(), "%s", text.c_str());
    }
    apply_fields(app);
}

void section_heading(const char* title) {
    ImGui::Spacing();
    ImGui::SeparatorText(title);
}

void wrapped_text(const char* fmt, ...) {
    va_list args;
    va_start(args, fmt);
    const char* text = nullptr;
    const char* text_end = nullptr;
    ImFormatStringToTempBufferV(&text, &text_end, fmt, args);
    va_end(args);
    ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float wrap_pos = window->DC.TextWrapPos < 0.0f ? 0.0f : window->DC.TextWrapPos;
    const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos);
    ImFont* font = ImGui::GetFont();
    const float size = ImGui::GetFontSize();
    const auto measure = [&](std::string_view part) {
        return font->CalcTextSizeA(size, FLT_MAX, 0.0f, part.data(), part.data() + part.size()).x;
    };
    // One item, its lines joined by newlines: the line height is the font's, as ImGui::TextWrapped spaces them.
    std::string joined;
    for (std::string_view line : wrap_at_spaces(std::string_view(text, static_cast<std::size_t>(text_end - text)), width, measure)) {
        if (!joined.empty() || line.data() != text) joined += '\n';
        joined.append(line.data(), line.size());
    }
    ImGui::TextUnformatted(joined.data(), joined.data() + joined.size());
}

void muted_text(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text("%s", text.c_str());
    ImGui::PopStyleColor();
}

void error_text(const std::string& text, const Palette& palette) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
    wrapped_text("%s", text.c_str());
    ImGui::PopStyleColor();
}

ImVec4 verdict_colour(const AppState& app, FitVerdict verdict) {
    const Palette& p = theme_palette(app.dark_theme);
    if (verdict == FitVerdict::fits) return p.ok_text;
    if (verdict == FitVerdict::does_not_fit) return p.error_text;
    return ImVec4(0.95f, 0.68f, 0.20f, 1.0f);  // amber: tight
}

void verdict_text_line(const AppState& app, const std::string& text, FitVerdict verdict) {
    ImGui::PushStyleColor(ImGuiCol_Text, verdict_colour(app, verdict));
    wrapped_text("%s", text.c_str());
    ImGui::PopStyleColor();
}

void accent_card(const Palette& palette, bool highlight, const std::function<void()>& draw) {
    const ImGuiStyle& style = ImGui::GetStyle();
    ImDrawList* list = ImGui::GetWindowDrawList();
    ImDrawListSplitter splitter;
    splitter.Split(list, 2);
    splitter.SetCurrentChannel(list, 1);
    const ImVec2 start = ImGui::GetCursorScreenPos();
    const float start_x = ImGui::GetCursorPosX();
    const float width = ImGui::GetContentRegionAvail().x;
    const float pad = style.FramePadding.x;
    const float accent_w = std::max(3.0f, pad * 0.4f);
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + pad * 0.6f);
    ImGui::Indent(pad + accent_w);
    ImGui::PushTextWrapPos(start_x + width - pad);
    draw();
    ImGui::PopTextWrapPos();
    ImGui::Unindent(pad + accent_w);
    const float end_y = ImGui::GetCursorScreenPos().y + pad * 0.6f - style.ItemSpacing.y;
    ImGui::SetCursorPosY(ImGui::GetCursorPosY() + pad * 0.6f);
    splitter.SetCurrentChannel(list, 0);
    const ImVec2 end(start.x + width, end_y);
    list->AddRectFilled(start, end, palette.card_bg, style.FrameRounding);
    list->AddRect(start, end, highlight ? palette.guard_accent : palette.card_border, style.FrameRounding, 0,
                  highlight ? 2.0f : 1.0f);
    list->AddRectFilled(start, ImVec2(start.x + accent_w, end.y), palette.guard_accent, style.FrameRounding,
                        ImDrawFlags_RoundCornersLeft);
    splitter.Merge(list);
    ImGui::Spacing();
}

void mistake_guard(AppState& app, int index, const std::string& text) {
    if (index < 0 || index >= static_cast<int>(app.mistake_dismissed.size())) return;
    if (app.mistake_dismissed[static_cast<std::size_t>(index)] || app.embed_mode) return;
    const Palette& palette = theme_palette(app.dark_theme);
    const ImGuiStyle& style = ImGui::GetStyle();
    ImGui::PushID("mistake_guard");
    ImGui::PushID(index);
    // The dismiss button sits at the card's right edge, measured before the card indents its content.
    const float right_edge_x = ImGui::GetCursorPosX() + ImGui::GetContentRegionAvail().x - style.FramePadding.x;
    accent_card(palette, false, [&] {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette.guard_accent));
        ImGui::TextUnformatted("Common mistake");
        ImGui::PopStyleColor();
        const char* dismiss = "×";
        const float button_w = ImGui::CalcTextSize(dismiss).x + style.FramePadding.x * 2.0f;
        ImGui::SameLine(std::max(right_edge_x - button_w, ImGui::GetCursorPosX()));
        if (ImGui::SmallButton(dismiss)) app.mistake_dismissed[static_cast<std::size_t>(index)] = true;
        if (ImGui::IsItemHovered() || ImGui::IsItemFocused()) ImGui::SetTooltip("Dismiss this note");
        ImGui::TextUnformatted(text.c_str());
    });
    ImGui::PopID();
    ImGui::PopID();
}

namespace {

int grow_string(ImGuiInputTextCallbackData* data) {
    if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
        auto* text = static_cast<std::string*>(data->UserData);
        text->resize(static_cast<std::size_t>(data->BufTextLen));
        data->Buf = text->data();
    }
    return 0;
}

}  // namespace

bool begin_stretch_table(const char* id, std::initializer_list<std::pair<const char*, float>> columns) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable(id, static_cast<int>(columns.size()), flags)) return false;
    for (const auto& [name, weight] : columns) ImGui::TableSetupColumn(name, ImGuiTableColumnFlags_WidthStretch, weight);
    ImGui::TableHeadersRow();
    return true;
}

void paste_box(const char* id, std::string& text, float lines) {
    if (text.capacity() < 1024) text.reserve(1024);
    ImGui::InputTextMultiline(id, text.data(), text.capacity() + 1, ImVec2(-1.0f, ImGui::GetTextLineHeight() * lines),
                              ImGuiInputTextFlags_CallbackResize, grow_string, &text);
}

void copy_to_clipboard(AppState& app, const std::string& text, const char* what) {
    ImGui::SetClipboardText(text.c_str());
    app.copied_message = std::string("Copied ") + what + " to the clipboard.";
}

}  // namespace llm_memory
