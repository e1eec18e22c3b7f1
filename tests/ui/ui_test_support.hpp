// Shared by the headless UI tests: one ImGui context with the app's font and style (no backend, no
// window), and the widest horizontal overflow of any visible window after a frame.
#pragma once

#include <cstdint>
#include <string>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"

namespace llm_memory::test {

// Creates an ImGui context for one test with the app's font and style at `scale`; destroys it after.
class HeadlessImGui {
public:
    explicit HeadlessImGui(AppState& app, float scale = 1.0f) {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
        app.ui_scale = scale;
        app_setup_style(app, 17.0f * scale);
        unsigned char* pixels = nullptr;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &atlas_width_px, &atlas_height_px);
        io.Fonts->SetTexID(reinterpret_cast<ImTextureID>(static_cast<intptr_t>(1)));
    }
    ~HeadlessImGui() { ImGui::DestroyContext(); }
    HeadlessImGui(const HeadlessImGui&) = delete;
    HeadlessImGui& operator=(const HeadlessImGui&) = delete;

    int atlas_width_px = 0;   // the font atlas's size: 0 would mean the font failed to load
    int atlas_height_px = 0;
};

// The widest horizontal overflow (ScrollMax.x) of any visible, non-popup window; its name in `which`.
inline float widest_window_overflow(std::string* which = nullptr) {
    float worst = 0.0f;
    for (ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
        if (!window->WasActive || window->Hidden) continue;
        if ((window->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) != 0) continue;
        if (window->ScrollMax.x > worst) {
            worst = window->ScrollMax.x;
            if (which != nullptr) *which = window->Name;
        }
    }
    return worst;
}

}  // namespace llm_memory::test
