// The desktop app's Hugging Face look-ups: the CLI's transport (cli/hub_http: libcurl, the XDG cache,
// HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE) on a worker thread, started only for a ref the panel hands over
// after the user's yes. The consent is remembered in a file ("yes" in $XDG_CONFIG_HOME/llm-memory/hf-consent).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "app.hpp"
#include "hub.hpp"

namespace llm_memory {

class NativeHub {
public:
    // consent_path: where the choice is kept ("" keeps it for this run only).
    NativeHub(AppState& app, std::string consent_path);
    ~NativeHub();
    NativeHub(const NativeHub&) = delete;
    NativeHub& operator=(const NativeHub&) = delete;
    // After each frame: starts a consented look-up, stores a changed consent, applies a finished look-up.
    // Returns true when the scenario changed.
    bool after_frame(AppState& app);
    // A look-up has ended and waits for after_frame (the loop owes a frame).
    bool finished() const { return finished_.load(); }
    bool busy() const { return busy_; }

private:
    std::string consent_path_;
    std::thread worker_;
    std::atomic<bool> finished_{false};
    bool busy_ = false;
    std::mutex mutex_;
    std::unique_ptr<Expected<HubResult>> result_;
};

// "$XDG_CONFIG_HOME/llm-memory/NAME", else "~/.config/llm-memory/NAME"; "" without either.
std::string config_file_path(const char* name);
// config_file_path("hf-consent").
std::string default_hub_consent_path();

// Creates the folder `path` is in, and that folder's parent (mode 0700; XDG's config and cache folders): for the
// consent file here and the desktop app's state file. Errors are left to the fopen that follows.
void make_parent_folders(const std::string& path);

}  // namespace llm_memory
