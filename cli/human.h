// Human-readable output of kvcalc: per-card term table (GB and GiB), verdict, breakdown, solvers, lists.
#pragma once
#include <ostream>

#include "kvcalc/deployment/calibration.h"
#include "kvcalc/engines/report.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/deployment/sweeps.h"

#include <string>
#include <vector>

namespace kvcli {

/// Settings line, per-card term table (GB = 1e9 B, GiB = 2^30 B), verdict with reason and limiting term, notes,
/// and the diagnostics that are not errors.
void print_report(std::ostream& out, const kvcalc::Report& r);

/// The engine's predicted start-up lines (from the same plan as the verdict) and the start command.
void print_startup(std::ostream& out, const kvcalc::Report& r);

/// The cache-architecture breakdown and the layer buckets table (--kv-breakdown).
void print_breakdown(std::ostream& out, const kvcalc::Report& r);

/// A solver answer. `what` is "max_model_len" or "max_num_seqs"; `at` is the report at the answer (ok = false when
/// nothing fits).
void print_solve(std::ostream& out, const char* what, const kvcalc::SolveResult& s, const kvcalc::Report& at);

/// One --fit-all row: a preset's report on the card and its largest booting max_model_len.
struct PresetFit {
    std::string preset;
    kvcalc::Report report;
    kvcalc::SolveResult max_len;
};
void print_fit_all(std::ostream& out, const std::vector<PresetFit>& fits);

/// Which shopping rows are printed (the header says so): one per GPU (kvcalc::best_row_per_gpu), every count, or
/// one GPU's counts (--shop --gpu).
enum class ShopView { best_per_gpu, every_count, one_gpu };
/// The GPU-shopping table of `scenario_report`'s scenario: `rows` from kvcalc::shopping, in its buy order.
/// `pinned_tp` > 0: the user typed --tp, and every row is that many cards at that tensor_parallel_size; 0: the rows
/// sweep kvcalc::default_shop_counts(), each at tensor_parallel_size = its card count. The header says which.
void print_shop(std::ostream& out, const kvcalc::Report& scenario_report, const std::vector<kvcalc::ShopRow>& rows,
                ShopView view, int pinned_tp = 0);

/// --fit without a card: "Note: no --card given: priced on 24.00 GB (22.35 GiB) per card, kvcalc's default VRAM; …",
/// the VRAM `report` was priced on.
std::string assumed_vram_note(const kvcalc::Report& report);

/// Predicted verdict and demand against each measured boot.
void print_calibration(std::ostream& out, const kvcalc::CalibrationSummary& c);

void print_models(std::ostream& out);
void print_gpus(std::ostream& out);
void print_composes(std::ostream& out);

}  // namespace kvcli
