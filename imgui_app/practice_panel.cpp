// The Practice tab: exercise chooser, the current question with an answer field, hints one at a time,
// reveal, the diagnosis of a wrong answer, a progress summary and the seed's four mistake cards.
// No arithmetic here: figures, checks and diagnoses all come from core/practice and core's estimator.
//
// Sections: exercise state helpers · layout helpers · chooser · progress · result · question (answer
//   field, hints, reveal) · mistake cards · the public entry points (practice_view, open, submit, worked
//   steps) · draw_practice_panel.
#include "practice_panel.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "app.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "theme.hpp"

namespace llm_memory {
namespace {

void reset_exercise(PracticeView& view, Exercise exercise) {
    view.exercise = std::move(exercise);
    view.answer_computed = false;  // the revealed figure belonged to the previous exercise
    view.progress.assign(view.exercise.questions.size(), PracticeProgress{});
    view.current = 0;
    view.hints_shown = 0;
    view.show_answer = false;
    view.last_result.reset();
    view.last_error.clear();
    view.answer_text.fill('\0');
}

void go_to_question(PracticeView& view, std::size_t index) {
    if (index >= view.exercise.questions.size()) return;
    view.current = index;
    view.show_answer = false;
    view.last_result.reset();
    view.last_error.clear();
    view.answer_text.fill('\0');
    view.focus_answer = true;
}

// A short human name for a diagnosed mistake: the seed's card title for its four, else our own.
const char* mistake_title(MistakeId id) {
    for (const MistakeCard& card : seed_mistake_cards())
        if (card.id == id) return card.title;
    switch (id) {
        case MistakeId::training_without_weights: return "Leaving the weights out of the training total";
        case MistakeId::overhead_on_training: return "Applying the inference overhead factor to training";
        case MistakeId::moe_active_for_memory: return "Counting a mixture of experts' active parameters for memory";
        case MistakeId::drafter_kv_small: return "Taking a draft model's KV cache as small";
        case MistakeId::projector_as_file_size: return "Pricing a vision projector as its file size";
        case MistakeId::gib_gb_mixup: return "Mixing up GiB (2^30 bytes) and GB (10^9 bytes)";
        default: return mistake_key(id);
    }
}

// Places the next item on the same line when `next_width` still fits, else on a new line.
void same_line_if_fits(float next_width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right_edge = ImGui::GetItemRectMax().x + style.ItemSpacing.x + next_width;
    const float limit = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    if (right_edge <= limit) ImGui::SameLine();
}

float button_width(const char* label) {
    return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

void labelled_line(const char* label, const char* text) {
    ImGui::TextDisabled("%s", label);
    wrapped_text("%s", text);
}

void draw_chooser(AppState& app, PracticeView& view) {
    int choice = view.exercise_choice;
    bool changed = false;
    changed |= ImGui::RadioButton("The seed's 7B exercise##ex_seed", &choice, 0);
    same_line_if_fits(button_width("Predict and reveal (70B)") + ImGui::GetFrameHeight());
    changed |= ImGui::RadioButton("Predict and reveal (70B)##ex_predict", &choice, 1);
    same_line_if_fits(button_width("Generated exercise") + ImGui::GetFrameHeight());
    changed |= ImGui::RadioButton("Generated exercise##ex_generated", &choice, 2);
    if (changed) {
        if (choice == 0) practice_open_exercise(app, "seed-7b");
        if (choice == 1) practice_open_exercise(app, "predict-70b");
        if (choice == 2) practice_open_exercise(app, std::to_string(view.generated_number));
    }
    if (view.exercise_choice == 2) {
        ImGui::SetNextItemWidth(std::min(ImGui::GetContentRegionAvail().x, 160.0f * app.ui_scale));
        int number = view.generated_number;
        if (ImGui::InputInt("Exercise number##ex_number", &number, 1, 10, ImGuiInputTextFlags_EnterReturnsTrue) ||
            (ImGui::IsItemDeactivatedAfterEdit() && number != view.generated_number)) {
            number = std::max(number, 1);
            practice_open_exercise(app, std::to_string(number));
        }
        same_line_if_fits(button_width("New exercise"));
        if (ImGui::Button("New exercise##ex_new"))
            practice_open_exercise(app, std::to_string(static_cast<long long>(view.generated_number) % INT_MAX + 1));
    }
    muted_text("Link to this exercise: #practice=" + view.exercise.ref);
}

void draw_progress(PracticeView& view, const Palette& palette) {
    const std::size_t total = view.exercise.questions.size();
    std::size_t right = 0;
    std::size_t revealed = 0;
    std::size_t mistakes = 0;
    for (const PracticeProgress& p : view.progress) {
        right += p.answered_right ? 1 : 0;
        revealed += (p.revealed && !p.answered_right) ? 1 : 0;
        mistakes += p.mistakes.size();
    }
    char hints[64] = "";
    if (!view.exercise.hints.empty())
        std::snprintf(hints, sizeof hints, ", %zu of %zu hints used", view.hints_shown, view.exercise.hints.size());
    wrapped_text("Progress: %zu of %zu right, %zu mistake%s diagnosed, %zu revealed%s.", right, total, mistakes,
                       mistakes == 1 ? "" : "s", revealed, hints);
    if (total < 2) return;
    for (std::size_t i = 0; i < total; ++i) {
        const PracticeProgress& p = view.progress[i];
        char label[48];
        std::snprintf(label, sizeof label, "%zu##q%zu", i + 1, i);
        if (i > 0) same_line_if_fits(button_width(label));
        const bool current = i == view.current;
        if (p.answered_right) ImGui::PushStyleColor(ImGuiCol_Text, palette.ok_text);
        else if (p.attempts > 0) ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
        else ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_Text));
        if (current) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(label)) go_to_question(view, i);
        if (ImGui::IsItemHovered() || ImGui::IsItemFocused())
            ImGui::SetTooltip("Question %zu: %s", i + 1,
                              p.answered_right ? "answered right" : p.attempts > 0 ? "not right yet" : p.revealed ? "revealed" : "not answered");
        if (current) ImGui::PopStyleColor();
        ImGui::PopStyleColor();
    }
}

void draw_result(const PracticeView& view, const Palette& palette) {
    if (!view.last_error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
        wrapped_text("Could not read that answer: %s", view.last_error.c_str());
        ImGui::PopStyleColor();
        return;
    }
    if (!view.last_result) return;
    const CheckResult& r = *view.last_result;
    accent_card(palette, !r.correct, [&] {
        if (r.correct) {
            ImGui::PushStyleColor(ImGuiCol_Text, palette.ok_text);
            wrapped_text("%s", r.explanation.c_str());  // "Right: 16.8 GB (15.65 GiB). <the step>"
            ImGui::PopStyleColor();
            muted_text("You answered " + format_gb(r.answer.bytes) + " = " + format_count_exact(r.answer.bytes) + " bytes");
            return;
        }
        ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
        if (r.mistake) wrapped_text("Not quite. Mistake: %s (%s)", mistake_title(*r.mistake), mistake_key(*r.mistake));
        else wrapped_text("Not quite: not one of the known mistakes");
        ImGui::PopStyleColor();
        muted_text("You answered " + format_gb(r.answer.bytes) + " = " + format_count_exact(r.answer.bytes) + " bytes");
        wrapped_text("%s", r.explanation.c_str());
    });
}

void draw_question(AppState& app, PracticeView& view, const Palette& palette) {
    if (view.exercise.questions.empty()) return;
    const PracticeQuestion& q = view.exercise.questions[view.current];
    PracticeProgress& progress = view.progress[view.current];
    char heading[128];
    std::snprintf(heading, sizeof heading, "Question %zu of %zu: %s", view.current + 1, view.exercise.questions.size(),
                  question_title(q.id));
    section_heading(heading);
    wrapped_text("%s", q.prompt.c_str());
    ImGui::Spacing();

    // The answer field and its Check button; Enter also checks.
    const float check_w = button_width("Check");
    ImGui::SetNextItemWidth(std::max(80.0f, std::min(ImGui::GetContentRegionAvail().x - check_w - ImGui::GetStyle().ItemSpacing.x,
                                                     300.0f * app.ui_scale)));
    if (view.focus_answer) {
        ImGui::SetKeyboardFocusHere();
        view.focus_answer = false;
    }
    const bool entered = ImGui::InputTextWithHint("##practice_answer", "e.g. 16.8 GB, 15.65 GiB, 1.68e10 bytes",
                                                  view.answer_text.data(), view.answer_text.size(), ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Check##practice_check") || entered) {
        practice_submit_answer(app, view.answer_text.data());
        view.focus_answer = entered;
    }
    muted_text("Right within " + std::to_string(kAnswerTolerancePercent) + "%. A number without a unit is read as GB.");

    // Hint, reveal and the calculator's worked steps for this question's scenario.
    const std::size_t hint_total = view.exercise.hints.size();
    bool first_in_row = true;
    auto row_button = [&](const char* label) {
        if (!first_in_row) same_line_if_fits(button_width(label));
        first_in_row = false;
        return ImGui::Button(label);
    };
    if (view.hints_shown < hint_total) {
        char label[96];
        std::snprintf(label, sizeof label, "Show hint %zu of %zu##practice_hint", view.hints_shown + 1, hint_total);
        if (row_button(label)) ++view.hints_shown;
    }
    if (row_button(view.show_answer ? "Hide answer##practice_reveal" : "Reveal answer##practice_reveal")) {
        view.show_answer = !view.show_answer;
        if (view.show_answer) progress.revealed = true;
    }
    if (row_button("Open worked steps##practice_steps")) practice_open_worked_steps(app);
    for (std::size_t i = 0; i < view.hints_shown && i < hint_total; ++i)
        wrapped_text("Hint %zu: %s", i + 1, view.exercise.hints[i].c_str());

    if (view.show_answer) {
        if (!view.answer_computed || view.answer_for_ref != view.exercise.ref || view.answer_for_index != view.current) {
            const Expected<Estimate> e = estimate(q.scenario);
            view.answer_bytes = e ? std::optional<std::uint64_t>(question_bytes(q.id, *e)) : std::nullopt;
            view.answer_for_ref = view.exercise.ref;
            view.answer_for_index = view.current;
            view.answer_computed = true;
        }
        if (view.answer_bytes) {
            const std::uint64_t bytes = *view.answer_bytes;
            ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
            wrapped_text("Answer: %s (%s)", format_gb(bytes).c_str(), format_gib(bytes).c_str());
            ImGui::PopStyleColor();
            wrapped_text("%s", q.reveal.c_str());
        }
    }
    draw_result(view, palette);

    // Previous / next.
    if (view.current > 0 && ImGui::Button("Previous question##practice_prev")) go_to_question(view, view.current - 1);
    if (view.current + 1 < view.exercise.questions.size()) {
        if (view.current > 0) ImGui::SameLine();
        if (ImGui::Button("Next question##practice_next")) go_to_question(view, view.current + 1);
    }
    const bool all_done = std::all_of(view.progress.begin(), view.progress.end(),
                                      [](const PracticeProgress& p) { return p.answered_right || p.revealed; });
    if (all_done && !view.exercise.closing.empty()) {
        ImGui::Spacing();
        ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
        wrapped_text("Which totals change?");
        ImGui::PopStyleColor();
        wrapped_text("%s", view.exercise.closing.c_str());
    }
}

void draw_cards(const PracticeView& view, const Palette& palette) {
    if (!ImGui::CollapsingHeader("The four common mistakes##practice_cards", ImGuiTreeNodeFlags_DefaultOpen)) return;
    const bool has_last = view.last_result && view.last_result->mistake.has_value();
    const MistakeId last = has_last ? *view.last_result->mistake : MistakeId::weights_as_inference;
    for (const MistakeCard& c : seed_mistake_cards()) {
        ImGui::PushID(mistake_key(c.id));
        const bool highlight = has_last && last == c.id;
        accent_card(palette, highlight, [&] {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette.guard_accent));
            wrapped_text("%s%s", highlight ? "The mistake you just made: " : "Common mistake: ", c.title);
            ImGui::PopStyleColor();
            labelled_line("What it looks like", c.looks_like);
            labelled_line("Why it fails", c.why_it_fails);
            labelled_line("Do this instead", c.do_this_instead);
        });
        ImGui::PopID();
    }
}

}  // namespace

PracticeView& practice_view(AppState& app) {
    if (!app.practice) app.practice = std::make_shared<PracticeView>();
    return *app.practice;
}

bool practice_open_exercise(AppState& app, std::string_view ref) {
    const Expected<Exercise> exercise = find_exercise(ref);
    if (!exercise) return false;
    PracticeView& view = practice_view(app);
    if (exercise->ref == "seed-7b") {
        view.exercise_choice = 0;
    } else if (exercise->ref == "predict-70b") {
        view.exercise_choice = 1;
    } else {
        view.exercise_choice = 2;
        // The field is an int; numbers past INT_MAX (valid refs up to 2^32 - 1) show as INT_MAX.
        const unsigned long number = std::strtoul(exercise->ref.c_str(), nullptr, 10);
        view.generated_number = static_cast<int>(std::min<unsigned long>(number, static_cast<unsigned long>(INT_MAX)));
    }
    reset_exercise(view, *exercise);
    return true;
}

void practice_submit_answer(AppState& app, std::string_view answer) {
    PracticeView& view = practice_view(app);
    if (view.exercise.questions.empty()) return;
    const PracticeQuestion& q = view.exercise.questions[view.current];
    const Expected<CheckResult> result = check_answer(q.id, q.scenario, answer);
    if (!result) {
        view.last_result.reset();
        view.last_error = result.failure().message_without("answer");  // shown under the answer field
        return;
    }
    view.last_error.clear();
    view.last_result = *result;
    PracticeProgress& progress = view.progress[view.current];
    ++progress.attempts;
    if (result->correct) progress.answered_right = true;
    else if (result->mistake) progress.mistakes.push_back(*result->mistake);
}

void practice_open_worked_steps(AppState& app) {
    PracticeView& view = practice_view(app);
    if (view.exercise.questions.empty()) return;
    // app_set_scenario marks the scenario changed, so the drivers sync the URL and stored state.
    if (app_set_scenario(app, view.exercise.questions[view.current].scenario))
        app.select_tab = Tab::calculator;  // the Calculator tab, whose worked steps now show this scenario
}

void draw_practice_panel(AppState& app) {
    PracticeView& view = practice_view(app);
    const Palette& palette = theme_palette(app.dark_theme);
    ImGui::PushID("practice");
    section_heading("Practice");
    muted_text("Predict first, then check. A wrong answer is matched against the known mistakes, and the right step is shown.");
    draw_chooser(app, view);
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, palette.accent_text);
    wrapped_text("%s", view.exercise.title.c_str());
    ImGui::PopStyleColor();
    wrapped_text("%s", view.exercise.setup.c_str());
    ImGui::Spacing();
    draw_progress(view, palette);
    draw_question(app, view, palette);
    ImGui::Spacing();
    draw_cards(view, palette);
    ImGui::PopID();
}

}  // namespace llm_memory
