// llama.cpp's mtmd (tools/mtmd/clip.cpp, mtmd-image.cpp, mtmd-audio.cpp): the token bounds and resize of the towers
// it resizes itself, and in words how it turns an image and audio into tokens. In a file of its own so that the lean page, which never runs llama.cpp, can leave it out.
#include "quantity.hpp"
#include "vision.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace llm_memory {

ImageTokenLimits mtmd_token_limits(const VisionTower& t, const ImageProcessor& processor) {
    if (processor != ImageProcessor::llama_cpp) return {};
    // tools/mtmd/clip.cpp set_limit_image_tokens: the Qwen ViTs 8 to 4,096, Pixtral 8 to 1,024, Gemma 4 40 to 280; the
    // flags replace either bound (clip-model.h: custom_image_min_tokens, custom_image_max_tokens).
    ImageTokenLimits l;
    switch (t.kind) {
        case VisionKind::qwen2_5_vl:
        case VisionKind::qwen3_5:
        case VisionKind::qwen3_vl: l = {8, 4096, {}}; break;
        case VisionKind::mistral3_pixtral:
        case VisionKind::llava_pixtral: l = {8, 1024, {}}; break;
        case VisionKind::gemma4: l = {40, 280, {}}; break;
        default: return {};
    }
    std::string set;
    // Ollama starts llama-server with --image-min-tokens 1024 for the qwen2vl, qwen25vl, qwen3vl and qwen3vlmoe
    // architectures, not Qwen3.5's (llm/llama_server.go qwenVLServerArgs, since ollama PR #16031).
    if (processor.ollama && (t.kind == VisionKind::qwen2_5_vl || t.kind == VisionKind::qwen3_vl)) {
        l.min = 1024;
        set = "Ollama passes --image-min-tokens 1024 for Qwen-VL, llm/llama_server.go";
    }
    if (processor.min_tokens > 0) l.min = processor.min_tokens, set = "--image-min-tokens " + format_count_exact(processor.min_tokens);
    if (processor.max_tokens > 0)
        l.max = processor.max_tokens, set += (set.empty() ? "" : ", ") + std::string("--image-max-tokens ") + format_count_exact(processor.max_tokens);
    l.source = set.empty() ? "set_limit_image_tokens; --image-min-tokens and --image-max-tokens change it" : "set_limit_image_tokens, " + set;
    return l;
}

Status mtmd_limits_problem(const VisionTower& t, const ImageProcessor& processor) {
    const ImageTokenLimits l = mtmd_token_limits(t, processor);
    if (l.min <= l.max) return std::nullopt;
    // clip.cpp: "image_max_pixels (...) is less than image_min_pixels (...)", thrown while the projector loads.
    const std::string min = format_count_exact(l.min), max = format_count_exact(l.max);
    const std::string why = ": llama.cpp refuses the pair (image_max_pixels is less than image_min_pixels)";
    if (processor.min_tokens > 0 && processor.max_tokens > 0)
        return Error{"image-min-tokens", "an image's minimum (--image-min-tokens " + min + ") is above its maximum (--image-max-tokens " + max + ")" + why};
    if (processor.min_tokens > 0)
        return Error{"image-min-tokens", "an image's minimum (--image-min-tokens " + min + ") is above the tower's maximum of " + max + " tokens" + why};
    return Error{"image-max-tokens", "an image's maximum (--image-max-tokens " + max + ") is below the tower's minimum of " + min + " tokens" + why};
}

std::string mtmd_image_source(const VisionTower& t, const ImageProcessor& processor) {
    const ImageTokenLimits limits = mtmd_token_limits(t, processor);
    const std::string bounds = format_count_exact(limits.min) + " to " + format_count_exact(limits.max) + " tokens";
    // mtmd's dyn_size preprocessor, which Pixtral and Gemma 4 share with the Qwen ViTs.
    const auto resized = [&](const char* family, const std::string& tokens) {
        return std::string(family) + " under llama.cpp's mtmd: smart_resize rounds each side to a multiple of " +
               std::to_string(t.patch_size * t.merge_size) + " within " + bounds + tokens + " (tools/mtmd/clip.cpp " + limits.source + ")";
    };
    if (t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::llava_pixtral)
        return resized("Pixtral", "; rows x (columns + 1) tokens, a break token ending each row");
    if (t.kind == VisionKind::gemma4)
        return resized("Gemma 4", " (a small image is scaled up to " + format_count_exact(limits.min) + ", not to fill " +
                                      format_count_exact(t.tokens_per_image) + " as transformers does); rows x columns tokens plus <|image> and <image|>");
    if (t.kind == VisionKind::llama4)
        return "Llama 4 under llama.cpp's mtmd: an image larger than " + std::to_string(t.image_size) + " pixels a side is cut into the canvas of 1 to 3 tiles "
               "a side (not 1 x 1) that keeps the most of it, " + std::to_string(t.tokens_per_image) + " tokens a tile, then a " +
               std::to_string(t.tokens_per_image) + "-token overview; a smaller image is the overview alone; plus <|image_start|> and "
               "<|image_end|>, no separators (tools/mtmd/mtmd-image.cpp llava_uhd, clip.cpp set_llava_uhd_res_candidates(3))";
    return "(llama.cpp tools/mtmd: " + bounds + " an image, " + limits.source + ")";
}

ImageGrid mtmd_smart_resize(std::uint64_t cell, std::uint64_t min_pixels, std::uint64_t max_pixels, std::uint64_t width, std::uint64_t height) {
    // Floats throughout, as mtmd's; the pixel product in 64 bits (mtmd's int product would overflow past 46,340 a side).
    const float f = static_cast<float>(cell);
    const auto round_by = [f](float x) { return std::round(x / f) * f; };
    const auto ceil_by = [f](float x) { return std::ceil(x / f) * f; };
    const auto floor_by = [f](float x) { return std::floor(x / f) * f; };
    const float w = static_cast<float>(width), h = static_cast<float>(height), area = static_cast<float>(width * height);
    float h_bar = std::max(f, round_by(h)), w_bar = std::max(f, round_by(w));
    if (static_cast<double>(h_bar) * w_bar > static_cast<double>(max_pixels)) {
        const float beta = std::sqrt(area / static_cast<float>(max_pixels));
        h_bar = std::max(f, floor_by(h / beta));
        w_bar = std::max(f, floor_by(w / beta));
    } else if (static_cast<double>(h_bar) * w_bar < static_cast<double>(min_pixels)) {
        const float beta = std::sqrt(static_cast<float>(min_pixels) / area);
        h_bar = ceil_by(h * beta);
        w_bar = ceil_by(w * beta);
    }
    return {static_cast<std::uint64_t>(h_bar / f), static_cast<std::uint64_t>(w_bar / f)};
}

TileCanvas mtmd_llama4_canvas(std::uint64_t tile, std::uint64_t width, std::uint64_t height) {
    // Each candidate canvas in mtmd's order (columns the outer loop), the image scaled to fit it (float, truncated), the
    // pixels it keeps (at most the image's own) and the canvas pixels left over.
    TileCanvas best;
    std::uint64_t most_kept = 0, least_wasted = 0;
    for (std::uint64_t columns = 1; columns <= 3; ++columns)
        for (std::uint64_t rows = 1; rows <= 3; ++rows) {
            if (columns == 1 && rows == 1) continue;
            const std::uint64_t cw = columns * tile, ch = rows * tile;
            const float scale = std::min(static_cast<float>(cw) / static_cast<float>(width), static_cast<float>(ch) / static_cast<float>(height));
            const auto fitted = [scale](std::uint64_t side) { return static_cast<std::uint64_t>(static_cast<float>(side) * scale); };
            const std::uint64_t kept = std::min(fitted(width) * fitted(height), width * height), wasted = cw * ch - kept;
            if (kept > most_kept || (kept == most_kept && wasted < least_wasted)) {
                most_kept = kept;
                least_wasted = wasted;
                best = {rows, columns};
            }
        }
    return best;
}

std::string mtmd_audio_rule(const VisionTower& t) {
    return t.kind == VisionKind::voxtral ? "Voxtral under llama.cpp: 187 tokens a 30 s chunk, 30 s of silence appended (llama.cpp#25496), plus [BEGIN_AUDIO]"
                                         : "Gemma 4 under llama.cpp: 25 tokens a second over every 30 s piece, plus two markers";
}

}  // namespace llm_memory
