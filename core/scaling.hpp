// The scaling table (the seed's "How Weight Memory Scales" rows plus user rows), its sorting and its
// Markdown/CSV copies, and the figures the app's charts need: the weight-memory line, axis ticks, the
// parameter slider's logarithmic scale and a typed GPU capacity. Every byte figure comes from estimate().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "estimator.hpp"

namespace llm_memory {

// One row of the scaling table.
struct ScalingRow {
    std::string label;            // "13B model"
    std::uint64_t param_count;    // N
    Decimal bytes_per_param;      // b
    std::uint64_t weight_bytes;   // N x b, from estimate()
};

// The seed's three rows: 13B@2 (26 GB), 70B@2 (140 GB), 13B@1 "hypothetical 1-byte storage" (13 GB).
std::vector<ScalingRow> seed_scaling_rows();

// A row for N parameters at b bytes each. Errors are estimate()'s ("params: ...", "bytes: ...").
Expected<ScalingRow> make_scaling_row(std::string label, std::uint64_t param_count, Decimal bytes_per_param);

// "13B at 2 bytes": a label for a row made from the current scenario.
std::string scaling_row_label(std::uint64_t param_count, Decimal bytes_per_param);

// The table's columns, in display order.
enum class ScalingColumn { model, params, bytes_per_param, weight };

// Sorts rows by a column (stable: equal rows keep their order). Model sorts by label text.
void sort_scaling_rows(std::vector<ScalingRow>& rows, ScalingColumn column, bool ascending);

// The table as Markdown, in the seed's layout: | Model | Parameters | Bytes per parameter | Weight memory |.
std::string scaling_markdown(const std::vector<ScalingRow>& rows);

// The table as CSV with a header: model,parameters,bytes_per_parameter,weight_bytes,weight_gb,weight_gib.
// Labels are quoted when they hold a comma or a quote.
std::string scaling_csv(const std::vector<ScalingRow>& rows);

// A point of the weight-memory line.
struct PlotPoint {
    std::uint64_t param_count;
    std::uint64_t weight_bytes;
};

// point_count + 1 points (point_count >= 1) of weight memory against N from 0 to max_param_count at b bytes,
// evenly spaced in N; the line is straight because the formula is linear. Empty if max_param_count or b
// is invalid.
std::vector<PlotPoint> weight_line(std::uint64_t max_param_count, Decimal bytes_per_param, int point_count);

// One axis tick: its value and its label ("50 GB", "20B").
struct AxisTick {
    std::uint64_t value;
    std::string label;
};

// Ticks from 0 to the first "nice" value (1, 2 or 5 x 10^n) at or above max_value, 3 to 6 intervals.
// The last tick is the axis maximum. Byte ticks are labelled in GB (or MB/KB when small); count ticks
// with a B/M/T suffix.
std::vector<AxisTick> byte_axis_ticks(std::uint64_t max_bytes);
std::vector<AxisTick> count_axis_ticks(std::uint64_t max_count);

// The parameter slider's range: 1M to 2T on a logarithmic scale.
inline constexpr std::uint64_t kSliderMinParamCount = 1'000'000ULL;
inline constexpr std::uint64_t kSliderMaxParamCount = 2'000'000'000'000ULL;

// Slider position in [0, 1] -> parameter count, rounded to two significant digits (1.3B, 70B, 350M).
// Positions outside [0, 1] are clamped.
std::uint64_t log_slider_param_count(double position);

// Parameter count -> slider position in [0, 1] (clamped to the slider's range).
double log_slider_position(std::uint64_t param_count);

}  // namespace llm_memory
