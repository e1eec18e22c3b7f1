// Bash completion generated from the settings table and the help text (see completion.hpp).
// A value word is offered for an option only when running the command with it does not fail naming that
// option; an option that accepts a nonsense word takes free text and gets no value words.
#include "completion.hpp"
#include "cli.hpp"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "../core/formats.hpp"
#include "../core/gpus.hpp"
#include "../core/model_presets.hpp"
#include "../core/practice.hpp"
#include "../core/recipes.hpp"
#include "../core/settings.hpp"

namespace llm_memory {
namespace {

struct OptionInfo {
    std::string name;           // without "--"
    std::string value_hint;     // "NAME", "FILE", "[BOOL]", or "" for a flag without a value
    std::string help;           // its help text (continuation lines joined)
    std::vector<std::string> words;  // value words to offer
};

struct CommandInfo {
    std::string name;  // "" for the estimate command, else the subcommand ("check")
    std::vector<OptionInfo> options;
};

int run(const std::vector<std::string>& args, std::string& err) {
    std::string out;
    err.clear();
    return run_cli(args, out, err);
}

std::string help_of(const std::string& command) {
    std::string out;
    std::string err;
    if (command.empty()) run_cli({"--help"}, out, err);
    else run_cli({command, "--help"}, out, err);
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return lines;
}

bool is_option_char(char c) { return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '-'; }

// "  --name HINT   help" lines of a help text, with more-indented lines after them joined to their help.
std::vector<OptionInfo> options_in_help(const std::string& help) {
    std::vector<OptionInfo> options;
    std::size_t help_column = 0;
    for (const std::string& line : lines_of(help)) {
        const std::size_t indent = line.find_first_not_of(' ');
        if (indent == std::string::npos) continue;
        if (indent >= 2 && line.compare(indent, 2, "--") == 0 && indent + 2 < line.size() &&
            std::islower(static_cast<unsigned char>(line[indent + 2]))) {
            OptionInfo option;
            std::size_t pos = indent + 2;
            while (pos < line.size() && is_option_char(line[pos])) option.name += line[pos++];
            if (pos < line.size() && line[pos] == ' ' && pos + 1 < line.size() && line[pos + 1] != ' ') {
                const std::size_t hint_end = line.find(' ', pos + 1);
                option.value_hint = line.substr(pos + 1, hint_end == std::string::npos ? std::string::npos : hint_end - pos - 1);
                pos = hint_end == std::string::npos ? line.size() : hint_end;
            }
            const std::size_t text_start = line.find_first_not_of(' ', pos);
            help_column = text_start == std::string::npos ? line.size() : text_start;
            if (text_start != std::string::npos) option.help = line.substr(text_start);
            options.push_back(option);
        } else if (!options.empty() && help_column > 0 && indent >= help_column) {
            options.back().help += " " + line.substr(indent);
        } else {
            help_column = 0;
        }
    }
    return options;
}

// Words of a help text that could be a value: they start with a letter ("bf16", "rtx-4090", "json").
std::set<std::string> words_in(const std::string& text) {
    std::set<std::string> words;
    std::string word;
    auto flush = [&] {
        while (!word.empty() && (word.back() == '.' || word.back() == '-')) word.pop_back();
        if (!word.empty() && std::isalpha(static_cast<unsigned char>(word[0]))) words.insert(word);
        word.clear();
    };
    for (char c : text) {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') word += c;
        else flush();
    }
    flush();
    return words;
}

// Keys of core's catalogues: candidates for options whose help does not list them (--model NAME).
std::set<std::string> catalogue_words() {
    std::set<std::string> words{"true", "false"};
    for (const ModelPreset& preset : model_presets()) words.insert(preset.key);
    for (const WeightFormat& format : weight_formats()) words.insert(format.key);
    for (const Gpu& gpu : gpu_catalogue()) words.insert(gpu.key);
    for (const Recipe& recipe : recipes()) words.insert(recipe.key);
    for (QuestionId question : all_questions()) words.insert(question_key(question));
    return words;
}

bool takes_value(const OptionInfo& option) { return !option.value_hint.empty(); }

// Whether `command --option=value --help` parses without an error naming the option.
bool accepts(const CommandInfo& command, const OptionInfo& option, const std::string& value) {
    std::vector<std::string> args;
    if (!command.name.empty()) args.push_back(command.name);
    args.push_back("--" + option.name + "=" + value);
    args.push_back("--help");  // stop after parsing: a combination checked later is not the value's fault
    std::string err;
    run(args, err);
    const std::string named = "--" + option.name + ":";
    return err.rfind("error: " + named, 0) != 0 && err.rfind("error: " + command.name + ": " + named, 0) != 0;
}

// Whether the command knows the option at all (the parser does not call it unknown).
bool knows(const CommandInfo& command, const std::string& name) {
    std::vector<std::string> args;
    if (!command.name.empty()) args.push_back(command.name);
    args.push_back("--" + name);
    std::string err;
    run(args, err);
    return err.find("unknown option --" + name) == std::string::npos;
}

CommandInfo describe(const std::string& name) {
    CommandInfo command{name, {}};
    std::vector<OptionInfo> candidates = options_in_help(help_of(name));
    // Every settings row is a candidate too: subcommands take the scenario options without listing them.
    for (const SettingSpec& spec : setting_specs()) {
        const auto same = [&](const OptionInfo& o) { return o.name == spec.key; };
        auto found = std::find_if(candidates.begin(), candidates.end(), same);
        if (found == candidates.end()) candidates.push_back({spec.key, spec.value_hint, spec.help, {}});
        else found->help += std::string(" ") + spec.help;
    }
    const std::set<std::string> catalogue = catalogue_words();
    for (OptionInfo& option : candidates) {
        if (option.name == "h" || !knows(command, option.name)) continue;
        if (std::any_of(command.options.begin(), command.options.end(), [&](const OptionInfo& o) { return o.name == option.name; }))
            continue;
        if (takes_value(option) && option.value_hint != "FILE" && !accepts(command, option, "zz-not-a-value")) {
            std::set<std::string> candidates_words = words_in(option.help);
            candidates_words.insert(catalogue.begin(), catalogue.end());
            for (const std::string& word : candidates_words)
                if (accepts(command, option, word)) option.words.push_back(word);
        }
        command.options.push_back(option);
    }
    return command;
}

// Subcommands named in the main help ("llm-memory check ...") that answer --help with their own usage.
std::vector<std::string> subcommands() {
    const std::string help = help_of("");
    std::vector<std::string> names;
    const std::string prefix = "llm-memory ";
    for (std::size_t pos = help.find(prefix); pos != std::string::npos; pos = help.find(prefix, pos + 1)) {
        std::string word;
        for (std::size_t i = pos + prefix.size(); i < help.size() && is_option_char(help[i]); ++i) word += help[i];
        if (word.empty() || word[0] == '-' || std::find(names.begin(), names.end(), word) != names.end()) continue;
        if (help_of(word).rfind("Usage: llm-memory " + word, 0) == 0) names.push_back(word);
    }
    return names;
}

std::string join(const std::vector<std::string>& items, const char* separator = " ") {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

std::string case_label(const std::string& command) { return command.empty() ? "main" : command; }

}  // namespace

std::string bash_completion_script() {
    std::vector<CommandInfo> commands{describe("")};
    const std::vector<std::string> subs = subcommands();
    for (const std::string& sub : subs) commands.push_back(describe(sub));

    std::string s =
        "# bash completion for llm-memory. Generated by `llm-memory --bash-completion` from the settings\n"
        "# table and the help text of each command; do not edit.\n"
        "_llm_memory() {\n"
        "    local cur prev words cword split=false\n"
        "    if declare -F _init_completion >/dev/null; then\n"
        "        _init_completion -s || return\n"
        "    else\n"
        "        words=(\"${COMP_WORDS[@]}\"); cword=$COMP_CWORD; cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "    fi\n"
        "    local command=main\n"
        "    case ${words[1]-} in " + join(subs, "|") + (subs.empty() ? "__none__" : "") + ") ((cword > 1)) && command=${words[1]} ;; esac\n"
        "    case $command:$prev in\n";
    for (const CommandInfo& command : commands) {
        for (const OptionInfo& option : command.options) {
            if (!takes_value(option) || (option.value_hint == "[BOOL]" && option.words.empty())) continue;
            s += "        " + case_label(command.name) + ":--" + option.name + ")\n";
            if (option.value_hint == "[BOOL]")  // the value is optional: "--qlora --params 7B" is fine
                s += "            if [[ $cur != -* ]]; then COMPREPLY=($(compgen -W '" + join(option.words) + "' -- \"$cur\")); return; fi ;;\n";
            if (option.value_hint == "[BOOL]") continue;
            if (option.value_hint == "FILE")
                s += "            if declare -F _filedir >/dev/null; then _filedir; else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n";
            else if (!option.words.empty())
                s += "            COMPREPLY=($(compgen -W '" + join(option.words) + "' -- \"$cur\"))\n";
            else
                s += "            COMPREPLY=()  # " + option.value_hint + ": free text\n";
            s += "            return ;;\n";
        }
    }
    s += "    esac\n"
         "    $split && return\n"
         "    local options\n"
         "    case $command in\n";
    for (const CommandInfo& command : commands) {
        std::vector<std::string> names;
        for (const OptionInfo& option : command.options) names.push_back("--" + option.name);
        s += "        " + case_label(command.name) + ") options='" + join(names) + "' ;;\n";
    }
    s += "    esac\n"
         "    if [[ $cur == -* ]]; then\n"
         "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))\n"
         "    elif ((cword == 1)); then\n"
         "        COMPREPLY=($(compgen -W '" + join(subs) + "' -- \"$cur\"))\n"
         "    fi\n"
         "} &&\n"
         "complete -F _llm_memory llm-memory\n";
    return s;
}

}  // namespace llm_memory
