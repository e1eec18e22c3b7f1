// The published config.json texts of tests/fixtures/configs, embedded at build time (config_fixtures.inc,
// written by tests/CMakeLists.txt), and the two look-ups the model tests share: a fixture by its name, and
// a config read into a model that must succeed.
#pragma once

#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "architecture.hpp"

namespace llm_memory::test {

struct Fixture {
    const char* name;
    const char* json;
};

inline const Fixture kFixtures[] = {
#include "config_fixtures.inc"
};

inline std::string fixture(const char* name) {
    for (const Fixture& f : kFixtures)
        if (std::strcmp(f.name, name) == 0) return f.json;
    FAIL("missing fixture " << name);
    return {};
}

inline ModelSource model_of(const std::string& json) {
    Expected<ModelSource> m = model_from_config(json);
    INFO(m.error());
    REQUIRE(m.ok());
    return std::move(m.value());
}

}  // namespace llm_memory::test
