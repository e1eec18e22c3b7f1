// An mmproj GGUF as clip.cpp reads it (tools/mtmd/clip.cpp load_hparams): clip.projector_type (clip.vision. or
// clip.audio.projector_type in a file with both encoders), the encoder's clip.vision.* or clip.audio.* widths, and
// each type's merge: Pixtral's clip.vision.spatial_merge_size (none: Pixtral 12B), the Qwen ViTs' (default 2), Gemma
// 4's pooling (clip.vision.projector.scale_factor, default 3), Qwen3-VL's deepstack layers from their tensors (a
// layer has one when clip.cpp finds v.deepstack.N.fc1.weight).
#include "mmproj.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "quantity.hpp"

namespace llm_memory {

void read_clip_item(GgufSummary& summary, const std::string& key, std::string_view text, std::uint64_t number) {
    ClipHeader& clip = summary.clip;
    if (key.rfind("v.deepstack.", 0) == 0) {
        if (key.size() > 11 && key.compare(key.size() - 11, 11, ".fc1.weight") == 0) ++clip.deepstack_layers;
        return;
    }
    if (key.rfind("clip.", 0) != 0) return;
    if (key == "clip.projector_type" || key == "clip.vision.projector_type" || (key == "clip.audio.projector_type" && clip.projector_type.empty()))
        clip.projector_type = printable_excerpt(text, 40);
    else if (text.empty() && clip.numbers.size() < 256)  // a converter writes a few dozen
        clip.numbers.emplace_back(key, number);
}

Expected<ProjectorFile> projector_file(const GgufSummary& s, const std::string& name) {
    // A clip.* integer: absent -> `fallback` (or an error naming it when `required`); present, it must lie within 1 to
    // 1,000,000, as a config's widths must (core/vision.cpp), so no file can zero a divisor or overflow a product.
    std::string problem;
    auto value = [&](const std::string& key, std::uint64_t fallback, bool required) -> std::uint64_t {
        if (!problem.empty()) return fallback;
        for (const auto& [k, v] : s.clip.numbers)
            if (k == key) {
                if (v >= 1 && v <= 1'000'000) return v;
                problem = key + ": must be a whole number from 1 to 1,000,000";
                return fallback;
            }
        if (required) problem = key + " is missing";
        return fallback;
    };
    ProjectorFile f;
    f.name = name;
    f.projector_type = s.clip.projector_type;
    f.weight_bytes = s.weight_bytes;
    VisionTower& t = f.tower;
    const std::string& type = s.clip.projector_type;
    if (type == "gemma3") t.kind = VisionKind::gemma3_siglip;
    else if (type == "llama4") t.kind = VisionKind::llama4;
    else if (type == "pixtral") t.kind = value("clip.vision.spatial_merge_size", 1, false) > 1 ? VisionKind::mistral3_pixtral : VisionKind::llava_pixtral;
    else if (type == "qwen2.5vl_merger") t.kind = VisionKind::qwen2_5_vl;
    else if (type == "qwen3vl_merger") t.kind = s.clip.deepstack_layers > 0 ? VisionKind::qwen3_vl : VisionKind::qwen3_5;
    else if (type == "gemma4v") t.kind = VisionKind::gemma4;
    else if (type == "voxtral") t.kind = VisionKind::voxtral;
    else if (type.empty())
        return Error{"mmproj", "clip.projector_type is missing"};
    else
        return Error{"mmproj", "projector \"" + type + "\" is not modelled (known: gemma3, llama4, pixtral, qwen2.5vl_merger, qwen3vl_merger, gemma4v, voxtral)"};
    const std::string prefix = t.kind == VisionKind::voxtral ? "clip.audio." : "clip.vision.";
    t.hidden_size = value(prefix + "embedding_length", 0, true);
    t.intermediate_size = value(prefix + "feed_forward_length", 0, true);
    t.attention_heads = value(prefix + "attention.head_count", 0, true);
    if (t.kind != VisionKind::voxtral) {
        t.patch_size = value("clip.vision.patch_size", 0, true);
        t.image_size = value("clip.vision.image_size", 0, t.kind == VisionKind::gemma3_siglip || t.kind == VisionKind::llama4);
    }
    if (t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::qwen2_5_vl || t.kind == VisionKind::qwen3_vl ||
        t.kind == VisionKind::qwen3_5)
        t.merge_size = value("clip.vision.spatial_merge_size", 2, false);
    if (t.kind == VisionKind::gemma4) t.merge_size = value("clip.vision.projector.scale_factor", 3, false);
    // The tokens of one image or tile, as clip_n_output_tokens counts them: the patches a side, each side divided by
    // the projector's scale factor (Gemma 3: default 4, 896 / 14 / 4 = 16, 256 tokens; Llama 4: the converter's 2,
    // 336 / 14 / 2 = 12, 144 tokens).
    if (t.kind == VisionKind::gemma3_siglip || t.kind == VisionKind::llama4) {
        const std::uint64_t scale = value("clip.vision.projector.scale_factor", 4, t.kind == VisionKind::llama4);
        const std::uint64_t side = problem.empty() ? t.image_size / t.patch_size / scale : 0;
        t.tokens_per_image = side * side;
    }
    // The width the projector hands the language model (convert_hf_to_gguf.py writes the text model's
    // hidden_size): mtmd refuses a model of another width.
    t.out_hidden_size = value(prefix + "projection_dim", 0, false);
    if (!problem.empty()) return Error{"mmproj", problem};
    if (t.kind == VisionKind::qwen3_vl) t.deepstack_mergers = s.clip.deepstack_layers;
    t.audio = t.kind == VisionKind::voxtral || (t.kind == VisionKind::gemma4 && value("clip.audio.embedding_length", 0, false) > 0);
    t.encoder_count = s.param_count;  // the file's tensors (counted as the file stores them)
    return f;
}

Expected<FileModel> projector_file_model(const GgufSummary& s, const std::string& name) {
    Expected<ProjectorFile> projector = projector_file(s, name);
    if (!projector) return Error{projector.error()};
    FileModel f;
    f.kind = "mmproj";
    f.param_count = s.param_count;
    f.weight_bytes = s.weight_bytes;
    f.report = "llama.cpp's " + std::string(projector->tower.kind == VisionKind::voxtral ? "audio" : "vision") + " projector (--mmproj), " +
               projector->projector_type + ": " + vision_kind_name(projector->tower.kind) + ", beside the model\n" + gguf_report(s);
    f.json = gguf_json(s);
    f.projector = std::make_shared<const ProjectorFile>(std::move(projector.value()));
    return f;
}

}  // namespace llm_memory
