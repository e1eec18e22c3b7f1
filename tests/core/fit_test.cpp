// What fits, answered backwards (core/fit.hpp). Each answer is checked against a closed form written out
// here from the model's config.json values (meta-llama/Llama-2-7b-hf: 32 layers, hidden 4096, 32 KV heads,
// head_dim 128, MLP 11008, vocabulary 32000, untied head) and the estimator's documented terms, so the
// search and the formula are independent: answer fits, answer + 1 does not.
#include <catch_amalgamated.hpp>

#include "fit.hpp"
#include "kv_cache.hpp"
#include "model_presets.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {
constexpr std::uint64_t GiB = 1ULL << 30;

// Llama-2-7B at fp16: N x 2 bytes, as the preset counts it.
constexpr std::uint64_t kWeights = 6'738'415'616ULL * 2;
constexpr std::uint64_t kKvPerToken = 2ULL * 32 * 32 * 128 * 2;      // 2 x layers x KV heads x head_dim x 2 bytes
constexpr std::uint64_t kActivationPerToken = (4096 + 2 * 11008) * 2;  // detailed mode: (hidden + 2 x MLP) x 2 bytes
constexpr std::uint64_t kLogitsPerSequence = 32000 * 4;                // fp32 logits of the last position
constexpr std::uint64_t kReserve = 1ULL << 30;                         // kRuntimeReserveBytes

// The detailed inference total of Llama-2-7B for `tokens` x `batch`.
std::uint64_t detailed_total(std::uint64_t tokens, std::uint64_t batch) {
    return kWeights + (kKvPerToken + kActivationPerToken) * tokens * batch + kLogitsPerSequence * batch + kReserve;
}

Scenario llama7b(const char* gpu) {
    Scenario s;
    REQUIRE(apply_setting(s, "model", "llama-2-7b"));
    REQUIRE(apply_setting(s, "gpu", gpu));
    return s;
}

FitReport ask(const Scenario& s, FitQuestion q) {
    const Expected<FitReport> r = answer_fit_question(s, q);
    INFO(r.error());
    REQUIRE(r.ok());
    return *r;
}

std::string fails(const Scenario& s, FitQuestion q) {
    const Expected<FitReport> r = answer_fit_question(s, q);
    REQUIRE_FALSE(r.ok());
    return r.error();
}
}  // namespace

TEST_CASE("fit: the largest context is the last token count whose detailed total fits", "[fit]") {
    const Scenario s = llama7b("rtx-4090");
    const FitReport r = ask(s, {FitQuestionKind::maximize, "context"});
    REQUIRE(r.answers.size() == 1);
    const FitAnswer& a = r.answers[0];
    const std::uint64_t capacity = 24 * GiB;
    CHECK(a.found);
    CHECK_FALSE(a.at_limit);
    CHECK(detailed_total(a.value, 1) <= capacity);
    CHECK(detailed_total(a.value + 1, 1) > capacity);
    CHECK(a.value == 19'460);  // (24 GiB - 13.48 GB - 1 GiB - 128,000) / 576,512 bytes per token, rounded down
    CHECK(a.need_bytes == detailed_total(19'460, 1));
    CHECK(a.next_need_bytes == detailed_total(19'461, 1));
    // The estimate at the answer is the estimator's own, in detailed mode, at that context.
    CHECK(a.scenario.context_tokens == 19'460);
    CHECK(a.scenario.detailed_inference);
    CHECK(a.estimate.detailed_inference_bytes == a.need_bytes);
    CHECK(a.sentence.rfind("Largest context that fits: 19,460 tokens on 1 x NVIDIA GeForce RTX 4090: the inference total "
                           "(detailed) is 25.77 GB per GPU of 25.77 GB; 19,461 tokens would need 25.77 GB.", 0) == 0);
    // Beyond the 4,096 tokens Llama 2 was trained for: said.
    CHECK(a.sentence.find("The model was trained for 4,096 tokens") != std::string::npos);
    // Two GPUs: the total is split evenly, so about twice the room per token.
    Scenario two = s;
    two.gpu_count = 2;
    const std::uint64_t t2 = ask(two, {FitQuestionKind::maximize, "context"}).answers[0].value;
    CHECK((detailed_total(t2, 1) + 1) / 2 <= capacity);
    CHECK((detailed_total(t2 + 1, 1) + 1) / 2 > capacity);
}

TEST_CASE("fit: the largest batch at a context, and the setting's own limit", "[fit]") {
    Scenario s = llama7b("h100-80gb");
    s.context_tokens = 4096;
    const FitAnswer a = ask(s, {FitQuestionKind::maximize, "batch"}).answers[0];
    CHECK(detailed_total(4096, a.value) <= 80 * GiB);
    CHECK(detailed_total(4096, a.value + 1) > 80 * GiB);
    CHECK(a.value == 30);
    // A model that fits at any context the setting accepts: the answer is the setting's limit, said so.
    Scenario huge = llama7b("rtx-4090");
    huge.gpu_memory_bytes = 1ULL << 50;  // 1 PiB
    const FitAnswer at_limit = ask(huge, {FitQuestionKind::maximize, "context"}).answers[0];
    CHECK(at_limit.at_limit);
    CHECK(at_limit.value == kMaxContextTokens);
    CHECK(at_limit.sentence.rfind("Fits up to the largest context the setting accepts, 100,000,000 tokens", 0) == 0);
}

TEST_CASE("fit: fewest GPUs at the ZeRO stage for training, split evenly for inference", "[fit]") {
    Scenario s;  // the seed's 13B: 104 GB of training model states, 31.2 GB of inference
    s.gpu = "h100-80gb";
    FitReport r = ask(s, {FitQuestionKind::minimize_gpus, {}});
    REQUIRE(r.answers.size() == 2);
    CHECK(r.answers[0].side == FitSide::training);
    CHECK_FALSE(r.answers[0].found);  // stage 0 replicates all 104 GB on every GPU
    CHECK(r.answers[0].sentence ==
          "Training: no number of GPUs fits at ZeRO stage 0: each GPU keeps 104 GB of model states that the stage does "
          "not split; at ZeRO stage 3, 2 GPUs would do.");
    CHECK(r.answers[1].found);
    CHECK(r.answers[1].value == 1);
    s.zero_stage = 3;
    r = ask(s, {FitQuestionKind::minimize_gpus, {}});
    CHECK(r.answers[0].headline == "Training: 2 GPUs at ZeRO stage 3");
    CHECK(r.answers[0].value == 2);  // 104 GB / 2 = 52 GB <= 85.9 GB; one GPU holds all 104 GB
    CHECK(r.answers[0].need_bytes == 52'000'000'000ULL);
    CHECK(r.answers[0].next_need_bytes == 104'000'000'000ULL);
    // The ZeRO paper's 7.5B with K = 12 (16 bytes per parameter, 120 GB) on 16 GB GPUs at stage 3:
    // ceil(120 / 17.18) = 7 GPUs (7 x 17.18 GB = 120.3 GB).  Each part is rounded up on its own:
    // weights and gradients 15 GB / 7 = 2,142,857,143 each, optimizer states 90 GB / 7 = 12,857,142,858.
    Scenario paper;
    paper.param_count = 7'500'000'000ULL;
    paper.recipe = "adamw-mixed";
    paper.zero_stage = 3;
    paper.gpu_memory_bytes = 16 * GiB;
    const FitAnswer z = ask(paper, {FitQuestionKind::minimize_gpus, {}}).answers[0];
    CHECK(z.value == 7);
    CHECK(z.need_bytes == 2 * 2'142'857'143ULL + 12'857'142'858ULL);
}

TEST_CASE("fit: the format with the most bits that fits", "[fit]") {
    // 70B, simple inference (weights x 1.2), 2 x RTX 4090 (24 GiB each): Q4_K_M's 4.84 bits give 50.82 GB,
    // 25.41 GB per GPU; Q5_K's 5.5 bits would give 28.88 GB per GPU.
    Scenario s;
    s.param_count = 70'000'000'000ULL;
    s.gpu = "rtx-4090";
    s.gpu_count = 2;
    const FitReport r = ask(s, {FitQuestionKind::minimize_bytes, {}});
    REQUIRE(r.answers.size() == 2);
    CHECK_FALSE(r.answers[0].found);  // training: 420 GB of gradient+optimizer at stage 0 fits no format
    const FitAnswer& a = r.answers[1];
    CHECK(a.found);
    CHECK(a.format_key == "q4_k_m");
    CHECK(a.headline == "Inference: Q4_K_M (GGUF), 4.84 bits");
    CHECK(r.answers[0].headline == "Training: none");
    CHECK(a.need_bytes == 25'410'000'000ULL);
    CHECK(a.next_need_bytes == 28'875'000'000ULL);
    CHECK(a.sentence == "Inference: Q4_K_M (GGUF) (4.84 bits) is the format with the most bits that fits, the inference "
                        "total 25.41 GB per GPU of 25.77 GB; Q5_K (GGUF) (5.5 bits) would need 28.88 GB.");
    CHECK(a.estimate.weight_format == "q4_k_m");
}

TEST_CASE("fit: llama.cpp -ngl counts the output layer first, then layers from the last", "[fit][offload]") {
    // Llama-2-7B fp16, 4,096 tokens, 8 GiB: the output head (131,072,000 x 2 bytes) and the compute buffer
    // (activation 214,037,504 + reserve 1 GiB) go first, then layers of 404,766,976 bytes of weights (the
    // decoder's 6,476,271,616 parameters over 32 layers, x 2) + 67,108,864 bytes of KV cache each.
    Scenario s = llama7b("rtx-4090");
    s.gpu_memory_bytes = 8 * GiB;
    s.context_tokens = 4096;
    const FitReport r = ask(s, {FitQuestionKind::layers_on_gpu, {}});
    const FitAnswer& a = r.answers[0];
    REQUIRE(a.offload);
    const OffloadSplit& o = *a.offload;
    const std::uint64_t head = 262'144'000, layer = 404'766'976, kv = 67'108'864, compute = 214'037'504 + kReserve;
    CHECK(o.layers == 32);
    CHECK(o.ngl == 15);  // 14 layers: 1,549,923,328 + 14 x 471,875,840 = 8,156,185,088 <= 8 GiB; 15 would not fit
    CHECK(o.gpu_layers == 14);
    CHECK(o.gpu_bytes == head + compute + 14 * (layer + kv));
    CHECK(head + compute + 15 * (layer + kv) > 8 * GiB);
    CHECK(a.next_need_bytes == head + compute + 15 * (layer + kv));
    CHECK(o.ram_weight_bytes == kWeights - 14 * layer - head);  // 18 layers and the token embeddings
    CHECK(o.ram_kv_bytes == 18 * kv);
    CHECK(o.ram_bytes == o.ram_weight_bytes + o.ram_kv_bytes);
    CHECK(a.headline == "-ngl 15 of 33");
    CHECK(a.sentence.rfind("-ngl 15 of 33 (the output layer and the last 14 layers): 8.16 GB on the GPU of 8.59 GB", 0) == 0);
    // Everything fits on an 80 GB card: -ngl 33, only the token embeddings stay in RAM.
    s.gpu_memory_bytes = 0;
    s.gpu = "h100-80gb";
    const OffloadSplit all = *ask(s, {FitQuestionKind::layers_on_gpu, {}}).answers[0].offload;
    CHECK(all.ngl == 33);
    CHECK(all.ram_bytes == 131'072'000ULL * 2);
    CHECK(all.ram_kv_bytes == 0);
    // A card too small for the compute buffer: -ngl 0, everything in RAM.
    s.gpu_memory_bytes = 1 * GiB;
    const FitAnswer none = ask(s, {FitQuestionKind::layers_on_gpu, {}}).answers[0];
    CHECK(none.value == 0);
    CHECK(none.offload->ram_bytes == kWeights + 32 * kv);
    CHECK(none.sentence.rfind("-ngl 0: not even the output layer fits", 0) == 0);
}

TEST_CASE("fit: Gemma 2's sliding layers keep the window, so offloaded KV follows the layers' kinds", "[fit][offload]") {
    Scenario s;
    REQUIRE(apply_setting(s, "model", "gemma-2-9b"));
    s.gpu = "h100-80gb";
    s.context_tokens = 8192;  // window 4096: sliding layers cache half
    const FitAnswer a = ask(s, {FitQuestionKind::layers_on_gpu, {}}).answers[0];
    REQUIRE(a.offload);
    CHECK(a.offload->ngl == a.offload->layers + 1);
    CHECK(a.offload->gpu_kv_bytes == a.estimate.kv_cache_bytes);  // every layer on the GPU: the whole cache
}

TEST_CASE("fit: questions that cannot be answered say why, naming the key", "[fit][hardening]") {
    Scenario no_gpu;
    REQUIRE(apply_setting(no_gpu, "model", "llama-2-7b"));
    CHECK(fails(no_gpu, {FitQuestionKind::maximize, "context"}) ==
          "context: needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)");
    Scenario typed;  // N typed in: no architecture for the KV cache
    typed.gpu = "rtx-4090";
    CHECK(fails(typed, {FitQuestionKind::maximize, "context"}) ==
          "context: the KV cache needs a model architecture (--model or --config)");
    CHECK(fails(typed, {FitQuestionKind::layers_on_gpu, {}}) ==
          "layers-on-gpu: needs a model architecture (--model, --config or --gguf) to count its layers");
    CHECK(fails(llama7b("rtx-4090"), {FitQuestionKind::maximize, "batch"}) ==
          "batch: needs --context: the batch multiplies each sequence's KV cache, which is 0 without a context");
    Scenario big;  // Llama-2-70B's 138 GB of weights never fit one 24 GiB card
    REQUIRE(apply_setting(big, "model", "llama-2-70b"));
    big.gpu = "rtx-4090";
    CHECK(fails(big, {FitQuestionKind::maximize, "context"}).rfind("context: even 1 token needs 139.", 0) == 0);
    CHECK(fails(big, {FitQuestionKind::maximize, "context"}).find("more than the 25.77 GB of each GPU (the weights alone are 137.95 GB)") !=
          std::string::npos);
    Scenario huge;  // 1000T parameters on 1 GiB cards: 100,000 GPUs are not enough for either side
    huge.param_count = 1'000'000'000'000'000ULL;
    huge.gpu_memory_bytes = 1 * GiB;
    CHECK(fails(huge, {FitQuestionKind::minimize_gpus, {}}).rfind("gpus: nothing fits. Training: no number of GPUs", 0) == 0);
    CHECK(parse_fit_question("maximize", "speed").error() == "\"speed\" is not one of context, batch, seq-len, micro-batch");
    CHECK(parse_fit_question("minimize", "cost").error() == "\"cost\" is not one of gpus, bytes");
    CHECK(parse_fit_question("maximize", " context ")->key == "context");
}

TEST_CASE("fit: the JSON has one key per question with the estimate at the answer", "[fit]") {
    Scenario s = llama7b("rtx-4090");
    s.context_tokens = 2048;
    const std::vector<FitReport> reports = answer_applicable_fit_questions(s);
    // context, batch, seq-len, micro-batch, gpus, bytes, layers on the GPU
    REQUIRE(reports.size() == 7);
    CHECK(reports[2].json_key == "seq-len");  // a full fine-tune of 7B never fits one 24 GiB card: named, not dropped
    CHECK(reports[2].error.rfind("even 1 token needs", 0) == 0);
    const std::string json = fit_json(reports);
    CHECK(json.rfind("{\"context\":{\"side\":\"inference\",\"found\":true,\"value\":19460,", 0) == 0);
    CHECK(json.find(",\"batch\":{\"side\":\"inference\",\"found\":true,\"value\":9,") != std::string::npos);
    CHECK(json.find(",\"seq-len\":{\"error\":\"even 1 token needs") != std::string::npos);
    CHECK(json.find(",\"gpus\":{\"training\":{\"side\":\"training\",\"found\":false,") != std::string::npos);
    CHECK(json.find(",\"bytes\":{\"training\":") != std::string::npos);
    CHECK(json.find(",\"layers_on_gpu\":{\"side\":\"inference\",\"found\":true,\"value\":33,") != std::string::npos);
    CHECK(json.find("\"estimate\":{\"parameters\":6738415616,") != std::string::npos);
    CHECK(json.back() == '}');
    const std::vector<std::string> lines = fit_view_lines(reports);
    REQUIRE(lines.size() == 9);  // context, batch, seq-len, micro-batch, 2 x gpus, 2 x bytes, layers
    CHECK(lines[0].rfind("Largest context that fits: 19,460 tokens", 0) == 0);  // not "Largest context: Largest context ..."
    CHECK(lines[2].rfind("Largest seq-len: no answer: even 1 token needs", 0) == 0);
    CHECK(lines[8].rfind("Layers on the GPU (llama.cpp -ngl): -ngl 33 offloads all 32 layers", 0) == 0);
}

TEST_CASE("fit: the largest training seq-len is where the training peak stops fitting", "[fit][training]") {
    // QLoRA rank 16 on Llama-2-7B, one 24 GiB card: the peak (core/training.hpp) grows with seq-len.
    // --confidence typical answers on the estimated peak itself.
    Scenario s = llama7b("rtx-4090");
    REQUIRE(apply_setting(s, "lora-rank", "16"));
    REQUIRE(apply_setting(s, "qlora", "true"));
    REQUIRE(apply_setting(s, "confidence", "typical"));
    const FitAnswer a = ask(s, {FitQuestionKind::maximize, "seq-len"}).answers[0];
    REQUIRE(a.found);
    CHECK(a.side == FitSide::training);
    CHECK(a.estimate.gpu.training_uses_peak);
    // Independently of the search: the peak at the answer fits, one token more does not.
    Scenario at = s, over = s;
    REQUIRE(apply_setting(at, "seq-len", std::to_string(a.value)));
    REQUIRE(apply_setting(over, "seq-len", std::to_string(a.value + 1)));
    CHECK(estimate(at)->gpu.training_peak_per_gpu_bytes <= 24 * GiB);
    CHECK(estimate(over)->gpu.training_peak_per_gpu_bytes > 24 * GiB);
    CHECK(a.need_bytes == estimate(at)->gpu.training_peak_per_gpu_bytes);
    CHECK(a.value > 2048);
    CHECK(a.sentence.find("the training peak is") != std::string::npos);
    CHECK(fit_json({ask(s, {FitQuestionKind::maximize, "seq-len"})}).find("\"confidence\":\"typical\",") != std::string::npos);
}

TEST_CASE("fit: by default (confidence safe) the longest sequence fits at the band's high end", "[fit][training]") {
    // The same QLoRA run; safe keeps the band's high end within the 24 GiB card: the QLoRA class's
    // multiplier (training_peak_band, the reality table's 90th percentile: 1,444,798 ppm) times the peak.
    Scenario s = llama7b("rtx-4090");
    REQUIRE(apply_setting(s, "lora-rank", "16"));
    REQUIRE(apply_setting(s, "qlora", "true"));
    CHECK(s.fit_confidence == FitConfidence::safe);
    const FitAnswer a = ask(s, {FitQuestionKind::maximize, "seq-len"}).answers[0];
    REQUIRE(a.found);
    Scenario at = s, over = s;
    REQUIRE(apply_setting(at, "seq-len", std::to_string(a.value)));
    REQUIRE(apply_setting(over, "seq-len", std::to_string(a.value + 1)));
    const Estimate e_at = *estimate(at), e_over = *estimate(over);
    CHECK(e_at.gpu.training_peak_high_per_gpu_bytes ==
          (e_at.gpu.training_peak_per_gpu_bytes * 1'444'798ULL + 500'000) / 1'000'000);
    CHECK(e_at.gpu.training_peak_high_per_gpu_bytes <= 24 * GiB);
    CHECK(e_over.gpu.training_peak_high_per_gpu_bytes > 24 * GiB);
    CHECK(a.need_bytes == e_at.gpu.training_peak_high_per_gpu_bytes);
    // Shorter than the typical answer, and the run at that length fits even at the high end.
    Scenario typical = s;
    REQUIRE(apply_setting(typical, "confidence", "typical"));
    CHECK(a.value < ask(typical, {FitQuestionKind::maximize, "seq-len"}).answers[0].value);
    CHECK(e_at.gpu.training_verdict == FitVerdict::fits);
    CHECK(a.sentence.find("the training peak's likely high end is") != std::string::npos);
    const std::string json = fit_json({ask(s, {FitQuestionKind::maximize, "seq-len"})});
    CHECK(json.find("\"confidence\":\"safe\",\"peak_bytes\":" + std::to_string(e_at.gpu.training_peak_per_gpu_bytes) +
                    ",\"peak_high_bytes\":" + std::to_string(e_at.gpu.training_peak_high_per_gpu_bytes) + ",") != std::string::npos);
    // Fewest GPUs follows the same figure: at the answer the high end fits.
    Scenario big = s;
    REQUIRE(apply_setting(big, "model", "llama-2-70b"));
    REQUIRE(apply_setting(big, "lora-rank", "16"));
    REQUIRE(apply_setting(big, "zero", "3"));
    REQUIRE(apply_setting(big, "recompute", "full"));
    const FitAnswer g = ask(big, {FitQuestionKind::minimize_gpus, {}}).answers[0];
    REQUIRE(g.found);
    CHECK(g.need_bytes == g.estimate.gpu.training_peak_high_per_gpu_bytes);
    CHECK(g.need_bytes <= g.capacity_bytes);
}
