// Light and dark themes. Series colours are a blue / orange / purple set that stays distinct for the
// common colour-vision deficiencies; text on cards keeps at least 4.5:1 contrast in both themes.
#include "theme.hpp"

namespace llm_memory {
namespace {

ImVec4 rgb(int r, int g, int b, float a = 1.0f) {
    return ImVec4(static_cast<float>(r) / 255.0f, static_cast<float>(g) / 255.0f, static_cast<float>(b) / 255.0f, a);
}

ImU32 packed(int r, int g, int b, int a = 255) { return IM_COL32(r, g, b, a); }

void dark_colors(ImGuiStyle& style) {
    ImGui::StyleColorsDark(&style);
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = rgb(232, 234, 238);
    c[ImGuiCol_TextDisabled] = rgb(160, 166, 178);
    c[ImGuiCol_WindowBg] = rgb(23, 25, 30);
    c[ImGuiCol_ChildBg] = rgb(23, 25, 30, 0.0f);
    c[ImGuiCol_PopupBg] = rgb(32, 35, 42);
    c[ImGuiCol_Border] = rgb(58, 63, 75);
    c[ImGuiCol_FrameBg] = rgb(38, 42, 52);
    c[ImGuiCol_FrameBgHovered] = rgb(48, 54, 68);
    c[ImGuiCol_FrameBgActive] = rgb(56, 64, 82);
    c[ImGuiCol_Button] = rgb(44, 72, 120);
    c[ImGuiCol_ButtonHovered] = rgb(58, 94, 156);
    c[ImGuiCol_ButtonActive] = rgb(70, 110, 180);
    c[ImGuiCol_Header] = rgb(44, 72, 120, 0.55f);
    c[ImGuiCol_HeaderHovered] = rgb(58, 94, 156, 0.8f);
    c[ImGuiCol_HeaderActive] = rgb(70, 110, 180);
    c[ImGuiCol_Tab] = rgb(34, 38, 47);
    c[ImGuiCol_TabHovered] = rgb(58, 94, 156);
    c[ImGuiCol_TabActive] = rgb(44, 72, 120);
    c[ImGuiCol_SliderGrab] = rgb(96, 150, 240);
    c[ImGuiCol_SliderGrabActive] = rgb(130, 175, 250);
    c[ImGuiCol_CheckMark] = rgb(130, 175, 250);
    c[ImGuiCol_TableHeaderBg] = rgb(34, 38, 47);
    c[ImGuiCol_TableRowBgAlt] = rgb(255, 255, 255, 0.03f);
    c[ImGuiCol_Separator] = rgb(58, 63, 75);
    c[ImGuiCol_NavHighlight] = rgb(250, 200, 80);
}

void light_colors(ImGuiStyle& style) {
    ImGui::StyleColorsLight(&style);
    ImVec4* c = style.Colors;
    c[ImGuiCol_Text] = rgb(26, 29, 36);
    c[ImGuiCol_TextDisabled] = rgb(88, 94, 108);
    c[ImGuiCol_WindowBg] = rgb(247, 248, 250);
    c[ImGuiCol_ChildBg] = rgb(247, 248, 250, 0.0f);
    c[ImGuiCol_PopupBg] = rgb(255, 255, 255);
    c[ImGuiCol_Border] = rgb(200, 205, 214);
    c[ImGuiCol_FrameBg] = rgb(255, 255, 255);
    c[ImGuiCol_FrameBgHovered] = rgb(236, 241, 250);
    c[ImGuiCol_FrameBgActive] = rgb(225, 234, 250);
    c[ImGuiCol_Button] = rgb(222, 232, 248);
    c[ImGuiCol_ButtonHovered] = rgb(200, 218, 246);
    c[ImGuiCol_ButtonActive] = rgb(176, 202, 242);
    c[ImGuiCol_Header] = rgb(222, 232, 248);
    c[ImGuiCol_HeaderHovered] = rgb(200, 218, 246);
    c[ImGuiCol_HeaderActive] = rgb(176, 202, 242);
    c[ImGuiCol_Tab] = rgb(228, 232, 240);
    c[ImGuiCol_TabHovered] = rgb(200, 218, 246);
    c[ImGuiCol_TabActive] = rgb(255, 255, 255);
    c[ImGuiCol_SliderGrab] = rgb(37, 99, 235);
    c[ImGuiCol_SliderGrabActive] = rgb(29, 78, 216);
    c[ImGuiCol_CheckMark] = rgb(37, 99, 235);
    c[ImGuiCol_TableHeaderBg] = rgb(232, 236, 243);
    c[ImGuiCol_TableRowBgAlt] = rgb(0, 0, 0, 0.025f);
    c[ImGuiCol_Separator] = rgb(200, 205, 214);
    c[ImGuiCol_NavHighlight] = rgb(217, 119, 6);
}

}  // namespace

void apply_theme(bool dark, float scale, bool touch) {
    ImGuiStyle style;
    if (dark) dark_colors(style);
    else light_colors(style);
    style.WindowPadding = ImVec2(16, 14);
    style.FramePadding = ImVec2(8, 5);
    style.ItemSpacing = ImVec2(10, 7);
    style.ItemInnerSpacing = ImVec2(6, 4);
    style.CellPadding = ImVec2(8, 5);
    style.FrameRounding = 4.0f;
    style.GrabRounding = 4.0f;
    style.TabRounding = 4.0f;
    style.ChildRounding = 6.0f;
    style.PopupRounding = 4.0f;
    style.WindowRounding = 0.0f;
    style.ScrollbarSize = 12.0f;
    style.GrabMinSize = 14.0f;
    style.FrameBorderSize = dark ? 0.0f : 1.0f;
    style.WindowBorderSize = 0.0f;
    style.SeparatorTextBorderSize = 2.0f;
    if (touch) {
        // Touch targets of about 44 px (the platform guidelines' minimum): frame height = 17 px font +
        // 2 x 13.5 px padding. Close boxes and combo rows grow their reactive box instead of their size.
        style.FramePadding = ImVec2(12, 13.5f);
        style.TouchExtraPadding = ImVec2(4, 6);
        style.GrabMinSize = 28.0f;
        style.ScrollbarSize = 16.0f;
    }
    style.ScaleAllSizes(scale);
    ImGui::GetStyle() = style;
}

namespace {

// The two themes' chart and text colours (Palette's fields, in order).
const Palette kDark{
    packed(96, 150, 240),  packed(240, 170, 60),  packed(180, 120, 240), packed(240, 90, 90),
    packed(250, 220, 90),  packed(80, 86, 100),   packed(232, 234, 238), packed(160, 166, 178),
    packed(32, 35, 43),    packed(58, 63, 75),    packed(240, 170, 60),  rgb(255, 130, 120),
    rgb(110, 210, 140),    rgb(140, 185, 255),    packed(16, 18, 24),
    packed(60, 200, 185),  packed(150, 156, 170),
};
const Palette kLight{
    packed(37, 99, 235),   packed(180, 83, 9),    packed(126, 58, 200),  packed(200, 30, 30),
    packed(20, 20, 20),    packed(200, 205, 214), packed(26, 29, 36),    packed(88, 94, 108),
    packed(255, 255, 255), packed(210, 214, 222), packed(180, 83, 9),    rgb(180, 30, 30),
    rgb(20, 120, 60),      rgb(29, 78, 216),      packed(255, 255, 255),
    packed(15, 118, 110),  packed(90, 98, 112),
};

}  // namespace

const Palette& theme_palette(bool dark) {
    return dark ? kDark : kLight;
}

}  // namespace llm_memory
