// fit under an engine (core/engines/engine_fit.hpp): every inference answer is engine_estimate() at the
// answer, which runs, and one step further does not. Where the engine itself states the answer, it is
// checked against that: vLLM's "the estimated maximum model length is N" (vllm/v1/core/kv_cache_utils.py
// estimate_max_model_len, what --max-model-len auto chooses) and llama.cpp's --fit (common/fit.cpp).
#include <catch_amalgamated.hpp>

#include "engine_test_support.hpp"
#include "engines/engine.hpp"
#include "engines/engine_fit.hpp"
#include "fit.hpp"
#include "settings.hpp"

using namespace llm_memory;
using llm_memory::test::run;
using llm_memory::test::with;

namespace {

FitReport ask(const Scenario& s, FitQuestionKind kind, const char* key = "") {
    const Expected<FitReport> r = engine_answer_fit_question(s, FitQuestion{kind, key});
    INFO(r.error());
    REQUIRE(r.ok());
    return *r;
}

Scenario at_context(Scenario s, std::uint64_t tokens) {
    REQUIRE(apply_setting(s, "context", std::to_string(tokens)).ok());
    return s;
}

const FitAnswer& inference(const FitReport& r) {
    REQUIRE(!r.answers.empty());
    const FitAnswer& a = r.answers.back();
    REQUIRE(a.side == FitSide::inference);
    return a;
}

}  // namespace

TEST_CASE("engine fit: vLLM's largest context is the maximum model length vLLM estimates for itself") {
    // Llama 3.1 8B on one RTX 4090 does not start at its 131,072 tokens: vLLM's ValueError names the longest
    // max_model_len the KV pool holds (estimate_max_model_len), which is what the fit answers.
    const Scenario s = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "rtx-4090"}});
    const EngineEstimate own = run(s);
    REQUIRE_FALSE(own.runs);
    REQUIRE(own.auto_context_tokens > 0);
    const std::string said = "the estimated maximum model length is " + std::to_string(own.auto_context_tokens) + ".";
    CHECK(own.failure.find(said) != std::string::npos);
    const FitReport r = ask(s, FitQuestionKind::maximize, "context");
    const FitAnswer& a = inference(r);
    CHECK(a.found);
    CHECK(a.value == own.auto_context_tokens);
    CHECK_FALSE(a.at_limit);
    CHECK(a.scenario.context_tokens == a.value);
    CHECK(run(a.scenario).runs);
    CHECK_FALSE(run(at_context(s, a.value + 1)).runs);
    CHECK(a.headline == format_count_exact(a.value) + " tokens (--max-model-len " + std::to_string(a.value) + ")");
    CHECK(a.sentence.find("KV pool") != std::string::npos);
    // The fit without an engine answers with the seed's detailed total, a different (larger) figure.
    Scenario none = s;
    REQUIRE(apply_setting(none, "engine", "none").ok());
    const Expected<FitReport> seed = engine_answer_fit_question(none, FitQuestion{FitQuestionKind::maximize, "context"});
    REQUIRE(seed.ok());
    CHECK(seed->answers.front().value != a.value);
}

TEST_CASE("engine fit: vLLM stops at the model's max_position_embeddings") {
    // vllm/config/model.py _get_and_verify_max_len: a longer --max-model-len raises "... To allow overriding
    // this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1".
    const Scenario s = with({{"model", "llama-3.1-70b"}, {"engine", "vllm"}, {"gpu", "a100-80gb"}, {"gpus", "4"}});
    const FitReport r = ask(s, FitQuestionKind::maximize, "context");
    const FitAnswer& a = inference(r);
    CHECK(a.value == 131072);
    CHECK(a.at_limit);
    CHECK(a.sentence.find("VLLM_ALLOW_LONG_MAX_MODEL_LEN=1") != std::string::npos);
    // The same card count, tensor parallel 4, and the pool's 478,736 tokens (engine_io's pinned vLLM figures).
    CHECK(a.sentence.find("holds 478,736 tokens") != std::string::npos);
}

TEST_CASE("engine fit: llama.cpp's largest context with every layer on the GPU, and what its --fit keeps") {
    const Scenario s = with({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}});
    const FitReport r = ask(s, FitQuestionKind::maximize, "context");
    const FitAnswer& a = inference(r);
    REQUIRE(a.found);
    CHECK(a.scenario.engine.ngl_all);
    const EngineEstimate at = run(a.scenario);
    CHECK(at.runs);
    CHECK(at.context_tokens == a.value);
    CHECK(a.value % 256 == 0);  // llama.cpp pads n_ctx to 256 cells (src/llama-context.cpp)
    CHECK_FALSE(run(at_context(a.scenario, a.value + 1)).runs);
    // llama.cpp's own --fit with -c and -ngl unset keeps 1 GiB free per device (common/common.h
    // fit_params_target), so it settles lower, and says so in the sentence.
    const EngineEstimate fit = run(s);
    CHECK(fit.context_tokens < a.value);
    // The README's example (its "Under an engine" paragraph): -c 75776 against --fit's -c 67840.
    CHECK(a.value == 75776);
    CHECK(fit.context_tokens == 67840);
    CHECK(a.sentence.find("chooses -c " + std::to_string(fit.context_tokens) + " -ngl 33") != std::string::npos);
    const EngineDevice& g = fit.devices.front();
    CHECK(g.total_bytes + (1ULL << 30) <= g.capacity_bytes);
    CHECK(a.need_bytes <= a.capacity_bytes);
    CHECK(a.need_bytes + (1ULL << 30) > a.capacity_bytes);
}

TEST_CASE("engine fit: -ngl, fewest GPUs and the most bits that run under llama.cpp") {
    // Llama 3 70B at Q4_K_M and 8K on one RTX 4090: it does not run whole, so layers go to the CPU.
    const Scenario s = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4090"}});
    const FitReport layers_report = ask(s, FitQuestionKind::layers_on_gpu);
    const FitAnswer& layers = inference(layers_report);
    REQUIRE(layers.found);
    REQUIRE(layers.value > 0);
    REQUIRE(layers.value < 81);
    Scenario more = layers.scenario;
    more.engine.ngl_layers = layers.value + 1;
    CHECK(run(layers.scenario).runs);
    CHECK_FALSE(run(more).runs);
    CHECK(run(s).gpu_layers <= layers.value);  // --fit keeps its 1 GiB margin: never more layers

    // With --mtp llama.cpp counts the kept MTP layer as a block (the printed command's -ngl 66 for Qwen3.5 27B's 64
    // layers): the answer speaks the flag, one more than llm-memory's count of layers on the GPU.
    const Scenario mtp = with({{"model", "qwen3.5-27b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"context", "8192"}, {"gpu", "rtx-4070"}, {"mtp", "true"}});
    const FitReport drafting_report = ask(mtp, FitQuestionKind::layers_on_gpu);
    const FitAnswer& drafting = inference(drafting_report);
    REQUIRE(drafting.found);
    REQUIRE(drafting.value > 0);
    REQUIRE(drafting.value < 65);
    CHECK(drafting.headline == "-ngl " + std::to_string(drafting.value + 1) + " of 66");
    CHECK(run(drafting.scenario).command.find(" -ngl " + std::to_string(drafting.value + 1) + " ") != std::string::npos);

    const FitReport gpus = ask(s, FitQuestionKind::minimize_gpus);
    REQUIRE(gpus.answers.size() == 2);
    const FitAnswer& g = inference(gpus);
    REQUIRE(g.found);
    CHECK(g.value == 2);
    CHECK(g.sentence.rfind("Inference with llama.cpp at -c 8192: 2 GPUs, layers split evenly: the fullest GPU holds ", 0) == 0);
    CHECK(g.sentence.find(" On 1 GPU it would not run: the fullest GPU would need ") != std::string::npos);
    CHECK(run(g.scenario).runs);
    Scenario one = g.scenario;
    REQUIRE(apply_setting(one, "gpus", "1").ok());
    CHECK_FALSE(run(one).runs);

    // llama.cpp loads GGUF types (and F32/F16/BF16), never FP8 or NF4. Even Q2_K leaves 70B over a 24 GiB
    // card whole, so the question is asked of two cards.
    const Expected<FitReport> none = engine_answer_fit_question(s, FitQuestion{FitQuestionKind::minimize_bytes, ""});
    REQUIRE_FALSE(none.ok());
    CHECK(none.failure().key == "bytes");
    CHECK(none.error().rfind("bytes: nothing fits. Training: no named format fits", 0) == 0);
    CHECK(none.error().find("Inference with llama.cpp at -c 8192: none: no named format runs; even Q2_K (GGUF): the fullest GPU would need") != std::string::npos);
    Scenario two = s;
    REQUIRE(apply_setting(two, "gpus", "2").ok());
    const FitReport bits_report = ask(two, FitQuestionKind::minimize_bytes);
    const FitAnswer& bits = inference(bits_report);
    REQUIRE(bits.found);
    const Expected<WeightFormat> f = find_weight_format(bits.format_key);
    REQUIRE(f.ok());
    CHECK(f->gguf);
    CHECK(run(bits.scenario).runs);
}

TEST_CASE("engine fit: the batch is asked only where the engine has one, and -ngl only of llama.cpp") {
    const Scenario llama = with({{"model", "llama-3.1-8b"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}, {"context", "8192"}});
    const Expected<FitReport> batch = engine_answer_fit_question(llama, FitQuestion{FitQuestionKind::maximize, "batch"});
    REQUIRE_FALSE(batch.ok());
    CHECK(batch.failure().key == "batch");
    CHECK(batch.error().find("-np") != std::string::npos);
    for (const FitReport& r : engine_answer_applicable_fit_questions(llama)) CHECK(r.json_key != "batch");

    const Scenario vllm = with({{"model", "llama-3.1-8b"}, {"engine", "vllm"}, {"gpu", "h100-80gb"}, {"context", "8192"}});
    const Expected<FitReport> ngl = engine_answer_fit_question(vllm, FitQuestion{FitQuestionKind::layers_on_gpu, ""});
    REQUIRE_FALSE(ngl.ok());
    CHECK(ngl.failure().key == "layers-on-gpu");
    for (const FitReport& r : engine_answer_applicable_fit_questions(vllm)) CHECK(r.json_key != "layers_on_gpu");

    const Scenario hf = with({{"model", "llama-3.1-8b"}, {"engine", "transformers"}, {"gpu", "rtx-4090"}, {"context", "8192"}});
    const FitReport batch_report = ask(hf, FitQuestionKind::maximize, "batch");
    const FitAnswer& b = inference(batch_report);
    REQUIRE(b.found);
    CHECK(run(b.scenario).runs);
    Scenario next = b.scenario;
    REQUIRE(apply_setting(next, "batch", std::to_string(b.value + 1)).ok());
    CHECK_FALSE(run(next).runs);
}

TEST_CASE("engine fit: without an engine the answers are fit's own") {
    const Scenario s = with({{"model", "llama-3.1-8b"}, {"gpu", "rtx-4090"}, {"context", "8192"}});
    CHECK(fit_json(engine_answer_applicable_fit_questions(s)) == fit_json(answer_applicable_fit_questions(s)));
    // A model that does not run even at one token with every layer on the GPU: the error names both ways out.
    const Scenario big = with({{"model", "llama-3-70b"}, {"dtype", "q4_k_m"}, {"engine", "llama.cpp"}, {"gpu", "rtx-4090"}});
    const Expected<FitReport> r = engine_answer_fit_question(big, FitQuestion{FitQuestionKind::maximize, "context"});
    REQUIRE_FALSE(r.ok());
    CHECK(r.failure().key == "context");
    CHECK(r.error().find("with every layer on the GPU") != std::string::npos);
}
