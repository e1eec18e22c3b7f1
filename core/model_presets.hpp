// Built-in model presets: popular checkpoints stored as their config.json fields, so every preset's
// count comes from the same parse_config + count_parameters path as a user's own config.json.
// Keys are stable lower-case names ("llama-2-7b") used by --model and the URL state (#model=...).
#pragma once

#include <string_view>
#include <vector>

#include "architecture.hpp"
#include "result.hpp"

namespace llm_memory {

// One built-in model.
struct ModelPreset {
    const char* key;          // "llama-2-7b": --model / #model= value
    const char* hf_id;        // "meta-llama/Llama-2-7b-hf": the Hugging Face repository the config is from
    const char* family;       // "Llama 2": for grouping in lists
    const char* config_json;  // the config.json fields that matter for counting (verbatim values)
};

// Every preset, grouped by family, smaller models first.
const std::vector<ModelPreset>& model_presets();

// Finds a preset by key or Hugging Face id, ignoring case ("Llama-2-7B", "meta-llama/Llama-2-7b-hf").
// nullptr when none matches.
const ModelPreset* find_preset(std::string_view name);

// Presets whose key, id or family contain every whitespace-separated word of the query (ignoring
// case and '-', '_', '.', ' ' differences, so "llama2 7" finds llama-2-7b). Empty query: all presets.
std::vector<const ModelPreset*> search_presets(std::string_view query);

// The preset's architecture and counts (display_name = hf_id, preset_key = key).
Expected<ModelSource> preset_model(const ModelPreset& preset);

// Looks a name up and loads it. Error: "unknown model \"x\" (did you mean llama-2-7b? see --list-models)".
Expected<ModelSource> load_preset(std::string_view name);

}  // namespace llm_memory
