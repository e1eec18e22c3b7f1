#!/usr/bin/env bash
# Desktop smoke test: starts the native app under Xvfb, draws frames, saves a screenshot and checks
# that the window is not blank (many distinct colours = text and widgets were drawn).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/screenshots
mkdir -p "$out"
rm -f "$out/desktop-1280x800.ppm" "$out/desktop-1280x800.png"
timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" ./build/native/llm-memory-gui --frames 6 --size 1280x800 \
  --screenshot "$out/desktop-1280x800.ppm"
convert "$out/desktop-1280x800.ppm" "$out/desktop-1280x800.png"
colours=$(convert "$out/desktop-1280x800.png" -format %k info:)
size=$(identify -format %wx%h "$out/desktop-1280x800.png")
if [[ "$size" != "1280x800" ]]; then echo "desktop smoke: window is $size, expected 1280x800"; exit 1; fi
if (( colours < 20 )); then echo "desktop smoke: window looks blank ($colours colours)"; exit 1; fi
echo "desktop smoke: ok ($size, $colours colours, $out/desktop-1280x800.png)"
