// Vision towers counted as transformers builds them (src/transformers/models/siglip, gemma3, llama4,
// qwen2_5_vl, qwen3_vl, qwen3_5, pixtral, mistral3 modeling files) and image tokens as their processors expand them
// (processing_gemma3.py image_seq_length, qwen2_vl image_processing smart_resize, pixtral/mistral3 processing).
// Each total is checked in tests/core/vision_test.cpp against the checkpoint's published count.
#include "vision.hpp"

#include <algorithm>
#include <cmath>

#include "quantity.hpp"

namespace llm_memory {
namespace {

constexpr std::uint64_t kMaxDim = 1'000'000;
constexpr std::uint64_t kMaxImageSide = 100'000;
constexpr std::uint64_t kLlama4MaxTiles = 16;  // Llama4ImageProcessorFast.max_patches

// Reads whole numbers from one JSON object; the first problem is kept, named "vision_config.<key>".
struct Reader {
    const JsonValue& object;
    std::string prefix;
    std::string error;

    std::uint64_t get(const char* key, std::uint64_t fallback, bool required, std::uint64_t minimum = 1,
                      std::uint64_t maximum = kMaxDim) {
        if (!error.empty()) return fallback;
        const JsonValue* value = object.find(key);
        if (value == nullptr || value->is_null()) {
            if (required) error = prefix + key + ": is missing";
            return fallback;
        }
        if (!value->is_unsigned() || value->unsigned_value() < minimum || value->unsigned_value() > maximum) {
            error = prefix + key + ": must be a whole number from " + std::to_string(minimum) + " to " +
                    format_count_exact(maximum);
            return fallback;
        }
        return value->unsigned_value();
    }
    std::uint64_t need(const char* key, std::uint64_t minimum = 1) { return get(key, 0, true, minimum); }
    std::uint64_t opt(const char* key, std::uint64_t fallback) { return get(key, fallback, false); }
    bool flag(const char* key, bool fallback) {
        const JsonValue* value = object.find(key);
        if (!error.empty() || value == nullptr || value->is_null()) return fallback;
        if (!value->is_boolean()) {
            error = prefix + key + ": must be true or false";
            return fallback;
        }
        return value->boolean();
    }
};

std::string text_of(const JsonValue& object, const char* key) {
    const JsonValue* value = object.find(key);
    return value != nullptr && value->is_string() ? value->text() : std::string();
}

u128 linear(u128 in, u128 out, bool bias) { return in * out + (bias ? out : 0); }

}  // namespace

const char* vision_kind_name(VisionKind kind) {
    switch (kind) {
        case VisionKind::gemma3_siglip: return "SigLIP (Gemma 3)";
        case VisionKind::llama4: return "Llama 4 vision encoder";
        case VisionKind::qwen2_5_vl: return "Qwen2.5-VL ViT";
        case VisionKind::qwen3_5: return "Qwen3.5 ViT";
        case VisionKind::qwen3_vl: return "Qwen3-VL ViT";
        case VisionKind::gemma4: return "Gemma 4 vision encoder";
        case VisionKind::mistral3_pixtral: return "Pixtral (Mistral 3)";
        case VisionKind::llava_pixtral: return "Pixtral (LLaVA)";
        case VisionKind::voxtral: return "Voxtral audio encoder";
        case VisionKind::none: break;
    }
    return "none";
}

Expected<VisionTower> read_vision_tower(const JsonValue& document, std::uint64_t text_hidden) {
    VisionTower t;
    const std::string top_type = text_of(document, "model_type");
    if (top_type == "voxtral") {
        // VoxtralForConditionalGeneration: the audio tower is a Whisper encoder: conv1 (mel bins -> width) and conv2
        // (width -> width, stride 2), kernel 3, biased; a position table of max_source_positions x width (the checkpoint
        // keeps it, in fp32); per layer q, v and out_proj biased and k_proj not, fc1/fc2 biased, two LayerNorms; a final
        // LayerNorm. VoxtralMultiModalProjector stacks intermediate_size / width frames: linear_1 (intermediate_size -> the
        // text width) and linear_2 (text -> text), no biases. A key left out takes VoxtralEncoderConfig's default.
        const JsonValue* audio = document.find("audio_config");
        if (audio == nullptr || !audio->is_object()) return Error{"audio_config: must be an object"};
        Reader a{*audio, "audio_config.", {}};
        const u128 h = a.opt("hidden_size", 1280), i = a.opt("intermediate_size", 5120), layers = a.opt("num_hidden_layers", 32);
        const u128 mels = a.opt("num_mel_bins", 128), positions = a.opt("max_source_positions", 1500), heads = a.opt("num_attention_heads", 20);
        if (!a.error.empty()) return Error{a.error};
        t.kind = VisionKind::voxtral;
        t.audio = true;
        t.hidden_size = static_cast<std::uint64_t>(h);
        t.intermediate_size = static_cast<std::uint64_t>(i);
        t.attention_heads = static_cast<std::uint64_t>(heads);
        t.encoder_count = static_cast<std::uint64_t>(linear(3 * mels, h, true) + linear(3 * h, h, true) + positions * h +
                                                     layers * (3 * linear(h, h, true) + h * h + linear(h, i, true) + linear(i, h, true) + 4 * h) +
                                                     2 * h);
        t.projector_count = static_cast<std::uint64_t>(i * text_hidden + static_cast<u128>(text_hidden) * text_hidden);
        return t;
    }
    const JsonValue* vision = document.find("vision_config");
    if (vision == nullptr || vision->is_null() || (vision->is_object() && vision->members().empty())) return t;
    if (!vision->is_object()) return Error{"vision_config: must be an object"};
    const std::string vision_type = text_of(*vision, "model_type");
    Reader v{*vision, "vision_config.", {}};
    Reader top{document, "", {}};
    u128 encoder = 0, projector = 0, width = 0, ffn = 0, head_count = 0;  // the widths: for the engines' graph sizing

    if (top_type == "gemma3" || vision_type == "siglip_vision_model") {
        // SiglipVisionTransformer without a head (vision_use_head false): biased patch conv, a learned
        // position per patch, LayerNorms, biased attention and fc1/fc2; Gemma3MultiModalProjector: an
        // unbiased vision x text matrix and an RMSNorm over the vision width.
        t.kind = VisionKind::gemma3_siglip;
        const u128 h = v.need("hidden_size"), i = v.need("intermediate_size"), layers = v.need("num_hidden_layers");
        const u128 channels = v.opt("num_channels", 3);
        t.patch_size = v.need("patch_size");
        t.image_size = v.need("image_size");
        if (v.error.empty() && (v.flag("vision_use_head", true) && vision->find("vision_use_head") != nullptr))
            v.error = "vision_config.vision_use_head: true (a pooling head) is not modelled";
        if (!v.error.empty()) return Error{v.error};
        const u128 patches = static_cast<u128>(t.image_size / t.patch_size) * (t.image_size / t.patch_size);
        encoder = channels * t.patch_size * t.patch_size * h + h + patches * h +
                  layers * (4 * linear(h, h, true) + linear(h, i, true) + linear(i, h, true) + 2 * 2 * h) + 2 * h;
        projector = h * text_hidden + h;
        t.tokens_per_image = top.opt("mm_tokens_per_image", 256);
        width = h;
        ffn = i;
        head_count = v.opt("num_attention_heads", 12);  // SiglipVisionConfig's default
        if (!v.error.empty()) return Error{v.error};
    } else if (top_type == "llama4" || vision_type == "llama4_vision_model") {
        // Llama4VisionModel: an unbiased unfold-conv patch linear, class embedding, (patches + 1) positions,
        // pre/post LayerNorms, biased attention and MLP per layer, the pixel-shuffle adapter (two unbiased
        // linears); Llama4MultiModalProjector: vision_output_dim x text width.
        t.kind = VisionKind::llama4;
        const u128 h = v.need("hidden_size"), i = v.need("intermediate_size"), layers = v.need("num_hidden_layers");
        const u128 channels = v.opt("num_channels", 3);
        t.patch_size = v.need("patch_size");
        t.image_size = v.need("image_size");
        width = h;
        ffn = i;
        head_count = v.opt("num_attention_heads", 16);
        const u128 proj_in = v.need("projector_input_dim"), proj_out = v.need("projector_output_dim");
        const u128 out_dim = v.need("vision_output_dim");
        const bool bias = v.flag("multi_modal_projector_bias", false);
        if (!v.error.empty()) return Error{v.error};
        const u128 patches = static_cast<u128>(t.image_size / t.patch_size) * (t.image_size / t.patch_size);
        // Tokens per tile: the tile's patches after the pixel shuffle, which folds round(1 / ratio^2) patches into
        // one (processing_llama4.py: downsample_ratio; Llama4VisionConfig's pixel_shuffle_ratio defaults to 0.5).
        const JsonValue* shuffle = vision->find("pixel_shuffle_ratio");
        double ratio = 0.5;
        if (shuffle != nullptr && !shuffle->is_null()) {
            if (!shuffle->is_number() || !(shuffle->number() > 0.01 && shuffle->number() <= 1))
                return Error{"vision_config.pixel_shuffle_ratio: must be above 0.01 and at most 1"};
            ratio = shuffle->number();
        }
        const u128 fold = static_cast<u128>(std::llround(1.0 / (ratio * ratio)));
        t.tokens_per_image = static_cast<std::uint64_t>(patches / fold);
        encoder = channels * t.patch_size * t.patch_size * h + h + (patches + 1) * h + 2 * 2 * h +
                  layers * (4 * linear(h, h, true) + linear(h, i, true) + linear(i, h, true) + 2 * 2 * h) +
                  linear(i, proj_in, false) + linear(proj_out, proj_out, false);
        projector = linear(out_dim, text_hidden, bias);
    } else if (top_type == "qwen2_5_vl") {
        // Qwen2_5_VisionTransformerPretrainedModel: an unbiased Conv3d patch embedding, blocks of two RMSNorms,
        // biased qkv and proj, a biased gated SiLU MLP; the merger: RMSNorm + two biased linears over
        // merge^2 patches. Class defaults: patch 14, temporal patch 2, 3 channels, merge 2.
        t.kind = VisionKind::qwen2_5_vl;
        const u128 depth = v.need("depth"), h = v.need("hidden_size"), i = v.need("intermediate_size");
        const u128 out = v.need("out_hidden_size");
        t.patch_size = v.opt("patch_size", 14);
        const u128 temporal = v.opt("temporal_patch_size", 2);
        const u128 channels = vision->find("in_chans") != nullptr ? v.opt("in_chans", 3) : v.opt("in_channels", 3);
        t.merge_size = v.opt("spatial_merge_size", 2);
        if (!v.error.empty()) return Error{v.error};
        const u128 merged = h * t.merge_size * t.merge_size;
        encoder = channels * temporal * t.patch_size * t.patch_size * h +
                  depth * (2 * h + linear(h, 3 * h, true) + linear(h, h, true) + 2 * linear(h, i, true) + linear(i, h, true));
        projector = h + linear(merged, merged, true) + linear(merged, out, true);
        // Qwen/Qwen2.5-VL-*-Instruct's preprocessor_config.json: min_pixels 3,136, max_pixels 12,845,056 (the class
        // defaults' 1,003,520 is not what the repos ship).
        t.min_pixels = 3136;
        t.max_pixels = 12'845'056;
        width = h;
        ffn = i;
        head_count = v.opt("num_heads", 16);  // Qwen2_5_VLVisionConfig's default
    } else if (top_type == "qwen3_5" || top_type == "qwen3_5_moe" || vision_type == "qwen3_5_vision" || vision_type == "qwen3_5_moe_vision" ||
               top_type == "qwen3_vl" || top_type == "qwen3_vl_moe" || vision_type == "qwen3_vl" || vision_type == "qwen3_vl_moe") {
        // Qwen3VLVisionModel: a biased Conv3d patch embedding, a learned table of num_position_embeddings,
        // blocks of two LayerNorms (with bias), biased qkv and proj, a biased GELU MLP (fc1, fc2); the merger:
        // LayerNorm over the width, then two biased linears over merge^2 patches; one deepstack merger per
        // deepstack_visual_indexes entry (class default [8, 16, 24]), the same linears after a LayerNorm over the
        // merged width (use_postshuffle_norm). Qwen3_5VisionModel is the same without the deepstack mergers, whatever
        // deepstack_visual_indexes says. Class defaults: patch 16, temporal 2, 3 channels, merge 2, 2,304 positions.
        const bool qwen3_5 = top_type == "qwen3_5" || top_type == "qwen3_5_moe" || vision_type == "qwen3_5_vision" || vision_type == "qwen3_5_moe_vision";
        t.kind = qwen3_5 ? VisionKind::qwen3_5 : VisionKind::qwen3_vl;
        const u128 depth = v.need("depth"), h = v.need("hidden_size"), i = v.need("intermediate_size");
        const u128 out = v.need("out_hidden_size");
        t.patch_size = v.opt("patch_size", 16);
        const u128 temporal = v.opt("temporal_patch_size", 2), channels = v.opt("in_channels", 3);
        const u128 positions = v.opt("num_position_embeddings", 2304);
        t.merge_size = v.opt("spatial_merge_size", 2);
        if (!v.error.empty()) return Error{v.error};
        const u128 merged = h * t.merge_size * t.merge_size;
        encoder = linear(channels * temporal * t.patch_size * t.patch_size, h, true) + positions * h +
                  depth * (4 * h + linear(h, 3 * h, true) + linear(h, h, true) + linear(h, i, true) + linear(i, h, true));
        if (!qwen3_5) {
            const JsonValue* deepstack = vision->find("deepstack_visual_indexes");
            t.deepstack_mergers = 3;
            if (deepstack != nullptr && !deepstack->is_null()) {
                if (!deepstack->is_array()) return Error{"vision_config.deepstack_visual_indexes: must be a list of layer numbers"};
                for (const JsonValue& layer : deepstack->items())
                    if (!layer.is_unsigned() || layer.unsigned_value() >= depth)
                        return Error{"vision_config.deepstack_visual_indexes: each entry must be a layer number below depth " +
                                     std::to_string(static_cast<std::uint64_t>(depth))};
                t.deepstack_mergers = deepstack->items().size();
            }
        }
        projector = 2 * h + linear(merged, merged, true) + linear(merged, out, true) +
                    t.deepstack_mergers * (2 * merged + linear(merged, merged, true) + linear(merged, out, true));
        // The Qwen3-VL and Qwen3.5 repos' preprocessor_config.json: size shortest_edge 65,536, longest_edge 16,777,216
        // pixels (Qwen2VLImageProcessorFast's min and max pixels).
        t.min_pixels = 65'536;
        t.max_pixels = 16'777'216;
        t.out_hidden_size = static_cast<std::uint64_t>(out);
        width = h;
        ffn = i;
        head_count = v.opt("num_heads", 16);  // Qwen3VLVisionConfig's default
    } else if (top_type == "gemma4" || vision_type == "gemma4_vision") {
        // Gemma4VisionModel: patch_embedder.input_proj (3 x patch^2 -> width, no bias), a [2, positions, width]
        // position table, layers of q/k/v/o (no bias), q_norm and k_norm over head_dim (v_norm has no weight), a
        // gated MLP and four norms; with standardize, the std_bias and std_scale buffers the checkpoint stores (width
        // each). The pooler has no weights. embed_vision.embedding_projection: width -> the text width, no bias. The
        // clipping scalars of use_clipped_linears are 0-d buffers, no parameters in the checkpoint's count. A key left out
        // takes Gemma4VisionConfig's default (768 wide, 3072, 16 layers, 12 heads and KV heads of 64).
        t.kind = VisionKind::gemma4;
        const u128 h = v.opt("hidden_size", 768), i = v.opt("intermediate_size", 3072), layers = v.opt("num_hidden_layers", 16);
        const u128 heads = v.opt("num_attention_heads", 12), kv = v.opt("num_key_value_heads", 12), head_dim = v.opt("head_dim", 64);
        t.patch_size = v.opt("patch_size", 16);
        const u128 positions = v.opt("position_embedding_size", 10240);
        t.merge_size = v.opt("pooling_kernel_size", 3);
        const bool standardize = v.flag("standardize", false);
        t.tokens_per_image = top.opt("vision_soft_tokens_per_image", 280);  // the processor's max_soft_tokens
        if (!v.error.empty()) return Error{v.error};
        encoder = 3 * t.patch_size * t.patch_size * h + 2 * positions * h +
                  layers * (2 * heads * head_dim * h + 2 * kv * head_dim * h + 2 * head_dim + 3 * h * i + 4 * h) + (standardize ? 2 * h : 0);
        projector = h * text_hidden;
        width = h;
        ffn = i;
        head_count = heads;
        // The E2B and E4B's audio tower (Gemma4AudioModel, counted with the vision encoder: --text-only leaves both
        // out): the subsampling convs (1 -> c0 -> c1 channels, 3 x 3, no bias, each with a LayerNorm weight) and
        // input_proj_linear from (128 mel bins / 4) x c1; per conformer layer two feed-forwards (4 x width, pre and post
        // norms), q/k/v/post and relative_k_proj, per_dim_scale (one head), the light conv (linear_start 2 x width,
        // linear_end, a depthwise conv of conv_kernel_size, two norms) and three more norms; output_proj (biased) to
        // output_proj_dims; embed_audio from there to the text width. Gemma4AudioConfig's defaults stand in for keys
        // left out.
        if (const JsonValue* audio = document.find("audio_config"); audio != nullptr && !audio->is_null()) {
            if (!audio->is_object()) return Error{"audio_config: must be an object"};
            Reader a{*audio, "audio_config.", {}};
            const u128 w = a.opt("hidden_size", 1024), audio_layers = a.opt("num_hidden_layers", 12), audio_heads = a.opt("num_attention_heads", 8);
            const u128 kernel = a.opt("conv_kernel_size", 5), out = a.opt("output_proj_dims", 1536);
            u128 c0 = 128, c1 = 32;
            if (const JsonValue* channels = audio->find("subsampling_conv_channels"); channels != nullptr && !channels->is_null()) {
                if (!channels->is_array() || channels->items().size() != 2 || !channels->items()[0].is_unsigned() || !channels->items()[1].is_unsigned() ||
                    channels->items()[0].unsigned_value() == 0 || channels->items()[1].unsigned_value() == 0 ||
                    channels->items()[0].unsigned_value() > kMaxDim || channels->items()[1].unsigned_value() > kMaxDim)
                    return Error{"audio_config.subsampling_conv_channels: must be two channel counts, such as [128, 32]"};
                c0 = channels->items()[0].unsigned_value();
                c1 = channels->items()[1].unsigned_value();
            }
            if (!a.error.empty()) return Error{a.error};
            if (w % audio_heads != 0) return Error{"audio_config.num_attention_heads: must divide hidden_size"};
            encoder += 9 * c0 + c0 + 9 * c0 * c1 + c1 + (128 / 4) * c1 * w +
                       audio_layers * (24 * w * w + (9 + kernel) * w + w / audio_heads) + w * out + out;
            projector += out * text_hidden;
            t.audio = true;
        }
    } else if (top_type == "mistral3" || vision_type == "pixtral") {
        // PixtralVisionModel: an unbiased patch conv, ln_pre, per layer two RMSNorms, unbiased attention and gated
        // MLP (2D RoPE, no position table). A key left out takes PixtralVisionConfig's default (1024 wide, 4096,
        // 24 layers, 16 heads, 3 channels, 1024 pixels, patch 16): mistral-community/pixtral-12b's config.json
        // names only image_size and patch_size. The projector depends on the wrapper:
        //   mistral3: Mistral3MultiModalProjector: RMSNorm, the patch merger's linear over merge^2 patches, two
        //     linears (biased only with multimodal_projector_bias, default false);
        //   llava: LlavaMultiModalProjector: linear_1 (vision width x feature layers -> text width) and linear_2
        //     (text -> text), both biased unless multimodal_projector_bias is false; no norm, no merger.
        const bool mistral3 = top_type == "mistral3";
        if (!mistral3 && top_type != "llava")
            return Error{"vision_config: a Pixtral tower under model_type \"" + printable_excerpt(top_type, 40) +
                         "\" is not modelled (known: mistral3, llava); use --text-only to count the text model alone"};
        t.kind = mistral3 ? VisionKind::mistral3_pixtral : VisionKind::llava_pixtral;
        const u128 h = v.opt("hidden_size", 1024), i = v.opt("intermediate_size", 4096), layers = v.opt("num_hidden_layers", 24);
        const u128 channels = v.opt("num_channels", 3);
        t.patch_size = v.opt("patch_size", 16);
        t.image_size = v.opt("image_size", 1024);
        t.merge_size = mistral3 ? top.opt("spatial_merge_size", 2) : 1;
        width = h;
        ffn = i;
        head_count = v.opt("num_attention_heads", 16);
        const bool bias = top.flag("multimodal_projector_bias", !mistral3);
        if (!top.error.empty()) return Error{top.error};
        if (!v.error.empty()) return Error{v.error};
        encoder = channels * t.patch_size * t.patch_size * h + h + layers * (2 * h + 4 * h * h + 3 * h * i);
        if (mistral3) {
            projector = h + linear(h * t.merge_size * t.merge_size, h, false) + linear(h, text_hidden, bias) +
                        linear(text_hidden, text_hidden, bias);
        } else {
            // vision_feature_layer: one layer (a number) or several concatenated (a list).
            const JsonValue* feature = document.find("vision_feature_layer");
            const u128 feature_layers = feature != nullptr && feature->is_array() ? feature->items().size() : 1;
            if (feature_layers == 0) return Error{"vision_feature_layer: an empty list selects no layer"};
            projector = linear(h * feature_layers, text_hidden, bias) + linear(text_hidden, text_hidden, bias);
        }
    } else {
        return Error{"vision_config: a vision tower of model_type \"" + printable_excerpt(vision_type.empty() ? top_type : vision_type, 40) +
                     "\" is not modelled (known: Gemma 3 SigLIP, Gemma 4, Llama 4, Qwen2.5-VL, Qwen3-VL, Qwen3.5, Pixtral under Mistral 3 or LLaVA); use --text-only "
                     "to count the text model alone"};
    }
    if (!top.error.empty()) return Error{top.error};
    if (encoder + projector > static_cast<u128>(kMaxParamCount)) return Error{"vision_config: the vision tower is too large"};
    t.hidden_size = static_cast<std::uint64_t>(width);
    t.intermediate_size = static_cast<std::uint64_t>(ffn);
    t.attention_heads = static_cast<std::uint64_t>(head_count);
    t.encoder_count = static_cast<std::uint64_t>(encoder);
    t.projector_count = static_cast<std::uint64_t>(projector);
    return t;
}

TileCanvas llama4_best_canvas(std::uint64_t tile, std::uint64_t max_tiles, std::uint64_t width, std::uint64_t height) {
    // find_supported_resolutions: every rows x columns canvas of at most max_tiles tiles. get_best_fit: the limiting
    // side's scale (float32, as torch divides an integer tensor), the smallest scale of at least 1, else the
    // largest below 1, then the smallest canvas at that scale. Its tie-break on the list's order never applies:
    // canvases of one scale share the limiting side, so the smallest is one canvas.
    auto scale = [&](std::uint64_t rows, std::uint64_t columns) {
        const float sw = static_cast<float>(columns * tile) / static_cast<float>(width);
        const float sh = static_cast<float>(rows * tile) / static_cast<float>(height);
        return sh > sw ? sw : sh;
    };
    float up = 0, down = 0;
    for (std::uint64_t r = 1; r <= max_tiles; ++r)
        for (std::uint64_t c = 1; r * c <= max_tiles; ++c) {
            const float sc = scale(r, c);
            if (sc >= 1) up = up == 0 ? sc : std::min(up, sc);
            else down = std::max(down, sc);
        }
    const float chosen = up > 0 ? up : down;
    TileCanvas best;
    for (std::uint64_t r = 1; r <= max_tiles; ++r)
        for (std::uint64_t c = 1; r * c <= max_tiles; ++c)
            if (scale(r, c) == chosen && (best.rows == 0 || r * c < best.rows * best.columns)) best = {r, c};
    return best;
}

namespace {

// The Qwen ViTs' pixel limits under one processor: the repo's preprocessor_config.json (transformers, vLLM), or
// mtmd's token bounds (mtmd_token_limits) of (patch x merge)^2 pixels each.
struct PixelLimits {
    std::uint64_t min_pixels;
    std::uint64_t max_pixels;
};
PixelLimits pixel_limits(const VisionTower& t, const ImageProcessor& processor) {
    const std::uint64_t cell = t.patch_size * t.merge_size;
    const ImageTokenLimits tokens = mtmd_token_limits(t, processor);
    if (tokens.max > 0) return {tokens.min * cell * cell, tokens.max * cell * cell};
    return {t.min_pixels, t.max_pixels};
}

}  // namespace

ImageGrid image_grid(const VisionTower& t, std::uint64_t width, std::uint64_t height, const ImageProcessor& processor) {
    // smart_resize: each side to a multiple of factor = patch x merge, the area kept within the processor's pixel
    // limits, in Python's doubles with its round (half to even, as nearbyint does); llama.cpp's own in mtmd.cpp.
    const PixelLimits limits = pixel_limits(t, processor);
    if (processor == ImageProcessor::llama_cpp) return mtmd_smart_resize(t.patch_size * t.merge_size, limits.min_pixels, limits.max_pixels, width, height);
    const double factor = static_cast<double>(t.patch_size * t.merge_size);
    const double min_pixels = static_cast<double>(limits.min_pixels), max_pixels = static_cast<double>(limits.max_pixels);
    auto round_side = [&](std::uint64_t side) {
        const double x = static_cast<double>(side) / factor;
        return std::nearbyint(x) * factor;
    };
    double h = round_side(height);
    double w = round_side(width);
    if (h * w > max_pixels) {
        const double beta = std::sqrt(static_cast<double>(height) * static_cast<double>(width) / max_pixels);
        h = std::max(factor, std::floor(static_cast<double>(height) / beta / factor) * factor);
        w = std::max(factor, std::floor(static_cast<double>(width) / beta / factor) * factor);
    } else if (h * w < min_pixels) {
        const double beta = std::sqrt(min_pixels / (static_cast<double>(height) * static_cast<double>(width)));
        h = std::ceil(static_cast<double>(height) * beta / factor) * factor;
        w = std::ceil(static_cast<double>(width) * beta / factor) * factor;
    }
    h = std::max(h, factor);
    w = std::max(w, factor);
    return {static_cast<std::uint64_t>(h / factor), static_cast<std::uint64_t>(w / factor)};
}

Expected<std::uint64_t> image_tokens(const VisionTower& t, std::uint64_t width, std::uint64_t height, const ImageProcessor& processor) {
    if (width == 0 || height == 0) return Error{"image-size", "must be W x H pixels, each at least 1"};
    if (width > kMaxImageSide || height > kMaxImageSide) return Error{"image-size", "is too large (at most 100000 pixels a side)"};
    if (Status problem = mtmd_limits_problem(t, processor)) return *problem;
    switch (t.kind) {
        case VisionKind::gemma3_siglip:
            // Every image is resized to image_size square: mm_tokens_per_image soft tokens between
            // <start_of_image> and <end_of_image>.
            return t.tokens_per_image + 2;
        case VisionKind::qwen2_5_vl:
        case VisionKind::qwen3_5:
        case VisionKind::qwen3_vl: {
            // (h / factor) x (w / factor) tokens, plus vision_start/end.
            const ImageGrid g = image_grid(t, width, height, processor);
            return g.rows * g.columns + 2;
        }
        case VisionKind::mistral3_pixtral:
        case VisionKind::llava_pixtral: {
            if (processor == ImageProcessor::llama_cpp) {  // mtmd's dyn_size preprocessor: smart_resize within 8 to 1,024 tokens
                const ImageGrid g = image_grid(t, width, height, processor);
                return g.rows * (g.columns + 1);
            }
            // Resized so the longest edge is at most image_size (ratio, floor), each side rounded up to a
            // multiple of the patch; rows = h / (patch x merge) (LLaVA's Pixtral merges nothing), cols likewise; each row ends with [IMG_BREAK]
            // (the last with [IMG_END]): rows x (cols + 1).
            std::uint64_t h = height, w = width;
            const double ratio = std::max(static_cast<double>(height) / static_cast<double>(t.image_size),
                                          static_cast<double>(width) / static_cast<double>(t.image_size));
            if (ratio > 1) {
                h = static_cast<std::uint64_t>(std::floor(static_cast<double>(height) / ratio));
                w = static_cast<std::uint64_t>(std::floor(static_cast<double>(width) / ratio));
            }
            h = (h + t.patch_size - 1) / t.patch_size * t.patch_size;
            w = (w + t.patch_size - 1) / t.patch_size * t.patch_size;
            const std::uint64_t cell = t.patch_size * t.merge_size;
            const std::uint64_t rows = std::max<std::uint64_t>(1, h / cell), cols = std::max<std::uint64_t>(1, w / cell);
            return rows * (cols + 1);
        }
        case VisionKind::gemma4: {
            if (processor == ImageProcessor::llama_cpp) {  // mtmd's dyn_size preprocessor: smart_resize within 40 to 280 tokens
                const ImageGrid g = image_grid(t, width, height, processor);
                return g.rows * g.columns + 2;
            }
            // Gemma4ImageProcessor (get_aspect_ratio_preserving_size): the image is scaled to fill max_soft_tokens x
            // pooling^2 patches of patch^2 pixels, each side floored to a multiple of pooling x patch; a side that
            // floors to 0 becomes one multiple, the other its aspect ratio's multiples up to the longest side the
            // budget allows. Tokens: the patches / pooling^2, between <|image> and <image|>.
            const double side_mult = static_cast<double>(t.merge_size * t.patch_size);
            const double max_patches = static_cast<double>(t.tokens_per_image * t.merge_size * t.merge_size);
            const double factor = std::sqrt(max_patches * static_cast<double>(t.patch_size * t.patch_size) /
                                            (static_cast<double>(width) * static_cast<double>(height)));
            std::uint64_t h = static_cast<std::uint64_t>(std::floor(factor * static_cast<double>(height) / side_mult));
            std::uint64_t w = static_cast<std::uint64_t>(std::floor(factor * static_cast<double>(width) / side_mult));
            const std::uint64_t longest = t.tokens_per_image;  // (max_patches / pooling^2) cells of side_mult
            if (h == 0 && w == 0) return Error{"image-size", "is too narrow for Gemma 4's processor (it would resize to 0 x 0)"};
            if (h == 0) h = 1, w = std::min<std::uint64_t>(width / height, longest);
            else if (w == 0) w = 1, h = std::min<std::uint64_t>(height / width, longest);
            return h * w + 2;  // (h x 3) x (w x 3) patches pooled 3 x 3 into h x w tokens
        }
        case VisionKind::llama4: {
            if (processor == ImageProcessor::llama_cpp) {  // mtmd's llava_uhd: the tiles (at most 3 x 3) and the overview
                if (width <= t.image_size && height <= t.image_size) return t.tokens_per_image + 2;
                const TileCanvas c = mtmd_llama4_canvas(t.image_size, width, height);
                return 2 + t.tokens_per_image * (1 + c.rows * c.columns);
            }
            // Llama4ImageProcessorFast (max_patches 16, resize_to_max_canvas false) fits the image to the best canvas
            // of tiles (llama4_best_canvas). processing_llama4.py _prompt_split_image: <|image_start|>, then with
            // more than one tile each tile's patches with an x separator between tiles and a y separator after each
            // row, then <|image|>, the global view's patches
            // and <|image_end|>.
            const TileCanvas best = llama4_best_canvas(t.image_size, kLlama4MaxTiles, width, height);
            const std::uint64_t tiles = best.rows * best.columns;
            return 3 + t.tokens_per_image + (tiles > 1 ? tiles * (t.tokens_per_image + 1) : 0);
        }
        case VisionKind::voxtral:  // an audio tower: no vision_config, so no images
        case VisionKind::none:
            break;
    }
    return Error{"images", "the model has no vision tower (vision_config)"};
}

std::string image_token_rule(const VisionTower& t, const ImageProcessor& processor) {
    switch (t.kind) {
        case VisionKind::gemma3_siglip:
            return "Gemma 3: every image is resized to " + std::to_string(t.image_size) + " x " + std::to_string(t.image_size) +
                   " and becomes " + std::to_string(t.tokens_per_image) +
                   " soft tokens plus <start_of_image> and <end_of_image> (transformers processing_gemma3.py, image_seq_length)";
        case VisionKind::qwen2_5_vl:
        case VisionKind::qwen3_5:
        case VisionKind::qwen3_vl: {
            const std::string cell = std::to_string(t.patch_size * t.merge_size);
            const PixelLimits limits = pixel_limits(t, processor);
            const char* family = t.kind == VisionKind::qwen3_5 ? "Qwen3.5" : t.kind == VisionKind::qwen3_vl ? "Qwen3-VL" : "Qwen2.5-VL";
            return std::string(family) + ": smart_resize rounds each side to a multiple of " + cell + " within " +
                   format_count_exact(limits.min_pixels) + " to " + format_count_exact(limits.max_pixels) + " pixels; tokens = (h / " + cell +
                   ") x (w / " + cell + ") plus <|vision_start|> and <|vision_end|> " +
                   (processor == ImageProcessor::llama_cpp ? mtmd_image_source(t, processor)
                                                           : "(transformers image_processing_qwen2_vl.py with the repo's preprocessor_config.json pixel limits)");
        }
        case VisionKind::mistral3_pixtral:
        case VisionKind::llava_pixtral:
            if (processor == ImageProcessor::llama_cpp) return mtmd_image_source(t, processor);
            if (t.kind == VisionKind::llava_pixtral)
                return "Pixtral (LLaVA): the longest edge is scaled to at most " + std::to_string(t.image_size) + ", sides rounded up to " +
                       std::to_string(t.patch_size) + " pixels; rows x (columns + 1) tokens of " + std::to_string(t.patch_size) +
                       " pixels each, a break token ending each row (transformers processing_pixtral.py, image_processing_pixtral.py)";
            return "Mistral 3: the longest edge is scaled to at most " + std::to_string(t.image_size) + ", sides rounded up to " +
                   std::to_string(t.patch_size) + " pixels; rows x (columns + 1) tokens of " +
                   std::to_string(t.patch_size * t.merge_size) +
                   " pixels each, a break token ending each row (transformers processing_mistral3.py, image_processing_pixtral.py)";
        case VisionKind::gemma4:
            if (processor == ImageProcessor::llama_cpp) return mtmd_image_source(t, processor);
            return "Gemma 4: the image is scaled to fill " + std::to_string(t.tokens_per_image) + " tokens of " +
                   std::to_string(t.merge_size * t.patch_size) + " x " + std::to_string(t.merge_size * t.patch_size) +
                   " pixels, each side floored to whole tokens, plus <|image> and <image|> (transformers "
                   "image_processing_gemma4.py get_aspect_ratio_preserving_size)";
        case VisionKind::llama4:
            if (processor == ImageProcessor::llama_cpp) return mtmd_image_source(t, processor);
            return "Llama 4: the best canvas of up to 16 tiles of " + std::to_string(t.image_size) + " pixels, " +
                   std::to_string(t.tokens_per_image) + " tokens and a separator a tile, then a global view and 3 markers "
                   "(transformers image_processing_llama4_fast.py get_best_fit, processing_llama4.py)";
        case VisionKind::voxtral:
        case VisionKind::none:
            break;
    }
    return {};
}

Expected<std::uint64_t> audio_tokens(const VisionTower& t, std::uint64_t seconds, const ImageProcessor& processor) {
    const std::uint64_t n = seconds * 16'000, chunk = 480'000;  // samples; a 30 s chunk
    const bool mtmd = processor == ImageProcessor::llama_cpp;
    if (t.kind == VisionKind::voxtral) return 1 + (mtmd ? 187 * (((n + chunk) / 160 + 1) / 3'000) : 375 * ((n + chunk - 1) / chunk));
    if (!t.audio) return Error{"audio-seconds", "the model has no audio tower (audio_config)"};
    // Gemma 4: the valid 10 ms frames of a piece, then two stride-2 subsamplings (40 ms a token).
    auto piece = [](std::uint64_t m) {
        const std::uint64_t frames = m >= 161 ? (m - 161) / 160 + 1 : 0;
        return ((frames + 1) / 2 + 1) / 2;
    };
    std::uint64_t tokens = 0;
    for (std::uint64_t at = 0; at < (mtmd ? n : std::min(n, chunk)); at += chunk) tokens += piece(std::min(chunk, n - at));
    return tokens + 2;
}

std::string audio_token_rule(const VisionTower& t, const ImageProcessor& processor) {
    if (!t.audio) return {};
    if (processor == ImageProcessor::llama_cpp) return mtmd_audio_rule(t);
    return t.kind == VisionKind::voxtral ? "Voxtral: whole 30 s chunks of 375 tokens plus [BEGIN_AUDIO] (mistral-common)"
                                         : "Gemma 4: 25 tokens a second of the first 30 s, at most 750, plus two markers (transformers, vLLM)";
}

}  // namespace llm_memory
