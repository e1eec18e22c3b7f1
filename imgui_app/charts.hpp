// Charts drawn with ImDrawList: the seed's two-step diagram (weights -> x overhead -> inference total),
// stacked horizontal bars (inference vs training, before vs after) with an optional capacity line, and the
// weight-memory-vs-parameters plot. Labels are core's formatted figures; the only arithmetic is geometry.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "estimator.hpp"
#include "imgui.h"
#include "scaling.hpp"
#include "theme.hpp"

namespace llm_memory {

// One coloured part of a stacked bar.
struct BarSegment {
    std::uint64_t bytes;
    ImU32 color;
    const char* name;  // "Weights", shown in the legend and the tooltip
};

// One bar: a label on the left, its segments, and its total (core-formatted) after it.
struct StackedBar {
    std::string label;
    std::uint64_t total_bytes;  // core's total for this bar (the segments add up to it)
    std::string total_text;
    std::vector<BarSegment> segments;
};

// The diagram: a "Weights" box, an arrow labelled "× <factor> overhead", an "Inference total" box.
// Lays out left to right when there is room, top to bottom when narrow.
void draw_two_step_diagram(const Scenario& scenario, const Estimate& estimate, const Palette& palette);

// Horizontal stacked bars sharing one byte axis (0 to a nice maximum above every bar and the capacity).
// capacity_bytes > 0 draws a vertical line labelled capacity_label. A legend of the segment names follows.
void draw_stacked_bars(const char* id, const std::vector<StackedBar>& bars, std::uint64_t capacity_bytes,
                       const std::string& capacity_label, const Palette& palette);

// Weight memory against parameter count: the straight line at the current b, the table's rows as dots,
// the current scenario as a ringed marker.
void draw_scaling_plot(const std::vector<ScalingRow>& rows, const Scenario& scenario, const Estimate& estimate,
                       const Palette& palette);

}  // namespace llm_memory
