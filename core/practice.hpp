// Practice mode as data: questions about a scenario, answer checking that names the learner's mistake,
// the seed's own material (predict-and-reveal, the 7B exercise with four hints, the four mistake cards)
// and exercises generated from a seed number (same number -> same exercise, on every platform).
// Every figure comes from core's estimate(); wrong answers are diagnosed by re-running estimate() on the
// scenario changed the way each known mistake changes it. No I/O, no exceptions, no globals.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answer.hpp"
#include "estimator.hpp"
#include "result.hpp"

namespace llm_memory {

// What a question asks for. Keys (stable, shared by the CLI, the JS API, the UI and tests):
// "weight", "inference", "gradient-optimizer", "training", "reduction", "mixed-precision-training"
// (the training total under the adamw-mixed recipe: bf16 gradient + fp32 master weights + fp32 Adam m
// and v = 14 bytes per trainable parameter, whatever recipe the given scenario names), and three asked of
// an engine (core/engines/engine.hpp; the scenario's engine, or the one the question names when none):
// "llama-compute" (llama.cpp: GPU 0's compute buffer), "vllm-need" (vLLM: what the run needs on GPU 0:
// weights, activation peak, non-torch memory, CUDA graphs and the KV cache of one max_model_len request),
// "llama-split-total" (llama.cpp: what the GPUs of a layer split hold together).
enum class QuestionId {
    weight,
    inference,
    gradient_optimizer,
    training,
    reduction,
    mixed_precision_training,
    llama_compute,
    vllm_need,
    llama_split_total,
};

// The known wrong paths. Keys: "weights-as-inference", "one-value-per-trainable",
// "freezing-removes-weights", "training-without-weights", "overhead-on-training",
// "wrong-bytes-per-parameter", "gib-gb-mixup", and the engines' three: "compute-by-context" (llama.cpp's
// compute buffer sized by the context instead of n_ubatch), "utilization-as-need" (vLLM's share of the
// GPU, total x gpu_memory_utilization, read as what the model needs), "one-compute-buffer" (a layer
// split's GPUs summed with one compute buffer where every GPU holds its own), "moe-active-for-memory" (a
// mixture of experts' weights counted for the parameters one token uses, not every expert), "drafter-kv-small" (a
// llama.cpp split's total without the draft model's KV cache, a second context at the target's full n_ctx),
// "projector-as-file-size" (a llama.cpp split's total with the vision projector (--mmproj) priced as its f16
// file, without the compute buffer its clip graph reserves for one image). This order is also the
// priority used when one wrong answer matches several paths: the seed's named mistakes first, unit slips last.
enum class MistakeId {
    weights_as_inference,
    one_value_per_trainable,
    freezing_removes_weights,
    training_without_weights,
    overhead_on_training,
    wrong_bytes_per_parameter,
    compute_by_context,
    utilization_as_need,
    one_compute_buffer,
    moe_active_for_memory,
    drafter_kv_small,
    projector_as_file_size,
    gib_gb_mixup,
};

// Every question / mistake, in the order above.
const std::vector<QuestionId>& all_questions();
const std::vector<MistakeId>& all_mistakes();

// The stable key ("gradient-optimizer") and a title ("Gradient+optimizer memory").
const char* question_key(QuestionId id);
const char* question_title(QuestionId id);
// Reads a key. Error: "question: \"x\" is not one of weight, inference, ...".
Expected<QuestionId> parse_question_id(std::string_view key);
// "weights-as-inference", and the reverse (nullopt for an unknown key).
const char* mistake_key(MistakeId id);
std::optional<MistakeId> parse_mistake_id(std::string_view key);

// The scenario a question is asked on: `scenario` itself, or for mixed-precision-training the same
// scenario with recipe "adamw-mixed", or for an engine question without an engine its engine
// (llama.cpp for llama-compute and llama-split-total, vLLM for vllm-need).
Scenario question_scenario(QuestionId id, const Scenario& scenario);

// The estimate's figure a question asks for, in bytes. `estimate` must be the estimate of
// question_scenario(id, ...), as PracticeQuestion::scenario already is. 0 for the engine questions, whose
// figure comes from the engine model: use question_figure.
std::uint64_t question_bytes(QuestionId id, const Estimate& estimate);

// Any question's figure for a scenario, in bytes (the engine questions through core/engines). Errors: the
// scenario does not validate; an engine question the scenario cannot answer ("llama-split-total: needs a
// layer split over 2 GPUs or more: give --gpus 2").
Expected<std::uint64_t> question_figure(QuestionId id, const Scenario& scenario);

// The right step for a question with the scenario's values, one sentence:
// "7B × 2 bytes = 14 GB, and 14 GB × 1.2 = 16.8 GB." Error: the scenario does not validate.
Expected<std::string> right_step(QuestionId id, const Scenario& scenario);

// An answer is right when it is within this percentage of the exact figure (so 31 GB, 31.2 GB and
// 29.06 GiB are all right for 31.2 GB). A wrong answer matches a wrong path within the same percentage.
inline constexpr std::uint64_t kAnswerTolerancePercent = 1;

// True when `answer_bytes` is within kAnswerTolerancePercent of `target_bytes`.
bool within_tolerance(std::uint64_t answer_bytes, std::uint64_t target_bytes);

// One wrong way to answer a question, and the figure it gives.
struct WrongPath {
    // Which units an answer must be written in to take this path: a GiB figure written as GB needs a
    // decimal unit (GB, MB, or none), a GB figure written as GiB a binary one; bytes match either.
    enum class WrittenIn { any, decimal_unit, binary_unit };
    MistakeId mistake;
    std::uint64_t bytes;  // what this wrong path gives for the scenario
    std::string what;     // one sentence: what this path did wrong ("… is the weight memory, not …")
    WrittenIn written_in = WrittenIn::any;
};

// Every known wrong path for the question on this scenario, in priority order, each recomputed with
// estimate() on a changed scenario. Paths that give the right figure (within tolerance) are left out.
// Error: the scenario does not validate.
Expected<std::vector<WrongPath>> wrong_paths(QuestionId id, const Scenario& scenario);

// The engine questions (llama-compute, vllm-need, llama-split-total), answered through the engine models on
// their question scenario: the figure and the sentence that derives it, and the wrong paths. The lean page
// offers no engine question and wraps both out (web/lean.cpp, as it does engine_estimate).
struct EngineAnswer {
    std::uint64_t bytes = 0;
    std::string step;
};
Expected<EngineAnswer> engine_answer(QuestionId id, const Scenario& s);
Expected<std::vector<WrongPath>> engine_wrong_paths(QuestionId id, const Scenario& s);

// The outcome of checking one answer.
struct CheckResult {
    QuestionId question = QuestionId::weight;
    bool correct = false;
    std::optional<MistakeId> mistake;       // the diagnosed mistake, when wrong and recognised
    std::vector<MistakeId> also_matches;    // other mistakes giving the same figure (ambiguity), noted
    std::string explanation;                // one or two sentences, ending with the right step
    std::uint64_t expected_bytes = 0;       // the right figure
    ParsedAnswer answer;                    // what was read from the learner's text
};

// Parses the answer and checks it against the question on this scenario: right within tolerance, else
// the first wrong path (priority order) it matches, else an explanation with the right step.
// Errors: the answer cannot be read ("answer: ..."), the scenario does not validate.
Expected<CheckResult> check_answer(QuestionId id, const Scenario& scenario, std::string_view answer_text);

// The JSON object the CLI prints and the JS API returns (one line, no trailing newline):
// {"question":…,"correct":…,"mistake":ID or null,"also_matches":[…],"explanation":…,
//  "expected_bytes":…,"answer_bytes":…,"answer_read_as":"GB","tolerance_percent":1}
std::string check_result_json(const CheckResult& result);

// Everything in one call for the JS API: question key, URL-style state ("params=7B&trainable=1B", on top
// of the seed's defaults) and the answer text. Any problem (unknown question, a bad state key or value,
// an unreadable answer) gives {"error":"…"} naming it.
std::string check_answer_json(std::string_view question_key_text, std::string_view state, std::string_view answer_text);

// ---------------------------------------------------------------------------------------------------
// Exercises

// One question of an exercise, on its own scenario (a later question may change the trainable count).
struct PracticeQuestion {
    QuestionId id = QuestionId::weight;
    Scenario scenario;
    std::string prompt;  // "What is its total inference memory with the overhead factor of 1.2?"
    std::string reveal;  // shown with the answer: the seed's own explanation, or the right step
};

// An exercise: a setup paragraph, questions answered in order, hints revealed one at a time, and a
// closing note shown when every question is done.
struct Exercise {
    std::string ref;    // what a link carries: "seed-7b", "predict-70b" or the seed number "4711"
    std::string title;  // "Estimating a 7B model"
    std::string setup;  // the scenario in words
    std::vector<PracticeQuestion> questions;
    std::vector<std::string> hints;
    std::string closing;
};

// The seed's "What do you think happens?" question: 70B at 2 bytes, revealed as 140 GB with the seed's
// explanation. ref "predict-70b".
Exercise predict_70b_exercise();

// The seed's "Estimating a 7B Model" exercise with its four hints: weight memory (14 GB), inference
// total (16.8 GB), gradient+optimizer memory with all 7B trainable (42 GB), the training total (56 GB),
// then with only 1B trainable the training total (20 GB) and the reduction (36 GB). ref "seed-7b".
Exercise seed_7b_exercise();

// A generated exercise like the seed's, from a seed number: a model size, a storage format, a trainable
// count; questions weight, inference, gradient-optimizer, training (+ reduction when some parameters are
// frozen, + mixed-precision-training when the weights are 2-byte). Scenarios whose wrong paths would be
// ambiguous are skipped deterministically.
// The same number gives the same exercise natively and in wasm. Error: number 0.
Expected<Exercise> generate_exercise(std::uint32_t seed_number);

// "seed-7b", "predict-70b" or a decimal seed number (1 to 4294967295) -> the exercise.
// Error: "practice: \"x\" is not an exercise (seed-7b, predict-70b or a number such as 42)".
Expected<Exercise> find_exercise(std::string_view ref);

// One of the seed's "Common mistake" cards, in the seed's wording.
struct MistakeCard {
    MistakeId id;
    const char* title;
    const char* looks_like;
    const char* why_it_fails;
    const char* do_this_instead;
};

// The seed's four common mistakes, in the seed's order.
const std::vector<MistakeCard>& seed_mistake_cards();

}  // namespace llm_memory
