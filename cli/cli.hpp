// The command-line front end as a function: arguments in, stdout/stderr text and an exit status out.
// main() only forwards to run_cli, so tests drive the CLI without spawning a process.
// Exit status: 0 success, 2 bad input (one "error: ..." line on stderr, nothing on stdout).
#pragma once

#include <string>
#include <vector>

namespace llm_memory {

// Runs the CLI with args (without the program name); fills out/err with what to print.
int run_cli(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace llm_memory
