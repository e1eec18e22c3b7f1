// The app's UI: view state (text buffers, last valid scenario, messages) and one draw_frame().
// Every figure shown comes from core's estimate(); this layer never computes a byte figure.
// Shared unchanged by the native (GLFW + OpenGL 3) and web (Emscripten + WebGL2) drivers.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "estimator.hpp"
#include "settings.hpp"
#include "scaling.hpp"
#include "steps.hpp"

namespace llm_memory {

struct ModelPanelView;  // imgui_app/model_panel.cpp: the model picker's view state

struct PracticeView;  // imgui_app/practice_panel.hpp: the Practice tab's view state

struct FitPanelView;  // imgui_app/fit_panel.hpp: the What fits panel's answers
struct EngineIoView;  // imgui_app/engine_io_panel.cpp: the engine command and log boxes

struct HubPanelView;  // imgui_app/hub_panel.cpp: the Hugging Face look-up and its consent

// One editable text input bound to a settings key (see core/settings.hpp).
struct TextField {
    TextField(const char* settings_key) : key(settings_key) {}  // NOLINT: implicit, for the field list
    const char* key;          // settings key, e.g. "params"
    std::array<char, 128> text{};
    std::string error;        // shown under the field; empty when the text is valid
};

// The app's tabs, in the tab bar's order.
enum class Tab { calculator, scaling, practice };

// The "How it runs" panel's view state (runtime_panel.cpp): one text buffer per settings row, in
// setting_specs() order, refilled from the scenario whenever its generation is not `synced_generation` (a
// change made elsewhere: URL, model picker, reset); an edit made here marks its own generation as synced, so
// what is typed stays. `placed` and `drawn` say, per row, what the panel did with its control this frame.
struct RuntimeView {
    std::uint64_t synced_generation = ~std::uint64_t{0};
    std::vector<std::array<char, 128>> text;
    std::vector<std::uint8_t> placed;  // a section placed it (drawn, greyed out or hidden)
    std::vector<std::uint8_t> drawn;   // its control was drawn
    std::string error_key;      // the settings key whose control shows `error`
    std::string error;
    std::uint64_t range_generation = ~std::uint64_t{0};  // the scenario the recipe range sentence is for
    std::string range_text;     // empty when either variant does not estimate
};

// Everything the UI remembers between frames.
struct AppState {
    Scenario scenario;   // the last valid scenario: results always show this one
    Estimate estimate;   // core's estimate of `scenario`
    std::array<TextField, 6> fields{{{"params"}, {"bytes"}, {"overhead"}, {"trainable"}, {"k"}, {"state-bytes"}}};
    bool dark_theme = true;     // the web driver sets it from prefers-color-scheme; the app has a toggle
    bool theme_changed = false; // set by the driver after changing dark_theme; draw_frame re-applies the theme
    float ui_scale = 1.0f;      // device pixel ratio x user zoom; set by the driver
    bool touch_layout = false;  // touch-sized hit areas (web driver, on a touch screen); set theme_changed after
    const char* editing_key = nullptr;  // settings key of the text field being edited this frame, else nullptr
    const char* hovered_key = nullptr;  // settings key of the text field under the pointer this frame, else nullptr
    bool scenario_changed = false;  // set when `scenario` changes; the driver persists/publishes it and clears it
    // The current (scenario, estimate) pair's number: every replacement (app_set_scenario,
    // app_scenario_replaced) takes the next one, so views and caches re-sync on it, never on fields.
    std::uint64_t scenario_generation = 0;
    std::shared_ptr<ModelPanelView> model_panel;  // the Model section's state, created on first use (model_panel.cpp)
    std::shared_ptr<HubPanelView> hub_panel;      // Hugging Face look-ups; created by the driver (hub_set_driver)
    // Opening a model file from the Model panel; the driver does the file I/O and queues the result
    // (queue_model_file). The native driver offers a path field; a driver with a file picker sets
    // file_picker instead. With neither, the panel offers no model file (the page: a config.json only).
    bool file_picker = false;          // set by the driver: "Open a model file..." asks it to show its picker
    bool file_path_field = false;      // set by the native driver: the panel shows a path field and Open
    bool open_file_requested = false;  // the picker button was pressed; the driver clears it
    std::string open_file_path;        // natively: the path entered in the panel; the driver reads and clears it
    // Embedding (web, embed=1): a compact layout for an iframe of about 700x420 with a link to the full app.
    bool embed_mode = false;
    // Set when the embed's "Open the full app" link is pressed; the web driver opens the full page (same
    // state, without embed=1) in a new tab, and clears it.
    bool open_full_app_requested = false;

    // ---- View state of the explorable (the seed document's sections) ----
    Tab active_tab = Tab::calculator;        // the tab drawn last frame
    std::optional<Tab> select_tab;           // set to switch to that tab on the next frame
    std::array<bool, 4> mistake_dismissed{}; // the seed's four common mistakes, in the seed's order
    std::vector<ScalingRow> scaling_rows = seed_scaling_rows();
    int scaling_sort_column = -1;            // ScalingColumn as int; -1 = insertion order
    bool scaling_sort_ascending = true;
    std::array<char, 32> capacity_text{};    // the chart's GPU memory field: the "gpu-memory" setting as text
    std::uint64_t capacity_generation = ~std::uint64_t{0};  // the scenario generation the field last showed
    std::string capacity_error;              // the field's message when its text is rejected
    std::string copied_message;              // "Steps copied as Markdown"; cleared by the next change
    std::string engine_notice;               // what an engine switch cleared; cleared by the next change
    std::string scenario_error;              // a rejected edit's problem that names no text field (e.g. LoRA
                                             // needs a model); shown under the inputs heading, cleared on success
    std::shared_ptr<PracticeView> practice;  // the Practice tab's state, created on first use (practice_panel.cpp)
    RuntimeView runtime;                     // the "How it runs" panel
    std::shared_ptr<FitPanelView> fit_panel; // the What fits panel's cached answers, created on first use
    std::shared_ptr<EngineIoView> engine_io; // the engine command and log boxes, created on first use
    bool reveal_engine_io = false;           // open the "Engine command and log" section and scroll to it once
                                             // (the page's paste=command|log link)
    std::uint64_t steps_generation = ~std::uint64_t{0};  // the scenario `steps` were derived for
    std::vector<Derivation> steps;           // the worked steps, rebuilt when the scenario changes
};

// The one way a new scenario becomes the app's: estimates it once, then replaces the scenario, estimate,
// text fields and generation. On an error nothing changes and the estimate's error is returned.
Status app_take_scenario(AppState& app, const Scenario& scenario);
// app_take_scenario for callers that only ask whether it was taken: false keeps the state.
bool app_set_scenario(AppState& app, const Scenario& scenario);
// A link's or stored state's outcome (apply_state) becomes the app's with the estimate apply_state made, so
// it is estimated once. False (nothing changes) when it has none: its pairs did not validate together.
bool app_take_state(AppState& app, const StateResult& result);

// The one way a panel applies an edit: sets one settings key from text on top of app.scenario, then
// app_take_scenario. On an error nothing changes and the error, with the key it is about, is returned for
// the control that owns it.
Status app_try_setting(AppState& app, const char* key, std::string_view text);

// Call after assigning app.scenario / app.estimate directly (app_set_scenario does it itself): gives the
// pair a new scenario_generation, so caches of figures derived from the scenario are rebuilt.
void app_scenario_replaced(AppState& app);

// Creates the fonts (Roboto at the given pixel size) and applies the theme. Call once per scale change,
// before the renderer builds its font texture.
void app_setup_style(AppState& app, float font_pixels);

// Draws one frame of the whole UI into the current ImGui context, filling the display.
void draw_frame(AppState& app);

}  // namespace llm_memory
