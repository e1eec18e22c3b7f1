// libcurl under core's HubLookup: one easy handle per look-up (connections reused), each body capped at
// what the request may read, cached files written whole (a temporary file renamed into place). libcurl is
// opened (dlopen) at the first look-up, not linked: its 36 libraries cost every start of the CLI and the
// desktop app about 15 M instructions in the dynamic loader (bench/RESULTS.md), for a feature most runs never use.
#include "hub_http.hpp"

#include <curl/curl.h>
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#ifndef LLM_MEMORY_VERSION
#define LLM_MEMORY_VERSION "0.1.0"
#endif

namespace llm_memory {
namespace {

// The libcurl functions this file calls, from libcurl.so.4 (Debian's libcurl4), opened once.
struct Curl {
    CURLcode (*global_init)(long) = nullptr;
    CURL* (*easy_init)() = nullptr;
    void (*easy_cleanup)(CURL*) = nullptr;
    void (*easy_reset)(CURL*) = nullptr;
    CURLcode (*easy_setopt)(CURL*, CURLoption, ...) = nullptr;
    CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...) = nullptr;
    CURLcode (*easy_perform)(CURL*) = nullptr;
    const char* (*easy_strerror)(CURLcode) = nullptr;
    curl_slist* (*slist_append)(curl_slist*, const char*) = nullptr;
    void (*slist_free_all)(curl_slist*) = nullptr;
    bool ready = false;
};

template <typename F>
bool bind(void* library, const char* name, F& function) {
    function = reinterpret_cast<F>(dlsym(library, name));
    return function != nullptr;
}

const Curl& curl_api() {
    static const Curl api = [] {
        Curl c;
        void* library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) return c;
        c.ready = bind(library, "curl_global_init", c.global_init) && bind(library, "curl_easy_init", c.easy_init) &&
                  bind(library, "curl_easy_cleanup", c.easy_cleanup) && bind(library, "curl_easy_reset", c.easy_reset) &&
                  bind(library, "curl_easy_setopt", c.easy_setopt) && bind(library, "curl_easy_getinfo", c.easy_getinfo) &&
                  bind(library, "curl_easy_perform", c.easy_perform) && bind(library, "curl_easy_strerror", c.easy_strerror) &&
                  bind(library, "curl_slist_append", c.slist_append) && bind(library, "curl_slist_free_all", c.slist_free_all) &&
                  c.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
        return c;
    }();
    return api;
}

std::string env_text(const char* name) {
    const char* v = std::getenv(name);
    return v != nullptr ? std::string(v) : std::string();
}

bool env_true(const char* name) {
    std::string v = env_text(name);
    for (char& c : v)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return v == "1" || v == "true" || v == "yes" || v == "on";
}

struct Body {
    std::string bytes;
    std::size_t limit = 0;  // keep at most this many bytes, then stop the transfer
    bool capped = false;
};

std::size_t write_body(char* data, std::size_t size, std::size_t count, void* user) {
    Body& body = *static_cast<Body*>(user);
    const std::size_t n = size * count;
    const std::size_t room = body.limit > body.bytes.size() ? body.limit - body.bytes.size() : 0;
    body.bytes.append(data, std::min(n, room));
    if (n > room) {
        body.capped = true;
        return 0;  // enough: libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    return n;
}

std::string host_of(const std::string& url) {
    std::string host = url;
    const std::size_t scheme = host.find("://");
    if (scheme != std::string::npos) host.erase(0, scheme + 3);
    return host.substr(0, host.find_first_of("/?#"));
}

bool read_cache(const std::string& path, std::string& out) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return !in.bad();
}

void write_cache(const std::string& path, const std::string& bytes) {
    std::error_code ec;
    const std::filesystem::path target(path);
    std::filesystem::create_directories(target.parent_path(), ec);
    if (ec) return;
    const std::string temporary = path + ".partial";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) return;
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        if (!out) return;
    }
    std::filesystem::rename(temporary, target, ec);
    if (ec) std::filesystem::remove(temporary, ec);
}

HubResponse fetch(const Curl& api, CURL* curl, const HubRequest& request, const HubEnvironment& env) {
    HubResponse response;
    Body body;
    body.limit = static_cast<std::size_t>(request.ranged ? request.range_begin + request.range_length : request.max_bytes + 1);
    api.easy_reset(curl);
    api.easy_setopt(curl, CURLOPT_URL, request.url.c_str());
    api.easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    api.easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    api.easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    api.easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    api.easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    api.easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, env.timeout_seconds);
    api.easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);  // less than a byte a second for the timeout: give up
    api.easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, env.timeout_seconds);
    api.easy_setopt(curl, CURLOPT_USERAGENT, "llm-memory/" LLM_MEMORY_VERSION);
    api.easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
    api.easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    const std::string range = std::to_string(request.range_begin) + "-" + std::to_string(request.range_begin + request.range_length - 1);
    if (request.ranged) api.easy_setopt(curl, CURLOPT_RANGE, range.c_str());
    curl_slist* headers = nullptr;
    // libcurl drops a custom Authorization header when a redirect leaves the host it was set for.
    if (!env.token.empty()) headers = api.slist_append(headers, ("Authorization: Bearer " + env.token).c_str());
    if (headers != nullptr) api.easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    const CURLcode code = api.easy_perform(curl);
    if (headers != nullptr) api.slist_free_all(headers);
    long status = 0;
    api.easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    response.status = static_cast<int>(status);
    response.body = std::move(body.bytes);
    if (code == CURLE_OK || (code == CURLE_WRITE_ERROR && body.capped)) return response;
    char* last_url = nullptr;
    api.easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &last_url);
    const std::string host = host_of(last_url != nullptr ? last_url : request.url);
    response.status = 0;
    response.body.clear();
    switch (code) {
        case CURLE_OPERATION_TIMEDOUT:
            response.transport_error = "timed out: " + host + " sent nothing for " + std::to_string(env.timeout_seconds) +
                                       " s (HF_HUB_DOWNLOAD_TIMEOUT)";
            break;
        case CURLE_COULDNT_RESOLVE_HOST:
            response.transport_error = "cannot find " + host + " (no network, or a wrong HF_ENDPOINT)";
            break;
        case CURLE_COULDNT_CONNECT:
            response.transport_error = "cannot connect to " + host + " (no network, or the host is down)";
            break;
        case CURLE_TOO_MANY_REDIRECTS: response.transport_error = "more than 5 redirects from " + host; break;
        default: response.transport_error = host + ": " + api.easy_strerror(code); break;
    }
    return response;
}

}  // namespace

HubEnvironment hub_environment() {
    HubEnvironment env;
    if (const std::string endpoint = env_text("HF_ENDPOINT"); !endpoint.empty()) env.endpoint = endpoint;
    env.token = env_text("HF_TOKEN");
    env.offline = env_true("HF_HUB_OFFLINE");
    if (const std::string t = env_text("HF_HUB_DOWNLOAD_TIMEOUT"); !t.empty()) {
        char* end = nullptr;
        const long seconds = std::strtol(t.c_str(), &end, 10);
        if (end != nullptr && *end == '\0' && seconds > 0 && seconds <= 3600) env.timeout_seconds = seconds;
    }
    std::string base = env_text("XDG_CACHE_HOME");
    if (base.empty() || base[0] != '/') {
        const std::string home = env_text("HOME");
        base = home.empty() ? std::string() : home + "/.cache";
    }
    if (!base.empty()) env.cache_dir = base + "/llm-memory/hf";
    return env;
}

Expected<HubResult> run_hub_lookup(const HubRef& ref, const HubEnvironment& env, HubClient client) {
    const std::string scheme = env.endpoint.substr(0, env.endpoint.find("://") + 3);
    if (scheme != "https://" && scheme != "http://")
        return Error{"hf", "HF_ENDPOINT \"" + env.endpoint + "\" must start with https:// (or http://)"};
    HubLookup lookup(ref, env.endpoint, client, !env.token.empty());
    CURL* curl = nullptr;  // opened at the first request the cache cannot answer
    while (const HubRequest* request = lookup.next()) {
        HubResponse response;
        const std::string path = env.cache_dir.empty() ? std::string() : env.cache_dir + "/" + request->cache_path;
        if (!path.empty() && read_cache(path, response.body)) {
            response.status = request->ranged ? 206 : 200;
            response.from_cache = true;
        } else if (env.offline) {
            response.transport_error = "HF_HUB_OFFLINE is set and it is not in the cache (" + (path.empty() ? request->cache_path : path) + ")";
        } else if (!curl_api().ready) {
            response.transport_error = "libcurl (libcurl.so.4, Debian's libcurl4) is not installed or could not be opened";
        } else if (curl == nullptr && (curl = curl_api().easy_init()) == nullptr) {
            response.transport_error = "libcurl could not start";
        } else {
            response = fetch(curl_api(), curl, *request, env);
            const bool whole = request->ranged ? response.status == 206 && response.body.size() == request->range_length
                                               : response.status == 200 && response.body.size() <= request->max_bytes;
            if (!path.empty() && whole) write_cache(path, response.body);
        }
        lookup.answer(response);
    }
    if (curl != nullptr) curl_api().easy_cleanup(curl);
    return lookup.result();
}

}  // namespace llm_memory
