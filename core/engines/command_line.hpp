// Engine command lines both ways: reads a llama.cpp, vLLM or Ollama command (as pasted into a shell) into
// llm-memory's own setting keys, and prints the command that realises a set of those keys.
// Pure: text in, values out; no file is opened here (the CLI and the page decide what a model path means).
// Invariant: read_engine_command(engine_command_line(r)) gives back r's engine, model and settings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "../result.hpp"

namespace llm_memory {

// One llm-memory setting taken from an engine flag: key=value in the settings table's spelling.
struct CommandSetting {
    std::string key;     // "context", "kv-dtype", "ubatch", "gpu-util", ...
    std::string value;   // "32768", "q8_0", "on", "0.9"
    std::string source;  // the flag as written, with its value: "-c 32768"
};

// What a command line says about memory.
struct CommandReading {
    std::string engine;        // "llama.cpp", "vllm" or "ollama" (the `engine` setting's value)
    std::string program;       // "llama-server", "llama-cli", "vllm serve", "ollama run", ...
    std::string model_ref;     // the model as written: a path, a Hugging Face id or an Ollama name; "" if none
    std::string model_source;  // where model_ref came from: "-m", "--model", "serve MODEL", "ollama run MODEL"
    std::string preset_key;    // the built-in preset model_ref names ("llama-3.1-8b"), "" when none matches
    std::string weight_dtype;  // the weight format the file name or tag names ("q4_k_m"), "" when none
    std::vector<CommandSetting> settings;   // the `engine` key first, then each flag's keys in order (last wins)
    std::vector<std::string> ignored;       // flags that do not change memory, as written: "--port 8080"
    std::vector<std::string> unmodelled;    // flags that change memory in ways llm-memory does not model,
                                            // each with why: "-ot exps=CPU (tensor overrides are not modelled)"
};

// Splits a shell command into words the way sh does for literal text: single and double quotes,
// backslash escapes, backslash-newline continuations; a leading "$ " prompt and "#" comments dropped.
// Fails on an unterminated quote ("the command has an unterminated ' quote").
Expected<std::vector<std::string>> split_command_words(std::string_view text);

// Reads an engine command: llama-server, llama-cli (and other llama.cpp tools), `vllm serve MODEL`,
// `python -m vllm.entrypoints.openai.api_server --model M`, `ollama run NAME` (with OLLAMA_* variables).
// Leading VAR=value assignments are read (CUDA_VISIBLE_DEVICES, OLLAMA_CONTEXT_LENGTH, ...).
// Fails with the flag as the error's key on a bad value of a flag that matters ("-c": "\"abc\" is not
// a whole number"), or when the text names no engine llm-memory knows.
Expected<CommandReading> read_engine_command(std::string_view text);

// The built-in preset and weight format a model reference names: a GGUF file name
// ("Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf" -> llama-3.1-8b, q4_k_m), a Hugging Face id
// ("Qwen/Qwen2.5-7B-Instruct" -> qwen2.5-7b) or an Ollama name ("llama3.1:70b" -> llama-3.1-70b, q4_k_m,
// Ollama's default tag). Either field is "" when the reference does not name one.
struct ModelReference {
    std::string preset_key;
    std::string weight_dtype;
};
ModelReference match_model_reference(std::string_view ref, bool ollama_name);

// The command that realises `settings` (key=value in llm-memory's spelling) on `engine` ("llama.cpp",
// "vllm" or "ollama") with the model `model_ref`: "llama-server -m model.gguf -c 32768 -fa on -ctk q8_0".
// Keys the engine has no flag for are left out. Values are shell-quoted when they need it.
std::string engine_command_line(std::string_view engine, std::string_view model_ref,
                                const std::vector<CommandSetting>& settings);

// The command that realises `scenario` on the engine its `engine` setting names, from its settings in
// the settings table's spelling (to_state): the model as a file name for llama.cpp
// ("Llama-3.1-8B-Q4_K_M.gguf"), its Hugging Face id for vLLM, its preset key for Ollama. "" when the
// scenario names no engine (or the build has no `engine` setting).
struct Scenario;
std::string scenario_engine_command(const Scenario& scenario);

// The settings as a URL state string ("engine=llama.cpp&context=32768"), in order.
std::string command_state(const CommandReading& reading);

}  // namespace llm_memory
