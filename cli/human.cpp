// Human-readable output. Every size is printed with its unit: GB = 1e9 B, GiB = 2^30 B.
#include "human.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/deployment/concurrency_text.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/units.h"
#include "kvcalc/model/layer_kinds.h"

namespace kvcli {

namespace {

using kvcalc::bytes_to_gb;
using kvcalc::bytes_to_gib;

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
    char buf[512];
    va_list ap;
    va_start(ap, f);
    std::vsnprintf(buf, sizeof buf, f, ap);
    va_end(ap);
    return buf;
}

/// One table row: label, GB, GiB.
void row(std::ostream& out, const char* label, std::int64_t bytes, const std::string& tail = "") {
    out << fmt("  %-34s %9.2f %9.2f", label, bytes_to_gb(bytes), bytes_to_gib(bytes)) << tail << "\n";
}

const char* severity_label(kvcalc::Severity s) {
    switch (s) {
        case kvcalc::Severity::info: return "info";
        case kvcalc::Severity::warning: return "warning";
        default: return "error";
    }
}

}  // namespace

void print_report(std::ostream& out, const kvcalc::Report& r) {
    const auto& s = r.settings;
    const auto& t = r.terms;
    const int cards = s.gpus > 0 ? s.gpus : s.tensor_parallel_size;
    out << s.display_name << " (" << s.model_id << ", weights " << s.weights_variant << ") on " << cards << " x "
        << fmt("%.2f GB (%.2f GiB)", bytes_to_gb(s.vram_bytes), bytes_to_gib(s.vram_bytes))
        << (s.gpu.empty() ? "" : " ") << s.gpu << " per card\n";
    // The engine's row: its name for the share of VRAM it may use, and whether its non-KV terms are priced.
    const kvcalc::EngineInfo* engine = kvcalc::find_engine(r.engine);
    const bool non_kv_priced = engine && engine->accounts_non_kv;
    const char* fraction = engine ? engine->memory_fraction : "gpu_memory_utilization";
    out << "  tensor_parallel_size=" << s.tensor_parallel_size << "  kv_cache_dtype=" << s.kv_cache_dtype
        << "  max_model_len=" << s.max_model_len << "  max_num_seqs=" << s.max_num_seqs
        << fmt("  %s=%g", fraction, s.gpu_memory_utilization);
    if (s.max_num_batched_tokens) out << "  max_num_batched_tokens=" << *s.max_num_batched_tokens;
    if (!s.drafter.empty()) out << "  drafter=" << s.drafter << " (" << s.num_speculative_tokens << " tokens)";
    out << "\n\n";

    out << fmt("  %-34s %9s %9s\n", "Per card", "GB", "GiB");
    row(out, "weights", t.weights_bytes);
    if (r.engine == "llama.cpp") row(out, "compute buffer", t.activation_bytes);  // its only non-KV term
    if (non_kv_priced) {  // other engines: not modelled (the note says so), not a measured zero
        row(out, "activation peak", t.activation_bytes);
        if (t.gdn_scratch_delta_bytes) row(out, "  of which prefill scratch change", t.gdn_scratch_delta_bytes);
        row(out, "CUDA graphs + workspace", t.cudagraph_workspace_bytes);
    }
    if (t.drafter_bytes) row(out, "drafter weights", t.drafter_bytes);
    row(out, "non-KV terms", t.fixed_bytes);
    row(out, "left for KV (the engine's pool)", t.available_for_kv_bytes);
    out << "  " << std::string(54, '-') << "\n";
    row(out, "KV cache, requested", t.kv_requested_bytes,
        s.max_num_seqs_is_default
            ? fmt("   %lld tokens x 1 request (vLLM's check; max_num_seqs %lld is its default cap)",
                  static_cast<long long>(t.kv_tokens_per_sequence), static_cast<long long>(s.max_num_seqs))
            : fmt("   %lld tokens x %lld seqs", static_cast<long long>(t.kv_tokens_per_sequence),
                  static_cast<long long>(s.max_num_seqs)));
    if (t.kv_growing_requested_bytes != t.kv_requested_bytes) {
        row(out, "  growing (full attention / MLA)", t.kv_growing_requested_bytes);
        if (t.kv_sliding_requested_bytes) row(out, "  sliding window", t.kv_sliding_requested_bytes);
        if (t.recurrent_state_requested_bytes) row(out, "  recurrent state", t.recurrent_state_requested_bytes);
    }
    row(out, "KV cache, granted", t.kv_granted_bytes);
    row(out, "demand (non-KV + requested KV)", t.demand_bytes,
        t.budget_bytes > 0 ? fmt("   %.0f%% of budget", 100.0 * static_cast<double>(t.demand_bytes) /
                                                            static_cast<double>(t.budget_bytes))
                           : "");
    row(out, "reserved (non-KV + granted KV)", t.total_bytes);
    row(out, engine ? engine->budget_label : "budget", t.budget_bytes);
    out << "\n";
    out << "Verdict: " << kvcalc::verdict_name(r.verdict) << " - " << r.reason << "\n";
    out << "Limiting term: " << kvcalc::term_label(r.limiting_term) << "\n";
    // the core's rounding (vLLM's %.2f), so this line, the reason and "Maximum concurrency … x" agree
    out << "Full-length requests the pool holds: " << kvcalc::concurrency_text(r.terms.max_concurrency) << "\n";
    for (const auto& n : r.notes) out << "Note: " << n << "\n";
    for (const auto& d : r.diagnostics) {
        if (d.severity != kvcalc::Severity::error) out << severity_label(d.severity) << ": " << d.message << "\n";
    }
    print_startup(out, r);
}

void print_startup(std::ostream& out, const kvcalc::Report& r) {
    const auto& p = r.startup;
    out << "\nPredicted start-up (" << p.engine_rules << ")\n";
    for (const auto& line : p.lines) out << "  " << kvcalc::startup_line_text(line) << "\n";  // the engine's words
    if (p.refuses_to_start) out << "  stops: " << p.refusal << "\n";  // the core's words (startup_stop.cpp)
    for (const auto& n : p.notes) out << "  note: " << n << "\n";
    out << "\nCommand:\n" << r.command << "\n";
}

void print_breakdown(std::ostream& out, const kvcalc::Report& r) {
    const auto& b = r.breakdown;
    const auto& s = r.settings;
    out << "\nCache architecture breakdown (per card, reporting only)\n";
    out << "  layout: " << b.layout << "   scope: " << (s.gpus > 0 ? s.gpus : s.tensor_parallel_size)
        << " GPU(s), TP=" << s.tensor_parallel_size << ", sequences="
        << (s.max_num_seqs_is_default ? "1 (vLLM's default max_num_seqs " + std::to_string(s.max_num_seqs) + " caps the batch)"
                                      : std::to_string(s.max_num_seqs))
        << "\n";
    out << fmt("  %-34s %9s %9s\n", "", "GB", "GiB");
    row(out, "attention KV, growing", b.growing_kv_bytes);
    if (b.sliding_kv_bytes) row(out, "attention KV, sliding window", b.sliding_kv_bytes);
    if (b.recurrent_state_bytes) row(out, "recurrent / SSM state", b.recurrent_state_bytes);
    if (b.compressed_kv_bytes) row(out, "compressed KV", b.compressed_kv_bytes);
    if (b.indexer_bytes) row(out, "indexer cache", b.indexer_bytes);
    if (b.draft_kv_bytes) row(out, "draft KV", b.draft_kv_bytes);
    row(out, "cache/state subtotal", b.subtotal_bytes);

    out << "\nLayer cache buckets (identical layers merged)\n";
    out << fmt("  %-16s %6s %14s %12s %8s %10s %12s  %s\n", "kind", "layers", "B/token/card", "page B", "tok/page",
               "pages/req", "priced GB", "cache");
    for (const auto& k : r.buckets) {
        const kvcalc::EngineBucket& e = k.engine;
        out << fmt("  %-16s %6d %14.2f %12lld %8s %10lld %12.2f  ", std::string(k.kind).c_str(), k.layer_count,
                   e.bytes_per_token_per_card, static_cast<long long>(e.page_bytes),
                   e.tokens_per_page > 0 ? std::to_string(e.tokens_per_page).c_str() : "state",
                   static_cast<long long>(e.pages_per_request), bytes_to_gb(k.kv_bytes_per_card))
            << kvcalc::layer_shape_text(k.cache) << "\n";
    }
    out << "  (as the engine allocates it: page = one layer's block, cell or state on one card; pages/req under the "
           "engine's window rule; priced: the kind's share of the requested KV)\n";
}

void print_solve(std::ostream& out, const char* what, const kvcalc::SolveResult& s, const kvcalc::Report& at) {
    if (!s.ok) {
        out << "No " << what << " fits with these settings.\n";
        for (const auto& d : s.diagnostics) out << "  " << d.message << "\n";
        return;
    }
    const std::string name = what;
    if (name == "max_model_len") {
        if (s.value_rounded % 1024 == 0)
            out << "Largest max_model_len that boots: " << s.value_rounded << " tokens (multiple of 1024; exact "
                << s.value << ")\n";
        else  // no whole 1024 tokens boot: the exact answer
            out << "Largest max_model_len that boots: " << s.value << " tokens (below 1024, not rounded)\n";
    } else {
        out << "Largest max_num_seqs that fits: " << s.value << "\n";
    }
    // The safe answer: what still fits when kvcalc's non-KV terms are the whole error band too optimistic.
    const std::string band = fmt("%.2f GiB", bytes_to_gib(s.safe_band_bytes));
    const std::int64_t safe = name == "max_model_len" && s.safe_value_rounded % 1024 == 0 ? s.safe_value_rounded
                                                                                          : s.safe_value;
    if (s.safe_value <= 0)
        out << "  safe answer: none (nothing fits if kvcalc is " << band << " optimistic, its error band here)\n";
    else if (s.safe_value != s.value)
        out << "  safe answer: " << safe << (name == "max_model_len" ? " tokens" : "") << " (still fits if kvcalc is "
            << band << " optimistic, its error band here)\n";
    else
        out << "  safe answer: the same (fits even if kvcalc is " << band << " optimistic, its error band here)\n";
    out << "  stopped by: " << s.bound << "; largest term there: " << kvcalc::term_label(s.limiting_term) << "\n";
    for (const auto& d : s.diagnostics)
        if (d.code == "solve_gap") out << "  note: " << d.message << "\n";
    out << "\n";
    if (at.ok) {
        out << "At that setting:\n";
        print_report(out, at);
    }
}

void print_fit_all(std::ostream& out, const std::vector<PresetFit>& fits) {
    for (const auto& f : fits) {  // the card, once: every preset runs on the same one at its own TP
        if (!f.report.ok) continue;
        const auto& s = f.report.settings;
        out << "Every preset on " << (s.gpu.empty() ? std::string("cards of") : std::string(s.gpu) + ",")
            << fmt(" %.2f GB (%.2f GiB)", bytes_to_gb(s.vram_bytes), bytes_to_gib(s.vram_bytes))
            << " per card, each at its own tensor_parallel_size and settings\n\n";
        break;
    }
    out << fmt("  %-52s %7s %12s %12s  %s\n", "preset", "verdict", "max_ctx", "boots up to", "reason");
    for (const auto& f : fits) {
        if (!f.report.ok) {
            std::string why;
            for (const auto& d : f.report.diagnostics)
                if (d.severity == kvcalc::Severity::error) why = d.message;
            out << fmt("  %-52s %7s %12s %12s  ", f.preset.c_str(), "ERROR", "-", "-") << why << "\n";
            continue;
        }
        out << fmt("  %-52s %7s %12lld %12lld  ", f.preset.c_str(), kvcalc::verdict_name(f.report.verdict),
                   static_cast<long long>(f.report.settings.max_model_len),
                   static_cast<long long>(f.max_len.ok ? f.max_len.value : 0))
            << f.report.reason << "\n";
    }
}

std::string assumed_vram_note(const kvcalc::Report& r) {
    return fmt("Note: no --card given: priced on %.2f GB (%.2f GiB) per card, kvcalc's default VRAM; give --card GPU "
               "(--list-gpus) or --vram GB for your card",
               bytes_to_gb(r.settings.vram_bytes), bytes_to_gib(r.settings.vram_bytes));
}

void print_shop(std::ostream& out, const kvcalc::Report& r, const std::vector<kvcalc::ShopRow>& rows, ShopView view,
                int pinned_tp) {
    const auto& s = r.settings;
    const bool per_card = s.kv_cache_dtype.rfind("auto", 0) == 0;  // "auto (bf16)": resolved per card below
    out << "GPU shopping: " << s.display_name << ", max_model_len " << s.max_model_len << ", max_num_seqs "
        << (s.max_num_seqs_is_default ? std::string("vLLM's default for each card (one full-length request must fit)")
                                      : std::to_string(s.max_num_seqs))
        << ", kv_cache_dtype " << (per_card ? std::string("auto (the model's dtype on each card)") : s.kv_cache_dtype)
        << ", engine " << r.engine << "\n";
    if (pinned_tp > 0) {
        out << (view == ShopView::one_gpu ? "One GPU (--gpu)" : "Every GPU") << " at tensor_parallel_size " << pinned_tp
            << " (--tp): " << pinned_tp << (pinned_tp == 1 ? " card" : " cards") << " each.\n";
    } else {
        switch (view) {
            case ShopView::best_per_gpu:
                out << "One row per GPU, at the fewest cards (1, 2, 4, 8) that pass, else boot; --every-count lists each count.\n";
                break;
            case ShopView::every_count: out << "Every GPU at 1, 2, 4 and 8 cards.\n"; break;
            case ShopView::one_gpu: out << "One GPU (--gpu) at 1, 2, 4 and 8 cards.\n"; break;
        }
        out << "Each row runs tensor_parallel_size = its card count; --tp N prices every GPU at N cards only.\n";
    }
    out << "Order: PASS, TIGHT, FAIL, not possible; then the least total VRAM (kvcalc has no prices), fewer cards,\n"
           "the longer context. 'boots up to': the largest max_model_len that starts; 'concurrency': full-length\n"
           "requests the KV pool holds at max_model_len (vLLM's 'Maximum concurrency').\n\n";
    out << fmt("  %-26s %5s %9s %6s %-9s %-12s %11s %11s  %s\n", "gpu", "cards", "total GB", "seqs", "kv dtype", "verdict",
               "boots up to", "concurrency", "note");
    for (const auto& row : rows) {
        const double total_gb = bytes_to_gb(row.total_vram_bytes);
        if (!row.valid) {
            out << fmt("  %-26s %5d %9.2f %6s %-9s %-12s %11s %11s  ", row.gpu_id.c_str(), row.cards, total_gb, "-", "-",
                       "not possible", "-", "-")
                << row.note << "\n";
            continue;
        }
        out << fmt("  %-26s %5d %9.2f %6lld %-9s %-12s %11lld %11s  ", row.gpu_id.c_str(), row.cards, total_gb,
                   static_cast<long long>(row.max_num_seqs), row.kv_cache_dtype.c_str(),
                   kvcalc::verdict_name(row.verdict),
                   static_cast<long long>(row.max_model_len), kvcalc::concurrency_text(row.max_concurrency).c_str())
            << (row.note.empty() ? "largest term: " + std::string(kvcalc::term_label(row.limiting_term)) : row.note) << "\n";
    }
}

void print_calibration(std::ostream& out, const kvcalc::CalibrationSummary& c) {
    out << "Calibration: a row is right when the verdict is not FAIL (every row booted) and the measured peak lies\n"
           "inside the band around the predicted reserve (fixed terms + the whole KV pool vLLM allocates; band: at most\n"
           "the Report's band over it, at most 3.5 GB under it; docs/ACCURACY.md)\n\n";
    out << fmt("  %-44s %10s %10s %12s %12s %9s %7s %s\n", "row", "demand GB", "budget GB", "reserve GiB",
               "measured GiB", "band+ GiB", "verdict", "ok / reserve");
    const auto& rows = kvcalc::calibration_rows();
    for (std::size_t i = 0; i < c.results.size(); ++i) {
        const auto& r = c.results[i];
        const auto& t = r.report.terms;
        // results follow calibration_rows() order; show the preset name next to the row id
        const std::string label = r.row_id + (i < rows.size() && rows[i].id == r.row_id && !rows[i].scenario.compose.empty()
                                                  ? " " + rows[i].scenario.compose : "");
        out << fmt("  %-44s %10.2f %10.2f %12.2f %12.2f %9.2f %7s %s / %s%s\n", label.c_str(), bytes_to_gb(t.demand_bytes),
                   bytes_to_gb(t.budget_bytes), bytes_to_gib(r.predicted_reserve_bytes), bytes_to_gib(r.measured_peak_bytes),
                   bytes_to_gib(r.band_bytes), r.report.ok ? kvcalc::verdict_name(r.report.verdict) : "ERROR",
                   r.correct ? "yes" : "NO", kvcalc::reserve_check_name(r.reserve),
                   r.circular ? " (measured = budget, circular)" : "");
    }
    out << "\n";
    for (const auto& m : c.per_model) out << fmt("  %-44s %d/%d\n", m.model_id.c_str(), m.correct, m.total);
    out << fmt("  %-44s %d/%d\n", "all", c.correct, c.total);
    out << fmt("  %-44s %d/%d within (%d over, %d under); weights alone: %d/%d\n", "reserve vs measured peak",
               c.reserve_within, c.reserve_checked, c.reserve_over, c.reserve_under, c.weights_only_within,
               c.reserve_checked);
}

void print_models(std::ostream& out) {
    for (const auto& m : kvcalc::model_catalog()) {
        out << m.id << "  " << m.display_name << "  (" << m.family << ", " << m.num_hidden_layers << " layers"
            << (m.calibrated ? ", calibrated" : "") << ")\n";
        for (const auto& w : m.weights) out << fmt("    weights %-24s %7.2f GB\n", w.id.c_str(), w.size_gb);
        for (const auto& d : m.drafters)
            out << fmt("    drafter %-24s %7.2f GB  %s, %d tokens\n", d.id.c_str(), d.weights_gb, d.method.c_str(),
                       d.num_speculative_tokens);
    }
}

void print_gpus(std::ostream& out) {
    for (const auto& g : kvcalc::gpu_catalog()) {
        out << fmt("%-22s %7.2f GiB %7.2f GB  sm_%-3d %s\n", g.id.c_str(), bytes_to_gib(g.vram_bytes),
                   bytes_to_gb(g.vram_bytes), g.sm_x10, g.display_name.c_str());
    }
}

void print_composes(std::ostream& out) {
    for (const auto& p : kvcalc::compose_presets()) {
        const auto& s = p.scenario;
        out << fmt("%-52s tp=%d kv=%s ctx=%lld seqs=%lld mem-util=%g", p.id.c_str(), s.tensor_parallel_size,
                   s.kv_cache_dtype.c_str(), static_cast<long long>(s.max_model_len),
                   static_cast<long long>(s.max_num_seqs), s.gpu_memory_utilization);
        if (!s.drafter.empty()) out << " drafter=" << s.drafter;
        if (!s.weights_variant.empty()) out << " weights=" << s.weights_variant;
        out << "\n";
    }
}

}  // namespace kvcli
