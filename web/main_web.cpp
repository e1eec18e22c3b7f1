// The web driver: Emscripten main loop over the same draw_frame() as the desktop app, plus the glue
// the page needs: URL/stored state (through core's settings table), the exported JS API, idle pausing
// (the main loop is paused when no frame is owed and resumed by input), canvas = CSS box x DPR,
// clipboard via navigator.clipboard, cursor shapes and an embed-friendly wheel. JS side: web/api.js.
//
// Sections: JS calls (EM_JS) · WebApp state · publishing and the practice link · pause/wake · canvas size,
//   cursor, touch scroll, phone keyboard · tick() · wheel and clipboard · exported JS API (estimate, state,
//   practice, wake, input hooks, test hooks, view JSON) · main().
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "app.hpp"
#include "engine_io_panel.hpp"
#include "engines/command_line.hpp"
#include "engines/engine.hpp"
#include "engines/engine_log.hpp"
#include "fit_panel.hpp"
#include "frame_pacer.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "model_panel.hpp"
#include "number_scan.hpp"
#include "practice.hpp"
#include "practice_panel.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "settings_form.hpp"
#include "steps.hpp"

// --- JS calls into web/api.js (all names quoted: the page is built with closure) ---
EM_JS(void, js_publish_text, (const char* summary, const char* state, const char* table), {
    Module['llmMemoryPublish'](UTF8ToString(summary), UTF8ToString(state), UTF8ToString(table));
});
EM_JS(int, js_screen_width, (), { return screen['width']; });
EM_JS(int, js_screen_height, (), { return screen['height']; });
EM_JS(void, js_set_cursor, (const char* css), { Module['canvas']['style']['cursor'] = UTF8ToString(css); });
EM_JS(void, js_theme, (int dark), { Module['llmMemoryTheme'](dark); });
EM_JS(void, js_open_full_app, (), { Module['llmMemoryOpenFullApp'](); });
EM_JS(void, js_copy_text, (const char* text), { Module['llmMemoryCopyText'](UTF8ToString(text)); });
EM_JS(int, js_embed_mode, (), { return Module['llmMemoryEmbed'] ? 1 : 0; });
EM_JS(int, js_prefers_dark, (), { return Module['llmMemoryPrefersDark'] ? 1 : 0; });
EM_JS(int, js_touch_screen, (), { return Module['llmMemoryTouch'] ? 1 : 0; });
EM_JS(void, js_start, (int webgl), { Module['llmMemoryStart'](webgl); });
EM_JS(void, js_practice, (const char* ref), { Module['llmMemoryPractice'](UTF8ToString(ref)); });
EM_JS(void, js_open_file_picker, (), { Module['llmMemoryOpenFilePicker'](); });
EM_JS(void, js_text_edit, (int active, const char* text, const char* key, int lines), {
    Module['llmMemoryTextEdit'](active, UTF8ToString(text), UTF8ToString(key), lines);
});

// Size: ImFontAtlas::Build() falls back to ImGui's built-in ProggyClean font (a 12 KB base85 string, about
// 11 KB of the gzipped wasm) when no font was added; the app always adds its own (app_setup_style), so the
// link wraps AddFontDefault (web/CMakeLists.txt, --wrap) with this stand-in and the original is dropped.
// Reaching it would be a bug: it adds nothing, and Build() then fails with no font rather than showing a
// different typeface.
extern "C" ImFont* __wrap__ZN11ImFontAtlas14AddFontDefaultEPK12ImFontConfig(ImFontAtlas*, const ImFontConfig*) {
    return nullptr;
}

// Size: ImGui registers .ini text handlers for tables (their readers use sscanf), but the page never loads
// or saves an .ini (io.IniFilename is null and nothing calls the ini functions), so the link wraps the
// registration (web/CMakeLists.txt, --wrap) with this empty stand-in and the handlers are dropped. Tables
// keep their column widths and order in memory as before (g.SettingsTables does not go through a handler).
extern "C" void __wrap__ZN5ImGui31TableSettingsAddSettingsHandlerEv() {}

// Size: nothing here catches an exception or calls dynamic_cast (-fno-exceptions, -fno-rtti), but the typeinfo
// objects libc++ is compiled with point at libc++abi's type_info vtables, whose slots hold the catch matching
// and dynamic_cast's class-hierarchy walks (2.4 KB of code). The link wraps those ten members
// (web/CMakeLists.txt, --wrap) with these stand-ins, of the same wasm signatures, and the originals are dropped.
// Nothing calls them: reaching one traps.
#define LLM_MEMORY_TYPE_INFO_STAND_INS(type_info)                                                                             \
    extern "C" void __wrap__ZNK10__cxxabiv1##type_info##16search_above_dstEPNS_19__dynamic_cast_infoEPKvS4_ib(               \
        const void*, void*, const void*, const void*, int, bool) { __builtin_trap(); }                                      \
    extern "C" void __wrap__ZNK10__cxxabiv1##type_info##16search_below_dstEPNS_19__dynamic_cast_infoEPKvib(const void*, void*, \
                                                                                                       const void*, int, bool) { \
        __builtin_trap();                                                                                                      \
    }                                                                                                                          \
    extern "C" void __wrap__ZNK10__cxxabiv1##type_info##27has_unambiguous_public_baseEPNS_19__dynamic_cast_infoEPvi(         \
        const void*, void*, void*, int) { __builtin_trap(); }
LLM_MEMORY_TYPE_INFO_STAND_INS(17__class_type_info)
LLM_MEMORY_TYPE_INFO_STAND_INS(20__si_class_type_info)
LLM_MEMORY_TYPE_INFO_STAND_INS(21__vmi_class_type_info)
#undef LLM_MEMORY_TYPE_INFO_STAND_INS
extern "C" bool __wrap__ZNK10__cxxabiv117__class_type_info9can_catchEPKNS_16__shim_type_infoERPv(const void*, const void*, void**) {
    __builtin_trap();
}

// The lean page's stand-ins for the engine models and the Hugging Face look-up are in web/lean.cpp (the full
// build, web/CMakeLists.txt, links the real ones).

// Size: musl's strtod and sscanf convert through 128-bit long double with soft-float (__floatscan and
// compiler-rt, about 8 KB gzipped of the page). The link wraps both (web/CMakeLists.txt, --wrap; atof
// calls strtod) with number_scan.hpp's exact stand-ins: the same correctly rounded doubles for core's
// JSON reader and ImGui's RoundScalarWithFormatT, and sscanf for the formats ImGui passes (slider and
// input text entry, the window .ini reader, the GL backend's "#version %d"); any other format converts
// nothing. tests/core/number_scan_test.cpp checks them against glibc natively and musl in wasm.
extern "C" double __wrap_strtod(const char* text, char** end) { return llm_memory::scan_strtod(text, end); }
extern "C" int __wrap_sscanf(const char* text, const char* format, ...) {
    va_list args;
    va_start(args, format);
    const int stored = llm_memory::scan_vsscanf(text, format, args);
    va_end(args);
    return stored;
}

namespace {

struct WebApp {
    GLFWwindow* window = nullptr;
    bool renderer_ready = false;  // ImGui's OpenGL backend is initialised (WebGL 2 exists)
    llm_memory::AppState app;
    llm_memory::FramePacer pacer;
    int width_px = 0;
    int height_px = 0;
    float dpr = 0.0f;
    bool loop_paused = false;  // emscripten_pause_main_loop() is in effect
    bool suspended = false;    // tab hidden or canvas off screen: draw nothing until visible again
    bool wheel_engaged = true; // the wheel goes to the app (embeds: only after a click inside)
    bool last_dark_theme = true;
    ImGuiMouseCursor last_cursor = ImGuiMouseCursor_COUNT;
    std::string clipboard_text;
    std::string published_practice;  // the practice ref the page's link carries ("" off the Practice tab)
    int practice_frames_pending = 0; // frames left for a link's practice exercise to bring its tab up
    // Touch: a vertical swipe scrolls the window under the finger by the finger's travel (device px).
    float touch_scroll_y = 0.0f;
    ImGuiID touch_scroll_window = 0;  // the window the current swipe scrolls (0 = pick the hovered one)
    // The phone keyboard: a page <input> types into the active ImGui text field.
    ImGuiID text_edit_id = 0;         // the text field being edited, as last told to the page
    std::string text_replace;         // the page input's whole text, to become the field's text
    bool text_replace_due = false;
    ImGuiID text_end_id = 0;          // the page input lost focus while this field was edited: end that edit
    // Test hook: last frame's items by label (ImGui's test-engine item hooks, off unless a test asks).
    struct Item { ImGuiID id; std::string label; };
    std::vector<Item> items;                              // labels (ImGui's ItemInfo hook)
    std::vector<std::pair<ImGuiID, ImRect>> item_rects;  // rects (ImGui's ItemAdd hook)
};

WebApp g_web;

}  // namespace

// The app state, for the model picker's JS entry (web/model_exports.cpp).
llm_memory::AppState& llm_memory_web_app() { return g_web.app; }

namespace {

// Clamp for io.DeltaTime after a pause: long enough that two clicks separated by a pause never look
// like a double click (ImGui's MouseDoubleClickTime is 0.30 s), short enough that nothing jumps.
constexpr float kMaxFrameSeconds = 0.5f;
// The floor: ImGui wants time to pass between frames, and the passes of one animation frame (tick) can
// fall within the clock's resolution.
constexpr float kMinFrameSeconds = 1e-4f;
// ImGui frames one animation frame may draw to take queued input (tick): a typed word and its Enter need
// about 20.
constexpr int kInputPasses = 32;

void js_publish(const llm_memory::Scenario& scenario, const llm_memory::Estimate& estimate) {
    const std::string summary = llm_memory::report_summary(estimate);
    const std::string state = llm_memory::to_state(scenario);
    const std::string table = llm_memory::report_table(scenario, estimate, llm_memory::UnitChoice::both);
    js_publish_text(summary.c_str(), state.c_str(), table.c_str());
}

// Everything that follows a scenario change: summary, URL, storage. Publishing takes the app's flag, so a
// change published here (a state set from script, a dropped file) is not published again after the frame.
void on_scenario_changed() {
    g_web.app.scenario_changed = false;
    js_publish(g_web.app.scenario, g_web.app.estimate);
}

}  // namespace

// A scenario change made outside a frame (web/model_exports.cpp): published as the frame would.
void llm_memory_web_scenario_changed() { on_scenario_changed(); }
void llm_memory_web_hub_after_frame();  // web/hub_exports.cpp

namespace {

// The exercise the Practice tab shows while it is the open tab (or is being opened by a link), else "".
std::string shown_practice_ref() {
    const llm_memory::AppState& app = g_web.app;
    if (app.embed_mode || !app.practice) return {};
    if (app.active_tab != llm_memory::Tab::practice && g_web.practice_frames_pending == 0) return {};
    return app.practice->exercise.ref;
}

// Keeps practice=<ref> in the page's link while the Practice tab is open.
void sync_practice_link() {
    const std::string ref = shown_practice_ref();
    if (ref == g_web.published_practice) return;
    g_web.published_practice = ref;
    js_practice(ref.c_str());
}

void wake() {
    g_web.pacer.notify_input();
    if (g_web.loop_paused && !g_web.suspended) {
        g_web.loop_paused = false;
        emscripten_resume_main_loop();
    }
}

// An input of the theme (dark, the touch layout) set to `on`: the theme is re-applied on the next frame.
void set_theme_input(bool& input, int on) {
    if ((on != 0) == input) return;
    input = on != 0;
    g_web.app.theme_changed = true;
    wake();
}

void pause_loop() {
    if (g_web.loop_paused) return;
    g_web.loop_paused = true;
    emscripten_pause_main_loop();
}

// Matches the GLFW window (= canvas backbuffer) to the CSS box x devicePixelRatio; rebuilds fonts on
// a DPR change so text stays crisp.
void sync_canvas_size() {
    double css_width = 0;
    double css_height = 0;
    emscripten_get_element_css_size("#canvas", &css_width, &css_height);
    const auto dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
    const int width_px = std::max(1, static_cast<int>(std::lround(css_width * dpr)));
    int height_px = std::max(1, static_cast<int>(std::lround(css_height * dpr)));
    // Emscripten's GLFW turns a window size equal to the screen size into a fullscreen request
    // (rejected without a user gesture, logged as an error): stay one pixel short of it.
    if (width_px == js_screen_width() && height_px == js_screen_height()) height_px -= 1;
    if (dpr != g_web.dpr) {
        g_web.dpr = dpr;
        g_web.app.ui_scale = dpr;
        llm_memory::app_setup_style(g_web.app, 17.0f * dpr);
        if (g_web.renderer_ready) {
            // 1.90.1's NewFrame recreates device objects only when the shader is missing, so the font
            // texture must be rebuilt here.
            ImGui_ImplOpenGL3_DestroyFontsTexture();
            ImGui_ImplOpenGL3_CreateFontsTexture();
        }
        g_web.pacer.notify_input();
    }
    if (width_px != g_web.width_px || height_px != g_web.height_px) {
        g_web.width_px = width_px;
        g_web.height_px = height_px;
        glfwSetWindowSize(g_web.window, width_px, height_px);
        g_web.pacer.notify_input();
    }
}

// Mirrors ImGui's cursor into canvas.style.cursor (this GLFW's glfwSetCursor does nothing).
void sync_cursor() {
    const ImGuiMouseCursor cursor = ImGui::GetMouseCursor();
    if (cursor == g_web.last_cursor) return;
    g_web.last_cursor = cursor;
    static const char* const kCss[ImGuiMouseCursor_COUNT] = {
        "default", "text", "move", "ns-resize", "ew-resize", "nesw-resize", "nwse-resize", "pointer", "not-allowed"};
    const char* css = cursor >= 0 && cursor < ImGuiMouseCursor_COUNT ? kCss[cursor] : "none";
    js_set_cursor(css);
}

// A swipe's travel, applied after NewFrame (the hovered window is known then): the window under the
// finger, or the nearest parent that can scroll, moves with the finger.
void apply_touch_scroll() {
    if (g_web.touch_scroll_y == 0.0f) return;
    ImGuiContext& g = *GImGui;
    ImGuiWindow* window = g_web.touch_scroll_window != 0 ? ImGui::FindWindowByID(g_web.touch_scroll_window) : nullptr;
    if (window == nullptr) {
        window = g.HoveredWindow;
        while (window != nullptr && (window->Flags & ImGuiWindowFlags_ChildWindow) && window->ScrollMax.y == 0.0f)
            window = window->ParentWindow;
    }
    if (window != nullptr) {
        g_web.touch_scroll_window = window->ID;
        ImGui::SetScrollY(window, window->Scroll.y - g_web.touch_scroll_y);
    }
    g_web.touch_scroll_y = 0.0f;
}

// The page's phone-keyboard input: its text replaces the active field's text (select all, delete, type:
// the same key path as a desktop keyboard, so the field applies and checks it as typed), and its blur
// ends the edit. The page is told when a text field becomes active or stops being active, and whether it
// takes several lines (a pasted log keeps its line breaks; Enter is a new line there, not the end).
void sync_text_edit_before_frame() {
    ImGuiIO& io = ImGui::GetIO();
    ImGuiContext& g = *GImGui;
    const bool editing = g.ActiveId != 0 && g.ActiveId == g_web.text_edit_id && ImGui::GetInputTextState(g.ActiveId);
    if (g_web.text_replace_due && editing) {
        io.AddKeyEvent(ImGuiMod_Ctrl, true);
        io.AddKeyEvent(ImGuiKey_A, true);
        io.AddKeyEvent(ImGuiKey_A, false);
        io.AddKeyEvent(ImGuiMod_Ctrl, false);
        io.AddKeyEvent(ImGuiKey_Delete, true);
        io.AddKeyEvent(ImGuiKey_Delete, false);
        io.AddInputCharactersUTF8(g_web.text_replace.c_str());
    }
    g_web.text_replace_due = false;
}

void sync_text_edit_after_frame() {
    ImGuiContext& g = *GImGui;
    ImGuiInputTextState* state = g.ActiveId != 0 ? ImGui::GetInputTextState(g.ActiveId) : nullptr;
    if (g_web.text_end_id != 0 && g.InputEventsQueue.empty()) {  // after the typed text and keys are in
        const bool same_field = g.ActiveId == g_web.text_end_id;   // not a field tapped since
        g_web.text_end_id = 0;
        if (state != nullptr && same_field) {
            ImGui::ClearActiveID();
            state = nullptr;
            g_web.pacer.notify_input();
        }
    }
    const ImGuiID id = state != nullptr ? g.ActiveId : 0;
    if (id == g_web.text_edit_id) return;
    g_web.text_edit_id = id;
    const char* key = g_web.app.editing_key != nullptr ? g_web.app.editing_key : "";
    const bool lines = state != nullptr && (state->Flags & ImGuiInputTextFlags_Multiline) != 0;  // a log or config box
    js_text_edit(id != 0 ? 1 : 0, id != 0 ? state->InitialTextA.Data : "", key, lines ? 1 : 0);
}

// One ImGui frame: input and layout. It reaches the canvas when ImGui has taken every queued input event, or
// when `final` says so; otherwise it only takes input. Returns whether it reached the canvas.
bool draw_pass(bool final) {
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DeltaTime = std::clamp(io.DeltaTime, kMinFrameSeconds, kMaxFrameSeconds);
    sync_text_edit_before_frame();
    ImGui::NewFrame();
    const bool render = final || GImGui->InputEventsQueue.empty();
    apply_touch_scroll();
    g_web.items.clear();
    g_web.item_rects.clear();
    llm_memory::draw_frame(g_web.app);
    if (render) {
        ImGui::Render();
        glViewport(0, 0, g_web.width_px, g_web.height_px);
        const ImVec4 clear = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
        glClearColor(clear.x, clear.y, clear.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        g_web.pacer.frame_drawn();  // the frames owed after input are drawn ones
    } else {
        ImGui::EndFrame();
    }
    sync_text_edit_after_frame();
    return render;
}

// The page's follow-ups to the frames one animation frame drew, once, on their settled state: the cursor, the
// address and summary, the practice link, the theme, a consented look-up, the file picker, the full app.
void after_frames() {
    sync_cursor();
    if (g_web.app.scenario_changed) on_scenario_changed();  // a change in any of the passes (the flag stays set)
    if (g_web.practice_frames_pending > 0)
        g_web.practice_frames_pending = g_web.app.active_tab == llm_memory::Tab::practice ? 0 : g_web.practice_frames_pending - 1;
    sync_practice_link();
    if (g_web.app.dark_theme != g_web.last_dark_theme) {
        g_web.last_dark_theme = g_web.app.dark_theme;
        js_theme(g_web.app.dark_theme ? 1 : 0);
    }
    llm_memory_web_hub_after_frame();  // a consented Hugging Face look-up starts (web/hub_exports.cpp)
    if (g_web.app.open_file_requested) {  // the Model panel's "Open a model file..." button
        g_web.app.open_file_requested = false;
        js_open_file_picker();
    }
    if (std::exchange(g_web.app.open_full_app_requested, false)) js_open_full_app();
}

void tick() {
    if (g_web.suspended) {
        pause_loop();
        return;
    }
    sync_canvas_size();
    if (!g_web.pacer.frame_owed()) {
        pause_loop();
        return;
    }
    // ImGui spreads quick input over frames (a key's press, its character and its release; a touch tap's
    // position, press, release and leave), one or two events a frame. Typed text arrives faster than a busy
    // browser serves animation frames (2 a second in the browser stage: a typed id and its Enter took
    // 10 s to land), so one animation frame takes the whole queue, in up to kInputPasses ImGui frames, and
    // only the last is drawn to the canvas.
    int pass = 1;
    while (!draw_pass(pass == kInputPasses)) ++pass;
    after_frames();
    if (!GImGui->InputEventsQueue.empty()) g_web.pacer.request_frame();  // more than kInputPasses could take
    // The last owed frame pauses the loop now rather than at the next animation frame: a settled page asks
    // the browser for no further callback (Chromium serves an idle page's late when busy, up to 3.4 s in
    // the browser stage: bench/SUITE.md), and idle() is true as soon as that frame is drawn.
    if (!g_web.pacer.frame_owed()) pause_loop();
}

void on_event() { wake(); }

// Replaces ImGui's document-wide wheel handler (which always calls preventDefault): an embed lets the
// host page scroll until the user clicks into it.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* event, void*) {
    if (!g_web.wheel_engaged) return EM_FALSE;
    // Same scaling as ImGui_ImplEmscripten_WheelCallback (imgui_impl_glfw.cpp, ImGui issue #6096).
    float multiplier = 1.0f / 100.0f;
    if (event->deltaMode == DOM_DELTA_LINE) multiplier = 1.0f / 3.0f;
    else if (event->deltaMode == DOM_DELTA_PAGE) multiplier = 80.0f;
    ImGui::GetIO().AddMouseWheelEvent(static_cast<float>(event->deltaX) * -multiplier,
                                      static_cast<float>(event->deltaY) * -multiplier);
    wake();
    return EM_TRUE;
}

const char* clipboard_get(void*) { return g_web.clipboard_text.c_str(); }

void clipboard_set(void*, const char* text) {
    g_web.clipboard_text = text;
    js_copy_text(text);
}

// {"ok":true} or {"ok":false,"error":"..."}; `problems` lists every problem found.
std::string ok_json(const std::vector<std::string>& problems) {
    std::string error;
    for (const std::string& problem : problems) error += (error.empty() ? "" : "; ") + problem;
    llm_memory::JsonWriter w;
    w.begin_object().field("ok", problems.empty()).field_or_null("error", error);
    return w.field("problems", problems).end_object().take();
}

}  // namespace

extern "C" {

// The estimate for a URL-style state string as the CLI's JSON (or {"error": ...}). Caller must not free.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_estimate_json(const char* state) {
    static std::string out;
    const llm_memory::StateResult result = llm_memory::apply_state(llm_memory::Scenario{}, state);
    if (!result.problems.empty()) {
        out = llm_memory::json_error_object(result.problems.front());
        return out.c_str();
    }
    out = llm_memory::report_json(result.scenario, *result.estimate);
    return out.c_str();
}

// Frames drawn since start.
EMSCRIPTEN_KEEPALIVE unsigned long llm_memory_frame_count() { return g_web.pacer.frames_drawn(); }

// 1 while the main loop is paused: no frame owed, nothing drawn until the next input or wake().
EMSCRIPTEN_KEEPALIVE int llm_memory_loop_paused() { return g_web.loop_paused ? 1 : 0; }

// The current scenario as a state string ("params=70B&trainable=1B"; "" for the defaults).
EMSCRIPTEN_KEEPALIVE const char* llm_memory_get_state() {
    static std::string out;
    out = llm_memory::to_state(g_web.app.scenario);
    return out.c_str();
}

// Sets the scenario from a state string read on top of the defaults. partial = 0 (JS API, stored
// state): any problem rejects the whole string and keeps the current scenario. partial = 1 (the
// page's URL): valid keys apply, the others are reported. Returns {"ok","error","problems"} JSON.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_set_state(const char* state, int partial) {
    static std::string out;
    const llm_memory::StateResult result = llm_memory::apply_state(llm_memory::Scenario{}, state);
    // A link whose pairs do not validate together (params=7B&trainable=8B) changes nothing: apply_state
    // fell back to the defaults, and the page keeps what it shows instead of jumping to them.
    if (result.problems.empty() || (partial != 0 && !result.combination_rejected)) {
        if (llm_memory::app_take_state(g_web.app, result)) on_scenario_changed();
    }
    out = ok_json(result.problems);
    wake();
    return out.c_str();
}

// One setting changed as the canvas changes it (app_try_setting): on the current scenario, and an engine
// switch clears what the new engine does not read. {"ok","error","notice"}: notice names what was cleared.
// The text view's engine row uses it (web/api.js applyField), so both faces switch engines alike.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_set_setting(const char* key, const char* value) {
    static std::string out;
    const llm_memory::Status bad = llm_memory::app_try_setting(g_web.app, key, value);
    if (!bad) on_scenario_changed();
    llm_memory::JsonWriter w;
    w.begin_object().field("ok", !bad).field_or_null("error", bad ? bad->message() : std::string());
    out = w.field_or_null("notice", bad ? std::string() : g_web.app.engine_notice).end_object().take();
    wake();
    return out.c_str();
}

// Checks a practice answer: question key ("weight", "inference", ...), URL-style state and the
// learner's text -> core's check_answer_json ({"correct":...} or {"error":...}). window.llmMemory.checkAnswer.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_check_answer(const char* question_id, const char* state, const char* answer) {
    static std::string out;
    out = llm_memory::check_answer_json(question_id, state, answer);
    return out.c_str();
}

// Opens a practice exercise by the reference its link carries (practice=seed-7b, predict-70b or a
// number such as 42) and selects the Practice tab. Returns "" when it opened, else the problem
// ("practice: \"x\" is not an exercise ..."); the current exercise and tab then stay.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_open_practice(const char* ref) {
    static std::string out;
    const llm_memory::Expected<llm_memory::Exercise> exercise = llm_memory::find_exercise(ref);
    if (!exercise) {
        out = exercise.error();
        return out.c_str();
    }
    out.clear();
    if (g_web.app.embed_mode || !llm_memory::practice_open_exercise(g_web.app, ref)) return out.c_str();
    g_web.app.select_tab = llm_memory::Tab::practice;
    g_web.practice_frames_pending = 4;  // the tab bar shows a newly selected tab one frame later
    sync_practice_link();               // the link carries the exercise from now on
    wake();
    return out.c_str();
}

// The reference of the exercise on the Practice tab while that tab is open ("" otherwise):
// window.llmMemory.getPractice().
EMSCRIPTEN_KEEPALIVE const char* llm_memory_get_practice() {
    static std::string out;
    out = g_web.app.active_tab == llm_memory::Tab::practice && g_web.app.practice ? g_web.app.practice->exercise.ref : std::string();
    return out.c_str();
}

// Input from a DOM listener (resize, DPR change, focus): owe frames and resume the loop.
EMSCRIPTEN_KEEPALIVE void llm_memory_wake() { wake(); }

// Tab hidden or canvas scrolled off screen (0), or visible again (1).
EMSCRIPTEN_KEEPALIVE void llm_memory_set_visible(int visible) {
    g_web.suspended = visible == 0;
    if (g_web.suspended) pause_loop();
    else wake();
}

// Whether wheel events go to the app (1) or are left to the page (0).
EMSCRIPTEN_KEEPALIVE void llm_memory_set_wheel_engaged(int engaged) { g_web.wheel_engaged = engaged != 0; }

// Text of a DOM paste event: what ImGui's next Ctrl+V reads.
EMSCRIPTEN_KEEPALIVE void llm_memory_set_clipboard(const char* text) { g_web.clipboard_text = text; }

// 1 while Escape belongs to the app (a text field is being edited or a popup is open); otherwise Escape
// takes the keyboard focus out of the canvas (web/api.js), so keyboard users are never trapped.
EMSCRIPTEN_KEEPALIVE int llm_memory_keyboard_captured() {
    if (!g_web.renderer_ready) return 0;
    return ImGui::GetIO().WantTextInput || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId) ? 1 : 0;
}

// Touch input (web/api.js feeds touches through GLFW's mouse handlers): marks the events that follow as
// coming from a touch screen (1) or a mouse (0), so ImGui gives a tap its hover frame before the press.
EMSCRIPTEN_KEEPALIVE void llm_memory_touch_source(int touch) {
    if (!g_web.renderer_ready) return;
    ImGui::GetIO().AddMouseSourceEvent(touch != 0 ? ImGuiMouseSource_TouchScreen : ImGuiMouseSource_Mouse);
}

// A vertical swipe moved by dy CSS px (start = 1 on the swipe's first move: pick the window under the finger).
EMSCRIPTEN_KEEPALIVE void llm_memory_touch_scroll(float dy, int start) {
    if (start != 0) g_web.touch_scroll_window = 0;
    g_web.touch_scroll_y += dy * g_web.dpr;
    wake();
}

// Touch-sized hit areas on (1, a coarse pointer) or off (0, the mouse layout).
EMSCRIPTEN_KEEPALIVE void llm_memory_set_touch_layout(int touch) { set_theme_input(g_web.app.touch_layout, touch); }

// Draws a frame now, which takes every queued input event (tick): a touch handler needs what the finger
// hovers before it returns.
EMSCRIPTEN_KEEPALIVE void llm_memory_frame_now() {
    if (!g_web.renderer_ready || g_web.suspended) return;
    g_web.pacer.notify_input();
    tick();
}

// The text field the last frame's pointer hovers (its cursor is the text beam): its settings key, "*" for
// a field that is not a setting, "" for none.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hovered_text() {
    if (!g_web.renderer_ready || g_web.last_cursor != ImGuiMouseCursor_TextInput) return "";
    return g_web.app.hovered_key != nullptr ? g_web.app.hovered_key : "*";
}

// The phone keyboard's input: its whole text changed (0), it lost focus (1), Enter (2) or Escape (3).
EMSCRIPTEN_KEEPALIVE void llm_memory_text_input(const char* text, int what) {
    if (what == 0) {
        g_web.text_replace = text;
        g_web.text_replace_due = true;
    } else if (what == 1) {
        g_web.text_end_id = g_web.text_edit_id;
    } else if (g_web.renderer_ready) {
        const ImGuiKey key = what == 2 ? ImGuiKey_Enter : ImGuiKey_Escape;
        ImGui::GetIO().AddKeyEvent(key, true);
        ImGui::GetIO().AddKeyEvent(key, false);
    }
    wake();
}

// Test hooks: whether a tooltip showed in the last frame; whether ImGui has a mouse position (no hover
// left after a finger lifts); the rects of the last frame's items labelled `label` (the whole label, or its
// text before "##") as "x,y,w,h;..." in CSS px ("" when none; the first call switches ImGui's item hooks
// on and owes frames; "*" lists every label).
EMSCRIPTEN_KEEPALIVE int llm_memory_tooltip_shown() {
    ImGuiWindow* window = g_web.renderer_ready ? ImGui::FindWindowByName("##Tooltip_00") : nullptr;
    return window != nullptr && window->Active ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE int llm_memory_mouse_valid() { return g_web.renderer_ready && ImGui::IsMousePosValid() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE const char* llm_memory_item_rect(const char* label) {
    static std::string out;
    out.clear();
    if (!g_web.renderer_ready) return out.c_str();
    if (!GImGui->TestEngineHookItems) {
        GImGui->TestEngineHookItems = true;
        wake();
    }
    const bool all = std::strcmp(label, "*") == 0;
    for (const WebApp::Item& item : g_web.items) {
        const std::size_t hashes = item.label.find("##");
        const bool match = item.label == label || (hashes != 0 && item.label.compare(0, hashes, label) == 0 &&
                                                   std::strlen(label) == std::min(hashes, item.label.size()));
        if (all) out += item.label + ";";
        if (all || !match) continue;
        for (const auto& [id, rect] : g_web.item_rects) {
            if (id != item.id) continue;
            const float s = g_web.dpr;
            out += std::to_string(rect.Min.x / s) + "," + std::to_string(rect.Min.y / s) + "," +
                   std::to_string(rect.GetWidth() / s) + "," + std::to_string(rect.GetHeight() / s) + ";";
            break;
        }
    }
    return out.c_str();
}

// Test hook (harness.mjs idleReport, a timeout's message): paused, suspended, owed, queued, active, nav (one a line): the
// loop's state, whether a frame is owed, ImGui's queued input events, and its active and nav-focused items
// (their labels when the item hook records them, else their ids; 0 for none).
EMSCRIPTEN_KEEPALIVE const char* llm_memory_idle_report() {
    static std::string out;
    out.clear();
    if (!g_web.renderer_ready) return out.c_str();
    const ImGuiContext& g = *GImGui;
    char text[64];
    std::snprintf(text, sizeof text, "%d\n%d\n%d\n%d", g_web.loop_paused, g_web.suspended, g_web.pacer.frame_owed(),
                  g.InputEventsQueue.Size);
    out = text;
    for (const ImGuiID id : {g.ActiveId, g.NavId}) {
        std::snprintf(text, sizeof text, "\n%u", id);
        std::string name = text;
        for (const WebApp::Item& item : g_web.items)
            if (item.id == id && id != 0) name = "\n" + item.label;
        out += name;
    }
    return out.c_str();
}

// The page's text view, all from core: {"settings": the settings table as a form (settings_form_json),
// "report": report_view_json, "model": the Model panel's notice (a model file's report, or the problem
// with it) and "model_error", "fit": the What fits panel's answers, one line each (fit_view_lines),
// "steps": [{"title", "steps": [text x 3]}], "engine_command": the command that realises the scenario
// ("" without an engine, and on the lean page), "practice": {"ref", "title", "setup", "question", "feedback",
// "correct"} (absent in an embed)}. The figures come from window.llmMemory.estimate().
EMSCRIPTEN_KEEPALIVE const char* llm_memory_view_json() {
    static std::string out;
    llm_memory::AppState& app = g_web.app;
    bool model_error = false;
    const std::string model_message = llm_memory::model_panel_message(app, &model_error);
    llm_memory::JsonWriter w;
    w.begin_object().raw_field("settings", llm_memory::settings_form_json(app.scenario, app.estimate));
    w.raw_field("report", llm_memory::report_view_json(app.scenario, app.estimate)).field("model", model_message);
    w.field("model_error", model_error).field("fit", llm_memory::fit_view_lines(llm_memory::fit_reports(app))).key("steps").begin_array();
    for (const llm_memory::Derivation& d : llm_memory::worked_steps(app.scenario, app.estimate)) {
        w.begin_object().field("title", d.title).key("steps").begin_array();
        for (const auto& step : d.steps) w.value(std::string(step.label) + ": " + step.text);
        w.end_array().end_object();
    }
    w.end_array().field("engine_command", llm_memory::scenario_engine_command(app.scenario));
    if (!app.embed_mode) {
        const llm_memory::PracticeView& view = llm_memory::practice_view(app);
        std::string question;
        if (!view.exercise.questions.empty()) {
            question = "Question " + std::to_string(view.current + 1) + " of " + std::to_string(view.exercise.questions.size()) +
                       ": " + view.exercise.questions[view.current].prompt;
        }
        std::string feedback;
        bool correct = false;
        if (!view.last_error.empty()) feedback = "Could not read that answer: " + view.last_error;
        else if (view.last_result) {
            correct = view.last_result->correct;
            feedback = std::string(correct ? "" : "Not quite. ") + view.last_result->explanation;
        }
        w.key("practice").begin_object().field("ref", view.exercise.ref).field("title", view.exercise.title);
        w.field("setup", view.exercise.setup).field("question", question).field("feedback", feedback).field("correct", correct);
        w.end_object();
    }
    out = w.end_object().take();
    return out.c_str();
}

// Whether this build carries the engine models: 1 in the full build, 0 on the lean page (web/lean.cpp).
EMSCRIPTEN_KEEPALIVE int llm_memory_engines_in_build() { return llm_memory::engines_in_build() ? 1 : 0; }

// The text view's "Use this command": an engine command's settings and model become the scenario, as the
// app's Engine command and log section does. {"ok", "message", "notes": [...]}. window.llmMemory.fromCommand.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_from_command(const char* command) {
    static std::string out;
    const llm_memory::EngineCommandResult r = llm_memory::apply_engine_command(g_web.app, command);
    if (r.ok) on_scenario_changed();
    out = llm_memory::JsonWriter().begin_object().field("ok", r.ok).field("message", r.message).field("notes", r.notes).end_object().take();
    wake();
    return out.c_str();
}

// The text view's "Reconcile": a pasted log against the scenario it states on top of the page's, read in
// the page (nothing is sent). reconcile_json's object (core/engines/engine_log.hpp), or {"error"}.
// window.llmMemory.reconcile.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_reconcile(const char* log) {
    static std::string out;
    const llm_memory::Expected<llm_memory::ReconcileOutcome> r = llm_memory::reconcile_log_text(g_web.app.scenario, log);
    out = r ? r->json : llm_memory::json_error_object(r.error());
    return out.c_str();
}

// A link's paste=command|log: the "Engine command and log" section opens and scrolls into view.
EMSCRIPTEN_KEEPALIVE void llm_memory_reveal_engine_io() {
    g_web.app.reveal_engine_io = true;
    wake();
}

// The text view's Practice answer: checked as the Practice tab's Check button does.
EMSCRIPTEN_KEEPALIVE void llm_memory_practice_answer(const char* answer) {
    if (g_web.app.embed_mode) return;
    llm_memory::practice_submit_answer(g_web.app, answer);
    wake();
}

// Theme from prefers-color-scheme (1 dark, 0 light).
EMSCRIPTEN_KEEPALIVE void llm_memory_set_dark_theme(int dark) { set_theme_input(g_web.app.dark_theme, dark); }

}  // extern "C"

// ImGui's test-engine item hooks (IMGUI_ENABLE_TEST_ENGINE; called only while a test switched them on):
// record each item's label and rect for llm_memory_item_rect. Not in a hidden window: a popup's first frame
// (a combo's list) is laid out hidden, at the mouse, before ImGui moves it under its combo; a rect read then is
// not where the item shows, and a click sent then meets a window ImGui does not yet hover (engine_io.test.mjs
// lost such a click in a soak).
void ImGuiTestEngineHook_ItemAdd(ImGuiContext* ctx, ImGuiID id, const ImRect& bb, const ImGuiLastItemData*) {
    if (ctx->CurrentWindow != nullptr && ctx->CurrentWindow->Hidden) return;
    if (g_web.item_rects.size() < 4000 && bb.GetWidth() > 0.0f) g_web.item_rects.emplace_back(id, bb);
}
void ImGuiTestEngineHook_ItemInfo(ImGuiContext*, ImGuiID id, const char* label, ImGuiItemStatusFlags) {
    if (label == nullptr || g_web.items.size() >= 4000) return;
    g_web.items.push_back({id, label});
}
void ImGuiTestEngineHook_Log(ImGuiContext*, const char*, ...) {}
const char* ImGuiTestEngine_FindItemDebugLabel(ImGuiContext*, ImGuiID) { return nullptr; }

int main() {
    const bool embed = js_embed_mode() != 0;
    g_web.app.embed_mode = embed;
    g_web.wheel_engaged = !embed;
    g_web.app.dark_theme = js_prefers_dark() != 0;
    g_web.last_dark_theme = g_web.app.dark_theme;
    g_web.app.touch_layout = js_touch_screen() != 0;
    g_web.app.file_picker = true;  // "Open a model file..." opens the page's <input type=file> (web/api.js)
    llm_memory::app_set_scenario(g_web.app, llm_memory::Scenario{});

    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    // ImGui draws 2D triangles over an opaque clear: no depth or stencil buffer (WebGL clears both after
    // every frame it shows) and no alpha channel (the browser composites the canvas as opaque).
    glfwWindowHint(GLFW_DEPTH_BITS, 0);
    glfwWindowHint(GLFW_STENCIL_BITS, 0);
    glfwWindowHint(GLFW_ALPHA_BITS, 0);
    g_web.window = glfwCreateWindow(800, 600, "LLM Memory Estimator", nullptr, nullptr);
    if (g_web.window == nullptr) {
        // No WebGL 2: the page shows the figures as HTML; the JS API keeps working.
        js_start(0);
        on_scenario_changed();
        return 0;
    }
    glfwMakeContextCurrent(g_web.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    io.ConfigFlags |= ImGuiConfigFlags_NoMouseCursorChange;  // sync_cursor() sets the CSS cursor instead
    io.ConfigInputTextCursorBlink = false;                   // a blinking caret would need 60 frames/s

    glfwSetCursorPosCallback(g_web.window, [](GLFWwindow*, double, double) { on_event(); });
    glfwSetMouseButtonCallback(g_web.window, [](GLFWwindow*, int, int, int) { on_event(); });
    glfwSetKeyCallback(g_web.window, [](GLFWwindow*, int, int, int, int) { on_event(); });
    glfwSetCharCallback(g_web.window, [](GLFWwindow*, unsigned int) { on_event(); });
    glfwSetCursorEnterCallback(g_web.window, [](GLFWwindow*, int) { on_event(); });
    ImGui_ImplGlfw_InitForOpenGL(g_web.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    g_web.renderer_ready = true;
    // GLFW's own wheel listener calls preventDefault whenever a scroll callback is set, and ImGui's
    // backend takes every wheel event of the document: replace both with on_wheel on the canvas.
    glfwSetScrollCallback(g_web.window, nullptr);
    emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, false, nullptr);
    emscripten_set_wheel_callback("#canvas", nullptr, false, on_wheel);
    // This GLFW's clipboard functions are stubs: keep the text here and mirror it to the system
    // clipboard from JS (navigator.clipboard; paste arrives as a DOM paste event).
    io.SetClipboardTextFn = clipboard_set;
    io.GetClipboardTextFn = clipboard_get;
    io.ClipboardUserData = nullptr;

    sync_canvas_size();
    js_start(1);  // applies the URL or stored state, resolves `ready`
    on_scenario_changed();                          // summary and canonical URL even for the defaults
    emscripten_set_main_loop(tick, 0, true);
    return 0;
}
