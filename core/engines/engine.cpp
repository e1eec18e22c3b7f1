// What the engines share: choosing one, summing a device's terms, the "Runs on ..." and "Trains on ..."
// verdicts, the JSON object and the plain-text report. The figures themselves are each engine's own file.
#include "engine.hpp"

#include "../formats.hpp"
#include "../json_writer.hpp"
#include "../report.hpp"

namespace llm_memory {

const char* engine_key(EngineKind kind) {
    switch (kind) {
        case EngineKind::none: return "none";
        case EngineKind::llama_cpp: return "llama.cpp";
        case EngineKind::ollama: return "ollama";
        case EngineKind::vllm: return "vllm";
        case EngineKind::transformers: return "transformers";
    }
    return "none";
}

const char* engine_name(EngineKind kind) {
    switch (kind) {
        case EngineKind::none: return "";
        case EngineKind::llama_cpp: return "llama.cpp";
        case EngineKind::ollama: return "Ollama";
        case EngineKind::vllm: return "vLLM";
        case EngineKind::transformers: return "transformers";
    }
    return "";
}

bool vllm_tokens_are_logged_only(const EngineDevice& g, std::uint64_t context) {
    const u128 held = static_cast<u128>(g.max_concurrency.micros) * context / Decimal::kScale;
    const u128 logged = g.kv_capacity_tokens;
    return (held > logged ? held - logged : logged - held) * 200 > static_cast<u128>(context) + 200;  // beyond the "%.2fx" rounding
}

std::string engine_bytes_text(std::uint64_t bytes) { return format_gib(bytes) + " (" + format_gb(bytes) + ")"; }

void finish_device(EngineDevice& d) {
    d.weights_bytes = d.kv_cache_bytes = d.compute_bytes = d.other_bytes = 0;
    for (const EngineTerm& t : d.terms) {
        switch (t.kind) {
            case EngineTermKind::weights: d.weights_bytes += t.bytes; break;
            case EngineTermKind::kv_cache: d.kv_cache_bytes += t.bytes; break;
            case EngineTermKind::compute: d.compute_bytes += t.bytes; break;
            case EngineTermKind::other: d.other_bytes += t.bytes; break;
        }
    }
    d.total_bytes = d.weights_bytes + d.kv_cache_bytes + d.compute_bytes + d.other_bytes;
    if (d.reserved_bytes < d.total_bytes) d.reserved_bytes = d.total_bytes;
}

void judge_device(EngineDevice& d, std::uint64_t needed, std::uint64_t capacity) {
    d.verdict = fit_verdict(needed, capacity);
    d.margin_bytes = needed <= capacity ? capacity - needed : needed - capacity;
}

void add_host_device(EngineEstimate& est) {
    EngineDevice host;
    host.device = "host";
    host.label = "Host RAM";
    finish_device(host);
    est.devices.push_back(std::move(host));
}

void finish_estimate(EngineEstimate& est, const Scenario& s) {
    est.needed_bytes = est.reserved_bytes = 0;
    std::uint64_t gpus = 0, gpu_total = 0, host_total = 0;
    const EngineDevice* worst = nullptr;
    est.runs = est.failure.empty();
    const EngineDevice* host = nullptr;
    for (EngineDevice& d : est.devices) {
        if (d.is_gpu || s.engine.ram_bytes == 0) continue;
        // --ram: what stays in system memory against it (memory-mapped weights once: the file's pages that
        // went to a GPU are not counted here).
        d.capacity_bytes = s.engine.ram_bytes;
        judge_device(d, d.total_bytes, d.capacity_bytes);
        host = &d;
    }
    for (const EngineDevice& d : est.devices) {
        est.needed_bytes += d.total_bytes;
        est.reserved_bytes += d.reserved_bytes;
        if (d.is_gpu) {
            ++gpus;
            gpu_total += d.total_bytes;
            if (est.gpu_known && d.verdict == FitVerdict::does_not_fit) est.runs = false;
            if (worst == nullptr || d.total_bytes > worst->total_bytes) worst = &d;
        } else {
            host_total += d.total_bytes;
        }
    }
    std::string where = std::to_string(gpus) + " x " + (worst != nullptr && worst->label.find('(') != std::string::npos
                                                            ? worst->label.substr(worst->label.find('(') + 1, worst->label.size() - worst->label.find('(') - 2)
                                                            : std::string("GPU"));
    const std::string ctx = est.context_tokens > 0 ? " at " + format_count_exact(est.context_tokens) + " tokens" : "";
    std::string detail;
    if (worst != nullptr && est.gpu_known)
        detail = (gpus > 1 ? "the fullest GPU holds " : "the GPU holds ") + format_gib(worst->total_bytes) + " of " + format_gib(worst->capacity_bytes) +
                 " (" + verdict_text(worst->verdict) + ")";
    else if (worst != nullptr)
        detail = "needs " + format_gib(gpu_total) + " on the GPU" + (gpus > 1 ? "s" : "") + " (choose a GPU for a verdict)";
    if (host != nullptr) {
        if (host->verdict == FitVerdict::does_not_fit) est.runs = false;
        detail += ", host RAM " + format_gib(host_total) + " of " + format_gib(host->capacity_bytes) + " (" + verdict_text(host->verdict) + ")";
    } else if (host_total > 0) {
        detail += ", host RAM " + format_gib(host_total);
    }
    if (est.kind == EngineKind::llama_cpp || est.kind == EngineKind::ollama) {
        const std::uint64_t offloaded = est.gpu_layers >= est.layer_count + 1 ? est.layer_count : est.gpu_layers > 0 ? est.gpu_layers - 1 : 0;
        detail += "; " + format_count_exact(offloaded) + " of " + format_count_exact(est.layer_count) + " layers on the GPU" +
                  (est.gpu_layers > est.layer_count ? "" : " (the rest on the CPU: slower)");
    }
    if (est.kind == EngineKind::vllm && !est.devices.empty() && est.devices.front().has_pool) {
        const EngineDevice& g = est.devices.front();
        // Paged in groups (sliding windows, recurrent state), vLLM 0.19's logged tokens are blocks / groups, not what the
        // pool holds: then the requests it holds are the figure, and the log's tokens are named as the log's.
        if (vllm_tokens_are_logged_only(g, est.context_tokens))
            detail += "; KV pool " + format_gib(g.kv_pool_bytes) + " per GPU, " + format_decimal(g.max_concurrency) + "x concurrency at " +
                      format_count_exact(est.context_tokens) + " tokens (vLLM 0.19 logs " + format_count_exact(g.kv_capacity_tokens) + " tokens)";
        else
            detail += "; KV pool " + format_gib(g.kv_pool_bytes) + " per GPU = " + format_count_exact(g.kv_capacity_tokens) + " tokens, " +
                      format_decimal(g.max_concurrency) + "x concurrency";
    }
    const bool tight = (worst != nullptr && est.gpu_known && worst->verdict == FitVerdict::tight) ||
                       (host != nullptr && host->verdict == FitVerdict::tight);
    est.run_verdict = !est.runs ? FitVerdict::does_not_fit : tight ? FitVerdict::tight : FitVerdict::fits;
    if (!est.gpu_known && est.runs) {
        est.verdict = "Runs with " + est.name + ctx + ": " + detail + ".";
    } else if (!est.gpu_known) {
        est.verdict = "Does not run with " + est.name + ctx + ": " + (est.failure.empty() ? detail + "." : est.failure);
    } else if (est.runs) {
        est.verdict = "Runs on " + where + " with " + est.name + ctx + ": " + detail + ".";
    } else {
        est.verdict = "Does not run on " + where + " with " + est.name + ctx + ": " + (est.failure.empty() ? detail : est.failure) +
                      (est.failure.empty() ? "." : "");
    }
}

Expected<EngineEstimate> engine_estimate(const Scenario& scenario) {
    switch (scenario.engine.kind) {
        case EngineKind::none: return Error{"engine", "no engine chosen (llama.cpp, ollama, vllm or transformers)"};
        case EngineKind::llama_cpp:
        case EngineKind::ollama: return llama_cpp_estimate(scenario);
        case EngineKind::vllm: return vllm_estimate(scenario);
        case EngineKind::transformers: return transformers_estimate(scenario);
    }
    return Error{"engine", "unknown engine"};
}

std::uint64_t draft_tokens(const Scenario& s) {
    if (s.engine.draft_max > 0) return s.engine.draft_max;
    // llama.cpp: common/common.h common_params_speculative_draft n_max, 3 since PR #23269 (b9493, May 2026; 16 before).
    if (s.engine.kind != EngineKind::vllm) return 3;
    if (s.engine.mtp) return s.model ? s.model->architecture.num_nextn_predict_layers : 1;
    return s.engine.draft_model.empty() ? 0 : 5;
}

std::string engine_fit_flags(const EngineEstimate& est) {
    switch (est.kind) {
        case EngineKind::llama_cpp: return "-c " + std::to_string(est.context_tokens) + " -ngl " + std::to_string(est.ngl);
        case EngineKind::ollama: return "num_ctx " + std::to_string(est.context_tokens) + ", num_gpu " + std::to_string(est.gpu_layers);
        case EngineKind::vllm:
            return "--max-model-len " + std::to_string(est.auto_context_tokens > 0 ? est.auto_context_tokens : est.context_tokens);
        case EngineKind::transformers:
        case EngineKind::none: return {};
    }
    return {};
}

bool inference_only_format(const Scenario& s) {
    if (s.model && s.model->layout.known) return true;
    if (s.dtype.empty()) return false;
    const Expected<WeightFormat> f = find_weight_format(s.dtype);
    return f && f->gguf;
}

std::string training_verdict_sentence(const Scenario& s, const Estimate& e) {
    if (inference_only_format(s)) {
        return "Trains on: no. " + std::string(s.model && s.model->layout.known ? "A GGUF file" : "A GGUF quantization (" + s.dtype + ")") +
               " is an inference format: its quantized blocks have no gradients, and no trainer loads them. Fine-tune the original "
               "16-bit weights with QLoRA (--qlora --lora-rank 16: the base in 4-bit NF4, small adapters trained), then convert.";
    }
    if (!e.gpu.requested) return {};
    const std::uint64_t per_gpu = e.gpu.training_uses_peak ? e.gpu.training_peak_per_gpu_bytes : e.gpu.training_per_gpu.weight_bytes +
                                                                                                     e.gpu.training_per_gpu.gradient_bytes +
                                                                                                     e.gpu.training_per_gpu.optimizer_bytes;
    const bool fits = e.gpu.training_verdict != FitVerdict::does_not_fit;
    return std::string(fits ? "Trains on " : "Does not train on ") + std::to_string(e.gpu.gpu_count) + " x " + gpu_name(s) + ": " +
           (e.gpu.training_uses_peak ? "training peak " : "model states ") + format_gib(per_gpu) + " per GPU of " + format_gib(e.gpu.capacity_bytes) +
           " (" + verdict_text(e.gpu.training_verdict) + ")" +
           (!fits && e.gpu.training_gpus_needed > 0 ? "; " + std::to_string(e.gpu.training_gpus_needed) + " GPUs would do" : "") + ".";
}

std::string engine_json(const EngineEstimate& est) {
    JsonWriter w;
    w.begin_object().field("name", est.name).field("version", est.version).key("devices").begin_array();
    for (const EngineDevice& d : est.devices) {
        w.begin_object().field("device", d.device).field("label", d.label).field("weights_bytes", d.weights_bytes);
        w.field("kv_cache_bytes", d.kv_cache_bytes).field("compute_bytes", d.compute_bytes).field("other_bytes", d.other_bytes);
        w.field("total_bytes", d.total_bytes).field("reserved_bytes", d.reserved_bytes);
        if (d.capacity_bytes > 0)
            w.field("capacity_bytes", d.capacity_bytes).field("fits", d.verdict != FitVerdict::does_not_fit)
                .field("verdict", verdict_text(d.verdict)).field("margin_bytes", d.margin_bytes);
        if (d.has_pool)
            w.field("kv_pool_bytes", d.kv_pool_bytes).field("kv_blocks", d.kv_blocks).field("kv_capacity_tokens", d.kv_capacity_tokens)
                .raw_field("max_concurrency", format_decimal(d.max_concurrency));
        w.key("terms").begin_array();
        for (const EngineTerm& t : d.terms)
            w.begin_object().field("key", t.key).field("label", t.label).field("bytes", t.bytes).field("steps", t.steps).end_object();
        w.end_array().end_object();
    }
    w.end_array().field("needed_bytes", est.needed_bytes).field("reserved_bytes", est.reserved_bytes).field("runs", est.runs);
    w.field("verdict", est.verdict).field("failure", est.failure).field("command", est.command).field("context_tokens", est.context_tokens);
    if (est.kind == EngineKind::llama_cpp || est.kind == EngineKind::ollama) w.field("gpu_layers", est.gpu_layers).field("ngl", est.ngl).field("layers", est.layer_count);
    if (est.kind == EngineKind::vllm && est.auto_context_tokens > 0) w.field("auto_max_model_len", est.auto_context_tokens);
    return w.field("settings", est.settings).field("notes", est.notes).end_object().take();
}

std::string engine_report(const EngineEstimate& est, int units) {
    auto size = [units](std::uint64_t b) {
        return units == 0 ? format_gb(b) : units == 1 ? format_gib(b) : format_gib(b) + " (" + format_gb(b) + ")";
    };
    std::string out = est.verdict + "\n";
    out += "Engine: " + est.version + "\n";
    for (const std::string& line : est.settings) out += "  " + line + "\n";
    // Identical GPUs (tensor parallelism, an even split) are shown once with their range.
    auto same = [](const EngineDevice& a, const EngineDevice& b) {
        if (a.is_gpu != b.is_gpu || a.terms.size() != b.terms.size() || a.total_bytes != b.total_bytes) return false;
        for (std::size_t i = 0; i < a.terms.size(); ++i)
            if (a.terms[i].bytes != b.terms[i].bytes || a.terms[i].steps != b.terms[i].steps) return false;
        return true;
    };
    for (std::size_t i = 0; i < est.devices.size(); ++i) {
        const EngineDevice& d = est.devices[i];
        if (!d.is_gpu && d.total_bytes == 0) continue;
        std::size_t last = i;
        while (last + 1 < est.devices.size() && same(d, est.devices[last + 1])) ++last;
        std::string label = d.label;
        if (last > i) {
            label = "GPUs " + d.device.substr(3) + "-" + est.devices[last].device.substr(3) + (d.label.find('(') != std::string::npos ? " " + d.label.substr(d.label.find('(')) : "") + ", each";
        }
        i = last;
        out += label + ": " + size(d.total_bytes);
        if (d.capacity_bytes > 0) out += " of " + size(d.capacity_bytes) + ", " + verdict_text(d.verdict);
        if (d.reserved_bytes > d.total_bytes) out += "; reserved " + size(d.reserved_bytes);
        out += "\n";
        for (const EngineTerm& t : d.terms) out += "  " + t.label + " " + size(t.bytes) + ": " + t.steps + "\n";
        if (d.has_pool)
            out += "  KV pool " + size(d.kv_pool_bytes) + " = " + format_count_exact(d.kv_blocks) + " blocks = " + format_count_exact(d.kv_capacity_tokens) +
                   " tokens; maximum concurrency " + format_decimal(d.max_concurrency) + "x\n";
    }
    out += "Needed " + size(est.needed_bytes) + "; reserved under the engine's defaults " + size(est.reserved_bytes) + "\n";
    if (!est.failure.empty()) out += "The engine says: " + est.failure + "\n";
    for (const std::string& note : est.notes) out += "Note: " + note + "\n";
    out += "Command: " + est.command + "\n";
    return out;
}

bool engines_in_build() { return true; }

const char* engines_left_out_note() {
    // Reached only in a build that wraps the engine models out (the page's lean build, whose stand-in says
    // where they are instead: web/lean.cpp).
    return "the engine models are not in this build";
}

}  // namespace llm_memory
