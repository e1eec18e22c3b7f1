// llama.cpp's mtmd (tools/mtmd/clip.cpp, mtmd-image.cpp, mtmd-audio.cpp) in words: how it turns an image into tokens
// for the towers it resizes itself, and audio into tokens. In a file of its own so that the lean page, which never runs llama.cpp, can leave it out.
#include "vision.hpp"

#include <string>

namespace llm_memory {

std::string mtmd_image_source(const VisionTower& t) {
    if (t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::llava_pixtral)
        return "Pixtral under llama.cpp's mtmd: smart_resize rounds each side to a multiple of " + std::to_string(t.patch_size * t.merge_size) +
               " within 8 to 1,024 tokens; rows x (columns + 1) tokens, a break token ending each row (tools/mtmd/clip.cpp "
               "set_limit_image_tokens; --image-max-tokens changes it)";
    if (t.kind == VisionKind::gemma4)
        return "Gemma 4 under llama.cpp's mtmd: smart_resize rounds each side to a multiple of " + std::to_string(t.patch_size * t.merge_size) +
               " within 40 to 280 tokens (a small image is scaled up to 40, not to fill 280 as transformers does); rows x columns tokens "
               "plus <|image> and <image|> (tools/mtmd/clip.cpp set_limit_image_tokens; --image-max-tokens changes it)";
    return "(llama.cpp tools/mtmd: 8 to 4,096 tokens an image, set_limit_image_tokens; --image-max-tokens changes it)";
}

std::string mtmd_audio_rule(const VisionTower& t) {
    return t.kind == VisionKind::voxtral ? "Voxtral under llama.cpp: 187 tokens a 30 s chunk, 30 s of silence appended (llama.cpp#25496), plus [BEGIN_AUDIO]"
                                         : "Gemma 4 under llama.cpp: 25 tokens a second over every 30 s piece, plus two markers";
}

}  // namespace llm_memory
