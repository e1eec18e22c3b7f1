// Scenario <-> text settings: one table of keys shared by the CLI (--key value), the URL state
// (#key=value&...), the JS API and stored state, so every surface accepts exactly the same inputs.
// Invariant: apply_state never leaves an invalid scenario; bad keys or values are reported and skipped.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "estimator.hpp"
#include "result.hpp"

namespace llm_memory {

// One settable input. `key` is the CLI long option and the URL key.
struct SettingSpec {
    const char* key;
    const char* value_hint;  // e.g. "N" or "F"
    const char* help;        // one line for --help
    // Parses text into the scenario; returns an error message without the key prefix, or "" on success.
    std::string (*apply)(Scenario& scenario, std::string_view text);
    // The value as text that apply() reads back exactly; "" when it is the default.
    std::string (*show)(const Scenario& scenario);
};

// Every known key, in the order they are shown and serialised.
const std::vector<SettingSpec>& setting_specs();

// Looks a key up; nullptr when unknown.
const SettingSpec* find_setting(std::string_view key);

// Sets one key from text. Error: "key: problem" (unknown key, or the value's problem).
Expected<bool> apply_setting(Scenario& scenario, std::string_view key, std::string_view value);

// The outcome of reading a state string: the scenario it gives and what was wrong with it.
struct StateResult {
    Scenario scenario;
    std::vector<std::string> problems;  // each names the key: "bytes: is not a number"
    bool combination_rejected = false;  // the pairs did not validate together: scenario is `base`
};

// How many bad settings apply_state lists one by one; the rest are counted in one more line, so a
// hand-edited 1 MB link cannot flood the CLI's stderr or the app's message area.
inline constexpr std::size_t kMaxListedStateProblems = 10;

// Applies "key=value&key=value" (URL-encoded, a leading '#' or '?' ignored) on top of `base`.
// Unknown keys and bad values are reported in problems and skipped; if the result does not
// validate (e.g. trainable > params) the problem is reported and `base` is returned unchanged.
// Repeated keys: the last good value wins.
StateResult apply_state(const Scenario& base, std::string_view state);

// apply_state's first step alone: the pairs applied on top of `base` as above, without checking that
// the result validates as a whole (combination_rejected stays false). For a caller that checks the
// combination itself once everything is read: the CLI, where flags may follow --state.
StateResult apply_state_pairs(const Scenario& base, std::string_view state);

// "params=13B&trainable=1B": the scenario's non-default settings, URL-encoded, in table order.
// apply_state(Scenario{}, to_state(s)).scenario reproduces s exactly.
std::string to_state(const Scenario& scenario);

// Percent-decodes a URL component ('+' is a space). Invalid escapes are kept as text.
std::string url_decode(std::string_view text);
// Percent-encodes everything except unreserved characters (A-Z a-z 0-9 - _ . ~) and ",".
std::string url_encode(std::string_view text);

// "6.738415616B": a count in the shortest exact suffix form, which parse_count reads back exactly.
std::string format_count_state(std::uint64_t count);

}  // namespace llm_memory
