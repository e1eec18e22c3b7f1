// Reports of an estimate as text: the JSON object shared by the CLI and the JS API, a plain table,
// Markdown, and the one-paragraph summary read by screen readers. Byte figures are JSON integers.
#pragma once

#include <string>

#include "estimator.hpp"

namespace llm_memory {

// Which units a human-readable report shows.
enum class UnitChoice { gb, gib, both };

// One JSON object (no trailing newline) with the inputs and the byte figures as integers:
// parameters, trainable_parameters, bytes_per_parameter, overhead_factor, values_per_trainable,
// bytes_per_value, weight_bytes, inference_bytes, gradient_optimizer_bytes, training_bytes,
// full_training_bytes, reduction_bytes.
std::string report_json(const Scenario& scenario, const Estimate& estimate);

// An aligned plain-text table, one result per line.
std::string report_table(const Scenario& scenario, const Estimate& estimate, UnitChoice units);

// A Markdown table of the same figures.
std::string report_markdown(const Scenario& scenario, const Estimate& estimate, UnitChoice units);

// "Weight memory 26 GB (24.21 GiB). Inference total 31.2 GB (29.06 GiB). ..."
std::string report_summary(const Estimate& estimate);

// Escapes text for a JSON string literal (quotes not included).
std::string json_escape(const std::string& text);

}  // namespace llm_memory
