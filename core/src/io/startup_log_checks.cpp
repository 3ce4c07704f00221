// Checks between numbers one boot printed: when the engine's own arithmetic does not hold on them, the log was
// edited, mixed from two boots, or garbled, and nothing should be priced from it.
#include <cmath>
#include <cstdio>
#include <string>

#include "io/startup_log_internal.h"
#include "util/text.h"

namespace kvcalc::startup_log {
namespace {

const LogFact* first(const std::vector<LogFact>& facts, std::string_view name, const std::string* rank = nullptr) {
    for (const LogFact& f : facts)
        if (f.has_value && f.name == name && (!rank || f.rank == *rank)) return &f;
    return nullptr;
}

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

void contradiction(Diagnostics& d, const LogFact& at, std::string message) {
    d.push_back(Diagnostic{Severity::error, "log_contradiction", "log:" + std::to_string(at.line), std::move(message)});
}

}  // namespace

void check_consistency(const std::vector<LogFact>& facts, Diagnostics& d) {
    // vLLM V0 0.6.5–0.10 (vllm/worker/worker.py determine_num_available_blocks): requested = total × utilization,
    // and requested = weights + non-torch + torch peak + KV. Each term is printed to 0.01 GiB.
    const LogFact* total = first(facts, "total_gpu_memory_gib");
    const LogFact* util = total ? first(facts, "gpu_memory_utilization", &total->rank) : nullptr;
    const LogFact* req = total ? first(facts, "requested_memory_gib", &total->rank) : nullptr;
    if (total && util && req && std::fabs(total->value * util->value - req->value) > 0.01 + 0.005 * util->value + 0.006) {
        contradiction(d, *req,
                      text::cat("line ", std::to_string(req->line), ": ", num(total->value), " GiB × ",
                                num(util->value), " is not ", num(req->value), " GiB as printed"));
    }
    const LogFact* w = first(facts, "model_weights_gib");
    if (w && req) {
        const LogFact* nt = first(facts, "non_torch_memory_gib", &w->rank);
        const LogFact* pk = first(facts, "torch_peak_memory_gib", &w->rank);
        const LogFact* kv = first(facts, "available_kv_cache_gib", &w->rank);
        const LogFact* rq = first(facts, "requested_memory_gib", &w->rank);
        const LogFact* cg = first(facts, "cudagraph_memory_gib", &w->rank);
        if (nt && pk && kv && rq && !cg) {
            const double sum = w->value + nt->value + pk->value + kv->value;
            if (std::fabs(sum - rq->value) > 0.03) {
                contradiction(d, *kv,
                              text::cat("line ", std::to_string(kv->line), ": weights ", num(w->value), " + non-torch ",
                                        num(nt->value), " + activation peak ", num(pk->value), " + KV ",
                                        num(kv->value), " = ", num(sum), " GiB, but line ", std::to_string(rq->line),
                                        " says the instance can use ", num(rq->value), " GiB"));
            }
        }
    }
    // llama.cpp (llama_kv_cache size line): KV self size = K + V, each printed to 0.01 MiB.
    for (const LogFact& f : facts) {
        if (f.name.rfind("kv_self_size", 0) != 0) continue;
        const LogFact* k = nullptr;
        const LogFact* v = nullptr;
        for (const LogFact& g : facts) {
            if (g.line != f.line) continue;
            if (g.name.rfind("k_size", 0) == 0) k = &g;
            if (g.name.rfind("v_size", 0) == 0) v = &g;
        }
        if (k && v && k->unit == f.unit && v->unit == f.unit && std::fabs(k->value + v->value - f.value) > 0.02)
            contradiction(d, f,
                          text::cat("line ", std::to_string(f.line), ": K ", num(k->value), " + V ", num(v->value),
                                    " is not the KV size ", num(f.value), " ", f.unit));
    }
    // Sizes that cannot be negative.
    for (const LogFact& f : facts) {
        if (!f.has_value || f.value >= 0) continue;
        if (f.name == "graph_capture_gib") continue;  // a capture can free memory
        contradiction(d, f, text::cat("line ", std::to_string(f.line), ": ", f.name, " is ", num(f.value),
                                      "; a negative size is not a real start-up"));
    }
}

}  // namespace kvcalc::startup_log
