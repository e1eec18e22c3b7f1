// Bad input on every core surface, table by table: the quantity parsers, the settings keys that the
// CLI flags, URL state, JS API, stored state and the app's text fields all share, apply_state (which
// must keep the last good scenario), the estimator's overflow limits, config.json and practice answers.
// Each row asserts the exact outcome: the value, or the exact error message naming the field. Sources:
// the README's input-surfaces table (the case list), core/quantity.hpp (the overflow policy: N <= 10^15, b <= 64, factors <= 100), the seed (13B x 2 bytes).
//
// Sections: parse_count · apply_setting per key · apply_state / apply_state_pairs · overflow policy ·
//   printable_excerpt · parse_whole_count · model, format, LoRA, KV and GPU keys · config.json ·
//   parse_answer.
#include <catch_amalgamated.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "answer.hpp"
#include "architecture.hpp"
#include "estimator.hpp"
#include "fit.hpp"
#include "quantity.hpp"
#include "safetensors.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {

constexpr std::size_t kOneMegabyte = 1'000'000;
constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

const std::string kTooLargeCount = "is too large (at most 1000T = 10^15)";
const std::string kUseSuffix = " (use a number with K, M, B or T)";
const std::string kBadGrouping = "is not a number (commas group thousands as in 7,000,000; decimals take a point)";

// One row: the input and either the value it gives or the exact error.
struct CountCase {
    const char* what;
    std::string input;
    std::uint64_t value;  // when error is empty
    std::string error;
};

std::string repeat(const std::string& unit, std::size_t times) {
    std::string out;
    out.reserve(unit.size() * times);
    for (std::size_t i = 0; i < times; ++i) out += unit;
    return out;
}

}  // namespace

TEST_CASE("parse_count: every kind of bad input gives the exact error; odd good input the exact value", "[hardening]") {
    const std::vector<CountCase> cases = {
        // empty and whitespace
        {"empty", "", 0, "is empty"},
        {"spaces", "   ", 0, "is empty"},
        {"tabs and newlines", "\t\n\r\v\f", 0, "is empty"},
        {"surrounding whitespace is ignored", " \t13B\n", 13'000'000'000ULL, ""},
        // signs and zero (zero is a valid count; the params key rejects it, see below)
        {"negative", "-1", 0, "must not be negative"},
        {"negative with suffix", "-13B", 0, "must not be negative"},
        {"negative zero", "-0", 0, "must not be negative"},
        {"plus sign", "+13B", 13'000'000'000ULL, ""},
        {"two plus signs", "++13B", 0, "is not a number"},
        {"zero", "0", 0, ""},
        {"rounds to zero", "0.4", 0, ""},
        {"tiny exponent rounds to zero", "1e-999999999999", 0, ""},
        // NaN and infinity spelled several ways
        {"nan", "nan", 0, "is not a finite number"},
        {"NaN", "NaN", 0, "is not a finite number"},
        {"-nan", "-nan", 0, "is not a finite number"},
        {"nan(payload)", "nan(0x7ff)", 0, "is not a finite number"},
        {"inf", "inf", 0, "is not a finite number"},
        {"-inf", "-inf", 0, "is not a finite number"},
        {"+Infinity", "+Infinity", 0, "is not a finite number"},
        {"INFINITY", "INFINITY", 0, "is not a finite number"},
        {"infinity sign", "\xE2\x88\x9E", 0, "is not a finite number"},
        {"1e999 (inf as a double)", "1e999", 0, kTooLargeCount},
        // overflow: the limit is 10^15 (1000T); above it is an error, never wrapped or clamped
        {"1e30 parameters", "1e30", 0, kTooLargeCount},
        {"the limit exactly", "1000T", 1'000'000'000'000'000ULL, ""},
        {"the limit plus one", "1000000000000001", 0, kTooLargeCount},
        {"2^64", "18446744073709551616", 0, kTooLargeCount},
        {"rounds down to the limit", "1000.0000000000004T", 1'000'000'000'000'000ULL, ""},
        {"huge exponent", "1e99999999999999999999", 0, kTooLargeCount},
        {"zero times a huge exponent", "0e99999999999", 0, ""},
        // rounding is half up, in integers
        {"half rounds up", "2.5", 3, ""},
        {"just below half", "2.4999999999", 2, ""},
        {"exact 6.7e9", "6.7e9", 6'700'000'000ULL, ""},
        {"exponent and suffix", "1E3K", 1'000'000ULL, ""},
        // trailing garbage
        {"trailing word", "13B garbage", 0, "has unexpected text \"B garbage\"" + kUseSuffix},
        {"double suffix", "13BB", 0, "has unexpected text \"BB\"" + kUseSuffix},
        {"percent", "13B%", 0, "has unexpected text \"B%\"" + kUseSuffix},
        {"hex", "0x10", 0, "has unexpected text \"x10\"" + kUseSuffix},
        {"bad exponent", "1e", 0, "is not a number (bad exponent)"},
        {"only a point", ".", 0, "is not a number"},
        {"control character shown as ?", std::string("13\x01" "B"), 0, "has unexpected text \"?B\"" + kUseSuffix},
        {"NUL byte shown as ?", std::string("13\0B", 4), 0, "has unexpected text \"?B\"" + kUseSuffix},
        {"garbage cut on a character boundary", "13B\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xE2\x82\xAC", 0,
         "has unexpected text \"B\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9...\"" + kUseSuffix},
        {"invalid UTF-8 shown as ?", "13\xFF\xFE", 0, "has unexpected text \"??\"" + kUseSuffix},
        // commas group thousands only; a decimal comma must not read as a bigger number
        {"thousands separators", "7,000,000,000", 7'000'000'000ULL, ""},
        {"decimal comma", "1,5B", 0, kBadGrouping},
        {"short group", "1,00", 0, kBadGrouping},
        {"long first group", "1000,000", 0, kBadGrouping},
        {"double comma", "1,,000", 0, "is not a number"},
        {"trailing comma", "1,000,", 0, "is not a number"},
        {"leading comma", ",100", 0, "is not a number"},
        // unicode digits and lookalikes: none is a digit here
        {"fullwidth digits", "\xEF\xBC\x91\xEF\xBC\x93" "B", 0, "is not a number"},
        {"Arabic-Indic digits", "\xD9\xA1\xD9\xA3" "B", 0, "is not a number"},
        {"U+2212 minus sign reads as a minus", "\xE2\x88\x92" "13B", 0, "must not be negative"},
        {"non-breaking space reads as a space", "13\xC2\xA0" "B", 13'000'000'000ULL, ""},
        {"narrow no-break space reads as a space", "70\xE2\x80\xAF" "billion", 70'000'000'000ULL, ""},
        {"thin space reads as a space", "\xE2\x80\x89" "7B", 7'000'000'000ULL, ""},
        {"zero-width space is not a space", "13\xE2\x80\x8B" "B", 0, "has unexpected text \"\xE2\x80\x8B" "B\"" + kUseSuffix},
        {"letter O for zero", "1O0", 0, "has unexpected text \"O0\"" + kUseSuffix},
        {"only the letter O", "O", 0, "is not a number"},
        {"Cyrillic B", "13\xD0\x92", 0, "has unexpected text \"\xD0\x92\"" + kUseSuffix},
        // 1 MB strings
        {"1 MB of digits", std::string(kOneMegabyte, '9'), 0, kTooLargeCount},
        {"1 MB of leading zeros", std::string(kOneMegabyte, '0') + "13B", 13'000'000'000ULL, ""},
        {"1 MB of decimals", "0." + std::string(kOneMegabyte, '0') + "1", 0, ""},
        {"1 MB of spaces", std::string(kOneMegabyte, ' '), 0, "is empty"},
        {"1 MB of letters", std::string(kOneMegabyte, 'x'), 0, "is not a number"},
        {"13B then 1 MB of garbage", "13B" + std::string(kOneMegabyte, 'x'), 0, "has unexpected text \"Bxxxxxxxxxxx...\"" + kUseSuffix},
        {"1 MB of exponent digits", "1e" + std::string(kOneMegabyte, '9'), 0, kTooLargeCount},
    };
    for (const CountCase& c : cases) {
        INFO(c.what);
        const Expected<std::uint64_t> got = parse_count(c.input);
        if (c.error.empty()) {
            REQUIRE(got.ok());
            CHECK(*got == c.value);
        } else {
            REQUIRE_FALSE(got.ok());
            CHECK(got.error() == c.error);
        }
    }
}

// The settings keys: the CLI's --key value, the URL's key=value, the app's text fields and the JS API
// all go through apply_setting, so these rows are the exact errors every surface shows.
TEST_CASE("apply_setting: each key rejects bad values with an error naming the key", "[hardening]") {
    struct SettingCase {
        std::string key;
        std::string value;
        std::string error;  // "" = accepted
    };
    const std::vector<SettingCase> cases = {
        {"params", "", "params: is empty"},
        {"params", "0", "params: must be greater than zero"},
        {"params", "0.4", "params: must be greater than zero"},
        {"params", "-7B", "params: must not be negative"},
        {"params", "1e30", "params: " + kTooLargeCount},
        {"params", "7B", ""},
        {"bytes", "", "bytes: is empty"},
        {"bytes", "  ", "bytes: is empty"},
        {"bytes", "0", "bytes: must be greater than zero"},
        {"bytes", "0.0000004", "bytes: must be greater than zero"},
        {"bytes", "0.0000005", ""},
        {"bytes", "-2", "bytes: must not be negative"},
        {"bytes", "nan", "bytes: is not a finite number"},
        {"bytes", "-Infinity", "bytes: is not a finite number"},
        {"bytes", "64", ""},
        {"bytes", "64.000001", "bytes: is too large (at most 64)"},
        {"bytes", "1e999", "bytes: is too large (at most 64)"},
        {"bytes", "2B", "bytes: has unexpected text \"B\""},
        {"bytes", "2 bytes", "bytes: has unexpected text \"bytes\""},
        {"bytes", "0,5", "bytes: " + kBadGrouping},
        {"bytes", "\xEF\xBC\x92", "bytes: is not a number"},
        {"bytes", std::string(kOneMegabyte, '1'), "bytes: is too large (at most 64)"},
        {"overhead", "0.99", "overhead: must be at least 1 (it multiplies the weights)"},
        {"overhead", "0", "overhead: must be greater than zero"},
        {"overhead", "1", ""},
        {"overhead", "100", ""},
        {"overhead", "100.5", "overhead: is too large (at most 100)"},
        {"overhead", "-1.2", "overhead: must not be negative"},
        {"overhead", "inf", "overhead: is not a finite number"},
        {"k", "0", ""},
        {"k", "-0", "k: must not be negative"},
        {"k", "101", "k: is too large (at most 100)"},
        {"k", "3x", "k: has unexpected text \"x\""},
        {"state-bytes", "0", "state-bytes: must be greater than zero"},
        {"state-bytes", "65", "state-bytes: is too large (at most 64)"},
        {"trainable", "all", ""},
        {"trainable", " all ", ""},
        {"trainable", "ALL", "trainable: is not a number (a count such as 1B, or a percentage such as 7.7%)"},
        {"trainable", "100%", ""},
        {"trainable", "50 %", ""},
        {"trainable", "101%", "trainable: is more than 100%"},
        {"trainable", "%", "trainable: is empty"},
        {"trainable", "-5%", "trainable: must not be negative"},
        {"trainable", "nan%", "trainable: is not a finite number"},
        {"trainable", "1e30", "trainable: " + kTooLargeCount + " (a count such as 1B, or a percentage such as 7.7%)"},
        {"trainable", "0", ""},
        {"colour", "blue", "unknown setting \"colour\""},
        {"", "1", "unknown setting \"\""},
        {"a\nb", "1", "unknown setting \"a?b\""},
        {"PARAMS", "7B", "unknown setting \"PARAMS\""},
        {std::string(kOneMegabyte, 'k'), "1", "unknown setting \"" + std::string(40, 'k') + "...\""},
    };
    for (const SettingCase& c : cases) {
        INFO("key " << c.key.substr(0, 40) << ", value " << c.value.substr(0, 40));
        Scenario scenario;
        const Scenario before = scenario;
        const Expected<bool> applied = apply_setting(scenario, c.key, c.value);
        if (c.error.empty()) {
            CHECK(applied.ok());
        } else {
            REQUIRE_FALSE(applied.ok());
            CHECK(applied.error() == c.error);
            // A rejected value leaves the scenario as it was.
            CHECK(to_state(scenario) == to_state(before));
        }
    }
}

// URL state, stored state and the JS API: apply_state keeps every good pair, reports each bad one, and returns the base unchanged when the combination does not validate. The app's
// "keeps the last valid figures" rests on this: the base is the last good scenario.
TEST_CASE("apply_state: bad links keep the last good scenario and name each problem", "[hardening]") {
    Scenario base;  // the last good scenario on screen: 70B
    base.param_count = 70'000'000'000ULL;
    struct StateCase {
        const char* what;
        std::string state;
        std::uint64_t param_count;           // of the resulting scenario
        std::vector<std::string> problems;   // exact, in order
    };
    const std::vector<StateCase> cases = {
        {"empty", "", 70'000'000'000ULL, {}},
        {"only a hash", "#", 70'000'000'000ULL, {}},
        {"only separators", "&&&", 70'000'000'000ULL, {}},
        {"key without value", "params", 70'000'000'000ULL, {"params: is empty"}},
        {"value without key", "=13B", 70'000'000'000ULL, {"unknown setting \"\""}},
        {"two equals signs", "params=13B=14B", 70'000'000'000ULL, {"params: has unexpected text \"B=14B\"" + kUseSuffix}},
        {"bad escape kept as text", "params=%ZZ", 70'000'000'000ULL, {"params: is not a number"}},
        {"escape cut short", "params=7B%2", 70'000'000'000ULL, {"params: has unexpected text \"B%2\"" + kUseSuffix}},
        {"decoded once only", "params=%2537", 70'000'000'000ULL, {"params: is not a number"}},
        {"encoded plus sign", "params=%2B7B", 7'000'000'000ULL, {}},
        {"plus is a space", "params=7+billion", 7'000'000'000ULL, {}},
        {"NUL in a value", "params=13%00B", 70'000'000'000ULL, {"params: has unexpected text \"?B\"" + kUseSuffix}},
        {"newline in a key", "x%0Ay=1", 70'000'000'000ULL, {"unknown setting \"x?y\""}},
        {"1e30 parameters keeps the base", "params=1e30", 70'000'000'000ULL, {"params: " + kTooLargeCount}},
        {"NaN keeps the base", "params=NaN&bytes=-inf", 70'000'000'000ULL, {"params: is not a finite number", "bytes: is not a finite number"}},
        {"duplicate keys: the last good value wins", "params=7B&params=13B", 13'000'000'000ULL, {}},
        {"duplicate keys: a bad repeat is skipped", "params=7B&params=banana", 7'000'000'000ULL, {"params: is not a number"}},
        {"good and bad pairs", "params=7B&colour=blue&bytes=abc", 7'000'000'000ULL,
         {"unknown setting \"colour\"", "bytes: is not a number"}},
        {"an invalid combination returns the base", "params=1000&trainable=2000", 70'000'000'000ULL,
         {"trainable: 2,000 is more than the 1,000 parameters of the model"}},
        {"a leading ?", "?params=7B", 7'000'000'000ULL, {}},
        {"a second hash is part of the key", "##params=7B", 70'000'000'000ULL, {"unknown setting \"#params\""}},
        {"unicode digits", "params=%EF%BC%91%EF%BC%93B", 70'000'000'000ULL, {"params: is not a number"}},
        {"1 MB value", "params=" + std::string(kOneMegabyte, '9'), 70'000'000'000ULL, {"params: " + kTooLargeCount}},
        {"1 MB of bad pairs: ten listed, the rest counted", repeat("x=1&", kOneMegabyte / 4), 70'000'000'000ULL,
         {"unknown setting \"x\"", "unknown setting \"x\"", "unknown setting \"x\"", "unknown setting \"x\"",
          "unknown setting \"x\"", "unknown setting \"x\"", "unknown setting \"x\"", "unknown setting \"x\"",
          "unknown setting \"x\"", "unknown setting \"x\"", "and 249990 more bad settings (not listed)"}},
        {"1 MB of good pairs", repeat("params=7B&", kOneMegabyte / 10), 7'000'000'000ULL, {}},
    };
    const Estimate base_estimate = *estimate(base);
    REQUIRE(base_estimate.weight_bytes == 140'000'000'000ULL);  // 70B x 2 bytes (seed README table)
    for (const StateCase& c : cases) {
        INFO(c.what);
        const StateResult result = apply_state(base, c.state);
        CHECK(result.problems == c.problems);
        CHECK(result.scenario.param_count == c.param_count);
        CHECK(result.combination_rejected == (std::string(c.what).find("returns the base") != std::string::npos));
        // Whatever came in, the scenario estimates: the UI never has nothing (or NaN) to show.
        const Expected<Estimate> figures = estimate(result.scenario);
        REQUIRE(figures.ok());
        if (c.param_count == base.param_count && !c.problems.empty())
            CHECK(figures->weight_bytes == base_estimate.weight_bytes);
    }
}

// The CLI's --state is strict (cli/state_arg.hpp, table in tests/cli/cli_hardening.sh): it reads the pairs
// with apply_state_pairs, whose problems are apply_state's but which leaves the combination to the caller
// (flags may follow --state), and fails on the first problem.
TEST_CASE("apply_state_pairs: the same problems, the combination left to the caller", "[hardening]") {
    Scenario base;
    base.param_count = 70'000'000'000ULL;
    const StateResult bad = apply_state_pairs(base, "params=7B&colour=blue&bytes=abc");
    CHECK(bad.problems == std::vector<std::string>{"unknown setting \"colour\"", "bytes: is not a number"});
    CHECK(bad.scenario.param_count == 7'000'000'000ULL);
    // trainable 2,000 of 1,000 parameters: kept as read, not rejected; estimate() names it.
    const StateResult combination = apply_state_pairs(base, "params=1000&trainable=2000");
    CHECK(combination.problems.empty());
    CHECK_FALSE(combination.combination_rejected);
    CHECK(combination.scenario.param_count == 1000);
    CHECK(estimate(combination.scenario).error() == "trainable: 2,000 is more than the 1,000 parameters of the model");
}

TEST_CASE("overflow policy: the largest accepted inputs give exact figures below 2^64", "[hardening]") {
    // Every input at its limit: N = 10^15, b = 64, overhead 100, k = 100, 64 bytes per value.
    const StateResult r = apply_state(Scenario{}, "params=1000T&bytes=64&overhead=100&k=100&state-bytes=64");
    REQUIRE(r.problems.empty());
    const Expected<Estimate> e = estimate(r.scenario);
    REQUIRE(e.ok());
    CHECK(e->weight_bytes == 64'000'000'000'000'000ULL);               // 10^15 x 64
    CHECK(e->inference_bytes == 6'400'000'000'000'000'000ULL);         // x 100
    CHECK(e->gradient_optimizer_bytes == 6'400'000'000'000'000'000ULL);  // 10^15 x 100 x 64
    CHECK(e->training_bytes == 6'464'000'000'000'000'000ULL);          // below 2^64 - 1 = 1.8e19
    CHECK(e->training_bytes < kU64Max);
    CHECK(format_gb(e->training_bytes) == "6464000000 GB");
    // Fractional inputs are exact too: 1000T x 0.000001 bytes = 10^9 bytes, 7 x 0.5 = 3.5 -> 4 bytes.
    Scenario tiny;
    tiny.param_count = 7;
    tiny.bytes_per_param = Decimal{500'000};
    CHECK(estimate(tiny)->weight_bytes == 4);  // rounded half up once
    tiny.param_count = 1;
    tiny.bytes_per_param = Decimal{1};
    CHECK(estimate(tiny)->weight_bytes == 0);  // 0.000001 bytes rounds to 0, never negative
}

TEST_CASE("overflow policy: values beyond the limits set directly are errors naming the field", "[hardening]") {
    struct LimitCase {
        const char* what;
        void (*change)(Scenario&);
        const char* error;
    };
    const std::vector<LimitCase> cases = {
        {"params 10^15 + 1", [](Scenario& s) { s.param_count = kMaxParamCount + 1; }, "params: is too large (at most 1000T = 10^15)"},
        {"params 2^64 - 1", [](Scenario& s) { s.param_count = kU64Max; }, "params: is too large (at most 1000T = 10^15)"},
        {"params 0", [](Scenario& s) { s.param_count = 0; }, "params: must be greater than zero"},
        {"bytes 0", [](Scenario& s) { s.bytes_per_param = Decimal{0}; }, "bytes: must be greater than zero"},
        {"bytes 2^64 - 1 micros", [](Scenario& s) { s.bytes_per_param = Decimal{kU64Max}; }, "bytes: is too large (at most 64)"},
        {"overhead below 1", [](Scenario& s) { s.overhead_factor = Decimal{999'999}; }, "overhead: must be at least 1 (it multiplies the weights)"},
        {"overhead 2^64 - 1 micros", [](Scenario& s) { s.overhead_factor = Decimal{kU64Max}; }, "overhead: is too large (at most 100)"},
        {"k 2^64 - 1 micros", [](Scenario& s) { s.values_per_trainable = Decimal{kU64Max}; }, "k: is too large (at most 100)"},
        {"state-bytes 0", [](Scenario& s) { s.bytes_per_value = Decimal{0}; }, "state-bytes: must be greater than zero"},
        {"state-bytes 64.000001", [](Scenario& s) { s.bytes_per_value = Decimal{64'000'001}; }, "state-bytes: is too large (at most 64)"},
        {"trainable 2^64 - 1", [](Scenario& s) { s.trainable = TrainableSpec::exact(kU64Max); },
         "trainable: 18,446,744,073,709,551,615 is more than the 13,000,000,000 parameters of the model"},
        {"trainable 100.000001%", [](Scenario& s) { s.trainable = TrainableSpec::percent_of(Decimal{100'000'001}); },
         "trainable: 100.000001% is more than 100%"},
    };
    for (const LimitCase& c : cases) {
        INFO(c.what);
        Scenario s;
        c.change(s);
        const Expected<Estimate> e = estimate(s);
        REQUIRE_FALSE(e.ok());
        CHECK(e.error() == c.error);
    }
}

TEST_CASE("printable_excerpt: one printable line of valid UTF-8, cut on a character boundary", "[hardening]") {
    CHECK(printable_excerpt("", 12) == "");
    CHECK(printable_excerpt("abc", 12) == "abc");
    CHECK(printable_excerpt("abcdefghijklm", 12) == "abcdefghijkl...");
    CHECK(printable_excerpt("a\nb\tc\x7F", 12) == "a?b?c?");
    CHECK(printable_excerpt("\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC", 4) == "\xE2\x82\xAC...");
    CHECK(printable_excerpt("\xC3", 12) == "?");                   // cut-off sequence
    CHECK(printable_excerpt("\xC0\xAF", 12) == "??");              // overlong '/'
    CHECK(printable_excerpt("\xED\xA0\x80", 12) == "???");         // a UTF-16 surrogate
    CHECK(printable_excerpt("\xF4\x90\x80\x80", 12) == "????");    // above U+10FFFF
    CHECK(printable_excerpt("\xF0\x9F\x98\x80", 12) == "\xF0\x9F\x98\x80");  // an emoji is kept whole
}

TEST_CASE("parse_whole_count: GPUs, batch, ranks and stages come whole; fractions are errors, not rounded", "[hardening]") {
    CHECK(*parse_whole_count("8") == 8);
    CHECK(*parse_whole_count("1.5K") == 1'500);
    CHECK(*parse_whole_count("4096.000") == 4'096);
    CHECK(*parse_whole_count("1e3") == 1'000);
    CHECK(parse_whole_count("1.5").error() == "must be a whole number");
    CHECK(parse_whole_count("0.5").error() == "must be a whole number");
    CHECK(parse_whole_count("1e-7").error() == "must be a whole number");
    CHECK(parse_whole_count("1e30").error() == kTooLargeCount);
    CHECK(parse_whole_count("").error() == "is empty");
    CHECK(*parse_count("1.5") == 2);  // parse_count itself still rounds half up (parameter counts)
}

// The settings for the model, formats, recipes, LoRA, KV cache and GPUs:
// the same surfaces as above, so the same kind of table.
TEST_CASE("apply_setting: the model, format, LoRA, KV-cache and GPU keys reject bad values exactly", "[hardening]") {
    const std::string kFormats = "(fp32, fp16, bf16, fp8, int8, int4, gptq, awq, mxfp4, nf4, nf4_dq, q8_0, q6_k, q5_k, q5_k_m, q4_k, q4_k_m, "
                                 "q4_0, q3_k, q3_k_m, q2_k, or bits such as 4.65bpw)";
    const std::string kRecipes = "seed-adam, adamw-mixed, adamw-mixed-fp32-grads, adam-fp32, adam-8bit, sgd, sgd-momentum";
    const std::string kGpus = "(rtx-3060, rtx-3090, rtx-4060-ti-16gb, rtx-4070, rtx-4080, rtx-4090, rtx-5080, rtx-5090, rtx-a6000, l40s, t4, l4, v100-16gb, v100-32gb, a100-40gb, "
                              "a100-80gb, h100-80gb, h200, mi300x, apple-16gb, apple-32gb, apple-36gb, apple-64gb, apple-96gb, apple-128gb, "
                              "apple-192gb; or give --gpu-memory)";
    struct KeyCase {
        const char* key;
        std::string value;
        std::string error;  // "" = accepted
    };
    const std::vector<KeyCase> cases = {
        {"model", "nope", "model: unknown model \"nope\" (see --list-models)"},
        {"model", "llama-2-7", "model: unknown model \"llama-2-7\" (did you mean llama-2-7b? see --list-models)"},
        {"model", "a\nb", "model: unknown model \"a?b\" (see --list-models)"},
        {"model", "LLAMA-2-7B", ""},
        {"dtype", "fp17", "dtype: \"fp17\" is not a known format " + kFormats},
        {"dtype", "a\nb", "dtype: \"a?b\" is not a known format " + kFormats},
        {"dtype", "\xFF", "dtype: \"?\" is not a known format " + kFormats},
        {"dtype", "0bpw", "dtype: custom bits per weight must be greater than zero"},
        {"dtype", "1e30bpw", "dtype: custom bits per weight is too large (at most 64)"},
        {"dtype", "nanbpw", "dtype: custom bits per weight is not a finite number"},
        {"dtype", "4.65bpw", ""},
        {"dtype", "-4bpw", "dtype: custom bits per weight must not be negative"},
        {"dtype", "4.65BPW", ""},
        {"recipe", "adamx", "recipe: \"adamx\" is not a known recipe (" + kRecipes + ")"},
        {"recipe", "", "recipe: is empty (one of " + kRecipes + ")"},
        {"lora-rank", "7.5", "lora-rank: must be a whole number"},
        {"lora-rank", "-1", "lora-rank: must not be negative"},
        {"lora-rank", "1e30", "lora-rank: is too large (at most 65,536)"},
        {"lora-rank", "nan", "lora-rank: is not a finite number"},
        {"lora-targets", "", "lora-targets: is empty (e.g. q,v or q,k,v,o,gate,up,down or all-linear)"},
        {"lora-targets", "q,,v", "lora-targets: has an empty name (write names separated by commas: q,v)"},
        {"lora-targets", "q;v", "lora-targets: \"q;v\" is not a module name"},
        {"qlora", "maybe", "qlora: \"maybe\" is not true or false"},
        {"context", "-1", "context: must not be negative"},
        {"context", "1e30", "context: is too large (at most 100M tokens)"},
        {"context", "8.5K", "context: must be a whole number"},
        {"context", "inf", "context: is not a finite number"},
        {"context", "128K", ""},
        {"batch", "0", "batch: must be at least 1"},
        {"batch", "0.5", "batch: must be a whole number"},
        {"batch", "1000001", "batch: is too large (at most 1,000,000)"},
        {"kv-dtype", "nan", "kv-dtype: \"nan\" is not a known format " + kFormats},
        {"kv-dtype", "mxfp4", "kv-dtype: \"mxfp4\" is a weight format, not a KV-cache one"},
        {"kv-dtype", "gptq", "kv-dtype: \"gptq\" is a weight format, not a KV-cache one"},
        {"inference-mode", "fast", "inference-mode: \"fast\" is not simple or detailed"},
        {"gpu", "\xEF\xBC\xA8" "100", "gpu: \"\xEF\xBC\xA8" "100\" is not a known GPU " + kGpus},
        {"gpu", "H100", ""},
        {"gpus", "0", "gpus: must be at least 1"},
        {"gpus", "2.5", "gpus: must be a whole number"},
        {"gpus", "1e30", "gpus: is too large (at most 100,000)"},
        {"zero", "4", "zero: must be 0, 1, 2 or 3"},
        {"zero", "1.5", "zero: must be 0, 1, 2 or 3"},
        {"tensor-split", "3,0", "tensor-split: part 2 must be greater than zero"},
        {"tensor-split", "3,,1", "tensor-split: part 2 is empty"},
        {"tensor-split", "3,-1", "tensor-split: part 2 must not be negative"},
        {"tensor-split", "nan,1", "tensor-split: part 1 is not a finite number"},
        {"tensor-split", "1e30,1", "tensor-split: part 1 is too large (at most 1000000)"},
        {"tensor-split", std::string(129, '1') + ",1", "tensor-split: part 1 is too large (at most 1000000)"},
        {"tensor-split", "3,1", ""},
        {"tensor-split", "even", ""},  // was silently stage 2 before parse_whole_count
        {"zero", "nan", "zero: must be 0, 1, 2 or 3"},
        {"gpu-memory", "80", "gpu-memory: needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB"},
        {"gpu-memory", "1e30GB", "gpu-memory: is too large (at most 1 PiB)"},
        {"gpu-memory", "1025TiB", "gpu-memory: is too large (at most 1 PiB)"},
        {"gpu-memory", "nanGB", "gpu-memory: is not a finite number"},
        {"gpu-memory", "-80GB", "gpu-memory: must not be negative"},
        {"gpu-memory", "0.0000001GB", "gpu-memory: must be greater than zero"},
        {"gpu-memory", "80 GB", ""},
        {"training-mode", "full", "training-mode: \"full\" is not simple or detailed"},
        {"seq-len", "1e12", "seq-len: is too large (at most 100M tokens)"},
        {"seq-len", "0", "seq-len: must be at least 1"},
        {"seq-len", "2048.5", "seq-len: must be a whole number"},
        {"seq-len", "8K", ""},
        {"micro-batch", "0", "micro-batch: must be at least 1"},
        {"micro-batch", "1e30", "micro-batch: is too large (at most 1,000,000)"},
        {"recompute", "partial", "recompute: \"partial\" is not none, selective, full or op-selective"},
        {"recompute", "FULL", ""},
        {"attention", "sdpa2", "attention: \"sdpa2\" is not flash or eager"},
        {"loss", "fused", "loss: \"fused\" is not full, chunked or half"},
        {"tp", "0", "tp: must be at least 1"},
        {"tp", "1.5", "tp: must be a whole number"},
        {"tp", "1e30", "tp: is too large (at most 100,000)"},
        {"sp", "maybe", "sp: \"maybe\" is not true or false"},
        {"pp", "-2", "pp: must not be negative"},
        {"framework-overhead", "1", "framework-overhead: needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB (or auto)"},
        {"framework-overhead", "-1GiB", "framework-overhead: must not be negative (or auto)"},
        {"framework-overhead", "1e30GB", "framework-overhead: is too large (at most 1 PiB) (or auto)"},
        {"framework-overhead", "0", ""},
        {"framework-overhead", "AUTO", ""},
        {"allocator-margin", "101%", "allocator-margin: is too large (at most 100%)"},
        {"allocator-margin", "-5", "allocator-margin: must not be negative"},
        {"allocator-margin", "nan%", "allocator-margin: is not a finite number"},
        {"allocator-margin", "12.5%", ""},
    };
    for (const KeyCase& c : cases) {
        INFO("key " << c.key << ", value " << c.value);
        Scenario scenario;
        const std::string before = to_state(scenario);
        const Expected<bool> applied = apply_setting(scenario, c.key, c.value);
        if (c.error.empty()) {
            CHECK(applied.ok());
        } else {
            REQUIRE_FALSE(applied.ok());
            CHECK(applied.error() == c.error);
            CHECK(to_state(scenario) == before);
        }
    }
}

// config.json as the CLI's --config file and the app's paste / drop give it to core (core/architecture.hpp).
TEST_CASE("training settings: combinations that cannot run give an error naming the key", "[hardening][training]") {
    // Llama-2-7b: 32 heads, 32 layers. Each combination is rejected as a whole; the scenario stays the base.
    struct ComboCase {
        const char* state;
        std::string error;
    };
    const std::vector<ComboCase> cases = {
        {"model=llama-2-7b&training-mode=detailed&tp=3", "tp: 3 does not divide the model's 32 attention heads (each tensor-parallel rank holds whole heads)"},
        {"model=llama-2-7b&training-mode=detailed&pp=40&gpus=40", "pp: 40 pipeline stages is more than the model's 32 layers (each stage needs at least one)"},
        {"model=llama-2-7b&training-mode=detailed&pp=3&gpus=3", "pp: 3 does not divide the model's 32 layers (1F1B stages hold equal numbers of layers, as Megatron-LM requires)"},
        {"model=llama-2-7b&training-mode=detailed&tp=2", "gpus: 1 GPU is not a multiple of tp × pp = 2 (the GPUs of one model replica); set --gpus to a multiple of 2"},
        {"training-mode=detailed", "training-mode: detailed needs a model architecture (--model or --config): the activations need its layers, hidden size, FFN width and gating, KV heads, vocabulary and dropout"},
        // 10^8 tokens with eager attention: 32 heads x 10^16 scores x 2 bytes per layer is far beyond 1 EiB.
        {"model=llama-2-7b&training-mode=detailed&seq-len=100000000&attention=eager", "seq-len: the activations come to more than 1 EiB; lower seq-len or micro-batch"},
        {"model=llama-2-7b&gpu=rtx-4090&tp=5", "tp: 5 does not divide the model's 32 attention heads (each tensor-parallel rank holds whole heads)"},
    };
    for (const ComboCase& c : cases) {
        INFO(c.state);
        const StateResult r = apply_state(Scenario{}, c.state);
        CHECK(r.combination_rejected);
        REQUIRE(r.problems.size() == 1);
        CHECK(r.problems[0] == c.error);
        CHECK(to_state(r.scenario) == "params=13B");  // the base, the seed's scenario
    }
    // The largest accepted run: 10^8 tokens x 10^6 sequences with flash attention is an error, not a wrapped figure.
    const StateResult huge = apply_state(Scenario{}, "model=llama-2-7b&training-mode=detailed&seq-len=100000000&micro-batch=1000000");
    CHECK(huge.problems == std::vector<std::string>{"seq-len: the activations come to more than 1 EiB; lower seq-len or micro-batch"});
    // 10^8 tokens, one sequence, flash, full recompute: a real figure below 2^64.
    const StateResult long_ok = apply_state(Scenario{}, "model=llama-2-7b&training-mode=detailed&seq-len=100000000&recompute=full");
    REQUIRE(long_ok.problems.empty());
    const Estimate e = estimate(long_ok.scenario).value();
    CHECK(e.training_peak_bytes > e.training_activation_bytes);
    CHECK(e.training_activation_bytes == 32ULL * 2 * 100'000'000 * 4096 + e.training_activations.recompute_live_bytes +
                                             e.training_activations.outside_layers_bytes);
}

TEST_CASE("config.json: truncated, mistyped, duplicated, deep and huge configs give exact outcomes", "[hardening]") {
    // A Llama-2-7B-shaped config (fields from meta-llama/Llama-2-7b-hf config.json): 6,738,415,616 parameters.
    const std::string head = R"({"model_type":"llama","num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008)";
    const std::string llama = head + R"(,"hidden_size":4096})";
    auto with_hidden = [&](const std::string& value) { return head + R"(,"hidden_size":)" + value + "}"; };
    std::string deep_objects;
    for (int i = 0; i < 100'000; ++i) deep_objects += "{\"a\":";
    deep_objects += "1" + std::string(100'000, '}');
    struct ConfigCase {
        const char* what;
        std::string json;
        std::uint64_t total_count;  // when error is empty
        std::string error;
    };
    const std::vector<ConfigCase> cases = {
        {"the reference config", llama, 6'738'415'616ULL, ""},
        {"empty", "", 0, "config.json: is empty"},
        {"whitespace", " \n\t ", 0, "config.json: is empty"},
        {"truncated halfway", llama.substr(0, 60), 0, "config.json: not valid JSON (truncated or malformed) at byte 61"},
        {"closing brace missing", llama.substr(0, llama.size() - 1), 0,
         "config.json: not valid JSON (truncated or malformed) at byte " + std::to_string(llama.size())},
        {"trailing garbage", llama + " x", 0, "config.json: not valid JSON (truncated or malformed) at byte " + std::to_string(llama.size() + 2)},
        {"a list, not an object", "[1,2]", 0, "config.json: must be a JSON object ({...})"},
        {"null", "null", 0, "config.json: must be a JSON object ({...})"},
        // The byte named is where the bad token starts, counting from 1.
        {"NaN literal", with_hidden("NaN"), 0, "config.json: not valid JSON (truncated or malformed) at byte " + std::to_string(head.size() + 16)},
        {"Infinity literal", with_hidden("Infinity"), 0, "config.json: not valid JSON (truncated or malformed) at byte " + std::to_string(head.size() + 16)},
        {"comment", "// x\n" + llama, 0, "config.json: not valid JSON (truncated or malformed) at byte 1"},
        {"invalid UTF-8 in a string", R"({"model_type":"ll)" "\xFF" R"(ama"})", 0, "config.json: not valid JSON (truncated or malformed) at byte 18"},
        {"number as a string", with_hidden("\"4096\""), 0, "hidden_size: must be a number (got a string)"},
        {"boolean", with_hidden("true"), 0, "hidden_size: must be a number (got true/false)"},
        {"list", with_hidden("[4096]"), 0, "hidden_size: must be a number (got a list)"},
        {"null value counts as missing", with_hidden("null"), 0, "hidden_size: is missing"},
        {"missing", head + "}", 0, "hidden_size: is missing"},
        {"fraction", with_hidden("4096.5"), 0, "hidden_size: must be a whole number"},
        {"whole float is fine", with_hidden("4096.0"), 6'738'415'616ULL, ""},
        {"negative", with_hidden("-4096"), 0, "hidden_size: must not be negative (got -4096)"},
        {"zero", with_hidden("0"), 0, "hidden_size: must be at least 1 (got 0)"},
        {"1e30", with_hidden("1e30"), 0, "hidden_size: must be at most 1,000,000 (got more than 10^18)"},
        {"2^64", with_hidden("18446744073709551616"), 0, "hidden_size: must be at most 1,000,000 (got more than 10^18)"},
        {"model_type a number", R"({"model_type":7})", 0, "model_type: must be a string (got a number)"},
        // Duplicate keys: the last one wins, as Python's json.load (and so transformers) reads them.
        // hidden 8192: 32 x (4 x 8192^2 + 3 x 8192 x 11008 + 2 x 8192) + 2 x 32000 x 8192 + 8192.
        {"duplicate key, last wins", head + R"(,"hidden_size":4096,"hidden_size":8192})", 17'771'798'528ULL, ""},
        {"byte order mark", "\xEF\xBB\xBF" + llama, 6'738'415'616ULL, ""},
        {"layers beyond the limit", R"({"model_type":"llama","hidden_size":4096,"num_hidden_layers":10000000,"num_attention_heads":32,"vocab_size":32000,"intermediate_size":11008})",
         0, "num_hidden_layers: must be at most 10,000 (got 10,000,000)"},
        {"every field at its limit", R"({"model_type":"llama","hidden_size":1000000,"num_hidden_layers":10000,"num_attention_heads":100000,"vocab_size":10000000,"intermediate_size":10000000})",
         0, "config.json: the model has more than 10^15 parameters (1000T is the limit)"},
        {"64 levels deep is parsed", std::string(64, '[') + std::string(64, ']'), 0, "config.json: must be a JSON object ({...})"},
        {"65 levels deep is refused", std::string(65, '[') + std::string(65, ']'), 0, "config.json: nested deeper than 64 levels"},
        {"100,000 nested lists", std::string(100'000, '[') + std::string(100'000, ']'), 0, "config.json: nested deeper than 64 levels"},
        {"100,000 nested objects", deep_objects, 0, "config.json: nested deeper than 64 levels"},
        {"a 10 MB file", llama.substr(0, llama.size() - 1) + R"(,"pad":")" + std::string(10 * 1024 * 1024, 'x') + "\"}", 0,
         "config.json: is larger than 4 MB"},
        {"just under 4 MB", llama.substr(0, llama.size() - 1) + R"(,"pad":")" + std::string(4 * 1024 * 1024 - 200, 'x') + "\"}",
         6'738'415'616ULL, ""},
    };
    for (const ConfigCase& c : cases) {
        INFO(c.what);
        const Expected<ModelSource> source = model_from_config(c.json);
        if (c.error.empty()) {
            REQUIRE(source.ok());
            CHECK(source->counts.total_count == c.total_count);
        } else {
            REQUIRE_FALSE(source.ok());
            CHECK(source.error() == c.error);
        }
    }
    // A model_type with control characters is shown as one printable line.
    const Expected<ModelSource> odd = model_from_config(R"({"model_type":"my\nst\u0000ery","hidden_size":64,"num_hidden_layers":2,)"
                                                        R"("num_attention_heads":4,"vocab_size":100,"intermediate_size":128})");
    REQUIRE(odd.ok());
    CHECK(odd->display_name == "config.json (my?st?ery)");
    REQUIRE(odd->architecture.warnings.size() == 1);
    CHECK(odd->architecture.warnings[0].rfind("model_type \"my?st?ery\" is not known: counted as a Llama-style decoder", 0) == 0);
}

// Practice answers (core/answer.hpp): the learner's text box, the CLI's check --answer and the JS API.
TEST_CASE("parse_answer: bad answers give exact messages; odd good ones exact bytes", "[hardening]") {
    const std::string kNotAmount = " is not an amount of memory; write a number with a unit, e.g. 16.8 GB, 15.65 GiB, 1.68e10 bytes or 16,800 MB";
    const std::string kEmpty = "answer: is empty; write an amount such as 16.8 GB, 15.65 GiB or 1.68e10 bytes";
    const std::string kUnits = "; use GB, GiB, MB, TB or bytes (e.g. 16.8 GB)";
    struct AnswerCase {
        const char* what;
        std::string text;
        std::uint64_t bytes;  // when error is empty
        std::string error;
    };
    const std::vector<AnswerCase> cases = {
        {"empty", "", 0, kEmpty},
        {"whitespace", " \t ", 0, kEmpty},
        {"negative", "-5 GB", 0, "answer: \"-5 GB\" is negative; memory cannot be below zero"},
        {"zero is an answer (a wrong one)", "0 GB", 0, ""},
        {"nan", "nan", 0, "answer: \"nan\"" + kNotAmount},
        {"NaN GB", "NaN GB", 0, "answer: \"NaN GB\"" + kNotAmount},
        {"-nan", "-nan", 0, "answer: \"-nan\" is negative; memory cannot be below zero"},
        {"inf GB", "inf GB", 0, "answer: \"inf GB\"" + kNotAmount},
        {"+Infinity", "+Infinity", 0, "answer: \"+Infinity\"" + kNotAmount},
        {"1e999 GB", "1e999 GB", 0, "answer: \"1e999 GB\" is too large (more than 2^64 bytes)"},
        {"1e30 GB", "1e30 GB", 0, "answer: \"1e30 GB\" is too large (more than 2^64 bytes)"},
        {"2^64 - 1 bytes is the largest", "18446744073709551615 bytes", kU64Max, ""},
        {"2^64 bytes", "18446744073709551616 bytes", 0, "answer: \"18446744073709551616 bytes\" is too large (more than 2^64 bytes)"},
        {"trailing garbage", "16.8 GB!", 0, "answer: \"16.8 GB!\": unknown unit \"GB!\"" + kUnits},
        {"decimal comma", "16,8 GB", 0,
         "answer: \"16,8 GB\": commas separate groups of three digits (16,800 MB); write decimals with a point (16.8 GB)"},
        {"fullwidth digits", "\xEF\xBC\x91\xEF\xBC\x96 GB", 0, "answer: \"\xEF\xBC\x91\xEF\xBC\x96 GB\"" + kNotAmount},
        {"Arabic-Indic digits", "\xD9\xA1\xD9\xA6 GB", 0, "answer: \"\xD9\xA1\xD9\xA6 GB\"" + kNotAmount},
        {"letter O for zero", "1O GB", 0, "answer: \"1O GB\": unknown unit \"O GB\"" + kUnits},
        {"control character", "16\x01 GB", 0, "answer: \"16? GB\": unknown unit \"? GB\"" + kUnits},
        {"1 MB of digits", std::string(kOneMegabyte, '9'), 0,
         "answer: \"" + std::string(40, '9') + "...\" has too many digits (at most 24 significant digits)"},
        {"1 MB of letters", std::string(kOneMegabyte, 'x'), 0, "answer: \"" + std::string(40, 'x') + "...\"" + kNotAmount},
        {"1 MB of trailing spaces", "16.8 GB" + std::string(kOneMegabyte, ' '), 16'800'000'000ULL, ""},
        {"rounds to zero bytes", "0.0000000001 GB", 0, ""},
        {"GiB is binary", "15.65 GiB", 16'804'059'546ULL, ""},  // 15.65 x 2^30, rounded half up
        {"no-break space before the unit", "16.8\xC2\xA0GB", 16'800'000'000ULL, ""},
        {"U+2212 minus is a minus", "\xE2\x88\x92" "5 GB", 0, "answer: \"-5 GB\" is negative; memory cannot be below zero"},
    };
    for (const AnswerCase& c : cases) {
        INFO(c.what);
        const Expected<ParsedAnswer> got = parse_answer(c.text);
        if (c.error.empty()) {
            REQUIRE(got.ok());
            CHECK(got->bytes == c.bytes);
        } else {
            REQUIRE_FALSE(got.ok());
            CHECK(got.error() == c.error);
        }
    }
}

// What fits (core/fit.hpp): a question that has no answer is an error naming the key it is about, never a
// made-up value, and the scenario it was asked of is unchanged.
TEST_CASE("fit: questions without an answer are errors naming their key", "[hardening][fit]") {
    struct FitCase {
        const char* state;
        FitQuestion question;
        std::string error;
    };
    const std::vector<FitCase> cases = {
        {"model=llama-2-7b", {FitQuestionKind::maximize, "context"},
         "context: needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)"},
        {"model=llama-2-70b&gpu=rtx-4090", {FitQuestionKind::maximize, "context"},
         "context: even 1 token needs 139.03 GB per GPU, more than the 25.77 GB of each GPU (the weights alone are 137.95 GB)"},
        {"params=7B&gpu=rtx-4090", {FitQuestionKind::maximize, "context"},
         "context: the KV cache needs a model architecture (--model or --config)"},
        {"model=llama-2-7b&gpu=rtx-4090", {FitQuestionKind::maximize, "batch"},
         "batch: needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context"},
        {"model=llama-2-7b&gpu=rtx-4090", {FitQuestionKind::maximize, "speed"},
         "speed: is not one of context, batch, seq-len, micro-batch"},
        {"params=7B&gpu=rtx-4090", {FitQuestionKind::layers_on_gpu, {}},
         "layers-on-gpu: needs a model architecture (--model, --config or --gguf) to count its layers"},
        {"params=1000T&gpu-memory=1GiB", {FitQuestionKind::minimize_gpus, {}},
         "gpus: nothing fits. Training: no number of GPUs fits at ZeRO stage 0: each GPU keeps 8000000 GB of model states "
         "that the stage does not split. Inference: no number of GPUs fits (at most 100,000)."},
        {"params=1000T&gpu-memory=1GiB", {FitQuestionKind::minimize_bytes, {}},
         "bytes: nothing fits. Training: no named format fits; even Q2_K (GGUF) (2.625 bits) needs 6328125 GB per GPU of "
         "1.07 GB. Inference: no named format fits; even Q2_K (GGUF) (2.625 bits) needs 393750 GB per GPU of 1.07 GB."},
    };
    for (const FitCase& c : cases) {
        const StateResult state = apply_state(Scenario{}, c.state);
        REQUIRE(state.problems.empty());
        const std::string before = to_state(state.scenario);
        const Expected<FitReport> r = answer_fit_question(state.scenario, c.question);
        INFO(c.state);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error() == c.error);
        CHECK(to_state(state.scenario) == before);
    }
    // The panel's catch-all keeps the questions that have answers and names the one that has none.
    const StateResult big = apply_state(Scenario{}, "model=llama-2-70b&gpu=rtx-4090&context=4096");
    const std::vector<FitReport> all = answer_applicable_fit_questions(big.scenario);
    REQUIRE(all.size() >= 4);
    CHECK(all[0].json_key == "context");
    CHECK(all[0].error.rfind("even 1 token needs", 0) == 0);
    CHECK(fit_json(all).rfind("{\"context\":{\"error\":\"even 1 token needs", 0) == 0);
    CHECK(answer_applicable_fit_questions(Scenario{}).empty());  // no GPU: nothing to ask
}

TEST_CASE("errors carry their key apart from the problem, so no caller cuts a prefix off the text", "[hardening]") {
    // A file's whole-file problems are keyed by the file; a field's by the field; the answer's by "answer".
    const Expected<ModelSource> empty = model_from_config("  ");
    REQUIRE_FALSE(empty.ok());
    CHECK(empty.failure().key == "config.json");
    CHECK(empty.failure().problem == "is empty");
    CHECK(empty.error() == "config.json: is empty");
    CHECK(empty.failure().message_without("config.json") == "is empty");
    const Expected<ModelSource> moe = model_from_config(R"({"model_type":"my_moe","hidden_size":64,"num_hidden_layers":2,
        "num_attention_heads":4,"vocab_size":100,"intermediate_size":128,"num_experts":8})");
    REQUIRE_FALSE(moe.ok());
    CHECK(moe.failure().key == "config.json");
    CHECK(moe.failure().problem.rfind("model_type \"my_moe\" is not known", 0) == 0);
    const Expected<ModelSource> field = model_from_config(R"({"hidden_size":-1})");
    REQUIRE_FALSE(field.ok());
    CHECK(field.failure().key == "hidden_size");
    CHECK(field.failure().message_without("config.json") == field.error());  // a field's error stays whole
    const Expected<ParsedAnswer> answer = parse_answer("-5 GB");
    REQUIRE_FALSE(answer.ok());
    CHECK(answer.failure().key == "answer");
    CHECK(answer.failure().problem == "\"-5 GB\" is negative; memory cannot be below zero");
    const Expected<std::uint64_t> length = safetensors_header_length(std::string(8, '\0'), 100);
    REQUIRE_FALSE(length.ok());
    CHECK(length.failure().key == "safetensors");
    CHECK(length.failure().problem == "the header length is 0");
}
