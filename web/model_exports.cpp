// JS entries for the model picker: a dropped config.json's text, and a model file (GGUF, .safetensors or
// model.safetensors.index.json) read header only through core's ModelFileReader, the CLI's and the desktop
// app's reader. web/api.js slices the File in 1 MiB chunks, copies each into llm_memory_file_buffer and
// feeds it until the reader has the whole header; the file is never read further, never kept whole.
#include <emscripten.h>

#include <memory>
#include <string>

#include "hub_panel.hpp"
#include "model_panel.hpp"
#include "report.hpp"

extern "C" void llm_memory_wake();          // web/main_web.cpp: owe frames and resume the paused main loop
llm_memory::AppState& llm_memory_web_app();  // web/main_web.cpp
void llm_memory_web_scenario_changed();      // web/main_web.cpp: publish (summary, link, storage)

namespace {

// The model file being read, and the last one applied (its JSON goes into estimate() while the scenario
// keeps the N, b and model the file gave it).
struct ModelFileRead {
    std::unique_ptr<llm_memory::ModelFileReader> reader;
    std::string name;
    std::string error;         // the problem feed() found
    std::string chunk;         // the chunk JS copies in
    std::string applied_json;  // core's JSON of the file the scenario took ("" when none)
    std::uint64_t applied_param_count = 0;
    llm_memory::Decimal applied_bytes_per_param;
    std::shared_ptr<const llm_memory::ModelSource> applied_model;
};

ModelFileRead g_file;

}  // namespace

extern "C" {

// Queues config.json text for the model panel and wakes the app. Returns 1 if core read it (the model
// becomes the scenario's on the next frame), 0 if not (the panel shows the message naming the problem).
EMSCRIPTEN_KEEPALIVE int llm_memory_load_config(const char* text) {
    const bool ok = llm_memory::queue_model_config(llm_memory_web_app(), text != nullptr ? text : "", "dropped config.json");
    llm_memory_wake();
    return ok ? 1 : 0;
}

// Starts reading a model file of file_size bytes shown as `name`; a read in progress is dropped.
EMSCRIPTEN_KEEPALIVE void llm_memory_file_begin(double file_size, const char* name) {
    g_file.name = name != nullptr ? name : "";
    g_file.error.clear();
    g_file.reader = std::make_unique<llm_memory::ModelFileReader>(
        file_size > 0 && file_size < 1.8e19 ? static_cast<std::uint64_t>(file_size) : 0, g_file.name);
}

// A buffer of `bytes` bytes for the next chunk (valid until the next call; JS copies the chunk into it).
EMSCRIPTEN_KEEPALIVE char* llm_memory_file_buffer(int bytes) {
    g_file.chunk.resize(bytes > 0 ? static_cast<std::size_t>(bytes) : 0);
    return &g_file.chunk[0];
}

// Feeds the buffer's first `bytes` bytes, the next ones of the file: 0 the reader wants more, 1 the header
// is complete, -1 a problem (llm_memory_file_finish reports it). Either of the last two: stop reading.
EMSCRIPTEN_KEEPALIVE int llm_memory_file_feed(int bytes) {
    if (!g_file.reader || !g_file.error.empty()) return -1;
    const std::size_t n = bytes > 0 && static_cast<std::size_t>(bytes) <= g_file.chunk.size() ? static_cast<std::size_t>(bytes) : 0;
    const llm_memory::Expected<bool> fed = g_file.reader->feed(std::string_view(g_file.chunk.data(), n));
    if (!fed) {
        g_file.error = fed.error();
        return -1;
    }
    return *fed ? 1 : 0;
}

// Ends the read (read_error: the browser's problem reading the file, else ""): the file's model becomes
// the scenario's and the Model panel shows its report, or the panel shows the problem and the model in
// use stays. Returns {"ok", "error" (the panel's message) or null, "file": core's JSON of the header or null}.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_file_finish(const char* read_error) {
    static std::string out;
    llm_memory::AppState& app = llm_memory_web_app();
    using llm_memory::Error;
    using llm_memory::Expected;
    using llm_memory::FileModel;
    const std::string problem = read_error != nullptr && read_error[0] != '\0' ? "cannot read the file (" + std::string(read_error) + ")" : g_file.error;
    const Expected<FileModel> file = !g_file.reader ? Expected<FileModel>(Error{"no file is being read"})
                                     : !problem.empty() ? Expected<FileModel>(Error{problem})
                                                        : g_file.reader->finish(app.scenario.model.get());
    g_file.reader.reset();
    g_file.chunk = std::string();
    const std::uint64_t generation = app.scenario_generation;
    llm_memory::queue_model_file(app, file, g_file.name);
    llm_memory::apply_pending_model_configs(app);  // now, not next frame: the result is known to the caller
    const bool applied = app.scenario_generation != generation;
    if (applied) {
        g_file.applied_json = file->json;
        g_file.applied_param_count = app.scenario.param_count;
        g_file.applied_bytes_per_param = app.scenario.bytes_per_param;
        g_file.applied_model = app.scenario.model;
        llm_memory_web_scenario_changed();
    }
    const std::string message = llm_memory::model_panel_message(app);
    llm_memory::JsonWriter w;
    w.begin_object().field("ok", applied).field_or_null("error", applied ? std::string() : message);
    out = w.raw_field("file", applied ? file->json : std::string("null")).end_object().take();
    llm_memory_wake();
    return out.c_str();
}

// The CLI's JSON for the scenario the page shows (a model file's architecture included, which a state
// string cannot carry), with "file" (core's JSON of the header) while the scenario keeps what a model
// file gave it, as `llm-memory --gguf FILE --format json` prints it.
EMSCRIPTEN_KEEPALIVE const char* llm_memory_current_json() {
    static std::string out;
    const llm_memory::AppState& app = llm_memory_web_app();
    const bool from_file = !g_file.applied_json.empty() && app.scenario.model == g_file.applied_model &&
                           app.scenario.param_count == g_file.applied_param_count &&
                           app.scenario.bytes_per_param == g_file.applied_bytes_per_param;
    std::vector<llm_memory::JsonField> leading = llm_memory::hub_applied_fields(app);  // a Hugging Face look-up's "hub" and "file"
    if (leading.empty() && from_file) leading.push_back({"file", g_file.applied_json});
    out = llm_memory::report_json(app.scenario, app.estimate, leading);
    return out.c_str();
}

}  // extern "C"
