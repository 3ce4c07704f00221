// The model a scenario refers to, and the edits that must keep the scenario consistent: switching models
// (which serving settings survive) and choosing the hardware (exactly one of gpu / vram_gb / vram_gib is set).
#pragma once
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/engines/context_limit.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc::ui {

/// The scenario's inline model when set, else the catalog entry for model_id; nullptr when unknown.
inline const ModelSpec* current_model(const Scenario& s) { return s.model ? &*s.model : find_model(s.model_id); }

/// The longest max_model_len the scenario's engine accepts for `model`: the core's derived maximum
/// (context_limit.h: rope scaling, model_max_length, each engine's own rule), with its source. max_model_len 0 when
/// unknown.
EngineContextLimit engine_context_limit(const Scenario& s, const ModelSpec& model);

/// kv_cache_dtype every engine uses when none is given: `auto`, the model's dtype (the core resolves it per card).
std::string default_kv_cache_dtype();

/// Model search: true when every word of `query` (split at spaces, any order, any case) occurs in `text`, or in
/// `text` with its separators (space, '-', '_', '.', '/') removed ("llama 8b" and "llama3.1" both find
/// "Llama 3.1 8B Instruct"). An empty query matches everything.
bool search_matches(const std::string& text, const std::string& query);

/// Sets the serving settings to what the engine uses when none are given: for vLLM max_num_seqs and
/// gpu_memory_utilization 0 (the core applies vLLM's defaults for the card and release), kv_cache_dtype auto;
/// max_num_batched_tokens and speculative decoding unset. The hardware and max_model_len are left alone.
void apply_engine_defaults(Scenario& s);

/// The landing scenario: a question a real user has (Llama 3.1 8B Instruct, one RTX 4090, 32K context, vLLM's
/// defaults for everything else).
Scenario landing_scenario();

/// Makes `model` the scenario's model: a catalog id (`inline_spec` false) or an inline spec (true, e.g. a pasted
/// config.json). Resets the serving settings to vLLM's defaults (apply_engine_defaults), keeps max_model_len when the
/// new model accepts it and otherwise sets the engine's derived maximum (engine_context_limit), and fits tensor_parallel_size to the model.
/// `keep_settings` (opening a link that carries a config.json) only swaps the model. Returns a sentence saying
/// what was reset and what was kept ("" when nothing changed), for the model panel.
std::string switch_model(Scenario& s, ModelSpec model, bool inline_spec, bool keep_settings = false);

/// Chooses a catalog GPU: sets `gpu` and clears the two custom VRAM fields.
void set_catalog_gpu(Scenario& s, const std::string& gpu_id);

/// The serving settings a model change's note talks about (tensor_parallel_size, max_model_len, max_num_seqs,
/// kv_cache_dtype, gpu_memory_utilization) as one string: once the user changes one, the note is out of date.
std::string serving_settings_key(const Scenario& s);

/// Chooses a custom VRAM figure per card in GiB (`in_gib`) or decimal GB: sets that field, clears `gpu` and the other.
void set_custom_vram(Scenario& s, double value, bool in_gib);

}  // namespace kvcalc::ui
