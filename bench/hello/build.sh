#!/usr/bin/env bash
# bench/hello/build.sh WEB_BUILD_DIR OUT_DIR: builds the reference hello page (bench/hello) into OUT_DIR/site
# with the compile flags, ImGui definitions and link flags of the page configured in WEB_BUILD_DIR (read by
# bench/web_flags.py). bench/run uses it, and the wasm test stage runs it so a broken harness fails a test.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
web=$(cd "$1" && pwd)
out=$2
export NODE_PATH=/usr/share/nodejs
export EM_CLOSURE_COMPILER=$root/node_modules/.bin/google-closure-compiler
cmake -S "$root/bench/hello" -B "$out" \
  -DCMAKE_TOOLCHAIN_FILE=/usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake -DCMAKE_BUILD_TYPE=None \
  -DIMGUI_DIR="$root/third_party/imgui" \
  "-DBENCH_CXX_FLAGS=$(python3 "$root/bench/web_flags.py" "$web" cxx)" \
  "-DBENCH_IMGUI_DEFINES=$(python3 "$root/bench/web_flags.py" "$web" defines)" \
  "-DBENCH_LINK_FLAGS=$(python3 "$root/bench/web_flags.py" "$web" link)"
cmake --build "$out" -j2
test -s "$out/site/index.wasm"
