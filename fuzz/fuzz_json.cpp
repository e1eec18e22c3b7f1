// libFuzzer target: the JSON reader (core/json.hpp) against nlohmann/json 3.11, the reader it replaced
// (a test-only reference, Debian's nlohmann-json3-dev). Invariants: the same accept or refuse, the same
// error position (config.json errors quote it as "at byte N"), the same tree when accepted: kinds,
// numbers, strings, and objects as sorted unique keys with the last repeated key's value.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "architecture.hpp"
#include "fuzz_check.hpp"
#include "json.hpp"
#include "json_reference.hpp"  // tests/core: nlohmann/json as the reference

using namespace llm_memory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    // nlohmann recurses per nesting level; both readers see only what config.json's 64-level check passes.
    if (max_nesting_depth(text) > 64) return 0;
    const JsonDocument ours = parse_json(text);
    FUZZ_CHECK(ours.error_position == json_reference::error_position(text));
    if (ours.ok()) FUZZ_CHECK(json_reference::difference(ours.value, nlohmann::json::parse(text, nullptr, false)).empty());
    return 0;
}
