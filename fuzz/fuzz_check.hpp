// Invariant checks shared by the libFuzzer targets: a failed check prints what broke and aborts, which
// libFuzzer records as a crash with the input that caused it (fuzz/crash-* in the working directory).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "quantity.hpp"

#define FUZZ_CHECK(condition)                                                                      \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", #condition, __FILE__, __LINE__); \
            std::abort();                                                                          \
        }                                                                                          \
    } while (0)

namespace llm_memory::fuzz {

// A message shown to people: non-empty, one line, printable, valid UTF-8, and bounded in length.
inline bool is_clean_message(const std::string& message, std::size_t max_bytes = 400) {
    if (message.empty() || message.size() > max_bytes) return false;
    return printable_excerpt(message, message.size()) == message;
}

// No NaN, infinity or negative value after any ':' of a flat JSON object made by report_json.
inline bool json_numbers_are_sane(std::string_view json) {
    for (std::size_t i = json.find(':'); i != std::string_view::npos; i = json.find(':', i + 1)) {
        const std::string_view after = json.substr(i + 1, 3);
        if (!after.empty() && after[0] == '-') return false;
        if (after == "nan" || after == "NaN" || after == "inf" || after == "Inf") return false;
    }
    return true;
}

}  // namespace llm_memory::fuzz
