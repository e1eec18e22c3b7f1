// The shared settings table: CLI flags, URL state and stored state read the same keys the same way.
#include <catch_amalgamated.hpp>

#include "settings.hpp"

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
