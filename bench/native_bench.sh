#!/usr/bin/env bash
# Native half of bench/run (run it under xvfb-run): the desktop app's time to first frame (wall time of
# `--frames 1`, median of 5 starts, includes process start and exit), then one normal start left alone:
# CPU used over 5 idle seconds (from /proc/PID/stat) and peak RSS (VmHWM). Prints key=value lines.
# Usage: native_bench.sh PATH/TO/llm-memory-gui
set -euo pipefail
app=$1
times=()
for _ in 1 2 3 4 5; do
  start=$(date +%s%N)
  "$app" --frames 1 --size 1280x800 >/dev/null 2>&1
  end=$(date +%s%N)
  times+=($(( (end - start) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "native_first_frame_ms=$(awk "BEGIN{printf \"%.1f\", ${sorted[2]}/1000}")"
echo "native_first_frame_all_ms=$(printf '%s ' "${times[@]}" | awk '{for(i=1;i<=NF;i++) printf "%s%.0f", (i>1?",":""), $i/1000}')"

"$app" --size 1280x800 >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
sleep 2  # start-up and the pacer's last frames
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
t0=$(ticks); s0=$(date +%s%N)
sleep 5
t1=$(ticks); s1=$(date +%s%N)
echo "native_idle_cpu_percent=$(awk "BEGIN{printf \"%.2f\", 100*($t1-$t0)/$hz/(($s1-$s0)/1e9)}")"
echo "native_idle_cpu_ticks=$((t1 - t0))"
echo "native_peak_rss_kb=$(awk '/VmHWM/{print $2}' "/proc/$pid/status")"
# Under Xvfb, GL is Mesa's llvmpipe: libLLVM, the DRI/gallium driver and the libraries only they load map
# tens of MB of file pages that a hardware driver would not (and that no GL-less path would map at all).
# Their resident pages, sampled at the end of the run, are subtracted from the peak: "peak RSS without the
# GL driver". The driver's anonymous memory (JIT code, the software framebuffer) stays counted, so the
# figure leans high; the RSS without those libraries at the end is printed beside it as a cross-check.
gl_libs='libLLVM|/dri/|libz3|libgallium|libglapi|libGLX_mesa|libdrm|libicu'
echo "native_gl_driver_rss_kb=$(awk -v re="$gl_libs" '/^[0-9a-f]+-[0-9a-f]+ /{name=$6} /^Rss:/{if (name ~ re) kb += $2} END{print kb + 0}' "/proc/$pid/smaps")"
echo "native_rss_without_gl_driver_kb=$(awk -v re="$gl_libs" '/^[0-9a-f]+-[0-9a-f]+ /{name=$6} /^Rss:/{if (name !~ re) kb += $2} END{print kb + 0}' "/proc/$pid/smaps")"
kill "$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT
