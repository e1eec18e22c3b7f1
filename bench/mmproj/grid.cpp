// grid: how llama.cpp's mtmd cuts an image before its clip graph, from tools/mtmd/mtmd-image.cpp compiled here
// unchanged by including it.
//   grid CELL MIN_TOKENS MAX_TOKENS W H [W H]...  the dyn_size preprocessor's resize (img_tool::calc_size_preserved_ratio);
//       CELL = patch x merge, the limits those of clip.cpp's set_limit_image_tokens (Gemma 4: 48 40 280; Mistral 3:
//       28 8 1024; Qwen: 32 8 4096): the resized size and its token cells.
//   grid MMPROJ.gguf W H [W H]...  the llava_uhd preprocessor's slicing (get_slice_instructions) for the file's tower
//       as clip_init loads it (Llama 4: 336-pixel tiles, the candidates of set_llava_uhd_res_candidates): the tile grid.
#include "mtmd-image.cpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "clip.h"

int main(int argc, char** argv) {
    if (argc >= 4 && std::strstr(argv[1], ".gguf") != nullptr) {
        clip_context_params p = {};
        p.use_gpu = false;
        p.image_min_tokens = -1;
        p.image_max_tokens = -1;
        p.warmup = false;
        const clip_init_result r = clip_init(argv[1], p);
        if (r.ctx_v == nullptr) {
            std::fprintf(stderr, "%s: no vision tower\n", argv[1]);
            return 1;
        }
        mtmd_image_preprocessor_llava_uhd uhd(r.ctx_v);
        for (int i = 2; i + 1 < argc; i += 2) {
            const clip_image_size in{std::atoi(argv[i]), std::atoi(argv[i + 1])};
            const auto inst = uhd.get_slice_instructions(in);
            std::printf("%d x %d -> overview %d x %d, refined %d x %d, %d x %d tiles\n", in.width, in.height, inst.overview_size.width,
                        inst.overview_size.height, inst.refined_size.width, inst.refined_size.height, inst.grid_size.width, inst.grid_size.height);
        }
        clip_free(r.ctx_v);
        return 0;
    }
    if (argc < 6) {
        std::fprintf(stderr, "usage: grid CELL MIN_TOKENS MAX_TOKENS W H [W H]... | grid MMPROJ.gguf W H [W H]...\n");
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
