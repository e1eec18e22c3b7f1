// Engine command lines: llama.cpp, vLLM and Ollama flags read into llm-memory's keys, bad values refused
// with the flag named, model references matched to presets, and the printer round-tripping the reader.
// Flag spellings are llama.cpp's common/arg.cpp and vLLM's engine/arg_utils.py; commands are as users
// posted them (the issue each comes from is named per case).
#include <catch_amalgamated.hpp>

#include <map>

#include "engines/command_line.hpp"

using namespace llm_memory;

namespace {

std::map<std::string, std::string> pairs(const CommandReading& r) {
    std::map<std::string, std::string> out;
    for (const CommandSetting& s : r.settings) out[s.key] = s.value;
    return out;
}

CommandReading read_ok(const std::string& command) {
    const Expected<CommandReading> r = read_engine_command(command);
    INFO(command << "\n" << r.error());
    REQUIRE(r.ok());
    return *r;
}

std::string error_of(const std::string& command) {
    const Expected<CommandReading> r = read_engine_command(command);
    REQUIRE_FALSE(r.ok());
    return r.error();
}

bool contains(const std::vector<std::string>& list, const std::string& prefix) {
    for (const std::string& s : list)
        if (s.rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace

TEST_CASE("shell words: quotes, escapes, continuations and prompts") {
    const auto w = split_command_words("$ llama-server -m 'my model.gguf' --alias \"a \\\"b\\\"\" \\\n  -c 4096 # comment -c 1");
    REQUIRE(w.ok());
    const std::vector<std::string> want = {"llama-server", "-m", "my model.gguf", "--alias", "a \"b\"", "-c", "4096"};
    CHECK(*w == want);
    CHECK(split_command_words("llama-server -m 'x").error() == "the command has an unterminated ' quote");
    CHECK(split_command_words("llama-server --alias \"x").error() == "the command has an unterminated \" quote");
    // Only the first command of a pipeline or list is read.
    const auto piped = split_command_words("llama-server -c 2048 | tee log.txt");
    REQUIRE(piped.ok());
    CHECK(piped->size() == 3);
}

TEST_CASE("llama-server: every memory flag in llama.cpp's spellings") {
    // The issue's own example.
    const CommandReading r = read_ok("llama-server -m x.gguf -c 32768 -ngl 99 -fa -ctk q8_0 -ts 10,6");
    CHECK(r.engine == "llama.cpp");
    CHECK(r.model_ref == "x.gguf");
    const auto p = pairs(r);
    CHECK(p.at("engine") == "llama.cpp");
    CHECK(p.at("context") == "32768");
    CHECK(p.at("ngl") == "99");
    CHECK(p.at("flash-attn") == "on");  // the older bare -fa
    CHECK(p.at("kv-dtype") == "q8_0");
    CHECK(p.at("tensor-split") == "10,6");
    CHECK(p.at("gpus") == "2");
    CHECK(r.settings.front().key == "engine");

    const CommandReading longs = read_ok(
        "./build/bin/llama-server --model m.gguf --ctx-size 8192 --batch-size 2048 --ubatch-size 1024 --n-gpu-layers all "
        "--split-mode row --flash-attn off --cache-type-k f16 --cache-type-v q4_0 --parallel 4 --kv-unified --swa-full --no-mmap "
        "--host 0.0.0.0 --port 8080 -t 8 --jinja");
    const auto q = pairs(longs);
    CHECK(q.at("context") == "8192");
    CHECK(q.at("nbatch") == "2048");
    CHECK(q.at("ubatch") == "1024");
    CHECK(q.at("ngl") == "all");
    CHECK(q.at("split-mode") == "row");
    CHECK(q.at("flash-attn") == "off");
    CHECK(q.at("kv-dtype") == "fp16");
    CHECK(q.at("v-dtype") == "q4_0");
    CHECK(q.at("parallel") == "4");
    CHECK(q.at("kv-unified") == "on");
    CHECK(q.at("swa-full") == "on");
    CHECK(q.at("mmap") == "off");
    CHECK(longs.program == "llama-server");
    CHECK(contains(longs.ignored, "--host 0.0.0.0"));
    CHECK(contains(longs.ignored, "--port 8080"));
    CHECK(contains(longs.ignored, "-t 8"));
    CHECK(contains(longs.ignored, "--jinja"));

    // The newer -fa on|off|auto, and -fa followed by another flag.
    CHECK(pairs(read_ok("llama-cli -m a.gguf -fa auto -c 512")).at("flash-attn") == "auto");
    CHECK(pairs(read_ok("llama-cli -m a.gguf -fa -c 512")).at("flash-attn") == "on");
    CHECK(pairs(read_ok("llama-cli -m a.gguf -c 512 -fa")).at("flash-attn") == "on");
    // The last of a repeated flag wins, as in llama.cpp.
    CHECK(pairs(read_ok("llama-server -m a.gguf -c 512 -c 4096")).at("context") == "4096");
    // -ts with llama.cpp's '/' separator.
    CHECK(pairs(read_ok("llama-server -m a.gguf -ts 3/1")).at("tensor-split") == "3,1");
}

TEST_CASE("llama.cpp's tools other than llama-server and llama-cli reserve a whole u-batch of logits") {
    // tools/server/server-context.cpp server_output_limits caps n_outputs_max for llama-server (and llama-cli,
    // which runs on the server's context); llama-bench and llama-completion create their context with libllama's
    // default, n_outputs_max 0 = n_batch (src/llama-context.cpp).
    CHECK(pairs(read_ok("llama-server -m x.gguf -c 4096")).count("n-outputs-max") == 0);
    CHECK(pairs(read_ok("./build/bin/llama-cli -m x.gguf -c 4096")).count("n-outputs-max") == 0);
    CHECK(pairs(read_ok("./build/bin/llama-bench -m x.gguf -ub 2048")).at("n-outputs-max") == "all");
    CHECK(pairs(read_ok("llama-completion -m x.gguf -c 4096")).at("n-outputs-max") == "all");
}

TEST_CASE("llama-server: a bad value of a flag that matters names the flag") {
    CHECK(error_of("llama-server -m a.gguf -c abc") == "-c: \"abc\" is not a whole number");
    CHECK(error_of("llama-server -m a.gguf -ngl lots") == "-ngl: \"lots\" is not a number of layers (a whole number, all or auto)");
    CHECK(error_of("llama-server -m a.gguf -sm tensor") == "-sm: \"tensor\" is not a split mode (none, layer or row)");
    // "maybe" is not -fa's value: the older switch form, then a stray word.
    CHECK(contains(read_ok("llama-server -m a.gguf -fa maybe -c 1").ignored, "maybe (not a flag)"));
    CHECK(error_of("llama-server -m a.gguf -ctk q9_0") .rfind("-ctk: \"q9_0\" is not a llama.cpp cache type", 0) == 0);
    CHECK(error_of("llama-server -m a.gguf -ctk q5_1").find("does not model") != std::string::npos);
    CHECK(error_of("llama-server -m a.gguf -ts 3,x") .rfind("-ts:", 0) == 0);
    CHECK(error_of("llama-server -m a.gguf -c") == "-c: needs a value");
    CHECK(error_of("llama-server -m a.gguf -ub 0") == "-ub: \"0\" must be at least 1");
    CHECK(error_of("llama-server -m a.gguf --no-mmap=1") == "--no-mmap: takes no value");
    CHECK(error_of("curl http://localhost:8080").rfind("\"curl\" is not an engine", 0) == 0);
    CHECK(error_of("") .rfind("the command names no program", 0) == 0);
}

TEST_CASE("llama-server: flags that change memory but are not modelled are listed apart") {
    const CommandReading r = read_ok("llama-server -m a.gguf -ot exps=CUDA1 -nkvo -md draft.gguf -c 0 -ngl auto");
    CHECK(contains(r.unmodelled, "-ot exps=CUDA1 (only =CPU overrides are modelled"));
    CHECK(contains(r.unmodelled, "-nkvo ("));
    CHECK(contains(r.unmodelled, "-md draft.gguf (a drafter llm-memory does not know"));
    CHECK(contains(r.unmodelled, "-c 0 (0 means the model's training context"));
    CHECK(pairs(r).count("context") == 0);
    CHECK(pairs(r).at("ngl") == "auto");  // llama.cpp's --fit chooses
    // An unknown flag is listed with its value, not taken for the model.
    const CommandReading u = read_ok("llama-server --made-up 3 -m a.gguf");
    CHECK(contains(u.ignored, "--made-up 3 (not a flag llm-memory knows)"));
    CHECK(u.model_ref == "a.gguf");
}

TEST_CASE("vllm serve and the api_server module: vLLM's flags, dashes or underscores") {
    // The example.
    const CommandReading r = read_ok("vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-model-len 32768");
    CHECK(r.engine == "vllm");
    CHECK(r.model_ref == "meta-llama/Llama-3.1-70B-Instruct");
    CHECK(r.preset_key == "llama-3.1-70b");
    const auto p = pairs(r);
    CHECK(p.at("tp") == "4");
    CHECK(p.at("gpus") == "4");
    CHECK(p.at("context") == "32768");

    // vllm-project/vllm#28228 (Kimi Linear on 2 x 3090), with underscores and --flag=value.
    const CommandReading k = read_ok(
        "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True VLLM_USE_V1=1 CUDA_VISIBLE_DEVICES=0,1 \\\n"
        "      vllm serve cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit \\\n"
        "      --port 8111 --gpu-memory-utilization 0.95 --max_model_len 120000 --tensor_parallel 2 --enable_prefix_caching \\\n"
        "      --max_num_batched_tokens 64000 --max-num-seqs 8 --trust-remote-code");
    const auto kp = pairs(k);
    CHECK(kp.at("gpu-util") == "0.95");
    CHECK(kp.at("context") == "120000");
    CHECK(kp.at("max-batched-tokens") == "64000");
    CHECK(kp.at("max-num-seqs") == "8");
    CHECK(kp.at("gpus") == "2");
    CHECK(kp.at("tp") == "2");  // argparse takes --tensor_parallel as an abbreviation of --tensor-parallel-size
    CHECK(k.preset_key.empty());

    // The module form, with --model (vllm-project/vllm#2248: deepseek-coder on two L40s).
    const CommandReading m = read_ok(
        "python -m vllm.entrypoints.openai.api_server --dtype float16 --trust-remote-code --model /models/deepseek-coder-33b-instruct "
        "--served-model-name deepseek-coder-33b-instruct --port 8000 --host 0.0.0.0 --tensor-parallel-size 2");
    CHECK(m.engine == "vllm");
    CHECK(m.model_ref == "/models/deepseek-coder-33b-instruct");
    CHECK(m.model_source == "--model");
    CHECK(pairs(m).at("dtype") == "fp16");
    CHECK(pairs(m).at("tp") == "2");
    CHECK(contains(m.ignored, "--served-model-name deepseek-coder-33b-instruct"));

    const auto q = pairs(read_ok("vllm serve Qwen/Qwen2.5-7B-Instruct --kv-cache-dtype fp8_e4m3 --enforce-eager --block-size 32 "
                                 "--max-model-len 32k --pipeline-parallel-size 2 -tp 2"));
    CHECK(q.at("kv-dtype") == "fp8");
    CHECK(q.at("enforce-eager") == "on");
    CHECK(q.at("block-size") == "32");
    CHECK(q.at("context") == "32000");  // vLLM: lower-case k is 10^3
    CHECK(q.at("gpus") == "4");
    CHECK(pairs(read_ok("vllm serve x --max-model-len 32K")).at("context") == "32768");
    // vLLM's own switch for its hybrid KV-cache manager (vllm/engine/arg_utils.py) is read, not ignored.
    CHECK(pairs(read_ok("vllm serve google/gemma-3-27b-it --disable-hybrid-kv-cache-manager")).at("disable-hybrid-kv-cache-manager") == "on");
    CHECK(pairs(read_ok("vllm serve openai/gpt-oss-120b --quantization mxfp4")).at("dtype") == "mxfp4");

    // Data and expert parallelism: -dp replicas of tp x pp GPUs each (vllm/engine/arg_utils.py).
    const auto d = pairs(read_ok("vllm serve deepseek-ai/DeepSeek-V2-Lite --data-parallel-size 4 -tp 2 --enable-expert-parallel"));
    CHECK(d.at("dp") == "4");
    CHECK(d.at("expert-parallel") == "on");
    CHECK(d.at("gpus") == "8");
    CHECK(pairs(read_ok("vllm serve x -dp 2")).at("gpus") == "2");
    CHECK(error_of("vllm serve m -dp 0").rfind("-dp:", 0) == 0);
    CHECK(error_of("vllm serve m --data-parallel-size two") == "--data-parallel-size: \"two\" is not a whole number");
}

TEST_CASE("vLLM: bad values are errors naming the flag") {
    CHECK(error_of("vllm serve m --gpu-memory-utilization 1.5") == "--gpu-memory-utilization: \"1.5\" must be above 0 and at most 1");
    CHECK(error_of("vllm serve m --gpu-memory-utilization=high") == "--gpu-memory-utilization: \"high\" is not a number");
    CHECK(error_of("vllm serve m --kv-cache-dtype int3").rfind("--kv-cache-dtype:", 0) == 0);
    CHECK(error_of("vllm serve m -tp two") == "-tp: \"two\" is not a whole number");
    CHECK(error_of("vllm run m").rfind("only `vllm serve MODEL`", 0) == 0);
    CHECK(error_of("python -m http.server").rfind("the module", 0) == 0);
}

TEST_CASE("vLLM: --speculative-config is read as JSON; a built-in draft model is priced, other drafters named, prompt lookup holds no weights") {
    // vllm/config/speculative.py SpeculativeConfig: "model" (a draft model, EAGLE head or weights), "method"
    // (ngram, ngram_gpu, suffix, draft_model, eagle, eagle3, mtp and the *_mtp model types, medusa, ...),
    // "num_speculative_tokens" (Field gt=0). A separate draft model llm-memory knows becomes draft-model.
    const CommandReading d = read_ok(
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{\"model\": \"meta-llama/Llama-3.2-1B-Instruct\", "
        "\"num_speculative_tokens\": 5}'");
    CHECK(d.unmodelled.empty());
    CHECK(pairs(d).at("draft-model") == "llama-3.2-1b");
    const CommandReading dm = read_ok("vllm serve m --speculative-config '{\"method\": \"draft_model\", \"model\": \"meta-llama/Llama-3.2-1B\", \"num_speculative_tokens\": 3}'");
    CHECK(pairs(dm).at("draft-model") == "llama-3.2-1b");
    CHECK(pairs(dm).at("draft-max") == "3");  // num_speculative_tokens: the drafter's tokens a step
    CHECK(pairs(d).at("draft-max") == "5");
    // Printed back, the drafter goes inside --speculative-config, and reads back the same.
    const std::string printed = engine_command_line("vllm", "m", dm.settings);
    CHECK(printed == "vllm serve m --speculative-config '{\"method\": \"draft_model\", \"model\": \"llama-3.2-1b\", \"num_speculative_tokens\": 3}'");
    CHECK(pairs(read_ok(printed)) == pairs(dm));
    CHECK(error_of("vllm serve m --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 2000}'") ==
          "--speculative-config: \"num_speculative_tokens\" must be a whole number from 1 to 1024");
    const CommandReading unknown = read_ok("vllm serve m --speculative-config '{\"model\": \"someone/tiny-drafter\", \"num_speculative_tokens\": 5}'");
    REQUIRE(unknown.unmodelled.size() == 1);
    CHECK(unknown.unmodelled[0].find("(the drafter someone/tiny-drafter: vLLM drafters are not priced yet") != std::string::npos);
    CHECK(pairs(unknown).count("draft-model") == 0);
    const CommandReading e = read_ok("vllm serve m --speculative_config='{\"method\":\"eagle3\",\"model\":\"x/EAGLE3-head\"}'");
    CHECK(contains(e.unmodelled, "--speculative-config {\"method\":\"eagle3\",\"model\":\"x/EAGLE3-head\"} (the drafter x/EAGLE3-head: vLLM drafters are not priced yet"));
    // The target's own MTP layers (method mtp, or the model types' older spellings, which speculative.py rewrites to
    // mtp) are --mtp, priced in core/engines/vllm.cpp; printed back as method mtp, and read back the same.
    for (const char* method : {"mtp", "deepseek_mtp", "glm4_moe_mtp"}) {
        const CommandReading mtp = read_ok(std::string("vllm serve m --speculative-config '{\"method\": \"") + method + "\", \"num_speculative_tokens\": 3}'");
        INFO(method);
        CHECK(mtp.unmodelled.empty());
        CHECK(pairs(mtp).at("mtp") == "on");
        CHECK(pairs(mtp).at("draft-max") == "3");
        const std::string mtp_printed = engine_command_line("vllm", "m", mtp.settings);
        CHECK(mtp_printed == "vllm serve m --speculative-config '{\"method\": \"mtp\", \"num_speculative_tokens\": 3}'");
        CHECK(pairs(read_ok(mtp_printed)) == pairs(mtp));
    }
    // Prompt lookup (n-gram, suffix) proposes from the text: no weights, listed as ignored with why.
    for (const char* cfg : {"{\"method\": \"ngram\", \"num_speculative_tokens\": 5, \"prompt_lookup_max\": 4}", "{\"model\": \"[ngram]\"}",
                            "{\"method\": \"suffix\"}"}) {
        const CommandReading n = read_ok(std::string("vllm serve m --speculative-config '") + cfg + "'");
        INFO(cfg);
        CHECK(n.unmodelled.empty());
        REQUIRE(n.ignored.size() == 1);
        CHECK(n.ignored[0].find("no draft weights or KV cache") != std::string::npos);
    }
    // Bad configs name the problem.
    CHECK(error_of("vllm serve m --speculative-config '{\"model\": \"x\",'") ==
          "--speculative-config: \"{\"model\": \"x\",\" is not valid JSON (it ends too soon); write "
          "'{\"model\": \"NAME\", \"num_speculative_tokens\": 5}' in single quotes");
    // Unquoted, the shell takes the double quotes away, as sh would: the hint says to quote it.
    CHECK(error_of("vllm serve m --speculative-config={\"method\":\"eagle3\"}") ==
          "--speculative-config: \"{method:eagle3}\" is not valid JSON (reading stops at character 2); write "
          "'{\"model\": \"NAME\", \"num_speculative_tokens\": 5}' in single quotes");
    CHECK(error_of("vllm serve m --speculative-config '{model: 1}'").find("is not valid JSON (reading stops at character 2)") != std::string::npos);
    CHECK(error_of("vllm serve m --speculative-config '[1]'").rfind("--speculative-config: takes a JSON object", 0) == 0);
    CHECK(error_of("vllm serve m --speculative-config '{\"method\": \"warp\"}'").rfind("--speculative-config: \"method\": \"warp\" is not one of vLLM's: ngram ngram_gpu suffix", 0) == 0);
    CHECK(error_of("vllm serve m --speculative-config '{\"num_speculative_tokens\": 5}'") ==
          "--speculative-config: names no drafter: give \"method\" (ngram, eagle, mtp, ...) or \"model\"");
    CHECK(error_of("vllm serve m --speculative-config '{\"model\": \"a\", \"num_speculative_tokens\": 0}'") ==
          "--speculative-config: \"num_speculative_tokens\" must be a whole number from 1 to 1024");
    CHECK(error_of("vllm serve m --speculative-config '{\"model\": 5}'") == "--speculative-config: \"model\" must be a non-empty string");
    CHECK(error_of("vllm serve m --speculative-config") == "--speculative-config: needs a value");
}

TEST_CASE("ollama run: the name, its tag and Ollama's variables") {
    const CommandReading r = read_ok("OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_CONTEXT_LENGTH=16384 ollama run llama3.1:70b");
    CHECK(r.engine == "ollama");
    CHECK(r.preset_key == "llama-3.1-70b");
    CHECK(r.weight_dtype == "q4_k_m");  // Ollama's default tags are Q4_K_M
    const auto p = pairs(r);
    CHECK(p.at("flash-attn") == "on");
    CHECK(p.at("kv-dtype") == "q8_0");
    CHECK(p.at("v-dtype") == "q8_0");
    CHECK(p.at("context") == "16384");
    CHECK(read_ok("ollama run qwen2.5:7b-instruct-q8_0").weight_dtype == "q8_0");
    CHECK(read_ok("ollama run gemma3:27b").preset_key == "gemma-3-27b");
    CHECK(error_of("OLLAMA_KV_CACHE_TYPE=q5_1 ollama run x").rfind("OLLAMA_KV_CACHE_TYPE:", 0) == 0);
    CHECK(error_of("ollama pull x").rfind("`ollama pull` is not read", 0) == 0);
}

TEST_CASE("model references: GGUF file names, Hugging Face ids and shards") {
    auto m = match_model_reference("/models/Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf", false);
    CHECK(m.preset_key == "llama-3.1-8b");
    CHECK(m.weight_dtype == "q4_k_m");
    m = match_model_reference("qwen2.5-7b-instruct-q8_0-00001-of-00003.gguf", false);
    CHECK(m.preset_key == "qwen2.5-7b");
    CHECK(m.weight_dtype == "q8_0");
    m = match_model_reference("unsloth/gemma-3-27b-it-GGUF:Q4_K_M", false);
    CHECK(m.preset_key == "gemma-3-27b");
    CHECK(m.weight_dtype == "q4_k_m");
    CHECK(match_model_reference("meta-llama/Meta-Llama-3-8B", false).preset_key == "llama-3-8b");
    CHECK(match_model_reference("llama-2-7b", false).preset_key == "llama-2-7b");
    // Mistral 7B v0.2 is not v0.1 (another RoPE base and no sliding window): no preset, not a guess.
    CHECK(match_model_reference("mistral-7b-instruct-v0.2.Q4_K_M.gguf", false).preset_key.empty());
    CHECK(match_model_reference("mistral-7b-instruct-v0.2.Q4_K_M.gguf", false).weight_dtype == "q4_k_m");
    CHECK(match_model_reference("", false).preset_key.empty());
}

TEST_CASE("the printer realises the settings, and reading it back gives them again") {
    const std::vector<std::string> commands = {
        "llama-server -m x.gguf -c 32768 -ngl 99 -fa -ctk q8_0 -ts 10,6",
        "llama-server -m 'my model.gguf' -c 8192 -b 2048 -ub 1024 -ngl all -sm row -fa off -ctk f16 -ctv q4_0 -np 4 -kvu --swa-full --no-mmap",
        "CUDA_VISIBLE_DEVICES=0,1,2 llama-server -m a.gguf -c 4096",
        "vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-model-len 32768 --gpu-memory-utilization 0.95 --max-num-seqs 64 "
        "--max-num-batched-tokens 8192 --kv-cache-dtype fp8 --block-size 32 --enforce-eager --dtype bfloat16",
        "vllm serve TheBloke/x-AWQ --quantization awq -pp 2",
        "vllm serve Qwen/Qwen1.5-7B-Chat-GPTQ-Int4 --quantization gptq",
        "vllm serve deepseek-ai/DeepSeek-V2-Lite -tp 2 -dp 4 --enable-expert-parallel",
        "OLLAMA_CONTEXT_LENGTH=8192 OLLAMA_FLASH_ATTENTION=1 OLLAMA_KV_CACHE_TYPE=q8_0 OLLAMA_NUM_PARALLEL=2 ollama run llama3.1:8b",
    };
    for (const std::string& command : commands) {
        const CommandReading first = read_ok(command);
        const std::string printed = engine_command_line(first.engine, first.model_ref, first.settings);
        INFO(command << "\nprinted: " << printed);
        const CommandReading again = read_ok(printed);
        CHECK(again.engine == first.engine);
        CHECK(again.model_ref == first.model_ref);
        CHECK(pairs(again) == pairs(first));
    }
    CHECK(engine_command_line("llama.cpp", "m.gguf", {{"context", "4096", ""}, {"flash-attn", "on", ""}, {"kv-dtype", "q8_0", ""}}) ==
          "llama-server -m m.gguf -c 4096 -fa on -ctk q8_0");
    CHECK(engine_command_line("vllm", "org/m", {{"tp", "4", ""}, {"context", "32768", ""}, {"gpu-util", "0.9", ""}}) ==
          "vllm serve org/m --tensor-parallel-size 4 --gpu-memory-utilization 0.9 --max-model-len 32768");
    CHECK(command_state(read_ok("llama-server -m a.gguf -c 4096 -fa")) == "engine=llama.cpp&context=4096&flash-attn=on");
    // vLLM's GPTQ and AWQ methods (and their Marlin kernels) are the gptq and awq formats, counted in full:
    // nothing about them is listed as not modelled any more.
    for (const auto& [method, dtype] : std::vector<std::pair<std::string, std::string>>{
             {"gptq", "gptq"}, {"gptq_marlin", "gptq"}, {"marlin", "gptq"}, {"awq", "awq"}, {"awq_marlin", "awq"}}) {
        const CommandReading r = read_ok("vllm serve org/m --quantization " + method);
        CHECK(pairs(r).at("dtype") == dtype);
        CHECK(r.unmodelled.empty());
    }
}

TEST_CASE("llama-server: --n-cpu-moe, --cpu-moe and -ot PATTERN=CPU are read, -ot adds to the list") {
    // common/arg.cpp: -ot may be repeated and each adds its overrides; -ncmoe N; -cmoe = every layer.
    const CommandReading r = read_ok("llama-server -m a.gguf -ngl 99 -ncmoe 20 -ot \"blk\\.1\\.=CPU\" --override-tensor exps=CPU");
    CHECK(pairs(r).at("n-cpu-moe") == "20");
    CHECK(pairs(r).at("override-tensor") == "blk\\.1\\.=CPU,exps=CPU");
    const CommandReading all = read_ok("llama-server -m a.gguf --cpu-moe");
    CHECK(pairs(all).at("n-cpu-moe") == "all");
    CHECK(error_of("llama-server -m a.gguf -ot nothing").find("is not PATTERN=BUFFER_TYPE") != std::string::npos);
    CHECK(error_of("llama-server -m a.gguf --n-cpu-moe x").rfind("--n-cpu-moe:", 0) == 0);
}

TEST_CASE("llama-server's speculative flags as llama.cpp spells them since April 2026: --spec-draft-*, --spec-type") {
    // common/arg.cpp since PR #22397 (b9022, April 2026): --spec-draft-model (-md), --spec-draft-type-k/-v (-ctkd/-ctvd),
    // --spec-draft-ngl (-ngld), --spec-draft-n-max (the old --draft-max is removed), and --spec-type, whose names are
    // common/speculative.cpp's. Since PR #23988 (b9596, June 2026) a drafter drafts only under --spec-type
    // draft-simple; without it llama-server loads the drafter and does not draft.
    const CommandReading r = read_ok("llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf --spec-draft-model Llama-3.2-1B-Instruct-Q8_0.gguf "
                                     "--spec-draft-type-k q8_0 --spec-draft-type-v q8_0 --spec-draft-ngl all --spec-type draft-simple --spec-draft-n-max 8");
    const auto p = pairs(r);
    CHECK(p.at("draft-model") == "llama-3.2-1b");
    CHECK(p.at("draft-kv-dtype") == "q8_0");
    CHECK(p.at("draft-max") == "8");
    CHECK(p.count("spec-type") == 0);
    CHECK(r.unmodelled.empty());
    const std::string printed = engine_command_line(r.engine, r.model_ref, r.settings);
    CHECK(printed.find("-md llama-3.2-1b-q8_0.gguf --spec-type draft-simple -ctkd q8_0 -ctvd q8_0") != std::string::npos);
    CHECK(printed.find("--spec-draft-n-max 8") != std::string::npos);
    CHECK(pairs(read_ok(printed)) == p);
    // A drafter without --spec-type draft-simple: loaded, not drafting; priced drafting, and said.
    CHECK(contains(read_ok("llama-server -m a.gguf -md Llama-3.2-1B-Q4_K_M.gguf").unmodelled,
                   "-md Llama-3.2-1B-Q4_K_M.gguf (without --spec-type draft-simple llama-server loads the drafter but does not draft; priced drafting)"));
    // The other types are named with what they leave out; an unknown one is an error naming the list.
    const CommandReading mtp = read_ok("llama-server -m Qwen3.5-27B-Q4_K_M.gguf --spec-type draft-mtp -ctkd q8_0 -ctvd q8_0");
    CHECK(pairs(mtp).at("mtp") == "on");
    CHECK(pairs(mtp).at("draft-kv-dtype") == "q8_0");
    CHECK(mtp.unmodelled.empty());
    const std::string mtp_printed = engine_command_line(mtp.engine, mtp.model_ref, mtp.settings);
    CHECK(mtp_printed.find("--spec-type draft-mtp") != std::string::npos);
    CHECK(pairs(read_ok(mtp_printed)) == pairs(mtp));
    CHECK(contains(read_ok("llama-server -m a.gguf --spec-type draft-eagle3").unmodelled,
                   "--spec-type draft-eagle3 (draft-eagle3: its sidecar drafter and its draft context are not priced)"));
    CHECK(contains(read_ok("llama-server -m a.gguf --spec-type ngram-mod,none").unmodelled,
                   "--spec-type ngram-mod,none (ngram-mod drafts from the text itself, no weights; the logits rows its 64-token drafts add are not modelled)"));
    CHECK(error_of("llama-server -m a.gguf --spec-type guess").rfind("--spec-type: \"guess\" is not a speculative type (none, draft-simple,", 0) == 0);
}

TEST_CASE("llama-server: -md names a built-in drafter (and its format), -ctkd/-ctvd its cache type, -ngld its placement") {
    // common/arg.cpp: -ctkd and -ctvd set the drafter's K and V cache types apart, each f16 by default; -ngld
    // the drafter's GPU layers (99 / "all": the whole drafter, which is what is modelled).
    const CommandReading r = read_ok("llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -md Llama-3.2-1B-Instruct-Q8_0.gguf -ctkd q8_0 -ctvd q8_0 -ngld 99 --spec-type draft-simple");
    CHECK(pairs(r).at("draft-model") == "llama-3.2-1b");
    CHECK(pairs(r).at("draft-dtype") == "q8_0");
    CHECK(pairs(r).at("draft-kv-dtype") == "q8_0");
    CHECK(pairs(r).count("draft-k") == 0);
    CHECK(pairs(r).count("draft-ngl") == 0);
    CHECK(r.unmodelled.empty());
    CHECK(read_ok("llama-server -m a.gguf -md Llama-3.2-1B-Q4_K_M.gguf -ngld all --spec-type draft-simple").unmodelled.empty());
    // -ctkd alone leaves the drafter's V cache in f16: not one type, so nothing is set and the reading says why
    // (before, -ctkd q8_0 priced the V cache in q8_0 too).
    const CommandReading k_only = read_ok("llama-server -m a.gguf -md b.gguf -ctkd q8_0");
    CHECK(pairs(k_only).count("draft-kv-dtype") == 0);
    CHECK(contains(k_only.unmodelled, "-ctkd q8_0 (the drafter's K cache in q8_0, V in fp16: one type is modelled, f16 here)"));
    CHECK(pairs(read_ok("llama-server -m a.gguf -md b.gguf -ctvd f16 -ctkd f16")).at("draft-kv-dtype") == "fp16");
    CHECK(error_of("llama-server -m a.gguf -md b.gguf -ctvd q5_9").rfind("-ctvd:", 0) == 0);
    // Part of the drafter on the CPU is not modelled, and says so.
    CHECK(contains(read_ok("llama-server -m a.gguf -md b.gguf -ngld 8").unmodelled, "-ngld 8 (the drafter is placed whole on GPU 0"));
}

TEST_CASE("llama-server: --image-min-tokens, --image-max-tokens and -fitt; Ollama's LLAMA_ARG_FIT_TARGET") {
    // common/arg.cpp: --image-min-tokens N, --image-max-tokens N (vision models with dynamic resolution), -fitt /
    // --fit-target MiB (one value for every device). They were listed as not modelled before.
    const CommandReading r = read_ok("llama-server -m qwen2.5-vl-3b.gguf --mmproj mm.gguf --image-min-tokens 1024 --image-max-tokens 2048 -fitt 2048");
    const auto p = pairs(r);
    CHECK(p.at("image-min-tokens") == "1024");
    CHECK(p.at("image-max-tokens") == "2048");
    CHECK(p.at("fit-target") == "2048");
    CHECK(!contains(r.unmodelled, "-fitt"));
    CHECK(pairs(read_ok("llama-server -m a.gguf --fit-target=0")).at("fit-target") == "0");
    CHECK(error_of("llama-server -m a.gguf --image-min-tokens many").rfind("--image-min-tokens:", 0) == 0);
    const std::string printed = engine_command_line(r.engine, r.model_ref, r.settings);
    CHECK(printed.find("--image-min-tokens 1024") != std::string::npos);
    CHECK(printed.find("-fitt 2048") != std::string::npos);
    CHECK(pairs(read_ok(printed)) == p);
    // Ollama keeps a fit target its environment sets (llm/llama_server.go extraEnvsForStart).
    const CommandReading o = read_ok("LLAMA_ARG_FIT_TARGET=3000 ollama run qwen2.5vl:3b");
    CHECK(pairs(o).at("fit-target") == "3000");
    CHECK(engine_command_line(o.engine, o.model_ref, o.settings) == "LLAMA_ARG_FIT_TARGET=3000 ollama run qwen2.5vl:3b");
    CHECK(error_of("LLAMA_ARG_FIT_TARGET=lots ollama run x").rfind("LLAMA_ARG_FIT_TARGET:", 0) == 0);
}

TEST_CASE("llama-server: --mmproj FILE loads the vision projector, --no-mmproj-offload keeps it in host RAM") {
    // llama.cpp common/arg.cpp: -mm/--mmproj FILE, -mmu/--mmproj-url URL, --no-mmproj, --no-mmproj-offload.
    const CommandReading r = read_ok("llama-server -m gemma-3-27b-it-Q4_K_M.gguf --mmproj mmproj-model-f16.gguf --no-mmproj-offload -c 8192");
    CHECK(pairs(r).at("mmproj") == "on");
    CHECK(pairs(r).at("mmproj-offload") == "off");
    CHECK(!contains(r.unmodelled, "--mmproj"));
    CHECK(pairs(read_ok("llama-server -m a.gguf -mm p.gguf")).at("mmproj") == "on");
    CHECK(pairs(read_ok("llama-server -m a.gguf --mmproj=p.gguf --no-mmproj")).at("mmproj") == "off");
    CHECK(error_of("llama-server -m a.gguf --mmproj") == "--mmproj: needs a value");
    CHECK(error_of("llama-server -m a.gguf --mmproj=") == "--mmproj: needs the projector's file (an mmproj .gguf)");
    CHECK(error_of("llama-server -m a.gguf --no-mmproj-offload=1") == "--no-mmproj-offload: takes no value");
    const std::string printed = engine_command_line(r.engine, r.model_ref, r.settings);
    CHECK(printed.find("--mmproj mmproj-f16.gguf") != std::string::npos);
    CHECK(printed.find("--no-mmproj-offload") != std::string::npos);
    CHECK(pairs(read_ok(printed)) == pairs(r));
    CHECK(command_state(r).find("mmproj=on&mmproj-offload=off") != std::string::npos);
}
