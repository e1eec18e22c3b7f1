// "Look up on Hugging Face" in the Model section, and the consent prompt before the first request. The
// panel never makes a request itself: it hands a consented HubRef to the driver (libcurl on the desktop,
// fetch() on the page), which answers with hub_lookup_finished. Nothing is sent without the user's yes.
#pragma once

#include <string>
#include <string_view>

#include "app.hpp"
#include "hub.hpp"

namespace llm_memory {

// The driver can look models up: `consented` is the remembered choice, `host` the host named in the
// prompt ("huggingface.co", or HF_ENDPOINT's), `page`: the web page (else the desktop app, which may send
// HF_TOKEN). Without this call the panel is not drawn.
void hub_set_driver(AppState& app, bool consented, const std::string& host, bool page);

// The field, its button, the state of the consent (with Withdraw), progress, the result or its problem,
// the GGUF quant picker and the session's recent look-ups. Drawn inside the Model section.
void draw_hub_lookup(AppState& app);

// The consent prompt (a modal): drawn every frame from draw_frame, so a link's prompt shows at once.
void draw_hub_prompt(AppState& app);

// The prompt's text for `ref` (what is sent, to which host, what is not, how to withdraw), as the modal and
// the page's text view show it; `from_link`: a link asked. Paragraphs separated by a blank line.
std::string hub_prompt_text(const AppState& app, const std::string& ref, bool from_link);

// A look-up the user asked for and consented to, for the driver to start (true once per request).
bool hub_take_request(AppState& app, HubRef& ref);

// The consent changed (given or withdrawn): the driver stores `consented` (true once per change).
bool hub_take_consent_change(AppState& app, bool& consented);

// Progress shown while a look-up runs ("3 requests, 4,759 bytes so far").
void hub_lookup_progress(AppState& app, std::uint64_t request_count, std::uint64_t bytes_read);

// The look-up ended: its weights/config become the scenario's model (the panel shows the report), or the
// GGUF files to pick from, or the problem (the scenario stays). Returns true when the scenario changed.
bool hub_lookup_finished(AppState& app, const Expected<HubResult>& result);

// Asks for a look-up of `text` from outside the panel: fills the field; hf=ID from a link (from_link) always
// opens the prompt (never a request without the user's answer); otherwise (the page's JS API) a
// remembered yes goes ahead and no yes opens the prompt. A bad id is named in the panel, and while a look-up
// runs nothing is asked (the panel says hub_busy_text): both return false.
bool hub_ask(AppState& app, std::string_view text, bool from_link);

// "org/name:file" while the scenario is the one the last look-up gave (for hf= in the page's link), else "".
std::string hub_link_ref(const AppState& app);

// The "hub" and "file" members (the CLI's objects for `--hf ID --format json`, as report_json's `leading`)
// while the scenario is the one the last look-up gave, else none.
std::vector<JsonField> hub_applied_fields(const AppState& app);

// What the panel and the text view say when a look-up is asked for while `ref` is being read: nothing new is
// sent ("Still reading org/name: wait for it to finish (nothing new was sent).").
std::string hub_busy_text(const std::string& ref);

// The panel's last message and whether it is an error ("" before any look-up): a bad id in the field, else the
// note that a look-up is still running (not an error), else the last look-up's result or problem.
std::string hub_panel_message(const AppState& app, bool* is_error = nullptr);

}  // namespace llm_memory
