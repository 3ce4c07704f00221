// --model DIR and --model ORG/NAME[@REV]: a checkpoint's config.json, model.safetensors.index.json and, where they
// are at hand, its shard headers, put into the Scenario (the core prices them; it does no I/O).
#pragma once
#include <string>

#include "kvcalc/base/scenario.h"

namespace kvcli {

/// True when `value` of --model names a checkpoint rather than a catalog id: an existing folder, or ORG/NAME
/// (catalog ids have no '/').
bool is_checkpoint_source(const std::string& value);

/// Where Hub files are cached: $XDG_CACHE_HOME/kvcalc/hub, else ~/.cache/kvcalc/hub.
std::string hub_cache_dir();

/// Reads a snapshot folder (config.json required; model.safetensors.index.json and the shards' headers when
/// present; a single model.safetensors is read by its header alone), or fetches ORG/NAME[@REV]'s config.json and
/// index from the Hub (huggingface.co, or $HF_ENDPOINT) into the cache and reads them from there. `offline` uses
/// the cache only. A Hub repo is also set as Scenario::hub_model (the command serves it, --url writes hf=). Returns "" on
/// success, else an error that starts with `who` (how the user named the repo: "--model ", or "--from-url hf=" for a
/// link's hf= key) and says how to pass a local snapshot.
std::string load_checkpoint(const std::string& source, bool offline, kvcalc::Scenario& scenario,
                            const std::string& who = "--model ");

}  // namespace kvcli
