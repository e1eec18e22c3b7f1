// --state on the command line: strict, like the flags it stands for. The first bad pair (unknown key or
// bad value) is the error, "--state: params: is not a number"; whether the settings work together is
// checked once after every option, as for the flags, and that error names the option that set its key
// last ("--state: trainable: ..." or "--trainable: ..."). The page's URL stays lenient (core's apply_state).
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "settings.hpp"

namespace llm_memory {

// Applies a --state value's pairs to `scenario`. Returns "" or the error ("--state: params: ...");
// on an error `scenario` is unchanged.
std::string apply_state_arg(Scenario& scenario, std::string_view state);

// Which option set each setting last, so an error of the final estimate names that option.
class SettingSources {
public:
    // Call after every option, with its name ("state", "params", "config", ...) and the scenario before
    // and after it. A flag takes over its own key even when it leaves the value as it was.
    void record(const Scenario& before, const Scenario& after, const std::string& option);
    // The error's message ("trainable: ...") with its option: "--state: trainable: ..." when --state set
    // the error's key last, else "--trainable: ...".
    std::string with_option(const Error& error) const;

private:
    std::set<std::string> state_keys_;  // settings whose current value came from --state
};

}  // namespace llm_memory
