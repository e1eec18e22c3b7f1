// ImDrawList charts. Positions are floats derived from core's byte figures (bytes / axis maximum x width);
// every label is a string formatted by core. Each chart reserves its space with Dummy() so layout flows.
#include "charts.hpp"

#include <algorithm>

#include "panels.hpp"
#include "quantity.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

float fraction(std::uint64_t value, std::uint64_t axis_max) {
    if (axis_max == 0) return 0.0f;
    return static_cast<float>(static_cast<double>(value) / static_cast<double>(axis_max));
}

ImU32 with_alpha(ImU32 color, int alpha) { return (color & ~IM_COL32_A_MASK) | (static_cast<ImU32>(alpha) << IM_COL32_A_SHIFT); }

// A card: filled rounded rectangle, a border and a coloured bar on its left edge.
void draw_card(ImDrawList* draw, ImVec2 min, ImVec2 max, ImU32 accent, const Palette& palette) {
    const float rounding = ImGui::GetStyle().ChildRounding;
    draw->AddRectFilled(min, max, palette.card_bg, rounding);
    draw->AddRect(min, max, palette.card_border, rounding);
    draw->AddRectFilled(min, ImVec2(min.x + 4.0f * ImGui::GetStyle().FramePadding.y / 5.0f + 2.0f, max.y), accent, rounding,
                        ImDrawFlags_RoundCornersLeft);
}

struct CardText {
    std::string title;
    std::string formula;
    std::string figure;
};

ImVec2 card_size(const CardText& t, float pad) {
    const float w = std::max({ImGui::CalcTextSize(t.title.c_str()).x, ImGui::CalcTextSize(t.formula.c_str()).x,
                              ImGui::CalcTextSize(t.figure.c_str()).x});
    return ImVec2(w + 2.0f * pad + 4.0f, 3.0f * ImGui::GetTextLineHeightWithSpacing() + pad);
}

void draw_card_text(ImDrawList* draw, ImVec2 min, const CardText& t, float pad, ImU32 figure_color, const Palette& palette) {
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const ImVec2 at(min.x + pad + 4.0f, min.y + pad * 0.5f);
    draw->AddText(at, palette.text_muted, t.title.c_str());
    draw->AddText(ImVec2(at.x, at.y + line), palette.text, t.formula.c_str());
    draw->AddText(ImVec2(at.x, at.y + 2.0f * line), figure_color, t.figure.c_str());
}

void draw_arrow(ImDrawList* draw, ImVec2 from, ImVec2 to, ImU32 color, float thickness) {
    draw->AddLine(from, to, color, thickness);
    const float head = thickness * 4.0f;
    if (from.y == to.y) {
        const float dir = to.x > from.x ? 1.0f : -1.0f;
        draw->AddTriangleFilled(ImVec2(to.x, to.y), ImVec2(to.x - dir * head, to.y - head * 0.6f),
                                ImVec2(to.x - dir * head, to.y + head * 0.6f), color);
    } else {
        draw->AddTriangleFilled(ImVec2(to.x, to.y), ImVec2(to.x - head * 0.6f, to.y - head), ImVec2(to.x + head * 0.6f, to.y - head),
                                color);
    }
}

}  // namespace

void draw_two_step_diagram(const Scenario& s, const Estimate& e, const Palette& palette) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float pad = style.FramePadding.x * 1.5f;
    const std::string factor = format_decimal(s.overhead_factor);
    // A weight format (QLoRA's NF4, a dtype, a model file) replaces b: the card names it instead.
    const std::string weight_formula = e.weight_format.empty()
                                           ? "N × b = " + format_count_state(e.param_count) + " × " + format_decimal(s.bytes_per_param)
                                           : e.quantized_linear_count > 0
                                                 ? format_count_state(e.quantized_linear_count) + " quantized + the rest in " +
                                                       (unquantized_bytes(s) == 4 ? "fp32" : "16 bits")
                                                 : format_count_state(e.param_count) + " at " + weight_format_value(e);
    const CardText weights{"1  Weights", weight_formula,
                           format_gb(e.weight_bytes) + "  (" + format_gib(e.weight_bytes) + ")"};
    const CardText total{"2  Inference total", "weights × " + factor,
                         format_gb(e.inference_bytes) + "  (" + format_gib(e.inference_bytes) + ")"};
    const std::string arrow_top = "× " + factor;
    const std::string arrow_bottom = "overhead factor";
    const std::string margin = "+" + format_gb(e.overhead_margin_bytes);

    const ImVec2 w_size = card_size(weights, pad);
    const ImVec2 t_size = card_size(total, pad);
    const float arrow_text_w = std::max({ImGui::CalcTextSize(arrow_top.c_str()).x, ImGui::CalcTextSize(arrow_bottom.c_str()).x,
                                         ImGui::CalcTextSize(margin.c_str()).x});
    const float arrow_w = arrow_text_w + 2.0f * pad;
    const float avail = ImGui::GetContentRegionAvail().x;
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    const float thickness = std::max(1.5f, style.FramePadding.y * 0.4f);

    if (w_size.x + arrow_w + t_size.x <= avail) {
        const float h = std::max(w_size.y, t_size.y);
        const ImVec2 a_min = origin;
        const ImVec2 a_max(origin.x + w_size.x, origin.y + h);
        const ImVec2 b_min(a_max.x + arrow_w, origin.y);
        const ImVec2 b_max(b_min.x + t_size.x, origin.y + h);
        draw_card(draw, a_min, a_max, palette.weights, palette);
        draw_card(draw, b_min, b_max, palette.overhead, palette);
        draw_card_text(draw, a_min, weights, pad, palette.weights, palette);
        draw_card_text(draw, b_min, total, pad, palette.overhead, palette);
        const float mid_y = origin.y + h * 0.5f;
        draw_arrow(draw, ImVec2(a_max.x + pad * 0.4f, mid_y), ImVec2(b_min.x - pad * 0.4f, mid_y), palette.text, thickness);
        const float cx = a_max.x + arrow_w * 0.5f;
        draw->AddText(ImVec2(cx - ImGui::CalcTextSize(arrow_top.c_str()).x * 0.5f, mid_y - line - 2.0f), palette.text, arrow_top.c_str());
        draw->AddText(ImVec2(cx - ImGui::CalcTextSize(arrow_bottom.c_str()).x * 0.5f, mid_y + 4.0f), palette.text_muted,
                      arrow_bottom.c_str());
        draw->AddText(ImVec2(cx - ImGui::CalcTextSize(margin.c_str()).x * 0.5f, mid_y + 4.0f + line), palette.overhead, margin.c_str());
        ImGui::Dummy(ImVec2(b_max.x - origin.x, h));
    } else {
        // Narrow: the same two steps stacked, the arrow pointing down.
        const float card_w = std::min(avail, std::max(w_size.x, t_size.x));
        const float arrow_h = 2.0f * line + pad;
        const ImVec2 a_min = origin;
        const ImVec2 a_max(origin.x + card_w, origin.y + w_size.y);
        const ImVec2 b_min(origin.x, a_max.y + arrow_h);
        const ImVec2 b_max(origin.x + card_w, b_min.y + t_size.y);
        draw_card(draw, a_min, a_max, palette.weights, palette);
        draw_card(draw, b_min, b_max, palette.overhead, palette);
        draw_card_text(draw, a_min, weights, pad, palette.weights, palette);
        draw_card_text(draw, b_min, total, pad, palette.overhead, palette);
        const float ax = origin.x + pad * 2.0f;
        draw_arrow(draw, ImVec2(ax, a_max.y + 3.0f), ImVec2(ax, b_min.y - 3.0f), palette.text, thickness);
        const std::string label = arrow_top + " " + arrow_bottom + "  " + margin;
        draw->AddText(ImVec2(ax + pad, a_max.y + (arrow_h - line) * 0.5f), palette.text, label.c_str());
        ImGui::Dummy(ImVec2(card_w, b_max.y - origin.y));
    }
}

void draw_stacked_bars(const char* id, const std::vector<StackedBar>& bars, std::uint64_t capacity_bytes,
                       const std::string& capacity_label, const Palette& palette) {
    ImGui::PushID(id);
    const ImGuiStyle& style = ImGui::GetStyle();
    std::uint64_t max_bytes = capacity_bytes;
    for (const StackedBar& bar : bars) max_bytes = std::max(max_bytes, bar.total_bytes);
    const std::vector<AxisTick> ticks = byte_axis_ticks(max_bytes);
    const std::uint64_t axis_max = ticks.back().value;

    const float line = ImGui::GetTextLineHeight();
    const float width = std::max(ImGui::GetContentRegionAvail().x - 1.0f, 60.0f);
    const float bar_h = line * 1.5f;
    const float gap = style.ItemSpacing.y;
    ImDrawList* draw = ImGui::GetWindowDrawList();
    ImVec2 cursor = ImGui::GetCursorScreenPos();
    const float left = cursor.x;
    if (capacity_bytes > 0) cursor.y += line + gap;  // room for the capacity label
    const float bars_top = cursor.y;
    const float row_h = line + gap * 0.5f + bar_h + gap * 1.5f;
    const float bars_bottom = bars_top + row_h * static_cast<float>(bars.size()) - gap * 1.5f;

    // The byte axis: tick marks, and labels that are skipped when they would collide.
    float last_label_end = -1e9f;
    for (const AxisTick& tick : ticks) {
        const float x = left + fraction(tick.value, axis_max) * width;
        draw->AddLine(ImVec2(x, bars_top + line), ImVec2(x, bars_bottom + 3.0f), with_alpha(palette.grid, 110), 1.0f);
        const float label_w = ImGui::CalcTextSize(tick.label.c_str()).x;
        float lx = std::clamp(x - label_w * 0.5f, left, left + width - label_w);
        if (lx > last_label_end + style.ItemSpacing.x) {
            draw->AddText(ImVec2(lx, bars_bottom + 4.0f), palette.text_muted, tick.label.c_str());
            last_label_end = lx + label_w;
        }
    }

    for (const StackedBar& bar : bars) {
        // "Inference  31.2 GB": the total follows its label, clear of the capacity line on the right.
        draw->AddText(cursor, palette.text, bar.label.c_str());
        const float label_w = ImGui::CalcTextSize(bar.label.c_str()).x;
        draw->AddText(ImVec2(cursor.x + label_w + style.ItemSpacing.x * 1.5f, cursor.y), ImGui::GetColorU32(palette.accent_text), bar.total_text.c_str());
        cursor.y += line + gap * 0.5f;
        draw->AddRectFilled(cursor, ImVec2(left + width, cursor.y + bar_h), with_alpha(palette.grid, 45), 3.0f);
        float x = left;
        for (const BarSegment& segment : bar.segments) {
            const float w = fraction(segment.bytes, axis_max) * width;
            if (w <= 0.0f) continue;
            const ImVec2 seg_min(x, cursor.y);
            const ImVec2 seg_max(x + w, cursor.y + bar_h);
            draw->AddRectFilled(seg_min, seg_max, segment.color);
            const std::string figure = format_gb(segment.bytes);
            const ImVec2 text_size = ImGui::CalcTextSize(figure.c_str());
            if (text_size.x + 8.0f < w)
                draw->AddText(ImVec2(x + (w - text_size.x) * 0.5f, cursor.y + (bar_h - text_size.y) * 0.5f), palette.bar_text,
                              figure.c_str());
            if (ImGui::IsMouseHoveringRect(seg_min, seg_max))
                ImGui::SetTooltip("%s: %s (%s)", segment.name, figure.c_str(), format_gib(segment.bytes).c_str());
            x += w;
        }
        cursor.y += bar_h + gap * 1.5f;
    }

    cursor.y = bars_bottom + 4.0f + line;

    if (capacity_bytes > 0) {
        const float x = left + std::min(fraction(capacity_bytes, axis_max), 1.0f) * width;
        const float thick = std::max(2.0f, style.FramePadding.y * 0.5f);
        draw->AddLine(ImVec2(x, bars_top - 2.0f), ImVec2(x, bars_bottom + 2.0f), palette.capacity, thick);
        const float label_w = ImGui::CalcTextSize(capacity_label.c_str()).x;
        const float lx = std::clamp(x - label_w * 0.5f, left, left + width - label_w);
        draw->AddText(ImVec2(lx, bars_top - line - gap), palette.capacity, capacity_label.c_str());
    }
    ImGui::Dummy(ImVec2(width, cursor.y - ImGui::GetCursorScreenPos().y + gap));

    // Legend: one swatch per distinct segment name, wrapping to the width.
    std::vector<const BarSegment*> seen;
    for (const StackedBar& bar : bars)
        for (const BarSegment& segment : bar.segments)
            if (std::none_of(seen.begin(), seen.end(), [&](const BarSegment* s) { return std::string(s->name) == segment.name; }))
                seen.push_back(&segment);
    float used = 0.0f;
    for (const BarSegment* segment : seen) {
        const float item_w = line + style.ItemInnerSpacing.x + ImGui::CalcTextSize(segment->name).x;
        if (used > 0.0f && used + style.ItemSpacing.x * 2.0f + item_w <= width) ImGui::SameLine(0.0f, style.ItemSpacing.x * 2.0f);
        else used = 0.0f;
        const ImVec2 p = ImGui::GetCursorScreenPos();
        draw->AddRectFilled(ImVec2(p.x, p.y + line * 0.15f), ImVec2(p.x + line * 0.7f, p.y + line * 0.85f), segment->color, 2.0f);
        ImGui::Dummy(ImVec2(line * 0.7f, line));
        ImGui::SameLine(0.0f, style.ItemInnerSpacing.x);
        ImGui::TextUnformatted(segment->name);
        used += (used > 0.0f ? style.ItemSpacing.x * 2.0f : 0.0f) + item_w;
    }
    ImGui::PopID();
}

void draw_scaling_plot(const std::vector<ScalingRow>& rows, const Scenario& s, const Estimate& e, const Palette& palette) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float line = ImGui::GetTextLineHeight();
    const float width = std::max(ImGui::GetContentRegionAvail().x - 1.0f, 120.0f);
    const float height = std::clamp(width * 0.5f, line * 10.0f, line * 16.0f);

    std::uint64_t max_count = e.param_count;
    for (const ScalingRow& row : rows) max_count = std::max(max_count, row.param_count);
    const std::vector<AxisTick> x_ticks = count_axis_ticks(max_count);
    const std::uint64_t x_max = x_ticks.back().value;
    const std::vector<PlotPoint> points = weight_line(x_max, s.bytes_per_param, 4);
    std::uint64_t max_bytes = e.weight_bytes;
    if (!points.empty()) max_bytes = std::max(max_bytes, points.back().weight_bytes);
    for (const ScalingRow& row : rows) max_bytes = std::max(max_bytes, row.weight_bytes);
    const std::vector<AxisTick> y_ticks = byte_axis_ticks(max_bytes);
    const std::uint64_t y_max = y_ticks.back().value;

    float y_label_w = 0.0f;
    for (const AxisTick& t : y_ticks) y_label_w = std::max(y_label_w, ImGui::CalcTextSize(t.label.c_str()).x);
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const ImVec2 plot_min(origin.x + y_label_w + style.ItemSpacing.x, origin.y + line * 0.5f);
    const ImVec2 plot_max(origin.x + width - line, origin.y + height - line * 1.6f);
    ImDrawList* draw = ImGui::GetWindowDrawList();
    auto to_screen = [&](std::uint64_t count, std::uint64_t bytes) {
        return ImVec2(plot_min.x + fraction(count, x_max) * (plot_max.x - plot_min.x),
                      plot_max.y - fraction(bytes, y_max) * (plot_max.y - plot_min.y));
    };

    for (const AxisTick& t : y_ticks) {
        const float y = to_screen(0, t.value).y;
        draw->AddLine(ImVec2(plot_min.x, y), ImVec2(plot_max.x, y), with_alpha(palette.grid, 90));
        const float w = ImGui::CalcTextSize(t.label.c_str()).x;
        draw->AddText(ImVec2(plot_min.x - style.ItemSpacing.x - w, y - line * 0.5f), palette.text_muted, t.label.c_str());
    }
    float last_end = -1e9f;
    for (const AxisTick& t : x_ticks) {
        const float x = to_screen(t.value, 0).x;
        draw->AddLine(ImVec2(x, plot_max.y), ImVec2(x, plot_max.y + 4.0f), palette.grid);
        const float w = ImGui::CalcTextSize(t.label.c_str()).x;
        const float lx = std::clamp(x - w * 0.5f, plot_min.x, plot_max.x + line - w);
        if (lx > last_end + style.ItemSpacing.x) {
            draw->AddText(ImVec2(lx, plot_max.y + 5.0f), palette.text_muted, t.label.c_str());
            last_end = lx + w;
        }
    }
    draw->AddLine(ImVec2(plot_min.x, plot_max.y), plot_max, palette.grid, 1.5f);
    draw->AddLine(plot_min, ImVec2(plot_min.x, plot_max.y), palette.grid, 1.5f);

    for (std::size_t i = 1; i < points.size(); ++i)
        draw->AddLine(to_screen(points[i - 1].param_count, points[i - 1].weight_bytes),
                      to_screen(points[i].param_count, points[i].weight_bytes), palette.weights, 2.5f);
    const float dot = std::max(4.0f, line * 0.25f);
    for (const ScalingRow& row : rows) {
        const ImVec2 p = to_screen(row.param_count, row.weight_bytes);
        draw->AddCircleFilled(p, dot, palette.overhead);
        if (ImGui::IsMouseHoveringRect(ImVec2(p.x - dot * 2, p.y - dot * 2), ImVec2(p.x + dot * 2, p.y + dot * 2)))
            ImGui::SetTooltip("%s: %s x %s bytes = %s", row.label.c_str(), format_count_state(row.param_count).c_str(),
                              format_decimal(row.bytes_per_param).c_str(), format_gb(row.weight_bytes).c_str());
    }
    const ImVec2 current = to_screen(e.param_count, e.weight_bytes);
    draw->AddCircle(current, dot * 2.0f, palette.current, 0, 2.5f);
    draw->AddCircleFilled(current, dot * 0.9f, palette.current);
    const std::string label = "you: " + format_count_short(e.param_count) + ", " + format_gb(e.weight_bytes);
    const float label_w = ImGui::CalcTextSize(label.c_str()).x;
    float lx = current.x + dot * 2.5f;
    if (lx + label_w > plot_max.x) lx = current.x - dot * 2.5f - label_w;
    lx = std::max(lx, plot_min.x + 2.0f);
    const float ly = std::clamp(current.y - line * 1.4f, plot_min.y, plot_max.y - line);
    draw->AddText(ImVec2(lx, ly), palette.text, label.c_str());
    ImGui::Dummy(ImVec2(width, height));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped_text("Line: weight memory at b = %s bytes per parameter (linear in N). Dots: the table's rows.",
                       format_decimal(s.bytes_per_param).c_str());
    ImGui::PopStyleColor();
}

}  // namespace llm_memory
