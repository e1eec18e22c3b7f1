// Shared by the core tests: the value of an Expected that must hold one, its error named when it does not.
#pragma once

#include <catch_amalgamated.hpp>

#include "result.hpp"

namespace llm_memory::test {

template <typename T>
T required(const Expected<T>& result) {
    INFO(result.error());
    REQUIRE(result.ok());
    return *result;
}

}  // namespace llm_memory::test
