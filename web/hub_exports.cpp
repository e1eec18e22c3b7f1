// JS entries for Hugging Face look-ups on the page: core's HubLookup plans each request, web/hub.js makes
// it with fetch() (Range, redirects to the Hub's storage host, a timeout, the body capped) and copies the
// answer into llm_memory_hub_buffer; the result goes to the Model section's panel (imgui_app/hub_panel).
// Nothing here starts a request: the panel hands over a ref only after the user's yes.
#include <emscripten.h>

#include <memory>
#include <string>

#include "hub.hpp"
#include "hub_panel.hpp"
#include "json_writer.hpp"

extern "C" void llm_memory_wake();          // web/main_web.cpp
llm_memory::AppState& llm_memory_web_app();  // web/main_web.cpp
void llm_memory_web_scenario_changed();      // web/main_web.cpp: publish (summary, link, storage)

EM_JS(void, js_hub_start, (const char* ref), { Module['llmMemoryHubStart'](UTF8ToString(ref)); });
EM_JS(void, js_hub_consent, (int consented), { Module['llmMemoryHubConsent'](consented); });

namespace {

struct HubRead {
    std::unique_ptr<llm_memory::HubLookup> lookup;
    std::string chunk;  // the answer JS copies in
};
HubRead g_hub;

// The next request as {"url","what","ranged","begin","length","max"}, or null.
const char* request_json() {
    static std::string out;
    const llm_memory::HubRequest* r = g_hub.lookup ? g_hub.lookup->next() : nullptr;
    if (r == nullptr) return "null";
    llm_memory::JsonWriter w;
    w.begin_object().field("url", r->url).field("what", r->what).field("ranged", r->ranged).field("begin", r->range_begin);
    out = w.field("length", r->range_length).field("max", r->max_bytes).end_object().take();
    return out.c_str();
}

}  // namespace

// After each frame (web/main_web.cpp): a consented look-up starts in JS; a changed consent is stored.
void llm_memory_web_hub_after_frame() {
    llm_memory::AppState& app = llm_memory_web_app();
    llm_memory::HubRef ref;
    if (llm_memory::hub_take_request(app, ref)) js_hub_start(llm_memory::hub_ref_text(ref).c_str());
    bool consented = false;
    if (llm_memory::hub_take_consent_change(app, consented)) js_hub_consent(consented ? 1 : 0);
}

extern "C" {

// The page can look models up; `consented`: the choice remembered in localStorage.
EMSCRIPTEN_KEEPALIVE void llm_memory_hub_enable(int consented) {
    llm_memory::hub_set_driver(llm_memory_web_app(), consented != 0, "huggingface.co", true);
    llm_memory_wake();
}

// hf=ID from a link (from_link 1), or llmMemory.lookUpHub(ID) (0): fills the field and asks (the prompt for a
// link; a remembered yes lets an API call go ahead, at once: a phone's text view hides the canvas, which then
// draws no frame). from_link 2, the text view before its own prompt: nothing is asked; returns the problem with
// the id, or "\n" and the prompt's text (hub_prompt_text). Else returns "" or the problem with the id.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_ask(const char* text, int from_link) {
    static std::string out;
    llm_memory::AppState& app = llm_memory_web_app();
    if (from_link >= 2) {
        const llm_memory::Expected<llm_memory::HubRef> ref = llm_memory::parse_hub_ref(text != nullptr ? text : "");
        out = ref ? "\n" + llm_memory::hub_prompt_text(app, llm_memory::hub_ref_text(*ref), from_link == 3) : ref.failure().problem;
        return out.c_str();
    }
    const bool ok = llm_memory::hub_ask(app, text != nullptr ? text : "", from_link != 0);
    out = ok ? std::string() : llm_memory::hub_panel_message(app);
    llm_memory_web_hub_after_frame();
    llm_memory_wake();
    return out.c_str();
}

// Starts the look-up the panel handed over; returns its first request.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_begin(const char* text) {
    const llm_memory::Expected<llm_memory::HubRef> ref = llm_memory::parse_hub_ref(text != nullptr ? text : "");
    g_hub.lookup.reset();
    if (!ref) return "null";
    g_hub.lookup = std::make_unique<llm_memory::HubLookup>(*ref, llm_memory::kHubDefaultEndpoint, llm_memory::HubClient::page, false);
    return request_json();
}

// A buffer for the answer's body (valid until the next call).
EMSCRIPTEN_KEEPALIVE char* llm_memory_hub_buffer(int bytes) {
    g_hub.chunk.resize(bytes > 0 ? static_cast<std::size_t>(bytes) : 0);
    return &g_hub.chunk[0];
}

// The answer to the last request: HTTP status (0: none), the buffer's first `bytes` bytes, or the fetch
// problem. Returns the next request, or null when the look-up has ended (then llm_memory_hub_finish).
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_answer(int status, int bytes, const char* transport_error) {
    if (!g_hub.lookup) return "null";
    llm_memory::HubResponse response;
    response.status = status;
    response.body.assign(g_hub.chunk.data(), bytes > 0 && static_cast<std::size_t>(bytes) <= g_hub.chunk.size() ? static_cast<std::size_t>(bytes) : 0);
    response.transport_error = transport_error != nullptr ? transport_error : "";
    g_hub.lookup->answer(response);
    llm_memory::hub_lookup_progress(llm_memory_web_app(), g_hub.lookup->request_count(), g_hub.lookup->bytes_read());
    llm_memory_wake();
    return request_json();
}

// Ends the look-up: the panel applies the result or shows the problem. Returns {"ok", "error" or null,
// "hub": core's JSON of the look-up or null}.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_finish(const char* abort_problem) {
    static std::string out;
    llm_memory::AppState& app = llm_memory_web_app();
    using llm_memory::Expected;
    using llm_memory::HubResult;
    Expected<HubResult> result = !g_hub.lookup ? Expected<HubResult>(llm_memory::Error{"hf", "no look-up is running"})
                                 : abort_problem != nullptr && abort_problem[0] != '\0'
                                     ? Expected<HubResult>(llm_memory::Error{"hf", abort_problem})
                                     : g_hub.lookup->result();
    g_hub.lookup.reset();
    g_hub.chunk = std::string();
    const bool applied = llm_memory::hub_lookup_finished(app, result);
    if (applied) llm_memory_web_scenario_changed();
    bool is_error = false;
    const std::string message = llm_memory::hub_panel_message(app, &is_error);
    llm_memory::JsonWriter w;
    w.begin_object().field("ok", static_cast<bool>(result)).field("applied", applied).field("message", message);
    out = w.raw_field("hub", result ? result->json : std::string("null")).end_object().take();
    llm_memory_wake();
    return out.c_str();
}

// What the page says when a look-up of `ref` is still running and another is asked for (hub_busy_text).
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_busy_text(const char* ref) {
    static std::string out;
    out = llm_memory::hub_busy_text(ref != nullptr ? ref : "");
    return out.c_str();
}

// Test hook: the canvas panel's message line (hub_panel_message).
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_message() {
    static std::string out;
    out = llm_memory::hub_panel_message(llm_memory_web_app());
    return out.c_str();
}

// "org/name:file" while the scenario is what the last look-up gave (hf= in the link), else "".
EMSCRIPTEN_KEEPALIVE const char* llm_memory_hub_link_ref() {
    static std::string out;
    out = llm_memory::hub_link_ref(llm_memory_web_app());
    return out.c_str();
}

}  // extern "C"
