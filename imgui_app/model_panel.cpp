// The model picker panel. Presets and pasted/dropped configs go through core (settings "model" key,
// model_from_config); the counts, breakdown and shares shown are core's numbers formatted by core.
// Invariant: a failed load leaves app.scenario untouched and shows the message under the control.
//
// Sections: view state (ModelPanelView, the queue of files and configs) · loading helpers (take_scenario,
//   use_model, load_text) · architecture summary and breakdown table · the queue (queue_model_config,
//   queue_model_file, apply_pending_model_configs) · draw_model_panel.
#include "model_panel.hpp"
#include "hub_panel.hpp"
#include "panels.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "architecture.hpp"
#include "imgui.h"
#include "model_presets.hpp"
#include "quantity.hpp"
#include "model_file.hpp"
#include "settings.hpp"

namespace llm_memory {

// Configs and model files that arrived between frames (file drop, the web page's reader), applied by
// apply_pending_model_configs at the start of the next frame.
struct PendingConfig {
    std::shared_ptr<const ModelSource> model;  // null when the text did not load
    std::shared_ptr<const FileModel> file;     // a GGUF or safetensors header (queue_model_file)
    std::string name;
    std::string message;
};

// The panel's view state (AppState::model_panel).
struct ModelPanelView {
    struct PresetRow {
        const ModelPreset* preset = nullptr;
        std::string count;  // "6.74B", "46.7B (12.9B active)"
    };
    std::array<char, 96> search{};
    std::array<char, 512> file_path{};  // desktop: the path typed under "Read a model file"
    std::string paste_text;         // the paste box's buffer (grows as needed)
    std::string message;            // the last load's error or notice
    bool message_is_error = false;
    std::vector<PresetRow> rows;    // every preset with its count, built once
    bool scroll_to_selected = true; // bring the chosen preset into view when the list first appears
    bool open_requested = false;    // a queued config arrived: the caller opens the Model section
    bool reveal_message = false;    // a queued config or file was taken: scroll its message into view (phones)
    std::vector<PendingConfig> pending;  // queued by queue_model_config / queue_model_file
};

namespace {

const ImVec4 kErrorColour(0.88f, 0.30f, 0.24f, 1.0f);

ModelPanelView& view_of(AppState& app) {
    if (!app.model_panel) {
        app.model_panel = std::make_shared<ModelPanelView>();
        for (const ModelPreset& preset : model_presets()) {
            ModelPanelView::PresetRow row;
            row.preset = &preset;
            const Expected<ModelSource> source = preset_model(preset);
            if (source) {
                row.count = format_count_short(source->counts.total_count, 2);
                if (source->architecture.is_moe())
                    row.count += " (" + format_count_short(source->counts.active_count, 1) + " active)";
            }
            app.model_panel->rows.push_back(std::move(row));
        }
    }
    return *app.model_panel;
}

void set_message(ModelPanelView& view, std::string text, bool is_error) {
    view.message = std::move(text);
    view.message_is_error = is_error;
}

// Makes `candidate` the app's scenario; on failure shows core's reason and keeps the old one.
bool take_scenario(AppState& app, ModelPanelView& view, const Scenario& candidate) {
    const Status bad = app_take_scenario(app, candidate);
    if (bad) set_message(view, bad->message(), true);
    return !bad;
}

void use_model(AppState& app, ModelPanelView& view, std::shared_ptr<const ModelSource> model) {
    Scenario candidate = app.scenario;
    candidate.param_count = model->counts.total_count;
    candidate.model = std::move(model);
    if (take_scenario(app, view, candidate)) {
        std::string note = "Loaded " + candidate.model->display_name + ": " +
                           format_count_exact(candidate.model->counts.total_count) + " parameters.";
        for (const std::string& warning : candidate.model->architecture.warnings) note += "\nNote: " + warning;
        set_message(view, note, false);
    }
}

void choose_preset(AppState& app, ModelPanelView& view, const ModelPreset& preset) {
    const Status bad = app_try_setting(app, "model", preset.key);
    set_message(view, bad ? bad->message() : std::string(), bad.has_value());
}

void load_text(AppState& app, ModelPanelView& view, std::string_view text, const std::string& name) {
    Expected<ModelSource> source = model_from_config(text);
    if (!source) {
        set_message(view, name + ": " + source.error(), true);
        return;
    }
    source.value().display_name = name + " (" + source->architecture.model_type + ")";
    use_model(app, view, std::make_shared<const ModelSource>(std::move(source.value())));
}

// A muted line that wraps at the panel's width (phones).
void hint_text(const char* text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text("%s", text);
    ImGui::PopStyleColor();
}


std::string architecture_summary(const Architecture& a) {
    std::string out = std::to_string(a.num_hidden_layers) + " layers, hidden " + format_count_exact(a.hidden_size) +
                      ", vocabulary " + format_count_exact(a.vocab_size) + "\n";
    if (a.uses_mla()) {
        out += "Latent attention (MLA): " + std::to_string(a.num_attention_heads) + " heads, KV rank " +
               std::to_string(a.kv_lora_rank) + " + RoPE " + std::to_string(a.qk_rope_head_dim);
        if (a.q_lora_rank > 0) out += ", query rank " + std::to_string(a.q_lora_rank);
    } else {
        out += std::to_string(a.num_attention_heads) + " query heads, " + std::to_string(a.num_key_value_heads) +
               " KV heads, head size " + std::to_string(a.head_dim);
    }
    if (a.moe_layer_count() < a.num_hidden_layers)
        out += "\nMLP width " + format_count_exact(a.intermediate_size) + (a.gated_mlp ? " (gated)" : "");
    if (a.is_moe()) {
        out += "\nExperts: " + std::to_string(a.num_experts) + " routed of width " + format_count_exact(a.moe_intermediate_size) +
               ", " + std::to_string(a.num_experts_per_tok) + " per token";
        if (a.shared_expert_intermediate_size > 0)
            out += ", shared width " + format_count_exact(a.shared_expert_intermediate_size);
        out += "; " + std::to_string(a.moe_layer_count()) + " of " + std::to_string(a.num_hidden_layers) + " layers";
    }
    if (a.sliding_window > 0)
        out += "\nSliding window " + format_count_exact(a.sliding_window) + " tokens on " +
               std::to_string(a.sliding_layer_count()) + " of " + std::to_string(a.num_hidden_layers) + " layers";
    out += a.tie_word_embeddings ? "\nOutput head tied to the embeddings (counted once)" : "\nSeparate output head";
    return out;
}

void draw_breakdown(const ModelSource& model) {
    const ParamBreakdown& c = model.counts;
    if (!begin_stretch_table("##model_breakdown", {{"Part", 1.4f}, {"Parameters", 1.6f}, {"Share", 0.7f}})) return;
    auto row = [&c](const char* label, std::uint64_t count, bool share) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextUnformatted(label);
        ImGui::TableSetColumnIndex(1);
        ImGui::TextUnformatted(format_count_exact(count).c_str());
        ImGui::TableSetColumnIndex(2);
        if (!share || c.total_count == 0) return;
        const std::string percent = format_ratio(count * 100, c.total_count, 2);
        ImGui::TextUnformatted(percent == "0" ? "<0.01%" : (percent + "%").c_str());
    };
    for (const BreakdownRow& part : breakdown_rows(c)) row(part.label, part.count, true);
    row("Total", c.total_count, false);
    if (model.architecture.is_moe()) row("Active per token", c.active_count, true);
    if (c.mtp_count > 0) row("MTP module (stored, not counted)", c.mtp_count, false);
    ImGui::EndTable();
}

}  // namespace

bool queue_model_config(AppState& app, std::string_view json_text, const std::string& source_name) {
    PendingConfig pending;
    Expected<ModelSource> source = model_from_config(json_text);
    if (!source) {
        pending.message = source_name + ": " + source.error();
        view_of(app).pending.push_back(std::move(pending));
        return false;
    }
    source.value().display_name = source_name + " (" + source->architecture.model_type + ")";
    pending.model = std::make_shared<const ModelSource>(std::move(source.value()));
    view_of(app).pending.push_back(std::move(pending));
    return true;
}

bool queue_model_file(AppState& app, const Expected<FileModel>& file, const std::string& source_name) {
    PendingConfig pending;
    pending.name = source_name;
    if (!file) pending.message = source_name + ": " + file.error();
    else pending.file = std::make_shared<const FileModel>(*file);
    view_of(app).pending.push_back(std::move(pending));
    return file.ok();
}

bool apply_pending_model_configs(AppState& app) {
    if (!app.model_panel || app.model_panel->pending.empty()) return false;
    ModelPanelView& view = *app.model_panel;
    std::vector<PendingConfig> queued;
    queued.swap(view.pending);
    for (PendingConfig& pending : queued) {
        if (pending.file) {
            // A model file: N, b (and a GGUF's architecture) from core, the header's report as the notice.
            Scenario candidate = app.scenario;
            const Expected<bool> applied = apply_file_model(candidate, *pending.file);
            if (!applied) set_message(view, pending.name + ": " + applied.error(), true);
            else if (take_scenario(app, view, candidate)) set_message(view, "Read " + pending.name + " (header only):\n" + pending.file->report, false);
        } else if (pending.model) {
            use_model(app, view, std::move(pending.model));
        } else {
            set_message(view, pending.message, true);
        }
    }
    view.open_requested = true;
    view.reveal_message = true;
    return true;
}

std::string model_panel_message(const AppState& app, bool* is_error) {
    if (is_error != nullptr) *is_error = app.model_panel != nullptr && app.model_panel->message_is_error;
    return app.model_panel != nullptr ? app.model_panel->message : std::string();
}

void model_panel_request_open(AppState& app) { view_of(app).open_requested = true; }

bool model_panel_open_requested(AppState& app) {
    if (!app.model_panel || !app.model_panel->open_requested) return false;
    app.model_panel->open_requested = false;
    return true;
}

void draw_model_panel(AppState& app) {
    apply_pending_model_configs(app);
    ModelPanelView& view = view_of(app);

    ImGui::PushID("model_panel");
    const std::shared_ptr<const ModelSource>& current = app.scenario.model;
    if (current) {
        wrapped_text("%s", current->display_name.c_str());
        std::string line = format_count_exact(current->counts.total_count) + " parameters";
        if (current->architecture.is_moe())
            line += ", " + format_count_exact(current->counts.active_count) + " active per token";
        wrapped_text("%s", line.c_str());
        if (ImGui::SmallButton("Forget model##model_forget")) {
            Scenario candidate = app.scenario;
            candidate.model.reset();
            if (take_scenario(app, view, candidate)) set_message(view, {}, false);
        }
    } else {
        hint_text("No model chosen: N is the typed-in count. Pick one below.");
    }

    ImGui::SetNextItemWidth(-1.0f);
    ImGui::InputTextWithHint("##model_search", "Search models: llama 70b, qwen, moe...", view.search.data(),
                             view.search.size());
    const std::vector<const ModelPreset*> found = search_presets(view.search.data());
    const float list_height = ImGui::GetTextLineHeightWithSpacing() * 7.5f;
    if (ImGui::BeginChild("##model_list", ImVec2(0.0f, list_height), true)) {
        // Narrow (phones, side columns): name and count only; the id shows as the row's tooltip.
        const bool show_id = ImGui::GetContentRegionAvail().x > ImGui::GetFontSize() * 30.0f;
        if (ImGui::BeginTable("##model_list_table", show_id ? 3 : 2, ImGuiTableFlags_SizingStretchProp)) {
            ImGui::TableSetupColumn("Name", ImGuiTableColumnFlags_WidthStretch, 1.0f);
            if (show_id) ImGui::TableSetupColumn("Hugging Face id", ImGuiTableColumnFlags_WidthStretch, 1.5f);
            ImGui::TableSetupColumn("Parameters", ImGuiTableColumnFlags_WidthStretch, 1.2f);
            for (const ModelPreset* preset : found) {
                const std::string* count = nullptr;
                for (const ModelPanelView::PresetRow& row : view.rows)
                    if (row.preset == preset) count = &row.count;
                const bool selected = current && current->preset_key == preset->key;
                ImGui::PushID(preset->key);
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                if (ImGui::Selectable(preset->key, selected, ImGuiSelectableFlags_SpanAllColumns)) choose_preset(app, view, *preset);
                if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", preset->hf_id);
                if (selected && view.scroll_to_selected) {
                    ImGui::SetScrollHereY(0.3f);
                    view.scroll_to_selected = false;
                }
                if (show_id) {
                    ImGui::TableNextColumn();
                    ImGui::TextDisabled("%s", preset->hf_id);
                }
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(count != nullptr ? count->c_str() : "");
                ImGui::PopID();
            }
            ImGui::EndTable();
        }
        if (found.empty()) ImGui::TextDisabled("No built-in model matches. Paste its config.json below.");
    }
    ImGui::EndChild();

    // A model file: the driver reads it (header only) and queues it with queue_model_file.
    if (app.file_picker) {
        if (ImGui::Button("Open a model file...##model_file_open")) app.open_file_requested = true;
        hint_text("GGUF, safetensors or config.json; or drop the file on the page.");
    } else if (app.file_path_field) {
        hint_text("Read a GGUF or safetensors file (header only), or drop it on the window:");
        const float open_width = ImGui::CalcTextSize("Open").x + ImGui::GetStyle().FramePadding.x * 2.0f;
        ImGui::SetNextItemWidth(-(open_width + ImGui::GetStyle().ItemSpacing.x));
        const bool entered = ImGui::InputTextWithHint("##model_file_path", "/path/to/model.gguf", view.file_path.data(),
                                                      view.file_path.size(), ImGuiInputTextFlags_EnterReturnsTrue);
        ImGui::SameLine();
        if ((ImGui::Button("Open##model_file_path_open") || entered) && view.file_path[0] != '\0')
            app.open_file_path = view.file_path.data();
    }
    if (app.file_picker || app.file_path_field) hint_text("Nothing is uploaded: only the file's header is read, on this machine.");
    draw_hub_lookup(app);  // "Look up on Hugging Face" (hub_panel.cpp), when the driver can look models up

    if (ImGui::TreeNode("Paste a config.json##model_paste")) {
        ImGui::TextDisabled("Or drop a config.json file onto the window.");
        paste_box("##model_paste_text", view.paste_text, 8.0f);
        if (ImGui::Button("Use this config##model_paste_use")) load_text(app, view, view.paste_text, "pasted config.json");
        ImGui::SameLine();
        if (ImGui::Button("Clear##model_paste_clear")) view.paste_text.clear();
        ImGui::TreePop();
    }

    if (!view.message.empty()) {
        if (view.message_is_error) ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
        wrapped_text("%s", view.message.c_str());
        if (view.message_is_error) ImGui::PopStyleColor();
        if (view.reveal_message) {
            // Below the visible part of the scrolling column: scroll until its end shows, or its start
            // when it is taller than the column (a model file's report on a phone).
            const float top = ImGui::GetWindowPos().y;
            const float bottom = top + ImGui::GetWindowHeight();
            const float below = ImGui::GetItemRectMax().y - bottom;
            if (below > 0.0f) ImGui::SetScrollY(ImGui::GetScrollY() + std::min(below, ImGui::GetItemRectMin().y - top));
        }
    }
    view.reveal_message = false;

    if (current) {
        ImGui::Spacing();
        wrapped_text("%s", architecture_summary(current->architecture).c_str());
        ImGui::Spacing();
        draw_breakdown(*current);
    }
    ImGui::PopID();
}

}  // namespace llm_memory
