// A small strict JSON reader (RFC 8259) for config.json and safetensors headers: text in, a tree of values
// out. It reads exactly what nlohmann/json 3.11 reads, with the same numbers and the same error positions
// (tests/core/json_test.cpp checks both readers agree), in a few KB of code instead of tens.
// Invariants: no exceptions, no I/O; nesting is refused past kMaxJsonDepth (callers refuse 64 first).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llm_memory {

class JsonValue;
struct JsonMember;

// Nesting the reader itself refuses (an error at the bracket past it); config.json and safetensors
// callers refuse anything deeper than 64 before reading, with their own message.
constexpr std::size_t kMaxJsonDepth = 512;

// One JSON value. Numbers keep the kind they were written as: a whole number without '-' that fits
// 64 bits is unsigned, one with '-' that fits is signed ("-0" is signed 0), any other number
// (fraction, exponent, or too large) is floating. Objects hold their members sorted by key, one per
// key (the last of repeated keys wins), as nlohmann/json's default std::map does.
class JsonValue {
public:
    enum class Kind : std::uint8_t { null, boolean, unsigned_number, signed_number, float_number, string, array, object };

    Kind kind() const { return kind_; }
    bool is_null() const { return kind_ == Kind::null; }
    bool is_boolean() const { return kind_ == Kind::boolean; }
    bool is_unsigned() const { return kind_ == Kind::unsigned_number; }
    // Whole numbers of either sign (as nlohmann's is_number_integer).
    bool is_integer() const { return kind_ == Kind::unsigned_number || kind_ == Kind::signed_number; }
    bool is_float() const { return kind_ == Kind::float_number; }
    bool is_number() const { return is_integer() || is_float(); }
    bool is_string() const { return kind_ == Kind::string; }
    bool is_array() const { return kind_ == Kind::array; }
    bool is_object() const { return kind_ == Kind::object; }

    // The value, read as the kind it is; only call on that kind.
    bool boolean() const { return unsigned_ != 0; }
    std::uint64_t unsigned_value() const { return unsigned_; }
    std::int64_t signed_value() const { return signed_; }
    // Any number as a double (whole numbers converted, as nlohmann's get<double>); 0 for the rest.
    double number() const;
    const std::string& text() const { return text_; }
    // An array's items (empty for every other kind).
    const std::vector<JsonValue>& items() const { return items_; }
    // An object's members, sorted by key (empty for every other kind).
    const std::vector<JsonMember>& members() const { return members_; }
    // The member `key` of an object, or nullptr (also for every other kind).
    const JsonValue* find(std::string_view key) const;

private:
    friend class JsonParser;
    Kind kind_ = Kind::null;
    std::uint64_t unsigned_ = 0;  // also the boolean
    std::int64_t signed_ = 0;
    double float_ = 0;
    std::string text_;
    std::vector<JsonValue> items_;
    std::vector<JsonMember> members_;
};

struct JsonMember {
    std::string key;
    JsonValue value;
};

// The outcome of parse_json: the value, or the byte position where reading failed, counted as
// nlohmann/json counts it: the 1-based position of the first byte that cannot continue the text (the
// end of a token that is out of place, e.g. a second top-level value); the end of the text counts as
// one past its last byte. A leading UTF-8 byte-order mark is skipped; a NUL byte ends the text.
struct JsonDocument {
    JsonValue value;
    std::size_t error_position = 0;  // 0: parsed; else where it failed (>= 1)
    bool ok() const { return error_position == 0; }
};

// Parses one JSON text (strict: no comments, no trailing commas, no NaN/Infinity, valid UTF-8 in
// strings, numbers that fit a double).
JsonDocument parse_json(std::string_view text);

}  // namespace llm_memory
