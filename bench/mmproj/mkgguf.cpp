// Writes synthetic (zero-weight, sparse) mmproj GGUF files with the metadata keys and
// tensor names/shapes/types that tools/mtmd/clip.cpp expects for a few projector families.
// Matrices f16, norms/biases/embeddings f32 (as convert_hf_to_gguf.py writes mmproj by default).
#include "ggml.h"
#include "gguf.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <unistd.h>

struct W {
    gguf_context * g;
    ggml_context * c;
    size_t data = 0;
    W() {
        g = gguf_init_empty();
        ggml_init_params p = { (size_t) 4096 * ggml_tensor_overhead(), nullptr, true };
        c = ggml_init(p);
    }
    void t(const std::string & name, ggml_type type, std::vector<int64_t> ne) {
        ggml_tensor * x = nullptr;
        switch (ne.size()) {
            case 1: x = ggml_new_tensor_1d(c, type, ne[0]); break;
            case 2: x = ggml_new_tensor_2d(c, type, ne[0], ne[1]); break;
            case 3: x = ggml_new_tensor_3d(c, type, ne[0], ne[1], ne[2]); break;
            case 4: x = ggml_new_tensor_4d(c, type, ne[0], ne[1], ne[2], ne[3]); break;
        }
        ggml_set_name(x, name.c_str());
        gguf_add_tensor(g, x);
        data += GGML_PAD(ggml_nbytes(x), gguf_get_alignment(g));
    }
    void m(const std::string & n, int64_t a, int64_t b) { t(n, GGML_TYPE_F16, {a, b}); }   // matrix [in, out]
    void v(const std::string & n, int64_t a)            { t(n, GGML_TYPE_F32, {a}); }      // vector
    void u32(const char * k, uint32_t x) { gguf_set_val_u32(g, k, x); }
    void f32(const char * k, float x) { gguf_set_val_f32(g, k, x); }
    void b(const char * k, bool x) { gguf_set_val_bool(g, k, x); }
    void s(const char * k, const char * x) { gguf_set_val_str(g, k, x); }
    void mean_std() {
        float m3[3] = {0.5f, 0.5f, 0.5f};
        gguf_set_arr_data(g, "clip.vision.image_mean", GGUF_TYPE_FLOAT32, m3, 3);
        gguf_set_arr_data(g, "clip.vision.image_std",  GGUF_TYPE_FLOAT32, m3, 3);
    }
    void vision_common(const char * proj, int n_embd, int n_ff, int n_layer, int n_head, int img, int patch, int proj_dim, float eps) {
        gguf_set_val_str(g, "general.architecture", "clip");
        gguf_set_val_u32(g, "general.file_type", 1);
        s("clip.projector_type", proj);
        b("clip.has_vision_encoder", true);
        u32("clip.vision.projection_dim", proj_dim);
        u32("clip.vision.image_size", img);
        u32("clip.vision.patch_size", patch);
        u32("clip.vision.embedding_length", n_embd);
        u32("clip.vision.feed_forward_length", n_ff);
        u32("clip.vision.block_count", n_layer);
        u32("clip.vision.attention.head_count", n_head);
        f32("clip.vision.attention.layer_norm_epsilon", eps);
        mean_std();
    }
    void write(const char * fname) {
        gguf_write_to_file(g, fname, true);
        size_t meta = gguf_get_meta_size(g);
        if (truncate(fname, meta + data) != 0) { perror("truncate"); exit(1); }
        printf("wrote %s: %lld tensors, meta %zu + data %zu bytes\n", fname, (long long) gguf_get_n_tensors(g), meta, data);
    }
};

static std::string L(int il, const char * what) { char buf[128]; snprintf(buf, sizeof(buf), "v.blk.%d.%s", il, what); return buf; }

// Layer il's four attention matrices E x E (and their biases when `bias`).
static void attention(W & w, int il, int E, bool bias) {
    for (const char * n : {"attn_q", "attn_k", "attn_v", "attn_out"}) {
        w.m(L(il, (std::string(n) + ".weight").c_str()), E, E);
        if (bias) w.v(L(il, (std::string(n) + ".bias").c_str()), E);
    }
}

// A biased LayerNorm ViT layer with a GELU feed-forward (Llama 4, SigLIP): attention, ln1, ln2, up and down.
static void biased_layer(W & w, int il, int E, int F) {
    attention(w, il, E, true);
    w.v(L(il, "ln1.weight"), E); w.v(L(il, "ln1.bias"), E);
    w.v(L(il, "ln2.weight"), E); w.v(L(il, "ln2.bias"), E);
    w.m(L(il, "ffn_up.weight"), E, F);   w.v(L(il, "ffn_up.bias"), F);
    w.m(L(il, "ffn_down.weight"), F, E); w.v(L(il, "ffn_down.bias"), E);
}

// pixtral / mistral3: RMSNorm, gated SiLU FFN, no attn biases, 2D RoPE
static void pixtral(const char * out, int patch, int img, int merge, int text, bool mm_bias) {
    const int E = 1024, F = 4096, NL = 24, H = 16;
    W w;
    w.vision_common("pixtral", E, F, NL, H, img, patch, text, 1e-5f);
    w.b("clip.use_silu", true);
    if (merge > 0) w.u32("clip.vision.spatial_merge_size", merge);
    w.t("v.patch_embd.weight", GGML_TYPE_F16, {patch, patch, 3, E});
    w.v("v.pre_ln.weight", E);
    for (int il = 0; il < NL; il++) {
        w.m(L(il, "attn_q.weight"), E, E);
        w.m(L(il, "attn_k.weight"), E, E);
        w.m(L(il, "attn_v.weight"), E, E);
        w.m(L(il, "attn_out.weight"), E, E);
        w.v(L(il, "ln1.weight"), E);
        w.v(L(il, "ln2.weight"), E);
        w.m(L(il, "ffn_gate.weight"), E, F);
        w.m(L(il, "ffn_up.weight"), E, F);
        w.m(L(il, "ffn_down.weight"), F, E);
    }
    if (merge > 0) {
        w.v("mm.input_norm.weight", E);
        w.m("mm.patch_merger.weight", E * merge * merge, E);
    }
    w.m("mm.1.weight", E, text);
    if (mm_bias) w.v("mm.1.bias", text);
    w.m("mm.2.weight", text, text);
    if (mm_bias) w.v("mm.2.bias", text);
    w.v("v.token_embd.img_break", text);
    w.write(out);
}

// llama4: LayerNorm w/ bias, GELU FFN with biases, attn biases, CLS + learned pos + 2D RoPE, pixel shuffle
static void llama4(const char * out, int IMG) {
    const int E = 1408, F = 5632, NL = 34, H = 16, P = 14, TEXT = 5120, PROJ = 4096, SF = 2;
    const int npos = (IMG / P) * (IMG / P) + 1;
    W w;
    w.vision_common("llama4", E, F, NL, H, IMG, P, TEXT, 1e-5f);
    w.b("clip.use_gelu", true);
    w.u32("clip.vision.projector.scale_factor", SF);
    w.m("v.patch_embd.weight", P * P * 3, E);
    w.v("v.class_embd", E);
    w.t("v.position_embd.weight", GGML_TYPE_F32, {E, npos});
    w.v("v.pre_ln.weight", E); w.v("v.pre_ln.bias", E);
    w.v("v.post_ln.weight", E); w.v("v.post_ln.bias", E);
    for (int il = 0; il < NL; il++) biased_layer(w, il, E, F);
    w.m("mm.model.mlp.1.weight", E * SF * SF, PROJ);
    w.m("mm.model.mlp.2.weight", PROJ, PROJ);
    w.m("mm.model.fc.weight", PROJ, TEXT);
    w.write(out);
}

// gemma3: SigLIP-so400m, LayerNorm w/ bias, gelu (tanh) FFN w/ bias, learned pos, avg-pool 4x4, soft-emb norm, input projection
static void gemma3(const char * out) {
    const int E = 1152, F = 4304, NL = 27, H = 16, P = 14, IMG = 896, TEXT = 3840;
    const int npos = (IMG / P) * (IMG / P);
    W w;
    w.vision_common("gemma3", E, F, NL, H, IMG, P, TEXT, 1e-6f);
    w.b("clip.use_gelu", true);
    w.t("v.patch_embd.weight", GGML_TYPE_F16, {P, P, 3, E});
    w.v("v.patch_embd.bias", E);
    w.t("v.position_embd.weight", GGML_TYPE_F32, {E, npos});
    w.v("v.post_ln.weight", E); w.v("v.post_ln.bias", E);
    for (int il = 0; il < NL; il++) biased_layer(w, il, E, F);
    w.v("mm.soft_emb_norm.weight", E);
    w.m("mm.input_projection.weight", TEXT, E); // ne = [text, vision]; graph transposes it
    w.write(out);
}

// qwen2.5-vl: RMSNorm, gated SiLU FFN w/ bias, attn biases, M-RoPE, window attention (n_wa_pattern 8), 2x2 merger MLP
static void qwen25vl(const char * out) {
    const int E = 1280, F = 3420, NL = 32, H = 16, P = 14, OUT = 2048;
    W w;
    w.vision_common("qwen2.5vl_merger", E, F, NL, H, 560, P, OUT, 1e-6f);
    w.b("clip.use_silu", true);
    w.u32("clip.vision.n_wa_pattern", 8);
    w.u32("clip.vision.spatial_merge_size", 2);
    w.t("v.patch_embd.weight",   GGML_TYPE_F16, {P, P, 3, E});
    w.t("v.patch_embd.weight.1", GGML_TYPE_F16, {P, P, 3, E});
    for (int il = 0; il < NL; il++) {
        attention(w, il, E, true);
        w.v(L(il, "ln1.weight"), E);
        w.v(L(il, "ln2.weight"), E);
        w.m(L(il, "ffn_gate.weight"), E, F); w.v(L(il, "ffn_gate.bias"), F);
        w.m(L(il, "ffn_up.weight"), E, F);   w.v(L(il, "ffn_up.bias"), F);
        w.m(L(il, "ffn_down.weight"), F, E); w.v(L(il, "ffn_down.bias"), E);
    }
    w.v("v.post_ln.weight", E);
    w.m("mm.0.weight", 4 * E, 4 * E); w.v("mm.0.bias", 4 * E);
    w.m("mm.2.weight", 4 * E, OUT);   w.v("mm.2.bias", OUT);
    w.write(out);
}

// gemma4 vision (gemma4v): RMSNorm, per-head q/k norm, post-attn/post-ffn norms, gated FFN, layer out scale,
// 2D (x,y) learned pos tables + 2D NeoX RoPE, 3x3 avg pool, optional standardize, rms norm + input projection
static void gemma4v(const char * out, int E, int F, int NL, int H, int text, bool standardize) {
    const int P = 16, D = E / H;
    W w;
    w.vision_common("gemma4v", E, F, NL, H, 224, P, text, 1e-6f);
    w.b("clip.use_gelu", true);
    w.u32("clip.vision.attention.head_dim", D);
    w.t("v.patch_embd.weight", GGML_TYPE_F16, {P, P, 3, E});
    w.t("v.position_embd.weight", GGML_TYPE_F32, {E, 10240, 2});
    for (int il = 0; il < NL; il++) {
        attention(w, il, E, false);
        w.v(L(il, "attn_q_norm.weight"), D);
        w.v(L(il, "attn_k_norm.weight"), D);
        w.v(L(il, "ln1.weight"), E);
        w.v(L(il, "ln2.weight"), E);
        w.v(L(il, "attn_post_norm.weight"), E);
        w.v(L(il, "ffn_post_norm.weight"), E);
        w.m(L(il, "ffn_gate.weight"), E, F);
        w.m(L(il, "ffn_up.weight"), E, F);
        w.m(L(il, "ffn_down.weight"), F, E);
        w.v(L(il, "out_scale.weight"), 1);
    }
    if (standardize) { w.v("v.std_bias", E); w.v("v.std_scale", E); }
    w.m("mm.input_projection.weight", E, text);
    w.write(out);
}

// voxtral: whisper encoder (conv1d x2, learned pos, LayerNorm, GELU FFN), avgpool 2, stack 4, 2-layer MLP projector
static void voxtral(const char * out) {
    const int E = 1280, F = 5120, NL = 32, H = 20, MEL = 128, TEXT = 3072, STACK = 4;
    W w;
    gguf_set_val_str(w.g, "general.architecture", "clip");
    w.s("clip.projector_type", "voxtral");
    w.b("clip.has_audio_encoder", true);
    w.u32("clip.audio.projection_dim", TEXT);
    w.u32("clip.audio.embedding_length", E);
    w.u32("clip.audio.feed_forward_length", F);
    w.u32("clip.audio.block_count", NL);
    w.u32("clip.audio.attention.head_count", H);
    w.f32("clip.audio.attention.layer_norm_epsilon", 1e-5f);
    w.u32("clip.audio.num_mel_bins", MEL);
    w.u32("clip.audio.projector.stack_factor", STACK);
    w.t("a.conv1d.1.weight", GGML_TYPE_F16, {3, MEL, E}); w.t("a.conv1d.1.bias", GGML_TYPE_F32, {1, E});
    w.t("a.conv1d.2.weight", GGML_TYPE_F16, {3, E, E});   w.t("a.conv1d.2.bias", GGML_TYPE_F32, {1, E});
    w.t("a.position_embd.weight", GGML_TYPE_F32, {E, 1500});
    auto A = [](int il, const char * what) { char b[128]; snprintf(b, sizeof(b), "a.blk.%d.%s", il, what); return std::string(b); };
    for (int il = 0; il < NL; il++) {
        w.m(A(il, "attn_q.weight"), E, E); w.v(A(il, "attn_q.bias"), E);
        w.m(A(il, "attn_k.weight"), E, E);
        w.m(A(il, "attn_v.weight"), E, E); w.v(A(il, "attn_v.bias"), E);
        w.m(A(il, "attn_out.weight"), E, E); w.v(A(il, "attn_out.bias"), E);
        w.v(A(il, "ln1.weight"), E); w.v(A(il, "ln1.bias"), E);
        w.v(A(il, "ln2.weight"), E); w.v(A(il, "ln2.bias"), E);
        w.m(A(il, "ffn_up.weight"), E, F);   w.v(A(il, "ffn_up.bias"), F);
        w.m(A(il, "ffn_down.weight"), F, E); w.v(A(il, "ffn_down.bias"), E);
    }
    w.v("a.post_ln.weight", E); w.v("a.post_ln.bias", E);
    w.m("mm.a.mlp.1.weight", E * STACK, TEXT);
    w.m("mm.a.mlp.2.weight", TEXT, TEXT);
    w.write(out);
}

// gemma4a: Gemma 4 audio conformer (USM-style). Names/shapes as conversion/gemma.py (Gemma4VisionAudioModel)
// + gguf-py tensor_mapping.py write them, read by clip.cpp load_tensors (PROJECTOR_TYPE_GEMMA4A) / models/gemma4a.cpp.
// Conv weights forced F32 by tensor_force_quant (".conv"/"_conv"), incl. a.input_projection (HF name
// subsample_conv_projection.input_proj_linear contains "_conv"); other matrices f16; norms f32.
// HF: subsample layer{0,1}.conv Conv2d(3x3, s2, p1, bias=False) + LayerNorm(C, bias=False);
// input_proj_linear ((c0/4)*c1 -> hidden, no bias); per layer: feed_forward1/2 (pre/post RMSNorm, 1024->4096->1024),
// norm_pre_attn, q/k/v/post, relative_k_proj, per_dim_scale[d_head], norm_post_attn,
// lconv1d (pre_layer_norm, linear_start h->2h, depthwise_conv1d [h,1,K] -> [h,K], conv_norm, linear_end h->h), norm_out;
// output_proj (hidden -> 1536, bias=True); embed_audio.embedding_projection (1536 -> text).
static void gemma4a(const char * out, int text) {
    const int E = 1024, NL = 12, H = 8, MEL = 128, C0 = 128, C1 = 32, K = 5, OUTP = 1536, D = E / H;
    const int F = E * 4;
    W w;
    gguf_set_val_str(w.g, "general.architecture", "clip");
    gguf_set_val_u32(w.g, "general.file_type", 1);
    w.s("clip.audio.projector_type", "gemma4a");
    w.b("clip.has_audio_encoder", true);
    w.u32("clip.audio.projection_dim", text);
    w.u32("clip.audio.embedding_length", E);
    w.u32("clip.audio.feed_forward_length", F);
    w.u32("clip.audio.block_count", NL);
    w.u32("clip.audio.attention.head_count", H);
    w.f32("clip.audio.attention.layer_norm_epsilon", 1e-6f);
    w.u32("clip.audio.num_mel_bins", MEL);
    w.t("a.conv1d.0.weight", GGML_TYPE_F32, {3, 3, 1, C0});
    w.v("a.conv1d.0.norm.weight", C0);
    w.t("a.conv1d.1.weight", GGML_TYPE_F32, {3, 3, C0, C1});
    w.v("a.conv1d.1.norm.weight", C1);
    w.t("a.input_projection.weight", GGML_TYPE_F32, {(MEL / 4) * C1, E});
    auto A = [](int il, const char * what) { char b[128]; snprintf(b, sizeof(b), "a.blk.%d.%s", il, what); return std::string(b); };
    for (int il = 0; il < NL; il++) {
        w.v(A(il, "ffn_norm.weight"), E);
        w.m(A(il, "ffn_up.weight"), E, F);
        w.m(A(il, "ffn_down.weight"), F, E);
        w.v(A(il, "ffn_post_norm.weight"), E);
        w.v(A(il, "attn_pre_norm.weight"), E);
        w.m(A(il, "attn_q.weight"), E, E);
        w.m(A(il, "attn_k.weight"), E, E);
        w.m(A(il, "attn_v.weight"), E, E);
        w.m(A(il, "attn_out.weight"), E, E);
        w.m(A(il, "attn_k_rel.weight"), E, E);
        w.v(A(il, "per_dim_scale.weight"), D);
        w.v(A(il, "attn_post_norm.weight"), E);
        w.v(A(il, "conv_norm.weight"), E);          // lconv1d.pre_layer_norm (loaded as norm_conv_w)
        w.m(A(il, "conv_pw1.weight"), E, 2 * E);
        w.t(A(il, "conv_dw.weight"), GGML_TYPE_F32, {K, E});
        w.v(A(il, "norm_conv.weight"), E);          // lconv1d.conv_norm (loaded as conv_norm_w)
        w.m(A(il, "conv_pw2.weight"), E, E);
        w.v(A(il, "ffn_norm_1.weight"), E);
        w.m(A(il, "ffn_up_1.weight"), E, F);
        w.m(A(il, "ffn_down_1.weight"), F, E);
        w.v(A(il, "ffn_post_norm_1.weight"), E);
        w.v(A(il, "ln2.weight"), E);                // norm_out
    }
    w.m("a.pre_encode.out.weight", E, OUTP);
    w.v("a.pre_encode.out.bias", OUTP);
    w.m("mm.a.input_projection.weight", OUTP, text);
    w.write(out);
}

// qwen3vl (Qwen3-VL, Qwen3.5 converted as Qwen3-VL): names/shapes as conversion/qwen3vl.py (Qwen3VLVisionModel)
// + tensor_mapping.py write them, read by clip.cpp load_tensors (PROJECTOR_TYPE_QWEN3VL) / models/qwen3vl.cpp.
// LayerNorm w/ bias (norm1/norm2), fused qkv w/ bias, attn proj w/ bias, GELU FFN (linear_fc1/fc2) w/ bias,
// Conv3D patch embed (temporal 2) split into v.patch_embd.weight / .weight.1 (f16) + v.patch_embd.bias,
// learned pos table v.position_embd.weight [E, num_position_embeddings] (forced F32 by the converter),
// image_size = sqrt(num_position_embeddings)*patch = 768; merger: norm (post_ln, [E]) -> mm.0 (4E->4E) -> GELU -> mm.2 (4E->T);
// deepstack mergers v.deepstack.<layer>.{norm [4E], fc1 4E->4E, fc2 4E->T} at the absolute layer indexes.
static void qwen3vl(const char * out, int text, std::vector<int> deepstack, int E = 1152, int F = 4304, int NL = 27) {
    const int H = 16, P = 16, NPOS = 2304, MERGE = 2;
    const int IMG = 48 * P; // sqrt(2304) * 16 = 768
    W w;
    w.vision_common("qwen3vl_merger", E, F, NL, H, IMG, P, text, 1e-6f);
    w.b("clip.use_gelu", true);
    w.u32("clip.vision.spatial_merge_size", MERGE);
    if (!deepstack.empty()) {
        std::vector<int8_t> is_ds(NL, 0);
        for (int i : deepstack) is_ds[i] = 1;
        gguf_set_arr_data(w.g, "clip.vision.is_deepstack_layers", GGUF_TYPE_BOOL, is_ds.data(), NL);
    }
    w.t("v.patch_embd.weight",   GGML_TYPE_F16, {P, P, 3, E});
    w.t("v.patch_embd.weight.1", GGML_TYPE_F16, {P, P, 3, E});
    w.v("v.patch_embd.bias", E);
    w.t("v.position_embd.weight", GGML_TYPE_F32, {E, NPOS});
    for (int il = 0; il < NL; il++) {
        w.m(L(il, "attn_qkv.weight"), E, 3 * E); w.v(L(il, "attn_qkv.bias"), 3 * E);
        w.m(L(il, "attn_out.weight"), E, E);     w.v(L(il, "attn_out.bias"), E);
        w.v(L(il, "ln1.weight"), E); w.v(L(il, "ln1.bias"), E);
        w.v(L(il, "ln2.weight"), E); w.v(L(il, "ln2.bias"), E);
        w.m(L(il, "ffn_up.weight"), E, F);   w.v(L(il, "ffn_up.bias"), F);
        w.m(L(il, "ffn_down.weight"), F, E); w.v(L(il, "ffn_down.bias"), E);
    }
    const int E4 = E * MERGE * MERGE;
    for (int il : deepstack) {
        char b[128];
        snprintf(b, sizeof(b), "v.deepstack.%d.norm.weight", il); w.v(b, E4);
        snprintf(b, sizeof(b), "v.deepstack.%d.norm.bias", il);   w.v(b, E4);
        snprintf(b, sizeof(b), "v.deepstack.%d.fc1.weight", il);  w.m(b, E4, E4);
        snprintf(b, sizeof(b), "v.deepstack.%d.fc1.bias", il);    w.v(b, E4);
        snprintf(b, sizeof(b), "v.deepstack.%d.fc2.weight", il);  w.m(b, E4, text);
        snprintf(b, sizeof(b), "v.deepstack.%d.fc2.bias", il);    w.v(b, text);
    }
    w.v("v.post_ln.weight", E); w.v("v.post_ln.bias", E);
    w.m("mm.0.weight", E4, E4);  w.v("mm.0.bias", E4);
    w.m("mm.2.weight", E4, text); w.v("mm.2.bias", text);
    w.write(out);
}

int main(int argc, char ** argv) {
    if (argc < 3) { fprintf(stderr, "usage: mkgguf <family> <out.gguf>\n"); return 1; }
    std::string f = argv[1];
    const char * out = argv[2];
    if (f == "mistral-small-3.1") pixtral(out, 14, 1540, 2, 5120, false);
    else if (f == "ministral-3-3b") pixtral(out, 14, 1540, 2, 3072, false);
    else if (f == "pixtral-12b")    pixtral(out, 16, 1024, 0, 5120, true);
    else if (f == "llama4")   llama4(out, 336);
    else if (f == "llama4-448") llama4(out, 448);
    else if (f == "llama4-672") llama4(out, 672);
    else if (f == "gemma3")   gemma3(out);
    else if (f == "qwen25vl") qwen25vl(out);
    else if (f == "gemma4-e2b")  gemma4v(out, 768, 3072, 16, 12, 1536, false);
    else if (f == "gemma4-26b")  gemma4v(out, 1152, 4304, 27, 16, 2816, true);
    else if (f == "voxtral-mini") voxtral(out);
    else if (f == "gemma4a-e2b") gemma4a(out, 1536);
    else if (f == "gemma4a-e4b") gemma4a(out, 2560);
    else if (f == "qwen3vl-8b")      qwen3vl(out, 4096, {8, 16, 24});
    else if (f == "qwen3vl-30b-a3b") qwen3vl(out, 2048, {8, 16, 24});
    else if (f == "qwen35-27b")      qwen3vl(out, 5120, {});
    // smaller Qwen3-VL towers (depth 24, hidden 1024, intermediate 4096, deepstack [5,11,17]); only for the
    // comparison with the published 4728 / 323 MiB figures
    else if (f == "qwen3vl-4b")      qwen3vl(out, 2560, {5, 11, 17}, 1024, 4096, 24);
    else if (f == "qwen3vl-2b")      qwen3vl(out, 2048, {5, 11, 17}, 1024, 4096, 24);
    else { fprintf(stderr, "unknown family\n"); return 1; }
    return 0;
}
