// The JSON reader (core/json.hpp): exact values and error positions for hand-picked texts (positions
// worked out from RFC 8259 and nlohmann/json 3.11's lexer, whose counting the reader keeps), and the
// reader checked against nlohmann/json itself over every published config in tests/fixtures/configs,
// every truncation of one, byte mutations of all of them and a table of tricky texts: the same accept or
// refuse, the same error position, the same tree (kinds, numbers, strings, sorted unique keys).
#include <catch_amalgamated.hpp>

#include <string>
#include <vector>

#include "json.hpp"
#include "json_reference.hpp"
#include "config_fixtures.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

std::size_t error_at(std::string_view text) { return parse_json(text).error_position; }

// Both readers on one text: same verdict, same position, same tree.
void check_agrees(const std::string& text) {
    INFO("text (" << text.size() << " bytes): " << text.substr(0, 200));
    const JsonDocument ours = parse_json(text);
    const std::size_t reference = json_reference::error_position(text);
    REQUIRE(ours.error_position == reference);
    if (reference == 0) {
        const nlohmann::json theirs = nlohmann::json::parse(text, nullptr, false);
        REQUIRE(json_reference::difference(ours.value, theirs).empty());
    }
}

}  // namespace

TEST_CASE("json: values keep the kind they were written as") {
    const JsonDocument doc = parse_json(R"({"u": 18446744073709551615, "big": 18446744073709551616, "s": -9223372036854775808,
        "small": -9223372036854775809, "zero": -0, "f": 1.5, "e": 2E3, "t": true, "n": null, "text": "a\u00e9\ud83d\ude00\/"})");
    REQUIRE(doc.ok());
    const JsonValue& v = doc.value;
    CHECK(v.find("u")->is_unsigned());
    CHECK(v.find("u")->unsigned_value() == 18446744073709551615ULL);
    CHECK(v.find("big")->is_float());  // past 2^64 - 1: a double, as strtoull's overflow made it before
    CHECK(v.find("big")->number() == 18446744073709551616.0);
    CHECK(v.find("s")->kind() == JsonValue::Kind::signed_number);
    CHECK(v.find("s")->signed_value() == INT64_MIN);
    CHECK(v.find("small")->is_float());
    CHECK(v.find("zero")->kind() == JsonValue::Kind::signed_number);  // "-0" is a whole number, signed
    CHECK(v.find("zero")->signed_value() == 0);
    CHECK(v.find("f")->is_float());
    CHECK(v.find("f")->number() == 1.5);
    CHECK(v.find("e")->number() == 2000.0);
    CHECK(v.find("t")->boolean());
    CHECK(v.find("n")->is_null());
    CHECK(v.find("text")->text() == "a\xC3\xA9\xF0\x9F\x98\x80/");  // é, U+1F600 from its surrogate pair, '/'
    CHECK(v.find("missing") == nullptr);
    CHECK(v.find("u")->find("x") == nullptr);  // not an object
}

TEST_CASE("json: object members are sorted by key and the last repeated key wins") {
    const JsonDocument doc = parse_json(R"({"b": 1, "a": 2, "b": 3, "c": {}, "a": 4})");
    REQUIRE(doc.ok());
    const std::vector<JsonMember>& m = doc.value.members();
    REQUIRE(m.size() == 3);
    CHECK(m[0].key == "a");
    CHECK(m[0].value.unsigned_value() == 4);
    CHECK(m[1].key == "b");
    CHECK(m[1].value.unsigned_value() == 3);
    CHECK(m[2].key == "c");
}

TEST_CASE("json: error positions are the byte where reading stopped (1-based; the end counts as one past)") {
    CHECK(error_at("") == 1);                       // nothing: the end, one past the last byte
    CHECK(error_at("{") == 2);
    CHECK(error_at("[1,]") == 4);                   // ']' cannot start a value
    CHECK(error_at("{\"a\":1,}") == 8);             // '}' where a key must be
    CHECK(error_at("01") == 2);                     // "0" then a second value "1", which ends at byte 2
    CHECK(error_at("{} 123") == 6);                 // a second top-level value: the end of its token
    CHECK(error_at("{} x") == 4);                   // not a token at all: the byte itself
    CHECK(error_at("-") == 2);                      // a digit must follow '-'
    CHECK(error_at("-a") == 2);
    CHECK(error_at("1.") == 3);
    CHECK(error_at("1.e5") == 3);
    CHECK(error_at("1e") == 3);
    CHECK(error_at("1e+") == 4);
    CHECK(error_at("1e400") == 5);                  // too large for a double: the end of the number
    CHECK(error_at("tru") == 4);
    CHECK(error_at("trux") == 4);
    CHECK(error_at("NaN") == 1);
    CHECK(error_at("// x\n{}") == 1);               // no comments
    CHECK(error_at("\"abc") == 5);                  // unterminated string
    CHECK(error_at("\"a\tb\"") == 3);               // an unescaped control byte
    CHECK(error_at("\"\\x\"") == 3);                // an unknown escape
    CHECK(error_at("\"\\u12G4\"") == 6);            // a non-hex digit after \u
    CHECK(error_at("\"\\ud800\"") == 8);            // a high surrogate without its low half
    CHECK(error_at("\"\\ud800\\u0041\"") == 13);    // ... or with something else
    CHECK(error_at("\"\\udc00\"") == 7);            // a low surrogate first
    CHECK(error_at("\"ab\xFF\"") == 4);             // never valid in UTF-8
    CHECK(error_at("\"\xC3(\"") == 3);              // a lead byte without its continuation
    CHECK(error_at("\"\xE0\x80\x80\"") == 3);       // overlong
    CHECK(error_at("\"\xED\xA0\x80\"") == 3);       // an encoded surrogate
    CHECK(error_at("\"\xF4\x90\x80\x80\"") == 3);   // past U+10FFFF
    CHECK(error_at("\xEF\xBB{}") == 3);             // a broken byte-order mark
    CHECK(error_at("\xEF\xBB\xBF{}") == 0);         // a whole one is skipped
    CHECK(error_at(std::string("{}\0junk", 7)) == 0);  // a NUL byte ends the text
    CHECK(error_at(std::string("[\0]", 3)) == 2);
}

TEST_CASE("json: nesting past kMaxJsonDepth is refused at the bracket past it, not a stack overflow") {
    CHECK(parse_json(std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']')).ok());
    CHECK(error_at(std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']')) == kMaxJsonDepth + 1);
    CHECK(error_at(std::string(100'000, '[')) == kMaxJsonDepth + 1);
}

TEST_CASE("json: the reader and nlohmann/json agree on every published config and its truncations") {
    for (const Fixture& f : kFixtures) check_agrees(f.json);
    const std::string llama = kFixtures[0].json;
    for (std::size_t n = 0; n < llama.size(); ++n) check_agrees(llama.substr(0, n));
}

TEST_CASE("json: the reader and nlohmann/json agree on byte mutations of the published configs") {
    const char kBytes[] = {'"', '\\', '{', '}', '[', ']', ',', ':', '-', '.', 'e', '0', '9', ' ', '\0', 'u', '/',
                           '\x7F', '\x80', '\xC3', '\xE0', '\xED', '\xF0', '\xF4', '\xFF', 't', 'n'};
    std::uint32_t seed = 12345;  // a fixed LCG: the same mutations every run
    for (const Fixture& f : kFixtures) {
        const std::string text = f.json;
        for (int i = 0; i < 200; ++i) {
            seed = seed * 1664525u + 1013904223u;
            const std::size_t at = (seed >> 8) % text.size();
            std::string mutated = text;
            const char byte = kBytes[(seed >> 4) % sizeof kBytes];
            if (i % 3 == 0) mutated[at] = byte;
            else if (i % 3 == 1) mutated.insert(at, 1, byte);
            else mutated.erase(at, 1);
            check_agrees(mutated);
        }
    }
}

TEST_CASE("json: the reader and nlohmann/json agree on tricky texts") {
    const char* const kTexts[] = {
        "0", "-0", "-0.0", "0.5e-3", "1E+2", "123456789012345678901234567890", "-123456789012345678901234567890",
        "18446744073709551615", "18446744073709551616", "9223372036854775807", "-9223372036854775808",
        "-9223372036854775809", "1e308", "1e309", "-1e309", "4.9e-324", "1e-400", "00", "-01", "1.0e", "+1",
        ".5", "1..2", "[1 2]", "[,1]", "[1,,2]", "{\"a\" 1}", "{\"a\":}", "{1:2}", "{\"a\":1 \"b\":2}", "[]", "{}",
        "[[[]]]", "true", "false", "null", "nul", "True", "\"\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u0000\"",
        "\"\\uD834\\uDD1E\"", "\"\\uDBFF\\uDFFF\"", "\"\\uD800\\uDBFF\"", "\"\\uD800\"", "\"\\uD800\\\"", "\"\\u00\"",
        "\"\xC2\x80\"", "\"\xDF\xBF\"", "\"\xE1\x80\x80\"", "\"\xEF\xBF\xBF\"", "\"\xF0\x90\x80\x80\"", "\"\xF3\xBF\xBF\xBF\"",
        "\"\xC0\xAF\"", "\"\xC1\xBF\"", "\"\xF5\x80\x80\x80\"", "\"\x80\"", "\"\xE1\x80\"", "\xEF", "\xEF\xBB",
        "\xEF\xBB\xBF", " \t\r\n{} \t\r\n", "{}}", "[]]", "{\"a\":[1,{\"b\":null}],\"a\":false}", "\x7F",
        "[1e400]", "{\"x\":-}", "[-", "[\"", "[\"\\", "[\"\\u", "[t", "[tr", "[1.", "[1e", "[1e-",
    };
    for (const char* text : kTexts) check_agrees(text);
}
