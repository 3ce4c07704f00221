// The result in one sentence for people, built from a Report's terms. The page, the CLI and the JSON report all
// print this one text, so the verdict cannot be explained two ways.
#pragma once
#include <cstdint>
#include <string>

#include "kvcalc/engines/report.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

/// The two KV figures per card that the verdict rests on, quoted by result_sentence() and by the page's one-line
/// verdict alike so that they cannot show two different pairs:
/// - pool_bytes: available_for_kv_bytes, what the budget leaves after the fixed terms (vLLM prints it as
///   "Available KV cache memory"; every KV byte, growing, sliding window and recurrent state, lives in it);
/// - needs_bytes: the KV the settings ask of that pool, kv_requested_bytes (all of it, not only the growing part):
///   max_num_seqs full-length sequences, or one request under vLLM's default max_num_seqs (a cap, and the start-up
///   check asks one). When one sequence alone does not fit (the FAIL of vLLM kv_cache_utils.py
///   check_enough_kv_cache_memory) it is that one sequence's KV, kv_one_sequence_bytes, the figure the engine
///   refuses on.
/// - sequences: how many full-length sequences needs_bytes covers.
/// Both are 0 or more (pool 0 when the fixed terms fill the budget).
struct KvFigures {
    std::int64_t needs_bytes = 0;
    std::int64_t pool_bytes = 0;
    std::int64_t sequences = 0;
};

/// The KV figures of `report` (see KvFigures); all zero when !report.ok.
KvFigures kv_figures(const Report& report);

/// The verdict in one sentence, every figure from `report.terms` in `unit`, the KV ones from kv_figures():
/// - the card has no kernel for kv_cache_dtype: Report::reason (a FAIL, whatever the bytes);
/// - FAIL: the fixed terms exceed the budget, or the KV room left is less than one max_model_len request needs
///   (the engine refuses to start; vLLM gpu_worker.py / kv_cache_utils.py check_enough_kv_cache_memory);
/// - boots, but the granted pool holds fewer full-length sequences than max_num_seqs asks for;
/// - TIGHT: demand within the error band of the budget;
/// - PASS under vLLM's default max_num_seqs (a cap, not a demand): one request's KV, the room to spare and the
///   concurrency; PASS with max_num_seqs given: every sequence gets its full context.
/// Empty when !report.ok (the diagnostics say why).
std::string result_sentence(const Report& report, ByteUnit unit = ByteUnit::gib);

}  // namespace kvcalc
