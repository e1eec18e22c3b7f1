// Look-ups in the catalogues (weight formats, GPUs, recipes): tables of rows with a `key` field.
// One way to fold typed text into a key, one look-up with aliases, one "a, b, c" list of keys, so the
// three catalogues cannot drift apart in how they read a name or how they list their choices.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "quantity.hpp"

namespace llm_memory {

// A short name and the catalogue key it stands for: {"4090", "rtx-4090"}.
using CatalogueAlias = std::pair<std::string_view, std::string_view>;

// `text` trimmed and lower-cased (ASCII only); each character in `separators` becomes `separator`.
// catalogue_key(" Q4-K-M ", "-", '_') == "q4_k_m".
inline std::string catalogue_key(std::string_view text, std::string_view separators = {}, char separator = 0) {
    std::string out;
    for (char c : trim(text)) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (separators.find(c) != std::string_view::npos) c = separator;
        out.push_back(c);
    }
    return out;
}

// The row whose key is `key`; nullptr when none matches.
template <typename Row>
const Row* find_in(const std::vector<Row>& table, std::string_view key) {
    for (const Row& row : table)
        if (row.key == key) return &row;
    return nullptr;
}

// The row whose key is `key`, else the row an alias of `key` names; nullptr when neither matches.
template <typename Row, std::size_t N>
const Row* find_in(const std::vector<Row>& table, std::string_view key, const CatalogueAlias (&aliases)[N]) {
    if (const Row* row = find_in(table, key)) return row;
    for (const CatalogueAlias& alias : aliases)
        if (alias.first == key) return find_in(table, alias.second);
    return nullptr;
}

// "fp32, fp16, bf16": every key of the table in order, for help texts and error messages.
template <typename Row>
std::string keys_of(const std::vector<Row>& table) {
    std::string out;
    for (const Row& row : table) {
        if (!out.empty()) out += ", ";
        out += row.key;
    }
    return out;
}

}  // namespace llm_memory
