// --config: file I/O lives here (the core never reads files); parsing is the core's read_hf_config.
#include "config_loader.h"
#include "kvcalc/base/echo.h"

#include <cstdint>
#include <string>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "kvcalc/deployment/input_limits.h"

namespace kvcli {

std::string load_config(const std::string& path, kvcalc::Scenario& scenario) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return "--config: cannot read '" + path + "': no such file";
    if (std::filesystem::is_directory(status))
        return "--config: '" + path + "' is a folder; give the config.json file inside it";
    std::ifstream f(path, std::ios::binary);
    if (!f) return "--config: cannot read '" + kvcalc::echo_cut(path) + "'";
    std::string text;
    char buf[65536];
    while (f.read(buf, sizeof buf) || f.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(f.gcount()));
        // The core's own cap on Scenario::config_json (input_limits.h), so the file is refused here, naming the flag
        // and the path, before it could reach predict() as "config_json"; reading stops at the first byte past it.
        if (text.size() > kvcalc::kMaxConfigJsonBytes)
            return "--config: '" + path + "' is larger than " + std::to_string(kvcalc::kMaxConfigJsonBytes >> 20) +
                   " MiB (" + std::to_string(kvcalc::kMaxConfigJsonBytes) +
                   " bytes, the most kvcalc reads); a config.json is a few KB (is this a weights file?)";
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return "--config: '" + path + "' is empty; it should hold the model's config.json";
    // The core reads it (kvcalc/hf_config.h) inside predict(), prices the weights from the parameter count
    // and reports problems as "config_json.<key>" diagnostics, which main() prints like any other.
    scenario.config_json = std::move(text);
    return "";
}

}  // namespace kvcli
