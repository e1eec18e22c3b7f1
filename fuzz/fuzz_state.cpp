// libFuzzer target: the URL-state decoder (apply_state), which also reads CLI --state, stored state
// and the JS API. Invariants: the result always estimates without error (bad parts are skipped, the
// last good scenario kept), problems are few clean one-line messages, to_state round-trips the result
// exactly, and the JSON report never holds a negative, NaN or infinite number.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "estimator.hpp"
#include "fuzz_check.hpp"
#include "report.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {

bool same_inputs(const Scenario& a, const Scenario& b) {
    return a.param_count == b.param_count && a.bytes_per_param == b.bytes_per_param &&
           a.overhead_factor == b.overhead_factor && a.trainable == b.trainable &&
           a.values_per_trainable == b.values_per_trainable && a.bytes_per_value == b.bytes_per_value;
}

void check_from(const Scenario& base, std::string_view state) {
    const StateResult result = apply_state(base, state);
    FUZZ_CHECK(result.problems.size() <= kMaxListedStateProblems + 2);
    for (const std::string& problem : result.problems) FUZZ_CHECK(fuzz::is_clean_message(problem));
    const Expected<Estimate> e = estimate(result.scenario);
    FUZZ_CHECK(e.ok());
    FUZZ_CHECK(e->weight_bytes <= e->inference_bytes && e->weight_bytes <= e->training_bytes);
    FUZZ_CHECK(e->trainable_count <= e->param_count);
    FUZZ_CHECK(fuzz::json_numbers_are_sane(report_json(result.scenario, *e)));
    const std::string saved = to_state(result.scenario);
    const StateResult reloaded = apply_state(Scenario{}, saved);
    FUZZ_CHECK(reloaded.problems.empty());
    FUZZ_CHECK(same_inputs(reloaded.scenario, result.scenario));
    FUZZ_CHECK(to_state(reloaded.scenario) == saved);  // every key, including the ones added later
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view state(reinterpret_cast<const char*>(data), size);
    check_from(Scenario{}, state);
    Scenario small;  // a base where trainable counts and percentages bite
    small.param_count = 1'000;
    small.trainable = TrainableSpec::percent_of(Decimal::from_int(50));
    check_from(small, state);
    // One key with the whole input as its value, as the CLI's --key and the app's text fields do.
    for (const SettingSpec& spec : setting_specs()) {
        Scenario s;
        const Expected<bool> applied = apply_setting(s, spec.key, state);
        if (!applied) FUZZ_CHECK(fuzz::is_clean_message(applied.error()));
    }
    FUZZ_CHECK(url_decode(state).size() <= state.size());
    return 0;
}
