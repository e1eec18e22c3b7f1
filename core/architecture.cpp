// Architecture -> exact parameter counts: the counting half of the model's description (config.json is read
// in config_reader.cpp; GGUF headers and the presets give an Architecture too). Linear weights are counted
// from decoder_linear_layers(), the same list LoRA and the training activations use; a hybrid model's
// recurrent layers come from hybrid.cpp.
//
// Sections: linear layers (add_linear, per-family lists, MoE) · counting one decoder stack · Architecture's
//   layer queries · decoder_linear_layers · breakdown_rows · count_parameters (decoder, embeddings and head,
//   the MTP module).
#include "architecture.hpp"

#include "hybrid.hpp"
#include "quantity.hpp"

namespace llm_memory {

void add_linear(std::vector<LinearLayer>& out, std::string path, const char* part, std::uint64_t in,
                std::uint64_t out_features, bool bias, std::uint64_t layers, std::uint64_t per_layer) {
    if (layers == 0 || per_layer == 0) return;
    LinearLayer l;
    const std::size_t dot = path.rfind('.');
    l.target_name = dot == std::string::npos ? path : path.substr(dot + 1);
    l.module_path = std::move(path);
    l.part = part;
    l.in_features = in;
    l.out_features = out_features;
    l.has_bias = bias;
    l.layer_count = layers;
    l.per_layer_count = per_layer;
    out.push_back(std::move(l));
}

void add_gated_mlp(std::vector<LinearLayer>& out, const std::string& prefix, const char* part, std::uint64_t in,
                   std::uint64_t width, bool bias, std::uint64_t layers, std::uint64_t per_layer) {
    add_linear(out, prefix + "gate_proj", part, in, width, bias, layers, per_layer);
    add_linear(out, prefix + "up_proj", part, in, width, bias, layers, per_layer);
    add_linear(out, prefix + "down_proj", part, width, in, bias, layers, per_layer);
}

namespace {

std::uint64_t norm_size(const Architecture& a, std::uint64_t width) {
    return a.norm_kind == NormKind::layer_norm ? 2 * width : width;  // RMSNorm and Cohere's LayerNorm: weight only
}

// Routed-expert linears of one MoE layer (per expert), shared-expert and router linears.
void add_moe_linears(std::vector<LinearLayer>& out, const Architecture& a, std::uint64_t moe_layers) {
    const std::uint64_t h = a.hidden_size;
    const std::uint64_t e = a.num_experts;
    const std::uint64_t w = a.moe_intermediate_size;
    switch (a.family) {
        case ModelFamily::mixtral:
        case ModelFamily::minimax_m2:
            add_linear(out, "block_sparse_moe.gate", "router", h, e, false, moe_layers);
            add_linear(out, "block_sparse_moe.experts.*.w1", "experts", h, w, false, moe_layers, e);
            add_linear(out, "block_sparse_moe.experts.*.w3", "experts", h, w, false, moe_layers, e);
            add_linear(out, "block_sparse_moe.experts.*.w2", "experts", w, h, false, moe_layers, e);
            return;
        case ModelFamily::gpt_oss:
            // Expert weights are stacked parameters (gate and up fused), each with its bias.
            add_linear(out, "mlp.router", "router", h, e, true, moe_layers);
            add_linear(out, "mlp.experts.gate_up_proj", "experts", h, 2 * w, true, moe_layers, e);
            add_linear(out, "mlp.experts.down_proj", "experts", w, h, true, moe_layers, e);
            return;
        case ModelFamily::llama4:
            add_linear(out, "feed_forward.router", "router", h, e, false, moe_layers);
            add_linear(out, "feed_forward.experts.gate_up_proj", "experts", h, 2 * w, false, moe_layers, e);
            add_linear(out, "feed_forward.experts.down_proj", "experts", w, h, false, moe_layers, e);
            break;
        default:
            if (a.family == ModelFamily::qwen2_moe || a.family == ModelFamily::qwen3_moe)
                add_linear(out, "mlp.gate", "router", h, e, false, moe_layers);
            add_gated_mlp(out, "mlp.experts.*.", "experts", h, w, false, moe_layers, e);
            break;
    }
    const std::uint64_t s = a.shared_expert_intermediate_size;
    if (s > 0) {
        const char* prefix = a.family == ModelFamily::qwen2_moe ? "mlp.shared_expert."
                             : a.family == ModelFamily::llama4  ? "feed_forward.shared_expert."
                                                                : "mlp.shared_experts.";
        add_gated_mlp(out, prefix, "shared_experts", h, s, false, moe_layers);
        if (a.family == ModelFamily::qwen2_moe)
            add_linear(out, "mlp.shared_expert_gate", "shared_experts", h, 1, false, moe_layers);
    }
}

struct Totals {
    u128 embedding = 0, attention = 0, mlp = 0, experts = 0, shared = 0, router = 0, norms = 0, head = 0, recurrent = 0;
    u128 one_expert_per_layer = 0;  // weights+biases of one routed expert in one layer
    u128 ple = 0;                   // Gemma 4's per-layer embeddings (in embedding)
};

// Counts one stack of decoder layers (or the MTP layer) into `t` from the linear list plus norms.
void count_decoder(const Architecture& a, const std::vector<LinearLayer>& linears, Totals& t) {
    for (const LinearLayer& l : linears) {
        const u128 one = static_cast<u128>(l.in_features) * l.out_features + (l.has_bias ? l.out_features : 0);
        const u128 all = one * l.instance_count();
        const std::string part = l.part;
        if (part == "attention") t.attention += all;
        else if (part == "mlp") t.mlp += all;
        else if (part == "experts") {
            t.experts += all;
            t.one_expert_per_layer += one;
        } else if (part == "shared_experts") t.shared += all;
        else if (part == "recurrent") t.recurrent += all;
        else t.router += all;
    }
    t.recurrent += recurrent_mixer_extra_count(a);  // conv kernels, A, D, dt biases, gated norms
    const std::uint64_t layers = a.num_hidden_layers;
    t.norms += static_cast<u128>(layers) * a.norms_per_layer * norm_size(a, a.hidden_size);
    if (a.uses_mla()) t.attention += static_cast<u128>(layers) * (a.q_lora_rank + a.kv_lora_rank);  // q_a/kv_a_layernorm
    t.attention += static_cast<u128>(a.attention_layer_count()) * a.qk_norm_count;     // q_norm, k_norm
    if (a.attention_sinks) t.attention += static_cast<u128>(layers) * a.num_attention_heads;  // gpt-oss sinks
    if (a.family == ModelFamily::gemma4) {
        // q_norm and k_norm over each layer's head width; layer_scalar (one value a layer, a buffer the checkpoint
        // stores); with MoE, the router's scale (hidden) and per_expert_scale, and three more norms a layer.
        const u128 sliding = a.sliding_layer_count(), global = layers - sliding, moe = a.moe_layer_count();
        t.attention += 2 * (sliding * a.head_dim + global * a.global_head_dim);
        t.norms += layers + moe * 3 * a.hidden_size + (a.per_layer_input_size > 0 ? layers * a.hidden_size : 0);  // + post_per_layer_input_norm
        t.router += moe * (a.hidden_size + a.num_experts);
    }
    if (a.family == ModelFamily::minimax_m2 && a.router_bias_vector)  // e_score_correction_bias
        t.router += static_cast<u128>(a.moe_layer_count()) * a.num_experts;
    if (is_one_of(a.family, {ModelFamily::deepseek, ModelFamily::deepseek_v2, ModelFamily::glm4_moe})) {
        // MoEGate / Glm4MoeTopkRouter is a bare nn.Parameter (n_routed x hidden), plus V3's and GLM's
        // e_score_correction_bias.
        const std::uint64_t moe_layers = a.moe_layer_count();
        t.router += static_cast<u128>(moe_layers) * a.num_experts * (a.hidden_size + (a.router_bias_vector ? 1 : 0));
    }
}

}  // namespace

bool Architecture::layer_is_moe(std::uint64_t layer) const {
    if (num_experts == 0 || layer >= num_hidden_layers) return false;
    switch (family) {
        case ModelFamily::mixtral:
        case ModelFamily::minimax_m2: return true;
        case ModelFamily::qwen2_moe:
        case ModelFamily::qwen3_moe:
        case ModelFamily::llama4:  // moe_layers default: every interleave_moe_layer_step-th layer
            if (!dense_mlp_layers.empty() && dense_mlp_layers[static_cast<std::size_t>(layer)]) return false;
            return (layer + 1) % moe_layer_freq == 0;
        case ModelFamily::qwen3_next:
            if (!dense_mlp_layers.empty() && dense_mlp_layers[static_cast<std::size_t>(layer)]) return false;
            return (layer + 1) % moe_layer_freq == 0;
        case ModelFamily::jamba:
            return layer % moe_layer_freq == moe_layer_offset;
        case ModelFamily::nemotron_h:  // the blocks with neither attention nor Mamba-2 that are not MLP blocks
            return !layer_mixers.empty() && layer_mixers[static_cast<std::size_t>(layer)] == static_cast<std::uint8_t>(MixerKind::none) &&
                   (dense_mlp_layers.empty() || !dense_mlp_layers[static_cast<std::size_t>(layer)]);
        case ModelFamily::deepseek:
        case ModelFamily::deepseek_v2:
        case ModelFamily::glm4_moe:
            return layer >= first_k_dense_replace && layer % moe_layer_freq == 0;
        default: return true;
    }
}

std::uint64_t Architecture::moe_layer_count() const {
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < num_hidden_layers && num_experts > 0; ++i) n += layer_is_moe(i) ? 1 : 0;
    return n;
}

bool Architecture::layer_is_attention(std::uint64_t layer) const {
    if (layer >= num_hidden_layers) return false;
    if (layer_mixers.empty()) return true;
    const std::uint8_t mixer = layer_mixers[static_cast<std::size_t>(layer)];
    return mixer == static_cast<std::uint8_t>(MixerKind::attention) || mixer == static_cast<std::uint8_t>(MixerKind::parallel);
}

bool Architecture::layer_is_recurrent(std::uint64_t layer) const {
    if (layer >= num_hidden_layers || layer_mixers.empty()) return false;
    const std::uint8_t mixer = layer_mixers[static_cast<std::size_t>(layer)];
    return mixer != static_cast<std::uint8_t>(MixerKind::attention) && mixer != static_cast<std::uint8_t>(MixerKind::none);
}

std::uint64_t Architecture::recurrent_layer_count() const {
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < num_hidden_layers && !layer_mixers.empty(); ++i) n += layer_is_recurrent(i) ? 1 : 0;
    return n;
}

std::uint64_t Architecture::attention_layer_count() const {
    if (layer_mixers.empty()) return num_hidden_layers;
    std::uint64_t n = 0;
    for (std::uint64_t i = 0; i < num_hidden_layers; ++i) n += layer_is_attention(i) ? 1 : 0;
    return n;
}

std::uint64_t Architecture::sliding_layer_count() const {
    if (sliding_window == 0) return 0;
    std::uint64_t n = 0;
    for (bool sliding : sliding_layers) n += sliding ? 1 : 0;
    return n;
}

std::vector<LinearLayer> decoder_linear_layers(const Architecture& a) {
    std::vector<LinearLayer> out;
    const std::uint64_t h = a.hidden_size;
    const std::uint64_t layers = a.num_hidden_layers;
    const std::uint64_t q_out = a.num_attention_heads * a.head_dim;
    const std::uint64_t kv_out = a.num_key_value_heads * a.head_dim;
    const std::uint64_t i = a.intermediate_size;
    const std::uint64_t moe_layers = a.moe_layer_count();
    const std::uint64_t dense_layers = layers - moe_layers;
    if (!a.layer_mixers.empty()) return hybrid_linear_layers(a);

    switch (a.family) {
        case ModelFamily::gpt2:
            add_linear(out, "attn.c_attn", "attention", h, 3 * h, true, layers);
            add_linear(out, "attn.c_proj", "attention", h, h, true, layers);
            add_linear(out, "mlp.c_fc", "mlp", h, i, true, layers);
            add_linear(out, "mlp.c_proj", "mlp", i, h, true, layers);
            return out;
        case ModelFamily::opt:
            for (const char* name : {"self_attn.k_proj", "self_attn.v_proj", "self_attn.q_proj", "self_attn.out_proj"})
                add_linear(out, name, "attention", h, h, a.qkv_bias, layers);
            add_linear(out, "fc1", "mlp", h, i, a.mlp_bias, layers);
            add_linear(out, "fc2", "mlp", i, h, a.mlp_bias, layers);
            return out;
        case ModelFamily::falcon:
            add_linear(out, "self_attention.query_key_value", "attention", h, q_out + 2 * kv_out, a.qkv_bias, layers);
            add_linear(out, "self_attention.dense", "attention", q_out, h, a.out_proj_bias, layers);
            add_linear(out, "mlp.dense_h_to_4h", "mlp", h, i, a.mlp_bias, layers);
            add_linear(out, "mlp.dense_4h_to_h", "mlp", i, h, a.mlp_bias, layers);
            return out;
        case ModelFamily::phi3:
            add_linear(out, "self_attn.qkv_proj", "attention", h, q_out + 2 * kv_out, a.qkv_bias, layers);
            add_linear(out, "self_attn.o_proj", "attention", q_out, h, a.out_proj_bias, layers);
            add_linear(out, "mlp.gate_up_proj", "mlp", h, 2 * i, a.mlp_bias, layers);
            add_linear(out, "mlp.down_proj", "mlp", i, h, a.mlp_bias, layers);
            return out;
        case ModelFamily::gemma4: {
            // Sliding layers at head_dim and num_key_value_heads, global ones at global_head_dim and global_kv_heads
            // (no v_proj with attention_k_eq_v); the dense GeGLU MLP in every layer; with enable_moe_block the router
            // and the stacked experts beside it.
            const std::uint64_t sliding = a.sliding_layer_count(), global = layers - sliding;
            const std::uint64_t d = a.head_dim, dg = a.global_head_dim, heads = a.num_attention_heads;
            add_linear(out, "self_attn.q_proj", "attention", h, heads * d, false, sliding);
            add_linear(out, "self_attn.k_proj", "attention", h, a.num_key_value_heads * d, false, sliding);
            add_linear(out, "self_attn.v_proj", "attention", h, a.num_key_value_heads * d, false, sliding);
            add_linear(out, "self_attn.o_proj", "attention", heads * d, h, false, sliding);
            add_linear(out, "self_attn.q_proj", "attention", h, heads * dg, false, global);
            add_linear(out, "self_attn.k_proj", "attention", h, a.global_kv_heads * dg, false, global);
            if (!a.attention_k_eq_v) add_linear(out, "self_attn.v_proj", "attention", h, a.global_kv_heads * dg, false, global);
            add_linear(out, "self_attn.o_proj", "attention", heads * dg, h, false, global);
            const std::uint64_t wide = a.double_wide_shared_mlp ? a.kv_shared_layers : 0;
            add_gated_mlp(out, "mlp.", "mlp", h, i, false, layers - wide);
            add_gated_mlp(out, "mlp.", "mlp", h, 2 * i, false, wide);
            add_linear(out, "per_layer_input_gate", "mlp", h, a.per_layer_input_size, false, a.per_layer_input_size > 0 ? layers : 0);
            add_linear(out, "per_layer_projection", "mlp", a.per_layer_input_size, h, false, a.per_layer_input_size > 0 ? layers : 0);
            add_linear(out, "router.proj", "router", h, a.num_experts, false, moe_layers);
            add_linear(out, "experts.gate_up_proj", "experts", h, 2 * a.moe_intermediate_size, false, moe_layers, a.num_experts);
            add_linear(out, "experts.down_proj", "experts", a.moe_intermediate_size, h, false, moe_layers, a.num_experts);
            return out;
        }
        default:
            break;
    }

    if (a.uses_mla()) {
        const std::uint64_t qk_head = a.qk_nope_head_dim + a.qk_rope_head_dim;
        const std::uint64_t heads = a.num_attention_heads;
        if (a.q_lora_rank > 0) {
            add_linear(out, "self_attn.q_a_proj", "attention", h, a.q_lora_rank, a.qkv_bias, layers);
            add_linear(out, "self_attn.q_b_proj", "attention", a.q_lora_rank, heads * qk_head, false, layers);
        } else {
            add_linear(out, "self_attn.q_proj", "attention", h, heads * qk_head, false, layers);
        }
        add_linear(out, "self_attn.kv_a_proj_with_mqa", "attention", h, a.kv_lora_rank + a.qk_rope_head_dim, a.qkv_bias,
                   layers);
        add_linear(out, "self_attn.kv_b_proj", "attention", a.kv_lora_rank,
                   heads * (a.qk_nope_head_dim + a.v_head_dim), false, layers);
        add_linear(out, "self_attn.o_proj", "attention", heads * a.v_head_dim, h, a.out_proj_bias, layers);
    } else {
        add_linear(out, "self_attn.q_proj", "attention", h, q_out, a.qkv_bias, layers);
        add_linear(out, "self_attn.k_proj", "attention", h, kv_out, a.qkv_bias, layers);
        add_linear(out, "self_attn.v_proj", "attention", h, kv_out, a.qkv_bias, layers);
        add_linear(out, "self_attn.o_proj", "attention", q_out, h, a.out_proj_bias, layers);
    }
    if (a.gated_mlp) {
        const std::string mlp = a.family == ModelFamily::llama4 ? "feed_forward." : "mlp.";
        add_gated_mlp(out, mlp, "mlp", h, i, a.mlp_bias, dense_layers);
    } else {
        add_linear(out, "mlp.fc1", "mlp", h, i, a.mlp_bias, dense_layers);
        add_linear(out, "mlp.fc2", "mlp", i, h, a.mlp_bias, dense_layers);
    }
    if (moe_layers > 0) add_moe_linears(out, a, moe_layers);
    return out;
}

std::vector<BreakdownRow> breakdown_rows(const ParamBreakdown& b) {
    const BreakdownRow all[] = {
        {"embeddings", "Embeddings", b.embedding_count},
        {"attention", "Attention", b.attention_count},
        {"mlp", "MLP", b.mlp_count},
        {"experts", "Routed experts", b.expert_count},
        {"shared_experts", "Shared experts", b.shared_expert_count},
        {"router", "Router", b.router_count},
        {"recurrent", "Recurrent mixers", b.recurrent_count},
        {"vision", b.audio_tower ? "Audio tower" : "Vision tower", b.vision_count},
        {"norms", "Norms", b.norm_count},
        {"output_head", "Output head", b.output_head_count},
    };
    std::vector<BreakdownRow> rows;
    for (const BreakdownRow& row : all)
        if (row.count > 0) rows.push_back(row);
    return rows;
}

Expected<ParamBreakdown> count_parameters(const Architecture& a) {
    if (a.hidden_size == 0 || a.num_hidden_layers == 0 || a.vocab_size == 0 || a.num_attention_heads == 0)
        return Error{"config.json", "hidden_size, num_hidden_layers, num_attention_heads and vocab_size are needed"};
    Totals t;
    const std::vector<LinearLayer> linears = decoder_linear_layers(a);
    count_decoder(a, linears, t);

    const std::uint64_t h = a.hidden_size;
    const std::uint64_t embed_width = a.word_embed_proj_dim > 0 ? a.word_embed_proj_dim : h;
    t.embedding = static_cast<u128>(a.vocab_size) * embed_width + static_cast<u128>(a.position_embedding_rows) * h;
    if (embed_width != h) t.embedding += 2 * static_cast<u128>(embed_width) * h;  // OPT project_in + project_out
    if (a.has_final_norm) t.norms += norm_size(a, h);
    if (!a.tie_word_embeddings) t.head = static_cast<u128>(a.vocab_size) * embed_width;
    if (a.per_layer_input_size > 0) {
        // Gemma 4 PLE: embed_tokens_per_layer (vocab x layers x width), per_layer_model_projection (hidden -> layers x
        // width) and per_layer_projection_norm (width).
        const u128 packed = static_cast<u128>(a.num_hidden_layers) * a.per_layer_input_size;
        t.ple = static_cast<u128>(a.per_layer_input_vocab) * packed + static_cast<u128>(h) * packed;
        t.embedding += t.ple;
        t.norms += a.per_layer_input_size;
    }

    const u128 vision = a.text_only ? 0 : static_cast<u128>(a.vision.total());
    const u128 total = t.embedding + t.attention + t.mlp + t.experts + t.shared + t.router + t.norms + t.head + t.recurrent + vision;
    if (total > kMaxParamCount)
        return Error{"config.json", "the model has more than 10^15 parameters (" + format_count_short(kMaxParamCount, 0) +
                     " is the limit)"};

    ParamBreakdown b;
    b.embedding_count = static_cast<std::uint64_t>(t.embedding);
    b.attention_count = static_cast<std::uint64_t>(t.attention);
    b.mlp_count = static_cast<std::uint64_t>(t.mlp);
    b.expert_count = static_cast<std::uint64_t>(t.experts);
    b.shared_expert_count = static_cast<std::uint64_t>(t.shared);
    b.router_count = static_cast<std::uint64_t>(t.router);
    b.recurrent_count = static_cast<std::uint64_t>(t.recurrent);
    b.vision_count = static_cast<std::uint64_t>(vision);
    b.audio_tower = a.vision.kind == VisionKind::voxtral;
    b.norm_count = static_cast<std::uint64_t>(t.norms);
    b.output_head_count = static_cast<std::uint64_t>(t.head);
    b.per_layer_embedding_count = static_cast<std::uint64_t>(t.ple);
    b.total_count = static_cast<std::uint64_t>(total);
    // Per token: every routed expert of a layer is replaced by num_experts_per_tok of them.
    const u128 active_experts = t.one_expert_per_layer * a.moe_layer_count() * a.num_experts_per_tok;
    b.active_count = static_cast<std::uint64_t>(total - vision - t.experts + active_experts);  // a text token skips the tower

    if (a.num_nextn_predict_layers > 0) {
        // DeepSeek-V3 MTP module (model.layers.61 in the checkpoint): its own embed_tokens and
        // shared_head.head copies, enorm, hnorm, eh_proj (2h -> h), shared_head.norm and one MoE decoder layer.
        // Qwen3-Next's mtp.* block: fc (2h -> h), pre_fc_norm_embedding, pre_fc_norm_hidden, one
        // full-attention layer with the model's MoE, a final norm; it shares the embeddings and head.
        Architecture one = a;
        one.num_hidden_layers = 1;
        one.first_k_dense_replace = 0;
        one.moe_layer_freq = 1;
        one.moe_layer_offset = 0;
        one.dense_mlp_layers.clear();
        if (!one.layer_mixers.empty()) one.layer_mixers.assign(1, static_cast<std::uint8_t>(MixerKind::attention));
        Totals m;
        count_decoder(one, decoder_linear_layers(one), m);
        const u128 layer = m.attention + m.mlp + m.experts + m.shared + m.router + m.norms + m.recurrent;
        const u128 own_tables = a.family == ModelFamily::qwen3_next ? 0 : 2 * static_cast<u128>(a.vocab_size) * h;
        const u128 module = layer + own_tables + 3 * static_cast<u128>(h) + 2 * static_cast<u128>(h) * h;
        b.mtp_count = static_cast<std::uint64_t>(module * a.num_nextn_predict_layers);
        b.mtp_table_count = static_cast<std::uint64_t>(own_tables * a.num_nextn_predict_layers);
    }
    return b;
}

namespace {

Expected<ModelSource> recounted(const ModelSource& model, bool text_only) {
    ModelSource out = model;
    out.architecture.text_only = text_only;
    Expected<ParamBreakdown> counts = count_parameters(out.architecture);
    if (!counts) return Error{counts.error()};
    out.counts = *counts;
    const std::string suffix = " (text only)";
    const bool marked = out.display_name.size() >= suffix.size() &&
                        out.display_name.compare(out.display_name.size() - suffix.size(), suffix.size(), suffix) == 0;
    if (text_only && !marked) out.display_name += suffix;
    if (!text_only && marked) out.display_name.erase(out.display_name.size() - suffix.size());
    return out;
}

}  // namespace

Expected<ModelSource> text_only_model(const ModelSource& model) {
    if (model.architecture.vision.kind == VisionKind::none)
        return Error{"text-only", "the model has no vision tower to leave out"};
    return recounted(model, true);
}

Expected<ModelSource> full_model(const ModelSource& model) {
    if (!model.architecture.text_only) return model;
    return recounted(model, false);
}

}  // namespace llm_memory
