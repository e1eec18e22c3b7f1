// The settings table as a form (see settings_form.hpp): every row's label, unit, kind, choices and the
// value its field shows come from the row itself (core/settings.cpp), so the form has no list of its own.
#include "settings_form.hpp"

#include "engines/engine.hpp"
#include "json_writer.hpp"
#include "settings.hpp"

namespace llm_memory {
namespace {

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

std::string settings_form_json(const Scenario& scenario, const Estimate& estimate) {
    JsonWriter w;
    w.begin_array();
    const bool engines = engines_in_build();
    for (const SettingSpec& spec : setting_specs()) {
        if (!engines && spec.engine != SettingEngine::none) continue;
        w.begin_object().field("key", spec.key).field("label", spec.label).field("help", spec.help).field("unit", spec.unit);
        w.field("kind", kind_word(spec.kind)).field("value", setting_field_text(spec, scenario)).key("choices").begin_array();
        if (spec.choices != nullptr)
            for (const Choice& choice : spec.choices()) w.begin_array().value(choice.word).value(choice.label).end_array();
        w.end_array();
        // An engine's row the chosen engine does not read (none: every engine's): the form hides it, as the canvas
        // shows only the chosen engine's flags.
        if (spec.engine != SettingEngine::none && spec.engine != SettingEngine::choice && !engine_reads(spec.engine, scenario.engine.kind))
            w.field("hidden", true);
        if (spec.decided != nullptr) {
            const FieldDecision decision = spec.decided(scenario, estimate);
            if (!decision.value.empty()) w.field("decided", decision.value).field("decided_note", decision.note);
        }
        w.end_object();
    }
    return w.end_array().take();
}

}  // namespace llm_memory
