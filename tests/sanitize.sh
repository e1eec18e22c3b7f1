#!/usr/bin/env bash
# The sanitize stage of scripts/test: builds the asan preset (clang, AddressSanitizer + UndefinedBehavior-
# Sanitizer, any report aborts), runs the core and CLI Catch2 tests under it, then the CLI smoke test and
# the table of bad CLI inputs (tests/cli/cli_hardening.sh) against build/asan/llm-memory. It builds those
# targets only (the core, the CLI, their tests): the asan preset leaves the UI out.
set -uo pipefail
cd "$(dirname "$0")/.."
log=build/asan-build.log
mkdir -p build
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if ! { cmake --preset asan >"$log" 2>&1 && nice cmake --build --preset asan -j2 --target core_tests cli_tests llm_memory_cli >>"$log" 2>&1; }; then
  tail -n 40 "$log"; echo "sanitize: build failed (log: $log)"; exit 1
fi
grep -E "warning:" "$log" | sort -u | head -n 20 || true
status=0
ctest --preset asan -j2 >build/asan-ctest.log 2>&1 || status=1
tail -n 3 build/asan-ctest.log
((status == 0)) || { grep -E "Failed|SUMMARY|runtime error" build/asan-ctest.log | head -n 20; }
LLM_MEMORY_BIN=./build/asan/llm-memory tests/cli/cli_smoke.sh >build/asan-cli.log 2>&1 || status=1
grep -vE "^ok " build/asan-cli.log
exit $status
