// LoRA and QLoRA trainable counts, computed the way PEFT does: a LoRA of rank r on a linear layer of
// in x out features adds A (r x in) and B (out x r), so r x (in + out) parameters per targeted module,
// summed over every module whose name matches a target. The linear list comes from the architecture
// (core/architecture.hpp, decoder_linear_layers), so counts follow grouped-query attention, fused
// projections and experts exactly. Biases are not trained (PEFT's default bias="none").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "architecture.hpp"
#include "result.hpp"

namespace llm_memory {

inline constexpr std::uint64_t kMaxLoraRank = 65'536;

// Splits "q,k,v,o,gate,up,down" (also PEFT names "q_proj", or "all-linear") into trimmed lower-case
// names. Errors: empty list, empty item, characters other than letters, digits, '_', '-', '.', '*'.
Expected<std::vector<std::string>> parse_lora_targets(std::string_view text);

// One targeted kind of module and what LoRA adds to it.
struct LoraModule {
    std::string target_name;         // "q_proj"
    std::uint64_t module_count = 0;  // instances (layers x copies per layer)
    std::uint64_t trainable_count = 0;  // rank x (in + out) x module_count
};

// The LoRA adapter's size.
struct LoraCount {
    std::uint64_t trainable_count = 0;   // what PEFT's print_trainable_parameters reports as trainable
    std::uint64_t module_count = 0;      // LoRA-wrapped modules
    std::vector<LoraModule> modules;     // per target name, in module order
};

// Counts LoRA parameters of `rank` on the linears whose PEFT name matches a target. A short target X
// means "X_proj" when the model has such a module (q -> q_proj), else the name X itself (c_attn, w1,
// query_key_value); q, k and v fall back to a fused QKV module (c_attn, query_key_value, qkv_proj) and
// gate/up to gate_up_proj, counted once, as PEFT's per-model defaults target them; "all-linear" targets
// every listed linear (PEFT excludes the output head too).
// Errors: rank 0 or above kMaxLoraRank; a target that matches nothing (the message lists the model's
// names); a count above kMaxParamCount.
Expected<LoraCount> lora_trainable_count(const std::vector<LinearLayer>& linears, std::uint64_t rank,
                                         const std::vector<std::string>& targets);

// Whether a linear's input is the attention output or the MLP's inner product (o_proj, out_proj, dense,
// c_proj, down_proj, fc2, w2, dense_4h_to_h): the "output side" of its block. Training activations use it
// to tell which inputs a frozen base keeps for a LoRA-adapted linear.
bool is_output_projection(std::string_view target_name);

}  // namespace llm_memory
