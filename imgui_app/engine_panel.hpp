// The engine panel and the verdicts that lead the results: "Runs on ..." with the chosen engine and
// "Trains on ..." as its own sentence, both core's (core/report.hpp verdict_sentences).
#pragma once

#include <string>

#include "app.hpp"

namespace llm_memory {

// The run and training verdicts, coloured by outcome; nothing without an engine or an inference-only format.
void draw_verdicts(AppState& app);
// The engine selector, the engine's own flags, its per-device table, needed vs reserved and the command.
void draw_engine_panel(AppState& app);
// Where the engine panel would be, in a build without the engine models (engines_in_build): the note that
// says where they are; the engine keys are placed, hidden.
void draw_engines_left_out(AppState& app);
// Whether this panel places `key`'s control (the engine and its flags), so the runtime panel leaves it out.
bool engine_panel_draws(const char* key);
// The run verdict sentence for the phone's summary strip ("" without an engine).
std::string run_verdict_text(AppState& app);

}  // namespace llm_memory
