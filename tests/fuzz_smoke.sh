#!/usr/bin/env bash
# The fuzz stage of scripts/test: every libFuzzer target replays its seed corpus and then fuzzes briefly
# (LLM_MEMORY_FUZZ_SMOKE_SECONDS, default 10 s each). Any crash, sanitizer report, broken invariant or
# hang fails the stage. The targets run LLM_MEMORY_FUZZ_JOBS at a time (default: one per core; each target
# is one single-threaded process, so every target still gets its full seconds). Long runs: scripts/fuzz 600.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${LLM_MEMORY_FUZZ_SMOKE_SECONDS:-10}
jobs=${LLM_MEMORY_FUZZ_JOBS:-$(nproc)}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: LLM_MEMORY_FUZZ_JOBS must be a whole number from 1 (got \"$jobs\")"; exit 2; }
names=()
for source in fuzz/fuzz_*.cpp; do name=$(basename "$source" .cpp); names+=("${name#fuzz_}"); done
((jobs > ${#names[@]})) && jobs=${#names[@]}
# Target i goes to group i mod jobs; each group is one scripts/fuzz run (scripts/fuzz builds under a lock, so
# the groups' builds take turns and a later group's build overlaps an earlier group's fuzzing).
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pids=()
for ((g = 0; g < jobs; g++)); do
  group=()
  for ((i = g; i < ${#names[@]}; i += jobs)); do group+=("${names[i]}"); done
  scripts/fuzz "$seconds" "${group[@]}" >"$out/$g" 2>&1 &
  pids+=($!)
done
status=0
for ((g = 0; g < jobs; g++)); do
  wait "${pids[g]}" || status=1
  cat "$out/$g"
done
exit $status
