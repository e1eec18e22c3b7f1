// Headless test of the model picker: draw_model_panel at phone and desktop widths with a preset chosen
// through the settings key, a dropped config.json queued, and a malformed one (the last good model stays); the Hub
// look-up asked for again while one runs (refused with a note, nothing handed to the driver).
// IM_ASSERT throws (ui_test_imconfig.h); the panel must not overflow its window's width.
// Figures: Llama-2-7b 6,738,415,616 and Mixtral-8x7B 46,702,792,704 parameters (tests/core/architecture_test.cpp).
#include <catch_amalgamated.hpp>

#include <string>

#include "app.hpp"
#include "architecture.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "hub_panel.hpp"
#include "model_panel.hpp"
#include "settings.hpp"
#include "vision.hpp"
#include "ui_test_support.hpp"
#include "../files/gguf_writer.hpp"

using namespace llm_memory;

namespace {

using ModelHeadless = llm_memory::test::HeadlessImGui;

// Draws the panel in a window filling the display; returns the window's horizontal overflow.
float draw_panel_frames(AppState& app, float width, int frames) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, 900.0f);
    io.DeltaTime = 1.0f / 60.0f;
    float overflow = 0.0f;
    for (int i = 0; i < frames; ++i) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f));
        ImGui::SetNextWindowSize(io.DisplaySize);
        ImGui::Begin("Model test", nullptr, ImGuiWindowFlags_NoDecoration);
        draw_model_panel(app);
        overflow = ImGui::GetCurrentWindow()->ScrollMax.x;
        ImGui::End();
        ImGui::Render();
    }
    return overflow;
}

const char* kMixtralConfig =
    R"({"model_type":"mixtral","hidden_size":4096,"intermediate_size":14336,"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"num_local_experts":8,"num_experts_per_tok":2,"vocab_size":32000,"tie_word_embeddings":false})";

}  // namespace

TEST_CASE("model panel: preset, dropped config, malformed config", "[ui][model]") {
    for (const float width : {360.0f, 900.0f}) {
        INFO("width " << width);
        AppState app;
        ModelHeadless context(app);
        Scenario start;
        REQUIRE(apply_setting(start, "model", "llama-2-7b").ok());
        REQUIRE(app_set_scenario(app, start));
        CHECK(draw_panel_frames(app, width, 3) <= 1.0f);
        CHECK(app.scenario.param_count == 6'738'415'616ULL);

        REQUIRE(queue_model_config(app, kMixtralConfig, "config.json"));
        CHECK(draw_panel_frames(app, width, 3) <= 1.0f);
        CHECK(app.scenario.param_count == 46'702'792'704ULL);
        REQUIRE(app.scenario.model != nullptr);
        CHECK(app.scenario.model->display_name == "config.json (mixtral)");
        CHECK(app.estimate.weight_bytes == 93'405'585'408ULL);

        CHECK_FALSE(queue_model_config(app, "{\"model_type\":\"llama\",\"hidden_size\":", "broken.json"));
        draw_panel_frames(app, width, 2);
        CHECK(app.scenario.param_count == 46'702'792'704ULL);  // the last good model stays
    }
}

// An unknown model_type whose config has experts: refused with a visible notice on the Model panel that
// names the fields (not a console warning), and the last good model stays.
TEST_CASE("model panel: an unknown MoE config is refused with a visible notice", "[ui][model]") {
    AppState app;
    ModelHeadless context(app);
    Scenario start;
    REQUIRE(apply_setting(start, "model", "llama-2-7b").ok());
    REQUIRE(app_set_scenario(app, start));
    draw_panel_frames(app, 900.0f, 2);
    const char* unknown_moe =
        R"({"model_type":"my_moe","hidden_size":2048,"num_hidden_layers":48,"num_attention_heads":32,"vocab_size":151936,"intermediate_size":6144,"num_experts":128,"num_experts_per_tok":8,"moe_intermediate_size":768})";
    CHECK_FALSE(queue_model_config(app, unknown_moe, "config.json"));
    CHECK(draw_panel_frames(app, 360.0f, 3) <= 1.0f);
    bool is_error = false;
    const std::string notice = model_panel_message(app, &is_error);
    CHECK(is_error);
    CHECK(notice.find("model_type \"my_moe\" is not known") != std::string::npos);
    CHECK(notice.find("num_experts (routed experts)") != std::string::npos);
    CHECK(app.scenario.param_count == 6'738'415'616ULL);
}

// A dropped GGUF file (read by core's ModelFileReader in chunks, as the desktop drop handler and the web
// page do): N and the architecture come from the header, the notice lists bytes per type.
TEST_CASE("model panel: a dropped GGUF file becomes the model", "[ui][model][gguf]") {
    llm_memory::test::GgufWriter w;
    w.text("general.architecture", "llama");
    w.u32("llama.block_count", 2);
    w.u32("llama.embedding_length", 64);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.tensor("token_embd.weight", {64, 100}, 0, 64 * 100 * 4);
    w.tensor("blk.0.attn_q.weight", {256, 64}, 12, 64 * 144);
    const std::string file = w.file();
    AppState app;
    ModelHeadless context(app);
    ModelFileReader reader(file.size(), "tiny.gguf");
    for (std::size_t at = 0; at < file.size(); at += 100)
        if (*reader.feed(std::string_view(file).substr(at, 100))) break;
    CHECK(queue_model_file(app, reader.finish(), "tiny.gguf"));
    CHECK(draw_panel_frames(app, 360.0f, 3) <= 1.0f);
    CHECK(app.scenario.param_count == 64 * 100 + 256 * 64);
    REQUIRE(app.scenario.model != nullptr);
    CHECK(app.scenario.model->architecture.num_key_value_heads == 2);
    // Weight bytes: 25,600 (F32) + 9,216 (Q4_K) = 34,816 over 22,784 weights.
    CHECK(app.estimate.weight_bytes == 34'816);
    bool is_error = true;
    const std::string notice = model_panel_message(app, &is_error);
    CHECK_FALSE(is_error);
    CHECK(notice.find("Q4_K: 1 tensor, 16,384 weights, 9,216 bytes") != std::string::npos);
    // A file that is neither GGUF nor safetensors: a visible error, the model stays.
    ModelFileReader zip(20, "x.gguf");
    const Expected<bool> fed = zip.feed("PK\x03\x04 not a model.");
    REQUIRE_FALSE(fed.ok());
    CHECK_FALSE(queue_model_file(app, Error{fed.error()}, "x.gguf"));
    draw_panel_frames(app, 900.0f, 2);
    CHECK(model_panel_message(app, &is_error).find("not a GGUF file or a safetensors file") != std::string::npos);
    CHECK(is_error);
    CHECK(app.scenario.param_count == 64 * 100 + 256 * 64);
}

// A dropped mmproj GGUF (llama.cpp's projector file, general.architecture "clip") is the projector, not the model:
// the model stays, llama.cpp's --mmproj takes the file, and the notice says so.
TEST_CASE("model panel: a dropped projector file becomes llama.cpp's --mmproj", "[ui][model][gguf]") {
    llm_memory::test::GgufWriter w;
    w.text("general.architecture", "clip");
    w.text("clip.projector_type", "gemma3");
    w.u32("clip.vision.embedding_length", 1152);
    w.u32("clip.vision.feed_forward_length", 4304);
    w.u32("clip.vision.attention.head_count", 16);
    w.u32("clip.vision.patch_size", 14);
    w.u32("clip.vision.image_size", 896);
    w.tensor("v.patch_embd.weight", {14, 14, 3, 1152}, 1, 14 * 14 * 3 * 1152 * 2);
    const std::string file = w.file();
    AppState app;
    ModelHeadless context(app);
    REQUIRE(apply_setting(app.scenario, "model", "gemma-3-12b"));
    REQUIRE(apply_setting(app.scenario, "engine", "llama.cpp"));
    const std::uint64_t params = app.scenario.param_count;
    ModelFileReader reader(file.size(), "mmproj-gemma-3.gguf");
    REQUIRE(*reader.feed(file));
    CHECK(queue_model_file(app, reader.finish(), "mmproj-gemma-3.gguf"));
    draw_panel_frames(app, 360.0f, 3);
    bool is_error = true;
    CHECK(model_panel_message(app, &is_error).find("Read mmproj-gemma-3.gguf (header only):\nllama.cpp's vision projector (--mmproj), gemma3: SigLIP (Gemma 3), beside the model\n") == 0);
    CHECK_FALSE(is_error);
    CHECK(app.scenario.param_count == params);
    CHECK(app.scenario.engine.mmproj);
    REQUIRE(app.scenario.engine.mmproj_file != nullptr);
    CHECK(app.scenario.engine.mmproj_file->tower.kind == VisionKind::gemma3_siglip);
}

// Opening a model file: the panel only asks; the driver reads the file. With a file picker the button
// raises open_file_requested; with a path field (the native driver) the path typed in it goes to
// open_file_path when Open (or Enter in the field) is pressed. Driven by the keyboard (Tab to the item).
TEST_CASE("model panel: the file picker button and the path field hand the request to the driver", "[ui][model]") {
    const auto press = [](AppState& app, const char* label, ImGuiKey key = ImGuiKey_Enter) {
        ImGuiIO& io = ImGui::GetIO();
        for (int step = 0; step < 80; ++step) {
            io.AddKeyEvent(ImGuiKey_Tab, true);
            draw_panel_frames(app, 900.0f, 1);
            io.AddKeyEvent(ImGuiKey_Tab, false);
            draw_panel_frames(app, 900.0f, 1);
            ImGuiContext& g = *ImGui::GetCurrentContext();
            if (g.NavWindow == nullptr) continue;
            const ImGuiID id = ImHashStr(label, 0, ImHashStr("model_panel", 0, g.NavWindow->ID));
            if (g.NavId != id) continue;
            io.AddKeyEvent(key, true);
            draw_panel_frames(app, 900.0f, 1);
            io.AddKeyEvent(key, false);
            draw_panel_frames(app, 900.0f, 1);
            return true;
        }
        return false;
    };
    {
        AppState app;
        ModelHeadless context(app);
        app.file_picker = true;
        CHECK(draw_panel_frames(app, 360.0f, 2) <= 1.0f);
        REQUIRE(press(app, "Open a model file...##model_file_open"));
        CHECK(app.open_file_requested);
        CHECK(app.open_file_path.empty());
    }
    {
        AppState app;
        ModelHeadless context(app);
        app.file_path_field = true;
        CHECK(draw_panel_frames(app, 360.0f, 2) <= 1.0f);
        // An empty path asks for nothing.
        REQUIRE(press(app, "Open##model_file_path_open"));
        CHECK(app.open_file_path.empty());
        REQUIRE(press(app, "##model_file_path", ImGuiKey_Space));  // Space on the field starts editing it
        ImGuiIO& io = ImGui::GetIO();
        io.AddInputCharactersUTF8("/models/tiny.gguf");
        draw_panel_frames(app, 900.0f, 2);
        io.AddKeyEvent(ImGuiKey_Enter, true);  // Enter in the field opens it too
        draw_panel_frames(app, 900.0f, 1);
        io.AddKeyEvent(ImGuiKey_Enter, false);
        draw_panel_frames(app, 900.0f, 1);
        CHECK(app.open_file_path == "/models/tiny.gguf");
        CHECK_FALSE(app.open_file_requested);
    }
}

TEST_CASE("hub panel: a look-up asked for while one runs sends nothing and says so", "[ui][hub]") {
    AppState app;
    hub_set_driver(app, true, "huggingface.co", true);  // a remembered yes: an ask goes ahead at once
    REQUIRE(hub_ask(app, "org/first", false));
    HubRef ref;
    REQUIRE(hub_take_request(app, ref));
    CHECK(hub_ref_text(ref) == "org/first");
    // Asked again (the field, a link's hf= or the JS API) while org/first is read: refused, nothing handed over.
    const std::string busy = "Still reading org/first: wait for it to finish (nothing new was sent).";
    CHECK(hub_busy_text("org/first") == busy);
    CHECK_FALSE(hub_ask(app, "org/second", false));
    bool is_error = true;
    CHECK(hub_panel_message(app, &is_error) == busy);
    CHECK_FALSE(is_error);
    CHECK_FALSE(hub_take_request(app, ref));
    CHECK_FALSE(hub_ask(app, "not an id", false));  // still the running look-up that answers, not the id's problem
    CHECK(hub_panel_message(app) == busy);
    // The running look-up ends as it would have; the note goes with it, and the next ask goes ahead.
    CHECK_FALSE(hub_lookup_finished(app, Expected<HubResult>(Error{"hf", "org/first: no such model"})));
    CHECK(hub_panel_message(app, &is_error) == "org/first: no such model");
    CHECK(is_error);
    REQUIRE(hub_ask(app, "org/second", false));
    REQUIRE(hub_take_request(app, ref));
    CHECK(hub_ref_text(ref) == "org/second");
}
