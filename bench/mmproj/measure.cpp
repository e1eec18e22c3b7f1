// Measures clip's compute buffer on the CPU backend.
// usage: measure <mmproj.gguf> <fa 0|1> [W H]
//  - without W H: clip_init(warmup=true) -> exactly the warm-up reserve (get_dummy_batch, warmup_image_size)
//  - with W H:    clip_init(warmup=false), then clip_image_batch_encode() with a WxH zero image; clip_encode()
//                 runs the same clip_model_loader::warmup(ctx, batch) reserve path on that batch first.
//                 The actual compute is cancelled after the first graph node via the sched eval callback.
// compute bytes = clip_get_mem_usage(after reserve) - clip_get_mem_usage(weights only ctx)
#include "clip.h"
#include "clip-impl.h"
#include "ggml-backend.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>


static bool verbose = getenv("VERBOSE") != nullptr;
static void logcb(enum ggml_log_level level, const char * text, void *) {
    if (verbose || strstr(text, "compute buffer") || strstr(text, "warmup with") || strstr(text, "flash attention")
        || strstr(text, "graph splits") || level >= GGML_LOG_LEVEL_WARN) {
        fputs(text, stderr);
    }
}

static int n_eval = 0;
static bool abort_cb(struct ggml_tensor *, bool ask, void *) {
    if (ask) return true;   // want to observe the first node
    n_eval++;
    return false;           // stop after it
}

static size_t total(const clip_ctx * c) {
    size_t s = 0;
    for (auto & kv : clip_get_mem_usage(c)) s += kv.second;
    return s;
}

static clip_ctx * pick(clip_init_result r) { return r.ctx_v ? r.ctx_v : r.ctx_a; }

int main(int argc, char ** argv) {
    if (argc < 3) { fprintf(stderr, "usage: measure <gguf> <fa 0|1> [W H]\n"); return 1; }
    const char * fname = argv[1];
    const bool fa = atoi(argv[2]) != 0;
    const bool custom = argc >= 5;
    int W = custom ? atoi(argv[3]) : 0, H = custom ? atoi(argv[4]) : 0;

    g_logger_state.log_callback = logcb;
    ggml_log_set(logcb, nullptr);

    clip_context_params p = {};
    p.use_gpu = false;
    p.flash_attn_type = fa ? CLIP_FLASH_ATTN_TYPE_ENABLED : CLIP_FLASH_ATTN_TYPE_DISABLED;
    p.image_min_tokens = -1;
    p.image_max_tokens = -1;
    p.warmup = false;
    p.no_alloc = false;

    // weights-only context
    clip_ctx * c0 = pick(clip_init(fname, p));
    if (!c0) { fprintf(stderr, "init failed\n"); return 1; }
    const size_t weights = total(c0);
    clip_free(c0);

    size_t after = 0;
    if (!custom) {
        p.warmup = true;
        clip_ctx * c1 = pick(clip_init(fname, p));
        after = total(c1);
        clip_free(c1);
    } else {
        p.warmup = false;
        p.cb_eval = abort_cb;
        p.cb_eval_user_data = nullptr;
        clip_init_result r1 = clip_init(fname, p);
        clip_ctx * c1 = pick(r1);
        const bool is_audio = (c1 == r1.ctx_a);   // audio: W = mel frames, H = n_mel, buf = W*H (1 channel)
        clip_image_f32_batch batch;
        clip_image_f32 img;
        img.set_size({W, H}, false, is_audio);
        batch.entries.push_back(img);
        batch.is_audio = is_audio;              // mtmd.cpp sets this for audio chunks; only selects the input copy path
        std::vector<float> out;
        clip_image_batch_encode(c1, 2, &batch, out);
        after = total(c1);
        clip_free(c1);
    }
    const size_t comp = after - weights;
    printf("RESULT file=%s fa=%d img=%s weights_bytes=%zu compute_bytes=%zu compute_MiB=%.2f\n",
           fname, fa ? 1 : 0, custom ? (std::to_string(W) + "x" + std::to_string(H)).c_str() : "warmup",
           weights, comp, comp / 1024.0 / 1024.0);
    return 0;
}
