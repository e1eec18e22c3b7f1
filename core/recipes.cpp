// The recipe table. Byte counts per trainable parameter, with sources:
//   ZeRO paper (Rajbhandari et al. 2019, sec. 3.1): mixed-precision Adam keeps fp16 weights and gradients
//   (2 + 2 bytes) and K = 12 bytes of optimizer state (fp32 master weights, momentum, variance): 16 bytes.
//   EleutherAI, Transformer Math 101 (2023): the same 2 + 2 + 12, and 8-bit optimizers at 6 bytes of state
//   (fp32 copy 4 + momentum 1 + variance 1), SGD with momentum at 8 (fp32 copy 4 + momentum 4).
//   DeepSpeed estimate_zero3_model_states_mem_needs: 18 bytes per parameter (fp16 weights + fp32 gradients,
//   master, momentum, variance). bitsandbytes 8-bit Adam (Dettmers et al. 2021, 8-bit Optimizers via
//   Block-wise Quantization): 1-byte states with one fp32 absmax per block of 2048 values.
#include "recipes.hpp"

#include "catalogue.hpp"

namespace llm_memory {
namespace {


constexpr std::uint64_t bytes(std::uint64_t whole) { return whole * kPicoPerByte; }
// 1 byte per value + one fp32 (4-byte) absmax per block of 2048 values (bitsandbytes block size).
constexpr std::uint64_t kEightBitState = kPicoPerByte + 4 * kPicoPerByte / 2048;

}  // namespace

const std::vector<Recipe>& recipes() {
    static const std::vector<Recipe> kRecipes = {
        {"seed-adam", "Seed's Adam (k x b)",
         "The seed's model: k = 3 values (gradient, Adam m, Adam v) of 2 bytes each = 6 bytes.",
         "the seed document, Values Stored During Training", ""},
        {"adamw-mixed", "AdamW, mixed precision",
         "bf16 gradient 2 + fp32 master weights 4 + fp32 m 4 + fp32 v 4 = 14 bytes (16 with 2-byte weights).",
         "ZeRO paper sec. 3.1 (2 + 2 + 12 = 16 bytes per parameter); EleutherAI Transformer Math 101",
         "16-bit weights"},
        {"adamw-mixed-fp32-grads", "AdamW, mixed precision, fp32 gradients",
         "fp32 gradient 4 + fp32 master 4 + m 4 + v 4 = 16 bytes (18 with 2-byte weights).",
         "DeepSpeed estimate_zero3_model_states_mem_needs: 18 bytes per parameter", "16-bit weights"},
        {"adam-fp32", "Adam, pure fp32",
         "fp32 gradient 4 + m 4 + v 4 = 12 bytes; the fp32 weights are the master copy (16 with them).",
         "EleutherAI Transformer Math 101 (vanilla AdamW: 12 bytes of state incl. the fp32 copy)",
         "fp32 weights (--dtype fp32)"},
        {"adam-8bit", "8-bit Adam (bitsandbytes), mixed precision",
         "bf16 gradient 2 + fp32 master 4 + 8-bit m and v (1 byte each + fp32 absmax per 2048) = 8.004 bytes.",
         "Dettmers et al. 2021, 8-bit Optimizers via Block-wise Quantization; Transformer Math 101 (6 bytes of state)",
         "16-bit weights"},
        {"sgd", "SGD, fp32",
         "Plain SGD keeps only the gradient: fp32 gradient 4 bytes (8 with fp32 weights).",
         "SGD has no optimizer state; fp32 gradient as in Transformer Math 101", "fp32 weights (--dtype fp32)"},
        {"sgd-momentum", "SGD with momentum, fp32",
         "fp32 gradient 4 + fp32 momentum 4 = 8 bytes (12 with fp32 weights).",
         "Transformer Math 101 (momentum: 4 bytes per parameter)", "fp32 weights (--dtype fp32)"},
    };
    return kRecipes;
}

std::string recipe_keys() { return keys_of(recipes()); }

Expected<Recipe> find_recipe(std::string_view key) {
    const std::string k = catalogue_key(key);
    if (const Recipe* recipe = find_in(recipes(), k)) return *recipe;
    if (k.empty()) return Error{"is empty (one of " + recipe_keys() + ")"};
    return Error{"\"" + printable_excerpt(trim(key), 40) + "\" is not a known recipe (" + recipe_keys() + ")"};
}

Expected<std::vector<StoredValue>> recipe_values(std::string_view key, Decimal k, Decimal bytes_per_value) {
    const Expected<Recipe> recipe = find_recipe(key);
    if (!recipe) return Error{recipe.error()};
    const std::string& name = recipe->key;
    const StateKind g = StateKind::gradient;
    const StateKind o = StateKind::optimizer;
    if (name == "seed-adam") {
        const std::uint64_t b = bytes_per_value.micros * Decimal::kScale;  // micros x 10^6 = pico
        if (k == Decimal::from_int(3))
            return std::vector<StoredValue>{
                {"gradient", b, g, "One gradient value per trainable parameter."},
                {"Adam m (first moment)", b, o, "Adam's running mean of the gradient."},
                {"Adam v (second moment)", b, o, "Adam's running mean of the squared gradient."}};
        // k values of b bytes, not named individually (the seed's k is a free input).
        return std::vector<StoredValue>{{"k x b stored values", k.micros * bytes_per_value.micros, o,
                                         "k values of b bytes: the gradient and optimizer states."}};
    }
    if (name == "adamw-mixed")
        return std::vector<StoredValue>{
            {"gradient (bf16)", bytes(2), g, "The 16-bit gradient from the backward pass."},
            {"master weights (fp32)", bytes(4), o, "An fp32 copy of the weights that the optimizer updates."},
            {"Adam m (fp32)", bytes(4), o, "First moment, fp32."},
            {"Adam v (fp32)", bytes(4), o, "Second moment, fp32."}};
    if (name == "adamw-mixed-fp32-grads")
        return std::vector<StoredValue>{
            {"gradient (fp32)", bytes(4), g, "Gradients accumulated in fp32."},
            {"master weights (fp32)", bytes(4), o, "An fp32 copy of the weights that the optimizer updates."},
            {"Adam m (fp32)", bytes(4), o, "First moment, fp32."},
            {"Adam v (fp32)", bytes(4), o, "Second moment, fp32."}};
    if (name == "adam-fp32")
        return std::vector<StoredValue>{{"gradient (fp32)", bytes(4), g, "The fp32 gradient."},
                                        {"Adam m (fp32)", bytes(4), o, "First moment, fp32."},
                                        {"Adam v (fp32)", bytes(4), o, "Second moment, fp32."}};
    if (name == "adam-8bit")
        return std::vector<StoredValue>{
            {"gradient (bf16)", bytes(2), g, "The 16-bit gradient from the backward pass."},
            {"master weights (fp32)", bytes(4), o, "An fp32 copy of the weights that the optimizer updates."},
            {"Adam m (8-bit)", kEightBitState, o, "1 byte + an fp32 absmax per block of 2048."},
            {"Adam v (8-bit)", kEightBitState, o, "1 byte + an fp32 absmax per block of 2048."}};
    if (name == "sgd") return std::vector<StoredValue>{{"gradient (fp32)", bytes(4), g, "The fp32 gradient."}};
    if (name == "sgd-momentum")
        return std::vector<StoredValue>{{"gradient (fp32)", bytes(4), g, "The fp32 gradient."},
                                        {"momentum (fp32)", bytes(4), o, "SGD's momentum buffer, fp32."}};
    return Error{"\"" + name + "\" has no stored values"};
}

std::uint64_t recipe_pico_bytes(const std::vector<StoredValue>& values) {
    std::uint64_t total = 0;
    for (const StoredValue& value : values) total += value.pico_bytes;
    return total;
}

std::string format_pico_bytes(std::uint64_t pico_bytes) { return format_ratio(pico_bytes, kPicoPerByte, 6); }

std::uint64_t pico_bytes_for(std::uint64_t count, std::uint64_t pico_bytes) {
    const u128 numerator = static_cast<u128>(count) * pico_bytes;
    return static_cast<std::uint64_t>((numerator + kPicoPerByte / 2) / kPicoPerByte);
}

}  // namespace llm_memory
