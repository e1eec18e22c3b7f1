// The model picker: search the built-in presets, paste or drop a config.json, and see the exact
// parameter count and its breakdown. Choosing a model sets the scenario's N (and its architecture for
// KV-cache/LoRA figures) through core; nothing here computes a count.
#pragma once

#include <string>
#include <string_view>

#include "app.hpp"
#include "model_file.hpp"

namespace llm_memory {

// Draws the whole model section into the current window at the available width: the chosen model,
// a search box with the matching presets (click to choose), a model file to open (a button for the
// driver's file picker when app.file_picker, a path field when app.file_path_field), a "Paste
// config.json" box with a Use button,
// the architecture summary and the breakdown table (part, parameters, share; total and active for MoE).
// Self-contained: its view state lives in app.model_panel (created on first use). A bad config shows its
// error and keeps the last good model and scenario.
void draw_model_panel(AppState& app);

// Queues config.json text from outside the frame (a file dropped on the desktop window, the web page's
// drop handler); the next draw_model_panel() loads it as if pasted. source_name is shown ("config.json").
// Returns false, with the message kept for the panel to show, if core cannot read the text.
bool queue_model_config(AppState& app, std::string_view json_text, const std::string& source_name);

// Queues a model file read by core's ModelFileReader (a dropped .gguf or .safetensors, on the desktop or
// the web page): the next frame makes it the scenario's model, or shows its error. Returns file.ok().
bool queue_model_file(AppState& app, const Expected<FileModel>& file, const std::string& source_name);

// Applies configs queued by queue_model_config to app.scenario (or keeps their error for the panel).
// draw_frame calls it every frame, so a dropped file applies even while the Model section is closed.
// Returns true when something was queued.
bool apply_pending_model_configs(AppState& app);

// The notice the Model panel shows under its controls (a load's error, or "Loaded ..." with its notes),
// and whether it is shown as an error; empty before the panel is first drawn.
std::string model_panel_message(const AppState& app, bool* is_error = nullptr);

// True once after apply_pending_model_configs took a config: the Model section should open to show it.
bool model_panel_open_requested(AppState& app);
// Asks for the Model section to open on the next frame (a Hugging Face look-up ended).
void model_panel_request_open(AppState& app);

}  // namespace llm_memory
