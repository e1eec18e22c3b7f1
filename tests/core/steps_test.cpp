// Worked steps against the seed document (../shared/seed, "Effect of Trainable Parameters on Memory"):
// its worked examples write the formula, substitute the values and compute, e.g. "13B × 2 bytes" and
// "26 GB"; "26 × 1.2 = 31.2 GB"; "13B × 3 × 2 = 78 GB"; "26 + 78 = 104 GB"; "78 − 6 = 72 GB".
#include <catch_amalgamated.hpp>

#include "settings.hpp"
#include "steps.hpp"
#include "report.hpp"

using namespace llm_memory;

namespace {

std::vector<Derivation> steps_for(const char* state) {
    const StateResult r = apply_state(Scenario{}, state);
    REQUIRE(r.problems.empty());
    const Expected<Estimate> e = estimate(r.scenario);
    REQUIRE(e.ok());
    return worked_steps(r.scenario, *e);
}

const Derivation& get(const std::vector<Derivation>& d, const char* id) {
    const Derivation* found = find_derivation(d, id);
    REQUIRE(found != nullptr);
    return *found;
}

}  // namespace

TEST_CASE("seed: weight memory for a 13B model, the three steps", "[steps][seed]") {
    // Seed, "Weight memory for a 13B model": N × b; 13B × 2 bytes; 13 × 2 = 26, so 26 GB.
    const auto d = steps_for("");
    const Derivation& w = get(d, "weight");
    CHECK(std::string(w.steps[0].label) == "Write the formula");
    CHECK(w.steps[0].text == "Weight memory = N × b");
    CHECK(w.steps[1].text == "N = 13B and b = 2 bytes, so 13B × 2 bytes");
    CHECK(w.steps[2].text == "= 26 GB (24.21 GiB)");
    CHECK(w.result_bytes == 26'000'000'000ULL);
}

TEST_CASE("seed: inference total 26 × 1.2 = 31.2 GB", "[steps][seed]") {
    const auto d = steps_for("");
    const Derivation& i = get(d, "inference");
    CHECK(i.steps[0].text == "Inference total = weight memory × overhead factor");
    CHECK(i.steps[1].text == "26 GB × 1.2");
    CHECK(i.steps[2].text == "= 31.2 GB (29.06 GiB)");
}

TEST_CASE("seed: fully trainable 13B, 13B × 3 × 2 = 78 GB and 26 + 78 = 104 GB", "[steps][seed]") {
    const auto d = steps_for("");
    const Derivation& g = get(d, "gradient-optimizer");
    CHECK(g.steps[0].text == "Gradient+optimizer memory = N_trainable × k × b");
    CHECK(g.steps[1].text == "N_trainable = 13B (all parameters), k = 3 and b = 2 bytes, so 13B × 3 × 2 bytes");
    CHECK(g.steps[2].text == "= 78 GB (72.64 GiB)");
    const Derivation& t = get(d, "training");
    CHECK(t.steps[1].text == "26 GB + 78 GB");
    CHECK(t.steps[2].text == "= 104 GB (96.86 GiB)");
    // Every parameter trains: there is no reduction to derive.
    CHECK(find_derivation(d, "reduction") == nullptr);
    CHECK(d.size() == 4);
}

TEST_CASE("seed: 1B trainable, 1B × 3 × 2 = 6 GB, 78 − 6 = 72 GB, 26 + 6 = 32 GB", "[steps][seed]") {
    const auto d = steps_for("trainable=1B");
    CHECK(get(d, "gradient-optimizer").steps[1].text == "N_trainable = 1B, k = 3 and b = 2 bytes, so 1B × 3 × 2 bytes");
    CHECK(get(d, "gradient-optimizer").steps[2].text == "= 6 GB (5.59 GiB)");
    CHECK(get(d, "training").steps[1].text == "26 GB + 6 GB");
    CHECK(get(d, "training").steps[2].text == "= 32 GB (29.8 GiB)");
    const Derivation& r = get(d, "reduction");
    CHECK(r.steps[1].text == "78 GB − 6 GB; the weights keep their 26 GB");
    CHECK(r.steps[2].text == "= 72 GB (67.06 GiB)");
    CHECK(r.result_bytes == 72'000'000'000ULL);
}

TEST_CASE("a percentage of trainable parameters is resolved in the substitution", "[steps]") {
    // 7.7% of 13B = 1.001B (resolve_trainable rounds half up to a whole count).
    const auto d = steps_for("trainable=7.7%25");
    CHECK(get(d, "gradient-optimizer").steps[1].text ==
          "N_trainable = 7.7% of 13B = 1.001B, k = 3 and b = 2 bytes, so 1.001B × 3 × 2 bytes");
    CHECK(get(d, "gradient-optimizer").steps[2].text == "= 6.01 GB (5.59 GiB)");
}

TEST_CASE("the seed's 7B exercise and the 70B predict-and-reveal", "[steps][seed]") {
    // Seed, "Estimating a 7B Model": 14 GB of weights, 16.8 GB inference, 42 GB gradient+optimizer.
    const auto d = steps_for("params=7B");
    CHECK(get(d, "weight").steps[2].text == "= 14 GB (13.04 GiB)");
    CHECK(get(d, "inference").steps[1].text == "14 GB × 1.2");
    CHECK(get(d, "inference").steps[2].text == "= 16.8 GB (15.65 GiB)");
    CHECK(get(d, "gradient-optimizer").steps[2].text == "= 42 GB (39.12 GiB)");
    // Seed, "What do you think happens?": 70B × 2 bytes = 140 GB.
    const auto big = steps_for("params=70B");
    CHECK(get(big, "weight").steps[1].text == "N = 70B and b = 2 bytes, so 70B × 2 bytes");
    CHECK(get(big, "weight").steps[2].text == "= 140 GB (130.39 GiB)");
}

TEST_CASE("steps as Markdown", "[steps]") {
    const std::string md = steps_markdown(steps_for(""));
    CHECK(md.rfind("### Weight memory\n\n"
                   "1. Write the formula: Weight memory = N × b\n"
                   "2. Substitute the values: N = 13B and b = 2 bytes, so 13B × 2 bytes\n"
                   "3. Compute: = 26 GB (24.21 GiB)\n\n"
                   "### Inference total\n",
                   0) == 0);
    CHECK(md.find("3. Compute: = 104 GB (96.86 GiB)\n") != std::string::npos);
    CHECK(md.find("GB = 10^9 bytes, GiB = 2^30 bytes.") != std::string::npos);
}

TEST_CASE("steps as LaTeX", "[steps]") {
    const std::string tex = steps_latex(steps_for("trainable=1B"));
    CHECK(tex.rfind("\\paragraph{Weight memory}\n\\begin{align*}\n"
                    "\\text{Weight memory} &= N \\times b \\\\\n"
                    "&\\quad N = 13\\text{B},\\ b = 2 \\Rightarrow 13\\text{B} \\times 2\\ \\text{bytes} \\\\\n"
                    "&= 26\\ \\text{GB}\\ (24.21\\ \\text{GiB})\n"
                    "\\end{align*}\n",
                    0) == 0);
    CHECK(tex.find("&= 72\\ \\text{GB}\\ (67.06\\ \\text{GiB})") != std::string::npos);
    CHECK(tex.find("78\\ \\text{GB} - 6\\ \\text{GB}") != std::string::npos);
    // Balanced environments: one begin and one end per derivation (5 with a reduction).
    std::size_t begins = 0;
    for (std::size_t at = tex.find("\\begin{align*}"); at != std::string::npos; at = tex.find("\\begin{align*}", at + 1)) ++begins;
    CHECK(begins == 5);
}

TEST_CASE("exact counts that do not round to a short suffix stay exact in the substitution", "[steps]") {
    // Llama-2-7B's parameter count (meta-llama/Llama-2-7b-hf safetensors metadata): 6,738,415,616.
    const auto d = steps_for("params=6738415616");
    CHECK(get(d, "weight").steps[1].text == "N = 6.738415616B and b = 2 bytes, so 6.738415616B × 2 bytes");
    CHECK(get(d, "weight").steps[2].text == "= 13.48 GB (12.55 GiB)");
}

TEST_CASE("a training recipe adds its stored values per trainable parameter", "[steps]") {
    // The adamw-mixed recipe: bf16 gradient (2) + fp32 master weights (4) + fp32 Adam m and v (4 + 4) = 14 bytes,
    // so 13B trainable need 182 GB (EleutherAI Transformer Math 101: 16 bytes per parameter with the 2-byte weights).
    const auto d = steps_for("recipe=adamw-mixed");
    const Derivation& g = get(d, "gradient-optimizer");
    CHECK(g.steps[1].text.find("so 13B × (2 + 4 + 4 + 4) bytes") != std::string::npos);
    CHECK(g.steps[2].text == "= 182 GB (169.5 GiB)");
    CHECK(get(d, "training").steps[2].text == "= 208 GB (193.72 GiB)");
}

TEST_CASE("a weight format replaces b by its bits per weight", "[steps]") {
    // int4 stores 4 bits per weight: 13B x 0.5 bytes = 6.5 GB.
    const auto d = steps_for("dtype=int4");
    CHECK(get(d, "weight").steps[1].text.find("so 13B × 4 bits") != std::string::npos);
    CHECK(get(d, "weight").steps[2].text == "= 6.5 GB (6.05 GiB)");
}

TEST_CASE("LoRA: the adapter is what trains, and its weights join the training total", "[steps]") {
    // PEFT on meta-llama/Llama-2-7b-hf, r=8 on q_proj and v_proj: "trainable params: 4,194,304".
    // 16-bit adapters (adapter-dtype bf16: torchtune, LitGPT, PEFT before 0.12) keep the seed's k x b.
    const auto d = steps_for("model=llama-2-7b&lora-rank=8&adapter-dtype=bf16");
    CHECK(get(d, "gradient-optimizer").steps[1].text ==
          "N_trainable = 4.194304M (the LoRA adapter, rank 8), k = 3 and b = 2 bytes, so 4.194304M × 3 × 2 bytes");
    // Its 8,388,608 bytes of bf16 weights (4,194,304 x 2) are a part of the training total, named in the formula.
    CHECK(get(d, "training").steps[0].text ==
          "Training total = weight memory + gradient+optimizer memory + LoRA adapter weights");
    CHECK(get(d, "training").steps[1].text == "13.48 GB + 0.025 GB + 0.0084 GB");
    // PEFT's default fp32 adapters (autocast_adapter_dtype, src/peft/tuners/tuners_utils.py cast_adapter_dtype):
    // 4-byte weights, and the gradient, m and v at 4 bytes each, as torch keeps them in the parameter's dtype.
    const auto fp32 = steps_for("model=llama-2-7b&lora-rank=8");
    CHECK(get(fp32, "gradient-optimizer").steps[1].text ==
          "N_trainable = 4.194304M (the LoRA adapter, rank 8); recipe seed-adam with fp32 adapters (PEFT's "
          "autocast_adapter_dtype): gradient (fp32 adapter) 4, Adam m (fp32 adapter) 4, Adam v (fp32 adapter) 4 bytes, "
          "so 4.194304M × (4 + 4 + 4) bytes");
    CHECK(get(fp32, "adapter-weight").steps[1].text == "4.194304M adapter parameters × 4 bytes");
    CHECK(get(fp32, "training").steps[1].text == "13.48 GB + 0.05 GB + 0.017 GB");

}

TEST_CASE("the detailed inference total derives itself from its parts, and comes last", "[steps]") {
    // Llama-2-7b at 4096 tokens: KV cache 2 x 32 layers x 32 heads x 128 x 4096 x 2 bytes = 2 GiB (kv_cache_test).
    const auto d = steps_for("model=llama-2-7b&context=4096&inference-mode=detailed");
    const Derivation& detailed = get(d, "detailed-inference");
    CHECK(detailed.title == "Inference total (detailed)");
    CHECK(detailed.steps[0].text ==
          "Inference total (detailed) = weight memory + KV cache + activation workspace (rule of thumb) + runtime reserve "
                                     "(round allowance)");
    CHECK(detailed.steps[0].latex ==
          "\\text{Inference total (detailed)} = \\text{weight memory} + \\text{KV cache} + \\text{activation workspace (rule "
          "of thumb)} + \\text{runtime reserve (round allowance)}");
    CHECK(d.back().id == "detailed-inference");
    CHECK(d.size() == 5);  // weight, inference, gradient-optimizer, training, detailed-inference
}

TEST_CASE("MTP module: a row of its own beside the totals, with the engines that load it", "[steps][mtp]") {
    // deepseek-ai/DeepSeek-V3 README: "685B ... 671B of the Main Model weights and 14B of the Multi-Token
    // Prediction (MTP) Module weights". Ours: 671,026,419,200 + 13,463,426,304 = 684,489,845,504; the Hub's
    // 684,531,386,000 adds the FP8 checkpoint's 41,540,496 weight_scale_inv values, which are not parameters.
    const StateResult r = apply_state(Scenario{}, "model=deepseek-v3&dtype=fp8");
    REQUIRE(r.problems.empty());
    const Expected<Estimate> e = estimate(r.scenario);
    REQUIRE(e.ok());
    CHECK(e->param_count == 671'026'419'200ULL);
    const MemoryTerm* mtp = find_term(*e, "mtp_weight");
    REQUIRE(mtp != nullptr);
    CHECK(mtp->bytes == 13'463'426'304ULL);  // FP8: one byte per parameter
    CHECK(e->param_count + mtp->bytes == 684'489'845'504ULL);
    CHECK(mtp->adds_to == 0);  // in no total: the engines do not load it by default
    CHECK(e->weight_bytes == 671'026'419'200ULL);
    CHECK(e->inference_bytes == 805'231'703'040ULL);  // weights x 1.2, the MTP module left out
    CHECK(e->terms[1].key == "mtp_weight");           // shown right under the weights
    const auto d = worked_steps(r.scenario, *e);
    const Derivation& m = get(d, "mtp-weight");
    CHECK(m.steps[0].text == "MTP module = MTP parameters × b");
    CHECK(m.steps[1].text.find("its own copies of the embedding and output head") != std::string::npos);
    CHECK(m.steps[2].text.rfind("= 13.46 GB (12.54 GiB). Not in the totals: transformers ignores", 0) == 0);
    // vLLM (model_executor/models/deepseek_v2.py load_weights: "skip spec decode layers for main model";
    // the MTP drafter logs "Sharing target model embedding weights with the draft model") and llama.cpp
    // (convert_hf_to_gguf.py DeepseekV2Model.skip_mtp).
    CHECK(m.steps[2].text.find("vLLM skips them too") != std::string::npos);
    CHECK(m.steps[2].text.find("(11.610068224B parameters then stay resident)") != std::string::npos);
    CHECK(m.steps[2].text.find("skip_mtp") != std::string::npos);
    CHECK(report_json(r.scenario, *e).find("\"mtp_weight_bytes\":13463426304") != std::string::npos);
}

TEST_CASE("MTP module: GLM-4.5 and Qwen3-Next, and none for a typed N", "[steps][mtp]") {
    // zai-org/GLM-4.5: "355B total parameters"; the Hub's safetensors count, 358B, is the 352.8B model + its
    // NextN layer (model.layers.92, 5.54B with its own embedding and head copies). bf16: 2 bytes each.
    const StateResult glm = apply_state(Scenario{}, "model=glm-4.5");
    const Expected<Estimate> g = estimate(glm.scenario);
    REQUIRE(g.ok());
    REQUIRE(find_term(*g, "mtp_weight") != nullptr);
    CHECK(find_term(*g, "mtp_weight")->bytes == 2 * 5'539'962'016ULL);
    CHECK(g->param_count + 5'539'962'016ULL == 358'337'767'488ULL);
    // llama.cpp (src/llama-model.cpp, GLM4_MOE): "skip all tensors in the NextN layers", TENSOR_SKIP.
    CHECK(get(worked_steps(glm.scenario, *g), "mtp-weight").steps[2].text.find("TENSOR_SKIP") != std::string::npos);
    // Qwen3-Next's mtp.* block shares the embedding and head: nothing of its own to share.
    const StateResult next = apply_state(Scenario{}, "model=qwen3-next-80b-a3b");
    const Expected<Estimate> q = estimate(next.scenario);
    REQUIRE(q.ok());
    REQUIRE(find_term(*q, "mtp_weight") != nullptr);
    CHECK(find_term(*q, "mtp_weight")->bytes == 2 * 1'650'471'424ULL);
    const std::vector<Derivation> q_steps = worked_steps(next.scenario, *q);  // kept: get() returns a reference into it
    const Derivation& qm = get(q_steps, "mtp-weight");
    CHECK(qm.steps[1].text.find("it shares the model's embedding and head") != std::string::npos);
    CHECK(qm.steps[2].text.find("stay resident") == std::string::npos);
    // A typed N, or a model without MTP layers: no row.
    CHECK(find_term(*estimate(apply_state(Scenario{}, "params=70B").scenario), "mtp_weight") == nullptr);
    CHECK(find_term(*estimate(apply_state(Scenario{}, "model=llama-2-7b").scenario), "mtp_weight") == nullptr);
}
