// The scaling table (the seed's rows preloaded; add the current scenario, remove, sort by any column,
// copy as Markdown or CSV) and the plot of weight memory against parameter count.
#include "charts.hpp"
#include "imgui.h"
#include "panels.hpp"
#include "quantity.hpp"
#include "scaling.hpp"
#include "settings.hpp"

namespace llm_memory {

void draw_scaling_panel(AppState& app) {
    section_heading("How weight memory scales");
    muted_text("Weight memory is linear in N and in b: double the parameters, double the memory; halve b, halve it.");
    const ImGuiStyle& style = ImGui::GetStyle();
    auto fits_on_line = [&](const char* label) {
        return ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x + ImGui::CalcTextSize(label).x +
                   style.FramePadding.x * 2.0f <=
               ImGui::GetWindowContentRegionMax().x;
    };
    if (ImGui::Button("Add the current scenario")) {
        Expected<ScalingRow> row = make_scaling_row(scaling_row_label(app.scenario.param_count, app.scenario.bytes_per_param),
                                                    app.scenario.param_count, app.scenario.bytes_per_param);
        if (row) app.scaling_rows.push_back(*row);
        if (row && app.scaling_sort_column >= 0)
            sort_scaling_rows(app.scaling_rows, static_cast<ScalingColumn>(app.scaling_sort_column), app.scaling_sort_ascending);
    }
    const char* labels[] = {"Seed's rows", "Copy as Markdown##scaling", "Copy as CSV##scaling"};
    for (int i = 0; i < 3; ++i) {
        if (fits_on_line(labels[i])) ImGui::SameLine();
        if (ImGui::Button(labels[i])) {
            if (i == 0) app.scaling_rows = seed_scaling_rows();
            if (i == 1) copy_to_clipboard(app, scaling_markdown(app.scaling_rows), "the table as Markdown");
            if (i == 2) copy_to_clipboard(app, scaling_csv(app.scaling_rows), "the table as CSV");
        }
    }
    if (!app.copied_message.empty()) muted_text(app.copied_message);

    // SortTristate: no column is sorted until the user asks, so the seed's order shows first.
    const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_SortTristate | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingStretchProp;
    const bool narrow = ImGui::GetContentRegionAvail().x < 520.0f * app.ui_scale;
    if (ImGui::BeginTable("scaling##table", 5, flags)) {
        ImGui::TableSetupColumn("Model", ImGuiTableColumnFlags_WidthStretch, narrow ? 1.8f : 2.4f);
        ImGui::TableSetupColumn(narrow ? "N" : "Parameters (N)", ImGuiTableColumnFlags_WidthStretch, 1.1f);
        ImGui::TableSetupColumn(narrow ? "b" : "Bytes (b)", ImGuiTableColumnFlags_WidthStretch, narrow ? 0.5f : 0.8f);
        ImGui::TableSetupColumn(narrow ? "Weights" : "Weight memory", ImGuiTableColumnFlags_WidthStretch, 1.3f);
        ImGui::TableSetupColumn("##remove", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoSort,
                                ImGui::CalcTextSize("×").x + style.FramePadding.x * 2.0f);
        ImGui::TableHeadersRow();
        if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
            if (specs->SpecsDirty && specs->SpecsCount > 0) {
                app.scaling_sort_column = specs->Specs[0].ColumnIndex;
                app.scaling_sort_ascending = specs->Specs[0].SortDirection != ImGuiSortDirection_Descending;
                sort_scaling_rows(app.scaling_rows, static_cast<ScalingColumn>(app.scaling_sort_column), app.scaling_sort_ascending);
            } else if (specs->SpecsDirty) {
                app.scaling_sort_column = -1;  // back to insertion order for rows added from now on
            }
            specs->SpecsDirty = false;
        }
        int remove_index = -1;
        for (std::size_t i = 0; i < app.scaling_rows.size(); ++i) {
            const ScalingRow& row = app.scaling_rows[i];
            ImGui::PushID(static_cast<int>(i));
            ImGui::TableNextRow();
            ImGui::TableNextColumn();
            wrapped_text("%s", row.label.c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_count_short(row.param_count, 3).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_decimal(row.bytes_per_param).c_str());
            ImGui::TableNextColumn();
            ImGui::TextUnformatted(format_gb(row.weight_bytes).c_str());
            ImGui::TableNextColumn();
            if (ImGui::SmallButton("×")) remove_index = static_cast<int>(i);
            if (ImGui::IsItemHovered()) ImGui::SetTooltip("Remove %s", row.label.c_str());
            ImGui::PopID();
        }
        ImGui::EndTable();
        if (remove_index >= 0) app.scaling_rows.erase(app.scaling_rows.begin() + remove_index);
    }
    if (app.scaling_rows.empty()) muted_text("No rows: add the current scenario or restore the seed's rows.");
    ImGui::Spacing();
    draw_scaling_plot(app.scaling_rows, app.scenario, app.estimate, theme_palette(app.dark_theme));
}

}  // namespace llm_memory
