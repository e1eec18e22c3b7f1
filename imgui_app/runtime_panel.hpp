// "How it runs": a control for every setting beyond the seed's inputs (weight format, training recipe,
// LoRA/QLoRA, training as it runs, KV cache, inference mode, GPU), each drawn from its settings row by
// setting_control, and the GPU verdict card.
// Every edit goes through core's settings table (apply_setting) and estimate(); a rejected value shows its
// message under the control and the app keeps its last valid scenario. No byte figure is computed here.
#pragma once

#include "app.hpp"

namespace llm_memory {

// How a setting_control call shows its control: usable, greyed out (a note says why), or not at all (the
// section has no use for it now; it still counts as placed).
enum class Shown { enabled, disabled, hidden };

// One control for one settings key, all from its row (core/settings.hpp): the label with its unit, an input
// by kind (text field, radio buttons for up to four choices, a list for more, a checkbox for a flag), the
// key's own error and its note (or the chosen choice's help). Edits go through app_try_setting. True when an
// edit was applied this frame.
bool setting_control(AppState& app, const char* key, Shown shown = Shown::enabled);

// Whether another panel draws `key`'s control (the model picker, the seed's inputs).
bool setting_drawn_elsewhere(const char* key);

// Draws the controls into the current window at the available width. On a valid change it sets
// app.scenario, app.estimate and app.scenario_changed. Text buffers (one per settings row) live in
// app.runtime and re-sync from app.scenario whenever its generation changed elsewhere (URL, model picker).
// A settings row that no section places is drawn under "More settings". LoRA and the KV cache need app.scenario.model (a preset or a
// config.json); without one their controls are disabled with a note saying so.
void draw_runtime_panel(AppState& app);

// Draws the GPU verdict for app.estimate: capacity, training model states per GPU under the ZeRO stage
// (fits / tight / does not fit, the margin, GPUs needed), the inference total per GPU, and the note that
// training covers model states only. Draws a one-line hint when no GPU is chosen.
void draw_gpu_fit(AppState& app);

}  // namespace llm_memory
