// What fits: exact integer searches over estimate() (a settings key set to whole numbers, the weight formats,
// llama.cpp's -ngl), each probe's per-GPU figure logged so the one-way assumption is checked, and the
// sentences that say each answer with its figures.
// Size (the web page links all of it): one probe type for every search instead of std::function per
// question, and each sentence one pattern filled in one pass (say) rather than a chain of string temporaries.
//
// Sections: sides and keys · the search (probes, largest, smallest, the monotone check) · the questions
// (maximize, gpus, bytes, layers on GPU) · reports (JSON, text).
#include "fit.hpp"

#include <algorithm>
#include <utility>

#include "architecture.hpp"
#include "formats.hpp"
#include "hybrid.hpp"
#include "json_writer.hpp"
#include "kv_cache.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

std::uint64_t minus(std::uint64_t a, std::uint64_t b) { return a > b ? a - b : 0; }

using Arg = SayArg;
Arg gb(std::uint64_t bytes) { return {Arg::kGb, bytes}; }           // "25.77 GB" (format_gb)
Arg count(std::uint64_t n) { return {Arg::kCount, n}; }             // "43,920" (format_count_exact)
Arg number(std::uint64_t n) { return {Arg::kNumber, n}; }           // "43920"
Arg units(std::uint64_t n, const char* one, const char* many) {     // "43,920 tokens", "1 token"
    return {Arg::kPlural, n, n == 1 ? one : many};
}

std::string num(std::uint64_t n) { return std::to_string(n); }

// An error about `key`, built in one place (each `return Error{...}` would inline its own copy).
Status keyed(const char* key, std::string problem) { return Error{key, std::move(problem)}; }

const char* side_name(FitSide side) { return side == FitSide::training ? "Training" : "Inference"; }

// ---- The search ----

// One value tried: whether the setting took it, whether it estimated, and its per-GPU figure.
struct Probe {
    bool accepted = false;   // the setting took the value (false: beyond the setting's range)
    bool estimated = false;  // estimate() succeeded
    bool fits = false;       // need <= capacity
    std::uint64_t need = 0;
    std::uint64_t capacity = 0;
    std::string problem;     // why it was not accepted or did not estimate
};

struct OffloadModel;
Expected<OffloadSplit> offload_split(const OffloadModel& m, std::uint64_t ngl);

// What a search probes, and every estimated probe remembered so the one-way assumption can be checked
// after the search. Either a settings key on a scenario (the scenario with key = value x step, estimated,
// its `side` figure against the GPU; step: the GPU count moves in whole tensor x pipeline-parallel groups)
// or llama.cpp's -ngl on an offload model (`offload` set; a split that fails leaves its message in
// `offload_problem`).
class ProbeLog {
public:
    ProbeLog(const Scenario& base, const char* key, FitSide side, std::uint64_t step = 1)
        : base_(&base), key_(key), side_(side), step_(step) {}
    ProbeLog(const OffloadModel& model, std::uint64_t capacity) : offload_(&model), capacity_(capacity) {}

    Probe operator()(std::uint64_t value) {
        Probe p = offload_ != nullptr ? probe_offload(value) : probe_setting(value);
        if (p.estimated) seen_.push_back({value, p.need});
        return p;
    }
    // "" when the figure never decreases (grows = true) or never increases (grows = false) with the value.
    // Values below `from` are not compared (a first step that differs in kind: see fewest_gpus).
    std::string one_way_problem(bool grows, const char* what, std::uint64_t from = 0) {
        for (std::size_t i = 1; i < seen_.size(); ++i)  // sorted by value (insertion sort: std::sort's code is larger)
            for (std::size_t j = i; j > 0 && seen_[j] < seen_[j - 1]; --j) std::swap(seen_[j], seen_[j - 1]);
        for (std::size_t i = 1; i < seen_.size(); ++i) {
            const auto& a = seen_[i - 1];
            const auto& b = seen_[i];
            if (a.first == b.first || a.first < from) continue;
            if (grows ? b.second < a.second : b.second > a.second)
                return say("the per-GPU figure does not % steadily with % (% at %, % at %), so there is no single answer",
                           {grows ? "grow" : "shrink", what, gb(a.second), count(a.first), gb(b.second), count(b.first)});
        }
        return {};
    }
    std::string offload_problem;

private:
    Probe probe_setting(std::uint64_t value) const {
        Probe p;
        const u128 scaled = static_cast<u128>(value) * step_;
        if (scaled > UINT64_MAX) {
            p.problem = "is too large";
            return p;
        }
        Scenario candidate = *base_;
        const Expected<bool> applied = apply_setting(candidate, key_, num(static_cast<std::uint64_t>(scaled)));
        if (!applied) {
            p.problem = applied.failure().problem;
            return p;
        }
        p.accepted = true;
        const Expected<Estimate> e = estimate(candidate);
        if (!e) {  // the problem without its key when it is about the key searched (errors are keyed by it)
            p.problem = e.failure().key == key_ ? e.failure().problem : e.error();
            return p;
        }
        p.estimated = true;
        p.need = fit_need_bytes(*e, side_);
        p.capacity = e->gpu.capacity_bytes;
        p.fits = p.need <= p.capacity;
        return p;
    }
    Probe probe_offload(std::uint64_t ngl) {
        Probe p;
        const Expected<OffloadSplit> split = offload_split(*offload_, ngl);
        if (!split) {
            offload_problem = split.error();
            return p;
        }
        p.accepted = p.estimated = true;
        p.need = split->gpu_bytes;
        p.capacity = capacity_;
        p.fits = p.need <= capacity_;
        return p;
    }

    const Scenario* base_ = nullptr;
    const char* key_ = "";
    FitSide side_ = FitSide::inference;
    std::uint64_t step_ = 1;
    const OffloadModel* offload_ = nullptr;
    std::uint64_t capacity_ = 0;
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

// The scenario with `key` set to `value` ("" = the scenario as given), and its estimate (both known to
// work from the search).
Status settle(FitAnswer& answer, const Scenario& base, std::string_view key, std::string_view value) {
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
std::string gpu_phrase(const Scenario& s, const Estimate& e) { return say("% x %", {number(e.gpu.gpu_count), gpu_name(s)}); }

// "the inference total (detailed)" / "training model states": what the side's figure is.
std::string side_figure(const Estimate& e, FitSide side) {
    if (side == FitSide::training)
        return !e.gpu.training_uses_peak ? "training model states"
               : e.gpu.training_fit_at_high ? "the training peak's likely high end"
                                            : "the training peak";
    const MemoryTerm* total = find_total(e, chosen_inference_total(e));
    return "the " + mid_sentence_label(total != nullptr ? total->label : std::string("inference total"));
}

// "<figure> is 25.77 GB per GPU of 25.77 GB" (`joiner` " is " or " "): the answer's figure against the GPU.
std::string figure_per_gpu(const FitAnswer& a, const char* joiner) {
    return say("%%% per GPU of %", {side_figure(a.estimate, a.side), joiner, gb(a.need_bytes), gb(a.capacity_bytes)});
}

// " at ZeRO stage 3" for training, "" for inference.
std::string stage_phrase(const Scenario& s, FitSide side) {
    return side == FitSide::training ? " at ZeRO stage " + std::to_string(s.zero_stage) : std::string();
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

// Each question fills the report (or, per side, the answer) it is given and returns why it has no answer;
// on an error what it filled is dropped (answer_fit_question) or cleared (answer_applicable_fit_questions).
Status maximize(const Scenario& s, const FitMaximizeKey& row, FitReport& report) {
    const char* key = row.key;
    if (find_setting(key) == nullptr)
        return keyed(key, say("this build has no % setting (the detailed training model adds it)", {key}));
    if (std::string_view(key) == "batch" && s.context_tokens == 0)
        return keyed(key, "needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context");
    const Scenario base = with_mode(s, row.mode_key, row.mode_value);
    ProbeLog probe(base, key, row.side);
    const Probe first = probe(1);
    if (!first.estimated) return keyed(key, first.problem);  // not accepted, or did not estimate
    if (!first.fits) {
        const Expected<Estimate> e = estimate(base);
        const bool high = e && row.side == FitSide::training && e->gpu.training_fit_at_high;
        return keyed(key, say("even 1 % needs % per GPU%, more than the % of each GPU%",
                              {row.unit_one, gb(first.need), high ? " at the training peak's likely high end" : "",
                               gb(first.capacity), e ? say(" (the weights alone are %)", {gb(e->weight_bytes)}) : std::string()}));
    }
    const LargestResult largest = search_largest(probe, 1, UINT64_MAX / 4);
    if (std::string bad = probe.one_way_problem(true, key); !bad.empty()) return keyed(key, std::move(bad));
    report.answers = std::vector<FitAnswer>(1);  // sized once: growing a vector of answers costs more code
    FitAnswer& a = report.answers[0];
    a.side = row.side;
    a.found = true;
    a.value = largest.value;
    a.at_limit = largest.limit_hit;
    a.next_need_bytes = largest.next.estimated ? largest.next.need : 0;
    if (Status bad = settle(a, base, key, num(a.value))) return bad;
    const Arg value_text = units(a.value, row.unit_one, row.unit);
    a.headline = say(a.at_limit ? "% (the setting's limit)" : "%", {value_text});
    a.sentence = say(a.at_limit ? "Fits up to the largest % the setting accepts, %, on %: %." : "Largest % that fits: % on %: %; % would need %.",
                     {key, value_text, gpu_phrase(a.scenario, a.estimate), figure_per_gpu(a, " is "),
                      units(a.value + 1, row.unit_one, row.unit), gb(a.next_need_bytes)});
    if (std::string_view(key) == "context" && s.model && s.model->architecture.max_position_embeddings > 0 &&
        a.value > s.model->architecture.max_position_embeddings)
        a.sentence += say(" The model was trained for %; beyond that its output may degrade.",
                          {units(s.model->architecture.max_position_embeddings, "token", "tokens")});
    return std::nullopt;
}

// The fewest GPUs for one side at the scenario's ZeRO stage (training) or split evenly (inference).
Status fewest_gpus(const Scenario& s, FitSide side, FitAnswer& a) {
    const std::uint64_t step = std::max<std::uint64_t>(1, s.training.tp * s.training.pp);  // --gpus is a multiple of tp x pp
    ProbeLog probe(s, "gpus", side, step);
    const std::uint64_t groups = search_smallest(probe);
    const std::uint64_t n = groups * step;
    // From one GPU to two the training peak may grow (NCCL's memory comes with a second GPU: the framework
    // overhead of core/training.hpp); from two on it only shrinks. So one GPU is asked on its own.
    if (std::string bad = probe.one_way_problem(false, "the number of GPUs", 2); !bad.empty()) return keyed("gpus", std::move(bad));
    const char* name = side_name(side);
    const std::string stage = stage_phrase(s, side);
    if (n == 0) {
        if (Status bad = settle(a, s, "", "")) return bad;
        a.headline = say("%: none%", {name, stage});
        if (side == FitSide::training) {
            std::string stage3;
            if (s.zero_stage < 3) {
                Scenario sharded = s;
                sharded.zero_stage = 3;
                ProbeLog at_stage3(sharded, "gpus", side, step);
                if (const std::uint64_t n3 = search_smallest(at_stage3) * step; n3 > 0)
                    stage3 = say("; at ZeRO stage 3, % would do", {units(n3, "GPU", "GPUs")});
            }
            a.sentence = say("%: no number of GPUs fits%: each GPU keeps % of % that the stage does not split%.",
                             {name, stage, gb(a.need_bytes), !a.estimate.gpu.training_uses_peak ? "model states"
                              : a.estimate.gpu.training_fit_at_high ? "its training peak's likely high end" : "its training peak",
                              stage3});
        } else {
            a.sentence = say("%: no number of GPUs fits (at most %).", {name, count(kMaxGpuCount)});
        }
        return std::nullopt;
    }
    if (Status bad = settle(a, s, "gpus", num(n))) return bad;
    a.found = true;
    a.value = n;
    const Probe fewer = groups > 1 ? probe(groups - 1) : Probe{};
    a.next_need_bytes = fewer.estimated ? fewer.need : 0;
    const Arg gpus = units(n, "GPU", "GPUs");
    a.headline = say("%: %%", {name, gpus, stage});
    a.sentence = say(groups > 1 ? "%: %%, %; % would need % each." : "%: %%, %.",
                     {name, gpus, side == FitSide::training ? std::string_view(stage) : ", split evenly", figure_per_gpu(a, " "),
                      units(n - step, "GPU", "GPUs"), gb(a.next_need_bytes)});
    return std::nullopt;
}

// a has more bits per weight than b (exact: the block ratios cross-multiplied).
bool more_bits(const WeightFormat& a, const WeightFormat& b) {
    return static_cast<u128>(a.block_bytes) * b.block_weights > static_cast<u128>(b.block_bytes) * a.block_weights;
}

}  // namespace

const WeightFormat* next_format_by_bits(const WeightFormat* previous) {
    const WeightFormat* best = nullptr;
    for (const WeightFormat& f : weight_formats()) {
        if (f.linear_only) continue;  // GPTQ and AWQ are checkpoints someone made, not a size to choose along the ladder
        const bool after = previous == nullptr || more_bits(*previous, f) || (!more_bits(f, *previous) && &f > previous);
        if (after && (best == nullptr || more_bits(f, *best))) best = &f;
    }
    return best;
}

namespace {

std::string format_phrase(const WeightFormat& f) { return say("% (% bits)", {f.label, format_bits_per_weight(f)}); }

// The named format with the most bits whose `side` figure fits.
Status most_bits(const Scenario& s, FitSide side, FitAnswer& a) {
    const char* name = side_name(side);
    if (side == FitSide::training && s.qlora) {
        if (Status bad = settle(a, s, "", "")) return bad;
        a.sentence = "Training: QLoRA keeps the frozen base in 4-bit NF4, so the weight format is not a choice.";
        a.headline = "Training: NF4 (QLoRA)";
        return std::nullopt;
    }
    std::uint64_t previous_need = 0;  // the format one step up (more bits), which did not fit
    const WeightFormat* previous = nullptr;
    for (const WeightFormat* format = next_format_by_bits(nullptr); format != nullptr; format = next_format_by_bits(format)) {
        const WeightFormat& f = *format;
        if (s.qlora && f.key != "nf4" && f.key != "nf4_dq") continue;  // QLoRA's inference base is NF4 too
        Scenario candidate = s;
        if (!apply_setting(candidate, "dtype", f.key)) continue;
        const Expected<Estimate> e = estimate(candidate);
        if (!e) return keyed("bytes", e.error());
        const std::uint64_t need = fit_need_bytes(*e, side);
        if (previous != nullptr && need > previous_need)
            return keyed("bytes", say("the per-GPU figure does not shrink with fewer bits per weight (%)", {f.key}));
        if (need <= e->gpu.capacity_bytes) {
            a.found = true;
            a.format_key = f.key;
            a.scenario = std::move(candidate);
            a.estimate = *e;
            a.need_bytes = need;
            a.capacity_bytes = e->gpu.capacity_bytes;
            a.next_need_bytes = previous != nullptr ? previous_need : 0;
            a.headline = say("%: %, % bits", {name, f.label, format_bits_per_weight(f)});
            a.sentence = say(previous != nullptr ? "%: % is the format with the most bits that fits, %; % would need %."
                                                 : "%: % is the format with the most bits that fits, %.",
                             {name, format_phrase(f), figure_per_gpu(a, " "),
                              previous != nullptr ? format_phrase(*previous) : std::string(), gb(previous_need)});
            return std::nullopt;
        }
        previous = &f;
        previous_need = need;
    }
    // Nothing fits: the answer shows the smallest format's figures.
    if (Status bad = settle(a, s, previous != nullptr ? "dtype" : "", previous != nullptr ? std::string_view(previous->key) : ""))
        return bad;
    a.headline = say("%: none", {name});
    a.sentence = say("%: no named format fits; even % needs % per GPU of %.",
                     {name, previous != nullptr ? format_phrase(*previous) : "the smallest", gb(previous_need), gb(a.capacity_bytes)});
    return std::nullopt;
}

// The sliding-window layers among the last `count` decoder layers: from the per-layer list when the
// architecture has one, else in proportion to the shape's count (every layer or none, in practice).
std::uint64_t sliding_in_last(const Architecture& arch, const KvCacheShape& shape, std::uint64_t count) {
    const std::uint64_t layers = arch.num_hidden_layers;
    if (arch.sliding_layers.size() == layers) {
        std::uint64_t sliding = 0;
        for (std::uint64_t i = layers - count; i < layers; ++i)
            if (arch.sliding_layers[static_cast<std::size_t>(i)]) ++sliding;
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
    std::uint64_t weight_bytes = 0, param_count = 0, embedding_count = 0, head_count = 0, per_layer_embedding_count = 0;
    std::uint64_t kv_total = 0, compute = 0;

    std::uint64_t share(u128 count, u128 per = 1) const {  // weight bytes of count/per parameters, rounded
        const u128 denominator = static_cast<u128>(param_count) * per;
        return static_cast<std::uint64_t>((static_cast<u128>(weight_bytes) * count + denominator / 2) / denominator);
    }
    std::uint64_t layer_weights(std::uint64_t n) const {  // n equal decoder layers
        const u128 decoder = param_count - embedding_count - head_count;
        return share(decoder * n, arch->num_hidden_layers);
    }
    // The KV cache of the last n layers; in a hybrid model only its attention layers among them keep one, and
    // its recurrent layers among them keep their fixed state (f32, llama.cpp's RS buffer) instead.
    Expected<std::uint64_t> layer_kv(std::uint64_t n) const {
        if (n == 0 || tokens == 0) return std::uint64_t{0};
        std::uint64_t attention = n;
        std::uint64_t recurrent = 0;  // Nemotron-H's MLP-only blocks are neither
        if (!arch->layer_mixers.empty()) {
            attention = 0;
            for (std::uint64_t i = arch->num_hidden_layers - n; i < arch->num_hidden_layers; ++i) {
                attention += arch->layer_is_attention(i) ? 1 : 0;
                recurrent += arch->layer_is_recurrent(i) ? 1 : 0;
            }
        }
        const RecurrentStateValues r = recurrent_state_values(*arch);
        const std::uint64_t state =
            r.layers == 0 ? 0 : recurrent_state_bytes(*arch, batch, 4, 4) / r.layers * recurrent;
        if (attention == 0) return state;
        KvCacheShape last = shape;
        last.layers = attention;
        last.sliding_layers = sliding_in_last(*arch, shape, n);
        const Expected<std::uint64_t> kv = kv_cache_bytes(last, tokens, batch, kv_format);
        if (!kv) return kv;
        return *kv + state;
    }
};

Expected<OffloadSplit> offload_split(const OffloadModel& m, std::uint64_t ngl) {
    OffloadSplit o;
    o.layers = m.arch->num_hidden_layers;
    o.ngl = ngl;
    o.output_on_gpu = ngl >= 1;
    o.gpu_layers = ngl >= 1 ? ngl - 1 : 0;
    const std::uint64_t per_card = (o.gpu_layers + m.gpus - 1) / m.gpus;  // the fullest card's layers
    const std::uint64_t head = m.head_count > 0 ? m.share(m.head_count) : m.share(m.embedding_count - m.per_layer_embedding_count);  // tied: a GPU copy
    const Expected<std::uint64_t> card_kv = m.layer_kv(per_card);
    const Expected<std::uint64_t> gpu_kv = m.layer_kv(o.gpu_layers);
    if (!card_kv) return card_kv.failure();
    if (!gpu_kv) return gpu_kv.failure();
    o.gpu_weight_bytes = (o.output_on_gpu ? head : 0) + m.layer_weights(per_card);
    o.gpu_kv_bytes = *card_kv;
    o.compute_bytes = o.output_on_gpu ? m.compute : 0;
    o.gpu_bytes = o.gpu_weight_bytes + o.gpu_kv_bytes + o.compute_bytes;
    o.ram_weight_bytes = minus(minus(m.weight_bytes, m.layer_weights(o.gpu_layers)), o.output_on_gpu && m.head_count > 0 ? head : 0);
    o.ram_kv_bytes = minus(m.kv_total, *gpu_kv);
    o.ram_bytes = o.ram_weight_bytes + o.ram_kv_bytes;
    return o;
}

Status layers_on_gpu(const Scenario& s, FitReport& report) {
    if (!s.model) return keyed("layers-on-gpu", "needs a model architecture (--model, --config or --gguf) to count its layers");
    const Architecture& arch = s.model->architecture;
    if (arch.num_hidden_layers == 0) return keyed("layers-on-gpu", "the model has no decoder layers to offload");
    const Scenario base = with_mode(s, "inference-mode", "detailed");
    const Expected<Estimate> e = estimate(base);
    if (!e) return e.failure();
    OffloadModel m;
    m.arch = &arch;
    if (s.context_tokens > 0) {
        const Expected<KvCacheShape> shape = kv_cache_shape(arch);
        if (!shape) return keyed("context", shape.error());
        m.shape = *shape;
    }
    const Expected<WeightFormat> kv_format = find_weight_format(s.kv_dtype);
    if (!kv_format) return keyed("kv-dtype", kv_format.error());
    m.kv_format = *kv_format;
    m.tokens = s.context_tokens;
    m.batch = s.batch_size;
    m.gpus = s.gpu_count;
    m.weight_bytes = e->weight_bytes;
    m.param_count = s.param_count;
    m.embedding_count = std::min(s.model->counts.embedding_count, s.param_count);
    m.head_count = std::min(s.model->counts.output_head_count, s.param_count - m.embedding_count);
    m.per_layer_embedding_count = std::min(s.model->counts.per_layer_embedding_count, m.embedding_count);
    const MemoryTerm* recurrent = find_term(*e, "recurrent_state");
    m.kv_total = e->kv_cache_bytes + (recurrent != nullptr ? recurrent->bytes : 0);
    m.compute = e->inference_activation_bytes + e->runtime_reserve_bytes;
    const std::uint64_t capacity = e->gpu.capacity_bytes;
    ProbeLog probe(m, capacity);
    const std::uint64_t all = arch.num_hidden_layers + 1;
    const LargestResult largest = search_largest(probe, 0, all);
    if (!probe.offload_problem.empty()) return keyed("layers-on-gpu", probe.offload_problem);
    if (std::string bad = probe.one_way_problem(true, "-ngl"); !bad.empty()) return keyed("layers-on-gpu", std::move(bad));
    const Expected<OffloadSplit> split = offload_split(m, largest.value);
    if (!split) return keyed("layers-on-gpu", split.error());
    report.answers = std::vector<FitAnswer>(1);
    FitAnswer& a = report.answers[0];
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
    const std::string gpu_part = say("%% of % (weights % + KV cache % + compute buffer and reserve %)",
                                     {gb(o.gpu_bytes), s.gpu_count > 1 ? say(" on the fullest of % GPUs", {number(s.gpu_count)}) : " on the GPU",
                                      gb(capacity), gb(o.gpu_weight_bytes), gb(o.gpu_kv_bytes), gb(o.compute_bytes)});
    const std::string ram_part = say("% stays in system RAM (weights %%)", {gb(o.ram_bytes), gb(o.ram_weight_bytes),
                                     o.ram_kv_bytes > 0 ? say(" + KV cache %", {gb(o.ram_kv_bytes)}) : std::string()});
    a.headline = say("-ngl % of %%", {number(o.ngl), number(all), o.ngl == all ? ": everything" : o.ngl == 0 ? ": CPU only" : ""});
    if (o.ngl == all) {
        a.sentence = say("-ngl % offloads all % and the output layer: %; %: the token embeddings, which llama.cpp keeps on the CPU.",
                         {number(all), units(o.layers, "layer", "layers"), gpu_part, ram_part});
    } else if (o.ngl == 0) {
        a.sentence = say("-ngl 0: not even the output layer fits (with the compute buffer it needs % of %); everything, %, stays in system RAM.",
                         {gb(a.next_need_bytes), gb(capacity), gb(o.ram_bytes)});
    } else {
        a.sentence = say("-ngl % of % (the output layer and the last %): %; %. -ngl % would need %.",
                         {number(o.ngl), number(all), units(o.gpu_layers, "layer", "layers"), gpu_part, ram_part, number(o.ngl + 1),
                          gb(a.next_need_bytes)});
    }
    return std::nullopt;
}

// Gpus and bytes: the training answer, then the inference answer; an error when neither side has one.
Status two_sided(const Scenario& s, FitReport& report, const char* key, Status (*answer)(const Scenario&, FitSide, FitAnswer&)) {
    std::string none;
    report.answers = std::vector<FitAnswer>(2);
    for (FitAnswer& a : report.answers) {
        a.side = &a == &report.answers[0] ? FitSide::training : FitSide::inference;
        if (Status bad = answer(s, a.side, a)) return bad;
        if (!a.found) (none += none.empty() ? "" : " ") += a.sentence;
    }
    if (std::none_of(report.answers.begin(), report.answers.end(), [](const FitAnswer& a) { return a.found; }))
        return keyed(key, "nothing fits. " + none);
    return std::nullopt;
}

// ---- Reports ----

void write_answer(JsonWriter& w, const FitAnswer& a) {
    w.begin_object().field("side", fit_side_key(a.side)).field("found", a.found);
    if (!a.format_key.empty()) {
        const Expected<WeightFormat> f = find_weight_format(a.format_key);
        w.field("format", a.format_key).field("bits_per_weight", f ? format_bits_per_weight(*f) : std::string());
    } else if (a.found) {
        w.field("value", a.value);
    }
    if (a.side == FitSide::training && a.estimate.gpu.training_uses_peak)
        w.field("confidence", a.estimate.gpu.training_fit_at_high ? "safe" : "typical")
            .field("peak_bytes", a.estimate.gpu.training_peak_per_gpu_bytes)
            .field("peak_high_bytes", a.estimate.gpu.training_peak_high_per_gpu_bytes);
    w.field("at_limit", a.at_limit).field("need_bytes", a.need_bytes).field("capacity_bytes", a.capacity_bytes);
    w.field("next_need_bytes", a.next_need_bytes);
    if (a.offload) {
        const OffloadSplit& o = *a.offload;
        w.key("offload").begin_object().field("layers", o.layers).field("ngl", o.ngl).field("gpu_layers", o.gpu_layers);
        w.field("output_on_gpu", o.output_on_gpu).field("gpu_weight_bytes", o.gpu_weight_bytes).field("gpu_kv_bytes", o.gpu_kv_bytes);
        w.field("compute_bytes", o.compute_bytes).field("gpu_bytes", o.gpu_bytes).field("ram_weight_bytes", o.ram_weight_bytes);
        w.field("ram_kv_bytes", o.ram_kv_bytes).field("ram_bytes", o.ram_bytes).end_object();
    }
    w.field("headline", a.headline).field("sentence", a.sentence).raw_field("estimate", report_json(a.scenario, a.estimate));
    w.end_object();
}

}  // namespace

const char* fit_side_key(FitSide side) { return side == FitSide::training ? "training" : "inference"; }

std::uint64_t fit_need_bytes(const Estimate& e, FitSide side) {
    if (side == FitSide::inference) return e.gpu.inference_per_gpu_bytes;
    if (!e.gpu.training_uses_peak) return e.gpu.training_per_gpu.total();
    return e.gpu.training_fit_at_high ? e.gpu.training_peak_high_per_gpu_bytes : e.gpu.training_peak_per_gpu_bytes;
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

void name_fit_report(FitReport& report) {
    const FitQuestion& q = report.question;
    switch (q.kind) {
        case FitQuestionKind::maximize: report.json_key = q.key; report.title = "Largest " + q.key; return;
        case FitQuestionKind::minimize_gpus: report.json_key = "gpus"; report.title = "Fewest GPUs"; return;
        case FitQuestionKind::minimize_bytes: report.json_key = "bytes"; report.title = "Most bits that fit"; return;
        case FitQuestionKind::layers_on_gpu: report.json_key = "layers_on_gpu"; report.title = "Layers on the GPU (llama.cpp -ngl)"; return;
    }
}

// Answers `q` into `report` (its question, JSON key and title set first); the error when it has no answer.
static Status answer_into(const Scenario& s, const FitQuestion& q, FitReport& report) {
    report.question = q;
    name_fit_report(report);
    const char* key = q.kind == FitQuestionKind::maximize ? q.key.c_str()
                      : q.kind == FitQuestionKind::minimize_gpus ? "gpus"
                      : q.kind == FitQuestionKind::minimize_bytes ? "bytes" : "layers-on-gpu";
    const Expected<Estimate> check = estimate(s);
    if (!check) return check.failure();
    if (!check->gpu.requested) return keyed(key, "needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)");
    switch (q.kind) {
        case FitQuestionKind::maximize: {
            const FitMaximizeKey* row = find_maximize_key(q.key);
            if (row == nullptr) return keyed(key, "is not one of " + fit_maximize_key_list());
            return maximize(s, *row, report);
        }
        case FitQuestionKind::minimize_gpus: return two_sided(s, report, "gpus", fewest_gpus);
        case FitQuestionKind::minimize_bytes: return two_sided(s, report, "bytes", most_bits);
        case FitQuestionKind::layers_on_gpu: return layers_on_gpu(s, report);
    }
    return keyed(key, "unknown question");
}

Expected<FitAnswer> answer_fit_side(const Scenario& s, FitQuestionKind kind, FitSide side) {
    FitAnswer a;
    a.side = side;
    if (Status bad = kind == FitQuestionKind::minimize_gpus ? fewest_gpus(s, side, a) : most_bits(s, side, a)) return *bad;
    return a;
}

Expected<FitReport> answer_fit_question(const Scenario& s, const FitQuestion& q) {
    FitReport report;
    if (Status bad = answer_into(s, q, report)) return *bad;
    return report;
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
    const Expected<Estimate> e = estimate(s);
    if (!e || !e->gpu.requested) return {};
    const std::vector<FitQuestion> questions = applicable_fit_questions(s);
    std::vector<FitReport> out(questions.size());  // sized once: growing a vector of reports costs more code
    for (std::size_t i = 0; i < questions.size(); ++i) {
        if (Status bad = answer_into(s, questions[i], out[i])) {
            out[i].answers.clear();
            out[i].error = bad->problem;
        }
    }
    return out;
}

std::string fit_json(const std::vector<FitReport>& reports, const std::vector<JsonField>& leading) {
    JsonWriter w;
    w.begin_object().raw_fields(leading);
    for (const FitReport& r : reports) {
        w.key(r.json_key);
        if (!r.error.empty()) {
            w.begin_object().field("error", r.error).end_object();
        } else if (r.answers.size() == 1) {
            write_answer(w, r.answers.front());
        } else {
            w.begin_object();
            for (const FitAnswer& a : r.answers) write_answer(w.key(fit_side_key(a.side)), a);
            w.end_object();
        }
    }
    return w.end_object().take();
}

std::vector<std::string> fit_view_lines(const std::vector<FitReport>& reports) {
    std::vector<std::string> out;
    for (const FitReport& r : reports) {
        if (!r.error.empty()) out.push_back(r.title + ": no answer: " + r.error);
        for (const FitAnswer& a : r.answers)  // "Largest context that fits: ..." names its question already
            out.push_back(a.sentence.rfind(r.title, 0) == 0 ? a.sentence : r.title + ": " + a.sentence);
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
