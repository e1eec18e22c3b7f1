#!/usr/bin/env bash
# Runs a command and prints its wall seconds and the CPU seconds of its whole process tree, Chromium's
# processes included (its renderers, GPU and zygote processes are not reaped into `time`'s figure: a run of
# four browser files showed 38 CPU s in `time` where the processes used over 150). Counted by a cgroup-v1
# cpuacct group made for the run (root; every process the command starts stays in it, exited ones counted);
# without one, the machine's busy CPU seconds over the run (/proc/stat), which count everyone's work.
# Usage: bench/cpu_seconds.sh LABEL COMMAND...   prints "cpu: LABEL wall W s, cpu C s (user U, sys S) [how]"
set -u
label=$1; shift
acct=/sys/fs/cgroup/cpuacct
group="$acct/llm_memory_bench_$$"
start=$(date +%s.%N)
if [ -w "$acct" ] && mkdir "$group" 2>/dev/null; then
  ( echo "$BASHPID" > "$group/cgroup.procs" && exec "$@" )
  rc=$?
  end=$(date +%s.%N)
  read -r _ user_ticks < <(grep '^user' "$group/cpuacct.stat")
  read -r _ sys_ticks < <(grep '^system' "$group/cpuacct.stat")
  usage_ns=$(cat "$group/cpuacct.usage")
  hz=$(getconf CLK_TCK)
  # Anything still running in the group (a process the command left behind) is reported, then the group goes.
  left=$(wc -l < "$group/cgroup.procs")
  rmdir "$group" 2>/dev/null || echo "cpu: $left processes left in $group" >&2
  awk -v l="$label" -v s="$start" -v e="$end" -v u="$usage_ns" -v ut="$user_ticks" -v st="$sys_ticks" -v hz="$hz" -v rc="$rc" \
    'BEGIN { printf "cpu: %s wall %.1f s, cpu %.1f s (user %.1f, sys %.1f) [cgroup, exit %d]\n", l, e - s, u / 1e9, ut / hz, st / hz, rc }'
else
  busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }
  b0=$(busy)
  "$@"
  rc=$?
  b1=$(busy)
  end=$(date +%s.%N)
  hz=$(getconf CLK_TCK)
  awk -v l="$label" -v s="$start" -v e="$end" -v b0="$b0" -v b1="$b1" -v hz="$hz" -v rc="$rc" \
    'BEGIN { printf "cpu: %s wall %.1f s, cpu %.1f s [whole machine: everyone'"'"'s work, exit %d]\n", l, e - s, (b1 - b0) / hz, rc }'
fi
exit "$rc"
