#!/usr/bin/env python3
"""Prints the release page's build flags as CMake lists, read from a configured web build directory.

Usage: web_flags.py BUILD_DIR {cxx|defines|link}
cxx: the ImGui target's compile flags; defines: its definitions (IMGUI_*); link: the page's link flags
without the launcher, objects, libraries, output and file arguments (shell, pre/post-js, js-library).
Left out, as they belong to the app and not to ImGui: the link's `--wrap` symbols (each needs the
page's stand-in, web/main_web.cpp and web/number_scan.cpp; without it wasm-ld 14 crashes) and the
page's test hook IMGUI_ENABLE_TEST_ENGINE (its hooks live in web/main_web.cpp).
"""
import shlex
import sys
from pathlib import Path

APP_ONLY_DEFINES = {"IMGUI_ENABLE_TEST_ENGINE"}
FILE_OPTIONS = {"--shell-file", "--pre-js", "--post-js", "--js-library", "--embed-file", "--preload-file", "-o"}


def flags_make(build: Path, key: str) -> list:
    text = (build / "imgui_app/CMakeFiles/imgui.dir/flags.make").read_text()
    for line in text.splitlines():
        if line.startswith(key + " = "):
            return shlex.split(line.split(" = ", 1)[1])
    return []


def link_flags(build: Path) -> list:
    words = shlex.split((build / "web/CMakeFiles/llm_memory_web.dir/link.txt").read_text().strip())
    start = next(i for i, w in enumerate(words) if w.endswith("em++")) + 1
    out, skip = [], False
    for w in words[start:]:
        if skip:
            skip = False
            continue
        if w in FILE_OPTIONS:
            skip = True
            continue
        if w.startswith("@") or w.endswith((".o", ".a", ".obj")) or w.startswith(("--shell-file=", "-Wl,--wrap=")):
            continue
        out.append(w)
    return out


def main():
    build, kind = Path(sys.argv[1]), sys.argv[2]
    if kind == "cxx":
        flags = flags_make(build, "CXX_FLAGS")
    elif kind == "defines":
        flags = [d[2:] for d in flags_make(build, "CXX_DEFINES") if d.startswith("-D") and d[2:] not in APP_ONLY_DEFINES]
    else:
        flags = link_flags(build)
    print(";".join(flags))


if __name__ == "__main__":
    main()
