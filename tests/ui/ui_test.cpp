// Headless UI test: an ImGui context with no backend (font atlas built with GetTexDataAsRGBA32), every
// tab and panel drawn for several frames at widths from a 360 px phone to a 2560 px desktop, both themes,
// embed mode, and the seed's scenarios. IM_ASSERT throws (ui_test_imconfig.h). Layout check: no window's
// content is wider than the window (nothing pushed off to the right at any width).
//
// Sections: headless frame helpers · every tab at every width · embed mode · seed figures and bad text ·
//   rejected edits · theme · 360 px panels · keyboard · caches that follow the scenario.
#include <catch_amalgamated.hpp>

#include <set>
#include <stdexcept>
#include <string>

#include "app.hpp"
#include "engine_panel.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "panels.hpp"
#include "fit_panel.hpp"
#include "practice_panel.hpp"
#include "quantity.hpp"
#include "report.hpp"
#include "ui_test_support.hpp"
#include "runtime_panel.hpp"
#include "settings.hpp"

namespace llm_memory_test {
[[noreturn]] void imgui_assert_failed(const char* expression, const char* file, int line) {
    throw std::runtime_error(std::string("IM_ASSERT(") + expression + ") failed at " + file + ":" + std::to_string(line));
}
}  // namespace llm_memory_test

using namespace llm_memory;

namespace {

// One ImGui context for a test, with the app's font and style at a UI scale.
struct Headless : llm_memory::test::HeadlessImGui {
    Headless(AppState& app, float scale) : HeadlessImGui(app, scale) { REQUIRE(atlas_width_px > 0); }
};

// Draws `frames` frames at the given size (in framebuffer pixels).
void run_frames(AppState& app, float width, float height, int frames) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    for (int i = 0; i < frames; ++i) {
        ImGui::NewFrame();
        draw_frame(app);
        ImGui::Render();
        REQUIRE(ImGui::GetDrawData() != nullptr);
    }
}

// The widest horizontal overflow of any visible window (0 when every window's content fits its width).
float widest_overflow(std::string& which) { return llm_memory::test::widest_window_overflow(&which); }

void set_state(AppState& app, const char* state) {
    const StateResult r = apply_state(Scenario{}, state);
    REQUIRE(r.problems.empty());
    REQUIRE(app_take_state(app, r));
}

}  // namespace

TEST_CASE("every tab draws at every width in both themes without an ImGui assertion", "[ui]") {
    const struct {
        float width;
        float height;
        float scale;
    } sizes[] = {{360, 740, 1.0f}, {390, 844, 1.0f}, {780, 1688, 2.0f}, {768, 1024, 1.0f},
                 {1280, 800, 1.0f}, {1920, 1080, 1.0f}, {2560, 1440, 1.0f}, {2560, 1600, 2.0f}};
    const char* scenarios[] = {"", "trainable=1B", "params=70B&bytes=0.5", "params=1000T&bytes=64&overhead=100&k=100&state-bytes=64",
                               "params=1&trainable=0", "params=6738415616&trainable=7.7%25",
                               "model=llama-2-7b&lora-rank=8&recipe=adamw-mixed&context=4096&inference-mode=detailed&gpu=rtx-4090",
                               "dtype=q4_k_m&qlora=0&gpus=8&zero=3"};
    for (const auto& size : sizes) {
        for (bool dark : {true, false}) {
            for (const char* state : scenarios) {
                AppState app;
                app.dark_theme = dark;
                Headless context(app, size.scale);
                set_state(app, (std::string(state) + (state[0] != '\0' ? "&" : "") + "gpu-memory=24GB").c_str());
                for (int tab = 0; tab < 3; ++tab) {
                    INFO("size " << size.width << "x" << size.height << " scale " << size.scale << (dark ? " dark" : " light")
                                 << " state '" << state << "' tab " << tab);
                    app.select_tab = static_cast<Tab>(tab);
                    REQUIRE_NOTHROW(run_frames(app, size.width, size.height, 4));
                    std::string window;
                    const float overflow = widest_overflow(window);
                    INFO("overflowing window: " << window);
                    CHECK(overflow < 1.0f);
                }
            }
        }
    }
}

TEST_CASE("embed mode draws the compact layout at iframe sizes", "[ui]") {
    for (float width : {360.0f, 700.0f, 1000.0f}) {
        AppState app;
        app.embed_mode = true;
        Headless context(app, 1.0f);
        set_state(app, "trainable=1B");
        REQUIRE_NOTHROW(run_frames(app, width, 420.0f, 4));
        std::string window;
        const float overflow = widest_overflow(window);
        INFO("width " << width << " overflowing window: " << window);
        CHECK(overflow < 1.0f);
        CHECK_FALSE(app.open_full_app_requested);
    }
}

TEST_CASE("seed figures on screen come from core, and bad text keeps the last valid scenario", "[ui][seed]") {
    AppState app;
    Headless context(app, 1.0f);
    REQUIRE(app_set_scenario(app, Scenario{}));
    run_frames(app, 1280, 800, 3);
    // The seed's defaults: 26 / 31.2 / 78 / 104 GB.
    CHECK(app.estimate.weight_bytes == 26'000'000'000ULL);
    CHECK(app.estimate.inference_bytes == 31'200'000'000ULL);
    CHECK(app.estimate.gradient_optimizer_bytes == 78'000'000'000ULL);
    CHECK(app.estimate.training_bytes == 104'000'000'000ULL);

    // The before/after button's action: the seed's 1B trainable gives 6 GB, 32 GB and a 72 GB reduction.
    set_field_and_apply(app, "trainable", "1B");
    run_frames(app, 1280, 800, 2);
    CHECK(app.estimate.gradient_optimizer_bytes == 6'000'000'000ULL);
    CHECK(app.estimate.training_bytes == 32'000'000'000ULL);
    CHECK(app.estimate.reduction_bytes == 72'000'000'000ULL);

    // Invalid text: an inline message under the field; results keep the last valid scenario.
    set_field_and_apply(app, "params", "13 bananas");
    run_frames(app, 390, 844, 3);
    CHECK_FALSE(app.fields[0].error.empty());
    CHECK(app.scenario.param_count == 13'000'000'000ULL);
    CHECK(app.estimate.training_bytes == 32'000'000'000ULL);
    // A cross-field problem is reported under the field it names.
    set_field_and_apply(app, "params", "500M");
    run_frames(app, 390, 844, 2);
    CHECK(app.fields[3].error.find("is more than the 500,000,000 parameters") != std::string::npos);
    CHECK(app.scenario.param_count == 13'000'000'000ULL);
    // Fixing the text recovers.
    set_field_and_apply(app, "params", "70B");
    run_frames(app, 390, 844, 2);
    CHECK(app.fields[0].error.empty());
    CHECK(app.fields[3].error.empty());
    CHECK(app.estimate.weight_bytes == 140'000'000'000ULL);
}

TEST_CASE("a rejected edit whose problem names no text field is shown, not swallowed", "[ui]") {
    // LoRA needs a model architecture; typing a new N forgets the model (core/settings.cpp), so the edit
    // is rejected with "lora-rank: needs a model architecture ...". The message must reach the screen.
    AppState app;
    Headless context(app, 1.0f);
    set_state(app, "model=llama-2-7b&lora-rank=8&lora-targets=q,v");
    run_frames(app, 1280, 800, 2);
    const std::uint64_t before = app.estimate.gradient_optimizer_bytes;
    set_field_and_apply(app, "params", "13B");
    run_frames(app, 1280, 800, 2);
    CHECK(app.scenario_error.rfind("lora-rank: needs a model architecture", 0) == 0);
    CHECK(app.estimate.gradient_optimizer_bytes == before);  // the last valid scenario stays
    // Choosing a valid scenario (e.g. LoRA turned off in the runtime panel) clears it and re-fills the fields.
    const StateResult off = apply_state(Scenario{}, "params=13B");
    REQUIRE(app_set_scenario(app, off.scenario));
    CHECK(app.scenario_error.empty());
    CHECK(std::string(app.fields[0].text.data()) == "13B");
}

TEST_CASE("theme toggle from the driver and dismissed guards", "[ui]") {
    AppState app;
    Headless context(app, 1.0f);
    REQUIRE(app_set_scenario(app, Scenario{}));
    run_frames(app, 1280, 800, 2);
    const ImVec4 dark_bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    app.dark_theme = false;
    app.theme_changed = true;
    run_frames(app, 1280, 800, 2);
    CHECK_FALSE(app.theme_changed);
    CHECK(ImGui::GetStyle().Colors[ImGuiCol_WindowBg].x > dark_bg.x);
    app.mistake_dismissed = {true, true, true, true};
    REQUIRE_NOTHROW(run_frames(app, 360, 740, 3));
}

TEST_CASE("each panel fits a 360 px phone column on its own", "[ui]") {
    struct Panel {
        const char* name;
        void (*draw)(AppState&);
    };
    const Panel panels[] = {
        {"inputs", [](AppState& a) { draw_inputs_panel(a, false); }},
        {"inputs compact", [](AppState& a) { draw_inputs_panel(a, true); }},
        {"results", draw_results_panel},
        {"steps", draw_steps_panel},
        {"diagram", draw_diagram_panel},
        {"bars", draw_bars_panel},
        {"before/after", draw_before_after_panel},
        {"scaling", draw_scaling_panel},
        {"what fits", draw_fit_panel},
    };
    for (const char* state : {"", "trainable=1B", "params=1000T&bytes=64&overhead=100&k=100&state-bytes=64",
                              "model=llama-3.1-70b&dtype=q4_k_m&context=8K"}) {
        AppState app;
        Headless context(app, 1.0f);
        set_state(app, (std::string(state) + (state[0] != '\0' ? "&" : "") + "gpu-memory=80GiB").c_str());
        for (const Panel& panel : panels) {
            float overflow = 0.0f;
            for (int frame = 0; frame < 3; ++frame) {
                ImGuiIO& io = ImGui::GetIO();
                io.DisplaySize = ImVec2(320, 740);
                io.DeltaTime = 1.0f / 60.0f;
                ImGui::NewFrame();
                ImGui::SetNextWindowPos(ImVec2(0, 0));
                ImGui::SetNextWindowSize(ImVec2(320, 740));  // a 360 px phone minus padding and scrollbar
                ImGui::Begin("panel test", nullptr, ImGuiWindowFlags_NoDecoration);
                panel.draw(app);
                ImGuiWindow* window = ImGui::GetCurrentWindow();
                overflow = window->DC.CursorMaxPos.x - window->WorkRect.Max.x;
                ImGui::End();
                ImGui::Render();
            }
            INFO("panel " << panel.name << " state '" << state << "' overflows by " << overflow << " px");
            CHECK(overflow < 1.0f);
        }
    }
}

TEST_CASE("keyboard: Tab reaches the before/after button and Enter presses it", "[ui][keyboard]") {
    // The seed's 13B with every parameter trainable; the before/after panel offers "Try the seed's 1B trainable".
    AppState app;
    Headless context(app, 1.0f);
    REQUIRE(app_set_scenario(app, Scenario{}));
    ImGuiIO& io = ImGui::GetIO();
    run_frames(app, 1920, 1080, 2);
    std::set<ImGuiID> visited;
    bool pressed = false;
    for (int step = 0; step < 200 && !pressed; ++step) {
        io.AddKeyEvent(ImGuiKey_Tab, true);
        run_frames(app, 1920, 1080, 1);
        io.AddKeyEvent(ImGuiKey_Tab, false);
        run_frames(app, 1920, 1080, 1);
        ImGuiContext& g = *ImGui::GetCurrentContext();
        visited.insert(g.NavId);
        // The button's label is its ID source in the charts column; compare by the focused item's ID.
        if (g.NavWindow != nullptr) {
            const ImGuiID button_id = g.NavWindow->GetID("Try the seed's 1B trainable");
            if (g.NavId == button_id) {
                io.AddKeyEvent(ImGuiKey_Enter, true);
                run_frames(app, 1920, 1080, 2);
                io.AddKeyEvent(ImGuiKey_Enter, false);
                run_frames(app, 1920, 1080, 2);
                pressed = true;
            }
        }
    }
    INFO("items visited by Tab: " << visited.size());
    CHECK(visited.size() > 12);
    REQUIRE(pressed);
    CHECK(app.estimate.gradient_optimizer_bytes == 6'000'000'000ULL);
    CHECK(app.estimate.training_bytes == 32'000'000'000ULL);
    CHECK(app.estimate.reduction_bytes == 72'000'000'000ULL);
}

// The text one panel draws in one frame (ImGui's log captures every Text* widget, wrapped or not).
template <typename Draw>
std::string drawn_text(Draw draw) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(1280, 800);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(1280, 800));
    ImGui::Begin("drawn_text");
    ImGui::LogToBuffer();
    draw();
    std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
    ImGui::LogFinish();
    ImGui::End();
    ImGui::Render();
    return text;
}

// The per-frame caches (bench/RESULTS.md review items 1-3) follow every way the scenario changes:
// app_set_scenario (URL, JS API, presets), apply_fields (typing), and the practice question shown.
// Figures: the seed's model (13B: 26 GB weights, training 104 GB; 70B: 140 + 420 = 560 GB; 7B: 14 + 42 =
// 56 GB; the 7B exercise: 14 GB weights, 16.8 GB inference; exercise 42 is a 70B model at 2 bytes).
TEST_CASE("cached recipe range, worked steps and revealed answers follow the scenario", "[ui][cache]") {
    AppState app;
    Headless headless(app, 1.0f);
    app_set_scenario(app, Scenario{});
    const auto recipe_range = [&] { return drawn_text([&] { draw_runtime_panel(app); }); };
    const auto steps = [&] { return drawn_text([&] { draw_steps_panel(app); }); };
    const auto mixed_total = [&] {
        Scenario mixed = app.scenario;
        mixed.recipe = "adamw-mixed";
        return format_gb(estimate(mixed)->training_bytes);
    };

    const std::uint64_t first_generation = app.scenario_generation;
    CHECK(recipe_range().find("training total 104 GB (seed-adam, 6 bytes) vs " + mixed_total() + " (adamw-mixed") != std::string::npos);
    CHECK(recipe_range().find("104 GB (seed-adam") != std::string::npos);  // drawn again from the cache
    CHECK(steps().find("26 GB") != std::string::npos);

    set_state(app, "params=70B");  // app_set_scenario
    CHECK(app.scenario_generation != first_generation);
    CHECK(recipe_range().find("training total 560 GB (seed-adam, 6 bytes) vs " + mixed_total() + " (adamw-mixed") != std::string::npos);
    std::string text = steps();
    CHECK(text.find("140 GB") != std::string::npos);
    CHECK(text.find("26 GB") == std::string::npos);

    const std::uint64_t before_typing = app.scenario_generation;
    set_field_and_apply(app, "params", "7B");  // apply_fields, as typing does
    REQUIRE(app.scenario.param_count == 7'000'000'000ULL);
    CHECK(app.scenario_generation != before_typing);
    CHECK(recipe_range().find("training total 56 GB (seed-adam") != std::string::npos);
    text = steps();
    CHECK(text.find("14 GB") != std::string::npos);
    CHECK(text.find("140 GB") == std::string::npos);

    // A second app with the default scenario does not see the first one's cached text.
    {
        AppState other;
        app_set_scenario(other, Scenario{});
        CHECK(drawn_text([&] { draw_runtime_panel(other); }).find("104 GB (seed-adam") != std::string::npos);
    }

    // The revealed answer belongs to the question shown.
    REQUIRE(practice_open_exercise(app, "seed-7b"));
    PracticeView& view = practice_view(app);
    view.show_answer = true;
    const auto practice = [&] { return drawn_text([&] { draw_practice_panel(app); }); };
    CHECK(practice().find("Answer: 14 GB") != std::string::npos);
    view.current = 1;
    CHECK(practice().find("Answer: 16.8 GB") != std::string::npos);
    REQUIRE(practice_open_exercise(app, "42"));
    view.show_answer = true;
    CHECK(practice().find("Answer: 140 GB") != std::string::npos);
}

TEST_CASE("the What fits panel shows core's answers and follows the scenario", "[ui][fit]") {
    AppState app;
    Headless context(app, 1.0f);
    set_state(app, "model=llama-2-7b");
    run_frames(app, 1600, 1000, 2);
    REQUIRE(app.fit_panel);
    CHECK(app.fit_panel->reports.empty());  // no GPU chosen: a hint, no answers
    set_state(app, "model=llama-2-7b&gpu=rtx-4090&context=4096");
    run_frames(app, 1600, 1000, 2);
    const std::vector<FitReport>& reports = app.fit_panel->reports;
    REQUIRE(reports.size() == 7);  // context, batch, seq-len, micro-batch, gpus, bytes, layers on the GPU
    CHECK(reports[0].answers[0].headline == "19,460 tokens");  // tests/core/fit_test.cpp's closed form
    CHECK(reports[1].answers[0].headline == "4 sequences");
    CHECK(reports[6].answers[0].headline == "-ngl 33 of 33: everything");
    // The answers are core's for the current scenario: a smaller card changes them on the next frame.
    set_state(app, "model=llama-2-7b&gpu-memory=8GiB&context=4096");
    run_frames(app, 1600, 1000, 1);
    CHECK(app.fit_panel->reports[6].answers[0].headline == "-ngl 15 of 33");
}

TEST_CASE("a link and an edit each estimate once", "[ui][settings]") {
    AppState app;
    // A link (the page's URL, setState, stored state): apply_state's estimate is the one the app takes.
    std::uint64_t before = estimate_runs();
    const StateResult link = apply_state(Scenario{}, "model=llama-2-7b&gpu=rtx-4090&context=4096");
    REQUIRE(app_take_state(app, link));
    CHECK(estimate_runs() - before == 1);
    CHECK(to_state(app.scenario) == to_state(link.scenario));
    CHECK(app.estimate.inference_bytes == link.estimate->inference_bytes);
    // An edit of one key.
    before = estimate_runs();
    REQUIRE_FALSE(app_try_setting(app, "context", "8192"));
    CHECK(estimate_runs() - before == 1);
    CHECK(app.scenario.context_tokens == 8192);
    // A link whose pairs do not validate together changes nothing.
    const std::uint64_t generation = app.scenario_generation;
    CHECK_FALSE(app_take_state(app, apply_state(Scenario{}, "params=7B&trainable=8B")));
    CHECK(app.scenario_generation == generation);
    CHECK(app.scenario.context_tokens == 8192);
}

TEST_CASE("switching engines on the canvas clears the flags the new engine does not read, and says so", "[ui][settings]") {
    AppState app;
    REQUIRE(app_take_state(app, apply_state(Scenario{}, "model=llama-3-8b&gpu=rtx-4090&engine=llama.cpp&ngl=20&ubatch=256&draft-model=llama-3.2-1b")));
    // A link that names vLLM with llama.cpp's -ngl is refused by name (engine_setting_problem) ...
    CHECK_FALSE(app_take_state(app, apply_state(Scenario{}, "model=llama-3-8b&engine=vllm&ngl=20")));
    // ... but a switch in the form clears -ngl and -ub, keeps the drafter vLLM reads too, and names what went.
    REQUIRE_FALSE(app_try_setting(app, "engine", "vllm"));
    CHECK(app.scenario.engine.kind == EngineKind::vllm);
    CHECK(app.scenario.engine.ngl_auto);
    CHECK(app.scenario.engine.ubatch_tokens == 0);
    CHECK(to_state(app.scenario).find("draft-model=llama-3.2-1b") != std::string::npos);
    CHECK(app.engine_notice == "Cleared what vLLM does not read: ubatch, ngl.");
    // Back to llama.cpp: nothing to clear, no notice; the next change clears an old one.
    REQUIRE_FALSE(app_try_setting(app, "engine", "llama.cpp"));
    CHECK(app.engine_notice.empty());
    // Under vLLM, tensor parallel 2 on a scenario of one GPU is two GPUs (follow_engine_gpus), as vllm serve -tp 2.
    REQUIRE_FALSE(app_try_setting(app, "engine", "vllm"));
    REQUIRE_FALSE(app_try_setting(app, "tp", "2"));
    CHECK(app.scenario.gpu_count == 2);
}

TEST_CASE("every setting has a control on the canvas", "[ui][settings]") {
    AppState app;
    Headless imgui(app, 1.0f);
    // A scenario that shows every section's controls: a model, LoRA, detailed training, two GPUs.
    set_state(app, "model=llama-2-7b&lora-rank=8&training-mode=detailed&gpu=rtx-4090&gpus=2");
    run_frames(app, 1280.0f, 6000.0f, 3);
    const std::vector<SettingSpec>& specs = setting_specs();
    REQUIRE(app.runtime.drawn.size() == specs.size());
    std::vector<std::uint8_t> drawn = app.runtime.drawn;
    // The vision settings show for a model with a vision tower.
    set_state(app, "model=gemma-3-12b");
    run_frames(app, 1280.0f, 6000.0f, 3);
    for (const char* key : {"text-only", "images", "image-size"}) {
        const std::size_t at = static_cast<std::size_t>(find_setting(key) - specs.data());
        INFO(key);
        CHECK(drawn[at] == 0);  // hidden without a vision tower
        drawn[at] = app.runtime.drawn[at];
    }
    // The audio setting shows for a model with an audio tower.
    set_state(app, "model=voxtral-mini-3b");
    run_frames(app, 1280.0f, 6000.0f, 3);
    const std::size_t audio_at = static_cast<std::size_t>(find_setting("audio-seconds") - specs.data());
    CHECK(drawn[audio_at] == 0);  // hidden without an audio tower
    drawn[audio_at] = app.runtime.drawn[audio_at];
    std::set<std::string> seed_fields;
    for (const TextField& field : app.fields) seed_fields.insert(field.key);
    for (std::size_t i = 0; i < specs.size(); ++i) {
        INFO(specs[i].key);
        if (engine_panel_draws(specs[i].key))  // the engine panel places the engine and its flags
            CHECK(app.runtime.placed[i] == 1);
        else if (setting_drawn_elsewhere(specs[i].key))  // the seed's inputs panel or the model picker draws it
            CHECK((seed_fields.count(specs[i].key) == 1 || std::string(specs[i].key) == "model"));
        else
            CHECK(drawn[i] == 1);
    }
}

TEST_CASE("the canvas controls' text follows a scenario changed elsewhere", "[ui][settings]") {
    AppState app;
    Headless imgui(app, 1.0f);
    set_state(app, "model=llama-2-7b&training-mode=detailed");
    run_frames(app, 1280.0f, 6000.0f, 2);
    // The text buffers follow the scenario (a change made elsewhere, as a link would).
    set_state(app, "model=llama-2-7b&training-mode=detailed&seq-len=4096&tp=2&gpus=2");
    run_frames(app, 1280.0f, 6000.0f, 1);
    const std::vector<SettingSpec>& specs = setting_specs();
    for (std::size_t i = 0; i < specs.size(); ++i) {
        if (std::string(specs[i].key) == "seq-len") CHECK(std::string(app.runtime.text[i].data()) == "4096");
        if (std::string(specs[i].key) == "tp") CHECK(std::string(app.runtime.text[i].data()) == "2");
        if (std::string(specs[i].key) == "framework-overhead") CHECK(std::string(app.runtime.text[i].data()) == "auto");
    }
}

TEST_CASE("wrapped text breaks only at spaces, never inside a figure", "[ui][wrap]") {
    // One unit per character: ImGui's own wrap would break "131,072" after the comma and "72.5" after the point.
    const auto measure = [](std::string_view part) { return static_cast<float>(part.size()); };
    const std::string text = "Runs at 131,072 tokens: 72.5 GiB of 80 GiB";
    const std::vector<std::string_view> lines = wrap_at_spaces(text, 12.0f, measure);
    const std::vector<std::string_view> expected = {"Runs at", "131,072", "tokens: 72.5", "GiB of 80", "GiB"};
    CHECK(lines == expected);
    // A word wider than the line keeps a line of its own; newlines end lines; empty text is one empty line.
    CHECK(wrap_at_spaces("supercalifragilistic ok", 5.0f, measure) == std::vector<std::string_view>{"supercalifragilistic", "ok"});
    CHECK(wrap_at_spaces("a b\nc", 100.0f, measure) == std::vector<std::string_view>{"a b", "c"});
    CHECK(wrap_at_spaces("", 10.0f, measure) == std::vector<std::string_view>{""});
    for (std::string_view line : wrap_at_spaces(text, 1.0f, measure)) CHECK(line.find(' ') == std::string_view::npos);
}

namespace {

// The text one frame draws in the main window (ImGui's log of rendered text, through its clipboard), with every run of whitespace made one space: the
// app wraps at spaces, so a sentence found here is the sentence core wrote, whatever the width.
std::string drawn_text(AppState& app, float width, float height) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    ImGui::SetClipboardText("");
    ImGui::NewFrame();
    // Ending the main window ends the log (ImGui::End calls LogFinish), which hands it to the clipboard.
    ImGui::LogToClipboard();
    draw_frame(app);
    ImGui::LogFinish();
    ImGui::Render();
    const char* clipboard = ImGui::GetClipboardText();
    const std::string logged = clipboard != nullptr ? clipboard : "";
    std::string out;
    for (char c : logged) {
        const bool space = c == ' ' || c == '\n' || c == '\r' || c == '\t';
        if (space && (out.empty() || out.back() == ' ')) continue;
        out += space ? ' ' : c;
    }
    return out;
}

}  // namespace

TEST_CASE("the training peak's band and its three-way verdict are on the canvas, as core words them", "[ui][training]") {
    // The band comes from the reality table's runs of the class (tests/fixtures/reality.json, checked by
    // tests/cli/reality_test.py); the canvas draws core's sentences, the same the CLI and the text view print.
    AppState app;
    Headless imgui(app, 1.0f);
    set_state(app, "model=llama-2-7b&lora-rank=16&qlora&training-mode=detailed&gpu=rtx-4090&recompute=full");
    run_frames(app, 1280.0f, 6000.0f, 2);
    const std::string band = training_band_sentence(app.estimate);
    REQUIRE(band.rfind("Likely ", 0) == 0);
    REQUIRE(band.find("QLoRA runs in the reality table") != std::string::npos);
    std::string text = drawn_text(app, 1280.0f, 6000.0f);
    CHECK(text.find(band) != std::string::npos);
    CHECK(text.find(training_verdict_phrase(app.estimate.gpu)) != std::string::npos);
    CHECK(app.estimate.gpu.training_verdict == FitVerdict::fits);
    // A card between the peak and the band's high end: "fits unless the run lands at the high end".
    const std::uint64_t between = (app.estimate.training_peak_bytes + app.estimate.training_peak_high_bytes) / 2;
    StateResult custom = apply_state(Scenario{}, "model=llama-2-7b&lora-rank=16&qlora&training-mode=detailed&recompute=full");
    REQUIRE(custom.problems.empty());
    custom.scenario.gpu_memory_bytes = between;
    REQUIRE(app_set_scenario(app, custom.scenario));
    run_frames(app, 1280.0f, 6000.0f, 1);
    REQUIRE(app.estimate.gpu.training_verdict == FitVerdict::tight);
    text = drawn_text(app, 1280.0f, 6000.0f);
    CHECK(text.find("fits unless the run lands at the high end") != std::string::npos);
    CHECK(text.find(training_band_sentence(app.estimate)) != std::string::npos);
    // At a phone's width the same sentences are drawn, wrapped at spaces.
    set_state(app, "model=llama-2-7b&lora-rank=16&qlora&training-mode=detailed&gpu=rtx-4090&gpus=2&zero=3");
    run_frames(app, 390.0f, 6000.0f, 2);
    CHECK(training_band_sentence(app.estimate).find("sharded runs in the reality table") != std::string::npos);
    CHECK(drawn_text(app, 390.0f, 6000.0f).find(training_band_sentence(app.estimate)) != std::string::npos);
}

TEST_CASE("the second pass's training terms are drawn with core's figures", "[ui][training]") {
    // PEFT's upcast off, op-level recompute with eager attention, ZeRO-3 over two GPUs with two layers
    // prefetched and DeepSpeed's 5e8-element bucket: the gathered layers, the bucket and bitsandbytes'
    // workspace each get a row with core's figure (tests/core/training_test.cpp checks the figures).
    AppState app;
    Headless imgui(app, 1.0f);
    set_state(app, "model=llama-3-8b&lora-rank=16&qlora&upcast-nonquantized=false&training-mode=detailed&recompute=op-selective"
                   "&attention=eager&gpus=2&zero=3&fsdp-prefetch=2&zero-bucket=5e8&overlap-comm=true&gpu=rtx-4090");
    run_frames(app, 1280.0f, 6000.0f, 2);
    const std::string text = drawn_text(app, 1280.0f, 6000.0f);
    REQUIRE(app.scenario.training.recompute == Recompute::op_selective);
    for (const char* key : {"zero3_gathered", "zero_bucket", "dequant_workspace", "activation", "training_peak"}) {
        INFO(key);
        const MemoryTerm* term = find_term(app.estimate, key);
        REQUIRE(term != nullptr);
        CHECK(text.find(term->label) != std::string::npos);
        CHECK(text.find(format_gb(term->bytes)) != std::string::npos);
    }
}
