// FramePacer (imgui_app/frame_pacer.hpp): idle at zero frames. After input it owes exactly
// kFramesAfterInput frames (ImGui settles hover and layout in 2-3), an animation asks for one at a time,
// and with nothing new it owes none, so the native loop blocks and the web tick returns early.
#include <catch_amalgamated.hpp>

#include "frame_pacer.hpp"

using llm_memory::FramePacer;

namespace {
// Draws while a frame is owed (at most `limit`, so a pacer that never idles fails instead of hanging).
int drain(FramePacer& pacer, int limit = 100) {
    int drawn = 0;
    while (pacer.frame_owed() && drawn < limit) {
        pacer.frame_drawn();
        ++drawn;
    }
    return drawn;
}
}  // namespace

TEST_CASE("FramePacer: the first frames, then idle; input owes exactly kFramesAfterInput again", "[ui][pacer]") {
    FramePacer pacer;
    CHECK(FramePacer::kFramesAfterInput == 3);
    CHECK(drain(pacer) == 3);  // the start draws like an input
    CHECK_FALSE(pacer.frame_owed());
    pacer.notify_input();
    pacer.frame_drawn();
    pacer.notify_input();  // input mid-settle restarts the count, it does not add to it
    CHECK(drain(pacer) == 3);
    CHECK(pacer.frames_drawn() == 7);
}

TEST_CASE("FramePacer: an animation asks one frame at a time and never cuts an input's frames short", "[ui][pacer]") {
    FramePacer pacer;
    drain(pacer);
    pacer.request_frame();
    pacer.request_frame();  // asking twice before drawing is still one frame
    CHECK(drain(pacer) == 1);
    pacer.notify_input();
    pacer.request_frame();  // an input's 3 frames stay 3
    CHECK(drain(pacer) == 3);
    CHECK_FALSE(pacer.frame_owed());
    pacer.frame_drawn();  // a frame drawn while idle (a resize the driver forced) owes nothing
    CHECK_FALSE(pacer.frame_owed());
}
