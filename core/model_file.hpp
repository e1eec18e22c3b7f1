// A model file read from its header, whichever kind it is: GGUF, a .safetensors file or a
// model.safetensors.index.json (told apart by their first bytes). The CLI, the desktop app and the page
// feed the same reader in chunks, so all three show the same figures. No file I/O here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "architecture.hpp"
#include "estimator.hpp"
#include "gguf.hpp"
#include "result.hpp"
#include "safetensors.hpp"

namespace llm_memory {

// What a model file gives the scenario.
struct FileModel {
    std::string kind;                            // "gguf", "mmproj" (a projector GGUF), "safetensors", "safetensors-index"
    std::shared_ptr<const ModelSource> model;    // GGUF: architecture and exact counts; null otherwise
    std::shared_ptr<const ProjectorFile> projector;  // mmproj: the projector llama.cpp loads with --mmproj
    std::uint64_t param_count = 0;               // 0 for an index (it has bytes only)
    std::uint64_t weight_bytes = 0;              // exact bytes of every tensor (an index: total_size)
    std::string report;                          // gguf_report / safetensors_report lines
    std::string json;                            // gguf_json / safetensors_json object
};

// Reads one model file fed in order, in chunks of any size; it asks for no more than the header.
class ModelFileReader {
public:
    // file_size: the whole file's size; name: shown in messages and as the model's name.
    ModelFileReader(std::uint64_t file_size, std::string name);
    // true once the header is complete (call finish()); false: feed more; or an error naming the problem.
    Expected<bool> feed(std::string_view chunk);
    // The result once the file has ended or feed() returned true. An index needs the current model's
    // parameter count (`current`, may be null) to give bytes per parameter.
    Expected<FileModel> finish(const ModelSource* current = nullptr);

private:
    std::uint64_t file_size_;
    std::string name_;
    int kind_ = 0;          // 0 unknown yet, 1 GGUF, 2 safetensors, 3 index
    GgufReader gguf_;
    std::string bytes_;     // safetensors header or index text so far
    std::uint64_t wanted_ = 0;
    bool complete_ = false;
};

// A projector file (kind "mmproj") becomes the scenario's llama.cpp --mmproj, beside its model. Otherwise makes the
// file's model the scenario's: N = its parameter count, b = weight bytes / N (six decimals;
// the exact bytes are in the report), no dtype, and its architecture (GGUF) for the KV cache. An index
// keeps the current model and N (the scenario's model when the file was read without one) and sets b
// from total_size. Error when nothing can be applied (an index with no model chosen).
Expected<bool> apply_file_model(Scenario& scenario, const FileModel& file);

}  // namespace llm_memory
