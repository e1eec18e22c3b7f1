// The UI font (Roboto Regular, from Debian's fonts-roboto-unhinted), embedded at build time by
// scripts/embed_font.py into the build tree (never committed).
#pragma once

namespace llm_memory {
extern const unsigned char kUiFontTtf[];
extern const unsigned int kUiFontTtfSize;
}  // namespace llm_memory
