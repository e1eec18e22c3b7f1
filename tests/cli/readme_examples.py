#!/usr/bin/env python3
"""Runs every CLI example of README.md verbatim against the built binary (the README must not
drift from the tool).

- Each line `$ llm-memory ...` in a ```sh block is run through the shell with `llm-memory` meaning the
  binary under test; the lines after it, up to the next `$ ` line or the block's end, are its shown output.
- Shown output is an excerpt: its lines must appear in the real output in order; `...` inside a line
  matches anything, and a line that is only `...` skips any number of lines. A shown JSON object wrapped
  over several lines is joined first (it is one line in the real output): a break after a comma
  joins with nothing, any other break with a space.
- Every `--flag` in the README's usage synopsis must be accepted: it appears in `--help` (for a line
  `llm-memory SUB ...` and the indented lines under it, in `llm-memory SUB --help`).
Exit status 1 on any mismatch, with the command and what was missing.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
BIN = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/native/llm-memory"))


def blocks(text, fence):
    """The bodies of the ``` blocks opened by exactly `fence` ("```sh", or "```" for a bare block)."""
    out, body, opened = [], [], None
    for line in text.splitlines():
        if line.strip().startswith("```"):
            if opened is None:
                opened, body = line.strip(), []
            else:
                if opened == fence:
                    out.append(body)
                opened = None
        elif opened is not None:
            body.append(line)
    return out


def examples(text):
    """(command, shown output lines) for each `$ llm-memory` line of the sh blocks."""
    found = []
    for body in blocks(text, "```sh"):
        current = None
        for line in body:
            if line.startswith("$ "):
                current = None
                if line[2:].startswith("llm-memory"):
                    current = (line[2:], [])
                    found.append(current)
            elif current is not None and line.strip():
                current[1].append(line)
    return found


def pattern(shown_line):
    parts = [re.escape(p) for p in shown_line.strip().split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def matches(shown, actual):
    """True when the shown lines appear in order in the actual lines (see the banner)."""
    if shown and shown[0].lstrip().startswith("{"):
        joined = ""
        for line in shown:  # a break after a comma was between keys; any other was a space in a string
            joined += ("" if not joined or joined.endswith(",") else " ") + line.strip()
        shown = [joined]
    actual = [line.strip() for line in actual]
    i = 0
    for line in shown:
        if line.strip() == "...":
            continue
        want = pattern(line)
        while i < len(actual) and not want.match(actual[i]):
            i += 1
        if i == len(actual):
            return line
        i += 1
    return None


def main():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    failures = 0
    found = examples(text)
    if len(found) < 4:  # the README shows at least the seed, LoRA, JSON and check examples
        print(f"FAIL readme: found only {len(found)} CLI examples")
        return 1
    for command, shown in found:
        run = subprocess.run(["bash", "-c", 'llm-memory() { "$LLM_MEMORY_BIN" "$@"; }; ' + command],
                             env={**os.environ, "LLM_MEMORY_BIN": BIN}, capture_output=True, text=True, cwd=ROOT)
        missing = matches(shown, run.stdout.splitlines()) if run.returncode == 0 else "(exit status %d: %s)" % (
            run.returncode, run.stderr.strip())
        if missing is not None:
            print(f"FAIL readme example: {command}\n  missing: {missing}")
            failures += 1
        else:
            print(f"ok   readme example: {command}")
    helps = {}  # "" for the main command, else the subcommand: its --help text
    for body in blocks(text, "```"):
        if body and body[0].startswith("llm-memory ["):
            command = ""
            for line in body:  # a line "llm-memory SUB ..." starts a subcommand; indented lines continue one
                m = re.match(r"llm-memory ([a-z][a-z-]*)", line)
                if line.startswith("llm-memory"):
                    command = m.group(1) if m else ""
                if command not in helps:
                    args = [BIN, command, "--help"] if command else [BIN, "--help"]
                    helps[command] = subprocess.run(args, capture_output=True, text=True).stdout
                for flag in sorted(set(re.findall(r"--[a-z][a-z0-9-]*", line))):
                    if flag not in helps[command]:
                        print(f"FAIL readme synopsis: {flag} is not in llm-memory {command + ' ' if command else ''}--help")
                        failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
