// The Hugging Face look-up panel and its consent prompt. Invariants: a request reaches the driver only
// after a yes in the prompt (or a remembered yes for a look-up the user started here: a link always asks);
// a failed look-up leaves app.scenario untouched and names the problem under the field.
#include "hub_panel.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "imgui.h"
#include "model_panel.hpp"
#include "panels.hpp"
#include "quantity.hpp"
#include "theme.hpp"

namespace llm_memory {

struct HubPanelView {
    bool available = false;          // a driver can answer look-ups
    std::string host = "huggingface.co";
    bool page = true;                // the web page (else the desktop app)
    bool consented = false;          // the remembered choice
    bool consent_changed = false;    // for the driver to store
    std::array<char, 320> text{};    // the field
    std::string field_error;
    std::optional<HubRef> asking;    // the prompt is about this ref
    bool open_prompt = false;        // open the modal on the next draw
    bool from_link = false;          // the prompt was opened by a link
    std::optional<HubRef> request;   // consented, for the driver
    bool busy = false;
    bool reveal = false;             // a result arrived: scroll it into view
    std::string busy_ref;
    std::string busy_note;           // asked again while busy: hub_busy_text, until the look-up ends
    std::string progress;
    std::string message;
    bool message_is_error = false;
    std::shared_ptr<const HubResult> choices;  // a repo with several GGUF files
    std::vector<std::string> recent;           // this session's look-ups, newest first (at most 5)
    // What the last applied look-up gave the scenario (for hub_link_ref).
    std::string applied_ref;
    std::vector<JsonField> applied_json;  // "hub" and "file", leading the page's estimate()
    std::shared_ptr<const ModelSource> applied_model;
    std::uint64_t applied_param_count = 0;
    Decimal applied_bytes_per_param;
};

namespace {

HubPanelView& view_of(AppState& app) {
    if (!app.hub_panel) app.hub_panel = std::make_shared<HubPanelView>();
    return *app.hub_panel;
}

void set_text(HubPanelView& view, const std::string& text) {
    const std::size_t n = std::min(text.size(), view.text.size() - 1);
    std::memcpy(view.text.data(), text.data(), n);
    view.text[n] = '\0';
}

// The user asked for `ref` (the button, Enter, a quant, a recent one): ask first unless a yes is remembered.
void ask_for(HubPanelView& view, const HubRef& ref) {
    view.field_error.clear();
    if (view.consented) {
        view.request = ref;
        return;
    }
    view.asking = ref;
    view.from_link = false;
    view.open_prompt = true;
}

// Asked for a look-up while one runs: nothing new is sent, and the panel says so.
bool refuse_while_busy(HubPanelView& view) {
    if (!view.busy) return false;
    view.field_error.clear();
    view.busy_note = hub_busy_text(view.busy_ref);
    return true;
}

void look_up_field(HubPanelView& view) {
    if (refuse_while_busy(view)) return;
    const Expected<HubRef> ref = parse_hub_ref(view.text.data());
    if (!ref) {
        view.field_error = ref.failure().problem;
        return;
    }
    ask_for(view, *ref);
}

}  // namespace

void hub_set_driver(AppState& app, bool consented, const std::string& host, bool page) {
    HubPanelView& view = view_of(app);
    view.available = true;
    view.page = page;
    view.consented = consented;
    if (!host.empty()) view.host = host;
}

bool hub_take_request(AppState& app, HubRef& ref) {
    if (!app.hub_panel || !app.hub_panel->request) return false;
    HubPanelView& view = *app.hub_panel;
    ref = *view.request;
    view.request.reset();
    view.busy = true;
    view.busy_ref = hub_ref_text(ref);
    view.busy_note.clear();
    view.progress.clear();
    view.message.clear();
    view.choices.reset();
    return true;
}

bool hub_take_consent_change(AppState& app, bool& consented) {
    if (!app.hub_panel || !app.hub_panel->consent_changed) return false;
    app.hub_panel->consent_changed = false;
    consented = app.hub_panel->consented;
    return true;
}

void hub_lookup_progress(AppState& app, std::uint64_t request_count, std::uint64_t bytes_read) {
    HubPanelView& view = view_of(app);
    view.progress = std::to_string(request_count) + (request_count == 1 ? " request, " : " requests, ") +
                    format_count_exact(bytes_read) + " bytes so far";
}

bool hub_lookup_finished(AppState& app, const Expected<HubResult>& result) {
    HubPanelView& view = view_of(app);
    view.busy = false;
    view.busy_note.clear();
    view.progress.clear();
    model_panel_request_open(app);  // the result shows in the Model section
    view.reveal = true;
    if (!result) {
        view.message = result.failure().problem;
        view.message_is_error = true;
        return false;
    }
    const std::string ref = hub_ref_text(result->ref);
    view.recent.erase(std::remove(view.recent.begin(), view.recent.end(), ref), view.recent.end());
    view.recent.insert(view.recent.begin(), ref);
    if (view.recent.size() > 5) view.recent.resize(5);
    if (result->needs_choice) {
        view.choices = std::make_shared<const HubResult>(*result);
        view.message = result->ref.repo + " has " + std::to_string(result->gguf_choices.size()) +
                       " GGUF files: pick the quant to read (its header only).";
        view.message_is_error = false;
        return false;
    }
    Scenario candidate = app.scenario;
    const Expected<bool> applied = apply_hub_result(candidate, *result);
    const Status bad = applied ? app_take_scenario(app, candidate) : Status(Error{applied.error()});
    if (bad) {
        view.message = bad->problem;
        view.message_is_error = true;
        return false;
    }
    set_text(view, ref);
    view.message = result->report;
    view.message_is_error = false;
    view.applied_ref = ref;
    view.applied_json = hub_json_fields(*result);
    view.applied_model = app.scenario.model;
    view.applied_param_count = app.scenario.param_count;
    view.applied_bytes_per_param = app.scenario.bytes_per_param;
    return true;
}

bool hub_ask(AppState& app, std::string_view text, bool from_link) {
    HubPanelView& view = view_of(app);
    set_text(view, std::string(text.substr(0, view.text.size() - 1)));
    if (refuse_while_busy(view)) return false;
    const Expected<HubRef> ref = parse_hub_ref(text);
    if (!ref) {
        view.field_error = ref.failure().problem;
        return false;
    }
    if (!from_link) {
        ask_for(view, *ref);
        return true;
    }
    view.field_error.clear();
    view.asking = *ref;
    view.from_link = true;
    view.open_prompt = true;
    return true;
}

std::string hub_link_ref(const AppState& app) {
    if (!app.hub_panel || app.hub_panel->applied_ref.empty()) return {};
    const HubPanelView& view = *app.hub_panel;
    const bool same = app.scenario.model == view.applied_model && app.scenario.param_count == view.applied_param_count &&
                      app.scenario.bytes_per_param == view.applied_bytes_per_param;
    return same ? view.applied_ref : std::string();
}

std::vector<JsonField> hub_applied_fields(const AppState& app) {
    return hub_link_ref(app).empty() ? std::vector<JsonField>() : app.hub_panel->applied_json;
}

std::string hub_busy_text(const std::string& ref) {
    return "Still reading " + ref + ": wait for it to finish (nothing new was sent).";
}

std::string hub_panel_message(const AppState& app, bool* is_error) {
    const HubPanelView* view = app.hub_panel.get();
    const bool note = view && view->field_error.empty() && !view->busy_note.empty();
    if (is_error != nullptr) *is_error = view && !note && view->message_is_error;
    if (!view) return {};
    return !view->field_error.empty() ? view->field_error : note ? view->busy_note : view->message;
}

void draw_hub_lookup(AppState& app) {
    if (!app.hub_panel || !app.hub_panel->available) return;
    HubPanelView& view = *app.hub_panel;
    const Palette& palette = theme_palette(app.dark_theme);
    ImGui::PushID("hub_lookup");
    ImGui::Spacing();
    ImGui::TextUnformatted("Look up on Hugging Face");
    const char* label = view.busy ? "Reading..." : "Look up";
    const float button_width = ImGui::CalcTextSize("Reading...").x + ImGui::GetStyle().FramePadding.x * 2.0f;
    ImGui::SetNextItemWidth(-(button_width + ImGui::GetStyle().ItemSpacing.x));
    const bool entered = ImGui::InputTextWithHint("##hub_ref", "org/name, org/name:file.gguf or a huggingface.co link",
                                                  view.text.data(), view.text.size(), ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    ImGui::BeginDisabled(view.busy);
    const bool pressed = ImGui::Button((std::string(label) + "##hub_lookup_button").c_str(), ImVec2(button_width, 0.0f));
    // The greyed button, pressed while a look-up runs, answers on the message line (as Enter does).
    const bool pressed_busy = view.busy && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) &&
                              ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    ImGui::EndDisabled();
    if (pressed || entered || pressed_busy) look_up_field(view);
    if (!view.field_error.empty()) error_text(view.field_error, palette);
    if (view.consented) {
        muted_text("Allowed: pressing Look up sends the model id to " + view.host + ".");
        if (ImGui::SmallButton("Withdraw consent##hub_withdraw")) {
            view.consented = false;
            view.consent_changed = true;
        }
    } else {
        muted_text("Looking up sends the model id to " + view.host + "; you are asked first. Nothing else is sent.");
    }
    const float block_top = ImGui::GetCursorScreenPos().y;
    if (view.busy) muted_text("Reading " + view.busy_ref + " from " + view.host + (view.progress.empty() ? "..." : ": " + view.progress));
    if (view.busy && !view.busy_note.empty()) wrapped_text("%s", view.busy_note.c_str());
    if (view.choices) {
        wrapped_text("%s", view.message.c_str());
        for (const HubGgufChoice& c : view.choices->gguf_choices) {
            ImGui::PushID(c.file.c_str());
            const std::string row = c.file + (c.size_bytes ? "  (" + format_bytes_decimal(c.size_bytes) + ")" : std::string());
            if (ImGui::Selectable(row.c_str(), false) && !view.busy) {
                HubRef ref = view.choices->ref;
                ref.file = c.file;
                set_text(view, hub_ref_text(ref));
                ask_for(view, ref);
            }
            ImGui::PopID();
        }
    } else if (!view.message.empty()) {
        if (view.message_is_error) error_text(view.message, palette);
        else wrapped_text("%s", view.message.c_str());
    }
    if (view.reveal) {
        // The result below the visible part of the column: scroll until its end shows, or its start
        // when it is taller than the column (a phone).
        view.reveal = false;
        const float top = ImGui::GetWindowPos().y;
        const float below = ImGui::GetCursorScreenPos().y - (top + ImGui::GetWindowHeight());
        if (below > 0.0f) ImGui::SetScrollY(ImGui::GetScrollY() + std::min(below, block_top - top));
    }
    if (!view.recent.empty() && !view.busy) {
        muted_text("This session (kept in memory, read again without a request):");
        for (const std::string& ref_text : view.recent) {
            ImGui::PushID(ref_text.c_str());
            if (ImGui::SmallButton(ref_text.c_str())) {
                set_text(view, ref_text);
                look_up_field(view);
            }
            ImGui::PopID();
        }
    }
    ImGui::PopID();
}

std::string hub_prompt_text(const AppState& app, const std::string& ref, bool from_link) {
    const std::string host = app.hub_panel ? app.hub_panel->host : std::string("huggingface.co");
    const bool page = !app.hub_panel || app.hub_panel->page;
    return (from_link ? "This link asks to look up " + ref + " on Hugging Face.\n\n" : std::string()) + "To read it, this " +
           (page ? "page" : "app") + " sends the model id \"" + ref + "\" to " + host +
           " and reads the model's file list, its config.json and its weights' headers (never the weights) from " + host +
           " and the storage host it redirects to.\n\n" +
           (page ? "Nothing else is sent: not your scenario, no cookies, no referrer. Until you allow it, the page sends "
                   "nothing anywhere. Your answer is remembered in this browser; withdraw it under the field at any time."
                 : "Nothing else is sent: not your scenario; the token in HF_TOKEN, if it is set, goes to that host only. "
                   "Until you allow it, the app sends nothing anywhere. Your answer is remembered; withdraw it under the "
                   "field at any time.");
}

void draw_hub_prompt(AppState& app) {
    if (!app.hub_panel) return;
    HubPanelView& view = *app.hub_panel;
    if (view.open_prompt) {
        ImGui::OpenPopup("Look up on Hugging Face?##hub_prompt");
        view.open_prompt = false;
    }
    const ImGuiViewport* viewport = ImGui::GetMainViewport();
    const float width = std::min(viewport->WorkSize.x * 0.94f, ImGui::GetFontSize() * 30.0f);
    ImGui::SetNextWindowSize(ImVec2(width, 0.0f));
    ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
    if (!ImGui::BeginPopupModal("Look up on Hugging Face?##hub_prompt", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings))
        return;
    wrapped_text("%s", hub_prompt_text(app, view.asking ? hub_ref_text(*view.asking) : std::string(), view.from_link).c_str());
    ImGui::Spacing();
    if (ImGui::Button("Allow and look up##hub_allow")) {
        view.consented = true;
        view.consent_changed = true;
        if (view.asking && refuse_while_busy(view)) view.asking.reset();
        if (view.asking) view.request = *view.asking;
        view.asking.reset();
        ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("Not now##hub_decline")) {
        view.asking.reset();
        view.message = "Nothing was sent.";
        view.message_is_error = false;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
}

}  // namespace llm_memory
