#!/usr/bin/env bash
# bench/suite_times.sh: how long scripts/test takes on a fresh clone of this checkout's HEAD, per stage.
# Clones into a temporary folder, runs scripts/test there (setup included: sources, npm ci), and prints a
# Markdown table of each stage's seconds, the total, and the load average before and after (the machine may
# be shared: a figure, never a pass/fail). LLM_MEMORY_BENCH_CCACHE=off compiles without ccache (a machine
# that never built this project); the default uses the machine's ccache as scripts/test does.
# Usage: bench/suite_times.sh [STAGES]   (STAGES as LLM_MEMORY_TEST_ONLY; default: scripts/test's default)
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD
work=$(mktemp -d "${TMPDIR:-/tmp}/llm-memory-suite.XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone --quiet --no-hardlinks "$src" "$work/clone" || exit 1
commit=$(git -C "$work/clone" rev-parse --short HEAD)
env_extra=()
[[ ${LLM_MEMORY_BENCH_CCACHE:-on} == off ]] && env_extra+=(CCACHE_DISABLE=1)
[[ -n ${1:-} ]] && env_extra+=("LLM_MEMORY_TEST_ONLY=$1")
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$SECONDS
env "${env_extra[@]}" "$work/clone/scripts/test" >"$work/test.log" 2>&1
status=$?
total=$((SECONDS - start))
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
mkdir -p build
cp "$work/test.log" build/suite-times.log
echo "Fresh clone of $commit, scripts/test${1:+ (stages: $1)}, ccache ${LLM_MEMORY_BENCH_CCACHE:-on}, $(nproc) cores," \
  "$(date -u '+%Y-%m-%d %H:%M UTC'); load average $load_before before, $load_after after; exit status $status" \
  "(full output: build/suite-times.log)"
echo
echo "| Step | Seconds |"
echo "|---|---|"
# Setup: the time before the first build line; then each build and each stage as scripts/test printed them.
grep -E '^(test: built |--- )' "$work/test.log" | sed -E \
  -e 's/^test: built (.*) \(([0-9]+) s\)$/| build \1 | \2 |/' \
  -e 's/^--- (.*): ok \(([0-9]+) s\)$/| stage \1 (its builds included) | \2 |/' \
  -e 's/^--- (.*): FAILED$/| stage \1 | FAILED |/' | grep '^|'
echo "| total, setup included | $total |"
exit $status
