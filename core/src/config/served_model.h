// What the start commands name as the model to serve when it came from a config.json (not part of the public API).
#pragma once
#include <string>
#include <string_view>

namespace kvcalc::detail {

/// The model id a config.json model has (predict_config.cpp); the commands never print it: vLLM serves a folder or
/// a Hub repo, not a config file.
inline constexpr std::string_view kConfigJsonModelId = "config.json";

/// Printed in place of the model when config.json names no Hub repo.
inline constexpr std::string_view kModelDirPlaceholder = "<path-to-model-dir>";

/// The Hugging Face Hub repo id "owner/name" that config.json's `_name_or_path` names (transformers writes it on
/// save_pretrained), or "" when it is absent, empty, a local path ("/root/.cache/...", "./workspace/...") or no valid
/// repo id (huggingface_hub validate_repo_id: [A-Za-z0-9_.-] in each part, starting and ending with a letter,
/// digit or '_', no "--" or "..", at most 96 characters).
std::string hub_id_from_config(std::string_view config_json);

/// The repo part of a Hub reference "ORG/NAME" or "ORG/NAME@REVISION" (the same repo-id rule as
/// hub_id_from_config; a revision of [A-Za-z0-9._/-], at most 96 characters, no ".."), or "" when it is none.
std::string hub_repo_of(std::string_view ref);

/// "# <path-to-model-dir>: ..." for a command whose model is a placeholder (that one, or "<REPO-int4-checkpoint>"
/// for weights priced in a format no known repo holds), else "".
std::string placeholder_comment(std::string_view served);

}  // namespace kvcalc::detail
