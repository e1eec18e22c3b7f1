// Exact parsing and formatting of counts, fixed-point decimals and byte figures.
// Numbers are read as a digit string times a power of ten and converted with integer arithmetic only,
// so "6.7e9" is exactly 6700000000 and no figure ever shows float noise.
//
// Sections: character helpers · reading a number (digits x 10^n) · suffixes and garbage messages · UTF-8
//   excerpts and lookalikes · Decimal · parse_count / parse_whole_count / parse_decimal · formatting
//   (ratios, counts, GB/GiB, bytes).
#include "quantity.hpp"

#include <algorithm>
#include <cctype>

namespace llm_memory {
namespace {


bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (lower(a[i]) != lower(b[i])) return false;
    return true;
}

// A number as written: value = digits x 10^power (digits without leading zeros, may be empty = 0).
struct ScaledDigits {
    std::string digits;
    long long power = 0;
};

// Reads "[+]digits[,digits][.digits][e[+-]digits]" from the front of text; advances pos.
// Returns an error message (empty on success).
std::string read_number(std::string_view text, std::size_t& pos, ScaledDigits& out) {
    std::size_t i = pos;
    if (i < text.size() && text[i] == '+') ++i;
    if (i < text.size() && text[i] == '-') return "must not be negative";
    std::string digits;
    std::size_t int_digits = 0;
    std::size_t frac_digits = 0;
    bool seen_digit = false;
    bool last_was_comma = false;
    bool seen_comma = false;
    std::size_t group_digits = 0;  // digits since the last comma (or the start)
    // Commas only group thousands ("7,000,000,000"); "1,5" (a decimal comma) would silently be 15.
    const char* const kBadGrouping = "is not a number (commas group thousands as in 7,000,000; decimals take a point)";
    while (i < text.size() && (is_digit(text[i]) || text[i] == ',')) {
        if (text[i] == ',') {
            if (!seen_digit || last_was_comma) return "is not a number";
            if (seen_comma ? group_digits != 3 : group_digits > 3) return kBadGrouping;
            seen_comma = true;
            last_was_comma = true;
            group_digits = 0;
        } else {
            digits.push_back(text[i]);
            ++int_digits;
            ++group_digits;
            seen_digit = true;
            last_was_comma = false;
        }
        ++i;
    }
    if (last_was_comma) return "is not a number";
    if (seen_comma && group_digits != 3) return kBadGrouping;
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && is_digit(text[i])) {
            digits.push_back(text[i]);
            ++frac_digits;
            seen_digit = true;
            ++i;
        }
    }
    if (!seen_digit) return "is not a number";
    long long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        std::size_t j = i + 1;
        bool negative_exp = false;
        if (j < text.size() && (text[j] == '+' || text[j] == '-')) negative_exp = text[j++] == '-';
        if (j >= text.size() || !is_digit(text[j])) return "is not a number (bad exponent)";
        while (j < text.size() && is_digit(text[j])) {
            if (exponent < 100000) exponent = exponent * 10 + (text[j] - '0');
            ++j;
        }
        if (negative_exp) exponent = -exponent;
        i = j;
    }
    (void)int_digits;
    // Strip leading zeros: they do not change the value.
    std::size_t first_nonzero = digits.find_first_not_of('0');
    digits = first_nonzero == std::string::npos ? std::string() : digits.substr(first_nonzero);
    out.digits = std::move(digits);
    out.power = exponent - static_cast<long long>(frac_digits);
    pos = i;
    return {};
}

// Converts digits x 10^power to an integer rounded half up; false when above max.
// `fraction_dropped` (if given) is set when a non-zero fraction was rounded away.
bool to_integer(const ScaledDigits& number, std::uint64_t max_value, std::uint64_t& out, bool* fraction_dropped = nullptr) {
    if (fraction_dropped != nullptr) *fraction_dropped = false;
    if (number.digits.empty()) {
        out = 0;
        return true;
    }
    const long long length = static_cast<long long>(number.digits.size());
    const long long integer_length = length + number.power;  // digits before the decimal point
    if (integer_length > 20) return false;
    u128 value = 0;
    bool round_up = false;
    if (integer_length >= 0) {
        const long long kept = std::min(length, integer_length);
        for (long long d = 0; d < kept; ++d) value = value * 10 + static_cast<unsigned>(number.digits[static_cast<std::size_t>(d)] - '0');
        for (long long z = length; z < integer_length; ++z) value *= 10;
        if (integer_length < length) round_up = number.digits[static_cast<std::size_t>(integer_length)] >= '5';
    }
    if (round_up) value += 1;
    if (value > max_value) return false;
    if (fraction_dropped != nullptr) {
        const long long first_dropped = std::max(0LL, integer_length);
        for (long long d = first_dropped; d < length; ++d)
            if (number.digits[static_cast<std::size_t>(d)] != '0') *fraction_dropped = true;
    }
    out = static_cast<std::uint64_t>(value);
    return true;
}

// Suffix multipliers as powers of ten; -1 when not a known suffix.
int suffix_power(std::string_view suffix) {
    if (suffix.empty()) return 0;
    if (iequals(suffix, "k") || iequals(suffix, "thousand")) return 3;
    if (iequals(suffix, "m") || iequals(suffix, "million") || iequals(suffix, "mil")) return 6;
    if (iequals(suffix, "b") || iequals(suffix, "g") || iequals(suffix, "billion") || iequals(suffix, "bn")) return 9;
    if (iequals(suffix, "t") || iequals(suffix, "trillion")) return 12;
    return -1;
}

bool looks_like_nan_or_inf(std::string_view t) {
    std::string s;
    for (char c : t)
        if (c != '+' && c != '-') s.push_back(lower(c));
    return s == "nan" || s == "inf" || s == "infinity" || s == "∞" || s.rfind("nan(", 0) == 0;
}

std::string describe_garbage(std::string_view rest) {
    return "has unexpected text \"" + printable_excerpt(rest, 12) + "\"";
}

// Length of the valid UTF-8 sequence at text[i] (1-4), or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    unsigned char min_second = 0x80, max_second = 0xBF;
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) min_second = 0xA0;       // no overlong forms
        if (lead == 0xED) max_second = 0x9F;       // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) min_second = 0x90;
        if (lead == 0xF4) max_second = 0x8F;       // nothing above U+10FFFF
    } else return 0;
    if (i + length > text.size()) return 0;
    if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return length;
}

void append_thousands(std::string& out, std::uint64_t value) {
    std::string digits = std::to_string(value);
    const std::size_t n = digits.size();
    for (std::size_t i = 0; i < n; ++i) {
        out.push_back(digits[i]);
        const std::size_t left = n - i - 1;
        if (left > 0 && left % 3 == 0) out.push_back(',');
    }
}

}  // namespace

std::string percent_encode(std::string_view text, std::string_view also_keep) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' ||
                          c == '~' || also_keep.find(c) != std::string_view::npos;
        if (keep) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        }
    }
    return out;
}

std::string printable_excerpt(std::string_view text, std::size_t max_bytes) {
    std::string out;
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t length = utf8_sequence_length(text, i);
        const std::size_t shown_length = length == 0 ? 1 : length;
        if (out.size() + shown_length > max_bytes) break;
        const auto lead = static_cast<unsigned char>(text[i]);
        if (length == 0 || lead < 0x20 || lead == 0x7F) out.push_back('?');
        else out.append(text.substr(i, length));
        i += shown_length;
    }
    if (i < text.size()) out += "...";
    return out;
}

std::string ascii_lookalikes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const std::string_view rest = text.substr(i);
        if (rest.substr(0, 2) == "\xC2\xA0") {
            out.push_back(' ');
            i += 1;
        } else if (rest.substr(0, 3) == "\xE2\x80\x89" || rest.substr(0, 3) == "\xE2\x80\xAF") {
            out.push_back(' ');
            i += 2;
        } else if (rest.substr(0, 3) == "\xE2\x88\x92") {
            out.push_back('-');
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

std::string_view trim(std::string_view text) {
    std::size_t b = 0;
    std::size_t e = text.size();
    while (b < e && is_space(text[b])) ++b;
    while (e > b && is_space(text[e - 1])) --e;
    return text.substr(b, e - b);
}

Decimal Decimal::from_ratio(std::uint64_t numerator, std::uint64_t denominator) {
    if (denominator == 0) return Decimal{0};
    const u128 scaled = static_cast<u128>(numerator) * kScale;
    return Decimal{static_cast<std::uint64_t>((scaled + denominator / 2) / denominator)};
}

namespace {

// Reads the number at the front of text (lookalike characters mapped to ASCII into `ascii`, which
// `rest` points into); `rest` is what follows it, trimmed. Returns an error message, "" on success.
std::string read_leading_number(std::string_view text, std::string& ascii, ScaledDigits& number, std::string_view& rest) {
    ascii = ascii_lookalikes(text);
    const std::string_view t = trim(ascii);
    if (t.empty()) return "is empty";
    if (looks_like_nan_or_inf(t)) return "is not a finite number";
    std::size_t pos = 0;
    if (std::string message = read_number(t, pos, number); !message.empty()) return message;
    rest = trim(t.substr(pos));
    return {};
}

Expected<std::uint64_t> parse_count_impl(std::string_view text, bool whole_only, std::uint64_t max_count,
                                         std::string_view limit_text) {
    std::string ascii;
    ScaledDigits number;
    std::string_view rest;
    if (std::string message = read_leading_number(text, ascii, number, rest); !message.empty()) return Error{message};
    const int power = suffix_power(rest);
    if (power < 0) return Error{describe_garbage(rest) + " (use a number with K, M, B or T)"};
    number.power += power;
    std::uint64_t value = 0;
    bool fraction_dropped = false;
    if (!to_integer(number, max_count, value, &fraction_dropped))
        return Error{max_count == kMaxParamCount && limit_text.empty() ? too_large(max_count, "1000T = 10^15")
                                                                       : too_large(max_count, limit_text)};
    if (whole_only && fraction_dropped) return Error{"must be a whole number"};
    return value;
}

}  // namespace

Expected<std::uint64_t> parse_count(std::string_view text) { return parse_count_impl(text, false, kMaxParamCount, {}); }

Expected<std::uint64_t> parse_whole_count(std::string_view text, std::uint64_t max_count, std::string_view limit_text) {
    return parse_count_impl(text, true, max_count, limit_text);
}

std::string too_large(std::uint64_t max_count, std::string_view limit_text) {
    return "is too large (at most " + (limit_text.empty() ? format_count_exact(max_count) : std::string(limit_text)) + ")";
}

Expected<Decimal> parse_decimal(std::string_view text, std::uint64_t max_micros, std::string_view limit_text) {
    std::string ascii;
    ScaledDigits number;
    std::string_view rest;
    if (std::string message = read_leading_number(text, ascii, number, rest); !message.empty()) return Error{message};
    if (!rest.empty()) return Error{describe_garbage(rest)};
    number.power += 6;
    std::uint64_t micros = 0;
    if (!to_integer(number, max_micros, micros))
        return Error{"is too large (at most " + (limit_text.empty() ? format_decimal(Decimal{max_micros}) : std::string(limit_text)) + ")"};
    return Decimal{micros};
}

Expected<std::uint64_t> parse_memory_size(std::string_view text, std::uint64_t max_bytes, std::string_view limit_text) {
    std::string t(trim(text));
    for (char& c : t) c = lower(c);
    struct Unit { const char* suffix; std::uint64_t bytes; };
    static constexpr Unit kUnits[] = {{"tib", 1ULL << 40}, {"gib", kBytesPerGib}, {"mib", 1ULL << 20},
                                      {"tb", 1'000'000'000'000ULL}, {"gb", kBytesPerGb}, {"mb", 1'000'000ULL},
                                      {"b", 1}};
    for (const Unit& unit : kUnits) {
        const std::size_t n = std::char_traits<char>::length(unit.suffix);
        if (t.size() <= n || t.compare(t.size() - n, n, unit.suffix) != 0) continue;
        // At most max_bytes in this unit, in millionths (capped where a tiny unit's limit exceeds 64 bits).
        const u128 max_micros = static_cast<u128>(max_bytes) * Decimal::kScale / unit.bytes;
        const Expected<Decimal> amount = parse_decimal(std::string_view(t).substr(0, t.size() - n),
                                                       max_micros > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(max_micros),
                                                       limit_text);
        if (!amount) return Error{amount.error()};
        // Exact bytes, rounded half up once (0.5 B -> 1 B).
        const u128 bytes = (static_cast<u128>(amount->micros) * unit.bytes + Decimal::kScale / 2) / Decimal::kScale;
        if (bytes == 0) return Error{"must be greater than zero"};
        if (bytes > max_bytes) return Error{too_large(max_bytes, limit_text)};
        return static_cast<std::uint64_t>(bytes);
    }
    return Error{"needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB"};
}

std::string format_ratio(std::uint64_t count, std::uint64_t divisor, int decimals) {
    if (divisor == 0) return "0";
    u128 scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    const u128 scaled = (static_cast<u128>(count) * scale + divisor / 2) / divisor;
    const auto whole = static_cast<std::uint64_t>(scaled / scale);
    auto frac = static_cast<std::uint64_t>(scaled % scale);
    std::string out = std::to_string(whole);
    if (decimals > 0 && frac != 0) {
        std::string frac_text = std::to_string(frac);
        frac_text.insert(0, static_cast<std::size_t>(decimals) - frac_text.size(), '0');
        while (!frac_text.empty() && frac_text.back() == '0') frac_text.pop_back();
        out += "." + frac_text;
    }
    return out;
}

std::string format_decimal(Decimal value) { return format_ratio(value.micros, Decimal::kScale, 6); }

std::string format_count_short(std::uint64_t count, int max_decimals) {
    struct Unit { std::uint64_t size; const char* suffix; };
    static constexpr Unit kUnits[] = {{1'000'000'000'000ULL, "T"}, {1'000'000'000ULL, "B"}, {1'000'000ULL, "M"}, {1'000ULL, "K"}};
    for (const Unit& unit : kUnits)
        if (count >= unit.size) return format_ratio(count, unit.size, max_decimals) + unit.suffix;
    return std::to_string(count);
}

std::string format_count_exact(std::uint64_t count) {
    std::string out;
    append_thousands(out, count);
    return out;
}

namespace {

// Two decimals, or below 0.1 as many as two significant digits need, so a nonzero figure never prints
// as 0: 8,388,608 bytes is "0.0084" GB, not "0.01"; 1 byte is "0.000000001".
std::string format_in_unit(std::uint64_t bytes, std::uint64_t unit) {
    int decimals = 2;
    u128 scale = 100;
    while (bytes != 0 && decimals < 12 && (static_cast<u128>(bytes) * scale + unit / 2) / unit < 10) {
        ++decimals;
        scale *= 10;
    }
    return format_ratio(bytes, unit, decimals);
}

}  // namespace

std::string format_gb(std::uint64_t bytes) { return format_in_unit(bytes, kBytesPerGb) + " GB"; }
std::string format_gib(std::uint64_t bytes) { return format_in_unit(bytes, kBytesPerGib) + " GiB"; }

std::string format_bytes_decimal(std::uint64_t bytes) {
    if (bytes >= kBytesPerGb) return format_gb(bytes);
    if (bytes >= 1'000'000ULL) return format_ratio(bytes, 1'000'000ULL, 2) + " MB";
    if (bytes >= 1'000ULL) return format_ratio(bytes, 1'000ULL, 2) + " KB";
    return std::to_string(bytes) + " bytes";
}

std::string format_bytes_binary(std::uint64_t bytes) {
    if (bytes >= kBytesPerGib) return format_gib(bytes);
    if (bytes >= (1ULL << 20)) return format_ratio(bytes, 1ULL << 20, 2) + " MiB";
    if (bytes >= (1ULL << 10)) return format_ratio(bytes, 1ULL << 10, 2) + " KiB";
    return std::to_string(bytes) + " bytes";
}

std::string say(const char* pattern, std::initializer_list<SayArg> args) {
    std::string out;
    const SayArg* arg = args.begin();
    for (const char* p = pattern;;) {
        const char* mark = p;
        while (*mark != '\0' && *mark != '%') ++mark;
        out.append(p, static_cast<std::size_t>(mark - p));
        if (*mark == '\0') return out;
        p = mark + 1;
        const SayArg& a = *arg++;
        switch (a.kind) {
            case SayArg::kText: out += a.text; break;
            case SayArg::kGb: out += format_gb(a.value); break;
            case SayArg::kGib: out += format_gib(a.value); break;
            case SayArg::kNumber: out += std::to_string(a.value); break;
            case SayArg::kCount:
            case SayArg::kPlural:
                out += format_count_exact(a.value);
                if (a.kind == SayArg::kPlural) (out += ' ') += a.text;
                break;
        }
    }
}

}  // namespace llm_memory
