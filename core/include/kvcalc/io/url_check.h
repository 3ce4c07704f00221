// The link contract (docs/URL.md): a link that decodes without a warning predicts without an error. Decoding
// checks each value against its own field only; these add what predict() rejects in the scenario as a whole.
#pragma once
#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"

namespace kvcalc {

/// The errors predict(scenario) reports — the core's own validation (resolve(), check_load(), the size bound),
/// not a copy of it. encodeQuery refuses to write a link for a scenario with any.
Diagnostics scenario_errors(const Scenario& scenario);

/// scenario_errors() as warnings naming the link key that carries each field: `field` becomes "url.<key>"
/// (e.g. "url.seqs", like the codec's own warnings) and the message starts with `link key "seqs"
/// (max_num_seqs): `. A path no key carries (an inline model's) keeps its name. Empty when the scenario
/// predicts. decodeQuery (wasm) and the CLI's --from-url add them after decode_query.
Diagnostics url_link_problems(const Scenario& scenario);

}  // namespace kvcalc
