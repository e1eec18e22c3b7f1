// ImGui user config for the headless UI test only: IM_ASSERT throws, so a broken ImGui invariant
// (Begin/End mismatch, ID stack, table misuse) in any panel becomes a failed test instead of an abort.
#pragma once

namespace llm_memory_test {
[[noreturn]] void imgui_assert_failed(const char* expression, const char* file, int line);
}

#define IM_ASSERT(_EXPR) ((_EXPR) ? (void)0 : llm_memory_test::imgui_assert_failed(#_EXPR, __FILE__, __LINE__))
