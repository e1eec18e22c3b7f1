// Quantities as people write them, parsed exactly, and byte figures formatted without float noise.
// Counts are integers; fractional inputs (bytes per parameter, factors) are fixed-point with six
// decimals (Decimal), so 13B x 2 bytes x 1.2 is computed in integers and is exactly 31200000000.
// Overflow policy: see kMaxParamCount and friends; nothing beyond them is accepted.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "result.hpp"

namespace llm_memory {

// Exact arithmetic's one home. 128-bit unsigned intermediates (a GCC/Clang extension; em++ has it too),
// so a product of two 64-bit figures is checked or rounded before it could wrap.
__extension__ typedef unsigned __int128 u128;
// The two units every figure is shown in: decimal GB (10^9 bytes) and binary GiB (2^30 bytes).
inline constexpr std::uint64_t kBytesPerGb = 1'000'000'000ULL;
inline constexpr std::uint64_t kBytesPerGib = 1ULL << 30;

// A non-negative fixed-point number with six decimals: value = micros / 1'000'000.
struct Decimal {
    std::uint64_t micros = 0;

    static constexpr std::uint64_t kScale = 1'000'000;
    static constexpr Decimal from_int(std::uint64_t whole) { return Decimal{whole * kScale}; }
    // Builds from a numerator and denominator, rounding half up to six decimals.
    static Decimal from_ratio(std::uint64_t numerator, std::uint64_t denominator);
    bool is_zero() const { return micros == 0; }
    double to_double() const { return static_cast<double>(micros) / static_cast<double>(kScale); }
    friend bool operator==(Decimal a, Decimal b) { return a.micros == b.micros; }
    friend bool operator!=(Decimal a, Decimal b) { return a.micros != b.micros; }
    friend bool operator<(Decimal a, Decimal b) { return a.micros < b.micros; }
};

// Limits that keep every product below 2^64 bytes (about 1.8e19). Inputs beyond them are errors.
inline constexpr std::uint64_t kMaxParamCount = 1'000'000'000'000'000ULL;   // 10^15 = 1000T
inline constexpr std::uint64_t kMaxBytesPerValueMicros = 64 * Decimal::kScale;  // 64 bytes
inline constexpr std::uint64_t kMaxFactorMicros = 100 * Decimal::kScale;        // 100x / 100 values

// Parses a count: "13B", "13b", "6.7e9", "350M", "1.5T", "70 billion", "7,000,000,000", "1200".
// Suffixes K/M/B/T (also G = billion) and the words thousand/million/billion/trillion.
// A fractional result is rounded half up. Errors: empty, not a number, negative, too large.
// Pasted Unicode spaces (U+00A0, U+2009, U+202F) count as spaces and U+2212 as a minus sign.
Expected<std::uint64_t> parse_count(std::string_view text);

// Like parse_count, but for things that only come whole (GPUs, batch size, ranks, stages): a value that
// parse_count would round ("1.5", "2.5K" is fine: 2500) is the error "must be a whole number".
// `max_count` is the caller's limit: above it the error is too_large(max_count, limit_text).
Expected<std::uint64_t> parse_whole_count(std::string_view text, std::uint64_t max_count = kMaxParamCount,
                                          std::string_view limit_text = {});

// "is too large (at most 1,000,000)": the one spelling of a limit in every message; `limit_text` ("100M
// tokens", "1 PiB") replaces the number where the limit is written in the setting's own unit.
std::string too_large(std::uint64_t max_count, std::string_view limit_text = {});

// Parses a plain non-negative decimal ("2", "0.5", "1.2", "4.5e-1") into six-decimal fixed point,
// rounding half up. Errors: empty, not a number, negative, above max_micros.
Expected<Decimal> parse_decimal(std::string_view text, std::uint64_t max_micros, std::string_view limit_text = {});

// "2", "0.5", "1.2", "4.85": shortest exact decimal text of the value.
std::string format_decimal(Decimal value);

// "13B", "6.7B", "350M", "1.5T", "4.19M": a count with a suffix and at most max_decimals decimals
// (trailing zeros trimmed; approximate when rounding was needed).
std::string format_count_short(std::uint64_t count, int max_decimals = 2);

// "7,000,000,000": the exact count with thousands separators.
std::string format_count_exact(std::uint64_t count);

// Rounds count / divisor (divisor > 0) half up to `decimals` decimals and prints it trimmed:
// format_ratio(31200000000, 1000000000, 2) == "31.2". No floating point.
std::string format_ratio(std::uint64_t count, std::uint64_t divisor, int decimals);

// Decimal gigabytes (10^9 bytes), two decimals at most: "31.2 GB". Below 0.1 GB it keeps two
// significant digits, so a nonzero figure never reads 0: 2,400,000 bytes is "0.0024 GB".
std::string format_gb(std::uint64_t bytes);
// Binary gibibytes (2^30 bytes), two decimals at most: "29.06 GiB"; below 0.1 GiB as format_gb.
std::string format_gib(std::uint64_t bytes);
// Picks bytes/KB/MB/GB (powers of 10^3) so small figures stay readable: "4.19 MB". GB is the largest
// unit, the seed's: 2 x 10^15 bytes prints "2000000 GB", never TB.
std::string format_bytes_decimal(std::uint64_t bytes);
// Picks bytes/KiB/MiB/GiB (powers of 2^10): "4 MiB". GiB is the largest unit, as GB is above.
std::string format_bytes_binary(std::uint64_t bytes);

// Reads an amount of memory with its unit, exactly: "80GiB", "24 GB", "16384MiB", "1.5TB", "512B".
// TiB/GiB/MiB are 2^40/2^30/2^20 bytes, TB/GB/MB 10^12/10^9/10^6 (any case; spaces before the unit are
// fine); the amount is read as parse_decimal reads it and rounded half up once to whole bytes.
// Errors: no unit ("needs a unit: ..."), not a number, zero, above max_bytes (too_large(max_bytes, limit_text)).
Expected<std::uint64_t> parse_memory_size(std::string_view text, std::uint64_t max_bytes, std::string_view limit_text);

// A value a sentence pattern (say) takes: text, or a figure printed the way the sentence needs it.
struct SayArg {
    enum Kind : unsigned char { kText, kGb, kGib, kCount, kNumber, kPlural };
    Kind kind = kText;
    std::string_view text;    // kText; kPlural: the unit word
    std::uint64_t value = 0;  // the figure
    SayArg(std::string_view s) : text(s) {}    // NOLINT: implicit, so text passes as it is
    SayArg(const char* s) : text(s) {}         // NOLINT
    SayArg(const std::string& s) : text(s) {}  // NOLINT
    SayArg(Kind k, std::uint64_t v, std::string_view word = {}) : kind(k), text(word), value(v) {}
};

// `pattern` with each '%' replaced by the next argument: kGb format_gb, kGib format_gib, kCount
// format_count_exact ("43,920"), kNumber the plain digits ("43920"), kPlural the count and its word
// ("43,920 tokens"). No pattern may hold a literal '%'. One pass, so a sentence costs one call rather
// than a chain of string temporaries (size: the page links every sentence).
std::string say(const char* pattern, std::initializer_list<SayArg> args);

// The input text with surrounding ASCII whitespace removed.
std::string_view trim(std::string_view text);

// Unicode spaces people paste from web pages (no-break U+00A0, thin U+2009, narrow no-break U+202F) become
// ' ' and the minus sign U+2212 becomes '-', so "13<NBSP>B" reads as "13 B". Everything else is kept.
std::string ascii_lookalikes(std::string_view text);

// Text from the user made safe to quote in a one-line message: control characters and invalid UTF-8
// become '?', and it is cut to at most max_bytes on a character boundary with "..." appended.
std::string printable_excerpt(std::string_view text, std::size_t max_bytes);

// Percent-encodes `text` (%XX, upper-case hex), keeping the unreserved characters (A-Z a-z 0-9 - _ . ~) and
// those in `also_keep` ("," in the page's state, "/" in a Hub path).
std::string percent_encode(std::string_view text, std::string_view also_keep);

}  // namespace llm_memory
