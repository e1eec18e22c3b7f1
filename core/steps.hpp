// Worked derivations as data: for each result, the seed's three steps (write the formula, substitute the
// current values, compute) as plain text (Unicode ×, −) and as LaTeX, built only from core's figures, so
// the UI, the Markdown copy and the LaTeX copy all show the same numbers. No arithmetic happens here.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "estimator.hpp"

namespace llm_memory {

// One step of a derivation. `text` is for the screen and Markdown; `latex` is math-mode LaTeX.
struct WorkedStep {
    const char* label;   // "Write the formula", "Substitute the values", "Compute"
    std::string text;    // "Weight memory = N × b"
    std::string latex;   // "\text{Weight memory} = N \times b"
};

// The derivation of one result.
struct Derivation {
    std::string id;                  // stable: the term's key with '-': "weight", "gradient-optimizer", "training"
    std::string title;               // "Weight memory"
    std::array<WorkedStep, 3> steps; // formula, substitution, result
    std::uint64_t result_bytes;      // the estimate's figure this derivation ends in
};

// One derivation per row of the memory-terms table that the reports show and that has one, in table
// order: weight, inference, gradient-optimizer, training (the seed's four), "reduction" (full vs current
// gradient+optimizer memory) when fewer than all parameters train, "detailed-inference". Every total
// derives itself from its parts; other terms need a derivation written for their key in steps.cpp (a term
// without one is still in every total's sum). `estimate` must be estimate(scenario).
std::vector<Derivation> worked_steps(const Scenario& scenario, const Estimate& estimate);

// The derivation with the given id, or nullptr.
const Derivation* find_derivation(const std::vector<Derivation>& derivations, std::string_view id);

// Markdown: a "### Title" heading and a numbered list of the three steps per derivation,
// then the unit convention line.
std::string steps_markdown(const std::vector<Derivation>& derivations);

// LaTeX: one \paragraph and an align* environment per derivation (needs amsmath).
std::string steps_latex(const std::vector<Derivation>& derivations);

}  // namespace llm_memory
