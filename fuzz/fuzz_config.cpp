// libFuzzer target: the config.json reader (model_from_config: parse_config + count_parameters), which
// reads the CLI's --config file and the app's pasted or dropped config.json. Invariants: no crash,
// uncaught exception or runaway recursion; an accepted config has at most 10^15 parameters, parts that
// add up to the total, an active count no larger than the total, and one-line printable warnings;
// errors are clean one-line messages.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "architecture.hpp"
#include "fuzz_check.hpp"

using namespace llm_memory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const Expected<ModelSource> source = model_from_config(text);
    if (!source) {
        FUZZ_CHECK(fuzz::is_clean_message(source.error()));
        return 0;
    }
    const ParamBreakdown& c = source->counts;
    FUZZ_CHECK(c.total_count > 0 && c.total_count <= kMaxParamCount);
    FUZZ_CHECK(c.active_count <= c.total_count);
    const unsigned __int128 parts = static_cast<unsigned __int128>(c.embedding_count) + c.attention_count + c.mlp_count +
                                    c.expert_count + c.shared_expert_count + c.router_count + c.norm_count +
                                    c.output_head_count;
    FUZZ_CHECK(parts == c.total_count);
    std::uint64_t row_sum = 0;
    for (const BreakdownRow& row : breakdown_rows(c)) row_sum += row.count;
    FUZZ_CHECK(row_sum == c.total_count);
    FUZZ_CHECK(fuzz::is_clean_message(source->display_name));
    for (const std::string& warning : source->architecture.warnings) FUZZ_CHECK(fuzz::is_clean_message(warning));
    for (const LinearLayer& linear : decoder_linear_layers(source->architecture)) {
        FUZZ_CHECK(linear.in_features > 0 && linear.out_features > 0);
        FUZZ_CHECK(linear.layer_count <= source->architecture.num_hidden_layers);
    }
    return 0;
}
