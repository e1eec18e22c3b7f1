// The Hugging Face transport of the CLI and the desktop app: answers core's HubLookup requests with
// libcurl (redirects followed to the Hub's storage hosts, Range, timeouts, bounded bodies) or from the
// cache under $XDG_CACHE_HOME/llm-memory/hf/<org>/<name>/<revision>/<file>, so a second run is offline.
// Reads HF_ENDPOINT, HF_TOKEN, HF_HUB_OFFLINE and HF_HUB_DOWNLOAD_TIMEOUT as the Hugging Face tools do.
#pragma once

#include <string>

#include "hub.hpp"
#include "result.hpp"

namespace llm_memory {

struct HubEnvironment {
    std::string endpoint = kHubDefaultEndpoint;  // HF_ENDPOINT
    std::string token;                           // HF_TOKEN (sent to the endpoint's host only)
    bool offline = false;                        // HF_HUB_OFFLINE=1: the cache only, never the network
    long timeout_seconds = 10;                   // HF_HUB_DOWNLOAD_TIMEOUT: no byte for this long ends a request
    std::string cache_dir;                       // "" disables the cache
};

// The environment as the Hugging Face tools read it; cache under $XDG_CACHE_HOME (else ~/.cache).
HubEnvironment hub_environment();

// Runs a look-up to its end, each request answered from the cache or over HTTP. The error names the
// problem as core words it ("hf: org/name: config.json: timed out after 10 s (HF_HUB_DOWNLOAD_TIMEOUT)").
Expected<HubResult> run_hub_lookup(const HubRef& ref, const HubEnvironment& env, HubClient client);

}  // namespace llm_memory
