// Engine logs read back: llama.cpp, Ollama, vLLM and nvidia-smi lines as users posted them in public
// issues (each case names its source), the settings they state, junk and truncated input, and the
// reconciliation against an estimate's JSON with the likely cause of each gap.
#include <catch_amalgamated.hpp>

#include <cmath>
#include <map>

#include "engines/engine_log.hpp"
#include "architecture.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {

constexpr double MiB = 1048576.0;
constexpr double GiB = 1073741824.0;

LogReading read_ok(const std::string& text) {
    const Expected<LogReading> r = read_engine_log(text);
    INFO(r.error());
    REQUIRE(r.ok());
    return *r;
}

double term(const LogReading& log, const std::string& name, const std::string& device) {
    for (const MeasuredTerm& t : log.terms)
        if (t.term == name && t.device == device) return t.value;
    FAIL("no " << name << " on " << device);
    return -1;
}

std::map<std::string, std::string> settings(const LogReading& log) {
    std::map<std::string, std::string> out;
    for (const CommandSetting& s : log.settings) out[s.key] = s.value;
    return out;
}

// fedora-copr/logdetective PR 106: llama-server at n_ctx 32768, no flash attention.
const char* kLogdetective =
    "llama_new_context_with_model: n_ctx      = 32768\n"
    "llama_new_context_with_model: n_batch    = 512\n"
    "llama_new_context_with_model: n_ubatch   = 512\n"
    "llama_new_context_with_model: flash_attn = 0\n"
    "llama_new_context_with_model: freq_base  = 1000000.0\n"
    "llama_kv_cache_init:      CUDA0 KV buffer size =  4096.00 MiB\n"
    "llama_new_context_with_model: KV self size  = 4096.00 MiB, K (f16): 2048.00 MiB, V (f16): 2048.00 MiB\n"
    "llama_new_context_with_model:  CUDA_Host  output buffer size =     0.12 MiB\n"
    "llama_new_context_with_model:      CUDA0 compute buffer size =  2144.00 MiB\n"
    "llama_new_context_with_model:  CUDA_Host compute buffer size =    72.01 MiB\n";

// vllm-project/vllm PR 10511, youkaichao's sanity check: vllm serve meta-llama/Meta-Llama-3-8B on 80 GB.
const char* kVllmProfile =
    "$ vllm serve meta-llama/Meta-Llama-3-8B\n"
    "INFO 12-13 19:54:18 worker.py:243] Memory profiling results:\n"
    "INFO 12-13 19:54:18 worker.py:243] total_gpu_memory     79.22GiB\n"
    "INFO 12-13 19:54:18 worker.py:243] gpu_memory_utilization       0.90\n"
    "INFO 12-13 19:54:18 worker.py:243] the current vLLM instance can use    71.29GiB\n"
    "INFO 12-13 19:54:18 worker.py:243] model weights take   14.96GiB\n"
    "INFO 12-13 19:54:18 worker.py:243] non_torch_memory     1.79GiB\n"
    "INFO 12-13 19:54:18 worker.py:243] PyTorch activation peak memory       1.26GiB\n"
    "INFO 12-13 19:54:18 worker.py:243] available_kv_cache_memory    53.29GiB\n";

}  // namespace

TEST_CASE("llama.cpp load log: buffers per device and the settings the log states") {
    const LogReading log = read_ok(kLogdetective);
    CHECK(log.kind == "llama.cpp");
    CHECK(term(log, "kv_cache", "gpu0") == 4096 * MiB);
    CHECK(term(log, "kv_cache", "all") == 4096 * MiB);
    CHECK(term(log, "compute", "gpu0") == 2144 * MiB);
    CHECK(term(log, "compute", "host") == Catch::Approx(72.01 * MiB));
    CHECK(term(log, "output", "host") == Catch::Approx(0.12 * MiB));
    const auto s = settings(log);
    CHECK(s.at("engine") == "llama.cpp");
    CHECK(s.at("context") == "32768");
    CHECK(s.at("ubatch") == "512");
    CHECK(s.at("nbatch") == "512");
    CHECK(s.at("flash-attn") == "off");
    CHECK(s.at("kv-dtype") == "fp16");
    CHECK(s.at("v-dtype") == "fp16");
}

TEST_CASE("llama.cpp: journald prefixes, colours, old buffer lines and a layer split") {
    // A synthetic log in llama.cpp's older llm_load_tensors wording, with the journald prefix of
    // ollama/ollama#6637 (the figures are made up for the parser, not quoted).
    const LogReading old = read_ok(
        "Sep 04 14:24:56 FORGE ollama[1461072]: llm_load_tensors: ggml ctx size =    0.27 MiB\n"
        "Sep 04 14:24:56 FORGE ollama[1461072]: llm_load_tensors: offloaded 33/33 layers to GPU\n"
        "Sep 04 14:24:56 FORGE ollama[1461072]: llm_load_tensors:        CPU buffer size =   281.81 MiB\n"
        "Sep 04 14:24:56 FORGE ollama[1461072]: llm_load_tensors:      CUDA0 buffer size =  4403.49 MiB\n");
    CHECK(term(old, "weights", "gpu0") == Catch::Approx(4403.49 * MiB));
    CHECK(term(old, "weights", "host") == Catch::Approx(281.81 * MiB));
    CHECK(settings(old).at("ngl") == "all");
    // ggml-org/llama.cpp#27680 (coloured timestamps) and ollama/ollama#10740 (three GPUs, mmap).
    const LogReading split = read_ok(
        "\x1b[34m1.14.610.021\x1b[0m \x1b[32mI \x1b[0mllama_kv_cache:      CUDA0 KV buffer size =   182.75 MiB\n"
        "load_tensors: loading model tensors, this can take a while... (mmap = true)\n"
        "load_tensors: offloaded 65/65 layers to GPU\n"
        "load_tensors:        CUDA0 model buffer size =  6300.10 MiB\n"
        "load_tensors:        CUDA1 model buffer size =  6171.19 MiB\n"
        "load_tensors:        CUDA2 model buffer size =  6371.11 MiB\n"
        "load_tensors:   CPU_Mapped model buffer size =   417.30 MiB\n");
    CHECK(term(split, "kv_cache", "gpu0") == Catch::Approx(182.75 * MiB));
    CHECK(term(split, "weights", "gpu2") == Catch::Approx(6371.11 * MiB));
    CHECK(settings(split).at("gpus") == "3");
    bool mmap_note = false;
    for (const std::string& n : split.notes) mmap_note = mmap_note || n.find("mmap") != std::string::npos;
    CHECK(mmap_note);
}

TEST_CASE("llama.cpp: cache types from type_k and the pipeline-parallel note") {
    // ikawrakow/ik_llama.cpp PR 370 (two GPUs, q8_0 cache).
    const LogReading log = read_ok(
        "llama_kv_cache_init: kv_size = 16384, offload = 1, type_k = 'q8_0', type_v = 'q8_0', n_layer = 62, can_shift = 1\n"
        "llama_kv_cache_init:      CUDA0 KV buffer size =   816.02 MiB\n"
        "llama_kv_cache_init:      CUDA1 KV buffer size =   782.02 MiB\n"
        "llama_new_context_with_model: pipeline parallelism enabled (n_copies=1)\n"
        "llama_new_context_with_model:      CUDA0 compute buffer size =   144.00 MiB\n"
        "llama_new_context_with_model:      CUDA1 compute buffer size =   312.75 MiB\n");
    CHECK(settings(log).at("kv-dtype") == "q8_0");
    CHECK(term(log, "compute", "gpu1") == Catch::Approx(312.75 * MiB));
    REQUIRE_FALSE(log.notes.empty());
    CHECK(log.notes.front().find("pipeline parallelism") != std::string::npos);
}

TEST_CASE("vLLM: the V0 profile table, the one-line form and V1's capacity lines") {
    const LogReading log = read_ok(kVllmProfile);
    CHECK(log.kind == "vllm");
    CHECK(term(log, "weights", "gpu0") == Catch::Approx(14.96 * GiB));
    CHECK(term(log, "non_torch", "gpu0") == Catch::Approx(1.79 * GiB));
    CHECK(term(log, "activation_peak", "gpu0") == Catch::Approx(1.26 * GiB));
    CHECK(term(log, "kv_pool", "gpu0") == Catch::Approx(53.29 * GiB));
    CHECK(term(log, "usable", "gpu0") == Catch::Approx(71.29 * GiB));
    CHECK(settings(log).at("gpu-util") == "0.9");
    // vllm-project/vllm PR 14447 (four workers print the same line; the first is read).
    const LogReading one = read_ok(
        "(VllmWorkerProcess pid=507) INFO 04-12 08:21:19 [worker.py:267] the current vLLM instance can use total_gpu_memory (23.58GiB) x gpu_memory_utilization (0.99) = 23.35GiB\n"
        "(VllmWorkerProcess pid=507) INFO 04-12 08:21:19 [worker.py:267] model weights take 21.21GiB; non_torch_memory takes 0.20GiB; PyTorch activation peak memory takes 0.37GiB; the rest of the memory reserved for KV Cache is 1.57GiB.\n"
        "(VllmWorkerProcess pid=577) INFO 04-12 08:21:19 [worker.py:267] model weights take 21.21GiB; non_torch_memory takes 0.20GiB; PyTorch activation peak memory takes 0.37GiB; the rest of the memory reserved for KV Cache is 1.57GiB.\n");
    CHECK(term(one, "kv_pool", "gpu0") == Catch::Approx(1.57 * GiB));
    CHECK(term(one, "usable", "gpu0") == Catch::Approx(23.35 * GiB));
    CHECK(term(one, "total_gpu", "gpu0") == Catch::Approx(23.58 * GiB));
    CHECK(settings(one).at("gpu-util") == "0.99");
    std::size_t weights = 0;
    for (const MeasuredTerm& t : one.terms) weights += t.term == "weights" ? 1 : 0;
    CHECK(weights == 1);
    // vllm-project/vllm PR 13596: V1's token capacity with a thousands separator.
    const LogReading v1 = read_ok(
        "INFO 02-19 23:56:55 kv_cache_utils.py:524] GPU KV cache size: 2,042,016 tokens\n"
        "INFO 02-19 23:56:55 kv_cache_utils.py:527] Maximum concurrency for 2,048 tokens per request: 997.08x\n");
    CHECK(term(v1, "kv_capacity_tokens", "gpu0") == 2042016);
    CHECK(term(v1, "max_concurrency", "gpu0") == Catch::Approx(997.08));
    CHECK(settings(v1).at("context") == "2048");
    // QwenLM/Qwen3#295: vLLM's refusal states max_model_len and the capacity.
    const LogReading refused = read_ok(
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (7344). "
        "Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n");
    CHECK(term(refused, "kv_capacity_tokens", "gpu0") == 7344);
    CHECK(settings(refused).at("context") == "32768");
    // The warning vLLM prints when its hybrid KV-cache manager is off (kv_cache_utils.py unify_hybrid_kv_cache_specs, as
    // tenstorrent/tt-xla#5727 quotes it) sets the switch, so the reconciled run keeps sliding layers at full length.
    const LogReading hma_off = read_ok(
        "WARNING 07-20 10:00:00 [kv_cache_utils.py:1339] Hybrid KV cache manager is disabled for this hybrid model, This means we do not enable any "
        "optimizations for saving KV cache memory (e.g., dropping the KV cache outside the sliding window).\n"
        "INFO 07-20 10:00:00 [kv_cache_utils.py:1733] GPU KV cache size: 7,584 tokens\n");
    CHECK(settings(hma_off).at("disable-hybrid-kv-cache-manager") == "on");
    // vllm-project/vllm#12664: V0's weights line, where "GB" is 2^30 bytes.
    const LogReading gb = read_ok("(VllmWorkerProcess pid=106022) INFO 02-02 18:01:24 model_runner.py:1116] Loading model weights took 30.7098 GB\n");
    CHECK(term(gb, "weights", "gpu0") == Catch::Approx(30.7098 * GiB));
}

TEST_CASE("Ollama: its own estimate is shown apart, the runner's flags give the scenario") {
    // ollama/ollama#8098.
    const LogReading log = read_ok(
        "time=2024-12-15T01:34:58.907+09:00 level=INFO source=memory.go:356 msg=\"offload to cuda\" layers.requested=-1 layers.model=29 "
        "layers.offload=29 memory.required.full=\"3.7 GiB\" memory.required.kv=\"896.0 MiB\" memory.graph.full=\"424.0 MiB\"\n"
        "time=2024-12-15T01:34:58.907+09:00 level=INFO source=server.go:376 msg=\"starting llama server\" "
        "cmd=\"/usr/lib/ollama/runners/cuda_v12_avx/ollama_llama_server runner --model /root/.ollama/models/blobs/sha256-dde5 "
        "--ctx-size 8192 --batch-size 512 --n-gpu-layers 29 --threads 104 --parallel 4 --port 38609\"\n");
    CHECK(log.kind == "ollama");
    CHECK(term(log, "estimate_kv", "all") == 896 * MiB);
    const auto s = settings(log);
    CHECK(s.at("context") == "8192");
    CHECK(s.at("parallel") == "4");
    CHECK(s.at("ngl") == "29");
    // ollama/ollama PR 11090: the new engine's per-device lines.
    const LogReading next = read_ok(
        "time=2025-06-27T14:42:16.651Z level=INFO source=ggml.go:340 msg=\"model weights\" buffer=CUDA1 size=\"14.8 GiB\"\n"
        "time=2025-06-27T14:42:16.846Z level=INFO source=ggml.go:646 msg=\"compute graph\" backend=CUDA0 buffer_type=CUDA0 size=\"9.1 GiB\"\n");
    CHECK(term(next, "weights", "gpu1") == Catch::Approx(14.8 * GiB));
    CHECK(term(next, "compute", "gpu0") == Catch::Approx(9.1 * GiB));
}

TEST_CASE("nvidia-smi and ollama ps") {
    // vllm-project/vllm#7768.
    const LogReading smi = read_ok(
        "|   0  NVIDIA GeForce RTX 4090        On  | 00000000:1E:00.0 Off |                  Off |\n"
        "| 30%   26C    P8              16W / 450W |  14214MiB / 24564MiB |      0%      Default |\n");
    CHECK(smi.kind == "nvidia-smi");
    CHECK(term(smi, "used", "gpu0") == 14214 * MiB);
    CHECK(term(smi, "total_gpu", "gpu0") == 24564 * MiB);
    // A synthetic `ollama ps` in its current columns (figures made up for the parser).
    const LogReading ps = read_ok(
        "NAME           ID              SIZE      PROCESSOR    CONTEXT    UNTIL\n"
        "llama3.1:8b    46e0c10c039e    6.9 GB    100% GPU     8192       4 minutes from now\n");
    CHECK(ps.kind == "ollama ps");
    CHECK(term(ps, "used", "all") == Catch::Approx(6.9e9));
    CHECK(ps.model_ref == "llama3.1:8b");
    CHECK(settings(ps).at("context") == "8192");
}

TEST_CASE("junk, truncated and empty logs give one clear message") {
    CHECK(read_engine_log("").error() == "the log is empty");
    CHECK(read_engine_log("hello\nworld\n").error().rfind("no llama.cpp, Ollama, vLLM or nvidia-smi memory line found", 0) == 0);
    CHECK(read_engine_log("llama_new_context_with_model: n_ctx      = 32768\n").error().rfind("the log states settings but no memory figure", 0) == 0);
    // A line cut in the middle of its figure is skipped, not read as 0.
    const Expected<LogReading> cut = read_engine_log("llama_kv_cache_init:      CUDA0 KV buffer size =  \n");
    CHECK_FALSE(cut.ok());
    // Binary junk around one good line.
    std::string junk(2000, '\0');
    junk += "\nllama_new_context_with_model:      CUDA0 compute buffer size =   164.00 MiB\n";
    junk += std::string(300, '\xff');
    const LogReading j = read_ok(junk);
    CHECK(term(j, "compute", "gpu0") == 164 * MiB);
    CHECK(read_engine_log(std::string(17u * 1024 * 1024, 'x')).error().rfind("the log is larger than 16 MiB", 0) == 0);
}

TEST_CASE("reconcile: measured against the estimate, with the likely cause of each gap") {
    const LogReading log = read_ok(kLogdetective);
    // An engine estimate with the right KV and a compute buffer sized by the context (the old rule).
    const std::string json =
        "{\"engine\":{\"name\":\"llama.cpp\",\"devices\":["
        "{\"device\":\"gpu0\",\"weights_bytes\":0,\"kv_cache_bytes\":4294967296,\"compute_bytes\":4244635648},"
        "{\"device\":\"host\",\"compute_bytes\":75507712}]}}";
    const Expected<std::vector<ReconcileRow>> rows = reconcile_log(log, json);
    REQUIRE(rows.ok());
    std::map<std::string, ReconcileRow> by;
    for (const ReconcileRow& r : *rows) by[r.term + "/" + r.device] = r;
    CHECK(by.at("kv_cache/gpu0").error == 0);
    CHECK(by.at("kv_cache/gpu0").cause.empty());
    CHECK(by.at("compute/gpu0").error == Catch::Approx(4244635648.0 / (2144 * MiB) - 1));
    CHECK(by.at("compute/gpu0").cause.rfind("n_ubatch", 0) == 0);
    CHECK(std::fabs(by.at("compute/host").error) < 0.20);
    CHECK_FALSE(by.at("output/host").has_estimate);
    const std::string text = reconcile_text(log, *rows);
    CHECK(text.find("likely cause: n_ubatch") != std::string::npos);
    CHECK(text.find("kv_cache") != std::string::npos);
    // Each face shows the same cells: the log's "KV buffer size = 4096.00 MiB" as 4.00 GiB, the log's
    // "compute buffer size = 2144.00 MiB" beside the estimate's 4,244,635,648 bytes (3.95 GiB), +88.8 %.
    CHECK(by.at("kv_cache/gpu0").measured_text == "4.00 GiB");
    CHECK(by.at("kv_cache/gpu0").gap_text == "+0.0 %");
    CHECK(by.at("compute/gpu0").measured_text == "2.09 GiB");
    CHECK(by.at("compute/gpu0").estimated_text == "3.95 GiB");
    CHECK(by.at("compute/gpu0").gap_text == "+88.8 %");
    CHECK(by.at("compute/host").measured_text == "72.01 MiB");
    CHECK(by.at("output/host").estimated_text.empty());
    CHECK(by.at("output/host").gap_text.empty());
    CHECK(text.find("compute             gpu0    2.09 GiB      3.95 GiB      +88.8 %  over 20 %\n") != std::string::npos);
    CHECK(log_heading(log) == "a llama.cpp log");
    CHECK(text.rfind("Reconciled: a llama.cpp log\nScenario from the log: " + log_settings_text(log) + "\n", 0) == 0);
    CHECK(log_settings_text(log).rfind("engine=llama.cpp context=32768 ", 0) == 0);

    // vLLM's pool under the utilization share.
    const LogReading v = read_ok(kVllmProfile);
    const Expected<std::vector<ReconcileRow>> vr = reconcile_log(
        v, "{\"engine\":{\"name\":\"vllm\",\"devices\":[{\"device\":\"gpu0\",\"weights_bytes\":16060522496,\"kv_pool_bytes\":30000000000}]}}");
    REQUIRE(vr.ok());
    for (const ReconcileRow& r : *vr)
        if (r.term == "kv_pool") CHECK(r.cause.rfind("the utilization share", 0) == 0);
    CHECK(reconcile_log(v, "not json").error() == "the estimate is not a JSON object");
}

TEST_CASE("reconcile: a compute buffer above the estimate names the logits reserve, unless the log states it") {
    // ggml-org/llama.cpp#23527 (build 9272, before PR #23861): Llama-3-sized logits for a whole u-batch made the
    // buffer; an estimate at llama-server's current reserve (one row per slot) is then low. The figures here are
    // the test's own: 271,056,896 bytes measured against 104,857,600 estimated.
    const LogReading old = read_ok(
        "llama_context: n_ctx         = 8192\n"
        "llama_context: n_ubatch      = 512\n"
        "llama_context: flash_attn    = 1\n"
        "llama_context:      CUDA0 compute buffer size =   258.50 MiB\n");
    const std::string estimate =
        "{\"engine\":{\"name\":\"llama.cpp\",\"devices\":[{\"device\":\"gpu0\",\"compute_bytes\":104857600}]}}";
    Expected<std::vector<ReconcileRow>> rows = reconcile_log(old, estimate);
    REQUIRE(rows.ok());
    REQUIRE(rows->size() == 1);
    CHECK(rows->front().cause.rfind("the logits reserved: llama-server since May 2026", 0) == 0);
    CHECK(rows->front().cause.find("n-outputs-max all") != std::string::npos);
    // A build that prints its reserve (llama_context: n_outputs_max = 4) sets it, and the cause moves on.
    const LogReading current = read_ok(
        "llama_context: n_ubatch              = 512\n"
        "llama_context: n_outputs_max         = 4\n"
        "llama_context: n_outputs_max_per_seq = 1\n"
        "llama_context:      CUDA0 compute buffer size =   258.50 MiB\n");
    CHECK(settings(current).at("n-outputs-max") == "4");
    rows = reconcile_log(current, estimate);
    REQUIRE(rows.ok());
    CHECK(rows->front().cause.rfind("n_ubatch or flash attention", 0) == 0);
}

TEST_CASE("reconcile without an engine model uses the seed's terms") {
    const LogReading log = read_ok(kLogdetective);
    const Expected<std::vector<ReconcileRow>> rows = reconcile_log(log, "{\"weight_bytes\":1,\"kv_cache_bytes\":4294967296}");
    REQUIRE(rows.ok());
    bool kv = false;
    for (const ReconcileRow& r : *rows)
        if (r.term == "kv_cache" && r.device == "gpu0") kv = r.has_estimate && r.error == 0;
    CHECK(kv);
}

TEST_CASE("reconcile: vLLM's GPU KV cache size compared in the formula the log's release used") {
    // Gemma 3 27B at 131,072 tokens, paged in 7 groups: vLLM 0.19 logs 13,548 blocks / 7 x 16 = 30,960 tokens; later
    // releases log int(1.16 x 131,072) (vllm-project/vllm#40691; the Gemma 4 E4B log of vLLM 0.22.1, 224,353 tokens
    // at 6.85x and 32,768, is one). The estimate states the first; a log of the second is compared with ours so.
    const std::string ours = R"({"engine":{"devices":[{"device":"gpu0","kv_capacity_tokens":30960,"max_concurrency":1.16}]}})";
    auto capacity_gap = [&](const char* log_text) {
        const Expected<std::vector<ReconcileRow>> rows = reconcile_log(read_ok(log_text), ours);
        REQUIRE(rows.ok());
        for (const ReconcileRow& r : *rows)
            if (r.term == "kv_capacity_tokens") return r.error;
        return 1.0;
    };
    CHECK(capacity_gap("INFO [kv_cache_utils.py:1733] GPU KV cache size: 152,043 tokens\n"
                       "INFO [kv_cache_utils.py:1734] Maximum concurrency for 131,072 tokens per request: 1.16x\n") == Catch::Approx(0).margin(1e-9));
    CHECK(capacity_gap("INFO [kv_cache_utils.py:1319] GPU KV cache size: 30,960 tokens\n"
                       "INFO [kv_cache_utils.py:1324] Maximum concurrency for 131,072 tokens per request: 1.16x\n") == Catch::Approx(0).margin(1e-9));
    // Without the concurrency line the release cannot be told: the figure is compared as it stands.
    CHECK(capacity_gap("INFO [kv_cache_utils.py:1733] GPU KV cache size: 152,043 tokens\n") < -0.79);
}

TEST_CASE("reconcile_log_text: the log's scenario on top of the current one, in one call") {
    Scenario base;
    REQUIRE(apply_setting(base, "model", "llama-3-8b"));
    const Expected<ReconcileOutcome> out = reconcile_log_text(base, kLogdetective);
    INFO(out.error());
    REQUIRE(out.ok());
    bool kv = false;
    for (const ReconcileRow& r : out->rows)
        if (r.term == "kv_cache" && r.device == "gpu0") kv = r.has_estimate && r.error == 0;
    CHECK(kv);  // 32 layers x 8 KV heads x 128 x 32768 tokens x 2 x 2 bytes = 4096 MiB, as the log says
    CHECK(out->text.find("Reconciled: a llama.cpp log") == 0);
    // Without a model, the log of a vLLM run names one (meta-llama/Meta-Llama-3-8B) and it is taken.
    const Expected<ReconcileOutcome> v = reconcile_log_text(Scenario{}, kVllmProfile);
    REQUIRE(v.ok());
    CHECK(v->rows.front().term == "weights");
    CHECK(v->rows.front().has_estimate);
    // A log that names no model, on a scenario without one: one clear message.
    CHECK(reconcile_log_text(Scenario{}, kLogdetective).error().rfind("the log does not name a built-in model", 0) == 0);
    CHECK_FALSE(reconcile_log_text(base, "nothing to see").ok());
}

TEST_CASE("apply_command_to_scenario: the model and settings, or the flag that failed") {
    Scenario s;
    const Expected<CommandReading> r = read_engine_command("llama-server -m Qwen2.5-7B-Instruct-Q8_0.gguf -c 8192 -ctk q8_0");
    REQUIRE(r.ok());
    const Expected<std::vector<std::string>> applied = apply_command_to_scenario(s, *r);
    REQUIRE(applied.ok());
    CHECK(s.context_tokens == 8192);
    CHECK(s.kv_dtype == "q8_0");
    REQUIRE(s.model != nullptr);
    CHECK(s.model->preset_key == "qwen2.5-7b");
    const Expected<CommandReading> big = read_engine_command("llama-server -m a.gguf -c 99999999999");
    REQUIRE(big.ok());
    Scenario t;
    const Expected<std::vector<std::string>> refused = apply_command_to_scenario(t, *big);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.failure().key == "-c 99999999999");
    CHECK(t.context_tokens == Scenario{}.context_tokens);  // the last good state stays
}
