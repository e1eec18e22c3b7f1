// splitmix64 (Steele, Lea and Flood 2014): a tiny, well-mixed generator with a 64-bit state. Integers
// only, so a seed gives the same sequence natively and in wasm: practice exercises and test corpora.
#pragma once

#include <cstddef>
#include <cstdint>

namespace llm_memory {

struct SplitMix64 {
    std::uint64_t state;
    // The next 64-bit value; advances the state.
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    // A value in [0, count); count > 0.
    std::size_t pick(std::size_t count) { return static_cast<std::size_t>(next() % count); }
};

}  // namespace llm_memory
