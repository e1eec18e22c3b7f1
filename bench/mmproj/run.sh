#!/bin/bash
# usage: run.sh <gguf> [W H]...
g=$1; shift
for fa in 0 1; do
  ./measure $g $fa 2>&1 | grep -E "warmup with|compute buffer size|nodes|RESULT" | sed 's/^/  /'
done
while [ $# -ge 2 ]; do
  for fa in 0 1; do
    ./measure $g $fa $1 $2 2>&1 | grep -E "compute buffer size|nodes|RESULT" | sed 's/^/  /'
  done
  shift 2
done
