#!/usr/bin/env bash
# Desktop persistence: the native app restores the scenario saved in its state file
# (core's to_state string) and ignores a corrupt one with a notice on stderr, keeping the defaults.
# Usage: tests/ui/desktop_state.sh [path/to/llm-memory-gui]   (default build/native/llm-memory-gui)
set -euo pipefail
cd "$(dirname "$0")/../.."
gui=${1:-build/native/llm-memory-gui}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() {  # run NAME STATE-FILE: screenshot to $dir/NAME.ppm, stderr to $dir/NAME.err
  timeout 60 xvfb-run -a -s "-screen 0 1000x700x24" "$gui" --frames 4 --size 1000x700 --state-file "$2" \
    --screenshot "$dir/$1.ppm" 2>"$dir/$1.err"
}
fail() { echo "desktop state: $*"; exit 1; }
run defaults "$dir/missing"
printf 'params=70B&trainable=1B\n' >"$dir/good"
run good "$dir/good"
printf 'params=%%%%&bytes=-1\n' >"$dir/bad"
run bad "$dir/bad"
# A state naming a drafter or projector file (read by an earlier run, not carried by the state): the rest is restored.
printf 'model=llama-3.1-8b&engine=llama.cpp&draft-model=tiny-drafter.gguf\n' >"$dir/drafter"
run drafter "$dir/drafter"
printf 'model=llama-3.1-8b&engine=llama.cpp\n' >"$dir/engine"
run engine "$dir/engine"
grep -q "ignored" "$dir/defaults.err" && fail "a missing file gave a notice: $(cat "$dir/defaults.err")"
grep -q "ignored" "$dir/good.err" && fail "a valid file gave a notice: $(cat "$dir/good.err")"
grep -q "ignored the saved scenario in $dir/bad (params: " "$dir/bad.err" || fail "no notice for a corrupt file: $(cat "$dir/bad.err")"
[[ "$(cat "$dir/good")" == 'params=70B&trainable=1B' ]] || fail "a run without edits rewrote the file"
cmp -s "$dir/defaults.ppm" "$dir/good.ppm" && fail "the saved 70B scenario was not restored (same picture as the defaults)"
cmp -s "$dir/defaults.ppm" "$dir/bad.ppm" || fail "a corrupt file changed the scenario (picture differs from the defaults)"
grep -q "restored the saved scenario in $dir/drafter without draft-model: the state names a file it cannot carry" "$dir/drafter.err" ||
  fail "no notice for a state naming a drafter file: $(cat "$dir/drafter.err")"
cmp -s "$dir/drafter.ppm" "$dir/engine.ppm" || fail "the state without its drafter file was not restored (picture differs from the same state without it)"
echo "desktop state: ok (restored a saved scenario, ignored a corrupt one with a notice, restored one naming a file without it)"
