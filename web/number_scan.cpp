// Exact strtod/strtof and a small sscanf for the web page (number_scan.hpp). Decimal input is converted
// by "simple decimal conversion": the digits (at most 800 kept, plus a flag for dropped nonzero ones) are
// shifted by powers of two until the value lies in [0.5, 1), then 64 bits are read off and rounded once
// to the target format. Exact because every rounding boundary of a double (a midpoint between two
// doubles, at most 768 significant digits) stays representable in 800 digits through every shift, and
// truncation is monotonic: the kept value is on the same side of every boundary as the true one.
#include "number_scan.hpp"

#include <cstdint>
#include <cstring>

namespace llm_memory {
namespace {

// An IEEE binary format: significand bits (with the hidden one), largest exponent, width.
struct BinaryFormat {
    int significand_bits;
    int max_exponent;
    int width_bits;
};
constexpr BinaryFormat binary64{53, 1023, 64};
constexpr BinaryFormat binary32{24, 127, 32};

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
unsigned digit_value(char c) { return static_cast<unsigned>(c - '0'); }  // > 9 for a non-digit
unsigned hex_value(char c) {                                               // > 15 for a non-hex-digit
    if (digit_value(c) <= 9) return digit_value(c);
    const unsigned letter = static_cast<unsigned>((c | 32) - 'a');
    return letter < 6 ? letter + 10 : 99;
}

// Rounds (m + sticky) * 2^exponent, m != 0 and sticky meaning "a little more than m", to the nearest
// value of `format` (ties to even, denormals, overflow to infinity); returns its bits without the sign.
std::uint64_t round_binary(std::uint64_t m, std::int64_t exponent, bool sticky, const BinaryFormat& format) {
    while (!(m >> 63)) {
        m <<= 1;
        --exponent;
    }
    std::int64_t top = exponent + 63;  // the value lies in [2^top, 2^(top+1))
    const std::int64_t min_exponent = 1 - format.max_exponent;
    const std::uint64_t infinity = static_cast<std::uint64_t>(2 * format.max_exponent + 1) << (format.significand_bits - 1);
    if (top > format.max_exponent) return infinity;
    std::int64_t kept_bits = format.significand_bits;
    if (top < min_exponent) {
        kept_bits -= min_exponent - top;  // a denormal keeps fewer bits
        if (kept_bits < 0) return 0;      // below half the smallest denormal
        top = min_exponent;
    }
    std::uint64_t kept = kept_bits == 0 ? 0 : m >> (64 - kept_bits);
    const std::uint64_t rest = kept_bits == 0 ? m : m << kept_bits;
    const std::uint64_t half = std::uint64_t{1} << 63;
    if (rest > half || (rest == half && (sticky || (kept & 1)))) ++kept;
    // The significand's leading one adds 1 to the biased exponent field; a carry out of rounding adds one
    // more (up to the infinity pattern); a denormal (top clamped, no leading one) gets field 0.
    return (static_cast<std::uint64_t>(top + format.max_exponent - 1) << (format.significand_bits - 1)) + kept;
}

// Decimal digits d[0] d[1] ... (values 0-9, no trailing zeros) meaning 0.d[0]d[1]... x 10^point.
struct DecimalDigits {
    static constexpr int capacity = 800;
    static constexpr int max_shift = 60;  // bits per shift: 10 * 2^60 fits in 64 bits
    unsigned char digit[capacity + 20];   // room for the 19 digits a left shift adds before truncation
    int count = 0;
    std::int64_t point = 0;
    bool truncated = false;  // nonzero digits past `capacity` were dropped (the value is a little larger)

    void trim() {
        while (count > 0 && digit[count - 1] == 0) --count;
    }

    // Divides by 2^k (k <= max_shift).
    void shift_right(int k) {
        int read = 0;
        int write = 0;
        std::uint64_t n = 0;
        for (; (n >> k) == 0; ++read) {
            if (read >= count) {
                while ((n >> k) == 0) {
                    n *= 10;
                    ++read;
                }
                break;
            }
            n = n * 10 + digit[read];
        }
        point -= read - 1;
        const std::uint64_t mask = (std::uint64_t{1} << k) - 1;
        for (; read < count; ++read) {
            digit[write++] = static_cast<unsigned char>(n >> k);
            n = (n & mask) * 10 + digit[read];
        }
        while (n > 0) {
            const auto next = static_cast<unsigned char>(n >> k);
            n = (n & mask) * 10;
            if (write < capacity) digit[write++] = next;
            else if (next != 0) truncated = true;
        }
        count = write;
        trim();
    }

    // Multiplies by 2^k (k <= max_shift): the product is written from its last digit, 19 places to the
    // right of where it ends, then moved to the front and cut to `capacity` digits.
    void shift_left(int k) {
        constexpr int room = 19;
        int read = count;
        int write = count + room;
        std::uint64_t n = 0;
        while (read > 0) {
            n += static_cast<std::uint64_t>(digit[--read]) << k;
            const std::uint64_t quotient = n / 10;
            digit[--write] = static_cast<unsigned char>(n - quotient * 10);
            n = quotient;
        }
        while (n > 0) {
            const std::uint64_t quotient = n / 10;
            digit[--write] = static_cast<unsigned char>(n - quotient * 10);
            n = quotient;
        }
        point += room - write;
        count += room - write;
        std::memmove(digit, digit + write, static_cast<std::size_t>(count));
        for (; count > capacity; --count)
            if (digit[count - 1] != 0) truncated = true;
        trim();
    }

    // The bits of the nearest `format` value (no sign).
    std::uint64_t to_binary(const BinaryFormat& format) {
        if (count == 0 || point < -330) return 0;  // below 10^-331: under half of every format's denormals
        if (point > 310) return round_binary(1, 1100, false, format);  // above 10^309: infinity
        std::int64_t exponent = 0;
        while (point > 0) {  // below 1
            shift_right(max_shift);
            exponent += max_shift;
        }
        while (point < 0 || digit[0] < 5) {  // up to [0.5, 1), never past 1: 2^(3p) < 10^p
            const int k = point == 0 ? 1 : (point < -19 ? max_shift : static_cast<int>(-3 * point));
            shift_left(k);
            exponent -= k;
        }
        shift_left(max_shift);  // times 2^64: [2^63, 2^64), the integer part is the first `point` (19 or 20) digits
        shift_left(64 - max_shift);
        std::uint64_t m = 0;
        for (int i = 0; i < point; ++i) m = m * 10 + (i < count ? digit[i] : 0);
        return round_binary(m, exponent - 64, truncated || count > point, format);
    }
};

// Reads a decimal exponent's digits at p (saturating far beyond any meaningful value); false if none.
bool read_exponent(const char*& p, std::int64_t& exponent) {
    const char* q = p;
    const bool negative = *q == '-';
    if (*q == '+' || *q == '-') ++q;
    if (digit_value(*q) > 9) return false;
    std::int64_t value = 0;
    for (; digit_value(*q) <= 9; ++q)
        if (value < 100000000000000000) value = value * 10 + digit_value(*q);
    exponent = negative ? -value : value;
    p = q;
    return true;
}

// How many leading characters of p match `word` (lower case), ignoring case.
int match_word(const char* p, const char* word) {
    int i = 0;
    while (word[i] && (p[i] | 32) == word[i]) ++i;
    return i;
}

// Parses the number at `text` (whitespace already skipped). Returns its bits in `format`; *end is past the
// number, or `text` when there is none. `scanf_rules`: musl's scanf refuses an incomplete tail ("1e",
// "0x", "infin", "nan(") where strtod takes the complete prefix before it.
std::uint64_t parse_number(const char* text, const char** end, const BinaryFormat& format, bool scanf_rules) {
    const char* p = text;
    *end = text;
    const std::uint64_t sign = (*p == '-') ? std::uint64_t{1} << (format.width_bits - 1) : 0;
    if (*p == '+' || *p == '-') ++p;
    const std::uint64_t infinity = static_cast<std::uint64_t>(2 * format.max_exponent + 1) << (format.significand_bits - 1);

    const int inf_letters = match_word(p, "infinity");
    if (inf_letters == 8 || inf_letters == 3 || (inf_letters > 3 && !scanf_rules)) {
        *end = p + (inf_letters == 8 ? 8 : 3);
        return sign | infinity;
    }
    if (inf_letters > 0) return 0;
    const int nan_letters = match_word(p, "nan");
    if (nan_letters == 3) {
        p += 3;
        if (*p == '(') {
            const char* q = p + 1;
            while (digit_value(*q) <= 9 || static_cast<unsigned>((*q | 32) - 'a') < 26 || *q == '_') ++q;
            if (*q == ')') p = q + 1;
            else if (scanf_rules) return 0;
        }
        *end = p;
        return infinity | (std::uint64_t{1} << (format.significand_bits - 2));  // musl: always +NaN
    }
    if (nan_letters > 0) return 0;

    if (p[0] == '0' && (p[1] | 32) == 'x') {
        const char* q = p + 2;
        std::uint64_t m = 0;
        std::int64_t exponent = 0;
        bool sticky = false;
        bool any_digit = false;
        bool seen_point = false;
        for (;; ++q) {
            if (*q == '.' && !seen_point) {
                seen_point = true;
                continue;
            }
            const unsigned value = hex_value(*q);
            if (value > 15) break;
            any_digit = true;
            if ((m >> 60) == 0) {
                m = m * 16 + value;
                if (seen_point) exponent -= 4;
            } else {
                sticky |= value != 0;
                if (!seen_point) exponent += 4;
            }
        }
        if (!any_digit) {  // "0x" with no digits: strtod takes the "0"
            if (scanf_rules) return 0;
            *end = p + 1;
            return sign;
        }
        if ((*q | 32) == 'p') {
            const char* after = q + 1;
            std::int64_t binary_exponent = 0;
            if (read_exponent(after, binary_exponent)) {
                q = after;
                exponent += binary_exponent;
            } else if (scanf_rules) {
                return 0;
            }
        }
        *end = q;
        return sign | (m == 0 ? 0 : round_binary(m, exponent, sticky, format));
    }

    DecimalDigits decimal;
    bool any_digit = false;
    bool seen_point = false;
    for (;; ++p) {
        if (*p == '.' && !seen_point) {
            seen_point = true;
            continue;
        }
        const unsigned value = digit_value(*p);
        if (value > 9) break;
        any_digit = true;
        if (value == 0 && decimal.count == 0) {  // leading zeros take no room
            if (seen_point) --decimal.point;
            continue;
        }
        if (!seen_point) ++decimal.point;
        if (decimal.count < DecimalDigits::capacity) decimal.digit[decimal.count++] = static_cast<unsigned char>(value);
        else if (value != 0) decimal.truncated = true;
    }
    if (!any_digit) return 0;
    if ((*p | 32) == 'e') {
        const char* after = p + 1;
        std::int64_t exponent = 0;
        if (read_exponent(after, exponent)) {
            p = after;
            decimal.point += exponent;
        } else if (scanf_rules) {
            return 0;
        }
    }
    *end = p;
    decimal.trim();
    return sign | decimal.to_binary(format);
}

std::uint64_t scan_to_bits(const char* text, char** end, const BinaryFormat& format) {
    const char* p = text;
    while (is_space(*p)) ++p;
    const char* number_end = p;
    const std::uint64_t bits = parse_number(p, &number_end, format, false);
    if (end) *end = const_cast<char*>(number_end == p ? text : number_end);
    return bits;
}

// musl's __intscan for scanf: optional sign, "0x" for base 16 and 0 (%i: "0" means octal), digits; the
// value wraps modulo 2^64 when negated, and is ULLONG_MAX (sign dropped) past it. False if no digits.
bool scan_integer(const char*& text, unsigned base, std::uint64_t& result) {
    const char* p = text;
    const bool negative = *p == '-';
    if (*p == '+' || *p == '-') ++p;
    if ((base == 0 || base == 16) && *p == '0') {
        ++p;
        if ((*p | 32) == 'x') {
            ++p;
            if (hex_value(*p) > 15) return false;
            base = 16;
        } else if (base == 0) {
            base = 8;
        }
    } else {
        if (base == 0) base = 10;
        if (hex_value(*p) >= base) return false;
    }
    std::uint64_t value = 0;
    bool overflow = false;
    for (; hex_value(*p) < base; ++p) {
        const unsigned d = hex_value(*p);
        if (value > (UINT64_MAX - d) / base) overflow = true;
        value = value * base + d;
    }
    result = overflow ? UINT64_MAX : (negative ? 0 - value : value);
    text = p;
    return true;
}

bool is_float_conversion(char c) {
    const char lower = static_cast<char>(c | 32);
    return lower == 'a' || lower == 'e' || lower == 'f' || lower == 'g';
}

// The conversion at f (just past '%'): how many 'l's, and its type letter; false if not supported.
bool read_conversion(const char*& f, int& longs, char& type) {
    longs = 0;
    while (*f == 'l' && longs < 2) {
        ++longs;
        ++f;
    }
    type = *f;
    if (is_float_conversion(type)) return longs <= 1;
    return type == 'd' || type == 'i' || type == 'u' || type == 'x' || type == 'X';
}

}  // namespace

double scan_strtod(const char* text, char** end) {
    const std::uint64_t bits = scan_to_bits(text, end, binary64);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

float scan_strtof(const char* text, char** end) {
    const auto bits = static_cast<std::uint32_t>(scan_to_bits(text, end, binary32));
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

int scan_vsscanf(const char* text, const char* format, std::va_list args) {
    for (const char* f = format; *f; ++f) {  // refuse unsupported formats before storing anything
        int longs;
        char type;
        if (*f == '%' && !read_conversion(++f, longs, type)) return 0;
    }
    const char* s = text;
    int stored = 0;
    for (const char* f = format; *f; ++f) {
        if (is_space(*f)) {
            while (is_space(*s)) ++s;
            continue;
        }
        if (*f != '%') {
            if (*s != *f) return (*s == 0 && stored == 0) ? -1 : stored;
            ++s;
            continue;
        }
        int longs;
        char type;
        read_conversion(++f, longs, type);
        while (is_space(*s)) ++s;
        if (*s == 0) return stored == 0 ? -1 : stored;  // input failure
        void* destination = va_arg(args, void*);
        if (is_float_conversion(type)) {
            const char* end;
            const std::uint64_t bits = parse_number(s, &end, longs ? binary64 : binary32, true);
            if (end == s) return stored;
            if (longs) std::memcpy(destination, &bits, sizeof(double));
            else {
                const auto bits32 = static_cast<std::uint32_t>(bits);
                std::memcpy(destination, &bits32, sizeof(float));
            }
            s = end;
        } else {
            std::uint64_t value;
            if (!scan_integer(s, type == 'i' ? 0 : (type | 32) == 'x' ? 16 : 10, value)) return stored;
            // memcpy like the float stores: a caller's destination need not be aligned for the type.
            if (longs == 0) { const auto v = static_cast<int>(value); std::memcpy(destination, &v, sizeof v); }
            else if (longs == 1) { const auto v = static_cast<long>(value); std::memcpy(destination, &v, sizeof v); }
            else { const auto v = static_cast<long long>(value); std::memcpy(destination, &v, sizeof v); }
        }
        ++stored;
    }
    return stored;
}

int scan_sscanf(const char* text, const char* format, ...) {
    std::va_list args;
    va_start(args, format);
    const int stored = scan_vsscanf(text, format, args);
    va_end(args);
    return stored;
}

}  // namespace llm_memory
