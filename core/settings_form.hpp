// The settings table as a form: for every setting key, the label, unit and kind of control a form shows,
// the current value as text and, for a choice, its options: all from the settings table's rows. The web page
// generates its accessible text view from this (one JSON array), so the view holds no list of its own.
#pragma once

#include <string>

#include "estimator.hpp"

namespace llm_memory {

// [{"key","label","help","unit","kind","value","choices":[[value, label], ...]}] in settings-table order.
// kind: "number" (a plain decimal), "count" (a number with a suffix: 13B, 8K), "text", "choice" (one of
// `choices`; "" = none), "bool" ("true" or ""). value: the scenario's value as the key reads it back,
// defaults included (what a form field shows). Where another setting decides the field's figure
// (SettingSpec::decided: b under a weight format), also "decided" (the figure, shown read-only instead of
// value) and "decided_note" (why); on an engine's row the chosen engine does not read, "hidden": true.
// `estimate` is the scenario's own estimate (the caller has it already).
std::string settings_form_json(const Scenario& scenario, const Estimate& estimate);

}  // namespace llm_memory
