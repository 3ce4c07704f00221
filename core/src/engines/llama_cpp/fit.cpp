// llama.cpp's --fit for one GPU, emulated on kvcalc's buffer rules (common/fit.cpp common_params_fit_impl): cut
// the context first, then keep layers or experts on the CPU until the device's model + KV + compute leave the margin.
#include <algorithm>
#include <string>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc {

namespace {

struct Try {
    LlamaCppBuffers b;
    std::int64_t used = 0;
    bool ok = false;  ///< predicted without errors
};

Try measure(const std::vector<GgufHeader>& parts, const ModelSpec& m, LlamaCppSettings s, LlamaCppPlacement p,
            std::int64_t n_ctx, int ngl, int n_cpu_moe) {
    s.n_ctx = n_ctx;
    p.n_gpu_layers = ngl;
    p.n_cpu_moe = n_cpu_moe;
    Try t;
    t.b = predict_llama_cpp_buffers(parts, m, s, p);
    t.ok = !has_error(t.b.diagnostics);
    t.used = sat_add(sat_add(t.b.gpu_model_bytes, t.b.gpu_kv_bytes), t.b.gpu_compute.upper_bytes);
    return t;
}

bool has_experts(const std::vector<GgufHeader>& parts) {
    for (const auto& h : parts)
        for (const auto& t : h.tensors)
            if (t.name.find("_exps") != std::string::npos) return true;
    return false;
}

}  // namespace

LlamaCppFit fit_llama_cpp(const std::vector<GgufHeader>& parts, const ModelSpec& m, const LlamaCppSettings& s,
                          const LlamaCppPlacement& p, const LlamaCppFitRequest& r) {
    LlamaCppFit f;
    if (r.free_bytes <= 0) {
        f.diagnostics.push_back({Severity::error, "bad_setting", "free_bytes", "the device's free memory must be > 0"});
        return f;
    }
    const int n_layer = static_cast<int>(m.layers.size());
    const std::int64_t streams = s.kv_unified ? 1 : std::max(s.n_seq_max, 1);
    const std::int64_t target = r.free_bytes - r.margin_bytes;
    const std::int64_t ctx_max =
        r.n_ctx_auto ? sat_mul(std::max<std::int64_t>(m.max_position_embeddings, 1), streams) : s.n_ctx;
    const std::int64_t ctx_min = std::min(ctx_max, sat_mul(std::max<std::int64_t>(r.n_ctx_min, 1), streams));

    auto done = [&](Try t, std::int64_t n_ctx, int ngl, int n_cpu_moe, bool fits) {
        f.fits = fits;
        f.n_ctx = n_ctx;
        f.n_gpu_layers = ngl;
        f.n_cpu_moe = n_cpu_moe;
        f.used_bytes = t.used;
        f.buffers = std::move(t.b);
        f.arguments = "-c " + std::to_string(n_ctx) + " -ngl " + std::to_string(ngl < 0 ? n_layer + 1 : ngl);
        if (n_cpu_moe > 0) f.arguments += " --n-cpu-moe " + std::to_string(n_cpu_moe);
        return f;
    };

    // Step 1: the requested settings, everything on the GPU.
    Try full = measure(parts, m, s, p, ctx_max, -1, 0);
    if (!full.ok) {
        f.diagnostics = full.b.diagnostics;
        return f;
    }
    if (full.used <= target) return done(std::move(full), ctx_max, -1, 0, true);

    // Step 2: a smaller context, when the user left it to the fit.
    std::int64_t n_ctx = ctx_max;
    if (r.n_ctx_auto && ctx_max > ctx_min) {
        Try small = measure(parts, m, s, p, ctx_min, -1, 0);
        if (small.ok && target > small.used && full.used > small.used) {
            const std::int64_t align = 256 * streams;
            // The share of the span in double: (ctx_max - ctx_min) × (target - small.used) overflows int64 for a
            // long context over many sequences on a large card (2^28 cells × 2^40 bytes).
            const double share =
                static_cast<double>(target - small.used) / static_cast<double>(full.used - small.used);
            std::int64_t c = ctx_min + static_cast<std::int64_t>(static_cast<double>(ctx_max - ctx_min) * share);
            c = std::max(c - c % align, ctx_min);
            // The interpolation is linear; KV padding and the compute buffer are not, so step down until it fits.
            for (;;) {
                Try t = measure(parts, m, s, p, c, -1, 0);
                if (t.used <= target || c <= ctx_min) {
                    if (t.used <= target) {
                        f.notes.push_back("the context was cut to fit, as llama.cpp's fit does before moving layers");
                        return done(std::move(t), c, -1, 0, true);
                    }
                    break;
                }
                c = std::max(c - align, ctx_min);
            }
        }
        n_ctx = ctx_min;
    }

    // Step 3: layers (or experts) to the CPU, at that context.
    // A MoE model: all n_layer repeating layers on the GPU and the output layer on the CPU (-ngl n_layer), as the
    // real fit does (build 6895, tests/data/gguf/logs/fit-params-readme-qwen3-30b-a3b-f16-rtx4090.log: "48 layers
    // (34 overflowing)", -ngl 48 of 48); its product still runs on the GPU (op offload), so the output matrix is
    // priced in the compute buffer instead of the model buffer.
    if (has_experts(parts)) {
        for (int k = 1; k <= n_layer; ++k) {
            Try t = measure(parts, m, s, p, n_ctx, n_layer, k);
            if (t.ok && t.used <= target) {
                f.notes.push_back("MoE: the experts of the first layers stay on the CPU (--n-cpu-moe), dense weights on "
                                  "the GPU, the output layer on the CPU as llama.cpp's fit leaves it");
                return done(std::move(t), n_ctx, n_layer, k, true);
            }
        }
    }
    const int moe = has_experts(parts) ? n_layer : 0;
    for (int ngl = n_layer; ngl >= 0; --ngl) {
        Try t = measure(parts, m, s, p, n_ctx, ngl, moe);
        if (t.ok && t.used <= target) return done(std::move(t), n_ctx, ngl, moe, true);
    }
    f.notes.push_back("even with no layer on the GPU the device's buffers leave less than the margin free");
    return done(measure(parts, m, s, p, n_ctx, 0, moe), n_ctx, 0, moe, false);
}

}  // namespace kvcalc
