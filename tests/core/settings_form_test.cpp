// The settings table as a form (core/settings_form.hpp): what the web page's text view is generated from.
#include <catch_amalgamated.hpp>

#include <string>

#include "estimator.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "settings_form.hpp"

using namespace llm_memory;

namespace {
// The form of a scenario the estimator takes, with its estimate, as the page passes them.
std::string form_of(const Scenario& s) {
    const Expected<Estimate> e = estimate(s);
    REQUIRE(e.ok());
    return settings_form_json(s, *e);
}
}  // namespace

TEST_CASE("every setting has a form row with its own label, help, kind and current value") {
    const std::string json = form_of(Scenario{});
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
    const std::string defaults = form_of(Scenario{});
    CHECK(defaults.find("\"key\":\"params\",\"label\":\"Parameters (N)\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"count\",\"value\":\"13B\"") != std::string::npos);
    CHECK(defaults.find("\"key\":\"bytes\",\"label\":\"Bytes per parameter (b)\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"number\",\"value\":\"2\"") != std::string::npos);
    CHECK(defaults.find("\"kind\":\"number\",\"value\":\"1.2\"") != std::string::npos);  // overhead
    CHECK(defaults.find("\"kind\":\"text\",\"value\":\"all\"") != std::string::npos);    // trainable
    const StateResult changed = apply_state(Scenario{}, "params=70B&trainable=1B&gpu=h100-80gb&qlora=false");
    REQUIRE(changed.problems.empty());
    const std::string json = form_of(changed.scenario);
    CHECK(json.find("\"value\":\"70B\"") != std::string::npos);
    CHECK(json.find("\"value\":\"1B\"") != std::string::npos);
    CHECK(json.find("\"kind\":\"choice\",\"value\":\"h100-80gb\"") != std::string::npos);
    // Choices come from core's catalogues (the GPU list, the weight formats), with "" for none.
    CHECK(json.find("[\"h100-80gb\",\"") != std::string::npos);
    CHECK(json.find("[\"\",\"none\"]") != std::string::npos);
    CHECK(json.find("[\"int4\",\"") != std::string::npos);
}

TEST_CASE("a weight format decides b: the form shows that figure read-only and why, as the canvas does") {
    // Without a format b is the user's: no decision in the row.
    CHECK(form_of(Scenario{}).find("\"decided\"") == std::string::npos);
    // Llama 2 7B as a GPTQ checkpoint: the bytes row carries the format's figure and the canvas's note
    // (report.cpp weight_format_value / weight_format_note), and its value stays b's own "2".
    const StateResult r = apply_state(Scenario{}, "model=llama-2-7b&dtype=gptq");
    REQUIRE(r.problems.empty());
    const std::string json = form_of(r.scenario);
    const Estimate e = *estimate(r.scenario);
    const std::string row = json.substr(json.find("{\"key\":\"bytes\""));
    CHECK(row.find("\"value\":\"2\"") != std::string::npos);
    CHECK(row.find("\"decided\":\"" + weight_format_value(e) + "\",\"decided_note\":\"") != std::string::npos);
    CHECK(weight_format_value(e) == "GPTQ 4-bit (g128) = 4.15625 bits");
    CHECK(row.find(weight_format_note(r.scenario, e).substr(0, 40)) < row.find("}"));
    // Only b's row is decided.
    CHECK(json.find("\"decided\"") == json.rfind("\"decided\""));
}

TEST_CASE("the text view's results come formatted by core, in the report table's order") {
    // The seed: 13B at 2 bytes = 26 GB of weights, x1.2 = 31.2 GB; 1B trainable x 3 x 2 = 6 GB; 32 GB training.
    const StateResult r = apply_state(Scenario{}, "trainable=1B");
    REQUIRE(r.problems.empty());
    const std::string json = report_view_json(r.scenario, *estimate(r.scenario));
    // The report's input line first (as `llm-memory --trainable 1B` prints it), then the figures.
    CHECK(json.rfind("{\"inputs\":[\"N = 13B parameters, b = 2 bytes, overhead 1.2, trainable 1B, k = 3 x 2 bytes\"],"
                     "\"results\":[{\"key\":\"weight\",\"label\":\"Weight memory\",\"bytes\":26000000000,\"gb\":\"26 GB\",\"gib\":\"24.21 GiB\"}", 0) == 0);
    CHECK(json.find("\"bytes\":31200000000,\"gb\":\"31.2 GB\"") != std::string::npos);
    CHECK(json.find("\"bytes\":6000000000,\"gb\":\"6 GB\"") != std::string::npos);
    CHECK(json.find("\"label\":\"Training total\",\"bytes\":32000000000,\"gb\":\"32 GB\"") != std::string::npos);
    CHECK(json.find("\"gpu\":[]") != std::string::npos);  // no GPU chosen
    const StateResult gpu = apply_state(Scenario{}, "gpu=rtx-4090");
    CHECK(report_view_json(gpu.scenario, *estimate(gpu.scenario)).find("\"gpu\":[\"") != std::string::npos);
}

TEST_CASE("the text view has the report's LoRA, KV-cache and model lines, as the CLI prints them") {
    // Llama-2-7B (6,738,415,616 parameters, meta-llama/Llama-2-7b-hf config); LoRA rank 8 on q,v: 32 layers x
    // 2 modules x 8 x (4096 + 4096) = 4,194,304 trainable parameters, as PEFT counts.
    const StateResult r = apply_state(Scenario{}, "model=llama-2-7b&lora-rank=8&lora-targets=q,v&context=4096");
    REQUIRE(r.problems.empty());
    const std::string json = report_view_json(r.scenario, *estimate(r.scenario));
    CHECK(json.rfind("{\"inputs\":[\"N = 6.738B parameters, b = 2 bytes, overhead 1.2, trainable 4.194M, k = 3 x 2 bytes "
                     "(12 bytes per fp32 adapter parameter)\","
                     "\"LoRA rank 8 on q,v: 4,194,304 trainable parameters, adapters in fp32 (PEFT's autocast_adapter_dtype)\",\"KV cache: 4096 tokens x batch 1 in fp16\","
                     "\"Model meta-llama/Llama-2-7b-hf: 6,738,415,616 parameters\"],\"results\":[", 0) == 0);
    // Gemma 3 27B at 128K: the sliding-window note of the report, without its indent.
    const StateResult g = apply_state(Scenario{}, "model=gemma-3-27b&context=128K");
    REQUIRE(g.problems.empty());
    CHECK(report_view_json(g.scenario, *estimate(g.scenario)).find("\",\"52 of 62 layers are sliding-window layers keeping 1,024 tokens: 11.17 GB") !=
          std::string::npos);
}
