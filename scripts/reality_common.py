"""What scripts/reality_table.py and scripts/inference_reality_table.py share: reading a rows file, a
measured amount in its unit, and the README section each generates between two marker lines (the
command-line options --bin, --data and one of --markdown, --write README, --check README; reading the
section back; writing or checking it).
"""
import argparse
import json
import pathlib
import sys


def load_rows(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)["rows"]


def row_problems(rows, fields):
    """The rows' ids used twice and the fields a row lacks, as "<id>: ..." lines (the tests' data checks)."""
    problems = []
    seen = set()
    for row in rows:
        name = row.get("id", "?")
        if name in seen:
            problems.append(f"{name}: id used twice")
        seen.add(name)
        problems += [f"{name}: no {field}" for field in fields if field not in row]
    return problems


def amount(measured, units):
    """A measured {"value", "unit"} as a number of the unit's base (bytes, tokens, blocks)."""
    return float(measured["value"]) * units[measured["unit"]]


def arguments(doc, binary, data):
    """The parser with --bin and --data, and the group of --markdown/--write/--check (a script may add to it)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(binary))
    parser.add_argument("--data", default=str(data))
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--markdown", action="store_true", help="print the README section")
    group.add_argument("--write", metavar="README", help="replace the section in this file")
    group.add_argument("--check", metavar="README", help="exit 1 if this file's section is not what the script generates")
    return parser, group


def current(text, begin, end):
    """The section with its markers and the line feed after them, or None when the markers are missing."""
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        return None
    return text[start:stop + len(end) + 1]


def replace(text, section, begin, end, name):
    start, stop = text.find(begin), text.find(end)
    if start < 0 or stop < start:
        raise SystemExit(f"README has no {name} markers")
    return text[:start] + section + text[stop + len(end) + 1:]


def publish(options, section, begin, end, name, what, script):
    """--markdown, --write or --check: does it and returns the exit status; None when none was asked."""
    if options.markdown:
        sys.stdout.write(section)
        return 0
    if options.write:
        path = pathlib.Path(options.write)
        path.write_text(replace(path.read_text(encoding="utf-8"), section, begin, end, name), encoding="utf-8")
        return 0
    if options.check:
        if current(pathlib.Path(options.check).read_text(encoding="utf-8"), begin, end) != section:
            print(f"{options.check}: {what} differs from what {script} generates; run {script} --write {options.check}",
                  file=sys.stderr)
            return 1
        return 0
    return None
