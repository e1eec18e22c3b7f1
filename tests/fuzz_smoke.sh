#!/usr/bin/env bash
# The fuzz stage of scripts/test: every libFuzzer target replays its seed corpus and then fuzzes briefly
# (LLM_MEMORY_FUZZ_SMOKE_SECONDS, default 10 s each). Any crash, sanitizer report, broken invariant or
# hang fails the stage. Long runs: scripts/fuzz 600.
set -uo pipefail
cd "$(dirname "$0")/.."
exec scripts/fuzz "${LLM_MEMORY_FUZZ_SMOKE_SECONDS:-10}"
