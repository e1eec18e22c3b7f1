// Built-in presets: enough of them, each counted by the same config.json path, findable by name, and
// wired into the settings table (--model / #model=) and the JSON report (parameters, breakdown).
#include <catch_amalgamated.hpp>

#include <set>
#include <string>

#include "architecture.hpp"
#include "model_presets.hpp"
#include "report.hpp"
#include "settings.hpp"

using namespace llm_memory;

namespace {

std::uint64_t preset_total(const char* key) {
    const Expected<ModelSource> m = load_preset(key);
    INFO(key << ": " << m.error());
    REQUIRE(m.ok());
    return m->counts.total_count;
}

}  // namespace

TEST_CASE("at least 20 presets, unique keys, each parses and counts", "[presets]") {
    const auto& presets = model_presets();
    CHECK(presets.size() >= 20);
    std::set<std::string> keys;
    std::set<std::string> families;
    for (const ModelPreset& p : presets) {
        INFO(p.key);
        CHECK(keys.insert(p.key).second);
        families.insert(p.family);
        const Expected<ModelSource> m = preset_model(p);
        REQUIRE(m.ok());
        CHECK(m->preset_key == p.key);
        CHECK(m->display_name == p.hf_id);
        CHECK(m->architecture.warnings.empty());
        CHECK(m->counts.total_count > 100'000'000ULL);
    }
    CHECK(families.size() >= 12);
}

// Published totals (each model's Hugging Face page shows the safetensors parameter count; model cards
// give the rounded figure). These presets reproduce them from their config fields.
TEST_CASE("preset totals match the published counts", "[presets]") {
    CHECK(preset_total("gpt2-medium") == 354'823'168ULL);     // "355M"
    CHECK(preset_total("gpt2-xl") == 1'557'611'200ULL);       // "1.5B"
    CHECK(preset_total("opt-350m") == 331'196'416ULL);        // "350M": 512-wide embeddings + project_in/out
    CHECK(preset_total("llama-3.1-405b") == 405'853'388'800ULL);  // "405B"
    CHECK(preset_total("llama-3-70b") == 70'553'706'496ULL);  // "70.6B"
    CHECK(preset_total("llama-3.2-3b") == 3'212'749'824ULL);  // "3.21B", tied head
    CHECK(preset_total("qwen2.5-0.5b") == 494'032'768ULL);    // Qwen2.5 card: "0.49B", tied head
    CHECK(preset_total("qwen2.5-72b") == 72'706'203'648ULL);  // Qwen2.5 card: "72.7B"
    CHECK(preset_total("gemma-2b") == 2'506'172'416ULL);      // "2.51B": multi-query (1 KV head)
    CHECK(preset_total("gemma-2-27b") == 27'227'128'320ULL);  // "27.2B": head_dim 128
    CHECK(preset_total("mixtral-8x22b") == 140'630'071'296ULL);  // Mistral: "141B" total, "39B" active
    CHECK(load_preset("mixtral-8x22b")->counts.active_count == 39'161'468'928ULL);
    CHECK(preset_total("phi-3-medium-4k") == 13'960'238'080ULL);  // "14B"
    // DeepSeek-V2 paper: 236B total, 21B activated per token.
    const ModelSource v2 = *load_preset("deepseek-v2");
    CHECK(v2.counts.total_count == 235'741'434'880ULL);
    CHECK(v2.counts.active_count == 21'375'800'320ULL);
    // DeepSeekMoE 16B paper: 16.4B total, 2.8B activated.
    const ModelSource moe16 = *load_preset("deepseek-moe-16b");
    CHECK(moe16.counts.total_count == 16'375'728'128ULL);
    CHECK(moe16.counts.active_count == 2'828'650'496ULL);
    // DeepSeek-V2-Lite model card: 15.7B total.
    CHECK(preset_total("deepseek-v2-lite") == 15'706'484'224ULL);
}

// The newer families' presets (fixture-backed ones are asserted with their sources in architecture_test).
TEST_CASE("preset totals of the newer families match the published counts", "[presets][families]") {
    // Qwen3 model cards ("Number of Parameters" / "Non-Embedding"): 0.6B / 0.44B, 1.7B / 1.4B, 4.0B / 3.6B,
    // 14.8B / 13.2B, 32.8B / 31.2B; Qwen3-235B-A22B: 235B total, 22B activated.
    CHECK(preset_total("qwen3-0.6b") == 596'049'920ULL);
    CHECK(preset_total("qwen3-1.7b") == 1'720'574'976ULL);
    CHECK(preset_total("qwen3-4b") == 4'022'468'096ULL);
    CHECK(preset_total("qwen3-14b") == 14'768'307'200ULL);
    CHECK(preset_total("qwen3-32b") == 32'762'123'264ULL);
    CHECK(load_preset("qwen3-235b-a22b")->counts.total_count == 235'093'634'560ULL);
    CHECK(load_preset("qwen3-235b-a22b")->counts.active_count == 22'190'763'520ULL);
    // openai/gpt-oss-120b model card: 116.83B total, 5.13B active (active without the input embedding).
    const ModelSource oss = *load_preset("gpt-oss-120b");
    CHECK(oss.counts.total_count == 116'829'156'672ULL);
    CHECK(oss.counts.active_count - oss.counts.embedding_count == 5'132'849'472ULL);
    // Gemma 3 with the SigLIP tower and projector (0.42B): google/gemma-3-12b-it and -27b-it on the Hub
    // (safetensors metadata) 12,187,325,040 and 27,432,406,640.
    CHECK(preset_total("gemma-3-12b") == 12'187'325'040ULL);
    CHECK(preset_total("gemma-3-27b") == 27'432'406'640ULL);
    // zai-org/GLM-4.5 model card: "355B total parameters and 32B active parameters"; ours 352.8B without
    // the MTP layer the checkpoint stores beside (layer 92, 5.54B with its own embedding and head copies).
    const ModelSource glm = *load_preset("glm-4.5");
    CHECK(glm.counts.total_count == 352'797'805'472ULL);
    CHECK(glm.counts.mtp_count == 5'539'962'016ULL);
    // Llama 4 Maverick model card: "17B active, 400B total" (text model; vision encoder not counted).
    // With its vision encoder (871,932,416, as Scout's): 401,583,781,376. The Hub page of
    // meta-llama/Llama-4-Maverick-17B-128E-Instruct shows "402B" (safetensors metadata); the exact figure is the
    // parameter_count of "Llama 4 Maverick Basic" in the example of Fireworks' billing export
    // (docs.fireworks.ai, "firectl billing export-metrics").
    CHECK(preset_total("llama-4-maverick") == 401'583'781'376ULL);
    // microsoft/Phi-4-mini-instruct "3.84B" (tied head over a 200,064-token vocabulary).
    CHECK(preset_total("phi-4-mini") == 3'836'021'760ULL);
    // CohereForAI/c4ai-command-r-plus "104B" (use_qk_norm: per-head LayerNorm weights on q and k).
    CHECK(preset_total("command-r-plus") == 103'810'674'688ULL);
    // allenai/OLMo-2-1124-13B "13.7B"; ibm-granite/granite-3.1-2b-base "2.53B".
    CHECK(preset_total("olmo-2-13b") == 13'716'198'400ULL);
    CHECK(preset_total("granite-3.1-2b") == 2'533'531'648ULL);
    // DeepSeek-R1 is DeepSeek-V3's architecture: the same 671B.
    CHECK(preset_total("deepseek-r1") == preset_total("deepseek-v3"));
}

TEST_CASE("hybrid presets match their published counts", "[presets][hybrid]") {
    // Qwen/Qwen3-Next-80B-A3B-Instruct: index total_size 162,649,725,440 bytes (bf16) = the 48 layers plus the
    // mtp.* block stored beside.
    const ModelSource next = *load_preset("qwen3-next-80b-a3b");
    CHECK(next.counts.total_count == 79'674'391'296ULL);
    CHECK(next.counts.total_count + next.counts.mtp_count == 81'324'862'720ULL);
    // Qwen/Qwen3.5-27B and Qwen/Qwen3.5-35B-A3B: 27,781,427,952 and 35,951,822,704 in the Hub's safetensors metadata
    // (BF16; the text model, the vision tower and the mtp.* block; sources and the split in hybrid_test.cpp).
    CHECK(preset_total("qwen3.5-27b") + load_preset("qwen3.5-27b")->counts.mtp_count == 27'781'427'952ULL);
    CHECK(preset_total("qwen3.5-35b-a3b") + load_preset("qwen3.5-35b-a3b")->counts.mtp_count == 35'951'822'704ULL);
    // ibm-granite/granite-4.0-h-small: 32,207,337,984 in the Hub's safetensors metadata.
    CHECK(preset_total("granite-4.0-h-small") == 32'207'337'984ULL);
    // LiquidAI/LFM2-1.2B: 1,170,340,608 (Hub safetensors metadata).
    CHECK(preset_total("lfm2-1.2b") == 1'170'340'608ULL);
    // ai21labs/AI21-Jamba-Mini-1.7: 51.6B on its Hub page ("52B total" on the model card).
    CHECK(preset_total("jamba-mini-1.7") == 51'570'323'328ULL);
    // nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B: 31,577,940,288, llama.cpp's own count of the converted checkpoint (llama-bench
    // "model_n_params: 31577940288" on unsloth/Nemotron-3-Nano-30B-A3B-GGUF, "nemotron_h_moe 31B.A3.5B"; llama-server's
    // /v1/models n_params the same): 23 Mamba-2, 6 attention and 23 MoE blocks of 128 up/down experts of 1856, a shared
    // expert of 3712, the router with its e_score_correction_bias.
    const ModelSource nano3 = *load_preset("nemotron-3-nano-30b-a3b");
    CHECK(nano3.counts.total_count == 31'577'940'288ULL);
    CHECK(nano3.architecture.moe_layer_count() == 23);
    CHECK(nano3.architecture.recurrent_layer_count() == 23);
    CHECK(nano3.architecture.attention_layer_count() == 6);
    // nvidia/NVIDIA-Nemotron-3-Super-120B-A12B: 120,668,707,840, llama.cpp's count of unsloth's GGUF (llama-bench
    // "model_n_params: 120668707840", "nemotron_h_moe 120B.A12B"): 40 Mamba-2, 40 MoE and 8 attention blocks, 512 experts
    // of 2688 working at moe_latent_size 1024 between fc1_latent_proj and fc2_latent_proj, a shared expert of 5376. The
    // counts do not depend on the blocks' order, so the pattern here lists them grouped. Its MTP block is named, not counted.
    std::string super_pattern(80, 'M');
    for (std::size_t i = 1; i < super_pattern.size(); i += 2) super_pattern[i] = 'E';
    const Expected<ModelSource> read_super = model_from_config(
        R"({"conv_kernel":4,"head_dim":128,"hidden_size":4096,"intermediate_size":21504,"hybrid_override_pattern":")" + super_pattern + R"(********","mamba_head_dim":64,)"
        R"("mamba_num_heads":128,"model_type":"nemotron_h","moe_intermediate_size":2688,"moe_latent_size":1024,)"
        R"("moe_shared_expert_intermediate_size":5376,"n_groups":8,"n_routed_experts":512,"num_attention_heads":32,"num_experts_per_tok":22,)"
        R"("num_hidden_layers":88,"num_key_value_heads":2,"num_nextn_predict_layers":1,"ssm_state_size":128,"tie_word_embeddings":false,)"
        R"("vocab_size":131072})");
    INFO(read_super.error());
    REQUIRE(read_super.ok());
    const ModelSource& super = *read_super;
    CHECK(super.counts.total_count == 120'668'707'840ULL);
    REQUIRE(super.architecture.warnings.size() == 1);
    CHECK(super.architecture.warnings[0].find("num_nextn_predict_layers: the multi-token-prediction block (mtp.*) is not counted") == 0);
    // nvidia/NVIDIA-Nemotron-Nano-9B-v2: 8,888,227,328 (Hub safetensors metadata, BF16; index total_size
    // 17,776,454,656 bytes).
    CHECK(preset_total("nemotron-nano-9b-v2") == 8'888'227'328ULL);
    // tiiuae/Falcon-H1-34B-Instruct: no exact published total found; the sum of FalconH1ForCausalLM's tensor
    // shapes for the preset's config (the sources and the split in hybrid_test.cpp).
    CHECK(preset_total("falcon-h1-34b") == 33'642'516'224ULL);
}

TEST_CASE("presets and fixtures agree: same fields, same code path", "[presets]") {
    CHECK(preset_total("qwen3-8b") == 8'190'735'360ULL);
    CHECK(preset_total("qwen3-30b-a3b") == 30'532'122'624ULL);
    CHECK(preset_total("gpt-oss-20b") == 20'914'757'184ULL);
    CHECK(preset_total("gemma-3-1b") == 999'885'952ULL);
    CHECK(preset_total("gemma-3-4b") == 4'300'079'472ULL);
    CHECK(preset_total("llama-4-scout") == 108'641'793'536ULL);
    CHECK(preset_total("glm-4.5-air") == 106'852'251'264ULL);
    CHECK(preset_total("phi-4") == 14'659'507'200ULL);
    CHECK(preset_total("mistral-small-24b") == 23'572'403'200ULL);
    CHECK(preset_total("mistral-nemo-12b") == 12'247'782'400ULL);
    CHECK(preset_total("olmo-2-7b") == 7'298'617'344ULL);
    CHECK(preset_total("command-r") == 34'980'831'232ULL);
    CHECK(preset_total("granite-3.1-8b") == 8'170'848'256ULL);
    CHECK(preset_total("kimi-k2") == 1'026'408'232'448ULL);
    CHECK(preset_total("llama-2-7b") == 6'738'415'616ULL);
    CHECK(preset_total("mixtral-8x7b") == 46'702'792'704ULL);
    CHECK(preset_total("deepseek-v3") == 671'026'419'200ULL);
    CHECK(preset_total("minimax-m2.7") == 228'689'764'864ULL);
    CHECK(preset_total("voxtral-mini-3b") == 4'676'271'104ULL);
    CHECK(preset_total("voxtral-small-24b") == 24'261'800'960ULL);
    CHECK(preset_total("qwen2-7b") == preset_total("qwen2.5-7b"));  // identical shapes
}

TEST_CASE("presets are found by key, Hugging Face id or search words", "[presets]") {
    REQUIRE(find_preset("LLAMA-2-7B") != nullptr);
    CHECK(std::string(find_preset("LLAMA-2-7B")->key) == "llama-2-7b");
    REQUIRE(find_preset("meta-llama/Llama-2-7b-hf") != nullptr);
    CHECK(std::string(find_preset("Llama-2-7b-hf")->key) == "llama-2-7b");
    CHECK(find_preset("llama-9") == nullptr);

    const auto llama2_7b = search_presets("llama2 7b");
    REQUIRE(llama2_7b.size() == 1);
    CHECK(std::string(llama2_7b[0]->key) == "llama-2-7b");
    CHECK(search_presets("mixtral").size() == 2);
    CHECK(search_presets("qwen").size() == 20);  // Qwen2, Qwen2.5, Qwen2.5-VL, Qwen1.5-MoE, Qwen3, Qwen3-MoE, Qwen3-VL, Qwen3-Next, Qwen3.5
    CHECK(search_presets("gpt oss").size() == 2);
    CHECK(search_presets("").size() == model_presets().size());
    CHECK(search_presets("no such model").empty());

    const Expected<ModelSource> typo = load_preset("llama2-7b");
    REQUIRE_FALSE(typo.ok());
    CHECK(typo.error() == "unknown model \"llama2-7b\" (did you mean llama-2-7b? see --list-models)");
}

TEST_CASE("the model setting sets N exactly and round-trips through the URL state", "[presets][settings]") {
    Scenario s;
    REQUIRE(apply_setting(s, "model", "llama-2-7b").ok());
    CHECK(s.param_count == 6'738'415'616ULL);
    REQUIRE(s.model != nullptr);
    const std::string state = to_state(s);
    CHECK(state.find("model=llama-2-7b") != std::string::npos);
    const StateResult back = apply_state(Scenario{}, state);
    CHECK(back.problems.empty());
    CHECK(back.scenario.param_count == 6'738'415'616ULL);
    REQUIRE(back.scenario.model != nullptr);
    CHECK(back.scenario.model->preset_key == "llama-2-7b");
    // #model= alone works as a link.
    CHECK(apply_state(Scenario{}, "#model=mixtral-8x7b").scenario.param_count == 46'702'792'704ULL);
    // Typing a different N forgets the model; the same N keeps it.
    Scenario same = s;
    REQUIRE(apply_setting(same, "params", "6738415616").ok());
    CHECK(same.model != nullptr);
    REQUIRE(apply_setting(s, "params", "13B").ok());
    CHECK(s.model == nullptr);
    CHECK(to_state(s).find("model=") == std::string::npos);
    // An unknown name is an error and leaves the scenario alone.
    Scenario kept;
    const Expected<bool> bad = apply_setting(kept, "model", "gpt-5");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().rfind("model: unknown model \"gpt-5\"", 0) == 0);
    CHECK(kept.param_count == Scenario{}.param_count);
}

TEST_CASE("the JSON report carries parameters, active parameters and the breakdown", "[presets][report]") {
    Scenario s;
    REQUIRE(apply_setting(s, "model", "mixtral-8x7b").ok());
    const Expected<Estimate> e = estimate(s);
    REQUIRE(e.ok());
    const std::string json = report_json(s, *e);
    CHECK(json.find("\"parameters\":46702792704") != std::string::npos);
    CHECK(json.find("\"active_parameters\":12879925248") != std::string::npos);
    CHECK(json.find("\"breakdown\":{\"embeddings\":131072000,") != std::string::npos);
    CHECK(json.find("\"experts\":45097156608") != std::string::npos);
    // 46,702,792,704 parameters x 2 bytes.
    CHECK(e->weight_bytes == 93'405'585'408ULL);

    Scenario dense;
    REQUIRE(apply_setting(dense, "model", "llama-2-7b").ok());
    const std::string dense_json = report_json(dense, *estimate(dense));
    CHECK(dense_json.find("\"parameters\":6738415616") != std::string::npos);
    CHECK(dense_json.find("active_parameters") == std::string::npos);
    // Without a model the seed's object is unchanged.
    CHECK(report_json(Scenario{}, *estimate(Scenario{})).find("breakdown") == std::string::npos);
}
