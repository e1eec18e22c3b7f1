#!/bin/bash
# bench/mmproj/build.sh LLAMA_CPP_DIR OUT_DIR: builds the two tools that measure llama.cpp's clip compute buffer
# (README.md): ggml's CPU backend with llama.cpp's own CMake, clip.cpp and its graph builders compiled unchanged, and
# this folder's mkgguf (synthetic mmproj files), measure (clip_init's warm-up, or one encode, on the CPU) and grid (the
# size mtmd resizes an image to).
# Not part of scripts/test: it needs a llama.cpp checkout, which the project does not vendor.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
llama=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
cmake -S "$llama" -B "$out/ggml" -DGGML_NATIVE=ON -DBUILD_SHARED_LIBS=ON -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_OPENSSL=OFF -DLLAMA_CURL=OFF -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log"
cmake --build "$out/ggml" --target ggml ggml-cpu -j2 >"$out/ggml.log"
libdir=$(dirname "$(find "$out/ggml" -name 'libggml.so' | head -n 1)")
mtmd=$llama/tools/mtmd
flags=(-O2 -std=c++17 -I"$mtmd" -I"$llama/include" -I"$llama/ggml/include" -I"$llama" -I"$llama/vendor")
objs=()
for f in "$mtmd"/clip.cpp "$mtmd"/models/*.cpp "$mtmd"/mtmd-image.cpp "$mtmd"/mtmd-audio.cpp; do
  o=$out/obj/$(basename "$f" .cpp).o
  mkdir -p "$out/obj"
  [[ -f $o ]] || g++ "${flags[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
libs=(-L"$libdir" -lggml -lggml-base -lggml-cpu -Wl,-rpath,"$libdir")
g++ "${flags[@]}" "$src/measure.cpp" "${objs[@]}" "${libs[@]}" -o "$out/measure"
g++ "${flags[@]}" "$src/mkgguf.cpp" "${libs[@]}" -o "$out/mkgguf"
# grid includes mtmd-image.cpp itself (its resize helper is file-local), so it links the other objects only.
g++ "${flags[@]}" "$src/grid.cpp" $(printf '%s\n' "${objs[@]}" | grep -v '/mtmd-image.o$') "${libs[@]}" -o "$out/grid"
echo "built $out/measure, $out/mkgguf and $out/grid"
