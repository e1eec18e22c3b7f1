// The GPU catalogue and ZeRO arithmetic. Capacities: vendor nominal memory read as binary units
// (memory chips come in powers of two; nvidia-smi shows the A100 80GB as 81920 MiB), except where a
// note says otherwise. Integers only.
#include "gpus.hpp"

#include "catalogue.hpp"
#include "quantity.hpp"

namespace llm_memory {
namespace {


constexpr std::uint64_t kGiB = 1ULL << 30;

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

// An Apple entry: `ram_gib` of unified memory (Apple's GB is GiB), of which the GPU may use its working set.
Gpu apple(std::uint64_t ram_gib, const char* label) {
    const std::uint64_t ram = ram_gib * kGiB;
    const std::uint64_t working_set = apple_gpu_working_set_bytes(ram);
    const std::string share = ram_gib <= 36 ? "2/3" : "3/4";
    Gpu gpu{"apple-" + std::to_string(ram_gib) + "gb", label, std::to_string(ram_gib) + " GB unified", working_set,
            "unified memory shared with the system: the GPU may use " + share + " of the " + std::to_string(ram_gib) +
                " GiB (" + format_gib(working_set) + ", Metal's recommendedMaxWorkingSetSize on macOS 13-14 as llama.cpp "
                "logs it); sudo sysctl iogpu.wired_limit_mb raises it: then give --gpu-memory",
            ram};
    return gpu;
}

}  // namespace

std::uint64_t apple_gpu_working_set_bytes(std::uint64_t ram_bytes) {
    // The share, rounded up to a whole 16 KiB page (Apple silicon's page size): that reproduces the logged
    // 10922.67 and 21845.34 MiB, which plain 2/3 (10922.666.., 21845.333..) would print as .67 and .33.
    const u128 ram = ram_bytes;
    const u128 share = ram_bytes <= 36 * kGiB ? (ram * 2 + 2) / 3 : (ram * 3 + 3) / 4;
    constexpr u128 kPage = 16 * 1024;
    return static_cast<std::uint64_t>((share + kPage - 1) / kPage * kPage);
}

const std::vector<Gpu>& gpu_catalogue() {
    static const std::string kBinary = "vendor GB read as GiB (memory chips are binary-sized)";
    static const std::vector<Gpu> kGpus = {
        // Consumer.
        {"rtx-3060", "NVIDIA GeForce RTX 3060 12GB", "12 GB GDDR6", 12 * kGiB, kBinary},
        {"rtx-3090", "NVIDIA GeForce RTX 3090", "24 GB GDDR6X", 24 * kGiB, kBinary + "; nvidia-smi: 24576 MiB"},
        {"rtx-4060-ti-16gb", "NVIDIA GeForce RTX 4060 Ti 16GB", "16 GB GDDR6", 16 * kGiB, kBinary},
        {"rtx-4070", "NVIDIA GeForce RTX 4070", "12 GB GDDR6X", 12 * kGiB, kBinary},
        {"rtx-4080", "NVIDIA GeForce RTX 4080", "16 GB GDDR6X", 16 * kGiB, kBinary},
        {"rtx-4090", "NVIDIA GeForce RTX 4090", "24 GB GDDR6X", 24 * kGiB, kBinary + "; nvidia-smi: 24564 MiB"},
        {"rtx-5080", "NVIDIA GeForce RTX 5080", "16 GB GDDR7", 16 * kGiB, kBinary},
        {"rtx-5090", "NVIDIA GeForce RTX 5090", "32 GB GDDR7", 32 * kGiB, kBinary},
        // Workstation.
        {"rtx-a6000", "NVIDIA RTX A6000", "48 GB GDDR6", 48 * kGiB, kBinary},
        {"l40s", "NVIDIA L40S", "48 GB GDDR6", 48 * kGiB, kBinary},
        // Data centre.
        {"t4", "NVIDIA T4", "16 GB GDDR6", 16 * kGiB, kBinary + "; with ECC on, about 15 GiB is usable"},
        {"l4", "NVIDIA L4", "24 GB GDDR6", 24 * kGiB, kBinary},
        {"v100-16gb", "NVIDIA V100 16GB", "16 GB HBM2", 16 * kGiB, kBinary},
        {"v100-32gb", "NVIDIA V100 32GB", "32 GB HBM2", 32 * kGiB, kBinary},
        {"a100-40gb", "NVIDIA A100 40GB", "40 GB HBM2", 40 * kGiB, kBinary + "; nvidia-smi: 40960 MiB"},
        {"a100-80gb", "NVIDIA A100 80GB", "80 GB HBM2e", 80 * kGiB, kBinary + "; nvidia-smi: 81920 MiB"},
        {"h100-80gb", "NVIDIA H100 80GB", "80 GB HBM3", 80 * kGiB, kBinary},
        {"h200", "NVIDIA H200", "141 GB HBM3e", 141 * kGiB, kBinary},
        {"mi300x", "AMD Instinct MI300X", "192 GB HBM3", 192 * kGiB, kBinary},
        // Apple unified memory: the GPU may use its working-set limit, not the whole RAM (see
        // apple_gpu_working_set_bytes for the rule and its sources).
        apple(16, "Apple M-series, 16 GB unified"),
        apple(32, "Apple M-series, 32 GB unified"),
        apple(36, "Apple M3 Pro/Max, 36 GB unified"),
        apple(64, "Apple M-series, 64 GB unified"),
        apple(96, "Apple M-series, 96 GB unified"),
        apple(128, "Apple M-series, 128 GB unified"),
        apple(192, "Apple M2 Ultra, 192 GB unified"),
    };
    return kGpus;
}

std::string gpu_keys() { return keys_of(gpu_catalogue()); }

Expected<Gpu> find_gpu(std::string_view key) {
    // Common short names.
    static constexpr CatalogueAlias kAliases[] = {
        {"3060", "rtx-3060"}, {"4070", "rtx-4070"}, {"4080", "rtx-4080"}, {"5080", "rtx-5080"},
        {"3090", "rtx-3090"}, {"4090", "rtx-4090"}, {"5090", "rtx-5090"}, {"a100", "a100-80gb"},
        {"h100", "h100-80gb"}, {"a6000", "rtx-a6000"}};
    const std::string k = catalogue_key(key, "_ ", '-');
    if (k.empty()) return Error{"is empty (one of " + gpu_keys() + ")"};
    if (const Gpu* gpu = find_in(gpu_catalogue(), k, kAliases)) return *gpu;
    return Error{"\"" + printable_excerpt(trim(key), 40) + "\" is not a known GPU (" + gpu_keys() +
                 "; or give --gpu-memory)"};
}

const char* verdict_text(FitVerdict verdict) {
    switch (verdict) {
        case FitVerdict::fits: return "fits";
        case FitVerdict::tight: return "tight";
        case FitVerdict::does_not_fit: return "does not fit";
    }
    return "does not fit";
}

FitVerdict fit_verdict(std::uint64_t needed_bytes, std::uint64_t capacity_bytes) {
    if (needed_bytes > capacity_bytes) return FitVerdict::does_not_fit;
    const std::uint64_t margin = capacity_bytes - needed_bytes;
    // Tight: margin < 10% of capacity, compared in integers (margin x 10 < capacity).
    if (static_cast<u128>(margin) * 10 < capacity_bytes) return FitVerdict::tight;
    return FitVerdict::fits;
}

ModelStates per_gpu_states(const ModelStates& s, int stage, std::uint64_t gpu_count) {
    if (gpu_count == 0) gpu_count = 1;
    ModelStates out = s;
    if (stage >= 1) out.optimizer_bytes = ceil_div(s.optimizer_bytes, gpu_count);
    if (stage >= 2) out.gradient_bytes = ceil_div(s.gradient_bytes, gpu_count);
    if (stage >= 3) out.weight_bytes = ceil_div(s.weight_bytes, gpu_count);
    return out;
}

std::uint64_t gpus_needed(const ModelStates& s, int stage, std::uint64_t capacity_bytes) {
    if (capacity_bytes == 0) return 0;
    // The part every GPU keeps whole, and the part divided by N.
    std::uint64_t whole = s.total();
    std::uint64_t divided = 0;
    if (stage >= 1) { whole -= s.optimizer_bytes; divided += s.optimizer_bytes; }
    if (stage >= 2) { whole -= s.gradient_bytes; divided += s.gradient_bytes; }
    if (stage >= 3) { whole -= s.weight_bytes; divided += s.weight_bytes; }
    if (whole + divided <= capacity_bytes) return 1;
    if (divided == 0 || whole >= capacity_bytes) return 0;
    // Smallest N with whole + ceil-divided parts <= capacity; start from the even split and step up
    // (each part rounds up separately, so the bound can be off by a GPU or two).
    std::uint64_t n = ceil_div(divided, capacity_bytes - whole);
    if (n == 0) n = 1;
    for (; n <= kMaxGpuCount; ++n)
        if (per_gpu_states(s, stage, n).total() <= capacity_bytes) return n;
    return 0;
}

std::uint64_t gpus_needed_split(std::uint64_t needed_bytes, std::uint64_t capacity_bytes) {
    if (capacity_bytes == 0) return 0;
    if (needed_bytes == 0) return 1;
    const std::uint64_t n = ceil_div(needed_bytes, capacity_bytes);
    return n;
}

}  // namespace llm_memory
