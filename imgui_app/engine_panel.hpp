// The engine panel and the verdicts that lead the results: "Runs on ..." with the chosen engine and
// "Trains on ..." as its own sentence, both core's (core/report.hpp verdict_lines).
#pragma once

#include <string>

#include "../core/report.hpp"
#include "app.hpp"

namespace llm_memory {

// The run and training verdicts, coloured by their verdicts; nothing without an engine or an inference-only
// format. `run_line` false leaves the run verdict to the phone's summary strip, which leads with it.
void draw_verdicts(AppState& app, bool run_line = true);
// The engine selector, the engine's own flags, its per-device table, needed vs reserved and the command.
void draw_engine_panel(AppState& app);
// Where the engine panel would be, in a build without the engine models (the page's lean build, which loads
// the full one for them): an engine selector and "Paste a command" / "Paste a log", then `note` (what
// choosing loads). The engine keys are placed, hidden. Returns what was chosen, as the link pair that asks
// the full build for it ("engine=vllm", "paste=command", "paste=log"), else "".
std::string draw_engines_elsewhere(AppState& app, const std::string& note);
// Whether this panel places `key`'s control (the engine and its flags), so the runtime panel leaves it out.
bool engine_panel_draws(const char* key);
// The run verdict and its sentence: the engine's, or the seed's for an inference-only format on a GPU
// (empty text otherwise).
VerdictLine run_verdict(AppState& app);

}  // namespace llm_memory
