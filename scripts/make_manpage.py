#!/usr/bin/env python3
"""Writes the llm-memory(1) man page from the program's own help text, so the page and --help never differ.

Usage: make_manpage.py BINARY OUTPUT.1 [SOURCE_DIR]
Reads `BINARY --help`, `BINARY --version` and `BINARY SUB --help` for every subcommand the help names
("llm-memory check ..."). The date is SOURCE_DATE_EPOCH's, else the last commit's in SOURCE_DIR (so two
builds of one commit write the same bytes), else none.
"""
import datetime
import os
import re
import subprocess
import sys

OPTION = re.compile(r"^ {1,8}(--?[a-zA-Z][-a-zA-Z0-9]*)(?: ((?:\S| (?=\S))*?))?(?: {2,}|$)(.*)$")


def run(binary, *args):
    return subprocess.run([binary, *args], check=True, capture_output=True, text=True).stdout


def esc(text):
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def option_line(line):
    """('--params', 'N', 'help') for an option line of a help text, else None."""
    m = OPTION.match(line)
    if not m:
        return None
    name, hint, rest = m.group(1), m.group(2) or "", m.group(3)
    if hint and not re.match(r"^[A-Z\[][A-Z|%\]]*$|^[A-Z]+$", hint):  # "--inference-mode MODE simple ..."
        first, _, tail = hint.partition(" ")
        hint, rest = (first, (tail + " " + rest).strip()) if re.match(r"^[A-Z\[][A-Z|%\]]*$", first) else ("", (hint + " " + rest).strip())
    return name, hint, rest


def render(lines):
    """Roff for the body of a help text: option lines as tagged paragraphs, other lines as paragraphs
    (an indented line, or one starting lower-case, continues the item above it); 'Header:' lines are
    subsections, and the lines under an 'Examples:' header are kept as they are."""
    out = []
    item = None  # (kind, text) being gathered: kind "option" or "paragraph"
    verbatim = False
    def flush():
        nonlocal item
        if item is not None:
            out.append(esc(item[1]))
        item = None
    for line in lines:
        if not line.strip():
            flush()
            continue
        if re.match(r"^\S.*:$", line):
            flush()
            if verbatim:
                out.append(".fi")
            title = line[:-1]
            out.append(".SS " + esc(title))
            verbatim = title.lower().startswith("example")
            if verbatim:
                out.append(".nf")
            continue
        if verbatim:
            out.append(esc(line.strip()))
            continue
        opt = option_line(line)
        if opt:
            flush()
            name, hint, rest = opt
            out.append(".TP")
            out.append("\\fB" + esc(name) + "\\fR" + (" \\fI" + esc(hint) + "\\fR" if hint else ""))
            item = ("option", rest)
        elif item is not None and (line.startswith(" ") or (item[0] == "paragraph" and line[:1].islower())):
            item = (item[0], item[1] + " " + line.strip())
        else:
            flush()
            out.append(".PP")
            item = ("paragraph", line.strip())
    flush()
    if verbatim:
        out.append(".fi")
    return out


def split_help(text):
    """(usage lines, summary, description lines, body lines) of a help text."""
    lines = text.rstrip("\n").split("\n")
    usage = []
    while lines and (lines[0].startswith("Usage:") or (usage and lines[0].startswith("  ") and "[" in lines[0])):
        usage.append(lines.pop(0).replace("Usage:", "").strip())
    summary = lines.pop(0) if lines else ""
    description = []
    while lines and lines[0].strip() and lines[0].startswith(" ") and not option_line(lines[0]):
        description.append(lines.pop(0).strip())
    return usage, summary, description, lines


def subcommands(binary, main_help):
    names = []
    for word in re.findall(r"llm-memory ([a-z][-a-z]*)", main_help):
        if word in names:
            continue
        try:
            if run(binary, word, "--help").startswith("Usage: llm-memory " + word):
                names.append(word)
        except subprocess.CalledProcessError:
            pass
    return names


def page_date(source_dir):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if not epoch and source_dir:
        try:
            epoch = subprocess.run(["git", "-C", source_dir, "log", "-1", "--format=%ct"], check=True,
                                   capture_output=True, text=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            epoch = None
    if not epoch:
        return ""
    return datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc).strftime("%Y-%m-%d")


def main():
    binary, output = sys.argv[1], sys.argv[2]
    source_dir = sys.argv[3] if len(sys.argv) > 3 else None
    main_help = run(binary, "--help")
    version = run(binary, "--version").strip()
    usage, summary, description, body = split_help(main_help)
    subs = subcommands(binary, main_help)
    sub_helps = {sub: split_help(run(binary, sub, "--help")) for sub in subs}

    roff = [
        '.\\" Generated by scripts/make_manpage.py from `llm-memory --help`; do not edit.',
        '.TH LLM-MEMORY 1 "%s" "%s" "User Commands"' % (page_date(source_dir), esc(version)),
        ".SH NAME",
        "llm\\-memory \\- " + esc(summary[0].lower() + summary[1:].rstrip(".")),
        ".SH SYNOPSIS",
    ]
    for line in usage + [u for sub in subs for u in sub_helps[sub][0]]:
        roff += [".PP", ".nh", esc(line), ".hy"]
    roff += [".SH DESCRIPTION", esc(summary)]
    if description:
        roff += [".PP", ".nf"] + [esc(line) for line in description] + [".fi"]
    roff += [".SH OPTIONS"] + render(body)
    for sub in subs:
        _, sub_summary, sub_description, sub_body = sub_helps[sub]
        roff += [".SH COMMAND: " + esc(sub), esc(sub_summary)]
        roff += [esc(line) for line in sub_description]
        roff += render(sub_body)
    roff += [".SH SEE ALSO",
             "The desktop app \\fBllm\\-memory\\-gui\\fR shows the same figures in a window; "
             "the web page takes the same keys in its address (#params=70B&trainable=1B)."]
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(roff) + "\n")


if __name__ == "__main__":
    main()
