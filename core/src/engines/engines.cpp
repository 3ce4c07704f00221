// The engines table and the dispatch from a deployment's plan to its engine (core/src/engines/<engine>/).
// Adding an engine: one EngineId value, one row here, one KvPlan alternative and its folder; the static_asserts
// below fail until the row exists, and the visitors (no generic branch) until the new alternative is handled.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>

#include "engines/deploy_internal.h"
#include "config/served_model.h"
#include "engines/startup_stop.h"
#include "util/text.h"

namespace kvcalc {

namespace {
constexpr const char* kLlamaCppAliases[] = {"llama-cpp", "llamacpp", "llama_cpp"};
// A constant table (no function-local static): engine_info() runs a few times per predict().
constexpr EngineInfo kEngines[] = {
    {.id = EngineId::vllm,
     .name = "vllm",
     .display_name = "vLLM",
     .aliases = {},
     .context_key = "vllm_context",
     .long_context = {.allow_env = "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1", .warns = nullptr},
     .accounts_non_kv = true,
     .load_defaults = {.max_num_seqs = nullptr, .gpu_memory_utilization = nullptr},
     .memory_fraction = "gpu_memory_utilization",
     .budget_label = "budget (mem-util x VRAM)",
     .resolve_auto_kv = detail::vllm_auto_kv,
     .command_says_auto = true,
     .kv_spelling = detail::vllm_spelling,
     // vllm/v1/core/kv_cache_utils.py _check_enough_kv_cache_memory: available memory <= 0. Triton stores fp8 as
     // fp8e4nv, built for sm_89 and newer only: the profiling forward pass fails to compile (vllm-project/vllm
     // issue #26431, RTX 3090).
     .stop_text = {.no_cache_memory = "vLLM loads the weights, then stops: \"No available memory for the cache blocks\"",
                   .fixed_terms = "the fixed terms",
                   .no_cache_memory_sentence = "vLLM loads the model, then stops: no available memory for the cache blocks.",
                   .fp8_e4m3_no_kernel =
                       "vLLM stops in its memory-profiling forward pass, before it sizes the KV cache: no attention "
                       "backend stores fp8 e4m3 below sm_80 (FlashInfer's start at sm_80, Triton's at sm_89: \"type "
                       "fp8e4nv not supported in this architecture\")",
                   .all_slots = nullptr,
                   .all_slots_stop = nullptr},
     .reads_vllm_memory_flags = true,
     .picks_attention_backend = true},
    {.id = EngineId::llama_cpp,
     .name = "llama.cpp",
     .display_name = "llama.cpp",
     .aliases = kLlamaCppAliases,
     .context_key = "llama_cpp_context",
     .long_context = {.allow_env = nullptr,
                      .warns = "llama.cpp warns (n_ctx_per_seq > n_ctx_train) and runs; output quality past the "
                               "trained length is not guaranteed"},
     .accounts_non_kv = false,
     .load_defaults = {.max_num_seqs = "max_num_seqs 1 (llama.cpp's -np default, common/common.h n_parallel)",
                       .gpu_memory_utilization =
                           "usable VRAM fraction 0.90 (kvcalc's share of the card: llama.cpp has no such flag)"},
     .memory_fraction = "usable VRAM fraction",
     .budget_label = "budget (usable fraction x VRAM)",
     .resolve_auto_kv = detail::llama_cpp_auto_kv,
     .command_says_auto = false,
     .kv_spelling = detail::llama_cpp_spelling,
     // llama.cpp has no memory fraction: it allocates what it is asked for.
     .stop_text = {.no_cache_memory = nullptr,
                   .fixed_terms = nullptr,
                   .no_cache_memory_sentence = nullptr,
                   .fp8_e4m3_no_kernel = nullptr,
                   // -c = max_num_seqs (-np) × max_model_len cells, allocated at start-up (llama-context.cpp
                   // llama_context: n_ctx cells for n_seq_max sequences).
                   .all_slots = "-np slots (-c = max_num_seqs × max_model_len)",
                   .all_slots_stop = "llama.cpp cannot allocate it at start-up"},
     .reads_vllm_memory_flags = false,
     .picks_attention_backend = false},
    {.id = EngineId::sglang,
     .name = "sglang",
     .display_name = "SGLang",
     .aliases = {},
     .context_key = "sglang_context",
     .long_context = {.allow_env = "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1", .warns = nullptr},
     .accounts_non_kv = false,
     .load_defaults = {.max_num_seqs = "max_num_seqs 1 (SGLang's --max-running-requests is a cap derived from the "
                                       "pool; one full-length request is priced)",
                       .gpu_memory_utilization =
                           "mem_fraction_static 0.90 (kvcalc's value: SGLang derives its own from the card)"},
     .memory_fraction = "mem_fraction_static",
     .budget_label = "budget (mem_fraction_static x VRAM)",
     .resolve_auto_kv = detail::sglang_auto_kv,
     .command_says_auto = true,
     .kv_spelling = detail::sglang_spelling,
     // model_runner / pool_configurator: max_total_num_tokens <= 0.
     .stop_text = {.no_cache_memory = "SGLang stops after loading the weights: \"Not enough memory\" for the KV pool",
                   .fixed_terms = "the weights",
                   .no_cache_memory_sentence = "SGLang loads the weights, then stops: not enough memory for its KV pool.",
                   .fp8_e4m3_no_kernel = nullptr,
                   .all_slots = nullptr,
                   .all_slots_stop = nullptr},
     .reads_vllm_memory_flags = false,
     .picks_attention_backend = true},
};
static_assert(std::size(kEngines) == kNumEngines, "one engines-table row per EngineId");
constexpr bool rows_in_id_order() {
    for (std::size_t i = 0; i < std::size(kEngines); ++i)
        if (engine_index(kEngines[i].id) != i) return false;
    return true;
}
static_assert(rows_in_id_order(), "engines-table rows are in EngineId order (engine_info indexes by id)");
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
    return engine_info(engine).kv_spelling(format);
}

const KvFormat& engine_run_format(EngineId engine, const KvFormat& format) {
    const EngineKvSpelling s = engine_kv_spelling(engine, format.id);
    if (s.exact) return format;
    return kv_formats()[static_cast<std::size_t>(s.stand_in)];  // the table is in KvFormatId order
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
    switch (d.engine) {  // exhaustive (-Wswitch): one plan builder per engine
        case EngineId::vllm: return make_vllm(d, diags);
        case EngineId::llama_cpp: return make_llama_cpp(d, diags);
        case EngineId::sglang: return make_sglang(d, diags);
    }
    diags.push_back({Severity::error, "engine_unknown", "engine", "no KV plan for this engine"});
    return {};
}

bool plan_kv_grows_with_batch(const Deployment& d) {
    return std::visit([](const auto& plan) { return kv_grows_with_batch(plan); }, d.plan);
}

bool plan_stale_for_batch(const Deployment& d, std::int64_t batched) {
    return std::visit([&](const auto& plan) { return plan_batch_stale(plan, batched); }, d.plan);
}

EngineKvSpelling deployment_kv_spelling(const Deployment& d) {
    if (d.kv_auto && engine_info(d.engine).command_says_auto) return {"auto", "auto", true};
    return engine_kv_spelling(d.engine, d.format->id);
}

std::string engine_name_list() {
    std::string out;
    for (const auto& e : engines()) out += (out.empty() ? "" : ", ") + std::string(e.name);
    return out;
}

std::string stand_in_note(const char* engine, const KvFormat& f, const EngineKvSpelling& s) {
    // The bytes quoted are the stand-in's, which the engine's plan prices (EngineKvSpelling::stand_in; a stand-in
    // is one type for K and V).
    const std::string priced = kv_formats()[static_cast<std::size_t>(s.stand_in)].bpe_exact;
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
    for (const WeightsVariant& w : m.weights) {
        if (w.id != d.settings.weights_variant) continue;
        if (!w.hf_repo.empty()) return w.hf_repo;
        // The variant priced has no repo: another variant's repo would load other weights than were priced (a
        // Gemma 4 31B priced bf16 served the AWQ 4-bit upload). A placeholder names what to serve instead.
        if (m.weights.size() > 1) {
            thread_local std::string placeholder;
            placeholder = "<" + m.id + "-" + w.id + "-checkpoint>";
            return placeholder;
        }
    }
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

std::string two_decimals_text(double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

std::string concurrency_text(double requests) {
    if (!std::isfinite(requests) || !(requests > 0)) return "0.00";
    return fixed2(requests);  // printf's round-to-nearest, without printf for the usual values
}

}  // namespace detail

std::string startup_line_text(const StartupLine& line) {
    std::string out = line.label + ": " + line.value;
    if (line.unit == "x") return out + line.unit;
    if (!line.unit.empty()) out.append(" ").append(line.unit);
    return out;
}

}  // namespace kvcalc
