// Light and dark themes: ImGui style colours and sizes, plus the palette the charts and guards draw with.
// Sizes are scaled by the UI scale (device pixel ratio x zoom); colours are the same at every scale.
#pragma once

#include "imgui.h"

namespace llm_memory {

// Colours beyond ImGui's style: chart series, guard cards, messages. Packed ImU32 for ImDrawList.
struct Palette {
    ImU32 weights;       // weight memory (bars, diagram boxes, plot line)
    ImU32 overhead;      // the inference overhead margin
    ImU32 grad_opt;      // gradient + optimizer states
    ImU32 capacity;      // the GPU capacity line
    ImU32 current;       // the current scenario's marker
    ImU32 grid;          // axes and grid lines
    ImU32 text;          // chart labels
    ImU32 text_muted;    // secondary chart labels
    ImU32 card_bg;       // guard and diagram card backgrounds
    ImU32 card_border;
    ImU32 guard_accent;  // the mistake guard's left bar
    ImVec4 error_text;   // inline error messages (ImVec4 for PushStyleColor)
    ImVec4 ok_text;      // fits / success messages
    ImVec4 accent_text;  // headline figures
    ImU32 bar_text;      // figures printed on the chart's coloured segments (>= 4.5:1 on each series colour)
    ImU32 runtime_second;  // the second runtime series of a bar (activations, after the KV cache)
    ImU32 runtime_third;   // the third runtime series of a bar (the runtime reserve)
};

// Applies the light or dark theme to ImGui::GetStyle(), sizes scaled by `scale`. `touch`: touch-sized hit
// areas (frames, tabs and buttons about 44 logical px high; small boxes reactive a little beyond their edge)
// for a touch screen; the mouse layout is the default.
void apply_theme(bool dark, float scale, bool touch = false);

// The palette of the light or dark theme.
const Palette& theme_palette(bool dark);

}  // namespace llm_memory
