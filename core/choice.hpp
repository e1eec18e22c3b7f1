// One value of a setting that takes one of a few words (an enum, a mode, a catalogue key): the word the
// settings table reads and writes, the label a list shows, and what it means in plain words. Each enum keeps
// one table of these, in enum order, and every face reads it: the settings row, --help, the form, the canvas.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace llm_memory {

struct Choice {
    std::string word;   // what apply() reads and show() writes: "selective"
    std::string label;  // a list's line: "selective: recompute the attention scores"
    std::string help;   // one sentence for a tooltip or the line under a control
    std::string source = {};  // where its figures come from ("" when none)
};

// The index of `word` in `choices` (exact match; callers lower-case first), or choices.size().
inline std::size_t choice_index(const std::vector<Choice>& choices, std::string_view word) {
    std::size_t i = 0;
    while (i < choices.size() && choices[i].word != word) ++i;
    return i;
}

}  // namespace llm_memory
