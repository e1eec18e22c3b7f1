// Shell completion for llm-memory, generated from the program itself: the options come from the settings
// table and the help text of each command, and an option's value words (dtype, GPU, model, question keys,
// ...) are the words of its help line and core's catalogues that the command accepts for it.
// Nothing is hand-listed, so a new settings row or subcommand is completed without touching this file.
#pragma once

#include <string>

namespace llm_memory {

// A bash completion script for llm-memory (printed by the hidden option --bash-completion).
std::string bash_completion_script();

}  // namespace llm_memory
