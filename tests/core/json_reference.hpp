// nlohmann/json 3.11 as the reference for core's JSON reader (test and fuzz code only; the product no
// longer links it): its error position and a comparison of its tree with ours. Used by
// tests/core/json_test.cpp and fuzz/fuzz_json.cpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "json.hpp"

namespace llm_memory::json_reference {

// nlohmann's verdict on a text: 0 when it parses, else the position its SAX parser reports.
inline std::size_t error_position(std::string_view text) {
    struct PositionSax : nlohmann::json_sax<nlohmann::json> {
        std::size_t position = 0;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t at, const std::string&, const nlohmann::detail::exception&) override {
            position = at;
            return false;
        }
    } sax;
    nlohmann::json::sax_parse(text, &sax);
    return sax.position;
}

// The first difference between our tree and nlohmann's, as a path ("$.a[2]: float differs"); "" when
// they agree on kinds, numbers, strings and (sorted, unique) keys.
inline std::string difference(const JsonValue& ours, const nlohmann::json& theirs, const std::string& path = "$") {
    using T = nlohmann::json::value_t;
    switch (theirs.type()) {
        case T::null: return ours.is_null() ? "" : path + ": not null";
        case T::boolean: return ours.is_boolean() && ours.boolean() == theirs.get<bool>() ? "" : path + ": boolean differs";
        case T::number_unsigned:
            return ours.is_unsigned() && ours.unsigned_value() == theirs.get<std::uint64_t>() ? "" : path + ": unsigned differs";
        case T::number_integer:
            return ours.kind() == JsonValue::Kind::signed_number && ours.signed_value() == theirs.get<std::int64_t>()
                       ? ""
                       : path + ": signed differs";
        case T::number_float: {
            const double d = theirs.get<double>();
            return ours.is_float() && ours.number() == d && std::signbit(ours.number()) == std::signbit(d) ? "" : path + ": float differs";
        }
        case T::string: return ours.is_string() && ours.text() == theirs.get<std::string>() ? "" : path + ": string differs";
        case T::array: {
            if (!ours.is_array() || ours.items().size() != theirs.size()) return path + ": array differs";
            for (std::size_t i = 0; i < theirs.size(); ++i) {
                std::string d = difference(ours.items()[i], theirs[i], path + "[" + std::to_string(i) + "]");
                if (!d.empty()) return d;
            }
            return "";
        }
        case T::object: {
            if (!ours.is_object() || ours.members().size() != theirs.size()) return path + ": object differs";
            std::size_t i = 0;
            for (auto it = theirs.begin(); it != theirs.end(); ++it, ++i) {  // std::map order: sorted keys
                if (ours.members()[i].key != it.key()) return path + ": key " + std::to_string(i) + " differs";
                std::string d = difference(ours.members()[i].value, it.value(), path + "." + it.key());
                if (!d.empty()) return d;
            }
            return "";
        }
        default: return path + ": unexpected reference kind";
    }
}

}  // namespace llm_memory::json_reference
