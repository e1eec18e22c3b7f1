// The CLI's engine commands: --from-command sets the scenario from an engine's own flags (bad values are one
// error line, exit 2), and `reconcile` reads a log (fixtures quoted from public issues, tests/fixtures/engine_logs).
#include <catch_amalgamated.hpp>

#include "cli_test_support.hpp"

using namespace llm_memory::test;

namespace {
const std::string kLogs = std::string(LLM_MEMORY_FIXTURES_DIR) + "/../engine_logs/";

// Runs the CLI and requires it to succeed (its stderr shown when it does not).
CliRun run_ok(const std::vector<std::string>& args) {
    const CliRun r = run_cli_capture(args);
    INFO(r.err);
    REQUIRE(r.status == 0);
    return r;
}

// Checks that `text` has each of `parts`, naming the missing one.
void check_has(const std::string& text, std::initializer_list<const char*> parts) {
    for (const char* part : parts) {
        INFO(part);
        CHECK(has(text, part));
    }
}
}  // namespace

TEST_CASE("cli: --from-command sets the model, its format and the KV settings", "[cli][engines]") {
    const CliRun r = run_ok({"--from-command",
                             "llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa -ctk q8_0 --host 0.0.0.0 --port 8080",
                             "--format", "json"});
    // llama.cpp's q8_0 cache for Llama 3.1 8B at 32K: 32 layers x 1024 x 2 x 32768 x 34/32 bytes = 2,281,701,376 (2176 MiB).
    check_has(r.out, {"\"from_command\":{\"engine\":\"llama.cpp\"", "\"preset\":\"llama-3.1-8b\"", "\"kv_cache_bytes\":2281701376",
                      "\"command\":\"llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa on -ctk q8_0\""});
    CHECK(has(r.err, "note: --from-command ignored (no effect on memory): --host 0.0.0.0, --port 8080"));

    const CliRun t = run_cli_capture({"--from-command", "vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 --max-model-len 32768"});
    REQUIRE(t.status == 0);
    CHECK(has(t.out, "The command that realises it: vllm serve meta-llama/Llama-3.1-70B-Instruct --tensor-parallel-size 4 --max-model-len 32768"));
    CHECK(has(t.out, "Model meta-llama/Llama-3.1-70B"));
}

TEST_CASE("cli: --from-command's errors are one line with the flag named, exit 2", "[cli][engines]") {
    CliRun r = run_cli_capture({"--from-command", "llama-server -m a.gguf -c lots"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(r.err == "error: --from-command: -c: \"lots\" is not a whole number\n");
    r = run_cli_capture({"--from-command", "vllm serve x --gpu-memory-utilization 2"});
    CHECK(r.status == 2);
    CHECK(r.err == "error: --from-command: --gpu-memory-utilization: \"2\" must be above 0 and at most 1\n");
    // A model that is neither a preset nor a file here, without --model: say so.
    r = run_cli_capture({"--from-command", "llama-server -m /nowhere/custom-model.gguf -c 4096"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "the model \"/nowhere/custom-model.gguf\" is neither a built-in model nor a file here"));
    // ... and with --model it runs.
    r = run_cli_capture({"--from-command", "llama-server -m /nowhere/custom-model.gguf -c 4096", "--model", "llama-2-7b"});
    CHECK(r.status == 0);
    // A bad value from the command that the settings table refuses names the flag as written.
    r = run_cli_capture({"--from-command", "llama-server -m llama-2-7b -c 99999999999"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "error: --from-command: -c 99999999999: "));
    r = run_cli_capture({"--from-command", "llama-server -m 'x"});
    CHECK(r.err == "error: --from-command: the command has an unterminated ' quote\n");
}

TEST_CASE("cli: reconcile reads a llama.cpp log and a vLLM log", "[cli][engines]") {
    // fedora-copr/logdetective PR 106: the KV buffer at n_ctx 32768 (a 32-layer, 8-KV-head model).
    CliRun r = run_cli_capture({"reconcile", kLogs + "logdetective-pr106-ctx32768.log", "--model", "llama-3-8b"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "Scenario from the log: engine=llama.cpp context=32768"));
    CHECK(has(r.out, "kv_cache            gpu0    4.00 GiB      4.00 GiB      +0.0 %  within 3 %"));
    // vllm-project/vllm PR 10511: the model from the pasted command, the weights exact.
    r = run_cli_capture({"reconcile", kLogs + "vllm-pr10511-llama3-8b-tp1.log", "--format", "json"});
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "\"kind\":\"vllm\""));
    CHECK(has(r.out, "\"term\":\"weights\",\"device\":\"gpu0\",\"measured\":16063177687"));
}

TEST_CASE("cli: reconcile compares llama.cpp's host output buffer, and names what the log leaves unsaid", "[cli][engines]") {
    // SciSharp/LLamaSharp issue 1099 (Qwen2.5-3B, n_ctx 4096, one sequence): "CUDA_Host output buffer size =
    // 0.58 MiB", the logits of 1 sequence x 151,936 vocab x 4 bytes = 607,744 bytes.
    const std::string log = kLogs + "llamasharp-issue1099-qwen2.5-3b.log";
    const std::string config = std::string(LLM_MEMORY_FIXTURES_DIR) + "/../inference_configs/qwen2.5-3b.json";
    CliRun r = run_cli_capture({"reconcile", log, "--config", config, "--context", "4096", "--parallel", "1"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "output              host    0.58 MiB      0.58 MiB      -0.1 %  within 20 %"));
    // Four slots (llama-server's default) hold four sequences' logits: the gap and its likely cause.
    r = run_cli_capture({"reconcile", log, "--config", config, "--context", "4096"});
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "output              host    0.58 MiB      2.32 MiB      +299.7 %  over 20 %"));
    CHECK(has(r.out, "likely cause: the parallel slots and the vocabulary: llama.cpp's output buffer holds the logits of "
                     "n_seq_max sequences x n_vocab x 4 bytes (the log does not state n_seq_max; check -np)"));
    // The log states no n_ubatch: the cause says so instead of leaving an empty figure.
    r = run_cli_capture({"reconcile", log, "--config", config});
    REQUIRE(r.status == 0);
    CHECK(has(r.out, "the log's n_ctx (not stated in the log)"));
    CHECK(has(r.out, "the u-batch (n_ubatch not stated in the log)"));
    CHECK_FALSE(has(r.out, "()"));
}

TEST_CASE("cli: reconcile refuses junk, a missing file and a log without its model", "[cli][engines]") {
    CliRun r = run_cli_capture({"reconcile", kLogs + "no-such.log"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "error: reconcile: cannot read"));
    r = run_cli_capture({"reconcile", std::string(LLM_MEMORY_FIXTURES_DIR) + "/c4ai-command-r-v01.json", "--model", "llama-2-7b"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "no llama.cpp, Ollama, vLLM or nvidia-smi memory line found"));
    r = run_cli_capture({"reconcile", kLogs + "logdetective-pr106-ctx32768.log"});
    CHECK(r.status == 2);
    CHECK(has(r.err, "the log does not name its model: give --model NAME, --config FILE or --gguf FILE"));
    r = run_cli_capture({"reconcile"});
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    CHECK(has(r.err, "needs a log file"));
    r = run_cli_capture({"reconcile", "--help"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "Usage: llm-memory reconcile FILE|-"));
}

TEST_CASE("cli: experts on the CPU from a command line, and fit --minimize n-cpu-moe", "[cli][engines]") {
    const CliRun r = run_ok({"--from-command", "llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -c 16384 -ngl 99 --n-cpu-moe 12",
                             "--gpu-memory", "12GiB", "--ram", "32GiB"});
    check_has(r.out, {"tensor overrides: --n-cpu-moe 12: the first 12 layers' routed experts", "host RAM", "of 32 GiB (fits)",
                      "The command that realises it: llama-server -m Qwen3-30B-A3B-Q4_K_M.gguf -c 16384 -ngl 99 -ncmoe 12",
                      "-ngl 49 -fa on --n-cpu-moe 12"});
    const CliRun f = run_cli_capture({"fit", "--minimize", "n-cpu-moe", "--model", "qwen3-30b-a3b", "--dtype", "q4_k_m", "--engine", "llama.cpp",
                                      "--gpu-memory", "12GiB", "--context", "32768", "--format", "json"});
    INFO(f.err);
    REQUIRE(f.status == 0);
    CHECK(has(f.out, "{\"n_cpu_moe\":{\"found\":true,\"n_cpu_moe\":"));
    CHECK(has(f.out, "system-memory bandwidth"));
    const CliRun dense = run_cli_capture({"fit", "--minimize", "n-cpu-moe", "--model", "llama-2-7b", "--engine", "llama.cpp", "--gpu-memory", "12GiB"});
    CHECK(dense.status == 2);
    CHECK(has(dense.err, "no routed experts"));
}

// Issue 26's quality bar: an engine's setting under an engine that does not read it was dropped without a
// word; it is now one error line naming the setting and the engine, exit 2, nothing on stdout.
TEST_CASE("cli: an engine's setting the chosen engine does not read is an error naming both", "[cli][engines]") {
    const auto refused = [](const std::vector<std::string>& args, const std::string& setting, const std::string& engine) {
        const CliRun r = run_cli_capture(args);
        INFO(r.err);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(has(r.err, "error: "));
        CHECK(has(r.err, setting + ": is "));
        CHECK(has(r.err, engine));
    };
    refused({"--model", "gemma-3-12b", "--engine", "vllm", "--mmproj"}, "mmproj", "not by vLLM");
    refused({"--model", "gemma-3-12b", "--mmproj", "--engine", "vllm"}, "mmproj", "not by vLLM");  // either order
    refused({"--from-command", "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192", "--mmproj"}, "mmproj", "not by vLLM");
    refused({"--model", "llama-3.1-8b", "--engine", "transformers", "--draft-model", "llama-3.2-1b"}, "draft-model", "not by transformers");
    refused({"--from-command", "llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 8192", "--gpu-util", "0.8"}, "gpu-util", "not by llama.cpp");
    refused({"--state", "model=llama-3.1-8b&engine=vllm&n-cpu-moe=4"}, "n-cpu-moe", "not by vLLM");
    refused({"--model", "llama-3.1-8b", "--ngl", "20"}, "ngl", "no engine is chosen");
    // vLLM with -tp and no --gpus: its GPUs are tp x pp (x dp), as vllm serve -tp 4 starts four workers.
    const CliRun tp = run_ok({"--model", "llama-3.1-70b", "--engine", "vllm", "--tp", "4", "--gpu", "a100-80gb"});
    CHECK(has(tp.out, "Runs on 4 x NVIDIA A100 80GB with vLLM"));
    // Read by the engine: runs, and vLLM prices the drafter (its weights a term of their own).
    const CliRun v = run_ok({"--model", "llama-3.1-8b", "--engine", "vllm", "--draft-model", "llama-3.2-1b"});
    CHECK(has(v.out, "Drafter weights 2.32 GiB (2.49 GB)"));  // with its own RoPE table (16 MiB)
    refused({"--model", "llama-3.1-8b", "--engine", "vllm", "--draft-model", "llama-3.2-1b", "--draft-dtype", "q8_0"}, "draft-dtype", "not by vLLM");
    run_ok({"--model", "gemma-3-12b", "--engine", "llama.cpp", "--mmproj"});
}
