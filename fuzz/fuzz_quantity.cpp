// libFuzzer target: the quantity parsers (parse_count, parse_decimal) and the formatters.
// Invariants: accepted values stay within the overflow policy's limits and read back exactly from
// their own formatted text; errors are clean one-line messages; formatting never shows '-' or NaN.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "quantity.hpp"

using namespace llm_memory;

namespace {

bool has_no_sign_or_nan(const std::string& text) {
    return text.find('-') == std::string::npos && text.find("nan") == std::string::npos &&
           text.find("inf") == std::string::npos;
}

void check_count(std::string_view text) {
    const Expected<std::uint64_t> count = parse_count(text);
    if (!count) {
        FUZZ_CHECK(fuzz::is_clean_message(count.error()));
        return;
    }
    FUZZ_CHECK(*count <= kMaxParamCount);
    const Expected<std::uint64_t> exact = parse_count(format_count_exact(*count));
    FUZZ_CHECK(exact && *exact == *count);
    const std::string short_text = format_count_short(*count);
    FUZZ_CHECK(has_no_sign_or_nan(short_text));
    FUZZ_CHECK(parse_count(short_text).ok());  // may be rounded, but always readable
}

void check_decimal(std::string_view text, std::uint64_t max_micros) {
    const Expected<Decimal> value = parse_decimal(text, max_micros);
    if (!value) {
        FUZZ_CHECK(fuzz::is_clean_message(value.error()));
        return;
    }
    FUZZ_CHECK(value->micros <= max_micros);
    const std::string shown = format_decimal(*value);
    FUZZ_CHECK(has_no_sign_or_nan(shown));
    const Expected<Decimal> back = parse_decimal(shown, max_micros);
    FUZZ_CHECK(back && *back == *value);
}

void check_formatters(std::uint64_t bytes) {
    for (const std::string& text : {format_gb(bytes), format_gib(bytes), format_bytes_decimal(bytes),
                                    format_bytes_binary(bytes), format_count_short(bytes, 3), format_count_exact(bytes)})
        FUZZ_CHECK(!text.empty() && has_no_sign_or_nan(text));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    check_count(text);
    check_decimal(text, kMaxFactorMicros);
    check_decimal(text, kMaxBytesPerValueMicros);
    FUZZ_CHECK(printable_excerpt(text, 40).size() <= 43);
    if (size >= sizeof(std::uint64_t)) {
        std::uint64_t bytes = 0;
        std::memcpy(&bytes, data, sizeof bytes);
        check_formatters(bytes);
    }
    return 0;
}
