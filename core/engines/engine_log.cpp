// Engine logs read back (see engine_log.hpp). Each recogniser looks for the engine's own wording anywhere
// in a line, so timestamps, journald prefixes, "(VllmWorker rank=1)" tags and colours do not matter.
// The first figure for a term and device wins; a second model load (a draft model, a retry) is noted.
#include "engine_log.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "../estimator.hpp"
#include "../json.hpp"
#include "../json_writer.hpp"
#include "../quantity.hpp"
#include "../report.hpp"
#include "../settings.hpp"

namespace llm_memory {
namespace {

constexpr double kMiB = 1048576.0;
constexpr double kGiB = 1073741824.0;

std::string clean_line(std::string_view raw) {
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size(); ++i) {
        const char c = raw[i];
        if (c == '\x1b') {  // ANSI escape: ESC [ ... letter
            std::size_t j = i + 1;
            if (j < raw.size() && raw[j] == '[') {
                ++j;
                while (j < raw.size() && !std::isalpha(static_cast<unsigned char>(raw[j]))) ++j;
            }
            i = j;
            continue;
        }
        if (c == '\r') continue;
        out += c;
    }
    return out;
}

bool has(std::string_view line, std::string_view what) { return line.find(what) != std::string_view::npos; }

// A number at `pos` (skipping spaces); the position after it, or npos.
std::size_t read_number(std::string_view line, std::size_t pos, double& value) {
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t' || line[pos] == '"' || line[pos] == '(')) ++pos;
    const std::size_t start = pos;
    bool digit = false;
    while (pos < line.size() && (std::isdigit(static_cast<unsigned char>(line[pos])) || line[pos] == '.' || line[pos] == ',')) {
        digit = digit || std::isdigit(static_cast<unsigned char>(line[pos]));
        ++pos;
    }
    if (!digit || pos - start > 32) return std::string_view::npos;
    std::string text;
    for (std::size_t i = start; i < pos; ++i)
        if (line[i] != ',') text += line[i];
    value = std::strtod(text.c_str(), nullptr);
    if (!std::isfinite(value)) return std::string_view::npos;
    return pos;
}

// A size such as "256.00 MiB", "14.96GiB", "3.7 GiB", "0 B" at `pos`; bytes, or -1. vLLM V0's "GB" is 2^30.
double read_size(std::string_view line, std::size_t pos, bool gb_is_gib = false) {
    double value = 0;
    std::size_t end = read_number(line, pos, value);
    if (end == std::string_view::npos) return -1;
    while (end < line.size() && line[end] == ' ') ++end;
    auto unit = [&](std::string_view u) { return line.substr(end, u.size()) == u; };
    if (unit("GiB")) return value * kGiB;
    if (unit("MiB")) return value * kMiB;
    if (unit("KiB")) return value * 1024.0;
    if (unit("GB")) return value * (gb_is_gib ? kGiB : 1e9);
    if (unit("MB")) return value * (gb_is_gib ? kMiB : 1e6);
    if (unit("KB") || unit("kB")) return value * 1e3;
    if (unit("B")) return value;
    return -1;
}

// The number after `key` (and an optional '=' or ':' and spaces).
bool number_after(std::string_view line, std::string_view key, double& value) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return false;
    std::size_t pos = at + key.size();
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '=' || line[pos] == ':' || line[pos] == '\t')) ++pos;
    return read_number(line, pos, value) != std::string_view::npos;
}

double size_after(std::string_view line, std::string_view key, bool gb_is_gib = false) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return -1;
    std::size_t pos = at + key.size();
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '=' || line[pos] == ':' || line[pos] == '\t' || line[pos] == '"')) ++pos;
    return read_size(line, pos, gb_is_gib);
}

// The word after `key =` (letters, digits, '_'), quotes dropped.
std::string word_after(std::string_view line, std::string_view key) {
    const std::size_t at = line.find(key);
    if (at == std::string_view::npos) return {};
    std::size_t pos = at + key.size();
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '=' || line[pos] == ':' || line[pos] == '\'' || line[pos] == '"')) ++pos;
    std::string out;
    while (pos < line.size() && (std::isalnum(static_cast<unsigned char>(line[pos])) || line[pos] == '_' || line[pos] == '.' || line[pos] == '-'))
        out += line[pos++];
    return out;
}

// "CUDA0" -> gpu0, "ROCm1" -> gpu1, "CUDA_Host", "CPU", "CPU_Mapped" -> host, "Metal" -> gpu0.
std::string device_name(std::string_view raw) {
    const std::string_view d = trim(raw);
    if (d.rfind("CUDA_Host", 0) == 0 || d.rfind("CPU", 0) == 0 || d.rfind("ROCm_Host", 0) == 0) return "host";
    for (std::string_view prefix : {"CUDA", "ROCm", "Vulkan", "SYCL", "MUSA", "CANN"}) {
        if (d.rfind(prefix, 0) == 0) {
            std::string number(d.substr(prefix.size()));
            if (!number.empty() && std::all_of(number.begin(), number.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
                return "gpu" + number;
        }
    }
    if (d.rfind("Metal", 0) == 0 || d.rfind("MTL", 0) == 0) return "gpu0";
    return {};
}

// The word just before `marker` ("      CUDA0 KV buffer size" -> "CUDA0").
std::string word_before(std::string_view line, std::size_t marker) {
    std::size_t end = marker;
    while (end > 0 && line[end - 1] == ' ') --end;
    std::size_t start = end;
    while (start > 0 && line[start - 1] != ' ' && line[start - 1] != ':' && line[start - 1] != '\t') --start;
    return std::string(line.substr(start, end - start));
}

std::string short_line(const std::string& line) {
    std::string out(trim(line));
    // Drop a journald or timestamp prefix up to the engine's own "name:" when it is long.
    if (out.size() > 240) out = out.substr(0, 237) + "...";
    return out;
}

struct Reader {
    LogReading log;
    int kv_lines = 0, model_lines = 0, loads = 0;
    bool saw_llama = false, saw_ollama = false, saw_vllm = false, saw_smi = false, saw_ps = false;

    bool known(const std::string& term, const std::string& device) const {
        for (const MeasuredTerm& t : log.terms)
            if (t.term == term && t.device == device) return true;
        return false;
    }
    void add(const std::string& term, const std::string& device, double value, const std::string& line) {
        if (value < 0 || device.empty()) return;
        if (known(term, device)) {
            if (term == "weights" && device != "host") ++loads;
            return;
        }
        log.terms.push_back({term, device, value, short_line(line)});
    }
    void set(const std::string& key, const std::string& value, const std::string& source) {
        for (CommandSetting& s : log.settings)
            if (s.key == key) return;  // the first load's settings
        log.settings.push_back({key, value, source});
    }
    void note(const std::string& text) {
        if (std::find(log.notes.begin(), log.notes.end(), text) == log.notes.end()) log.notes.push_back(text);
    }
};

std::string cache_type(std::string t) {
    if (t == "f16") return "fp16";
    if (t == "f32") return "fp32";
    return t;
}

void read_llama_line(Reader& r, const std::string& line) {
    // Buffers: "<dev> model buffer size =", old "<dev> buffer size =" (llm_load_tensors), KV, compute, output, RS.
    struct Marker {
        const char* text;
        const char* term;
    };
    static const Marker kMarkers[] = {
        {" model buffer size", "weights"}, {" KV buffer size", "kv_cache"}, {" compute buffer size", "compute"},
        {" output buffer size", "output"}, {" RS buffer size", "rs"},
    };
    for (const Marker& m : kMarkers) {
        const std::size_t at = line.find(m.text);
        if (at == std::string::npos) continue;
        const std::string dev = device_name(word_before(line, at));
        const double bytes = size_after(line, m.text);
        if (dev.empty() || bytes < 0) return;
        r.saw_llama = true;
        // CPU_Mapped / CPU weights: the file mapped in host memory.
        r.add(m.term, dev, bytes, line);
        if (std::string(m.term) == "weights" && has(line, "CPU_Mapped")) r.note("host weights are memory-mapped from the file (mmap): they count as page cache, not as allocated RAM");
        return;
    }
    if (has(line, "llm_load_tensors:") && has(line, " buffer size =") && !has(line, "ctx size")) {
        const std::size_t at = line.find(" buffer size =");
        const std::string dev = device_name(word_before(line, at));
        const double bytes = size_after(line, " buffer size");
        if (!dev.empty() && bytes >= 0) {
            r.saw_llama = true;
            r.add("weights", dev, bytes, line);
        }
        return;
    }
    double n = 0;
    const bool context_line = has(line, "llama_new_context_with_model:") || has(line, "llama_context:") ||
                              has(line, "llama_init_from_model:") || has(line, "llama_context_params");
    if (context_line) {
        if (has(line, " n_ctx ") || has(line, " n_ctx=") || has(line, " n_ctx  ")) {
            if (number_after(line, "n_ctx", n) && !has(line, "n_ctx_per_seq") && !has(line, "n_ctx_seq") && !has(line, "n_ctx_train"))
                r.set("context", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        }
        if (has(line, "n_batch") && number_after(line, "n_batch", n)) r.set("nbatch", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        if (has(line, "n_ubatch") && number_after(line, "n_ubatch", n)) r.set("ubatch", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        if (has(line, "n_seq_max") && number_after(line, "n_seq_max", n) && n >= 1)
            r.set("parallel", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        // Builds since May 2026 print the logits rows they reserve (llama-server: -np x (1 + draft tokens)).
        if (has(line, "n_outputs_max") && !has(line, "n_outputs_max_per_seq") && number_after(line, "n_outputs_max", n) && n >= 1)
            r.set("n-outputs-max", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        if (has(line, "flash_attn")) {
            const std::string w = word_after(line, "flash_attn");
            if (w == "1" || w == "enabled" || w == "true" || w == "on") r.set("flash-attn", "on", short_line(line));
            else if (w == "0" || w == "disabled" || w == "false" || w == "off") r.set("flash-attn", "off", short_line(line));
        }
        if (has(line, "pipeline parallelism enabled")) r.note("pipeline parallelism is on: the scheduler keeps " + (number_after(line, "n_copies", n) ? std::to_string(static_cast<int>(n)) : std::string("several")) + " copies of the inputs, and every GPU of the layer split holds its own compute buffer");
        r.saw_llama = true;
    }
    if (has(line, "Flash Attention was auto, set to enabled")) r.set("flash-attn", "on", short_line(line));
    if (has(line, "Flash Attention was auto, set to disabled")) r.set("flash-attn", "off", short_line(line));
    // Cache types: "type_k = 'q8_0', type_v = 'q8_0'" or "K (q8_0): ..., V (q8_0): ...".
    if (has(line, "type_k")) {
        const std::string k = word_after(line, "type_k");
        if (!k.empty()) r.set("kv-dtype", cache_type(k), short_line(line));
        const std::string v = word_after(line, "type_v");
        if (!v.empty()) r.set("v-dtype", cache_type(v), short_line(line));
    }
    if (has(line, "KV self size") || (has(line, "llama_kv_cache") && has(line, "size =") && has(line, "K ("))) {
        const std::size_t k = line.find("K (");
        if (k != std::string::npos) {
            const std::size_t close = line.find(')', k);
            if (close != std::string::npos) r.set("kv-dtype", cache_type(line.substr(k + 3, close - k - 3)), short_line(line));
        }
        const std::size_t v = line.find("V (");
        if (v != std::string::npos) {
            const std::size_t close = line.find(')', v);
            if (close != std::string::npos) r.set("v-dtype", cache_type(line.substr(v + 3, close - v - 3)), short_line(line));
        }
        const double total = size_after(line, has(line, "KV self size") ? "KV self size" : "size");
        if (total >= 0) r.add("kv_cache", "all", total, line);
        r.saw_llama = true;
    }
    if (has(line, "offloaded ") && has(line, " layers to GPU")) {
        const std::size_t at = line.find("offloaded ");
        double done = 0, total = 0;
        const std::size_t slash = line.find('/', at);
        if (read_number(line, at + 10, done) != std::string::npos && slash != std::string::npos &&
            read_number(line, slash + 1, total) != std::string::npos) {
            r.set("ngl", done >= total ? std::string("all") : std::to_string(static_cast<unsigned long long>(done)), short_line(line));
            r.saw_llama = true;
        }
    }
    if (has(line, "mmap = true")) r.note("the model file is memory-mapped (mmap = true)");
    if (has(line, "mmap = false")) r.set("mmap", "off", short_line(line));
    // The model: "loaded meta data with ... from PATH (version GGUF V3 (latest))".
    if (has(line, "loaded meta data with") && has(line, " from ")) {
        const std::size_t from = line.find(" from ");
        std::string path = line.substr(from + 6);
        const std::size_t paren = path.find(" (version");
        if (paren != std::string::npos) path.erase(paren);
        if (r.log.model_ref.empty()) r.log.model_ref = std::string(trim(path));
        else r.note("the log loads a second model (a draft model or a reload): the first is read");
    }
    if ((has(line, "general.name") && has(line, "= ")) && r.log.model_ref.empty()) {
        const std::size_t eq = line.rfind("= ");
        if (eq != std::string::npos) r.log.model_ref = std::string(trim(line.substr(eq + 2)));
    }
    if (has(line, "file type") && has(line, "= ") && (has(line, "print_info") || has(line, "llm_load_print_meta"))) {
        const std::string t = line.substr(line.rfind("= ") + 2);
        std::string dtype;
        if (has(t, "Q4_K - Medium")) dtype = "q4_k_m";
        else if (has(t, "Q5_K - Medium")) dtype = "q5_k_m";
        else if (has(t, "Q3_K - Medium")) dtype = "q3_k_m";
        else if (has(t, "Q6_K")) dtype = "q6_k";
        else if (has(t, "Q8_0")) dtype = "q8_0";
        else if (has(t, "Q4_0")) dtype = "q4_0";
        else if (has(t, "Q2_K - Medium")) dtype = "q2_k";
        else if (has(t, "F16")) dtype = "fp16";
        else if (has(t, "BF16")) dtype = "bf16";
        if (!dtype.empty()) r.set("dtype", dtype, short_line(line));
    }
    if (has(line, "build: ") && r.log.engine_version.empty()) {
        const std::size_t at = line.find("build: ");
        std::string b = word_after(line.substr(at), "build");
        if (!b.empty()) r.log.engine_version = "b" + b;
    }
    if (has(line, "version: ") && r.log.engine_version.empty() && has(line, "(")) {
        const std::string b = word_after(line, "version");
        if (!b.empty()) r.log.engine_version = "b" + b;
    }
}

// Ollama's own lines: memory.* estimates, "starting llama server" cmd=..., the new engine's buffer lines.
void read_ollama_line(Reader& r, const std::string& line) {
    if (!has(line, "level=") && !has(line, "msg=")) return;
    if (has(line, "memory.required.full") || has(line, "memory.required.kv")) {
        r.saw_ollama = true;
        const double kv = size_after(line, "memory.required.kv=");
        if (kv >= 0) r.add("estimate_kv", "all", kv, line);
        const double full = size_after(line, "memory.required.full=");
        if (full >= 0) r.add("estimate_total", "all", full, line);
        const double graph = size_after(line, "memory.graph.full=");
        if (graph >= 0) r.add("estimate_graph", "all", graph, line);
        r.note("memory.* lines are Ollama's own estimate, not allocations: they are shown, not reconciled");
    }
    if (has(line, "starting llama server") || has(line, "starting runner")) {
        r.saw_ollama = true;
        const std::size_t cmd = line.find("cmd=\"");
        if (cmd != std::string::npos) {
            std::string text = line.substr(cmd + 5);
            const std::size_t end = text.rfind('"');
            if (end != std::string::npos) text.erase(end);
            // Ollama's runner takes llama.cpp's spellings: read it as a llama-server command.
            std::string as_llama = "llama-server";
            const std::size_t first_flag = text.find(" --");
            if (first_flag != std::string::npos) as_llama += text.substr(first_flag);
            const Expected<CommandReading> read = read_engine_command(as_llama);
            if (read) {
                for (const CommandSetting& s : read->settings)
                    if (s.key != "engine") r.set(s.key, s.value, short_line(line));
                if (r.log.model_ref.empty() && !read->model_ref.empty()) r.log.model_ref = read->model_ref;
            }
        }
    }
    if (has(line, "msg=\"model weights\"") || has(line, "msg=\"kv cache\"") || has(line, "msg=\"compute graph\"")) {
        r.saw_ollama = true;
        const std::string term = has(line, "model weights") ? "weights" : has(line, "kv cache") ? "kv_cache" : "compute";
        std::string dev = word_after(line, has(line, "buffer=") ? "buffer=" : has(line, "device=") ? "device=" : "backend=");
        const double bytes = size_after(line, "size=");
        r.add(term, device_name(dev), bytes, line);
    }
    if (has(line, "msg=\"Listening on") && has(line, "(version ")) {
        const std::size_t at = line.find("(version ");
        r.log.engine_version = "ollama " + word_after(line.substr(at), "version");
    }
}

// vLLM's start-up lines, V0 and V1.
void read_vllm_line(Reader& r, const std::string& line) {
    double n = 0;
    if (has(line, "Loading model weights took") || has(line, "Model loading took")) {
        r.saw_vllm = true;
        const bool v0 = has(line, "Loading model weights took");
        r.add("weights", "gpu0", size_after(line, v0 ? "took" : "took", v0), line);
        if (v0 && has(line, " GB")) r.note("vLLM V0 prints \"GB\" for 2^30 bytes: the weights line is read as GiB");
    }
    if (has(line, "model weights take")) {
        r.saw_vllm = true;
        r.add("weights", "gpu0", size_after(line, "model weights take"), line);
    }
    if (has(line, "non_torch_memory")) {
        r.saw_vllm = true;
        r.add("non_torch", "gpu0", size_after(line, has(line, "non_torch_memory takes") ? "non_torch_memory takes" : "non_torch_memory"), line);
    }
    if (has(line, "PyTorch activation peak memory")) {
        r.saw_vllm = true;
        r.add("activation_peak", "gpu0", size_after(line, has(line, "peak memory takes") ? "peak memory takes" : "peak memory"), line);
    }
    if (has(line, "the rest of the memory reserved for KV Cache is")) r.add("kv_pool", "gpu0", size_after(line, "KV Cache is"), line);
    if (has(line, "available_kv_cache_memory")) r.add("kv_pool", "gpu0", size_after(line, "available_kv_cache_memory"), line);
    if (has(line, "Available KV cache memory")) {
        r.saw_vllm = true;
        r.add("kv_pool", "gpu0", size_after(line, "Available KV cache memory"), line);
    }
    if (has(line, "kv_cache_size=")) r.add("kv_pool", "gpu0", size_after(line, "kv_cache_size="), line);
    if (has(line, "total_gpu_memory")) {
        r.saw_vllm = true;
        const double total = size_after(line, "total_gpu_memory");
        r.add("total_gpu", "gpu0", total, line);
        if (total > 0) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2fGiB", total / kGiB);
            r.set("gpu-memory", buf, short_line(line));
        }
    }
    if (has(line, "gpu_memory_utilization")) {
        const std::size_t at = line.find("gpu_memory_utilization");
        double u = 0;
        std::size_t pos = at + 22;
        while (pos < line.size() && (line[pos] == ' ' || line[pos] == '=' || line[pos] == '(' || line[pos] == ':' || line[pos] == '\t')) ++pos;
        if (read_number(line, pos, u) != std::string::npos && u > 0 && u <= 1) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", u);
            r.set("gpu-util", buf, short_line(line));
        }
        if (has(line, ") = ")) r.add("usable", "gpu0", size_after(line, ") = "), line);
    }
    if (has(line, "the current vLLM instance can use") && !has(line, "x gpu_memory_utilization"))
        r.add("usable", "gpu0", size_after(line, "can use"), line);
    if ((has(line, "# GPU blocks:") || has(line, "# cuda blocks:")) && number_after(line, has(line, "# GPU blocks:") ? "# GPU blocks:" : "# cuda blocks:", n)) {
        r.saw_vllm = true;
        r.add("gpu_blocks", "gpu0", n, line);
    }
    if (has(line, "GPU KV cache size:") && has(line, "tokens") && number_after(line, "GPU KV cache size:", n)) {
        r.saw_vllm = true;
        r.add("kv_capacity_tokens", "gpu0", n, line);
    }
    if (has(line, "Maximum concurrency for") && number_after(line, "Maximum concurrency for", n)) {
        r.saw_vllm = true;
        r.set("context", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        double x = 0;
        if (number_after(line, "per request:", x)) r.add("max_concurrency", "gpu0", x, line);
    }
    if (has(line, "max seq len (") && has(line, "stored in KV cache (")) {
        r.saw_vllm = true;
        if (number_after(line, "max seq len (", n)) r.set("context", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
        if (number_after(line, "stored in KV cache (", n)) r.add("kv_capacity_tokens", "gpu0", n, line);
        r.note("vLLM refused to start: its KV pool holds fewer tokens than --max-model-len");
    }
    // vLLM's warnings when its hybrid KV-cache manager is off (kv_cache_utils.py unify_hybrid_kv_cache_specs; vllm.py for a
    // connector without HMA support).
    if (has(line, "Hybrid KV cache manager is disabled") || has(line, "Turning off hybrid kv cache manager")) {
        r.saw_vllm = true;
        r.set("disable-hybrid-kv-cache-manager", "on", short_line(line));
    }
    // Configuration: "with config: model='...', ..., max_seq_len=40960, ..., tensor_parallel_size=1, ...".
    if (has(line, "with config:") || has(line, "non-default args:")) {
        r.saw_vllm = true;
        if (has(line, "model='") && r.log.model_ref.empty()) {
            const std::size_t at = line.find("model='") + 7;
            const std::size_t end = line.find('\'', at);
            if (end != std::string::npos) r.log.model_ref = line.substr(at, end - at);
        }
        if (has(line, "'model': '") && r.log.model_ref.empty()) {
            const std::size_t at = line.find("'model': '") + 10;
            const std::size_t end = line.find('\'', at);
            if (end != std::string::npos) r.log.model_ref = line.substr(at, end - at);
        }
        struct Key {
            const char* in_log;
            const char* ours;
        };
        static const Key kKeys[] = {
            {"max_seq_len=", "context"},           {"'max_model_len': ", "context"},
            {"tensor_parallel_size=", "tp"},       {"'tensor_parallel_size': ", "tp"},
            {"pipeline_parallel_size=", "pp"},     {"'pipeline_parallel_size': ", "pp"},
            {"'gpu_memory_utilization': ", "gpu-util"}, {"'max_num_seqs': ", "max-num-seqs"},
            {"'max_num_batched_tokens': ", "max-batched-tokens"}, {"'block_size': ", "block-size"},
        };
        for (const Key& k : kKeys) {
            const std::size_t at = line.find(k.in_log);
            if (at == std::string::npos) continue;
            const std::string w = word_after(line.substr(at), std::string(k.in_log).substr(0, std::string(k.in_log).size() - 1));
            if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0]))) r.set(k.ours, w, short_line(line));
        }
        if (has(line, "enforce_eager=True") || has(line, "'enforce_eager': True")) r.set("enforce-eager", "on", short_line(line));
        if (has(line, "'disable_hybrid_kv_cache_manager': True")) r.set("disable-hybrid-kv-cache-manager", "on", short_line(line));
        if (has(line, "kv_cache_dtype=fp8") || has(line, "'kv_cache_dtype': 'fp8")) r.set("kv-dtype", "fp8", short_line(line));
        if (has(line, "dtype=torch.bfloat16")) r.set("dtype", "bf16", short_line(line));
        else if (has(line, "dtype=torch.float16")) r.set("dtype", "fp16", short_line(line));
    }
    if (has(line, "max_num_batched_tokens=") && has(line, "Chunked prefill is enabled") && number_after(line, "max_num_batched_tokens=", n))
        r.set("max-batched-tokens", std::to_string(static_cast<unsigned long long>(n)), short_line(line));
    if (has(line, "Graph capturing finished") && has(line, "took")) r.add("cuda_graphs", "gpu0", size_after(line, "took"), line);
    if ((has(line, "vLLM API server version") || has(line, "Initializing a V1 LLM engine (v")) && r.log.engine_version.empty()) {
        if (has(line, "version ")) r.log.engine_version = word_after(line, "version");
        else r.log.engine_version = word_after(line, "engine (v");
    }
}

// nvidia-smi: "|  14214MiB / 24564MiB |" per GPU; process rows "... 13213MiB |".
void read_smi_line(Reader& r, const std::string& line, int& gpu_index) {
    const std::size_t slash = line.find("MiB / ");
    if (slash != std::string::npos && line.find('|') != std::string::npos) {
        std::size_t start = slash;
        while (start > 0 && (std::isdigit(static_cast<unsigned char>(line[start - 1])))) --start;
        double used = 0, total = 0;
        if (read_number(line, start, used) != std::string::npos && read_number(line, slash + 6, total) != std::string::npos) {
            r.saw_smi = true;
            const std::string dev = "gpu" + std::to_string(gpu_index++);
            r.add("used", dev, used * kMiB, line);
            r.add("total_gpu", dev, total * kMiB, line);
        }
    }
}

// `ollama ps`: NAME ID SIZE PROCESSOR [CONTEXT] UNTIL.
void read_ollama_ps(Reader& r, const std::vector<std::string>& lines) {
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
        const std::string& header = lines[i];
        if (!(has(header, "NAME") && has(header, "SIZE") && has(header, "PROCESSOR"))) continue;
        const bool has_context = has(header, "CONTEXT");
        for (std::size_t j = i + 1; j < lines.size(); ++j) {
            std::vector<std::string> cols;
            std::string word;
            for (char c : lines[j]) {
                if (c == ' ' || c == '\t') {
                    if (!word.empty()) cols.push_back(word);
                    word.clear();
                } else {
                    word += c;
                }
            }
            if (!word.empty()) cols.push_back(word);
            if (cols.size() < 5) break;
            const double bytes = read_size(cols[2] + " " + cols[3], 0);
            if (bytes < 0) break;
            r.saw_ps = true;
            if (r.log.model_ref.empty()) r.log.model_ref = cols[0];
            r.add("used", "all", bytes, lines[j]);
            // "100% GPU" or "48%/52% CPU/GPU".
            if (cols.size() >= 6) {
                r.note("ollama ps: " + cols[4] + " " + cols[5]);
                if (has_context && cols.size() >= 7) {
                    double ctx = 0;
                    if (read_number(cols[6], 0, ctx) != std::string::npos && ctx > 0) r.set("context", std::to_string(static_cast<unsigned long long>(ctx)), short_line(lines[j]));
                }
            }
            break;  // the first model listed
        }
        return;
    }
}

}  // namespace

Expected<LogReading> read_engine_log(std::string_view text) {
    if (text.size() > 16u * 1024 * 1024) return Error("the log is larger than 16 MiB: paste the load part (from the model's loading to the first request)");
    if (trim(text).empty()) return Error("the log is empty");
    Reader r;
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        lines.push_back(clean_line(text.substr(start, std::min<std::size_t>(end - start, 64 * 1024))));
        start = end + 1;
    }
    int gpu_index = 0;
    // A command pasted with its log ("$ vllm serve meta-llama/Meta-Llama-3-8B"): its model, and its flags
    // for whatever the log's own lines do not state.
    std::vector<CommandSetting> from_command;
    for (const std::string& line : lines) {
        std::string_view t = trim(line);
        if (t.rfind("$ ", 0) == 0) t.remove_prefix(2);
        const bool command = t.rfind("vllm serve ", 0) == 0 || t.rfind("llama-server ", 0) == 0 || t.rfind("llama-cli ", 0) == 0 ||
                             t.rfind("./llama-server ", 0) == 0 || t.rfind("./build/bin/llama-", 0) == 0 ||
                             t.rfind("python -m vllm.", 0) == 0 || t.rfind("python3 -m vllm.", 0) == 0 || t.rfind("ollama run ", 0) == 0;
        if (!command || !from_command.empty()) continue;
        const Expected<CommandReading> read = read_engine_command(t);
        if (!read) continue;
        if (r.log.model_ref.empty()) r.log.model_ref = read->model_ref;
        from_command = read->settings;
        if (from_command.empty()) from_command.push_back({"engine", read->engine, read->program});
    }
    for (const std::string& line : lines) {
        read_llama_line(r, line);
        read_ollama_line(r, line);
        read_vllm_line(r, line);
        read_smi_line(r, line, gpu_index);
    }
    read_ollama_ps(r, lines);
    for (const CommandSetting& s : from_command)
        if (s.key != "engine") r.set(s.key, s.value, "the pasted command: " + s.source);
    if (r.loads > 0) r.note("the log loads a model more than once (a retry, a reload or a draft model): the first load is read");
    if (r.saw_vllm) r.log.kind = "vllm";
    else if (r.saw_llama) r.log.kind = r.saw_ollama ? "ollama" : "llama.cpp";
    else if (r.saw_ollama) r.log.kind = "ollama";
    else if (r.saw_ps) r.log.kind = "ollama ps";
    else if (r.saw_smi) r.log.kind = "nvidia-smi";
    if (r.log.terms.empty()) {
        if (!r.log.settings.empty())
            return Error("the log states settings but no memory figure: paste it through the \"KV buffer size\" and \"compute buffer size\" lines (llama.cpp) or the \"Memory profiling\" and \"GPU KV cache size\" lines (vLLM)");
        return Error("no llama.cpp, Ollama, vLLM or nvidia-smi memory line found (expected lines such as \"CUDA0 KV buffer size = 256.00 MiB\" or \"model weights take 14.96GiB\")");
    }
    // The engine, then the GPUs the log shows (llama.cpp: devices with weights).
    if (r.log.kind == "llama.cpp" || r.log.kind == "ollama" || r.log.kind == "vllm")
        r.log.settings.insert(r.log.settings.begin(), {"engine", r.log.kind, "the log's wording"});
    if (r.log.kind == "llama.cpp" || r.log.kind == "ollama") {
        int gpus = 0;
        for (const MeasuredTerm& t : r.log.terms)
            if (t.term == "weights" && t.device.rfind("gpu", 0) == 0) ++gpus;
        if (gpus > 1) r.set("gpus", std::to_string(gpus), "devices with model buffers");
    }
    if (r.log.kind == "vllm") {
        unsigned long long tp = 1, pp = 1;
        for (const CommandSetting& s : r.log.settings) {
            if (s.key == "tp") tp = std::strtoull(s.value.c_str(), nullptr, 10);
            if (s.key == "pp") pp = std::strtoull(s.value.c_str(), nullptr, 10);
        }
        if (tp * pp > 1) r.set("gpus", std::to_string(tp * pp), "tp x pp");
    }
    return r.log;
}

double term_tolerance(std::string_view term) {
    if (term == "kv_cache") return 0.03;
    if (term == "weights") return 0.05;
    if (term == "compute" || term == "activation_peak" || term == "output") return 0.20;
    return 0.25;
}

namespace {

// The likely cause of a gap, from the term, its sign and the log's settings.
std::string cause_of(const LogReading& log, const ReconcileRow& row) {
    auto setting = [&](const char* key) -> std::string {
        for (const CommandSetting& s : log.settings)
            if (s.key == key) return s.value;
        return {};
    };
    auto stated = [&](const char* key) {  // a setting for a sentence: its value, or that the log is silent
        const std::string v = setting(key);
        return v.empty() ? std::string("not stated in the log") : v;
    };
    const bool over = row.error > 0;
    if (row.term == "kv_cache")
        return over ? "the context: llm-memory counts more cells than the log's n_ctx (" + stated("context") + "); check -c, -np and the SWA layers"
                    : "the context or cache type: the log holds more cells or wider values (n_ctx " + stated("context") + ", type " + stated("kv-dtype") + ")";
    if (row.term == "compute") {
        std::string gpus = setting("gpus");
        if (!over && !gpus.empty() && gpus != "1")
            return "the per-card compute copy: each of the " + gpus + " GPUs of a layer split holds its own compute buffer";
        if (!over && setting("n-outputs-max").empty())
            return "the logits reserved: llama-server since May 2026 reserves the rows its -np slots sample, builds before it (and libllama's "
                   "default) a whole u-batch, n_ubatch x n_vocab x 4 bytes (try n-outputs-max all); or flash attention: without it the scores "
                   "take n_ctx x n_ubatch x heads x 4 bytes (flash_attn " + stated("flash-attn") + ")";
        return over ? "n_ubatch: llama.cpp sizes the compute buffer by the u-batch (n_ubatch " + stated("ubatch") + "), not the context"
                    : "n_ubatch or flash attention: without flash attention the scores take n_ctx x n_ubatch x heads x 4 bytes (flash_attn " + stated("flash-attn") + ")";
    }
    if (row.term == "weights")
        return row.device == "host" ? "mmap: host weights are the mapped file (token_embd and the layers left on the CPU)"
                                    : "the tensor types: a quantized file mixes formats per tensor (the output and attn_v layers are often wider)";
    if (row.term == "kv_pool" || row.term == "kv_capacity_tokens" || row.term == "gpu_blocks" || row.term == "max_concurrency")
        return "the utilization share: vLLM's pool is total x gpu_memory_utilization minus weights, activation peak and non-torch memory, not what the model needs";
    if (row.term == "output") {
        const std::string np = setting("parallel");
        return "the parallel slots and the vocabulary: llama.cpp's output buffer holds the logits of n_seq_max sequences x n_vocab x 4 bytes (" +
               (np.empty() ? std::string("the log does not state n_seq_max; check -np") : "n_seq_max " + np) + ")";
    }
    if (row.term == "activation_peak") return "the batched-token budget: vLLM profiles max_num_batched_tokens, not the context";
    if (row.term == "non_torch") return "non-torch memory (NCCL buffers, CUDA context) depends on the driver and the GPU count";
    if (row.term == "used") return "nvidia-smi also counts the CUDA context and the allocator's free blocks";
    return "";
}

// Estimated figures from llm-memory's JSON: the `engine` object's devices when present.
struct Estimated {
    std::vector<std::pair<std::string, double>> by_key;  // "weights/gpu0" -> bytes
    void put(const std::string& term, const std::string& device, double value) { by_key.emplace_back(term + "/" + device, value); }
    bool get(const std::string& term, const std::string& device, double& value) const {
        for (const auto& [k, v] : by_key)
            if (k == term + "/" + device) {
                value = v;
                return true;
            }
        return false;
    }
};

double number_of(const JsonValue* v) { return v != nullptr && v->is_number() ? v->number() : -1; }

std::string amount(const std::string& term, double value) {
    char buf[64];
    if (term == "kv_capacity_tokens" || term == "gpu_blocks") {
        std::snprintf(buf, sizeof buf, "%.0f", value);
        return buf;
    }
    if (term == "max_concurrency") {
        std::snprintf(buf, sizeof buf, "%.2fx", value);
        return buf;
    }
    if (value >= kGiB) std::snprintf(buf, sizeof buf, "%.2f GiB", value / kGiB);
    else std::snprintf(buf, sizeof buf, "%.2f MiB", value / kMiB);
    return buf;
}

}  // namespace

Expected<std::vector<ReconcileRow>> reconcile_log(const LogReading& log, std::string_view estimate_json) {
    const JsonDocument doc = parse_json(estimate_json);
    if (!doc.ok() || !doc.value.is_object()) return Error("the estimate is not a JSON object");
    Estimated est;
    const JsonValue& root = doc.value;
    if (const JsonValue* engine = root.find("engine"); engine != nullptr && engine->is_object()) {
        if (const JsonValue* devices = engine->find("devices"); devices != nullptr && devices->is_array()) {
            for (const JsonValue& d : devices->items()) {
                const JsonValue* name = d.find("device");
                if (name == nullptr || !name->is_string()) continue;
                const std::string dev = name->text();
                const std::pair<const char*, const char*> fields[] = {
                    {"weights_bytes", "weights"}, {"kv_cache_bytes", "kv_cache"}, {"compute_bytes", "compute"},
                    {"kv_pool_bytes", "kv_pool"}, {"kv_blocks", "gpu_blocks"}, {"kv_capacity_tokens", "kv_capacity_tokens"},
                    {"max_concurrency", "max_concurrency"}, {"activation_peak_bytes", "activation_peak"},
                    {"non_torch_bytes", "non_torch"}, {"output_bytes", "output"}, {"total_bytes", "used"},
                };
                for (const auto& [field, term] : fields) {
                    const double v = number_of(d.find(field));
                    if (v >= 0) est.put(term, dev, v);
                }
                // llama.cpp's output buffer is one of the host's terms (in other_bytes, not a field of its own).
                if (const JsonValue* terms = d.find("terms"); terms != nullptr && terms->is_array())
                    for (const JsonValue& t : terms->items()) {
                        const JsonValue* key = t.find("key");
                        const double v = number_of(t.find("bytes"));
                        if (key != nullptr && key->is_string() && key->text() == "output_buffer" && v >= 0) est.put("output", dev, v);
                    }
            }
            // A figure over all devices: the sum of the devices' KV.
            double kv_all = 0;
            bool any = false;
            for (const JsonValue& d : devices->items()) {
                const double v = number_of(d.find("kv_cache_bytes"));
                if (v >= 0) {
                    kv_all += v;
                    any = true;
                }
            }
            if (any) est.put("kv_cache", "all", kv_all);
        }
    } else {
        // Without an engine model: the seed's terms, for one GPU.
        const double w = number_of(root.find("weight_bytes"));
        const double kv = number_of(root.find("kv_cache_bytes"));
        if (w >= 0) est.put("weights", "gpu0", w);
        if (kv >= 0) {
            est.put("kv_cache", "gpu0", kv);
            est.put("kv_cache", "all", kv);
        }
        const double act = number_of(root.find("inference_activation_bytes"));
        if (act >= 0) {
            est.put("compute", "gpu0", act);
            est.put("activation_peak", "gpu0", act);
        }
    }
    // vLLM's "GPU KV cache size": 0.19 and before log blocks / groups x block size, later releases int(concurrency x
    // max_model_len) (vllm-project/vllm#40691). The two differ for models paged in groups (sliding windows, recurrent
    // state), where ours is the first; a log whose tokens are its concurrency x context is compared with ours so.
    double log_tokens = -1, log_concurrency = -1, ours_tokens = 0, ours_concurrency = 0, context = 0;
    for (const MeasuredTerm& t : log.terms) {
        if (t.device != "gpu0") continue;
        if (t.term == "kv_capacity_tokens") log_tokens = t.value;
        if (t.term == "max_concurrency") log_concurrency = t.value;
    }
    for (const CommandSetting& c : log.settings)
        if (c.key == "context") context = std::atof(c.value.c_str());
    const bool later_log = log_tokens > 0 && log_concurrency > 0 && context > 0 && std::fabs(log_tokens - log_concurrency * context) <= 0.005 * context + 1;
    if (later_log && est.get("kv_capacity_tokens", "gpu0", ours_tokens) && est.get("max_concurrency", "gpu0", ours_concurrency) &&
        std::fabs(ours_tokens - ours_concurrency * context) > 0.01 * ours_tokens)
        for (auto& [k, v] : est.by_key)
            if (k == "kv_capacity_tokens/gpu0") v = std::floor(ours_concurrency * context);
    std::vector<ReconcileRow> rows;
    for (const MeasuredTerm& t : log.terms) {
        if (t.term.rfind("estimate_", 0) == 0) continue;  // Ollama's own estimate: shown by reconcile_text
        if (t.term == "total_gpu" || t.term == "usable") continue;  // inputs, not results
        ReconcileRow row;
        row.term = t.term;
        row.device = t.device;
        row.measured = t.value;
        row.line = t.line;
        row.measured_text = amount(t.term, t.value);
        double e = 0;
        if (est.get(t.term, t.device, e)) {
            row.estimated = e;
            row.has_estimate = true;
            row.error = t.value > 0 ? (e - t.value) / t.value : (e == 0 ? 0 : 1);
            if (std::fabs(row.error) > term_tolerance(t.term)) row.cause = cause_of(log, row);
            row.estimated_text = amount(t.term, e);
            char gap[32];
            std::snprintf(gap, sizeof gap, "%+.1f %%", row.error * 100.0);
            row.gap_text = gap;
        }
        rows.push_back(row);
    }
    int causes = 0;
    for (ReconcileRow& row : rows)
        if (!row.cause.empty()) row.cause_number = ++causes;
    return rows;
}

std::vector<std::string> reconcile_cause_lines(const std::vector<ReconcileRow>& rows) {
    std::vector<std::string> out;
    for (const ReconcileRow& row : rows)
        if (row.cause_number > 0)
            out.push_back("(" + std::to_string(row.cause_number) + ") " + row.term + ", " + row.device + ": likely cause: " + row.cause);
    return out;
}

namespace {

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

}  // namespace

std::string log_heading(const LogReading& log) {
    std::string out = "a " + log.kind + " log";
    if (!log.engine_version.empty()) out += " (" + log.engine_version + ")";
    if (!log.model_ref.empty()) out += ", model " + printable_excerpt(log.model_ref, 80);
    return out;
}

std::string log_settings_text(const LogReading& log) {
    std::string out;
    for (const CommandSetting& s : log.settings) out += (out.empty() ? "" : " ") + s.key + "=" + s.value;
    return out;
}

std::string reconcile_text(const LogReading& log, const std::vector<ReconcileRow>& rows) {
    std::string out = "Reconciled: " + log_heading(log) + "\n";
    if (!log.settings.empty()) out += "Scenario from the log: " + log_settings_text(log) + "\n";
    out += "\n" + pad("term", 20) + pad("device", 8) + pad("measured", 14) + pad("estimated", 14) + "gap\n";
    for (const ReconcileRow& row : rows) {
        std::string line = pad(row.term, 20) + pad(row.device, 8) + pad(row.measured_text, 14);
        if (row.has_estimate) {
            line += pad(row.estimated_text, 14) + row.gap_text;
            line += std::fabs(row.error) <= term_tolerance(row.term) ? "  within" : "  over";
            char tol[16];
            std::snprintf(tol, sizeof tol, " %.0f %%", term_tolerance(row.term) * 100.0);
            line += tol;
        } else {
            line += pad("-", 14) + "(no estimate for this term)";
        }
        out += line + "\n";
        if (!row.cause.empty()) out += "    likely cause: " + row.cause + "\n";
    }
    for (const std::string& line : log_note_lines(log)) out += line + "\n";
    return out;
}

std::vector<std::string> log_note_lines(const LogReading& log) {
    std::vector<std::string> out;
    for (const MeasuredTerm& t : log.terms)
        if (t.term.rfind("estimate_", 0) == 0) out.push_back("Ollama's own estimate, " + t.term.substr(9) + ": " + amount(t.term, t.value));
    for (const std::string& note : log.notes) out.push_back("note: " + note);
    return out;
}

std::string reconcile_json(const LogReading& log, const std::vector<ReconcileRow>& rows,
                           const std::vector<std::string>& not_applied) {
    auto printed = [](const char* format, double value) {
        char text[64];
        std::snprintf(text, sizeof text, format, value);
        return std::string(text);
    };
    JsonWriter w;
    w.begin_object().field("kind", log.kind).field("engine_version", log.engine_version).field("model", log.model_ref);
    w.field("heading", log_heading(log)).key("settings").begin_object();
    for (const CommandSetting& setting : log.settings) w.field(setting.key, setting.value);
    w.end_object().field("settings_text", log_settings_text(log)).key("rows").begin_array();
    for (const ReconcileRow& r : rows) {
        w.begin_object().field("term", r.term).field("device", r.device).raw_field("measured", printed("%.0f", r.measured));
        w.field("measured_text", r.measured_text);
        if (r.has_estimate)
            w.raw_field("estimated", printed("%.0f", r.estimated)).raw_field("error", printed("%.6f", r.error))
                .raw_field("tolerance", printed("%.2f", term_tolerance(r.term)));
        else
            w.key("estimated").null().key("error").null();
        w.field("estimated_text", r.estimated_text).field("gap_text", r.gap_text).field("cause", r.cause);
        w.field("cause_number", r.cause_number).field("line", r.line).end_object();
    }
    w.end_array().field("cause_lines", reconcile_cause_lines(rows)).field("notes", log.notes).field("note_lines", log_note_lines(log)).field("not_applied", not_applied);
    return w.field("text", reconcile_text(log, rows)).end_object().take();
}

std::vector<std::string> apply_log_to_scenario(Scenario& scenario, const LogReading& log, bool take_model) {
    std::vector<std::string> not_applied;
    if (take_model && !log.model_ref.empty()) {
        const ModelReference m = match_model_reference(log.model_ref, log.kind == "ollama ps");
        if (m.preset_key.empty() || !apply_setting(scenario, "model", m.preset_key))
            not_applied.push_back("model: \"" + printable_excerpt(log.model_ref, 60) + "\" is not a built-in model");
    }
    for (const CommandSetting& s : log.settings) {
        if (find_setting(s.key) == nullptr) {
            not_applied.push_back(s.key + "=" + s.value + " (no such setting in this build)");
            continue;
        }
        const Expected<bool> applied = apply_setting(scenario, s.key, s.value);
        if (!applied) not_applied.push_back(s.key + "=" + s.value + ": " + applied.failure().problem);
    }
    return not_applied;
}

Expected<std::vector<std::string>> apply_command_to_scenario(Scenario& scenario, const CommandReading& reading) {
    std::vector<std::string> not_applied;
    Scenario next = scenario;
    if (!reading.preset_key.empty()) {
        if (const Expected<bool> m = apply_setting(next, "model", reading.preset_key); !m) return Error(reading.model_source, m.failure().problem);
        if (!reading.weight_dtype.empty())
            if (const Expected<bool> d = apply_setting(next, "dtype", reading.weight_dtype); !d) return Error(reading.model_source, d.failure().problem);
    } else if (!reading.model_ref.empty()) {
        not_applied.push_back("model: \"" + printable_excerpt(reading.model_ref, 60) + "\" is not a built-in model (the current model stays)");
    }
    for (const CommandSetting& s : reading.settings) {
        if (find_setting(s.key) == nullptr) {
            not_applied.push_back((s.key == "engine" ? "engine=" + s.value : s.source) + " (no such setting in this build)");
            continue;
        }
        const Expected<bool> applied = apply_setting(next, s.key, s.value);
        if (!applied) return Error(s.source, applied.failure().problem);
    }
    scenario = std::move(next);
    return not_applied;
}

Expected<ReconcileOutcome> reconcile_log_text(const Scenario& base, std::string_view log_text) {
    Expected<LogReading> log = read_engine_log(log_text);
    if (!log) return log.failure();
    ReconcileOutcome out;
    out.log = std::move(log.value());
    Scenario scenario = base;
    out.not_applied = apply_log_to_scenario(scenario, out.log, true);
    if (scenario.model == nullptr) return Error("the log does not name a built-in model: choose the model first, then reconcile");
    const Expected<Estimate> estimated = estimate(scenario);
    if (!estimated) return Error("the log's scenario has no estimate: " + estimated.error());
    Expected<std::vector<ReconcileRow>> rows = reconcile_log(out.log, report_json(scenario, *estimated));
    if (!rows) return rows.failure();
    out.rows = std::move(rows.value());
    out.text = reconcile_text(out.log, out.rows);
    for (const std::string& n : out.not_applied) out.text += "not applied: " + n + "\n";
    out.json = reconcile_json(out.log, out.rows, out.not_applied);
    return out;
}

}  // namespace llm_memory
