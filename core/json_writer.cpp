// The JSON writer: commas from the last byte written, escaping per RFC 8259 (see json_writer.hpp).
#include "json_writer.hpp"

namespace llm_memory {

std::string json_escape(std::string_view text) {
    std::string out;
    static const char kHex[] = "0123456789abcdef";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (u < 0x20) {
            out += "\\u00";
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        } else out.push_back(c);
    }
    return out;
}

std::string json_error_object(std::string_view message) {
    return JsonWriter().begin_object().field("error", message).end_object().take();
}

// A comma goes before a member or item unless it opens its container or follows its key.
void JsonWriter::separate() {
    if (!out_.empty() && out_.back() != '{' && out_.back() != '[' && out_.back() != ':') out_ += ',';
}

JsonWriter& JsonWriter::open(char bracket) {
    separate();
    out_ += bracket;
    return *this;
}

JsonWriter& JsonWriter::begin_object() { return open('{'); }

JsonWriter& JsonWriter::end_object() {
    out_ += '}';
    return *this;
}

JsonWriter& JsonWriter::begin_array() { return open('['); }

JsonWriter& JsonWriter::end_array() {
    out_ += ']';
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    value(name);  // the quoted name, after its comma
    out_ += ':';
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text) {
    separate();
    out_ += '"';
    out_ += json_escape(text);
    out_ += '"';
    return *this;
}

JsonWriter& JsonWriter::value(bool flag) { return raw(flag ? "true" : "false"); }

JsonWriter& JsonWriter::value(const std::vector<std::string>& texts) {
    begin_array();
    for (const std::string& text : texts) value(text);
    return end_array();
}

JsonWriter& JsonWriter::signed_value(long long number) { return raw(std::to_string(number)); }

JsonWriter& JsonWriter::unsigned_value(unsigned long long number) { return raw(std::to_string(number)); }

JsonWriter& JsonWriter::null() { return raw("null"); }

JsonWriter& JsonWriter::raw(std::string_view json) {
    separate();
    out_ += json;
    return *this;
}

JsonWriter& JsonWriter::raw_fields(const std::vector<JsonField>& fields) {
    for (const JsonField& f : fields) raw_field(f.key, f.json);
    return *this;
}

JsonWriter& JsonWriter::field_or_null(std::string_view name, const std::string& text) {
    key(name);
    return text.empty() ? null() : value(text);
}

}  // namespace llm_memory
