// The settings table: every input's key, how it is parsed and how it is written back.
// The same table drives the CLI flags, URL state, the JS API and stored state.
#include "settings.hpp"

#include "model_presets.hpp"

namespace llm_memory {
namespace {

std::string apply_params(Scenario& s, std::string_view text) {
    const Expected<std::uint64_t> n = parse_count(text);
    if (!n) return n.error();
    if (*n == 0) return "must be greater than zero";
    if (s.model && *n != s.param_count) s.model.reset();  // a typed N that differs is no longer that model
    s.param_count = *n;
    return {};
}

// A built-in model (core/model_presets.hpp): N becomes its exact count. "" or "none" forgets the model.
std::string apply_model(Scenario& s, std::string_view text) {
    const std::string_view t = trim(text);
    if (t.empty() || t == "none") {
        s.model.reset();
        return {};
    }
    Expected<ModelSource> source = load_preset(t);
    if (!source) return source.error();
    s.param_count = source->counts.total_count;
    s.model = std::make_shared<const ModelSource>(std::move(source.value()));
    return {};
}

// The preset key while N is still that preset's count; "" for no model or a user's config.json.
std::string show_model(const Scenario& s) {
    if (!s.model || s.model->preset_key.empty() || s.model->counts.total_count != s.param_count) return {};
    return s.model->preset_key;
}

std::string apply_decimal(Decimal& field, std::string_view text, std::uint64_t max_micros, bool allow_zero) {
    const Expected<Decimal> d = parse_decimal(text, max_micros);
    if (!d) return d.error();
    if (!allow_zero && d->is_zero()) return "must be greater than zero";
    field = *d;
    return {};
}

std::string apply_trainable(Scenario& s, std::string_view text) {
    const std::string_view t = trim(text);
    if (t == "all") {
        s.trainable = TrainableSpec::all_params();
        return {};
    }
    if (!t.empty() && t.back() == '%') {
        const Expected<Decimal> p = parse_decimal(t.substr(0, t.size() - 1), 100 * Decimal::kScale);
        if (!p) return p.error() == "is too large (at most 100)" ? "is more than 100%" : p.error();
        s.trainable = TrainableSpec::percent_of(*p);
        return {};
    }
    const Expected<std::uint64_t> n = parse_count(t);
    if (!n) return n.error() + " (a count such as 1B, or a percentage such as 7.7%)";
    s.trainable = TrainableSpec::exact(*n);
    return {};
}

std::string show_trainable(const Scenario& s) {
    switch (s.trainable.kind) {
        case TrainableSpec::Kind::all: return {};
        case TrainableSpec::Kind::count: return format_count_state(s.trainable.count);
        case TrainableSpec::Kind::percent: return format_decimal(s.trainable.percent) + "%";
    }
    return {};
}

std::string show_if_changed(Decimal value, Decimal default_value) {
    return value == default_value ? std::string() : format_decimal(value);
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

const std::vector<SettingSpec>& setting_specs() {
    static const Scenario kDefaults;
    static const std::vector<SettingSpec> kSpecs = {
        {"model", "NAME", "a built-in model (see --list-models); sets N to its exact parameter count",
         apply_model, show_model},
        {"params", "N", "parameter count N: 13B, 6.7e9, 350M, 70 billion (default 13B)",
         apply_params, [](const Scenario& s) { return format_count_state(s.param_count); }},
        {"bytes", "B", "bytes per parameter b: 4 fp32, 2 fp16/bf16, 1 int8, 0.5 int4 (default 2)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_param, t, kMaxBytesPerValueMicros, false); },
         [](const Scenario& s) { return show_if_changed(s.bytes_per_param, kDefaults.bytes_per_param); }},
        {"overhead", "F", "inference overhead factor applied to the weights (default 1.2)",
         [](Scenario& s, std::string_view t) {
             Decimal d;
             std::string error = apply_decimal(d, t, kMaxFactorMicros, false);
             if (!error.empty()) return error;
             if (d.micros < Decimal::kScale) return std::string("must be at least 1 (it multiplies the weights)");
             s.overhead_factor = d;
             return std::string();
         },
         [](const Scenario& s) { return show_if_changed(s.overhead_factor, kDefaults.overhead_factor); }},
        {"trainable", "N|P%", "trainable parameters: a count (1B) or a percentage (7.7%) (default all)",
         apply_trainable, show_trainable},
        {"k", "K", "values stored per trainable parameter (default 3: gradient + two Adam states)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.values_per_trainable, t, kMaxFactorMicros, true); },
         [](const Scenario& s) { return show_if_changed(s.values_per_trainable, kDefaults.values_per_trainable); }},
        {"state-bytes", "B", "bytes per stored gradient/optimizer value (default 2)",
         [](Scenario& s, std::string_view t) { return apply_decimal(s.bytes_per_value, t, kMaxBytesPerValueMicros, false); },
         [](const Scenario& s) { return show_if_changed(s.bytes_per_value, kDefaults.bytes_per_value); }},
    };
    return kSpecs;
}

const SettingSpec* find_setting(std::string_view key) {
    for (const SettingSpec& spec : setting_specs())
        if (key == spec.key) return &spec;
    return nullptr;
}

Expected<bool> apply_setting(Scenario& scenario, std::string_view key, std::string_view value) {
    const SettingSpec* spec = find_setting(key);
    if (spec == nullptr) {
        return Error{"unknown setting \"" + printable_excerpt(key, 40) + "\""};
    }
    std::string message = spec->apply(scenario, value);
    if (!message.empty()) return Error{std::string(spec->key) + ": " + message};
    return true;
}

StateResult apply_state(const Scenario& base, std::string_view state) {
    StateResult result{base, {}};
    if (!state.empty() && (state.front() == '#' || state.front() == '?')) state.remove_prefix(1);
    std::size_t start = 0;
    std::size_t unlisted_problems = 0;
    while (start <= state.size()) {
        std::size_t end = state.find('&', start);
        if (end == std::string_view::npos) end = state.size();
        const std::string_view pair = state.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        const std::string key = url_decode(pair.substr(0, eq));
        const std::string value = eq == std::string_view::npos ? std::string() : url_decode(pair.substr(eq + 1));
        Scenario candidate = result.scenario;
        const Expected<bool> applied = apply_setting(candidate, key, value);
        if (applied) {
            result.scenario = candidate;
        } else if (result.problems.size() < kMaxListedStateProblems) {
            result.problems.push_back(applied.error());
        } else {
            ++unlisted_problems;
        }
    }
    if (unlisted_problems > 0)
        result.problems.push_back("and " + std::to_string(unlisted_problems) + " more bad settings (not listed)");
    const Expected<Estimate> check = estimate(result.scenario);
    if (!check) {
        result.problems.push_back(check.error());
        result.scenario = base;
    }
    return result;
}

std::string to_state(const Scenario& scenario) {
    std::string out;
    for (const SettingSpec& spec : setting_specs()) {
        const std::string value = spec.show(scenario);
        if (value.empty()) continue;
        if (!out.empty()) out += '&';
        out += spec.key;
        out += '=';
        out += url_encode(value);
    }
    return out;
}

std::string url_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out.push_back(' ');
        } else if (c == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
            out.push_back(static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2])));
            i += 2;
        } else {
            out.push_back(c);
        }
    }
    return out;
}

std::string url_encode(std::string_view text) {
    static const char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                          c == '-' || c == '_' || c == '.' || c == '~' || c == ',';
        if (keep) {
            out.push_back(c);
        } else {
            out.push_back('%');
            out.push_back(kHex[u >> 4]);
            out.push_back(kHex[u & 15]);
        }
    }
    return out;
}

std::string format_count_state(std::uint64_t count) {
    struct Unit { std::uint64_t size; const char* suffix; };
    static constexpr Unit kUnits[] = {{1'000'000'000'000ULL, "T"}, {1'000'000'000ULL, "B"}, {1'000'000ULL, "M"}, {1'000ULL, "K"}};
    for (const Unit& unit : kUnits)
        if (count >= unit.size) return format_ratio(count, unit.size, 12) + unit.suffix;
    return std::to_string(count);
}

}  // namespace llm_memory
