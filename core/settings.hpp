// Scenario <-> text settings: one table of keys shared by the CLI (--key value), the URL state
// (#key=value&...), the JS API and stored state, so every surface accepts exactly the same inputs.
// Invariant: apply_state never leaves an invalid scenario; bad keys or values are reported and skipped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "choice.hpp"
#include "estimator.hpp"
#include "result.hpp"

namespace llm_memory {

// How a form shows a setting: a plain decimal, a whole number that takes suffixes (13B, 8K), free text,
// one of the row's choices, or a flag (on/off).
enum class SettingKind : std::uint8_t { number, count, text, choice, flag };

// Whose setting a row is. none: the scenario's own (the seed's, a model's, training's). Every other value
// is an engine setting: a build without the engine models refuses it and its form leaves it out, the page's
// loader sends a link with it to the full build, and the canvas's engine panel draws it (the engine choice
// itself, llama.cpp's (and Ollama's) flags, vLLM's, one that every engine reads, or the speculative-decoding
// drafter, which llama.cpp prices and vLLM names as not priced). The mark also says which engines read the
// setting (engine_reads): one asked for under an engine that ignores it is an error (engine_setting_problem).
enum class SettingEngine : std::uint8_t { none, choice, llama_cpp, vllm, every, drafter };

// One settable input: one row of the table gives every face its setting. `key` is the CLI long option and
// the URL key; the row also carries --help's line, a form's label, unit, kind, choices and placeholder, the
// value a form field shows, and an example value (the round-trip test sets every key to it).
//
// Adding a setting costs three things, and nothing else:
//   1. the Scenario field (core/estimator.hpp, with its default);
//   2. one row here (core/settings.cpp, setting_specs);
//   3. its use in the estimator (core/estimator.cpp or the module it feeds).
// The CLI flag, --help, the man page, bash completion, the URL and --state key, the JS API, stored state,
// fuzzing, the web page's text view and the canvas control (setting_control) all follow from the row, and
// tests fail if any face lacks it. Only where the control sits on the canvas is chosen by hand: add one
// setting_control(app, "key") call to the panel that should show it (imgui_app/runtime_panel.cpp). An
// engine's setting is a row wrapped in for_engine(...) and nothing else: the engine panel draws it.
// A field whose figure another setting decides (b under a weight format, QLoRA or a model file): the figure
// it shows instead, read-only, and the sentence that says why. An empty value: the field is the user's.
struct FieldDecision {
    std::string value;
    std::string note;
};

struct SettingSpec {
    const char* key;
    const char* value_hint;  // e.g. "N" or "F"
    const char* help;        // one line for --help
    const char* label;       // a form's label: "Context length"
    const char* unit;        // shown after the label: "tokens"; "" for none
    SettingKind kind;
    const char* example;     // a valid value other than the default (with a model chosen, on one GPU)
    // Parses text into the scenario; returns an error message without the key prefix, or "" on success.
    std::string (*apply)(Scenario& scenario, std::string_view text);
    // The value as text that apply() reads back exactly; "" when it is the default.
    std::string (*show)(const Scenario& scenario);
    // The value a form field shows when show() gives "" (the default: "2", "auto", "simple"); nullptr: "".
    std::string (*field)(const Scenario& scenario) = nullptr;
    // kind choice: the values, in order (a catalogue's keys, an enum's words); nullptr otherwise.
    const std::vector<Choice>& (*choices)() = nullptr;
    const char* hint = "";   // a form's placeholder: "4096 or 8K"
    const char* note = "";   // the line of plain words under a form's control ("" = the chosen choice's help)
    SettingEngine engine = SettingEngine::none;  // set with for_engine() in the table
    // What decides the field instead of its value, when something does (set with decided_by() in the table);
    // nullptr: nothing ever does. Both faces show it: the canvas's read-only field, the text view's.
    FieldDecision (*decided)(const Scenario& scenario, const Estimate& estimate) = nullptr;
};

// The text a form field shows for `spec`: show(), or field() at the default.
std::string setting_field_text(const SettingSpec& spec, const Scenario& scenario);

// Every known key, in the order they are shown and serialised.
const std::vector<SettingSpec>& setting_specs();

// Looks a key up; nullptr when unknown.
const SettingSpec* find_setting(std::string_view key);

// Whether `key` is one of the engines' settings (a row whose `engine` is not none): refused, and left out of
// the form, by a build without the engine models (engines/engine.hpp engines_in_build).
bool is_engine_setting(std::string_view key);

// Whether an engine reads the settings of a row marked `group`: llama_cpp's are read by llama.cpp and
// Ollama, vllm's by vLLM, drafter's by llama.cpp and vLLM (and taken by Ollama's model, which refuses a
// drafter by name), every's by any engine (not by none, the seed's model, which reads no engine setting);
// none's and the engine choice by every scenario.
bool engine_reads(SettingEngine group, EngineKind kind);

// The first engine setting given a value other than its default under an engine that does not read it
// ("mmproj: is read by llama.cpp and Ollama only, not by vllm: ..."), or nothing. estimate() refuses such a
// scenario, so the CLI, a link, a stored state and the canvas all keep the last good state and say why.
Status engine_setting_problem(const Scenario& scenario);

// A form's engine switch (the canvas, the desktop app): the engine settings the newly chosen engine does not
// read go back to their defaults, and their keys are returned so the form can say what it cleared. The CLI
// and a link name the engine and its settings together, and there engine_setting_problem refuses instead.
std::vector<std::string> clear_unread_engine_settings(Scenario& scenario);

// vLLM runs one worker per GPU, so `vllm serve -tp 4` names 4 GPUs without a GPU count: under vLLM a scenario
// that leaves gpus at 1 takes dp x tp x pp (as --from-command sets it). The CLI, a link or stored state, and a
// form's setting call this after applying; every other engine keeps gpus as given. True when it changed.
bool follow_engine_gpus(Scenario& scenario);

// Sets one key from text. Error: "key: problem" (unknown key, or the value's problem).
Expected<bool> apply_setting(Scenario& scenario, std::string_view key, std::string_view value);

// The outcome of reading a state string: the scenario it gives and what was wrong with it.
struct StateResult {
    Scenario scenario;
    std::vector<std::string> problems;  // each names the key: "bytes: is not a number"
    bool combination_rejected = false;  // the pairs did not validate together: scenario is `base`
    // apply_state's estimate of `scenario` (empty when combination_rejected, and from apply_state_pairs), so a
    // caller that takes the scenario need not estimate it again.
    std::optional<Estimate> estimate;
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
