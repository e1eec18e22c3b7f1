// The shared settings table: CLI flags, URL state and stored state read the same keys the same way.
#include <catch_amalgamated.hpp>

#include <string>

#include "report.hpp"
#include "settings.hpp"
#include "settings_form.hpp"

using namespace llm_memory;

TEST_CASE("apply_state reads the URL form of a scenario", "[settings]") {
    const StateResult r = apply_state(Scenario{}, "#params=70B&bytes=2&trainable=1B");
    CHECK(r.problems.empty());
    CHECK(r.scenario.param_count == 70'000'000'000ULL);
    CHECK(r.scenario.trainable == TrainableSpec::exact(1'000'000'000ULL));
}

TEST_CASE("apply_state reports unknown keys and bad values and keeps the rest", "[settings]") {
    const StateResult r = apply_state(Scenario{}, "params=7B&colour=blue&bytes=abc");
    REQUIRE(r.problems.size() == 2);
    CHECK(r.problems[0] == "unknown setting \"colour\"");
    CHECK(r.problems[1] == "bytes: is not a number");
    CHECK(r.scenario.param_count == 7'000'000'000ULL);
    CHECK(r.scenario.bytes_per_param == Decimal::from_int(2));
}

TEST_CASE("apply_state keeps the last good scenario when the result is invalid", "[settings]") {
    Scenario base;
    base.param_count = 7'000'000'000ULL;
    const StateResult r = apply_state(base, "trainable=8B");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].rfind("trainable: ", 0) == 0);
    CHECK(r.scenario.param_count == 7'000'000'000ULL);
    CHECK(r.scenario.trainable.kind == TrainableSpec::Kind::all);
}

TEST_CASE("to_state round-trips scenarios exactly", "[settings]") {
    Scenario s;
    CHECK(to_state(s) == "params=13B");
    s.param_count = 6'738'415'616ULL;
    s.bytes_per_param = Decimal{606'250};
    s.trainable = TrainableSpec::percent_of(Decimal{7'700'000});
    s.overhead_factor = Decimal{1'150'000};
    CHECK(to_state(s) == "params=6.738415616B&bytes=0.60625&overhead=1.15&trainable=7.7%25");
    const StateResult back = apply_state(Scenario{}, to_state(s));
    CHECK(back.problems.empty());
    CHECK(back.scenario.param_count == s.param_count);
    CHECK(back.scenario.bytes_per_param == s.bytes_per_param);
    CHECK(back.scenario.trainable == s.trainable);
    CHECK(back.scenario.overhead_factor == s.overhead_factor);
}

TEST_CASE("apply_setting names the key in its errors", "[settings]") {
    Scenario s;
    CHECK(apply_setting(s, "params", "-1").error() == "params: must not be negative");
    CHECK(apply_setting(s, "params", "0").error() == "params: must be greater than zero");
    CHECK(apply_setting(s, "overhead", "0.5").error() == "overhead: must be at least 1 (it multiplies the weights)");
    CHECK(apply_setting(s, "trainable", "120%").error() == "trainable: is more than 100%");
    CHECK(apply_setting(s, "nope", "1").error() == "unknown setting \"nope\"");
    CHECK(url_decode("7.7%25") == "7.7%");
    CHECK(url_decode("70+billion") == "70 billion");
}

namespace {

// The state each example is tried on: a model, plus any other setting its example needs to estimate
// (the vision settings need a model with a vision tower; images need an image size).
std::string example_base(const char* key) {
    const std::string k = key;
    if (k == "qlora") return "model=llama-2-7b&lora-rank=8";
    if (k == "tensor-split") return "model=llama-2-7b&gpus=2";
    if (k == "text-only" || k == "image-size") return "model=gemma-3-12b";
    if (k == "images") return "model=gemma-3-12b&image-size=896x896";
    return "model=llama-2-7b";
}

}  // namespace

TEST_CASE("every setting round-trips its example value through the URL state and the form", "[settings]") {
    for (const SettingSpec& spec : setting_specs()) {
        INFO(spec.key << " = " << spec.example);
        const StateResult base = apply_state(Scenario{}, example_base(spec.key));
        REQUIRE(base.problems.empty());
        Scenario s = base.scenario;
        REQUIRE(apply_setting(s, spec.key, spec.example).ok());
        const std::string shown = spec.show(s);
        CHECK_FALSE(shown.empty());                    // the example is not the default
        CHECK(shown != spec.show(base.scenario));      // and it changed the scenario
        REQUIRE(estimate(s).ok());                     // and it is a scenario the estimator takes
        // The URL state reads back to the same scenario, and to the same value of this key.
        const StateResult back = apply_state(Scenario{}, to_state(s));
        CHECK(back.problems.empty());
        CHECK(to_state(back.scenario) == to_state(s));
        CHECK(spec.show(back.scenario) == shown);
        // The form (the page's text view) has the key's row, with its label and the value as the key reads it.
        const std::string form = settings_form_json(s);
        const std::size_t row = form.find(std::string("{\"key\":\"") + spec.key + "\",\"label\":\"" + json_escape(spec.label) + "\"");
        REQUIRE(row != std::string::npos);
        CHECK(form.find("\"value\":\"" + json_escape(setting_field_text(spec, s)) + "\"", row) < form.find("]}", row));
        if (spec.kind == SettingKind::choice) {
            REQUIRE(spec.choices != nullptr);
            CHECK(choice_index(spec.choices(), shown) < spec.choices().size());  // the example is one of its choices
        }
    }
}

TEST_CASE("each choice setting reads every word of its table, and its form lists exactly those", "[settings]") {
    for (const SettingSpec& spec : setting_specs()) {
        if (spec.choices == nullptr) continue;
        INFO(spec.key);
        CHECK(spec.kind == SettingKind::choice);
        for (const Choice& choice : spec.choices()) {
            INFO(choice.word);
            Scenario s;
            if (std::string(spec.key) != "model") s = apply_state(Scenario{}, "model=llama-2-7b").scenario;
            CHECK(apply_setting(s, spec.key, choice.word).ok());
            CHECK(setting_field_text(spec, s) == choice.word);
            CHECK_FALSE(choice.label.empty());
        }
    }
}
