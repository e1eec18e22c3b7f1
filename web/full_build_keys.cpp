// full_build_keys: prints the settings only the page's full build reads, one key a line: the rows core's
// settings table marks for an engine (SettingEngine). Built for node in the web tree; web/page_loader.mjs
// runs it after each link of the lean page and writes the list into index.html's loader, so a new engine
// setting is one row in core/settings.cpp and the loader follows.
#include <cstdio>
#include "settings.hpp"

int main() {
    for (const llm_memory::SettingSpec& spec : llm_memory::setting_specs())
        if (llm_memory::is_engine_setting(spec.key)) std::printf("%s\n", spec.key);
    return 0;
}
