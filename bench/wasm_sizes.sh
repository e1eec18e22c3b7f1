#!/usr/bin/env bash
# bench/wasm_sizes.sh: builds the page with the web preset's flags plus --profiling-funcs (function names
# kept in a name section; the code is the release page's) in build/webprof, then prints where the wasm
# bytes go per source area (bench/wasm_sizes.mjs). Extra arguments go to the script (--top N, --area NAME).
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs
export EM_CLOSURE_COMPILER=$PWD/node_modules/.bin/google-closure-compiler
cmake --preset web -B build/webprof -DLLM_MEMORY_BUILD_TESTS=OFF -DCMAKE_EXE_LINKER_FLAGS=--profiling-funcs -DLLM_MEMORY_WASM_OPT_EXTRA=-g >build/webprof.log 2>&1
cmake --build build/webprof --target llm_memory_web -j2 >>build/webprof.log 2>&1 || { tail -20 build/webprof.log; exit 1; }
node bench/wasm_sizes.mjs build/webprof/site/index.wasm "$@"
