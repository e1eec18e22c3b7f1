// What fits, answered backwards: for the scenario's GPU (a catalogue entry or a custom size, times --gpus),
// the largest value of a whole-number setting that fits (context, batch, and the training settings
// seq-len and micro-batch when this build has them), the fewest GPUs, the named weight format with the
// most bits that fits, and how many layers llama.cpp can offload (-ngl) with what stays in system RAM.
// Invariants: every answer is estimate() at that value (so it agrees with the main report); the searches
// are exact integer searches that never use a float; they assume the per-GPU figure moves one way with the
// value and check that at every probe (a figure that does not is an error, never a guessed answer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "estimator.hpp"
#include "formats.hpp"
#include "json_writer.hpp"
#include "report.hpp"
#include "result.hpp"

namespace llm_memory {

// Which figure an answer must keep within the GPU's memory.
//   inference: the chosen inference total split evenly over the GPUs (GpuFit::inference_per_gpu_bytes);
//   training:  the training figure the GPU verdict uses per GPU (model states under the ZeRO stage), or with
//              a model the training peak: at its band's high end under confidence safe (the default), so
//              the answer fits even when the run lands there, or the peak itself under typical.
enum class FitSide { inference, training };
const char* fit_side_key(FitSide side);  // "inference", "training"

// The per-GPU bytes of `side` in an estimate (0 when no GPU is chosen).
std::uint64_t fit_need_bytes(const Estimate& estimate, FitSide side);

// The questions.
enum class FitQuestionKind { maximize, minimize_gpus, minimize_bytes, layers_on_gpu };

// One question: `--maximize KEY`, `--minimize gpus`, `--minimize bytes` or `--layers-on-gpu`.
struct FitQuestion {
    FitQuestionKind kind = FitQuestionKind::maximize;
    std::string key;  // maximize: the settings key ("context", "batch", "seq-len", "micro-batch")
};

// A setting --maximize accepts: its key, the side it belongs to, and the mode its figure needs (the simple
// totals do not grow with it: context and batch need the detailed inference total).
struct FitMaximizeKey {
    const char* key;          // "context"
    FitSide side;
    const char* mode_key;     // "inference-mode"; the setting switched on for the search
    const char* mode_value;   // "detailed"
    const char* unit_one;     // "token", "sequence": how the answer reads for 1
    const char* unit;         // "tokens", "sequences"
};

// Every key --maximize knows, in help order. Keys missing from this build's settings table answer with
// an error that says so.
const std::vector<FitMaximizeKey>& fit_maximize_keys();
// "context, batch, seq-len, micro-batch": for messages and --help.
std::string fit_maximize_key_list();

// Reads `--maximize VALUE` (option "maximize") or `--minimize VALUE` (option "minimize": gpus or bytes).
// Errors name the value and list the accepted ones: "\"speed\" is not one of context, batch, ...".
Expected<FitQuestion> parse_fit_question(std::string_view option, std::string_view value);

// Where llama.cpp puts a model's tensors for `-ngl N` (current llama.cpp, src/llama-model.cpp
// load_tensors): N counts the decoder layers plus one output layer, and the output layer is offloaded
// first, then the repeating layers from the last one down; the token embeddings always stay on the CPU
// ("very little benefit to offloading the input layer"); each layer's KV cache lives with its layer.
// Layers are taken as equal shares of the decoder's weights; the compute buffer is the detailed mode's
// activation workspace plus its runtime reserve, on every GPU that holds a layer.
struct OffloadSplit {
    std::uint64_t layers = 0;                 // decoder layers L
    std::uint64_t ngl = 0;                    // the -ngl value: 0 .. L + 1 (L + 1 = every layer and the output)
    std::uint64_t gpu_layers = 0;             // repeating layers on the GPU(s): max(ngl - 1, 0)
    bool output_on_gpu = false;               // ngl >= 1
    std::uint64_t gpu_weight_bytes = 0;       // on the fullest GPU: its layers (+ the output head)
    std::uint64_t gpu_kv_bytes = 0;           // their KV cache
    std::uint64_t compute_bytes = 0;          // activation workspace + runtime reserve (0 when nothing is offloaded)
    std::uint64_t gpu_bytes = 0;              // per GPU: the sum of the three
    std::uint64_t ram_weight_bytes = 0;       // weights in system RAM: CPU layers, token embeddings (+ head)
    std::uint64_t ram_kv_bytes = 0;           // the CPU layers' KV cache
    std::uint64_t ram_bytes = 0;              // the sum of the two
};

// One answer for one side of a question.
struct FitAnswer {
    FitSide side = FitSide::inference;
    bool found = false;              // false: nothing fits (`sentence` says why)
    std::uint64_t value = 0;         // maximize: tokens, sequences; gpus: GPUs; layers: the -ngl value
    std::string format_key;          // bytes: the weight format ("q6_k")
    bool at_limit = false;           // maximize: it fits even at the largest value the setting accepts
    std::uint64_t need_bytes = 0;    // per GPU at the answer
    std::uint64_t capacity_bytes = 0;
    std::uint64_t next_need_bytes = 0;  // per GPU one step further (the next value, GPU or format); 0 if none
    std::optional<OffloadSplit> offload;  // layers-on-gpu: where everything goes at the answer
    Scenario scenario;               // the scenario at the answer (the given one when nothing fits)
    Estimate estimate;               // estimate() of `scenario`
    std::string headline;            // the answer in a few words: "43,920 tokens", "Training: 2 GPUs at ZeRO stage 3",
                                     // "Inference: Q4_K_M (GGUF), 4.84 bits", "-ngl 42 of 81"
    std::string sentence;            // what the answer says, with its figures
};

// The answer to one question: one side, or two (gpus and bytes answer for training and for inference).
struct FitReport {
    FitQuestion question;
    std::string json_key;            // "context", "batch", "gpus", "bytes", "layers_on_gpu"
    std::string title;               // "Largest context", "Fewest GPUs", "Most bits that fit", "Layers on the GPU"
    std::vector<FitAnswer> answers;  // in side order: training first, then inference
    std::string error;               // answer_applicable_fit_questions: why this one has no answer ("" if it has)
};

// Sets the report's JSON key and title from its question, whether or not it has an answer:
// "context" / "Largest context", "gpus" / "Fewest GPUs", "bytes" / "Most bits that fit", "layers_on_gpu".
void name_fit_report(FitReport& report);

// The named weight formats from the most bits per weight to the fewest (GPTQ and AWQ left out: they are
// checkpoints someone made, not a size to choose along the ladder), ties in the catalogue's order: the one
// after `previous` (nullptr: the first), nullptr after the last.
const WeightFormat* next_format_by_bits(const WeightFormat* previous);

// Answers one question for `scenario`. Errors: no GPU ("gpu: ... give --gpu NAME or --gpu-memory SIZE");
// the scenario does not estimate (its message); a --maximize key this build lacks; the question needs a
// model architecture (context, batch, layers-on-gpu); nothing fits on any side ("context: even 1 token
// needs 30.1 GB per GPU, more than the 25.77 GB of ..."); a figure that does not move one way.
// Every error names the settings key it is about (Error::key).
Expected<FitReport> answer_fit_question(const Scenario& scenario, const FitQuestion& question);

// One side of the fewest GPUs (kind minimize_gpus) or the most bits (minimize_bytes), as
// answer_fit_question gives it; an answer with found false says why nothing fits on that side.
Expected<FitAnswer> answer_fit_side(const Scenario& scenario, FitQuestionKind kind, FitSide side);

// The questions that apply to `scenario`, as the app's panel asks them: context and batch (with a model),
// seq-len and micro-batch (when the settings exist and the training mode is detailed), fewest GPUs, most
// bits, layers on the GPU (with a model).
std::vector<FitQuestion> applicable_fit_questions(const Scenario& scenario);

// Every applicable question answered; one that has no answer (nothing fits, a figure that does not move
// one way) is a report with `error` set instead, so a panel or a catch-all command can show the rest.
// Empty when the scenario has no GPU.
std::vector<FitReport> answer_applicable_fit_questions(const Scenario& scenario);

// {"context":{...},"gpus":{"training":{...},"inference":{...}},...}: one key per report; each answer gives
// found, value (or format and bits_per_weight), at_limit, need_bytes, capacity_bytes, next_need_bytes, the headline,
// sentence, the offload split for layers_on_gpu, and "estimate": report_json at the answer. A report with an
// error is {"error":"..."}. `leading` members come first (the CLI's engine_flags, engine_command, engine_verdict).
std::string fit_json(const std::vector<FitReport>& reports, const std::vector<JsonField>& leading = {});

// One line per answer for a text view: "Largest context: <sentence>" (the sentence alone when it starts with the
// title: "Largest context that fits: ..."), or "<title>: no answer: <error>".
std::vector<std::string> fit_view_lines(const std::vector<FitReport>& reports);

// The reports as text: each title and sentence, then the estimate at the answer (report_table); a report
// with an error gives its title and "no answer: <error>".
std::string fit_text(const std::vector<FitReport>& reports, UnitChoice units);

}  // namespace llm_memory
