// The CLI's model options: --config FILE (the fixture configs), --model NAME, --list-models, and the
// errors for unreadable, malformed or absurd configs (exit 2, one error line, nothing on stdout).
#include <catch_amalgamated.hpp>

#include <string>
#include <vector>

#include "cli_test_support.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

namespace {
std::string config_path(const char* name) { return std::string(LLM_MEMORY_FIXTURES_DIR) + "/" + name; }
}  // namespace

TEST_CASE("cli: --config prints the exact count as parameters", "[cli][model]") {
    // meta-llama/Llama-2-7b-hf: 6,738,415,616 parameters (tests/core/architecture_test.cpp).
    const CliRun r = cli({"--config", config_path("llama-2-7b.json"), "--format", "json"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(has(r.out, "\"parameters\":6738415616,"));
    CHECK(has(r.out, "\"weight_bytes\":13476831232"));  // x 2 bytes
    CHECK(has(r.out, "\"breakdown\":{\"embeddings\":131072000,\"attention\":2147483648,"));
    const CliRun moe = cli({"--config", config_path("mixtral-8x7b-v0.1.json"), "--format", "json"});
    CHECK(has(moe.out, "\"parameters\":46702792704,"));
    CHECK(has(moe.out, "\"active_parameters\":12879925248"));
}

TEST_CASE("cli: --model and --list-models", "[cli][model]") {
    const CliRun r = cli({"--model", "llama-2-7b"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "Model meta-llama/Llama-2-7b-hf: 6,738,415,616 parameters"));
    CHECK(has(r.out, "Weight memory               13.48 GB"));
    const CliRun list = cli({"--list-models"});
    CHECK(list.status == 0);
    CHECK(has(list.out, "llama-2-70b"));
    CHECK(has(list.out, "68,976,648,192"));
    CHECK(has(list.out, "deepseek-v3"));
    const CliRun unknown = cli({"--model", "llama2-7b"});
    CHECK(unknown.status == 2);
    CHECK(unknown.out.empty());
    CHECK(unknown.err == "error: --model: unknown model \"llama2-7b\" (did you mean llama-2-7b? see --list-models)\n");
}

TEST_CASE("cli: unreadable and malformed configs are one-line errors", "[cli][model]") {
    const CliRun missing = cli({"--config", config_path("no-such-file.json")});
    CHECK(missing.status == 2);
    CHECK(missing.out.empty());
    CHECK(has(missing.err, "error: --config: cannot read"));
    const CliRun not_json = cli({"--config", config_path("README.md")});
    CHECK(not_json.status == 2);
    CHECK(has(not_json.err, "not valid JSON"));
    CHECK(not_json.out.empty());
}
