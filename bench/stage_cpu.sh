#!/usr/bin/env bash
# The browser stage's CPU seconds per file: runs tests/browser/run.mjs (ARGS: its files, default all) with
# LLM_MEMORY_BROWSER_JOBS=1 in a cgroup-v1 cpuacct group of its own (root), and reads the group's CPU time
# as each file ends. One file at a time, the shared Chromium works only for the file that runs, so the CPU
# time between two files' ends is that file's (its node process, its contexts' renderers, the GPU process's
# drawing for it), Chromium's start counted in the first file. Prints "cpu-file: FILE wall W s, cpu C s" per
# file and "cpu-stage: wall W s, cpu C s". Figures, never a pass/fail (the runner's exit status is kept).
# Usage: bench/stage_cpu.sh [RUN_MJS] [FILE...]   (RUN_MJS: a runner other than this tree's, e.g. a copy of main's)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
runner="$here/tests/browser/run.mjs"
if [ $# -gt 0 ] && [ "${1%run.mjs}" != "$1" ]; then runner=$1; shift; fi
group=/sys/fs/cgroup/cpuacct/llm_memory_stage_$$
mkdir "$group" || { echo "stage_cpu: needs a writable cgroup-v1 cpuacct (root); try bench/cpu_seconds.sh" >&2; exit 2; }
usage() { awk '{ printf "%.1f", $1 / 1e9 }' "$group/cpuacct.usage"; }
start=$(date +%s.%N)
last=0
last_t=$start
( echo "$BASHPID" > "$group/cgroup.procs" && LLM_MEMORY_BROWSER_JOBS=1 exec node "$runner" "$@" ) | while IFS= read -r line; do
  printf '%s\n' "$line"
  case "$line" in
    "  ok "*|"  FAILED "*)
      now=$(usage); t=$(date +%s.%N)
      file=$(printf '%s\n' "$line" | awk '{ print $2 }')
      awk -v f="$file" -v a="$last" -v b="$now" -v t0="$last_t" -v t1="$t" 'BEGIN { printf "cpu-file: %s wall %.1f s, cpu %.1f s\n", f, t1 - t0, b - a }'
      last=$now; last_t=$t ;;
  esac
done
rc=${PIPESTATUS[0]}
end=$(date +%s.%N)
awk -v c="$(usage)" -v s="$start" -v e="$end" 'BEGIN { printf "cpu-stage: wall %.1f s, cpu %.1f s\n", e - s, c }'
rmdir "$group" 2>/dev/null || echo "stage_cpu: processes left in $group" >&2
exit "$rc"
