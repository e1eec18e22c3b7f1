// Vision towers of multimodal configs (Gemma 3's SigLIP, Llama 4's vision encoder, the Qwen2.5-VL, Qwen3-VL and Qwen3.5 ViTs, Pixtral under
// Mistral 3 or LLaVA) and Voxtral's audio tower: their exact parameter counts (encoder + projector) from vision_config, and how many context tokens
// one image of W x H pixels becomes, per family, with the rule and its source.
// Invariant: a field the count needs and the config class has no default for is an error naming it.
#pragma once

#include <cstdint>
#include <string>

#include "json.hpp"
#include "result.hpp"

namespace llm_memory {

enum class VisionKind : std::uint8_t {
    none,
    gemma3_siglip,     // Gemma 3: SigLIP encoder + Gemma3MultiModalProjector
    llama4,            // Llama 4: Llama4VisionModel (with its pixel-shuffle adapter) + Llama4MultiModalProjector
    qwen2_5_vl,        // Qwen2.5-VL: Qwen2_5_VisionTransformerPretrainedModel (patch merger included)
    qwen3_5,           // Qwen3.5 (dense and MoE): Qwen3_5VisionModel, Qwen3-VL's ViT without deepstack mergers
    qwen3_vl,          // Qwen3-VL (dense and MoE): Qwen3VLVisionModel, its merger and one deepstack merger per listed layer
    mistral3_pixtral,  // Mistral Small 3.1: PixtralVisionModel + Mistral3MultiModalProjector
    llava_pixtral,     // Pixtral 12B as LlavaForConditionalGeneration: PixtralVisionModel + LlavaMultiModalProjector
    gemma4,            // Gemma 4: Gemma4VisionModel (patch linear, 2-D position table, pooled) + embed_vision's projection
    voxtral,           // Voxtral: an audio tower (Whisper encoder) + VoxtralMultiModalProjector; it takes no images
};

// A config's vision tower: what it counts and what its image-token rule needs.
struct VisionTower {
    VisionKind kind = VisionKind::none;
    std::uint64_t encoder_count = 0;    // the vision encoder's parameters
    std::uint64_t projector_count = 0;  // the projector into the text model's width
    std::uint64_t patch_size = 0;       // pixels per patch side
    std::uint64_t merge_size = 1;       // patches merged per side before the text model (Qwen, Mistral 3; 1: none)
    std::uint64_t image_size = 0;       // Gemma 3 / Llama 4: the square input; Pixtral: the longest edge
    std::uint64_t tokens_per_image = 0; // Gemma 3: fixed soft tokens per image (mm_tokens_per_image); Llama 4: per tile
    // The Qwen ViTs' smart_resize pixel limits, as the official repos' preprocessor_config.json ship them.
    std::uint64_t min_pixels = 0;
    std::uint64_t max_pixels = 0;
    std::uint64_t deepstack_mergers = 0;  // Qwen3-VL: the deepstack mergers, whose outputs feed the first text layers
    std::uint64_t out_hidden_size = 0;    // Qwen3-VL: the mergers' output width (the text model's)
    // The encoder's widths, for the engines' graph sizing (Voxtral: its audio encoder's).
    std::uint64_t hidden_size = 0;
    std::uint64_t intermediate_size = 0;
    std::uint64_t attention_heads = 0;
    bool audio = false;                   // an audio tower too (Voxtral; Gemma 4 E2B/E4B): --audio-seconds applies
    std::uint64_t total() const { return encoder_count + projector_count; }
};

// A projector read from llama.cpp's own file (--mmproj FILE: core/mmproj.cpp): its tower for the compute buffer and
// the bytes its tensors take, whatever their type.
struct ProjectorFile {
    VisionTower tower;
    std::uint64_t weight_bytes = 0;
    std::string projector_type;  // clip.projector_type: "pixtral", "qwen3vl_merger", ...
    std::string name;            // the file's name
};

// "SigLIP (Gemma 3)", "Llama 4 vision encoder", "Qwen2.5-VL ViT", "Qwen3.5 ViT", "Qwen3-VL ViT", "Pixtral (Mistral 3)",
// "Pixtral (LLaVA)", "Voxtral audio encoder".
const char* vision_kind_name(VisionKind kind);

// Reads the vision tower of a config.json document (vision_config plus the projector's top-level keys) for a
// text model `text_hidden_size` wide (Voxtral: its audio_config). kind none when the document has neither. Errors name the key
// ("vision_config.hidden_size: is missing"); a vision_config of an unknown kind is an error naming its
// model_type, never a guess.
Expected<VisionTower> read_vision_tower(const JsonValue& document, std::uint64_t text_hidden_size);

// Llama 4's tiling (transformers image_processing_llama4_fast.py find_supported_resolutions and get_best_fit,
// resize_to_max_canvas false): the canvas of rows x columns tiles of `tile` pixels, at most `max_tiles` tiles, that
// an image of `width` x `height` pixels is fitted to without distortion. Both sizes at least 1.
struct TileCanvas {
    std::uint64_t rows = 0;
    std::uint64_t columns = 0;
};
TileCanvas llama4_best_canvas(std::uint64_t tile, std::uint64_t max_tiles, std::uint64_t width, std::uint64_t height);

// Whose image processor sizes the image: transformers' (also vLLM's and the default: the repo's
// preprocessor_config.json) or llama.cpp's mtmd (Ollama runs llama-server), which bounds the towers it resizes itself
// at the family's tokens an image (tools/mtmd/clip.cpp set_limit_image_tokens: the Qwen ViTs 8 to 4,096) unless
// --image-min-tokens or --image-max-tokens says otherwise. A Kind converts to a processor with the tower's own bounds.
struct ImageProcessor {
    enum Kind : std::uint8_t { transformers, llama_cpp };
    Kind kind = transformers;
    std::uint64_t min_tokens = 0;  // mtmd: --image-min-tokens; 0 = the tower's own
    std::uint64_t max_tokens = 0;  // mtmd: --image-max-tokens; 0 = the tower's own
    bool ollama = false;           // mtmd under Ollama, which passes --image-min-tokens 1024 for the Qwen-VL towers
    constexpr ImageProcessor(Kind k = transformers) : kind(k) {}  // NOLINT(google-explicit-constructor): a Kind reads as one
    constexpr bool operator==(Kind k) const { return kind == k; }
    constexpr bool operator!=(Kind k) const { return kind != k; }
};

// The tokens an image may take under mtmd for a tower it resizes itself (Qwen ViTs, Pixtral, Gemma 4), the
// processor's bounds applied, and where they come from ("set_limit_image_tokens", "--image-min-tokens", or Ollama's).
// {0, 0} for any other tower or processor. In core/mtmd.cpp with the rest of mtmd's rules (the lean page, which never
// runs llama.cpp, links stand-ins for both functions).
struct ImageTokenLimits {
    std::uint64_t min = 0;
    std::uint64_t max = 0;
    std::string source;
};
ImageTokenLimits mtmd_token_limits(const VisionTower& tower, const ImageProcessor& processor);
// An error naming the setting when those bounds cross (a minimum above the maximum): llama.cpp refuses the pair.
Status mtmd_limits_problem(const VisionTower& tower, const ImageProcessor& processor);

// The grid of merged tokens (rows x columns of patch x merge pixels) smart_resize gives an image of `width` x `height`
// pixels under the processor's pixel limits: the Qwen ViTs, and Pixtral under llama.cpp's mtmd (its dyn_size
// preprocessor). Both sizes at least 1.
struct ImageGrid {
    std::uint64_t rows = 0;
    std::uint64_t columns = 0;
};
ImageGrid image_grid(const VisionTower& tower, std::uint64_t width, std::uint64_t height, const ImageProcessor& processor);

// Context tokens one image of `width` x `height` pixels becomes, image markers included. Errors: a size of 0
// or above 100,000 pixels a side; under mtmd, a minimum above the maximum (llama.cpp refuses the pair).
Expected<std::uint64_t> image_tokens(const VisionTower& tower, std::uint64_t width, std::uint64_t height,
                                     const ImageProcessor& processor = ImageProcessor::transformers);

// The rule image_tokens follows for this tower, with its source, as one sentence.
std::string image_token_rule(const VisionTower& tower, const ImageProcessor& processor = ImageProcessor::transformers);

// llama.cpp's mtmd words for the towers it resizes itself: the Qwen ViTs' source in parentheses, Pixtral's and Gemma
// 4's whole rule, each with the processor's token bounds (core/mtmd.cpp; the lean page, which never runs llama.cpp,
// links a stand-in).
std::string mtmd_image_source(const VisionTower& tower, const ImageProcessor& processor);

// audio_token_rule under llama.cpp's mtmd (core/mtmd.cpp, as above): a tower with audio.
std::string mtmd_audio_rule(const VisionTower& tower);

// mtmd's smart_resize (core/mtmd.cpp, as above; tools/mtmd/mtmd-image.cpp calc_size_preserved_ratio): each side rounded
// to a multiple of `cell` (half away from zero), then scaled within the pixel limits, in floats as mtmd computes it (an
// image scaled by exactly 2.4 can take one more cell than in doubles). The grid of cells.
ImageGrid mtmd_smart_resize(std::uint64_t cell, std::uint64_t min_pixels, std::uint64_t max_pixels, std::uint64_t width, std::uint64_t height);

// Llama 4 under llama.cpp's mtmd (core/mtmd.cpp, as above): the llava_uhd preprocessor's grid of `tile`-pixel tiles for
// an image larger than one tile a side, the candidate of 1 to 3 tiles a side (not 1 x 1) that keeps the most of the
// image and wastes the least (mtmd-image.cpp select_best_resolution, clip.cpp set_llava_uhd_res_candidates(3)).
TileCanvas mtmd_llama4_canvas(std::uint64_t tile, std::uint64_t width, std::uint64_t height);

// Context tokens one audio clip of `seconds` becomes (16 kHz, as every processor resamples it), markers included:
// Voxtral (mistral-common, transformers, vLLM) pads a clip to whole 30 s chunks of 375 tokens, one [BEGIN_AUDIO];
// llama.cpp's mtmd appends 30 s of silence, drops a partial chunk and average-pools each chunk to 187 tokens
// (ggml-org/llama.cpp#25496). Gemma 4 (transformers, vLLM) takes 25 tokens a second of the first 30 s, at most 750,
// plus <|audio> and <audio|>; mtmd takes every 30 s piece. `seconds` from 1 to 86,400 (the setting's bounds).
// Error: the tower takes no audio.
Expected<std::uint64_t> audio_tokens(const VisionTower& tower, std::uint64_t seconds, const ImageProcessor& processor = ImageProcessor::transformers);

// The rule audio_tokens follows for this tower, as one sentence ("" without an audio tower).
std::string audio_token_rule(const VisionTower& tower, const ImageProcessor& processor = ImageProcessor::transformers);

}  // namespace llm_memory
