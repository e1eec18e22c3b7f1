// "How it runs": the controls for weight format, training recipe, LoRA/QLoRA, KV cache, inference mode
// and GPU fit, each with a one-line explanation, and the GPU verdict card.
// Every edit goes through core's settings table (apply_setting) and estimate(); a rejected value shows its
// message under the control and the app keeps its last valid scenario. No byte figure is computed here.
#pragma once

#include "app.hpp"

namespace llm_memory {

// Draws the controls into the current window at the available width. On a valid change it sets
// app.scenario, app.estimate and app.scenario_changed. Text buffers (LoRA targets, context, custom GPU
// memory, ...) live in app.runtime and re-sync from app.scenario whenever its generation changed
// elsewhere (URL, model picker). LoRA and the KV cache need app.scenario.model (a preset or a
// config.json); without one their controls are disabled with a note saying so.
void draw_runtime_panel(AppState& app);

// Draws the GPU verdict for app.estimate: capacity, training model states per GPU under the ZeRO stage
// (fits / tight / does not fit, the margin, GPUs needed), the inference total per GPU, and the note that
// training covers model states only. Draws a one-line hint when no GPU is chosen.
void draw_gpu_fit(const AppState& app);

}  // namespace llm_memory
