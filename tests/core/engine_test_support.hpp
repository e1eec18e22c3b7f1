// Shared by the engine tests (engines_test.cpp, engine_fit_test.cpp): a scenario from settings pairs, and an
// engine estimate that must succeed (each failure names the setting or the engine's message).
#pragma once

#include <catch_amalgamated.hpp>

#include <initializer_list>
#include <utility>

#include "engines/engine.hpp"
#include "settings.hpp"
#include "test_support.hpp"

namespace llm_memory::test {

inline Scenario with(std::initializer_list<std::pair<const char*, const char*>> pairs) {
    Scenario s;
    for (const auto& [key, value] : pairs) {
        const Expected<bool> ok = apply_setting(s, key, value);
        INFO(key << "=" << value << ": " << ok.error());
        REQUIRE(ok.ok());
    }
    return s;
}

inline EngineEstimate run(const Scenario& s) { return required(engine_estimate(s)); }

}  // namespace llm_memory::test
