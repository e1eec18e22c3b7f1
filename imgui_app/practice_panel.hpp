// The Practice tab: the seed's predict-and-reveal question, its 7B exercise with hints revealed one at a
// time, generated exercises (reproducible from their number), answer checking that names the mistake,
// and the seed's four common mistakes as cards. Every figure and diagnosis comes from core/practice.
//
// For the UI helper (app.cpp): call draw_practice_panel(app) inside the Practice tab. Its "Open worked
// steps" button calls app_set_scenario(app, question's scenario) and sets app.select_tab = Tab::calculator (Calculator,
// whose worked steps then show that scenario). The panel keeps its own state in app.practice (created on
// first use); nothing else in AppState is touched.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "practice.hpp"

namespace llm_memory {

struct AppState;

// How one question of the current exercise went.
struct PracticeProgress {
    bool answered_right = false;
    bool revealed = false;               // the answer was shown before it was answered right
    int attempts = 0;                    // answers checked (unreadable text not counted)
    std::vector<MistakeId> mistakes;     // diagnosed mistakes, in order
};

// The Practice tab's view state (no figures: those come from core when drawn or checked).
struct PracticeView {
    Exercise exercise = seed_7b_exercise();
    std::vector<PracticeProgress> progress = std::vector<PracticeProgress>(exercise.questions.size());
    std::size_t current = 0;                   // index into exercise.questions
    int exercise_choice = 0;                   // 0 the seed's 7B exercise, 1 predict-and-reveal, 2 generated
    int generated_number = 1;                  // the seed number of the generated exercise
    std::array<char, 64> answer_text{};        // the answer field
    std::size_t hints_shown = 0;               // hints revealed so far (one at a time)
    bool show_answer = false;                  // the current question's answer is revealed
    std::optional<CheckResult> last_result;    // the last check of the current question
    std::string last_error;                    // why the last answer could not be read
    bool focus_answer = false;                 // put the keyboard focus in the answer field next frame
    // The revealed answer's figure (core's estimate of the question's scenario), kept for the question
    // it was computed for (exercise ref and index) so it is not recomputed every frame.
    std::string answer_for_ref;
    std::size_t answer_for_index = 0;
    std::optional<std::uint64_t> answer_bytes;  // empty until computed, or when the scenario does not estimate
    bool answer_computed = false;
};

// The panel's state, created on first use.
PracticeView& practice_view(AppState& app);

// Opens an exercise by the reference a link carries ("seed-7b", "predict-70b" or a number such as
// "42"), resetting progress. Returns false (and keeps the current exercise) for an unknown reference.
bool practice_open_exercise(AppState& app, std::string_view ref);

// Checks `answer` against the current question (what the Check button does); updates progress.
void practice_submit_answer(AppState& app, std::string_view answer);

// What "Open worked steps" does: makes the current question's scenario the calculator's
// (app_set_scenario) and asks the tab bar for the Calculator tab (app.select_tab = Tab::calculator).
void practice_open_worked_steps(AppState& app);

// Draws the Practice tab into the current window at whatever width it is given.
void draw_practice_panel(AppState& app);

}  // namespace llm_memory
