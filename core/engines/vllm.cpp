// vLLM as it sizes memory at start-up (v1 engine, vLLM 0.11-0.19): per GPU the weights under tensor and
// pipeline parallelism, the profile run's activation peak, non-torch memory, then a KV pool of
// total x gpu_memory_utilization - weights - activation peak - non-torch, cut into blocks; the token
// capacity, the "maximum concurrency" it logs, its start-up failure when one request cannot fit, and the
// CUDA graphs captured after the pool (unless --enforce-eager).
#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "../formats.hpp"
#include "../gpus.hpp"
#include "../hybrid.hpp"
#include "../settings.hpp"

namespace llm_memory {
namespace {

constexpr std::uint64_t kGiB = 1ULL << 30;
// Defaults of vLLM 0.11 (vllm/config/cache.py gpu_memory_utilization 0.9, block_size 16;
// vllm/engine/arg_utils.py get_batch_defaults for `vllm serve`: 8192 batched tokens and 1024 sequences on
// a GPU of at least 70 GiB that is not an A100, else 2048 and 256).
constexpr std::uint64_t kDefaultUtilMicros = 900'000;
constexpr std::uint64_t kDefaultBlock = 16;
// Non-torch memory after the profile run (cuBLAS workspaces, and with tensor parallelism the NCCL communicators
// and custom all-reduce buffers). vLLM 0.19 on one H100 logs 0.24-0.26 GiB ("Actual usage is ... 0.25 GiB for
// non-torch memory") and 2.07-2.21 GiB per rank at tensor parallel 2 and 4 (llm-d-incubation/llm-d-planner,
// accuracy/results/v0.19.0/logs: Llama 3.1 8B, Mixtral 8x7B, Llama 3.3 70B, Qwen2.5 72B): 0.25 GiB alone, 2.1 GiB
// per rank under tensor parallelism.
constexpr std::uint64_t kNonTorchBytes = kGiB / 4;
constexpr std::uint64_t kNonTorchTensorParallelBytes = kGiB * 21 / 10;
// CUDA graphs for the default capture sizes (up to 512 sequences), captured after the KV pool is allocated:
// vLLM logs "Graph capturing finished ... took 0.3-1.5 GiB" for dense models; 0.5 GiB is our estimate.
constexpr std::uint64_t kCudaGraphBytes = kGiB / 2;
// The v1 engine's dummy sampler run over min(max_num_seqs, batched tokens) logits (gpu_model_runner
// _dummy_sampler_run; the profile skips top-k, top-p and logprobs): the bf16 logits, their fp32 copy, the
// probabilities and the random draws, about 15 bytes per logit. With the profile run's hidden states this gives
// vLLM 0.19's logged peak on an H100 at 8192 tokens and 1024 sequences within 3 %: Llama 3.1 8B 1.89 GiB,
// Qwen2.5 7B 2.21 GiB, phi-4 1.52 GiB, Gemma 2 9B 3.65 GiB (llm-d-incubation/llm-d-planner accuracy logs).
// The v0 engine sampled in full (about 36 bytes per logit; vllm-project/vllm PR #10511 logs 1.26 GiB for
// Llama 3 8B at 256 sequences), which this model no longer follows.
constexpr std::uint64_t kSamplerBytesPerLogit = 15;
// vLLM's shared workspace (vllm/v1/worker/workspace.py WorkspaceManager._ensure_workspace_size) rounds every
// buffer it hands out to 256 bytes.
constexpr std::uint64_t kWorkspaceAlign = 256;

// The most GPUs (dp x tp x pp) listed one by one.
constexpr std::uint64_t kMaxListedGpus = 4096;

// Tokens one fused-MoE call works on at a time (vllm/envs.py VLLM_FUSED_MOE_CHUNK_SIZE, default 32768): under data
// parallelism a MoE layer first gathers every replica's tokens (the all2all manager's dispatch), up to this many.
constexpr std::uint64_t kFusedMoeChunkTokens = 32768;

std::string n(std::uint64_t v) { return format_count_exact(v); }
// GiB with two decimals, as vLLM's messages print them ("16.00 GiB").
std::string gib2(std::uint64_t bytes) {
    const std::uint64_t hundredths = static_cast<std::uint64_t>((static_cast<u128>(bytes) * 100 + kGiB / 2) / kGiB);
    const std::uint64_t frac = hundredths % 100;
    return std::to_string(hundredths / 100) + "." + (frac < 10 ? "0" : "") + std::to_string(frac) + " GiB";
}

// KV values one attention layer keeps per token on one tensor-parallel rank: K and V of its share of the KV
// heads (at least one: vLLM replicates a head over the ranks when there are fewer heads than ranks), or MLA's
// latent and rope part, which every rank keeps whole.
std::uint64_t kv_values_per_token(const Architecture& a, std::uint64_t tp) {
    if (a.uses_mla()) return a.kv_lora_rank + a.qk_rope_head_dim;
    return 2 * std::max<std::uint64_t>(a.num_key_value_heads / tp, 1) * a.head_dim;
}

std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0 : (a + b - 1) / b; }

// vLLM's group size: the smallest kind's layer count, or the largest's when it is under 1.5 times that.
std::uint64_t group_size_of(std::initializer_list<std::uint64_t> counts) {
    std::uint64_t fewer = UINT64_MAX, more = 0;
    for (const std::uint64_t c : counts) {
        if (c == 0) continue;
        fewer = std::min(fewer, c);
        more = std::max(more, c);
    }
    if (more == 0) return 0;
    return 2 * more < 3 * fewer ? more : fewer;
}

// The layers of one kind that keep a cache in vLLM, in order: full attention (kind 0), sliding-window attention
// (kind 1, when vLLM pages the sliding layers apart) and recurrent (kind 2). Gemma 4's KV-shared layers read an
// earlier layer's cache (kv_sharing_target_layer_name) and keep none.
std::vector<std::uint64_t> cache_layers(const Architecture& a, int kind, bool sliding_apart) {
    std::vector<std::uint64_t> out;
    const std::uint64_t own = a.num_hidden_layers - std::min(a.kv_shared_layers, a.num_hidden_layers);
    for (std::uint64_t i = 0; i < a.num_hidden_layers; ++i) {
        if (kind == 2) {
            if (a.layer_is_recurrent(i)) out.push_back(i);
            continue;
        }
        if (!a.layer_is_attention(i) || i >= own) continue;
        const bool sliding = sliding_apart && i < a.sliding_layers.size() && a.sliding_layers[static_cast<std::size_t>(i)] != 0;
        if (sliding == (kind == 1)) out.push_back(i);
    }
    return out;
}

// The tensors one block spans on the pipeline stage holding decoder layers [first, last): the most layers of
// one group there. vLLM splits each kind's layers (in order) into its groups as layers[i::groups].
std::uint64_t stage_group_size(const Architecture& a, const VllmHybridLayout& l, bool sliding_apart, std::uint64_t first, std::uint64_t last) {
    std::uint64_t most = 0;
    for (int kind = 0; kind < 3; ++kind) {
        const std::vector<std::uint64_t> layers = cache_layers(a, kind, sliding_apart);
        const std::uint64_t groups = kind == 0 ? l.attention_groups : kind == 1 ? l.sliding_groups : l.recurrent_groups;
        for (std::uint64_t g = 0; g < groups; ++g) {
            std::uint64_t count = 0;
            for (std::size_t j = static_cast<std::size_t>(g); j < layers.size(); j += static_cast<std::size_t>(groups))
                if (layers[j] >= first && layers[j] < last) ++count;
            most = std::max(most, count);
        }
    }
    return most;
}

// The rotary embedding's cos/sin tables (rotary_embedding/base.py: a non-persistent buffer made while the model is
// built, so "Model loading took" includes it): rows x rotary_dim values (cos and sin, rotary_dim / 2 each) in the
// model dtype, one table per distinct rotary embedding (get_rope's _ROPE_DICT), on every GPU. Rows by scaling
// type: max_position_embeddings (default, llama3, mrope, dynamic by alpha); x factor (linear, dynamic);
// original_max_position_embeddings x factor (yarn, deepseek_yarn; the original defaults to max_position_embeddings);
// original + max_position_embeddings (longrope keeps a short and a long table). Gemma 3's sliding layers rotate with
// their own base, unscaled: a second table. vLLM 0.19's logs show it: Llama 3.1 8B logs 14.99 GiB of weights where
// its parameters are 14.96 GiB, and 131,072 x 128 x 2 bytes = 32 MiB is the difference.
struct RopeTables {
    std::uint64_t bytes = 0;
    std::string steps;
};

Expected<RopeTables> vllm_rope_tables(const Architecture& a, std::uint64_t value_bytes, std::vector<std::string>& notes) {
    RopeTables out;
    const RopeSettings& r = a.rope;
    // GPT-2 and OPT learn their positions; Jamba's and Nemotron-H's attention layers have none.
    if (!r.rotary || is_one_of(a.family, {ModelFamily::gpt2, ModelFamily::opt, ModelFamily::jamba, ModelFamily::nemotron_h})) return out;
    const bool scaled = (r.type == "linear" || r.type == "dynamic" || r.type == "yarn" || r.type == "deepseek_yarn") && !r.alpha;
    if (scaled && r.factor <= 0)
        return Error{"config", "rope_scaling: a " + r.type + " scaling without a factor (vLLM's get_rope needs rope_scaling.factor)"};
    const std::uint64_t positions = a.max_position_embeddings;
    if (positions == 0) {
        notes.push_back("The config gives no max_position_embeddings, so the RoPE cos/sin table (vLLM's default there) is not counted.");
        return out;
    }
    const std::uint64_t rotary_dim = a.uses_mla() ? a.qk_rope_head_dim : static_cast<std::uint64_t>(static_cast<double>(a.head_dim) * r.partial);
    auto times = [](std::uint64_t rows, double factor) { return static_cast<std::uint64_t>(std::ceil(static_cast<double>(rows) * factor)); };
    const std::uint64_t original = r.original_positions > 0 ? r.original_positions : positions;
    const std::string factor_text = format_decimal(Decimal{static_cast<std::uint64_t>(std::llround(r.factor * 1e6))});
    std::uint64_t rows = positions;
    std::string how;  // what the rows are, before " = rows"
    if (scaled && (r.type == "linear" || r.type == "dynamic")) {
        rows = times(positions, r.factor);
        how = n(positions) + " positions x " + r.type + " factor " + factor_text + " = ";
    } else if (r.type == "yarn" || r.type == "deepseek_yarn") {
        rows = times(original, r.factor);
        how = "original " + n(original) + " positions x yarn factor " + factor_text + " = ";
    } else if (r.type == "longrope") {
        rows = original + positions;
        how = "the short table's " + n(original) + " + the long table's " + n(positions) + " positions = ";
    } else if (r.type != "default" && r.type != "llama3" && r.type != "mrope" && r.type != "dynamic") {
        notes.push_back("RoPE scaling \"" + r.type + "\" is not modelled: its cos/sin table is counted at max_position_embeddings rows.");
    }
    out.bytes = rows * rotary_dim * value_bytes;
    out.steps = how + n(rows) + " rows" + (how.empty() ? " (max_position_embeddings)" : "") + " x rotary dim " + n(rotary_dim) + " x " + n(value_bytes) +
                " bytes = " + n(out.bytes);
    // Gemma 3's sliding layers rotate with their own base (rope_local_base_freq), unscaled: another get_rope entry.
    if (a.family == ModelFamily::gemma3 && a.sliding_layer_count() > 0) {
        const std::uint64_t local = positions * a.head_dim * value_bytes;
        out.bytes += local;
        out.steps += " + the sliding layers' own table " + n(positions) + " x " + n(a.head_dim) + " x " + n(value_bytes) + " = " + n(local);
    }
    out.steps += " (rotary_embedding/base.py cos_sin_cache, in the model dtype, on every GPU)";
    return out;
}

// A drafter for speculative decoding (draft-model; vLLM's --speculative-config '{"method": "draft_model",
// "model": ...}'), as vLLM's v1 DraftModelProposer loads it (vllm/v1/spec_decode/draft_model.py load_model):
// a second model on the target's GPUs at the target's tensor parallel size, whose attention layers join the
// target's in the one KV cache (get_layers_from_vllm_config picks both, so every block holds both models'
// layers for its tokens, in the target's --kv-cache-dtype; draft-dtype and draft-kv-dtype are llama.cpp's
// alone), which the profile runs too (dummy_run at the batched-token budget), and whose proposer keeps
// persistent buffers at max_num_batched_tokens
// (llm_base_proposer.py SpecDecodeBaseProposer.__init__: hidden_states and inputs_embeds at the drafter's
// width in the model dtype, input_ids int32, positions and the slot mapping int64, two bool masks).
struct Drafter {
    std::string name;
    bool mtp = false;  // the target's own MTP layers (vllm_mtp_drafter)
    std::uint64_t weights = 0, buffers = 0;  // per GPU
    std::uint64_t kv_row = 0, layers = 0;    // KV values per token per layer on one rank, and its layers
    std::uint64_t ff = 0, hidden = 0, mlp_phase = 0;
    std::string weight_steps, buffer_steps;
};

// The proposer's persistent buffers at max_num_batched_tokens (llm_base_proposer.py SpecDecodeBaseProposer.__init__):
// hidden_states and inputs_embeds at the drafter's width (out.hidden) in the model dtype, input_ids int32, positions
// and the slot mapping int64, two bool masks.
void set_proposer_buffers(Drafter& out, std::uint64_t batched, std::uint64_t act_bytes) {
    out.buffers = batched * (2 * out.hidden * act_bytes + 4 + 8 + 8 + 2);
    out.buffer_steps = n(batched) + " batched tokens x (hidden_states and inputs_embeds 2 x " + n(out.hidden) + " x 2 + input_ids 4 + positions 8 + "
                       "slot mapping 8 + two masks 2) bytes (llm_base_proposer.py)";
}

Expected<Drafter> vllm_drafter(const Scenario& s, const Architecture& target, const RopeTables& target_rope, std::uint64_t tp, std::uint64_t pp,
                               std::uint64_t batched, std::uint64_t act_bytes, std::vector<std::string>& notes) {
    Drafter out;
    if (s.engine.draft_model.empty()) return out;
    if (s.engine.draft_file)
        return Error{"draft-model", "vLLM loads a draft model's checkpoint, not a GGUF file: give a built-in model, or choose --engine llama.cpp"};
    if (pp > 1) return Error{"draft-model", "vLLM: a drafter under pipeline parallelism is not modelled (use --pp 1)"};
    Scenario d = s;
    d.engine = EngineSettings{};
    d.training = Scenario{}.training;
    const Expected<bool> model = apply_setting(d, "model", s.engine.draft_model);
    if (!model) return Error{"draft-model", model.error()};
    d.dtype = "bf16";  // a draft checkpoint in the model dtype (the target's quantization is its own)
    if (!d.model) return Error{"draft-model", "the drafter has no architecture"};
    const Architecture& da = d.model->architecture;
    if (da.recurrent_layer_count() > 0) return Error{"draft-model", "a hybrid drafter's recurrent state is not modelled"};
    // vllm/config/speculative.py: a draft model must share the target's vocabulary.
    if (da.vocab_size != target.vocab_size)
        return Error{"draft-model", "vLLM: the drafter's vocabulary (" + n(da.vocab_size) + ") must be the target's (" + n(target.vocab_size) + ")"};
    if (da.num_attention_heads == 0 || da.num_attention_heads % tp != 0)
        return Error{"draft-model", "vLLM: the drafter's attention heads (" + n(da.num_attention_heads) + ") must be divisible by tensor parallel size (" + n(tp) + ")"};
    const Expected<Estimate> de = estimate(d);
    if (!de) return Error{"draft-model", de.error()};
    out.name = d.model->display_name.empty() ? s.engine.draft_model : d.model->display_name.substr(0, d.model->display_name.find(' '));
    out.weights = (de->weight_bytes + tp - 1) / tp;
    const Expected<WeightFormat> df = find_weight_format(d.dtype);
    out.weight_steps = n(de->param_count) + " parameters in " + (df ? df->label : format_decimal(d.bytes_per_param) + " bytes each") + " = " +
                       n(de->weight_bytes) + " bytes" + (tp > 1 ? " / tp " + n(tp) : "") + " (draft_model.py load_model: on the target's GPUs)";
    // Its own RoPE table unless it is the target's (the same rows, rotary dim and scaling: one _ROPE_DICT entry; the
    // base is not compared, as a drafter of the target's family shares it).
    const Expected<RopeTables> rope = vllm_rope_tables(da, act_bytes, notes);
    if (!rope) return Error{"draft-model", rope.error()};
    if (rope->bytes > 0 && rope->steps != target_rope.steps) {
        out.weights += rope->bytes;
        out.weight_steps += " + its RoPE table " + n(rope->bytes);
    }
    out.layers = da.num_hidden_layers;
    out.kv_row = kv_values_per_token(da, tp);
    out.hidden = da.hidden_size;
    out.ff = (da.is_moe() ? da.moe_intermediate_size * std::max<std::uint64_t>(da.num_experts_per_tok, 1) : da.intermediate_size) / tp;
    out.mlp_phase = batched * (3 * out.ff + 2 * da.hidden_size) * act_bytes;
    set_proposer_buffers(out, batched, act_bytes);
    notes.push_back("The drafter (" + out.name + ") is a second model on each GPU: its weights, its layers in every KV block (so fewer tokens fit), "
                    "and its own dummy run in the profile. num_speculative_tokens does not change these figures.");
    return out;
}

// MTP drafting (--mtp; vLLM's --speculative-config '{"method": "mtp"}'), as vLLM's MTP proposer loads it
// (vllm/v1/spec_decode/eagle.py load_model, llm_base_proposer.py _maybe_share_lm_head; models/deepseek_mtp.py and
// glm4_moe_mtp.py): each MTP layer is a decoder layer of the target's kind, split over the GPUs as the target's layers
// are and in the target's quantization (config/speculative.py copies it), with enorm, hnorm, shared_head.norm and the
// 2h -> h eh_proj, a plain nn.Linear: whole on every GPU, in the model dtype. The module's own embedding and head are
// loaded and then dropped for the target's (the head since vLLM PR #34385, February 2026), so they hold nothing once
// the weights are measured. Its attention layers join the target's KV cache group (gpu_model_runner get_kv_cache_spec):
// one more layer in every block. A num_speculative_tokens above the layers reruns the same layer (speculative.py):
// no more memory. The proposer's persistent buffers are the drafter's; its dummy run goes through a layer the
// target's profile already runs, so it adds no phase of its own.
struct MtpShape {
    std::uint64_t block_bytes = 0;        // one MTP decoder layer without its routed experts, in the weights' format, all GPUs
    std::uint64_t expert_bytes = 0;       // its routed experts on one GPU
    std::string expert_steps;             // how they split ("" without experts)
    std::uint64_t whole_params = 0;       // on every GPU in the model dtype: the three norms, and eh_proj where it is whole
    std::uint64_t model_value_bytes = 2;  // the model dtype's
    std::uint64_t fc_bytes = 0;           // Qwen3-Next's and Qwen3.5's fc (2h -> h) in the weights' format, all GPUs, split over
                                          // tp (qwen3_next_mtp.py: a ColumnParallelLinear); 0 where eh_proj is whole
};

Drafter vllm_mtp_drafter(const Architecture& a, const MtpShape& m, std::uint64_t tp, std::uint64_t kv_row, std::uint64_t batched,
                         std::uint64_t act_bytes, std::vector<std::string>& notes) {
    Drafter out;
    const std::uint64_t layers = a.num_nextn_predict_layers;
    out.name = "MTP";
    out.mtp = true;
    out.layers = layers;
    out.kv_row = kv_row;
    out.hidden = a.hidden_size;
    out.weights = layers * (m.block_bytes / tp + m.expert_bytes + m.fc_bytes / tp + m.whole_params * m.model_value_bytes);
    out.weight_steps = n(layers) + " MTP layer" + (layers == 1 ? "" : "s") + " x (the decoder layer" + (m.expert_steps.empty() ? " " : " without its routed experts ") +
                       n(m.block_bytes) + " / tp " + n(tp) + m.expert_steps +
                       (m.fc_bytes > 0 ? " + fc (2 x " + n(a.hidden_size) + " x " + n(a.hidden_size) + ") " + n(m.fc_bytes) + " / tp " + n(tp) +
                                             " + three norms " + n(m.whole_params) + " x " + n(m.model_value_bytes)
                                       : " + eh_proj (2 x " + n(a.hidden_size) + " x " + n(a.hidden_size) + ") and three norms " + n(m.whole_params) + " x " +
                                             n(m.model_value_bytes) + " on every GPU") +
                       "); the embedding and the head are the target's (eagle.py load_model, llm_base_proposer.py _maybe_share_lm_head)";
    set_proposer_buffers(out, batched, act_bytes);
    notes.push_back("MTP drafting loads the model's " + n(layers) + " MTP layer" + (layers == 1 ? "" : "s") + " on each GPU, with its attention in every KV block (so fewer tokens fit). " +
                    (a.recurrent_layer_count() > 0
                         ? std::string("Each request holds 1 + num_speculative_tokens state blocks in every recurrent group (one a draft position), and the "
                                       "conv state is that many positions wider; with prefix caching in mamba_cache_mode align, 2 + num_speculative_tokens "
                                       "(not modelled). ")
                         : std::string("num_speculative_tokens does not change these figures. ")) +
                    "vLLM builds before PR #34385 (February 2026) also kept the MTP layer's own head, " + n(a.vocab_size) + " x " + n(a.hidden_size) +
                    " x 2 bytes / tp more per GPU.");
    return out;
}

}  // namespace

Expected<EngineEstimate> vllm_estimate(const Scenario& s) {
    if (!s.model) return Error{"engine", "vLLM needs the model's architecture: give --model or --config"};
    const Architecture& a = s.model->architecture;
    if (a.num_hidden_layers == 0 || a.hidden_size == 0 || a.num_attention_heads == 0 || a.vocab_size == 0)
        return Error{"engine", "the model's architecture lacks layers, width, heads or vocabulary size"};
    if (s.model->layout.known)
        return Error{"engine", "vLLM serves safetensors checkpoints, not GGUF files here: use --engine llama.cpp for a GGUF"};
    // A hybrid model's recurrent state is paged with the attention blocks (VllmHybridLayout); a model without
    // attention layers sizes its pages by max_model_len instead, which is not modelled.
    const bool hybrid = a.recurrent_layer_count() > 0;
    if (hybrid && a.attention_layer_count() == 0)
        return Error{"engine", "vLLM: a model without attention layers (every layer recurrent) is not modelled: use --engine llama.cpp"};
    // Sliding-window layers that vLLM pages apart (its hybrid KV-cache manager, on by default): the families whose
    // vLLM models give each layer its own window (gemma2.py, gemma3.py, gemma4.py, gpt_oss.py). Llama 4's chunked
    // local attention is not (vLLM turns the hybrid manager off for it by default), and a drafter's layers would
    // join the groups, which is not modelled.
    const bool sliding_family = a.family == ModelFamily::gemma2 || a.family == ModelFamily::gemma3 || a.family == ModelFamily::gemma4 ||
                                a.family == ModelFamily::gpt_oss;
    const bool sliding_apart = !hybrid && !s.engine.hybrid_kv_off && sliding_family && a.sliding_window > 0 && !a.chunked_attention &&
                               a.sliding_layer_count() > 0 && s.engine.draft_model.empty();
    if (hybrid && s.engine.hybrid_kv_off)
        return Error{"disable-hybrid-kv-cache-manager", "vLLM: Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified "
                                                        "type (recurrent layers need the hybrid manager)."};
    if (a.family == ModelFamily::gemma4 && !sliding_apart && !s.engine.hybrid_kv_off)
        return Error{"draft-model", "vLLM: a drafter beside Gemma 4 (whose sliding and global layers cache heads of two widths, in groups of their own) "
                                    "is not modelled"};
    const bool grouped = hybrid || sliding_apart;  // vLLM pages the layers in groups of one size (VllmHybridLayout)
    if (hybrid && !s.engine.draft_model.empty())
        return Error{"draft-model", "vLLM: a separate draft model beside a hybrid model (its layers among the target's groups) is not modelled; "
                                    "the model's own MTP layers are (--mtp)"};
    if (s.engine.draft_max > 0 && !s.engine.mtp && s.engine.draft_model.empty())
        return Error{"draft-max", "num_speculative_tokens needs a drafter: --draft-model or --mtp"};
    if (s.engine.mtp) {
        if (s.model->counts.mtp_count == 0 || a.num_nextn_predict_layers == 0)
            return Error{"mtp", "the model has no MTP layers to draft with (num_nextn_predict_layers)"};
        if (!s.engine.draft_model.empty()) return Error{"mtp", "one drafter at a time is modelled: --draft-model or --mtp"};
        if (s.training.pp > 1) return Error{"mtp", "vLLM: MTP drafting under pipeline parallelism is not modelled (use --pp 1)"};
        if (s.param_count != s.model->counts.total_count)
            return Error{"mtp", "the model's MTP layers are counted only at its own parameter count (--params unchanged)"};
    }
    const Expected<Estimate> e = estimate(s);
    if (!e) return e.failure();

    std::uint64_t tp = s.training.tp, pp = s.training.pp;
    const std::uint64_t dp = std::max<std::uint64_t>(s.engine.data_parallel, 1);
    std::vector<std::string> notes;
    if (tp * pp == 1 && dp == 1 && s.gpu_count > 1) {
        tp = s.gpu_count;
        notes.push_back("--gpus " + n(s.gpu_count) + " with tp 1: served as --tensor-parallel-size " + n(tp) + ".");
    }
    if (a.num_attention_heads % tp != 0)
        return Error{"tp", "vLLM: Total number of attention heads (" + n(a.num_attention_heads) + ") must be divisible by tensor parallel size (" + n(tp) + ")."};
    if (pp > a.num_hidden_layers) return Error{"pp", "vLLM: more pipeline stages than layers"};
    if (dp > 1 && s.gpu_count > 1 && s.gpu_count != dp * tp * pp)
        return Error{"dp", "vLLM: -dp " + n(dp) + " x tp " + n(tp) + " x pp " + n(pp) + " = " + n(dp * tp * pp) + " GPUs, but --gpus says " + n(s.gpu_count)};
    // More GPUs than one engine of tp x pp uses, without -dp: vllm serve starts that one engine and leaves the rest
    // idle. Said, not guessed into -dp (the count may be there for training).
    if (dp == 1 && s.gpu_count > tp * pp)
        notes.push_back("--gpus " + n(s.gpu_count) + ": vllm serve with tp " + n(tp) + " x pp " + n(pp) + " uses " + n(tp * pp) +
                        " of them; the others stay idle unless -dp " + n(s.gpu_count / (tp * pp)) + " starts a replica on each " + n(tp * pp) + ".");
    if (dp * tp * pp > kMaxListedGpus)
        return Error{"dp", "vLLM: dp x tp x pp = " + n(dp * tp * pp) + " GPUs; at most " + n(kMaxListedGpus) + " are modelled"};
    // MoE layers under data parallelism (vllm/model_executor/layers/fused_moe/config.py FusedMoEParallelConfig.make):
    // the routed experts are split over all tp x dp GPUs; without --enable-expert-parallel every expert's width is
    // (flatten_tp_across_dp), with it each GPU holds whole experts (determine_expert_map: E / ep each, the first E mod
    // ep ranks one more). Attention, the embedding, the head, dense layers and shared experts split over tp only.
    const bool moe_split = a.is_moe() && tp * dp > 1;
    const bool ep = moe_split && s.engine.expert_parallel;
    const std::uint64_t ep_size = tp * dp;
    if (s.engine.expert_parallel && !a.is_moe()) notes.push_back("--enable-expert-parallel: the model has no experts, so nothing changes.");
    else if (s.engine.expert_parallel && !ep) notes.push_back("--enable-expert-parallel on one GPU: every expert stays on it.");
    if (ep && a.num_experts < ep_size)
        return Error{"expert-parallel", "vLLM: " + n(a.num_experts) + " experts cannot be spread over " + n(ep_size) + " expert-parallel GPUs (tp x dp)"};
    if (moe_split && !ep && dp > 1 && a.moe_intermediate_size % (tp * dp) != 0)
        return Error{"dp", "vLLM: the experts' intermediate size (" + n(a.moe_intermediate_size) + ") must be divisible by tp x dp (" + n(tp * dp) +
                               ") when the experts are split without --enable-expert-parallel"};
    const std::string kv_key = s.kv_dtype;
    std::uint64_t kv_value_bytes = 0;
    std::string kv_flag = "auto";
    if (kv_key == "fp16" || kv_key == "bf16") kv_value_bytes = 2;
    else if (kv_key == "fp8") { kv_value_bytes = 1; kv_flag = "fp8"; }
    else if (kv_key == "fp32") { kv_value_bytes = 4; kv_flag = "float32"; }
    else return Error{"kv-dtype", "vLLM's --kv-cache-dtype takes auto (the model's 16 bits), fp8 or float32 here (not " + kv_key + ")"};

    std::uint64_t capacity = 0;
    std::string gpu_label;
    bool big_gpu = false;
    if (!s.gpu.empty()) {
        if (const Expected<Gpu> g = find_gpu(s.gpu)) {
            capacity = g->capacity_bytes;
            gpu_label = g->label;
            big_gpu = capacity >= 70 * kGiB && g->key.find("a100") == std::string::npos;
        }
    }
    if (s.gpu_memory_bytes > 0) {
        capacity = s.gpu_memory_bytes;
        gpu_label = "custom " + format_bytes_binary(capacity);
        big_gpu = capacity >= 70 * kGiB;
    }
    const std::uint64_t util_micros = s.engine.gpu_util.micros > 0 ? s.engine.gpu_util.micros : kDefaultUtilMicros;
    const std::uint64_t batched = s.engine.max_batched_tokens > 0 ? s.engine.max_batched_tokens : big_gpu ? 8192 : 2048;
    const std::uint64_t seqs = s.engine.max_num_seqs > 0 ? s.engine.max_num_seqs : big_gpu ? 1024 : 256;
    const bool max_len_given = s.context_tokens > 0;
    std::uint64_t max_len = max_len_given ? s.context_tokens : a.max_position_embeddings > 0 ? a.max_position_embeddings : 4096;

    // Weights per rank: the layers of the stage split over tp, the embedding on the first stage and the
    // head on the last, each split over tp by vocabulary.
    const ParamBreakdown& c = s.model->counts;
    const std::uint64_t total = c.total_count > 0 ? c.total_count : 1;
    // The embedding and the head: a GPTQ or AWQ checkpoint keeps them in 16 bits (the estimator's split), and so
    // does vLLM's FP8 (Fp8Config.get_quant_method quantizes LinearBase and FusedMoE layers only: the vocabulary
    // embedding and ParallelLMHead stay in the model dtype, while N x b counted them at 1 byte). Otherwise they
    // take their share of the weights.
    const bool split_ends = e->quantized_linear_count > 0;
    const bool fp8_ends = !split_ends && s.dtype == "fp8";
    auto share_of = [&](std::uint64_t params) { return static_cast<std::uint64_t>(static_cast<u128>(e->weight_bytes) * params / total); };
    auto bytes_of = [&](std::uint64_t params) { return split_ends || fp8_ends ? params * unquantized_bytes(s) : share_of(params); };
    const std::uint64_t embed = bytes_of(c.embedding_count);
    const std::uint64_t head = a.tie_word_embeddings ? embed : bytes_of(c.output_head_count);
    const std::uint64_t ends = split_ends ? bytes_of(c.embedding_count + c.output_head_count) : share_of(c.embedding_count + c.output_head_count);
    const std::uint64_t layers_all = e->weight_bytes > ends ? e->weight_bytes - ends : 0;
    const std::uint64_t per_layer = layers_all / a.num_hidden_layers;
    // The routed experts' share of the layers (a uniform rate over the layers' parameters), per MoE layer.
    const std::uint64_t layer_params = total > c.embedding_count + c.output_head_count ? total - c.embedding_count - c.output_head_count : 1;
    const std::uint64_t moe_layers = a.is_moe() ? std::max<std::uint64_t>(a.moe_layer_count(), 1) : 1;
    const std::uint64_t experts_all = a.is_moe() ? static_cast<std::uint64_t>(static_cast<u128>(layers_all) * std::min(c.expert_count, layer_params) / layer_params) : 0;
    const std::uint64_t experts_per_layer = experts_all / moe_layers;
    const std::uint64_t rest_per_layer = (layers_all - experts_all) / a.num_hidden_layers;
    // vLLM's get_pp_indices: an even split, the remainder to the stages before the last.
    std::vector<std::uint64_t> stage_layers(static_cast<std::size_t>(pp), a.num_hidden_layers / pp);
    for (std::uint64_t i = 0; i < a.num_hidden_layers % pp; ++i) stage_layers[static_cast<std::size_t>(pp >= 2 ? pp - 2 - (i % (pp - 1)) : 0)] += 1;

    const std::uint64_t kv_row = kv_values_per_token(a, tp);
    const std::uint64_t model_value_bytes = s.dtype == "fp32" ? 4 : 2;  // the model dtype's: the RoPE table, the conv state
    // Speculative decoding: the MTP layers and num_speculative_tokens (draft_tokens).
    const std::uint64_t mtp_layers = s.engine.mtp ? a.num_nextn_predict_layers : 0;
    const std::uint64_t spec_tokens = draft_tokens(s);
    VllmHybridLayout hybrid_layout;
    const std::uint64_t base_block = s.engine.block_size > 0 ? s.engine.block_size : kDefaultBlock;
    if (hybrid) {
        const RecurrentShape& r = a.recurrent;
        const std::uint64_t heads = r.n_heads > 0 ? r.n_heads : r.d_inner;
        if (heads % tp != 0 || (r.kind == MixerKind::gated_deltanet && r.n_groups % tp != 0))
            return Error{"tp", "vLLM: the " + std::string(mixer_kind_name(r.kind)) + " layers' heads (" + n(heads) +
                                   (r.kind == MixerKind::gated_deltanet ? ", key heads " + n(r.n_groups) : std::string()) +
                                   ") must be divisible by tensor parallel size (" + n(tp) + ")."};
        // With MTP the MTP layers' attention joins the full-attention layers before grouping, the conv window keeps
        // the K speculative positions, and each request holds 1 + K state blocks in every recurrent group.
        hybrid_layout = vllm_hybrid_layout(a.attention_layer_count() + mtp_layers, kv_row * kv_value_bytes, a.recurrent_layer_count(),
                                           vllm_recurrent_state_bytes(r, tp, model_value_bytes, spec_tokens), s.engine.block_size);
        hybrid_layout.spec_blocks = spec_tokens;
    }
    // Gemma 4's global layers: global_head_dim wide, with num_global_key_value_heads under attention_k_eq_v (K is
    // stored in V's slot too, so the cache keeps both).
    const std::uint64_t full_row = a.global_head_dim > 0 ? 2 * std::max<std::uint64_t>(a.global_kv_heads / tp, 1) * a.global_head_dim : kv_row;
    const std::uint64_t full_layers = grouped ? cache_layers(a, 0, sliding_apart).size() : 0;
    const std::uint64_t sliding_layers = sliding_apart ? cache_layers(a, 1, true).size() : 0;
    if (sliding_apart) {
        const Expected<VllmHybridLayout> l = vllm_sliding_layout(full_layers, full_row * kv_value_bytes, sliding_layers, kv_row * kv_value_bytes,
                                                                 a.sliding_window, batched, s.engine.block_size);
        if (!l) return l.failure();
        hybrid_layout = *l;
    }
    const std::uint64_t block = hybrid ? hybrid_layout.block_size : base_block;

    EngineEstimate out;
    out.kind = EngineKind::vllm;
    out.name = "vLLM";
    out.version = "vLLM 0.11-0.19 (v1 engine: gpu_worker.determine_available_memory, kv_cache_utils)";
    const std::uint64_t act_bytes = 2;
    // A dense layer's MLP as vLLM's compiled graph runs it (VLLM_COMPILE: Inductor pieces split at each attention
    // op): at the fused SiLU-and-mul, gate_up (2 x ff) and its product (ff) beside four hidden-wide tensors, the
    // piece's inputs (the attention output and the incoming residual), the new residual and the normed MLP input.
    // vLLM 0.19 on an H100 at 8,192 tokens, where this phase is larger than the sampler's, logs 0.85 GiB for
    // Granite 3.1 8B (this rule 0.84; with two hidden-wide tensors 0.71) and 0.77 GiB for CodeLlama 7B (0.76)
    // (llm-d-incubation/llm-d-planner accuracy logs; the reality table holds the Granite row).
    const std::uint64_t dense_ff = a.intermediate_size / tp;
    const bool has_dense_mlp = !a.is_moe() || a.first_k_dense_replace > 0 || a.moe_layer_freq > 1;
    const std::uint64_t mlp_phase = has_dense_mlp ? batched * (3 * dense_ff + 4 * a.hidden_size) * act_bytes : 0;
    // A MoE layer (vllm/model_executor/layers/fused_moe/modular_kernel.py FusedMoEModularKernel._allocate_buffers with
    // TritonExperts.workspace_shapes in fused_moe/triton_moe.py): for M = the profile's batched tokens, N = 2 x the
    // expert's width / tp (gate and up) and K = hidden, workspace13 = M x top_k x max(N / 2, K) (also holding the
    // M x K output) and workspace2 = M x top_k x max(N, K), both taken from the worker's WorkspaceManager
    // (vllm/v1/worker/workspace.py get_simultaneous). That buffer is shared by every MoE layer and kept for the
    // worker's life, so it is still held when gpu_model_runner.profile_run goes on to _dummy_sampler_run: the
    // profile's peak is the sampler phase plus the workspace. Read in vLLM's main of 2026; vLLM 0.19's logs agree
    // within 3 % (Mixtral 8x7B at tp 2 1.21 GiB, DeepSeek-V2-Lite 1.93 GiB, Qwen1.5-MoE-A2.7B 2.47 GiB: llm-d-planner
    // accuracy logs). Releases before the WorkspaceManager (fused_moe.py fused_experts_impl) freed these caches
    // after each layer, so their peak was the larger phase, not the sum.
    // The experts' tensor-parallel size: tp, tp x dp when data parallelism flattens it, 1 with expert parallelism.
    const std::uint64_t moe_tp = ep ? 1 : tp * dp;
    // MXFP4 on GPUs without native FP4 (Ampere, Ada, consumer Blackwell) runs vLLM's Marlin kernel, which pads every
    // expert (quantization/mxfp4.py, Marlin backend: the width per rank to a multiple of 128, the hidden size to 256);
    // gpt-oss-20b then loads 13.72 GiB where the checkpoint is 12.82 (a kserve log and an A100 log; vllm#22331's
    // unpadded run logs 12.88). Hopper's Triton path pads nothing at tp 1; other GPUs are not assumed either way.
    const bool marlin = s.dtype == "mxfp4" && a.is_moe() && a.moe_intermediate_size > 0 &&
                        (s.gpu.rfind("rtx-", 0) == 0 || s.gpu.rfind("a100", 0) == 0 || s.gpu == "l40s" || s.gpu == "l4") && s.gpu_memory_bytes == 0;
    const std::uint64_t marlin_width = a.is_moe() ? a.moe_intermediate_size / moe_tp : 0;
    const std::uint64_t marlin_padded = cdiv(marlin_width, 128) * 128 * cdiv(a.hidden_size, 256) * 256;
    const std::uint64_t moe_n = a.is_moe() ? 2 * a.moe_intermediate_size / moe_tp : 0;
    const std::uint64_t moe_topk = std::max<std::uint64_t>(a.num_experts_per_tok, 1);
    auto aligned = [](std::uint64_t bytes) { return (bytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign; };
    const std::uint64_t moe_tokens = dp > 1 ? std::min(dp * batched, std::max(kFusedMoeChunkTokens, batched)) : batched;
    const std::uint64_t moe_ws13 = a.is_moe() ? aligned(moe_tokens * moe_topk * std::max(moe_n / 2, a.hidden_size) * act_bytes) : 0;
    const std::uint64_t moe_ws2 = a.is_moe() ? aligned(moe_tokens * moe_topk * std::max(moe_n, a.hidden_size) * act_bytes) : 0;
    const std::uint64_t moe_workspace = moe_ws13 + moe_ws2;
    // While a MoE layer runs: the workspace with the hidden states and the residual.
    const std::uint64_t moe_phase = a.is_moe() ? moe_workspace + batched * 2 * a.hidden_size * act_bytes : 0;
    const std::uint64_t reqs = std::min(seqs, batched);
    const std::uint64_t sampler_phase = batched * a.hidden_size * act_bytes + reqs * a.vocab_size * kSamplerBytesPerLogit + moe_workspace;
    // A stage after the first receives its input in buffers made once at the full token budget
    // (gpu_model_runner._dummy_run: model.make_empty_intermediate_tensors(batch_size=max_num_tokens)): the hidden
    // states and the residual, held through the profile.
    const std::uint64_t intermediate_tensors = batched * 2 * a.hidden_size * act_bytes;

    const Expected<RopeTables> roped = vllm_rope_tables(a, model_value_bytes, notes);
    if (!roped) return roped.failure();
    const RopeTables& rope = *roped;
    Expected<Drafter> drafted = Drafter{};
    if (s.engine.mtp) {
        // The MTP layer's parts in the layers' rate of bytes per parameter (the weights' format), its routed
        // experts split as the target's are.
        const std::uint64_t per_module = c.mtp_count / a.num_nextn_predict_layers;
        const std::uint64_t tables = c.mtp_table_count / a.num_nextn_predict_layers;
        MtpShape m;
        const std::uint64_t proj_params = 2 * a.hidden_size * a.hidden_size + 3 * a.hidden_size;  // eh_proj (fc) and three norms
        const std::uint64_t layer_params_mtp = per_module > tables + proj_params ? per_module - tables - proj_params : 0;
        const std::uint64_t expert_params = a.is_moe() ? c.expert_count / moe_layers : 0;
        auto rate = [&](std::uint64_t params) { return static_cast<std::uint64_t>(static_cast<u128>(layers_all) * params / layer_params); };
        m.expert_bytes = rate(std::min(expert_params, layer_params_mtp));
        m.block_bytes = rate(layer_params_mtp) - m.expert_bytes;
        if (a.family == ModelFamily::qwen3_next) m.fc_bytes = rate(2 * a.hidden_size * a.hidden_size);
        m.whole_params = m.fc_bytes > 0 ? 3 * a.hidden_size : proj_params;
        // Its routed experts on the fullest GPU, split as the target's are (under expert parallelism, the first rank's).
        m.model_value_bytes = model_value_bytes;
        if (m.expert_bytes > 0 && moe_split) {
            if (ep) {
                const std::uint64_t local = cdiv(a.num_experts, ep_size);
                m.expert_steps = " + routed experts " + n(m.expert_bytes) + " x " + n(local) + " of " + n(a.num_experts);
                m.expert_bytes = static_cast<std::uint64_t>(static_cast<u128>(m.expert_bytes) * local / a.num_experts);
            } else {
                m.expert_steps = " + routed experts " + n(m.expert_bytes) + " / (tp x dp) " + n(tp * dp);
                m.expert_bytes /= tp * dp;
            }
        } else if (m.expert_bytes > 0) {
            m.expert_steps = " + routed experts " + n(m.expert_bytes);
        }
        drafted = vllm_mtp_drafter(a, m, tp, kv_row, batched, act_bytes, notes);
    } else {
        drafted = vllm_drafter(s, a, rope, tp, pp, batched, act_bytes, notes);
    }
    if (!drafted) return drafted.failure();
    const Drafter& draft = *drafted;
    out.notes = notes;  // after the drafter and the RoPE tables have added theirs

    std::uint64_t min_fit_tokens = 0;  // the longest max_model_len one request can hold on every GPU
    std::uint64_t need_rank0 = 0;      // one request of max_model_len on the first GPU
    bool first_rank = true;
    std::uint64_t pool_min = 0;
    std::uint64_t first_layer = 0;
    // The blocks one request of max_model_len holds (the same on every GPU).
    const std::uint64_t request_blocks = grouped ? hybrid_layout.blocks_per_request(max_len) : cdiv(max_len, block);
    // A GPU's token capacity as vLLM logs it, and its "%.2fx" concurrency: blocks over a request's blocks (without
    // recurrent layers, tokens over max_model_len).
    auto set_blocks = [&](EngineDevice& d, std::uint64_t blocks) {
        d.kv_blocks = blocks;
        d.kv_capacity_tokens = grouped ? hybrid_layout.logged_tokens(blocks, max_len) : blocks * block;
        d.max_concurrency = grouped ? Decimal::from_ratio((blocks * 100 + request_blocks / 2) / request_blocks, 100)
                                   : Decimal::from_ratio((d.kv_capacity_tokens * 100 + max_len / 2) / max_len, 100);
    };
    std::vector<std::uint64_t> gpu_block_bytes;  // per GPU, in device order
    for (std::uint64_t replica = 0; replica < dp; ++replica) {
        first_layer = 0;
        for (std::uint64_t stage = 0; stage < pp; ++stage) {
            // The tensors one block spans on this stage (the same on each of its ranks).
            // (One stage holds every layer, the MTP layers' attention too, so a block spans a whole group.)
            const std::uint64_t stage_tensors =
                !grouped ? 0
                : pp == 1 ? hybrid_layout.group_size
                          : stage_group_size(a, hybrid_layout, sliding_apart, first_layer, first_layer + stage_layers[static_cast<std::size_t>(stage)]);
            for (std::uint64_t rank = 0; rank < tp; ++rank) {
                EngineDevice d;
                const std::uint64_t index = (replica * pp + stage) * tp + rank;
                d.device = "gpu" + std::to_string(index);
                d.label = "GPU " + std::to_string(index) + (gpu_label.empty() ? "" : " (" + gpu_label + ")");
                d.is_gpu = true;
                d.capacity_bytes = capacity;
                const std::uint64_t lay = stage_layers[static_cast<std::size_t>(stage)];
                std::uint64_t weights = per_layer * lay / tp;
                std::string wsteps = n(lay) + " layers x " + n(per_layer) + " bytes / tp " + n(tp);
                if (moe_split) {
                    std::uint64_t stage_moe = 0;
                    for (std::uint64_t il = first_layer; il < first_layer + lay; ++il) stage_moe += a.layer_is_moe(il) ? 1 : 0;
                    const std::uint64_t ep_rank = replica * tp + rank;
                    const std::uint64_t local = ep ? a.num_experts / ep_size + (ep_rank < a.num_experts % ep_size ? 1 : 0) : 0;
                    const std::uint64_t experts = ep ? static_cast<std::uint64_t>(static_cast<u128>(experts_per_layer) * stage_moe * local / a.num_experts)
                                                     : experts_per_layer * stage_moe / (tp * dp);
                    weights = rest_per_layer * lay / tp + experts;
                    wsteps = n(lay) + " layers x " + n(rest_per_layer) + " bytes without the routed experts / tp " + n(tp) + " + " + n(stage_moe) +
                             " MoE layers x " + n(experts_per_layer) + " bytes of routed experts " +
                             (ep ? "x " + n(local) + " of " + n(a.num_experts) + " experts (--enable-expert-parallel: " + n(a.num_experts) + " over " + n(ep_size) +
                                       " GPUs, expert-parallel rank " + n(ep_rank) + ")"
                                 : "/ (tp x dp) " + n(tp * dp));
                }
                if (stage == 0) {
                    weights += embed / tp;
                    wsteps += " + embedding " + n(embed) + " / " + n(tp);
                }
                if (stage == pp - 1 && !(a.tie_word_embeddings && pp == 1)) {
                    weights += head / tp;
                    wsteps += std::string(" + ") + (a.tie_word_embeddings ? "the tied head's copy " : "lm_head ") + n(head) + " / " + n(tp);
                }
                if (fp8_ends) wsteps += " (FP8 layers; the embedding and the head stay in 16 bits)";
                if (c.vision_count > 0) wsteps += std::string("; the layers' bytes include the ") + vision_kind_name(a.vision.kind) + "'s " + n(c.vision_count) + " parameters";
                d.terms.push_back({"weights", "Model weights", wsteps, weights, EngineTermKind::weights});
                if (marlin && marlin_width > 0) {
                    // This GPU's MXFP4 expert bytes: its MoE layers' share, split over the experts' ranks.
                    std::uint64_t moe_here = 0;
                    for (std::uint64_t il = first_layer; il < first_layer + lay; ++il) moe_here += a.layer_is_moe(il) ? 1 : 0;
                    const std::uint64_t expert_bytes = static_cast<std::uint64_t>(static_cast<u128>(e->quantized_linear_count) * 17 / 32 * moe_here / moe_layers /
                                                                                  (ep ? ep_size : moe_tp));
                    const std::uint64_t pad = static_cast<std::uint64_t>(static_cast<u128>(expert_bytes) * marlin_padded / (marlin_width * a.hidden_size)) - expert_bytes;
                    d.terms.push_back({"mxfp4_padding", "MXFP4 padding (Marlin)",
                                       n(expert_bytes) + " bytes of MXFP4 experts x (" + n(cdiv(marlin_width, 128) * 128) + " x " + n(cdiv(a.hidden_size, 256) * 256) +
                                           ") / (" + n(marlin_width) + " x " + n(a.hidden_size) + ") - themselves: Marlin's padded widths (quantization/mxfp4.py)",
                                       pad, EngineTermKind::weights});
                }
                if (rope.bytes > 0) d.terms.push_back({"rope_table", "RoPE cos/sin table", rope.steps, rope.bytes, EngineTermKind::weights});
                if (draft.weights > 0) {
                    d.terms.push_back({draft.mtp ? "mtp_weights" : "draft_weights", draft.mtp ? "MTP layers" : "Drafter weights", draft.weight_steps, draft.weights,
                                       EngineTermKind::weights});
                    d.terms.push_back({"draft_buffers", draft.mtp ? "MTP proposer's persistent buffers" : "Drafter's persistent buffers", draft.buffer_steps,
                                       draft.buffers, EngineTermKind::other});
                }
                const bool last = stage == pp - 1;
                const std::uint64_t received = stage > 0 ? intermediate_tensors : 0;
                const std::uint64_t activation = received + std::max({mlp_phase, moe_phase, last ? sampler_phase : 0, draft.mlp_phase});
                std::string asteps = "profile run of " + n(batched) + " batched tokens (gpu_model_runner.profile_run): max(";
                std::string sep;
                if (has_dense_mlp) {
                    asteps += "dense MLP " + n(batched) + " x (3 x " + n(dense_ff) + " + 4 x " + n(a.hidden_size) + ") x 2 = " + n(mlp_phase);
                    sep = ", ";
                }
                if (a.is_moe()) {
                    asteps += sep + "MoE layer: fused-MoE workspace " + (dp > 1 ? n(moe_tokens) + " tokens gathered from " + n(dp) + " replicas" : n(batched)) +
                              " x top-" + n(moe_topk) + " x (max(" + n(moe_n / 2) + ", " + n(a.hidden_size) +
                              ") + max(" + n(moe_n) + ", " + n(a.hidden_size) + ")) x 2 = " + n(moe_workspace) + " + hidden states and residual = " + n(moe_phase);
                    sep = ", ";
                }
                if (last)
                    asteps += sep + "sampler " + n(reqs) + " sequences x " + n(a.vocab_size) + " vocab x 15 + hidden states" +
                              (a.is_moe() ? std::string(" + the MoE workspace still held (vllm/v1/worker/workspace.py)") : std::string()) + " = " + n(sampler_phase);
                if (draft.mlp_phase > 0)
                    asteps += ", the drafter's dummy run " + n(batched) + " x (3 x " + n(draft.ff) + " + 2 x " + n(draft.hidden) + ") x 2 = " + n(draft.mlp_phase);
                asteps += ")";
                if (received > 0)
                    asteps += " + the tensors received from stage " + n(stage - 1) + ", " + n(batched) + " x (hidden + residual) " + n(a.hidden_size) + " x 2 x 2 = " + n(received);
                d.terms.push_back({"activation_peak", "PyTorch activation peak", asteps, activation, EngineTermKind::compute});
                // A MoE model's data-parallel ranks communicate in every MoE layer (its NCCL groups are taken to cost
                // what tensor parallelism's do); a dense model's replicas are independent engines.
                const bool communicates = tp > 1 || moe_split;
                const std::uint64_t non_torch = communicates ? kNonTorchTensorParallelBytes : kNonTorchBytes;
                d.terms.push_back({"non_torch", "Non-torch memory",
                                   tp > 1 ? "NCCL communicators, custom all-reduce buffers and cuBLAS workspaces at tensor parallel " + n(tp) + " (2.1 GiB per rank as vLLM 0.19 logs it)"
                                   : communicates ? "NCCL communicators of the MoE layers' data-parallel group and cuBLAS workspaces at dp " + n(dp) +
                                                        " (taken as tensor parallelism's 2.1 GiB per rank; no published log checks it)"
                                                  : std::string("cuBLAS workspaces after the profile run (0.25 GiB as vLLM 0.19 logs it)"),
                                   non_torch, EngineTermKind::other});
                // KV values a token keeps on this stage: each layer with a cache of its own at its width (Gemma 4's
                // global layers are wider; its KV-shared layers keep none).
                std::uint64_t stage_values = 0;
                for (std::uint64_t il = first_layer; il < first_layer + lay; ++il)
                    if (a.layer_is_attention(il) && il + a.kv_shared_layers < a.num_hidden_layers)
                        stage_values += il < a.sliding_layers.size() && a.sliding_layers[static_cast<std::size_t>(il)] ? kv_row : full_row;
                const std::uint64_t token_bytes = (stage_values + draft.kv_row * draft.layers) * kv_value_bytes;
                // Bytes of one block across this GPU's layers, and the blocks one request of max_model_len holds.
                const std::uint64_t block_bytes = grouped ? hybrid_layout.page_bytes * stage_tensors : block * token_bytes;
                gpu_block_bytes.push_back(block_bytes);
                const std::uint64_t one_request = request_blocks * block_bytes;
                if (first_rank) need_rank0 = one_request;
                std::string layout_steps;
                if (hybrid) {
                    const std::uint64_t groups = hybrid_layout.attention_groups + hybrid_layout.recurrent_groups;
                    // "%.2f%%", as vLLM logs "Padding mamba page size by ...".
                    const std::uint64_t state = std::max<std::uint64_t>(hybrid_layout.state_bytes, 1);
                    const std::string padding = format_decimal(Decimal::from_ratio(((hybrid_layout.page_bytes - hybrid_layout.state_bytes) * 10000 + state / 2) / state, 100)) + "%";
                    layout_steps = "blocks of " + n(block) + " tokens (raised so one page holds a " + mixer_kind_name(a.recurrent.kind) + " layer's state of " +
                                   n(hybrid_layout.state_bytes) + " bytes" +
                                   (spec_tokens > 0 ? " with its conv window " + n(spec_tokens) + (spec_tokens == 1 ? " speculative position" : " speculative positions") + " wider (mamba_utils.py)" : "") + ", padded by " + padding + " to the page of " + n(block) + " x " + n(kv_row * kv_value_bytes) + " = " +
                                   n(hybrid_layout.page_bytes) + " bytes); the layers in " + n(groups) + " groups (" + n(hybrid_layout.attention_groups) +
                                   " attention" + (mtp_layers > 0 ? " with the MTP layer's" : "") + ", " + n(hybrid_layout.recurrent_groups) + " recurrent) of " +
                                   n(stage_tensors) + " layers, so a block spans " +
                                   n(stage_tensors) + " pages = " + n(block_bytes) + " bytes";
                } else if (sliding_apart) {
                    const VllmHybridLayout& l = hybrid_layout;
                    layout_steps = n(l.groups()) + " groups (" + n(l.attention_groups) + " full attention, " + n(l.sliding_groups) + " sliding) of up to " +
                                   n(l.group_size) + " layers; pages of " + n(l.page_bytes) + " bytes (" + n(l.block_size) + " tokens x " + n(full_row * kv_value_bytes) +
                                   " bytes in a full group, " + n(l.sliding_block) + " x " + n(kv_row * kv_value_bytes) + " in a sliding group" +
                                   (l.block_size != l.sliding_block ? ": the smaller page's block raised to match" : "") + "), so a block spans " +
                                   n(stage_tensors) + " pages = " + n(block_bytes) + " bytes";
                }
                // The blocks one request holds, group by group.
                const std::string request_steps =
                    hybrid ? n(hybrid_layout.attention_groups) + " x " + n(cdiv(max_len, block)) + " attention + " + n(hybrid_layout.recurrent_groups) + " recurrent" +
                                 (spec_tokens > 0 ? " x (1 + " + n(spec_tokens) + (spec_tokens == 1 ? " speculative token)" : " speculative tokens)") : "")
                    : sliding_apart ? n(hybrid_layout.attention_groups) + " x ceil(" + n(max_len) + " / " + n(hybrid_layout.block_size) + ") full + " +
                                          n(hybrid_layout.sliding_groups) + " x (ceil(min(" + n(a.sliding_window) + " - 1 + " + n(batched) + ", " + n(max_len) + ") / " +
                                          n(hybrid_layout.sliding_block) + ") + 1) sliding"
                                    : std::string();
                std::uint64_t pool = 0;
                std::uint64_t share = 0;
                if (capacity > 0) {
                    share = static_cast<std::uint64_t>(static_cast<u128>(capacity) * util_micros / Decimal::kScale);
                    const std::uint64_t used = weights + rope.bytes + draft.weights + draft.buffers + activation + non_torch;
                    pool = share > used ? share - used : 0;
                    d.has_pool = true;
                    d.kv_pool_bytes = pool;
                    set_blocks(d, block_bytes > 0 ? pool / block_bytes : 0);
                    const std::uint64_t fit_tokens = grouped ? hybrid_layout.longest_request(d.kv_blocks, max_len) : d.kv_capacity_tokens;
                    const std::string pool_steps = format_bytes_binary(capacity) + " x " + format_decimal(Decimal{util_micros}) + " = " + format_bytes_binary(share) +
                                                   " - weights - activation peak - non-torch" + (draft.weights > 0 ? draft.mtp ? " - the MTP layers" : " - the drafter" : "") + " = " +
                                                   format_bytes_binary(pool) + "; ";
                    if (grouped)
                        d.terms.push_back({"kv_cache", hybrid ? "KV cache pool (attention and recurrent state)" : "KV cache pool (full and sliding-window groups)",
                                           pool_steps + layout_steps + "; " + n(d.kv_blocks) + " blocks. A request of " + n(max_len) + " tokens holds " +
                                               n(request_blocks) + " (" + request_steps + "): " + format_decimal(d.max_concurrency) + "x concurrency; vLLM 0.19 logs " +
                                               n(d.kv_blocks) + " / " + n(hybrid_layout.groups()) + " groups x " +
                                               n(std::min(hybrid ? block : std::min(hybrid_layout.block_size, hybrid_layout.sliding_block), max_len)) + " = " +
                                               n(d.kv_capacity_tokens) + " tokens",
                                           d.kv_blocks * block_bytes, EngineTermKind::kv_cache});
                    else
                        d.terms.push_back({"kv_cache", "KV cache pool",
                                           pool_steps + n(d.kv_blocks) + " blocks of " + n(block) + " tokens x " + n(token_bytes) + " bytes (" +
                                               (stage_values == lay * kv_row ? n(lay) + " layers x " + n(kv_row) + " values" : n(stage_values) + " values over " + n(lay) + " layers") +
                                               (draft.layers > 0 ? (draft.mtp ? " + " + n(draft.layers) + " MTP layer" + (draft.layers == 1 ? "" : "s") : " + the drafter's " + n(draft.layers) + " layers") +
                                                                        " x " + n(draft.kv_row) + " values"
                                                                  : "") +
                                               ", x " + n(kv_value_bytes) + " bytes)",
                                           d.kv_blocks * block_bytes, EngineTermKind::kv_cache});
                    if (first_rank || fit_tokens < min_fit_tokens) min_fit_tokens = fit_tokens;
                    if (first_rank || pool < pool_min) pool_min = pool;
                } else if (grouped) {
                    d.terms.push_back({"kv_cache", hybrid ? "KV cache and recurrent state (one request of max_model_len)" : "KV cache (one request of max_model_len)",
                                       layout_steps + "; " + n(request_blocks) + " blocks (" + request_steps + ")", one_request, EngineTermKind::kv_cache});
                } else {
                    d.terms.push_back({"kv_cache", "KV cache (one request of max_model_len)",
                                       n(request_blocks) + " blocks of " + n(block) + " tokens x " + n(token_bytes) + " bytes per token",
                                       one_request, EngineTermKind::kv_cache});
                }
                if (!s.engine.enforce_eager)
                    d.terms.push_back({"cuda_graphs", "CUDA graphs", "captured after the KV pool for batch sizes up to 512 (0.5 GiB, our estimate; --enforce-eager: none)",
                                       kCudaGraphBytes, EngineTermKind::other});
                finish_device(d);
                d.reserved_bytes = capacity > 0 ? std::max(share + (s.engine.enforce_eager ? 0 : kCudaGraphBytes), d.total_bytes) : d.total_bytes;
                if (capacity > 0) {
                    // What the run needs: everything but the pool's spare blocks, i.e. one request of max_model_len.
                    const std::uint64_t needed = d.total_bytes - d.kv_cache_bytes + one_request;
                    judge_device(d, needed, capacity);
                }
                first_rank = false;
                out.devices.push_back(std::move(d));
            }
            first_layer += stage_layers[static_cast<std::size_t>(stage)];
        }
    }
    // Every GPU of a replica then gets its smallest GPU's block count, and the others' KV tensors shrink to it
    // (kv_cache_utils.py get_kv_cache_configs: the scheduler's block ids must mean the same on every worker). Under
    // pipeline parallelism the stages' pools differ (the last runs the sampler), so the others keep fewer blocks.
    // Each data-parallel replica is its own engine core with its own scheduler and pool (vllm/v1/engine/core.py).
    const std::size_t per_replica = static_cast<std::size_t>(tp * pp);
    for (std::size_t i = 0; i < out.devices.size(); ++i) {
        const std::size_t first = i / per_replica * per_replica;
        std::uint64_t fewest = UINT64_MAX;
        for (std::size_t j = first; j < first + per_replica; ++j)
            if (out.devices[j].has_pool) fewest = std::min(fewest, out.devices[j].kv_blocks);
        EngineDevice& d = out.devices[i];
        if (!d.has_pool || d.kv_blocks == fewest) continue;
        for (EngineTerm& t : d.terms)
            if (t.key == "kv_cache") {
                t.bytes = fewest * gpu_block_bytes[i];
                t.steps += "; every GPU keeps the smallest GPU's " + n(fewest) + " blocks (get_kv_cache_configs), so this one allocates " +
                           n(fewest) + " of its " + n(d.kv_blocks) + " = " + format_bytes_binary(fewest * gpu_block_bytes[i]);
            }
        set_blocks(d, fewest);
        d.kv_pool_bytes = fewest * gpu_block_bytes[i];  // what it allocates; the steps keep what it had
        finish_device(d);
        judge_device(d, d.total_bytes - d.kv_cache_bytes + request_blocks * gpu_block_bytes[i], capacity);
    }
    add_host_device(out);

    out.context_tokens = max_len;
    out.gpu_known = capacity > 0;
    out.settings.push_back("--max-model-len " + n(max_len) + (max_len_given ? "" : " (the model's max_position_embeddings)"));
    out.settings.push_back("tensor parallel " + n(tp) + ", pipeline parallel " + n(pp) +
                           (dp > 1 ? ", data parallel " + n(dp) + " (" + n(dp * tp * pp) + " GPUs: " + n(dp) + " engines of " + n(tp * pp) + ")"
                                   : " (" + n(tp * pp) + " GPUs)") +
                           (!a.is_moe() ? std::string()
                            : ep        ? ", experts: whole, " + n(a.num_experts / ep_size) + (a.num_experts % ep_size ? "-" + n(a.num_experts / ep_size + 1) : std::string()) +
                                       " of " + n(a.num_experts) + " per GPU (--enable-expert-parallel)"
                            : moe_split ? ", experts: each split over " + n(tp * dp) + " GPUs" + (dp > 1 ? " (tp x dp)" : "")
                                        : std::string()));
    out.settings.push_back("--gpu-memory-utilization " + format_decimal(Decimal{util_micros}) + ", --block-size " + std::to_string(block) +
                           (hybrid && block != s.engine.block_size ? " (vLLM: \"Setting attention block size to " + std::to_string(block) +
                                                                        " tokens to ensure that attention page size is >= mamba page size\")"
                                                                  : std::string()) +
                           ", --kv-cache-dtype " + kv_flag);
    out.settings.push_back("--max-num-batched-tokens " + n(batched) + ", --max-num-seqs " + n(seqs) +
                           (s.engine.max_batched_tokens == 0 || s.engine.max_num_seqs == 0 ? (big_gpu ? " (defaults for a GPU of 70 GiB or more that is not an A100)" : " (defaults below 70 GiB or on an A100)") : ""));
    out.settings.push_back(s.engine.enforce_eager ? "--enforce-eager: no CUDA graphs" : "CUDA graphs captured (default)");
    if (hybrid) {
        const std::uint64_t groups = hybrid_layout.attention_groups + hybrid_layout.recurrent_groups;
        const std::uint64_t both = a.attention_layer_count() + a.recurrent_layer_count() > a.num_hidden_layers
                                       ? a.attention_layer_count() + a.recurrent_layer_count() - a.num_hidden_layers : 0;
        out.notes.push_back(n(a.recurrent_layer_count()) + " of " + n(a.num_hidden_layers) + " layers " +
                            (both > 0 ? "have a " + std::string(mixer_kind_name(a.recurrent.kind)) + " mixer beside their attention (" + n(both) +
                                            " layers both: each keeps a KV cache and a recurrent state, in vLLM's two groups)"
                                      : "are " + std::string(mixer_kind_name(a.recurrent.kind)) + " layers") +
                            ": a request holds one page of recurrent state in each recurrent group, whatever its length, and " +
                            n(hybrid_layout.attention_groups) + " x ceil(tokens / " + n(block) + ") attention pages. The \"GPU KV cache size\" vLLM logs "
                            "divides the blocks evenly over the " + n(groups) + " groups, so it is not the tokens one request can use; the concurrency "
                            "is the figure to read (vllm-project/vllm#40691).");
        out.notes.push_back("Prefix caching is off for hybrid models by default (mamba_cache_mode none); with --enable-prefix-caching vLLM keeps more "
                            "recurrent pages per request, which is not modelled. The recurrent mixers' own profile buffers are not counted apart.");
    }
    if (dp > 1)
        out.notes.push_back(a.is_moe() ? "Data parallel " + n(dp) + ": " + n(dp) + " engines, each with its own scheduler, KV pool and concurrency (the figures per GPU are its replica's); "
                                             "the MoE layers' experts are split over all " + n(tp * dp) + " GPUs and gather every replica's tokens. The all2all backends' own "
                                             "buffers (DeepEP's 1 GiB per GPU) and sequence-parallel MoE are not modelled."
                                       : "Data parallel " + n(dp) + ": " + n(dp) + " independent engines with the same figures per GPU; the requests they hold add up.");
    if (sliding_apart) {
        const VllmHybridLayout& l = hybrid_layout;
        out.notes.push_back(n(sliding_layers) + " sliding-window layers keep their window: a sliding group admits " + n(a.sliding_window) + " - 1 + " +
                            n(batched) + " batched tokens (at most max_model_len) plus a block, so a request of " + n(max_len) + " tokens holds " +
                            format_bytes_binary(l.blocks_per_request(max_len) * l.group_size * l.page_bytes) + ", not the " +
                            format_bytes_binary(cdiv(max_len, base_block) * base_block * (full_layers * full_row + sliding_layers * kv_row) * kv_value_bytes) +
                            " of every layer at full length (--disable-hybrid-kv-cache-manager, or a KV connector). Read the concurrency: vLLM 0.19's "
                            "\"GPU KV cache size\" is the blocks / groups, later releases log concurrency x max_model_len (vllm-project/vllm#40691).");
        // Releases with async scheduling on by default reserve every batch in flight (vllm/config/vllm.py
        // max_in_flight_tokens = max_concurrent_batches x max_num_batched_tokens, 2 batches at pp 1): a vLLM 0.26 log
        // of Gemma 4 31B at 16,384 tokens shows 13.25x, which 5 x 1,025 + 512 blocks a request give.
        VllmHybridLayout in_flight = l;
        in_flight.batched_tokens = 2 * batched;
        const std::uint64_t later = in_flight.blocks_per_request(max_len);
        if (later != l.blocks_per_request(max_len) && pp == 1) {
            const std::uint64_t blocks = out.devices.empty() ? 0 : out.devices.front().kv_blocks;
            out.notes.push_back("With async scheduling (vLLM 0.26's default) a sliding group admits " + n(a.sliding_window) + " - 1 + 2 x " + n(batched) +
                                " tokens, two batches in flight: " + n(later) + " blocks a request" +
                                (capacity > 0 ? ", " + format_decimal(Decimal::from_ratio((blocks * 100 + later / 2) / later, 100)) + "x concurrency" : std::string()) + ".");
        }
    } else if (a.sliding_window > 0) {
        out.notes.push_back(s.engine.hybrid_kv_off ? "--disable-hybrid-kv-cache-manager: every sliding-window layer keeps the whole context in each KV block."
                            : a.chunked_attention ? "Chunked local attention is counted at full length: vLLM turns its hybrid KV-cache manager off for it by default."
                            : !s.engine.draft_model.empty() ? "Sliding-window layers are counted at full length: with a drafter in the KV cache, the hybrid manager's groups are not modelled."
                                                            : "Sliding-window layers are counted at full length (vLLM's hybrid KV-cache manager can keep less).");
    }

    if (capacity > 0) {
        if (pool_min == 0) {
            out.failure = "ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.";
        } else if (min_fit_tokens < max_len) {
            out.failure = "ValueError: To serve at least one request with the models's max seq len (" + std::to_string(max_len) + "), (" + gib2(need_rank0) +
                          " KV cache is needed, which is larger than the available KV cache memory (" + gib2(pool_min) +
                          "). Based on the available memory, the estimated maximum model length is " + std::to_string(min_fit_tokens) +
                          ". Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.";
        }
        // --max-model-len auto: the model's length, or the largest that one request can hold.
        out.auto_context_tokens = std::min(max_len, min_fit_tokens);
        if (!max_len_given && min_fit_tokens < max_len && min_fit_tokens > 0) {
            out.notes.push_back("--max-model-len auto would choose " + n(min_fit_tokens) + " tokens (what the KV pool holds for one request).");
        }
    }
    std::string model = s.model->display_name.empty() ? "MODEL" : s.model->display_name;
    if (!s.model->preset_key.empty()) {
        const std::size_t space = model.find(' ');
        if (space != std::string::npos) model = model.substr(0, space);
    }
    std::string cmd = "vllm serve " + model;
    if (tp > 1) cmd += " --tensor-parallel-size " + std::to_string(tp);
    if (pp > 1) cmd += " --pipeline-parallel-size " + std::to_string(pp);
    if (dp > 1) cmd += " --data-parallel-size " + std::to_string(dp);
    if (s.engine.expert_parallel) cmd += " --enable-expert-parallel";
    cmd += " --max-model-len " + std::to_string(max_len);
    if (util_micros != kDefaultUtilMicros) cmd += " --gpu-memory-utilization " + format_decimal(Decimal{util_micros});
    if (s.engine.max_num_seqs > 0) cmd += " --max-num-seqs " + std::to_string(seqs);
    if (s.engine.max_batched_tokens > 0) cmd += " --max-num-batched-tokens " + std::to_string(batched);
    if (kv_flag != "auto") cmd += " --kv-cache-dtype " + kv_flag;
    if (s.dtype == "gptq" || s.dtype == "awq") cmd += " --quantization " + s.dtype;
    if (draft.mtp)
        cmd += " --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": " + std::to_string(spec_tokens) + "}'";
    else if (draft.weights > 0)
        cmd += " --speculative-config '{\"method\": \"draft_model\", \"model\": \"" + draft.name + "\", \"num_speculative_tokens\": " + std::to_string(spec_tokens) + "}'";
    if (s.engine.block_size > 0) cmd += " --block-size " + std::to_string(block);
    if (s.engine.enforce_eager) cmd += " --enforce-eager";
    if (s.engine.hybrid_kv_off) cmd += " --disable-hybrid-kv-cache-manager";
    // vllm/model_executor/layers/quantization/mxfp4.py: the Marlin fallback pads the experts (intermediate to 128,
    // hidden to 256); Triton on Hopper pads nothing at tp 1. Said, not counted: the kernel depends on the GPU.
    if (s.dtype == "mxfp4")
        out.notes.push_back(marlin ? "MXFP4 experts padded for vLLM's Marlin kernel, which this GPU runs (no native FP4): gpt-oss-20b loads 13.72 GiB so."
                                   : "MXFP4 as the checkpoint stores it (gpt-oss-20b: vLLM logs 12.88 GiB, vllm-project/vllm#22331). On GPUs without "
                                     "native FP4 (A100, L40S, RTX) vLLM's Marlin kernel pads the experts (gpt-oss: 2,880 to 2,944 and 3,072), about 7 % more.");
    else if (a.family == ModelFamily::gpt_oss && (s.dtype.empty() || s.dtype == "bf16" || s.dtype == "fp16"))
        out.notes.push_back("gpt-oss's checkpoint stores its experts in MXFP4, which vLLM loads as they are: --dtype mxfp4.");
    out.command = cmd;
    finish_estimate(out, s);
    return out;
}

std::uint64_t vllm_recurrent_state_bytes(const RecurrentShape& r, std::uint64_t tp, std::uint64_t model_bytes, std::uint64_t num_spec) {
    std::uint64_t groups = r.n_groups;
    if (r.kind == MixerKind::mamba2 && groups % tp != 0) groups = tp;  // extra_groups_for_head_shards
    const std::uint64_t conv = r.conv_kernel > 0 ? (r.conv_kernel - 1 + num_spec) * ((r.d_inner + 2 * groups * r.d_state) / tp) : 0;
    const std::uint64_t ssm = r.d_inner * r.d_state / tp;
    return conv * model_bytes + ssm * r.vllm_ssm_value_bytes(model_bytes);
}

std::uint64_t VllmHybridLayout::sliding_blocks(std::uint64_t max_len) const {
    if (sliding_groups == 0 || sliding_block == 0) return 0;
    const std::uint64_t admitted = std::min(sliding_window + batched_tokens - (sliding_window > 0 ? 1 : 0), max_len);
    return cdiv(admitted, sliding_block) + 1;  // +1: the window need not start at a block's edge
}

std::uint64_t VllmHybridLayout::blocks_per_request(std::uint64_t max_len) const {
    return attention_groups * cdiv(max_len, block_size) + sliding_groups * sliding_blocks(max_len) + recurrent_groups * (1 + spec_blocks);
}

std::uint64_t VllmHybridLayout::logged_tokens(std::uint64_t blocks, std::uint64_t max_len) const {
    if (groups() == 0) return 0;
    std::uint64_t smallest = recurrent_groups > 0 ? max_len : UINT64_MAX;
    if (attention_groups > 0) smallest = std::min(smallest, block_size);
    if (sliding_groups > 0) smallest = std::min(smallest, sliding_block);
    return blocks / groups() * smallest;
}

std::uint64_t VllmHybridLayout::longest_request(std::uint64_t blocks, std::uint64_t max_len) const {
    if (max_len == 0 || blocks_per_request(1) > blocks) return 0;
    std::uint64_t fits = 1, over = max_len + 1;  // blocks_per_request grows with the length
    while (over - fits > 1) {
        const std::uint64_t mid = fits + (over - fits) / 2;
        (blocks_per_request(mid) <= blocks ? fits : over) = mid;
    }
    return fits;
}

VllmHybridLayout vllm_hybrid_layout(std::uint64_t attention_layers, std::uint64_t attention_token_bytes, std::uint64_t recurrent_layers,
                                    std::uint64_t state_bytes, std::uint64_t user_block) {
    // FlashAttention's block alignment (kernel_block_alignment_size 16; MLA's 64 does not meet recurrent layers here).
    constexpr std::uint64_t kAlign = 16;
    VllmHybridLayout l;
    l.state_bytes = state_bytes;
    l.block_size = std::max(kAlign * std::max<std::uint64_t>(cdiv(state_bytes, kAlign * attention_token_bytes), 1), user_block);
    l.page_bytes = l.block_size * attention_token_bytes;
    l.group_size = group_size_of({attention_layers, recurrent_layers});
    l.attention_groups = cdiv(attention_layers, l.group_size);
    l.recurrent_groups = cdiv(recurrent_layers, l.group_size);
    return l;
}

Expected<VllmHybridLayout> vllm_sliding_layout(std::uint64_t full_layers, std::uint64_t full_token_bytes, std::uint64_t sliding_layers,
                                               std::uint64_t sliding_token_bytes, std::uint64_t window, std::uint64_t batched_tokens,
                                               std::uint64_t user_block) {
    VllmHybridLayout l;
    const std::uint64_t block = user_block > 0 ? user_block : kDefaultBlock;
    const std::uint64_t full_page = full_layers > 0 ? block * full_token_bytes : 0;
    const std::uint64_t sliding_page = sliding_layers > 0 ? block * sliding_token_bytes : 0;
    l.page_bytes = std::max(full_page, sliding_page);
    if (l.page_bytes == 0) return Error{"engine", "vLLM: no layer keeps a KV cache"};
    // unify_kv_cache_spec_page_size: the smaller page's block grows until the pages match.
    for (const std::uint64_t page : {full_page, sliding_page})
        if (page > 0 && l.page_bytes % page != 0)
            return Error{"engine", "vLLM: the full-attention and sliding-window pages (" + n(full_page) + " and " + n(sliding_page) +
                                       " bytes) are not whole multiples of each other, which vLLM cannot unify (NotImplementedError)"};
    l.block_size = full_page > 0 ? block * (l.page_bytes / full_page) : block;
    l.sliding_block = sliding_page > 0 ? block * (l.page_bytes / sliding_page) : 0;
    l.sliding_window = window;
    l.batched_tokens = batched_tokens;
    l.group_size = group_size_of({full_layers, sliding_layers});
    l.attention_groups = cdiv(full_layers, l.group_size);
    l.sliding_groups = cdiv(sliding_layers, l.group_size);
    return l;
}

}  // namespace llm_memory
