// Inference as an engine runs it: what llama.cpp (and Ollama), vLLM or Hugging Face transformers allocate
// on each device (every GPU and the host), term by term with worked steps, what the run needs and what the
// engine reserves under its defaults, the command line that realises it, and the "Runs on ..." verdict.
// Stands on the estimator (reads Scenario and its model) and is never included by it. Exact integer bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../architecture.hpp"
#include "../estimator.hpp"
#include "../gpus.hpp"
#include "../result.hpp"

namespace llm_memory {

// Which column of the per-device table a term adds to.
enum class EngineTermKind : std::uint8_t { weights, kv_cache, compute, other };

// One allocation on one device, with how it is computed.
struct EngineTerm {
    std::string key;        // "model_buffer", "kv_buffer", "compute_buffer", "output_buffer", "cuda_context", ...
    std::string label;      // "Model buffer", as the engine's log names it where it does
    std::string steps;      // the worked arithmetic: "80 layers x 483,729,408 bytes = ..."
    std::uint64_t bytes = 0;
    EngineTermKind kind = EngineTermKind::other;
};

// One device's allocations and, for a GPU of known capacity, its verdict.
struct EngineDevice {
    std::string device;                 // "gpu0", "gpu1", ..., "host"
    std::string label;                  // "GPU 0 (NVIDIA GeForce RTX 4090)", "Host RAM"
    bool is_gpu = false;
    std::vector<EngineTerm> terms;
    std::uint64_t weights_bytes = 0;
    std::uint64_t kv_cache_bytes = 0;
    std::uint64_t compute_bytes = 0;
    std::uint64_t other_bytes = 0;
    std::uint64_t total_bytes = 0;      // the four above
    std::uint64_t reserved_bytes = 0;   // what the engine takes or keeps free under its defaults (>= total)
    std::uint64_t capacity_bytes = 0;   // 0: unknown (the host, or no GPU chosen)
    FitVerdict verdict = FitVerdict::fits;  // total against capacity (meaningful when capacity_bytes > 0)
    std::uint64_t margin_bytes = 0;     // capacity - total when it fits, else total - capacity
    // vLLM, per GPU
    bool has_pool = false;
    std::uint64_t kv_pool_bytes = 0;     // total x utilization - weights - activation peak - non-torch
    std::uint64_t kv_blocks = 0;         // floor(pool / (block_size x KV bytes per token on this GPU))
    std::uint64_t kv_capacity_tokens = 0;  // blocks x block_size
    Decimal max_concurrency{};           // capacity / max_model_len, as vLLM logs it ("4.84x")
};

// The result of one engine on one scenario.
struct EngineEstimate {
    EngineKind kind = EngineKind::none;
    std::string name;                   // "llama.cpp", "Ollama", "vLLM", "transformers"
    std::string version;                // the release whose defaults and code this follows
    std::vector<EngineDevice> devices;  // GPUs in order, then the host
    std::uint64_t needed_bytes = 0;     // every device's total
    std::uint64_t reserved_bytes = 0;   // every device's reserved
    std::vector<std::string> settings;  // the resolved settings, one line each: "n_ctx 8192 (padded to 256)"
    std::vector<std::string> notes;     // what the model assumes or leaves out
    std::string command;                // the command line that realises this run
    bool gpu_known = false;             // a GPU (or capacity) was chosen: the verdict below means something
    bool runs = true;                   // every GPU fits and the engine starts
    std::string verdict;                // "Runs on 1 x NVIDIA GeForce RTX 4090 with llama.cpp: ..." (always set)
    FitVerdict run_verdict = FitVerdict::fits;  // the sentence's verdict as data: does_not_fit unless runs, tight
                                                // when the fullest GPU or the host RAM is tight
    std::string failure;                // the engine's own start-up failure in its words, or ""
    // The answer in the engine's flags (fit): llama.cpp's context and offloaded layers, vLLM's max_model_len.
    std::uint64_t context_tokens = 0;   // n_ctx / max_model_len used
    std::uint64_t gpu_layers = 0;       // llama.cpp: -ngl value used (layers + 1 = everything)
    std::uint64_t ngl = 0;              // llama.cpp: -ngl as the engine takes it: gpu_layers plus the MTP layers
                                        // --mtp keeps (llama.cpp counts them as blocks), as the command prints it
    std::uint64_t fit_margin_bytes = 0; // llama.cpp: what its --fit keeps free on each GPU (--fit-target; Ollama's)
    std::uint64_t layer_count = 0;      // llama.cpp: decoder layers
    std::uint64_t auto_context_tokens = 0;  // vLLM: what --max-model-len auto would choose (0: no GPU known)
};

// "none", "llama.cpp", "ollama", "vllm", "transformers" (the settings key's words).
const char* engine_key(EngineKind kind);
// The engine's display name ("llama.cpp", "Ollama", "vLLM", "transformers"; "" for none).
const char* engine_name(EngineKind kind);

// Whether this build carries the engine models. True here; a face that leaves them out for its size (the
// web page: web/main_web.cpp replaces this at link time) answers false, and then the engine settings are
// refused by name, the form leaves them out and practice skips the engine questions.
bool engines_in_build();
// The sentence such a build shows where the engines would be.
const char* engines_left_out_note();

// Tokens the drafter proposes a step: --draft-max, else the engine's default (llama.cpp's --spec-draft-n-max 3;
// vLLM's num_speculative_tokens: the MTP layers under --mtp, as speculative.py's n_predict, and 5 printed for a
// draft model); 0 without a drafter under vLLM.
std::uint64_t draft_tokens(const Scenario& scenario);

// The engine's estimate for the scenario. Errors (with their setting key): no engine chosen, no model
// architecture (an engine needs --model, --config or --gguf), a cache type or setting the engine refuses
// (llama.cpp: a quantized V cache without flash attention; vLLM: tp not dividing the heads).
Expected<EngineEstimate> engine_estimate(const Scenario& scenario);

// The JSON object: {"name", "version", "devices": [{device, weights_bytes, kv_cache_bytes, compute_bytes,
// other_bytes, total_bytes, reserved_bytes, capacity_bytes, fits, verdict, terms [{key, label, bytes,
// steps}] (+ vLLM: kv_pool_bytes, kv_blocks, kv_capacity_tokens, max_concurrency)}], needed_bytes,
// reserved_bytes, runs, verdict, failure, command, context_tokens, gpu_layers, ngl, layers, settings, notes}.
std::string engine_json(const EngineEstimate& estimate);

// Plain-text report lines: the verdict, the settings, a per-device table with each term and its steps,
// needed and reserved, the command line. `units`: 0 GB, 1 GiB, 2 both.
std::string engine_report(const EngineEstimate& estimate, int units);

// The engine's own flags for the answer (fit): llama.cpp "-c 8192 -ngl 43" (what --fit settles on);
// Ollama "num_ctx 4096, num_gpu 43"; vLLM "--max-model-len 43616" (what --max-model-len auto chooses);
// transformers has no such flags: "".
std::string engine_fit_flags(const EngineEstimate& estimate);

// The training verdict as its own sentence ("Trains on ...: ..." / "Training peak ... does not fit"), or
// why this model cannot be trained as given (a GGUF or other inference-only format: use QLoRA on the
// original weights). "" without a GPU and without a reason to refuse.
std::string training_verdict_sentence(const Scenario& scenario, const Estimate& estimate);

// True when the scenario's weights come from an inference-only format (a GGUF file or a GGUF dtype).
bool inference_only_format(const Scenario& scenario);

// Per engine (core/engines/<engine>.cpp).
Expected<EngineEstimate> llama_cpp_estimate(const Scenario& scenario);
Expected<EngineEstimate> vllm_estimate(const Scenario& scenario);
Expected<EngineEstimate> transformers_estimate(const Scenario& scenario);

// How vLLM lays out the KV cache of a model with more than one kind of layer on one rank: its hybrid KV-cache
// manager (vllm/v1/core/kv_cache_utils.py get_kv_cache_groups, unify_kv_cache_spec_page_size,
// _get_kv_cache_groups_uniform_page_size, get_num_blocks, _report_kv_cache_config,
// get_max_concurrency_for_kv_cache_config; vllm/v1/kv_cache_interface.py max_memory_usage_bytes). Every layer of
// every kind is paged at one page size:
//  - recurrent layers (vllm/model_executor/models/config.py HybridAttentionMambaModelConfig): one page holds a
//    layer's whole state, so the attention block is raised to 16 x ceil(state / (16 x attention bytes per token))
//    tokens and the state padded to that page;
//  - sliding-window and full-attention layers of different widths (Gemma 4): the smaller page's block is
//    multiplied until the pages are equal.
// The layers are grouped by kind into groups of one size (the smallest kind's count, or the largest's when it is
// under 1.5 times that); every block spans one layer of each group. A request holds ceil(L / block) blocks in each
// full-attention group, ceil(min(window - 1 + max_num_batched_tokens, L) / block) + 1 in each sliding group (the
// window it admits against during chunked prefill), and, without prefix caching, one in each recurrent group.
struct VllmHybridLayout {
    std::uint64_t block_size = 0;        // full-attention tokens per block
    std::uint64_t sliding_block = 0;     // sliding-window tokens per block (0: no sliding group)
    std::uint64_t sliding_window = 0;    // the sliding layers' window
    std::uint64_t batched_tokens = 0;    // max_num_batched_tokens: a sliding group admits window - 1 + this
    std::uint64_t page_bytes = 0;        // one block of one layer, the same in every group
    std::uint64_t state_bytes = 0;       // one recurrent layer's state of one sequence, before padding
    std::uint64_t group_size = 0;        // layers per group: the tensors one block spans
    std::uint64_t attention_groups = 0;  // groups of full-attention layers
    std::uint64_t sliding_groups = 0;    // groups of sliding-window layers
    std::uint64_t recurrent_groups = 0;  // groups of recurrent layers
    std::uint64_t spec_blocks = 0;       // speculative tokens: a recurrent group holds 1 + this many blocks a request
    std::uint64_t groups() const { return attention_groups + sliding_groups + recurrent_groups; }
    // Blocks one sliding group holds for a request of `max_len` tokens.
    std::uint64_t sliding_blocks(std::uint64_t max_len) const;
    // Blocks one request of `max_len` tokens holds.
    std::uint64_t blocks_per_request(std::uint64_t max_len) const;
    // The "GPU KV cache size" vLLM 0.19 logs for `blocks` blocks: blocks / groups x the smallest group block
    // (a recurrent group's block is max_model_len).
    std::uint64_t logged_tokens(std::uint64_t blocks, std::uint64_t max_len) const;
    // The longest max_model_len, up to `max_len`, whose one request fits in `blocks` blocks (0: not even one token),
    // found as vLLM's _estimate_max_model_len_from_groups does, by bisection.
    std::uint64_t longest_request(std::uint64_t blocks, std::uint64_t max_len) const;
};
// Attention and recurrent layers. `user_block`: --block-size (0: vLLM's choice); a block smaller than the state
// needs is raised, as vLLM does.
VllmHybridLayout vllm_hybrid_layout(std::uint64_t attention_layers, std::uint64_t attention_token_bytes, std::uint64_t recurrent_layers,
                                    std::uint64_t state_bytes, std::uint64_t user_block);
// Full-attention and sliding-window layers (Gemma 2, 3 and 4, gpt-oss), each kind with its KV bytes per token.
// Errors when one page is not a whole multiple of the other (vLLM's NotImplementedError).
Expected<VllmHybridLayout> vllm_sliding_layout(std::uint64_t full_layers, std::uint64_t full_token_bytes, std::uint64_t sliding_layers,
                                               std::uint64_t sliding_token_bytes, std::uint64_t window, std::uint64_t batched_tokens,
                                               std::uint64_t user_block);

// One recurrent layer's state of one sequence on one tensor-parallel rank, in bytes, as vLLM sizes it
// (MambaStateShapeCalculator, vllm/model_executor/layers/mamba/mamba_utils.py): the conv window
// (conv_kernel - 1) x conv channels / tp in the model's dtype (`model_bytes`), and the SSM state
// d_inner x d_state / tp in mamba_ssm_cache_dtype (the config's, else the model's). Mamba-2 replicates a single
// B/C group over the ranks (extra_groups_for_head_shards). Under speculative decoding the conv window keeps
// `num_spec` more positions (mamba_utils.py: conv_kernel - 1 + num_spec).
std::uint64_t vllm_recurrent_state_bytes(const RecurrentShape& shape, std::uint64_t tp, std::uint64_t model_bytes, std::uint64_t num_spec = 0);

// fit --minimize n-cpu-moe: the fewest layers whose routed experts llama.cpp keeps in host RAM
// (--n-cpu-moe N, the first N layers) so that every GPU fits, with -ngl as given (auto: every layer).
struct CpuMoeAnswer {
    bool found = false;            // some N fits (N = 0: every expert fits on the GPU)
    std::uint64_t n_cpu_moe = 0;   // the answer (or the layer count when even --cpu-moe does not fit)
    std::uint64_t expert_bytes = 0;  // routed-expert bytes then in host RAM
    EngineEstimate estimate;       // the run at that N
    std::string sentence;          // the answer in words, with the bandwidth note
};
// Errors (keyed): no llama.cpp engine, no MoE model, no GPU capacity, the engine's own errors.
Expected<CpuMoeAnswer> llama_cpp_fewest_cpu_moe(const Scenario& scenario);

// True when a vLLM GPU's logged token capacity is not its concurrency x `context` (beyond the 2-decimal rounding of
// the concurrency, context / 200 tokens): a model paged in
// groups, whose "GPU KV cache size" in vLLM 0.19 is blocks / groups x block size.
bool vllm_tokens_are_logged_only(const EngineDevice& gpu, std::uint64_t context);

// Shared by the engine files: sums a device's terms into its columns and sets its verdict.
void finish_device(EngineDevice& device);
// Sets a device's verdict and margin for `needed_bytes` of its memory against `capacity_bytes`.
void judge_device(EngineDevice& device, std::uint64_t needed_bytes, std::uint64_t capacity_bytes);
// Appends the host's device ("host", "Host RAM") with no terms, finished.
void add_host_device(EngineEstimate& estimate);
// Sums the devices into needed/reserved, sets runs and the verdict sentence.
void finish_estimate(EngineEstimate& estimate, const Scenario& scenario);
// The byte figure as reports show it: "24.21 GiB (26 GB)".
std::string engine_bytes_text(std::uint64_t bytes);

}  // namespace llm_memory
