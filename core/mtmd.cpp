// llama.cpp's mtmd (tools/mtmd/clip.cpp, mtmd-image.cpp, mtmd-audio.cpp) in words: how it turns an image into tokens
// for the towers it resizes itself, and audio into tokens. In a file of its own so that the lean page, which never runs llama.cpp, can leave it out.
#include "vision.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace llm_memory {

std::string mtmd_image_source(const VisionTower& t) {
    if (t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::llava_pixtral)
        return "Pixtral under llama.cpp's mtmd: smart_resize rounds each side to a multiple of " + std::to_string(t.patch_size * t.merge_size) +
               " within 8 to 1,024 tokens; rows x (columns + 1) tokens, a break token ending each row (tools/mtmd/clip.cpp "
               "set_limit_image_tokens; --image-max-tokens changes it)";
    if (t.kind == VisionKind::llama4)
        return "Llama 4 under llama.cpp's mtmd: an image larger than " + std::to_string(t.image_size) + " pixels a side is cut into the canvas of 1 to 3 tiles "
               "a side (not 1 x 1) that keeps the most of it, " + std::to_string(t.tokens_per_image) + " tokens a tile, then a " +
               std::to_string(t.tokens_per_image) + "-token overview; a smaller image is the overview alone; plus <|image_start|> and "
               "<|image_end|>, no separators (tools/mtmd/mtmd-image.cpp llava_uhd, clip.cpp set_llava_uhd_res_candidates(3))";
    if (t.kind == VisionKind::gemma4)
        return "Gemma 4 under llama.cpp's mtmd: smart_resize rounds each side to a multiple of " + std::to_string(t.patch_size * t.merge_size) +
               " within 40 to 280 tokens (a small image is scaled up to 40, not to fill 280 as transformers does); rows x columns tokens "
               "plus <|image> and <image|> (tools/mtmd/clip.cpp set_limit_image_tokens; --image-max-tokens changes it)";
    return "(llama.cpp tools/mtmd: 8 to 4,096 tokens an image, set_limit_image_tokens; --image-max-tokens changes it)";
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
