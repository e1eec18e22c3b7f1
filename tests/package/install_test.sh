#!/usr/bin/env bash
# Install test: `cmake --install BUILD_DIR --prefix TMP` puts exactly the expected files in place, the
# installed CLI prints the seed's figures, the man page documents every option --help lists, and the
# bash completion (generated from the settings table) completes options and their values.
# Usage: install_test.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "install test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
expected="bin/llm-memory
bin/llm-memory-gui
share/applications/llm-memory.desktop
share/bash-completion/completions/llm-memory
share/icons/hicolor/128x128/apps/llm-memory.png
share/icons/hicolor/256x256/apps/llm-memory.png
share/icons/hicolor/48x48/apps/llm-memory.png
share/icons/hicolor/scalable/apps/llm-memory.svg
share/man/man1/llm-memory.1.gz"
actual=$(cd "$prefix" && find . -type f | sed 's:^\./::' | LC_ALL=C sort)
[[ "$actual" == "$expected" ]] || fail "installed files differ:"$'\n'"$(diff <(echo "$expected") <(echo "$actual"))"

# The installed CLI: the seed's 13B at 2 bytes (seed document: 26 GB weights, 31.2 GB inference, 104 GB training).
out=$("$prefix/bin/llm-memory" --params 13B)
grep -qx 'Weight memory               26 GB (24.21 GiB)' <<<"$out" || fail "installed CLI: $out"
grep -qx 'Training total              104 GB (96.86 GiB)' <<<"$out" || fail "installed CLI: $out"

# Icons: the PNGs are the sizes their folders name.
for px in 48 128 256; do
  size=$(identify -format %wx%h "$prefix/share/icons/hicolor/${px}x${px}/apps/llm-memory.png")
  [[ "$size" == "${px}x${px}" ]] || fail "icon ${px}x${px} is $size"
done
grep -qx 'Exec=llm-memory-gui' "$prefix/share/applications/llm-memory.desktop" || fail ".desktop Exec"
grep -qx 'Icon=llm-memory' "$prefix/share/applications/llm-memory.desktop" || fail ".desktop Icon"
if command -v desktop-file-validate >/dev/null; then  # desktop-file-utils, when installed
  desktop-file-validate "$prefix/share/applications/llm-memory.desktop" || fail ".desktop entry does not validate"
fi

# Man page: every option of `llm-memory --help` and `llm-memory check --help` is a tagged paragraph.
man=$(zcat "$prefix/share/man/man1/llm-memory.1.gz")
grep -q '^\.TH LLM-MEMORY 1 ' <<<"$man" || fail "man page has no .TH line"
for help in "$("$prefix/bin/llm-memory" --help)" "$("$prefix/bin/llm-memory" check --help)"; do
  while read -r option; do
    grep -qF "\\fB${option//-/\\-}\\fR" <<<"$man" || fail "man page lacks $option"
  done < <(grep -oE '^ {1,8}--[a-z][-a-z0-9]*' <<<"$help" | tr -d ' ')
done
if command -v man >/dev/null; then
  MANWIDTH=100 man -l "$prefix/share/man/man1/llm-memory.1.gz" 2>/dev/null | grep -q -- '--gpu-memory SIZE' || fail "man does not render --gpu-memory"
fi

# Bash completion, without the bash-completion package (its fallback) and with it when installed.
complete_words() {  # complete_words WORD... : what TAB offers for the last word
  bash -c '[[ -n "$1" ]] && source "$1"; source "$2"; shift 2
    COMP_WORDS=(llm-memory "$@"); COMP_CWORD=$#; COMP_LINE="llm-memory $*"; COMP_POINT=${#COMP_LINE}
    _llm_memory; echo "${COMPREPLY[*]}"' _ "$bash_completion" "$prefix/share/bash-completion/completions/llm-memory" "$@"
}
for bash_completion in "" /usr/share/bash-completion/bash_completion; do
  [[ -z "$bash_completion" || -f "$bash_completion" ]] || continue
  [[ $(complete_words --dt) == "--dtype" ]] || fail "--dt completes to '$(complete_words --dt)'"
  [[ $(complete_words --dtype q4) == "q4_0 q4_k q4_k_m" ]] || fail "--dtype q4 completes to '$(complete_words --dtype q4)'"
  [[ $(complete_words --gpu rtx-40) == "rtx-4060-ti-16gb rtx-4070 rtx-4080 rtx-4090" ]] || fail "--gpu rtx-40: '$(complete_words --gpu rtx-40)'"
  [[ $(complete_words --gpu rtx-409) == "rtx-4090" ]] || fail "--gpu rtx-409: '$(complete_words --gpu rtx-409)'"
  [[ $(complete_words --model llama-2-) == "llama-2-13b llama-2-70b llama-2-7b" ]] || fail "--model llama-2-: '$(complete_words --model llama-2-)'"
  [[ $(complete_words --format "") == "json markdown table" ]] || fail "--format: '$(complete_words --format "")'"
  [[ $(complete_words --params "") == "" ]] || fail "--params offers '$(complete_words --params "")'"
  [[ $(complete_words ch) == "check" ]] || fail "ch completes to '$(complete_words ch)'"
  [[ $(complete_words check --question mi) == "mixed-precision-training" ]] || fail "check --question mi: '$(complete_words check --question mi)'"
  [[ $(complete_words check --format "") == "json text" ]] || fail "check --format: '$(complete_words check --format "")'"
  # Every settings-table key (each is a --flag in --help) is offered after "--".
  offered=" $(complete_words --) "
  while read -r option; do
    [[ "$offered" == *" $option "* ]] || fail "completion does not offer $option"
  done < <("$prefix/bin/llm-memory" --help | grep -oE '^ {1,8}--[a-z][-a-z0-9]*' | tr -d ' ')
done
echo "install test: ok ($(wc -l <<<"$expected") files, man page and completion cover every option)"
