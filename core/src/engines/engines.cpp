// The engines table and the dispatch from a deployment's plan to its engine (one deploy_<engine>.cpp each).
// Adding an engine: one EngineId value, one row here, one KvPlan alternative and its deploy_<engine>.cpp; the
// visitors below (no generic branch) fail to compile until the new alternative is handled.
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "engines/deploy_internal.h"
#include "config/served_model.h"
#include "engines/startup_stop.h"
#include "util/text.h"

namespace kvcalc {

namespace {
constexpr const char* kLlamaCppAliases[] = {"llama-cpp", "llamacpp", "llama_cpp"};
// A constant table (no function-local static): engine_info() runs a few times per predict().
constexpr EngineInfo kEngines[] = {
    {EngineId::vllm, "vllm", "vLLM", {}},
    {EngineId::llama_cpp, "llama.cpp", "llama.cpp", kLlamaCppAliases},
    {EngineId::sglang, "sglang", "SGLang", {}},
};
}  // namespace

std::span<const EngineInfo> engines() { return kEngines; }

const EngineInfo* find_engine(std::string_view name) {
    if (name.empty()) return &engines().front();
    for (const auto& e : engines()) {
        if (text::iequal(e.name, name)) return &e;
        for (const char* a : e.aliases)
            if (text::iequal(a, name)) return &e;
    }
    return nullptr;
}

const EngineInfo& engine_info(EngineId id) { return kEngines[static_cast<std::size_t>(id)]; }

EngineKvSpelling engine_kv_spelling(EngineId engine, KvFormatId format) {
    switch (engine) {
        case EngineId::vllm: return detail::vllm_spelling(format);
        case EngineId::llama_cpp: return detail::llama_cpp_spelling(format);
        case EngineId::sglang: return detail::sglang_spelling(format);
    }
    return {};
}

const KvFormat& engine_run_format(EngineId engine, const KvFormat& format) {
    const EngineKvSpelling s = engine_kv_spelling(engine, format.id);
    if (s.exact) return format;
    // The engines' own spellings of kvcalc's names (vllm/config/cache.py CacheDType: "fp8" is fp8_e4m3 on CUDA;
    // llama.cpp's "f16").
    struct Alias {
        std::string_view spelling, name;
    };
    static constexpr Alias aliases[] = {{"float16", "fp16"}, {"f16", "fp16"},          {"bfloat16", "bf16"},
                                        {"fp8", "fp8_e4m3"}, {"turboquant_k8v4", "k8v4"}};
    std::string_view name = s.k;
    for (const Alias& a : aliases)
        if (a.spelling == name) name = a.name;
    const KvFormat* f = find_kv_format(name);
    return f ? *f : format;
}

const KvFormat* engine_kv_format_that_runs(EngineId engine, const KvFormat& format, const GpuSpec* card) {
    if (!card) return nullptr;
    const KvFormat* best = nullptr;
    for (const KvFormat& f : kv_formats()) {
        // A note on a format with no hardware floor is a caveat of its own (TurboQuant 3-bit: Qwen 3.6 only).
        const bool caveat = f.min_sm_x10 == 0 && f.hardware_note[0] != '\0';
        if (f.bpe_x400 < format.bpe_x400 || caveat || !engine_kv_spelling(engine, f.id).exact ||
            kv_format_support(f, card) != KvSupport::runs)
            continue;
        if (!best || f.bpe_x400 < best->bpe_x400) best = &f;  // table order breaks ties (fp8_e5m2 before int8)
    }
    return best;
}

StartupPrediction startup_lines(const Deployment& d, const Load& load, const BudgetTerms& t, bool explain) {
    StartupPrediction out;
    startup_lines(d, load, t, explain, out);
    return out;
}

void startup_lines(const Deployment& d, const Load& load, const BudgetTerms& t, bool explain, StartupPrediction& out) {
    std::visit([&](const auto& plan) { detail::startup(d, plan, load, t, explain, out); }, d.plan);
    detail::apply_startup_stop(d, load, t, out);  // the one rule of why it stops, for every engine
}

std::string serve_command(const Deployment& d, const Load& load) {
    return std::visit([&](const auto& plan) { return detail::command(d, plan, load); }, d.plan);
}

namespace detail {

KvPlan make_plan(const Deployment& d, Diagnostics& diags) {
    switch (d.engine) {
        case EngineId::vllm: return make_vllm(d, diags);
        case EngineId::llama_cpp: return make_llama_cpp(d, diags);
        case EngineId::sglang: return make_sglang(d, diags);
    }
    return make_vllm(d, diags);
}

EngineKvSpelling deployment_kv_spelling(const Deployment& d) {
    if (d.kv_auto && d.engine != EngineId::llama_cpp) return {"auto", "auto", true};
    return engine_kv_spelling(d.engine, d.format->id);
}

std::string engine_name_list() {
    std::string out;
    for (const auto& e : engines()) out += (out.empty() ? "" : ", ") + std::string(e.name);
    return out;
}

std::string stand_in_note(const char* engine, const KvFormat& f, const EngineKvSpelling& s) {
    // The bytes quoted are the stand-in's, which the engine's plan prices (kv_format.h find_engine_kv_dtype).
    auto bytes = [](const std::string& spelling) {
        const KvFormat* x = find_engine_kv_dtype(spelling);
        return std::string(x ? x->bpe_exact : "?");
    };
    std::string priced = bytes(s.k);
    if (s.v != s.k) priced.append("/").append(bytes(s.v));
    return std::string(engine) + " has no KV cache format " + f.name + " (" + f.bpe_exact +
           " B per element): priced as its nearest, " + s.k + (s.v != s.k ? "/" + s.v : std::string()) + " (" +
           priced + " B per element); the command uses that stand-in";
}

const WeightsVariant* priced_variant(const Deployment& d) {
    for (const WeightsVariant& w : d.model->weights)
        if (w.id == d.settings.weights_variant) return &w;
    return nullptr;
}

const std::string& served_repo(const Deployment& d) {
    const ModelSpec& m = *d.model;
    for (const WeightsVariant& w : m.weights)
        if (w.id == d.settings.weights_variant && !w.hf_repo.empty()) return w.hf_repo;
    for (const WeightsVariant& w : m.weights)
        if (!w.hf_repo.empty()) return w.hf_repo;
    static const std::string placeholder(kModelDirPlaceholder);  // never "vllm serve config.json"
    return m.id == kConfigJsonModelId ? placeholder : m.id;
}

std::string fixed2(double x) {
    // Integer formatting for the usual case (gpu_memory_utilization, a few digits); printf's exact rounding when
    // x × 100 is near a tie or outside the exact integer range.
    const double h = x * 100.0;
    const double r = std::nearbyint(h);
    if (std::isfinite(h) && !std::signbit(h) && h < 1e15 && std::fabs(h - r) < 0.49) {
        const auto v = static_cast<std::int64_t>(r);
        std::string out = std::to_string(v / 100);
        out += '.';
        out += static_cast<char>('0' + v / 10 % 10);
        out += static_cast<char>('0' + v % 10);
        return out;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

}  // namespace detail
}  // namespace kvcalc
