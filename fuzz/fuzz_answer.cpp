// libFuzzer target: practice answers (parse_answer, check_answer) and the practice JS API
// (check_answer_json, find_exercise). Input: "question\x01state\x01answer", or a bare answer.
// Invariants: a parsed answer is a whole byte count whose unit has a name; checking it on a valid
// scenario never fails for any other reason; errors are clean one-line messages; the JSON never holds
// a negative, NaN or infinite number.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "answer.hpp"
#include "fuzz_check.hpp"
#include "practice.hpp"

using namespace llm_memory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::string_view question = "inference";
    std::string_view state;
    std::string_view answer = input;
    if (const std::size_t first = input.find('\x01'); first != std::string_view::npos) {
        const std::size_t second = input.find('\x01', first + 1);
        if (second != std::string_view::npos) {
            question = input.substr(0, first);
            state = input.substr(first + 1, second - first - 1);
            answer = input.substr(second + 1);
        }
    }

    const Expected<ParsedAnswer> parsed = parse_answer(answer);
    if (parsed) {
        FUZZ_CHECK(answer_unit_name(parsed->read_as) != nullptr);
        FUZZ_CHECK(parsed->read_as != AnswerUnit::none);
    } else {
        FUZZ_CHECK(fuzz::is_clean_message(parsed.error()));
    }

    // The seed's 7B exercise scenario: every question checks any readable answer.
    Scenario seed_7b;
    seed_7b.param_count = 7'000'000'000ULL;
    for (const QuestionId id : all_questions()) {
        // The engine questions need a model's layers (their own scenarios name one); the seed's 7B has none.
        if (id == QuestionId::llama_compute || id == QuestionId::vllm_need || id == QuestionId::llama_split_total) continue;
        const Expected<CheckResult> checked = check_answer(id, seed_7b, answer);
        FUZZ_CHECK(checked.ok() == parsed.ok());
        if (!checked) continue;
        FUZZ_CHECK(checked->answer.bytes == parsed->bytes);
        FUZZ_CHECK(!checked->explanation.empty());
        FUZZ_CHECK(!(checked->correct && checked->mistake.has_value()));
        FUZZ_CHECK(fuzz::json_numbers_are_sane(check_result_json(*checked)));
    }

    const std::string json = check_answer_json(question, state, answer);
    FUZZ_CHECK(!json.empty() && json.front() == '{' && json.back() == '}');
    FUZZ_CHECK(json.find('\n') == std::string::npos);
    FUZZ_CHECK(fuzz::json_numbers_are_sane(json));

    const Expected<Exercise> exercise = find_exercise(input.substr(0, 64));
    if (exercise) FUZZ_CHECK(!exercise->questions.empty());
    else FUZZ_CHECK(fuzz::is_clean_message(exercise.error()));
    return 0;
}
