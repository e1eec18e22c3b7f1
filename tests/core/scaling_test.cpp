// The scaling table and chart helpers. Golden rows from the seed document (../shared/seed), "How Weight
// Memory Scales": 13B@2 = 26 GB, 70B@2 = 140 GB, 13B@1 (hypothetical 1-byte storage) = 13 GB.
#include <catch_amalgamated.hpp>

#include "scaling.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GB = 1'000'000'000ULL;
}

TEST_CASE("seed: the scaling table's three rows", "[scaling][seed]") {
    const std::vector<ScalingRow> rows = seed_scaling_rows();
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].weight_bytes == 26 * GB);
    CHECK(rows[1].weight_bytes == 140 * GB);
    CHECK(rows[2].weight_bytes == 13 * GB);
    CHECK(rows[2].label == "13B model (hypothetical 1-byte storage)");
}

TEST_CASE("seed: the table as Markdown is the seed's table", "[scaling][seed]") {
    // Copied verbatim from the seed document.
    CHECK(scaling_markdown(seed_scaling_rows()) ==
          "| Model | Parameters | Bytes per parameter | Weight memory |\n"
          "|---|---|---|---|\n"
          "| 13B model | 13B | 2 | 26 GB |\n"
          "| 70B model | 70B | 2 | 140 GB |\n"
          "| 13B model (hypothetical 1-byte storage) | 13B | 1 | 13 GB |\n");
}

TEST_CASE("the table as CSV, with exact bytes and quoted labels", "[scaling]") {
    std::vector<ScalingRow> rows = seed_scaling_rows();
    const Expected<ScalingRow> extra = make_scaling_row("Llama-2-7B, fp16", 6'738'415'616ULL, Decimal::from_int(2));
    REQUIRE(extra.ok());
    rows.push_back(*extra);
    const std::string csv = scaling_csv(rows);
    CHECK(csv.rfind("model,parameters,bytes_per_parameter,weight_bytes,weight_gb,weight_gib\n"
                    "13B model,13000000000,2,26000000000,26,24.21\n",
                    0) == 0);
    CHECK(csv.find("\"Llama-2-7B, fp16\",6738415616,2,13476831232,13.48,12.55\n") != std::string::npos);
}

TEST_CASE("rows from the current scenario, and their errors", "[scaling]") {
    const Expected<ScalingRow> int4 = make_scaling_row(scaling_row_label(70 * GB, Decimal{500'000}), 70 * GB, Decimal{500'000});
    REQUIRE(int4.ok());
    CHECK(int4->label == "70B at 0.5 bytes");
    CHECK(int4->weight_bytes == 35 * GB);
    CHECK(scaling_row_label(13 * GB, Decimal::from_int(1)) == "13B at 1 byte");
    const Expected<ScalingRow> zero = make_scaling_row("none", 0, Decimal::from_int(2));
    REQUIRE_FALSE(zero.ok());
    CHECK(zero.error() == "params: must be greater than zero");
}

TEST_CASE("sorting by each column, stable for equal keys", "[scaling]") {
    std::vector<ScalingRow> rows = seed_scaling_rows();
    sort_scaling_rows(rows, ScalingColumn::weight, false);
    CHECK(rows[0].weight_bytes == 140 * GB);
    CHECK(rows[1].weight_bytes == 26 * GB);
    CHECK(rows[2].weight_bytes == 13 * GB);
    sort_scaling_rows(rows, ScalingColumn::params, true);
    // The two 13B rows keep their previous order (26 GB before 13 GB).
    CHECK(rows[0].weight_bytes == 26 * GB);
    CHECK(rows[1].weight_bytes == 13 * GB);
    CHECK(rows[2].param_count == 70 * GB);
    sort_scaling_rows(rows, ScalingColumn::bytes_per_param, true);
    CHECK(rows[0].bytes_per_param == Decimal::from_int(1));
    sort_scaling_rows(rows, ScalingColumn::model, true);
    CHECK(rows[0].label == "13B model");
    CHECK(rows[1].label == "13B model (hypothetical 1-byte storage)");
    CHECK(rows[2].label == "70B model");
}

TEST_CASE("the weight line is straight: half the parameters, half the memory", "[scaling][seed]") {
    const std::vector<PlotPoint> line = weight_line(70 * GB, Decimal::from_int(2), 4);
    REQUIRE(line.size() == 5);
    CHECK(line[0].param_count == 0);
    CHECK(line[0].weight_bytes == 0);
    CHECK(line[2].param_count == 35 * GB);
    CHECK(line[2].weight_bytes == 70 * GB);
    CHECK(line[4].weight_bytes == 140 * GB);
    CHECK(weight_line(0, Decimal::from_int(2), 4).empty());
    CHECK(weight_line(70 * GB, Decimal{0}, 4).empty());
}

TEST_CASE("axis ticks end at a nice value above the maximum", "[scaling]") {
    // The seed's training total, 104 GB: ticks every 20 GB up to 120 GB.
    const std::vector<AxisTick> bytes = byte_axis_ticks(104 * GB);
    REQUIRE(bytes.size() == 7);
    CHECK(bytes.front().label == "0");
    CHECK(bytes[1].label == "20 GB");
    CHECK(bytes.back().value == 120 * GB);
    CHECK(bytes.back().label == "120 GB");
    const std::vector<AxisTick> counts = count_axis_ticks(70 * GB);
    REQUIRE(counts.size() == 5);
    CHECK(counts.back().label == "80B");
    const std::vector<AxisTick> tiny = byte_axis_ticks(0);
    CHECK(tiny.back().value == 1);
    // Near the top of the range the step stays representable.
    CHECK(byte_axis_ticks(18'000'000'000'000'000'000ULL).size() >= 2);
}

TEST_CASE("the log slider spans 1M to 2T and round-trips common sizes", "[scaling]") {
    CHECK(log_slider_param_count(0.0) == kSliderMinParamCount);
    CHECK(log_slider_param_count(1.0) == kSliderMaxParamCount);
    CHECK(log_slider_param_count(-3.0) == kSliderMinParamCount);
    CHECK(log_slider_param_count(7.0) == kSliderMaxParamCount);
    for (std::uint64_t n : {13 * GB, 70 * GB, 7 * GB, 350 * GB / 1000, 1500 * GB})
        CHECK(log_slider_param_count(log_slider_position(n)) == n);
    CHECK(log_slider_position(1) == 0.0);
    // Monotonic: a larger position never gives a smaller count.
    std::uint64_t last = 0;
    for (int i = 0; i <= 100; ++i) {
        const std::uint64_t n = log_slider_param_count(i / 100.0);
        CHECK(n >= last);
        last = n;
    }
}
