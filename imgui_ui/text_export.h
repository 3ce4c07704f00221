// The result as text: the aria-live sentence, a Markdown table, the `vllm serve` line, an embed snippet.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "app.h"

namespace kvcalc::ui {

/// One named per-card budget term, in display order (shared by the bar, the table and the Markdown export).
struct NamedTerm {
    const char* name;   ///< "weights", "kv_growing", ... (the core's term names)
    const char* label;  ///< people's wording, e.g. "KV cache (growing)"
    std::int64_t bytes;
};

/// The per-card terms of `r` that make up the total vLLM reserves (growing KV as granted).
std::vector<NamedTerm> budget_terms(const Report& r);

/// People's wording for a core term name ("kv_growing" → "KV cache (growing)"); the name itself when unknown.
const char* term_label(const std::string& name);

/// One or two sentences for the aria-live region: verdict, reason, limiting term, key settings.
std::string summary_text(const App& app);

/// A Markdown table of the terms in GB and GiB with the verdict and the settings, for pasting into an issue.
std::string markdown_table(const App& app);

/// The engine's start command for the scenario (Report::command: `vllm serve`, `llama-server` or SGLang).
std::string vllm_serve_command(const App& app);

/// Folder of a page URL ("https://x/kvcalc/embed.html" → "https://x/kvcalc/").
std::string page_folder(const std::string& page_url);

/// An <iframe> snippet showing this scenario's result from embed.html.
std::string embed_snippet(const std::string& folder_url, const std::string& query);

}  // namespace kvcalc::ui
