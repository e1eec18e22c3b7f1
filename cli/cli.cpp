// Argument parsing for llm-memory. Scenario flags come from core's settings table (the same keys as
// the URL state); output flags (--format, --units) are the CLI's own.
#include "cli.hpp"
#include "check.hpp"
#include "hub_http.hpp"
#include "completion.hpp"
#include "option_arg.hpp"
#include "state_arg.hpp"

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include "../core/architecture.hpp"
#include "../core/engines/engine.hpp"
#include "../core/engines/command_line.hpp"
#include "../core/engines/engine_fit.hpp"
#include "../core/engines/engine_log.hpp"
#include "../core/fit.hpp"
#include "../core/hub.hpp"
#include "../core/model_file.hpp"
#include "../core/model_presets.hpp"
#include "../core/report.hpp"
#include "../core/settings.hpp"

#ifndef LLM_MEMORY_VERSION
#define LLM_MEMORY_VERSION "0.1.0"
#endif

namespace llm_memory {
namespace {

enum class OutputFormat { table, json, markdown };

struct CliOptions {
    Scenario scenario;
    OutputFormat format = OutputFormat::table;
    UnitChoice units = UnitChoice::both;
    bool help = false;
    bool version = false;
    bool list_models = false;
    std::vector<std::string> warnings;
    SettingSources sources;          // which option set each setting last (for the final estimate's error)
    std::string file_report;         // --gguf / --safetensors: what the header says (table and markdown)
    std::vector<JsonField> file_json;  // "file" (core's JSON of the header) or "hub" and "file", leading --format json
    std::string command_json;          // --from-command: the "from_command" object, first in --format json
    std::string command_report;      // --from-command: what was read, ignored and realised (table and markdown)
    std::string command_notes;       // --from-command: the ignored flags, for stderr
    std::string pending_model;       // --from-command: a model reference that names no preset or file here
    bool model_given = false;        // --model, --config or --gguf set the model
};

// Opens `path` for the header readers; its size in `size`, or an error message naming the flag.
std::string open_model_file(const std::string& flag, const std::string& path, std::ifstream& file, std::uint64_t& size) {
    file.open(path, std::ios::binary);
    if (!file) return flag + ": cannot read \"" + printable_excerpt(path, 80) + "\"";
    if (file.peek() == std::ifstream::traits_type::eof() && file.bad())
        return flag + ": \"" + printable_excerpt(path, 80) + "\" is not a readable file";
    file.clear();
    file.seekg(0, std::ios::end);
    const std::streamoff end = file.tellg();
    file.seekg(0);
    if (end <= 0) return flag + ": " + printable_excerpt(path, 80) + ": is empty or not a regular file";
    size = static_cast<std::uint64_t>(end);
    return {};
}

// Reads a model file's header only (1 MiB at a time, never the tensor data) through core's ModelFileReader, the
// same reader the app uses. An Error holds the whole message, flag and file named.
Expected<FileModel> read_model_file(const std::string& flag, const std::string& path, const CliOptions& options) {
    std::ifstream file;
    std::uint64_t size = 0;
    if (std::string problem = open_model_file(flag, path, file, size); !problem.empty()) return Error{problem};
    const std::string shown = printable_excerpt(path, 80);
    ModelFileReader reader(size, shown);
    std::string chunk(1 << 20, '\0');
    bool done = false;
    while (!done && file) {
        file.read(&chunk[0], static_cast<std::streamsize>(chunk.size()));
        const std::size_t got = static_cast<std::size_t>(file.gcount());
        if (got == 0) break;
        const Expected<bool> fed = reader.feed(std::string_view(chunk.data(), got));
        if (!fed) return Error{flag + ": " + shown + ": " + fed.error()};
        done = *fed;
    }
    Expected<FileModel> model = reader.finish(options.scenario.model.get());
    if (!model) return Error{flag + ": " + shown + ": " + model.error()};
    return model;
}

// "--draft-model FILE": llama.cpp's -md GGUF, read as --gguf reads a model; the drafter is that file, named by its path.
std::string load_draft_file(const std::string& path, CliOptions& options) {
    const Expected<FileModel> model = read_model_file("--draft-model", path, options);
    if (!model) return model.error();
    if (model->kind != "gguf" || !model->model)
        return "--draft-model: " + printable_excerpt(path, 80) + ": is not a GGUF model file (llama.cpp's -md reads one)";
    for (const char c : path)
        if (static_cast<unsigned char>(c) < 0x20) return "--draft-model: the file's path holds a control character";
    options.scenario.engine.draft_model = path;
    options.scenario.engine.draft_file = std::make_shared<const FileModel>(*model);
    return {};
}

// "--gguf FILE" / "--safetensors FILE": reads the header only and makes the file's model the scenario's.
std::string load_model_file(const std::string& flag, const std::string& path, CliOptions& options, bool projector = false) {
    const std::string shown = printable_excerpt(path, 80);
    const Expected<FileModel> model = read_model_file(flag, path, options);
    if (!model) return model.error();
    if (projector != (model->projector != nullptr))
        return flag + ": " + shown + (projector ? ": is not llama.cpp's projector file (an mmproj GGUF, general.architecture \"clip\")"
                                                : ": is llama.cpp's projector file (mmproj): give it with --mmproj FILE");
    if (projector) {
        if (const Expected<bool> applied = apply_file_model(options.scenario, *model); !applied) return flag + ": " + shown + ": " + applied.error();
        return {};
    }
    if (model->param_count == 0) {
        options.warnings.push_back(flag + ": an index gives the bytes but not the parameter count; put --model or "
                                          "--config before it to use its bytes per parameter");
    } else if (const Expected<bool> applied = apply_file_model(options.scenario, *model); !applied) {
        return flag + ": " + shown + ": " + applied.error();
    }
    options.file_report = model->report;
    options.file_json = {{"file", model->json}};
    return {};
}

// "--hf org/name[:file]": looks the model up on the Hugging Face Hub (cli/hub_http.hpp: cache, HF_ENDPOINT,
// HF_TOKEN, HF_HUB_OFFLINE) and makes what it read the scenario's model, as --config / --gguf would.
std::string load_hub_model(const std::string& value, CliOptions& options) {
    const Expected<HubRef> ref = parse_hub_ref(value);
    if (!ref) return "--hf: " + ref.failure().problem;
    const Expected<HubResult> result = run_hub_lookup(*ref, hub_environment(), HubClient::cli);
    if (!result) return "--hf: " + result.failure().problem;
    if (result->needs_choice) {
        std::string files;
        for (const HubGgufChoice& c : result->gguf_choices) files += (files.empty() ? "" : ", ") + c.file;
        return "--hf: " + ref->repo + ": the repo has " + std::to_string(result->gguf_choices.size()) +
               " GGUF files; pick one with --hf " + ref->repo + ":FILE (" + files + ")";
    }
    const Expected<bool> applied = apply_hub_result(options.scenario, *result);
    if (!applied) return "--hf: " + applied.failure().problem;
    options.file_report = result->report;
    options.file_json = hub_json_fields(*result);
    return {};
}

// "--config FILE": reads the file and makes its model the scenario's; returns an error message or "".
std::string load_config_file(const std::string& path, CliOptions& options) {
    std::ifstream file(path, std::ios::binary);
    if (!file) return "--config: cannot read \"" + printable_excerpt(path, 80) + "\"";
    // A directory opens as a stream on Linux but reads nothing: say what it is, not "is empty".
    if (file.peek() == std::ifstream::traits_type::eof() && file.bad())
        return "--config: \"" + printable_excerpt(path, 80) + "\" is not a readable file";
    // At most 4 MB + 1 byte: parse_config refuses anything larger, and /dev/zero or a FIFO must not
    // be read until memory runs out.
    std::string text(4 * 1024 * 1024 + 1, '\0');
    file.read(&text[0], static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(file.gcount()));
    const std::string shown = printable_excerpt(path, 80);
    Expected<ModelSource> source = model_from_config(text);
    if (!source) return "--config: " + shown + ": " + source.failure().message_without("config.json");  // the path names the file
    source.value().display_name = shown + " (" + (source->architecture.model_type.empty() ? std::string("unknown type") : source->architecture.model_type) + ")";
    for (const std::string& warning : source->architecture.warnings) options.warnings.push_back("--config: " + warning);
    options.scenario.param_count = source->counts.total_count;
    options.scenario.model = std::make_shared<const ModelSource>(std::move(source.value()));
    return {};
}

bool is_regular_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    return file && !(file.peek() == std::ifstream::traits_type::eof() && file.bad());
}

bool ends_with_ignoring_case(const std::string& text, const std::string& tail) {
    if (text.size() < tail.size()) return false;
    for (std::size_t i = 0; i < tail.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(text[text.size() - tail.size() + i])) != tail[i]) return false;
    return true;
}

// "--from-command 'llama-server -m x.gguf -c 32768 ...'": core reads the command into llm-memory's keys;
// here the model reference becomes a file read (a .gguf, a config.json or a folder holding one) or a preset.
std::string apply_from_command(const std::string& text, CliOptions& options) {
    const Expected<CommandReading> read = read_engine_command(text);
    if (!read) return "--from-command: " + read.error();
    const CommandReading& r = *read;
    std::string model_note;
    if (!r.model_ref.empty()) {
        const std::string& ref = r.model_ref;
        if (ends_with_ignoring_case(ref, ".gguf") && is_regular_file(ref)) {
            if (std::string problem = load_model_file("--from-command " + r.model_source, ref, options); !problem.empty()) return problem;
            model_note = "the GGUF file " + printable_excerpt(ref, 80);
            options.model_given = true;
        } else if (is_regular_file(ref + "/config.json") || (ends_with_ignoring_case(ref, "config.json") && is_regular_file(ref))) {
            const std::string path = ends_with_ignoring_case(ref, "config.json") ? ref : ref + "/config.json";
            if (std::string problem = load_config_file(path, options); !problem.empty()) return "--from-command: " + problem;
            model_note = printable_excerpt(path, 80);
            options.model_given = true;
        } else if (!r.preset_key.empty()) {
            const Expected<bool> applied = apply_setting(options.scenario, "model", r.preset_key);
            if (!applied) return "--from-command: " + applied.error();
            model_note = "the built-in model " + r.preset_key;
            if (!r.weight_dtype.empty()) {
                const Expected<bool> dtype = apply_setting(options.scenario, "dtype", r.weight_dtype);
                if (!dtype) return "--from-command: " + dtype.error();
                model_note += " in " + r.weight_dtype + " (from the name)";
            }
            options.model_given = true;
        } else {
            options.pending_model = "--from-command: the model \"" + printable_excerpt(ref, 80) +
                                    "\" is neither a built-in model nor a file here: add --model NAME, --config FILE or --gguf FILE";
        }
    }
    JsonWriter settings_json;
    settings_json.begin_object();
    std::string applied_text, unmodelled_by_build;
    for (const CommandSetting& s : r.settings) {
        settings_json.field(s.key, s.value);
        if (find_setting(s.key) == nullptr) {
            unmodelled_by_build += (unmodelled_by_build.empty() ? "" : ", ") + (s.key == "engine" ? "engine=" + s.value : s.source);
            continue;
        }
        const Expected<bool> applied = apply_setting(options.scenario, s.key, s.value);
        if (!applied) return "--from-command: " + s.source + ": " + applied.failure().problem;
        applied_text += " " + s.key + "=" + s.value;
    }
    if (!unmodelled_by_build.empty())
        options.warnings.push_back("--from-command: this build has no setting yet for " + unmodelled_by_build + " (read, not applied)");
    for (const std::string& u : r.unmodelled) options.warnings.push_back("--from-command: " + u);
    const std::string realised = engine_command_line(r.engine, r.model_ref, r.settings);
    options.command_report = "From the command (" + r.program + "):" + applied_text + (model_note.empty() ? "" : "; model: " + model_note) +
                             "\nThe command that realises it: " + realised + "\n";
    if (!r.ignored.empty()) {
        std::string list;
        for (const std::string& i : r.ignored) list += (list.empty() ? "" : ", ") + i;
        options.command_notes = "note: --from-command ignored (no effect on memory): " + list + "\n";
    }
    JsonWriter json;
    json.begin_object().field("engine", r.engine).field("program", r.program).field("model", r.model_ref).field("preset", r.preset_key);
    json.raw_field("settings", settings_json.end_object().text()).field("ignored", r.ignored).field("unmodelled", r.unmodelled);
    options.command_json = json.field("command", realised).end_object().take();
    return {};
}

// "--list-models": one line per preset with its exact total (and active) parameter count.
std::string list_models() {
    std::string out = "Built-in models (--model NAME; counts from each model's config.json fields):\n";
    for (const ModelPreset& preset : model_presets()) {
        const Expected<ModelSource> source = preset_model(preset);
        std::string line = std::string("  ") + preset.key;
        if (line.size() < 22) line.append(22 - line.size(), ' ');
        line += " " + std::string(preset.hf_id);
        if (line.size() < 60) line.append(60 - line.size(), ' ');
        if (!source) {
            out += line + " error: " + source.error() + "\n";
            continue;
        }
        line += " " + format_count_exact(source->counts.total_count);
        if (source->architecture.is_moe()) line += " (" + format_count_exact(source->counts.active_count) + " active)";
        out += line + "\n";
    }
    return out;
}

std::string usage() {
    std::string out =
        "Usage: llm-memory [options]\n"
        "Estimates the memory a large language model needs to run and to train.\n"
        "  weight = N x b;  inference = weight x overhead;  gradient+optimizer = N_trainable x k x state-bytes;\n"
        "  training = weight + gradient+optimizer.  GB = 10^9 bytes, GiB = 2^30 bytes.\n\n"
        "Scenario options (the same keys work in --state and in the web page's URL):\n";
    for (const SettingSpec& spec : setting_specs()) {
        std::string flag = std::string("  --") + spec.key + " " + spec.value_hint;
        flag.append(flag.size() < 22 ? 24 - flag.size() : 2, ' ');  // two spaces at least between the columns
        out += flag + spec.help + "\n";
    }
    out +=
        "  --state S             apply a URL-style state string: 'params=70B&bytes=2&trainable=1B'\n"
        "                        (a bad pair is an error, as for the flag it stands for)\n"
        "  --config FILE         a Hugging Face config.json: N becomes the model's exact parameter count\n"
        "  --gguf FILE           a GGUF model file (header only): exact weights, bytes per type, architecture\n"
        "  --safetensors FILE    a .safetensors file or model.safetensors.index.json (header only): bytes per dtype\n"
        "  --hf ID[:FILE]        a model on the Hugging Face Hub (org/name, org/name:file.gguf or a huggingface.co URL):\n"
        "                        its config.json and weight headers read over HTTP ranges (HF_ENDPOINT, HF_TOKEN,\n"
        "                        HF_HUB_OFFLINE, HF_HUB_DOWNLOAD_TIMEOUT; cached in $XDG_CACHE_HOME/llm-memory/hf)\n"
        "  --from-command CMD    a llama-server / llama-cli, vllm serve (or python -m vllm.entrypoints.openai.api_server)\n"
        "                        or ollama run command: its memory flags set the scenario, the rest are listed as ignored\n"
        "  --list-models         the built-in models for --model, with their exact parameter counts\n\n"
        "Output options:\n"
        "  --format F            table (default), json or markdown\n"
        "  --units U             GB, GiB or both (default both; JSON is always in bytes)\n"
        "  --help                this text\n"
        "  --version             the version\n\n"
        "Exit status: 0 on success; 2 for bad input (one \"error: --flag: problem\" line on stderr, nothing on stdout).\n\n"
        "Examples:\n"
        "  llm-memory --params 13B                      # 26 GB weights, 31.2 GB inference, 104 GB training\n"
        "  llm-memory --params 13B --trainable 1B       # 6 GB gradient+optimizer, 32 GB training\n"
        "  llm-memory --params 7B --format json\n"
        "  llm-memory check --question inference --state 'params=7B' --answer '14 GB'   # names the mistake\n"
        "  llm-memory fit --model llama-2-7b --gpu rtx-4090 --maximize context        # what fits, answered backwards\n"
        "  llm-memory --from-command 'llama-server -m Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf -c 32768 -fa -ctk q8_0'\n"
        "  llm-memory reconcile server.log              # a llama.cpp, Ollama or vLLM log: measured against estimated\n";
    return out;
}

std::string fit_usage() {
    return "Usage: llm-memory fit [--maximize KEY] [--minimize gpus|bytes|n-cpu-moe] [--layers-on-gpu] [options] [--format table|json]\n"
           "Answers backwards: what fits on the GPU of the scenario (--gpu NAME or --gpu-memory SIZE, with --gpus N).\n"
           "  --maximize KEY   the largest value that fits: context or batch (the detailed inference total:\n"
           "                   weights + KV cache + activations + reserve), seq-len or micro-batch (training)\n"
           "  --minimize W     gpus: the fewest GPUs (training at the --zero stage, inference split evenly);\n"
           "                   bytes: the named weight format with the most bits that fits;\n"
           "                   n-cpu-moe: with --engine llama.cpp and a MoE model, the fewest layers whose routed\n"
           "                   experts stay in host RAM (--n-cpu-moe N, the first N layers) so every GPU fits\n"
           "  --layers-on-gpu  llama.cpp -ngl: how many layers fit with their KV cache and the compute buffer,\n"
           "                   and how much stays in system RAM\n"
           "  --confidence C   training answers with a model: safe (default: the training peak's likely high end\n"
           "                   fits, the band of the reality table's runs) or typical (the estimated peak fits)\n"
           "  --KEY VALUE      any scenario option of llm-memory: --model, --context, --gpu, --gpus, --zero ...\n"
           "  --state S        the scenario as URL state: 'model=llama-2-7b&gpu=rtx-4090&context=8K'\n"
           "  --config FILE    a Hugging Face config.json, as for llm-memory\n"
           "  --gguf FILE      a GGUF model file (header only)\n"
           "  --safetensors FILE  a .safetensors file or its index (header only)\n"
           "  --hf ID[:FILE]   a model on the Hugging Face Hub, as for llm-memory\n"
           "  --format F       table (default) or json: one key per question, {\"context\":{...},\"gpus\":{...}}\n"
           "  --units U        GB, GiB or both (default both; JSON is always in bytes)\n"
           "Questions may be combined; with none, every one that applies is answered. Each answer comes with the\n"
           "estimate at that value. Exit status: 0 when answered; 2 for bad input, including a question asked by\n"
           "name that has no answer (nothing fits).\n"
           "Example: llm-memory fit --model llama-2-7b --gpu rtx-4090 --maximize context\n";
}

// Parses args into options; returns an error message ("" on success).
std::string parse_args(const std::vector<std::string>& args, CliOptions& options) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        if (arg == "--help" || arg == "-h") {
            options.help = true;
            continue;
        }
        if (arg == "--list-models") {
            options.list_models = true;
            continue;
        }
        if (arg == "--version") {
            options.version = true;
            continue;
        }
        if (arg.rfind("--", 0) != 0) return "unexpected argument \"" + printable_excerpt(arg, 40) + "\" (options start with --)";
        auto [name, value, has_value] = split_option(arg);
        const bool known = name == "format" || name == "units" || name == "state" || name == "config" || name == "gguf" ||
                           name == "safetensors" || name == "hf" || name == "from-command" || find_setting(name) != nullptr;
        if (!known) return "unknown option --" + printable_excerpt(name, 40) + " (see --help)";
        // Flags (kind flag, e.g. --qlora) may stand alone: "--qlora" means true.
        const SettingSpec* spec = find_setting(name);
        const bool optional_value = spec != nullptr && spec->kind == SettingKind::flag;
        if (!has_value && optional_value && (i + 1 >= args.size() || args[i + 1].rfind("--", 0) == 0)) {
            value = "true";
            has_value = true;
        }
        if (!has_value) {
            if (i + 1 >= args.size()) return "--" + name + ": needs a value";
            value = args[++i];
        }
        const Scenario before = options.scenario;
        if (name == "format") {
            if (value == "table") options.format = OutputFormat::table;
            else if (value == "json") options.format = OutputFormat::json;
            else if (value == "markdown" || value == "md") options.format = OutputFormat::markdown;
            else return "--format: \"" + printable_excerpt(value, 40) + "\" is not one of table, json, markdown";
        } else if (name == "units") {
            if (value == "GB" || value == "gb") options.units = UnitChoice::gb;
            else if (value == "GiB" || value == "gib") options.units = UnitChoice::gib;
            else if (value == "both") options.units = UnitChoice::both;
            else return "--units: \"" + printable_excerpt(value, 40) + "\" is not one of GB, GiB, both";
        } else if (name == "config") {
            if (std::string message = load_config_file(value, options); !message.empty()) return message;
            options.model_given = true;
        } else if (name == "gguf") {
            if (std::string message = load_model_file("--gguf", value, options); !message.empty()) return message;
            options.model_given = true;
        } else if (name == "safetensors") {
            if (std::string message = load_model_file("--safetensors", value, options); !message.empty()) return message;
            options.model_given = true;
        } else if (name == "hf") {
            if (std::string message = load_hub_model(value, options); !message.empty()) return message;
            options.model_given = true;
        } else if (name == "from-command") {
            if (std::string message = apply_from_command(value, options); !message.empty()) return message;
        } else if (name == "state") {
            if (std::string message = apply_state_arg(options.scenario, value); !message.empty()) return message;
        } else if (name == "draft-model" && !apply_setting(options.scenario, name, value)) {
            // --draft-model FILE (not a built-in model): llama.cpp's -md GGUF, read header only.
            if (!std::ifstream(value).good())
                return "--draft-model: \"" + printable_excerpt(value, 80) + "\" is neither a built-in model (--list-models) nor a file it can read";
            if (std::string message = load_draft_file(value, options); !message.empty()) return message;
        } else if (name == "mmproj" && !apply_setting(options.scenario, name, value)) {
            // --mmproj FILE (not true or false): llama.cpp's projector file, read header only as --gguf reads a model.
            if (!std::ifstream(value).good())
                return "--mmproj: \"" + printable_excerpt(value, 80) + "\" is neither true nor false, nor a file it can read";
            if (std::string message = load_model_file("--mmproj", value, options, true); !message.empty()) return message;
        } else {
            const Expected<bool> applied = apply_setting(options.scenario, name, value);
            if (!applied) return "--" + applied.error();
            if (name == "model") options.model_given = true;
        }
        options.sources.record(before, options.scenario, name);
    }
    if (!options.pending_model.empty() && !options.model_given) return options.pending_model;
    follow_engine_gpus(options.scenario);
    return {};
}

}  // namespace

// `llm-memory fit`: the fit questions are taken out of the arguments, the rest are the estimate command's.
static int run_fit(const std::vector<std::string>& args, std::string& out, std::string& err) {
    auto fail = [&](const std::string& message) {
        out.clear();
        err = "error: " + message + "\n";
        return 2;
    };
    std::vector<FitQuestion> questions;
    std::vector<std::string> names;  // "--maximize context", as the user wrote each question
    std::vector<std::string> rest;
    auto add = [&](const FitQuestion& q, const std::string& name) {
        for (const FitQuestion& seen : questions)
            if (seen.kind == q.kind && seen.key == q.key) return;
        questions.push_back(q);
        names.push_back(name);
    };
    bool cpu_moe = false;  // --minimize n-cpu-moe: llama.cpp's expert layers on the CPU (core/engines)
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].rfind("--", 0) != 0 || args[i] == "--help") {  // --help: after every value is checked
            rest.push_back(args[i]);
            continue;
        }
        auto [name, value, has_value] = split_option(args[i]);
        if (name == "layers-on-gpu") {
            if (has_value) return fail("--layers-on-gpu: takes no value");
            add({FitQuestionKind::layers_on_gpu, {}}, "--layers-on-gpu");
            continue;
        }
        if (name != "maximize" && name != "minimize") {
            rest.push_back(args[i]);
            // A value-taking option's value is passed on with it (so "--params --maximize" stays an error there).
            if (!has_value && i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) rest.push_back(args[++i]);
            continue;
        }
        if (!has_value) {
            if (i + 1 >= args.size()) return fail("--" + name + ": needs a value");
            value = args[++i];
        }
        if (name == "minimize" && trim(value) == "n-cpu-moe") {
            cpu_moe = true;
            continue;
        }
        const Expected<FitQuestion> q = parse_fit_question(name, value);
        if (!q) return fail("--" + name + ": " + q.error());
        add(*q, "--" + name + " " + (q->kind == FitQuestionKind::maximize ? q->key : std::string(trim(value))));
    }
    CliOptions options;
    if (std::string message = parse_args(rest, options); !message.empty()) return fail(message);
    if (options.help) {
        out = fit_usage();
        return 0;
    }
    if (options.format == OutputFormat::markdown) return fail("--format: fit prints table or json");
    const Expected<Estimate> base = estimate(options.scenario);
    if (!base) return fail(options.sources.with_option(base.failure()));
    if (cpu_moe) {
        if (!questions.empty()) return fail("--minimize n-cpu-moe is answered alone (ask the other questions separately)");
        const Expected<CpuMoeAnswer> a = llama_cpp_fewest_cpu_moe(options.scenario);
        if (!a) return fail(options.sources.with_option(a.failure()));
        if (options.format == OutputFormat::json) {
            JsonWriter w;
            w.begin_object().key("n_cpu_moe").begin_object();
            w.field("found", a->found).field("n_cpu_moe", a->n_cpu_moe).field("expert_bytes", a->expert_bytes).field("sentence", a->sentence);
            w.raw_field("engine", engine_json(a->estimate)).end_object().end_object();
            out = w.take() + "\n";
        } else {
            out = "Fewest expert layers on the CPU (llama.cpp --n-cpu-moe)\n  " + a->sentence + "\n" + a->estimate.verdict + "\nCommand: " +
                  a->estimate.command + "\n";
        }
        return 0;
    }
    std::vector<FitReport> reports;
    if (questions.empty()) {
        if (!base->gpu.requested) return fail("fit: needs a GPU: give --gpu NAME or --gpu-memory SIZE (and --gpus N)");
        reports = engine_answer_applicable_fit_questions(options.scenario);
    } else {
        for (std::size_t i = 0; i < questions.size(); ++i) {
            Expected<FitReport> r = engine_answer_fit_question(options.scenario, questions[i]);
            if (!r) return fail(names[i] + ": " + r.failure().problem);
            reports.push_back(std::move(r.value()));
        }
    }
    for (const std::string& warning : options.warnings) err += "warning: " + warning + "\n";
    std::vector<JsonField> leading;
    if (options.scenario.engine.kind != EngineKind::none) {
        // The engine's own answer in its flags: llama.cpp's --fit (-c, -ngl), vLLM's --max-model-len auto.
        Expected<EngineEstimate> engine = engine_estimate(options.scenario);
        if (!engine) return fail(options.sources.with_option(engine.failure()));
        if (engine->kind == EngineKind::vllm && engine->auto_context_tokens > 0 && engine->auto_context_tokens != engine->context_tokens) {
            Scenario chosen = options.scenario;
            chosen.context_tokens = engine->auto_context_tokens;
            if (Expected<EngineEstimate> again = engine_estimate(chosen)) engine = std::move(again);
        }
        const std::string flags = engine_fit_flags(*engine);
        if (options.format == OutputFormat::json) {
            for (const auto& [key, text] : {std::pair<const char*, const std::string&>{"engine_flags", flags},
                                            {"engine_command", engine->command},
                                            {"engine_verdict", engine->verdict}})
                leading.push_back({key, JsonWriter().value(text).take()});
        } else {
            out = engine->name + " flags that fit: " + (flags.empty() ? "(none: the engine has no such flags)" : flags) + "\n" + engine->verdict + "\n" +
                  "Command: " + engine->command + "\n\n";
        }
    }
    out += options.format == OutputFormat::json ? fit_json(reports, leading) + "\n" : fit_text(reports, options.units);
    return 0;
}

static std::string reconcile_usage() {
    return "Usage: llm-memory reconcile FILE|- [options] [--format table|json]\n"
           "Reads an engine's log and sets the scenario from what the log says (context, n_ubatch, flash attention,\n"
           "cache types, offloaded layers, GPUs; vLLM's utilization, max_model_len, tensor parallelism), then prints\n"
           "measured against estimated, term by term, with the likely cause of each gap.\n"
           "  FILE             a llama.cpp / llama-server load log, Ollama's server log or `ollama ps`, a vLLM start-up\n"
           "                   log, or nvidia-smi output; - reads standard input\n"
           "  --KEY VALUE      any scenario option, for what the log does not say (--model, --gguf, --gpu ...)\n"
           "Tolerances: KV cache 3 %, weights 5 %, compute buffer and activation peak 20 %, vLLM pool and capacity 25 %.\n"
           "Exit status: 0 when reconciled (gaps are reported, not failures); 2 for bad input or a log with no memory line.\n";
}

// `llm-memory reconcile FILE|-`: the log's settings first, then the user's options (which win), then the
// estimate's JSON against the log's figures (core/engines/engine_log.hpp).
static int run_reconcile(const std::vector<std::string>& args, std::string& out, std::string& err) {
    auto fail = [&](const std::string& message) {
        out.clear();
        err = "error: reconcile: " + message + "\n";
        return 2;
    };
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        out = reconcile_usage();
        return 0;
    }
    if (args.empty() || (args[0].rfind("--", 0) == 0)) return fail("needs a log file (or - for standard input) before the options");
    const std::string& path = args[0];
    std::string text;
    constexpr std::size_t kMaxLogBytes = 16u * 1024 * 1024;
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream file(path, std::ios::binary);
        if (!file) return fail("cannot read \"" + printable_excerpt(path, 80) + "\"");
        if (file.peek() == std::ifstream::traits_type::eof() && file.bad()) return fail("\"" + printable_excerpt(path, 80) + "\" is not a readable file");
        text.assign(kMaxLogBytes + 1, '\0');
        file.read(&text[0], static_cast<std::streamsize>(text.size()));
        text.resize(static_cast<std::size_t>(file.gcount()));
    }
    const std::string shown = path == "-" ? std::string("standard input") : printable_excerpt(path, 80);
    const Expected<LogReading> log = read_engine_log(text);
    if (!log) return fail(shown + ": " + log.error());
    // The log's settings as options, then the user's.
    std::vector<std::string> merged;
    std::vector<std::string> not_applied;
    bool user_model = false;
    for (std::size_t i = 1; i < args.size(); ++i)
        user_model = user_model || args[i] == "--model" || args[i] == "--config" || args[i] == "--gguf" ||
                     args[i].rfind("--model=", 0) == 0 || args[i].rfind("--config=", 0) == 0 || args[i].rfind("--gguf=", 0) == 0;
    std::string model_note;
    if (!user_model && !log->model_ref.empty()) {
        const ModelReference m = match_model_reference(log->model_ref, log->kind == "ollama ps");
        if (!m.preset_key.empty()) {
            merged.push_back("--model=" + m.preset_key);
            model_note = m.preset_key;
        }
    }
    for (const CommandSetting& s : log->settings) {
        if (find_setting(s.key) == nullptr) {
            not_applied.push_back(s.key + "=" + s.value);
            continue;
        }
        merged.push_back("--" + s.key + "=" + s.value);
    }
    bool format_json = false;
    for (std::size_t i = 1; i < args.size(); ++i) {
        merged.push_back(args[i]);
        if ((args[i] == "--format" && i + 1 < args.size() && args[i + 1] == "json") || args[i] == "--format=json") format_json = true;
    }
    CliOptions options;
    if (std::string message = parse_args(merged, options); !message.empty()) return fail(message);
    if (options.help) {
        out = reconcile_usage();
        return 0;
    }
    if (!options.model_given && options.scenario.model == nullptr)
        return fail(shown + ": the log " + (log->model_ref.empty() ? std::string("does not name its model") : "loads \"" + printable_excerpt(log->model_ref, 80) + "\", which is not a built-in model") +
                    ": give --model NAME, --config FILE or --gguf FILE");
    const Expected<Estimate> result = estimate(options.scenario);
    if (!result) return fail(options.sources.with_option(result.failure()));
    const Expected<std::vector<ReconcileRow>> rows = reconcile_log(*log, report_json(options.scenario, *result));
    if (!rows) return fail(rows.error());
    for (const std::string& warning : options.warnings) err += "warning: " + warning + "\n";
    if (!not_applied.empty()) {
        std::string list;
        for (const std::string& n : not_applied) list += (list.empty() ? "" : ", ") + n;
        err += "note: this build has no setting yet for " + list + " (read from the log, not applied)\n";
    }
    if (!format_json) {
        out = reconcile_text(*log, *rows);
        if (!model_note.empty()) out += "model: the built-in " + model_note + " (from the log's \"" + printable_excerpt(log->model_ref, 60) + "\")\n";
        return 0;
    }
    out = reconcile_json(*log, *rows, not_applied) + "\n";
    return 0;
}

int run_cli(const std::vector<std::string>& args, std::string& out, std::string& err) {
    if (!args.empty() && args[0] == "check")  // practice answers: cli/check.cpp
        return run_check(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
    if (!args.empty() && args[0] == "fit")  // what fits, answered backwards: core/fit.hpp
        return run_fit(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
    if (!args.empty() && args[0] == "reconcile")  // a log read back: core/engines/engine_log.hpp
        return run_reconcile(std::vector<std::string>(args.begin() + 1, args.end()), out, err);
    if (args.size() == 1 && args[0] == "--bash-completion") {  // hidden: the build generates the completion file
        out = bash_completion_script();
        return 0;
    }
    CliOptions options;
    if (std::string message = parse_args(args, options); !message.empty()) {
        err = "error: " + message + "\n";
        return 2;
    }
    if (options.help) {
        out = usage();
        return 0;
    }
    if (options.list_models) {
        out = list_models();
        return 0;
    }
    if (options.version) {
        out = std::string("llm-memory ") + LLM_MEMORY_VERSION + "\n";
        return 0;
    }
    const Expected<Estimate> result = estimate(options.scenario);
    if (!result) {
        err = "error: " + options.sources.with_option(result.failure()) + "\n";
        return 2;
    }
    for (const std::string& warning : options.warnings) err += "warning: " + warning + "\n";
    err += options.command_notes;
    switch (options.format) {
        case OutputFormat::json: {
            std::vector<JsonField> leading;
            if (!options.command_json.empty()) leading.push_back({"from_command", options.command_json});
            leading.insert(leading.end(), options.file_json.begin(), options.file_json.end());
            out = report_json(options.scenario, *result, leading) + "\n";
            break;
        }
        case OutputFormat::markdown: out = report_markdown(options.scenario, *result, options.units); break;
        case OutputFormat::table: out = report_table(options.scenario, *result, options.units); break;
    }
    if (options.format != OutputFormat::json && !options.file_report.empty()) out = options.file_report + "\n" + out;
    if (options.format != OutputFormat::json && !options.command_report.empty()) out = options.command_report + "\n" + out;
    return 0;
}

}  // namespace llm_memory
