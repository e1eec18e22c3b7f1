// The CLI as a function: exit codes, error lines and the JSON figures the foundation issue lists.
#include <catch_amalgamated.hpp>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "formats.hpp"
#include "recipes.hpp"
#include "settings.hpp"

using namespace llm_memory;
using namespace llm_memory::test;

TEST_CASE("cli: --params 13B --format json gives the seed's bytes", "[cli]") {
    const CliRun r = cli({"--params", "13B", "--format", "json"});
    CHECK(r.status == 0);
    CHECK(r.err.empty());
    CHECK(has(r.out, "\"weight_bytes\":26000000000"));
    CHECK(has(r.out, "\"inference_bytes\":31200000000"));
    CHECK(has(r.out, "\"gradient_optimizer_bytes\":78000000000"));
    CHECK(has(r.out, "\"training_bytes\":104000000000"));
}

TEST_CASE("cli: --trainable 1B gives 6 and 32 GB", "[cli]") {
    const CliRun r = cli({"--params", "13B", "--trainable", "1B", "--format", "json"});
    CHECK(has(r.out, "\"gradient_optimizer_bytes\":6000000000"));
    CHECK(has(r.out, "\"training_bytes\":32000000000"));
}

TEST_CASE("cli: 70B weights and 13B at 1 byte", "[cli]") {
    CHECK(has(cli({"--params", "70B", "--format", "json"}).out, "\"weight_bytes\":140000000000"));
    CHECK(has(cli({"--params=13B", "--bytes=1", "--format=json"}).out, "\"weight_bytes\":13000000000"));
}

TEST_CASE("cli: the seed's 7B exercise", "[cli]") {
    const CliRun r = cli({"--params", "7B", "--format", "json"});
    CHECK(has(r.out, "\"weight_bytes\":14000000000"));
    CHECK(has(r.out, "\"inference_bytes\":16800000000"));
    CHECK(has(r.out, "\"gradient_optimizer_bytes\":42000000000"));
    CHECK(has(r.out, "\"training_bytes\":56000000000"));
    const CliRun f = cli({"--params", "7B", "--trainable", "1B", "--format", "json"});
    CHECK(has(f.out, "\"gradient_optimizer_bytes\":6000000000"));
    CHECK(has(f.out, "\"training_bytes\":20000000000"));
}

TEST_CASE("cli: table output shows GB and GiB side by side", "[cli]") {
    const CliRun r = cli({"--params", "13B"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "Inference total             31.2 GB (29.06 GiB)"));
    CHECK(has(r.out, "Training total              104 GB (96.86 GiB)"));
    CHECK(has(cli({"--params", "13B", "--format", "markdown", "--units", "GB"}).out, "| Weight memory | 26 GB |"));
}

TEST_CASE("cli: bad input exits 2 with one error line naming the flag", "[cli]") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--params", "abc"}, "error: --params: is not a number\n"},
        {{"--params", "-7B"}, "error: --params: must not be negative\n"},
        {{"--params", "0"}, "error: --params: must be greater than zero\n"},
        {{"--bytes", "0"}, "error: --bytes: must be greater than zero\n"},
        {{"--params"}, "error: --params: needs a value\n"},
        {{"--frobnicate", "1"}, "error: unknown option --frobnicate (see --help)\n"},
        {{"--format", "xml"}, "error: --format: \"xml\" is not one of table, json, markdown\n"},
        {{"--units", "MB"}, "error: --units: \"MB\" is not one of GB, GiB, both\n"},
        {{"--params", "7B", "--trainable", "8B"}, "error: --trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model\n"},
        {{"13B"}, "error: unexpected argument \"13B\" (options start with --)\n"},
    };
    for (const auto& [args, message] : cases) {
        const CliRun r = cli(args);
        INFO(args[0]);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err == message);
    }
}

TEST_CASE("cli: --state applies URL state", "[cli]") {
    const CliRun r = cli({"--state", "params=70B&bytes=2", "--format", "json"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "\"weight_bytes\":140000000000"));  // 70B x 2 bytes (seed)
    CHECK(r.err.empty());
}

TEST_CASE("cli: a scenario given by --state and flags is estimated once", "[cli]") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--state", "model=llama-2-7b&context=4096"},
          std::vector<std::string>{"--state", "model=llama-2-7b&context=4096", "--batch", "2", "--format", "json"}}) {
        const std::uint64_t before = estimate_runs();
        const CliRun r = cli(args);
        CHECK(r.status == 0);
        CHECK(estimate_runs() - before == 1);
    }
}

// --state is strict on the command line, exactly like the flags it stands for (cli/state_arg.hpp): the
// first bad pair is exit 2 with one error line naming --state and the key, nothing on stdout; whether the
// settings work together is checked after every option, as for the flags, and names the option that set
// the key last. (The page's URL stays lenient: tests/core/hardening_test.cpp, apply_state.)
TEST_CASE("cli: --state is strict: a bad pair or combination is exit 2 naming --state and the key", "[cli]") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--state", "params=abc", "--format", "json"}, "error: --state: params: is not a number\n"},
        {{"--state", "params=70B&bytes=2&nope=1"}, "error: --state: unknown setting \"nope\"\n"},
        {{"--state", "params=7B&bytes=nan&colour=blue"}, "error: --state: bytes: is not a finite number\n"},
        {{"--state", "params=7B&trainable=8B"},
         "error: --state: trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model\n"},
        {{"--params", "7B", "--state", "trainable=8B"},
         "error: --state: trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model\n"},
        // The same pair as flags names the flag; a flag after --state takes the key over.
        {{"--state", "trainable=8B", "--params", "7B", "--trainable", "8B"},
         "error: --trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model\n"},
        {{"--state", "params=7B", "--trainable", "8B"},
         "error: --trainable: 8,000,000,000 is more than the 7,000,000,000 parameters of the model\n"},
    };
    for (const auto& [args, message] : cases) {
        const CliRun r = cli(args);
        INFO(args[1]);
        CHECK(r.status == 2);
        CHECK(r.out.empty());
        CHECK(r.err == message);
    }
    // Order does not matter, as for the flags: the combination is checked once everything is read.
    const CliRun later = cli({"--state", "trainable=20B", "--params", "70B", "--format", "json"});
    CHECK(later.status == 0);
    CHECK(later.err.empty());
    CHECK(has(later.out, "\"gradient_optimizer_bytes\":120000000000"));  // 20B x 3 x 2 bytes (seed's k, b)
}

TEST_CASE("cli: --help and --version", "[cli]") {
    const std::string help = cli({"--help"}).out;
    CHECK(has(help, "--trainable N|P%"));
    CHECK(has(cli({"--version"}).out, "llm-memory 0.1.0"));
    // Each setting's line: its flag and value hint, then two spaces at least before the help text.
    for (const llm_memory::SettingSpec& spec : llm_memory::setting_specs()) {
        INFO(spec.key);
        CHECK(has(help, std::string("  --") + spec.key + " " + spec.value_hint + "  "));
    }
    // The --dtype and --recipe lines name every weight format and recipe (they come from the tables).
    for (const llm_memory::WeightFormat& format : llm_memory::weight_formats()) CHECK(has(help, " " + format.key + ","));
    for (const llm_memory::Recipe& recipe : llm_memory::recipes()) CHECK(has(help, recipe.key));
}

TEST_CASE("cli: small figures print in MB/MiB, not as 0.01 GB", "[cli]") {
    // PEFT: rank 8 on q,v of Llama-2-7B trains 4,194,304 parameters; a bf16 gradient is 2 bytes each
    // = 8,388,608 bytes = 8.39 MB = 8 MiB exactly (16-bit adapters; PEFT's default fp32 ones are 16.78 MB).
    const CliRun r = cli({"--model", "llama-2-7b", "--recipe", "adamw-mixed", "--lora-rank", "8", "--lora-targets", "q,v",
                       "--adapter-dtype", "bf16"});
    CHECK(r.status == 0);
    CHECK(has(r.out, "gradient (bf16)           8.39 MB (8 MiB)"));
    CHECK_FALSE(has(r.out, "0.01 GB"));
}

TEST_CASE("cli: every setting's flag and its --state pair give the same JSON for its example", "[cli]") {
    for (const llm_memory::SettingSpec& spec : llm_memory::setting_specs()) {
        INFO(spec.key << " = " << spec.example);
        // As settings_test's round trip: a model, plus what the example needs to estimate.
        std::vector<std::string> flags = {"--model", "llama-2-7b"};
        std::string state = "model=llama-2-7b";
        if (std::string(spec.key) == "qlora") flags.insert(flags.end(), {"--lora-rank", "8"}), state += "&lora-rank=8";
        if (std::string(spec.key) == "tensor-split") flags.insert(flags.end(), {"--gpus", "2"}), state += "&gpus=2";
        // An engine's setting under an engine that reads it (one the engine ignores is an error).
        if (spec.engine != llm_memory::SettingEngine::none && spec.engine != llm_memory::SettingEngine::choice) {
            const std::string engine = spec.engine == llm_memory::SettingEngine::vllm ? "vllm" : "llama.cpp";
            flags.insert(flags.end(), {"--engine", engine}), state += "&engine=" + engine;
        }
        const std::string key = spec.key;
        if (key == "text-only" || key == "images" || key == "image-size") flags[1] = "gemma-3-12b", state = "model=gemma-3-12b";
        if (key == "images") flags.insert(flags.end(), {"--image-size", "896x896"}), state += "&image-size=896x896";
        if (key == "audio-seconds") flags[1] = "voxtral-mini-3b", state = "model=voxtral-mini-3b";
        flags.insert(flags.end(), {std::string("--") + spec.key, spec.example, "--format", "json"});
        const CliRun by_flag = cli(flags);
        const CliRun by_state = cli({"--state", state + "&" + spec.key + "=" + llm_memory::url_encode(spec.example), "--format", "json"});
        CHECK(by_flag.status == 0);
        CHECK(by_flag.err.empty());
        CHECK(by_state.status == 0);
        CHECK(by_flag.out == by_state.out);
    }
}
