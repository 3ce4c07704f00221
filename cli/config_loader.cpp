// --config: file I/O lives here (the core never reads files); parsing is the core's read_hf_config.
#include "config_loader.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace kvcli {

std::string load_config(const std::string& path, kvcalc::Scenario& scenario) {
    std::ifstream f(path, std::ios::binary);
    if (!f) return "--config: cannot read '" + path + "'";
    std::ostringstream text;
    text << f.rdbuf();
    // The core reads it (kvcalc/hf_config.h) inside predict(), prices the weights from the parameter count
    // and reports problems as "config_json.<key>" diagnostics, which main() prints like any other.
    scenario.config_json = text.str();
    return "";
}

}  // namespace kvcli
