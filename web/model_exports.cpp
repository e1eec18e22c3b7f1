// JS entry for the model picker: the page's drop handler passes a dropped config.json's text here.
// The text is checked by core now and loaded by the model panel on the next frame.
#include <emscripten.h>

#include "model_panel.hpp"

extern "C" void llm_memory_wake();          // web/main_web.cpp: owe frames and resume the paused main loop
llm_memory::AppState& llm_memory_web_app();  // web/main_web.cpp

extern "C" {

// Queues config.json text for the model panel and wakes the app. Returns 1 if core read it (the model
// becomes the scenario's on the next frame), 0 if not (the panel shows the message naming the problem).
EMSCRIPTEN_KEEPALIVE int llm_memory_load_config(const char* text) {
    const bool ok = llm_memory::queue_model_config(llm_memory_web_app(), text != nullptr ? text : "", "dropped config.json");
    llm_memory_wake();
    return ok ? 1 : 0;
}

}  // extern "C"
