// libFuzzer target: the safetensors header and index readers (the CLI's --safetensors, the app's dropped
// file). Invariants: no crash or runaway recursion, errors are clean one-line messages, an accepted
// header's groups add up to its totals and its data fits in the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "safetensors.hpp"

using namespace llm_memory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const Expected<SafetensorsSummary> header = read_safetensors_header(bytes, size);
    if (!header) {
        FUZZ_CHECK(fuzz::is_clean_message(header.error()));
    } else {
        std::uint64_t data_bytes = 0;
        std::uint64_t params = 0;
        for (const SafetensorsGroup& g : header->groups) {
            data_bytes += g.bytes;
            params += g.param_count;
        }
        FUZZ_CHECK(data_bytes == header->data_bytes && params == header->param_count);
        FUZZ_CHECK(header->header_bytes + header->data_bytes <= size);
        (void)safetensors_report(*header);
        (void)safetensors_json(*header);
    }
    const Expected<SafetensorsSummary> index = read_safetensors_index(bytes);
    if (!index) FUZZ_CHECK(fuzz::is_clean_message(index.error()));
    else FUZZ_CHECK(index->shard_count <= index->tensor_count);
    return 0;
}
