// --config: file I/O lives here (the core never reads files); parsing is the core's read_hf_config.
#include "config_loader.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace kvcli {

/// Largest config.json --config reads: real ones are a few KB; this keeps /dev/zero or a mistaken
/// checkpoint path from eating memory.
constexpr std::uintmax_t kMaxConfigBytes = 16u << 20;

std::string load_config(const std::string& path, kvcalc::Scenario& scenario) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return "--config: cannot read '" + path + "': no such file";
    if (std::filesystem::is_directory(status))
        return "--config: '" + path + "' is a folder; give the config.json file inside it";
    std::ifstream f(path, std::ios::binary);
    if (!f) return "--config: cannot read '" + path + "'";
    std::string text;
    char buf[65536];
    while (f.read(buf, sizeof buf) || f.gcount() > 0) {
        text.append(buf, static_cast<std::size_t>(f.gcount()));
        if (text.size() > kMaxConfigBytes)
            return "--config: '" + path + "' is larger than 16 MiB; a config.json is a few KB (is this a weights file?)";
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return "--config: '" + path + "' is empty; it should hold the model's config.json";
    // The core reads it (kvcalc/hf_config.h) inside predict(), prices the weights from the parameter count
    // and reports problems as "config_json.<key>" diagnostics, which main() prints like any other.
    scenario.config_json = std::move(text);
    return "";
}

}  // namespace kvcli
