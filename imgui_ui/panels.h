// One function per panel (one file each: panel_<name>.cpp). Input panels return true when the scenario changed.
#pragma once
#include "app.h"

namespace kvcalc::ui {

/// Catalog search, weights variant, config.json paste, Hugging Face id, facts with provenance.
bool panel_model(App& app);
/// GPU from the catalog or custom VRAM, GPU count, tensor_parallel_size (valid values only).
bool panel_hardware(App& app);
/// max_model_len: chips, exact entry, power-of-two steps, slider; clamps leave a visible note.
bool panel_context(App& app);
/// The sticky one-line verdict (phones): tapping it scrolls to the Result section. Returns true when tapped.
bool sticky_verdict(App& app);
/// Engine, presets, max_num_seqs, kv_cache_dtype, gpu_memory_utilization, batching, drafter.
bool panel_serving(App& app);
/// The vLLM flags that change memory (--enforce-eager, --block-size, --kv-cache-memory-bytes, DP, EP,
/// --cpu-offload-gb), folded; drawn inside the Serving panel for vLLM. True when the scenario changed.
bool vllm_memory_flags(App& app);
/// Verdict banner, per-card stacked bar, term table (GB and GiB), predicted start-up numbers, notes.
void panel_result(App& app);
/// The verdict banner alone (phones show it above the inputs, so the answer is visible without scrolling).
void verdict_summary(App& app);
/// The verdict banner alone (result panel and embed view).
void result_banner(App& app);
/// The per-card stacked bar with its legend (result panel and embed view).
void result_bar(const App& app);
/// One row per layer-cache kind with a small bar each.
void panel_buckets(App& app);
/// Largest context / concurrency, fewest GPUs, memory-vs-context curve. True when the user applied an answer.
bool panel_solver(App& app);
/// Every catalog GPU × 1/2/4/8 cards, sortable. True when the user picked a row.
bool panel_shopping(App& app);
/// "Paste a start-up log": each printed line beside kvcalc's prediction, the settings the log filled, the answers
/// priced from the boot's measured terms (panel_log.cpp). True when the scenario changed.
bool panel_log(App& app);
/// Measured boots against predictions.
void panel_calibration(App& app);
/// Copy link / Markdown / vllm serve / embed snippet.
void panel_share(App& app);
/// embed=1: banner, bar and a link to the full calculator.
void panel_embed(App& app);
/// Problems in the opened link, shown until dismissed.
void panel_url_warnings(App& app);

}  // namespace kvcalc::ui
