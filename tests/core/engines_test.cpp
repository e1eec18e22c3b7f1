// The engine models (core/engines/): every figure checked against a published engine log (URL named at
// the check) or against the engine's own code (file named). llama.cpp figures are exact where the log
// prints them to 0.01 MiB.
#include <catch_amalgamated.hpp>

#include <algorithm>
#include <cmath>
#include <memory>
#include <tuple>

#include "architecture.hpp"
#include "config_fixtures.hpp"
#include "engine_test_support.hpp"
#include "engines/engine.hpp"
#include "engines/engine_fit.hpp"
#include "formats.hpp"
#include "model_file.hpp"
#include "model_presets.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "../files/gguf_writer.hpp"

using namespace llm_memory;
using llm_memory::test::run;
using llm_memory::test::with;
using llm_memory::test::fixture;
using llm_memory::test::model_of;

namespace {
constexpr std::uint64_t MiB = 1ULL << 20;
constexpr std::uint64_t GiB = 1ULL << 30;

const EngineDevice& device(const EngineEstimate& e, const std::string& name) {
    for (const EngineDevice& d : e.devices)
        if (d.device == name) return d;
    FAIL("no device " << name);
    return e.devices.front();
}

std::uint64_t term(const EngineDevice& d, const std::string& key) {
    for (const EngineTerm& t : d.terms)
        if (t.key == key) return t.bytes;
    return 0;
}

std::string term_steps(const EngineDevice& d, const std::string& key) {
    for (const EngineTerm& t : d.terms)
        if (t.key == key) return t.steps;
    return {};
}

// Mistral 7B as its GGUF describes it (llama architecture, no sliding window in the GGUF): 32 layers,
// n_embd 4096, 32 heads, 8 KV heads of 128, n_ff 14336, n_vocab 32000.
Scenario mistral7b_gguf() {
    Scenario s = with({{"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"ngl", "all"}, {"parallel", "1"}, {"flash-attn", "off"}});
    ModelSource m;
    m.display_name = "mistral-7b.gguf";
    m.architecture.model_type = "llama";
    m.architecture.family = ModelFamily::llama;
    m.architecture.hidden_size = 4096;
    m.architecture.num_hidden_layers = 32;
    m.architecture.num_attention_heads = 32;
    m.architecture.num_key_value_heads = 8;
    m.architecture.head_dim = 128;
    m.architecture.intermediate_size = 14336;
    m.architecture.vocab_size = 32000;
    m.architecture.max_position_embeddings = 32768;
    m.counts.total_count = 7'241'732'096ULL;
    m.counts.embedding_count = 32000ULL * 4096;
    m.counts.output_head_count = 32000ULL * 4096;
    m.counts.norm_count = 65 * 4096;
    m.layout.known = true;
    m.layout.layer_bytes.assign(32, 100 * MiB);
    m.layout.token_embd_bytes = 70 * MiB;
    m.layout.output_bytes = 100 * MiB;
    s.model = std::make_shared<const ModelSource>(m);
    s.param_count = m.counts.total_count;
    return s;
}
}  // namespace

TEST_CASE("llama.cpp compute buffer at n_ubatch: the u-batch's logits dominate a small context") {
    // Llama 3 8B at n_ctx 512 with every u-batch token an output (n_outputs_max = n_batch: libllama's default,
    // and llama-server before PR #23861): n_ubatch x (n_vocab + n_embd) x 4 = 512 x (128256 + 4096) x 4 =
    // 258.50 MiB, the figure llama.cpp printed for 8B Q4_K_M (src/llama-context.cpp graph_reserve).
    Scenario s = with({{"model", "llama-3-8b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "512"},
                       {"gpu", "rtx-4090"}, {"ngl", "all"}, {"n-outputs-max", "all"}});
    const EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "compute_buffer") == 271'056'896ULL);
    CHECK(term(device(e, "gpu0"), "compute_buffer") == 258 * MiB + MiB / 2);
    // llama-server now reserves the logits of what its slots sample (tools/server/server-context.cpp
    // server_output_limits: min(n_batch, -np x (1 + draft tokens)); sched_reserve: n_outputs_pp = min(n_ubatch,
    // n_outputs_max)): 4 slots, 4 rows. The largest phase is then the feed-forward: the KQ mask in f32 and its
    // f16 cast, 512 cells x 512 x 6 bytes, and the residual beside up, gate and their product, 512 x (4096 + 3 x
    // 14336) x 4 (the rule that meets gguf-parser-go#45's measured buffers below).
    REQUIRE(apply_setting(s, "n-outputs-max", "auto"));
    const EngineEstimate server = run(s);
    CHECK(term(device(server, "gpu0"), "compute_buffer") == 512ULL * 512 * 6 + 512ULL * (4096 + 3 * 14336) * 4);
    CHECK(std::find(server.settings.begin(), server.settings.end(),
                    "logits reserved for 4 of the u-batch's 512 rows (llama-server: -np x (1 + the drafter's tokens per step))") != server.settings.end());
    // With one slot and a u-batch of 4096 (ggml-org/llama.cpp#23527 ran -b 4096 -ub 4096 for its ~3 GB), the
    // buffer falls from the u-batch's logits, 4096 x (128,256 + 4,096) x 4 = 2.02 GiB, to the feed-forward
    // phase, 8192 x 4096 x 6 + 4096 x (4,096 + 3 x 14,336) x 4 = 928 MiB.
    REQUIRE(apply_setting(s, "context", "8192"));
    REQUIRE(apply_setting(s, "nbatch", "4096"));
    REQUIRE(apply_setting(s, "ubatch", "4096"));
    REQUIRE(apply_setting(s, "parallel", "1"));
    CHECK(term(device(run(s), "gpu0"), "compute_buffer") == 8192ULL * 4096 * 6 + 4096ULL * (4096 + 3 * 14336) * 4);
    REQUIRE(apply_setting(s, "n-outputs-max", "all"));
    CHECK(term(device(run(s), "gpu0"), "compute_buffer") == 4096ULL * (128256 + 4096) * 4);
    // A drafter adds its tokens per step to every slot's rows (tools/server/server-context.cpp server_n_outputs_max:
    // -np x (1 + common_speculative_n_max)): 3 by default since llama.cpp PR #23269 (b9493; 16 before), or
    // --spec-draft-n-max.
    REQUIRE(apply_setting(s, "n-outputs-max", "auto"));
    REQUIRE(apply_setting(s, "ubatch", "512"));
    REQUIRE(apply_setting(s, "draft-model", "llama-3.2-1b"));
    const EngineEstimate drafted = run(s);
    CHECK(std::find(drafted.settings.begin(), drafted.settings.end(),
                    "logits reserved for 4 of the u-batch's 512 rows (llama-server: -np x (1 + the drafter's tokens per step))") != drafted.settings.end());
    CHECK(drafted.command.find(" -md llama-3.2-1b.gguf --spec-type draft-simple") != std::string::npos);
    REQUIRE(apply_setting(s, "draft-max", "8"));
    const EngineEstimate eight = run(s);
    CHECK(std::find(eight.settings.begin(), eight.settings.end(),
                    "logits reserved for 9 of the u-batch's 512 rows (llama-server: -np x (1 + the drafter's tokens per step))") != eight.settings.end());
    CHECK(eight.command.find("--spec-type draft-simple --spec-draft-n-max 8") != std::string::npos);
    REQUIRE(apply_setting(s, "draft-kv-dtype", "q8_0"));
    CHECK(run(s).command.find(" -md llama-3.2-1b.gguf --spec-type draft-simple -ctkd q8_0 -ctvd q8_0 --spec-draft-n-max 8") != std::string::npos);
    CHECK(apply_setting(s, "draft-max", "0").error() == "draft-max: must be at least 1");
    CHECK(!apply_setting(s, "n-outputs-max", "none"));
}

TEST_CASE("llama.cpp's MTP drafting (--spec-type draft-mtp): the model's MTP layer, its KV cache and its graph") {
    // ggml-org/llama.cpp#22673 (MTP support) logged the MTP draft context of a Qwen3.5 with 4 KV heads of 256, as the
    // 27B has, at -c 8192 -np 1: "llama_kv_cache: size = 32.00 MiB (8192 cells, 1 layers, 1/1 seqs), K (f16): 16.00 MiB,
    // V (f16): 16.00 MiB", and its graph, "compute buffer size = 490.00 MiB" at n_ubatch 512: the output phase of a
    // u-batch of logits for the 4B's vocabulary and width, 512 x (248,320 + 2,560) x 4 = 490.00 MiB. Since #23988 the
    // draft context reserves -np rows of logits; n-outputs-max all keeps the u-batch, as those builds did.
    Scenario s = with({{"model", "qwen3.5-27b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"parallel", "1"},
                       {"gpu", "h100-80gb"}, {"mtp", "true"}, {"n-outputs-max", "all"}});
    CHECK(512ULL * (248'320 + 2'560) * 4 == 490 * MiB);
    const EngineEstimate all = run(s);
    const EngineDevice& g = device(all, "gpu0");
    CHECK(term(g, "mtp_kv_buffer") == 32 * MiB);
    CHECK(term(g, "mtp_compute_buffer") == 512ULL * (248'320 + 5'120) * 4);
    // The layer's weights are the MTP module's, in the weights' format (counted in core, checked in architecture_test).
    const Expected<Estimate> est = estimate(s);
    REQUIRE(est);
    CHECK(term(g, "mtp_buffer") == find_term(*est, "mtp_weight")->bytes);
    CHECK(term(g, "mtp_buffer") > 0);
    CHECK(all.command.find(" --spec-type draft-mtp") != std::string::npos);
    // The GGUF that keeps the MTP layer counts it as its 65th block: every layer on the GPU is -ngl 66 (the output
    // layer, the MTP layer, 64 blocks; the ik_llama.cpp#1790 log of Qwen3.6-27B's MTP GGUF: qwen35.block_count 65).
    CHECK(all.command.find(" -ngl 66 ") != std::string::npos);
    CHECK(std::find(all.settings.begin(), all.settings.end(),
                    "-ngl 66: 64 of 64 layers on the GPU + the MTP layer + the output layer; token_embd on the CPU") != all.settings.end());
    // The answer's flags and the JSON say the same -ngl as the command (gpu_layers stays llm-memory's count).
    CHECK(all.gpu_layers == 65);
    CHECK(all.ngl == 66);
    CHECK(engine_fit_flags(all) == "-c 8192 -ngl 66");
    CHECK(engine_json(all).find("\"gpu_layers\":65,\"ngl\":66,\"layers\":64") != std::string::npos);
    // llama-server now: one row a slot in the draft context, so its graph is the layer's feed-forward phase (the mask
    // and the residual beside up, gate and their product); the target reserves -np x (1 + 3) rows.
    REQUIRE(apply_setting(s, "n-outputs-max", "auto"));
    const EngineEstimate now = run(s);
    CHECK(term(device(now, "gpu0"), "mtp_compute_buffer") == 8192ULL * 512 * 6 + 512ULL * (5'120 + 3 * 17'408) * 4);
    CHECK(std::find(now.settings.begin(), now.settings.end(),
                    "logits reserved for 4 of the u-batch's 512 rows (llama-server: -np x (1 + the drafter's tokens per step))") != now.settings.end());
    // Its cache type is the drafter's (-ctkd/-ctvd): q8_0 rows of 1,024 values are 32 blocks of 34 bytes.
    REQUIRE(apply_setting(s, "draft-kv-dtype", "q8_0"));
    const EngineEstimate q8 = run(s);
    CHECK(term(device(q8, "gpu0"), "mtp_kv_buffer") == 8192ULL * 2 * 32 * 34);
    CHECK(q8.command.find(" --spec-type draft-mtp -ctkd q8_0 -ctvd q8_0") != std::string::npos);
    // ... and, as any llama.cpp cache, a quantized V only with flash attention.
    REQUIRE(apply_setting(s, "flash-attn", "off"));
    const Expected<EngineEstimate> no_fa = engine_estimate(s);
    REQUIRE_FALSE(no_fa.ok());
    CHECK(no_fa.error() == "draft-kv-dtype: llama.cpp: V cache quantization requires flash_attn (-fa on)");
    REQUIRE(apply_setting(s, "flash-attn", "on"));
    // Without --mtp the layer stays in the file.
    REQUIRE(apply_setting(s, "mtp", "false"));
    CHECK(term(device(run(s), "gpu0"), "mtp_buffer") == 0);
    // Refused by name where llama.cpp cannot: no MTP layers, GLM-4.5's skipped NextN layer, Ollama, two drafters.
    for (const auto& [model, engine, extra, words] :
         {std::tuple<const char*, const char*, const char*, const char*>{"llama-3.1-8b", "llama.cpp", "", "has no MTP layers"},
          {"glm-4.5-air", "llama.cpp", "", "skips GLM-4.5's NextN layer"},
          {"qwen3.5-27b", "ollama", "", "draft_num_predict"},
          {"qwen3-next-80b-a3b", "llama.cpp", "qwen3-0.6b", "one drafter at a time"}}) {
        Scenario bad = with({{"model", model}, {"engine", engine}, {"mtp", "true"}});
        if (extra[0] != '\0') REQUIRE(apply_setting(bad, "draft-model", extra));
        const Expected<EngineEstimate> refused = engine_estimate(bad);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.failure().key == "mtp");
        CHECK(refused.error().find(words) != std::string::npos);
    }
}

TEST_CASE("llama.cpp of August 2026: a full offload's compute buffer without a u-batch of logits (gguf-parser-go#45)") {
    // https://github.com/gpustack/gguf-parser-go/issues/45: Qwen3-0.6B, ctx 4096, -fa on, q8_0 K and V, -b 2048
    // -ub 512 -np 1, every layer on an MI300X: 32.09 MiB from sched_reserve. One row of logits is reserved; the
    // u-batch's 512 rows would make the buffer 298.8 MiB. The buffer is the feed-forward phase: the KQ mask in f32
    // and its f16 cast at the buffer's start, 4096 x 512 x 6 = 12 MiB, and the residual beside up, gate and their
    // SwiGLU product, 512 x (1024 + 3 x 3072) x 4 = 20 MiB. (Counted without the masks and with two hidden-state
    // tensors, as before, it was 22 MiB: -31 %.) The same table's OLMoE-1B-7B, 64.09 MiB, is the reality table's.
    Scenario s = with({{"model", "qwen3-0.6b"}, {"engine", "llama.cpp"}, {"context", "4096"}, {"flash-attn", "on"}, {"kv-dtype", "q8_0"},
                       {"ubatch", "512"}, {"parallel", "1"}, {"ngl", "all"}, {"gpu-memory", "192GiB"}});
    const double measured = 32.09 * MiB;
    const double server = static_cast<double>(term(device(run(s), "gpu0"), "compute_buffer"));
    CHECK(server == 4096.0 * 512 * 6 + 512.0 * (1024 + 3 * 3072) * 4);
    CHECK(std::abs(server / measured - 1) < 0.005);
    REQUIRE(apply_setting(s, "n-outputs-max", "all"));
    const double whole = static_cast<double>(term(device(run(s), "gpu0"), "compute_buffer"));
    CHECK(whole == 512.0 * (151936 + 1024) * 4);
    CHECK(whole / measured > 9);
}

TEST_CASE("llama.cpp without flash attention: KQ scores, mask and host inputs match a published log to the MiB") {
    // https://github.com/fedora-copr/logdetective/pull/106 (Mistral 7B GGUF, flash_attn = 0, n_ubatch 512):
    //   n_ctx 2048:  CUDA0 KV buffer 256.00 MiB, CUDA0 compute buffer 164.00 MiB, CUDA_Host compute 12.01 MiB,
    //                CUDA_Host output buffer 0.12 MiB
    //   n_ctx 32768: CUDA0 KV buffer 4096.00 MiB, CUDA0 compute buffer 2144.00 MiB, CUDA_Host compute 72.01 MiB
    Scenario s = mistral7b_gguf();
    REQUIRE(apply_setting(s, "context", "2048"));
    EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 256 * MiB);
    CHECK(term(device(e, "gpu0"), "compute_buffer") == 164 * MiB);
    CHECK(term(device(e, "host"), "host_compute_buffer") == 12 * MiB);        // log: 12.01 MiB
    CHECK(term(device(e, "host"), "output_buffer") == 128'000);               // log: 0.12 MiB
    REQUIRE(apply_setting(s, "context", "32768"));
    e = run(s);
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 4096 * MiB);
    CHECK(term(device(e, "gpu0"), "compute_buffer") == 2144 * MiB);
    CHECK(term(device(e, "host"), "host_compute_buffer") == 72 * MiB);        // log: 72.01 MiB
    // The model buffers: every layer and the output on the GPU, token_embd on the host.
    CHECK(term(device(e, "gpu0"), "model_buffer") == 32 * 100 * MiB + 100 * MiB);
    CHECK(term(device(e, "host"), "model_buffer") == 70 * MiB);
}

TEST_CASE("llama.cpp -ngl counts the output layer first, then blocks from the last back") {
    // src/llama-model.cpp load_tensors (b9993-b10437): i_gpu_start = max(n_layer + 1 - ngl, 0),
    // act_gpu_layers = min(ngl, n_layer + 1); the input layer always on the CPU.
    Scenario s = mistral7b_gguf();
    REQUIRE(apply_setting(s, "context", "2048"));
    REQUIRE(apply_setting(s, "ngl", "1"));
    EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "model_buffer") == 100 * MiB);               // the output layer only
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 0);
    CHECK(term(device(e, "host"), "model_buffer") == 70 * MiB + 32 * 100 * MiB);
    REQUIRE(apply_setting(s, "ngl", "32"));
    e = run(s);
    CHECK(term(device(e, "gpu0"), "model_buffer") == 31 * 100 * MiB + 100 * MiB);  // block 0 stays on the CPU
    CHECK(term(device(e, "host"), "kv_buffer") == 8 * MiB);                        // block 0's KV: 2048 x 2048 x 2
    CHECK(e.command.find("-ngl 32") != std::string::npos);
}

TEST_CASE("llama.cpp partial offload: the CPU layers compute on GPU 0 (op offload), the host keeps only the inputs") {
    // ggml/src/ggml-backend.cpp ggml_backend_sched_backend_id_from_cur: an op on weights in host memory runs on
    // the first GPU that offload_op accepts (ggml-cuda: a batch of at least 32), its weights copied into that
    // GPU's compute buffer. Published: https://github.com/ollama/ollama/issues/4139 (Llama 3 8B, 16 of 32
    // layers offloaded, n_ctx 24576, n_ubatch 512): CUDA_Host compute buffer 56.01 MiB, the embeddings
    // 4096 x 512 x 4 and the mask 24576 x 512 x 4 only; CUDA0 compute buffer 1705.00 MiB (the row of
    // tests/fixtures/inference_reality.json checks both).
    Scenario s = mistral7b_gguf();
    REQUIRE(apply_setting(s, "context", "2048"));
    const std::uint64_t full = term(device(run(s), "gpu0"), "compute_buffer");
    REQUIRE(apply_setting(s, "ngl", "16"));  // 15 blocks and the output on the GPU, 17 blocks on the CPU
    EngineEstimate e = run(s);
    CHECK(term(device(e, "host"), "host_compute_buffer") == 12 * MiB);   // inputs only: 8 MiB + 4 MiB
    CHECK(term(device(e, "gpu0"), "compute_buffer") > full);               // a CPU block's 100 MiB copied in
    CHECK(term(device(e, "gpu0"), "compute_buffer") <= full + 100 * MiB);
    // Below a batch of 32 the GPU declines: the CPU computes its blocks in its own buffer.
    REQUIRE(apply_setting(s, "ubatch", "16"));
    e = run(s);
    CHECK(term(device(e, "host"), "host_compute_buffer") > 4096 * 16 * 4 + 2048 * 16 * 4);
}

TEST_CASE("llama.cpp q8_0 cache: 34 bytes per 32 values; a quantized V cache needs flash attention") {
    // ggml block_q8_0 (ggml/src/ggml-common.h): fp16 scale + 32 int8. Llama 3 8B at 8192: 1024 MiB x 34/64 = 544 MiB.
    Scenario s = with({{"model", "llama-3-8b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"kv-dtype", "q8_0"},
                       {"gpu", "rtx-4090"}, {"ngl", "all"}, {"parallel", "1"}});
    CHECK(term(device(run(s), "gpu0"), "kv_buffer") == 544 * MiB);
    REQUIRE(apply_setting(s, "flash-attn", "off"));
    const Expected<EngineEstimate> refused = engine_estimate(s);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().find("V cache quantization requires flash_attn") != std::string::npos);
}

TEST_CASE("llama.cpp sliding-window layers keep GGML_PAD(min(n_ctx, n_swa x n_seq + n_ubatch), 256) cells") {
    // src/llama-kv-cache-iswa.cpp. Gemma 2 9B: 42 layers alternating, window 4096, 8 KV heads x 256.
    Scenario s = with({{"model", "gemma-2-9b"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "h100-80gb"}, {"ngl", "all"}, {"parallel", "1"}});
    const std::uint64_t row = 2ULL * 8 * 256 * 2;  // K + V bytes per cell per layer
    CHECK(term(device(run(s), "gpu0"), "kv_buffer") == 21 * 8192 * row + 21 * 4608 * row);
    REQUIRE(apply_setting(s, "swa-full", "true"));
    CHECK(term(device(run(s), "gpu0"), "kv_buffer") == 42 * 8192 * row);
    // llama-server's default: 4 slots sharing one unified cache; the window counts once per slot.
    Scenario slots = with({{"model", "gemma-2-9b"}, {"engine", "llama.cpp"}, {"context", "32768"}, {"gpu", "h100-80gb"}, {"ngl", "all"}});
    CHECK(term(device(run(slots), "gpu0"), "kv_buffer") == 21 * 32768 * row + 21 * 16896 * row);
}

TEST_CASE("llama.cpp layer split: each GPU holds its layers' KV and its own compute buffer") {
    Scenario s = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"},
                       {"gpus", "2"}, {"tensor-split", "1,1"}, {"ngl", "all"}, {"parallel", "1"}, {"n-outputs-max", "all"}});
    const EngineEstimate e = run(s);
    const std::uint64_t kv_layer = 8192ULL * 2 * 1024 * 2;
    // 81 slots (80 blocks + output) split 1:1: blocks 0-40 on GPU 0 (41/81 < 0.5 is false at 40.5), the rest on GPU 1.
    CHECK(term(device(e, "gpu0"), "kv_buffer") + term(device(e, "gpu1"), "kv_buffer") == 80 * kv_layer);
    CHECK(term(device(e, "gpu0"), "compute_buffer") > 0);
    CHECK(term(device(e, "gpu1"), "compute_buffer") == 512ULL * (128256 + 8192) * 4);  // the output layer's logits (n-outputs-max all)
    CHECK(term(device(e, "gpu0"), "compute_buffer") < term(device(e, "gpu1"), "compute_buffer"));
}

TEST_CASE("llama.cpp fit (ngl auto) offloads what leaves 1024 MiB free; the verdict leads with Runs on") {
    // common/common.h: fit_params_target 1024 MiB per device. Llama 3 70B Q4_K_M is 40 GiB: an RTX 4090 takes part.
    Scenario s = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"}});
    const EngineEstimate e = run(s);
    CHECK(e.gpu_layers > 1);
    CHECK(e.gpu_layers < 81);
    CHECK(device(e, "gpu0").total_bytes + 1024 * MiB <= 24 * GiB);
    Scenario more = s;
    more.engine.ngl_auto = false;
    more.engine.ngl_layers = e.gpu_layers + 1;
    CHECK(device(run(more), "gpu0").total_bytes + 1024 * MiB > 24 * GiB);  // one more layer would not leave the margin
    CHECK(e.verdict.rfind("Runs on 1 x NVIDIA GeForce RTX 4090 with llama.cpp", 0) == 0);
    const Expected<Estimate> est = estimate(s);
    REQUIRE(est.ok());
    const std::string table = report_table(s, *est, UnitChoice::both);
    CHECK(table.rfind("Runs on", 0) == 0);
    const std::size_t trains = table.find("Trains on: no.");
    CHECK(trains != std::string::npos);
    CHECK(table.find("QLoRA", trains) != std::string::npos);
    CHECK(table.find("Training peak") > trains);
}

TEST_CASE("vLLM: weights per GPU, the KV pool, blocks, capacity and concurrency") {
    // Llama 3.1 8B bf16 weights: vLLM logs "Model loading took 14.9889 GiB"
    // (https://github.com/vllm-project/vllm/pull/17122); N x 2 bytes is within 0.3 %.
    const EngineEstimate e = run(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"context", "32768"}}));
    const EngineDevice& g = device(e, "gpu0");
    const double logged = 14.9889 * GiB;
    CHECK(static_cast<double>(g.weights_bytes) == Catch::Approx(logged).epsilon(0.003));
    // The pool is vLLM's formula (vllm/v1/worker/gpu_worker.py): total x 0.9 - weights - activation peak - non-torch.
    const std::uint64_t share = 80 * GiB / 10 * 9;
    CHECK(g.kv_pool_bytes == share - g.weights_bytes - term(g, "activation_peak") - term(g, "non_torch"));
    const std::uint64_t block_bytes = 16ULL * 32 * 2 * 8 * 128 * 2;  // block_size x layers x (K+V) x 8 heads x 128 x 2 bytes
    CHECK(g.kv_blocks == g.kv_pool_bytes / block_bytes);
    CHECK(g.kv_capacity_tokens == g.kv_blocks * 16);
    CHECK(format_decimal(g.max_concurrency) == format_decimal(Decimal::from_ratio((g.kv_capacity_tokens * 100 + 16384) / 32768, 100)));
    CHECK(e.command == "vllm serve meta-llama/Llama-3.1-8B --max-model-len 32768");
}

TEST_CASE("vLLM: a GPTQ checkpoint keeps its embedding and head in 16 bits on the GPUs that hold them") {
    // Qwen1.5-7B-Chat-GPTQ-Int4 on an RTX 3090 at 32,768 tokens: vLLM said "the maximum number of tokens that can
    // be stored in KV cache (24320)" (https://github.com/QwenLM/Qwen3/issues/16; tests/fixtures/inference_reality.json
    // holds the row, within 25 %). Here the split itself, on Llama 2 7B: 2 x 131,072,000 x 2 bytes outside the layers.
    const EngineEstimate one = run(with({{"model", "llama-2-7b"}, {"engine", "vllm"}, {"gpu", "rtx-3090"}, {"dtype", "gptq"}, {"context", "4096"}}));
    CHECK(term(device(one, "gpu0"), "weights") == 3'889'307'648ULL);
    const EngineEstimate two = run(with({{"model", "llama-2-7b"}, {"engine", "vllm"}, {"gpu", "rtx-3090"}, {"dtype", "gptq"}, {"context", "4096"}, {"tp", "2"}, {"gpus", "2"}}));
    // Each rank: half the layers' packed weights and half the embedding and the head (split by vocabulary).
    const std::uint64_t layers = 3'889'307'648ULL - 2 * 131'072'000ULL * 2;
    CHECK(term(device(two, "gpu0"), "weights") == layers / 32 * 32 / 2 + 131'072'000ULL + 131'072'000ULL);
    // Beside them the RoPE table, whole on each rank: 4,096 positions x 128 x 2 bytes (in fp16, as GPTQ runs).
    CHECK(device(two, "gpu0").weights_bytes == term(device(two, "gpu0"), "weights") + 4096ULL * 128 * 2);
    // llama.cpp cannot load it, and says what to pick instead.
    const Expected<EngineEstimate> llama = engine_estimate(with({{"model", "llama-2-7b"}, {"engine", "llama.cpp"}, {"dtype", "gptq"}}));
    REQUIRE_FALSE(llama.ok());
    CHECK(llama.error().find("loads GGUF files, not GPTQ checkpoints") != std::string::npos);
}

TEST_CASE("vLLM loads gpt-oss's MXFP4 experts as the checkpoint stores them") {
    // vllm-project/vllm#22331 (the vllm-openai:gptoss image of August 2025, before vLLM's Marlin path; an RTX 3090,
    // tp 1): "Model loading took 12.8848 GiB" for gpt-oss-20b, the checkpoint unpadded, as an H100's Triton path
    // loads it today. 24 x 32 x 24,883,200 expert weights at 17/32 bytes + 1,804,459,584 others in bf16 =
    // 13,761,264,768 B, with the RoPE table beside them. In bf16 everywhere it would be 38.96 GiB.
    const EngineEstimate e = run(with({{"model", "gpt-oss-20b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"dtype", "mxfp4"}, {"context", "8192"}}));
    const EngineDevice& g = device(e, "gpu0");
    CHECK(term(g, "weights") == 19'110'297'600ULL * 17 / 32 + 1'804'459'584ULL * 2);
    CHECK(static_cast<double>(g.weights_bytes) == Catch::Approx(12.8848 * GiB).epsilon(0.01));
    // An A100 runs vLLM's Marlin MXFP4 kernel, which pads each expert to 2,944 x 3,072 (quantization/mxfp4.py):
    // "Model loading took 13.72 GiB" for the 20b on an A100 (a published vLLM 0.19 run on an A100, myoceane.fr) and
    // 13.7194 GiB in kserve/kserve#4657 (the Marlin warning in its log). Ours: 10,152,345,600 MXFP4 bytes x
    // (2,944 x 3,072) / (2,880 x 2,880) more, 13.69 GiB with the RoPE table, -0.2 %.
    const EngineEstimate a100 = run(with({{"model", "gpt-oss-20b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"dtype", "mxfp4"}, {"context", "8192"}}));
    const EngineDevice& ga = device(a100, "gpu0");
    CHECK(term(ga, "mxfp4_padding") == 10'152'345'600ULL * (2944 * 3072) / (2880 * 2880) - 10'152'345'600ULL);
    CHECK(static_cast<double>(ga.weights_bytes) == Catch::Approx(13.72 * GiB).epsilon(0.005));
    // Split over two GPUs each pads its half: 1,440 to 1,536 wide.
    const EngineEstimate a100x2 =
        run(with({{"model", "gpt-oss-20b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"gpus", "2"}, {"dtype", "mxfp4"}, {"context", "8192"}}));
    CHECK(term(device(a100x2, "gpu1"), "mxfp4_padding") == 10'152'345'600ULL / 2 * (1536 * 3072) / (1440 * 2880) - 10'152'345'600ULL / 2);
    // The H100's Triton path (the run above) adds nothing.
    bool padded = false;
    for (const EngineTerm& t : g.terms) padded = padded || t.key == "mxfp4_padding";
    CHECK_FALSE(padded);
    // A pasted command's --quantization mxfp4 is read; llama.cpp takes the format too (gpt-oss GGUFs are MXFP4).
    // (ggml-org's gpt-oss-20b GGUF, "file size = 11.27 GiB (4.63 BPW)", keeps the rest in Q8_0: llama.cpp says so.)
    const EngineEstimate gguf = run(with({{"model", "gpt-oss-20b"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"dtype", "mxfp4"}, {"context", "8192"}}));
    CHECK(gguf.failure.empty());
    bool q8 = false;
    for (const std::string& note : gguf.notes) q8 = q8 || note.find("the rest in Q8_0 (the 20b: 11.27 GiB, not 12.82)") != std::string::npos;
    CHECK(q8);
    // Left in bf16, llama.cpp and Ollama point at the format their gpt-oss files use.
    for (const char* engine : {"llama.cpp", "ollama"}) {
        bool mx = false;
        for (const std::string& note : run(with({{"model", "gpt-oss-20b"}, {"engine", engine}, {"gpu", "rtx-4090"}, {"context", "8192"}})).notes)
            mx = mx || note.find("store the experts in MXFP4: --dtype mxfp4") != std::string::npos;
        CHECK(mx);
    }
    bool hinted = false;
    for (const std::string& note : run(with({{"model", "gpt-oss-20b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}})).notes)
        hinted = hinted || note.find("--dtype mxfp4") != std::string::npos;
    CHECK(hinted);
}

TEST_CASE("vLLM's FP8 quantizes the linear layers only: the embedding and the head stay in 16 bits") {
    // "Loading model weights took 8.4939 GB" (vLLM's GB then meant GiB) for neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8-dynamic,
    // in a vLLM FP8-vs-FP16 benchmark write-up with guidellm (found through the code index; the FP16 run there logged 14.99 GB).
    // vLLM's Fp8Config.get_quant_method quantizes LinearBase and FusedMoE only: (8,030,261,248 - 2 x 525,336,576) x 1 byte
    // + 2 x 525,336,576 x 2 bytes = 9,080,934,400 B = 8.457 GiB, -0.4 %; N x 1 byte said 7.479 GiB, -12 %.
    const EngineEstimate e = run(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"dtype", "fp8"}, {"context", "8192"}}));
    const EngineDevice& g = device(e, "gpu0");
    // With the RoPE table (131,072 x 128 x 2 bytes, below): 9,114,488,832 B = 8.4886 GiB, -0.06 %.
    CHECK(term(g, "weights") == 9'080'934'400ULL);
    CHECK(g.weights_bytes == 9'080'934'400ULL + 32 * MiB);
    CHECK(static_cast<double>(g.weights_bytes) == Catch::Approx(8.4939 * GiB).epsilon(0.001));
    CHECK(term_steps(g, "weights").find("the embedding and the head stay in 16 bits") != std::string::npos);
}

// GiB with two decimals, as vLLM logs "Model loading took 14.99 GiB" and "14.99 GiB for weight".
std::uint64_t hundredths_of_gib(std::uint64_t bytes) { return (bytes * 100 + GiB / 2) / GiB; }

TEST_CASE("vLLM counts its RoPE cos/sin table with the weights, as its start-up logs show") {
    // vLLM 0.19 on H100s (llm-d-incubation/llm-d-planner accuracy/results/v0.19.0/logs, Llama 3.1 8B Instruct): "Model
    // loading took 14.99 GiB" at tp 1, 7.51 at tp 2, 3.77 at tp 4, 29.98 in fp32, while the parameters are 8,030,261,248
    // x 2 bytes = 14.957 GiB. The table is rotary_embedding/base.py's cos_sin_cache: max_position_embeddings 131,072
    // (llama3 scaling keeps it) x rotary dim 128 x 2 bytes = 32 MiB, whole on every rank.
    constexpr std::uint64_t params = 8'030'261'248ULL;
    auto loaded = [](std::initializer_list<std::pair<const char*, const char*>> extra) {
        Scenario s = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "16384"}});
        for (const auto& [key, value] : extra) REQUIRE(apply_setting(s, key, value).ok());
        return run(s);
    };
    const EngineDevice one = device(loaded({}), "gpu0");
    CHECK(term(one, "rope_table") == 131072ULL * 128 * 2);
    CHECK(one.weights_bytes == params * 2 + 32 * MiB);
    CHECK(hundredths_of_gib(one.weights_bytes) == 1499);
    CHECK(hundredths_of_gib(params * 2) == 1496);  // without it, the log's figure is missed
    // To four decimals, as vLLM 0.6 printed it for the same model on an RTX 3090: "Loading model weights took
    // 14.9888 GB" (its GB then GiB; https://github.com/vllm-project/vllm/issues/10517). The parameters alone: 14.9575.
    CHECK((one.weights_bytes * 10000 + GiB / 2) / GiB == 149888);
    CHECK((params * 2 * 10000 + GiB / 2) / GiB == 149575);
    CHECK(term_steps(one, "rope_table").find("131,072 rows (max_position_embeddings) x rotary dim 128 x 2 bytes") != std::string::npos);
    for (const auto& [tp, logged] : {std::pair{"2", 751ULL}, std::pair{"4", 377ULL}}) {
        const EngineDevice g = device(loaded({{"gpus", tp}, {"tp", tp}}), "gpu1");
        CHECK(term(g, "rope_table") == 32 * MiB);  // not split
        CHECK(hundredths_of_gib(g.weights_bytes) == logged);
    }
    const EngineDevice fp32 = device(loaded({{"dtype", "fp32"}}), "gpu0");
    CHECK(term(fp32, "rope_table") == 64 * MiB);
    CHECK(hundredths_of_gib(fp32.weights_bytes) == 2998);
    // vLLM 0.6 on Llama 3 8B (8,192 positions: 2 MiB) logs "Loading model weights took 14.96 GB" (PR #10511, its GB then GiB).
    CHECK(hundredths_of_gib(device(run(with({{"model", "llama-3-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}})), "gpu0").weights_bytes) == 1496);
    // The pool gives up what the table takes.
    const EngineDevice p = device(loaded({}), "gpu0");
    CHECK(p.kv_pool_bytes + term(p, "rope_table") + term(p, "weights") + term(p, "activation_peak") + term(p, "non_torch") ==
          80ULL * GiB * 9 / 10);
}

TEST_CASE("vLLM's RoPE table follows each config's scaling, rotary fraction and layer types (get_rope)") {
    // Read from the published config.json files in tests/fixtures/configs; the sizes follow vLLM's rotary embeddings
    // (vllm/model_executor/layers/rotary_embedding/: base.py, linear_scaling_rope.py, yarn_scaling_rope.py,
    // deepseek_scaling_rope.py) and each model's get_rope call.
    auto table = [](const char* name) {
        const ModelSource m = model_of(fixture(name));
        Scenario s = with({{"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "4096"}});
        s.model = std::make_shared<const ModelSource>(m);
        s.param_count = m.counts.total_count;
        const EngineEstimate e = run(s);
        return std::pair{term(device(e, "gpu0"), "rope_table"), term_steps(device(e, "gpu0"), "rope_table")};
    };
    // Gemma 3 27B: global layers linear x 8 (LinearScalingRotaryEmbedding: 131,072 x 8 rows) and the sliding layers' own
    // unscaled table (gemma3.py: rope_local_base_freq, default scaling), head_dim 128.
    CHECK(table("gemma-3-27b-it").first == 131072ULL * 8 * 128 * 2 + 131072ULL * 128 * 2);
    CHECK(table("gemma-3-27b-it").second.find("131,072 positions x linear factor 8") != std::string::npos);
    // Gemma 3 1B (no scaling): two tables of 32,768 x 256, the bases differing.
    CHECK(table("gemma-3-1b-pt").first == 2 * 32768ULL * 256 * 2);
    // Qwen3-Next: partial_rotary_factor 0.25 of head_dim 256.
    CHECK(table("qwen3-next-80b-a3b-instruct").first == 262144ULL * 64 * 2);
    // GLM-4.5-Air: partial_rotary_factor 0.5 of 128.
    CHECK(table("glm-4.5-air").first == 131072ULL * 64 * 2);
    // gpt-oss-20b: yarn, original 4,096 x factor 32 rows of head_dim 64.
    CHECK(table("gpt-oss-20b").first == 4096ULL * 32 * 64 * 2);
    CHECK(table("gpt-oss-20b").second.find("original 4,096 positions x yarn factor 32") != std::string::npos);
    // DeepSeek-V3 (MLA): deepseek_yarn over qk_rope_head_dim 64, 4,096 x 40 rows.
    CHECK(table("deepseek-v3").first == 4096ULL * 40 * 64 * 2);
    // Llama 4 Scout: llama3 scaling keeps max_position_embeddings, 10,485,760 rows: 2.5 GiB on every GPU.
    CHECK(table("llama-4-scout-17b-16e").first == 10485760ULL * 128 * 2);
    // Qwen2.5-VL: mrope keeps max_position_embeddings 128,000 x 128.
    CHECK(table("qwen2.5-vl-3b-instruct").first == 128000ULL * 128 * 2);
    // Granite 4.0-H's attention layers have no positions (position_embedding_type "nope"): no table; GPT-2 learns its own.
    CHECK(table("granite-4.0-h-small").first == 0);
    CHECK(table("gpt2").first == 0);
    // A scaling vLLM cannot build without its factor is vLLM's error, named; the count itself still stands.
    const ModelSource unscaled = model_of(R"({"model_type":"llama","num_attention_heads":32,"hidden_size":4096,"num_hidden_layers":32,)"
                                          R"("intermediate_size":11008,"vocab_size":32000,"max_position_embeddings":4096,"rope_scaling":{"rope_type":"linear"}})");
    Scenario bad = with({{"engine", "vllm"}, {"gpu", "h100-80gb"}});
    bad.model = std::make_shared<const ModelSource>(unscaled);
    bad.param_count = unscaled.counts.total_count;
    const Expected<EngineEstimate> refused = engine_estimate(bad);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error() == "config: rope_scaling: a linear scaling without a factor (vLLM's get_rope needs rope_scaling.factor)");
    // The presets carry the same fields.
    CHECK(term(device(run(with({{"model", "gemma-3-27b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "4096"}})), "gpu0"), "rope_table") ==
          table("gemma-3-27b-it").first);
    CHECK(term(device(run(with({{"model", "glm-4.5-air"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"gpus", "4"}, {"tp", "4"}, {"context", "4096"}})), "gpu0"),
               "rope_table") == table("glm-4.5-air").first);
}

TEST_CASE("vLLM: a draft model is a second model on the GPU, and its layers share every KV block") {
    // vLLM's v1 DraftModelProposer (vllm/v1/spec_decode/draft_model.py load_model): the drafter loads on the target's
    // GPUs and its attention layers join the target's in the KV cache spec (get_layers_from_vllm_config), so a block
    // of 16 tokens holds both models' layers. Llama 3.1 8B: 32 layers x 2 x 8 x 128 x 2 bytes = 131,072 bytes a token;
    // Llama 3.2 1B: 16 layers x 2 x 8 x 64 x 2 = 32,768 more. The 1B's weights: 1,235,814,400 x 2 bytes.
    const EngineEstimate plain = run(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"context", "32768"}}));
    const EngineEstimate drafted =
        run(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"context", "32768"}, {"draft-model", "llama-3.2-1b"}}));
    const EngineDevice& p = device(plain, "gpu0");
    const EngineDevice& g = device(drafted, "gpu0");
    // Its own RoPE table too (head_dim 64, not the target's 128: another get_rope entry), 131,072 x 64 x 2 bytes.
    CHECK(term(g, "draft_weights") == 2'471'628'800ULL + 16 * MiB);
    // Its note reaches the output (it was added after the notes were copied, and lost, until 2026-12-05).
    bool noted = false;
    for (const std::string& note : drafted.notes) noted = noted || note.find("is a second model on each GPU") != std::string::npos;
    CHECK(noted);
    // The proposer's buffers at 2,048 batched tokens (llm_base_proposer.py): 2 x 2,048 x 2 bytes + 22 bytes a token.
    CHECK(term(g, "draft_buffers") == 2048ULL * (2 * 2048 * 2 + 22));
    CHECK(term(g, "activation_peak") == term(p, "activation_peak"));  // the 8B's phases are the larger
    CHECK(g.kv_pool_bytes == p.kv_pool_bytes - term(g, "draft_weights") - term(g, "draft_buffers"));
    CHECK(g.kv_blocks == g.kv_pool_bytes / (16ULL * (131'072 + 32'768)));
    CHECK(g.kv_capacity_tokens == g.kv_blocks * 16);
    CHECK(g.kv_capacity_tokens < p.kv_capacity_tokens * 131'072 / (131'072 + 32'768) + 16);
    CHECK(g.weights_bytes == p.weights_bytes + term(g, "draft_weights"));
    CHECK(drafted.command.find("--speculative-config '{\"method\": \"draft_model\", \"model\": \"meta-llama/Llama-3.2-1B\"") != std::string::npos);
    // What vLLM refuses or llm-memory does not model is said, by key.
    const Expected<EngineEstimate> vocab =
        engine_estimate(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"draft-model", "llama-2-7b"}}));
    REQUIRE_FALSE(vocab.ok());
    CHECK(vocab.error() == "draft-model: vLLM: the drafter's vocabulary (32,000) must be the target's (128,256)");
    const Expected<EngineEstimate> kv = engine_estimate(
        with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"draft-model", "llama-3.2-1b"}, {"draft-kv-dtype", "q8_0"}}));
    REQUIRE_FALSE(kv.ok());
    CHECK(kv.error().rfind("draft-kv-dtype: is read by llama.cpp and Ollama only, not by vLLM", 0) == 0);  // the drafter shares the target's cache type
}

TEST_CASE("vLLM's MTP drafting: the model's MTP layer on every GPU, sharing the target's embedding and head, and a layer more in every KV block") {
    // vLLM's MTP proposer (vllm/v1/spec_decode/eagle.py load_model; llm_base_proposer.py _maybe_share_lm_head since PR
    // #34385; models/glm4_moe_mtp.py Glm4MoeMultiTokenPredictorLayer): a GLM-4.5 decoder layer split over tp as the
    // target's, enorm, hnorm, shared_head.norm and eh_proj (a plain nn.Linear 2h -> h: whole on every GPU, in bf16); the
    // embedding and the head are the target's. GLM-4.5-Air's MTP module is 3,616,573,568 parameters (its layer 46 in the
    // checkpoint's index: architecture_test); without its own embedding and head (2 x 151,552 x 4,096) and eh_proj and
    // the norms (2 x 4,096^2 + 3 x 4,096 = 33,566,720) the decoder layer is 2,341,492,864, in bf16 over tp 4.
    const Scenario plain_s = with({{"model", "glm-4.5-air"}, {"engine", "vllm"}, {"gpus", "4"}, {"gpu", "h100-80gb"}, {"context", "32768"}});
    Scenario s = plain_s;
    REQUIRE(apply_setting(s, "mtp", "true"));
    const EngineEstimate plain = run(plain_s);
    const EngineEstimate mtp = run(s);
    CHECK(3'616'573'568ULL - 2ULL * 151'552 * 4'096 - (2ULL * 4'096 * 4'096 + 3 * 4'096) == 2'341'492'864ULL);
    for (const char* gpu : {"gpu0", "gpu3"}) {
        const EngineDevice& p = device(plain, gpu);
        const EngineDevice& g = device(mtp, gpu);
        INFO(gpu);
        CHECK(term(g, "mtp_weights") == 2'341'492'864ULL * 2 / 4 + 33'566'720ULL * 2);
        // The proposer's persistent buffers at 8,192 batched tokens (an H100's default), as a drafter's.
        CHECK(term(g, "draft_buffers") == 8192ULL * (2 * 4'096 * 2 + 22));
        CHECK(term(g, "activation_peak") == term(p, "activation_peak"));  // its layer's phases are the target's
        CHECK(g.kv_pool_bytes == p.kv_pool_bytes - term(g, "mtp_weights") - term(g, "draft_buffers"));
        // A block of 16 tokens spans 46 + 1 layers of 2 x 2 KV heads (8 over tp 4) x 128 values in bf16.
        CHECK(g.kv_blocks == g.kv_pool_bytes / (16ULL * 47 * 512 * 2));
        CHECK(p.kv_blocks == p.kv_pool_bytes / (16ULL * 46 * 512 * 2));
        CHECK(g.kv_capacity_tokens < p.kv_capacity_tokens * 46 / 47);
    }
    // The README's figures (its MTP paragraph).
    CHECK(device(plain, "gpu0").kv_capacity_tokens == 385'168);
    CHECK(device(mtp, "gpu0").kv_capacity_tokens == 348'448);
    CHECK(mtp.command.find(" --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'") != std::string::npos);
    bool noted = false;
    for (const std::string& note : mtp.notes) noted = noted || note.find("PR #34385") != std::string::npos;
    CHECK(noted);
    // DeepSeek-V3 in FP8 at tp 8: the MTP layer's routed experts split over 8 as the target's, eh_proj in bf16 whole,
    // and one more latent row of 576 values in every block (61 + 1 layers).
    const EngineEstimate v3 = run(with({{"model", "deepseek-v3"}, {"dtype", "fp8"}, {"engine", "vllm"}, {"gpus", "8"}, {"gpu", "h200"}, {"context", "65536"}, {"mtp", "true"}}));
    const EngineDevice& d = device(v3, "gpu0");
    CHECK(term(d, "mtp_weights") > (2ULL * 7'168 * 7'168 + 3 * 7'168) * 2 + 256ULL * 3 * 7'168 * 2'048 / 8);
    CHECK(d.kv_blocks == d.kv_pool_bytes / (16ULL * 62 * 576 * 2));
    CHECK(d.kv_capacity_tokens == 616'176);
    // num_speculative_tokens (--draft-max) reruns the same layer: nothing changes but the command.
    Scenario three = s;
    REQUIRE(apply_setting(three, "draft-max", "3"));
    const EngineEstimate k3 = run(three);
    CHECK(device(k3, "gpu0").kv_capacity_tokens == 348'448);
    CHECK(k3.command.find("\"num_speculative_tokens\": 3}'") != std::string::npos);
    // Refused by name: a model without MTP layers, two drafters, pipeline parallelism; tokens a step without a drafter.
    CHECK(engine_estimate(with({{"model", "glm-4.5-air"}, {"engine", "vllm"}, {"draft-max", "2"}})).error() ==
          "draft-max: num_speculative_tokens needs a drafter: --draft-model or --mtp");
    for (const auto& [model, key, value, words] :
         {std::tuple<const char*, const char*, const char*, const char*>{"llama-3.1-8b", "", "", "has no MTP layers"},
          {"glm-4.5-air", "draft-model", "glm-4.5-air", "one drafter at a time"},
          {"glm-4.5-air", "pp", "2", "pipeline parallelism"}}) {
        Scenario bad = with({{"model", model}, {"engine", "vllm"}, {"gpus", "4"}, {"gpu", "h100-80gb"}, {"mtp", "true"}});
        if (key[0] != '\0') REQUIRE(apply_setting(bad, key, value));
        const Expected<EngineEstimate> refused = engine_estimate(bad);
        INFO(model);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.failure().key == "mtp");
        CHECK(refused.error().find(words) != std::string::npos);
    }
}

TEST_CASE("vLLM's MTP drafting beside a hybrid model: the MTP attention joins the attention group, a wider conv state and 1 + K state blocks a request") {
    // Qwen3-Next-80B-A3B at tp 4 (vLLM: qwen3_next_mtp.py builds a full-attention decoder layer; eagle.py puts its
    // attention among the target's before grouping, kv_cache_utils.py _get_kv_cache_groups_uniform_page_size; the
    // GDN state's conv window is conv_kernel - 1 + num_spec wide, mamba_utils.py gated_delta_net_state_shape, as
    // vLLM PR #50272 and tpu-inference PR #2522 describe it; MambaManager gives a request 1 + num_spec blocks, one a
    // draft position). Per rank: conv channels (2 x 16 x 128 + 32 x 128) / 4 = 2,048, SSM 8 heads x 128 x 128, bf16.
    const Scenario plain_s = with({{"model", "qwen3-next-80b-a3b"}, {"engine", "vllm"}, {"gpus", "4"}, {"gpu", "h100-80gb"}, {"context", "32768"}});
    Scenario s = plain_s;
    REQUIRE(apply_setting(s, "mtp", "true"));
    const EngineDevice plain = device(run(plain_s), "gpu0");
    const EngineEstimate one = run(s);
    const EngineDevice& g = device(one, "gpu0");
    // The state grows from (3 x 2,048 + 8 x 128 x 128) x 2 = 274,432 bytes to (4 x 2,048 + ...) x 2 = 278,528: still
    // 17 pages of 16 tokens x 1,024 bytes (one KV head of 256 per rank, K and V), so the block stays 272 tokens.
    const ModelSource next = *load_preset("qwen3-next-80b-a3b");
    const RecurrentShape& gdn = next.architecture.recurrent;
    CHECK(vllm_recurrent_state_bytes(gdn, 4, 2) == 274'432);
    CHECK(vllm_recurrent_state_bytes(gdn, 4, 2, 1) == 278'528);
    CHECK(vllm_recurrent_state_bytes(gdn, 4, 2, 3) == 286'720);
    const VllmHybridLayout without = vllm_hybrid_layout(12, 1024, 36, 274'432, 0);
    const VllmHybridLayout with_mtp = vllm_hybrid_layout(13, 1024, 36, 278'528, 0);
    CHECK(without.block_size == 272);
    CHECK(with_mtp.block_size == 272);
    CHECK(without.group_size == 12);
    CHECK(with_mtp.group_size == 13);  // 13 attention layers in one group, 36 recurrent in 3 (12 each, padded)
    CHECK(with_mtp.recurrent_groups == 3);
    CHECK(plain.kv_blocks == plain.kv_pool_bytes / (272ULL * 1024 * 12));
    CHECK(g.kv_blocks == g.kv_pool_bytes / (272ULL * 1024 * 13));
    // The MTP layer: one MoE decoder layer with fc (2h -> h) split over tp like it (a ColumnParallelLinear) and three
    // norms whole: its 1,650,471,424 parameters (hybrid_test, the checkpoint's mtp.* tensors) in bf16.
    CHECK(term(g, "mtp_weights") == (1'650'471'424ULL - 3 * 2'048) * 2 / 4 + 3ULL * 2'048 * 2);
    CHECK(g.kv_pool_bytes == plain.kv_pool_bytes - term(g, "mtp_weights") - term(g, "draft_buffers"));
    // A request of 32,768 tokens: 121 attention blocks and 3 x (1 + 1) state blocks.
    CHECK(g.max_concurrency == Decimal::from_ratio((g.kv_blocks * 100 + 127 / 2) / 127, 100));
    CHECK(one.command.find("--speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 1}'") != std::string::npos);
    // Three tokens a step: the state 2 x 2,048 x 2 bytes wider (286,720: 18 pages, so a block of 288 tokens) and
    // 3 x 4 state blocks a request.
    REQUIRE(apply_setting(s, "draft-max", "3"));
    const EngineDevice k3 = device(run(s), "gpu0");
    CHECK(vllm_hybrid_layout(13, 1024, 36, 286'720, 0).block_size == 288);
    CHECK(k3.kv_blocks == k3.kv_pool_bytes / (288ULL * 1024 * 13));
    CHECK(k3.max_concurrency == Decimal::from_ratio((k3.kv_blocks * 100 + (114 + 12) / 2) / (114 + 12), 100));
}

TEST_CASE("vLLM's activation peak follows the batched tokens and the sampler, not the context") {
    // vLLM 0.19 on an H100, 8192 batched tokens and 1024 sequences (its defaults there), as it logs "Actual usage is
    // ... GiB for peak activation" (llm-d-incubation/llm-d-planner, accuracy/results/v0.19.0/logs,
    // meta-llama-llama-3-1-8b--h100-80gb--tp1pp1dp1--16384.log and qwen-qwen2---h100-80gb--tp1pp1dp1--8192-dtbf16-kvfp8.log):
    // Llama 3.1 8B 1.89 GiB at max_model_len 16384, Qwen2.5 7B 2.21 GiB; the same 1.89 GiB at 2048 and 32768.
    Scenario s = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "16384"}});
    const std::uint64_t peak = term(device(run(s), "gpu0"), "activation_peak");
    CHECK(static_cast<double>(peak) == Catch::Approx(1.89 * GiB).epsilon(0.05));
    REQUIRE(apply_setting(s, "context", "32768"));
    CHECK(term(device(run(s), "gpu0"), "activation_peak") == peak);
    const Scenario q = with({{"model", "qwen2.5-7b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "8192"}});
    CHECK(static_cast<double>(term(device(run(q), "gpu0"), "activation_peak")) == Catch::Approx(2.21 * GiB).epsilon(0.05));
}

TEST_CASE("vLLM's profile keeps the fused-MoE workspace through the sampler run") {
    // vLLM 0.19 on H100s, 8192 batched tokens and 1024 sequences, "Actual usage is ... GiB for peak activation"
    // (llm-d-incubation/llm-d-planner accuracy/results/v0.19.0/logs, excerpts in tests/fixtures/engine_logs/):
    // Mixtral 8x7B at tp 2 1.21 GiB (llm-d-planner-v0.19-mixtral-8x7b-tp2.log), DeepSeek-V2-Lite 1.93 GiB
    // (llm-d-planner-v0.19-deepseek-v2-lite.log), Qwen1.5-MoE-A2.7B 2.47 GiB (llm-d-planner-v0.19-qwen1.5-moe-a2.7b.log).
    // The MoE layers take workspace13 = M x top_k x max(N/2, K) and workspace2 = M x top_k x max(N, K) from the
    // worker's WorkspaceManager (fused_moe/modular_kernel.py _allocate_buffers, TritonExperts.workspace_shapes,
    // vllm/v1/worker/workspace.py), which keeps it while profile_run goes on to _dummy_sampler_run.
    const Scenario mixtral = with({{"model", "mixtral-8x7b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"},
                                   {"context", "8192"}, {"gpus", "2"}, {"tp", "2"}});
    // N = 2 x 14,336 / tp 2 = 14,336, K = 4,096: 8192 x 2 x (7,168 + 14,336) x 2 bytes of workspace, then the sampler
    // phase: 8192 x 4,096 x 2 hidden states + 1,024 x 32,000 vocabulary x 15 bytes.
    const std::uint64_t workspace = 8192ULL * 2 * (7168 + 14336) * 2;
    const std::uint64_t sampler = 8192ULL * 4096 * 2 + 1024ULL * 32000 * 15;
    const std::uint64_t mixtral_peak = term(device(run(mixtral), "gpu0"), "activation_peak");
    CHECK(mixtral_peak == workspace + sampler);
    CHECK(static_cast<double>(mixtral_peak) == Catch::Approx(1.21 * GiB).epsilon(0.05));
    const Scenario deepseek = with({{"model", "deepseek-v2-lite"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "8192"}});
    CHECK(static_cast<double>(term(device(run(deepseek), "gpu0"), "activation_peak")) == Catch::Approx(1.93 * GiB).epsilon(0.05));
    const Scenario qwen = with({{"model", "qwen1.5-moe-a2.7b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "8192"}});
    CHECK(static_cast<double>(term(device(run(qwen), "gpu0"), "activation_peak")) == Catch::Approx(2.47 * GiB).epsilon(0.05));
    // A dense model has no such workspace: Llama 3.1 8B keeps its 1.89 GiB (checked above).
    const Scenario dense = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "8192"}});
    CHECK(term(device(run(dense), "gpu0"), "activation_peak") == 8192ULL * 4096 * 2 + 1024ULL * 128256 * 15);
}

TEST_CASE("vLLM's later pipeline stages hold the tensors they receive") {
    // vLLM 0.19, Llama 3.1 8B in two pipeline stages on H100s (llm-d-planner-v0.19-llama-3.1-8b-pp2.log): the last
    // stage logs 2.01 GiB of peak activation, its sampler phase plus the IntermediateTensors buffers that
    // gpu_model_runner._dummy_run makes on every stage after the first (make_empty_intermediate_tensors at
    // max_num_tokens: hidden states and residual, 8192 x 4,096 x 2 bytes each).
    const Scenario s = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"},
                             {"context", "8192"}, {"gpus", "2"}, {"pp", "2"}});
    const EngineEstimate e = run(s);
    const std::uint64_t last = term(device(e, "gpu1"), "activation_peak");
    CHECK(last == 2 * 8192ULL * 4096 * 2 + 8192ULL * 4096 * 2 + 1024ULL * 128256 * 15);
    CHECK(static_cast<double>(last) == Catch::Approx(2.01 * GiB).epsilon(0.03));
    // The first stage receives nothing and runs no sampler: its peak is the MLP phase at the compiled graph's
    // SiLU-and-mul, gate_up and its product beside four hidden-wide tensors. vLLM logs 1.10 GiB there; this is
    // 0.906 GiB, 17.6 % under (with two hidden-wide tensors it was 0.78 GiB, 29 % under).
    const std::uint64_t first_peak = term(device(e, "gpu0"), "activation_peak");
    CHECK(first_peak == 8192ULL * (3 * 14336 + 4 * 4096) * 2);
    CHECK(static_cast<double>(first_peak) == Catch::Approx(1.10 * GiB).epsilon(0.20));
    CHECK(term_steps(device(e, "gpu0"), "activation_peak").find("dense MLP 8,192 x (3 x 14,336 + 4 x 4,096) x 2") != std::string::npos);
    // The same log: stage 0 has "Available KV cache memory: 66.54 GiB" (68,133 blocks of 16 x 65,536 bytes), yet the
    // engine logs one "GPU KV cache size: 1,075,312 tokens" = 67,207 blocks, the last stage's. vLLM gives every worker
    // the smallest worker's block count and shrinks the others' KV tensors to it (kv_cache_utils.py get_kv_cache_configs).
    const EngineDevice& first = device(e, "gpu0");
    const EngineDevice& second = device(e, "gpu1");
    CHECK(second.kv_blocks < 68133);
    CHECK(first.kv_blocks == second.kv_blocks);
    CHECK(first.kv_capacity_tokens == second.kv_capacity_tokens);
    CHECK(first.max_concurrency == second.max_concurrency);
    CHECK(term(first, "kv_cache") == first.kv_blocks * 16 * 65536);  // 16 layers x 2 x 8 x 128 x 2 bytes a token
    CHECK(first.kv_pool_bytes == term(first, "kv_cache"));
    CHECK(term_steps(first, "kv_cache").find("every GPU keeps the smallest GPU's") != std::string::npos);
    CHECK(term_steps(second, "kv_cache").find("every GPU keeps") == std::string::npos);
    CHECK(static_cast<double>(second.kv_capacity_tokens) == Catch::Approx(1075312).epsilon(0.01));
}

TEST_CASE("vLLM's non-torch memory grows with tensor parallelism") {
    // vLLM 0.19 logs 0.25 GiB of non-torch memory for Llama 3.1 8B on one H100 and 2.07 / 2.13 GiB per rank at
    // tensor parallel 2 / 4 (llm-d-incubation/llm-d-planner accuracy logs, ...--tp2pp1dp1--8192.log, ...--tp4pp1dp1--8192.log).
    const Scenario one = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"context", "8192"}});
    CHECK(static_cast<double>(term(device(run(one), "gpu0"), "non_torch")) == Catch::Approx(0.25 * GiB).epsilon(0.05));
    const Scenario two = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"context", "8192"}, {"gpus", "2"}, {"tp", "2"}});
    CHECK(static_cast<double>(term(device(run(two), "gpu1"), "non_torch")) == Catch::Approx(2.07 * GiB).epsilon(0.05));
}

TEST_CASE("vLLM splits a MoE model's routed experts over tp x dp GPUs; --enable-expert-parallel spreads whole experts") {
    // vllm/model_executor/layers/fused_moe/config.py FusedMoEParallelConfig.make: without expert parallelism the MoE
    // layers' tensor parallelism is flattened over tp x dp (every GPU a slice of every expert); with it each GPU holds
    // whole experts, determine_expert_map giving E / ep to each and one more to the first E mod ep. Attention, the
    // embedding, the head, the dense first layer and the shared experts split over tp alone, on every replica.
    // DeepSeek-V2-Lite: 26 MoE layers of 64 experts, each gate, up and down 2,048 x 1,408 in bf16.
    constexpr std::uint64_t expert = 3ULL * 2048 * 1408 * 2;  // 17,301,504 bytes
    constexpr std::uint64_t moe_layers = 26;
    auto weights = [](std::initializer_list<std::pair<const char*, const char*>> extra, const char* gpu) {
        Scenario s = with({{"model", "deepseek-v2-lite"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "8192"}});
        for (const auto& [key, value] : extra) REQUIRE(apply_setting(s, key, value).ok());
        return device(run(s), gpu).weights_bytes;
    };
    // deepseek-ai/DeepSeek-Coder-V2-Lite-Instruct (the same architecture) at tp 4: "Model loading took 7.3858 GB" on
    // each rank, vLLM's GB being GiB then (https://github.com/vllm-project/vllm/issues/15607).
    const std::uint64_t tp4 = weights({{"tp", "4"}, {"gpus", "4"}}, "gpu3");
    CHECK(static_cast<double>(tp4) == Catch::Approx(7.3858 * GiB).epsilon(0.01));
    // 64 experts over 4 GPUs: 16 whole experts each hold what a quarter of every expert did.
    CHECK(weights({{"tp", "4"}, {"gpus", "4"}, {"expert-parallel", "true"}}, "gpu3") == Catch::Approx(static_cast<double>(tp4)).margin(64));
    // -dp 2 at tp 1: the attention and the rest whole, half of every expert.
    const std::uint64_t one = weights({}, "gpu0");
    CHECK(static_cast<double>(weights({{"dp", "2"}, {"gpus", "2"}}, "gpu1")) == Catch::Approx(static_cast<double>(one - moe_layers * 64 * expert / 2)).margin(64));
    // -dp 3 with expert parallelism: 22, 21 and 21 experts, so the first GPU holds one expert per layer more.
    Scenario three = with({{"model", "deepseek-v2-lite"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "8192"}, {"dp", "3"}, {"gpus", "3"}, {"expert-parallel", "true"}});
    const EngineEstimate e = run(three);
    REQUIRE(e.devices.size() == 4);  // three GPUs and the host
    CHECK(device(e, "gpu0").weights_bytes - device(e, "gpu1").weights_bytes == moe_layers * expert);
    CHECK(device(e, "gpu1").weights_bytes == device(e, "gpu2").weights_bytes);
    CHECK(term_steps(device(e, "gpu0"), "weights").find("x 22 of 64 experts") != std::string::npos);
    // Each replica is its own engine with its own pool: the fuller first GPU keeps fewer blocks, the others theirs.
    CHECK(device(e, "gpu0").kv_blocks < device(e, "gpu1").kv_blocks);
    CHECK(device(e, "gpu1").kv_blocks == device(e, "gpu2").kv_blocks);
    CHECK(e.command.find("--data-parallel-size 3 --enable-expert-parallel") != std::string::npos);
    // vLLM's own checks: the experts' width must divide over tp x dp (FusedMoEConfig), and ranks need an expert each.
    const Expected<EngineEstimate> uneven = engine_estimate(with({{"model", "deepseek-v2-lite"}, {"engine", "vllm"}, {"dp", "3"}, {"gpus", "3"}}));
    REQUIRE_FALSE(uneven.ok());
    CHECK(uneven.failure().key == "dp");
    CHECK(uneven.failure().problem.find("intermediate size (1,408) must be divisible by tp x dp (3)") != std::string::npos);
    const Expected<EngineEstimate> few = engine_estimate(with({{"model", "mixtral-8x7b"}, {"engine", "vllm"}, {"dp", "16"}, {"gpus", "16"}, {"expert-parallel", "true"}}));
    REQUIRE_FALSE(few.ok());
    CHECK(few.failure().problem.find("8 experts cannot be spread over 16") != std::string::npos);
    const Expected<EngineEstimate> count = engine_estimate(with({{"model", "deepseek-v2-lite"}, {"engine", "vllm"}, {"dp", "2"}, {"tp", "2"}, {"gpus", "2"}}));
    REQUIRE_FALSE(count.ok());
}

TEST_CASE("vLLM data parallelism repeats a dense model's engine: the same figures on each replica's GPUs") {
    const Scenario one = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "8192"}});
    Scenario two = one;
    REQUIRE(apply_setting(two, "dp", "2").ok());
    REQUIRE(apply_setting(two, "expert-parallel", "true").ok());
    const EngineEstimate a = run(one), b = run(two);
    for (const char* gpu : {"gpu0", "gpu1"}) {
        CHECK(device(b, gpu).total_bytes == device(a, "gpu0").total_bytes);
        CHECK(device(b, gpu).kv_blocks == device(a, "gpu0").kv_blocks);
        CHECK(term(device(b, gpu), "non_torch") == term(device(a, "gpu0"), "non_torch"));  // independent engines: no NCCL group
    }
    CHECK(b.needed_bytes == 2 * device(a, "gpu0").total_bytes + device(b, "host").total_bytes);
    CHECK(std::find(b.notes.begin(), b.notes.end(), "--enable-expert-parallel: the model has no experts, so nothing changes.") != b.notes.end());
}

TEST_CASE("vLLM refuses to start, in its own words, when one request of max_model_len does not fit") {
    // vllm/v1/core/kv_cache_utils.py check_enough_kv_cache_memory.
    const EngineEstimate e = run(with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "rtx-4090"}}));
    CHECK_FALSE(e.runs);
    CHECK(e.failure.rfind("ValueError: To serve at least one request with the models's max seq len (131072)", 0) == 0);
    CHECK(e.failure.find("estimated maximum model length is") != std::string::npos);
    CHECK(e.auto_context_tokens > 0);
    CHECK(e.auto_context_tokens < 131072);
    CHECK(e.verdict.rfind("Does not run on 1 x NVIDIA GeForce RTX 4090 with vLLM", 0) == 0);
}

TEST_CASE("vLLM pages a hybrid model's recurrent state with the attention blocks, as its logs show") {
    // Qwen3.5-27B (config.json: 64 layers, full_attention_interval 4, 4 KV heads of 256; Gated DeltaNet with 16 key
    // heads and 48 value heads of 128, conv kernel 4, mamba_ssm_dtype float32) on one GPU: one layer's state is
    // 3 x (2 x 16 x 128 + 48 x 128) x 2 + 48 x 128 x 128 x 4 bytes.
    RecurrentShape qwen35;
    qwen35.kind = MixerKind::gated_deltanet;
    qwen35.n_groups = 16;
    qwen35.d_state = 128;
    qwen35.n_heads = 48;
    qwen35.d_inner = 48 * 128;
    qwen35.conv_kernel = 4;
    qwen35.ssm_state_bytes = 4;
    CHECK(vllm_recurrent_state_bytes(qwen35, 1, 2) == 3'207'168);
    const VllmHybridLayout l27 = vllm_hybrid_layout(16, 2 * 4 * 256 * 2, 48, 3'207'168, 0);
    // vLLM logs "Setting attention block size to 784 tokens" and "Padding mamba page size by 0.13%"
    // (a Qwen3.5 run's start-up log, 2026-04-25, found by the log line): 784 x 4,096 = 3,211,264.
    CHECK(l27.block_size == 784);
    CHECK(l27.page_bytes == 3'211'264);
    CHECK((l27.page_bytes - l27.state_bytes) * 10000 / l27.state_bytes == 12);  // 0.128 %, printed 0.13%
    // 16 attention and 48 recurrent layers: groups of 16, 1 attention and 3 recurrent.
    CHECK(l27.group_size == 16);
    CHECK(l27.attention_groups == 1);
    CHECK(l27.recurrent_groups == 3);
    // vllm-project/vllm#40691 (vLLM 0.19.0, Qwen3.5-27B, --max-model-len 32768): "GPU KV cache size: 290,864
    // tokens" and "Maximum concurrency for 32,768 tokens per request: 33.04x". Both follow from 1,487 blocks: a request
    // holds ceil(32768 / 784) + 3 = 45, 1,487 / 45 = 33.04, and 1,487 / 4 groups x 784 = 290,864.
    CHECK(l27.blocks_per_request(32768) == 45);
    CHECK(l27.logged_tokens(1487, 32768) == 290'864);
    CHECK(1487 * 100 / l27.blocks_per_request(32768) == 3304);
    // The logged tokens are not one request's room: 1,487 blocks hold one request of (1,487 - 3) x 784 tokens.
    CHECK(l27.longest_request(1487, 2'000'000) == 1484ULL * 784);
    CHECK(l27.longest_request(3, 32768) == 0);

    // The qwen3.5-27b preset (its published config.json) gives the same shape, and the engine the same block.
    CHECK(vllm_recurrent_state_bytes(load_preset("qwen3.5-27b")->architecture.recurrent, 1, 2) == 3'207'168);
    const EngineEstimate q27 = run(with({{"model", "qwen3.5-27b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "32768"}}));
    CHECK(q27.settings[2].find("--block-size 784 ") != std::string::npos);

    // Qwen3.5-35B-A3B (10 attention layers of 2 KV heads x 256; 30 GDN layers of 16 key and 32 value heads of 128,
    // fp32 SSM state): "Setting attention block size to 1056 tokens", "Padding mamba page size by 0.76%" (a vLLM
    // start-up log of 2026-03-23, same search).
    RecurrentShape qwen35a3b = qwen35;
    qwen35a3b.n_heads = 32;
    qwen35a3b.d_inner = 32 * 128;
    const VllmHybridLayout l35 = vllm_hybrid_layout(10, 2 * 2 * 256 * 2, 30, vllm_recurrent_state_bytes(qwen35a3b, 1, 2), 0);
    CHECK(l35.block_size == 1056);
    CHECK((l35.page_bytes - l35.state_bytes) * 10000 / l35.state_bytes == 76);
    CHECK(l35.attention_groups + l35.recurrent_groups == 4);
    CHECK(vllm_hybrid_layout(10, 2 * 2 * 256 * 2, 30, vllm_recurrent_state_bytes(load_preset("qwen3.5-35b-a3b")->architecture.recurrent, 1, 2), 0)
              .block_size == 1056);

    // Nemotron-Nano-9B-v2 (Mamba-2: 128 heads of 80, 8 groups, state 128; 4 attention layers of 8 KV heads x 128):
    // with a 16-bit SSM state, 672 tokens (vllm-project/vllm#24280, before vLLM read the config's
    // mamba_ssm_cache_dtype); the config's float32 gives 1,312, which the preset carries.
    const Architecture nemotron = load_preset("nemotron-nano-9b-v2")->architecture;
    RecurrentShape sixteen = nemotron.recurrent;
    sixteen.ssm_state_bytes = 2;
    CHECK(vllm_hybrid_layout(4, 2 * 8 * 128 * 2, 27, vllm_recurrent_state_bytes(sixteen, 1, 2), 0).block_size == 672);
    const EngineEstimate nano = run(with({{"model", "nemotron-nano-9b-v2"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "8192"}}));
    CHECK(nano.settings[2].find("--block-size 1312 (vLLM: \"Setting attention block size to 1312 tokens") != std::string::npos);
    // Mamba-2 with one B/C group replicates it over the tensor-parallel ranks (extra_groups_for_head_shards):
    // Granite 4.0-H at tp 2 keeps 3 x (8,192 + 2 x 2 x 128) / 2 conv values and 8,192 x 128 / 2 SSM values.
    const Architecture granite = load_preset("granite-4.0-h-small")->architecture;
    CHECK(vllm_recurrent_state_bytes(granite.recurrent, 2, 2) == (3ULL * (8192 + 2 * 2 * 128) / 2 + 8192ULL * 128 / 2) * 2);

    // Qwen3-Next end to end: vllm-project/vllm#26646 (--kv-cache-dtype fp8, --max-model-len 215040) logs 90,048 tokens
    // and 1.66x, which 339 blocks of 1,072 tokens give: ceil(215040 / 1072) + 3 = 204 blocks a request.
    const EngineEstimate next = run(with({{"model", "qwen3-next-80b-a3b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"gpus", "2"}, {"tp", "2"},
                                          {"dtype", "fp8"}, {"kv-dtype", "fp8"}, {"context", "215040"}}));
    CHECK(next.settings[2].find("--block-size 1072 ") != std::string::npos);
    const VllmHybridLayout lnext = vllm_hybrid_layout(12, 2 * 1 * 256 * 1, 36, vllm_recurrent_state_bytes(load_preset("qwen3-next-80b-a3b")->architecture.recurrent, 2, 2), 0);
    CHECK(lnext.block_size == 1072);
    CHECK(lnext.logged_tokens(339, 215040) == 90'048);
    CHECK(339 * 100 / lnext.blocks_per_request(215040) == 166);
    // Each GPU's pool: its blocks span 12 pages (groups of 12 layers); the concurrency is blocks over a request's
    // 204, the logged tokens blocks / 4 x 1,072, and the term's bytes are the blocks' pages.
    const EngineDevice& g0 = device(next, "gpu0");
    REQUIRE(g0.kv_blocks > 204);
    CHECK(term(g0, "kv_cache") == g0.kv_blocks * 12 * lnext.page_bytes);
    CHECK(g0.kv_capacity_tokens == g0.kv_blocks / 4 * 1072);
    CHECK(g0.max_concurrency.micros == (g0.kv_blocks * 100 + 102) / 204 * 10'000);
    CHECK(next.runs);
    CHECK(next.auto_context_tokens == 215040);
    CHECK(term_steps(g0, "kv_cache").find("padded by ") != std::string::npos);
    // One GPU cannot hold the weights and a request of 262,144 tokens: vLLM's own start-up failure.
    // At a 16-bit KV cache the block is 16 x ceil(548,864 / (16 x 1,024)) = 544 tokens; a request of 262,144 tokens holds
    // 482 + 3 blocks, and --max-model-len auto takes what (blocks - 3) x 544 tokens give.
    const EngineEstimate tight = run(with({{"model", "qwen3-next-80b-a3b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"gpus", "2"}, {"tp", "2"},
                                           {"dtype", "fp8"}, {"context", "262144"}, {"gpu-util", "0.55"}}));
    CHECK_FALSE(tight.runs);
    CHECK(tight.failure.rfind("ValueError: To serve at least one request with the models's max seq len (262144)", 0) == 0);
    const EngineDevice& t0 = device(tight, "gpu0");
    REQUIRE(t0.kv_blocks > 3);
    CHECK(t0.kv_blocks < 485);
    CHECK(tight.auto_context_tokens == (t0.kv_blocks - 3) * 544);
    CHECK(tight.failure.find("estimated maximum model length is " + std::to_string((t0.kv_blocks - 3) * 544) + ".") != std::string::npos);
    // What vLLM checks: the heads of the recurrent layers split over the ranks, and no drafter beside them.
    const Expected<EngineEstimate> odd = engine_estimate(with({{"model", "nemotron-nano-9b-v2"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"gpus", "5"}, {"tp", "5"}}));
    REQUIRE_FALSE(odd.ok());
    CHECK(odd.error().find("Mamba-2 layers' heads (128) must be divisible by tensor parallel size (5)") != std::string::npos);
    const Expected<EngineEstimate> drafted =
        engine_estimate(with({{"model", "qwen3-next-80b-a3b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"gpus", "2"}, {"tp", "2"}, {"draft-model", "qwen3-0.6b"}}));
    REQUIRE_FALSE(drafted.ok());
    CHECK(drafted.error().find("separate draft model beside a hybrid model") != std::string::npos);
    CHECK(drafted.error().find("(--mtp)") != std::string::npos);
}

TEST_CASE("vLLM tensor parallelism must divide the heads, as vLLM checks") {
    const Expected<EngineEstimate> e = engine_estimate(with({{"model", "llama-3-8b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"tp", "3"}}));
    REQUIRE_FALSE(e.ok());
    CHECK(e.error().find("3 does not divide the model's 32 attention heads") != std::string::npos);
}

TEST_CASE("transformers with bitsandbytes keeps embeddings and head at 16 bits") {
    // transformers' bitsandbytes integration skips lm_head and embeddings (llm_int8_skip_modules defaults).
    Scenario s = with({{"model", "llama-3-8b"}, {"engine", "transformers"}, {"dtype", "nf4"}, {"context", "4096"}, {"gpu", "rtx-4090"}});
    const EngineEstimate e = run(s);
    const EngineDevice& g = device(e, "gpu0");
    const ParamBreakdown& c = s.model->counts;
    const std::uint64_t linear = c.total_count - c.embedding_count - c.output_head_count - c.norm_count;
    CHECK(g.weights_bytes == format_bytes(*find_weight_format("nf4"), linear) + 2 * (c.embedding_count + c.output_head_count + c.norm_count));
    CHECK(term(g, "kv_cache") == 2ULL * 32 * 8 * 128 * 4096 * 2);
}

TEST_CASE("engine JSON carries the per-device object and both verdicts") {
    const Scenario s = with({{"model", "llama-3.1-70b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"gpus", "4"}, {"context", "32768"}});
    const Expected<Estimate> est = estimate(s);
    REQUIRE(est.ok());
    const std::string json = report_json(s, *est);
    for (const char* key : {"\"engine\":{\"name\":\"vLLM\"", "\"device\":\"gpu3\"", "\"weights_bytes\":", "\"kv_cache_bytes\":", "\"compute_bytes\":",
                            "\"other_bytes\":", "\"total_bytes\":", "\"needed_bytes\":", "\"reserved_bytes\":", "\"kv_pool_bytes\":", "\"kv_blocks\":",
                            "\"kv_capacity_tokens\":", "\"max_concurrency\":", "\"verdicts\":{\"runs\":\"Runs on 4 x NVIDIA A100 80GB with vLLM"})
        CHECK(json.find(key) != std::string::npos);
    // The seed's object without an engine is unchanged: no engine key.
    Scenario seed = s;
    seed.engine.kind = EngineKind::none;
    CHECK(report_json(seed, *estimate(seed)).find("\"engine\"") == std::string::npos);
}

TEST_CASE("engine settings round-trip through the URL state") {
    // Each engine's flags under that engine (vLLM's under llama.cpp is refused: settings_test).
    const Scenario s = with({{"engine", "llama.cpp"}, {"ubatch", "1024"}, {"nbatch", "4096"}, {"ngl", "40"}, {"split-mode", "row"},
                             {"flash-attn", "off"}, {"v-dtype", "q8_0"}, {"parallel", "2"}, {"kv-unified", "on"}, {"swa-full", "true"},
                             {"mmap", "false"}});
    const std::string state = to_state(s);
    CHECK(state == "params=13B&engine=llama.cpp&ubatch=1024&nbatch=4096&ngl=40&split-mode=row&flash-attn=off&v-dtype=q8_0&parallel=2&kv-unified=on&"
                   "swa-full=true&mmap=false");
    CHECK(to_state(apply_state(Scenario{}, state).scenario) == state);
    const Scenario v = with({{"engine", "vllm"}, {"gpu-util", "0.85"}, {"max-num-seqs", "64"}, {"max-batched-tokens", "4096"},
                             {"block-size", "32"}, {"enforce-eager", "true"}});
    const std::string vllm_state = to_state(v);
    CHECK(vllm_state == "params=13B&engine=vllm&gpu-util=0.85&max-num-seqs=64&max-batched-tokens=4096&block-size=32&enforce-eager=true");
    CHECK(to_state(apply_state(Scenario{}, vllm_state).scenario) == vllm_state);
    Scenario bad;
    CHECK_FALSE(apply_setting(bad, "engine", "tgi").ok());
    CHECK_FALSE(apply_setting(bad, "block-size", "24").ok());
    CHECK_FALSE(apply_setting(bad, "gpu-util", "1.5").ok());
    CHECK_FALSE(apply_setting(bad, "ngl", "many").ok());
    CHECK(to_state(bad) == "params=13B");
}

namespace {
// A small MoE GGUF as llama.cpp names its tensors: 12 layers, each with attention (40 MiB), the router
// (1 MiB) and three routed-expert tensors of 100 MiB (ffn_gate_exps, ffn_up_exps, ffn_down_exps).
Scenario moe_gguf() {
    Scenario s = mistral7b_gguf();
    ModelSource m = *s.model;
    m.display_name = "moe.gguf";
    m.architecture.num_hidden_layers = 12;
    m.architecture.num_experts = 64;
    m.architecture.num_experts_per_tok = 4;
    m.architecture.moe_intermediate_size = 1024;
    m.layout.layer_bytes.assign(12, 0);
    for (std::uint64_t il = 0; il < 12; ++il) {
        const std::string b = "blk." + std::to_string(il) + ".";
        for (const auto& [name, bytes] : std::initializer_list<std::pair<const char*, std::uint64_t>>{
                 {"attn_q.weight", 40 * MiB}, {"ffn_gate_inp.weight", 1 * MiB}, {"ffn_gate_exps.weight", 100 * MiB},
                 {"ffn_up_exps.weight", 100 * MiB}, {"ffn_down_exps.weight", 100 * MiB}}) {
            m.layout.layer_tensors.push_back({b + name, il, bytes});
            m.layout.layer_bytes[static_cast<std::size_t>(il)] += bytes;
        }
    }
    s.model = std::make_shared<const ModelSource>(m);
    return s;
}
}  // namespace

TEST_CASE("llama.cpp Gemma 4 E2B: 15 of 35 layers keep a cache, as its log shows") {
    // A llama.cpp log of gemma-4-E2B-it-Q4_K_M.gguf at n_ctx 2048, -np 1, "using full-size SWA cache": "non-SWA KV
    // cache ... 12.00 MiB (2048 cells, 3 layers)" and "SWA KV cache ... 24.00 MiB (2048 cells, 12 layers)"; print_info
    // "layer 15..34: does not have KV cache" (the 20 shared layers reuse layers 13 and 14).
    const std::string json = R"({"model_type":"gemma4_text","hidden_size":1536,"intermediate_size":6144,"num_hidden_layers":35,)"
                             R"("num_attention_heads":8,"num_key_value_heads":1,"head_dim":256,"global_head_dim":512,"sliding_window":512,)"
                             R"("hidden_size_per_layer_input":256,"num_kv_shared_layers":20,"use_double_wide_mlp":true,"vocab_size":262144,"layer_types":[)" +
                             [] {
                                 std::string out;
                                 for (int i = 0; i < 35; ++i) out += std::string(i ? "," : "") + ((i + 1) % 5 ? "\"sliding_attention\"" : "\"full_attention\"");
                                 return out;
                             }() + "]}";
    const Expected<ModelSource> m = model_from_config(json);
    INFO(m.error());
    REQUIRE(m.ok());
    Scenario s = with({{"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4060-ti-16gb"}, {"context", "2048"}, {"parallel", "1"},
                       {"ngl", "all"}, {"swa-full", "true"}});
    s.model = std::make_shared<const ModelSource>(*m);
    s.param_count = m->counts.total_count;
    const EngineDevice gpu = device(run(s), "gpu0");
    CHECK(term(gpu, "kv_buffer") == 12ULL * MiB + 24ULL * MiB);
    CHECK(term_steps(gpu, "kv_buffer").find("15 layers: ") == 0);
}

TEST_CASE("vLLM with more GPUs than tp x pp and no -dp: one engine, and a note naming the idle GPUs") {
    // vllm serve -tp 4 starts one engine on 4 GPUs (vllm/config/parallel.py world_size = tp x pp); the others idle.
    Scenario s = with({{"model", "llama-3.1-70b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"gpus", "8"}, {"tp", "4"}});
    const EngineEstimate e = run(s);
    std::size_t gpus = 0;
    for (const EngineDevice& d : e.devices) gpus += d.is_gpu ? 1 : 0;
    CHECK(gpus == 4);
    bool said = false;
    for (const std::string& note : e.notes) said = said || note == "--gpus 8: vllm serve with tp 4 x pp 1 uses 4 of them; the others stay idle unless -dp 2 starts a replica on each 4.";
    CHECK(said);
    REQUIRE(apply_setting(s, "gpus", "4"));
    for (const std::string& note : run(s).notes) CHECK(note.find("stay idle") == std::string::npos);
}

TEST_CASE("llama.cpp Gemma 4: global layers' K and V rows at their own width") {
    // llama.cpp sizes each layer's cache from hparams.n_embd_k_gqa(il) / n_embd_v_gqa(il): Gemma 4's print_info lists
    // them per layer (E4B, ollama/ollama#18123: "n_embd_k_gqa = [512 x5, 1024, ...]", 2 KV heads x 256 sliding, x 512
    // global), and V is cached even where it equals K (gemma4's graph: Vcur = Kcur). 31B at -c 32768 -np 1: 10
    // global layers x 32,768 cells x (4 x 512 x 2 bytes) x 2, and 50 sliding layers x GGML_PAD(1,024 + 512, 256) =
    // 1,536 cells x (16 x 256 x 2 bytes) x 2.
    Scenario s = with({{"model", "gemma-4-31b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-5090"}, {"context", "32768"},
                       {"parallel", "1"}, {"ngl", "all"}});
    const EngineDevice gpu = device(run(s), "gpu0");
    CHECK(term(gpu, "kv_buffer") == 10ULL * 32768 * 4096 * 2 + 50ULL * 1536 * 8192 * 2);
    CHECK(term_steps(gpu, "kv_buffer").find("global layers K and V 2,048 values each") != std::string::npos);
}

TEST_CASE("vLLM pages sliding-window layers apart: a sliding group admits window - 1 + batched tokens, as its logs show") {
    // vLLM 0.19.0 on an H100, google/gemma-2-9b-it at --max-model-len 8192 and 0.95 (llm-d-incubation/llm-d-planner
    // accuracy logs; tests/fixtures/engine_logs/llm-d-planner-v0.19-gemma-2-9b.log): "GPU KV cache size: 168,880 tokens",
    // "Maximum concurrency for 8,192 tokens per request: 20.60x". 42 layers alternate sliding (window 4,096) and full,
    // 8 KV heads x 256: pages of 16 x 8,192 bytes in 2 groups of 21 (vllm/v1/core/kv_cache_utils.py).
    const Expected<VllmHybridLayout> g2 = vllm_sliding_layout(21, 8192, 21, 8192, 4096, 8192, 0);
    REQUIRE(g2);
    CHECK(g2->group_size == 21);
    CHECK(g2->attention_groups == 1);
    CHECK(g2->sliding_groups == 1);
    CHECK(g2->page_bytes == 16 * 8192);
    // 168,880 tokens = 21,110 blocks / 2 groups x 16. A request holds 512 full blocks and ceil(min(4,095 + 8,192,
    // 8,192) / 16) + 1 = 513 sliding ones (SlidingWindowSpec.max_memory_usage_bytes), so 21,110 / 1,025 = 20.595:
    // "20.60x", where every layer at full length (1,024 blocks) would have logged 20.62x.
    CHECK(g2->logged_tokens(21110, 8192) == 168'880);
    CHECK(g2->blocks_per_request(8192) == 1025);
    CHECK((21110 * 1000 / 1025 + 5) / 10 == 2060);
    CHECK((21110 * 1000 / 1024 + 5) / 10 == 2062);
    // End to end the engine divides its blocks by the same 1,025.
    const EngineEstimate e = run(with({{"model", "gemma-2-9b"}, {"engine", "vllm"}, {"gpu-memory", "79.19GiB"}, {"gpu-util", "0.95"}, {"context", "8192"}}));
    const EngineDevice& g = device(e, "gpu0");
    CHECK(g.max_concurrency.micros == Decimal::from_ratio((g.kv_blocks * 100 + 512) / 1025, 100).micros);
    CHECK(term(g, "kv_cache") == g.kv_blocks * 21 * 16 * 8192);
    CHECK(term_steps(g, "kv_cache").find("1 x (ceil(min(4,096 - 1 + 8,192, 8,192) / 16) + 1) sliding") != std::string::npos);

    // Gemma 4 E4B, vLLM 0.22.1 on an RTX 3090 Ti at --max-model-len 32768 (2,048 batched tokens on that card): "Available
    // KV cache memory: 4.1 GiB", "GPU KV cache size: 224,353 tokens", "Maximum concurrency for 32,768 tokens per request:
    // 6.85x" (a published set-up log, "Helium-cuda set up", June 2026). Its 24 layers with
    // their own cache (18 of 42 share one) are 4 global (2 KV heads x 512: 4,096 bytes a token) and 20 sliding (2 x 256,
    // window 512): the sliding block doubles to 32, groups of 4. A request holds 2,048 + 5 x (ceil(2,559 / 32) + 1) =
    // 2,453 blocks; 16,795 blocks (4.1 GiB / 262,144 bytes) give 6.85x, and this release logs int(6.8467 x 32,768).
    const Expected<VllmHybridLayout> e4b = vllm_sliding_layout(4, 4096, 20, 2048, 512, 2048, 0);
    REQUIRE(e4b);
    CHECK(e4b->sliding_block == 32);
    CHECK(e4b->group_size * e4b->page_bytes == 262144);
    CHECK(e4b->blocks_per_request(32768) == 2453);
    CHECK(16795ULL * 32768 / 2453 == 224'353);
    CHECK((16795 * 1000 / 2453 + 5) / 10 == 685);
    // gpt-oss-120b, vLLM 0.22.1 on 8 H200s, tp 8, --block-size 64, 131,072 tokens, 8,192 batched (an LMCache
    // regression write-up's table, read off kv_cache_utils.py's start-up lines): 25,798,626 tokens and 196.83x with the
    // hybrid manager, 13,724,416 and 104.71x with --disable-hybrid-kv-cache-manager. Per rank 1 KV head x 64: 256 bytes
    // a token a layer. The second figure is 214,444 blocks of 64 tokens over 36 layers; the same pool is 428,888 blocks
    // of 18 pages, and a request holds 2,048 full + ceil(8,319 / 64) + 1 = 131 sliding.
    const Expected<VllmHybridLayout> oss = vllm_sliding_layout(18, 256, 18, 256, 128, 8192, 64);
    REQUIRE(oss);
    CHECK(oss->blocks_per_request(131072) == 2179);
    const std::uint64_t oss_blocks = 214444ULL * 36 * 64 * 256 / (18 * oss->page_bytes);
    CHECK(oss_blocks == 428'888);
    CHECK((oss_blocks * 1000 / 2179 + 5) / 10 == 19683);
    CHECK(oss_blocks * 131072 / 2179 == 25'798'626);
    // Gemma 4 31B, vLLM 0.19.1rc1 on a DGX Spark at its 262,144 tokens (vllm-project/vllm#39734): "GPU KV cache size:
    // 37,392 tokens", "1.53x". 2,048 batched tokens: a request holds 8,192 global + 5 x 193 sliding blocks, and 14,022
    // blocks log 14,022 / 6 groups x 16 = 37,392 tokens (the old formula) and 1.53x.
    const Expected<VllmHybridLayout> spark = vllm_sliding_layout(10, 8192, 50, 16384, 1024, 2048, 0);
    REQUIRE(spark);
    CHECK(spark->blocks_per_request(262144) == 9157);
    CHECK(spark->logged_tokens(14022, 262144) == 37'392);
    CHECK((14022 * 1000 / 9157 + 5) / 10 == 153);
    // The same model on vLLM 0.26.0 (B300, 16,384 tokens, 8,192 batched, async scheduling): "Available KV cache memory:
    // 182.37 GiB", "217,116 tokens", "13.25x" (a published B300 write-up, August 2026). That release reserves two
    // batches in flight (max_in_flight_tokens), so min(1,023 + 16,384, 16,384) tokens: 512 + 5 x 1,025 = 5,637 blocks,
    // and 74,700 blocks (182.37 GiB / 2,621,440) give 13.2517 x 16,384 = 217,116. The engine says so in a note.
    const Expected<VllmHybridLayout> b300 = vllm_sliding_layout(10, 8192, 50, 16384, 1024, 2 * 8192, 0);
    REQUIRE(b300);
    CHECK(b300->blocks_per_request(16384) == 5637);
    CHECK(74700ULL * 16384 / 5637 == 217'116);
    bool in_flight = false;
    for (const std::string& note :
         run(with({{"model", "gemma-4-31b"}, {"engine", "vllm"}, {"gpu-memory", "267.69GiB"}, {"gpu-util", "0.92"}, {"context", "16384"}})).notes)
        in_flight = in_flight || note.find("1,024 - 1 + 2 x 8,192 tokens, two batches in flight: 5,637 blocks a request") != std::string::npos;
    CHECK(in_flight);

    // At long contexts the window is what a sliding layer keeps. Gemma 3 27B (52 sliding layers of window 1,024, 10
    // full, 16 KV heads x 128): groups of 10, so 1 full and 6 sliding groups (the last padded, as vLLM warns "Add 8
    // padding layers"). A request of 131,072 tokens holds 8,192 + 6 x (ceil(9,215 / 16) + 1) = 11,654 blocks of 10
    // pages, 14.2 GiB, where 62 layers at full length would hold 62 GiB and could not start on one H100.
    const Expected<VllmHybridLayout> g3 = vllm_sliding_layout(10, 8192, 52, 8192, 1024, 8192, 0);
    REQUIRE(g3);
    CHECK(g3->attention_groups == 1);
    CHECK(g3->sliding_groups == 6);
    CHECK(g3->blocks_per_request(131072) == 8192 + 6 * 577);
    Scenario long27 = with({{"model", "gemma-3-27b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "131072"}});
    const EngineEstimate fits27 = run(long27);
    CHECK(fits27.failure.empty());
    CHECK(device(fits27, "gpu0").kv_blocks >= 11654);
    // The verdict reads the concurrency, and names vLLM 0.19's logged tokens (blocks / 7 groups x 16) as the log's.
    CHECK(fits27.verdict.find("KV pool 16.54 GiB per GPU, 1.16x concurrency at 131,072 tokens (vLLM 0.19 logs 30,960 tokens)") != std::string::npos);
    // The longest request the pool holds is found by bisection over blocks_per_request, as vLLM's
    // _estimate_max_model_len_from_groups: 11,654 blocks hold exactly 131,072 tokens, 11,653 hold 16 fewer.
    CHECK(g3->longest_request(11654, 1'000'000) == 131072);
    CHECK(g3->longest_request(11653, 1'000'000) == 131056);
    CHECK(g3->longest_request(13, 1'000'000) == 16);  // one block per group: 16 tokens
    CHECK(g3->longest_request(12, 1'000'000) == 0);
    // --disable-hybrid-kv-cache-manager (vLLM's flag, also read from a pasted command or a log) keeps every layer at
    // full length: 62 GiB for one request, which an H100 cannot start with.
    REQUIRE(apply_setting(long27, "disable-hybrid-kv-cache-manager", "true"));
    const EngineEstimate full27 = run(long27);
    CHECK(full27.failure.find("To serve at least one request with the models's max seq len (131072)") != std::string::npos);
    CHECK(full27.command.find(" --disable-hybrid-kv-cache-manager") != std::string::npos);
    // A recurrent model cannot run without the hybrid manager, in vLLM's words.
    const Expected<EngineEstimate> next_off =
        engine_estimate(with({{"model", "qwen3-next-80b-a3b"}, {"engine", "vllm"}, {"gpu", "h200"}, {"disable-hybrid-kv-cache-manager", "true"}}));
    REQUIRE_FALSE(next_off);
    CHECK(next_off.error().find("Hybrid KV cache manager is disabled but failed to convert") != std::string::npos);

    // Gemma 4 31B: sliding layers cache 16 KV heads x 256 (16,384 bytes a token), the 10 global ones 4 heads x 512
    // with K also in V's slot (gemma4.py: attention_k_eq_v loads K into both), 8,192 bytes. unify_kv_cache_spec_page_size
    // raises the global block to 32 tokens so both pages are 262,144 bytes.
    const Expected<VllmHybridLayout> g4 = vllm_sliding_layout(10, 8192, 50, 16384, 1024, 8192, 0);
    REQUIRE(g4);
    CHECK(g4->block_size == 32);
    CHECK(g4->sliding_block == 16);
    CHECK(g4->page_bytes == 262144);
    CHECK(g4->groups() == 6);
    CHECK(g4->logged_tokens(600, 8192) == 100 * 16);
    const EngineEstimate e31 = run(with({{"model", "gemma-4-31b"}, {"engine", "vllm"}, {"gpu", "h200"}, {"context", "32768"}}));
    const EngineDevice& g31 = device(e31, "gpu0");
    CHECK(term(g31, "kv_cache") == g31.kv_blocks * 10 * 262144);
    // Pages that are not whole multiples of each other are vLLM's NotImplementedError.
    const Expected<VllmHybridLayout> odd = vllm_sliding_layout(1, 3 * 1024, 5, 2 * 1024, 128, 2048, 0);
    REQUIRE_FALSE(odd);
    CHECK(odd.error().find("not whole multiples") != std::string::npos);
    // Gemma 4 E2B: the last 20 of 35 layers read earlier layers' caches (kv_sharing_target_layer_name) and keep none:
    // 3 full and 12 sliding layers are paged, in groups of 3.
    const EngineEstimate e2b = run(with({{"model", "gemma-4-e2b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "32768"}}));
    CHECK(term_steps(device(e2b, "gpu0"), "kv_cache").find("5 groups (1 full attention, 4 sliding) of up to 3 layers") != std::string::npos);
    // Llama 4's chunked local attention stays at full length (vLLM turns the hybrid manager off for it by default), and
    // so does a sliding model beside a drafter; Gemma 4 beside a drafter is refused by name.
    Scenario drafted = with({{"model", "gemma-2-27b"}, {"engine", "vllm"}, {"gpu", "h200"}, {"context", "8192"}, {"draft-model", "gemma-2-9b"}});
    bool said = false;
    for (const std::string& note : run(drafted).notes) said = said || note.find("with a drafter in the KV cache") != std::string::npos;
    CHECK(said);
    const Expected<EngineEstimate> g4drafted = engine_estimate(with({{"model", "gemma-4-31b"}, {"engine", "vllm"}, {"gpu", "h200"}, {"draft-model", "gemma-3-1b"}}));
    REQUIRE_FALSE(g4drafted);
    CHECK(g4drafted.error().find("a drafter beside Gemma 4") != std::string::npos);
}

TEST_CASE("llama.cpp Nemotron 3 Nano: experts only in its MoE blocks, KV only in its 6 attention blocks") {
    // Nemotron-3-Nano-30B-A3B's pattern MEMEM*EMEMEM*...: --n-cpu-moe 23 (blk.0..22) finds experts in the 10 MoE blocks
    // among them (1, 3, 6, 8, 10, 13, 15, 17, 20, 22), as common/arg.cpp's per-layer exps overrides would; the Mamba-2
    // and attention blocks have none. The KV buffer holds the 6 attention blocks, the RS buffer the 23 Mamba-2 ones
    // (src/llama-model.cpp create_memory's hybrid filters).
    Scenario s = with({{"model", "nemotron-3-nano-30b-a3b"}, {"dtype", "q8_0"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"},
                       {"context", "32768"}, {"parallel", "1"}, {"ngl", "all"}});
    const Architecture& a = s.model->architecture;
    std::uint64_t early = 0;
    for (std::uint64_t il = 0; il < 23; ++il) early += a.layer_is_moe(il) ? 1 : 0;
    CHECK(early == 10);
    const EngineEstimate all_gpu = run(s);
    CHECK(term_steps(device(all_gpu, "gpu0"), "kv_buffer").find("6 attention layers") == 0);
    CHECK(term_steps(device(all_gpu, "gpu0"), "rs_buffer").find("23 recurrent layers") == 0);
    REQUIRE(apply_setting(s, "n-cpu-moe", "23"));
    const EngineEstimate some = run(s);
    REQUIRE(apply_setting(s, "n-cpu-moe", "all"));
    const EngineEstimate every = run(s);
    const double moved_some = static_cast<double>(term(device(all_gpu, "gpu0"), "model_buffer") - term(device(some, "gpu0"), "model_buffer"));
    const double moved_all = static_cast<double>(term(device(all_gpu, "gpu0"), "model_buffer") - term(device(every, "gpu0"), "model_buffer"));
    CHECK(moved_some / moved_all == Catch::Approx(10.0 / 23.0).epsilon(0.001));
}

TEST_CASE("llama.cpp --n-cpu-moe N keeps the routed experts of the first N layers in host RAM") {
    // common/arg.cpp --n-cpu-moe pushes, for i in [0, N), the override blk\.<i>\.ffn_(up|down|gate|gate_up)_(ch|)exps
    // = CPU (common/common.h LLM_FFN_EXPS_REGEX, llm_ffn_exps_block_regex): "the MoE weights of the first N
    // layers" (https://github.com/ggml-org/llama.cpp/pull/15077). With a layer split they all land on the GPU
    // holding the first layers (https://github.com/ggml-org/llama.cpp/issues/15136).
    Scenario s = moe_gguf();
    const EngineEstimate all_gpu = run(s);
    const std::uint64_t gpu0 = term(device(all_gpu, "gpu0"), "model_buffer");
    const std::uint64_t host0 = term(device(all_gpu, "host"), "model_buffer");
    REQUIRE(apply_setting(s, "n-cpu-moe", "3"));
    const EngineEstimate three = run(s);
    CHECK(term(device(three, "gpu0"), "model_buffer") == gpu0 - 3 * 300 * MiB);
    CHECK(term(device(three, "host"), "model_buffer") == host0 + 3 * 300 * MiB);
    CHECK(three.command.find("--n-cpu-moe 3") != std::string::npos);
    // --cpu-moe (n-cpu-moe all) and -ot exps=CPU keep every layer's experts; KV stays with its layer.
    REQUIRE(apply_setting(s, "n-cpu-moe", "all"));
    const EngineEstimate every = run(s);
    CHECK(term(device(every, "gpu0"), "model_buffer") == gpu0 - 12 * 300 * MiB);
    CHECK(term(device(every, "gpu0"), "kv_buffer") == term(device(all_gpu, "gpu0"), "kv_buffer"));
    Scenario ot = moe_gguf();
    REQUIRE(apply_setting(ot, "override-tensor", "exps=CPU"));
    CHECK(term(device(run(ot), "gpu0"), "model_buffer") == gpu0 - 12 * 300 * MiB);
    // The regexes people write: a per-layer range (blk\.1\. does not find blk.10 or blk.11), only the down
    // projections, and two patterns in one list.
    REQUIRE(apply_setting(ot, "override-tensor", "blk\\.(1|2)\\.ffn_.*_exps\\.=CPU"));
    CHECK(term(device(run(ot), "gpu0"), "model_buffer") == gpu0 - 2 * 300 * MiB);
    REQUIRE(apply_setting(ot, "override-tensor", "ffn_down_exps=CPU"));
    CHECK(term(device(run(ot), "gpu0"), "model_buffer") == gpu0 - 12 * 100 * MiB);
    REQUIRE(apply_setting(ot, "override-tensor", "blk\\.[0-3]\\.ffn_up_exps=CPU,blk\\.1[01]\\.ffn_(gate|up)_exps=CPU"));
    CHECK(term(device(run(ot), "gpu0"), "model_buffer") == gpu0 - 4 * 100 * MiB - 2 * 200 * MiB);
    // A layer already on the CPU (-ngl) gains nothing from an override.
    Scenario partial = moe_gguf();
    REQUIRE(apply_setting(partial, "ngl", "7"));  // the output layer + layers 6..11
    const std::uint64_t partial_gpu = term(device(run(partial), "gpu0"), "model_buffer");
    REQUIRE(apply_setting(partial, "n-cpu-moe", "8"));  // layers 0..7: only 6 and 7 are on the GPU
    CHECK(term(device(run(partial), "gpu0"), "model_buffer") == partial_gpu - 2 * 300 * MiB);
}

TEST_CASE("llama.cpp tensor overrides: bad patterns, other devices and patterns that find nothing are refused by name") {
    Scenario s = moe_gguf();
    CHECK(apply_setting(s, "override-tensor", "exps=CUDA1").error().find("only =CPU overrides are modelled") != std::string::npos);
    CHECK(apply_setting(s, "override-tensor", "exps").error().find("is not PATTERN=CPU") != std::string::npos);
    CHECK(apply_setting(s, "n-cpu-moe", "many").error().find("n-cpu-moe") == 0);
    REQUIRE(apply_setting(s, "override-tensor", "blk\\.(1|2\\.=CPU"));
    Expected<EngineEstimate> e = engine_estimate(s);
    REQUIRE(!e);
    CHECK(e.error() == "override-tensor: the pattern \"blk\\.(1|2\\.\" has an unclosed '('");
    REQUIRE(apply_setting(s, "override-tensor", "shexp=CPU"));
    e = engine_estimate(s);
    REQUIRE(!e);
    CHECK(e.error().find("the pattern \"shexp\" finds no tensor") != std::string::npos);
    // A dense model has no experts for --n-cpu-moe.
    Scenario dense = mistral7b_gguf();
    REQUIRE(apply_setting(dense, "n-cpu-moe", "4"));
    e = engine_estimate(dense);
    REQUIRE(!e);
    CHECK(e.error().find("no routed-expert tensors") != std::string::npos);
    // Ollama passes no overrides to llama-server.
    REQUIRE(apply_setting(s, "engine", "ollama"));
    REQUIRE(apply_setting(s, "override-tensor", "exps=CPU"));
    CHECK(!engine_estimate(s));
}

TEST_CASE("A preset MoE model's routed experts sit in its MoE layers, gate, up and down of equal size") {
    // Qwen3-30B-A3B: 48 MoE layers of 128 experts x 3 x 2048 x 768 = 603,979,776 parameters
    // (https://huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json); at q8_0 (34 bytes per 32) the
    // engine's per-layer figure is the weight format's average, so one layer's experts are ~ 0.6 G x 1.0625 bytes.
    Scenario s = with({{"model", "qwen3-30b-a3b"}, {"dtype", "q8_0"}, {"engine", "llama.cpp"}, {"gpu-memory", "12GiB"},
                       {"context", "8192"}, {"ngl", "all"}});
    const EngineEstimate base = run(s);
    REQUIRE(apply_setting(s, "n-cpu-moe", "1"));
    const EngineEstimate one = run(s);
    const std::uint64_t moved = term(device(base, "gpu0"), "model_buffer") - term(device(one, "gpu0"), "model_buffer");
    CHECK(moved == Catch::Approx(603'979'776.0 * 34 / 32).epsilon(0.002));
    REQUIRE(apply_setting(s, "override-tensor", "attn=CPU"));
    const Expected<EngineEstimate> e = engine_estimate(s);
    REQUIRE(!e);
    CHECK(e.error().find("without a GGUF file only the routed experts") != std::string::npos);
}

TEST_CASE("llama.cpp experts kept in host RAM: GPU 0's compute buffer holds one expert tensor copied in for a prompt batch") {
    // ggml/src/ggml-backend.cpp: ggml_backend_sched_backend_id_from_cur runs an op whose weight sits in a host
    // buffer (-ot =CPU keeps it in CPU_Mapped or CUDA_Host) on the first backend whose offload_op accepts it
    // (ggml-cuda.cu: get_op_batch_size >= 32, MUL_MAT_ID's batch is its token count); pass 5 of
    // ggml_backend_sched_split_graph starts a new split at each such weight "so the memory of the previously
    // offloaded weights can be reused", and the copy (ggml_dup_tensor_layout) is allocated in that backend's
    // compute buffer: one tensor at a time, the largest. moe_gguf's experts: 100 MiB each.
    Scenario s = moe_gguf();
    REQUIRE(apply_setting(s, "context", "4096"));
    REQUIRE(apply_setting(s, "flash-attn", "on"));  // without it the f32 scores, 256 MiB here, are the largest phase
    const std::uint64_t on_gpu = term(device(run(s), "gpu0"), "compute_buffer");
    REQUIRE(apply_setting(s, "n-cpu-moe", "all"));
    const EngineEstimate kept = run(s);
    // The MoE phase at n_ubatch 512: the KQ masks, and the residual beside the 4 experts' up, gate and SwiGLU
    // product, and their 4 down projections, which (4,096 wide) do not fit the 2 x 1,024 x 4 freed by up and gate.
    const std::uint64_t ffn = 4096ULL * 512 * 6 + 512ULL * (4096 + 3 * 1024 * 4 + 4096 * 4) * 4;
    CHECK(term(device(kept, "gpu0"), "compute_buffer") == std::max(on_gpu, ffn + 100 * MiB));
    CHECK(term(device(kept, "gpu0"), "compute_buffer") > on_gpu);
    // Below a batch of 32 the GPU declines the op: the CPU runs it on the weights where they are.
    REQUIRE(apply_setting(s, "ubatch", "16"));
    CHECK(term(device(run(s), "gpu0"), "compute_buffer") < 100 * MiB);
}

TEST_CASE("fit --minimize n-cpu-moe: the fewest expert layers on the CPU that fit, with the bandwidth note") {
    Scenario s = moe_gguf();
    REQUIRE(apply_setting(s, "context", "4096"));
    REQUIRE(apply_setting(s, "gpu-memory", "3GiB"));
    const Expected<CpuMoeAnswer> a = llama_cpp_fewest_cpu_moe(s);
    REQUIRE(a.ok());
    REQUIRE(a->found);
    const std::uint64_t n = a->n_cpu_moe;
    REQUIRE(n > 0);
    CHECK(a->estimate.runs);
    CHECK(a->expert_bytes == n * 300 * MiB);
    CHECK(a->sentence.find("system-memory bandwidth") != std::string::npos);
    // One layer fewer does not fit.
    Scenario fewer = s;
    REQUIRE(apply_setting(fewer, "ngl", "all"));
    REQUIRE(apply_setting(fewer, "n-cpu-moe", std::to_string(n - 1)));
    CHECK(!run(fewer).runs);
    // A GPU too small even for --cpu-moe says so; a dense model and no engine are refused.
    REQUIRE(apply_setting(s, "gpu-memory", "1GiB"));
    const Expected<CpuMoeAnswer> none = llama_cpp_fewest_cpu_moe(s);
    REQUIRE(none.ok());
    CHECK(!none->found);
    CHECK(none->sentence.find("--cpu-moe") != std::string::npos);
    CHECK(!llama_cpp_fewest_cpu_moe(mistral7b_gguf()));
}

TEST_CASE("Host RAM (ram) judges what stays in system memory; memory-mapped weights on a GPU count once") {
    Scenario s = moe_gguf();
    REQUIRE(apply_setting(s, "n-cpu-moe", "all"));
    const EngineEstimate free_ram = run(s);
    const EngineDevice& host = device(free_ram, "host");
    // The host holds token_embd and the 12 layers' experts, not the offloaded layers' other tensors again.
    CHECK(term(host, "model_buffer") == 70 * MiB + 12 * 300 * MiB);
    REQUIRE(apply_setting(s, "ram", "64GiB"));
    const EngineEstimate big = run(s);
    CHECK(device(big, "host").capacity_bytes == 64 * GiB);
    CHECK(big.runs);
    CHECK(big.verdict.find("host RAM") != std::string::npos);
    REQUIRE(apply_setting(s, "ram", "2GiB"));
    const EngineEstimate small = run(s);
    CHECK(!small.runs);
    CHECK(small.verdict.rfind("Does not run", 0) == 0);
    CHECK(apply_setting(s, "ram", "lots").error().find("ram") == 0);
}

TEST_CASE("llama.cpp hybrid models: KV for the attention layers only, an f32 RS buffer for the recurrent ones") {
    // https://github.com/JamePeng/llama-cpp-python/issues/78 (a Qwen3.5 GGUF with Qwen3-Next's Gated DeltaNet
    // sizes: 32 layers, every 4th full attention, 16 key heads and 32 value heads of 128, conv kernel 4):
    //   llama_memory_recurrent:      CUDA0 RS buffer size =    50.25 MiB
    //   llama_memory_recurrent: size =   50.25 MiB (     1 cells,  32 layers,  1 seqs), R (f32):    2.25 MiB, S (f32):   48.00 MiB
    // = 24 recurrent layers x (R 3 x 8,192 + S 32 x 128 x 128 values) x 4 bytes.
    const Expected<ModelSource> m = model_from_config(
        R"({"full_attention_interval":4,"head_dim":256,"hidden_size":2048,"intermediate_size":5120,"linear_conv_kernel_dim":4,)"
        R"("linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,)"
        R"("max_position_embeddings":262144,"model_type":"qwen3_next","moe_intermediate_size":512,"num_attention_heads":16,"num_experts":512,)"
        R"("num_experts_per_tok":10,"num_hidden_layers":32,"num_key_value_heads":2,"shared_expert_intermediate_size":512,)"
        R"("tie_word_embeddings":false,"vocab_size":151936})");
    INFO(m.error());
    REQUIRE(m.ok());
    Scenario s = with({{"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"ngl", "all"}, {"parallel", "1"}, {"context", "4096"}, {"dtype", "q4_k_m"}});
    s.model = std::make_shared<const ModelSource>(*m);
    s.param_count = m->counts.total_count;
    const EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "rs_buffer") == 50 * MiB + MiB / 4);
    // KV: 8 attention layers x 4096 cells x (512 + 512) values x 2 bytes = 64 MiB, not 32 layers' 256 MiB.
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 64 * MiB);
    // llama-server's 4 slots: one row per sequence.
    REQUIRE(apply_setting(s, "parallel", "4"));
    CHECK(term(device(run(s), "gpu0"), "rs_buffer") == 4 * (50 * MiB + MiB / 4));
}

TEST_CASE("llama.cpp Nemotron-H: the MLP-only blocks keep neither a KV cache nor an RS row") {
    // NVIDIA-Nemotron-Nano-9B-v2: 27 Mamba-2 blocks, 4 attention blocks and 25 MLP blocks. llama.cpp gives only
    // the Mamba-2 blocks an RS row: 27 x (R 3 x 12,288 + S 128 x 10,240 values) x 4 bytes = 138.80 MiB
    // (src/llama-hparams.cpp n_embd_r/n_embd_s; the notes' table), and only the 4 attention blocks a KV row:
    // 4 x 4096 cells x (1024 + 1024) values x 2 bytes = 64 MiB.
    Scenario s = with({{"model", "nemotron-nano-9b-v2"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"ngl", "all"}, {"parallel", "1"},
                       {"context", "4096"}, {"dtype", "q4_k_m"}});
    const EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "rs_buffer") == 145'539'072ULL);
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 64 * MiB);
}

TEST_CASE("Falcon-H1: every layer keeps a KV row and an RS row (llama.cpp), an attention and a Mamba page (vLLM)") {
    // llama.cpp's hybrid memory for LLM_ARCH_FALCON_H1 keeps every layer in the KV cache and in the RS buffer
    // (src/llama-model.cpp create_memory: filter_attn and filter_recr both true). Falcon-H1-34B: 72 x (R 3 x 5,120
    // + S 4,096 x 256 values) x 4 bytes = 306,413,568 B, and 72 x 4096 cells x (512 + 512) values x 2 bytes = 576 MiB.
    const EngineEstimate e = run(with({{"model", "falcon-h1-34b"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"ngl", "all"},
                                       {"parallel", "1"}, {"context", "4096"}, {"dtype", "q4_k_m"}}));
    CHECK(term(device(e, "gpu0"), "rs_buffer") == 306'413'568ULL);
    CHECK(term(device(e, "gpu0"), "kv_buffer") == 576 * MiB);
    // vLLM registers a self_attn.attn and a mamba layer in each decoder layer: 72 attention and 72 Mamba-2 layers,
    // two groups of 72. The Mamba page (bf16 conv 3 x 5,120 + SSM 4,096 x 256 values: 2,127,872 B) over an
    // attention token of 2 x 4 x 128 x 2 bytes gives 16 x ceil(2,127,872 / (16 x 2,048)) = 1,040 tokens.
    const Architecture falcon = load_preset("falcon-h1-34b")->architecture;
    CHECK(vllm_recurrent_state_bytes(falcon.recurrent, 1, 2) == 2'127'872ULL);
    const VllmHybridLayout l = vllm_hybrid_layout(72, 2 * 4 * 128 * 2, 72, vllm_recurrent_state_bytes(falcon.recurrent, 1, 2), 0);
    CHECK(l.block_size == 1040);
    CHECK(l.attention_groups == 1);
    CHECK(l.recurrent_groups == 1);
    const EngineEstimate v = run(with({{"model", "falcon-h1-34b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "32768"}}));
    CHECK(v.settings[2].find("--block-size 1040 ") != std::string::npos);
    // The note says the layers are both, not that all 72 are Mamba-2 layers.
    bool said = false;
    for (const std::string& note : v.notes)
        said = said || note.rfind("72 of 72 layers have a Mamba-2 mixer beside their attention (72 layers both", 0) == 0;
    CHECK(said);
}

TEST_CASE("llama.cpp draft model: its weights, a second KV cache at the target's full context, its own compute buffer") {
    // Speculative decoding keeps a second context for the drafter at the target's n_ctx (its KV is not small:
    // https://github.com/Quartermaster-Labs/Quartermaster/pull/24). Llama 3.2 1B: 16 layers x 8 KV heads x 64
    // (https://huggingface.co/meta-llama/Llama-3.2-1B/blob/main/config.json): at 32,768 cells in f16,
    // 16 x 32,768 x (512 + 512) x 2 bytes = 1 GiB; in q8_0 (34 bytes per 32 values) 544 MiB.
    Scenario s = with({{"model", "llama-3.1-8b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "32768"},
                       {"parallel", "1"}, {"ngl", "all"}});
    const EngineEstimate alone = run(s);
    REQUIRE(apply_setting(s, "draft-model", "llama-3.2-1b"));
    const EngineEstimate with_draft = run(s);
    const EngineDevice& g = device(with_draft, "gpu0");
    CHECK(term(g, "draft_kv_buffer") == GiB);
    CHECK(term(g, "draft_model_buffer") > 0);
    CHECK(term(g, "draft_compute_buffer") > 0);
    CHECK(g.total_bytes == device(alone, "gpu0").total_bytes + term(g, "draft_kv_buffer") + term(g, "draft_model_buffer") + term(g, "draft_compute_buffer"));
    CHECK(with_draft.command.find("-md llama-3.2-1b.gguf") != std::string::npos);
    REQUIRE(apply_setting(s, "draft-kv-dtype", "q8_0"));
    CHECK(term(device(run(s), "gpu0"), "draft_kv_buffer") == 544 * MiB);
    // common/speculative.cpp refuses a drafter whose vocabulary differs by more than 128 tokens (151,936 vs 128,256).
    REQUIRE(apply_setting(s, "draft-model", "qwen3-0.6b"));
    const Expected<EngineEstimate> e = engine_estimate(s);
    REQUIRE(!e);
    CHECK(e.error().find("vocabulary") != std::string::npos);
    CHECK(apply_setting(s, "draft-model", "no-such-model").error().find("is not a built-in model") != std::string::npos);
    CHECK(apply_setting(s, "draft-kv-dtype", "q5_1").error().find("draft-kv-dtype") == 0);
}

TEST_CASE("the verdict lines carry their verdict as data, the same as their words say") {
    // Faces colour these lines from the verdict; the words are core's. Fits, tight (1 GiB left of 24 by
    // llama.cpp's fit), does not fit (vLLM's own refusal) and an inference-only format's "Trains on: no".
    const Scenario tight = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"}});
    const Scenario roomy = with({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "a100-80gb"}});
    const Scenario refused = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "rtx-4090"}});
    const std::vector<std::pair<const Scenario*, FitVerdict>> runs = {
        {&tight, FitVerdict::tight}, {&roomy, FitVerdict::fits}, {&refused, FitVerdict::does_not_fit}};
    for (const auto& [s, verdict] : runs) {
        const Expected<Estimate> e = estimate(*s);
        REQUIRE(e.ok());
        const std::vector<VerdictLine> lines = verdict_lines(*s, *e);
        REQUIRE(lines.size() == 2);
        INFO(lines[0].text);
        CHECK(lines[0].verdict == verdict);
        CHECK(lines[0].text == run(*s).verdict);
        CHECK((lines[0].text.rfind("Does not", 0) == 0) == (verdict == FitVerdict::does_not_fit));
        CHECK((lines[0].text.find("(tight)") != std::string::npos) == (verdict == FitVerdict::tight));
        CHECK(lines[1].verdict == (lines[1].text.rfind("Trains on 1", 0) == 0 ? e->gpu.training_verdict : FitVerdict::does_not_fit));
    }
    const Expected<Estimate> gguf = estimate(tight);
    REQUIRE(gguf.ok());
    CHECK(verdict_lines(tight, *gguf)[1].text.rfind("Trains on: no.", 0) == 0);
    CHECK(verdict_lines(tight, *gguf)[1].verdict == FitVerdict::does_not_fit);
    // After "Trains on: no", the GPU lines say nothing of a training peak nobody would run.
    const std::string table = report_table(tight, *gguf, UnitChoice::both);
    CHECK(table.find("Training peak per GPU") == std::string::npos);
    CHECK(table.find("Inference (simple) per GPU") == std::string::npos);
    // One answer to "does it run": llama.cpp's, which offloads what does not fit. The seed's rule (weights x
    // 1.2 = 48.66 GB, every layer on the card) follows as a comparison with no verdict word of its own.
    const std::string seed_line = inference_gpu_sentence(tight, *gguf);
    CHECK(seed_line.rfind("For comparison, the seed's rule (weights x 1.2, every layer on the GPUs, none of llama.cpp's placement): ", 0) == 0);
    CHECK(seed_line.find("more than a card holds; 2 GPUs if split evenly") != std::string::npos);
    CHECK(seed_line.find("fit") == std::string::npos);
    CHECK(table.find(seed_line) != std::string::npos);
    Scenario plain = tight;
    plain.engine.kind = EngineKind::none;
    // Without an engine, a GGUF format on a GPU still leads with whether it runs (the seed's rule), then
    // "Trains on: no": 70,553,706,496 x 4.84 bits / 8 x 1.2 = 51.22 GB against the RTX 4090's 25.77 GB.
    const std::vector<VerdictLine> seed_lines = verdict_lines(plain, *gguf);
    REQUIRE(seed_lines.size() == 2);
    CHECK(seed_lines[0].run);
    CHECK(seed_lines[0].verdict == FitVerdict::does_not_fit);
    CHECK(seed_lines[0].text.rfind("Runs on 1 x NVIDIA GeForce RTX 4090 by the seed's rule: no (weights x 1.2 = 51.22 GB per GPU, 25.45 GB short).", 0) == 0);
    CHECK(!seed_lines[1].run);
    CHECK(seed_lines[1].text.rfind("Trains on: no.", 0) == 0);
    CHECK(report_table(plain, *gguf, UnitChoice::gb).rfind(seed_lines[0].text + "\n" + seed_lines[1].text + "\n", 0) == 0);
    Scenario roomy_gguf = plain;
    REQUIRE(apply_setting(roomy_gguf, "gpu", "a100-80gb"));
    const std::vector<VerdictLine> roomy_lines = verdict_lines(roomy_gguf, *estimate(roomy_gguf));
    CHECK(roomy_lines[0].text.find("by the seed's rule: yes (") != std::string::npos);
    CHECK(roomy_lines[0].verdict == FitVerdict::fits);
    Scenario no_gpu = plain;
    REQUIRE(apply_setting(no_gpu, "gpu", ""));
    CHECK(!verdict_lines(no_gpu, *estimate(no_gpu)).front().run);  // no GPU, no run verdict
    CHECK(inference_gpu_sentence(plain, *gguf).rfind("Inference (simple) per GPU ", 0) == 0);
    CHECK(inference_gpu_sentence(plain, *gguf).find(": does not fit: ") != std::string::npos);
    CHECK(report_table(roomy, *estimate(roomy), UnitChoice::both).find("Training peak per GPU") != std::string::npos);
}

TEST_CASE("llama.cpp vision projector (--mmproj): its f16 weights and its clip compute buffer on GPU 0") {
    // llama-server's own figure for the Gemma 3 projector's clip compute buffer, read from its
    // "[mtmd] adding N MiB to fit_params_target" line less the weights, flash attention off then on:
    // 1132 MiB and 121 MiB (https://github.com/gpustack/gguf-parser-go/issues/44, "Real clip compute buffer").
    // SigLIP at 896 x 896 in 14-pixel patches: 4,096 positions, 1152 wide, 16 heads, 4304 intermediate.
    Scenario s = with({{"model", "gemma-3-27b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "8192"},
                       {"parallel", "1"}, {"ngl", "all"}, {"flash-attn", "off"}});
    const EngineEstimate alone = run(s);
    CHECK(term(device(alone, "gpu0"), "mmproj_buffer") == 0);
    REQUIRE(apply_setting(s, "mmproj", "true"));
    const EngineEstimate off = run(s);
    const EngineDevice& g = device(off, "gpu0");
    CHECK(term(g, "mmproj_compute_buffer") == 1132 * MiB);
    // The weights: the tower's count (checked against the model card in vision_test.cpp) in f16.
    const std::uint64_t tower = s.model->architecture.vision.total();
    CHECK(term(g, "mmproj_buffer") == tower * 2);
    CHECK(g.total_bytes == device(alone, "gpu0").total_bytes + tower * 2 + 1132 * MiB);
    CHECK(off.command.find("--mmproj mmproj-gemma-3-27b-f16.gguf") != std::string::npos);
    REQUIRE(apply_setting(s, "flash-attn", "on"));
    const std::uint64_t on = term(device(run(s), "gpu0"), "mmproj_compute_buffer");
    CHECK(on >= 120 * MiB + MiB / 2);  // 121 MiB as printed: 121.25 MiB
    CHECK(on <= 121 * MiB + MiB / 2);
    // --no-mmproj-offload: the projector and its graph stay in host RAM; the GPU is as without it.
    REQUIRE(apply_setting(s, "mmproj-offload", "false"));
    const EngineEstimate host = run(s);
    CHECK(term(device(host, "gpu0"), "mmproj_buffer") == 0);
    CHECK(term(device(host, "host"), "mmproj_buffer") == tower * 2);
    CHECK(term(device(host, "host"), "mmproj_compute_buffer") == on);
    CHECK(host.command.find("--no-mmproj-offload") != std::string::npos);
    // A projector needs a vision tower, and llama.cpp's flag.
    CHECK(apply_setting(s, "mmproj", "maybe").error().find("is not true or false") != std::string::npos);
    REQUIRE(apply_setting(s, "text-only", "true"));
    Expected<EngineEstimate> e = engine_estimate(s);
    REQUIRE(!e);
    CHECK(e.error().find("mmproj") == 0);
    Scenario text = with({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}, {"mmproj", "true"}});
    e = engine_estimate(text);
    REQUIRE(!e);
    CHECK(e.error().find("no vision tower") != std::string::npos);
    REQUIRE(apply_setting(text, "engine", "ollama"));
    CHECK(!engine_estimate(text));
}

TEST_CASE("Ollama loads a vision model's projector itself, and places it and --fit's margin as llm/llama_server.go does") {
    // Ollama (since PR #16031 it runs llama-server for every GGUF model) passes --mmproj whenever the model has a
    // projector: a layer of its own, or the v.* tensors of an older Ollama GGUF (llm/llama_server.go
    // NewLlamaServerRunner, appendMMProjArgs; ollama fb30760). It adds --no-mmproj-offload under num_gpu 0, under a
    // num_gpu below the layers + 1, or when a GPU holds less than the projector's weights + 1 GiB
    // (shouldDisableMMProjOffload, mmprojOffloadHeadroom). With the projector on the GPU it sets LLAMA_ARG_FIT_TARGET to
    // those bytes in MiB, rounded up (mmprojFitTargetMiB), unless its own environment sets one (extraEnvsForStart).
    Scenario s = with({{"model", "gemma-3-27b"}, {"dtype", "q4_k_m"}, {"engine", "ollama"}, {"gpu", "rtx-4090"}});
    const std::uint64_t weights = s.model->architecture.vision.total() * 2;
    const EngineEstimate e = run(s);
    const EngineDevice& g = device(e, "gpu0");
    CHECK(term(g, "mmproj_buffer") == weights);
    // The same projector and graph as llama.cpp's --mmproj at Ollama's context and batch.
    Scenario llama = s;
    REQUIRE(apply_setting(llama, "engine", "llama.cpp"));
    REQUIRE(apply_setting(llama, "mmproj", "true"));
    REQUIRE(apply_setting(llama, "context", "4096"));
    REQUIRE(apply_setting(llama, "parallel", "1"));
    REQUIRE(apply_setting(llama, "nbatch", "512"));
    CHECK(term(g, "mmproj_compute_buffer") == term(device(run(llama), "gpu0"), "mmproj_compute_buffer"));
    CHECK(term(g, "mmproj_compute_buffer") > 0);
    const std::uint64_t margin = (weights + GiB + MiB - 1) / MiB * MiB;
    CHECK(g.reserved_bytes == g.total_bytes + margin);
    CHECK(term(device(run(llama), "gpu0"), "mmproj_buffer") == weights);
    CHECK(device(run(llama), "gpu0").reserved_bytes == device(run(llama), "gpu0").total_bytes + GiB);  // llama.cpp's own 1024 MiB
    bool said = false;
    for (const std::string& note : e.notes) said = said || note.find("LLAMA_ARG_FIT_TARGET=" + std::to_string(margin / MiB)) != std::string::npos;
    CHECK(said);
    // Its environment's LLAMA_ARG_FIT_TARGET stands as it is.
    Scenario env = s;
    REQUIRE(apply_setting(env, "fit-target", "3000"));
    const EngineEstimate kept = run(env);
    CHECK(device(kept, "gpu0").reserved_bytes == device(kept, "gpu0").total_bytes + 3000 * MiB);
    CHECK(kept.command.rfind("OLLAMA_NUM_PARALLEL=1 LLAMA_ARG_FIT_TARGET=3000 ollama serve", 0) == 0);
    // num_gpu 20 leaves layers on the CPU: the projector and its graph go to host RAM.
    Scenario partial = s;
    REQUIRE(apply_setting(partial, "ngl", "20"));
    const EngineEstimate p = run(partial);
    CHECK(term(device(p, "gpu0"), "mmproj_buffer") == 0);
    CHECK(term(device(p, "host"), "mmproj_buffer") == weights);
    CHECK(term(device(p, "host"), "mmproj_compute_buffer") == term(g, "mmproj_compute_buffer"));
    CHECK(device(p, "gpu0").reserved_bytes == device(p, "gpu0").total_bytes + GiB);
    // A GPU smaller than the weights + 1 GiB: host RAM too.
    Scenario small = s;
    REQUIRE(apply_setting(small, "gpu", ""));
    REQUIRE(apply_setting(small, "gpu-memory", std::to_string((weights + GiB) / MiB - 1) + "MiB"));
    CHECK(term(device(run(small), "host"), "mmproj_buffer") == weights);
    // --text-only: a text model, no projector. A model without a tower has none either.
    Scenario text = s;
    REQUIRE(apply_setting(text, "text-only", "true"));
    CHECK(term(device(run(text), "gpu0"), "mmproj_buffer") == 0);
    CHECK(term(device(run(with({{"model", "llama-3.1-8b"}, {"engine", "ollama"}})), "gpu0"), "mmproj_buffer") == 0);
    // Ollama has no flag for the projector's file, its place or an image's bounds: each is refused by name.
    for (const auto& [key, value] : {std::pair<const char*, const char*>{"mmproj-offload", "false"}, {"image-min-tokens", "1024"}, {"image-max-tokens", "512"}}) {
        Scenario bad = s;
        REQUIRE(apply_setting(bad, key, value));
        const Expected<EngineEstimate> refused = engine_estimate(bad);
        REQUIRE_FALSE(refused.ok());
        CHECK(refused.failure().key == key);
        CHECK(refused.error().find("choose --engine llama.cpp") != std::string::npos);
    }
}

TEST_CASE("llama.cpp's --fit-target: the margin --fit keeps free on every GPU") {
    // common/arg.cpp: -fitt MiB, a single value broadcast to every device (default 1024). Llama 3 70B Q4_K_M on an
    // RTX 4090: at 4096 MiB --fit offloads fewer layers, and one more would not leave the margin.
    Scenario s = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"}, {"fit-target", "4096"}});
    const EngineEstimate e = run(s);
    const EngineEstimate usual = run(with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"}}));
    CHECK(e.gpu_layers < usual.gpu_layers);
    CHECK(device(e, "gpu0").total_bytes + 4096 * MiB <= 24 * GiB);
    Scenario more = s;
    more.engine.ngl_auto = false;
    more.engine.ngl_layers = e.gpu_layers + 1;
    CHECK(device(run(more), "gpu0").total_bytes + 4096 * MiB > 24 * GiB);
    CHECK(device(e, "gpu0").reserved_bytes == device(e, "gpu0").total_bytes + 4096 * MiB);
    CHECK(e.command.find(" -fitt 4096") != std::string::npos);
    CHECK(e.fit_margin_bytes == 4096 * MiB);
    // fit's answer names the margin it was given, not llama.cpp's default.
    const Expected<FitReport> layers = engine_answer_fit_question(s, FitQuestion{FitQuestionKind::layers_on_gpu, ""});
    REQUIRE(layers.ok());
    CHECK(layers->answers.front().sentence.find("llama.cpp's --fit, which keeps 4,096 MiB free on each GPU, chooses -ngl " +
                                                std::to_string(e.gpu_layers) + ".") != std::string::npos);
    // 0 is llama.cpp's too: no margin. A negative or a list is refused, the last value kept.
    REQUIRE(apply_setting(s, "fit-target", "0"));
    CHECK(run(s).gpu_layers >= usual.gpu_layers);
    CHECK(apply_setting(s, "fit-target", "-1").error().find("fit-target: ") == 0);
    CHECK(apply_setting(s, "fit-target", "1024,2048").error().find("fit-target: ") == 0);
    CHECK(s.engine.fit_target_set);
    CHECK(s.engine.fit_target_mib == 0);
    REQUIRE(apply_setting(s, "fit-target", "auto"));
    CHECK_FALSE(s.engine.fit_target_set);
}

TEST_CASE("llama.cpp's Qwen2.5-VL projector: its clip graph at the 46 x 46-token warm-up, window mask included") {
    // llama.cpp's own figures for the Qwen2.5-VL clip compute buffer, flash attention off then on: 4872 MiB
    // and 705 MiB (https://github.com/gpustack/gguf-parser-go/issues/44, "Real clip compute buffer", read from
    // "[mtmd] adding N MiB to fit_params_target"). The graph is reserved for set_warmup_n_tokens(46*46)
    // (tools/mtmd/clip.cpp): 92 x 92 = 8,464 patches of the 1280-wide, 16-head ViT. Tolerance 20 %, the
    // inference table's for a compute buffer: off within 0.5 %, on -7 %.
    Scenario s = with({{"model", "qwen2.5-vl-3b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "4096"},
                       {"parallel", "1"}, {"ngl", "all"}, {"flash-attn", "off"}, {"mmproj", "true"}});
    const std::string steps = term_steps(device(run(s), "gpu0"), "mmproj_compute_buffer");
    CHECK(steps.find("8,464 positions (92 x 92 patches, 46 x 46 merged tokens)") != std::string::npos);
    // To the byte: llama.cpp's clip.cpp on its CPU backend with a synthetic mmproj of this tower's shapes (the reference
    // run of bench/mmproj/README.md): 5,108,210,240 and 739,025,728 bytes, which the log prints as 4871.57 and 704.79 MiB.
    const std::uint64_t off = term(device(run(s), "gpu0"), "mmproj_compute_buffer");
    CHECK(off == 5108210240ULL);
    CHECK(off >= 4871 * MiB + MiB / 2);  // 4872 MiB as llama-server printed it
    CHECK(off < 4872 * MiB + MiB / 2);
    REQUIRE(apply_setting(s, "flash-attn", "on"));
    const std::uint64_t on = term(device(run(s), "gpu0"), "mmproj_compute_buffer");
    CHECK(on == 739025728ULL);
    CHECK(on >= 704 * MiB + MiB / 2);  // 705 MiB
    CHECK(on < 705 * MiB + MiB / 2);
}

TEST_CASE("llama.cpp's Pixtral, Llama 4, Gemma 4 and Voxtral projectors: clip's warm-up buffer to the byte") {
    // Reference: llama.cpp's own tools/mtmd/clip.cpp (unslothai/llama.cpp d32676d, 2026-08-18: models/pixtral.cpp,
    // llama4.cpp, gemma4v.cpp, whisper-enc.cpp) on its CPU backend, each tower's mmproj written with its real shapes and
    // zero weights, read after clip_init's warm-up as ggml_backend_sched_get_buffer_size (the "CPU compute buffer size"
    // line); bench/mmproj/README.md reproduces it. Calibration: the same run gives Gemma 3's 1132.00 MiB and Qwen2.5-VL's
    // 4871.57 / 704.79 MiB that llama-server logged on CUDA (the two cases above), and Mistral Small 3.x's 62.62 MiB with
    // flash attention is the figure a ROCm llama-server log printed for Mistral-Small-3.2's projector.
    struct Row { const char* model; const char* config; const char* fa; std::uint64_t bytes; const char* steps; };
    const Row rows[] = {
        {"mistral-small-3.1-24b", nullptr, "off", 86630400, "1,024 positions (32 x 32 patches, 256 output tokens)"},  // 82.62 MiB
        {"mistral-small-3.1-24b", nullptr, "on", 65658880, "the feed-forward phase"},                                   // 62.62 MiB
        {nullptr, "pixtral-12b", "off", 16844800, "the feed-forward phase outgrows the scores"},                  // 16.06 MiB
        {nullptr, "pixtral-12b", "on", 16844800, "256 positions (16 x 16 patches"},
        {"llama-4-scout", nullptr, "off", 35665536, "577 positions (24 x 24 patches and the class token)"},             // 34.01 MiB
        {"llama-4-scout", nullptr, "on", 24107072, "3 x 577 x 1,408 x 4 + 4 x 577 x 5,632 x 4"},                    // 22.99 MiB
        // Gemma 4 E2B: the vision graph (276.77 / 94.52 MiB) and the audio encoder's own, 106,109,824 bytes (101.19 MiB,
        // models/gemma4a.cpp at 3,000 mel frames, with flash attention or without).
        {"gemma-4-e2b", nullptr, "off", 290211840 + 106109824, "2,304 positions (48 x 48 patches"},
        {"gemma-4-e2b", nullptr, "on", 99108864 + 106109824, "1 x 2,304 x 768 x 4 + 12 x 2,304 x 3,072 x 4; + the audio encoder's graph"},
        {"gemma-4-e4b", nullptr, "on", 99108864 + 106109824, "(750 positions): 106,109,824 bytes"},
        {"gemma-4-26b-a4b", nullptr, "off", 405227520, "scores 16 heads x 2,304 x 2,304 x 4"},                       // 386.46 MiB
        {"gemma-4-26b-a4b", nullptr, "on", 147326976, "2 x 2,304 x 1,152 x 4"},                                      // 140.50 MiB
        {"voxtral-mini-3b", nullptr, "off", 210720000, "3,000 mel frames, 1,500 positions: scores 20 heads"},        // 200.96 MiB
        {"voxtral-mini-3b", nullptr, "on", 53760000, "3 x 1,500 x 1,280 x 4 + 4 x 1,500 x 5,120 x 4"},               // 51.27 MiB
    };
    for (const Row& row : rows) {
        INFO((row.model != nullptr ? row.model : row.config) << ", flash attention " << row.fa);
        Scenario s = with({{"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "4096"}, {"parallel", "1"},
                           {"ngl", "all"}, {"flash-attn", row.fa}, {"mmproj", "true"}});
        if (row.model != nullptr) {
            REQUIRE(apply_setting(s, "model", row.model));
        } else {
            const ModelSource m = model_of(fixture(row.config));
            s.model = std::make_shared<const ModelSource>(m);
            s.param_count = m.counts.total_count;
        }
        const EngineDevice g = device(run(s), "gpu0");
        CHECK(term(g, "mmproj_compute_buffer") == row.bytes);
        CHECK(term_steps(g, "mmproj_compute_buffer").find(row.steps) != std::string::npos);
    }
}

TEST_CASE("llama.cpp's Gemma 4 projector: mtmd's images of up to 280 tokens grow the buffer past the 256-token warm-up") {
    // llama.cpp's own clip.cpp on its CPU backend (bench/mmproj/README.md), encoding one image of the size mtmd resizes
    // to (bench/mmproj/grid.cpp): 1920 x 1080 -> 1056 x 576 (66 x 36 patches, 264 tokens) and 960 x 672 (60 x 42 patches,
    // 280 tokens), against the warm-up's 48 x 48 patches. E2B's file also holds the audio encoder, whose own graph
    // (106,109,824 bytes) stays beside the vision graph.
    struct Row { const char* model; const char* size; const char* fa; std::uint64_t bytes; };
    constexpr std::uint64_t audio = 106109824;
    const Row rows[] = {
        {"gemma-4-e2b", "1920x1080", "off", 307492416 + audio}, {"gemma-4-e2b", "1920x1080", "on", 102206016 + audio},  // 293.25 / 97.47 MiB
        {"gemma-4-e2b", "960x672", "off", 343546560 + audio}, {"gemma-4-e2b", "960x672", "on", 108400320 + audio},      // 327.63 / 103.38 MiB
        {"gemma-4-26b-a4b", "1920x1080", "off", 428839488}, {"gemma-4-26b-a4b", "1920x1080", "on", 151930944},        // 408.97 / 144.89 MiB
        {"gemma-4-26b-a4b", "960x672", "off", 478054080}, {"gemma-4-26b-a4b", "960x672", "on", 161138880},            // 455.91 / 153.67 MiB
        {"gemma-4-26b-a4b", "896x896", "off", 405227520},  // 768 x 768 is the warm-up's own grid: 386.46 MiB stays
    };
    for (const Row& row : rows) {
        INFO(row.model << " " << row.size << ", flash attention " << row.fa);
        const Scenario s = with({{"model", row.model}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"},
                                 {"flash-attn", row.fa}, {"mmproj", "true"}, {"images", "1"}, {"image-size", row.size}});
        const EngineEstimate e = run(s);
        CHECK(term(device(e, "gpu0"), "mmproj_compute_buffer") == row.bytes);
    }
    // The image's own steps, and its tokens in the context (264 + 2).
    const Scenario s = with({{"model", "gemma-4-26b-a4b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"},
                             {"mmproj", "true"}, {"images", "1"}, {"image-size", "1920x1080"}});
    CHECK(term_steps(device(run(s), "gpu0"), "mmproj_compute_buffer").find("flash attention on, the feed-forward phase at 2,376 positions (66 x 36 patches of one 1,920 x 1,080 image, 22 x 12 tokens)") == 0);
    const Expected<Estimate> estimate = llm_memory::estimate(s);
    REQUIRE(estimate);
    CHECK(estimate->image_tokens == 266);
}

TEST_CASE("llama.cpp's projector buffer grows to the largest image's graph when that outgrows the warm-up") {
    // The warm-up reserves Pixtral's graph at 256 tokens; encoding a larger image reserves again (ggml_backend_sched),
    // so the buffer is the larger graph's. The same reference run as above, encoding one image of each size through
    // clip_image_batch_encode: Mistral Small 3.x at 672 x 672 (24 x 24 tokens), 448 x 896 (16 x 32) and 896 x 896
    // (32 x 32, the most llama.cpp's 1,024-token limit lets a 1540 x 1540 image keep); Pixtral 12B's 1024 x 1024 is
    // resized to 512 x 512 (32 x 32 tokens of 16 pixels).
    struct Row { const char* size; const char* fa; std::uint64_t bytes; };
    const Row rows[] = {
        {"672x672", "off", 383416320}, {"672x672", "on", 147486720},   // 365.65 / 140.65 MiB
        {"448x896", "off", 307478528}, {"448x896", "on", 131317760},   // 293.23 / 125.23 MiB
        {"896x896", "off", 1151172608}, {"896x896", "on", 261980160},  // 1097.84 / 249.84 MiB
        {"1540x1540", "off", 1151172608}, {"224x224", "off", 86630400}, // smaller than the warm-up: 82.62 MiB stays
    };
    for (const Row& row : rows) {
        INFO(row.size << ", flash attention " << row.fa);
        const Scenario s = with({{"model", "mistral-small-3.1-24b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"},
                                 {"context", "8192"}, {"flash-attn", row.fa}, {"mmproj", "true"}, {"images", "1"}, {"image-size", row.size}});
        const EngineDevice g = device(run(s), "gpu0");
        CHECK(term(g, "mmproj_compute_buffer") == row.bytes);
        CHECK((term_steps(g, "mmproj_compute_buffer").find("encoding the larger image grows it") != std::string::npos) == (row.bytes != 86630400));
    }
    const ModelSource m = model_of(fixture("pixtral-12b"));
    for (const auto& [fa, bytes] : {std::pair{"off", 87695360ULL}, std::pair{"on", 66723840ULL}}) {  // 83.63 / 63.63 MiB
        Scenario s = with({{"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"}, {"flash-attn", fa},
                           {"mmproj", "true"}, {"images", "1"}, {"image-size", "1024x1024"}});
        s.model = std::make_shared<const ModelSource>(m);
        s.param_count = m.counts.total_count;
        const EngineDevice g = device(run(s), "gpu0");
        CHECK(term(g, "mmproj_compute_buffer") == bytes);
        CHECK(term_steps(g, "mmproj_compute_buffer").find("1,024 positions (32 x 32 patches of one 1,024 x 1,024 image, 32 x 32 tokens)") != std::string::npos);
    }
}

TEST_CASE("llama.cpp's Qwen3-VL and Qwen3.5 projectors: the clip graph with and without deepstack mergers, to the byte") {
    // Qwen3.5's vision tower is converted to an mmproj as Qwen3-VL's (llama.cpp conversion/qwen3vl.py registers
    // Qwen3_5ForConditionalGeneration) and built by the same graph without deepstack mergers. Reference: llama.cpp's
    // clip.cpp on its CPU backend (bench/mmproj/README.md), at the 46 x 46-token warm-up (1472 x 1472 pixels, 8,464
    // patches) and encoding a 2048 x 2048 image (64 x 64 tokens, the most mtmd's 4,096-token limit keeps square):
    // bytes as measured. The figures llama-server printed for "a Qwen3-VL" tower (4728 and 323 MiB,
    // https://github.com/gpustack/gguf-parser-go/issues/44) are met to the MiB by the same run with a 1024-wide,
    // 24-layer tower with three mergers, not by these 1152-wide ones (4769.39 and 372.08 MiB for the 8B).
    struct Row { const char* model; const char* fa; const char* size; std::uint64_t bytes; };
    const Row rows[] = {
        {"qwen3-vl-8b", "off", nullptr, 5001072896ULL}, {"qwen3-vl-8b", "on", nullptr, 390156544ULL},
        {"qwen3-vl-8b", "off", "2048x2048", 17985437696ULL}, {"qwen3-vl-8b", "on", "2048x2048", 755236864ULL},
        {"qwen3-vl-30b-a3b", "off", nullptr, 5001072896ULL}, {"qwen3-vl-30b-a3b", "on", nullptr, 377155840ULL},
        {"qwen3-vl-30b-a3b", "on", "2048x2048", 730071040ULL},
        {"qwen3.5-27b", "off", nullptr, 4884066560ULL}, {"qwen3.5-27b", "on", nullptr, 260149504ULL},
        {"qwen3.5-27b", "off", "2048x2048", 17758945280ULL}, {"qwen3.5-27b", "on", "2048x2048", 503578624ULL},
    };
    for (const Row& row : rows) {
        INFO(row.model << ", flash attention " << row.fa << (row.size != nullptr ? ", one image " : ", warm-up ") << (row.size != nullptr ? row.size : ""));
        Scenario s = with({{"model", row.model}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"},
                           {"parallel", "1"}, {"ngl", "all"}, {"flash-attn", row.fa}, {"mmproj", "true"}});
        if (row.size != nullptr) {
            REQUIRE(apply_setting(s, "images", "1"));
            REQUIRE(apply_setting(s, "image-size", row.size));
        }
        const EngineDevice g = device(run(s), "gpu0");
        CHECK(term(g, "mmproj_compute_buffer") == row.bytes);
    }
    // The 8B's flash-attention peak is its three mergers' outputs stacked (each 4,096 wide, wider than the freed input
    // image's hole), the 30B-A3B's (2,048 wide) the attention beside the three layers kept for them.
    Scenario s = with({{"model", "qwen3-vl-8b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"flash-attn", "on"}, {"mmproj", "true"}});
    CHECK(term_steps(device(run(s), "gpu0"), "mmproj_compute_buffer").find("the 3 deepstack outputs and their concatenations, 6 x 2,116 x 4,096 x 4") !=
          std::string::npos);
    REQUIRE(apply_setting(s, "model", "qwen3-vl-30b-a3b"));
    CHECK(term_steps(device(run(s), "gpu0"), "mmproj_compute_buffer").find("9 x 8,464 x 1,152 x 4 (the attention, 3 layers kept") != std::string::npos);
}

namespace {

// An mmproj header as convert_hf_to_gguf.py writes one for `t` (conversion/*.py: MmprojModel's clip.vision.* or
// clip.audio.* widths and projection_dim, the text model's width; each family's projector type and merge key; Qwen3-VL's
// v.deepstack.N tensors), with its patch embedding and small f16 tensors standing for the rest (their data is written).
llm_memory::test::GgufWriter mmproj_of(const VisionTower& t, std::uint32_t text_width) {
    using llm_memory::test::GgufWriter;
    GgufWriter w;
    w.text("general.architecture", "clip");
    const bool audio = t.kind == VisionKind::voxtral;
    const char* type = t.kind == VisionKind::gemma3_siglip ? "gemma3"
                       : t.kind == VisionKind::llama4      ? "llama4"
                       : t.kind == VisionKind::qwen2_5_vl  ? "qwen2.5vl_merger"
                       : t.kind == VisionKind::qwen3_vl || t.kind == VisionKind::qwen3_5 ? "qwen3vl_merger"
                       : t.kind == VisionKind::gemma4      ? "gemma4v"
                       : audio                             ? "voxtral"
                                                           : "pixtral";
    w.text(t.kind == VisionKind::gemma4 ? "clip.vision.projector_type" : "clip.projector_type", type);  // Gemma 4: mixed modalities
    const std::string p = audio ? "clip.audio." : "clip.vision.";
    w.u32(p + "embedding_length", static_cast<std::uint32_t>(t.hidden_size));
    w.u32(p + "feed_forward_length", static_cast<std::uint32_t>(t.intermediate_size));
    w.u32(p + "attention.head_count", static_cast<std::uint32_t>(t.attention_heads));
    w.u32(p + "projection_dim", text_width);
    if (!audio) {
        w.u32("clip.vision.patch_size", static_cast<std::uint32_t>(t.patch_size));
        if (t.image_size > 0) w.u32("clip.vision.image_size", static_cast<std::uint32_t>(t.image_size));  // the Qwen ViTs have none
    }
    if (t.kind == VisionKind::mistral3_pixtral || t.kind == VisionKind::qwen2_5_vl || t.kind == VisionKind::qwen3_vl || t.kind == VisionKind::qwen3_5)
        w.u32("clip.vision.spatial_merge_size", static_cast<std::uint32_t>(t.merge_size));
    if (t.kind == VisionKind::gemma4) w.u32("clip.vision.projector.scale_factor", static_cast<std::uint32_t>(t.merge_size));
    if (t.kind == VisionKind::llama4) w.u32("clip.vision.projector.scale_factor", 2);  // conversion/llama4.py: 1 / pixel_shuffle_ratio
    if (t.kind == VisionKind::gemma4 && t.audio) {
        w.text("clip.audio.projector_type", "gemma4a");
        w.u32("clip.audio.embedding_length", 1024);
    }
    const std::uint64_t width = t.hidden_size;
    w.tensor(audio ? "a.conv1d.1.weight" : "v.patch_embd.weight", {3, 128, width}, 1, 2ULL * 3 * 128 * width);
    for (std::uint64_t d = 0; d < t.deepstack_mergers; ++d)
        w.tensor("v.deepstack." + std::to_string(8 * (d + 1)) + ".fc1.weight", {width * 4, 8}, 1, 2ULL * width * 4 * 8);
    w.tensor("mm.2.weight", {text_width, 8}, 1, 2ULL * text_width * 8);
    return w;
}

Expected<FileModel> read_file(const llm_memory::test::GgufWriter& w, const char* name) {
    const std::string bytes = w.file();
    ModelFileReader reader(bytes.size(), name);
    const Expected<bool> fed = reader.feed(bytes);
    if (!fed) return Error{fed.error()};
    return reader.finish();
}

}  // namespace

TEST_CASE("llama.cpp's drafter file (--draft-model FILE, -md): its header gives the drafter's weights, KV cache and graph") {
    // A small Llama drafter GGUF with Llama 3's vocabulary (llama.cpp's -md reads any GGUF whose vocabulary is within
    // 128 tokens of the target's): 4 layers of 64, 4 heads of 16 (2 KV heads), its tensors in Q8_0 (34 bytes a block of
    // 32) and F32 norms. Its weights are the file's tensor bytes, as llama.cpp's model buffer holds them.
    llm_memory::test::GgufWriter w;
    w.text("general.architecture", "llama");
    w.text("general.name", "Tiny Drafter");
    w.u32("llama.block_count", 4);
    w.u32("llama.context_length", 131072);
    w.u32("llama.embedding_length", 64);
    w.u32("llama.feed_forward_length", 128);
    w.u32("llama.attention.head_count", 4);
    w.u32("llama.attention.head_count_kv", 2);
    w.u32("llama.vocab_size", 128256);
    auto q8 = [](std::uint64_t elements) { return elements / 32 * 34; };
    w.tensor("token_embd.weight", {64, 128256}, 8, q8(64ULL * 128256));
    w.tensor("output_norm.weight", {64}, 0, 64 * 4);
    for (int i = 0; i < 4; ++i) {
        const std::string b = "blk." + std::to_string(i) + ".";
        w.tensor(b + "attn_q.weight", {64, 64}, 8, q8(64 * 64));
        w.tensor(b + "attn_k.weight", {64, 32}, 8, q8(64 * 32));
        w.tensor(b + "attn_v.weight", {64, 32}, 8, q8(64 * 32));
        w.tensor(b + "attn_output.weight", {64, 64}, 8, q8(64 * 64));
        w.tensor(b + "ffn_gate.weight", {64, 128}, 8, q8(64 * 128));
        w.tensor(b + "ffn_up.weight", {64, 128}, 8, q8(64 * 128));
        w.tensor(b + "ffn_down.weight", {128, 64}, 8, q8(128 * 64));
        w.tensor(b + "attn_norm.weight", {64}, 0, 64 * 4);
        w.tensor(b + "ffn_norm.weight", {64}, 0, 64 * 4);
    }
    const Expected<FileModel> file = read_file(w, "tiny-drafter-Q8_0.gguf");
    REQUIRE(file);
    const std::uint64_t tensor_bytes = q8(64ULL * 128256) + 64 * 4 + 4 * (q8(2 * 64 * 64 + 2 * 64 * 32 + 3 * 64 * 128) + 2 * 64 * 4);
    CHECK(file->weight_bytes == tensor_bytes);
    Scenario s = with({{"model", "llama-3.1-8b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "8192"}});
    s.engine.draft_model = "tiny-drafter-Q8_0.gguf";
    s.engine.draft_file = std::make_shared<const FileModel>(*file);
    const EngineEstimate e = run(s);
    const EngineDevice& g = device(e, "gpu0");
    CHECK(term(g, "draft_model_buffer") == tensor_bytes);
    // Its KV cache at the target's n_ctx in f16: 8,192 cells x 4 layers x (K and V) x 2 heads x 16 x 2 bytes.
    CHECK(term(g, "draft_kv_buffer") == 8192ULL * 4 * 2 * 2 * 16 * 2);
    CHECK(term(g, "draft_compute_buffer") > 0);
    CHECK(e.command.find(" -md tiny-drafter-Q8_0.gguf --spec-type draft-simple") != std::string::npos);
    // Named in the state, kept by its own scenario; elsewhere refused by name (a link cannot carry the file).
    const std::string state = to_state(s);
    CHECK(state.find("draft-model=tiny-drafter-Q8_0.gguf") != std::string::npos);
    const StateResult again = apply_state(s, state);
    CHECK(again.problems.empty());
    CHECK(again.scenario.engine.draft_file == s.engine.draft_file);
    const StateResult fresh = apply_state(Scenario{}, state);
    REQUIRE(fresh.problems.size() == 1);
    CHECK(fresh.problems[0].find("a drafter file is not carried by a link or a saved state") != std::string::npos);
    // A built-in name drops the file; the drafter's format is the file's own; vLLM loads no GGUF drafter.
    Scenario named = s;
    REQUIRE(apply_setting(named, "draft-model", "llama-3.2-1b"));
    CHECK_FALSE(named.engine.draft_file);
    Scenario typed = s;
    REQUIRE(apply_setting(typed, "draft-dtype", "q4_k_m"));
    CHECK(engine_estimate(typed).error() == "draft-dtype: a drafter file holds its own format: leave --draft-dtype out");
    Scenario v = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}});
    v.engine.draft_model = s.engine.draft_model;
    v.engine.draft_file = s.engine.draft_file;
    CHECK(engine_estimate(v).error().find("draft-model: vLLM loads a draft model's checkpoint, not a GGUF file") == 0);
}

TEST_CASE("llama.cpp's projector file (--mmproj FILE): its header gives the buffer the model's config gives") {
    // Every tower whose buffer was measured with llama.cpp's own clip.cpp (bench/mmproj/README.md), written as its
    // mmproj file: the header read as tools/mtmd/clip.cpp load_hparams reads it must give the same graph, with flash
    // attention on and off, as the config's tower does.
    for (const char* model : {"mistral-small-3.1-24b", "qwen2.5-vl-3b", "qwen3-vl-8b", "qwen3-vl-30b-a3b", "qwen3.5-27b", "gemma-3-12b",
                              "llama-4-scout", "gemma-4-e2b", "gemma-4-31b", "voxtral-mini-3b"}) {
        for (const char* fa : {"on", "off"}) {
            CAPTURE(model, fa);
            Scenario config = with({{"model", model}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"},
                                    {"flash-attn", fa}, {"mmproj", "true"}});
            const Architecture& a = config.model->architecture;
            const Expected<FileModel> file = read_file(mmproj_of(a.vision, static_cast<std::uint32_t>(a.hidden_size)), "mmproj.gguf");
            REQUIRE(file);
            CHECK(file->kind == "mmproj");
            REQUIRE(file->projector);
            CHECK(file->projector->tower.kind == a.vision.kind);
            Scenario from_file = with({{"model", model}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"},
                                       {"flash-attn", fa}});
            REQUIRE(apply_file_model(from_file, *file));
            const std::uint64_t want = term(device(run(config), "gpu0"), "mmproj_compute_buffer");
            CHECK(want > 0);
            CHECK(term(device(run(from_file), "gpu0"), "mmproj_compute_buffer") == want);
            CHECK(term(device(run(from_file), "gpu0"), "mmproj_buffer") == file->weight_bytes);
        }
        // The file's tower sizes images and audio under llama.cpp as the config's does (a GGUF model has no other).
        const Architecture a = load_preset(model)->architecture;
        const VisionTower t = read_file(mmproj_of(a.vision, static_cast<std::uint32_t>(a.hidden_size)), "mmproj.gguf")->projector->tower;
        if (a.vision.kind != VisionKind::voxtral)
            for (const auto& [w, h] : {std::pair<std::uint64_t, std::uint64_t>{300, 300}, {1024, 768}, {1920, 1080}}) {
                CAPTURE(model, w, h);
                CHECK(*image_tokens(t, w, h, ImageProcessor::llama_cpp) == *image_tokens(a.vision, w, h, ImageProcessor::llama_cpp));
            }
        if (a.vision.audio) CHECK(*audio_tokens(t, 45, ImageProcessor::llama_cpp) == *audio_tokens(a.vision, 45, ImageProcessor::llama_cpp));
    }
}

TEST_CASE("a projector file is named in the state, and a link naming it without the file is refused, not priced as f16") {
    // A link cannot carry the file: before, the state said mmproj=true, and whoever opened the link got the model's
    // f16 tower in its place (a q8_0 file priced at twice its bytes, a GGUF model's file refused for want of a tower).
    Scenario s = with({{"model", "mistral-small-3.1-24b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"}});
    const Architecture& a = s.model->architecture;
    const Expected<FileModel> file = read_file(mmproj_of(a.vision, static_cast<std::uint32_t>(a.hidden_size)), "mmproj-ms.gguf");
    REQUIRE(file);
    REQUIRE(apply_file_model(s, *file));
    const std::string state = to_state(s);
    CHECK(state.find("mmproj=mmproj-ms.gguf") != std::string::npos);
    // The scenario's own state read back keeps the file (the page and the app re-read their state).
    const StateResult again = apply_state(s, state);
    CHECK(again.problems.empty());
    REQUIRE(again.scenario.engine.mmproj_file);
    CHECK(term(device(run(again.scenario), "gpu0"), "mmproj_buffer") == file->weight_bytes);
    // Opened elsewhere, without the file: refused by name, the rest of the link kept.
    const StateResult elsewhere = apply_state(Scenario{}, state);
    REQUIRE(elsewhere.problems.size() == 1);
    CHECK(elsewhere.problems[0] == "mmproj: \"mmproj-ms.gguf\" is not true or false (a projector file is not carried by a link or a saved "
                                   "state: drop the file on the page, or give --mmproj FILE)");
    CHECK_FALSE(elsewhere.scenario.engine.mmproj);
    CHECK(elsewhere.scenario.engine.kind == EngineKind::llama_cpp);
    // Without a file the state says true, as before; false drops the file.
    CHECK(to_state(with({{"model", "gemma-3-12b"}, {"engine", "llama.cpp"}, {"mmproj", "true"}})).find("mmproj=true") != std::string::npos);
    REQUIRE(apply_setting(s, "mmproj", "false"));
    CHECK_FALSE(s.engine.mmproj_file);
}

TEST_CASE("llama.cpp's projector file beside a GGUF model, which has no vision_config") {
    // A language model read from its GGUF (no vision tower of its own) and Mistral Small 3.x's projector file: the
    // buffer at warm-up is llama.cpp's 82.62 MiB (86,630,400 bytes, clip.cpp on the CPU with flash attention off:
    // bench/mmproj/README.md), the weights the file's own bytes, and the command names the file.
    llm_memory::test::GgufWriter m;
    m.text("general.architecture", "llama");
    m.u32("llama.block_count", 40);
    m.u32("llama.embedding_length", 5120);
    m.u32("llama.attention.head_count", 32);
    m.u32("llama.attention.head_count_kv", 8);
    m.u32("llama.attention.key_length", 128);
    m.u32("llama.attention.value_length", 128);
    m.u32("llama.vocab_size", 131072);
    m.tensor("token_embd.weight", {5120, 16}, 1, 2ULL * 5120 * 16);  // a stand-in: the data is written out
    Scenario s = with({{"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "8192"}, {"flash-attn", "off"}});
    REQUIRE(apply_file_model(s, *read_file(m, "Mistral-Small-3.1-24B-Q4_K_M.gguf")));
    Scenario ms = with({{"model", "mistral-small-3.1-24b"}});
    const Expected<FileModel> file = read_file(mmproj_of(ms.model->architecture.vision, 5120), "mmproj-ms.gguf");
    REQUIRE(file);
    CHECK(file->report.find("llama.cpp's vision projector (--mmproj), pixtral: Pixtral (Mistral 3), beside the model\n") == 0);
    REQUIRE(apply_file_model(s, *file));
    CHECK(s.engine.mmproj);
    CHECK(s.param_count == 5120ULL * 16);  // the model stays
    const EngineEstimate e = run(s);
    CHECK(term(device(e, "gpu0"), "mmproj_compute_buffer") == 86630400ULL);
    CHECK(term(device(e, "gpu0"), "mmproj_buffer") == file->weight_bytes);
    CHECK(term_steps(device(e, "gpu0"), "mmproj_buffer").find("mmproj-ms.gguf (pixtral, Pixtral (Mistral 3)): ") == 0);
    CHECK(e.command.find("--mmproj mmproj-ms.gguf") != std::string::npos);
    // With an image, the file's tower gives its tokens (Pixtral under mtmd: 1540 x 1540 -> 32 x 33 = 1,056) and the
    // larger image's graph (896 x 896 after mtmd's resize: 1,097.84 MiB, as measured for Mistral Small's own tower).
    Scenario pictured = s;
    REQUIRE(apply_setting(pictured, "images", "1"));
    REQUIRE(apply_setting(pictured, "image-size", "1540x1540"));
    const Expected<Estimate> with_image = estimate(pictured);
    REQUIRE(with_image);
    CHECK(with_image->image_tokens == 1056);
    CHECK(term(device(run(pictured), "gpu0"), "mmproj_compute_buffer") == 1151172608ULL);
    CHECK(report_table(pictured, *with_image, UnitChoice::both).find("Images: 1 x 1056 tokens at 1540x1540 added to the context (Pixtral under llama.cpp's mtmd") !=
          std::string::npos);
    // Qwen3-VL-8B's file: its three deepstack layers counted from their tensors (4,769.39 MiB, flash attention off).
    Scenario q = with({{"model", "qwen3-vl-8b"}});
    const Expected<FileModel> q3 = read_file(mmproj_of(q.model->architecture.vision, 4096), "mmproj-qwen3-vl-8b.gguf");
    REQUIRE(q3);
    CHECK(q3->projector->tower.deepstack_mergers == 3);
    REQUIRE(apply_setting(q, "engine", "llama.cpp"));
    REQUIRE(apply_setting(q, "flash-attn", "off"));
    REQUIRE(apply_file_model(q, *q3));
    CHECK(term(device(run(q), "gpu0"), "mmproj_compute_buffer") == 5001072896ULL);
    // Another model's projector: mtmd refuses a pair whose widths differ.
    Scenario other = with({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}});
    REQUIRE(apply_file_model(other, *file));
    CHECK(engine_estimate(other).error().find("mmproj-ms.gguf hands the model 5,120-wide embeddings (its projection_dim) and the model is "
                                              "4,096 wide: llama.cpp refuses the pair") != std::string::npos);
    // Ollama loads its projector itself; --mmproj false drops the file.
    REQUIRE(apply_setting(s, "engine", "ollama"));
    CHECK(engine_estimate(s).error().find("Ollama loads a model's projector itself") != std::string::npos);
    REQUIRE(apply_setting(s, "engine", "llama.cpp"));
    REQUIRE(apply_setting(s, "mmproj", "false"));
    CHECK(s.engine.mmproj_file == nullptr);
}

TEST_CASE("llama.cpp's projector file: what its header cannot give is an error naming it") {
    Scenario ms = with({{"model", "mistral-small-3.1-24b"}});
    llm_memory::test::GgufWriter kimi = mmproj_of(ms.model->architecture.vision, 5120);
    kimi.text("clip.projector_type", "kimivl");  // a second key: the reader keeps the last
    CHECK(read_file(kimi, "x.gguf").error() == "mmproj: projector \"kimivl\" is not modelled (known: gemma3, llama4, pixtral, "
                                               "qwen2.5vl_merger, qwen3vl_merger, gemma4v, voxtral)");
    llm_memory::test::GgufWriter missing;
    missing.text("general.architecture", "clip");
    missing.text("clip.projector_type", "gemma3");
    missing.u32("clip.vision.patch_size", 14);
    missing.tensor("v.patch_embd.weight", {14, 14, 3, 8}, 1, 2ULL * 14 * 14 * 3 * 8);
    CHECK(read_file(missing, "x.gguf").error() == "mmproj: clip.vision.embedding_length is missing");
    llm_memory::test::GgufWriter untyped;
    untyped.text("general.architecture", "clip");
    untyped.tensor("v.patch_embd.weight", {14, 14, 3, 8}, 1, 2ULL * 14 * 14 * 3 * 8);
    CHECK(read_file(untyped, "x.gguf").error() == "mmproj: clip.projector_type is missing");
    // A width out of range (a scale factor of 0 would divide by zero) is named, never used; Llama 4's has no default.
    auto tower_file = [](const char* type, std::uint32_t scale) {
        llm_memory::test::GgufWriter w;
        w.text("general.architecture", "clip");
        w.text("clip.projector_type", type);
        w.u32("clip.vision.embedding_length", 768);
        w.u32("clip.vision.feed_forward_length", 3072);
        w.u32("clip.vision.attention.head_count", 12);
        w.u32("clip.vision.patch_size", 16);
        w.u32("clip.vision.image_size", 336);
        if (scale != 1) w.u32("clip.vision.projector.scale_factor", scale);
        w.tensor("v.patch_embd.weight", {16, 16, 3, 8}, 1, 2ULL * 16 * 16 * 3 * 8);
        return w;
    };
    CHECK(read_file(tower_file("gemma4v", 0), "x.gguf").error() == "mmproj: clip.vision.projector.scale_factor: must be a whole number from 1 to 1,000,000");
    CHECK(read_file(tower_file("llama4", 1), "x.gguf").error() == "mmproj: clip.vision.projector.scale_factor is missing");
    CHECK(read_file(tower_file("llama4", 2), "x.gguf")->projector->tower.tokens_per_image == 100);  // (336 / 16 / 2)^2
}

TEST_CASE("llama.cpp without a GGUF leaves a vision tower out of the model buffer: it lives in the mmproj file") {
    // convert_hf_to_gguf.py writes the language model and the projector to two files.
    Scenario s = with({{"model", "gemma-3-27b"}, {"dtype", "q8_0"}, {"engine", "llama.cpp"}, {"gpu", "h100-80gb"}, {"context", "4096"},
                       {"parallel", "1"}, {"ngl", "all"}});
    const EngineEstimate e = run(s);
    REQUIRE(apply_setting(s, "text-only", "true"));
    const EngineEstimate text = run(s);
    // The same bytes up to the rounding of each share (a few bytes of 28 GB); the tower is 0.8 GB.
    const auto near = [](std::uint64_t a, std::uint64_t b) { return (a > b ? a - b : b - a) < 1024; };
    CHECK(near(term(device(e, "gpu0"), "model_buffer"), term(device(text, "gpu0"), "model_buffer")));
    CHECK(near(term(device(e, "host"), "model_buffer"), term(device(text, "host"), "model_buffer")));
}
