// The JSON writer (core/json_writer.hpp): exact text for escapes (RFC 8259 section 7), commas in nested and
// empty containers, whole numbers at the 64-bit limits and values written raw; and every text it writes
// read back by core's own reader (core/json.hpp) to the same strings and numbers.
#include <catch_amalgamated.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "json.hpp"
#include "json_writer.hpp"

using namespace llm_memory;

TEST_CASE("json_escape: quote, backslash and line feed get a backslash, other control bytes \\u00XX", "[json_writer]") {
    CHECK(json_escape("a\"b\\c\n\x01") == "a\\\"b\\\\c\\n\\u0001");
    CHECK(json_escape(std::string("\t\r\b\f\x1f", 5)) == "\\u0009\\u000d\\u0008\\u000c\\u001f");
    CHECK(json_escape(std::string("nul\0end", 7)) == "nul\\u0000end");
    // '/' and DEL need no escape; UTF-8 passes byte for byte.
    CHECK(json_escape("a/b\x7f") == "a/b\x7f");
    CHECK(json_escape("× 4090 — «Ünïcode» 😀") == "× 4090 — «Ünïcode» 😀");
    CHECK(json_escape("") == "");
}

TEST_CASE("JsonWriter places commas in objects, arrays, nesting and empty containers", "[json_writer]") {
    CHECK(JsonWriter().begin_object().end_object().text() == "{}");
    CHECK(JsonWriter().begin_array().end_array().text() == "[]");
    JsonWriter w;
    w.begin_object().field("a", 1).key("empty").begin_object().end_object().key("list").begin_array();
    w.begin_array().end_array().begin_object().field("x", true).end_object().value("s").null().end_array();
    w.field("b", false).key("nested").begin_object().key("deeper").begin_array().value(0).value(-1).end_array().end_object();
    w.end_object();
    CHECK(w.text() == R"({"a":1,"empty":{},"list":[[],{"x":true},"s",null],"b":false,"nested":{"deeper":[0,-1]}})");
}

TEST_CASE("JsonWriter writes whole numbers exactly, raw values as given, strings escaped", "[json_writer]") {
    JsonWriter w;
    w.begin_object().field("max_u64", std::numeric_limits<std::uint64_t>::max());
    w.field("min_i64", std::numeric_limits<std::int64_t>::min()).field("u8", std::uint8_t{255}).field("int", -7);
    w.raw_field("decimal", "0.5").raw_field("exp", "1.23e-05").raw_fields({{"file", "{\"k\":[1]}"}, {"n", "null"}});
    w.field("text", "q\"\\\n\x02").field_or_null("empty", "").field_or_null("full", "x");
    w.field("list", std::vector<std::string>{"a", "", "\""}).field("none", std::vector<std::string>{});
    w.end_object();
    CHECK(w.text() == "{\"max_u64\":18446744073709551615,\"min_i64\":-9223372036854775808,\"u8\":255,\"int\":-7,"
                      "\"decimal\":0.5,\"exp\":1.23e-05,\"file\":{\"k\":[1]},\"n\":null,\"text\":\"q\\\"\\\\\\n\\u0002\","
                      "\"empty\":null,\"full\":\"x\",\"list\":[\"a\",\"\",\"\\\"\"],\"none\":[]}");
    // Read back by core's reader: the same values.
    const JsonDocument doc = parse_json(w.text());
    REQUIRE(doc.ok());
    CHECK(doc.value.find("max_u64")->unsigned_value() == std::numeric_limits<std::uint64_t>::max());
    CHECK(doc.value.find("min_i64")->signed_value() == std::numeric_limits<std::int64_t>::min());
    CHECK(doc.value.find("text")->text() == "q\"\\\n\x02");
    CHECK(doc.value.find("file")->find("k")->items().size() == 1);
    CHECK(doc.value.find("empty")->is_null());
    CHECK(doc.value.find("list")->items()[2].text() == "\"");
    CHECK(json_error_object("bad \"x\"") == "{\"error\":\"bad \\\"x\\\"\"}");
}

TEST_CASE("JsonWriter: every byte string reads back as written, keys included", "[json_writer]") {
    std::string every;
    for (int c = 1; c < 256; ++c) every.push_back(static_cast<char>(c));
    // Bytes 0x80-0xff alone are not UTF-8; the writer passes them through and the reader keeps them.
    const std::string texts[] = {every.substr(0, 127), "", std::string("\0x", 2), "naïve “quotes” 中文 😀"};
    for (const std::string& text : texts) {
        JsonWriter w;
        w.begin_object().field(text, text).key("in_array").begin_array().value(text).end_array().end_object();
        const JsonDocument doc = parse_json(w.text());
        REQUIRE(doc.ok());
        REQUIRE(doc.value.find(text) != nullptr);
        CHECK(doc.value.find(text)->text() == text);
        CHECK(doc.value.find("in_array")->items()[0].text() == text);
    }
}
