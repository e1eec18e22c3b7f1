// Parsing counts and decimals as people write them, and formatting GB/GiB without float noise.
// Expected values are exact arithmetic (e.g. 31.2e9 / 2^30 = 29.0573... -> 29.06).
#include <catch_amalgamated.hpp>

#include "quantity.hpp"

using namespace llm_memory;

TEST_CASE("parse_count reads the ways people write parameter counts", "[quantity]") {
    CHECK(parse_count("13B").value() == 13'000'000'000ULL);
    CHECK(parse_count("13b").value() == 13'000'000'000ULL);
    CHECK(parse_count("6.7e9").value() == 6'700'000'000ULL);
    CHECK(parse_count("350M").value() == 350'000'000ULL);
    CHECK(parse_count("1.5T").value() == 1'500'000'000'000ULL);
    CHECK(parse_count("70 billion").value() == 70'000'000'000ULL);
    CHECK(parse_count("7,000,000,000").value() == 7'000'000'000ULL);
    CHECK(parse_count("  125m ").value() == 125'000'000ULL);
    CHECK(parse_count("6738415616").value() == 6'738'415'616ULL);
    CHECK(parse_count("6.738415616B").value() == 6'738'415'616ULL);
    CHECK(parse_count("2K").value() == 2'000ULL);
    CHECK(parse_count("0").value() == 0ULL);
    CHECK(parse_count("1.5").value() == 2ULL);  // rounded half up
}

TEST_CASE("parse_count rejects bad text with a message", "[quantity]") {
    CHECK(parse_count("").error() == "is empty");
    CHECK(parse_count("   ").error() == "is empty");
    CHECK(parse_count("-5B").error() == "must not be negative");
    CHECK(parse_count("abc").error() == "is not a number");
    CHECK(parse_count("NaN").error() == "is not a finite number");
    CHECK(parse_count("inf").error() == "is not a finite number");
    CHECK(parse_count("1e30").error() == "is too large (at most 1000T = 10^15)");
    CHECK(parse_count("1e400").error() == "is too large (at most 1000T = 10^15)");
    CHECK(parse_count("13Bx").error().rfind("has unexpected text", 0) == 0);
    CHECK(parse_count("13 apples").error().rfind("has unexpected text \"apples\"", 0) == 0);
    CHECK(parse_count("1,,000").error() == "is not a number");
    CHECK(parse_count("1e").error() == "is not a number (bad exponent)");
    CHECK_FALSE(parse_count("\xd9\xa1\xd9\xa3").ok());  // Arabic-Indic digits are not accepted
}

TEST_CASE("parse_decimal reads factors and byte sizes exactly", "[quantity]") {
    CHECK(parse_decimal("1.2", 100'000'000).value().micros == 1'200'000ULL);
    CHECK(parse_decimal("0.5", 100'000'000).value().micros == 500'000ULL);
    CHECK(parse_decimal("4.5e-1", 100'000'000).value().micros == 450'000ULL);
    CHECK(parse_decimal("0.0000005", 100'000'000).value().micros == 1ULL);  // half up
    CHECK(parse_decimal("2 GB", 100'000'000).error().rfind("has unexpected text", 0) == 0);
    CHECK(parse_decimal("200", 100'000'000).error() == "is too large (at most 100)");
}

TEST_CASE("GB and GiB formatting is exact and labelled", "[quantity]") {
    CHECK(format_gb(26'000'000'000ULL) == "26 GB");
    CHECK(format_gb(31'200'000'000ULL) == "31.2 GB");
    CHECK(format_gib(31'200'000'000ULL) == "29.06 GiB");
    CHECK(format_gib(26'000'000'000ULL) == "24.21 GiB");  // the "24.21 GB" other tools mislabel
    CHECK(format_gib(1ULL << 30) == "1 GiB");
    CHECK(format_gb(16'800'000'000ULL) == "16.8 GB");
    CHECK(format_gib(16'800'000'000ULL) == "15.65 GiB");
    CHECK(format_bytes_decimal(8'388'608ULL) == "8.39 MB");
    CHECK(format_bytes_binary(8'388'608ULL) == "8 MiB");
    CHECK(format_bytes_decimal(999ULL) == "999 bytes");
}

TEST_CASE("a small nonzero figure never prints as 0 GB", "[quantity]") {
    // The Parameters slider starts at 1M: 1M x 2 bytes = 2,000,000 bytes, x 1.2 = 2,400,000 bytes.
    // Two decimals alone printed both as "0 GB", so the page read "the inference total is 0 GB, not 0 GB".
    CHECK(format_gb(2'000'000ULL) == "0.002 GB");
    CHECK(format_gb(2'400'000ULL) == "0.0024 GB");
    CHECK(format_gib(2'000'000ULL) == "0.0019 GiB");  // 2,000,000 / 2^30 = 0.001862...
    // The LoRA gradient of PEFT's rank 8 on q,v of Llama-2-7B: 4,194,304 x 2 bytes = 8,388,608 bytes.
    CHECK(format_gb(8'388'608ULL) == "0.0084 GB");
    CHECK(format_gib(8'388'608ULL) == "0.0078 GiB");  // 2^23 / 2^30 = 0.0078125
    CHECK(format_gb(1ULL) == "0.000000001 GB");
    CHECK(format_gib(1ULL) == "0.00000000093 GiB");  // 2^-30 = 9.31e-10
    CHECK(format_gb(0ULL) == "0 GB");
    // From 0.1 on, two decimals as before (the README's tensor-split example: 0.23 GB short).
    CHECK(format_gb(99'999'999ULL) == "0.1 GB");
    CHECK(format_gb(234'000'000ULL) == "0.23 GB");
    CHECK(format_gb(50'000'000ULL) == "0.05 GB");
    CHECK(format_gb(54'000'000ULL) == "0.054 GB");
}

TEST_CASE("counts format short and exact", "[quantity]") {
    CHECK(format_count_short(13'000'000'000ULL) == "13B");
    CHECK(format_count_short(6'738'415'616ULL) == "6.74B");
    CHECK(format_count_short(350'000'000ULL) == "350M");
    CHECK(format_count_exact(4'194'304ULL) == "4,194,304");
    CHECK(format_decimal(Decimal{1'200'000}) == "1.2");
    CHECK(format_decimal(Decimal{606'250}) == "0.60625");
}

TEST_CASE("parse_memory_size: one reader for an amount of memory with its unit", "[quantity]") {
    // Binary units are powers of 2^10, decimal ones of 10^3 (README: GB = 10^9 bytes, GiB = 2^30 bytes).
    const std::uint64_t limit = 1ULL << 50;
    CHECK(*parse_memory_size("80GiB", limit, "1 PiB") == 80 * kBytesPerGib);
    CHECK(*parse_memory_size(" 24 GB ", limit, "1 PiB") == 24 * kBytesPerGb);
    CHECK(*parse_memory_size("16384MiB", limit, "1 PiB") == 16 * kBytesPerGib);
    CHECK(*parse_memory_size("1.5tb", limit, "1 PiB") == 1'500'000'000'000ULL);
    CHECK(*parse_memory_size("0.5B", limit, "1 PiB") == 1);  // rounded half up once
    CHECK(parse_memory_size("80", limit, "1 PiB").error() == "needs a unit: GB (10^9 bytes) or GiB (2^30 bytes), e.g. 80GiB");
    CHECK(parse_memory_size("0GB", limit, "1 PiB").error() == "must be greater than zero");
    CHECK(parse_memory_size("2048TiB", limit, "1 PiB").error() == "is too large (at most 1 PiB)");
    CHECK(parse_memory_size("1025TiB", limit, "1 PiB").error() == "is too large (at most 1 PiB)");
    CHECK(parse_memory_size("xGB", limit, "1 PiB").error().find("is not a number") != std::string::npos);
}
