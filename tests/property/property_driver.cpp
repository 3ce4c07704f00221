// Property tests over random scenarios (docs/RELIABILITY.md). Not doctest: one driver that generates N scenarios from a
// fixed seed, checks every invariant and exits 1 on the first broken one (with a reproducer), 0 otherwise.
//
//   property_tests [--scenarios N] [--links N] [--solves N] [--seed S] [--cli PATH]
//
// 1. N random scenarios, valid and invalid, every field, every engine: no crash, report_invariants.h holds
//    (no NaN/Inf, no negative or saturated bytes, verdict ∈ PASS/TIGHT/FAIL, ok=false ⇔ an error).
// 2. Monotonicity: for valid scenarios, demand never decreases when max_model_len or max_num_seqs grows.
// 3. Solvers: solve_max_model_len's answer boots by predict's own verdict, its 1024-rounded value too, and
//    answer + 1 and the next 1024 block do not (unless the answer is the length limit).
// 4. Links: encode → decode → encode is identical and warning-free for valid scenarios, and the report
//    (JSON) is identical.
// 5. Front ends: for a few scenarios the CLI (--from-url LINK --json), evaluate_json and predict(decode(link))
//    give the same report.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvcalc/io/api.h"
#include "kvcalc/catalog/catalog.h"
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/io/json_io.h"
#include "kvcalc/io/json_results.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/model/layer_kinds.h"
#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/solver.h"
#include "kvcalc/io/url_codec.h"
#include "report_invariants.h"

namespace {

using kvcalc::Report;
using kvcalc::Scenario;
using nlohmann::json;

struct Options {
    long scenarios = 1000000;
    long links = 10000;
    long solves = 100000;
    unsigned long long seed = 14;
    std::string cli;
};

[[noreturn]] void fail(const std::string& what, const Scenario& s) {
    json j = s;
    std::fprintf(stderr, "PROPERTY BROKEN: %s\nscenario: %s\n", what.c_str(), kvcalc::dump_safe(j).c_str());
    std::exit(1);
}

class Gen {
  public:
    explicit Gen(unsigned long long seed) : rng_(seed) {
        for (const auto& m : kvcalc::model_catalog()) models_.push_back(&m);
        for (const auto& g : kvcalc::gpu_catalog()) gpus_.push_back(g.id);
        formats_ = kvcalc::kv_format_names();
        for (const auto& p : kvcalc::popular_model_sources()) configs_.push_back(p.config_json);
    }

    std::int64_t uniform(std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_); }
    double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    bool chance(double p) { return real(0, 1) < p; }
    /// Log-uniform integer in [lo, hi].
    std::int64_t log_uniform(std::int64_t lo, std::int64_t hi) {
        const double x = std::exp(real(std::log(static_cast<double>(lo)), std::log(static_cast<double>(hi) + 1)));
        return std::clamp(static_cast<std::int64_t>(x), lo, hi);
    }
    template <class T> const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(v.size()) - 1))]; }

    /// A scenario inside the schema's ranges; `wide` lets length and concurrency span 1..2^27 and 1..65,536.
    Scenario valid(bool wide) {
        Scenario s;
        const kvcalc::ModelSpec* m = pick(models_);
        const double kind = real(0, 1);
        if (kind < 0.08) {
            s.config_json = pick(configs_);
            if (chance(0.5)) s.weights_dtype = pick(std::vector<std::string>{"auto", "bf16", "fp8", "int4", "nvfp4", "mxfp4"});
        } else if (kind < 0.16) {
            s.model = *m;  // inline copy of a catalog model
        } else {
            s.model_id = m->id;
        }
        const std::vector<int> tps = kvcalc::valid_tensor_parallel_sizes(*m);
        s.tensor_parallel_size = s.config_json.empty() && !tps.empty() ? pick(tps) : 1;
        if (s.config_json.empty() && chance(0.1)) s.gpus = static_cast<int>(uniform(s.tensor_parallel_size, 8));
        const double hw = real(0, 1);
        if (hw < 0.6) s.gpu = pick(gpus_);
        else if (hw < 0.8) s.vram_gb = real(1, wide ? 1e6 : 200);
        else if (hw < 0.95) s.vram_gib = real(1, 200);
        s.engine = pick(std::vector<std::string>{"vllm", "vllm", "vllm", "llama.cpp", "sglang"});
        s.kv_cache_dtype = pick(formats_);
        const std::int64_t max_len = m->max_position_embeddings > 0 && s.config_json.empty() && !wide
                                         ? m->max_position_embeddings
                                         : std::int64_t{1} << 27;
        s.max_model_len = log_uniform(1, std::min<std::int64_t>(max_len, std::int64_t{1} << 27));
        if (!s.config_json.empty() && !wide) s.max_model_len = log_uniform(1, 32768);
        s.max_num_seqs = log_uniform(1, wide ? 65536 : 4096);
        s.gpu_memory_utilization = real(0.01, 1.0);
        if (chance(0.2)) s.max_num_batched_tokens = log_uniform(1, std::int64_t{1} << 27);
        if (s.config_json.empty()) {
            if (chance(0.3) && !m->weights.empty()) s.weights_variant = pick(m->weights).id;
            if (chance(0.2) && !m->drafters.empty()) s.drafter = pick(m->drafters).id;
            if (chance(0.1)) s.mtp = chance(0.5);
        }
        if (chance(0.15)) s.weights_gb = real(0.1, 2000);
        if (chance(0.05)) s.drafter_gb = real(0, 10);
        if (chance(0.05)) s.num_speculative_tokens = static_cast<int>(uniform(0, 64));
        if (chance(0.1)) {
            s.include_draft_kv = chance(0.5);
            s.draft_kv_gb = real(0, 10);
            s.compressed_layers = static_cast<int>(uniform(0, 4096));
            s.compression_ratio = static_cast<int>(log_uniform(1, 1 << 20));
            s.compressed_head_dim = static_cast<int>(uniform(0, 65536));
            s.indexer_ratio_layers = static_cast<int>(uniform(0, 4096));
            s.indexer_compress_ratio = static_cast<int>(log_uniform(1, 1 << 20));
            s.indexer_head_dim = static_cast<int>(uniform(0, 65536));
            s.indexer_format = pick(std::vector<std::string>{"fp16", "bf16", "fp8_e5m2", "fp8_e4m3", "int8", "fp4", "int4"});
        }
        return s;
    }

    /// One field of `s` set to a value outside its range (or a name that does not exist).
    void break_one(Scenario& s) {
        const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
        const std::vector<double> bad_real{0.0, -0.0, -1.0, nan, inf, -inf, 1e300, 1e7};
        const std::vector<std::int64_t> bad_int{0, -1, -65536, std::numeric_limits<std::int64_t>::min(),
                                                std::numeric_limits<std::int64_t>::max(), (std::int64_t{1} << 27) + 1,
                                                65537, std::numeric_limits<int>::max()};
        auto bad_i32 = [&] { return static_cast<int>(std::clamp<std::int64_t>(pick(bad_int), INT32_MIN, INT32_MAX)); };
        switch (uniform(0, 20)) {
            case 0: s.model_id = pick(std::vector<std::string>{"", "nope", "LLAMA", "qwen3.6-27b "}); s.model.reset(); s.config_json.clear(); break;
            case 1: s.gpu = "rtx-9999"; s.vram_gb.reset(); s.vram_gib.reset(); break;
            case 2: s.vram_gb = pick(bad_real); s.gpu.clear(); s.vram_gib.reset(); break;
            case 3: s.vram_gib = real(1, 80); s.vram_gb = real(1, 80); break;  // two VRAM sources
            case 4: s.tensor_parallel_size = static_cast<int>(uniform(-2, 12)); break;
            case 5: s.kv_cache_dtype = pick(std::vector<std::string>{"", "fp7", "FP16", "q4_1"}); break;
            case 6: s.max_model_len = pick(bad_int); break;
            case 7: s.max_num_seqs = pick(bad_int); break;
            case 8: s.gpu_memory_utilization = pick(bad_real); break;
            case 9: s.max_num_batched_tokens = pick(bad_int); break;
            case 10: s.weights_gb = pick(bad_real); break;
            case 11: s.weights_variant = "no-such-variant"; break;
            case 12: s.weights_dtype = pick(std::vector<std::string>{"int3", "fp9", "BF16"}); break;
            case 13: s.drafter = "eagle9"; break;
            case 14: s.drafter_gb = pick(bad_real); break;
            case 15: s.num_speculative_tokens = bad_i32(); break;
            case 16: s.engine = pick(std::vector<std::string>{"tgi", "VLLM ", "ollama"}); break;
            case 17: s.gpus = static_cast<int>(uniform(-3, 12)); break;
            case 18: s.compressed_layers = bad_i32(); break;
            case 19: s.indexer_format = "fp3"; break;
            default:
                if (s.model && !s.model->layers.empty()) {  // an inline model with one number broken
                    auto& l = s.model->layers[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(s.model->layers.size()) - 1))];
                    const int v = bad_i32();
                    // One of the kind's own fields (the fact sheet's table); a layer without fields becomes a
                    // latent of that width.
                    const auto fields = kvcalc::layer_fields(l);
                    if (fields.empty()) l = kvcalc::MlaLatent{v, 0, 0};
                    else fields[static_cast<std::size_t>(uniform(0, static_cast<std::int64_t>(fields.size()) - 1))].set(l, v);
                } else {
                    s.max_model_len = 0;
                }
        }
    }

  private:
    std::mt19937_64 rng_;
    std::vector<const kvcalc::ModelSpec*> models_;
    std::vector<std::string> gpus_, formats_, configs_;
};

void check(const Report& r, const Scenario& s, const char* what) {
    const std::string p = kvinv::check_report(r);
    if (!p.empty()) fail(std::string(what) + ": " + p, s);
}

/// The comparable part of a report document: everything but the diagnostics.
json core_of(json j) {
    j.erase("diagnostics");
    j.erase("solvers");
    return j;
}

std::string run(const std::string& command) {
    std::string out;
    if (FILE* p = popen(command.c_str(), "r")) {
        char buf[4096];
        std::size_t n = 0;
        while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
        pclose(p);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
#ifdef KVCALC_BIN
    o.cli = KVCALC_BIN;
#endif
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--scenarios") o.scenarios = std::stol(v);
        else if (k == "--links") o.links = std::stol(v);
        else if (k == "--solves") o.solves = std::stol(v);
        else if (k == "--seed") o.seed = std::stoull(v);
        else if (k == "--cli") o.cli = v;
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    const auto start = std::chrono::steady_clock::now();
    Gen g(o.seed);
    long ok = 0, invalid_given = 0, pass = 0, tight = 0, failv = 0, len_pairs = 0, seq_pairs = 0;

    // 1 + 2: random scenarios, a third with one broken field; pairs for monotonicity.
    for (long i = 0; i < o.scenarios; ++i) {
        Scenario s = g.valid(i % 2 == 1);
        const bool broken = i % 3 == 0;
        if (broken) {
            g.break_one(s);
            ++invalid_given;
        }
        const Report r = kvcalc::predict(s);
        check(r, s, "predict");
        if (!r.ok) continue;
        ++ok;
        (r.verdict == kvcalc::Verdict::pass ? pass : r.verdict == kvcalc::Verdict::tight ? tight : failv)++;
        // vLLM's profiled terms (torch peak of the dummy run, CUDA-graph capture list) are not monotone when the
        // batch is tiny: the default max_num_batched_tokens is capped at max_num_seqs × max_model_len, is added to
        // the capture sizes only while it is ≤ the largest capture size (config/vllm.py _set_cudagraph_sizes), and
        // the dummy run splits it over min(tokens, max_num_seqs) requests; and the sampler sorts below 8 rows but
        // takes the leaner Triton top-k/top-p kernel from 8 (topk_topp_sampler.py), so 7 → 8 sequences lowers the
        // peak. For those scenarios (uncalibrated models on vLLM) only demand without activation and CUDA graphs
        // must grow; everywhere else the whole demand must.
        const std::int64_t mnbt = s.max_num_batched_tokens.value_or(s.max_model_len * s.max_num_seqs);
        const bool profiled_moves = r.engine == "vllm" && !r.calibrated && (mnbt < 16384 || s.max_num_seqs < 8);
        auto demand = [&](const Report& x) {
            return profiled_moves ? x.terms.demand_bytes - x.terms.activation_bytes - x.terms.cudagraph_workspace_bytes
                                  : x.terms.demand_bytes;
        };
        if (i % 5 == 1) {
            Scenario longer = s;
            longer.max_model_len = std::min<std::int64_t>(s.max_model_len + g.log_uniform(1, s.max_model_len), std::int64_t{1} << 27);
            const Report r2 = kvcalc::predict(longer);
            check(r2, longer, "predict (longer)");
            if (r2.ok) {
                ++len_pairs;
                if (demand(r2) < demand(r)) fail("demand fell when max_model_len grew", longer);
            }
        } else if (i % 5 == 2) {
            Scenario more = s;
            more.max_num_seqs = std::min<std::int64_t>(s.max_num_seqs + g.log_uniform(1, s.max_num_seqs), 65536);
            const Report r2 = kvcalc::predict(more);
            check(r2, more, "predict (more seqs)");
            if (r2.ok) {
                ++seq_pairs;
                if (demand(r2) < demand(r)) fail("demand fell when max_num_seqs grew", more);
            }
        }
    }
    const double t1 = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // 3: the max_model_len solver against predict's own verdict.
    long solved = 0, bounded = 0;
    for (long i = 0; i < o.solves; ++i) {
        Scenario s = g.valid(i % 2 == 1);
        if (i % 4 != 0) {  // mostly cards where the budget, not the model's context, bounds the answer
            s.gpu.clear();
            s.vram_gib.reset();
            s.vram_gb = g.real(4, 48);
        }
        const kvcalc::SolveResult a = kvcalc::solve_max_model_len(s);
        const std::string p = kvinv::check_solve(a, "max_model_len");
        if (!p.empty()) fail(p, s);
        if (!a.ok) continue;
        ++solved;
        auto boots = [&](std::int64_t len) {
            Scenario at = s;
            at.max_model_len = len;
            const Report r = kvcalc::predict(at);
            check(r, at, "predict at a solver answer");
            return r.ok && r.verdict != kvcalc::Verdict::fail;
        };
        if (!boots(a.value)) fail("solve_max_model_len's answer " + std::to_string(a.value) + " does not boot", s);
        if (a.value_rounded >= 1 && !boots(a.value_rounded)) fail("the 1024-rounded answer does not boot", s);
        if (a.bound == "budget") {
            ++bounded;
            if (boots(a.value + 1)) fail("answer + 1 = " + std::to_string(a.value + 1) + " boots too", s);
            if (boots(a.value_rounded + 1024)) fail("the next 1024 block boots too", s);
        }
    }
    const double t2 = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    // 4: link round trip on valid scenarios that a link can carry (catalog models).
    long links = 0;
    for (long i = 0; links < o.links && i < o.links * 20; ++i) {
        Scenario s = g.valid(false);
        if (!s.config_json.empty() || s.model) continue;
        const Report r = kvcalc::predict(s);
        if (!r.ok) continue;
        ++links;
        const std::string q = kvcalc::encode_query(s);
        kvcalc::Diagnostics d;
        const Scenario back = kvcalc::decode_query(q, d);
        if (!d.empty()) fail("decoding an encoded link warned: " + d.front().message, s);
        if (kvcalc::encode_query(back) != q) fail("encode → decode → encode changed the link", s);
        if (json(kvcalc::predict(back)) != json(r)) fail("the link's report differs from the scenario's", s);
    }

    // 5: CLI, JSON API and link agree (a handful: each CLI run is a process).
    long fronts = 0;
    if (!o.cli.empty()) {
        for (long i = 0; fronts < 12 && i < 1000; ++i) {
            Scenario s = g.valid(false);
            if (!s.config_json.empty() || s.model) continue;
            const Report r = kvcalc::predict(s);
            if (!r.ok) continue;
            const std::string q = kvcalc::encode_query(s);
            json request = s;
            const json api = json::parse(kvcalc::evaluate_json(kvcalc::dump_safe(request)));
            const std::string out = run("'" + o.cli + "' --from-url '" + q + "' --json 2>/dev/null");
            const json from_cli = json::parse(out, nullptr, false);
            if (from_cli.is_discarded()) fail("the CLI did not print one JSON document for --from-url " + q, s);
            if (core_of(api) != core_of(json(r))) fail("evaluate_json and predict disagree", s);
            if (core_of(from_cli) != core_of(json(r))) fail("the CLI (--from-url " + q + ") and predict disagree", s);
            ++fronts;
        }
    }
    const double t3 = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::printf("property: %ld scenarios (%ld with a broken field), %ld ok: PASS %ld / TIGHT %ld / FAIL %ld; %.1f s\n",
                o.scenarios, invalid_given, ok, pass, tight, failv, t1);
    std::printf("property: monotonic pairs: %ld in max_model_len, %ld in max_num_seqs\n", len_pairs, seq_pairs);
    std::printf("property: %ld max_model_len answers checked (%ld budget-bound), %.1f s\n", solved, bounded, t2 - t1);
    std::printf("property: %ld link round trips, %ld CLI/API/link comparisons; total %.1f s\n", links, fronts, t3);
    return 0;
}
