// Every kind of JSON the CLI prints (the estimate with each feature, --from-command, fit, check, reconcile)
// read back by core's own JSON reader: one object per run, with the keys its consumers read, and the
// figures equal to the ones the plain report prints.
#include <catch_amalgamated.hpp>

#include <string>
#include <vector>

#include "../../core/json.hpp"
#include "cli_test_support.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {

const std::string kFixtures = LLM_MEMORY_FIXTURES_DIR;

// Runs the CLI with --format json; the output must be one JSON object and one line.
JsonValue json_of(std::vector<std::string> args) {
    args.insert(args.end(), {"--format", "json"});
    const CliRun r = run_cli_capture(args);
    INFO(args.front() << " ... " << r.err);
    REQUIRE(r.status == 0);
    REQUIRE(!r.out.empty());
    CHECK(r.out.back() == '\n');
    CHECK(r.out.find('\n') == r.out.size() - 1);
    const JsonDocument doc = parse_json(r.out);
    INFO(r.out);
    REQUIRE(doc.ok());
    REQUIRE(doc.value.is_object());
    return doc.value;
}

}  // namespace

TEST_CASE("Every estimate the CLI prints as JSON reads back with core's reader", "[json]") {
    const std::vector<std::vector<std::string>> runs = {
        {"--params", "7B"},
        {"--state", "params=70B&bytes=2&trainable=1B"},
        {"--model", "llama-3-70b", "--dtype", "q4_k_m", "--gpu", "rtx-4090", "--context", "8192", "--engine", "llama.cpp"},
        {"--model", "llama-3-70b", "--gpu", "h100-80gb", "--gpus", "4", "--context", "8192", "--engine", "vllm"},
        {"--model", "llama-3-8b", "--context", "8192", "--engine", "ollama", "--gpu", "rtx-4090"},
        {"--model", "llama-3-8b", "--lora-rank", "16", "--qlora", "--training-mode", "detailed", "--gpu", "rtx-4090"},
        {"--model", "llama-2-7b", "--recipe", "adamw-mixed", "--lora-rank", "8", "--lora-targets", "q,v", "--gpu", "rtx-4090"},
        {"--model", "qwen3-next-80b-a3b", "--context", "32K", "--inference-mode", "detailed"},
        {"--model", "llama-2-7b", "--gpu", "rtx-4090", "--gpus", "2", "--tensor-split", "5,1", "--context", "4096"},
        {"--config", kFixtures + "/deepseek-v3.json", "--gpu-memory", "80GB", "--training-mode", "detailed"},
        {"--config", kFixtures + "/jamba-mini-1.7.json", "--context", "8192"},
        {"--from-command", "llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 32768 -ngl 99 -fa -ctk q8_0 --port 8080"},
    };
    for (const auto& args : runs) {
        const JsonValue v = json_of(args);
        // The seed's keys lead every object after the optional leading members; whole bytes are integers.
        for (const char* key : {"parameters", "weight_bytes", "inference_bytes", "training_bytes"}) {
            INFO(args.front() << " " << key);
            REQUIRE(v.find(key) != nullptr);
            CHECK(v.find(key)->is_unsigned());
        }
    }
    // The seed's object, exactly (README: `llm-memory --params 7B --format json`).
    const JsonValue seed = json_of({"--params", "7B"});
    CHECK(seed.find("weight_bytes")->unsigned_value() == 14'000'000'000ULL);
    CHECK(seed.find("bytes_per_parameter")->number() == 2.0);
    // --from-command leads with its own object, then the report.
    const JsonValue command = json_of(runs.back());
    REQUIRE(command.find("from_command") != nullptr);
    CHECK(command.find("from_command")->find("settings")->find("context")->text() == "32768");
    CHECK(command.find("from_command")->find("ignored")->items()[0].text() == "--port 8080");
    // Engines: the engine object and the verdicts.
    const JsonValue engine = json_of(runs[2]);
    CHECK(engine.find("engine")->find("devices")->is_array());
    CHECK(!engine.find("verdicts")->find("runs")->text().empty());
    // Two GPUs: gpu.inference.cards, one per card.
    CHECK(json_of(runs[8]).find("gpu")->find("inference")->find("cards")->items().size() == 2);
}

TEST_CASE("Qwen3.5 through the CLI: composite count, vision row, MTP beside, --text-only", "[json][families]") {
    // Qwen/Qwen3.5-27B: 27,781,427,952 on the Hub (safetensors metadata) = the total with its vision tower + the MTP
    // block reported beside (sources in tests/core/hybrid_test.cpp).
    const JsonValue full = json_of({"--model", "qwen3.5-27b", "--context", "32K", "--images", "1", "--image-size", "1920x1080"});
    CHECK(full.find("parameters")->unsigned_value() == 27'356'728'560ULL);
    CHECK(full.find("breakdown")->find("vision")->unsigned_value() == 460'730'096ULL);
    CHECK(full.find("mtp_parameters")->unsigned_value() == 424'699'392ULL);
    CHECK(full.find("attention_layers")->unsigned_value() == 16);
    CHECK(full.find("recurrent_layers")->unsigned_value() == 48);
    const JsonValue text = json_of({"--model", "qwen3.5-35b-a3b", "--text-only"});
    CHECK(text.find("parameters")->unsigned_value() == 34'660'610'688ULL);
    CHECK(text.find("breakdown")->find("vision")->unsigned_value() == 0);
}

TEST_CASE("fit, check and reconcile JSON read back with core's reader", "[json]") {
    const JsonValue fit = json_of({"fit", "--model", "llama-3.1-70b", "--dtype", "q4_k_m", "--context", "8K", "--gpu", "rtx-4090",
                                   "--layers-on-gpu"});
    REQUIRE(fit.find("layers_on_gpu") != nullptr);
    CHECK(fit.find("layers_on_gpu")->find("offload")->find("ngl")->is_unsigned());
    CHECK(fit.find("layers_on_gpu")->find("estimate")->find("weight_bytes")->is_unsigned());
    const JsonValue engine_fit = json_of({"fit", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--engine", "llama.cpp", "--context", "8K"});
    CHECK(!engine_fit.find("engine_flags")->text().empty());
    CHECK(engine_fit.members().size() > 3);
    // Under an engine the largest context is the engine's: vLLM's --max-model-len auto (the leading
    // engine_flags) and its own "estimated maximum model length" (kv_cache_utils.py) are the same figure.
    const JsonValue vllm_fit = json_of({"fit", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--engine", "vllm", "--maximize", "context"});
    const std::uint64_t longest = vllm_fit.find("context")->find("value")->unsigned_value();
    CHECK(vllm_fit.find("engine_flags")->text() == "--max-model-len " + std::to_string(longest));
    CHECK(vllm_fit.find("context")->find("estimate")->find("engine")->find("runs")->boolean());
    CHECK(vllm_fit.find("context")->find("sentence")->text().rfind("vLLM starts with --max-model-len up to ", 0) == 0);
    // --minimize n-cpu-moe: one object under "n_cpu_moe", its figures as the table prints them.
    const JsonValue moe = json_of({"fit", "--minimize", "n-cpu-moe", "--model", "qwen3-30b-a3b", "--dtype", "q4_k_m", "--engine",
                                   "llama.cpp", "--gpu-memory", "12GiB", "--context", "32768"});
    REQUIRE(moe.members().size() == 1);
    const JsonValue* answer = moe.find("n_cpu_moe");
    REQUIRE(answer != nullptr);
    REQUIRE(answer->members().size() == 5);
    CHECK(answer->find("found")->boolean());
    REQUIRE(answer->find("n_cpu_moe")->is_unsigned());
    CHECK(answer->find("expert_bytes")->unsigned_value() > 0);
    const std::string flag = "--n-cpu-moe " + std::to_string(answer->find("n_cpu_moe")->unsigned_value()) + ":";
    CHECK(answer->find("sentence")->text().rfind(flag, 0) == 0);
    CHECK(answer->find("engine")->find("command")->text().find(flag.substr(0, flag.size() - 1)) != std::string::npos);
    const CliRun table = run_cli_capture({"fit", "--minimize", "n-cpu-moe", "--model", "qwen3-30b-a3b", "--dtype", "q4_k_m", "--engine",
                                          "llama.cpp", "--gpu-memory", "12GiB", "--context", "32768"});
    CHECK(table.out.find(answer->find("sentence")->text()) != std::string::npos);
    const JsonValue all = json_of({"fit", "--model", "llama-3.1-8b", "--gpu", "rtx-4090", "--training-mode", "detailed"});
    CHECK(all.members().size() >= 2);
    const JsonValue check = json_of({"check", "--question", "inference", "--state", "params=7B", "--answer", "14 GB"});
    CHECK(check.find("correct")->is_boolean());
    CHECK(check.find("mistake")->is_string());
    const JsonValue reconcile = json_of({"reconcile", kFixtures + "/../engine_logs/logdetective-pr106-ctx32768.log", "--model", "llama-3-8b"});
    REQUIRE(reconcile.find("rows") != nullptr);
    REQUIRE(!reconcile.find("rows")->items().empty());
    CHECK(reconcile.find("rows")->items()[0].find("measured")->is_number());
    CHECK(reconcile.find("notes")->is_array());
    // Every key the README's reconcile table documents, of its type (the page's reconcile(log) returns this object).
    for (const char* key : {"kind", "engine_version", "model", "heading", "settings_text", "text"})
        CHECK(reconcile.find(key)->is_string());
    for (const char* key : {"note_lines", "not_applied", "cause_lines"}) CHECK(reconcile.find(key)->is_array());
    CHECK(reconcile.find("settings")->find("context")->text() == "32768");
    const JsonValue& first = reconcile.find("rows")->items()[0];
    for (const char* key : {"term", "device", "measured_text", "estimated_text", "gap_text", "cause", "line"})
        CHECK(first.find(key)->is_string());
    CHECK(first.find("measured_text")->text() == "4.00 GiB");  // the log's "KV buffer size = 4096.00 MiB"
    CHECK(first.find("gap_text")->text() == "+0.0 %");
    CHECK(first.find("tolerance")->is_number());
    CHECK(first.find("cause_number")->is_number());
}
