// Shared by the CLI tests: run the CLI as a function and capture its exit status, stdout and stderr.
#pragma once

#include <string>
#include <vector>

#include "cli.hpp"

namespace llm_memory::test {

// What one CLI run printed and returned.
struct CliRun {
    int status = 0;
    std::string out;
    std::string err;
};

// Runs the CLI with args (without the program name).
inline CliRun run_cli_capture(const std::vector<std::string>& args) {
    CliRun r;
    r.status = run_cli(args, r.out, r.err);
    return r;
}

// True when part occurs in text.
// The CLI run with `args` (the program name left out), its output and status captured.
inline CliRun cli(const std::vector<std::string>& args) { return run_cli_capture(args); }

inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace llm_memory::test
