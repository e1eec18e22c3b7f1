#!/usr/bin/env python3
"""Turns bench/run's measurements (OUT_DIR/browser.json, native.txt, cli.txt) into one Markdown table with
the budgets beside each figure. Budgets are reported ("within" / "OVER"), never enforced.
KB = 1000 bytes, MB = 10^6 bytes (the project's decimal units).

Usage: report.py OUT_DIR [SINGLE_FILE_PAGE]
"""
import datetime
import gzip
import json
import os
import platform
import subprocess
import sys
from pathlib import Path


def key_values(path: Path) -> dict:
    values = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if "=" in line:
                key, value = line.split("=", 1)
                values[key] = value
    return values


def sh(command: str) -> str:
    try:
        return subprocess.run(command, shell=True, capture_output=True, text=True, timeout=20).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def kb(n: float) -> str:
    return f"{n / 1000:.1f} KB"


def verdict(ok) -> str:
    return "" if ok is None else ("within" if ok else "**OVER**")


def machine() -> str:
    cpu = sh("lscpu | sed -n 's/^Model name: *//p' | head -1") or platform.processor()
    mem_kb = int(sh("awk '/MemTotal/{print $2}' /proc/meminfo") or 0)
    os_name = sh(". /etc/os-release && echo $PRETTY_NAME")
    emcc = sh("emcc --version 2>/dev/null | head -1 | grep -o '[0-9][0-9.]*' | head -1")
    load = os.getloadavg()
    return (f"{cpu}, {os.cpu_count()} cores, {mem_kb / 1e6:.0f} GB RAM, {os_name}, kernel {platform.release()}; "
            f"Emscripten {emcc}; load average {load[0]:.1f}/{load[1]:.1f}/{load[2]:.1f} at the end of the run "
            f"(the machine is shared: compare ratios within one run)")


def main():
    out = Path(sys.argv[1])
    single = Path(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else None
    browser = json.loads((out / "browser.json").read_text())
    native = key_values(out / "native.txt")
    cli = key_values(out / "cli.txt")
    rows = []

    def row(group, measure, value, budget="", ok=None):
        rows.append((group, measure, value, budget, verdict(ok)))

    files = browser["appPayload"]["files"]
    total_gz = sum(f["gzipBytes"] for f in files)
    for f in files:
        row("Payload", f"`{f['file']}` gzip -9 (raw, brotli)",
            f"{kb(f['gzipBytes'])} ({kb(f['rawBytes'])}, {kb(f['brotliBytes'])})")
    budgets = browser["budgets"]  # bench/payload.mjs, also enforced by tests/browser/budget.test.mjs
    page_budget = budgets["pageGzipBytes"]
    single_budget = budgets["singleFileGzipBytes"]
    row("Payload", "page total, gzip -9", f"{kb(total_gz)} ({total_gz} B)", f"<= {kb(page_budget)}", total_gz <= page_budget)
    hello_gz = sum(f["gzipBytes"] for f in browser["helloPayload"]["files"])
    row("Payload", "hello page total, gzip -9 (reference)", f"{kb(hello_gz)} (app adds {kb(total_gz - hello_gz)})")
    if single and single.exists():
        data = single.read_bytes()
        single_gz = len(gzip.compress(data, 9))
        row("Payload", f"single-file page `{single.name}`, gzip -9 (raw)", f"{kb(single_gz)} ({kb(len(data))})",
            f"<= {kb(single_budget)}", single_gz <= single_budget)

    ff = browser["firstFrame"]
    loads = ", ".join(f"{x:.0f}" for x in ff["appMs"])
    hello_loads = ", ".join(f"{x:.0f}" for x in ff["helloMs"])
    row("First frame", f"page, median of {len(ff['appMs'])} cold loads", f"{ff['appMedianMs']:.0f} ms ({loads})")
    row("First frame", "hello page, same run", f"{ff['helloMedianMs']:.0f} ms ({hello_loads})")
    row("First frame", "page / hello", f"{ff['ratio']:.2f}x", "<= 1.5x", ff["ratio"] <= 1.5)
    best = min(ff["appMs"]) / min(ff["helloMs"])
    row("First frame", "page / hello, fastest load of each (less sensitive to other jobs)",
        f"{best:.2f}x ({min(ff['appMs']):.0f} / {min(ff['helloMs']):.0f} ms)")

    idle = browser["appIdle"]
    row("Idle (web)", f"frames drawn in {idle['seconds']:.1f} s without input", f"{idle['frames']}", "<= 2",
        idle["frames"] <= 2)
    row("Idle (web)", "main-thread CPU over those seconds (CDP TaskDuration)", f"{idle['mainThreadCpuPercent']:.2f} %")
    hidle = browser["helloIdle"]
    row("Idle (web)", "hello page (draws every frame), same window",
        f"{hidle['frames']} frames, {hidle['mainThreadCpuPercent']:.1f} % CPU")

    drag = browser["appDrag"]
    hdrag = browser["helloDrag"]
    if drag.get("callbacks"):
        row("Drag (web)", f"CPU per frame while dragging (trace thread time), median of {drag['callbacks']} rAF callbacks",
            f"{drag['cpuMedianMs']:.2f} ms", "< 2 ms", drag["cpuMedianMs"] < 2)
        row("Drag (web)", "CPU per frame while dragging (trace thread time), worst", f"{drag['cpuWorstMs']:.2f} ms")
        if hdrag.get("callbacks"):
            row("Drag (web)", "hello page CPU per frame, median / worst (reference)",
                f"{hdrag['cpuMedianMs']:.2f} / {hdrag['cpuWorstMs']:.2f} ms")
    if drag["frames"]:
        row("Drag (web)", f"wall time per drawn frame (performance.now()), median / worst of {drag['frames']}",
            f"{drag['medianMs']:.2f} / {drag['worstMs']:.2f} ms")
        if drag.get("stateBefore") is not None:
            changed = drag["stateBefore"] != drag["stateAfter"]
            row("Drag (web)", f"drag path {tuple(browser['drag'])} changed the scenario",
                f"yes (`{drag['stateAfter']}`)" if changed else "**no**: the path missed the slider (set BENCH_DRAG)")
    if not drag["frames"]:
        row("Drag (web)", "frames while dragging", "no frames recorded", "< 2 ms", False)
    if hdrag["frames"]:
        row("Drag (web)", "hello page wall time per frame, median / worst (reference)",
            f"{hdrag['medianMs']:.2f} / {hdrag['worstMs']:.2f} ms")

    if native:
        row("Native (Xvfb)", "time to first frame (`--frames 1`, median of 5 starts)",
            f"{float(native['native_first_frame_ms']):.0f} ms ({native.get('native_first_frame_all_ms', '')})")
        rss = int(native["native_peak_rss_kb"]) * 1024
        row("Native (Xvfb)", "peak RSS (VmHWM)", f"{rss / 1e6:.1f} MB", "< 80 MB", rss < 80e6)
        gl = int(native["native_gl_driver_rss_kb"]) * 1024
        own = int(native["native_rss_without_gl_driver_kb"]) * 1024
        row("Native (Xvfb)", "of which Mesa's software GL driver (libLLVM, DRI/gallium and their libraries)",
            f"{gl / 1e6:.1f} MB")
        peak_own = rss - gl
        row("Native (Xvfb)", "peak RSS without the GL driver (VmHWM minus the driver's resident pages)",
            f"{peak_own / 1e6:.1f} MB", "< 50 MB", peak_own < 50e6)
        row("Native (Xvfb)", "RSS without the GL driver at the end of the run (cross-check)", f"{own / 1e6:.1f} MB")
        cpu = float(native["native_idle_cpu_percent"])
        row("Native (Xvfb)", "CPU over 5 idle seconds", f"{cpu:.2f} % ({native['native_idle_cpu_ticks']} ticks)", "< 1 %",
            cpu < 1)

    if cli:
        row("CLI", "10,000 estimates through run_cli (args in, JSON out)", f"{float(cli['cli_run_cli_10000_ms']):.1f} ms")
        row("CLI", "10,000 estimates through core estimate()", f"{float(cli['core_estimate_10000_ms']):.2f} ms")
        if "config_median_parse_ms" in cli:
            row("CLI", f"parse + count largest config `{Path(cli['config_file']).name}` ({cli['config_bytes']} B), "
                "median of 1000 (first)",
                f"{float(cli['config_median_parse_ms']) * 1000:.0f} us ({float(cli['config_first_parse_ms']) * 1000:.0f} us)")
        row("CLI", "one `llm-memory --params 70B` process, median of 5", f"{float(cli['cli_process_ms']):.2f} ms")

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"Measured {now} by `bench/run`. Machine: {machine()}. Browser: headless Chromium "
          f"{browser['chromium']} (SwiftShader WebGL2), viewport {browser['viewport']['width']}x"
          f"{browser['viewport']['height']} at devicePixelRatio 1. Native: Xvfb + Mesa llvmpipe.\n")
    print("| Group | Measure | Value | Budget | |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    errors = browser["appPayload"]["errors"] + browser["appDrag"]["errors"]
    if errors:
        print("\nPage errors during the run: " + "; ".join(errors[:5]))


if __name__ == "__main__":
    main()
