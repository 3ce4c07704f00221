// --config PATH: read a Hugging Face config.json and put its model into the Scenario.
#pragma once
#include <string>

#include "kvcalc/base/scenario.h"

namespace kvcli {

/// Reads the file and hands its text to the core's config.json reader (kvcalc/hf_config.h). Returns "" on success
/// (warnings go to stderr), otherwise an error naming --config, the path and the problem.
std::string load_config(const std::string& path, kvcalc::Scenario& scenario);

}  // namespace kvcli
