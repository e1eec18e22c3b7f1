// The inference engine a scenario runs in and that engine's own settings, as plain values (no figures).
// The engine models in core/engines/ read them; the estimator carries them in Scenario and never reads
// them, beyond refusing one that the chosen engine does not read (settings.hpp engine_setting_problem). Zero / empty / `automatic` means "the engine's default", so a scenario without an engine is the
// seed's and every default is stated once, in the engine's file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "quantity.hpp"

namespace llm_memory {

// Which engine runs the model. none: the seed's inference model (weights x overhead), unchanged.
enum class EngineKind : std::uint8_t { none, llama_cpp, ollama, vllm, transformers };

// A three-way switch whose third state is the engine's default (llama.cpp -fa auto).
enum class Switch : std::uint8_t { automatic, on, off };

// llama.cpp -sm: layer (whole layers per GPU, the default), row (each matrix split by rows), none (one GPU).
enum class SplitMode : std::uint8_t { layer, row, none };

struct ProjectorFile;  // vision.hpp
struct FileModel;      // model_file.hpp

struct EngineSettings {
    EngineKind kind = EngineKind::none;
    // llama.cpp (and Ollama)
    std::uint64_t ubatch_tokens = 0;   // -ub; 0 = 512
    std::uint64_t nbatch_tokens = 0;   // -b; 0 = 2048 (Ollama: 512)
    std::uint64_t n_outputs_max = 0;   // logits rows the graph reserves; 0 = llama-server's -np x (1 + draft tokens)
    bool outputs_all = false;          // n_outputs_max = n_batch: libllama's default, and builds before May 2026
    bool ngl_auto = true;              // -ngl unset: llama.cpp's --fit chooses (all when everything fits)
    bool ngl_all = false;              // -ngl all (or any N above the layer count)
    std::uint64_t ngl_layers = 0;      // -ngl N (not auto, not all): the output layer, then the last N - 1 layers
    SplitMode split_mode = SplitMode::layer;
    Switch flash_attn = Switch::automatic;
    std::string v_dtype;               // -ctv; "" = follows kv-dtype
    std::uint64_t parallel = 0;        // -np; 0 = the engine's default (llama-server: 4 slots, unified; Ollama: 1)
    Switch kv_unified = Switch::automatic;  // --kv-unified; automatic = on exactly when -np is left to llama-server
    bool swa_full = false;             // --swa-full
    bool mmap = true;                  // --no-mmap sets false
    std::uint64_t n_cpu_moe = 0;       // --n-cpu-moe N: the routed experts of the first N layers stay in host RAM
    bool cpu_moe_all = false;          // --cpu-moe: every layer's routed experts stay in host RAM
    std::string override_tensor;       // -ot: "PATTERN=CPU[,PATTERN=CPU...]", patterns as llama.cpp's std::regex_search
    std::string draft_model;           // -md: a built-in model's key (or the name of draft_file), the drafter; "" = none
    std::shared_ptr<const FileModel> draft_file;  // --draft-model FILE read (a GGUF): the drafter is that file; null: a built-in model
    std::string draft_dtype;           // the drafter's weight format; "" = the target's
    std::string draft_kv_dtype;        // -ctkd (and -ctvd): the drafter's cache type; "" = f16
    std::uint64_t draft_max = 0;       // --spec-draft-n-max: tokens the drafter proposes a step; 0 = 3
    bool mtp = false;                  // --spec-type draft-mtp: the model's own MTP layers draft (Qwen3-Next, Qwen3.5)
    bool mmproj = false;               // --mmproj FILE: the model's vision projector is loaded (an f16 mmproj file)
    bool mmproj_offload = true;        // --no-mmproj-offload sets false: the projector stays in host RAM
    std::shared_ptr<const ProjectorFile> mmproj_file;  // --mmproj FILE read (core/mmproj.cpp); null: priced from the model's tower
    std::uint64_t image_min_tokens = 0;  // --image-min-tokens: the dynamic-resolution towers' fewest tokens an image; 0 = the tower's
    std::uint64_t image_max_tokens = 0;  // --image-max-tokens: their most; 0 = the tower's
    bool fit_target_set = false;       // --fit-target given (Ollama: LLAMA_ARG_FIT_TARGET in its environment)
    std::uint64_t fit_target_mib = 0;  // --fit-target: MiB --fit keeps free on every GPU (default 1024)
    // Every engine
    std::uint64_t ram_bytes = 0;       // --ram: system memory for the host's verdict; 0 = not judged
    // vLLM
    Decimal gpu_util{};                // --gpu-memory-utilization; 0 = 0.9
    std::uint64_t max_num_seqs = 0;    // 0 = 256 (1024 on a >= 70 GiB GPU that is not an A100)
    std::uint64_t max_batched_tokens = 0;  // 0 = 2048 (8192 on a >= 70 GiB GPU that is not an A100)
    std::uint64_t block_size = 0;      // 0 = 16
    bool enforce_eager = false;        // --enforce-eager: no CUDA graphs
    bool hybrid_kv_off = false;        // --disable-hybrid-kv-cache-manager: sliding-window layers kept at full length
    std::uint64_t data_parallel = 0;   // -dp: engine replicas of tp x pp GPUs each; 0 = 1
    bool expert_parallel = false;      // --enable-expert-parallel: whole experts spread over tp x dp GPUs
};

}  // namespace llm_memory
