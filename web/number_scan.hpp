// Exact, small stand-ins for libc's strtod/strtof and for the sscanf formats the page's callers use. The web
// page links them in place of musl's (web/CMakeLists.txt, --wrap; main_web.cpp), whose strtod/sscanf compute
// in 128-bit long double through soft-float (about 8 KB gzipped of the page). Portable C++17, no globals;
// tests/core/number_scan_test.cpp checks them bit for bit against the C library, natively and in wasm.
#pragma once

#include <cstdarg>

namespace llm_memory {

// strtod in the "C" locale: the correctly rounded double (round to nearest, ties to even) of the longest
// prefix of `text` (after isspace) that is a decimal or hexadecimal ("0x") floating constant, "inf",
// "infinity" or "nan" / "nan(chars)" (any case); *end (if not null) points past it, or at `text` when there
// is no number. Beyond DBL_MAX it returns +-HUGE_VAL, below the denormals +-0. Two musl behaviours are kept
// as the page had them: "nan" is always a positive quiet NaN, and errno is never set (no caller reads it).
double scan_strtod(const char* text, char** end);

// The same for float (rounded once, directly to float, as strtof and scanf's %f do).
float scan_strtof(const char* text, char** end);

// sscanf for the conversions the page's callers use: %d %i %u %x %X with no, l or ll size, and
// %a %e %f %g (any case; float*, or double* with l), plus literal characters and whitespace. Matching,
// return values (conversions stored, or EOF when the input ends before the first one) and the stored
// values follow musl's sscanf, including musl's wrap-around of out-of-range integers (ULLONG_MAX on
// overflow) and its refusal of an incomplete number ("1e", "0x", "infin") as %f. Any other format
// (a width, '*', %n, %c, %s, %[, %%, h/hh/L/j/z/t sizes) converts nothing and returns 0.
int scan_vsscanf(const char* text, const char* format, std::va_list args);
int scan_sscanf(const char* text, const char* format, ...);

}  // namespace llm_memory
