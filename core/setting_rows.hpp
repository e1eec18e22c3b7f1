// setting_rows.hpp: what the settings table's rows are built with, inside core: the parsers and printers that
// core/settings.cpp's rows and the engines' rows (core/engines/setting_rows.cpp) share.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue.hpp"
#include "choice.hpp"
#include "quantity.hpp"
#include "settings.hpp"

namespace llm_memory {

// The engines' rows, in table order after the engine choice (core/engines/setting_rows.cpp). The lean page links a
// stand-in that keeps their keys alone (web/lean.cpp), since it refuses every one of them.
std::vector<SettingSpec> engine_setting_rows();

namespace settings_detail {

inline constexpr std::uint64_t kMaxEngineTokens = 1'000'000;  // u-batch, batch, batched tokens
inline constexpr std::uint64_t kMaxSlots = 4096;               // -np, --max-num-seqs
inline constexpr std::uint64_t kMaxDataParallel = 1024;        // vLLM -dp

// Each returns "" on success, else the problem without the key (SettingSpec::apply's contract).
std::string apply_whole(std::uint64_t& field, std::string_view text, std::uint64_t min_value, std::uint64_t max_value);
std::string apply_bool(bool& field, std::string_view text);
std::string read_memory_size(std::uint64_t& out, std::string_view text);
std::string apply_engine_tokens(std::uint64_t& field, std::string_view text, std::uint64_t min_value);
std::string apply_gpu_util(Scenario& s, std::string_view text);
std::string apply_ngl(Scenario& s, std::string_view text);
std::string apply_v_dtype(Scenario& s, std::string_view text);
// Printers: "" at the default.
std::string show_size(std::uint64_t bytes);
std::string show_whole_if(std::uint64_t value, std::uint64_t default_value);
std::string show_ngl(const Scenario& s);
std::string show_switch(Switch value);
const std::vector<Choice>& switch_choices();
const std::vector<Choice>& split_mode_choices();
// Marks a row as an engine's (SettingSpec::engine).
SettingSpec for_engine(SettingEngine engine, SettingSpec spec);

// One of a few words: the value's index in `choices` (an enum's table in enum order), or an error listing them.
template <typename Enum>
std::string apply_choice(Enum& field, std::string_view text, const std::vector<Choice>& choices) {
    const std::size_t i = choice_index(choices, catalogue_key(text));
    if (i < choices.size()) {
        field = static_cast<Enum>(i);
        return {};
    }
    std::string list;
    for (std::size_t j = 0; j < choices.size(); ++j)
        list += std::string(j == 0 ? "" : j + 1 == choices.size() ? " or " : ", ") + choices[j].word;
    return "\"" + printable_excerpt(text, 40) + "\" is not " + list;
}

}  // namespace settings_detail
}  // namespace llm_memory
