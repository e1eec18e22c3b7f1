// "Engine command and log": paste an engine's command line to set the scenario from its flags, copy the
// command that realises the current scenario, and paste a load log to see it reconciled term by term.
// Everything goes through core (core/engines/command_line.hpp, engine_log.hpp); nothing leaves the machine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"

namespace llm_memory {

// What applying a pasted command did: the message ("Set from the llama-server command, model ...") or
// the problem (with the flag as written), and the ignored, not-modelled and not-applied flags.
struct EngineCommandResult {
    bool ok = false;
    std::string message;
    std::vector<std::string> notes;
};

// Reads an engine command and makes its settings and model the app's scenario (app_set_scenario); on any
// problem nothing changes. The panel's "Use this command" and the page's text view both call it.
EngineCommandResult apply_engine_command(AppState& app, std::string_view command);

// Draws the section into the current window at the available width.
void draw_engine_io_panel(AppState& app);

}  // namespace llm_memory
