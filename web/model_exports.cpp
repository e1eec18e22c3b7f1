// JS entries for the model picker: a dropped config.json's text, and a model file (GGUF, .safetensors or
// model.safetensors.index.json) that web/api.js reads with File.slice, chunk by chunk, into a buffer
// owned here. Only the header is asked for; the file is never read whole nor sent anywhere. Core checks
// everything; the model panel applies the result (or shows its error) on the next frame.
#include <emscripten.h>

#include <memory>
#include <string>
#include <vector>

#include "model_file.hpp"
#include "model_panel.hpp"

extern "C" void llm_memory_wake();       // web/main_web.cpp: owe frames and resume the paused main loop
llm_memory::AppState& llm_memory_web_app();  // web/main_web.cpp

namespace {

// The model file being read (one at a time: a new one replaces it).
struct WebFileRead {
    std::unique_ptr<llm_memory::ModelFileReader> reader;
    std::string name;
    std::vector<char> chunk;  // the next chunk, written by JS at llm_memory_file_chunk()'s address
};
WebFileRead g_file;

constexpr int kMaxChunkBytes = 16 << 20;  // web/api.js reads 1 MiB at a time

}  // namespace

extern "C" {

// Queues config.json text for the model panel and wakes the app. Returns 1 if core read it (the model
// becomes the scenario's on the next frame), 0 if not (the panel shows the message naming the problem).
EMSCRIPTEN_KEEPALIVE int llm_memory_load_config(const char* text) {
    const bool ok = llm_memory::queue_model_config(llm_memory_web_app(), text != nullptr ? text : "", "dropped config.json");
    llm_memory_wake();
    return ok ? 1 : 0;
}

// Starts reading a model file of `size` bytes (a double: JS numbers; files over 2^53 bytes do not exist).
EMSCRIPTEN_KEEPALIVE void llm_memory_file_begin(double size, const char* name) {
    g_file.name = name != nullptr ? name : "model file";
    const std::uint64_t bytes = size > 0 && size < 9.0e15 ? static_cast<std::uint64_t>(size) : 0;
    g_file.reader = std::make_unique<llm_memory::ModelFileReader>(bytes, g_file.name);
}

// The address JS writes the next chunk of `length` bytes to (valid until the next call here); 0 when
// no file is being read or the length is out of range.
EMSCRIPTEN_KEEPALIVE char* llm_memory_file_chunk(int length) {
    if (!g_file.reader || length <= 0 || length > kMaxChunkBytes) return nullptr;
    g_file.chunk.resize(static_cast<std::size_t>(length));
    return g_file.chunk.data();
}

// Feeds the chunk written at llm_memory_file_chunk(length): 0 = send the next chunk, 1 = the header is
// complete (call llm_memory_file_end), -1 = the file was refused (its error is queued for the panel).
EMSCRIPTEN_KEEPALIVE int llm_memory_file_feed(int length) {
    if (!g_file.reader || length <= 0 || static_cast<std::size_t>(length) > g_file.chunk.size()) return -1;
    const llm_memory::Expected<bool> fed = g_file.reader->feed(std::string_view(g_file.chunk.data(), static_cast<std::size_t>(length)));
    if (fed) return *fed ? 1 : 0;
    llm_memory::queue_model_file(llm_memory_web_app(), llm_memory::Error{fed.error()}, g_file.name);
    g_file.reader.reset();
    llm_memory_wake();
    return -1;
}

// Ends the read (the header is complete, or the file ended): the model panel applies the result on the
// next frame. Returns 1 if core read the header, 0 if not (the panel shows why).
EMSCRIPTEN_KEEPALIVE int llm_memory_file_end() {
    if (!g_file.reader) return 0;
    const bool ok = llm_memory::queue_model_file(llm_memory_web_app(), g_file.reader->finish(), g_file.name);
    g_file.reader.reset();
    g_file.chunk = {};
    llm_memory_wake();
    return ok ? 1 : 0;
}

}  // extern "C"
