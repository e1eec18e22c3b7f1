// Answer parsing in exact integer arithmetic: mantissa digits x 10^exponent x unit bytes, one rounding.
// Messages quote at most 40 characters of the input and say what would be read.
#include "answer.hpp"

#include <cctype>

#include "quantity.hpp"

namespace llm_memory {
namespace {


constexpr std::size_t kMaxSignificantDigits = 24;  // 10^24 x 2^40 stays below 2^128
constexpr u128 kMaxU64 = static_cast<u128>(~std::uint64_t{0});

std::string quoted(std::string_view text) { return "\"" + printable_excerpt(text, 40) + "\""; }

std::string lower(std::string_view text) {
    std::string out;
    for (char c : text) out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

struct UnitRow {
    const char* spelling;
    AnswerUnit unit;
};

constexpr UnitRow kUnits[] = {
    {"b", AnswerUnit::bytes},     {"byte", AnswerUnit::bytes},     {"bytes", AnswerUnit::bytes},
    {"kb", AnswerUnit::kb},       {"kilobyte", AnswerUnit::kb},    {"kilobytes", AnswerUnit::kb},
    {"mb", AnswerUnit::mb},       {"megabyte", AnswerUnit::mb},    {"megabytes", AnswerUnit::mb},
    {"gb", AnswerUnit::gb},       {"g", AnswerUnit::gb},           {"gigabyte", AnswerUnit::gb},
    {"gigabytes", AnswerUnit::gb}, {"tb", AnswerUnit::tb},         {"terabyte", AnswerUnit::tb},
    {"terabytes", AnswerUnit::tb}, {"kib", AnswerUnit::kib},       {"mib", AnswerUnit::mib},
    {"gib", AnswerUnit::gib},     {"gibibyte", AnswerUnit::gib},   {"gibibytes", AnswerUnit::gib},
    {"tib", AnswerUnit::tib},
};

std::uint64_t unit_bytes(AnswerUnit unit) {
    switch (unit) {
        case AnswerUnit::none: return 1;
        case AnswerUnit::bytes: return 1;
        case AnswerUnit::kb: return 1'000ULL;
        case AnswerUnit::mb: return 1'000'000ULL;
        case AnswerUnit::gb: return 1'000'000'000ULL;
        case AnswerUnit::tb: return 1'000'000'000'000ULL;
        case AnswerUnit::kib: return 1ULL << 10;
        case AnswerUnit::mib: return 1ULL << 20;
        case AnswerUnit::gib: return 1ULL << 30;
        case AnswerUnit::tib: return 1ULL << 40;
    }
    return 1;
}

// mantissa x 10^exponent x multiplier, rounded half up; false if it exceeds 2^64 - 1.
bool scale_exact(u128 mantissa, int exponent, std::uint64_t multiplier, std::uint64_t& out) {
    u128 value = mantissa * multiplier;  // mantissa < 10^24, multiplier <= 2^40: no overflow
    if (exponent >= 0) {
        for (int i = 0; i < exponent; ++i) {
            if (value > kMaxU64) return false;
            value *= 10;
        }
    } else {
        if (exponent < -38) {
            value = 0;
        } else {
            u128 divisor = 1;
            for (int i = 0; i < -exponent; ++i) divisor *= 10;
            value = (value + divisor / 2) / divisor;
        }
    }
    if (value > kMaxU64) return false;
    out = static_cast<std::uint64_t>(value);
    return true;
}

}  // namespace

const char* answer_unit_name(AnswerUnit unit) {
    switch (unit) {
        case AnswerUnit::none: return "";
        case AnswerUnit::bytes: return "bytes";
        case AnswerUnit::kb: return "KB";
        case AnswerUnit::mb: return "MB";
        case AnswerUnit::gb: return "GB";
        case AnswerUnit::tb: return "TB";
        case AnswerUnit::kib: return "KiB";
        case AnswerUnit::mib: return "MiB";
        case AnswerUnit::gib: return "GiB";
        case AnswerUnit::tib: return "TiB";
    }
    return "";
}

Expected<ParsedAnswer> parse_answer(std::string_view text) {
    // "16.8<no-break space>GB" and "−4 GB" pasted from a page read like their ASCII forms.
    const std::string ascii = ascii_lookalikes(text);
    const std::string_view original = trim(ascii);
    std::string_view t = original;
    if (t.empty()) return Error{"answer", "is empty; write an amount such as 16.8 GB, 15.65 GiB or 1.68e10 bytes"};
    // Leading approximation marks people type: "~16.8 GB", "≈ 16.8 GB", "= 16.8 GB".
    for (bool stripped = true; stripped;) {
        stripped = false;
        if (!t.empty() && (t.front() == '~' || t.front() == '=' || t.front() == '+')) {
            t.remove_prefix(1);
            stripped = true;
        } else if (t.substr(0, 3) == "\xE2\x89\x88") {
            t.remove_prefix(3);
            stripped = true;
        }
        t = trim(t);
    }
    if (!t.empty() && t.front() == '-')
        return Error{"answer", quoted(original) + " is negative; memory cannot be below zero"};

    // The number: digits with optional thousands commas, an optional fraction and exponent.
    std::string integer_digits;
    std::string fraction_digits;
    std::size_t i = 0;
    std::size_t group_length = 0;
    bool saw_comma = false;
    bool bad_grouping = false;
    for (; i < t.size() && (is_digit(t[i]) || t[i] == ','); ++i) {
        if (t[i] == ',') {
            if (integer_digits.empty() || (saw_comma ? group_length != 3 : group_length > 3)) bad_grouping = true;
            saw_comma = true;
            group_length = 0;
        } else {
            integer_digits.push_back(t[i]);
            ++group_length;
        }
    }
    if (saw_comma && group_length != 3) bad_grouping = true;
    if (bad_grouping)
        return Error{"answer", quoted(original) +
                     ": commas separate groups of three digits (16,800 MB); write decimals with a point (16.8 GB)"};
    if (i < t.size() && t[i] == '.') {
        for (++i; i < t.size() && is_digit(t[i]); ++i) fraction_digits.push_back(t[i]);
    }
    if (integer_digits.empty() && fraction_digits.empty())
        return Error{"answer", quoted(original) +
                     " is not an amount of memory; write a number with a unit, e.g. 16.8 GB, 15.65 GiB, 1.68e10 bytes or 16,800 MB"};
    long exponent = 0;
    std::string exponent_text;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        std::size_t j = i + 1;
        bool negative = false;
        if (j < t.size() && (t[j] == '+' || t[j] == '-')) negative = t[j++] == '-';
        if (j < t.size() && is_digit(t[j])) {
            for (; j < t.size() && is_digit(t[j]); ++j) {
                if (exponent < 10000) exponent = exponent * 10 + (t[j] - '0');
            }
            if (negative) exponent = -exponent;
            exponent_text = std::string(t.substr(i, j - i));
            i = j;
        }
    }
    const std::string unit_text = lower(trim(t.substr(i)));
    AnswerUnit unit = AnswerUnit::none;
    if (!unit_text.empty()) {
        bool found = false;
        for (const UnitRow& row : kUnits) {
            if (unit_text == row.spelling) {
                unit = row.unit;
                found = true;
                break;
            }
        }
        if (!found)
            return Error{"answer", quoted(original) + ": unknown unit " + quoted(trim(t.substr(i))) +
                         "; use GB, GiB, MB, TB or bytes (e.g. 16.8 GB)"};
    }

    // Exact value: significant digits as an integer, scaled by 10^(exponent - fraction length).
    std::string digits = integer_digits + fraction_digits;
    long scale = exponent - static_cast<long>(fraction_digits.size());
    std::size_t first = digits.find_first_not_of('0');
    digits = first == std::string::npos ? std::string("0") : digits.substr(first);
    while (digits.size() > 1 && digits.back() == '0') {
        digits.pop_back();
        ++scale;
    }
    if (digits.size() > kMaxSignificantDigits)
        return Error{"answer", quoted(original) + " has too many digits (at most 24 significant digits)"};
    u128 mantissa = 0;
    for (char c : digits) mantissa = mantissa * 10 + static_cast<unsigned>(c - '0');
    if (scale > 40 && mantissa != 0)
        return Error{"answer", quoted(original) + " is too large (more than 2^64 bytes)"};

    ParsedAnswer parsed;
    parsed.unit = unit;
    parsed.number_text = integer_digits + (fraction_digits.empty() ? "" : "." + fraction_digits) + exponent_text;
    parsed.read_as = unit;
    if (unit == AnswerUnit::none) {
        std::uint64_t bare = 0;
        const bool fits = scale_exact(mantissa, static_cast<int>(scale), 1, bare);
        parsed.read_as = (!fits || bare >= kBareNumberBytesThreshold) ? AnswerUnit::bytes : AnswerUnit::gb;
    }
    if (!scale_exact(mantissa, static_cast<int>(scale), unit_bytes(parsed.read_as), parsed.bytes))
        return Error{"answer", quoted(original) + " is too large (more than 2^64 bytes)"};
    return parsed;
}

}  // namespace llm_memory
