// The lean page's stand-ins (linked into build/web/site/index.wasm only; web/CMakeLists.txt wraps the real
// functions with these): the engine models and the Hugging Face look-up are in the full build (full.js +
// full.wasm), which the page loads instead when a link or a choice asks for them. Here the engine panel's
// place offers the engines and the Model section keeps its look-up field; either choice reloads the page
// into the full build with the scenario in its link (api.js, llmMemoryLoadFull).
#include <emscripten.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "app.hpp"
#include "engine_io_panel.hpp"
#include "engine_panel.hpp"
#include "engines/command_line.hpp"
#include "engines/engine.hpp"
#include "engines/engine_fit.hpp"
#include "engines/engine_log.hpp"
#include "hub.hpp"
#include "model_file.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "practice.hpp"
#include "settings.hpp"
#include "theme.hpp"

EM_JS(void, js_load_full, (const char* pair), { Module['llmMemoryLoadFull'](UTF8ToString(pair)); });
// The full build's payload (full.js + full.wasm, gzip -9), written into index.html by web/page_loader.mjs.
EM_JS(int, js_full_bytes, (), { return Module['llmMemoryFullBytes'] || 0; });

namespace {

// "about 385 KB" of the full build, or "" when the page does not know (a hand-made index.html).
std::string full_size_text() {
    const int bytes = js_full_bytes();
    if (bytes <= 0) return {};
    char text[32];
    std::snprintf(text, sizeof text, "about %d KB", (bytes + 500) / 1000);
    return text;
}

const std::string& load_note() {
    static const std::string note = [] {
        const std::string size = full_size_text();
        return "The engine models come with the page's full build" + (size.empty() ? std::string() : " (" + size + ")") +
               ", loaded from this site once, then kept by your browser; the scenario stays as it is. Nothing is sent anywhere.";
    }();
    return note;
}

}  // namespace

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wreturn-type-c-linkage"  // the stand-ins return what the C++ functions return
extern "C" bool __wrap__ZN10llm_memory16engines_in_buildEv() { return false; }
// Why an engine key, a command or a log is refused here (a setState call; links with them load the full build).
extern "C" const char* __wrap__ZN10llm_memory21engines_left_out_noteEv() {
    static const std::string note = [] {
        const std::string size = full_size_text();
        return "the engine models are in the page's full build" + (size.empty() ? std::string() : " (" + size + ")") +
               ": a link with engine= opens it, as does choosing an engine on the page";
    }();
    return note.c_str();
}
extern "C" llm_memory::Expected<llm_memory::EngineEstimate> __wrap__ZN10llm_memory15engine_estimateERKNS_8ScenarioE(
    const llm_memory::Scenario&) {
    return llm_memory::Error{"engine", llm_memory::engines_left_out_note()};
}
// The engine questions are not offered here (engines_in_build is false), so these are never reached; wrapping them
// drops their sentences and wrong paths from the page.
extern "C" llm_memory::Expected<llm_memory::EngineAnswer> __wrap__ZN10llm_memory13engine_answerENS_10QuestionIdERKNS_8ScenarioE(
    llm_memory::QuestionId, const llm_memory::Scenario&) {
    return llm_memory::Error{"engine", llm_memory::engines_left_out_note()};
}
extern "C" llm_memory::Expected<std::vector<llm_memory::WrongPath>> __wrap__ZN10llm_memory18engine_wrong_pathsENS_10QuestionIdERKNS_8ScenarioE(
    llm_memory::QuestionId, const llm_memory::Scenario&) {
    return llm_memory::Error{"engine", llm_memory::engines_left_out_note()};
}
// Without an engine (the lean page refuses engine keys) fit's own answers are the answers.
extern "C" std::vector<llm_memory::FitReport> __wrap__ZN10llm_memory38engine_answer_applicable_fit_questionsERKNS_8ScenarioE(
    const llm_memory::Scenario& scenario) {
    return llm_memory::answer_applicable_fit_questions(scenario);
}
extern "C" llm_memory::Expected<llm_memory::CommandReading>
__wrap__ZN10llm_memory19read_engine_commandENSt3__217basic_string_viewIcNS0_11char_traitsIcEEEE(std::string_view) {
    return llm_memory::Error{"from-command", llm_memory::engines_left_out_note()};
}
extern "C" llm_memory::Expected<llm_memory::ReconcileOutcome>
__wrap__ZN10llm_memory18reconcile_log_textERKNS_8ScenarioENSt3__217basic_string_viewIcNS3_11char_traitsIcEEEE(
    const llm_memory::Scenario&, std::string_view) {
    return llm_memory::Error{"reconcile", llm_memory::engines_left_out_note()};
}
extern "C" std::string __wrap__ZN10llm_memory23scenario_engine_commandERKNS_8ScenarioE(const llm_memory::Scenario&) { return {}; }
extern "C" std::string __wrap__ZN10llm_memory11engine_jsonERKNS_14EngineEstimateE(const llm_memory::EngineEstimate&) { return "{}"; }
extern "C" void __wrap__ZN10llm_memory20draw_engine_io_panelERNS_8AppStateE(llm_memory::AppState&) {}
extern "C" void __wrap__ZN10llm_memory17draw_engine_panelERNS_8AppStateE(llm_memory::AppState& app) {
    const std::string asked = llm_memory::draw_engines_elsewhere(app, load_note());
    if (!asked.empty()) js_load_full(asked.c_str());
}
extern "C" std::string __wrap__ZN10llm_memory13engine_reportERKNS_14EngineEstimateEi(const llm_memory::EngineEstimate&, int) { return {}; }
extern "C" llm_memory::EngineCommandResult
__wrap__ZN10llm_memory20apply_engine_commandERNS_8AppStateENSt3__217basic_string_viewIcNS2_11char_traitsIcEEEE(llm_memory::AppState&,
                                                                                                            std::string_view) {
    return {false, llm_memory::engines_left_out_note(), {}};
}

// The engines' settings rows (core/engines/setting_rows.cpp) are the full build's. Here each is its key alone,
// read from index.html's loader list (web/page_loader.mjs writes core's engine keys into Module.llmMemoryFullKeys,
// "(^|[?&])(engine|ubatch|...|paste)="), so that setState refuses every one of them by name with the note above
// (core's apply_setting refuses an engine row before reading it). The engine choice itself is core's row.
EM_JS(int, js_engine_keys, (char* out, int size), {
  var r = Module['llmMemoryFullKeys'];
  var keys = r ? r.source.split("(")[2].split(")")[0] : "";
  stringToUTF8(keys, out, size);
  return lengthBytesUTF8(keys);
});
extern "C" std::vector<llm_memory::SettingSpec> __wrap__ZN10llm_memory19engine_setting_rowsEv() {
    static char keys[4096];  // the rows keep pointers into it
    std::vector<llm_memory::SettingSpec> rows;
    const int length = js_engine_keys(keys, sizeof keys);
    if (length <= 0 || length >= static_cast<int>(sizeof keys)) return rows;
    for (char* key = keys; key != nullptr;) {
        char* bar = std::strchr(key, '|');
        if (bar != nullptr) *bar++ = '\0';
        const std::string_view k = key;
        if (k != "engine" && k != "hf" && k != "lookup" && k != "paste") {
            llm_memory::SettingSpec row{key, "", "", key, "", llm_memory::SettingKind::text, "",
                                        [](llm_memory::Scenario&, std::string_view) { return std::string(llm_memory::engines_left_out_note()); },
                                        [](const llm_memory::Scenario&) { return std::string(); }};
            row.engine = llm_memory::SettingEngine::every;
            rows.push_back(row);
        }
        key = bar;
    }
    return rows;
}

// The Model section's "Look up on Hugging Face": the field and its button; a valid id loads the full build
// with lookup=ID, which asks as the field there does (the consent prompt unless a yes is remembered).
extern "C" void __wrap__ZN10llm_memory15draw_hub_lookupERNS_8AppStateE(llm_memory::AppState& app) {
    static char text[256] = "";
    static std::string problem;
    ImGui::PushID("hub_lookup");
    ImGui::Spacing();
    ImGui::TextUnformatted("Look up on Hugging Face");
    const float button_width = ImGui::CalcTextSize("Reading...").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SetNextItemWidth(-(button_width + ImGui::GetStyle().ItemSpacing.x));
    const bool entered = ImGui::InputTextWithHint("##hub_ref", "org/name, org/name:file.gguf or a huggingface.co link", text,
                                                  sizeof text, ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Look up##hub_lookup_button", ImVec2(button_width, 0.0f)) || entered) {
        const llm_memory::Expected<llm_memory::HubRef> ref = llm_memory::parse_hub_ref(text);
        problem = ref ? std::string() : ref.error();
        if (ref) js_load_full(("lookup=" + llm_memory::hub_ref_text(*ref)).c_str());
    }
    if (!problem.empty()) llm_memory::error_text(problem, llm_memory::theme_palette(app.dark_theme));
    const std::string size = full_size_text();
    llm_memory::muted_text("Looking up loads the page's full build" + (size.empty() ? std::string() : " (" + size + ", once)") +
                           " from this site, then asks before it sends the model id to huggingface.co. Nothing else is sent.");
    ImGui::PopID();
}
extern "C" void __wrap__ZN10llm_memory15draw_hub_promptERNS_8AppStateE(llm_memory::AppState&) {}
extern "C" std::vector<llm_memory::JsonField> __wrap__ZN10llm_memory18hub_applied_fieldsERKNS_8AppStateE(const llm_memory::AppState&) { return {}; }
// llama.cpp's image and audio rules (core/mtmd.cpp): the lean page has no engine, so media always follow transformers'
// processors.
extern "C" std::string __wrap__ZN10llm_memory17mtmd_image_sourceERKNS_11VisionTowerERKNS_14ImageProcessorE(const llm_memory::VisionTower&, const llm_memory::ImageProcessor&) { return {}; }
extern "C" std::string __wrap__ZN10llm_memory15mtmd_audio_ruleERKNS_11VisionTowerE(const llm_memory::VisionTower&) { return {}; }
extern "C" llm_memory::TileCanvas __wrap__ZN10llm_memory18mtmd_llama4_canvasEyyy(std::uint64_t, std::uint64_t, std::uint64_t) { return {}; }
extern "C" llm_memory::ImageGrid __wrap__ZN10llm_memory17mtmd_smart_resizeEyyyyy(std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t) { return {}; }
extern "C" llm_memory::ImageTokenLimits __wrap__ZN10llm_memory17mtmd_token_limitsERKNS_11VisionTowerERKNS_14ImageProcessorE(const llm_memory::VisionTower&, const llm_memory::ImageProcessor&) { return {}; }
extern "C" llm_memory::Status __wrap__ZN10llm_memory19mtmd_limits_problemERKNS_11VisionTowerERKNS_14ImageProcessorE(const llm_memory::VisionTower&, const llm_memory::ImageProcessor&) { return std::nullopt; }
// Without an engine there is no projector file (the stand-in below refuses one): images follow the model's own tower.
extern "C" const llm_memory::VisionTower& __wrap__ZN10llm_memory11media_towerERKNS_8ScenarioERKNS_12ArchitectureE(const llm_memory::Scenario&,
                                                                                                              const llm_memory::Architecture& a) {
    return a.vision;
}
// llama.cpp's projector file (core/mmproj.cpp): the reader keeps none of its clip.* items here, and a dropped mmproj
// file is refused with the note (choosing an engine loads the full build, where the file can be dropped again).
extern "C" void __wrap__ZN10llm_memory14read_clip_itemERNS_11GgufSummaryERKNSt3__212basic_stringIcNS2_11char_traitsIcEENS2_9allocatorIcEEEENS2_17basic_string_viewIcS5_EEy(
    llm_memory::GgufSummary&, const std::string&, std::string_view, std::uint64_t) {}
extern "C" llm_memory::Expected<llm_memory::FileModel>
__wrap__ZN10llm_memory20projector_file_modelERKNS_11GgufSummaryERKNSt3__212basic_stringIcNS3_11char_traitsIcEENS3_9allocatorIcEEEE(
    const llm_memory::GgufSummary&, const std::string&) {
    return llm_memory::Error{"mmproj", llm_memory::engines_left_out_note()};
}
#pragma clang diagnostic pop

// No look-up starts here (web/hub_exports.cpp in the full build).
void llm_memory_web_hub_after_frame() {}
