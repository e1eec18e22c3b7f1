// Vision towers: exact encoder + projector counts against the checkpoints' published totals (source named per
// case), --text-only leaving them out, image tokens per family from W x H (rule and source), and the errors.
#include <catch_amalgamated.hpp>

#include <algorithm>
#include <cstring>
#include <string>

#include "architecture.hpp"
#include "estimator.hpp"
#include "formats.hpp"
#include "kv_cache.hpp"
#include "model_presets.hpp"
#include "settings.hpp"
#include "vision.hpp"
#include "config_fixtures.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

std::uint64_t tokens(const char* name, std::uint64_t w, std::uint64_t h) {
    const Expected<std::uint64_t> t = image_tokens(model_of(fixture(name)).architecture.vision, w, h);
    INFO(t.error());
    REQUIRE(t.ok());
    return *t;
}

}  // namespace

TEST_CASE("vision: towers count exactly and add to the total", "[vision][architecture]") {
    // google/gemma-3-4b-it, -12b-it, -27b-it on the Hub (safetensors metadata): 4,300,079,472; 12,187,325,040;
    // 27,432,406,640. The SigLIP encoder is 416,866,032 (27 layers of 1152, 4096 positions); the projector is
    // 1152 x the text width + an RMSNorm of 1152.
    const ModelSource g4 = model_of(fixture("gemma-3-4b-pt"));
    CHECK(g4.counts.total_count == 4'300'079'472ULL);
    CHECK(g4.architecture.vision.encoder_count == 416'866'032ULL);
    CHECK(g4.architecture.vision.projector_count == 1152ULL * 2560 + 1152);
    CHECK(g4.counts.vision_count == 419'816'304ULL);
    CHECK(model_of(fixture("gemma-3-12b-it")).counts.total_count == 12'187'325'040ULL);
    CHECK(model_of(fixture("gemma-3-27b-it")).counts.total_count == 27'432'406'640ULL);
    // meta-llama/Llama-4-Scout-17B-16E-Instruct: 108,641,793,536 on the Hub (safetensors metadata): the text
    // model's 107,769,861,120 + the vision encoder with its pixel-shuffle adapter and the projector.
    const ModelSource scout = model_of(fixture("llama-4-scout-17b-16e"));
    CHECK(scout.counts.total_count == 108'641'793'536ULL);
    CHECK(scout.counts.vision_count == 871'932'416ULL);
    // Qwen/Qwen2.5-VL-3B-Instruct: 3,754,622,976 on the Hub (safetensors metadata); the ViT with its merger is
    // 668,684,288.
    const ModelSource qwen = model_of(fixture("qwen2.5-vl-3b-instruct"));
    CHECK(qwen.counts.total_count == 3'754'622'976ULL);
    CHECK(qwen.counts.vision_count == 668'684'288ULL);
    // Qwen/Qwen3.5-27B: the Qwen3.5 ViT (Qwen3-VL's without deepstack mergers) is 460,730,096: a biased Conv3d
    // (3 x 2 x 16 x 16 -> 1152) 1,770,624, 2,304 positions x 1152, 27 blocks of 15,239,504 (two LayerNorms, qkv,
    // proj, fc1, fc2, all biased), the merger (LayerNorm 1152, 4608 -> 4608 -> 5120) 44,838,656. The checkpoint's
    // total is checked in hybrid_test.cpp.
    const VisionTower q35 = load_preset("qwen3.5-27b")->architecture.vision;
    CHECK(q35.encoder_count == 1'770'624ULL + 2304ULL * 1152 + 27ULL * 15'239'504);
    CHECK(q35.projector_count == 44'838'656ULL);
    CHECK(q35.total() == 460'730'096ULL);
    // mistralai/Mistral-Small-3.1-24B-Instruct-2503: 24,011,361,280 on the Hub (safetensors metadata): the
    // 23,572,403,200 text model + Pixtral (403,305,472) + the Mistral 3 projector (35,652,608).
    const ModelSource mistral = model_of(fixture("mistral-small-3.1-24b-instruct-2503"));
    CHECK(mistral.counts.total_count == 24'011'361'280ULL);
    CHECK(mistral.architecture.vision.encoder_count == 403'305'472ULL);
    CHECK(mistral.architecture.vision.projector_count == 35'652'608ULL);
    // mistral-community/pixtral-12b (LlavaForConditionalGeneration, a Pixtral tower): 12,682,739,712 = Mistral
    // Nemo's 12,247,782,400 + Pixtral (403,489,792: PixtralVisionConfig's defaults, patch 16) + LlavaMultiModalProjector
    // (linear_1 1024 -> 5120 and linear_2 5120 -> 5120, both biased: 31,467,520). No norm and no patch merger: the
    // checkpoint's projector is vision_language_adapter.w_in/w_out renamed linear_1/linear_2 and loaded strictly
    // (transformers convert_pixtral_weights_to_hf.py; modeling_llava.py). In BF16 that is 25,365,479,424 bytes, the
    // 25.37 GB of the repo's six shards (4.99 + 4.96 + 4.91 + 4.91 + 4.26 + 1.34 GB) and its card's "12.7B params";
    // Mistral 3's merger and norm would add 4,195,328.
    const ModelSource pixtral = model_of(fixture("pixtral-12b"));
    CHECK(pixtral.counts.total_count == 12'682'739'712ULL);
    CHECK(pixtral.architecture.vision.kind == VisionKind::llava_pixtral);
    CHECK(pixtral.architecture.vision.encoder_count == 403'489'792ULL);
    CHECK(pixtral.architecture.vision.projector_count == 1024ULL * 5120 + 5120 + 5120ULL * 5120 + 5120);
    CHECK(text_only_model(pixtral)->counts.total_count == 12'247'782'400ULL);
    // Active per token leaves the tower out (a text token does not run it).
    CHECK(scout.counts.active_count == 17'172'894'720ULL);
}

TEST_CASE("vision: Voxtral's audio tower counts exactly; it takes no images", "[vision][architecture]") {
    // mistralai/Voxtral-Mini-3B-2507, as a Tenstorrent test fixture records its checkpoint ("Voxtral-Mini-3B-2507, as
    // run 5 recorded it on 2026-08-16"): blocks audio_tower 636,968,960 and language_model 4,014,136,320 parameters,
    // 9,356,474,312 checkpoint bytes. The audio tower is a Whisper encoder (transformers modeling_voxtral.py): conv1
    // 128 x 3 -> 1280 and conv2 1280 x 3 -> 1280, biased (5,408,960); 1,500 positions x 1280; 32 layers of 19,676,160
    // (q, v and out_proj biased, k_proj not, fc1 and fc2 biased, two LayerNorms); a final LayerNorm of 2,560. The
    // projector (linear_1 5120 -> 3072, linear_2 3072 -> 3072, no biases) is 25,165,824, for a total of 4,676,271,104
    // (the Hub's "4.68B"). In bytes: every tensor in bf16 but the fp32 position table, 9,356,382,208, and the
    // fixture's 9,356,474,312 leave 92,104 bytes for the safetensors headers.
    const ModelSource mini = model_of(fixture("voxtral-mini-3b-2507"));
    CHECK(mini.architecture.vision.kind == VisionKind::voxtral);
    CHECK(mini.architecture.vision.encoder_count == 636'968'960ULL);
    CHECK(mini.architecture.vision.projector_count == 25'165'824ULL);
    CHECK(mini.counts.total_count == 4'676'271'104ULL);
    CHECK(mini.counts.audio_tower);
    CHECK(text_only_model(mini)->counts.total_count == 4'014'136'320ULL);
    // mistralai/Voxtral-Small-24B-2507 (the Hub's "24.3B"): Mistral Small 3.1's language model (23,572,403,200, its
    // checkpoint's count above), the same audio tower, and a projector of 5120 -> 5120 -> 5120.
    const ModelSource small = model_of(fixture("voxtral-small-24b-2507"));
    CHECK(small.counts.total_count == 23'572'403'200ULL + 636'968'960ULL + 2ULL * 5120 * 5120);
    CHECK(text_only_model(small)->counts.total_count == 23'572'403'200ULL);
    const std::vector<BreakdownRow> rows = breakdown_rows(small.counts);
    CHECK(std::any_of(rows.begin(), rows.end(), [](const BreakdownRow& r) { return std::strcmp(r.label, "Audio tower") == 0; }));
    // Audio is not an image: --images is refused (the model has no vision_config), never priced as image tokens.
    CHECK(image_tokens(small.architecture.vision, 896, 896).error() == "images: the model has no vision tower (vision_config)");
    // A Voxtral config whose audio_config is not an object is an error naming it.
    std::string broken = fixture("voxtral-mini-3b-2507");
    broken.replace(broken.find("\"audio_config\": {"), 17, "\"audio_config\": 1, \"x\": {");
    CHECK(model_from_config(broken).error() == "audio_config: must be an object");
}

TEST_CASE("vision: audio clips become tokens by the family's rule, under transformers and under llama.cpp", "[vision][audio]") {
    const VisionTower voxtral = model_of(fixture("voxtral-mini-3b-2507")).architecture.vision;
    auto tokens_of = [](const VisionTower& t, std::uint64_t seconds, ImageProcessor p) {
        const Expected<std::uint64_t> n = audio_tokens(t, seconds, p);
        INFO(n.error());
        REQUIRE(n.ok());
        return *n;
    };
    constexpr ImageProcessor hf = ImageProcessor::transformers, mtmd = ImageProcessor::llama_cpp;
    // mistral-common audio.py (AudioEncoder.pad to multiples of 480,000 samples, 8 mel frames a token, [BEGIN_AUDIO]),
    // as transformers' processing_voxtral.py and vLLM's voxtral.py take it: a 10 s clip costs a whole 30 s chunk.
    CHECK(tokens_of(voxtral, 10, hf) == 376);
    CHECK(tokens_of(voxtral, 30, hf) == 376);
    CHECK(tokens_of(voxtral, 45, hf) == 751);
    CHECK(tokens_of(voxtral, 600, hf) == 7501);
    // llama.cpp's mtmd (tools/mtmd/mtmd-audio.cpp: 30 s of silence appended, a partial 3,000-frame chunk dropped;
    // clip.cpp: Voxtral is average-pooled to 187 tokens a chunk, ggml-org/llama.cpp#25496).
    CHECK(tokens_of(voxtral, 10, mtmd) == 188);
    CHECK(tokens_of(voxtral, 30, mtmd) == 375);
    CHECK(tokens_of(voxtral, 600, mtmd) == 3928);
    // Gemma 4 E4B (transformers processing_gemma4.py _compute_audio_num_tokens, vLLM gemma4_mm.py): 10 ms frames
    // of 321 samples, two stride-2 subsamplings, at most 750, the clip cut at 30 s; <|audio> and <audio|>. llama.cpp
    // takes every 30 s piece instead.
    const VisionTower gemma = load_preset("gemma-4-e4b")->architecture.vision;
    CHECK(gemma.audio);
    CHECK(tokens_of(gemma, 10, hf) == 252);
    CHECK(tokens_of(gemma, 30, hf) == 752);
    CHECK(tokens_of(gemma, 600, hf) == 752);
    CHECK(tokens_of(gemma, 45, mtmd) == 1127);
    CHECK(tokens_of(gemma, 600, mtmd) == 15002);
    // A tower without audio is an error naming the key.
    CHECK(audio_tokens(load_preset("gemma-4-31b")->architecture.vision, 10).error() == "audio-seconds: the model has no audio tower (audio_config)");
    // Through the settings: the tokens join the KV cache's tokens; --text-only refuses.
    Scenario s;
    REQUIRE(apply_setting(s, "model", "voxtral-mini-3b").ok());
    REQUIRE(apply_setting(s, "audio-seconds", "45").ok());
    const Expected<Estimate> e = estimate(s);
    REQUIRE(e.ok());
    CHECK(e->audio_tokens == 751);
    CHECK(e->kv_cache_bytes == 751ULL * 2 * 30 * 8 * 128 * 2);
    REQUIRE(apply_setting(s, "text-only", "true").ok());
    CHECK(estimate(s).error() == "audio-seconds: --text-only leaves the audio tower out");
    Scenario llama;
    REQUIRE(apply_setting(llama, "model", "llama-2-7b").ok());
    REQUIRE(apply_setting(llama, "audio-seconds", "45").ok());
    CHECK(estimate(llama).error() == "audio-seconds: the model has no audio tower (audio_config)");
}

TEST_CASE("vision: text-only counts the language model alone", "[vision][architecture]") {
    const ModelSource g12 = model_of(fixture("gemma-3-12b-it"));
    const Expected<ModelSource> text = text_only_model(g12);
    REQUIRE(text.ok());
    CHECK(text->counts.total_count == 11'766'034'176ULL);
    CHECK(text->counts.vision_count == 0);
    CHECK(text->architecture.text_only);
    CHECK(text->display_name == g12.display_name + " (text only)");
    // And back.
    CHECK(full_model(*text)->counts.total_count == 12'187'325'040ULL);
    // A text model has nothing to leave out.
    CHECK(text_only_model(model_of(fixture("llama-2-7b"))).error() ==
          "text-only: the model has no vision tower to leave out");
}

TEST_CASE("vision: image tokens per family", "[vision][images]") {
    // Gemma 3 (processing_gemma3.py): 256 soft tokens + <start_of_image> + <end_of_image> at any size.
    CHECK(tokens("gemma-3-12b-it", 896, 896) == 258);
    CHECK(tokens("gemma-3-12b-it", 4000, 300) == 258);
    // Qwen2.5-VL (smart_resize, factor 28, within the 3,136 to 12,845,056 pixels of Qwen/Qwen2.5-VL-*-Instruct's
    // preprocessor_config.json): 1024 x 768 -> 1036 x 756 -> 37 x 27 = 999; 1920 x 1080 -> 1932 x 1092 -> 69 x 39 =
    // 2,691; plus vision_start/end. (The class defaults' 1,003,520-pixel cap, which gave 1,222, is not what the repos ship.)
    CHECK(tokens("qwen2.5-vl-3b-instruct", 1024, 768) == 999 + 2);
    CHECK(tokens("qwen2.5-vl-3b-instruct", 1920, 1080) == 2691 + 2);
    // Mistral 3 (pixtral resize, longest edge 1540, patch 14, merge 2): 1024 x 768 -> 27 x (37 + 1) = 1,026;
    // 1920 x 1080 -> 868 x 1540 -> 31 x (55 + 1) = 1,736.
    CHECK(tokens("mistral-small-3.1-24b-instruct-2503", 1024, 768) == 1026);
    CHECK(tokens("mistral-small-3.1-24b-instruct-2503", 1920, 1080) == 1736);
    // Pixtral 12B (processing_pixtral.py: patch 16, no merge, longest edge 1024): 1024 x 768 -> 48 x (64 + 1) =
    // 3,120; 1920 x 1080 -> 1024 x 576 -> 36 x (64 + 1) = 2,340.
    CHECK(tokens("pixtral-12b", 1024, 768) == 3120);
    CHECK(tokens("pixtral-12b", 1920, 1080) == 2340);
    // Pixtral under llama.cpp's mtmd (tools/mtmd: mtmd_image_preprocessor_dyn_size, calc_size_preserved_ratio with
    // set_limit_image_tokens(8, 1024) of (patch x merge)^2 pixels; clip_n_output_tokens: rows x columns + a break a row
    // but the last, then [IMG_END]). Mistral 3, cell 28, at most 802,816 pixels: 1540 x 1540 -> 896 x 896 -> 32 x 33 =
    // 1,056 (transformers: 3,080); 1920 x 1080 -> beta 1.607 -> 24 x 42 cells -> 24 x 43 = 1,032; 1024 x 768 stays
    // within the limit: 27 x 38 = 1,026, as transformers. Pixtral 12B, cell 16, at most 262,144 pixels: 1024 x 768 ->
    // beta 1.732 -> 27 x 36 -> 27 x 37 = 999.
    const VisionTower ms = model_of(fixture("mistral-small-3.1-24b-instruct-2503")).architecture.vision;
    const VisionTower p12 = model_of(fixture("pixtral-12b")).architecture.vision;
    CHECK(*image_tokens(ms, 1540, 1540, ImageProcessor::llama_cpp) == 1056);
    CHECK(*image_tokens(ms, 1540, 1540) == 3080);
    CHECK(*image_tokens(ms, 1920, 1080, ImageProcessor::llama_cpp) == 1032);
    CHECK(*image_tokens(ms, 1024, 768, ImageProcessor::llama_cpp) == 1026);
    CHECK(*image_tokens(p12, 1024, 768, ImageProcessor::llama_cpp) == 999);
    const ImageGrid grid = image_grid(ms, 1540, 1540, ImageProcessor::llama_cpp);
    CHECK((grid.rows == 32 && grid.columns == 32));
    CHECK(image_token_rule(ms, ImageProcessor::llama_cpp).find("within 8 to 1,024 tokens") != std::string::npos);
    // Gemma 4 under llama.cpp's mtmd: the same dyn_size preprocessor with set_limit_image_tokens(40, 280) of 48-pixel
    // cells (patch 16 x pooling 3), rows x columns tokens plus <|image> and <image|>. The resized sizes are what
    // mtmd-image.cpp's own calc_size_preserved_ratio gives (bench/mmproj/grid.cpp: "grid 48 40 280 W H"): 896 x 896 ->
    // 768 x 768, 16 x 16 = 256; 1920 x 1080 -> 1056 x 576, 22 x 12 = 264; 960 x 672 stays, 20 x 14 = 280; 200 x 200 ->
    // 336 x 336, 7 x 7 = 49, where transformers scales the image up to fill its 280-token budget (16 x 16 = 256).
    const VisionTower g4 = load_preset("gemma-4-e2b")->architecture.vision;
    CHECK(*image_tokens(g4, 896, 896, ImageProcessor::llama_cpp) == 258);
    CHECK(*image_tokens(g4, 1920, 1080, ImageProcessor::llama_cpp) == 266);
    CHECK(*image_tokens(g4, 960, 672, ImageProcessor::llama_cpp) == 282);
    CHECK(*image_tokens(g4, 200, 200, ImageProcessor::llama_cpp) == 51);
    CHECK(*image_tokens(g4, 200, 200) == 258);
    CHECK(image_token_rule(g4, ImageProcessor::llama_cpp).find("Gemma 4 under llama.cpp's mtmd: smart_resize rounds each side to a multiple of 48 within 40 to 280 tokens") == 0);
    CHECK(image_token_rule(p12).find("Pixtral (LLaVA): the longest edge") == 0);
    // Qwen3.5 (the same smart_resize with patch 16 x merge 2, factor 32, within the 65,536 to 16,777,216 pixels of the
    // Qwen3.5 and Qwen3-VL repos' preprocessor_config.json): 1024 x 768 -> 32 x 24 = 768; 1920 x 1080 -> 1088 x 1920 ->
    // 34 x 60 = 2,040; plus vision_start/end ("(w/32)·(h/32) + 2" in a public llama.cpp note).
    const VisionTower q35 = load_preset("qwen3.5-27b")->architecture.vision;
    CHECK(*image_tokens(q35, 1024, 768) == 768 + 2);
    CHECK(*image_tokens(q35, 1920, 1080) == 2040 + 2);
    CHECK(*image_tokens(load_preset("qwen3.5-35b-a3b")->architecture.vision, 1024, 768) == 768 + 2);
    CHECK(image_token_rule(q35).find("Qwen3.5: smart_resize rounds each side to a multiple of 32") == 0);
    const VisionTower scout = model_of(fixture("llama-4-scout-17b-16e")).architecture.vision;
    // Llama 4: 144 tokens a tile (336 / 14 = 24 patches a side, 576 folded 4 into 1 by the 0.5 pixel shuffle).
    // One tile: <|image_start|>, <|image|>, 144, <|image_end|> = 147. A 1024 x 768 image fits 4 x 3 tiles at scale
    // 1.3125 (the smallest upscale; 3 x 5 and 4 x 4 reach it too, with more tiles): 12 x (144 + 1 separator) + 147 =
    // 1,887. 1920 x 1080 cannot be upscaled within 16 tiles; 5 x 3 keeps the most (0.875): 15 x 145 + 147 = 2,322.
    CHECK(scout.tokens_per_image == 144);
    CHECK(*image_tokens(scout, 336, 336) == 147);
    CHECK(*image_tokens(scout, 100, 50) == 147);
    CHECK(*image_tokens(scout, 1024, 768) == 1887);
    CHECK(*image_tokens(scout, 4000, 3000) == 1887);
    CHECK(*image_tokens(scout, 1920, 1080) == 2322);
    CHECK(image_token_rule(scout).find("Llama 4: the best canvas of up to 16 tiles of 336 pixels, 144 tokens and a separator a tile") == 0);
    // Llama 4 under llama.cpp's mtmd: the llava_uhd preprocessor, tiles of 336 pixels on a canvas of 1 to 3 a side (not
    // 1 x 1), 144 tokens a tile and a 144-token overview, <|image_start|> and <|image_end|>, no separators. The grids
    // are llama.cpp's own: bench/mmproj/grid.cpp runs mtmd-image.cpp's get_slice_instructions on the Scout tower
    // clip_init loads (1024 x 768 -> 3 x 3 tiles; 1920 x 1080 -> 3 x 2; 4000 x 500 -> 3 x 1; 336 x 400 -> 1 x 2; 300 x 300
    // -> none, the overview alone).
    constexpr ImageProcessor mtmd = ImageProcessor::llama_cpp;
    CHECK(*image_tokens(scout, 300, 300, mtmd) == 146);
    CHECK(*image_tokens(scout, 336, 336, mtmd) == 146);
    CHECK(*image_tokens(scout, 1024, 768, mtmd) == 2 + 144 * 10);
    CHECK(*image_tokens(scout, 1920, 1080, mtmd) == 2 + 144 * 7);
    CHECK(*image_tokens(scout, 4000, 500, mtmd) == 2 + 144 * 4);
    CHECK(*image_tokens(scout, 336, 400, mtmd) == 2 + 144 * 3);
    const TileCanvas wide = mtmd_llama4_canvas(336, 1920, 1080);
    CHECK((wide.rows == 2 && wide.columns == 3));
    CHECK(image_token_rule(scout, mtmd).find("Llama 4 under llama.cpp's mtmd: an image larger than 336 pixels a side is cut into the canvas of 1 to 3 tiles") == 0);
    // The canvas against transformers' own examples (image_processing_llama4_fast.py): get_best_fit's docstring, a
    // 200 x 300 (h x w) image among the 224-pixel canvases of up to 3 tiles, takes [224, 448]; and
    // tests/models/llama4/test_image_processing_llama4.py test_split_tiles, a 400 x 400 image in 20-pixel tiles
    // with max_patches 16, gives 17 tiles (16 and the global view).
    const TileCanvas doc = llama4_best_canvas(224, 3, 300, 200);
    CHECK((doc.rows == 1 && doc.columns == 2));
    const TileCanvas split = llama4_best_canvas(20, 16, 400, 400);
    CHECK(split.rows * split.columns + 1 == 17);
    CHECK(image_tokens(scout, 0, 336).error() == "image-size: must be W x H pixels, each at least 1");
    CHECK(image_token_rule(model_of(fixture("gemma-3-12b-it")).architecture.vision).find("256 soft tokens") != std::string::npos);
}

TEST_CASE("vision: Qwen3-VL's ViT with its deepstack mergers counts exactly", "[vision][architecture]") {
    // Qwen/Qwen3-VL-2B-, -4B- and -8B-Instruct: 2,127,532,032; 4,437,815,808; 8,767,123,696 (the Hub's safetensors
    // metadata, BF16, e.g. "safetensors":{"parameters":{"BF16":8767123696}} for the 8B; the same totals are what
    // sum(p.numel()) prints in public runs). Qwen/Qwen3-VL-30B-A3B-Instruct: 31,070,754,032 (Fireworks' model
    // catalogue paramCount, and an MLX census of the checkpoint). The tower (Qwen3VLVisionModel): a biased Conv3d,
    // 2,304 positions, depth blocks as Qwen3.5's, the merger (LayerNorm over the width, two biased linears over the
    // 2 x 2 merged patches) and three deepstack mergers (the same, their LayerNorm over the merged width).
    const char* four = R"({"model_type":"qwen3_vl","text_config":{"model_type":"qwen3_vl_text","head_dim":128,"hidden_size":2560,"intermediate_size":9728,"num_attention_heads":32,"num_hidden_layers":36,"num_key_value_heads":8,"tie_word_embeddings":true,"vocab_size":151936},"tie_word_embeddings":true,"vision_config":{"deepstack_visual_indexes":[5,11,17],"depth":24,"hidden_size":1024,"in_channels":3,"intermediate_size":4096,"model_type":"qwen3_vl","num_heads":16,"num_position_embeddings":2304,"out_hidden_size":2560,"patch_size":16,"spatial_merge_size":2,"temporal_patch_size":2}})";
    const ModelSource q4 = model_of(four);
    CHECK(q4.counts.total_count == 4'437'815'808ULL);
    // 1024 wide, merged 4096: the merger 2 x 1024 + 4096 x 4096 + 4096 + 4096 x 2560 + 2560 = 27,271,680; each deepstack
    // merger 2 x 4096 + the same linears = 27,277,824.
    CHECK(q4.architecture.vision.kind == VisionKind::qwen3_vl);
    CHECK(q4.architecture.vision.projector_count == 27'271'680ULL + 3 * 27'277'824ULL);
    std::string two = four;
    for (auto [from, to] : {std::pair<const char*, const char*>{"\"hidden_size\":2560", "\"hidden_size\":2048"},
                            {"\"intermediate_size\":9728", "\"intermediate_size\":6144"}, {"\"num_attention_heads\":32", "\"num_attention_heads\":16"},
                            {"\"num_hidden_layers\":36", "\"num_hidden_layers\":28"}, {"\"out_hidden_size\":2560", "\"out_hidden_size\":2048"}})
        two.replace(two.find(from), std::strlen(from), to);
    CHECK(model_of(two).counts.total_count == 2'127'532'032ULL);
    CHECK(load_preset("qwen3-vl-8b")->counts.total_count == 8'767'123'696ULL);
    const ModelSource moe = *load_preset("qwen3-vl-30b-a3b");
    CHECK(moe.counts.total_count == 31'070'754'032ULL);
    CHECK(moe.architecture.vision.total() == 415'891'440ULL + 122'739'968ULL);
    // Without deepstack_visual_indexes the class default [8, 16, 24] stands: three mergers. A bad list is an error.
    std::string unlisted = four;
    unlisted.replace(unlisted.find("\"deepstack_visual_indexes\":[5,11,17],"), 37, "");
    CHECK(model_of(unlisted).counts.total_count == 4'437'815'808ULL);
    std::string beyond = four;
    beyond.replace(beyond.find("[5,11,17]"), 9, "[5,11,24]");
    CHECK(model_from_config(beyond).error() == "vision_config.deepstack_visual_indexes: each entry must be a layer number below depth 24");
    // --text-only: Qwen3VLForConditionalGeneration's language model alone (4,437,815,808 - the tower).
    CHECK(apply_state(Scenario{}, "model=qwen3-vl-8b&text-only=true").scenario.param_count == 8'767'123'696ULL - 576'388'336ULL);
}

TEST_CASE("vision: the Qwen ViTs' image tokens under transformers' processor and llama.cpp's mtmd", "[vision][images]") {
    // Reference: transformers' smart_resize (image_processing_qwen2_vl.py; Python's round, half to even) with the repo's
    // pixel limits, run in Python for these sizes: Qwen3-VL-8B 1920 x 1080 -> 2,042 tokens; a 4032 x 3024 phone photo
    // (12.2 MP, inside 16,777,216) -> 94 x 126 + 2 = 11,846; 1040 x 1040 -> 32.5 rounds to 32 -> 1,026; 200 x 200 is
    // below 65,536 pixels and grows to 256 x 256 -> 66. llama.cpp's mtmd (tools/mtmd/clip.cpp set_limit_image_tokens(8,
    // 4096), mtmd-image.cpp calc_size_preserved_ratio with std::round): the photo is capped at 4,096 tokens ->
    // 55 x 73 + 2 = 4,017; 32.5 rounds to 33 -> 1,091; 200 x 200 needs only 8 tokens' pixels -> 6 x 6 + 2 = 38.
    const VisionTower q3 = load_preset("qwen3-vl-8b")->architecture.vision;
    CHECK(*image_tokens(q3, 1920, 1080) == 2042);
    CHECK(*image_tokens(q3, 4032, 3024) == 11'846);
    CHECK(*image_tokens(q3, 1040, 1040) == 1026);
    CHECK(*image_tokens(q3, 200, 200) == 66);
    CHECK(*image_tokens(q3, 1920, 1080, ImageProcessor::llama_cpp) == 2042);
    CHECK(*image_tokens(q3, 4032, 3024, ImageProcessor::llama_cpp) == 4017);
    CHECK(*image_tokens(q3, 1040, 1040, ImageProcessor::llama_cpp) == 1091);
    CHECK(*image_tokens(q3, 200, 200, ImageProcessor::llama_cpp) == 38);
    // Qwen2.5-VL under llama.cpp: 4,096 tokens of 28 x 28 pixels at most; transformers: 15,554 for the photo.
    const VisionTower q25 = model_of(fixture("qwen2.5-vl-3b-instruct")).architecture.vision;
    CHECK(*image_tokens(q25, 4032, 3024) == 15'554);
    CHECK(*image_tokens(q25, 4032, 3024, ImageProcessor::llama_cpp) == 4017);
    CHECK(image_token_rule(q3) .find("Qwen3-VL: smart_resize rounds each side to a multiple of 32 within 65,536 to 16,777,216 pixels") == 0);
    CHECK(image_token_rule(q3, ImageProcessor::llama_cpp).find("within 8,192 to 4,194,304 pixels") != std::string::npos);
    // The engine chooses the processor: llama.cpp and Ollama run mtmd, vLLM and transformers the repo's processor.
    StateResult s = apply_state(Scenario{}, "model=qwen3-vl-8b&context=8K&images=1&image-size=4032x3024&gpu=h100-80gb");
    REQUIRE(s.problems.empty());
    CHECK(estimate(s.scenario).value().image_tokens == 11'846);
    for (const char* engine : {"llama.cpp", "ollama"}) {
        REQUIRE(apply_setting(s.scenario, "engine", engine));
        CHECK(estimate(s.scenario).value().image_tokens == 4017);
    }
    REQUIRE(apply_setting(s.scenario, "engine", "vllm"));
    CHECK(estimate(s.scenario).value().image_tokens == 11'846);
}

TEST_CASE("vision: llama.cpp's --image-min-tokens and --image-max-tokens, and Ollama's minimum for Qwen-VL", "[vision][images]") {
    // The flags replace set_limit_image_tokens' bounds for the towers mtmd resizes itself (tools/mtmd/clip-model.h:
    // custom_image_min_tokens, custom_image_max_tokens). Every figure below is what llama.cpp's own
    // calc_size_preserved_ratio gives (bench/mmproj/grid.cpp compiles tools/mtmd/mtmd-image.cpp unchanged: "grid CELL
    // MIN MAX W H"), in floats as mtmd computes: Qwen2.5-VL (cell 28) at 1,024 to 4,096 tokens: 448 x 448 -> 896 x 896,
    // 32 x 32; 200 x 300 -> 756 x 1120, 27 x 40; at 1,024 to 2,000: 1920 x 1080 -> 1652 x 924, 59 x 33. Gemma 4 (cell
    // 48) at 100 to 280: 200 x 200 -> 528 x 528, 11 x 11, where doubles give 10 x 10 (the scale is exactly 2.4).
    const VisionTower q25 = model_of(fixture("qwen2.5-vl-3b-instruct")).architecture.vision;
    ImageProcessor p = ImageProcessor::llama_cpp;
    CHECK(*image_tokens(q25, 448, 448, p) == 16 * 16 + 2);  // 8 to 4,096: the image as it is
    p.min_tokens = 1024;
    CHECK(*image_tokens(q25, 448, 448, p) == 32 * 32 + 2);
    CHECK(*image_tokens(q25, 200, 300, p) == 27 * 40 + 2);
    CHECK(image_token_rule(q25, p).find("(llama.cpp tools/mtmd: 1,024 to 4,096 tokens an image, set_limit_image_tokens, --image-min-tokens 1,024)") !=
          std::string::npos);
    p.max_tokens = 2000;
    CHECK(*image_tokens(q25, 1920, 1080, p) == 59 * 33 + 2);
    const VisionTower g4 = load_preset("gemma-4-e2b")->architecture.vision;
    ImageProcessor g = ImageProcessor::llama_cpp;
    g.min_tokens = 100;
    CHECK(*image_tokens(g4, 200, 200, g) == 11 * 11 + 2);
    const ImageGrid grid = mtmd_smart_resize(48, 100 * 48 * 48, 280 * 48 * 48, 200, 200);
    CHECK((grid.rows == 11 && grid.columns == 11));
    CHECK(image_token_rule(g4, g).find("within 100 to 280 tokens (a small image is scaled up to 100, not to fill 280 as transformers does)") !=
          std::string::npos);
    // Bounds that cross are refused by name, as clip.cpp throws while the projector loads.
    p.min_tokens = 5000;
    p.max_tokens = 0;
    Expected<std::uint64_t> crossed = image_tokens(q25, 448, 448, p);
    REQUIRE_FALSE(crossed.ok());
    CHECK(crossed.error() == "image-min-tokens: an image's minimum (--image-min-tokens 5,000) is above the tower's maximum of 4,096 tokens: "
                             "llama.cpp refuses the pair (image_max_pixels is less than image_min_pixels)");
    g.min_tokens = 0;
    g.max_tokens = 20;
    crossed = image_tokens(g4, 448, 448, g);
    REQUIRE_FALSE(crossed.ok());
    CHECK(crossed.error().rfind("image-max-tokens: an image's maximum (--image-max-tokens 20) is below the tower's minimum of 40 tokens", 0) == 0);
    // Towers mtmd does not resize by tokens ignore the flags: Gemma 3 is always 256 + 2.
    ImageProcessor any = ImageProcessor::llama_cpp;
    any.min_tokens = 5000;
    CHECK(*image_tokens(model_of(fixture("gemma-3-12b-it")).architecture.vision, 448, 448, any) == 258);
    // Ollama starts llama-server with --image-min-tokens 1024 for qwen2vl, qwen25vl, qwen3vl and qwen3vlmoe, not for
    // Qwen3.5 (llm/llama_server.go qwenVLServerArgs, ollama fb30760): a 448 x 448 image is 1,026 tokens there.
    StateResult s = apply_state(Scenario{}, "model=qwen2.5-vl-3b&context=8K&images=2&image-size=448x448&engine=ollama");
    REQUIRE(s.problems.empty());
    CHECK(estimate(s.scenario).value().image_tokens == 2 * 1026);
    CHECK(image_token_rule(q25, image_processor(s.scenario)).find("Ollama passes --image-min-tokens 1024 for Qwen-VL") != std::string::npos);
    REQUIRE(apply_setting(s.scenario, "engine", "llama.cpp"));
    CHECK(estimate(s.scenario).value().image_tokens == 2 * 258);
    REQUIRE(apply_setting(s.scenario, "image-min-tokens", "1024"));
    CHECK(estimate(s.scenario).value().image_tokens == 2 * 1026);
    StateResult q35 = apply_state(Scenario{}, "model=qwen3.5-27b&context=8K&images=1&image-size=448x448&engine=ollama");
    REQUIRE(q35.problems.empty());
    CHECK(estimate(q35.scenario).value().image_tokens == 14 * 14 + 2);  // 448 = 14 cells of 32: within 8 to 4,096
    // The settings read a count or auto, and keep the last good value.
    CHECK(apply_setting(s.scenario, "image-min-tokens", "0").error() == "image-min-tokens: must be at least 1");
    CHECK(s.scenario.engine.image_min_tokens == 1024);
    REQUIRE(apply_setting(s.scenario, "image-min-tokens", "auto"));
    CHECK(s.scenario.engine.image_min_tokens == 0);
}

TEST_CASE("vision: Gemma 4 (26B-A4B, 31B) counts exactly; its layers, KV cache and images", "[vision][architecture]") {
    // google/gemma-4-31B-it and google/gemma-4-26B-A4B-it: 31,273,088,876 and 25,805,936,206 in the Hub's safetensors
    // metadata ({"safetensors":{"parameters":{"BF16":31273088876}}}, quoted in public catalogue files). The text
    // model alone is 30,697,345,340, which llama.cpp prints as "model params = 30.70 B" with its one rope_freqs
    // tensor of 256 (ggml-org/llama.cpp#22616); the card's "3.8B active" for the 26B-A4B. Rules from transformers'
    // modular_gemma4.py: global layers have 512-wide heads and, with attention_k_eq_v, 4 KV heads and no v_proj;
    // q_norm and k_norm per layer, four norms and a layer_scalar buffer; the 26B-A4B's router (proj, scale,
    // per_expert_scale) and experts sit beside the dense 2112-wide MLP with three more norms; the vision encoder
    // keeps std_bias and std_scale (standardize) and projects with embed_vision (1152 -> the text width).
    const ModelSource g31 = *load_preset("gemma-4-31b");
    CHECK(g31.counts.total_count == 31'273'088'876ULL);
    CHECK(g31.architecture.vision.total() == 569'548'080ULL + 2 * 1152 + 1152ULL * 5376);
    CHECK(apply_state(Scenario{}, "model=gemma-4-31b&text-only=true").scenario.param_count == 30'697'345'340ULL);
    const ModelSource g26 = *load_preset("gemma-4-26b-a4b");
    CHECK(g26.counts.total_count == 25'805'936'206ULL);
    CHECK(g26.counts.active_count == 3'822'530'590ULL);  // a text token's: the tower is left out
    // KV: 10 global layers keep every token at 2 x 4 x 512 values; 50 sliding ones at most 1,024 tokens at
    // 2 x 16 x 256 (get_head_shapes in transformers' cache export). 32K tokens in fp16: 2,684,354,560 + 838,860,800
    // = 3,360 MiB.
    const KvCacheShape shape = kv_cache_shape(g31.architecture).value();
    CHECK(shape.sliding_layers == 50);
    CHECK(*kv_cache_bytes(shape, 32768, 1, find_weight_format("fp16").value()) == 3'523'215'360ULL);
    // Images (image_processing_gemma4.py get_aspect_ratio_preserving_size, 280 soft tokens, 48-pixel cells; the same
    // sizes run through a Python copy of it): a square -> 16 x 16 + 2 = 258; 1920 x 1080 -> 12 x 22 + 2 = 266; a
    // 10000 x 10 strip -> 1 x 280 + 2.
    const VisionTower v = g31.architecture.vision;
    CHECK(*image_tokens(v, 1024, 1024) == 258);
    CHECK(*image_tokens(v, 896, 896) == 258);
    CHECK(*image_tokens(v, 1920, 1080) == 266);
    CHECK(*image_tokens(v, 10000, 10) == 282);
    CHECK(image_token_rule(v).find("Gemma 4: the image is scaled to fill 280 tokens of 48 x 48 pixels") == 0);
    // Refused by name: a global layer's KV heads missing, no layer_types, more shared-KV layers than donors, bad
    // audio channels.
    // The 31B's config with `from` replaced by `to`, read: the error.
    auto error_with = [](const std::string& from, const std::string& to) {
        std::string config = find_preset("gemma-4-31b")->config_json;
        config.replace(config.find(from), from.size(), to);
        return model_from_config(config).error();
    };
    CHECK(error_with("\"head_dim\":256", "\"head_dim\":256,\"num_kv_shared_layers\":60") ==
          "num_kv_shared_layers: 60 leaves no layer of the 60 to keep a cache for them");
    CHECK(error_with("{\"model_type\"", "{\"audio_config\":{\"subsampling_conv_channels\":[128]},\"model_type\"") ==
          "audio_config.subsampling_conv_channels: must be two channel counts, such as [128, 32]");
    CHECK(error_with("\"num_global_key_value_heads\":4,", "") == "num_global_key_value_heads: is missing");
    // Without layer_types, Gemma4TextConfig's default pattern (5 sliding to 1 global) gives the same count; a last
    // sliding layer is forced to full_attention (with a warning), as transformers does.
    std::string unlisted = find_preset("gemma-4-31b")->config_json;
    unlisted.replace(unlisted.find("\"layer_types\""), 13, "\"layer_kinds\"");
    CHECK(model_of(unlisted).counts.total_count == 31'273'088'876ULL);
    std::string last = find_preset("gemma-4-31b")->config_json;
    last.replace(last.rfind("\"full_attention\""), 16, "\"sliding_attention\"");
    const ModelSource forced = model_of(last);
    CHECK(forced.counts.total_count == 31'273'088'876ULL);
    REQUIRE(forced.architecture.warnings.size() == 1);
    CHECK(forced.architecture.warnings[0].find("layer_types: the last layer is sliding_attention") == 0);
    std::string deaf = find_preset("gemma-4-31b")->config_json;
    deaf.replace(deaf.find("\"vision_config\""), 15, "\"audio_config\"");
    CHECK(model_from_config(deaf).error() == "audio_config: a Gemma 4 audio tower without a vision_config is not modelled");
}

TEST_CASE("vision: Gemma 4 E2B and E4B: per-layer embeddings, shared-KV layers and the audio tower", "[vision][architecture]") {
    // google/gemma-4-E2B-it and -E4B-it: 5,123,178,051 and 7,996,156,490 in the Hub's safetensors metadata. Their
    // text models, 4,647,449,891 and 7,518,069,034, hold the PLE table (262,144 x layers x 256), its projection and
    // norm, each layer's per_layer_input_gate, per_layer_projection and norm, and the shared-KV layers' own k/v
    // weights, which the checkpoints store (llama.cpp prints E2B as "model params = 4.65 B"). The E2B's 20 shared
    // layers have a 12,288-wide MLP (use_double_wide_mlp; its print_info n_ff = [6144 x15, 12288 x20]). Towers: the
    // small vision encoder 167,364,608 with defaults, the audio encoder 304,824,608 (Gemma4AudioConfig's defaults),
    // embed_vision and embed_audio into the text width.
    auto types = [](int layers, int period) {
        std::string out;
        for (int i = 0; i < layers; ++i) out += std::string(i ? "," : "") + ((i + 1) % period ? "\"sliding_attention\"" : "\"full_attention\"");
        return out;
    };
    auto config = [&](const std::string& text) {
        return R"({"model_type":"gemma4","text_config":{"model_type":"gemma4_text","head_dim":256,"global_head_dim":512,"sliding_window":512,)"
               R"("vocab_size":262144,"vocab_size_per_layer_input":262144,"hidden_size_per_layer_input":256,"num_attention_heads":8,)" + text +
               R"(},"vision_config":{"model_type":"gemma4_vision","use_clipped_linears":true},"audio_config":{"model_type":"gemma4_audio"}})";
    };
    const std::string e2b = config(R"("hidden_size":1536,"intermediate_size":6144,"num_hidden_layers":35,"num_key_value_heads":1,)"
                                   R"("num_kv_shared_layers":20,"use_double_wide_mlp":true,"layer_types":[)" + types(35, 5) + "]");
    const std::string e4b = config(R"("hidden_size":2560,"intermediate_size":10240,"num_hidden_layers":42,"num_key_value_heads":2,)"
                                   R"("num_kv_shared_layers":18,"layer_types":[)" + types(42, 6) + "]");
    const ModelSource two = model_of(e2b), four = model_of(e4b);
    CHECK(two.counts.total_count == 5'123'178'051ULL);
    CHECK(four.counts.total_count == 7'996'156'490ULL);
    // The presets (config.json's counting fields) give the same models.
    CHECK(load_preset("gemma-4-e2b")->counts.total_count == 5'123'178'051ULL);
    CHECK(load_preset("gemma-4-e4b")->counts.total_count == 7'996'156'490ULL);
    CHECK(kv_cache_shape(load_preset("gemma-4-e2b")->architecture).value().layers == 15);
    CHECK(two.counts.total_count - two.counts.vision_count == 4'647'449'891ULL);
    CHECK(four.counts.total_count - four.counts.vision_count == 7'518'069'034ULL);
    CHECK(two.counts.vision_count == 167'364'608ULL + 304'824'608ULL + 768ULL * 1536 + 1536ULL * 1536);
    CHECK(two.counts.per_layer_embedding_count == 262'144ULL * 35 * 256 + 1536ULL * 35 * 256);
    // KV: only the first 15 (E2B) and 24 (E4B) layers keep a cache; the rest read layer 13/14 (22/23)'s. E2B per token
    // in fp16: 3 global layers x 2 x 512 + 12 sliding x 2 x 256, the sliding ones up to 512 tokens.
    const KvCacheShape shape = kv_cache_shape(two.architecture).value();
    CHECK(shape.layers == 15);
    CHECK(shape.sliding_layers == 12);
    CHECK(*kv_cache_bytes(shape, 32768, 1, find_weight_format("fp16").value()) == 3ULL * 32768 * 1024 * 2 + 12ULL * 512 * 512 * 2);
    CHECK(kv_cache_shape(four.architecture).value().layers == 24);
}

TEST_CASE("vision: unknown towers and missing fields are errors naming them", "[vision][errors]") {
    std::string odd = fixture("gemma-3-12b-it");
    const std::size_t at = odd.find("\"siglip_vision_model\"");
    REQUIRE(at != std::string::npos);
    odd.replace(at, 21, "\"clip_vision_model\"");
    std::string top = odd;
    top.replace(top.find("\"gemma3\""), 8, "\"my_vlm\"");
    const Expected<ModelSource> m = model_from_config(top);
    REQUIRE_FALSE(m.ok());
    CHECK(m.error().find("model_type \"clip_vision_model\" is not modelled") != std::string::npos);
    std::string wrapped = fixture("pixtral-12b");
    wrapped.replace(wrapped.find("\"llava\""), 7, "\"my_vlm\"");
    CHECK(model_from_config(wrapped).error() ==
          "vision_config: a Pixtral tower under model_type \"my_vlm\" is not modelled (known: mistral3, llava); use "
          "--text-only to count the text model alone");
    std::string missing = fixture("qwen2.5-vl-3b-instruct");
    missing.replace(missing.find("\"out_hidden_size\""), 17, "\"out_hidden_sizeX\"");
    CHECK(model_from_config(missing).error() == "vision_config.out_hidden_size: is missing");
}

TEST_CASE("vision: --text-only and --images through the settings and the estimate", "[vision][settings]") {
    // text-only: N becomes the language model's count, in either order of the keys, and round-trips.
    // Qwen3.5-27B without its tower: the 26,895,998,464 of Qwen3_5ForCausalLM.
    CHECK(apply_state(Scenario{}, "model=qwen3.5-27b&text-only=true").scenario.param_count == 26'895'998'464ULL);
    const StateResult text = apply_state(Scenario{}, "model=gemma-3-12b&text-only=true");
    REQUIRE(text.problems.empty());
    CHECK(text.scenario.param_count == 11'766'034'176ULL);
    CHECK(apply_state(Scenario{}, "text-only=true&model=gemma-3-12b").scenario.param_count == 11'766'034'176ULL);
    const StateResult again = apply_state(Scenario{}, to_state(text.scenario));
    REQUIRE(again.problems.empty());
    CHECK(again.scenario.model != nullptr);
    CHECK(again.scenario.param_count == 11'766'034'176ULL);
    CHECK(to_state(text.scenario).rfind("model=gemma-3-12b&text-only=true", 0) == 0);
    CHECK(apply_state(text.scenario, "text-only=false").scenario.param_count == 12'187'325'040ULL);
    const StateResult no_tower = apply_state(Scenario{}, "model=llama-2-7b&text-only=true");
    REQUIRE(no_tower.problems.size() == 1);
    CHECK(no_tower.problems[0] == "text-only: the model has no vision tower to leave out");
    // Two 896 x 896 images on Gemma 3 12B: 2 x 258 tokens added to the 8,192 of context.
    const StateResult images = apply_state(Scenario{}, "model=gemma-3-12b&context=8K&images=2&image-size=896x896");
    REQUIRE(images.problems.empty());
    const Estimate e = estimate(images.scenario).value();
    CHECK(e.image_tokens == 516);
    const KvCacheShape shape = kv_cache_shape(images.scenario.model->architecture).value();
    CHECK(e.kv_cache_bytes == kv_cache_bytes(shape, 8192 + 516, 1, find_weight_format("fp16").value()).value());
    CHECK(to_state(images.scenario).find("images=2&image-size=896x896") != std::string::npos);
    // Without a size, on a text model, or with the tower left out: errors naming the key.
    Scenario bad = images.scenario;
    bad.image_width = bad.image_height = 0;
    CHECK(estimate(bad).error() == "image-size: is needed with --images: W x H pixels, such as 896x896");
    CHECK(apply_state(Scenario{}, "image-size=896").problems[0] == "image-size: must be W x H pixels, such as 896x896");
    const StateResult llama = apply_state(Scenario{}, "model=llama-2-7b&images=1&image-size=896x896");
    CHECK(llama.problems.back().find("images: the model has no vision tower") != std::string::npos);
}
