// ModelFileReader: sniffs the first bytes ("GGUF", '{' for an index, else a safetensors length), then
// feeds the matching header reader; safetensors and index bytes are kept only up to the header's end.
#include "model_file.hpp"

#include "mmproj.hpp"
#include "quantity.hpp"

namespace llm_memory {

ModelFileReader::ModelFileReader(std::uint64_t file_size, std::string name)
    : file_size_(file_size), name_(std::move(name)), gguf_(file_size) {}

Expected<bool> ModelFileReader::feed(std::string_view chunk) {
    if (complete_) return true;
    if (kind_ == 0) {
        const std::size_t need = 8 - std::min<std::size_t>(bytes_.size(), 8);
        bytes_.append(chunk.data(), std::min(need, chunk.size()));
        chunk.remove_prefix(std::min(need, chunk.size()));
        const bool gguf = bytes_.size() >= 4 && bytes_.compare(0, 4, "GGUF") == 0;
        if (!gguf && !bytes_.empty() && bytes_[0] == '{') {
            kind_ = 3;
            if (file_size_ > kMaxSafetensorsHeader) return Error{"safetensors index: is larger than 100 MB"};
            wanted_ = file_size_;
        } else if (gguf) {
            kind_ = 1;
            std::string start;
            start.swap(bytes_);
            const Expected<bool> fed = gguf_.feed(start);
            if (!fed) return fed;
        } else if (bytes_.size() >= 8 || bytes_.size() == file_size_) {
            kind_ = 2;
            const Expected<std::uint64_t> length = safetensors_header_length(bytes_ + std::string(chunk.substr(0, 1)), file_size_);
            if (!length)
                return Error{"not a GGUF file or a safetensors file (it starts with \"" + printable_excerpt(bytes_.substr(0, 4), 4) +
                             "\"; read as safetensors, " + length.failure().message_without("safetensors") + ")"};
            wanted_ = 8 + *length;
        } else {
            return false;
        }
    }
    if (kind_ == 1) {
        const Expected<bool> fed = gguf_.feed(chunk);
        if (fed && *fed) complete_ = true;
        return fed;
    }
    const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size(), wanted_ - bytes_.size()));
    bytes_.append(chunk.data(), take);
    complete_ = bytes_.size() >= wanted_;
    return complete_;
}

Expected<FileModel> ModelFileReader::finish(const ModelSource* current) {
    FileModel f;
    if (kind_ == 1) {
        const Expected<bool> done = gguf_.finish();
        if (!done) return Error{done.error()};
        const GgufSummary& s = gguf_.summary();
        if (s.architecture == "clip") return projector_file_model(s, name_);
        Expected<ModelSource> model = gguf_model(s, name_ + " (" + s.architecture + ")");
        if (!model) return Error{model.error()};
        f.kind = "gguf";
        f.model = std::make_shared<const ModelSource>(std::move(model.value()));
        f.param_count = s.param_count;
        f.weight_bytes = s.weight_bytes;
        f.report = gguf_report(s);
        f.json = gguf_json(s);
        return f;
    }
    if (kind_ == 3) {
        if (bytes_.size() < wanted_) return Error{"safetensors index: the file ends early"};
        const Expected<SafetensorsSummary> s = read_safetensors_index(bytes_);
        if (!s) return Error{s.error()};
        f.kind = "safetensors-index";
        f.weight_bytes = s->data_bytes;
        if (current != nullptr) f.param_count = current->counts.total_count;
        f.report = safetensors_report(*s);
        f.json = safetensors_json(*s);
        return f;
    }
    if (kind_ == 0) return Error{"model file: \"" + printable_excerpt(name_, 60) + "\" is too short to be a GGUF or safetensors file"};
    const Expected<SafetensorsSummary> s = read_safetensors_header(bytes_, file_size_);
    if (!s) return Error{s.error()};
    if (s->param_count == 0) return Error{"safetensors: the file holds no weights"};
    f.kind = "safetensors";
    f.param_count = s->param_count;
    f.weight_bytes = s->data_bytes;
    f.report = safetensors_report(*s);
    f.json = safetensors_json(*s);
    return f;
}

Expected<bool> apply_file_model(Scenario& scenario, const FileModel& file) {
    if (file.projector) {  // beside the model, whichever it is (the engine checks the pair)
        scenario.engine.mmproj = true;
        scenario.engine.mmproj_file = file.projector;
        return true;
    }
    // An index read without the current model (the app reads a file before it applies it): the model
    // the scenario has when it is applied gives N.
    std::uint64_t param_count = file.param_count;
    if (param_count == 0 && file.kind == "safetensors-index" && scenario.model) param_count = scenario.model->counts.total_count;
    if (param_count == 0)
        return Error{"safetensors index: gives the bytes but not the parameter count; choose the model (a preset "
                     "or its config.json) first"};
    if (param_count > kMaxParamCount) return Error{"model file: more than 10^15 parameters"};
    const Decimal b = Decimal::from_ratio(file.weight_bytes, param_count);
    if (b.is_zero() || b.micros > 64 * Decimal::kScale) return Error{"model file: its bytes per parameter are out of range"};
    scenario.param_count = param_count;
    scenario.bytes_per_param = b;
    scenario.file_weight_bytes = file.weight_bytes;
    scenario.file_param_count = param_count;
    scenario.dtype.clear();
    if (file.model) scenario.model = file.model;
    else if (scenario.model && scenario.model->counts.total_count != param_count) scenario.model.reset();
    return true;
}

}  // namespace llm_memory
