// Headless test of the Practice tab: each exercise drawn for several frames at phone and desktop widths
// in both themes while answers are checked (right, a seed mistake, gibberish), hints shown one at a time
// and answers revealed. IM_ASSERT throws (ui_test_imconfig.h); nothing may overflow the window width.
// Figures: the seed document's "Estimating a 7B Model" (16.8 GB inference total) and predict-and-reveal.
#include <catch_amalgamated.hpp>

#include <string>

#include "app.hpp"
#include "imgui.h"
#include "imgui_internal.h"
#include "practice_panel.hpp"
#include "ui_test_support.hpp"

using namespace llm_memory;

namespace {

using PracticeHeadless = llm_memory::test::HeadlessImGui;

// Draws frames on the Practice tab (index 2) and returns the widest horizontal overflow of any window.
float draw_practice_frames(AppState& app, float width, float height, int frames) {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 60.0f;
    for (int i = 0; i < frames; ++i) {
        app.select_tab = Tab::practice;
        ImGui::NewFrame();
        draw_frame(app);
        ImGui::Render();
    }
    std::string which;
    const float worst = llm_memory::test::widest_window_overflow(&which);
    if (worst > 0.0f) UNSCOPED_INFO("overflowing window: " << which);
    return worst;
}

}  // namespace

TEST_CASE("practice tab: every exercise, answered, hinted and revealed, at phone and desktop widths", "[ui][practice]") {
    const float sizes[][2] = {{360, 740}, {390, 844}, {1280, 800}, {2560, 1440}};
    for (const float scale : {1.0f, 2.0f}) {
        for (const bool dark : {true, false}) {
            for (const char* ref : {"seed-7b", "predict-70b", "51", "6"}) {
                AppState app;
                app.dark_theme = dark;
                PracticeHeadless headless(app, scale);
                app_set_scenario(app, Scenario{});
                REQUIRE(practice_open_exercise(app, ref));
                PracticeView& view = practice_view(app);
                for (const auto& size : sizes) {
                    INFO(ref << " at " << size[0] << "x" << size[1] << " scale " << scale << (dark ? " dark" : " light"));
                    const float w = size[0] * scale;
                    const float h = size[1] * scale;
                    CHECK(draw_practice_frames(app, w, h, 8) <= 1.0f);
                    practice_submit_answer(app, "banana");
                    CHECK(draw_practice_frames(app, w, h, 2) <= 1.0f);
                    practice_submit_answer(app, "14 GB");
                    view.hints_shown = view.exercise.hints.size();
                    view.show_answer = true;
                    CHECK(draw_practice_frames(app, w, h, 2) <= 1.0f);
                }
                // Walk every question to the end, so the closing note is drawn too.
                for (std::size_t q = 0; q < view.exercise.questions.size(); ++q) {
                    view.current = q;
                    view.show_answer = true;
                    view.progress[q].revealed = true;
                    CHECK(draw_practice_frames(app, 390 * scale, 844 * scale, 8) <= 1.0f);
                }
            }
        }
    }
}

TEST_CASE("practice tab: the seed 7B exercise's diagnosis, errors and progress", "[ui][practice][seed]") {
    AppState app;
    PracticeHeadless headless(app, 1.0f);
    app_set_scenario(app, Scenario{});
    REQUIRE(practice_open_exercise(app, "seed-7b"));
    PracticeView& view = practice_view(app);
    view.current = 1;  // "What is its total inference memory with the overhead factor of 1.2?"

    // Gibberish: a message, no result, no attempt counted.
    practice_submit_answer(app, "banana");
    CHECK(view.last_error.rfind("\"banana\" is not an amount of memory", 0) == 0);
    CHECK_FALSE(view.last_result.has_value());
    CHECK(view.progress[1].attempts == 0);

    // The seed's first mistake: stopping at the weights (14 GB).
    practice_submit_answer(app, "14 GB");
    REQUIRE(view.last_result.has_value());
    CHECK(view.last_result->mistake == MistakeId::weights_as_inference);
    CHECK(view.last_error.empty());
    CHECK(view.progress[1].mistakes == std::vector<MistakeId>{MistakeId::weights_as_inference});
    draw_practice_frames(app, 1280, 800, 2);

    // Right, in GiB.
    practice_submit_answer(app, "15.65 GiB");
    CHECK(view.last_result->correct);
    CHECK(view.progress[1].answered_right);
    CHECK(view.progress[1].attempts == 2);

    // "Open worked steps" gives the calculator the question's scenario (7B) and asks for its tab.
    practice_open_worked_steps(app);
    CHECK(app.scenario.param_count == 7'000'000'000ULL);
    CHECK(app.estimate.inference_bytes == 16'800'000'000ULL);
    CHECK(app.select_tab == Tab::calculator);

    // An unknown link reference keeps the current exercise.
    CHECK_FALSE(practice_open_exercise(app, "nonsense"));
    CHECK(view.exercise.ref == "seed-7b");
    CHECK(practice_open_exercise(app, "predict-70b"));
    CHECK(view.exercise_choice == 1);
    CHECK(view.progress.size() == 1);
    // The largest exercise number a link can carry still opens (the int field shows INT_MAX).
    CHECK(practice_open_exercise(app, "4294967295"));
    CHECK(view.exercise.ref == "4294967295");
    CHECK(view.generated_number == 2147483647);
    draw_practice_frames(app, 1280, 800, 2);
}
