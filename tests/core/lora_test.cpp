// LoRA / QLoRA trainable counts against what PEFT's print_trainable_parameters() reports.
// Sources: the PEFT README quicktour (bigscience/mt0-large, r=8: "trainable params: 2359296 || all params:
// 1231940608"); PEFT output for meta-llama/Llama-2-7b-hf with LoraConfig(r=8, target_modules=["q_proj",
// "v_proj"]): "trainable params: 4,194,304 || all params: 6,742,609,920"; r=16 on all seven linears:
// "trainable params: 39,976,960 || all params: 6,778,392,576"; mistralai/Mistral-7B-v0.1 r=8 q,v:
// "trainable params: 3,407,872 || all params: 7,245,139,968". All params = base count + trainable.
#include <catch_amalgamated.hpp>

#include <memory>

#include "estimator.hpp"
#include "lora.hpp"
#include "model_presets.hpp"
#include "test_support.hpp"

using namespace llm_memory;

namespace {
LinearLayer linear(const char* name, std::uint64_t in, std::uint64_t out, std::uint64_t layers) {
    LinearLayer l;
    l.module_path = name;
    l.target_name = name;
    l.in_features = in;
    l.out_features = out;
    l.layer_count = layers;
    return l;
}

// Llama-2-7B by hand: hidden 4096, intermediate 11008, 32 layers, 32 KV heads.
std::vector<LinearLayer> llama2_7b() {
    return {linear("q_proj", 4096, 4096, 32),     linear("k_proj", 4096, 4096, 32),
            linear("v_proj", 4096, 4096, 32),     linear("o_proj", 4096, 4096, 32),
            linear("gate_proj", 4096, 11008, 32), linear("up_proj", 4096, 11008, 32),
            linear("down_proj", 11008, 4096, 32)};
}

std::uint64_t count(const std::vector<LinearLayer>& linears, std::uint64_t rank, const char* targets) {
    const auto parsed = parse_lora_targets(targets);
    REQUIRE(parsed.ok());
    const Expected<LoraCount> c = lora_trainable_count(linears, rank, *parsed);
    INFO(c.error());
    REQUIRE(c.ok());
    return c->trainable_count;
}

ModelSource preset(const char* key) { return test::required(load_preset(key)); }
}  // namespace

TEST_CASE("lora: Llama-2-7B rank 8 on q,v is PEFT's 4,194,304", "[lora]") {
    CHECK(count(llama2_7b(), 8, "q,v") == 4'194'304);
    CHECK(count(llama2_7b(), 8, "q_proj,v_proj") == 4'194'304);  // PEFT's own names
    const ModelSource model = preset("llama-2-7b");
    CHECK(count(decoder_linear_layers(model.architecture), 8, "q,v") == 4'194'304);
    CHECK(model.counts.total_count + 4'194'304 == 6'742'609'920ULL);  // PEFT's "all params"
}

TEST_CASE("lora: Llama-2-7B rank 16 on all seven linears is PEFT's 39,976,960", "[lora]") {
    CHECK(count(llama2_7b(), 16, "q,k,v,o,gate,up,down") == 39'976'960);
    CHECK(count(llama2_7b(), 16, "all-linear") == 39'976'960);
    const ModelSource model = preset("llama-2-7b");
    CHECK(count(decoder_linear_layers(model.architecture), 16, "all-linear") == 39'976'960);
    CHECK(model.counts.total_count + 39'976'960 == 6'778'392'576ULL);
}

TEST_CASE("lora: grouped-query attention shrinks v_proj (Mistral-7B and Llama-3-8B, r=8 q,v: 3,407,872)", "[lora]") {
    // v_proj is 4096 -> 1024 with 8 KV heads: 32 x 8 x ((4096 + 4096) + (4096 + 1024)).
    const ModelSource mistral = preset("mistral-7b-v0.1");
    CHECK(count(decoder_linear_layers(mistral.architecture), 8, "q,v") == 3'407'872);
    CHECK(mistral.counts.total_count + 3'407'872 == 7'245'139'968ULL);
    const ModelSource llama3 = preset("llama-3-8b");
    CHECK(count(decoder_linear_layers(llama3.architecture), 8, "q,v") == 3'407'872);
}

TEST_CASE("lora: PEFT README's mt0-large (T5, r=8 on q and v) is 2,359,296", "[lora]") {
    // mt0-large: d_model 1024, 24 encoder layers (self-attention) and 24 decoder layers (self + cross):
    // 72 q and 72 v modules of 1024 x 1024.
    const std::vector<LinearLayer> t5 = {linear("q", 1024, 1024, 72), linear("k", 1024, 1024, 72),
                                         linear("v", 1024, 1024, 72), linear("o", 1024, 1024, 72)};
    CHECK(count(t5, 8, "q,v") == 2'359'296);
}

TEST_CASE("lora: fused and expert linears (GPT-2 c_attn, Mixtral experts)", "[lora]") {
    // openai-community/gpt2: c_attn is a 768 -> 2304 Conv1D in 12 layers: 12 x 8 x (768 + 2304) = 294,912.
    const ModelSource gpt2 = preset("gpt2");
    CHECK(count(decoder_linear_layers(gpt2.architecture), 8, "c_attn") == 294'912);
    // PEFT's default target for gpt2 is c_attn (TRANSFORMERS_MODELS_TO_LORA_TARGET_MODULES_MAPPING), so the
    // default q,v lands on the fused module once.
    CHECK(count(decoder_linear_layers(gpt2.architecture), 8, "q,v") == 294'912);
    // microsoft/Phi-3-mini-4k-instruct: fused qkv_proj 3072 -> 9216 in 32 layers: 32 x 8 x 12288 = 3,145,728.
    const ModelSource phi3 = preset("phi-3-mini-4k");
    CHECK(count(decoder_linear_layers(phi3.architecture), 8, "q,k,v") == 3'145'728);
    // Mixtral-8x7B: w1 is 4096 -> 14336 in 8 experts x 32 layers: 256 x 8 x 18432 = 37,748,736.
    const ModelSource mixtral = preset("mixtral-8x7b");
    CHECK(count(decoder_linear_layers(mixtral.architecture), 8, "w1") == 37'748'736);
}

TEST_CASE("lora: the estimate trains only the adapter; QLoRA stores the base in NF4", "[lora]") {
    const ModelSource model = preset("llama-2-7b");
    Scenario s;
    s.model = std::make_shared<ModelSource>(model);
    s.param_count = model.counts.total_count;
    s.lora_rank = 8;
    Estimate e = estimate(s).value();
    CHECK(e.trainable_count == 4'194'304);
    CHECK(e.lora_trainable_count == 4'194'304);
    // PEFT's fp32 adapters (autocast_adapter_dtype): seed-adam's 3 values at 4 bytes, 4-byte weights.
    CHECK(e.gradient_optimizer_bytes == 4'194'304ULL * 12);
    CHECK(e.adapter_weight_bytes == 4'194'304ULL * 4);
    CHECK(e.weight_bytes == 6'738'415'616ULL * 2);
    CHECK(e.training_bytes == e.weight_bytes + e.adapter_weight_bytes + e.gradient_optimizer_bytes);
    s.qlora = true;
    e = estimate(s).value();
    CHECK(e.weight_format == "nf4_dq");
    // bitsandbytes/PEFT quantize only the decoder's nn.Linear weights (transformers keeps lm_head out of
    // the conversion; embeddings and norms are not Linear): 32 layers x (4 x 4096^2 + 3 x 4096 x 11008) =
    // 6,476,005,376 weights at NF4 + double quant (8452 bits per 2048 weights = 8452 / 16384 bytes each)
    // = 3,340,771,328 bytes, and the other 262,410,240 parameters (embeddings 131,072,000, lm_head
    // 131,072,000, norms 266,240) at 2 bytes = 524,820,480 bytes. (Counting all of N at NF4 gave
    // 3,476,140,673, 389 MB light.) PEFT's prepare_model_for_kbit_training then casts those to fp32 (the
    // default, upcast-nonquantized): 4 bytes each, 1,049,640,960 bytes.
    CHECK(e.weight_bytes == 3'340'771'328ULL + 2 * 524'820'480ULL);
    s.upcast_nonquantized = false;
    CHECK(estimate(s).value().weight_bytes == 3'340'771'328ULL + 524'820'480ULL);
}

TEST_CASE("lora: errors name the problem", "[lora]") {
    CHECK(lora_trainable_count(llama2_7b(), 0, {"q"}).error() == "lora-rank: must be greater than zero");
    const Expected<LoraCount> missing = lora_trainable_count(llama2_7b(), 8, {"c_attn"});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error() == "lora-targets: \"c_attn\" matches no linear layer of this model (it has q_proj, k_proj, "
                             "v_proj, o_proj, gate_proj, up_proj, down_proj)");
    CHECK_FALSE(parse_lora_targets("q,,v").ok());
    CHECK_FALSE(parse_lora_targets("").ok());
    CHECK_FALSE(parse_lora_targets("q;v").ok());
    Scenario s;
    s.lora_rank = 8;
    CHECK(estimate(s).error() == "lora-rank: needs a model architecture (--model or --config)");
    s.lora_rank = 0;
    s.qlora = true;
    CHECK(estimate(s).error() == "qlora: needs --lora-rank (QLoRA trains a LoRA adapter on a 4-bit base)");
}
