// Training recipes: what is stored per trainable parameter besides the weights, as a list of values
// with their bytes. This generalises the seed's N_trainable x k x b: the default recipe `seed-adam` is
// exactly k values of b bytes (3 x 2), so the seed's figures do not change. Bytes are exact in
// pico-bytes (10^-12 byte) so 8-bit Adam's block constants (4 bytes per 2048 values) stay exact.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "quantity.hpp"
#include "result.hpp"

namespace llm_memory {

// Which ZeRO stage partitions a stored value: stage 1 splits optimizer states (including fp32 master
// weights), stage 2 also gradients, stage 3 also the weights.
enum class StateKind { gradient, optimizer };

inline constexpr std::uint64_t kPicoPerByte = 1'000'000'000'000ULL;  // 10^12 pico-bytes per byte

// One value stored per trainable parameter.
struct StoredValue {
    std::string name;              // "gradient (bf16)", "fp32 master weights", "Adam m (fp32)"
    std::uint64_t pico_bytes;      // bytes per trainable parameter x 10^12
    StateKind kind;
    std::string explanation;       // one line
};

// One recipe: a key, its stored values (from Scenario's k and bytes per value for seed-adam), a
// one-line explanation and the source of its convention.
struct Recipe {
    std::string key;          // "seed-adam", "adamw-mixed", ...
    std::string label;        // "Seed's Adam (k x b)"
    std::string explanation;  // one line for the UI and --help
    std::string source;       // the paper or document the byte counts come from
    std::string weight_note;  // what weight precision it assumes ("" when any)
};

// The seed's recipe key; the default.
inline constexpr const char* kSeedRecipe = "seed-adam";
// Whether a scenario's recipe key is the seed's k x b ("" counts as the default).
inline bool is_seed_recipe(std::string_view key) { return key.empty() || key == kSeedRecipe; }

// Every recipe, seed-adam first (the default).
const std::vector<Recipe>& recipes();

// Looks a recipe up by key, ignoring case. Error: "\"x\" is not a known recipe (seed-adam, ...)".
Expected<Recipe> find_recipe(std::string_view key);

// The recipe's stored values. seed-adam uses k values of bytes_per_value bytes: with k = 3 they are
// named gradient, Adam m, Adam v; otherwise one "k x b" value. The others ignore k and b.
// Error: unknown recipe key.
Expected<std::vector<StoredValue>> recipe_values(std::string_view key, Decimal k, Decimal bytes_per_value);

// Sum of the values' bytes per trainable parameter, in pico-bytes.
std::uint64_t recipe_pico_bytes(const std::vector<StoredValue>& values);

// "14", "8.003906": bytes per trainable parameter as text (at most 6 decimals, trimmed).
std::string format_pico_bytes(std::uint64_t pico_bytes);

// Bytes for `count` trainable parameters at `pico_bytes` each, rounded half up once.
std::uint64_t pico_bytes_for(std::uint64_t count, std::uint64_t pico_bytes);

// A comma-separated list of recipe keys.
std::string recipe_keys();

}  // namespace llm_memory
