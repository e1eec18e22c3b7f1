// The desktop driver: GLFW window + OpenGL 3, calling draw_frame() only when the pacer owes a frame.
// When idle the loop blocks in glfwWaitEvents, so the app uses about 0% CPU.
// Flags: --frames N draws N frames and exits (smoke tests); --screenshot FILE.ppm saves the last frame;
// --state-file F keeps the last scenario in F (default $XDG_CONFIG_HOME/llm-memory/state; none with --frames);
// --open FILE reads a model file or config.json at start, as if it were dropped on the window (repeat it: a model
// and its mmproj projector file, in that order);
// --print-report prints the final scenario's estimate as the CLI's JSON (core's report_json) on exit (tests);
// --look-up ID asks for a Hugging Face look-up at start (the consent prompt unless a yes is remembered in
// --hf-consent-file F, default $XDG_CONFIG_HOME/llm-memory/hf-consent; none with --frames, which then
// waits for the look-up to end before it exits).
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "app.hpp"
#include "frame_pacer.hpp"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "settings.hpp"
#include "hub_native.hpp"
#include "hub_panel.hpp"
#include "model_panel.hpp"
#include "report.hpp"

namespace {

llm_memory::FramePacer* g_pacer = nullptr;

void on_any_event() {
    if (g_pacer != nullptr) g_pacer->notify_input();
}

// A model file or a config.json for the Model panel, from a drop, the panel's path field or --open:
// a GGUF or safetensors file (by name or by its GGUF magic) is read header only, 1 MiB at a time,
// through core's ModelFileReader; anything else is read (up to 8 MiB) as a config.json.
void read_for_model_panel(llm_memory::AppState& app, const char* path) {
    std::string name = path;
    if (const std::size_t slash = name.find_last_of('/'); slash != std::string::npos) name = name.substr(slash + 1);
    auto ends_with = [&](const std::string& suffix) {
        return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    const bool model_file = ends_with(".gguf") || ends_with(".safetensors") || ends_with(".safetensors.index.json");
    FILE* probe = std::fopen(path, "rb");
    if (probe == nullptr) {
        llm_memory::queue_model_file(app, llm_memory::Error{"cannot open the file"}, name);
        return;
    }
    char magic[4] = {0, 0, 0, 0};
    const bool gguf = std::fread(magic, 1, 4, probe) == 4 && std::memcmp(magic, "GGUF", 4) == 0;
    if (model_file || gguf) {
        std::fseek(probe, 0, SEEK_END);
        const long size = std::ftell(probe);
        std::fseek(probe, 0, SEEK_SET);
        llm_memory::ModelFileReader reader(size > 0 ? static_cast<std::uint64_t>(size) : 0, name);
        std::string chunk(1 << 20, '\0');
        llm_memory::Expected<bool> fed = false;
        std::size_t n = 0;
        while (fed && !*fed && (n = std::fread(&chunk[0], 1, chunk.size(), probe)) > 0) fed = reader.feed(std::string_view(chunk.data(), n));
        std::fclose(probe);
        if (!fed) llm_memory::queue_model_file(app, llm_memory::Error{fed.error()}, name);
        else llm_memory::queue_model_file(app, reader.finish(), name);
        return;
    }
    std::fseek(probe, 0, SEEK_SET);
    std::string text;
    char chunk[4096];
    std::size_t n = 0;
    while ((n = std::fread(chunk, 1, sizeof chunk, probe)) > 0 && text.size() <= (8u << 20)) text.append(chunk, n);
    std::fclose(probe);
    llm_memory::queue_model_config(app, text, name);
}

// Files dropped on the window go to the Model panel in the order given (a model and its mmproj projector file
// dropped together are both read; the panel applies them in that order on the next frame).
void on_drop(GLFWwindow* window, int count, const char** paths) {
    auto* app = static_cast<llm_memory::AppState*>(glfwGetWindowUserPointer(window));
    if (app == nullptr || paths == nullptr) return;
    for (int i = 0; i < count; ++i)
        if (paths[i] != nullptr) read_for_model_panel(*app, paths[i]);
    on_any_event();
}

// The last scenario as a state string (core's to_state) in $XDG_CONFIG_HOME/llm-memory/state, else
// ~/.config/llm-memory/state; "" when neither variable is set.
std::string default_state_path() { return llm_memory::config_file_path("state"); }

// Restores the saved scenario; a corrupt file is ignored with a notice on stderr (the defaults stay).
void load_state_file(llm_memory::AppState& app, const std::string& path) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return;
    char buffer[4096];
    const std::size_t n = std::fread(buffer, 1, sizeof buffer, file);
    std::fclose(file);
    std::string text(buffer, n);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (text.empty()) return;
    llm_memory::StateResult result = llm_memory::apply_state(llm_memory::Scenario{}, text);
    // A state naming a file it cannot carry (a projector or drafter file read this run): the rest is restored
    // without that key, and the notice says which file to open again, rather than the whole scenario dropped.
    std::string without_files;
    std::vector<std::string> dropped;
    for (std::size_t start = 0; start <= text.size();) {
        const std::size_t end = std::min(text.find('&', start), text.size());
        const std::string pair = text.substr(start, end - start);
        const std::string key = pair.substr(0, pair.find('='));
        bool file_named = false;
        for (const std::string& problem : result.problems)
            file_named = file_named || (problem.rfind(key + ": ", 0) == 0 && problem.find(" file is not carried by a link or a saved state") != std::string::npos);
        if (file_named) dropped.push_back(key);
        else without_files += (without_files.empty() ? "" : "&") + pair;
        start = end + 1;
    }
    if (!dropped.empty() && dropped.size() == result.problems.size()) {
        result = llm_memory::apply_state(llm_memory::Scenario{}, without_files);
        if (result.problems.empty()) {
            std::string keys;
            for (const std::string& k : dropped) keys += (keys.empty() ? "" : ", ") + k;
            std::fprintf(stderr, "llm-memory-gui: restored the saved scenario in %s without %s: the state names a file it cannot carry; "
                                 "open the file again\n", path.c_str(), keys.c_str());
        }
    }
    if (n == sizeof buffer || !result.problems.empty() || !llm_memory::app_take_state(app, result)) {
        std::fprintf(stderr, "llm-memory-gui: ignored the saved scenario in %s (%s)\n", path.c_str(),
                     n == sizeof buffer ? "too long" : result.problems.empty() ? "invalid" : result.problems.front().c_str());
    }
}

// Saves the scenario (creating the folder; written to a temporary file, then renamed).
void save_state_file(const llm_memory::Scenario& scenario, const std::string& path) {
    llm_memory::make_parent_folders(path);
    const std::string temporary = path + ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (file == nullptr) return;
    const std::string text = llm_memory::to_state(scenario) + "\n";
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    if (std::fclose(file) == 0 && written) std::rename(temporary.c_str(), path.c_str());
}

// Writes the current framebuffer as a binary PPM (read by the smoke test and converted to PNG).
bool save_ppm(const char* path, int width, int height) {
    std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, pixels.data());
    std::FILE* file = std::fopen(path, "wb");
    if (file == nullptr) return false;
    std::fprintf(file, "P6\n%d %d\n255\n", width, height);
    const std::size_t row = static_cast<std::size_t>(width) * 3;
    for (int y = height - 1; y >= 0; --y) std::fwrite(&pixels[static_cast<std::size_t>(y) * row], 1, row, file);
    std::fclose(file);
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    long max_frames = -1;
    const char* screenshot_path = nullptr;
    int window_width = 1280;
    int window_height = 800;
    const char* state_path_arg = nullptr;
    std::vector<const char*> open_paths;
    bool print_report = false;
    const char* look_up = nullptr;
    const char* consent_path_arg = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc) max_frames = std::strtol(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) screenshot_path = argv[++i];
        else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc) std::sscanf(argv[++i], "%dx%d", &window_width, &window_height);
        else if (std::strcmp(argv[i], "--state-file") == 0 && i + 1 < argc) state_path_arg = argv[++i];
        else if (std::strcmp(argv[i], "--open") == 0 && i + 1 < argc) open_paths.push_back(argv[++i]);
        else if (std::strcmp(argv[i], "--print-report") == 0) print_report = true;
        else if (std::strcmp(argv[i], "--look-up") == 0 && i + 1 < argc) look_up = argv[++i];
        else if (std::strcmp(argv[i], "--hf-consent-file") == 0 && i + 1 < argc) consent_path_arg = argv[++i];
    }
    // Test runs (--frames) neither read nor write the user's settings unless given a file.
    const std::string state_path = state_path_arg != nullptr ? state_path_arg : max_frames < 0 ? default_state_path() : "";

    glfwSetErrorCallback([](int code, const char* text) { std::fprintf(stderr, "GLFW error %d: %s\n", code, text); });
    if (!glfwInit()) return 1;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    // The X11 class the installed .desktop entry names (StartupWMClass), so docks show its icon.
    glfwWindowHintString(GLFW_X11_CLASS_NAME, "llm-memory");
    glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "llm-memory");
    GLFWwindow* window = glfwCreateWindow(window_width, window_height, "LLM Memory Estimator", nullptr, nullptr);
    if (window == nullptr) {
        glfwTerminate();
        return 1;
    }
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);

    float scale_x = 1.0f;
    float scale_y = 1.0f;
    glfwGetWindowContentScale(window, &scale_x, &scale_y);

    IMGUI_CHECKVERSION();
    ImGui::CreateContext();
    ImGui::GetIO().IniFilename = nullptr;
    ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;

    llm_memory::AppState app;
    app.ui_scale = scale_x;
    app.file_path_field = true;  // the Model panel's path field: read_for_model_panel after the frame
    llm_memory::app_set_scenario(app, llm_memory::Scenario{});
    if (!state_path.empty()) load_state_file(app, state_path);
    llm_memory::app_setup_style(app, 17.0f * scale_x);

    // Our callbacks go in first; ImGui's backend chains to them, so every event owes frames.
    llm_memory::FramePacer pacer;
    g_pacer = &pacer;
    glfwSetCursorPosCallback(window, [](GLFWwindow*, double, double) { on_any_event(); });
    glfwSetMouseButtonCallback(window, [](GLFWwindow*, int, int, int) { on_any_event(); });
    glfwSetScrollCallback(window, [](GLFWwindow*, double, double) { on_any_event(); });
    glfwSetKeyCallback(window, [](GLFWwindow*, int, int, int, int) { on_any_event(); });
    glfwSetCharCallback(window, [](GLFWwindow*, unsigned int) { on_any_event(); });
    glfwSetWindowFocusCallback(window, [](GLFWwindow*, int) { on_any_event(); });
    glfwSetCursorEnterCallback(window, [](GLFWwindow*, int) { on_any_event(); });
    glfwSetWindowSizeCallback(window, [](GLFWwindow*, int, int) { on_any_event(); });
    glfwSetWindowRefreshCallback(window, [](GLFWwindow*) { on_any_event(); });
    glfwSetWindowUserPointer(window, &app);
    glfwSetDropCallback(window, on_drop);
    for (const char* path : open_paths) read_for_model_panel(app, path);
    llm_memory::NativeHub hub(app, consent_path_arg != nullptr ? consent_path_arg : max_frames < 0 ? llm_memory::default_hub_consent_path() : "");
    if (look_up != nullptr) llm_memory::hub_ask(app, look_up, false);
    ImGui_ImplGlfw_InitForOpenGL(window, true);
    ImGui_ImplOpenGL3_Init("#version 330");

    while (!glfwWindowShouldClose(window)) {
        if (max_frames < 0 && !pacer.frame_owed() && !hub.finished()) {
            glfwWaitEvents();  // blocks until an event; its callback owes frames
            continue;
        }
        glfwPollEvents();
        ImGui_ImplOpenGL3_NewFrame();
        ImGui_ImplGlfw_NewFrame();
        ImGui::NewFrame();
        llm_memory::draw_frame(app);
        if (!app.open_file_path.empty()) {  // the Model panel's path field
            read_for_model_panel(app, app.open_file_path.c_str());
            app.open_file_path.clear();
            pacer.notify_input();
        }
        const bool hub_ended = hub.finished();  // a Hugging Face look-up ended (hub_native.hpp): show it
        if (hub.after_frame(app)) app.scenario_changed = true;
        if (hub_ended) pacer.notify_input();
        if (std::exchange(app.scenario_changed, false) && !state_path.empty()) save_state_file(app.scenario, state_path);
        ImGui::Render();
        int fb_width = 0;
        int fb_height = 0;
        glfwGetFramebufferSize(window, &fb_width, &fb_height);
        glViewport(0, 0, fb_width, fb_height);
        const ImVec4 clear = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
        glClearColor(clear.x, clear.y, clear.z, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
        pacer.frame_drawn();
        if (max_frames >= 0 && static_cast<long>(pacer.frames_drawn()) >= max_frames && !hub.busy()) {
            if (screenshot_path != nullptr && !save_ppm(screenshot_path, fb_width, fb_height)) return 3;
            break;
        }
        glfwSwapBuffers(window);
    }

    if (print_report) std::printf("%s\n", llm_memory::report_json(app.scenario, app.estimate).c_str());
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
    glfwDestroyWindow(window);
    glfwTerminate();
    return 0;
}
