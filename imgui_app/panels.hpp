// Internal to imgui_app: the explorable's panels, each drawing one section of the seed document into
// the current window at whatever width it is given, and the small widgets they share.
#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app.hpp"
#include "theme.hpp"

namespace llm_memory {

// ---- Shared widgets and actions (panels_common.cpp) ----

// Re-reads every text field; on success the scenario and estimate become the new valid ones.
void apply_fields(AppState& app);
// Sets one field's text (by settings key) and re-applies all fields.
void set_field_and_apply(AppState& app, const char* key, const std::string& text);
// A heading line with a rule (ImGui SeparatorText).
void section_heading(const char* title);
// Wrapped text in the muted colour.
// Text wrapped at the item's wrap width, printf-style like ImGui::TextWrapped, but broken only at spaces and
// newlines: ImGui also breaks after '.' and ',', which splits figures such as "131,072" or "72.5 GiB".
void wrapped_text(const char* fmt, ...) IM_FMTARGS(1);
// The lines wrapped_text draws: `text` broken at spaces (and at newlines) so that each line's `measure` is
// at most `width`, except a single word wider than the width, which keeps a line of its own.
template <class Measure>
std::vector<std::string_view> wrap_at_spaces(std::string_view text, float width, const Measure& measure) {
    std::vector<std::string_view> lines;
    std::size_t line = 0;
    do {
        std::size_t paragraph_end = text.find('\n', line);
        if (paragraph_end == std::string_view::npos) paragraph_end = text.size();
        // Greedy: whole words while the line fits; a word longer than the width gets a line of its own.
        std::size_t fits = std::string_view::npos;
        std::size_t p = line;
        while (p < paragraph_end) {
            std::size_t word_end = p;
            while (word_end < paragraph_end && text[word_end] == ' ') ++word_end;
            while (word_end < paragraph_end && text[word_end] != ' ') ++word_end;
            if (fits != std::string_view::npos && measure(text.substr(line, word_end - line)) > width) break;
            fits = p = word_end;
        }
        if (fits == std::string_view::npos) fits = paragraph_end;
        lines.push_back(text.substr(line, fits - line));
        line = fits;
        while (line < paragraph_end && text[line] == ' ') ++line;
        if (line == paragraph_end && paragraph_end < text.size()) ++line;  // past the newline
    } while (line < text.size());
    return lines;
}

void muted_text(const std::string& text);
// Wrapped text in the error colour.
void error_text(const std::string& text, const Palette& palette);
// A verdict's colour: fits green, tight amber, does not fit red.
ImVec4 verdict_colour(const AppState& app, FitVerdict verdict);
// A sentence in its verdict's colour (core's verdict lines).
void verdict_text_line(const AppState& app, const std::string& text, FitVerdict verdict);
// One of the seed's four common mistakes as a short dismissible card, shown where it bites.
// index: 0 weights-as-inference, 1 one-value-per-trainable, 2 freezing-removes-weights,
// 3 wrong-bytes-per-parameter.
void mistake_guard(AppState& app, int index, const std::string& text);
// A card: background, border (the accent colour and thicker when highlighted) and a left accent bar
// around whatever `draw` puts inside (text wraps at the card's inner edge).
void accent_card(const Palette& palette, bool highlight, const std::function<void()>& draw);
// Copies text to the clipboard and remembers what was copied for the confirmation line.
void copy_to_clipboard(AppState& app, const std::string& text, const char* what);
// A table of stretched columns (name, weight) with row backgrounds, inner lines and a header row; false when
// ImGui skips it (then no EndTable).
bool begin_stretch_table(const char* id, std::initializer_list<std::pair<const char*, float>> columns);
// A multi-line text box `lines` high that grows its std::string as text is typed or pasted (commands, logs,
// a config.json).
void paste_box(const char* id, std::string& text, float lines);

// ---- Panels ----
void draw_inputs_panel(AppState& app, bool compact);     // panels_inputs.cpp
void draw_results_panel(AppState& app);                  // panels_results.cpp
void draw_summary_strip(AppState& app);                  // the four totals in one row (narrow layouts)
void draw_steps_panel(AppState& app);
void draw_diagram_panel(AppState& app);
void draw_bars_panel(AppState& app);
void draw_before_after_panel(AppState& app);
void draw_scaling_panel(AppState& app);                  // panels_scaling.cpp

}  // namespace llm_memory
