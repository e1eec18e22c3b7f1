#!/usr/bin/env bash
# Release-folder test (slow: the `dist` stage, not in the default scripts/test run).
# 1. scripts/dist writes dist/ with the page, the single file, the .deb and a SHA256SUMS that verifies.
# 2. Reproducible: a second, clean build of the page in another folder (no ccache) gives byte-identical
#    page files, and no page file holds a build path.
# 3. dist/site/ served by a plain static server (python3 -m http.server) passes the browser smoke test,
#    the embed, docs-example and engine tests (the full build loaded from it), and dist/llm-memory.html the
#    offline test.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "dist test: $*" >&2; exit 1; }

scripts/dist
for f in site/index.html site/index.js site/index.wasm site/full.js site/full.wasm llm-memory.html SHA256SUMS; do
  [[ -s dist/$f ]] || fail "dist/$f is missing"
done
ls dist/llm-memory_*.deb >/dev/null || fail "no .deb in dist/"
(cd dist && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not verify"
[[ $(wc -l <dist/SHA256SUMS) == $(cd dist && find . -type f ! -name SHA256SUMS | wc -l) ]] || fail "SHA256SUMS does not list every file"

second=build/dist-repro
rm -rf "$second"
CCACHE_DISABLE=1 LLM_MEMORY_DIST_BUILD=$second LLM_MEMORY_DIST_OUT=$second/out scripts/dist site >/dev/null
pages=$(cd dist && find site -type f | LC_ALL=C sort; echo llm-memory.html)
[[ "$(cd "$second/out" && find site -type f | LC_ALL=C sort; echo llm-memory.html)" == "$pages" ]] || fail "the two runs wrote different page files"
while read -r f; do
  cmp -s "dist/$f" "$second/out/$f" || fail "$f differs between two builds of one commit"
  for p in "$PWD" /work/ /usr/share/emscripten /tmp/ /root/ build/dist; do  # build trees, the toolchain, temp files
    ! grep -qaF "$p" "dist/$f" || fail "$f contains the path $p"
  done
done <<<"$pages"
echo "dist test: $(wc -l <<<"$pages") page files byte-identical across two clean builds, no build paths"

LLM_MEMORY_SITE_DIR=dist/site LLM_MEMORY_SINGLE_FILE=dist/llm-memory.html LLM_MEMORY_SERVER=python \
  node --test --test-reporter=spec tests/browser/smoke.test.mjs tests/browser/embed.test.mjs \
  tests/browser/docs_example.test.mjs tests/browser/engine_io.test.mjs tests/browser/offline.test.mjs
