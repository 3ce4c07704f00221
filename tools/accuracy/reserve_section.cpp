#include "reserve_section.h"

#include <cstdio>
#include <string>

namespace kvtools {

namespace {

std::string gib(std::int64_t bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(bytes) / 1073741824.0);
    return buf;
}

const char* shown(kvcalc::ReserveCheck c) {
    switch (c) {
        case kvcalc::ReserveCheck::within: return "within";
        case kvcalc::ReserveCheck::over: return "**over**";
        case kvcalc::ReserveCheck::under: return "**under**";
        case kvcalc::ReserveCheck::not_checked: break;
    }
    return "–";
}

}  // namespace

void reserve_section(std::ostream& out, const kvcalc::CalibrationSummary& c) {
    out << "### Reserve vs measured peak, within the band\n\n"
        << "The verdict check above cannot fail on a model that under-prices memory (every row booted). This one\n"
        << "compares numbers, so it fails both ways: kvcalc's predicted reserve per card (`vLLM reserves`, fixed terms\n"
        << "+ granted KV, converted to GiB) against the measured nvidia-smi peak (GiB), within ± the report's band\n"
        << "(1.5 GB for seed fits). `weights only` is the same check with every non-weight term priced at 0: it is\n"
        << "what a model without KV, activation, CUDA graphs and drafters would score. Circular rows are not checked.\n\n"
        << "| row | predicted reserve GiB | measured GiB | band ± GiB | predicted − measured GiB | check | weights only GiB | "
           "weights-only check |\n|---|---|---|---|---|---|---|---|\n";
    for (const auto& r : c.results) {
        if (r.reserve == kvcalc::ReserveCheck::not_checked) {
            out << "| " << r.row_id << " (circular) | " << gib(r.predicted_reserve_bytes) << " | "
                << gib(r.measured_peak_bytes) << " | – | – | not checked | – | – |\n";
            continue;
        }
        char diff[32];
        std::snprintf(diff, sizeof diff, "%+.2f",
                      static_cast<double>(r.predicted_reserve_bytes - r.measured_peak_bytes) / 1073741824.0);
        out << "| " << r.row_id << " | " << gib(r.predicted_reserve_bytes) << " | " << gib(r.measured_peak_bytes)
            << " | " << gib(r.band_bytes) << " | " << diff << " | " << shown(r.reserve) << " | "
            << gib(r.report.terms.weights_bytes) << " | " << shown(r.reserve_weights_only) << " |\n";
    }
    int under_uncapped = 0;
    for (const auto& r : c.results)
        under_uncapped += r.reserve == kvcalc::ReserveCheck::under &&
                          r.report.terms.kv_growing_requested_bytes < r.report.terms.available_for_kv_bytes;
    out << "\nWithin the band: **" << c.reserve_within << " / " << c.reserve_checked << "** (" << c.reserve_over
        << " over, " << c.reserve_under << " under). Weights alone: " << c.weights_only_within << " / "
        << c.reserve_checked << " within, so the check fails for a model that prices every non-weight term at 0.\n"
        << under_uncapped << " of the " << c.reserve_under << " rows under the band have an uncapped pool (requested KV\n"
        << "below what is available): vLLM gives the KV cache all the memory left, whatever max_num_seqs asks for,\n"
        << "while `vLLM reserves` counts only the requested KV.\n\n";
}

}  // namespace kvtools
