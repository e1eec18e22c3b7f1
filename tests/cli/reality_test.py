#!/usr/bin/env python3
"""Checked against reality: every row of tests/fixtures/reality.json (a published measurement) is a test.
The real CLI's detailed estimate with the row's settings must be within the row's tolerance; a row marked
"unmet" must still miss it (so the mark goes when the model improves) and say why. The data must hold what
a reader needs to check it (the figure quoted from its source), and README.md's "How close to reality"
section must be exactly what scripts/reality_table.py generates.
Usage: tests/cli/reality_test.py [BIN]   (prints "ok"/"FAIL" lines, then the errors' median and maximum)
"""
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
spec = importlib.util.spec_from_file_location("reality_table", ROOT / "scripts" / "reality_table.py")
reality = importlib.util.module_from_spec(spec)
sys.path.insert(0, str(ROOT / "scripts"))  # the script imports its sibling reality_common
spec.loader.exec_module(reality)

KINDS = {"full fine-tune", "LoRA", "QLoRA", "long context", "inference serving"}
REQUIRED = ["id", "kind", "model", "precision", "optimizer", "checkpointing", "settings", "compare", "measured",
            "metric", "tolerance_percent", "source"]


def quotes(row):
    q = row["source"]["quote"]
    return q if isinstance(q, list) else [q]


def data_problems(rows):
    """What a reader could not check: missing fields, a figure not in its quote, a tolerance out of range."""
    problems = []
    if len(rows) < 12:
        problems.append(f"only {len(rows)} rows (at least 12 published measurements)")
    missing_kinds = KINDS - {row.get("kind") for row in rows}
    if missing_kinds:
        problems.append("no row of kind " + ", ".join(sorted(missing_kinds)))
    problems += reality.reality_common.row_problems(rows, REQUIRED)
    for row in rows:
        name = row.get("id", "?")
        if any(field not in row for field in REQUIRED):
            continue
        if row["kind"] not in KINDS:
            problems.append(f"{name}: kind {row['kind']!r} is not one of {sorted(KINDS)}")
        if row["metric"] not in reality.METRIC_SETTINGS:
            problems.append(f"{name}: metric {row['metric']!r} is not one of {sorted(reality.METRIC_SETTINGS)}")
        if not 0 < row["tolerance_percent"] <= 25:
            problems.append(f"{name}: tolerance {row['tolerance_percent']} % is outside (0, 25]")
        if row["measured"]["unit"] not in reality.UNITS:
            problems.append(f"{name}: unit {row['measured']['unit']!r}")
        source = row["source"]
        for field in ("name", "url", "where", "quote"):
            if not source.get(field):
                problems.append(f"{name}: source has no {field}")
        if not source.get("url", "").startswith("https://"):
            problems.append(f"{name}: source url is not https")
        text = "\n".join(quotes(row))
        parts = row["measured"].get("sum_of", [row["measured"]["value"]])
        for part in parts:
            if part not in text:
                problems.append(f"{name}: the measured {part} is not in the quoted source text")
        if "sum_of" in row["measured"]:
            total = sum(float(p) for p in parts)
            if abs(total - float(row["measured"]["value"])) > 0.005:
                problems.append(f"{name}: {' + '.join(parts)} is {total:.2f}, not {row['measured']['value']}")
        if "unmet" in row and not str(row["unmet"]).strip():
            problems.append(f"{name}: marked unmet without a reason")
        if "not_counted" in row and not str(row["not_counted"]).strip():
            problems.append(f"{name}: marked not_counted without a reason (the README prints it beside the row)")
    return problems


def band_percent(ppm):
    """A band multiplier as core's report words it: "+44.4 %", "−11.9 %" (tenths, rounded half up)."""
    tenths = (ppm - 1_000_000 + 500) // 1000 if ppm >= 1_000_000 else (1_000_000 - ppm + 500) // 1000
    return f"{'+' if ppm >= 1_000_000 else '−'}{tenths // 10}.{tenths % 10} %"


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "build" / "native" / "llm-memory")
    rows = reality.load_rows()
    fail = 0
    for problem in data_problems(rows):
        print(f"FAIL reality data: {problem}")
        fail = 1
    results = reality.evaluate(binary, rows)
    for r in results:
        row = r["row"]
        tolerance = row["tolerance_percent"] / 100
        label = f"reality {row['id']}: measured {row['measured']['value']} {row['measured']['unit']} ({row['metric']})"
        if r["problem"]:
            print(f"FAIL {label}: the CLI did not estimate it: {r['problem']}")
            fail = 1
            continue
        error = reality.fmt_error(r["error"])
        within = abs(r["error"]) <= tolerance
        if row.get("unmet"):
            if within:
                print(f"FAIL {label}: ours is now within ±{row['tolerance_percent']} % ({error}); remove its unmet mark")
                fail = 1
            else:
                print(f"ok   {label}: {error}, beyond ±{row['tolerance_percent']} %, marked unmet: {row['unmet']}")
        elif within:
            print(f"ok   {label}: {error} (tolerance ±{row['tolerance_percent']} %)")
        else:
            print(f"FAIL {label}: {error}, beyond its tolerance of ±{row['tolerance_percent']} %")
            fail = 1
    # The band core puts on each class's peaks must be the one this table gives (scripts/reality_table.py
    # --band): run one row of each class and compare its JSON band with the table's multipliers.
    for klass in reality.CLASSES:
        row = next((r for r in rows if reality.row_class(r) == klass), None)
        if row is None:
            print(f"FAIL reality band: no row of class {klass}")
            fail = 1
            continue
        low_ppm, high_ppm = reality.band(results, klass)
        args = reality.cli_args(row)
        run = __import__("subprocess").run([binary] + args, capture_output=True, text=True)
        got = __import__("json").loads(run.stdout) if run.returncode == 0 else {}
        peak = got.get("training_peak_bytes", 0)
        want = (round(peak * low_ppm / 1_000_000), round(peak * high_ppm / 1_000_000))
        have = (got.get("training_peak_low_bytes"), got.get("training_peak_high_bytes"))
        if not peak or any(h is None or abs(h - w) > 1 for h, w in zip(have, want)):
            print(f"FAIL reality band {klass}: core's band {have} for {row['id']} is not the table's {want} "
                  f"({low_ppm} and {high_ppm} ppm); update training_peak_band in core/training.cpp from "
                  f"scripts/reality_table.py --band")
            fail = 1
        else:
            print(f"ok   reality band {klass}: {low_ppm / 1e4 - 100:+.1f} % to {high_ppm / 1e4 - 100:+.1f} % of the peak")
        # The CLI's text report says the same band in words: its class and the table's percentages.
        text_run = __import__("subprocess").run([binary] + args[:-2], capture_output=True, text=True)
        words = (f"({band_percent(low_ppm)} to {band_percent(high_ppm)} of ",
                 f"): where published {klass} runs in the reality table measured against our figure")
        if text_run.returncode != 0 or "Likely " not in text_run.stdout or any(w not in text_run.stdout for w in words):
            print(f"FAIL reality band text {klass}: the CLI's report for {row['id']} does not say "
                  f"'Likely ... {words[0]}...{words[1]}': {text_run.stdout or text_run.stderr}")
            fail = 1
        else:
            print(f"ok   reality band text {klass}: the CLI's report names the class and says {words[0].strip()}")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = reality.reality_common.current(readme, reality.BEGIN, reality.END)
    if section is None:
        print("FAIL reality README: README.md has no generated 'How close to reality' section")
        fail = 1
    elif section != reality.markdown(results):
        print("FAIL reality README: the 'How close to reality' section differs from what scripts/reality_table.py "
              "generates (run scripts/reality_table.py --write README.md)")
        fail = 1
    else:
        print("ok   reality README: the section is the generated one")
    median, largest = reality.summary(results)
    if median is not None:
        print(f"reality: median absolute error {median * 100:.1f} %, largest {largest * 100:.1f} % over the "
              f"{sum(reality.counted(r) for r in results)} counted rows of {sum(r['error'] is not None for r in results)}, "
              f"{sum(bool(r['row'].get('unmet')) for r in results)} marked unmet")
    return fail


if __name__ == "__main__":
    sys.exit(main())
