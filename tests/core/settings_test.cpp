// The shared settings table: CLI flags, URL state and stored state read the same keys the same way.
#include <catch_amalgamated.hpp>

#include <string>

#include "engines/engine.hpp"
#include "report.hpp"
#include "settings.hpp"
#include "settings_form.hpp"

using namespace llm_memory;

TEST_CASE("apply_state reads the URL form of a scenario", "[settings]") {
    const StateResult r = apply_state(Scenario{}, "#params=70B&bytes=2&trainable=1B");
    CHECK(r.problems.empty());
    CHECK(r.scenario.param_count == 70'000'000'000ULL);
    CHECK(r.scenario.trainable == TrainableSpec::exact(1'000'000'000ULL));
}

TEST_CASE("apply_state reports unknown keys and bad values and keeps the rest", "[settings]") {
    const StateResult r = apply_state(Scenario{}, "params=7B&colour=blue&bytes=abc");
    REQUIRE(r.problems.size() == 2);
    CHECK(r.problems[0] == "unknown setting \"colour\"");
    CHECK(r.problems[1] == "bytes: is not a number");
    CHECK(r.scenario.param_count == 7'000'000'000ULL);
    CHECK(r.scenario.bytes_per_param == Decimal::from_int(2));
}

TEST_CASE("apply_state keeps the last good scenario when the result is invalid", "[settings]") {
    Scenario base;
    base.param_count = 7'000'000'000ULL;
    const StateResult r = apply_state(base, "trainable=8B");
    REQUIRE(r.problems.size() == 1);
    CHECK(r.problems[0].rfind("trainable: ", 0) == 0);
    CHECK(r.scenario.param_count == 7'000'000'000ULL);
    CHECK(r.scenario.trainable.kind == TrainableSpec::Kind::all);
}

TEST_CASE("apply_state estimates a link once and hands the estimate on", "[settings]") {
    const std::uint64_t before = estimate_runs();
    const StateResult r = apply_state(Scenario{}, "model=llama-2-7b&context=4096&gpu=rtx-4090");
    CHECK(estimate_runs() - before == 1);
    REQUIRE(r.problems.empty());
    REQUIRE(r.estimate.has_value());
    CHECK(r.estimate->inference_bytes == estimate(r.scenario)->inference_bytes);
    CHECK(r.estimate->training_bytes == estimate(r.scenario)->training_bytes);
    // Pairs that do not validate together: the base is kept and there is no estimate to take.
    const StateResult bad = apply_state(Scenario{}, "params=7B&trainable=8B");
    CHECK(bad.combination_rejected);
    CHECK_FALSE(bad.estimate.has_value());
    // apply_state_pairs (the CLI's first step, before its flags) estimates nothing.
    const std::uint64_t pairs_before = estimate_runs();
    CHECK_FALSE(apply_state_pairs(Scenario{}, "model=llama-2-7b").estimate.has_value());
    CHECK(estimate_runs() == pairs_before);
}

TEST_CASE("to_state round-trips scenarios exactly", "[settings]") {
    Scenario s;
    CHECK(to_state(s) == "params=13B");
    s.param_count = 6'738'415'616ULL;
    s.bytes_per_param = Decimal{606'250};
    s.trainable = TrainableSpec::percent_of(Decimal{7'700'000});
    s.overhead_factor = Decimal{1'150'000};
    CHECK(to_state(s) == "params=6.738415616B&bytes=0.60625&overhead=1.15&trainable=7.7%25");
    const StateResult back = apply_state(Scenario{}, to_state(s));
    CHECK(back.problems.empty());
    CHECK(back.scenario.param_count == s.param_count);
    CHECK(back.scenario.bytes_per_param == s.bytes_per_param);
    CHECK(back.scenario.trainable == s.trainable);
    CHECK(back.scenario.overhead_factor == s.overhead_factor);
}

TEST_CASE("apply_setting names the key in its errors", "[settings]") {
    Scenario s;
    CHECK(apply_setting(s, "params", "-1").error() == "params: must not be negative");
    CHECK(apply_setting(s, "params", "0").error() == "params: must be greater than zero");
    CHECK(apply_setting(s, "overhead", "0.5").error() == "overhead: must be at least 1 (it multiplies the weights)");
    CHECK(apply_setting(s, "trainable", "120%").error() == "trainable: is more than 100%");
    CHECK(apply_setting(s, "nope", "1").error() == "unknown setting \"nope\"");
    CHECK(url_decode("7.7%25") == "7.7%");
    CHECK(url_decode("70+billion") == "70 billion");
}

namespace {

// The state each example is tried on: a model, plus any other setting its example needs to estimate
// (the vision settings need a model with a vision tower; images need an image size).
std::string example_base(const char* key) {
    const std::string k = key;
    // An engine's setting is tried under an engine that reads it (estimate refuses one the engine ignores).
    const SettingEngine group = find_setting(key)->engine;
    if (group == SettingEngine::vllm) return "model=llama-2-7b&engine=vllm";
    if (group != SettingEngine::none && group != SettingEngine::choice) return "model=llama-2-7b&engine=llama.cpp";
    if (k == "qlora") return "model=llama-2-7b&lora-rank=8";
    if (k == "tensor-split") return "model=llama-2-7b&gpus=2";
    if (k == "text-only" || k == "image-size") return "model=gemma-3-12b";
    if (k == "images") return "model=gemma-3-12b&image-size=896x896";
    if (k == "audio-seconds") return "model=voxtral-mini-3b";
    return "model=llama-2-7b";
}

// A scenario the key's example applies to (example_base), before and after the example.
struct ExampleEdit {
    Scenario base;
    Scenario changed;
};
ExampleEdit example_edit(const SettingSpec& spec) {
    const StateResult base = apply_state(Scenario{}, example_base(spec.key));
    REQUIRE(base.problems.empty());
    ExampleEdit edit{base.scenario, base.scenario};
    REQUIRE(apply_setting(edit.changed, spec.key, spec.example).ok());
    return edit;
}

}  // namespace

TEST_CASE("every setting round-trips its example value through the URL state and the form", "[settings]") {
    for (const SettingSpec& spec : setting_specs()) {
        INFO(spec.key << " = " << spec.example);
        ExampleEdit edit = example_edit(spec);
        follow_engine_gpus(edit.changed);  // as every face holds it after a setting (vLLM's -dp 2 is then 2 GPUs)
        const Scenario& s = edit.changed;
        const std::string shown = spec.show(s);
        CHECK_FALSE(shown.empty());                    // the example is not the default
        CHECK(shown != spec.show(edit.base));          // and it changed the scenario
        REQUIRE(estimate(s).ok());                     // and it is a scenario the estimator takes
        // The URL state reads back to the same scenario, and to the same value of this key.
        const StateResult back = apply_state(Scenario{}, to_state(s));
        CHECK(back.problems.empty());
        CHECK(to_state(back.scenario) == to_state(s));
        CHECK(spec.show(back.scenario) == shown);
        // The form (the page's text view) has the key's row, with its label and the value as the key reads it.
        const std::string form = settings_form_json(s, *estimate(s));
        const std::size_t row = form.find(std::string("{\"key\":\"") + spec.key + "\",\"label\":\"" + json_escape(spec.label) + "\"");
        REQUIRE(row != std::string::npos);
        CHECK(form.find("\"value\":\"" + json_escape(setting_field_text(spec, s)) + "\"", row) < form.find("]}", row));
        if (spec.kind == SettingKind::choice) {
            REQUIRE(spec.choices != nullptr);
            CHECK(choice_index(spec.choices(), shown) < spec.choices().size());  // the example is one of its choices
        }
    }
}

TEST_CASE("a setting is marked as an engine's exactly when its value lives in Scenario::engine", "[settings][engines]") {
    // What the engine models read beyond the scenario's own inputs is Scenario::engine (core/engine_settings.hpp):
    // a row that changes it must be marked for an engine (so a build without them refuses it and hides its
    // field), and a marked row must change nothing else.
    std::size_t marked = 0;
    for (const SettingSpec& spec : setting_specs()) {
        INFO(spec.key << " = " << spec.example);
        const auto [base, changed] = example_edit(spec);
        REQUIRE(to_state(changed) != to_state(base));
        Scenario engine_part = base;     // the base with the change's engine settings alone
        engine_part.engine = changed.engine;
        Scenario rest_part = changed;    // the change with the base's engine settings
        rest_part.engine = base.engine;
        const bool engine_setting = spec.engine != SettingEngine::none;
        CHECK(is_engine_setting(spec.key) == engine_setting);
        CHECK(to_state(engine_setting ? engine_part : rest_part) == to_state(changed));
        marked += engine_setting ? 1 : 0;
    }
    CHECK(marked == 33);  // the engine, 22 of llama.cpp's flags, the drafter (llama.cpp's and vLLM's), 8 of vLLM's, the host's RAM
    CHECK_FALSE(is_engine_setting("no-such-key"));
}

TEST_CASE("each choice setting reads every word of its table, and its form lists exactly those", "[settings]") {
    for (const SettingSpec& spec : setting_specs()) {
        if (spec.choices == nullptr) continue;
        INFO(spec.key);
        CHECK(spec.kind == SettingKind::choice);
        for (const Choice& choice : spec.choices()) {
            INFO(choice.word);
            Scenario s;
            if (std::string(spec.key) != "model") s = apply_state(Scenario{}, "model=llama-2-7b").scenario;
            CHECK(apply_setting(s, spec.key, choice.word).ok());
            CHECK(setting_field_text(spec, s) == choice.word);
            CHECK_FALSE(choice.label.empty());
        }
    }
}

// Issue 26's quality bar: an engine's setting given under an engine that does not read it was dropped without
// a word (--mmproj with --engine vllm, --draft-model with --engine transformers, --ngl with no engine). Every
// marked row, under every engine: read, or refused by name with the base kept.
TEST_CASE("an engine's setting under an engine that does not read it is refused by name, the last good state kept", "[settings][engines]") {
    const std::vector<Choice>& engines = find_setting("engine")->choices();
    std::size_t refused = 0;
    for (const SettingSpec& spec : setting_specs()) {
        if (spec.engine == SettingEngine::none || spec.engine == SettingEngine::choice) continue;
        for (std::size_t k = 0; k < engines.size(); ++k) {
            const auto kind = static_cast<EngineKind>(k);
            const std::string engine = kind == EngineKind::none ? "" : "&engine=" + engines[k].word;
            const std::string pair = std::string(spec.key) + "=" + url_encode(spec.example);
            INFO(pair << engine);
            // Either order: the engine chosen after the setting is checked as well as before it.
            for (const std::string& state : {"model=llama-2-7b" + engine + "&" + pair, "model=llama-2-7b&" + pair + engine}) {
                const StateResult r = apply_state(Scenario{}, state);
                if (engine_reads(spec.engine, kind)) {
                    CHECK(r.problems.empty());
                    continue;
                }
                ++refused;
                CHECK(r.combination_rejected);
                CHECK(to_state(r.scenario) == to_state(Scenario{}));  // the base, not a part of the link
                REQUIRE(r.problems.size() == 1);
                CHECK(r.problems[0].rfind(std::string(spec.key) + ": is ", 0) == 0);
                CHECK(r.problems[0].find(kind == EngineKind::none ? std::string("no engine is chosen") : "not by " + std::string(engine_name(kind))) != std::string::npos);
            }
        }
    }
    // 20 llama.cpp rows (none, vLLM, transformers), draft-model, draft-max and mtp (none, transformers), 8 vLLM rows
    // (none, llama.cpp, Ollama, transformers), ram (none); each in two orders.
    CHECK(refused == 2 * (20 * 3 + 3 * 2 + 8 * 4 + 1));
}

TEST_CASE("vLLM takes its GPU count from dp x tp x pp when gpus is left at 1", "[settings][engines]") {
    // `vllm serve -tp 4` starts one worker per GPU (tensor x pipeline parallel, times the -dp replicas) and is never
    // told a GPU count; --from-command sets gpus the same way (engine_command_test).
    const StateResult r = apply_state(Scenario{}, "model=llama-3.1-70b&engine=vllm&tp=4&gpu=a100-80gb");
    CHECK(r.problems.empty());
    CHECK(r.scenario.gpu_count == 4);
    CHECK(to_state(r.scenario).find("gpus=4") != std::string::npos);
    CHECK(apply_state(Scenario{}, "model=llama-3.1-70b&tp=2&pp=2&dp=2&engine=vllm").scenario.gpu_count == 8);
    // A count that is given stays as given.
    CHECK(apply_state(Scenario{}, "model=llama-3.1-70b&engine=vllm&tp=4&gpus=8").scenario.gpu_count == 8);
    // Other engines and no engine never derive it: training names its GPUs (the same link without vLLM is refused).
    const StateResult training = apply_state(Scenario{}, "model=llama-2-7b&training-mode=detailed&tp=2");
    CHECK(training.combination_rejected);
    CHECK(training.problems.back().rfind("gpus: 1 GPU is not a multiple of tp × pp = 2", 0) == 0);
    Scenario other;
    other.engine.kind = EngineKind::llama_cpp;
    other.training.tp = 2;
    CHECK_FALSE(follow_engine_gpus(other));
    CHECK(other.gpu_count == 1);
}

TEST_CASE("which engines read which settings, and what the refusal says", "[settings][engines]") {
    // Stated here, not derived from the marks: llama.cpp's flags are Ollama's too; vLLM reads a drafter
    // (named as not priced) but no other llama.cpp flag; transformers reads only the host's RAM.
    const auto refusal = [](const std::string& state) {
        const StateResult r = apply_state(Scenario{}, state);
        return r.problems.empty() ? std::string() : r.problems.back();
    };
    CHECK(refusal("model=gemma-3-12b&engine=vllm&mmproj=true") ==
          "mmproj: is read by llama.cpp and Ollama only, not by vLLM, so it would change nothing: leave it out or choose another engine");
    CHECK(refusal("model=llama-3.1-8b&engine=transformers&draft-model=llama-3.2-1b") ==
          "draft-model: is read by llama.cpp and vLLM only, not by transformers, so it would change nothing: leave it out or choose another engine");
    CHECK(refusal("model=llama-3.1-8b&ngl=20") ==
          "ngl: is an engine's setting (read by llama.cpp and Ollama only) and no engine is chosen: choose one (--engine) or leave it out");
    CHECK(refusal("model=llama-3.1-8b&engine=llama.cpp&gpu-util=0.8").rfind("gpu-util: is read by vLLM only, not by llama.cpp", 0) == 0);
    CHECK(refusal("model=llama-3.1-8b&ram=64GiB").rfind("ram: is an engine's setting (read by every engine)", 0) == 0);
    CHECK(refusal("model=gemma-3-12b&engine=ollama&mmproj=true&mmproj-offload=false").empty());
    CHECK(refusal("model=llama-3.1-8b&engine=vllm&draft-model=llama-3.2-1b").empty());
    CHECK(refusal("model=llama-3.1-8b&engine=transformers&ram=64GiB").empty());
    // A setting left at its default (or set back to it) is not asked for: no refusal.
    CHECK(refusal("model=llama-3.1-8b&engine=vllm&mmproj=false&ngl=auto&draft-model=none").empty());
    // apply_setting takes each key alone; the combination is what estimate() refuses, so the canvas keeps its state.
    Scenario s = apply_state(Scenario{}, "model=llama-3.1-8b&engine=vllm").scenario;
    REQUIRE(apply_setting(s, "mmproj", "true"));
    CHECK(estimate(s).error() == refusal("model=llama-3.1-8b&engine=vllm&mmproj=true"));
}
