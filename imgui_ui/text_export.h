// The result as text: the aria-live sentence, a Markdown table, the `vllm serve` line, an embed snippet.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app.h"

namespace kvcalc::ui {

/// The verdict explained in one sentence: the core's result_sentence() in the chosen unit.
std::string verdict_sentence(const App& app);

/// The one-line verdict for the sticky bar, in the chosen unit: the KV the settings need per card and the KV pool
/// the budget leaves after the fixed terms (the core's kv_figures(), the same pair the result sentence quotes), and
/// the context solvers' answers (context_answer(): with max_num_seqs > 1 both the length all sequences fit at and
/// the one that boots, each labelled). `width` 0 is the widest, "TIGHT · needs 4.0 GiB KV, 4.4 GiB free · largest
/// context 35K"; then "TIGHT · needs 4.0 of 4.4 GiB KV · max context 35K", "… · max 35K",
/// "TIGHT · KV 4.0 of 4.4 GiB · max 35K", and the narrowest (4) "TIGHT · needs 4.0 of 4.4 GiB · 8×4,096 fit"
/// (with one sequence "… · max 35K").
/// A FAIL not about KV room names its cause instead: "FAIL · fixed terms need 24.2 of 21.8 GiB · largest context
/// none" when the weights and overheads exceed the budget, "FAIL · kv_cache_dtype fp8_e4m3 does not run on RTX 3090".
std::string verdict_line(const App& app, int width = 0);
/// Number of verdict_line widths.
inline constexpr int kVerdictLineLevels = 5;

/// The page title: "TIGHT · Llama 3.1 8B Instruct on 1× RTX 4090 — kvcalc".
std::string page_title(const App& app);

/// "RTX 4090", or "custom 22.35 GiB card" when the VRAM was given as a number.
std::string gpu_name(const ResolvedSettings& s);

/// One or two sentences: verdict, why, limiting term, key settings.
std::string summary_text(const App& app);

/// What the screen-reader mirror says: summary_text plus the solvers' answers, link problems and clamp notes.
std::string announcement(const App& app);

/// The predicted start-up lines, as the Result panel prints them (empty when the engine's rules do not apply).
std::vector<std::string> startup_lines(const App& app);

/// A Markdown table of the terms in GB and GiB with the verdict and the settings, for pasting into an issue.
std::string markdown_table(const App& app);

/// The command that starts the engine for this scenario (Report::command), or a comment when it is invalid.
std::string serve_command_text(const App& app);

/// Folder of a page URL ("https://x/kvcalc/embed.html" → "https://x/kvcalc/").
std::string page_folder(const std::string& page_url);

/// How many of a link's problems the page lists (and the screen-reader text reads) before it gives a count.
inline constexpr std::size_t kUrlWarningsShown = 5;

/// An <iframe> snippet showing this scenario's result from embed.html.
std::string embed_snippet(const std::string& folder_url, const std::string& query);

}  // namespace kvcalc::ui
