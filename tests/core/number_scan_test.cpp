// The page's strtod/strtof/sscanf stand-ins (web/number_scan.hpp) checked bit for bit against the C library
// of the build: glibc natively, musl (the libc the page replaces) in the wasm tests. Corpora (three test
// cases): over a million deterministic strings (random digit strings and exponents, random doubles printed
// with %.17g %.15g %.6g %a, 20+ digit mantissas), the exact decimal midpoints between neighbouring doubles and floats (and just
// above and below them, some past the 800 digits the converter keeps) near every power of two and at
// random, the DBL_MAX and 2^-1074 neighbourhoods, every number in tests/fixtures/configs, junk suffixes
// (end pointers), and every sscanf format ImGui's callers use on valid and invalid text.
// Where glibc and musl differ (documented per case below) natively the test asserts musl's result.
#include <catch_amalgamated.hpp>

#include <cfloat>
#include <cctype>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "number_scan.hpp"
#include "config_fixtures.hpp"
#include "split_mix64.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

#ifdef LLM_MEMORY_TEST_LIBC_IS_MUSL
constexpr bool kLibcIsMusl = true;
#else
constexpr bool kLibcIsMusl = false;
#endif

// Deterministic 64-bit generator (core's splitmix64): the same corpus on every platform.
struct Random : SplitMix64 {
    int below(int n) { return static_cast<int>(pick(static_cast<std::size_t>(n))); }
};

std::uint64_t bits_of(double v) {
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
std::uint32_t bits_of(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}
double double_of(std::uint64_t b) {
    double v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// Exact decimal integers for the midpoints: little-endian base 10^9 limbs.
struct BigDecimal {
    std::vector<std::uint32_t> limbs{0};
    static BigDecimal of(std::uint64_t v) {
        BigDecimal b;
        b.limbs.clear();
        do {
            b.limbs.push_back(static_cast<std::uint32_t>(v % 1000000000));
            v /= 1000000000;
        } while (v);
        return b;
    }
    void multiply(std::uint32_t factor) {
        std::uint64_t carry = 0;
        for (auto& limb : limbs) {
            const std::uint64_t n = std::uint64_t{limb} * factor + carry;
            limb = static_cast<std::uint32_t>(n % 1000000000);
            carry = n / 1000000000;
        }
        while (carry) {
            limbs.push_back(static_cast<std::uint32_t>(carry % 1000000000));
            carry /= 1000000000;
        }
    }
    BigDecimal times(const BigDecimal& other) const {
        std::vector<std::uint64_t> sum(limbs.size() + other.limbs.size() + 1, 0);
        for (std::size_t i = 0; i < limbs.size(); ++i) {
            std::uint64_t carry = 0;
            for (std::size_t j = 0; j < other.limbs.size(); ++j) {
                const std::uint64_t n = sum[i + j] + std::uint64_t{limbs[i]} * other.limbs[j] + carry;
                sum[i + j] = n % 1000000000;
                carry = n / 1000000000;
            }
            for (std::size_t k = i + other.limbs.size(); carry; ++k) {
                const std::uint64_t n = sum[k] + carry;
                sum[k] = n % 1000000000;
                carry = n / 1000000000;
            }
        }
        BigDecimal out;
        out.limbs.assign(sum.begin(), sum.end());
        while (out.limbs.size() > 1 && out.limbs.back() == 0) out.limbs.pop_back();
        return out;
    }
    std::string digits() const {
        std::string s = std::to_string(limbs.back());
        char buffer[16];
        for (std::size_t i = limbs.size() - 1; i-- > 0;) {
            std::snprintf(buffer, sizeof buffer, "%09u", static_cast<unsigned>(limbs[i]));
            s += buffer;
        }
        return s;
    }
};

// Powers 5^j and 2^j, j = 0..1100, built once.
const std::vector<BigDecimal>& powers(std::uint32_t base) {
    static std::vector<BigDecimal> five, two;
    std::vector<BigDecimal>& table = base == 5 ? five : two;
    if (table.empty()) {
        table.push_back(BigDecimal::of(1));
        for (int j = 1; j <= 1100; ++j) {
            table.push_back(table.back());
            table.back().multiply(base);
        }
    }
    return table;
}

// "digits" and a power of ten exponent whose value is exactly odd * 2^exponent2.
void exact_decimal(std::uint64_t odd, int exponent2, std::string& digits, int& exponent10) {
    if (exponent2 >= 0) {
        digits = BigDecimal::of(odd).times(powers(2)[static_cast<std::size_t>(exponent2)]).digits();
        exponent10 = 0;
    } else {
        digits = BigDecimal::of(odd).times(powers(5)[static_cast<std::size_t>(-exponent2)]).digits();
        exponent10 = exponent2;
    }
}

// The midpoint above a positive finite value given by its bits, of a format with `fraction_bits` stored
// bits: returns its exact decimal and, in `nearby`, strings just above and below it (short and long tails).
void midpoint_strings(std::uint64_t bits, int fraction_bits, int bias, std::vector<std::string>& out, Random& random) {
    const std::uint64_t field = bits >> fraction_bits;
    std::uint64_t m = bits & ((std::uint64_t{1} << fraction_bits) - 1);
    int e;
    if (field == 0) {
        e = 1 - bias - fraction_bits;
    } else {
        m |= std::uint64_t{1} << fraction_bits;
        e = static_cast<int>(field) - bias - fraction_bits;
    }
    std::string digits;
    int exponent10;
    exact_decimal(2 * m + 1, e - 1, digits, exponent10);  // (m + 1/2) * 2^e
    const std::string ex = "e" + std::to_string(exponent10);
    out.push_back(digits + ex);
    // Just above: a 1 after z zeros; just below: the last digit lowered and z nines.
    const int z = random.below(4) == 0 ? 800 + random.below(200) : random.below(6);
    const std::string shift = "e" + std::to_string(exponent10 - z - 1);
    out.push_back(digits + std::string(static_cast<std::size_t>(z), '0') + "1" + shift);
    std::string lower = digits;
    std::size_t i = lower.size();
    while (lower[--i] == '0') lower[i] = '9';
    --lower[i];
    out.push_back(lower + std::string(static_cast<std::size_t>(z), '9') + "9" + shift);
    // The value itself, exactly (2m * 2^(e-1)), as a "0.000ddd" string sometimes.
    exact_decimal(m == 0 ? 1 : m, e, digits, exponent10);
    if (random.below(2) == 0 && exponent10 < 0 && exponent10 > -400) {
        const auto places = static_cast<std::size_t>(-exponent10);
        std::string fraction = digits.size() > places ? digits.substr(0, digits.size() - places) + "." + digits.substr(digits.size() - places)
                                                      : "0." + std::string(places - digits.size(), '0') + digits;
        out.push_back(fraction);
    } else {
        out.push_back(digits + "e" + std::to_string(exponent10));
    }
}

std::string random_digits(Random& random, int count, bool leading_nonzero) {
    std::string s;
    for (int i = 0; i < count; ++i) s += static_cast<char>('0' + (i == 0 && leading_nonzero ? 1 + random.below(9) : random.below(10)));
    return s;
}

// A random decimal string: sign, leading zeros, 1-40 digits (sometimes hundreds), a point, an exponent.
std::string random_decimal(Random& random) {
    std::string s;
    const int sign = random.below(4);
    if (sign == 0) s += '-';
    if (sign == 1) s += '+';
    if (random.below(8) == 0) s += std::string(static_cast<std::size_t>(random.below(5)), '0');
    const int length = random.below(16) == 0 ? 1 + random.below(1200) : 1 + random.below(40);
    std::string digits = random_digits(random, length, random.below(4) != 0);
    if (random.below(3) != 0) digits.insert(static_cast<std::size_t>(random.below(length + 1)), ".");
    if (digits == ".") digits = "0.";
    s += digits;
    if (random.below(4) != 0) {
        s += random.below(2) ? 'e' : 'E';
        const int exponent_sign = random.below(3);
        if (exponent_sign == 0) s += '-';
        if (exponent_sign == 1) s += '+';
        const int range = random.below(8) == 0 ? 2000 : 360;
        s += std::to_string(random.below(range));
    }
    return s;
}

std::string formatted(const char* format, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

double random_finite_double(Random& random) {
    for (;;) {
        const double v = double_of(random.next());
        if (std::isfinite(v)) return v;
    }
}

// Strings with a value rounding near a power of two: both sides of 2^e and the midpoints around it.
void power_of_two_strings(std::vector<std::string>& out, Random& random) {
    for (int e = -1074; e <= 1023; ++e) {
        const std::uint64_t bits = bits_of(std::ldexp(1.0, e));
        midpoint_strings(bits, 52, 1023, out, random);
        if (bits > 1) midpoint_strings(bits - 1, 52, 1023, out, random);
        out.push_back(formatted("%.17g", double_of(bits)));
        out.push_back(formatted("%.17g", double_of(bits - 1)));
    }
}

struct Mismatch {
    std::size_t count = 0;
    std::string first;
    void add(const std::string& what) {
        if (count++ < 5) first += what + "\n";
    }
};

// End pointers: glibc backs up over an incomplete tail at the end of the text ("1e", "0x", "nan(ab");
// musl's string reader cannot unread after the terminator and leaves the end pointer past the tail
// (the page's callers pass no end pointer). Such texts are told apart by trying them with "," appended.
bool musl_end_at_terminator_quirk(const std::string& text, const char* ours_end, const char* libc_end) {
    if (!kLibcIsMusl || libc_end != text.c_str() + text.size() || ours_end >= libc_end) return false;
    const std::string extended = text + ",";
    char* extended_end;
    std::strtod(extended.c_str(), &extended_end);
    return extended_end - extended.c_str() == ours_end - text.c_str();
}

void compare_strtod(const std::string& text, Mismatch& mismatch) {
    char* libc_end;
    char* ours_end;
    const double libc = std::strtod(text.c_str(), &libc_end);
    const double ours = scan_strtod(text.c_str(), &ours_end);
    // NaN: musl returns +NaN for every spelling; glibc keeps "-nan"'s sign and a nan(digits) payload.
    const bool same_value = (std::isnan(libc) && std::isnan(ours) && (!kLibcIsMusl || bits_of(libc) == bits_of(ours))) ||
                            bits_of(libc) == bits_of(ours);
    const bool same_end = libc_end == ours_end || musl_end_at_terminator_quirk(text, ours_end, libc_end);
    if (!same_value || !same_end) {
        char line[160];
        std::snprintf(line, sizeof line, "libc %016" PRIx64 " end %td, ours %016" PRIx64 " end %td: ", bits_of(libc),
                      libc_end - text.c_str(), bits_of(ours), ours_end - text.c_str());
        mismatch.add(line + text.substr(0, 120));
    }
    float libc_float = std::strtof(text.c_str(), &libc_end);
    float ours_float = scan_strtof(text.c_str(), &ours_end);
    const bool same_float = (std::isnan(libc_float) && std::isnan(ours_float) && (!kLibcIsMusl || bits_of(libc_float) == bits_of(ours_float))) ||
                            bits_of(libc_float) == bits_of(ours_float);
    if (!same_float || !(libc_end == ours_end || musl_end_at_terminator_quirk(text, ours_end, libc_end)))
        mismatch.add("strtof: " + text.substr(0, 120));
}

const char* const kSpecialTexts[] = {
    "", " ", "\t\n\v\f\r 1", "+", "-", ".", "+.", "-.5", "..5", "5..", "1.2.3", "e5", ".e5", "0e", "0e+", "0e-x",
    "inf", "INF", "-inf", "+Inf", "infinity", "INFINITY", "-Infinity", "infinit", "infin", "infi", "in", "i", "info",
    "infinityx", "nan", "NaN", "-nan", "+nan", "nan()", "nan(abc_123)", "nan(abc", "nan(a b)", "nanx", "na", "n", "nan(",
    "0x", "0X", "0x.", "0x.p1", "0xg", "-0x", "0x1", "0x1p", "0x1p+", "0x1p-", "0X1P-3", "0x.8", "0x8.", "0x1.8p1",
    "0x1.fffffffffffff8p1023", "0x1.fffffffffffff7ffp1023", "0x1.fffffffffffffp1023", "0x1p1024", "0x1p-1074",
    "0x1p-1075", "0x1.0000000000001p-1075", "0x1.8p-1074", "0x1.4p-1074", "0x0.0000000000001p-1022",
    "0x123456789abcdef0123456789p0", "0x1.00000000000008p0", "0x1.000000000000080000000001p0", "0x1p99999999999999999999",
    "0x1p-99999999999999999999", "0x0p99999999999999999999", "0x.000000000000000000000000000001p120",
    "1e", "1e+", "1e-", "1ex", "1e+x", "1E5", "1e-5", "1e+5", "1e0005", "00001", "-0", "+0", "0.0", "-0.0e10",
    "00000.00000e99999999999999999999999", "1e-99999999999999999999", "1e99999999999999999999", "0e99999999999999999999",
    "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623158079e308", "1.797693134862315807937e308",
    "1.7976931348623159e308", "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791", // 2^1024 - 2^970 (DBL_MAX + half ulp)
    "2.2250738585072011e-308", "2.2250738585072012e-308", "2.2250738585072014e-308", "4.9406564584124654e-324",
    "2.4703282292062327e-324", "2.4703282292062328e-324", "7.4109846876186982e-324", "1e-324", "3e-324", "5e-324",
    "9007199254740993", "9007199254740992.5", "9007199254740993.0000000000000000000000001", "0.1", "0.2", "0.3",
    "3.4028234663852886e38", "3.4028235677973366e38", "3.40282357e38", "1.17549435e-38", "1.4012984643e-45",
    "7.0064923216240862e-46", "7.0064923216240863e-46", "1.0000000596046447753906250", "1.00000005960464477539062500001",
};

// Every number literal in a JSON text (outside strings).
void json_numbers(const char* text, std::vector<std::string>& out) {
    bool in_string = false;
    for (const char* p = text; *p; ++p) {
        if (in_string) {
            if (*p == '\\' && p[1]) ++p;
            else if (*p == '"') in_string = false;
            continue;
        }
        if (*p == '"') {
            in_string = true;
            continue;
        }
        if (*p == '-' || (*p >= '0' && *p <= '9')) {
            const char* start = p;
            while (p[1] && std::strchr("0123456789+-.eE", p[1])) ++p;
            out.emplace_back(start, static_cast<std::size_t>(p - start + 1));
        }
    }
}

}  // namespace

// The corpus runs as three test cases (the first two take nearly all the time, in halves; their tags name
// them for the wasm stage, which runs each in a node process of its own), so they run side by side: 1,040,000+ texts in all, each compared through Tally.
struct Tally {
    Mismatch mismatch;
    std::size_t compared = 0;
    void check(const std::string& text) {
        compare_strtod(text, mismatch);
        ++compared;
    }
};

TEST_CASE("number scan: strtod and strtof agree with the C library on random digit strings and printed doubles", "[corpus-1]") {
    Random random{{20261202}};
    Tally tally;
    for (int i = 0; i < 250000; ++i) tally.check(random_decimal(random));
    for (int i = 0; i < 100000; ++i) {
        const double v = random_finite_double(random);
        tally.check(formatted("%.17g", v));
        tally.check(formatted("%.15g", v));
        tally.check(formatted("%.6g", v));
        tally.check(formatted("%a", v));
        tally.check(formatted("%.16e", v));
    }
    INFO(tally.mismatch.first);
    CHECK(tally.compared == 750000);
    REQUIRE(tally.mismatch.count == 0);
}

TEST_CASE("number scan: strtod and strtof agree with the C library on long mantissas, midpoints and extremes", "[corpus-2]") {
    Random random{{20261203}};
    Tally tally;
    for (int i = 0; i < 100000; ++i) {  // 20-40 digit mantissas over the whole range
        std::string s = random_digits(random, 20 + random.below(21), true);
        s.insert(1, ".");
        tally.check(s + "e" + std::to_string(random.below(660) - 330));
    }
    for (int i = 0; i < 50000; ++i) {  // random doubles' and floats' midpoints and their neighbours
        std::vector<std::string> texts;
        std::uint64_t bits = random.next() & 0x7FFFFFFFFFFFFFFFULL;
        if (random.below(4) == 0) bits &= 0x000FFFFFFFFFFFFFULL;  // denormals
        if (bits < 0x7FEFFFFFFFFFFFFFULL) midpoint_strings(bits, 52, 1023, texts, random);
        const std::uint32_t float_bits = static_cast<std::uint32_t>(random.next()) & 0x7F7FFFFFU;
        midpoint_strings(float_bits, 23, 127, texts, random);
        for (const auto& text : texts) tally.check(text);
    }
    {
        std::vector<std::string> texts;
        power_of_two_strings(texts, random);
        for (int e = -149; e <= 127; ++e) {  // floats
            const std::uint32_t bits = bits_of(std::ldexp(1.0f, e));
            midpoint_strings(bits, 23, 127, texts, random);
            midpoint_strings(bits - 1, 23, 127, texts, random);
        }
        for (std::uint64_t b = 0; b < 3000; ++b) {  // the smallest denormals and the largest doubles
            texts.push_back(formatted("%.17g", double_of(b)));
            texts.push_back(formatted("%.17g", double_of(0x7FEFFFFFFFFFFFFFULL - b)));
            if (b < 200) {
                midpoint_strings(b, 52, 1023, texts, random);
                midpoint_strings(0x7FEFFFFFFFFFFFFEULL - b, 52, 1023, texts, random);
            }
        }
        for (const auto& text : texts) tally.check(text);
    }
    for (const char* text : kSpecialTexts) tally.check(text);
    {  // long digit strings
        tally.check("1" + std::string(10000, '0') + "e-10000");
        tally.check("0." + std::string(5000, '0') + "1e5001");
        tally.check(std::string(3000, '9'));
        tally.check("0." + std::string(3000, '9'));
        tally.check(std::string(400, '1') + "e-700");
        tally.check("2." + std::string(2000, '0') + "1e-324");
        tally.check("2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324");
    }
    INFO("compared " << tally.compared << " texts");
    INFO(tally.mismatch.first);
    CHECK(tally.compared >= 200000);
    REQUIRE(tally.mismatch.count == 0);
}

TEST_CASE("number scan: strtod and strtof agree with the C library after junk suffixes and on the config fixtures") {
    Tally tally;
    // Junk after the number: the end pointer and the value (every 7th corpus text, and the specials).
    {
        const char* const junk[] = {"x", "e", "E", "e+", "e-x", ".", "..", "p3", " ", "ex", "E+z", "_", "(", ",5", "0x", "f", "i"};
        Random again{{77}};
        for (int i = 0; i < 60000; ++i) {
            std::string text = i % 2 ? random_decimal(again) : formatted(again.below(2) ? "%.17g" : "%a", random_finite_double(again));
            tally.check(text + junk[again.below(static_cast<int>(sizeof junk / sizeof junk[0]))]);
        }
        for (const char* text : kSpecialTexts)
            for (const char* tail : junk) tally.check(std::string(text) + tail);
    }
    std::size_t fixture_numbers = 0;
    for (const Fixture& fixture : kFixtures) {
        std::vector<std::string> numbers;
        json_numbers(fixture.json, numbers);
        for (const auto& number : numbers) tally.check(number);
        fixture_numbers += numbers.size();
    }
    INFO("compared " << tally.compared << " texts (" << fixture_numbers << " from the config fixtures)");
    INFO(tally.mismatch.first);
    CHECK(fixture_numbers > 500);
    CHECK(tally.compared >= 60000);
    REQUIRE(tally.mismatch.count == 0);
}

namespace {

// One sscanf call through both implementations: the return value and the bytes stored in two slots.
struct ScanResult {
    int returned;
    unsigned char slots[2][8];
};
template <typename Scan>
ScanResult run_scan(Scan scan, const char* text, const char* format) {
    ScanResult r;
    std::memset(r.slots, 0xA5, sizeof r.slots);
    r.returned = scan(text, format, static_cast<void*>(r.slots[0]), static_cast<void*>(r.slots[1]));
    return r;
}

std::uint64_t slot(const ScanResult& r, int i) {
    std::uint64_t v;
    std::memcpy(&v, r.slots[i], sizeof v);
    return v;
}

// The formats the page's sscanf callers use: ImGui's DataTypeApplyFromText (the data types' scan formats,
// and an integer display format with its flags and width stripped), the window .ini reader, the OpenGL
// backend's version parse, the debug log's id parse; plus the other sizes and letters the stand-in takes.
const char* const kFormats[] = {"%d", "%u", "%lld", "%llu", "%f", "%lf", "%i", "%x", "%X", "%ld", "%lu", "%li",
                                "%lx", "%llx", "%lli", "%e", "%g", "%a", "%E", "%F", "%G", "%A", "%le", "%lg",
                                "Pos=%i,%i", "Size=%i,%i", "Collapsed=%d", "IsChild=%d", "%d.%d", "#version %d",
                                "%d %d", " %d", "%d ", "x%dy", "%f,%f", "%lf%lf"};

const char* const kScanTexts[] = {
    "", " ", "  \t", "0", "-0", "+0", "1", "-1", "+1", "42", "  42", "\n42", "42abc", "abc", "-", "+", "--1", "+-1", "- 1",
    "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "-4294967296",
    "9223372036854775807", "-9223372036854775808", "9223372036854775806", "-9223372036854775807",
    "00012", "0x1f", "0X1F", "-0x1f", "0x", "0xg", "0x7fffffff", "0xffffffff", "0x100000000", "0xffffffffffffffff",
    "017", "08", "09", "0", "1.5", "-1.5", "1e3", "1.5e-3", ".5", "5.", ".", "1e", "1e+", "1ex", "0x1p3", "0x1.8",
    "inf", "-inf", "infinity", "nan", "nan()", "nan(x)", "3.4028235e38", "3.5e38", "1e-46", "1e-40", "1.17549435e-38",
    "Pos=10,20", "Pos=-5,7", "Pos=10,", "Pos=10", "Pos=", "Pos=x", "Size=300,200", "Size=0x10,010", "Collapsed=1",
    "Collapsed=0", "IsChild=1", "Collapsed=", "3.0", "3.2 Mesa", "#version 300 es", "#version 100", "#version",
    "#version x", "# version 300", "1 2", "1  2", "1,2", "1.5,2.5", "1.5 2.5", "x5y", "x5", "x", "12.5.3", "1e5 ",
};

// Texts on which glibc's sscanf and musl's (the page's, which the stand-in follows) are known to differ:
// an integer past the signed 64-bit range (glibc's strtol saturates, musl wraps modulo 2^64 and gives
// ULLONG_MAX past it: a run of 19+ decimal or 16+ hex digits), "0x" without a hex digit (glibc converts
// the "0", musl refuses), an exponent letter with no digits after it ("1e", "2e+", "0x1p": glibc converts
// the part before it, musl refuses). Natively a mismatch on such a text is not a failure; musl's results
// for them are pinned in the next test, and the wasm run compares every text with musl itself.
bool glibc_differs_from_musl(const std::string& text) {
    int decimal_run = 0;
    int hex_run = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const bool digit = c >= '0' && c <= '9';
        const bool hex = digit || ((c | 32) >= 'a' && (c | 32) <= 'f');
        decimal_run = digit ? decimal_run + 1 : 0;
        hex_run = hex ? hex_run + 1 : 0;
        if (decimal_run >= 19 || hex_run >= 16) return true;
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        const char after_sign = (next == '+' || next == '-') && i + 2 < text.size() ? text[i + 2] : next;
        if (c == '0' && (next | 32) == 'x' && !std::isxdigit(static_cast<unsigned char>(i + 2 < text.size() ? text[i + 2] : '\0'))) return true;
        if (i > 0 && std::isxdigit(static_cast<unsigned char>(text[i - 1])) && ((c | 32) == 'e' || (c | 32) == 'p') &&
            !(after_sign >= '0' && after_sign <= '9'))
            return true;
    }
    return false;
}

}  // namespace

TEST_CASE("number scan: sscanf keeps musl's results where glibc's differ") {
    // Worked out from musl 1.2's vfscanf.c/intscan.c/floatscan.c (Emscripten 3.1.6's libc); the wasm run
    // checks them against that libc too.
    struct Case {
        const char* text;
        const char* format;
        int returned;
        long long value;  // the stored integer, or the float's value times 1 for the float cases
    };
    const Case cases[] = {
        {"-99999999999999999999", "%d", 1, -1},                          // past 2^64: ULLONG_MAX, sign dropped
        {"99999999999999999999", "%lld", 1, -1},
        {"10000000000000000000", "%lld", 1, -8446744073709551616LL},     // 10^19 - 2^64
        {"-9223372036854775809", "%lld", 1, 9223372036854775807LL},      // -(2^63 + 1) mod 2^64
        {"9223372036854775808", "%i", 1, 0},                             // 2^63, low 32 bits
        {"0x8000000000000001", "%lli", 1, -9223372036854775807LL},
        {"0x", "%x", 0, 0}, {"0xg", "%i", 0, 0}, {"-0x", "%X", 0, 0},  // "0x" without a digit
        {"1e", "%f", 0, 0}, {"1e+", "%lf", 0, 0}, {"1ex", "%f", 0, 0}, {"2E-z", "%lf", 0, 0}, {"0x", "%f", 0, 0},
        {"0x1p", "%lf", 0, 0}, {"0x1p+", "%f", 0, 0}, {"infin", "%f", 0, 0}, {"infinit", "%lf", 0, 0},
        {"nan(", "%f", 0, 0}, {"nan(ab", "%lf", 0, 0}, {"in", "%f", 0, 0}, {"na", "%f", 0, 0},
        {"1e5x", "%lf", 1, 100000}, {"inf", "%f", 1, 1}, {"infinity", "%lf", 1, 1}, {"nanx", "%f", 1, 2}, {"nan(ab)", "%lf", 1, 2},
    };
    for (const Case& c : cases) {
        for (int libc = 0; libc < (kLibcIsMusl ? 2 : 1); ++libc) {
            INFO("\"" << c.text << "\" with \"" << c.format << "\"" << (libc ? " (musl)" : " (stand-in)"));
            long long integer = 0x5A5A;
            double real = 5.0;
            float real32 = 5.0f;
            const bool is_float = std::strchr("aefgAEFG", c.format[std::strlen(c.format) - 1]) != nullptr;
            const bool is_double = std::strstr(c.format, "%l") != nullptr;
            void* destination = is_float ? (is_double ? static_cast<void*>(&real) : static_cast<void*>(&real32)) : static_cast<void*>(&integer);
            const int returned = libc ? std::sscanf(c.text, c.format, destination) : scan_sscanf(c.text, c.format, destination);
            CHECK(returned == c.returned);
            if (!is_float) {
                const bool wide = std::strstr(c.format, "ll") != nullptr;
                int narrow;
                std::memcpy(&narrow, &integer, sizeof narrow);  // %d/%i/%x store an int at the start
                const long long stored = wide ? integer : narrow;
                CHECK(stored == (c.returned ? c.value : 0x5A5A));
            } else {
                const double stored = is_double ? real : static_cast<double>(real32);
                if (c.returned == 0) CHECK(stored == 5.0);  // untouched
                else if (c.value == 1) CHECK(std::isinf(stored));
                else if (c.value == 2) CHECK((std::isnan(stored) && !std::signbit(stored)));
                else CHECK(stored == static_cast<double>(c.value));
            }
        }
    }
}

TEST_CASE("number scan: sscanf agrees with the C library on the page's formats") {
    std::vector<std::string> texts(std::begin(kScanTexts), std::end(kScanTexts));
    Random random{{5150}};
    for (int i = 0; i < 3000; ++i) {
        texts.push_back(std::to_string(static_cast<std::int64_t>(random.next()) >> random.below(64)));
        texts.push_back(random_decimal(random).substr(0, 60));
        texts.push_back(formatted(random.below(2) ? "%.9g" : "%.17g", random_finite_double(random)));
        char hex[32];
        std::snprintf(hex, sizeof hex, random.below(2) ? "%" PRIx64 : "0X%" PRIX64, random.next() >> random.below(64));
        texts.push_back(hex);
    }
    Mismatch mismatch;
    std::size_t compared = 0;
    for (const std::string& text : texts)
        for (const char* format : kFormats) {
            const ScanResult libc = run_scan([](const char* t, const char* f, void* a, void* b) { return std::sscanf(t, f, a, b); }, text.c_str(), format);
            const ScanResult ours = run_scan([](const char* t, const char* f, void* a, void* b) { return scan_sscanf(t, f, a, b); }, text.c_str(), format);
            ++compared;
            if ((libc.returned != ours.returned || std::memcmp(libc.slots, ours.slots, sizeof libc.slots) != 0) &&
                !(!kLibcIsMusl && glibc_differs_from_musl(text))) {
                char line[200];
                std::snprintf(line, sizeof line, "format \"%s\" text \"%.60s\": libc %d %016" PRIx64 " %016" PRIx64 ", ours %d %016" PRIx64 " %016" PRIx64, format,
                              text.c_str(), libc.returned, slot(libc, 0), slot(libc, 1), ours.returned, slot(ours, 0), slot(ours, 1));
                mismatch.add(line);
            }
        }
    INFO("compared " << compared << " sscanf calls");
    INFO(mismatch.first);
    REQUIRE(mismatch.count == 0);
}
