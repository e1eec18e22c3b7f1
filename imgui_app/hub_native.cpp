// NativeHub: one worker thread per look-up (joined before the next), its result handed to the UI thread
// under a mutex; glfwPostEmptyEvent wakes the event loop when it ends.
#include "hub_native.hpp"

#include <GLFW/glfw3.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>

#include "hub_http.hpp"
#include "hub_panel.hpp"

namespace llm_memory {
namespace {

bool read_consent(const std::string& path) {
    if (path.empty()) return false;
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return false;
    char text[4] = {0, 0, 0, 0};
    const std::size_t n = std::fread(text, 1, 3, file);
    std::fclose(file);
    return n == 3 && std::string(text) == "yes";
}

void write_consent(const std::string& path, bool consented) {
    if (path.empty()) return;
    if (!consented) {
        std::remove(path.c_str());
        return;
    }
    make_parent_folders(path);
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) return;
    std::fputs("yes\n", file);
    std::fclose(file);
}

std::string endpoint_host(const std::string& endpoint) {
    std::string host = endpoint;
    const std::size_t scheme = host.find("://");
    if (scheme != std::string::npos) host.erase(0, scheme + 3);
    return host.substr(0, host.find('/'));
}

}  // namespace

void make_parent_folders(const std::string& path) {
    const std::size_t slash = path.find_last_of('/');
    if (slash != std::string::npos && slash > 0) {
        const std::string dir = path.substr(0, slash);
        const std::size_t parent = dir.find_last_of('/');
        if (parent != std::string::npos && parent > 0) mkdir(dir.substr(0, parent).c_str(), 0700);
        mkdir(dir.c_str(), 0700);
    }
}

std::string config_file_path(const char* name) {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    if (xdg != nullptr && xdg[0] == '/') return std::string(xdg) + "/llm-memory/" + name;
    if (home != nullptr && home[0] != '\0') return std::string(home) + "/.config/llm-memory/" + name;
    return {};
}

std::string default_hub_consent_path() { return config_file_path("hf-consent"); }

NativeHub::NativeHub(AppState& app, std::string consent_path) : consent_path_(std::move(consent_path)) {
    hub_set_driver(app, read_consent(consent_path_), endpoint_host(hub_environment().endpoint), false);
}

NativeHub::~NativeHub() {
    if (worker_.joinable()) worker_.join();
}

bool NativeHub::after_frame(AppState& app) {
    bool consented = false;
    if (hub_take_consent_change(app, consented)) write_consent(consent_path_, consented);
    bool changed = false;
    if (finished_.load()) {
        if (worker_.joinable()) worker_.join();
        std::unique_ptr<Expected<HubResult>> result;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            result.swap(result_);
        }
        finished_ = false;
        busy_ = false;
        if (result) changed = hub_lookup_finished(app, *result);
    }
    HubRef ref;
    if (!busy_ && hub_take_request(app, ref)) {
        busy_ = true;
        worker_ = std::thread([this, ref]() {
            auto result = std::make_unique<Expected<HubResult>>(run_hub_lookup(ref, hub_environment(), HubClient::cli));
            {
                std::lock_guard<std::mutex> lock(mutex_);
                result_ = std::move(result);
            }
            finished_ = true;
            glfwPostEmptyEvent();
        });
    }
    return changed;
}

}  // namespace llm_memory
