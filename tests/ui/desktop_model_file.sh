#!/usr/bin/env bash
# Model files round trip, CLI and desktop app: a generated GGUF (tests/files/model_files.mjs: a 4-layer
# llama, 2,873,616 weights in Q4_K/Q6_K/Q8_0/F16/F32, 1,953,520 bytes) and a safetensors file give the same
# figures through `llm-memory --gguf/--safetensors` and the desktop app's `--open FILE` (the code path of
# a file dropped on its window), compared field by field in core's JSON (the CLI's "file" object aside).
# The GGUF run starts from Llama-2-7B with a 4,096-token context, so the KV cache is the file's layout:
# 2 x 4 layers x 4 KV heads x 32 x 4,096 tokens x 2 bytes = 8,388,608 bytes. An mmproj file opened beside Mistral
# Small 3.1 under llama.cpp (Pixtral's widths, as convert_hf_to_gguf.py labels them) gives the CLI's --mmproj FILE
# figures: its compute buffer at warm-up with flash attention off is llama.cpp's 86,630,400 bytes (82.62 MiB,
# measured with llama.cpp's own clip.cpp: bench/mmproj/README.md).
# Usage: tests/ui/desktop_model_file.sh [build/native]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/native}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "desktop model file: $*"; exit 1; }
node --input-type=module -e "
import { writeFileSync } from 'node:fs';
import { mistralSmallMmproj, sampleGguf, sampleSafetensors } from './tests/files/model_files.mjs';
writeFileSync('$dir/sample.gguf', sampleGguf().bytes);
writeFileSync('$dir/mmproj-ms.gguf', mistralSmallMmproj().bytes);
writeFileSync('$dir/sample.safetensors', sampleSafetensors().bytes);"
cli=$(readlink -f "$build/llm-memory")
gui=$(readlink -f "$build/llm-memory-gui")
check() {  # check FILE FLAG START-STATE CLI-ARGS...
  local file=$1 flag=$2 state=$3; shift 3
  (cd "$dir" && "$cli" "$@" "$flag" "$file" --format json) >"$dir/cli.json" || fail "llm-memory $* $flag $file failed"
  printf '%s\n' "$state" >"$dir/state"
  timeout 60 xvfb-run -a -s "-screen 0 1000x700x24" "$gui" --frames 4 --size 1000x700 --state-file "$dir/state" \
    --open "$dir/$file" --print-report >"$dir/gui.out" 2>"$dir/gui.err" || fail "the desktop app failed: $(cat "$dir/gui.err")"
  tail -n 1 "$dir/gui.out" >"$dir/gui.json"
  python3 - "$dir/cli.json" "$dir/gui.json" "$file" <<'PY' || exit 1
import json, sys
cli, gui, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
cli.pop("file", None)  # --mmproj FILE has none
diff = {k: (cli.get(k), gui.get(k)) for k in set(cli) | set(gui) if cli.get(k) != gui.get(k)}
if diff: sys.exit(f"desktop model file: {name}: CLI and desktop app differ: {diff}")
PY
}
check sample.gguf --gguf 'model=llama-2-7b&context=4096' --model llama-2-7b --context 4096
grep -q '"kv_cache_bytes":8388608' "$dir/gui.json" || fail "the desktop app's KV cache is not the file's: $(cat "$dir/gui.json")"
grep -q '"parameters":2873616' "$dir/gui.json" || fail "the desktop app's N is not the file's"
check sample.safetensors --safetensors 'params=13B'
ms='model=mistral-small-3.1-24b&engine=llama.cpp&gpu=rtx-4090&context=8192&flash-attn=off'
check mmproj-ms.gguf --mmproj "$ms" --model mistral-small-3.1-24b --engine llama.cpp --gpu rtx-4090 --context 8192 --flash-attn off
grep -q '"key":"mmproj_compute_buffer","label":"Projector compute buffer","bytes":86630400,' "$dir/gui.json" ||
  fail "the desktop app's projector buffer is not llama.cpp's: $(cat "$dir/gui.json")"
echo "desktop model file: ok (GGUF, safetensors and an mmproj file: the desktop app's figures are the CLI's)"
