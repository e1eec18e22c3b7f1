// FramePacer: decides whether a frame is owed. No ImGui, no GLFW, so it is unit-tested.
// After any input it owes a few frames (ImGui needs 2-3 to settle hover and layout), then none:
// the native loop blocks in glfwWaitEventsTimeout and the web loop pauses.
#pragma once

namespace llm_memory {

class FramePacer {
public:
    // Frames drawn after the last input before going idle.
    static constexpr int kFramesAfterInput = 3;

    // Something happened (input, resize, state change): owe frames again.
    void notify_input() { frames_owed_ = kFramesAfterInput; }
    // Something is animating and asks for one more frame.
    void request_frame() {
        if (frames_owed_ < 1) frames_owed_ = 1;
    }
    // True when a frame should be drawn now.
    bool frame_owed() const { return frames_owed_ > 0; }
    // Call after drawing a frame.
    void frame_drawn() {
        if (frames_owed_ > 0) --frames_owed_;
        ++frames_drawn_;
    }
    // Frames drawn since start.
    unsigned long frames_drawn() const { return frames_drawn_; }

private:
    int frames_owed_ = kFramesAfterInput;
    unsigned long frames_drawn_ = 0;
};

}  // namespace llm_memory
