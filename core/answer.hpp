// Reading a learner's answer: "16.8", "16.8 GB", "15.65 GiB", "1.68e10 bytes", "16,800 MB" -> exact bytes.
// Exact decimal arithmetic (no floating point), so native and wasm read every answer identically.
// Invariant: a parsed answer is a whole number of bytes below 2^64; anything else is an error value.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "result.hpp"

namespace llm_memory {

// The unit a learner wrote (or none: a bare number).
enum class AnswerUnit { none, bytes, kb, mb, gb, tb, kib, mib, gib, tib };

// A parsed answer: the amount in bytes and how it was written.
struct ParsedAnswer {
    std::uint64_t bytes = 0;          // rounded half up to a whole byte
    AnswerUnit unit = AnswerUnit::none;  // as written; `none` means a bare number
    AnswerUnit read_as = AnswerUnit::gb; // the unit actually applied (a bare number is read as GB or bytes)
    std::string number_text;          // the number as written, separators removed: "16800", "1.68e10"
};

// A bare number (no unit) is read as GB, the seed's unit, unless it is at least this large, in which
// case it is read as bytes (nobody means a million gigabytes; "16800000000" means bytes).
inline constexpr std::uint64_t kBareNumberBytesThreshold = 1'000'000;

// Parses an amount of memory. Accepted: an optional leading "~", "≈" or "="; a number with an optional
// point, exponent (1.68e10) and commas separating groups of three digits (16,800); an optional unit:
// B/byte/bytes, KB/MB/GB/TB (powers of 10^3), KiB/MiB/GiB/TiB (powers of 2^10), case-insensitive, with
// or without a space. A bare number is read as GB (see kBareNumberBytesThreshold).
// Errors (messages say what to write instead): empty, not a number, a decimal comma ("16,8"),
// negative, unknown unit, more than 2^64 - 1 bytes.
Expected<ParsedAnswer> parse_answer(std::string_view text);

// "GB", "GiB", "bytes", ...: the unit's usual spelling; "" for none.
const char* answer_unit_name(AnswerUnit unit);

}  // namespace llm_memory
