// What fits: exact integer searches over estimate() (a settings key set to whole numbers, the weight formats,
// llama.cpp's -ngl), each probe's per-GPU figure logged so the one-way assumption is checked, and the
// sentences that say each answer with its figures.
//
// Sections: sides and keys · the search (probes, largest, smallest, the monotone check) · the questions
// (maximize, gpus, bytes, layers on GPU) · reports (JSON, text).
#include "fit.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

#include "architecture.hpp"
#include "formats.hpp"
#include "kv_cache.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

__extension__ typedef unsigned __int128 u128;

std::uint64_t minus(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

std::string plural(std::uint64_t n, const char* one, const char* many) {
    return format_count_exact(n) + " " + (n == 1 ? one : many);
}

// ---- The search ----

// One value tried: whether the setting took it, whether it estimated, and its per-GPU figure.
struct Probe {
    std::uint64_t value = 0;
    bool accepted = false;   // the setting took the value (false: beyond the setting's range)
    bool estimated = false;  // estimate() succeeded
    bool fits = false;       // need <= capacity
    std::uint64_t need = 0;
    std::uint64_t capacity = 0;
    std::string problem;     // why it was not accepted or did not estimate
};

using ProbeFn = std::function<Probe(std::uint64_t)>;

// Remembers every estimated probe so the one-way assumption can be checked after the search.
class ProbeLog {
public:
    explicit ProbeLog(ProbeFn fn) : fn_(std::move(fn)) {}
    Probe operator()(std::uint64_t value) {
        Probe p = fn_(value);
        p.value = value;
        if (p.estimated) seen_.push_back({value, p.need});
        return p;
    }
    // "" when the figure never decreases (grows = true) or never increases (grows = false) with the value.
    // Values below `from` are not compared (a first step that differs in kind: see fewest_gpus).
    std::string one_way_problem(bool grows, const std::string& what, std::uint64_t from = 0) {
        std::sort(seen_.begin(), seen_.end());
        for (std::size_t i = 1; i < seen_.size(); ++i) {
            const auto& a = seen_[i - 1];
            const auto& b = seen_[i];
            if (a.first == b.first || a.first < from) continue;
            if (grows ? b.second < a.second : b.second > a.second)
                return "the per-GPU figure does not " + std::string(grows ? "grow" : "shrink") + " steadily with " + what +
                       " (" + format_gb(a.second) + " at " + format_count_exact(a.first) + ", " + format_gb(b.second) +
                       " at " + format_count_exact(b.first) + "), so there is no single answer";
        }
        return {};
    }

private:
    ProbeFn fn_;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> seen_;
};

// The largest value >= `first` that fits, the figure growing with the value: doubling until a value does
// not fit (or is beyond the setting), then bisection. Requires probe(first) to fit. `limit_hit` says the
// search stopped at the setting's range, not at the GPU.
struct LargestResult {
    std::uint64_t value = 0;
    bool limit_hit = false;
    Probe next;  // the probe just above the answer
};
LargestResult search_largest(ProbeLog& probe, std::uint64_t first, std::uint64_t last) {
    std::uint64_t lo = first;
    std::uint64_t hi = 0;  // first value known not to fit or not accepted; 0 = none yet
    for (std::uint64_t v = first == 0 ? 1 : first * 2; hi == 0; v = v > last / 2 ? last + 1 : v * 2) {
        if (v > last) {
            hi = last + 1;
            break;
        }
        if (probe(v).fits) lo = v;
        else hi = v;
    }
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (probe(mid).fits) lo = mid;
        else hi = mid;
    }
    LargestResult r;
    r.value = lo;
    if (lo < last) r.next = probe(lo + 1);
    r.limit_hit = lo >= last || !r.next.estimated;
    return r;
}

// The smallest value >= 1 that fits, the figure shrinking as the value grows (more GPUs). 0 when no value
// within the setting's range fits.
std::uint64_t search_smallest(ProbeLog& probe) {
    if (probe(1).fits) return 1;
    std::uint64_t lo = 1;  // known not to fit
    std::uint64_t hi = 0;  // first value that fits or is beyond the range
    for (std::uint64_t v = 2; hi == 0; v *= 2) {
        const Probe p = probe(v);
        if (p.fits || !p.estimated) hi = v;
        else lo = v;
    }
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        const Probe p = probe(mid);
        if (p.fits || !p.estimated) hi = mid;
        else lo = mid;
    }
    return probe(hi).fits ? hi : 0;
}

// Probes a settings key: the scenario with key = value x step, estimated, its `side` figure against the GPU
// (step: the GPU count moves in whole tensor x pipeline-parallel groups).
ProbeFn setting_probe(const Scenario& base, std::string key, FitSide side, std::uint64_t step = 1) {
    return [base, key = std::move(key), side, step](std::uint64_t value) {
        Probe p;
        Scenario candidate = base;
        const u128 scaled = static_cast<u128>(value) * step;
        if (scaled > UINT64_MAX) {
            p.problem = "is too large";
            return p;
        }
        const Expected<bool> applied = apply_setting(candidate, key, std::to_string(static_cast<std::uint64_t>(scaled)));
        if (!applied) {
            p.problem = applied.failure().problem;
            return p;
        }
        p.accepted = true;
        const Expected<Estimate> e = estimate(candidate);
        if (!e) {  // the problem without its key when it is about the key searched (errors are keyed by it)
            p.problem = e.failure().key == key ? e.failure().problem : e.error();
            return p;
        }
        p.estimated = true;
        p.need = fit_need_bytes(*e, side);
        p.capacity = e->gpu.capacity_bytes;
        p.fits = p.need <= p.capacity;
        return p;
    };
}

// The scenario with `key` set to `value`, and its estimate (both known to work from the search).
Status settle(FitAnswer& answer, const Scenario& base, const std::string& key, const std::string& value) {
    answer.scenario = base;
    if (!key.empty()) {
        const Expected<bool> applied = apply_setting(answer.scenario, key, value);
        if (!applied) return applied.failure();
    }
    const Expected<Estimate> e = estimate(answer.scenario);
    if (!e) return e.failure();
    answer.estimate = *e;
    answer.need_bytes = fit_need_bytes(*e, answer.side);
    answer.capacity_bytes = e->gpu.capacity_bytes;
    return std::nullopt;
}

// ---- Sentences ----

// "1 x NVIDIA GeForce RTX 4090"
std::string gpu_phrase(const Scenario& s, const Estimate& e) { return std::to_string(e.gpu.gpu_count) + " x " + gpu_name(s); }

// "the inference total (detailed)" / "training model states": what the side's figure is.
std::string side_figure(const Estimate& e, FitSide side) {
    if (side == FitSide::training) return e.gpu.training_uses_peak ? "the training peak" : "training model states";
    const MemoryTerm* total = find_total(e, chosen_inference_total(e));
    return "the " + mid_sentence_label(total != nullptr ? total->label : std::string("inference total"));
}

std::string per_gpu_of(std::uint64_t need, std::uint64_t capacity) {
    return format_gb(need) + " per GPU of " + format_gb(capacity);
}

const FitMaximizeKey* find_maximize_key(std::string_view key) {
    for (const FitMaximizeKey& row : fit_maximize_keys())
        if (key == row.key) return &row;
    return nullptr;
}

// ---- The questions ----

// The scenario as the question needs it: the row's mode switched on (when this build has that setting).
Scenario with_mode(const Scenario& s, const char* mode_key, const char* mode_value) {
    Scenario out = s;
    if (find_setting(mode_key) != nullptr) (void)apply_setting(out, mode_key, mode_value);
    return out;
}

Expected<FitReport> maximize(const Scenario& s, const FitMaximizeKey& row) {
    const std::string key = row.key;
    if (find_setting(key) == nullptr)
        return Error{key, "this build has no " + key + " setting (the detailed training model adds it)"};
    if (key == "batch" && s.context_tokens == 0)
        return Error{key, "needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context"};
    const Scenario base = with_mode(s, row.mode_key, row.mode_value);
    ProbeLog probe(setting_probe(base, key, row.side));
    const Probe first = probe(1);
    if (!first.accepted) return Error{key, first.problem};
    if (!first.estimated) return Error{key, first.problem};
    if (!first.fits) {
        const Expected<Estimate> e = estimate(base);
        const std::string weights = e ? " (the weights alone are " + format_gb(e->weight_bytes) + ")" : std::string();
        return Error{key, "even 1 " + std::string(row.unit_one) + " needs " + format_gb(first.need) +
                              " per GPU, more than the " + format_gb(first.capacity) + " of each GPU" + weights};
    }
    const LargestResult largest = search_largest(probe, 1, UINT64_MAX / 4);
    if (std::string bad = probe.one_way_problem(true, key); !bad.empty()) return Error{key, bad};
    FitReport report;
    report.question = {FitQuestionKind::maximize, key};
    FitAnswer a;
    a.side = row.side;
    a.found = true;
    a.value = largest.value;
    a.at_limit = largest.limit_hit;
    a.next_need_bytes = largest.next.estimated ? largest.next.need : 0;
    if (Status bad = settle(a, base, key, std::to_string(a.value))) return *bad;
    const std::string value_text = plural(a.value, row.unit_one, row.unit);
    a.headline = value_text + (a.at_limit ? " (the setting's limit)" : "");
    const std::string figure = side_figure(a.estimate, a.side);
    if (a.at_limit) {
        a.sentence = "Fits up to the largest " + key + " the setting accepts, " + value_text + ", on " +
                     gpu_phrase(a.scenario, a.estimate) + ": " + figure + " is " + per_gpu_of(a.need_bytes, a.capacity_bytes) + ".";
    } else {
        a.sentence = "Largest " + key + " that fits: " + value_text + " on " + gpu_phrase(a.scenario, a.estimate) + ": " +
                     figure + " is " + per_gpu_of(a.need_bytes, a.capacity_bytes) + "; " +
                     plural(a.value + 1, row.unit_one, row.unit) + " would need " + format_gb(a.next_need_bytes) + ".";
    }
    if (key == "context" && s.model && s.model->architecture.max_position_embeddings > 0 &&
        a.value > s.model->architecture.max_position_embeddings)
        a.sentence += " The model was trained for " + plural(s.model->architecture.max_position_embeddings, "token", "tokens") +
                      "; beyond that its output may degrade.";
    report.answers.push_back(std::move(a));
    return report;
}

// The fewest GPUs for one side at the scenario's ZeRO stage (training) or split evenly (inference).
Expected<FitAnswer> fewest_gpus(const Scenario& s, FitSide side) {
    const std::uint64_t step = std::max<std::uint64_t>(1, s.tp * s.pp);  // --gpus is a multiple of tp x pp
    ProbeLog probe(setting_probe(s, "gpus", side, step));
    const std::uint64_t groups = search_smallest(probe);
    const std::uint64_t n = groups * step;
    // From one GPU to two the training peak may grow (NCCL's memory comes with a second GPU: the framework
    // overhead of core/training.hpp); from two on it only shrinks. So one GPU is asked on its own.
    if (std::string bad = probe.one_way_problem(false, "the number of GPUs", 2); !bad.empty()) return Error{"gpus", bad};
    FitAnswer a;
    a.side = side;
    const char* side_name = side == FitSide::training ? "Training" : "Inference";
    if (n == 0) {
        if (Status bad = settle(a, s, "", "")) return *bad;
        a.sentence = std::string(side_name) + ": no number of GPUs fits";
        a.headline = std::string(side_name) + ": none" +
                     (side == FitSide::training ? " at ZeRO stage " + std::to_string(s.zero_stage) : std::string());
        if (side == FitSide::training) {
            a.sentence += " at ZeRO stage " + std::to_string(s.zero_stage) + ": each GPU keeps " + format_gb(a.need_bytes) +
                          (a.estimate.gpu.training_uses_peak ? " of its training peak" : " of model states") +
                          " that the stage does not split";
            if (s.zero_stage < 3) {
                Scenario sharded = s;
                sharded.zero_stage = 3;
                ProbeLog stage3(setting_probe(sharded, "gpus", side, step));
                if (const std::uint64_t n3 = search_smallest(stage3) * step; n3 > 0)
                    a.sentence += "; at ZeRO stage 3, " + plural(n3, "GPU", "GPUs") + " would do";
            }
        } else {
            a.sentence += " (at most " + format_count_exact(kMaxGpuCount) + ")";
        }
        a.sentence += ".";
        return a;
    }
    if (Status bad = settle(a, s, "gpus", std::to_string(n))) return *bad;
    a.found = true;
    a.value = n;
    const Probe fewer = groups > 1 ? probe(groups - 1) : Probe{};
    a.next_need_bytes = fewer.estimated ? fewer.need : 0;
    a.headline = std::string(side_name) + ": " + plural(n, "GPU", "GPUs") +
                 (side == FitSide::training ? " at ZeRO stage " + std::to_string(s.zero_stage) : std::string());
    a.sentence = std::string(side_name) + ": " + plural(n, "GPU", "GPUs") +
                 (side == FitSide::training ? " at ZeRO stage " + std::to_string(s.zero_stage) : std::string(", split evenly")) +
                 ", " + side_figure(a.estimate, side) + " " + per_gpu_of(a.need_bytes, a.capacity_bytes);
    a.sentence += groups > 1 ? "; " + plural(n - step, "GPU", "GPUs") + " would need " + format_gb(a.next_need_bytes) + " each." : ".";
    return a;
}

// Formats from the most bits per weight to the fewest (ties keep the catalogue's order).
std::vector<WeightFormat> formats_by_bits() {
    std::vector<WeightFormat> formats = weight_formats();
    std::stable_sort(formats.begin(), formats.end(), [](const WeightFormat& a, const WeightFormat& b) {
        return static_cast<u128>(a.block_bytes) * b.block_weights > static_cast<u128>(b.block_bytes) * a.block_weights;
    });
    return formats;
}

std::string format_phrase(const WeightFormat& f) { return f.label + " (" + format_bits_per_weight(f) + " bits)"; }

// The named format with the most bits whose `side` figure fits.
Expected<FitAnswer> most_bits(const Scenario& s, FitSide side) {
    FitAnswer a;
    a.side = side;
    const char* side_name = side == FitSide::training ? "Training" : "Inference";
    if (side == FitSide::training && s.qlora) {
        if (Status bad = settle(a, s, "", "")) return *bad;
        a.sentence = "Training: QLoRA keeps the frozen base in 4-bit NF4, so the weight format is not a choice.";
        a.headline = "Training: NF4 (QLoRA)";
        return a;
    }
    const std::vector<WeightFormat> formats = formats_by_bits();
    std::uint64_t previous_need = 0;  // the format one step up (more bits), which did not fit
    const WeightFormat* previous = nullptr;
    std::uint64_t smallest_need = 0;
    for (const WeightFormat& f : formats) {
        Scenario candidate = s;
        if (s.qlora && f.key != "nf4" && f.key != "nf4_dq") continue;  // QLoRA's inference base is NF4 too
        if (!apply_setting(candidate, "dtype", f.key)) continue;
        const Expected<Estimate> e = estimate(candidate);
        if (!e) return Error{"bytes", e.error()};
        const std::uint64_t need = fit_need_bytes(*e, side);
        if (previous != nullptr && need > previous_need)
            return Error{"bytes", "the per-GPU figure does not shrink with fewer bits per weight (" + f.key + ")"};
        if (need <= e->gpu.capacity_bytes) {
            a.found = true;
            a.format_key = f.key;
            a.scenario = candidate;
            a.estimate = *e;
            a.need_bytes = need;
            a.capacity_bytes = e->gpu.capacity_bytes;
            a.next_need_bytes = previous != nullptr ? previous_need : 0;
            a.headline = std::string(side_name) + ": " + f.label + ", " + format_bits_per_weight(f) + " bits";
            a.sentence = std::string(side_name) + ": " + format_phrase(f) + " is the format with the most bits that fits, " +
                         side_figure(*e, side) + " " + per_gpu_of(need, a.capacity_bytes);
            a.sentence += previous != nullptr ? "; " + format_phrase(*previous) + " would need " + format_gb(previous_need) + "."
                                              : ".";
            return a;
        }
        previous = &f;
        previous_need = need;
        smallest_need = need;
    }
    // Nothing fits: the answer shows the smallest format's figures.
    if (Status bad = settle(a, s, previous != nullptr ? "dtype" : "", previous != nullptr ? previous->key : "")) return *bad;
    a.headline = std::string(side_name) + ": none";
    a.sentence = std::string(side_name) + ": no named format fits; even " +
                 (previous != nullptr ? format_phrase(*previous) : std::string("the smallest")) + " needs " +
                 per_gpu_of(smallest_need, a.capacity_bytes) + ".";
    return a;
}

// The sliding-window layers among the last `count` decoder layers: from the per-layer list when the
// architecture has one, else in proportion to the shape's count (every layer or none, in practice).
std::uint64_t sliding_in_last(const Architecture& arch, const KvCacheShape& shape, std::uint64_t count) {
    const std::uint64_t layers = arch.num_hidden_layers;
    if (arch.sliding_layers.size() == layers) {
        std::uint64_t sliding = 0;
        for (std::uint64_t i = layers - count; i < layers; ++i)
            if (arch.sliding_layers[i]) ++sliding;
        return std::min(sliding, shape.sliding_layers);
    }
    if (shape.layers == 0) return 0;
    return static_cast<std::uint64_t>(static_cast<u128>(shape.sliding_layers) * count / shape.layers);
}

// Where -ngl `ngl` puts everything (see OffloadSplit), for `gpus` equal GPUs.
struct OffloadModel {
    const Architecture* arch = nullptr;
    KvCacheShape shape;
    WeightFormat kv_format;
    std::uint64_t tokens = 0, batch = 1, gpus = 1;
    std::uint64_t weight_bytes = 0, param_count = 0, embedding_count = 0, head_count = 0;
    std::uint64_t kv_total = 0, compute = 0;

    std::uint64_t share(u128 count, u128 per = 1) const {  // weight bytes of count/per parameters, rounded
        const u128 denominator = static_cast<u128>(param_count) * per;
        return static_cast<std::uint64_t>((static_cast<u128>(weight_bytes) * count + denominator / 2) / denominator);
    }
    std::uint64_t layer_weights(std::uint64_t n) const {  // n equal decoder layers
        const u128 decoder = param_count - embedding_count - head_count;
        return share(decoder * n, arch->num_hidden_layers);
    }
    Expected<std::uint64_t> layer_kv(std::uint64_t n) const {  // the KV cache of the last n layers
        if (n == 0 || tokens == 0) return std::uint64_t{0};
        KvCacheShape last = shape;
        last.layers = n;
        last.sliding_layers = sliding_in_last(*arch, shape, n);
        return kv_cache_bytes(last, tokens, batch, kv_format);
    }
    Expected<OffloadSplit> split(std::uint64_t ngl) const {
        OffloadSplit o;
        o.layers = arch->num_hidden_layers;
        o.ngl = ngl;
        o.output_on_gpu = ngl >= 1;
        o.gpu_layers = ngl >= 1 ? ngl - 1 : 0;
        const std::uint64_t per_card = (o.gpu_layers + gpus - 1) / gpus;  // the fullest card's layers
        const std::uint64_t head = head_count > 0 ? share(head_count) : share(embedding_count);  // tied: a GPU copy
        const Expected<std::uint64_t> card_kv = layer_kv(per_card);
        const Expected<std::uint64_t> gpu_kv = layer_kv(o.gpu_layers);
        if (!card_kv) return card_kv.failure();
        if (!gpu_kv) return gpu_kv.failure();
        o.gpu_weight_bytes = (o.output_on_gpu ? head : 0) + layer_weights(per_card);
        o.gpu_kv_bytes = *card_kv;
        o.compute_bytes = o.output_on_gpu ? compute : 0;
        o.gpu_bytes = o.gpu_weight_bytes + o.gpu_kv_bytes + o.compute_bytes;
        o.ram_weight_bytes = minus(minus(weight_bytes, layer_weights(o.gpu_layers)), o.output_on_gpu && head_count > 0 ? head : 0);
        o.ram_kv_bytes = minus(kv_total, *gpu_kv);
        o.ram_bytes = o.ram_weight_bytes + o.ram_kv_bytes;
        return o;
    }
};

Expected<FitReport> layers_on_gpu(const Scenario& s) {
    if (!s.model) return Error{"layers-on-gpu", "needs a model architecture (--model, --config or --gguf) to count its layers"};
    const Architecture& arch = s.model->architecture;
    if (arch.num_hidden_layers == 0) return Error{"layers-on-gpu", "the model has no decoder layers to offload"};
    const Scenario base = with_mode(s, "inference-mode", "detailed");
    const Expected<Estimate> e = estimate(base);
    if (!e) return e.failure();
    OffloadModel m;
    m.arch = &arch;
    if (s.context_tokens > 0) {
        const Expected<KvCacheShape> shape = kv_cache_shape(arch);
        if (!shape) return Error{"context", shape.error()};
        m.shape = *shape;
    }
    const Expected<WeightFormat> kv_format = find_weight_format(s.kv_dtype);
    if (!kv_format) return Error{"kv-dtype", kv_format.error()};
    m.kv_format = *kv_format;
    m.tokens = s.context_tokens;
    m.batch = s.batch_size;
    m.gpus = s.gpu_count;
    m.weight_bytes = e->weight_bytes;
    m.param_count = s.param_count;
    m.embedding_count = std::min(s.model->counts.embedding_count, s.param_count);
    m.head_count = std::min(s.model->counts.output_head_count, s.param_count - m.embedding_count);
    m.kv_total = e->kv_cache_bytes;
    m.compute = e->inference_activation_bytes + e->runtime_reserve_bytes;
    const std::uint64_t capacity = e->gpu.capacity_bytes;
    std::string problem;
    ProbeLog probe([&](std::uint64_t ngl) {
        Probe p;
        const Expected<OffloadSplit> split = m.split(ngl);
        if (!split) {
            problem = split.error();
            return p;
        }
        p.accepted = p.estimated = true;
        p.need = split->gpu_bytes;
        p.capacity = capacity;
        p.fits = p.need <= capacity;
        return p;
    });
    const std::uint64_t all = arch.num_hidden_layers + 1;
    const LargestResult largest = search_largest(probe, 0, all);
    if (!problem.empty()) return Error{"layers-on-gpu", problem};
    if (std::string bad = probe.one_way_problem(true, "-ngl"); !bad.empty()) return Error{"layers-on-gpu", bad};
    const Expected<OffloadSplit> split = m.split(largest.value);
    if (!split) return Error{"layers-on-gpu", split.error()};
    FitReport report;
    report.question = {FitQuestionKind::layers_on_gpu, {}};
    FitAnswer a;
    a.side = FitSide::inference;
    a.found = true;
    a.value = largest.value;
    a.at_limit = largest.value == all;
    a.scenario = base;
    a.estimate = *e;
    a.need_bytes = split->gpu_bytes;
    a.capacity_bytes = capacity;
    a.next_need_bytes = largest.next.estimated && largest.value < all ? largest.next.need : 0;
    a.offload = *split;
    const OffloadSplit& o = *split;
    const std::string cards = s.gpu_count > 1 ? " on the fullest of " + std::to_string(s.gpu_count) + " GPUs" : std::string(" on the GPU");
    const std::string gpu_part = format_gb(o.gpu_bytes) + cards + " of " + format_gb(capacity) + " (weights " +
                                 format_gb(o.gpu_weight_bytes) + " + KV cache " + format_gb(o.gpu_kv_bytes) +
                                 " + compute buffer and reserve " + format_gb(o.compute_bytes) + ")";
    const std::string ram_part = format_gb(o.ram_bytes) + " stays in system RAM (weights " + format_gb(o.ram_weight_bytes) +
                                 (o.ram_kv_bytes > 0 ? " + KV cache " + format_gb(o.ram_kv_bytes) : std::string()) + ")";
    a.headline = "-ngl " + std::to_string(o.ngl) + " of " + std::to_string(all) +
                 (o.ngl == all ? ": everything" : o.ngl == 0 ? ": CPU only" : "");
    if (o.ngl == all) {
        a.sentence = "-ngl " + std::to_string(all) + " offloads all " + plural(o.layers, "layer", "layers") +
                     " and the output layer: " + gpu_part + "; " + ram_part + ": the token embeddings, which llama.cpp keeps on the CPU.";
    } else if (o.ngl == 0) {
        a.sentence = "-ngl 0: not even the output layer fits (with the compute buffer it needs " + format_gb(a.next_need_bytes) +
                     " of " + format_gb(capacity) + "); everything, " + format_gb(o.ram_bytes) + ", stays in system RAM.";
    } else {
        a.sentence = "-ngl " + std::to_string(o.ngl) + " of " + std::to_string(all) + " (the output layer and the last " +
                     plural(o.gpu_layers, "layer", "layers") + "): " + gpu_part + "; " + ram_part + ". -ngl " +
                     std::to_string(o.ngl + 1) + " would need " + format_gb(a.next_need_bytes) + ".";
    }
    report.answers.push_back(std::move(a));
    return report;
}

Expected<FitReport> two_sided(const Scenario& s, const FitQuestion& q, const char* key,
                              const std::function<Expected<FitAnswer>(const Scenario&, FitSide)>& answer) {
    FitReport report;
    report.question = q;
    std::string none;
    for (FitSide side : {FitSide::training, FitSide::inference}) {
        Expected<FitAnswer> a = answer(s, side);
        if (!a) return a.failure();
        if (!a->found) none += (none.empty() ? "" : " ") + a->sentence;
        report.answers.push_back(std::move(a.value()));
    }
    if (std::none_of(report.answers.begin(), report.answers.end(), [](const FitAnswer& a) { return a.found; }))
        return Error{key, "nothing fits. " + none};
    return report;
}

// ---- Reports ----

std::string answer_json(const FitAnswer& a) {
    std::string out = "{\"side\":\"" + std::string(fit_side_key(a.side)) + "\",\"found\":" + (a.found ? "true" : "false");
    if (!a.format_key.empty()) {
        const Expected<WeightFormat> f = find_weight_format(a.format_key);
        out += ",\"format\":\"" + json_escape(a.format_key) + "\",\"bits_per_weight\":\"" +
               (f ? format_bits_per_weight(*f) : std::string()) + "\"";
    } else if (a.found) {
        out += ",\"value\":" + std::to_string(a.value);
    }
    out += ",\"at_limit\":" + std::string(a.at_limit ? "true" : "false") + ",\"need_bytes\":" + std::to_string(a.need_bytes) +
           ",\"capacity_bytes\":" + std::to_string(a.capacity_bytes) + ",\"next_need_bytes\":" + std::to_string(a.next_need_bytes);
    if (a.offload) {
        const OffloadSplit& o = *a.offload;
        out += ",\"offload\":{\"layers\":" + std::to_string(o.layers) + ",\"ngl\":" + std::to_string(o.ngl) +
               ",\"gpu_layers\":" + std::to_string(o.gpu_layers) + ",\"output_on_gpu\":" + (o.output_on_gpu ? "true" : "false") +
               ",\"gpu_weight_bytes\":" + std::to_string(o.gpu_weight_bytes) + ",\"gpu_kv_bytes\":" + std::to_string(o.gpu_kv_bytes) +
               ",\"compute_bytes\":" + std::to_string(o.compute_bytes) + ",\"gpu_bytes\":" + std::to_string(o.gpu_bytes) +
               ",\"ram_weight_bytes\":" + std::to_string(o.ram_weight_bytes) + ",\"ram_kv_bytes\":" + std::to_string(o.ram_kv_bytes) +
               ",\"ram_bytes\":" + std::to_string(o.ram_bytes) + "}";
    }
    out += ",\"headline\":\"" + json_escape(a.headline) + "\",\"sentence\":\"" + json_escape(a.sentence) + "\",\"estimate\":" + report_json(a.scenario, a.estimate) + "}";
    return out;
}

}  // namespace

const char* fit_side_key(FitSide side) { return side == FitSide::training ? "training" : "inference"; }

std::uint64_t fit_need_bytes(const Estimate& e, FitSide side) {
    if (side == FitSide::inference) return e.gpu.inference_per_gpu_bytes;
    return e.gpu.training_uses_peak ? e.gpu.training_peak_per_gpu_bytes : e.gpu.training_per_gpu.total();
}

const std::vector<FitMaximizeKey>& fit_maximize_keys() {
    static const std::vector<FitMaximizeKey> kKeys = {
        {"context", FitSide::inference, "inference-mode", "detailed", "token", "tokens"},
        {"batch", FitSide::inference, "inference-mode", "detailed", "sequence", "sequences"},
        {"seq-len", FitSide::training, "training-mode", "detailed", "token", "tokens"},
        {"micro-batch", FitSide::training, "training-mode", "detailed", "sequence", "sequences"},
    };
    return kKeys;
}

std::string fit_maximize_key_list() {
    std::string out;
    for (const FitMaximizeKey& row : fit_maximize_keys()) out += (out.empty() ? "" : ", ") + std::string(row.key);
    return out;
}

Expected<FitQuestion> parse_fit_question(std::string_view option, std::string_view value) {
    const std::string v(trim(value));
    if (option == "maximize") {
        if (find_maximize_key(v) != nullptr) return FitQuestion{FitQuestionKind::maximize, v};
        return Error{"\"" + printable_excerpt(value, 40) + "\" is not one of " + fit_maximize_key_list()};
    }
    if (option == "minimize") {
        if (v == "gpus") return FitQuestion{FitQuestionKind::minimize_gpus, {}};
        if (v == "bytes") return FitQuestion{FitQuestionKind::minimize_bytes, {}};
        return Error{"\"" + printable_excerpt(value, 40) + "\" is not one of gpus, bytes"};
    }
    return Error{"unknown question --" + printable_excerpt(option, 40)};
}

// The JSON key and title of a question, whether or not it has an answer.
static std::pair<std::string, std::string> question_names(const FitQuestion& q) {
    switch (q.kind) {
        case FitQuestionKind::maximize: return {q.key, "Largest " + q.key};
        case FitQuestionKind::minimize_gpus: return {"gpus", "Fewest GPUs"};
        case FitQuestionKind::minimize_bytes: return {"bytes", "Most bits that fit"};
        case FitQuestionKind::layers_on_gpu: return {"layers_on_gpu", "Layers on the GPU (llama.cpp -ngl)"};
    }
    return {"", ""};
}

// A report with its question's JSON key and title.
static Expected<FitReport> named(Expected<FitReport> report) {
    if (report) std::tie(report.value().json_key, report.value().title) = question_names(report->question);
    return report;
}

Expected<FitReport> answer_fit_question(const Scenario& s, const FitQuestion& q) {
    const std::string key = q.kind == FitQuestionKind::maximize ? q.key
                            : q.kind == FitQuestionKind::minimize_gpus ? "gpus"
                            : q.kind == FitQuestionKind::minimize_bytes ? "bytes" : "layers-on-gpu";
    const Expected<Estimate> check = estimate(s);
    if (!check) return check.failure();
    if (!check->gpu.requested) return Error{key, "needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)"};
    switch (q.kind) {
        case FitQuestionKind::maximize: {
            const FitMaximizeKey* row = find_maximize_key(q.key);
            if (row == nullptr) return Error{key, "is not one of " + fit_maximize_key_list()};
            return named(maximize(s, *row));
        }
        case FitQuestionKind::minimize_gpus: return named(two_sided(s, q, "gpus", fewest_gpus));
        case FitQuestionKind::minimize_bytes: return named(two_sided(s, q, "bytes", most_bits));
        case FitQuestionKind::layers_on_gpu: return named(layers_on_gpu(s));
    }
    return Error{key, "unknown question"};
}

std::vector<FitQuestion> applicable_fit_questions(const Scenario& s) {
    std::vector<FitQuestion> out;
    if (s.model) {
        out.push_back({FitQuestionKind::maximize, "context"});
        if (s.context_tokens > 0) out.push_back({FitQuestionKind::maximize, "batch"});
    }
    for (const char* key : {"seq-len", "micro-batch"})
        if (find_setting(key) != nullptr && s.model) out.push_back({FitQuestionKind::maximize, key});
    out.push_back({FitQuestionKind::minimize_gpus, {}});
    out.push_back({FitQuestionKind::minimize_bytes, {}});
    if (s.model) out.push_back({FitQuestionKind::layers_on_gpu, {}});
    return out;
}

std::vector<FitReport> answer_applicable_fit_questions(const Scenario& s) {
    std::vector<FitReport> out;
    const Expected<Estimate> e = estimate(s);
    if (!e || !e->gpu.requested) return out;
    for (const FitQuestion& q : applicable_fit_questions(s)) {
        Expected<FitReport> r = answer_fit_question(s, q);
        if (r) {
            out.push_back(std::move(r.value()));
            continue;
        }
        FitReport failed;
        failed.question = q;
        std::tie(failed.json_key, failed.title) = question_names(q);
        failed.error = r.failure().problem;
        out.push_back(std::move(failed));
    }
    return out;
}

std::string fit_json(const std::vector<FitReport>& reports) {
    std::string out = "{";
    for (const FitReport& r : reports) {
        if (out.size() > 1) out += ",";
        out += "\"" + r.json_key + "\":";
        if (!r.error.empty()) {
            out += "{\"error\":\"" + json_escape(r.error) + "\"}";
            continue;
        }
        if (r.answers.size() == 1) {
            out += answer_json(r.answers.front());
            continue;
        }
        out += "{";
        for (std::size_t i = 0; i < r.answers.size(); ++i)
            out += std::string(i > 0 ? "," : "") + "\"" + fit_side_key(r.answers[i].side) + "\":" + answer_json(r.answers[i]);
        out += "}";
    }
    return out + "}";
}

std::vector<std::string> fit_view_lines(const std::vector<FitReport>& reports) {
    std::vector<std::string> out;
    for (const FitReport& r : reports) {
        if (!r.error.empty()) out.push_back(r.title + ": no answer: " + r.error);
        for (const FitAnswer& a : r.answers) out.push_back(r.title + ": " + a.sentence);
    }
    return out;
}

std::string fit_text(const std::vector<FitReport>& reports, UnitChoice units) {
    std::string out;
    for (const FitReport& r : reports) {
        if (!out.empty()) out += "\n";
        out += r.title + "\n";
        if (!r.error.empty()) out += "  No answer: " + r.error + "\n";
        for (const FitAnswer& a : r.answers) out += "  " + a.sentence + "\n";
        for (const FitAnswer& a : r.answers) {
            if (!a.found) continue;
            std::string table = report_table(a.scenario, a.estimate, units);
            out += "  Estimate at that " + std::string(r.answers.size() > 1 ? std::string(fit_side_key(a.side)) + " " : "") +
                   "answer:\n";
            std::size_t start = 0;
            while (start < table.size()) {
                const std::size_t end = table.find('\n', start);
                out += "    " + table.substr(start, end - start) + "\n";
                if (end == std::string::npos) break;
                start = end + 1;
            }
        }
    }
    return out;
}

}  // namespace llm_memory
