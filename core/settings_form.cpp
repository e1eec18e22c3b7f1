// The settings table as a form (see settings_form.hpp): every row's label, unit, kind, choices and the
// value its field shows come from the row itself (core/settings.cpp), so the form has no list of its own.
#include "settings_form.hpp"

#include "report.hpp"
#include "engines/engine.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

std::string quoted(const std::string& text) { return "\"" + json_escape(text) + "\""; }

const char* kind_word(SettingKind kind) {
    switch (kind) {
        case SettingKind::number: return "number";
        case SettingKind::count: return "count";
        case SettingKind::choice: return "choice";
        case SettingKind::flag: return "bool";
        case SettingKind::text: break;
    }
    return "text";
}

}  // namespace

std::string settings_form_json(const Scenario& scenario) {
    std::string out = "[";
    const bool engines = engines_in_build();
    for (const SettingSpec& spec : setting_specs()) {
        if (!engines && is_engine_setting(spec.key)) continue;
        if (out.size() > 1) out += ',';
        out += "{\"key\":" + quoted(spec.key) + ",\"label\":" + quoted(spec.label) + ",\"help\":" + quoted(spec.help) +
               ",\"unit\":" + quoted(spec.unit) + ",\"kind\":" + quoted(kind_word(spec.kind)) +
               ",\"value\":" + quoted(setting_field_text(spec, scenario)) + ",\"choices\":[";
        if (spec.choices != nullptr) {
            bool first = true;
            for (const Choice& choice : spec.choices()) {
                out += (first ? "[" : ",[") + quoted(choice.word) + "," + quoted(choice.label) + "]";
                first = false;
            }
        }
        out += "]}";
    }
    return out + "]";
}

}  // namespace llm_memory
