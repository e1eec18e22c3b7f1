// Engine logs read back: llama.cpp / llama-server load logs, Ollama's server log and `ollama ps`, vLLM's
// start-up log and nvidia-smi output, turned into measured terms per device and the settings the log
// states; then reconciled, term by term, against llm-memory's estimate (its JSON) with the likely cause
// of each gap. Pure: string_view in, values out; junk lines are skipped, a log with nothing to read fails.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "../estimator.hpp"
#include "../result.hpp"
#include "command_line.hpp"

namespace llm_memory {

// One figure the log states.
struct MeasuredTerm {
    std::string term;     // "weights", "kv_cache", "compute", "output", "rs", "activation_peak", "non_torch",
                          // "kv_pool", "usable", "total_gpu", "kv_capacity_tokens", "gpu_blocks",
                          // "max_concurrency", "used" (nvidia-smi / ollama ps), "estimate_kv" (Ollama's own)
    std::string device;   // "gpu0", "gpu1", ..., "host"; "all" for a figure over every device
    double value = 0;     // bytes; tokens for kv_capacity_tokens; blocks; a ratio for max_concurrency
    std::string line;     // the log line it was read from (ANSI colours and journald prefixes removed)
};

// What a log says.
struct LogReading {
    std::string kind;                      // "llama.cpp", "ollama", "vllm", "nvidia-smi", "ollama ps"
    std::string engine_version;            // "b4701", "0.8.1"; "" when the log does not say
    std::string model_ref;                 // a file, id or name the log loads; "" when it does not say
    std::vector<CommandSetting> settings;  // the scenario the log states, in llm-memory's keys
    std::vector<MeasuredTerm> terms;       // in the order read; one per term and device
    std::vector<std::string> notes;        // what else matters: mmap, pipeline copies, a second model
};

// Reads a log. Fails with a message naming what was expected when no line is recognised
// ("no llama.cpp, Ollama, vLLM or nvidia-smi memory line found"), or when the text is over 16 MiB.
Expected<LogReading> read_engine_log(std::string_view text);

// One line of a reconciliation.
struct ReconcileRow {
    std::string term;      // as in MeasuredTerm
    std::string device;
    double measured = 0;
    double estimated = 0;  // 0 with has_estimate false when llm-memory has no figure for the term
    bool has_estimate = false;
    double error = 0;      // (estimated - measured) / measured
    std::string cause;     // the likely cause of a gap over the term's tolerance; "" within it
    std::string line;      // the measured line
    // As every face shows them: "4.00 GiB", "72.01 MiB", "1505552" (tokens, blocks), "3.65x"; "" without an
    // estimate. The gap: "+0.0 %".
    std::string measured_text;
    std::string estimated_text;
    std::string gap_text;
    int cause_number = 0;  // 1, 2, ... for the rows with a cause, in order: the mark "(1)" beside the gap; 0 without
};

// Measured against estimated. `estimate_json` is llm-memory's JSON report for the log's scenario (the
// `engine` object's devices when present, the top-level terms otherwise). Tolerances: KV 3 %, weights 5 %,
// compute and activation 20 %, vLLM pool and capacity 25 %.
Expected<std::vector<ReconcileRow>> reconcile_log(const LogReading& log, std::string_view estimate_json);

// The reconciliation as text, one row per term: "kv_cache gpu0  measured 4.00 GiB  estimated 4.00 GiB  +0.0 %".
std::string reconcile_text(const LogReading& log, const std::vector<ReconcileRow>& rows);

// Each row's likely cause under the table, by its cause_number: "(1) output, host: likely cause: ...".
std::vector<std::string> reconcile_cause_lines(const std::vector<ReconcileRow>& rows);

// What the log is, in one line: "a llama.cpp log (b4701), model Meta-Llama-3-8B.Q4_K_M.gguf".
std::string log_heading(const LogReading& log);
// The scenario the log states, as key=value pairs joined by spaces; "" when it states none.
std::string log_settings_text(const LogReading& log);
// What the log says besides its terms, a line each: Ollama's own estimates ("Ollama's own estimate, kv:
// 1.00 GiB"), then its notes ("note: ...").
std::vector<std::string> log_note_lines(const LogReading& log);

// The tolerance of a term as a fraction (0.03 for kv_cache); 0.25 for terms without one.
double term_tolerance(std::string_view term);

// Puts what the log says on top of `scenario`: its settings (those the settings table has) and, when
// `take_model`, the built-in model its file or id names. Returns what was not applied, one line each
// ("ubatch=512 (no such setting in this build)", "model: \"x.gguf\" is not a built-in model").
std::vector<std::string> apply_log_to_scenario(Scenario& scenario, const LogReading& log, bool take_model);

// Puts a command's settings and model on top of `scenario`. Fails, naming the flag as written, on a
// value the settings table refuses ("-c 99999999999: is too large ..."); returns what was not applied.
Expected<std::vector<std::string>> apply_command_to_scenario(Scenario& scenario, const CommandReading& reading);

// The reconciliation as JSON (`llm-memory reconcile --format json` and the page): {kind, engine_version,
// model, heading, settings: {key: value}, settings_text, rows: [{term, device, measured, measured_text,
// estimated|null, estimated_text, error|null, gap_text, tolerance (with an estimate), cause, cause_number, line}],
// cause_lines, notes, note_lines, not_applied, text}. The README's reconcile section documents every key.
std::string reconcile_json(const LogReading& log, const std::vector<ReconcileRow>& rows,
                           const std::vector<std::string>& not_applied);

// A log reconciled against the scenario it states on top of `base`, in one call (the page and the app).
struct ReconcileOutcome {
    LogReading log;
    std::vector<ReconcileRow> rows;
    std::vector<std::string> not_applied;  // settings and model the log states that could not be applied
    std::string text;                      // reconcile_text, then the not-applied lines
    std::string json;                      // reconcile_json
};
// Fails on a log with nothing to read, or when the scenario it gives has no estimate (no model: "the log
// does not name a built-in model: choose one first").
Expected<ReconcileOutcome> reconcile_log_text(const Scenario& base, std::string_view log_text);

}  // namespace llm_memory
