// Reports: the CLI's JSON object and the screen-reader summary carry core's exact figures.
#include <catch_amalgamated.hpp>

#include "report.hpp"

using namespace llm_memory;

TEST_CASE("report_json has every key with integer bytes (seed 13B)", "[report]") {
    const Scenario s;
    const std::string json = report_json(s, estimate(s).value());
    CHECK(json ==
          "{\"parameters\":13000000000,\"trainable_parameters\":13000000000,\"bytes_per_parameter\":2,"
          "\"overhead_factor\":1.2,\"values_per_trainable\":3,\"bytes_per_value\":2,\"weight_bytes\":26000000000,"
          "\"inference_bytes\":31200000000,\"gradient_optimizer_bytes\":78000000000,\"training_bytes\":104000000000,"
          "\"full_training_bytes\":104000000000,\"reduction_bytes\":0}");
}

TEST_CASE("report_summary reads the seed's figures in GB and GiB", "[report]") {
    const Scenario s;
    CHECK(report_summary(estimate(s).value()) ==
          "Weight memory 26 GB (24.21 GiB). Inference total 31.2 GB (29.06 GiB). "
          "Gradient+optimizer memory 78 GB (72.64 GiB). Training total 104 GB (96.86 GiB).");
}

TEST_CASE("json_escape escapes quotes and control characters", "[report]") {
    CHECK(json_escape("a\"b\\c\n\x01") == "a\\\"b\\\\c\\n\\u0001");
}
