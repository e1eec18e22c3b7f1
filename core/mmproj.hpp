// llama.cpp's projector file (an mmproj GGUF, general.architecture "clip") read from its header: the tower clip.cpp
// builds from it, for the projector's compute buffer, and the file's exact tensor bytes. core/mmproj.cpp; the lean
// page, which has no engine, links stand-ins for read_clip_item (it keeps nothing) and projector_file_model (an
// error that says the engines are in the full build).
#pragma once

#include <string>

#include "gguf.hpp"
#include "model_file.hpp"
#include "result.hpp"
#include "vision.hpp"

namespace llm_memory {

// The projector of an mmproj header, for a file shown as `name`. Errors name the problem: a projector type
// llm-memory does not size ("projector \"kimivl\" is not modelled (known: ...)"), a missing width.
Expected<ProjectorFile> projector_file(const GgufSummary& summary, const std::string& name);

// The file model of an mmproj header (kind "mmproj"): its projector, its bytes, and a report whose first line says
// what llama.cpp does with it. ModelFileReader::finish calls it for a "clip" file.
Expected<FileModel> projector_file_model(const GgufSummary& summary, const std::string& name);

}  // namespace llm_memory
