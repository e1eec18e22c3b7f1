// What fits under an engine: exact searches over engine_estimate()'s "runs" (every GPU, and the host
// under --ram, within its memory, and the engine starts), with the sentences in the engine's flags.
//
// Sections: probes and searches · the questions (context and batch, GPUs, formats, -ngl) · the reports.
#include "engine_fit.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "../formats.hpp"
#include "../quantity.hpp"
#include "../report.hpp"
#include "../settings.hpp"

namespace llm_memory {
namespace {

SayArg gib(std::uint64_t bytes) { return {SayArg::kGib, bytes}; }    // "23.99 GiB"
SayArg count(std::uint64_t n) { return {SayArg::kCount, n}; }        // "76,288"
SayArg number(std::uint64_t n) { return {SayArg::kNumber, n}; }      // "75776"
SayArg gpus(std::uint64_t n) { return {SayArg::kPlural, n, n == 1 ? "GPU" : "GPUs"}; }

// What llama.cpp's --fit keeps free on each GPU, in words: "1 GiB" (its default) or the MiB it was given.
std::string fit_margin_text(const EngineEstimate& e) {
    const std::uint64_t mib = e.fit_margin_bytes >> 20;
    return mib == 1024 ? std::string("1 GiB") : format_count_exact(mib) + " MiB";
}

bool is_llama(const Scenario& s) { return s.engine.kind == EngineKind::llama_cpp || s.engine.kind == EngineKind::ollama; }

// The scenario as the inference questions probe it: under llama.cpp with -ngl unset, every layer on the
// GPU (otherwise --fit would move layers to the CPU until anything "runs").
Scenario probe_base(const Scenario& s) {
    Scenario t = s;
    if (is_llama(t) && t.engine.ngl_auto) {
        t.engine.ngl_auto = false;
        t.engine.ngl_all = true;
    }
    return t;
}

// The GPU that holds the most, or nullptr.
const EngineDevice* fullest_gpu(const EngineEstimate& e) {
    const EngineDevice* worst = nullptr;
    for (const EngineDevice& d : e.devices)
        if (d.is_gpu && (worst == nullptr || d.total_bytes > worst->total_bytes)) worst = &d;
    return worst;
}

// "the GPU holds 23.9 GiB of 24 GiB" / "the fullest GPU holds ..." (+ ", host RAM ..." under --ram).
std::string holds(const EngineEstimate& e) {
    const EngineDevice* g = fullest_gpu(e);
    if (g == nullptr) return "no GPU";
    std::string out = say("% holds % of %", {e.devices.size() > 2 ? "the fullest GPU" : "the GPU", gib(g->total_bytes), gib(g->capacity_bytes)});
    if (format_gib(g->total_bytes) == format_gib(g->capacity_bytes) && g->total_bytes <= g->capacity_bytes)
        out += say(" (% bytes to spare)", {count(g->capacity_bytes - g->total_bytes)});
    for (const EngineDevice& d : e.devices)
        if (!d.is_gpu && d.capacity_bytes > 0) out += say(", host RAM % of %", {gib(d.total_bytes), gib(d.capacity_bytes)});
    return out;
}

// Why a run does not start: the engine's words, or the fullest GPU against its memory.
std::string why_not(const EngineEstimate& e) {
    if (!e.failure.empty()) return e.failure;
    const EngineDevice* g = fullest_gpu(e);
    for (const EngineDevice& d : e.devices)
        if (!d.is_gpu && d.capacity_bytes > 0 && d.verdict == FitVerdict::does_not_fit)
            return say("host RAM would need % of %", {gib(d.total_bytes), gib(d.capacity_bytes)});
    if (g == nullptr) return "no GPU";
    std::string out = say("the fullest GPU would need % of %", {gib(g->total_bytes), gib(g->capacity_bytes)});
    if (format_gib(g->total_bytes) == format_gib(g->capacity_bytes) && g->total_bytes > g->capacity_bytes)
        out += say(" (% bytes over)", {count(g->total_bytes - g->capacity_bytes)});
    return out;
}

// " at -c 131072" / " at --max-model-len 131072" / " at 4,096 tokens": the context an answer holds.
std::string at_context(const EngineEstimate& e) {
    if (e.context_tokens == 0) return {};
    const bool tokens = e.kind == EngineKind::transformers;
    return say(tokens ? " at % tokens" : " at %%", {e.kind == EngineKind::vllm ? "--max-model-len " : e.kind == EngineKind::ollama ? "num_ctx " : "-c ",
                                                    tokens ? count(e.context_tokens) : number(e.context_tokens)});
}

// `text` closed with a full stop (an engine's own message may already end with one).
std::string stop(std::string text) {
    if (text.empty() || text.back() != '.') text += '.';
    return text;
}

// Whether this engine loads weights in `f`: llama.cpp and Ollama GGUF's own types (F32, F16 and BF16
// among them); vLLM and transformers the checkpoint formats (transformers would dequantize a GGUF).
bool loads(const Scenario& s, const WeightFormat& f) {
    if (is_llama(s)) return f.gguf || f.key == "fp32" || f.key == "fp16" || f.key == "bf16";
    return !f.gguf;
}

// One value tried: the scenario with `key` = value, whether the setting took it, and the engine's run.
struct Trial {
    bool accepted = false;  // the setting took the value
    bool ran = false;       // engine_estimate succeeded and the run starts
    Scenario scenario;
    std::optional<EngineEstimate> estimate;
    std::string problem;    // the setting's or the engine's refusal
};

Trial attempt(const Scenario& base, const char* key, std::uint64_t value) {
    Trial t;
    t.scenario = base;
    if (key != nullptr) {
        const Expected<bool> applied = apply_setting(t.scenario, key, std::to_string(value));
        if (!applied) {
            t.problem = applied.failure().problem;
            return t;
        }
    }
    t.accepted = true;
    Expected<EngineEstimate> e = engine_estimate(t.scenario);
    if (!e) {
        t.problem = e.error();
        return t;
    }
    t.ran = e->runs;
    t.estimate = std::move(*e);
    return t;
}

// The largest value in [1, last] of `key` that runs (the run only gets harder as the value grows):
// doubling, then bisection. `found` false when 1 does not run; `next` is the trial just above the answer
// (not accepted when the answer is `last` or the setting's limit).
struct Largest {
    bool found = false;
    Trial at;
    Trial next;
};
Largest largest_that_runs(const Scenario& base, const char* key, std::uint64_t last) {
    Largest r;
    r.at = attempt(base, key, 1);
    if (!r.at.ran) return r;
    std::uint64_t lo = 1, hi = 0;  // lo runs (r.at is its trial); hi: the first value known not to run (0: none yet)
    auto probe = [&](std::uint64_t v) {
        Trial t = attempt(base, key, v);
        if (!t.ran) return false;
        lo = v;
        r.at = std::move(t);
        return true;
    };
    while (hi == 0) {
        const std::uint64_t v = lo > last / 2 ? last : lo * 2;
        if (v == lo) break;
        if (!probe(v)) hi = v;
    }
    while (hi != 0 && hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (!probe(mid)) hi = mid;
    }
    r.found = true;
    if (lo < last) r.next = attempt(base, key, lo + 1);
    return r;
}

// The answer's shared fields from a run: the scenario, the seed's estimate at it (fit_text and the JSON
// print it with the engine's table), and the fullest GPU's bytes.
Status settle(FitAnswer& a, const Trial& t) {
    a.scenario = t.scenario;
    const Expected<Estimate> e = estimate(t.scenario);
    if (!e) return e.failure();
    a.estimate = *e;
    if (const EngineDevice* g = fullest_gpu(*t.estimate)) {
        a.need_bytes = g->total_bytes;
        a.capacity_bytes = g->capacity_bytes;
    }
    return std::nullopt;
}

// The fullest GPU's bytes in a trial that ran the engine (0 when it did not, or for vLLM, whose GPUs hold
// the same share whatever the context: its limit is the KV pool).
std::uint64_t next_need(const Trial& t) {
    if (!t.estimate || t.estimate->kind == EngineKind::vllm) return 0;
    const EngineDevice* g = fullest_gpu(*t.estimate);
    return g != nullptr ? g->total_bytes : 0;
}

// ---- The questions ----

// Largest context or batch (maximize), inference side.
Status maximize(const Scenario& s, const FitQuestion& q, FitReport& report) {
    const bool context = q.key == "context";
    const EngineKind kind = s.engine.kind;
    const char* name = engine_name(kind);
    if (!context && kind != EngineKind::transformers)
        return Error{"batch", is_llama(s) ? say("%'s parallel slots (-np) share one cache of n_ctx cells, so the batch does not change its memory: "
                                                "ask for the largest context", {name})
                                          : std::string("vLLM batches whatever requests its KV pool holds: the largest context answers with "
                                                        "its maximum concurrency, the pool over --max-model-len")};
    if (!context && s.context_tokens == 0)
        return Error{"batch", "needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context"};
    if (!s.model) return Error{q.key, "needs a model architecture (--model, --config or --gguf)"};
    const std::uint64_t model_max = s.model->architecture.max_position_embeddings;
    const bool capped = context && kind == EngineKind::vllm && model_max > 0;
    const Largest r = largest_that_runs(probe_base(s), q.key.c_str(), capped ? model_max : UINT64_MAX / 4);
    const char* one = context ? "token" : "sequence";
    const char* many = context ? "tokens" : "sequences";
    if (!r.found) {
        const bool whole = is_llama(s) && s.engine.ngl_auto;
        return Error{q.key, say("% does not run even at 1 %%%%", {name, one, whole ? " with every layer on the GPU: " : ": ",
                                                                  r.at.estimate ? stop(why_not(*r.at.estimate)) : r.at.problem,
                                                                  is_llama(s) && r.at.estimate ? " Fewer layers on the GPU (Layers on the GPU) or fewer "
                                                                                                 "bits per weight (Most bits that fit) would run." : ""})};
    }
    report.answers = std::vector<FitAnswer>(1);
    FitAnswer& a = report.answers[0];
    a.found = true;
    if (Status bad = settle(a, r.at)) return bad;
    const EngineEstimate& e = *r.at.estimate;
    a.value = context ? (is_llama(s) ? e.context_tokens : a.scenario.context_tokens) : a.scenario.batch_size;
    a.at_limit = !r.next.accepted || (capped && a.value >= model_max);
    a.next_need_bytes = next_need(r.next);
    const SayArg value{SayArg::kPlural, a.value, a.value == 1 ? one : many};
    const std::string where = say("on % x %", {number(s.gpu_count), gpu_name(s)});
    std::string& out = a.sentence;
    if (kind == EngineKind::vllm) {
        const EngineDevice& g = *fullest_gpu(e);
        a.headline = say("% (--max-model-len %)", {value, number(a.value)});
        out = vllm_tokens_are_logged_only(g, a.value)
                  ? say("vLLM starts with --max-model-len up to % %: its KV pool of % per GPU holds % requests of that length at once (vLLM 0.19 logs % tokens).",
                        {count(a.value), where, gib(g.kv_pool_bytes), format_decimal(g.max_concurrency), count(g.kv_capacity_tokens)})
                  : say("vLLM starts with --max-model-len up to % %: its KV pool of % per GPU holds % tokens, % requests of that length at once.",
                        {count(a.value), where, gib(g.kv_pool_bytes), count(g.kv_capacity_tokens), format_decimal(g.max_concurrency)});
        if (a.at_limit) out += " That is the model's own max_position_embeddings: vLLM refuses a longer one unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.";
        else if (r.next.estimate) out += say(" At % one request no longer fits in the pool (what --max-model-len auto finds).", {count(a.value + 1)});
    } else {
        const std::string flags = is_llama(s) ? say(" (%)", {engine_fit_flags(e)}) : std::string();
        a.headline = say("%%", {value, flags});
        out = say("% runs at most %% %: %.", {name, value, flags, where, holds(e)});
        if (r.next.estimate)
            out += say(" % would not run: %", {SayArg{SayArg::kPlural, is_llama(s) ? r.next.estimate->context_tokens : a.value + 1, many},
                                               stop(why_not(*r.next.estimate))});
        // What llama.cpp's own --fit chooses when -c and -ngl are left to it.
        if (kind == EngineKind::llama_cpp && s.engine.ngl_auto && context) {
            Scenario own = s;
            own.context_tokens = 0;
            if (const Expected<EngineEstimate> fit = engine_estimate(own))
                out += say(" With -c and -ngl left to it, llama.cpp's --fit (% kept free on each GPU, the context from the model's % down to "
                           "4,096 before any layer leaves the GPU) chooses %.", {fit_margin_text(*fit), count(model_max), engine_fit_flags(*fit)});
        }
    }
    if (context && model_max > 0 && a.value > model_max)
        out += say(" The model was trained for % tokens; beyond that its output may degrade.", {count(model_max)});
    return std::nullopt;
}

// "Inference with vLLM at --max-model-len 131072: ": how the inference answers of gpus and bytes begin.
std::string inference_with(const Scenario& s, const Trial& t) {
    return say("Inference with %%: ", {engine_name(s.engine.kind), t.estimate ? at_context(*t.estimate) : std::string()});
}

// The fewest GPUs that run, split as the engine splits (llama.cpp: layers evenly; vLLM: tensor parallel
// over them, pipeline stages as given; transformers: device_map auto).
Status fewest_gpus(const Scenario& s, FitAnswer& a) {
    Scenario base = probe_base(s);
    base.tensor_split.clear();
    const bool vllm = s.engine.kind == EngineKind::vllm;
    const std::uint64_t pp = vllm ? std::max<std::uint64_t>(1, s.training.pp) : 1;
    const bool set_tp = vllm && s.training.tp * s.training.pp > 1;  // vLLM takes --gpus N alone as tp N
    constexpr std::uint64_t kMaxTried = 64;
    Trial last;
    std::uint64_t tried_last = 0;
    for (std::uint64_t k = 1; k <= kMaxTried; ++k) {
        Scenario t = base;
        if (set_tp && !apply_setting(t, "tp", std::to_string(k))) break;
        Trial trial = attempt(t, "gpus", k * pp);
        if (!trial.accepted) break;
        if (!trial.estimate) continue;  // vLLM: this tensor-parallel size does not divide the heads
        if (trial.ran) {
            a.found = true;
            a.value = k * pp;
            if (Status bad = settle(a, trial)) return bad;
            if (last.estimate) a.next_need_bytes = next_need(last);
            a.headline = say("Inference with %: %", {engine_name(s.engine.kind), gpus(a.value)});
            a.sentence = inference_with(s, trial) +
                         say(vllm ? "% (--tensor-parallel-size %%): %." : "%%%: %.",
                             {gpus(a.value), vllm ? number(k) : SayArg(is_llama(s) ? ", layers split evenly" : ""),
                              vllm && pp > 1 ? say(", --pipeline-parallel-size %", {number(pp)}) : std::string(), holds(*trial.estimate)});
            if (last.estimate) a.sentence += say(" On % it would not run: %", {gpus(tried_last), stop(why_not(*last.estimate))});
            return std::nullopt;
        }
        last = std::move(trial);
        tried_last = k * pp;
    }
    if (Status bad = settle(a, last.estimate ? last : attempt(base, nullptr, 0))) return bad;
    a.headline = say("Inference with %: none", {engine_name(s.engine.kind)});
    a.sentence = inference_with(s, last) + stop(say("none up to %%", {gpus(tried_last > 0 ? tried_last : kMaxTried),
                                                                       last.estimate ? ": " + why_not(*last.estimate) : std::string()}));
    return std::nullopt;
}

// The named format with the most bits that runs.
Status most_bits(const Scenario& s, FitAnswer& a) {
    const Scenario base = probe_base(s);
    const char* name = engine_name(s.engine.kind);
    const WeightFormat* previous = nullptr;
    Trial refused;  // the format one step up, which did not run
    for (const WeightFormat* f = next_format_by_bits(nullptr); f != nullptr; f = next_format_by_bits(f)) {
        if (s.qlora && f->key != "nf4" && f->key != "nf4_dq") continue;
        if (!loads(s, *f)) continue;
        Scenario candidate = base;
        if (!apply_setting(candidate, "dtype", f->key)) continue;
        Trial t = attempt(candidate, nullptr, 0);
        if (!t.estimate) continue;  // a format this engine does not load
        if (t.ran) {
            a.found = true;
            a.format_key = f->key;
            if (Status bad = settle(a, t)) return bad;
            a.next_need_bytes = previous != nullptr ? next_need(refused) : 0;
            const std::string bits = format_bits_per_weight(*f);
            a.headline = say("Inference with %: %, % bits", {name, f->label, bits});
            a.sentence = inference_with(s, t) + say("% (% bits) is the format with the most bits that runs: %.", {f->label, bits, holds(*t.estimate)});
            if (previous != nullptr) a.sentence += say(" % would not run: %", {previous->label, stop(why_not(*refused.estimate))});
            return std::nullopt;
        }
        previous = f;
        refused = std::move(t);
    }
    if (Status bad = settle(a, refused.estimate ? refused : attempt(base, nullptr, 0))) return bad;
    a.headline = say("Inference with %: none", {name});
    a.sentence = inference_with(s, refused) +
                 stop(say("none: no named format runs%", {previous != nullptr ? say("; even %: %", {previous->label, why_not(*refused.estimate)}) : std::string()}));
    return std::nullopt;
}

// llama.cpp's -ngl: the most layers that run at the scenario's context, and what --fit chooses.
Status layers_on_gpu(const Scenario& s, FitReport& report) {
    if (!is_llama(s))
        return Error{"layers-on-gpu", say("% keeps every layer on the GPUs: -ngl is llama.cpp's (and Ollama's num_gpu)", {engine_name(s.engine.kind)})};
    if (!s.model) return Error{"layers-on-gpu", "needs a model architecture (--model, --config or --gguf) to count its layers"};
    const std::uint64_t all = s.model->architecture.num_hidden_layers + 1;
    auto with_ngl = [&](std::uint64_t ngl) {
        Scenario t = s;
        t.engine.ngl_auto = t.engine.ngl_all = false;
        t.engine.ngl_layers = ngl;
        return attempt(t, nullptr, 0);
    };
    std::uint64_t lo = 0, hi = all + 1;  // lo runs (`at` is its trial); hi does not
    Trial at = with_ngl(0);
    if (!at.ran)
        return Error{"layers-on-gpu", say("% does not run even with -ngl 0: %", {engine_name(s.engine.kind), at.estimate ? why_not(*at.estimate) : at.problem})};
    while (hi - lo > 1) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        if (Trial t = with_ngl(mid); t.ran) {
            lo = mid;
            at = std::move(t);
        } else {
            hi = mid;
        }
    }
    report.answers = std::vector<FitAnswer>(1);
    FitAnswer& a = report.answers[0];
    a.found = true;
    a.value = lo;
    a.at_limit = lo == all;
    if (Status bad = settle(a, at)) return bad;
    const EngineEstimate& e = *at.estimate;
    std::uint64_t host = 0;
    for (const EngineDevice& d : e.devices)
        if (!d.is_gpu) host += d.total_bytes;
    // The flag as llama.cpp takes it: with --mtp the kept MTP layers are blocks too (the printed command's -ngl).
    const std::uint64_t mtp = s.engine.mtp ? s.model->architecture.num_nextn_predict_layers : 0;
    auto flag = [&](std::uint64_t ngl) { return number(ngl + (ngl > 0 ? mtp : 0)); };
    a.headline = say("-ngl % of %%", {flag(lo), flag(all), lo == all ? ": everything" : lo == 0 ? ": CPU only" : ""});
    a.sentence = say("%%: %, host RAM %.", {a.headline, at_context(e), holds(e), gib(host)});
    if (lo < all) {
        const Trial more = with_ngl(lo + 1);
        a.next_need_bytes = next_need(more);
        if (more.estimate) a.sentence += say(" -ngl % would not run: %", {flag(lo + 1), stop(why_not(*more.estimate))});
    }
    if (s.engine.kind == EngineKind::llama_cpp && s.engine.ngl_auto && s.context_tokens > 0) {
        if (const Expected<EngineEstimate> fit = engine_estimate(s))
            a.sentence += say(" llama.cpp's --fit, which keeps % free on each GPU, chooses -ngl %.", {fit_margin_text(*fit), number(fit->ngl)});
    }
    return std::nullopt;
}

// gpus and bytes: core/fit.cpp's training answer, then the engine's inference answer; an error when
// neither side has one.
Status two_sided(const Scenario& s, const FitQuestion& q, FitReport& report, Status (*inference)(const Scenario&, FitAnswer&)) {
    Expected<FitAnswer> training = answer_fit_side(s, q.kind, FitSide::training);
    if (!training) return training.failure();
    report.answers = std::vector<FitAnswer>(2);
    report.answers[0] = std::move(*training);
    FitAnswer& a = report.answers[1];
    a.side = FitSide::inference;
    if (Status bad = inference(s, a)) return bad;
    if (!report.answers[0].found && !a.found) return Error{report.json_key, "nothing fits. " + report.answers[0].sentence + " " + a.sentence};
    return std::nullopt;
}

}  // namespace

Expected<FitReport> engine_answer_fit_question(const Scenario& s, const FitQuestion& q) {
    if (s.engine.kind == EngineKind::none) return answer_fit_question(s, q);
    if (q.kind == FitQuestionKind::maximize && q.key != "context" && q.key != "batch") return answer_fit_question(s, q);  // training
    FitReport report;
    report.question = q;
    name_fit_report(report);
    const Expected<Estimate> check = estimate(s);
    if (!check) return check.failure();
    if (!check->gpu.requested)
        return Error{report.json_key == "layers_on_gpu" ? "layers-on-gpu" : report.json_key, "needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)"};
    Status bad;
    switch (q.kind) {
        case FitQuestionKind::maximize: bad = maximize(s, q, report); break;
        case FitQuestionKind::minimize_gpus: bad = two_sided(s, q, report, fewest_gpus); break;
        case FitQuestionKind::minimize_bytes: bad = two_sided(s, q, report, most_bits); break;
        case FitQuestionKind::layers_on_gpu: bad = layers_on_gpu(s, report); break;
    }
    if (bad) return *bad;
    return report;
}

std::vector<FitReport> engine_answer_applicable_fit_questions(const Scenario& s) {
    if (s.engine.kind == EngineKind::none) return answer_applicable_fit_questions(s);
    const Expected<Estimate> e = estimate(s);
    if (!e || !e->gpu.requested) return {};
    std::vector<FitReport> out;
    for (const FitQuestion& q : applicable_fit_questions(s)) {
        if (q.kind == FitQuestionKind::maximize && q.key == "batch" && s.engine.kind != EngineKind::transformers) continue;
        if (q.kind == FitQuestionKind::layers_on_gpu && !is_llama(s)) continue;
        Expected<FitReport> r = engine_answer_fit_question(s, q);
        if (r) {
            out.push_back(std::move(*r));
            continue;
        }
        FitReport failed;
        failed.question = q;
        name_fit_report(failed);
        failed.error = r.failure().problem;
        out.push_back(std::move(failed));
    }
    return out;
}

}  // namespace llm_memory
