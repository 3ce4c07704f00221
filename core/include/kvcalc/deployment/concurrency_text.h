// How many full-length requests the KV pool holds, written the one way vLLM writes it. The verdict's reason, the
// CLI's "Full-length requests the pool holds" line, the predicted "Maximum concurrency … x" line and the shopping
// table all print Report / ShopRow max_concurrency through this, so the same scenario cannot read 3.39 in one
// sentence and 3.40x in the next.
#pragma once
#include <string>

namespace kvcalc {

/// `requests` with two decimals, rounded to nearest as vLLM's log line does: "Maximum concurrency for %s tokens
/// per request: %.2fx" (vllm/v1/core/kv_cache_utils.py, _report_kv_cache_config; Python's %-format rounds the
/// double's exact value, as C's printf does). 3.396 → "3.40", 2.584 → "2.58". So "3.00" can stand for 2.996: the
/// verdict, not this text, says whether 3 full-length requests fit. Negative or non-finite input gives "0.00".
std::string concurrency_text(double requests);

}  // namespace kvcalc
