// Hybrid models (Qwen3-Next, Qwen3.5, Granite 4.0-H, Jamba, LFM2, Nemotron-H, Falcon-H1): exact totals against the published counts (source
// named per case), which layers are recurrent, the recurrent state per sequence against llama.cpp's RS buffer
// rule, KV only on the attention layers, the estimate's recurrent-state row, and the errors for bad layer lists.
#include <catch_amalgamated.hpp>

#include <cstring>
#include <string>

#include "architecture.hpp"
#include "estimator.hpp"
#include "hybrid.hpp"
#include "kv_cache.hpp"
#include "model_presets.hpp"
#include "steps.hpp"
#include "config_fixtures.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

// The detailed inference estimate of model `m` (N its own count) at `context` tokens.
Expected<Estimate> detailed_at(const ModelSource& m, std::uint64_t context) {
    Scenario s;
    s.model = std::make_shared<ModelSource>(m);
    s.param_count = m.counts.total_count;
    s.context_tokens = context;
    s.detailed_inference = true;
    return estimate(s);
}

std::string error_of(const std::string& json) {
    const Expected<ModelSource> m = model_from_config(json);
    REQUIRE_FALSE(m.ok());
    return m.error();
}

// The fixture with one "key": value pair replaced (the value as JSON text) or removed (value empty).
std::string with(std::string json, const std::string& key, const std::string& value) {
    const std::size_t at = json.find("\"" + key + "\":");
    REQUIRE(at != std::string::npos);
    std::size_t end = at;
    int depth = 0;
    for (; end < json.size(); ++end) {
        const char c = json[end];
        if (c == '[' || c == '{') ++depth;
        if (c == ']' || c == '}') {
            if (depth == 0) break;
            --depth;
        }
        if (c == ',' && depth == 0) break;
    }
    if (value.empty()) {
        if (json[end] == ',') ++end;
        return json.erase(at, end - at);
    }
    return json.replace(at, end - at, "\"" + key + "\": " + value);
}

}  // namespace

TEST_CASE("hybrid: Qwen3-Next-80B-A3B counts exactly, with its MTP block beside", "[hybrid][architecture]") {
    // Qwen/Qwen3-Next-80B-A3B-Instruct: model.safetensors.index.json total_size 162,649,725,440 bytes of bf16
    // = 81,324,862,720 parameters ("80B" on the model card). That is the 48-layer model (79,674,391,296, what
    // Qwen3NextForCausalLM builds from config.json) plus the mtp.* block (1,650,471,424) config.json omits.
    const ModelSource m = model_of(fixture("qwen3-next-80b-a3b-instruct"));
    const Architecture& a = m.architecture;
    CHECK(m.counts.total_count == 79'674'391'296ULL);
    CHECK(m.counts.mtp_count == 1'650'471'424ULL);
    CHECK(m.counts.total_count + m.counts.mtp_count == 162'649'725'440ULL / 2);
    CHECK(a.mtp_from_checkpoint);
    // full_attention_interval 4: layers 3, 7, ..., 47 are gated full attention, the other 36 Gated DeltaNet.
    CHECK(a.attention_layer_count() == 12);
    CHECK(a.recurrent_layer_count() == 36);
    CHECK(a.layer_is_attention(3));
    CHECK_FALSE(a.layer_is_attention(0));
    // One GDN layer: in_proj_qkvz 2048 x 12288, in_proj_ba 2048 x 64, conv 8192 x 4, dt_bias + A_log 64,
    // norm 128, out_proj 4096 x 2048 = 33,718,464.
    CHECK(m.counts.recurrent_count == 36ULL * 33'718'464ULL);
    // The model card's "3B activated": 10 of 512 experts + the shared expert per layer; without the embedding,
    // head and norms 3,252,400,896.
    CHECK(m.counts.active_count - m.counts.embedding_count - m.counts.output_head_count - m.counts.norm_count ==
          3'252'400'896ULL);
}

TEST_CASE("hybrid: Granite-4.0-H-Small counts exactly (Mamba-2, MoE and a shared MLP in every layer)", "[hybrid][architecture]") {
    // ibm-granite/granite-4.0-h-small: 32,207,337,984 parameters in the Hub's safetensors metadata
    // ("32B total, 9B active" on the model card).
    const ModelSource m = model_of(fixture("granite-4.0-h-small"));
    CHECK(m.counts.total_count == 32'207'337'984ULL);
    CHECK(m.architecture.attention_layer_count() == 4);
    CHECK(m.architecture.recurrent.kind == MixerKind::mamba2);
    // Mamba-2 layer: in_proj 4096 x (2 x 8192 + 2 x 128 + 128), conv (8192 + 256) x 4 + bias, dt_bias/A_log/D
    // 3 x 128, norm 8192, out_proj 8192 x 4096 = 102,286,976.
    CHECK(m.counts.recurrent_count == 36ULL * 102'286'976ULL);
    CHECK(m.counts.shared_expert_count == 40ULL * (4096 * 3072 + 1536 * 4096));
    CHECK(m.counts.active_count < 10'000'000'000ULL);
}

TEST_CASE("hybrid: LFM2-1.2B counts exactly (short convolutions, auto-adjusted FFN width)", "[hybrid][architecture]") {
    // LiquidAI/LFM2-1.2B: Lfm2ForCausalLM has 1,170,340,608 parameters (the Hub's safetensors metadata;
    // "1.2B" on the model card). block_ff_dim 12288 -> int(2 x 12288 / 3) = 8192, x 1.0, a multiple of 256.
    const ModelSource m = model_of(fixture("lfm2-1.2b"));
    CHECK(m.counts.total_count == 1'170'340'608ULL);
    CHECK(m.architecture.intermediate_size == 8192);
    CHECK(m.architecture.attention_layer_count() == 6);
    CHECK(m.architecture.tie_word_embeddings);
    // LFM2-700M's rule from the same code: 10240 -> 6826 -> 6912.
    const ModelSource small = model_of(with(fixture("lfm2-1.2b"), "block_ff_dim", "10240"));
    CHECK(small.architecture.intermediate_size == 6912);
    // block_ffn_dim_multiplier null: no rounding (Lfm2MLP rounds only with a multiplier).
    CHECK(model_of(with(fixture("lfm2-1.2b"), "block_ffn_dim_multiplier", "null")).architecture.intermediate_size == 8192);
    CHECK(model_of(with(with(fixture("lfm2-1.2b"), "block_ff_dim", "10240"), "block_ffn_dim_multiplier", "null"))
              .architecture.intermediate_size == 6826);
}

TEST_CASE("hybrid: Jamba Mini 1.7 counts exactly (Mamba-1, attention every 8th layer, MoE every 2nd)", "[hybrid][architecture]") {
    // ai21labs/AI21-Jamba-Mini-1.7: "52B total, 12B active" on the model card, 51.6B on its Hub page. Ours:
    // 4 attention + 28 Mamba layers (in_proj, conv + bias, x_proj, dt_proj + bias, A_log 8192 x 16, D,
    // dt/B/C norms, out_proj: 105,308,448 each), 16 MoE layers of 16 experts and 16 dense MLPs.
    const ModelSource m = model_of(fixture("jamba-mini-1.7"));
    CHECK(m.counts.total_count == 51'570'323'328ULL);
    CHECK(m.counts.recurrent_count == 28ULL * 105'308'448ULL);
    CHECK(m.architecture.attention_layer_count() == 4);
    CHECK(m.architecture.layer_is_attention(4));
    CHECK(m.architecture.moe_layer_count() == 16);
    CHECK(m.architecture.layer_is_moe(1));
    CHECK_FALSE(m.architecture.layer_is_moe(0));
    // 12B active: 2 of 16 experts in the MoE layers.
    CHECK(m.counts.active_count / 100'000'000ULL == 121);
}

TEST_CASE("hybrid: NVIDIA-Nemotron-Nano-9B-v2 counts exactly (Mamba-2, attention and MLP blocks)", "[hybrid][architecture]") {
    // nvidia/NVIDIA-Nemotron-Nano-9B-v2: 8,888,227,328 BF16 parameters in the Hub's safetensors metadata
    // (model.safetensors.index.json total_size 17,776,454,656 bytes / 2; "8.89B").
    const ModelSource m = model_of(fixture("nvidia-nemotron-nano-9b-v2"));
    const Architecture& a = m.architecture;
    CHECK(m.counts.total_count == 8'888'227'328ULL);
    CHECK(m.counts.total_count * 2 == 17'776'454'656ULL);
    // hybrid_override_pattern: 27 M (Mamba-2), 4 * (attention), 25 - (MLP-only blocks, neither KV nor state).
    CHECK(a.recurrent_layer_count() == 27);
    CHECK(a.attention_layer_count() == 4);
    CHECK(a.layer_is_recurrent(0));
    CHECK_FALSE(a.layer_is_recurrent(1));
    CHECK_FALSE(a.layer_is_attention(1));
    CHECK(a.layer_is_attention(14));
    // NemotronHMamba2Mixer: in_proj 4480 x (2 x 10240 + 2 x 8 x 128 + 128), conv 12288 x 4 + bias, dt_bias/A_log/D
    // 3 x 128, gated norm 10240, out_proj 10240 x 4480 = 147,446,144.
    CHECK(m.counts.recurrent_count == 27ULL * 147'446'144ULL);
    // NemotronHMLP is up + down only (relu², no gate): 2 x 4480 x 15680 on each of the 25 MLP blocks.
    CHECK(m.counts.mlp_count == 25ULL * 2 * 4480 * 15680);
    CHECK(m.counts.attention_count == 4ULL * (2 * 4480 * 5120 + 2 * 4480 * 1024));
    // One norm per block plus norm_f.
    CHECK(m.counts.norm_count == 57ULL * 4480);
    // The notes' table (llama.cpp n_embd_r/n_embd_s): 27 x (3 x 12,288 + 128 x 10,240) x 4 = 138.80 MiB; vLLM
    // (bf16 conv, fp32 SSM, mamba_ssm_cache_dtype float32) 136.90 MiB.
    CHECK(recurrent_state_bytes(a, 1, 4, 4) == 145'539'072ULL);
    CHECK(recurrent_state_bytes(a, 1, 2, 4) == 143'548'416ULL);
    CHECK(recurrent_layers_note(a).find("27 of 56 layers are Mamba-2 layers") == 0);
    CHECK(recurrent_layers_note(a).find("138.8 MiB per sequence in llama.cpp (f32), 136.9 MiB in vLLM") != std::string::npos);
    // The KV cache covers the 4 attention layers only: 4 x 8 KV heads x 128 x 2 x 8,192 tokens x 2 bytes.
    const Expected<Estimate> e = detailed_at(m, 8192);
    REQUIRE(e.ok());
    CHECK(e->kv_cache_bytes == 4ULL * 8 * 128 * 2 * 8192 * 2);
    REQUIRE(find_term(*e, "recurrent_state") != nullptr);
}

TEST_CASE("hybrid: Falcon-H1-34B counts exactly (attention and Mamba-2 side by side in every layer)", "[hybrid][architecture]") {
    // tiiuae/Falcon-H1-34B-Instruct. No exact published total was found (the model card says "34B"); the expected
    // figure is the sum of the tensor shapes FalconH1ForCausalLM builds from the preset's config.json
    // (transformers src/transformers/models/falcon_h1/modeling_falcon_h1.py: FalconH1Attention q/k/v/o,
    // FalconH1Mixer in_proj/conv1d/dt_bias/A_log/D/norm/out_proj, FalconH1MLP gate/up/down, input_layernorm and
    // pre_ff_layernorm, final_layernorm, embed_tokens, lm_head; mup_vector is a non-persistent buffer). The config's
    // sizes: 72 layers, hidden 5120, 20 heads / 4 KV heads of 128 (transformers' FalconH1 docs table), MLP 21504,
    // mamba 32 heads x 128 = 4096, 2 groups, state 256, conv 4, mamba_rms_norm true, vocabulary 261120 (the 34B
    // Instruct GGUF's metadata in tiiuae/llama.cpp-Falcon-H1#2; mamba_rms_norm there too).
    const ModelSource m = *load_preset("falcon-h1-34b");
    const Architecture& a = m.architecture;
    CHECK(m.counts.total_count == 33'642'516'224ULL);
    // Every layer is both: 72 attention layers (KV cache) and 72 Mamba-2 mixers (recurrent state).
    CHECK(a.attention_layer_count() == 72);
    CHECK(a.recurrent_layer_count() == 72);
    CHECK(a.layer_is_attention(5));
    CHECK(a.layer_is_recurrent(5));
    // Attention 2 x 5120 x 2560 + 2 x 5120 x 512 per layer.
    CHECK(m.counts.attention_count == 72ULL * (2 * 5120 * 2560 + 2 * 5120 * 512));
    // FalconH1Mixer: in_proj 5120 x (2 x 4096 + 2 x 2 x 256 + 32), conv1d 5120 x 4 + bias 5120, dt_bias/A_log/D
    // 3 x 32, gated norm 4096 (mamba_rms_norm), out_proj 4096 x 5120 (no bias: projectors_bias false).
    CHECK(m.counts.recurrent_count == 72ULL * (5120 * 9248 + 5120 * 5 + 96 + 4096 + 4096 * 5120));
    CHECK(m.counts.mlp_count == 72ULL * 3 * 5120 * 21504);
    CHECK(m.counts.norm_count == 145ULL * 5120);
    CHECK(m.counts.embedding_count == 261120ULL * 5120);
    CHECK(m.counts.output_head_count == 261120ULL * 5120);
    // The state per sequence: llama.cpp's RS buffer (f32) 72 x (3 x (4096 + 2 x 2 x 256) + 4096 x 256) x 4; vLLM's
    // Mamba cache in bf16 (no mamba_ssm_cache_dtype in the config) 72 x 2,127,872 = 153,206,784 B.
    CHECK(recurrent_state_bytes(a, 1, 4, 4) == 306'413'568ULL);
    CHECK(recurrent_state_bytes(a, 1, 2, 2) == 153'206'784ULL);
    CHECK(recurrent_layers_note(a).find("72 of 72 layers run attention and a Mamba-2 mixer side by side") == 0);
    CHECK(recurrent_layers_note(a).find("beside its KV cache, 292.22 MiB per sequence in llama.cpp (f32), 146.11 MiB in vLLM") != std::string::npos);
    // The KV cache covers all 72 layers: 72 x 4 KV heads x 128 x 2 x 32,768 tokens x 2 bytes, and the state its own row.
    const Expected<Estimate> e = detailed_at(m, 32768);
    REQUIRE(e.ok());
    CHECK(e->kv_cache_bytes == 72ULL * 4 * 128 * 2 * 32768 * 2);
    const MemoryTerm* state = find_term(*e, "recurrent_state");
    REQUIRE(state != nullptr);
    CHECK(state->bytes == 306'413'568ULL);
}

TEST_CASE("hybrid: Falcon-H1's bad or missing fields are errors naming the key", "[hybrid][errors]") {
    const std::string base = find_preset("falcon-h1-34b")->config_json;
    CHECK(error_of(with(base, "mamba_d_ssm", "")) == "mamba_d_ssm: is missing");
    CHECK(error_of(with(base, "mamba_n_heads", "")) == "mamba_n_heads: is missing");
    CHECK(error_of(with(base, "mamba_d_state", "")) == "mamba_d_state: is missing");
    CHECK(error_of(with(base, "mamba_n_groups", "")) == "mamba_n_groups: is missing");
    CHECK(error_of(with(base, "mamba_d_conv", "")) == "mamba_d_conv: is missing");
    CHECK(error_of(with(base, "mamba_d_head", "")) == "mamba_d_head: is missing");
    // FalconH1Config would take 8 KV heads, not the 20 query heads: never assumed.
    CHECK(error_of(with(base, "num_key_value_heads", "")) == "num_key_value_heads: is missing");
    CHECK(error_of(with(base, "mamba_d_head", "100")) == "mamba_d_head: 32 heads x 100 is not the Mamba-2 width 4096 (mamba_d_ssm)");
    CHECK(error_of(with(base, "mamba_n_groups", "3")) == "mamba_n_groups: 3 does not divide the Mamba-2 width 4096");
    CHECK(error_of(with(base, "mamba_rms_norm", "1")) == "mamba_rms_norm: must be true or false (got a number)");
    // "auto" head size: mamba_d_ssm / mamba_n_heads, as FalconH1Config computes it.
    CHECK(model_of(with(base, "mamba_d_head", "\"auto\"")).counts.total_count == 33'642'516'224ULL);
    // mamba_d_ssm null: mamba_expand x hidden_size (then mamba_expand is needed); 2 x 5120 = 10240 over 32 heads of 320.
    CHECK(error_of(with(with(base, "mamba_d_ssm", "null"), "mamba_d_head", "\"auto\"")) == "mamba_expand: is missing");
    const ModelSource wide = model_of(with(with(base, "mamba_d_ssm", "null,\"mamba_expand\":2"), "mamba_d_head", "320"));
    CHECK(wide.architecture.recurrent.d_inner == 10240);
}

TEST_CASE("hybrid: Nemotron-H's block list in either spelling; unknown letters and missing fields are errors", "[hybrid][errors]") {
    const std::string nano = fixture("nvidia-nemotron-nano-9b-v2");
    // layers_block_type (newer configs; transformers' linear_attention / full_attention names too) gives the
    // same model as the pattern string.
    std::string list = "[";
    const std::string pattern = "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-";
    for (std::size_t i = 0; i < pattern.size(); ++i)
        list += std::string(i ? "," : "") + (pattern[i] == 'M' ? (i % 2 ? "\"linear_attention\"" : "\"mamba\"")
                                             : pattern[i] == '*' ? "\"attention\"" : "\"mlp\"");
    list += "]";
    const std::string listed = with(nano, "hybrid_override_pattern", "") ;
    CHECK(model_of(listed.substr(0, 1) + "\"layers_block_type\": " + list + "," + listed.substr(1)).counts.total_count ==
          8'888'227'328ULL);
    std::string bad = pattern;
    bad[3] = 'X';
    CHECK(error_of(with(nano, "hybrid_override_pattern", "\"" + bad + "\"")) ==
          "hybrid_override_pattern: layer 3 is 'X' (the letters are M Mamba-2, * attention, - MLP, E MoE)");
    bad[3] = 'E';
    // A MoE block in a config without the experts' sizes: the first missing one is named, none assumed.
    CHECK(error_of(with(nano, "hybrid_override_pattern", "\"" + bad + "\"")) == "n_routed_experts: is missing");
    // Nemotron 3 Nano's MoE blocks in the list spelling ("moe") count as its pattern's 'E' blocks do.
    const std::string nano3 = find_preset("nemotron-3-nano-30b-a3b")->config_json;
    const std::string pattern3 = "MEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEM*EMEMEMEM*EMEMEMEME";
    std::string list3 = "[";
    for (std::size_t i = 0; i < pattern3.size(); ++i)
        list3 += std::string(i ? "," : "") + (pattern3[i] == 'M' ? "\"mamba\"" : pattern3[i] == '*' ? "\"attention\"" : "\"moe\"");
    const std::string listed3 = with(nano3, "hybrid_override_pattern", "");
    CHECK(model_of(listed3.substr(0, 1) + "\"layers_block_type\": " + list3 + "]," + listed3.substr(1)).counts.total_count == 31'577'940'288ULL);
    CHECK(error_of(with(nano, "hybrid_override_pattern", "\"M-M\"")) ==
          "hybrid_override_pattern: must be a string of one letter per layer (56)");
    CHECK(error_of(with(nano, "hybrid_override_pattern", "")).find("hybrid_override_pattern: is missing") == 0);
    CHECK(error_of(with(nano, "ssm_state_size", "")) == "ssm_state_size: is missing");
    CHECK(error_of(with(nano, "mamba_head_dim", "")) == "mamba_head_dim: is missing");
    CHECK(error_of(with(nano, "n_groups", "7")).find("n_groups: 7 does not divide the Mamba-2 width 10240") == 0);
}

TEST_CASE("hybrid: the recurrent state per sequence is llama.cpp's RS buffer", "[hybrid][kv]") {
    // llama.cpp src/llama-hparams.cpp: n_embd_r = (d_conv - 1) x (d_inner + 2 x n_group x d_state),
    // n_embd_s = d_state x d_inner; src/llama-memory-recurrent.cpp allocates both in f32 per sequence for each
    // recurrent layer. Qwen3-Next (print_info in llama.cpp#17578: ssm_d_inner 4096, ssm_d_state 128,
    // ssm_n_group 16, ssm_d_conv 4): 36 x (24,576 + 524,288) x 4 bytes = 75.38 MiB.
    const Architecture next = model_of(fixture("qwen3-next-80b-a3b-instruct")).architecture;
    const RecurrentStateValues v = recurrent_state_values(next);
    CHECK(v.layers == 36);
    CHECK(v.conv_values == 24'576);
    CHECK(v.ssm_values == 524'288);
    CHECK(recurrent_state_bytes(next, 1, 4, 4) == 79'036'416ULL);
    // vLLM's MambaSpec with the conv state in bf16 and a float32 SSM state (as a config's mamba_ssm_dtype asks):
    // 73.69 MiB; Qwen3-Next's config names none, so vLLM keeps it in bf16.
    CHECK(recurrent_state_bytes(next, 1, 2, 4) == 77'266'944ULL);
    CHECK(next.recurrent.ssm_state_bytes == 0);
    CHECK(recurrent_layers_note(next).find("37.69 MiB in vLLM (conv state bf16, SSM state in the model's 16 bits)") != std::string::npos);
    // Nemotron-Nano-9B-v2's config.json says "mamba_ssm_cache_dtype": "float32"; a wrong name is an error naming the key.
    CHECK(model_of(fixture("nvidia-nemotron-nano-9b-v2")).architecture.recurrent.ssm_state_bytes == 4);
    const std::string nemotron = fixture("nvidia-nemotron-nano-9b-v2");
    CHECK(model_of(with(nemotron, "mamba_ssm_cache_dtype", "\"bfloat16\"")).architecture.recurrent.ssm_state_bytes == 2);
    CHECK(model_of(with(nemotron, "mamba_ssm_cache_dtype", "")).architecture.recurrent.ssm_state_bytes == 0);
    const std::string bad = error_of(with(nemotron, "mamba_ssm_cache_dtype", "\"float64\""));
    CHECK(bad.find("mamba_ssm_cache_dtype") != std::string::npos);
    CHECK(bad.find("float64") != std::string::npos);
    // Granite 4.0-H: 36 x (3 x 8448 + 1,048,576) x 4; LFM2: 10 x (2 x 2048) x 4, no SSM state.
    const Architecture granite = model_of(fixture("granite-4.0-h-small")).architecture;
    CHECK(recurrent_state_bytes(granite, 1, 4, 4) == 36ULL * (3 * 8448 + 1'048'576) * 4);
    const Architecture lfm2 = model_of(fixture("lfm2-1.2b")).architecture;
    CHECK(recurrent_state_values(lfm2).ssm_values == 0);
    CHECK(recurrent_state_bytes(lfm2, 1, 4, 4) == 10ULL * 2 * 2048 * 4);
    // Jamba (Mamba-1, n_group 0): 28 x (3 x 8192 + 16 x 8192) x 4 per sequence, times the sequences.
    const Architecture jamba = model_of(fixture("jamba-mini-1.7")).architecture;
    CHECK(recurrent_state_bytes(jamba, 3, 4, 4) == 3ULL * 28 * (3 * 8192 + 16 * 8192) * 4);
    CHECK(recurrent_layers_note(next).find("36 of 48 layers are Gated DeltaNet") == 0);
    CHECK(recurrent_layers_note(model_of(fixture("llama-2-7b")).architecture).empty());
}

TEST_CASE("hybrid: the KV cache covers the attention layers only; the state is its own row", "[hybrid][kv]") {
    const std::shared_ptr<const ModelSource> model =
        std::make_shared<ModelSource>(model_of(fixture("qwen3-next-80b-a3b-instruct")));
    Scenario s;
    s.model = model;
    s.param_count = model->counts.total_count;
    s.context_tokens = 32768;
    s.batch_size = 2;
    s.detailed_inference = true;
    const Expected<Estimate> e = estimate(s);
    REQUIRE(e.ok());
    // 12 attention layers x 2 KV heads x 256 x 2 (K, V) x 32,768 tokens x 2 sequences x 2 bytes (fp16).
    CHECK(e->kv_cache_bytes == 12ULL * 2 * 256 * 2 * 32768 * 2 * 2);
    const MemoryTerm* state = find_term(*e, "recurrent_state");
    REQUIRE(state != nullptr);
    CHECK(state->bytes == 2 * 79'036'416ULL);  // per sequence, not per token
    CHECK((state->adds_to & in_total(Total::detailed_inference)) != 0);
    // The state does not grow with the context.
    s.context_tokens = 4096;
    CHECK(find_term(*estimate(s), "recurrent_state")->bytes == state->bytes);
    // Its worked steps name the layers, both state parts and the sequences.
    const std::vector<Derivation> steps = worked_steps(s, *estimate(s));
    const Derivation* d = find_derivation(steps, "recurrent-state");
    REQUIRE(d != nullptr);
    CHECK(d->steps[1].text.find("36 Gated DeltaNet layers, conv state (4 − 1) × 8,192 = 24,576, SSM state 524,288, 2 sequences") == 0);
    CHECK(d->result_bytes == state->bytes);
    // A dense model has no such row.
    Scenario dense = s;
    dense.model = std::make_shared<ModelSource>(model_of(fixture("llama-2-7b")));
    dense.param_count = dense.model->counts.total_count;
    CHECK(find_term(*estimate(dense), "recurrent_state") == nullptr);
}

TEST_CASE("hybrid: bad or missing layer lists and fields are errors naming them", "[hybrid][errors]") {
    const std::string granite = fixture("granite-4.0-h-small");
    CHECK(error_of(with(granite, "layer_types", "[\"mamba\"]")) == "layer_types: must list one type per layer (40)");
    std::string types = "[\"retnet\"";
    for (int i = 1; i < 40; ++i) types += ",\"mamba\"";
    types += "]";
    CHECK(error_of(with(granite, "layer_types", types)) ==
          "layer_types: layer 0 is \"retnet\" (this family's layers are attention, mamba)");
    CHECK(error_of(with(granite, "layer_types", "")).find("layer_types: is missing") == 0);
    CHECK(error_of(with(granite, "mamba_d_state", "")) == "mamba_d_state: is missing");
    CHECK(error_of(with(granite, "mamba_d_head", "100")).find("mamba_d_head: 128 heads x 100") == 0);
    // LFM2 without block_ff_dim: an error naming it, never 4 x hidden_size.
    CHECK(error_of(with(fixture("lfm2-1.2b"), "block_ff_dim", "")) == "block_ff_dim: is missing");
    CHECK(error_of(with(fixture("qwen3-next-80b-a3b-instruct"), "linear_num_value_heads", "")) ==
          "linear_num_value_heads: is missing");
    CHECK(error_of(with(fixture("jamba-mini-1.7"), "attn_layer_offset", "9")) ==
          "attn_layer_offset: must be less than attn_layer_period");
}

namespace {

// Qwen/Qwen3.5-27B's config.json, the fields that shape the count: Qwen3_5ForConditionalGeneration's composite
// config, the text model under text_config with its 64-entry layer_types (every 4th layer full attention), the ViT
// under vision_config ("model_type": "qwen3_5" there, as older checkpoints wrote it). The values are the published
// ones (huggingface.co/Qwen/Qwen3.5-27B; THUDM/slime scripts/models/qwen3.5-27B.sh quotes the text model's);
// the totals below confirm every field that counts.
std::string qwen35_27b_text() {
    std::string types;
    for (int i = 0; i < 64; ++i) types += std::string(i > 0 ? "," : "") + ((i + 1) % 4 == 0 ? "\"full_attention\"" : "\"linear_attention\"");
    return R"({"model_type":"qwen3_5_text","attn_output_gate":true,"head_dim":256,"hidden_size":5120,"intermediate_size":17408,)"
           R"("layer_types":[)" + types + R"(],"linear_conv_kernel_dim":4,"linear_key_head_dim":128,"linear_num_key_heads":16,)"
           R"("linear_num_value_heads":48,"linear_value_head_dim":128,"mamba_ssm_dtype":"float32","max_position_embeddings":262144,)"
           R"("mtp_num_hidden_layers":1,"num_attention_heads":24,"num_hidden_layers":64,"num_key_value_heads":4,)"
           R"("tie_word_embeddings":false,"vocab_size":248320})";
}

std::string qwen35_27b() {
    return R"({"architectures":["Qwen3_5ForConditionalGeneration"],"model_type":"qwen3_5","text_config":)" + qwen35_27b_text() +
           R"(,"tie_word_embeddings":false,"vision_config":{"model_type":"qwen3_5","depth":27,"hidden_act":"gelu_pytorch_tanh",)"
           R"("hidden_size":1152,"in_channels":3,"intermediate_size":4304,"num_heads":16,"num_position_embeddings":2304,)"
           R"("out_hidden_size":5120,"patch_size":16,"spatial_merge_size":2,"temporal_patch_size":2}})";
}

}  // namespace

TEST_CASE("hybrid: Qwen3.5 counts exactly from its composite or bare text config, MTP and vision tower apart", "[hybrid][architecture]") {
    // Qwen/Qwen3.5-27B: 27,781,427,952 parameters in the Hub's safetensors metadata (BF16; the figure the Hub API
    // returns as safetensors.total, recorded for this repository by AlexsJones/llmfit scripts/scrape_hf_models.py,
    // parameters_raw). That is the text model Qwen3_5ForCausalLM builds (26,895,998,464) + the ViT with its merger
    // (460,730,096) + the mtp.* block (424,699,392), the split a safetensors-header count publishes too.
    const ModelSource m = model_of(qwen35_27b());
    const Architecture& a = m.architecture;
    CHECK(m.counts.total_count == 27'356'728'560ULL);
    CHECK(m.counts.vision_count == 460'730'096ULL);
    CHECK(m.counts.mtp_count == 424'699'392ULL);
    CHECK(m.counts.total_count + m.counts.mtp_count == 27'781'427'952ULL);
    CHECK(a.vision.kind == VisionKind::qwen3_5);
    CHECK(a.num_nextn_predict_layers == 1);
    CHECK_FALSE(a.mtp_from_checkpoint);  // mtp_num_hidden_layers announces it
    CHECK(a.attention_layer_count() == 16);
    CHECK(a.recurrent_layer_count() == 48);
    CHECK(a.recurrent.ssm_state_bytes == 4);  // mamba_ssm_dtype float32
    // One GDN layer: in_proj_qkv 5120 x 10240, in_proj_z 5120 x 6144, in_proj_b/a 5120 x 48 each, conv 10240 x 4,
    // dt_bias + A_log 96, norm 128, out_proj 6144 x 5120 = 115,876,064.
    CHECK(m.counts.recurrent_count == 48ULL * 115'876'064ULL);
    // The MTP block: fc 10240 -> 5120, two pre-fc norms, one gated full-attention layer with the dense MLP and its
    // two norms, a final norm; it shares the embedding and head.
    CHECK(m.counts.mtp_table_count == 0);
    CHECK(m.counts.mtp_count == 2ULL * 5120 * 5120 + 2 * 5120 + 104'858'112 + 3ULL * 5120 * 17408 + 2 * 5120 + 5120);
    // The preset holds the same model (full_attention_interval for the layer list).
    CHECK(load_preset("qwen3.5-27b")->counts.total_count == m.counts.total_count);
    CHECK(load_preset("qwen3.5-27b")->counts.mtp_count == m.counts.mtp_count);

    // A bare text config (Qwen3_5ForCausalLM's) counts the language model alone, with the same MTP block beside.
    const ModelSource text = model_of(qwen35_27b_text());
    CHECK(text.counts.total_count == 26'895'998'464ULL);
    CHECK(text.counts.mtp_count == 424'699'392ULL);
    CHECK(text.architecture.vision.kind == VisionKind::none);
    CHECK(text_only_model(m)->counts.total_count == 26'895'998'464ULL);

    // Qwen/Qwen3.5-35B-A3B: 35,951,822,704 (Hub safetensors metadata, BF16, as llmfit's scrape records it; a
    // model.safetensors.index.json total_size / 2 quoted publicly agrees). The text model is 34,660,610,688 (the
    // same figure a public safetensors-header breakdown gives as "language model (excludes tower and MTP)"), the
    // ViT 446,571,248 (merger into 2048), the MTP block with its MoE 844,640,768. Its config has no
    // intermediate_size: every layer is MoE.
    const ModelSource moe = *load_preset("qwen3.5-35b-a3b");
    CHECK(moe.counts.total_count + moe.counts.mtp_count == 35'951'822'704ULL);
    CHECK(moe.counts.total_count - moe.counts.vision_count == 34'660'610'688ULL);
    CHECK(moe.counts.vision_count == 446'571'248ULL);
    CHECK(moe.counts.mtp_count == 844'640'768ULL);
    CHECK(moe.architecture.intermediate_size == 0);
    CHECK(moe.counts.mlp_count == 0);
    // 30 GDN layers as Qwen3-Next's (16 key heads, 32 value heads of 128); 256 experts of 512, one gated shared expert.
    CHECK(moe.counts.recurrent_count == 30ULL * 33'718'464ULL);
    CHECK(moe.counts.router_count == 40ULL * 256 * 2048);
    CHECK(moe.counts.shared_expert_count == 40ULL * (3 * 2048 * 512 + 2048));
}

TEST_CASE("hybrid: Qwen3.5's bad or missing fields are errors naming the key", "[hybrid][errors]") {
    const std::string config = qwen35_27b();
    CHECK(error_of(with(config, "linear_num_value_heads", "\"48\"")) == "linear_num_value_heads: must be a number (got a string)");
    CHECK(error_of(with(config, "linear_key_head_dim", "")) == "linear_key_head_dim: is missing");
    CHECK(error_of(with(config, "layer_types", "[\"linear_attention\"]")) == "layer_types: must list one type per layer (64)");
    CHECK(error_of(with(config, "mamba_ssm_dtype", "\"float64\"")).find("mamba_ssm_dtype: is \"float64\"") == 0);
    CHECK(error_of(with(config, "out_hidden_size", "")) == "vision_config.out_hidden_size: is missing");
    CHECK(error_of(with(config, "depth", "-1")).find("vision_config.depth: must be a whole number") == 0);
    // An MoE config without intermediate_size is fine until a layer needs the dense MLP.
    const std::string moe = R"({"model_type":"qwen3_5_moe_text","hidden_size":2048,"num_hidden_layers":4,"num_attention_heads":16,)"
                            R"("num_key_value_heads":2,"head_dim":256,"full_attention_interval":4,"linear_conv_kernel_dim":4,)"
                            R"("linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,)"
                            R"("num_experts":256,"num_experts_per_tok":8,"moe_intermediate_size":512,"shared_expert_intermediate_size":512,)"
                            R"("vocab_size":248320})";
    CHECK(model_of(moe).counts.mlp_count == 0);
    CHECK(error_of(with(moe, "num_experts", "0")).find("intermediate_size: is missing, and some layers have a dense MLP") == 0);
    CHECK(error_of(with(moe, "vocab_size", "\"248320\"")) == "vocab_size: must be a number (got a string)");
}
