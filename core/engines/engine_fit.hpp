// What fits under an engine: fit's inference answers (core/fit.hpp) asked of the engine's own model, so
// that "Largest context" is the longest -c or --max-model-len the engine starts with, "Fewest GPUs" and
// "Most bits that fit" the ones it runs on, and llama.cpp's "Layers on the GPU" its -ngl. Every answer is
// engine_estimate() at that value, and the value one step further does not run. The training answers
// are core/fit.cpp's as they are. Stands on fit.hpp and engine.hpp; neither includes it.
#pragma once

#include <vector>

#include "../fit.hpp"
#include "../result.hpp"
#include "engine.hpp"

namespace llm_memory {

// answer_fit_question, with the inference side answered by the scenario's engine when it has one:
//   context      llama.cpp/Ollama: the largest n_ctx with -ngl as given (unset: every layer on the GPU),
//                every GPU (and --ram) within its memory, and what llama.cpp's own --fit (1 GiB kept free
//                per GPU) settles on; vLLM: the largest --max-model-len one request fits in the KV pool,
//                up to the model's max_position_embeddings (vLLM refuses a longer one unless
//                VLLM_ALLOW_LONG_MAX_MODEL_LEN=1); transformers: the largest context that generates;
//   batch        transformers only (llama.cpp's slots share one n_ctx cache; vLLM's concurrency is its
//                KV pool over --max-model-len, in the context answer): an error that says so otherwise;
//   gpus, bytes  the training answer as core/fit.cpp gives it, then the engine's inference answer: the
//                fewest GPUs (vLLM: tensor parallel over them) and the format with the most bits that run;
//   layers-on-gpu  llama.cpp/Ollama: the largest -ngl that runs at the context; an error for the others.
// Errors are keyed as answer_fit_question's are.
Expected<FitReport> engine_answer_fit_question(const Scenario& scenario, const FitQuestion& question);

// The applicable questions (applicable_fit_questions, less batch and layers-on-gpu where the engine has
// no such setting), each answered as above; one with no answer carries its error. Without an engine:
// answer_applicable_fit_questions.
std::vector<FitReport> engine_answer_applicable_fit_questions(const Scenario& scenario);

}  // namespace llm_memory
