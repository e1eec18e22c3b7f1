// The layers of hybrid models as transformers builds them: Qwen3NextGatedDeltaNet, GraniteMoeHybridMambaLayer,
// JambaMambaMixer, Lfm2ShortConv, NemotronHBlock, FalconH1DecoderLayer (modeling files in huggingface/transformers src/transformers/models/), and the
// recurrent state per sequence as llama.cpp sizes its RS buffer (src/llama-hparams.cpp n_embd_r/n_embd_s,
// src/llama-memory-recurrent.cpp) and vLLM its Mamba cache (MambaStateShapeCalculator).
#include "hybrid.hpp"

#include "quantity.hpp"

namespace llm_memory {
namespace {

// The conv channels of a recurrent layer: Mamba-2 and GDN d_inner + 2 x groups x state; Mamba-1 and the
// short conv d_inner.
std::uint64_t conv_channels(const RecurrentShape& r) { return r.d_inner + 2 * r.n_groups * r.d_state; }

}  // namespace

const char* mixer_kind_name(MixerKind kind) {
    switch (kind) {
        case MixerKind::attention: return "attention";
        case MixerKind::mamba: return "Mamba";
        case MixerKind::mamba2: return "Mamba-2";
        case MixerKind::gated_deltanet: return "Gated DeltaNet";
        case MixerKind::short_conv: return "short convolution";
        case MixerKind::none: return "MLP";
        case MixerKind::parallel: return "attention + recurrent";
    }
    return "attention";
}

std::vector<LinearLayer> hybrid_linear_layers(const Architecture& a) {
    std::vector<LinearLayer> out;
    const std::uint64_t h = a.hidden_size;
    const std::uint64_t attention_layers = a.attention_layer_count();
    const std::uint64_t recurrent_layers = a.recurrent_layer_count();
    const std::uint64_t q_out = a.num_attention_heads * a.head_dim;
    const std::uint64_t kv_out = a.num_key_value_heads * a.head_dim;
    const RecurrentShape& r = a.recurrent;
    const bool lfm2 = a.family == ModelFamily::lfm2;
    // Nemotron-H's blocks hold one module each, named "mixer" whatever it is (NemotronHBlock).
    const bool nemotron = a.family == ModelFamily::nemotron_h;
    const std::string attn = nemotron ? "mixer." : "self_attn.";
    const std::string ssm = nemotron ? "mixer." : "mamba.";

    // Attention layers: q/k/v/o (Qwen3-Next's q_proj also yields the output gate; LFM2 names o "out_proj").
    add_linear(out, attn + "q_proj", "attention", h, a.attention_output_gate ? 2 * q_out : q_out, a.qkv_bias, attention_layers);
    add_linear(out, attn + "k_proj", "attention", h, kv_out, a.qkv_bias, attention_layers);
    add_linear(out, attn + "v_proj", "attention", h, kv_out, a.qkv_bias, attention_layers);
    add_linear(out, attn + (lfm2 ? "out_proj" : "o_proj"), "attention", q_out, h, a.out_proj_bias, attention_layers);

    // Recurrent layers: the mixer's projections.
    switch (r.kind) {
        case MixerKind::gated_deltanet:
            // in_proj_qkvz: queries and keys (n_k x d_k each), values and the z gate (n_v x d_v each);
            // in_proj_ba: beta and alpha, one per value head.
            add_linear(out, "linear_attn.in_proj_qkvz", "recurrent", h, 2 * r.n_groups * r.d_state + 2 * r.d_inner, false, recurrent_layers);
            add_linear(out, "linear_attn.in_proj_ba", "recurrent", h, 2 * r.n_heads, false, recurrent_layers);
            add_linear(out, "linear_attn.out_proj", "recurrent", r.d_inner, h, false, recurrent_layers);
            break;
        case MixerKind::mamba2:
            // in_proj: z and x (d_inner each), B and C (groups x state each), dt (one per head). FalconH1Mixer's
            // out_proj takes its bias from projectors_bias, not mamba_proj_bias.
            add_linear(out, ssm + "in_proj", "recurrent", h, 2 * r.d_inner + 2 * r.n_groups * r.d_state + r.n_heads, r.proj_bias,
                recurrent_layers);
            add_linear(out, ssm + "out_proj", "recurrent", r.d_inner, h, a.family == ModelFamily::falcon_h1 ? r.out_proj_bias : r.proj_bias,
                       recurrent_layers);
            break;
        case MixerKind::mamba:
            add_linear(out, "mamba.in_proj", "recurrent", h, 2 * r.d_inner, r.proj_bias, recurrent_layers);
            add_linear(out, "mamba.x_proj", "recurrent", r.d_inner, r.dt_rank + 2 * r.d_state, false, recurrent_layers);
            add_linear(out, "mamba.dt_proj", "recurrent", r.dt_rank, r.d_inner, true, recurrent_layers);
            add_linear(out, "mamba.out_proj", "recurrent", r.d_inner, h, r.proj_bias, recurrent_layers);
            break;
        case MixerKind::short_conv:
            add_linear(out, "conv.in_proj", "recurrent", h, 3 * h, r.proj_bias, recurrent_layers);
            add_linear(out, "conv.out_proj", "recurrent", h, h, r.proj_bias, recurrent_layers);
            break;
        default:  // attention, none
            break;
    }

    // MLP and MoE.
    const std::uint64_t layers = a.num_hidden_layers;
    const std::uint64_t moe_layers = a.moe_layer_count();
    const std::uint64_t dense_layers = layers - moe_layers;
    const std::uint64_t i = a.intermediate_size;
    const std::uint64_t e = a.num_experts;
    const std::uint64_t w = a.moe_intermediate_size;
    const std::uint64_t s = a.shared_expert_intermediate_size;
    switch (a.family) {
        case ModelFamily::granite_hybrid:
            // GraniteMoeHybridMoE: router Linear (h -> E), experts' stacked input_linear (h -> 2w: gate and
            // up) and output_linear (w -> h); GraniteMoeHybridMLP shared_mlp in every layer.
            add_linear(out, "block_sparse_moe.router.layer", "router", h, e, false, moe_layers);
            add_linear(out, "block_sparse_moe.input_linear", "experts", h, 2 * w, false, moe_layers, e);
            add_linear(out, "block_sparse_moe.output_linear", "experts", w, h, false, moe_layers, e);
            add_linear(out, "shared_mlp.input_linear", e > 0 ? "shared_experts" : "mlp", h, 2 * s, false, layers);
            add_linear(out, "shared_mlp.output_linear", e > 0 ? "shared_experts" : "mlp", s, h, false, layers);
            break;
        case ModelFamily::nemotron_h: {
            // NemotronHMLP on the MLP-only blocks: up_proj and down_proj, relu² between them, no gate. NemotronHMoE on
            // the MoE blocks: the router (its "bias" here is e_score_correction_bias, one per expert), the experts'
            // stacked up_proj and down_proj at the latent width when moe_latent_size is set, the latent projections,
            // and one shared NemotronHMLP.
            const std::uint64_t mlp_layers = layers - attention_layers - recurrent_layers - moe_layers;
            const std::uint64_t width = a.moe_latent_size > 0 ? a.moe_latent_size : h;
            add_linear(out, "mixer.up_proj", "mlp", h, i, a.mlp_bias, mlp_layers);
            add_linear(out, "mixer.down_proj", "mlp", i, h, a.mlp_bias, mlp_layers);
            add_linear(out, "mixer.gate", "router", h, e, true, moe_layers);
            add_linear(out, "mixer.experts.up_proj", "experts", width, w, false, moe_layers, e);
            add_linear(out, "mixer.experts.down_proj", "experts", w, width, false, moe_layers, e);
            if (a.moe_latent_size > 0) {
                add_linear(out, "mixer.fc1_latent_proj", "shared_experts", h, width, a.mlp_bias, moe_layers);
                add_linear(out, "mixer.fc2_latent_proj", "shared_experts", width, h, a.mlp_bias, moe_layers);
            }
            add_linear(out, "mixer.shared_experts.up_proj", "shared_experts", h, s, a.mlp_bias, moe_layers);
            add_linear(out, "mixer.shared_experts.down_proj", "shared_experts", s, h, a.mlp_bias, moe_layers);
            break;
        }
        case ModelFamily::lfm2:
            add_linear(out, "feed_forward.w1", "mlp", h, i, false, layers);
            add_linear(out, "feed_forward.w3", "mlp", h, i, false, layers);
            add_linear(out, "feed_forward.w2", "mlp", i, h, false, layers);
            break;
        case ModelFamily::falcon_h1:  // FalconH1MLP: gate/up/down, biases from mlp_bias
            add_gated_mlp(out, "feed_forward.", "mlp", h, i, a.mlp_bias, layers);
            break;
        case ModelFamily::jamba:
            add_gated_mlp(out, "feed_forward.", "mlp", h, i, false, dense_layers);
            add_linear(out, "feed_forward.router", "router", h, e, false, moe_layers);
            add_gated_mlp(out, "feed_forward.experts.*.", "experts", h, w, false, moe_layers, e);
            break;
        default:  // Qwen3-Next: Qwen3NextSparseMoeBlock (router "gate", experts, shared_expert, shared_expert_gate)
            add_gated_mlp(out, "mlp.", "mlp", h, i, false, dense_layers);
            add_linear(out, "mlp.gate", "router", h, e, false, moe_layers);
            add_gated_mlp(out, "mlp.experts.*.", "experts", h, w, false, moe_layers, e);
            if (s > 0) {
                add_gated_mlp(out, "mlp.shared_expert.", "shared_experts", h, s, false, moe_layers);
                add_linear(out, "mlp.shared_expert_gate", "shared_experts", h, 1, false, moe_layers);
            }
            break;
    }
    return out;
}

std::uint64_t recurrent_mixer_extra_count(const Architecture& a) {
    const RecurrentShape& r = a.recurrent;
    const std::uint64_t layers = a.recurrent_layer_count();
    if (layers == 0 || r.kind == MixerKind::attention) return 0;
    const u128 channels = conv_channels(r);
    u128 per_layer = channels * r.conv_kernel + (r.conv_bias ? channels : 0);  // depthwise conv1d
    switch (r.kind) {
        case MixerKind::gated_deltanet:
            // dt_bias and A_log per value head; the gated RMSNorm over one value head (d_inner / heads).
            per_layer += 2 * static_cast<u128>(r.n_heads) + (r.n_heads > 0 ? r.d_inner / r.n_heads : 0);
            break;
        case MixerKind::mamba2:
            per_layer += 3 * static_cast<u128>(r.n_heads) + (r.gated_norm ? r.d_inner : 0);  // dt_bias, A_log, D; gated RMSNorm
            break;
        case MixerKind::mamba:
            // A_log (d_inner x state), D; dt_layernorm, b_layernorm, c_layernorm.
            per_layer += static_cast<u128>(r.d_inner) * r.d_state + r.d_inner + r.dt_rank + 2 * static_cast<u128>(r.d_state);
            break;
        default:
            break;
    }
    return static_cast<std::uint64_t>(per_layer * layers);
}

RecurrentStateValues recurrent_state_values(const Architecture& a) {
    RecurrentStateValues v;
    v.layers = a.recurrent_layer_count();
    if (v.layers == 0 || a.recurrent.kind == MixerKind::attention) return {};
    v.conv_values = a.recurrent.conv_state_values();
    v.ssm_values = a.recurrent.ssm_state_values();
    return v;
}

std::uint64_t recurrent_state_bytes(const Architecture& a, std::uint64_t sequences, std::uint64_t conv_bytes,
                                    std::uint64_t ssm_bytes) {
    const RecurrentStateValues v = recurrent_state_values(a);
    const u128 per_sequence = static_cast<u128>(v.layers) * (static_cast<u128>(v.conv_values) * conv_bytes +
                                                              static_cast<u128>(v.ssm_values) * ssm_bytes);
    const u128 bytes = per_sequence * sequences;
    return bytes > static_cast<u128>(~0ULL) / 4 ? ~0ULL / 4 : static_cast<std::uint64_t>(bytes);
}

std::string recurrent_layers_note(const Architecture& a) {
    const RecurrentStateValues v = recurrent_state_values(a);
    if (v.layers == 0) return {};
    const std::uint64_t llama_cpp = recurrent_state_bytes(a, 1, 4, 4);
    const std::uint64_t vllm = recurrent_state_bytes(a, 1, 2, a.recurrent.vllm_ssm_value_bytes(2));
    // Falcon-H1: every layer runs attention and the mixer side by side, so it keeps both.
    const bool both = a.attention_layer_count() + v.layers > a.num_hidden_layers;
    std::string note = std::to_string(v.layers) + " of " + std::to_string(a.num_hidden_layers) + " layers " +
                       (both ? "run attention and a " : "are ") + mixer_kind_name(a.recurrent.kind) +
                       (both ? " mixer side by side: each keeps" : " layers: each keeps") + " a fixed state per sequence (" +
                       format_count_exact(v.conv_values) + " conv values";
    if (v.ssm_values > 0) note += " + " + format_count_exact(v.ssm_values) + " SSM values";
    note += std::string(both ? ") beside its KV cache, " : ") instead of a KV cache, ") + format_bytes_binary(llama_cpp) + " per sequence in llama.cpp (f32), " +
            format_bytes_binary(vllm) + " in vLLM (conv state bf16, SSM state " +
            (a.recurrent.ssm_state_bytes == 4 ? "fp32 as the config's mamba_ssm_dtype says" : "in the model's 16 bits") +
            (both ? ")." : "); only the " + std::to_string(a.attention_layer_count()) + " attention layers keep a KV cache.");
    return note;
}

}  // namespace llm_memory
