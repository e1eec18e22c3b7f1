// Accelerators and whether an estimate fits on them: a catalogue of common GPUs (memory in the vendor's
// unit, converted to bytes with a stated convention), the fits / tight / does-not-fit verdict with its
// margin, how many GPUs are needed, and ZeRO/FSDP stages 0-3 sharding the model states over N GPUs.
// Invariant: these figures cover model states only (weights, gradients, optimizer states), never
// activations, KV cache or framework buffers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "result.hpp"

namespace llm_memory {

// One accelerator. Convention: memory chips are sized in powers of two, so a vendor's "80 GB" HBM or
// "24 GB" GDDR is 80 or 24 GiB (nvidia-smi reports an A100 80GB as 81920 MiB = 80 x 2^30 bytes);
// capacity_bytes is that nominal size. The usable amount is a little less (driver, ECC, context).
struct Gpu {
    std::string key;            // --gpu value: "h100-80gb", "rtx-4090", "m2-ultra-192gb"
    std::string label;          // "NVIDIA H100 80GB"
    std::string vendor_memory;  // as the vendor writes it: "80 GB HBM3"
    std::uint64_t capacity_bytes;  // what the GPU may use: VRAM, or the working-set limit of unified memory
    std::string note;           // convention and caveats for this entry
    std::uint64_t unified_memory_bytes = 0;  // Apple unified memory: the whole RAM (0 for a discrete GPU)
};

// Apple silicon: the GPU's default working-set limit (Metal's recommendedMaxWorkingSetSize) for a Mac with
// `ram_bytes` of unified memory: 2/3 of the RAM up to 36 GiB, 3/4 above, rounded up to a 16 KiB page.
// Sources, macOS 13-14 as llama.cpp logs it (ggml_metal_init): 16 GB -> 10922.67 MiB
// (abetlen/llama-cpp-python#687), 32 GB -> 21845.34 MiB (ollama/ollama#434), 64 GB -> 49152.00 MiB
// (ggml-org/llama.cpp#1870), 96 GB -> 73728.00 MiB (ggml-org/llama.cpp#3213). `sudo sysctl
// iogpu.wired_limit_mb=N` raises it (then give --gpu-memory), and newer macOS reports more on some
// machines (107.52 GiB on a 128 GiB Mac under macOS 26, antirez/ds4#893).
std::uint64_t apple_gpu_working_set_bytes(std::uint64_t ram_bytes);

// The catalogue: consumer, workstation, data-centre, Apple unified memory.
const std::vector<Gpu>& gpu_catalogue();

// Looks a GPU up by key, ignoring case ("H100-80GB"). Error names the known keys.
Expected<Gpu> find_gpu(std::string_view key);

// A comma-separated list of the catalogue keys.
std::string gpu_keys();

// How an estimate compares with a GPU's memory.
enum class FitVerdict { fits, tight, does_not_fit };

// "fits", "tight", "does not fit".
const char* verdict_text(FitVerdict verdict);

// The verdict for `needed_bytes` on one device of `capacity_bytes`: does_not_fit when needed > capacity,
// tight when the free margin is under 10% of the capacity, fits otherwise.
FitVerdict fit_verdict(std::uint64_t needed_bytes, std::uint64_t capacity_bytes);

// ZeRO stage 0..3 (FSDP: NO_SHARD = 0, SHARD_GRAD_OP = 2, FULL_SHARD = 3).
// Model states split into weights, gradients and optimizer states (including fp32 master weights).
struct ModelStates {
    std::uint64_t weight_bytes = 0;
    std::uint64_t gradient_bytes = 0;
    std::uint64_t optimizer_bytes = 0;
    std::uint64_t total() const { return weight_bytes + gradient_bytes + optimizer_bytes; }
};

// Per-GPU model states under ZeRO `stage` over `gpu_count` GPUs (Rajbhandari et al. 2019, ZeRO, Fig. 1):
// stage 0 replicates everything; 1 divides optimizer states by N; 2 also gradients; 3 also weights.
// Each divided part is rounded up to whole bytes. Requires gpu_count >= 1 and stage <= 3.
ModelStates per_gpu_states(const ModelStates& states, int stage, std::uint64_t gpu_count);

// The fewest GPUs whose per-GPU model states under `stage` fit `capacity_bytes`, or 0 when no number
// of GPUs can (stage 0 when one GPU is too small; stages 1-2 when the unsharded part alone is too big).
// Capped at kMaxGpuCount (returns 0 beyond it).
std::uint64_t gpus_needed(const ModelStates& states, int stage, std::uint64_t capacity_bytes);

// ceil(needed / capacity): devices needed when a total is split evenly (e.g. inference weights across
// tensor- or pipeline-parallel GPUs). 0 when capacity is 0.
std::uint64_t gpus_needed_split(std::uint64_t needed_bytes, std::uint64_t capacity_bytes);

inline constexpr std::uint64_t kMaxGpuCount = 100'000;
// The largest custom memory per GPU (gpu-memory): 1 PiB.
inline constexpr std::uint64_t kMaxGpuMemoryBytes = 1ULL << 50;

}  // namespace llm_memory
