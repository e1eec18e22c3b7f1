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

// No NaN, infinity or negative value in JSON made by report_json / check_result_json: every value
// position (after ':' or '[' or ',' outside strings) starts with a digit, '"', '{', '[', t, f or n(ull).
inline bool json_numbers_are_sane(std::string_view json) {
    bool in_string = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == ':' || c == '[' || c == ',') {
            const std::string_view after = json.substr(i + 1, 4);
            if (after.empty()) return false;
            const char v = after[0];
            if (v == '-' || v == 'N' || v == 'I' || v == 'i') return false;
            if (v == 'n' && after != "null") return false;
        }
    }
    return !in_string;
}

}  // namespace llm_memory::fuzz
