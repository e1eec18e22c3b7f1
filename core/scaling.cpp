// The scaling table, its copies, and chart figures. Byte figures come from estimate(); the only
// arithmetic here is on axes, slider positions and unit prefixes, never on the seed's formulas.
#include "scaling.hpp"

#include <algorithm>
#include <cmath>

#include "settings.hpp"
#include "small_sort.hpp"

namespace llm_memory {
namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::vector<AxisTick> nice_ticks(std::uint64_t max_value, std::string (*label)(std::uint64_t)) {
    if (max_value == 0) max_value = 1;
    std::uint64_t step = 1;
    for (std::uint64_t decade = 1;; decade *= 10) {
        bool found = false;
        for (std::uint64_t mantissa : {1ULL, 2ULL, 5ULL}) {
            step = mantissa * decade;
            if (max_value / step + (max_value % step != 0 ? 1 : 0) <= 6) {
                found = true;
                break;
            }
        }
        if (found || decade > UINT64_MAX / 100) break;
    }
    const std::uint64_t intervals = max_value / step + (max_value % step != 0 ? 1 : 0);
    std::vector<AxisTick> ticks;
    for (std::uint64_t i = 0; i <= intervals; ++i) {
        // Near 2^64 the last nice value does not fit: the axis then ends at the largest representable value.
        const u128 value = static_cast<u128>(i) * step;
        const std::uint64_t tick = value > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(value);
        ticks.push_back({tick, label(tick)});
    }
    return ticks;
}

std::string byte_label(std::uint64_t bytes) { return bytes == 0 ? std::string("0") : format_bytes_decimal(bytes); }
std::string count_label(std::uint64_t count) { return format_count_short(count); }

}  // namespace

std::vector<ScalingRow> seed_scaling_rows() {
    std::vector<ScalingRow> rows;
    const struct {
        const char* label;
        std::uint64_t param_count;
        std::uint64_t bytes;
    } kSeed[] = {
        {"13B model", 13'000'000'000ULL, 2},
        {"70B model", 70'000'000'000ULL, 2},
        {"13B model (hypothetical 1-byte storage)", 13'000'000'000ULL, 1},
    };
    for (const auto& seed : kSeed) {
        Expected<ScalingRow> row = make_scaling_row(seed.label, seed.param_count, Decimal::from_int(seed.bytes));
        if (row) rows.push_back(*row);
    }
    return rows;
}

Expected<ScalingRow> make_scaling_row(std::string label, std::uint64_t param_count, Decimal bytes_per_param) {
    Scenario s;
    s.param_count = param_count;
    s.bytes_per_param = bytes_per_param;
    const Expected<Estimate> e = estimate(s);
    if (!e) return Error{e.error()};
    return ScalingRow{std::move(label), param_count, bytes_per_param, e->weight_bytes};
}

std::string scaling_row_label(std::uint64_t param_count, Decimal bytes_per_param) {
    const std::string b = format_decimal(bytes_per_param);
    return format_count_state(param_count) + " at " + b + (b == "1" ? " byte" : " bytes");
}

void sort_scaling_rows(std::vector<ScalingRow>& rows, ScalingColumn column, bool ascending) {
    auto key_less = [column](const ScalingRow& a, const ScalingRow& b) {
        switch (column) {
            case ScalingColumn::model: return a.label < b.label;
            case ScalingColumn::params: return a.param_count < b.param_count;
            case ScalingColumn::bytes_per_param: return a.bytes_per_param < b.bytes_per_param;
            case ScalingColumn::weight: return a.weight_bytes < b.weight_bytes;
        }
        return false;
    };
    stable_sort_small(rows, [&](const ScalingRow& a, const ScalingRow& b) { return ascending ? key_less(a, b) : key_less(b, a); });
}

std::string scaling_markdown(const std::vector<ScalingRow>& rows) {
    std::string out = "| Model | Parameters | Bytes per parameter | Weight memory |\n|---|---|---|---|\n";
    for (const ScalingRow& row : rows) {
        std::string label = row.label;
        std::replace(label.begin(), label.end(), '|', '/');
        out += "| " + label + " | " + format_count_state(row.param_count) + " | " + format_decimal(row.bytes_per_param) +
               " | " + format_gb(row.weight_bytes) + " |\n";
    }
    return out;
}

std::string scaling_csv(const std::vector<ScalingRow>& rows) {
    std::string out = "model,parameters,bytes_per_parameter,weight_bytes,weight_gb,weight_gib\n";
    for (const ScalingRow& row : rows) {
        out += csv_field(row.label) + "," + std::to_string(row.param_count) + "," + format_decimal(row.bytes_per_param) +
               "," + std::to_string(row.weight_bytes) + "," + format_ratio(row.weight_bytes, 1'000'000'000ULL, 2) + "," +
               format_ratio(row.weight_bytes, 1ULL << 30, 2) + "\n";
    }
    return out;
}

std::vector<PlotPoint> weight_line(std::uint64_t max_param_count, Decimal bytes_per_param, int point_count) {
    std::vector<PlotPoint> points;
    if (point_count < 1 || max_param_count == 0) return points;
    points.push_back({0, 0});  // no parameters, no weights
    const auto count = static_cast<std::uint64_t>(point_count);
    for (std::uint64_t i = 1; i <= count; ++i) {
        const auto n = static_cast<std::uint64_t>(static_cast<u128>(max_param_count) * i / count);
        Scenario s;
        s.param_count = n == 0 ? 1 : n;
        s.bytes_per_param = bytes_per_param;
        const Expected<Estimate> e = estimate(s);
        if (!e) return {};
        points.push_back({n, e->weight_bytes});
    }
    return points;
}

std::vector<AxisTick> byte_axis_ticks(std::uint64_t max_bytes) { return nice_ticks(max_bytes, byte_label); }
std::vector<AxisTick> count_axis_ticks(std::uint64_t max_count) { return nice_ticks(max_count, count_label); }

std::uint64_t log_slider_param_count(double position) {
    const double p = std::clamp(position, 0.0, 1.0);
    const double lo = std::log10(static_cast<double>(kSliderMinParamCount));
    const double hi = std::log10(static_cast<double>(kSliderMaxParamCount));
    const double value = std::pow(10.0, lo + p * (hi - lo));
    const double magnitude = std::pow(10.0, std::floor(std::log10(value)) - 1.0);
    const auto rounded = static_cast<std::uint64_t>(std::llround(value / magnitude) * static_cast<long long>(magnitude));
    return std::clamp(rounded, kSliderMinParamCount, kSliderMaxParamCount);
}

double log_slider_position(std::uint64_t param_count) {
    const std::uint64_t n = std::clamp(param_count, kSliderMinParamCount, kSliderMaxParamCount);
    const double lo = std::log10(static_cast<double>(kSliderMinParamCount));
    const double hi = std::log10(static_cast<double>(kSliderMaxParamCount));
    return (std::log10(static_cast<double>(n)) - lo) / (hi - lo);
}

}  // namespace llm_memory
