// Hybrid models (Qwen3-Next, Granite 4.0-H, Jamba, LFM2, Nemotron-H, Falcon-H1): the linears of their decoder layers (attention
// layers, recurrent mixers, MLP or MoE) and the mixers' other parameters, as transformers builds them, and
// the recurrent state every recurrent layer keeps per sequence, as llama.cpp and vLLM allocate it.
// Invariant: counts are exact element counts from the Architecture alone; no defaults are assumed here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "architecture.hpp"

namespace llm_memory {

// The decoder linears of a model with layer_mixers (Architecture::layer_mixers not empty), in module order:
// attention q/k/v/o on the attention layers only, the recurrent mixer's projections (part "recurrent") on the
// recurrent layers only, and the MLP / MoE linears on the layers that have them.
std::vector<LinearLayer> hybrid_linear_layers(const Architecture& arch);

// The recurrent mixers' parameters that are not linears, over all recurrent layers: depthwise conv kernels
// (and biases), A_log, D, dt biases, the gated RMSNorm, Jamba's dt/B/C norms. 0 without recurrent layers.
std::uint64_t recurrent_mixer_extra_count(const Architecture& arch);

// "Gated DeltaNet", "Mamba-2", "Mamba", "short convolution" ("attention" for attention).
const char* mixer_kind_name(MixerKind kind);

// The recurrent state of one sequence, summed over the recurrent layers, in values (elements).
struct RecurrentStateValues {
    std::uint64_t layers = 0;       // recurrent layers
    std::uint64_t conv_values = 0;  // per layer: (conv_kernel - 1) x conv channels (llama.cpp n_embd_r)
    std::uint64_t ssm_values = 0;   // per layer: d_inner x d_state (llama.cpp n_embd_s); 0 for a short conv
};
RecurrentStateValues recurrent_state_values(const Architecture& arch);

// Bytes of the recurrent state for `sequences` sequences with the conv state and the SSM state stored in
// `conv_bytes` and `ssm_bytes` bytes per value: layers x (conv x conv_bytes + ssm x ssm_bytes) x sequences.
// llama.cpp keeps both in f32 (4, 4: its RS buffer); vLLM keeps the conv state in the model's dtype and the
// SSM state in mamba_ssm_cache_dtype (the model's 2 bytes, or 4 where the config names float32). 0 without
// recurrent layers.
std::uint64_t recurrent_state_bytes(const Architecture& arch, std::uint64_t sequences, std::uint64_t conv_bytes,
                                    std::uint64_t ssm_bytes);

// One sentence on the recurrent layers for reports ("36 of 48 layers are Gated DeltaNet layers: ..."), or ""
// for a model without them.
std::string recurrent_layers_note(const Architecture& arch);

}  // namespace llm_memory
