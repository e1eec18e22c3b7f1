// "Engine command and log" (see engine_io_panel.hpp). View state: the two paste boxes, the last command's
// notes and the last reconciliation, kept in AppState::engine_io. Every figure and sentence is core's:
// the panel arranges read_engine_command / apply_command_to_scenario / scenario_engine_command and
// reconcile_log_text's rows.
#include "engine_io_panel.hpp"

#include <optional>
#include <string>
#include <vector>

#include "engines/command_line.hpp"
#include "engines/engine_log.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "theme.hpp"

namespace llm_memory {

struct EngineIoView {
    std::string command_text;            // the command box (grows as needed)
    std::string log_text;                // the log box
    std::string command_message;         // what the last Apply did, or why it failed
    bool command_failed = false;
    std::vector<std::string> command_notes;  // ignored and not modelled flags, not applied keys
    std::optional<ReconcileOutcome> outcome; // the last reconciliation
    std::string log_error;               // why the last log could not be reconciled
    std::uint64_t outcome_generation = 0;
};

namespace {

void apply_command(AppState& app, EngineIoView& view) {
    const EngineCommandResult r = apply_engine_command(app, view.command_text);
    view.command_failed = !r.ok;
    view.command_message = r.message;
    view.command_notes = r.notes;
}

void reconcile(AppState& app, EngineIoView& view) {
    Expected<ReconcileOutcome> out = reconcile_log_text(app.scenario, view.log_text);
    if (!out) {
        view.outcome.reset();
        view.log_error = out.error();
        return;
    }
    view.log_error.clear();
    view.outcome = std::move(out.value());
}

// The rows as a table; a gap over its tolerance is marked (1), (2), ... and its likely cause is written
// under the table at the panel's width (inside the table, a narrow first column wrapped it word by word).
void draw_rows(const ReconcileOutcome& outcome, const Palette& palette) {
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable("##reconcile_rows", 4, flags)) return;
    ImGui::TableSetupColumn("Term", ImGuiTableColumnFlags_WidthStretch);  // "kv_cache (gpu0)": wraps; the figures never do
    ImGui::TableSetupColumn("Measured", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Ours", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("Gap", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (const ReconcileRow& r : outcome.rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::PushTextWrapPos(0.0f);
        ImGui::Text("%s (%s)", r.term.c_str(), r.device.c_str());
        ImGui::PopTextWrapPos();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.measured_text.c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(r.has_estimate ? r.estimated_text.c_str() : "-");
        ImGui::TableNextColumn();
        if (r.has_estimate) {
            if (r.cause.empty()) {
                ImGui::TextUnformatted(r.gap_text.c_str());
            } else {
                ImGui::PushStyleColor(ImGuiCol_Text, palette.error_text);
                ImGui::Text("%s (%d)", r.gap_text.c_str(), r.cause_number);
                ImGui::PopStyleColor();
            }
        } else {
            ImGui::TextDisabled("no figure");
        }
    }
    ImGui::EndTable();
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& line : reconcile_cause_lines(outcome.rows)) ImGui::TextDisabled("%s", line.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace

EngineCommandResult apply_engine_command(AppState& app, std::string_view command) {
    EngineCommandResult r;
    const Expected<CommandReading> read = read_engine_command(command);
    if (!read) {
        r.message = read.error();
        return r;
    }
    Scenario next = app.scenario;
    const Expected<std::vector<std::string>> applied = apply_command_to_scenario(next, *read);
    if (!applied) {
        r.message = applied.error();
        return r;
    }
    if (!app_set_scenario(app, next)) {
        r.message = "these settings do not make a valid scenario together; nothing was changed";
        return r;
    }
    r.ok = true;
    r.message = "Set from the " + read->program + " command" + (read->preset_key.empty() ? std::string() : ", model " + read->preset_key) + ".";
    for (const std::string& i : read->ignored) r.notes.push_back("ignored (no effect on memory): " + i);
    for (const std::string& u : read->unmodelled) r.notes.push_back("not modelled: " + u);
    for (const std::string& n : *applied) r.notes.push_back("not applied: " + n);
    return r;
}

void draw_engine_io_panel(AppState& app) {
    if (!app.engine_io) app.engine_io = std::make_shared<EngineIoView>();
    EngineIoView& view = *app.engine_io;
    const Palette& palette = theme_palette(app.dark_theme);

    muted_text("Paste a llama-server, llama-cli, vllm serve or ollama run command: its memory flags set the inputs.");
    paste_box("##engine_command_text", view.command_text, 3.0f);
    if (ImGui::Button("Use this command##engine_command_apply")) apply_command(app, view);
    ImGui::SameLine();
    if (ImGui::Button("Clear##engine_command_clear")) {
        view.command_text.clear();
        view.command_message.clear();
        view.command_notes.clear();
    }
    if (!view.command_message.empty()) {
        if (view.command_failed) error_text(view.command_message, palette);
        else muted_text(view.command_message);
        for (const std::string& n : view.command_notes) muted_text(n);
    }
    const std::string command = scenario_engine_command(app.scenario);
    if (!command.empty()) {
        ImGui::Spacing();
        muted_text("The command that realises these inputs:");
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(command.c_str());
        ImGui::PopTextWrapPos();
        if (ImGui::Button("Copy the command##engine_command_copy")) copy_to_clipboard(app, command, "the command");
    }

    ImGui::Spacing();
    ImGui::Separator();
    muted_text("Paste an engine's load log (llama.cpp, Ollama, vLLM or nvidia-smi) to compare what it allocated with "
               "these inputs' figures. It is read here; nothing leaves this machine.");
    paste_box("##engine_log_text", view.log_text, 6.0f);
    if (ImGui::Button("Reconcile##engine_log_reconcile")) reconcile(app, view);
    ImGui::SameLine();
    if (ImGui::Button("Clear##engine_log_clear")) {
        view.log_text.clear();
        view.outcome.reset();
        view.log_error.clear();
    }
    if (!view.log_error.empty()) error_text(view.log_error, palette);
    if (view.outcome) {
        const ReconcileOutcome& o = *view.outcome;
        std::string head = log_heading(o.log);
        head[0] = 'A';
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(head.c_str());
        ImGui::PopTextWrapPos();
        muted_text("From the log: " + log_settings_text(o.log));
        draw_rows(o, palette);
        for (const std::string& n : log_note_lines(o.log)) muted_text(n);
        for (const std::string& n : o.not_applied) muted_text("not applied: " + n);
        if (ImGui::Button("Copy as text##engine_log_copy")) copy_to_clipboard(app, o.text, "the reconciliation");
    }
}

}  // namespace llm_memory
