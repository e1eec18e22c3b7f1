// The settings table as a form (core/settings_form.hpp): what the web page's text view is generated from.
#include <catch_amalgamated.hpp>

#include <string>

#include "estimator.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "settings_form.hpp"

using namespace llm_memory;

TEST_CASE("every setting has a form row with its own label, help, kind and current value") {
    const std::string json = settings_form_json(Scenario{});
    for (const SettingSpec& spec : setting_specs()) {
        const std::string head = std::string("{\"key\":\"") + spec.key + "\",\"label\":\"";
        const std::size_t at = json.find(head);
        INFO(spec.key);
        REQUIRE(at != std::string::npos);
        // A row of its own: the label is not the key (a key missing from the form table falls back to it).
        CHECK(json.compare(at + head.size(), std::string(spec.key).size() + 1, std::string(spec.key) + "\"") != 0);
        CHECK(json.find("\"kind\":\"", at) != std::string::npos);
    }
}

TEST_CASE("the form shows the seed's defaults as values, and the scenario's own values") {
    const std::string defaults = settings_form_json(Scenario{});
    CHECK(defaults.find("\"key\":\"params\",\"label\":\"Parameters (N)\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"count\",\"value\":\"13B\"") != std::string::npos);
    CHECK(defaults.find("\"key\":\"bytes\",\"label\":\"Bytes per parameter (b)\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"number\",\"value\":\"2\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"number\",\"value\":\"1.2\"") != std::string::npos);  // overhead
    CHECK(defaults.find("\"kind\":\"text\",\"value\":\"all\"") != std::string::npos);    // trainable
    const StateResult changed = apply_state(Scenario{}, "params=70B&trainable=1B&gpu=h100-80gb&qlora=false");
    REQUIRE(changed.problems.empty());
    const std::string json = settings_form_json(changed.scenario);
    CHECK(json.find("\"value\":\"70B\"") != std::string::npos);
    CHECK(json.find("\"value\":\"1B\"") != std::string::npos);
    CHECK(json.find("\"kind\":\"choice\",\"value\":\"h100-80gb\"") != std::string::npos);
    // Choices come from core's catalogues (the GPU list, the weight formats), with "" for none.
    CHECK(json.find("[\"h100-80gb\",\"") != std::string::npos);
    CHECK(json.find("[\"\",\"none\"]") != std::string::npos);
    CHECK(json.find("[\"int4\",\"") != std::string::npos);
}

TEST_CASE("the text view's results come formatted by core, in the report table's order") {
    // The seed: 13B at 2 bytes = 26 GB of weights, x1.2 = 31.2 GB; 1B trainable x 3 x 2 = 6 GB; 32 GB training.
    const StateResult r = apply_state(Scenario{}, "trainable=1B");
    REQUIRE(r.problems.empty());
    const std::string json = report_view_json(r.scenario, *estimate(r.scenario));
    CHECK(json.rfind("{\"results\":[{\"key\":\"weight\",\"label\":\"Weight memory\",\"bytes\":26000000000,\"gb\":\"26 GB\",\"gib\":\"24.21 GiB\"}", 0) == 0);
    CHECK(json.find("\"bytes\":31200000000,\"gb\":\"31.2 GB\"") != std::string::npos);
    CHECK(json.find("\"bytes\":6000000000,\"gb\":\"6 GB\"") != std::string::npos);
    CHECK(json.find("\"label\":\"Training total\",\"bytes\":32000000000,\"gb\":\"32 GB\"") != std::string::npos);
    CHECK(json.find("\"gpu\":[]") != std::string::npos);  // no GPU chosen
    const StateResult gpu = apply_state(Scenario{}, "gpu=rtx-4090");
    CHECK(report_view_json(gpu.scenario, *estimate(gpu.scenario)).find("\"gpu\":[\"") != std::string::npos);
}
