// "What fits": core's answers backwards (core/fit.hpp) for the scenario's GPU, live as the inputs change:
// the largest context and batch (and the training settings when the build has them), the fewest GPUs, the
// format with the most bits that fits and llama.cpp's layers on the GPU. The panel arranges core's
// headlines and sentences; it computes no figure. "Use this" makes an answer's scenario the current one.
#pragma once

#include <cstdint>
#include <vector>

#include "app.hpp"
#include "fit.hpp"

namespace llm_memory {

// The answers for one scenario generation (recomputed only when the scenario changes).
struct FitPanelView {
    std::uint64_t generation = ~std::uint64_t{0};
    std::vector<FitReport> reports;
    std::vector<char> usable;  // per answer, in report order: 1 when "Use this" applies (found, another scenario)
};

// core's answers for app.scenario (answer_applicable_fit_questions), cached per scenario generation; empty
// without a GPU. The panel and the web page's text view both read this.
const std::vector<FitReport>& fit_reports(AppState& app);

// Draws the panel into the current window at the available width; a one-line hint without a GPU.
void draw_fit_panel(AppState& app);

}  // namespace llm_memory
