// --state on the command line (see state_arg.hpp): strict pairs, the combination checked at the end.
#include "state_arg.hpp"

namespace llm_memory {

std::string apply_state_arg(Scenario& scenario, std::string_view state) {
    const StateResult result = apply_state_pairs(scenario, state);
    if (!result.problems.empty()) return "--state: " + result.problems.front();
    scenario = result.scenario;
    return {};
}

void SettingSources::record(const Scenario& before, const Scenario& after, const std::string& option) {
    const bool from_state = option == "state";
    if (!from_state) state_keys_.erase(option);
    for (const SettingSpec& spec : setting_specs()) {
        if (spec.show(before) == spec.show(after)) continue;
        if (from_state) state_keys_.insert(spec.key);
        else state_keys_.erase(spec.key);
    }
}

std::string SettingSources::with_option(const Error& error) const {
    return (state_keys_.count(error.key) != 0 ? "--state: " : "--") + error.message();
}

}  // namespace llm_memory
