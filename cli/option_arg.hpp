// One command-line option split into its name and value: "--params=13B" -> {"params", "13B", true};
// "--params" -> {"params", "", false} (the value is the next argument). Shared by llm-memory and `check`.
#pragma once

#include <string>

namespace llm_memory {

// An option's name (without "--") and, when written as --name=value, its value.
struct OptionArg {
    std::string name;
    std::string value;
    bool has_value = false;
};

// Splits an argument that starts with "--".
inline OptionArg split_option(const std::string& arg) {
    OptionArg option{arg.substr(2), {}, false};
    if (const std::size_t eq = option.name.find('='); eq != std::string::npos) {
        option.value = option.name.substr(eq + 1);
        option.name.resize(eq);
        option.has_value = true;
    }
    return option;
}

}  // namespace llm_memory
