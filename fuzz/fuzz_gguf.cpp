// libFuzzer target: the GGUF header reader (the CLI's --gguf, the app's dropped .gguf). The input is fed
// whole and again in chunks of a size taken from its first byte; both must agree. Invariants: no crash,
// no allocation beyond the input (counts and lengths are checked against the file size first), errors
// are clean one-line messages, per-type bytes add up to the total, a model built from an accepted
// header has sane counts, and an accepted projector (an mmproj header) has a tower whose image tokens can be sized.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "gguf.hpp"
#include "mmproj.hpp"
#include "vision.hpp"

using namespace llm_memory;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const Expected<GgufSummary> whole = read_gguf_header(bytes, size);
    const std::size_t chunk = size > 0 ? 1 + static_cast<std::size_t>(data[0]) % 64 : 1;
    GgufReader reader(size);
    Expected<bool> fed = false;
    for (std::size_t at = 0; at < size; at += chunk) {
        fed = reader.feed(bytes.substr(at, chunk));
        if (!fed || *fed) break;
    }
    if (fed && !*fed) fed = reader.finish();
    FUZZ_CHECK(whole.ok() == fed.ok());
    if (!whole) {
        FUZZ_CHECK(fuzz::is_clean_message(whole.error()));
        FUZZ_CHECK(whole.error() == fed.error());
        return 0;
    }
    const GgufSummary& s = *whole;
    FUZZ_CHECK(s.param_count == reader.summary().param_count && s.weight_bytes == reader.summary().weight_bytes);
    std::uint64_t bytes_sum = 0;
    for (const GgufTypeTotal& t : s.by_type) bytes_sum += t.bytes;
    FUZZ_CHECK(bytes_sum == s.weight_bytes);
    FUZZ_CHECK(s.data_offset <= size || s.tensor_count == 0);
    const Expected<ModelSource> model = gguf_model(s, "fuzz.gguf");
    if (model) FUZZ_CHECK(model->counts.total_count == s.param_count && model->counts.active_count <= s.param_count);
    else FUZZ_CHECK(fuzz::is_clean_message(model.error()));
    const Expected<ProjectorFile> projector = projector_file(s, "fuzz.gguf");
    if (projector) {
        const VisionTower& t = projector->tower;
        FUZZ_CHECK(t.hidden_size > 0 && t.merge_size > 0 && (t.kind == VisionKind::voxtral || t.patch_size > 0));
        const Expected<std::uint64_t> tokens = image_tokens(t, 1024, 768, ImageProcessor::llama_cpp);
        if (!tokens) FUZZ_CHECK(fuzz::is_clean_message(tokens.error()));
    } else {
        FUZZ_CHECK(fuzz::is_clean_message(projector.error()));
    }
    (void)gguf_report(s);
    (void)gguf_json(s);
    return 0;
}
