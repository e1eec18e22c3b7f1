// The web driver: Emscripten main loop over the same draw_frame() as the desktop app.
// Sizes the GLFW window to the canvas's CSS box x devicePixelRatio, and mirrors the results into
// the page's #results-summary element for screen readers and tests.
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cmath>
#include <string>

#include "app.hpp"
#include "frame_pacer.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "report.hpp"
#include "settings.hpp"

namespace {

struct WebApp {
    GLFWwindow* window = nullptr;
    llm_memory::AppState app;
    llm_memory::FramePacer pacer;
    int width_px = 0;
    int height_px = 0;
    float dpr = 0.0f;
};

WebApp g_web;

void publish_summary() {
    const std::string summary = llm_memory::report_summary(g_web.app.estimate);
    EM_ASM({
        var el = document.getElementById('results-summary');
        if (el) el.textContent = UTF8ToString($0);
    }, summary.c_str());
}

// Matches the GLFW window (= canvas backbuffer) to the CSS box x devicePixelRatio; rebuilds fonts on
// a DPR change so text stays crisp.
void sync_canvas_size() {
    double css_width = 0;
    double css_height = 0;
    emscripten_get_element_css_size("#canvas", &css_width, &css_height);
    const auto dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
    const int width_px = static_cast<int>(std::lround(css_width * dpr));
    int height_px = static_cast<int>(std::lround(css_height * dpr));
    // Emscripten's GLFW turns a window size equal to the screen size into a fullscreen request
    // (rejected without a user gesture, logged as an error): stay one pixel short of it.
    const int screen_width = EM_ASM_INT({ return screen.width; });
    const int screen_height = EM_ASM_INT({ return screen.height; });
    if (width_px == screen_width && height_px == screen_height) height_px -= 1;
    if (dpr != g_web.dpr) {
        g_web.dpr = dpr;
        g_web.app.ui_scale = dpr;
        llm_memory::app_setup_style(g_web.app, 17.0f * dpr);
        ImGui_ImplOpenGL3_DestroyFontsTexture();
        g_web.pacer.notify_input();
    }
    if (width_px != g_web.width_px || height_px != g_web.height_px) {
        g_web.width_px = width_px;
        g_web.height_px = height_px;
        glfwSetWindowSize(g_web.window, width_px, height_px);
        g_web.pacer.notify_input();
    }
}

void tick() {
    sync_canvas_size();
    if (!g_web.pacer.frame_owed()) return;
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    llm_memory::draw_frame(g_web.app);
    ImGui::Render();
    glViewport(0, 0, g_web.width_px, g_web.height_px);
    const ImVec4 clear = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    glClearColor(clear.x, clear.y, clear.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    g_web.pacer.frame_drawn();
    if (g_web.app.scenario_changed) publish_summary();
}

void on_event() { g_web.pacer.notify_input(); }

}  // namespace

extern "C" {

// The estimate for a URL-style state string as the CLI's JSON (or {"error": ...}). Caller must not free.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_estimate_json(const char* state) {
    static std::string out;
    const llm_memory::StateResult result = llm_memory::apply_state(llm_memory::Scenario{}, state);
    if (!result.problems.empty()) {
        out = "{\"error\":\"" + llm_memory::json_escape(result.problems.front()) + "\"}";
        return out.c_str();
    }
    out = llm_memory::report_json(result.scenario, *llm_memory::estimate(result.scenario));
    return out.c_str();
}

// Frames drawn since start.
EMSCRIPTEN_KEEPALIVE unsigned long llm_memory_frame_count() { return g_web.pacer.frames_drawn(); }

}  // extern "C"

int main() {
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_web.window = glfwCreateWindow(800, 600, "LLM Memory Estimator", nullptr, nullptr);
    if (g_web.window == nullptr) {
        EM_ASM({ if (Module['onNoWebGL']) Module['onNoWebGL'](); });
        return 1;
    }
    glfwMakeContextCurrent(g_web.window);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
    llm_memory::app_set_scenario(g_web.app, llm_memory::Scenario{});

    glfwSetCursorPosCallback(g_web.window, [](GLFWwindow*, double, double) { on_event(); });
    glfwSetMouseButtonCallback(g_web.window, [](GLFWwindow*, int, int, int) { on_event(); });
    glfwSetScrollCallback(g_web.window, [](GLFWwindow*, double, double) { on_event(); });
    glfwSetKeyCallback(g_web.window, [](GLFWwindow*, int, int, int, int) { on_event(); });
    glfwSetCharCallback(g_web.window, [](GLFWwindow*, unsigned int) { on_event(); });
    ImGui_ImplGlfw_InitForOpenGL(g_web.window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");

    sync_canvas_size();
    publish_summary();
    emscripten_set_main_loop(tick, 0, true);
    return 0;
}
