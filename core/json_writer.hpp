// The one JSON writer of the product: a streaming builder that places commas and escapes strings itself, so
// every JSON output (reports, fit, model files, forms, the page's views) is written the same way.
// Invariants: output is compact (no spaces), keys appear in the order written, whole numbers are written
// exactly as integers; a number in another form is written by its caller's formatter through raw().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace llm_memory {

// Escapes text for the inside of a JSON string literal (RFC 8259): '"' and '\' get a backslash, a line
// feed is \n, every other byte below 0x20 is \u00XX; everything else (UTF-8 included) passes unchanged.
std::string json_escape(std::string_view text);

// A member whose value is already JSON text, written by another function: {"file", gguf_json(...)}.
struct JsonField {
    std::string key;
    std::string json;
};

// {"error":"<message>"}: the answer of a JSON API call that failed.
std::string json_error_object(std::string_view message);

// Writes one JSON text into a string. Call key() before each member of an object; a comma is placed
// before every member or item but the first. Misuse (a value without its key inside an object, an
// unclosed container) is not checked: the tests parse every output back with parse_json.
class JsonWriter {
public:
    JsonWriter& begin_object();
    JsonWriter& end_object();
    JsonWriter& begin_array();
    JsonWriter& end_array();
    JsonWriter& key(std::string_view name);

    // A string value, escaped.
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(bool flag);
    // An array of strings.
    JsonWriter& value(const std::vector<std::string>& texts);
    // A whole number, in decimal digits.
    template <class T, std::enable_if_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int> = 0>
    JsonWriter& value(T number) {
        if (std::is_signed<T>::value) return signed_value(static_cast<long long>(number));
        return unsigned_value(static_cast<unsigned long long>(number));
    }
    JsonWriter& null();
    // A value that is already JSON text: a number formatted by its caller ("0.5", "1.23e-05") or a nested
    // object written elsewhere. Written as it is.
    JsonWriter& raw(std::string_view json);

    // key(name) followed by the value.
    template <class T>
    JsonWriter& field(std::string_view name, const T& v) { return key(name).value(v); }
    JsonWriter& raw_field(std::string_view name, std::string_view json) { return key(name).raw(json); }
    // Each field as raw_field, in order.
    JsonWriter& raw_fields(const std::vector<JsonField>& fields);
    // A member whose value is a string, or null when the string is empty.
    JsonWriter& field_or_null(std::string_view name, const std::string& text);

    const std::string& text() const { return out_; }
    std::string take() { return std::move(out_); }

private:
    void separate();
    JsonWriter& open(char bracket);  // '{' or '[', after its comma
    JsonWriter& signed_value(long long number);
    JsonWriter& unsigned_value(unsigned long long number);
    std::string out_;
};

}  // namespace llm_memory
