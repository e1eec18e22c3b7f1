// grid: the size llama.cpp's mtmd resizes an image to before its clip graph (tools/mtmd/mtmd-image.cpp, compiled here
// unchanged by including it: img_tool::calc_size_preserved_ratio, as mtmd_image_preprocessor_dyn_size calls it), and
// the token cells that size holds. Usage: grid CELL MIN_TOKENS MAX_TOKENS W H [W H]...; CELL = patch x merge, the
// limits those of clip.cpp's set_limit_image_tokens (Gemma 4: 48 40 280; Mistral 3: 28 8 1024; Qwen: 32 8 4096).
#include "mtmd-image.cpp"

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: grid CELL MIN_TOKENS MAX_TOKENS W H [W H]...\n");
        return 1;
    }
    const int cell = std::atoi(argv[1]), min_tokens = std::atoi(argv[2]), max_tokens = std::atoi(argv[3]);
    for (int i = 4; i + 1 < argc; i += 2) {
        const clip_image_size in{std::atoi(argv[i]), std::atoi(argv[i + 1])};
        const clip_image_size out = img_tool::calc_size_preserved_ratio(in, cell, min_tokens * cell * cell, max_tokens * cell * cell);
        std::printf("%d x %d -> %d x %d: %d x %d cells, %d\n", in.width, in.height, out.width, out.height, out.width / cell, out.height / cell,
                    (out.width / cell) * (out.height / cell));
    }
    return 0;
}
