// The engine panel: choose llama.cpp, Ollama, vLLM or transformers, set that engine's own flags (rows of the
// settings table), and read core's per-device answer: the "Runs on ..." and "Trains on ..." verdicts, each
// device's weights, KV cache, compute and other memory, vLLM's pool, needed vs reserved, the command line.
// Every figure and sentence is core's (core/engines/); this file only arranges them.
#include "engine_panel.hpp"

#include <string>

#include "engines/engine.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "report.hpp"
#include "runtime_panel.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

struct EngineView {
    std::uint64_t generation = ~std::uint64_t{0};
    bool ok = false;
    EngineEstimate estimate;
    std::string error;
    std::vector<VerdictLine> verdicts;
};

// Places every engine flag (the rows core's table marks for an engine), in table order: llama.cpp's (and
// Ollama's, with the drafter's), then vLLM's, then the ones every engine reads (the host's RAM). `shown`
// says how each row's group shows.
template <typename ShownFor>
void engine_flag_controls(AppState& app, ShownFor shown) {
    const auto place = [&](SettingEngine a, SettingEngine b) {
        for (const SettingSpec& spec : setting_specs())
            if (spec.engine == a || spec.engine == b) setting_control(app, spec.key, shown(spec.engine));
    };
    place(SettingEngine::llama_cpp, SettingEngine::drafter);
    place(SettingEngine::vllm, SettingEngine::vllm);
    place(SettingEngine::every, SettingEngine::every);
}

EngineView& view() {
    static EngineView v;  // one app per process (native window or page)
    return v;
}

void refresh(AppState& app) {
    EngineView& v = view();
    if (v.generation == app.scenario_generation) return;
    v.generation = app.scenario_generation;
    v.verdicts = verdict_lines(app.scenario, app.estimate);
    v.ok = false;
    v.error.clear();
    if (app.scenario.engine.kind == EngineKind::none) return;
    const Expected<EngineEstimate> e = engine_estimate(app.scenario);
    if (e) {
        v.estimate = *e;
        v.ok = true;
    } else {
        v.error = e.error();
    }
}


void device_table(const AppState& app, const EngineEstimate& e) {
    if (!begin_stretch_table("engine##devices", {{"Device", 1.0f}, {"Term", 1.3f}, {"GiB (GB)", 1.4f}})) return;
    const Palette& palette = theme_palette(app.dark_theme);
    for (const EngineDevice& d : e.devices) {
        if (!d.is_gpu && d.total_bytes == 0) continue;
        ImGui::PushID(d.device.c_str());
        for (const EngineTerm& t : d.terms) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            if (&t == &d.terms.front()) wrapped_text("%s", d.label.c_str());
            ImGui::TableNextColumn();
            wrapped_text("%s", t.label.c_str());
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.steps.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted((format_gib(t.bytes) + " (" + format_gb(t.bytes) + ")").c_str());
        }
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted("Total");
        ImGui::TableNextColumn();
        const bool known = d.capacity_bytes > 0;  // a GPU of known size, or the host with --ram
        ImGui::PushStyleColor(ImGuiCol_Text, known ? verdict_colour(app, d.verdict)
                                                   : ImGui::ColorConvertU32ToFloat4(palette.text));
        wrapped_text("%s%s", format_gib(d.total_bytes).c_str(),
                           known ? (" of " + format_gib(d.capacity_bytes) + ": " + verdict_text(d.verdict)).c_str() : "");
        ImGui::PopStyleColor();
        if (d.has_pool) {
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            ImGui::TableNextColumn();
            wrapped_text("KV pool: %s blocks, %s tokens", format_count_exact(d.kv_blocks).c_str(), format_count_exact(d.kv_capacity_tokens).c_str());
            ImGui::TableNextColumn();
            wrapped_text("%sx concurrency", format_decimal(d.max_concurrency).c_str());
        }
        ImGui::PopID();
    }
    ImGui::EndTable();
}

}  // namespace

std::string draw_engines_elsewhere(AppState& app, const std::string& note) {
    std::string asked;
    ImGui::PushID("engine_panel");
    section_heading("Runs on: the engine");
    setting_control(app, "engine", Shown::hidden);
    engine_flag_controls(app, [](SettingEngine) { return Shown::hidden; });
    // The engine's own choices (core's settings table); "none" is what this build shows.
    const std::vector<Choice>& choices = find_setting("engine")->choices();
    ImGui::TextUnformatted(find_setting("engine")->label);  // as the full build's selector: label above, full width
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::BeginCombo("##engine_elsewhere", choices.front().label.c_str())) {
        for (std::size_t i = 1; i < choices.size(); ++i)
            if (ImGui::Selectable(choices[i].label.c_str(), false)) asked = "engine=" + choices[i].word;
        ImGui::EndCombo();
    }
    if (ImGui::Button("Paste a command##engine_elsewhere_command")) asked = "paste=command";
    ImGui::SameLine();
    if (ImGui::Button("Paste a log##engine_elsewhere_log")) asked = "paste=log";
    muted_text(note);
    ImGui::PopID();
    return asked;
}

bool engine_panel_draws(const char* key) { return is_engine_setting(key); }

void draw_verdicts(AppState& app, bool run_line) {
    refresh(app);
    const EngineView& v = view();
    const bool has_run = !v.verdicts.empty() && v.verdicts.front().run;  // the run verdict is the first line
    for (std::size_t i = has_run && !run_line ? 1 : 0; i < v.verdicts.size(); ++i)
        verdict_text_line(app, v.verdicts[i].text, v.verdicts[i].verdict);
}

VerdictLine run_verdict(AppState& app) {
    refresh(app);
    const EngineView& v = view();
    return !v.verdicts.empty() && v.verdicts.front().run ? v.verdicts.front() : VerdictLine{};
}

void draw_engine_panel(AppState& app) {
    refresh(app);
    EngineView& v = view();
    ImGui::PushID("engine_panel");
    section_heading("Runs on: the engine");
    setting_control(app, "engine");
    if (!app.engine_notice.empty()) muted_text(app.engine_notice);
    const EngineKind kind = app.scenario.engine.kind;
    // Every engine key is placed each frame (runtime_panel's "More settings" leaves them to this panel); only
    // the chosen engine's own flags are drawn, under a header that starts closed.
    const bool open = kind != EngineKind::none && ImGui::CollapsingHeader("Engine flags##engine_flags");
    if (open && kind == EngineKind::transformers) muted_text("transformers reads the context, batch, weight format and GPUs set above.");
    engine_flag_controls(app, [&](SettingEngine group) {  // the flags the chosen engine reads (core's engine_reads)
        return open && engine_reads(group, kind) ? Shown::enabled : Shown::hidden;
    });
    if (kind == EngineKind::none) {
        muted_text("Choose llama.cpp, Ollama, vLLM or transformers to see what each GPU and the host hold as that engine allocates.");
        ImGui::PopID();
        return;
    }
    if (!v.ok) {
        error_text(v.error, theme_palette(app.dark_theme));
        ImGui::PopID();
        return;
    }
    const EngineEstimate& e = v.estimate;
    for (const std::string& line : e.settings) muted_text(line);
    device_table(app, e);
    wrapped_text("Needed %s; reserved under %s's defaults %s.", format_gib(e.needed_bytes).c_str(), e.name.c_str(),
                       format_gib(e.reserved_bytes).c_str());
    if (!e.failure.empty()) error_text(e.name + " says: " + e.failure, theme_palette(app.dark_theme));
    for (const std::string& note : e.notes) muted_text(note);
    wrapped_text("%s", e.command.c_str());
    if (ImGui::Button("Copy the command##engine_cmd")) copy_to_clipboard(app, e.command, "the command");
    muted_text(e.version);
    ImGui::PopID();
}

}  // namespace llm_memory
