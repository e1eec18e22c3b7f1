// `llm-memory check`: checks a learner's answer to one practice question and names the mistake.
// Same JSON as window.llmMemory.checkAnswer (core's check_result_json). Exit 0 whether the answer is
// right or wrong; exit 2 with one "error: ..." line for bad flags, an unknown question, a bad state or
// an answer that is not an amount of memory (e.g. "banana"), with nothing on stdout.
#pragma once

#include <string>
#include <vector>

namespace llm_memory {

// Runs `check` with the arguments after the word "check"; fills out/err; returns the exit status.
int run_check(const std::vector<std::string>& args, std::string& out, std::string& err);

}  // namespace llm_memory
