// The settings table as a form (see settings_form.hpp). Labels and units sit beside the table, keyed by the
// setting's key; a key without a row here is still listed, with its key as label (a test checks there is none).
#include "settings_form.hpp"

#include <cstring>
#include <vector>

#include "formats.hpp"
#include "gpus.hpp"
#include "model_presets.hpp"
#include "quantity.hpp"
#include "recipes.hpp"
#include "report.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

using Choices = std::vector<std::pair<std::string, std::string>>;

struct FormRow {
    const char* key;
    const char* label;
    const char* unit;
    const char* kind;
    // The value a field shows when the settings table's show() leaves it out (the default), else nullptr.
    std::string (*shown_default)(const Scenario& s);
    Choices (*choices)();
};

std::string whole(std::uint64_t n) { return std::to_string(n); }

Choices model_choices() {
    Choices out{{"", "none (type the parameter count)"}};
    for (const ModelPreset& p : model_presets()) out.emplace_back(p.key, std::string(p.family) + ": " + p.key);
    return out;
}
Choices dtype_choices() {
    Choices out{{"", "none (use bytes per parameter)"}};
    for (const WeightFormat& f : weight_formats()) out.emplace_back(f.key, f.label);
    return out;
}
Choices recipe_choices() {
    Choices out;
    for (const Recipe& r : recipes()) out.emplace_back(r.key, r.label);
    return out;
}
Choices gpu_choices() {
    Choices out{{"", "none"}};
    for (const Gpu& g : gpu_catalogue()) out.emplace_back(g.key, g.label);
    return out;
}
Choices mode_choices() { return {{"simple", "simple: weights x overhead"}, {"detailed", "detailed: weights + KV cache + activations + reserve"}}; }
Choices training_mode_choices() {
    return {{"simple", "simple: weights + gradients + optimizer states"},
            {"detailed", "detailed: + activations, logits and loss, framework memory (peak per GPU)"}};
}
Choices recompute_choices() {
    return {{"none", "none: keep every tensor the backward pass needs"},
            {"selective", "selective: recompute the attention scores"},
            {"full", "full: keep one tensor per layer, recompute the rest"}};
}
Choices attention_choices() {
    return {{"flash", "flash: FlashAttention / SDPA, no s x s scores kept"}, {"eager", "eager: softmax scores kept"}};
}
Choices loss_choices() {
    return {{"full", "full: all logits, an fp32 copy, the saved log-softmax, its gradient"}, {"chunked", "chunked: fp32 one chunk of 8 at a time"}};
}
Choices zero_choices() {
    return {{"0", "0: none"}, {"1", "1: optimizer states split"}, {"2", "2: + gradients split"}, {"3", "3: + weights split"}};
}

const FormRow kRows[] = {
    {"model", "Model", "", "choice", nullptr, model_choices},
    {"text-only", "Text only (no vision tower)", "", "bool", nullptr, nullptr},
    {"params", "Parameters (N)", "parameters", "count", nullptr, nullptr},
    {"bytes", "Bytes per parameter (b)", "bytes", "number", [](const Scenario& s) { return format_decimal(s.bytes_per_param); }, nullptr},
    {"overhead", "Overhead factor", "x weights", "number", [](const Scenario& s) { return format_decimal(s.overhead_factor); }, nullptr},
    {"trainable", "Trainable parameters", "parameters or %", "text", [](const Scenario&) { return std::string("all"); }, nullptr},
    {"k", "Values per trainable parameter (k)", "values", "number", [](const Scenario& s) { return format_decimal(s.values_per_trainable); }, nullptr},
    {"state-bytes", "Bytes per stored value", "bytes", "number", [](const Scenario& s) { return format_decimal(s.bytes_per_value); }, nullptr},
    {"dtype", "Weight format", "", "choice", nullptr, dtype_choices},
    {"recipe", "Training recipe", "", "choice", [](const Scenario& s) { return s.recipe; }, recipe_choices},
    {"lora-rank", "LoRA rank", "", "count", [](const Scenario& s) { return whole(s.lora_rank); }, nullptr},
    {"lora-targets", "LoRA target modules", "", "text", [](const Scenario& s) { return s.lora_targets; }, nullptr},
    {"qlora", "QLoRA (4-bit NF4 base)", "", "bool", nullptr, nullptr},
    {"context", "Context length", "tokens", "count", [](const Scenario& s) { return whole(s.context_tokens); }, nullptr},
    {"images", "Images per sequence", "images", "count", [](const Scenario& s) { return whole(s.image_count); }, nullptr},
    {"image-size", "Image size", "W x H pixels", "text", nullptr, nullptr},
    {"batch", "Batch size", "sequences", "count", [](const Scenario& s) { return whole(s.batch_size); }, nullptr},
    {"kv-dtype", "KV-cache format", "", "text", [](const Scenario& s) { return s.kv_dtype; }, nullptr},
    {"inference-mode", "Inference mode", "", "choice", [](const Scenario&) { return std::string("simple"); }, mode_choices},
    {"training-mode", "Training mode", "", "choice", [](const Scenario&) { return std::string("simple"); }, training_mode_choices},
    {"seq-len", "Training sequence length", "tokens", "count", [](const Scenario& s) { return whole(s.seq_len); }, nullptr},
    {"micro-batch", "Micro-batch", "sequences per GPU", "count", [](const Scenario& s) { return whole(s.micro_batch); }, nullptr},
    {"recompute", "Activation recompute", "", "choice", [](const Scenario&) { return std::string("none"); }, recompute_choices},
    {"attention", "Attention kernel", "", "choice", [](const Scenario&) { return std::string("flash"); }, attention_choices},
    {"loss", "Loss", "", "choice", [](const Scenario&) { return std::string("full"); }, loss_choices},
    {"tp", "Tensor parallel (tp)", "GPUs", "count", [](const Scenario& s) { return whole(s.tp); }, nullptr},
    {"sp", "Sequence parallel (sp)", "", "bool", nullptr, nullptr},
    {"pp", "Pipeline stages (pp)", "stages", "count", [](const Scenario& s) { return whole(s.pp); }, nullptr},
    {"framework-overhead", "Framework memory per GPU", "GB or GiB, or auto", "text", [](const Scenario&) { return std::string("auto"); }, nullptr},
    {"allocator-margin", "Allocator margin", "%", "number", [](const Scenario& s) { return format_decimal(s.allocator_margin_percent); }, nullptr},
    {"gpu", "GPU", "", "choice", nullptr, gpu_choices},
    {"gpus", "Number of GPUs", "GPUs", "count", [](const Scenario& s) { return whole(s.gpu_count); }, nullptr},
    {"zero", "ZeRO/FSDP stage", "", "choice", [](const Scenario&) { return std::string("0"); }, zero_choices},
    {"gpu-memory", "Custom memory per GPU", "GB or GiB", "text", nullptr, nullptr},
    {"tensor-split", "Tensor split (per GPU)", "proportions", "text", nullptr, nullptr},
};

const FormRow* find_row(const char* key) {
    for (const FormRow& row : kRows)
        if (std::strcmp(row.key, key) == 0) return &row;
    return nullptr;
}

std::string quoted(const std::string& text) { return "\"" + json_escape(text) + "\""; }

}  // namespace

std::string settings_form_json(const Scenario& scenario) {
    std::string out = "[";
    for (const SettingSpec& spec : setting_specs()) {
        const FormRow* row = find_row(spec.key);
        std::string value = spec.show(scenario);
        if (value.empty() && row != nullptr && row->shown_default != nullptr) value = row->shown_default(scenario);
        if (out.size() > 1) out += ',';
        out += "{\"key\":" + quoted(spec.key) + ",\"label\":" + quoted(row != nullptr ? row->label : spec.key) +
               ",\"help\":" + quoted(spec.help) + ",\"unit\":" + quoted(row != nullptr ? row->unit : "") +
               ",\"kind\":" + quoted(row != nullptr ? row->kind : "text") + ",\"value\":" + quoted(value) + ",\"choices\":[";
        if (row != nullptr && row->choices != nullptr) {
            bool first = true;
            for (const auto& choice : row->choices()) {
                out += (first ? "[" : ",[") + quoted(choice.first) + "," + quoted(choice.second) + "]";
                first = false;
            }
        }
        out += "]}";
    }
    return out + "]";
}

}  // namespace llm_memory
