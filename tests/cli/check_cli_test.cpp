// `llm-memory check`: the JSON the issue names, exit codes, and errors for bad flags and gibberish.
// Figures from the seed document's "Estimating a 7B Model" exercise and "Mistakes in Memory Estimates".
#include <catch_amalgamated.hpp>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "practice.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

TEST_CASE("check: the issue's example names weights-as-inference (seed 7B exercise)", "[cli][check]") {
    const CliRun r = cli({"check", "--question", "inference", "--state", "params=7B", "--answer", "14 GB", "--format", "json"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind("{\"question\":\"inference\",\"correct\":false,\"mistake\":\"weights-as-inference\"", 0) == 0);
    CHECK(has(r.out, "\"expected_bytes\":16800000000"));
    CHECK(has(r.out, "\"explanation\":\"That is the weight memory, not the inference total"));
    CHECK(r.out.back() == '\n');
}

TEST_CASE("check: a right answer exits 0 with mistake null, in GB, GiB and bytes", "[cli][check]") {
    for (const char* answer : {"16.8 GB", "15.65 GiB", "1.68e10 bytes", "16,800 MB", "16.8"}) {
        INFO(answer);
        const CliRun r = cli({"check", "--question", "inference", "--params", "7B", "--answer", answer, "--format", "json"});
        CHECK(r.status == 0);
        CHECK(has(r.out, "\"correct\":true,\"mistake\":null"));
    }
}

TEST_CASE("check: text output names the mistake and the right step", "[cli][check]") {
    // Seed: "training only 1B parameters brings the total down to 6 GB" -> 32 GB for the 13B model.
    const CliRun r = cli({"check", "--question=training", "--state=params=13B&trainable=1B", "--answer=6 GB"});
    CHECK(r.status == 0);
    CHECK(r.out.rfind("Wrong: freezing-removes-weights\n", 0) == 0);
    CHECK(has(r.out, "Expected:    32 GB"));
    CHECK(has(r.out, "= 32 GB."));
}

TEST_CASE("check: bad input exits 2 with one error line and nothing on stdout", "[cli][check]") {
    struct Bad {
        std::vector<std::string> args;
        const char* message;
    };
    const Bad cases[] = {
        {{"check", "--question", "inference", "--params", "7B", "--answer", "banana"},
         "error: --answer: \"banana\" is not an amount of memory"},
        {{"check", "--question", "inference", "--params", "7B", "--answer", "16,8 GB"}, "error: --answer: \"16,8 GB\": commas"},
        {{"check", "--question", "inference", "--answer", ""}, "error: --answer: is empty"},
        {{"check", "--question", "weights", "--answer", "14 GB"}, "error: --question: \"weights\" is not one of"},
        {{"check", "--answer", "14 GB"}, "error: check: --question is required"},
        {{"check", "--question", "weight"}, "error: check: --answer is required"},
        {{"check", "--question", "weight", "--answer", "14 GB", "--state", "params=seven"}, "error: --state: params:"},
        // The same strict --state as the estimate command (cli/state_arg.hpp): unknown keys and combinations too.
        {{"check", "--question", "weight", "--answer", "14 GB", "--state", "params=7B&colour=blue"},
         "error: --state: unknown setting \"colour\"\n"},
        {{"check", "--question", "training", "--answer", "1 GB", "--state", "params=1B&trainable=2B"},
         "error: --state: trainable: 2,000,000,000 is more than the 1,000,000,000 parameters of the model\n"},
        {{"check", "--question", "weight", "--answer", "14 GB", "--colour", "red"}, "error: check: unknown option --colour"},
        {{"check", "--question", "weight", "--answer", "14 GB", "--format", "yaml"}, "error: --format: \"yaml\" is not one of text, json"},
        {{"check", "--question", "weight", "--answer"}, "error: --answer: needs a value"},
        {{"check", "--question", "training", "--params", "1B", "--trainable", "2B", "--answer", "1 GB"}, "error: --trainable:"},
    };
    for (const Bad& c : cases) {
        INFO(c.message);
        const CliRun r = cli(c.args);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err.rfind(c.message, 0) == 0);
        CHECK(r.err.find('\n') == r.err.size() - 1);
    }
}

TEST_CASE("check: --help describes the subcommand", "[cli][check]") {
    const CliRun r = cli({"check", "--help"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "Usage: llm-memory check --question ID --answer TEXT"));
    CHECK(has(r.out, "gib-gb-mixup"));
    // Every mistake id the checker can name is listed.
    for (MistakeId id : all_mistakes()) {
        INFO(mistake_key(id));
        CHECK(has(r.out, mistake_key(id)));
    }
    CHECK(has(r.out, "llama-split-total"));
}
