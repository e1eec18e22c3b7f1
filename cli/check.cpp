// The `check` subcommand: --question ID --answer TEXT, the scenario from --state and/or the settings
// table's flags (--params 7B ...), output as text (default) or --format json.
// A bad --state pair is an error, as in the estimate command (cli/state_arg.hpp): checking an answer
// against a scenario the learner did not mean would diagnose the wrong thing.
#include "check.hpp"
#include "option_arg.hpp"
#include "state_arg.hpp"

#include "../core/practice.hpp"
#include "../core/quantity.hpp"
#include "../core/settings.hpp"

namespace llm_memory {
namespace {

std::string check_usage() {
    return "Usage: llm-memory check --question ID --answer TEXT [--state S] [scenario options] [--format text|json]\n"
           "Checks an answer to one practice question and names the mistake behind a wrong one.\n"
           "  --question ID   weight, inference, gradient-optimizer, training, reduction,\n"
           "                  mixed-precision-training (the training total under the adamw-mixed recipe),\n"
           "                  or of an engine: llama-compute, vllm-need, llama-split-total\n"
           "  --answer TEXT   16.8, 16.8 GB, 15.65 GiB, 1.68e10 bytes, 16,800 MB (a bare number is GB;\n"
           "                  a bare number of a million or more is bytes). Right within 1%.\n"
           "  --state S       the scenario as URL state: 'params=7B&trainable=1B' (default: the seed's 13B)\n"
           "  --KEY VALUE     any scenario option of llm-memory (--params 7B --bytes 1 ...)\n"
           "  --format F      text (default) or json:\n"
           "                  {\"correct\":…,\"mistake\":ID or null,\"explanation\":…,\"expected_bytes\":…,…}\n"
           "Mistake ids: weights-as-inference, one-value-per-trainable, freezing-removes-weights,\n"
           "  training-without-weights, overhead-on-training, wrong-bytes-per-parameter, compute-by-context,\n"
           "  utilization-as-need, one-compute-buffer, moe-active-for-memory, drafter-kv-small,\n"
           "  projector-as-file-size, gib-gb-mixup.\n"
           "Exit status: 0 when the answer was checked (right or wrong); 2 for bad input, including an\n"
           "answer that is not an amount of memory.\n"
           "Example: llm-memory check --question inference --state 'params=7B' --answer '14 GB' --format json\n";
}

std::string text_report(const CheckResult& r) {
    std::string out;
    if (r.correct) {
        out += "Right.\n";
    } else {
        out += r.mistake ? std::string("Wrong: ") + mistake_key(*r.mistake) + "\n" : std::string("Wrong.\n");
    }
    out += "Your answer: " + format_gb(r.answer.bytes) + " (" + format_count_exact(r.answer.bytes) + " bytes)\n";
    out += "Expected:    " + format_gb(r.expected_bytes) + " (" + format_gib(r.expected_bytes) + ", " +
           format_count_exact(r.expected_bytes) + " bytes)\n";
    out += r.explanation + "\n";
    return out;
}

}  // namespace

int run_check(const std::vector<std::string>& args, std::string& out, std::string& err) {
    Scenario scenario;
    std::string question_text;
    std::string answer_text;
    bool have_question = false;
    bool have_answer = false;
    bool json = false;
    SettingSources sources;  // which option set each setting last (for the final estimate's error)
    auto fail = [&](const std::string& message) {
        out.clear();
        err = "error: " + message + "\n";
        return 2;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg == "--help" || arg == "-h") {
            out = check_usage();
            return 0;
        }
        if (arg.rfind("--", 0) != 0)
            return fail("check: unexpected argument \"" + printable_excerpt(arg, 40) + "\" (options start with --)");
        auto [name, value, has_value] = split_option(arg);
        const bool known = name == "question" || name == "answer" || name == "state" || name == "format" ||
                           find_setting(name) != nullptr;
        if (!known) return fail("check: unknown option --" + printable_excerpt(name, 40) + " (see llm-memory check --help)");
        if (!has_value) {
            if (i + 1 >= args.size()) return fail("--" + name + ": needs a value");
            value = args[++i];
        }
        const Scenario before = scenario;
        if (name == "question") {
            // Checked where it is read, so a bad id is named even when --answer is missing too.
            if (const Expected<QuestionId> id = parse_question_id(value); !id) return fail("--" + id.error());
            question_text = value;
            have_question = true;
        } else if (name == "answer") {
            answer_text = value;
            have_answer = true;
        } else if (name == "format") {
            if (value == "json") json = true;
            else if (value == "text") json = false;
            else return fail("--format: \"" + printable_excerpt(value, 40) + "\" is not one of text, json");
        } else if (name == "state") {
            if (std::string message = apply_state_arg(scenario, value); !message.empty()) return fail(message);
        } else {
            const Expected<bool> applied = apply_setting(scenario, name, value);
            if (!applied) return fail("--" + applied.error());
        }
        sources.record(before, scenario, name);
    }
    if (!have_question)
        return fail("check: --question is required (weight, inference, gradient-optimizer, training, reduction, "
                    "mixed-precision-training)");
    if (!have_answer) return fail("check: --answer is required (e.g. --answer '16.8 GB')");
    const Expected<QuestionId> question = parse_question_id(question_text);
    if (!question) return fail("--" + question.error());
    const Expected<CheckResult> result = check_answer(*question, scenario, answer_text);
    if (!result) return fail(sources.with_option(result.failure()));
    out = json ? check_result_json(*result) + "\n" : text_report(*result);
    return 0;
}

}  // namespace llm_memory
