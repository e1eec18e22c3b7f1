// The benchmark's reference page: the smallest Dear ImGui + GLFW + WebGL2 app (one window, a few widgets).
// bench/run builds it with the release page's own compile and link flags, so the ratio of first-frame
// times measures what llm-memory adds on top of the ImGui floor. Draws every frame, like ImGui's examples.
#include <GLFW/glfw3.h>
#include <emscripten.h>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

namespace {

GLFWwindow* g_window = nullptr;
unsigned long g_frames_drawn = 0;
int g_counter = 0;

void tick() {
    int width_px = 0;
    int height_px = 0;
    glfwGetFramebufferSize(g_window, &width_px, &height_px);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::Begin("Hello");
    ImGui::TextUnformatted("Hello, ImGui");
    if (ImGui::Button("Count")) ++g_counter;
    ImGui::SameLine();
    ImGui::Text("%d", g_counter);
    ImGui::End();
    ImGui::Render();
    glViewport(0, 0, width_px, height_px);
    glClearColor(0.1f, 0.11f, 0.13f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++g_frames_drawn;
}

}  // namespace

// Same hook name as the real page, so bench/browser_bench.mjs measures both the same way.
extern "C" EMSCRIPTEN_KEEPALIVE unsigned long llm_memory_frame_count() { return g_frames_drawn; }

int main() {
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
    g_window = glfwCreateWindow(1280, 800, "hello", nullptr, nullptr);
    if (g_window == nullptr) return 1;
    glfwMakeContextCurrent(g_window);
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::StyleColorsDark();
    ImGui_ImplGlfw_InitForOpenGL(g_window, true);
    ImGui_ImplOpenGL3_Init("#version 300 es");
    emscripten_set_main_loop(tick, 0, true);
    return 0;
}
