// Text reports of an estimate. Every figure is formatted by quantity.hpp; nothing is recomputed here.
#include "report.hpp"

#include "architecture.hpp"

#include <vector>

namespace llm_memory {
namespace {

struct Line {
    const char* label;
    std::uint64_t bytes;
};

std::vector<Line> result_lines(const Estimate& e) {
    std::vector<Line> lines = {
        {"Weight memory", e.weight_bytes},
        {"Inference total", e.inference_bytes},
        {"Gradient+optimizer memory", e.gradient_optimizer_bytes},
        {"Training total", e.training_bytes},
    };
    if (e.trainable_count != e.param_count) lines.push_back({"Reduction vs all trainable", e.reduction_bytes});
    return lines;
}

std::string in_units(std::uint64_t bytes, UnitChoice units) {
    switch (units) {
        case UnitChoice::gb: return format_gb(bytes);
        case UnitChoice::gib: return format_gib(bytes);
        case UnitChoice::both: return format_gb(bytes) + " (" + format_gib(bytes) + ")";
    }
    return format_gb(bytes);
}

std::string pad(std::string text, std::size_t width) {
    if (text.size() < width) text.append(width - text.size(), ' ');
    return text;
}

std::string describe_inputs(const Scenario& s, const Estimate& e) {
    return "N = " + format_count_short(e.param_count, 3) + " parameters, b = " + format_decimal(s.bytes_per_param) +
           " bytes, overhead " + format_decimal(s.overhead_factor) + ", trainable " +
           format_count_short(e.trainable_count, 3) + ", k = " + format_decimal(s.values_per_trainable) + " x " +
           format_decimal(s.bytes_per_value) + " bytes";
}

}  // namespace

std::string json_escape(const std::string& text) {
    std::string out;
    static const char kHex[] = "0123456789abcdef";
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else if (c == '\n') out += "\\n";
        else if (u < 0x20) {
            out += "\\u00";
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        } else out.push_back(c);
    }
    return out;
}

// The chosen model (issue 4), when N is still its count: one line for the text reports.
static std::string model_line(const Scenario& s, const Estimate& e) {
    if (!s.model || s.model->counts.total_count != e.param_count) return {};
    const ModelSource& m = *s.model;
    std::string line = "Model " + m.display_name + ": " + format_count_exact(m.counts.total_count) + " parameters";
    if (m.architecture.is_moe()) line += ", " + format_count_exact(m.counts.active_count) + " active per token";
    return line + "\n";
}

std::string report_json(const Scenario& s, const Estimate& e) {
    std::string out = "{";
    auto field = [&out](const char* key, const std::string& raw) {
        if (out.size() > 1) out += ",";
        out += "\"";
        out += key;
        out += "\":";
        out += raw;
    };
    field("parameters", std::to_string(e.param_count));
    field("trainable_parameters", std::to_string(e.trainable_count));
    field("bytes_per_parameter", format_decimal(s.bytes_per_param));
    field("overhead_factor", format_decimal(s.overhead_factor));
    field("values_per_trainable", format_decimal(s.values_per_trainable));
    field("bytes_per_value", format_decimal(s.bytes_per_value));
    field("weight_bytes", std::to_string(e.weight_bytes));
    field("inference_bytes", std::to_string(e.inference_bytes));
    field("gradient_optimizer_bytes", std::to_string(e.gradient_optimizer_bytes));
    field("training_bytes", std::to_string(e.training_bytes));
    field("full_training_bytes", std::to_string(e.full_training_bytes));
    field("reduction_bytes", std::to_string(e.reduction_bytes));
    // The model N came from (issue 4): present only when a model is chosen and N is still its count.
    if (s.model && s.model->counts.total_count == e.param_count) {
        const ModelSource& m = *s.model;
        field("model", "\"" + json_escape(m.preset_key.empty() ? m.display_name : m.preset_key) + "\"");
        field("model_name", "\"" + json_escape(m.display_name) + "\"");
        if (m.architecture.is_moe()) field("active_parameters", std::to_string(m.counts.active_count));
        const ParamBreakdown& c = m.counts;
        field("breakdown", "{\"embeddings\":" + std::to_string(c.embedding_count) + ",\"attention\":" +
                               std::to_string(c.attention_count) + ",\"mlp\":" + std::to_string(c.mlp_count) +
                               ",\"experts\":" + std::to_string(c.expert_count) + ",\"shared_experts\":" +
                               std::to_string(c.shared_expert_count) + ",\"router\":" + std::to_string(c.router_count) +
                               ",\"norms\":" + std::to_string(c.norm_count) + ",\"output_head\":" +
                               std::to_string(c.output_head_count) + "}");
        if (c.mtp_count > 0) field("mtp_parameters", std::to_string(c.mtp_count));
        if (!m.architecture.warnings.empty()) {
            std::string list = "[";
            for (const std::string& w : m.architecture.warnings) list += (list.size() > 1 ? ",\"" : "\"") + json_escape(w) + "\"";
            field("model_warnings", list + "]");
        }
    }
    out += "}";
    return out;
}

std::string report_table(const Scenario& s, const Estimate& e, UnitChoice units) {
    std::string out = describe_inputs(s, e) + "\n";
    out += model_line(s, e);
    for (const Line& line : result_lines(e)) out += pad(std::string(line.label), 28) + in_units(line.bytes, units) + "\n";
    out += "(GB = 10^9 bytes, GiB = 2^30 bytes)\n";
    return out;
}

std::string report_markdown(const Scenario& s, const Estimate& e, UnitChoice units) {
    std::string out = describe_inputs(s, e) + "\n\n";
    const bool gb = units != UnitChoice::gib;
    const bool gib = units != UnitChoice::gb;
    out += "| Result |";
    if (gb) out += " GB |";
    if (gib) out += " GiB |";
    out += "\n|---|";
    if (gb) out += "---:|";
    if (gib) out += "---:|";
    out += "\n";
    for (const Line& line : result_lines(e)) {
        out += "| " + std::string(line.label) + " |";
        if (gb) out += " " + format_gb(line.bytes) + " |";
        if (gib) out += " " + format_gib(line.bytes) + " |";
        out += "\n";
    }
    return out;
}

std::string report_summary(const Estimate& e) {
    std::string out;
    for (const Line& line : result_lines(e)) {
        if (!out.empty()) out += " ";
        out += std::string(line.label) + " " + format_gb(line.bytes) + " (" + format_gib(line.bytes) + ").";
    }
    return out;
}

}  // namespace llm_memory
