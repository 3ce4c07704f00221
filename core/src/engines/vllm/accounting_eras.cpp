// vLLM release eras and the defaults each applies to unset flags (vllm/accounting.h).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <tuple>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/base/units.h"

namespace kvcalc {

namespace {

// clang-format off
constexpr VllmEraRules kEras[] = {  // a constant table: vllm_era_rules() runs several times per predict()
    // V0 worker: util × total − (weights + torch peak + non-torch) (vllm/worker/worker.py
    // determine_num_available_blocks, #10511/#11809). Its profile run hardly shows the sampler: R1-Distill-Qwen-14B
    // on 2 × RTX 4090 (vllm issue #13061) peaks at 0.19 GiB with 256 rows × 152,064 vocab, at most ≈ 5 B per
    // entry over the forward term; 4 B (the fp32 logits) is assumed. No CUDA graph estimate; no "GPU KV cache
    // size" line.
    {VllmEra::v0, "V0", "0.6.5", 0.90, false, false, false, 8, false, false},
    // V1 after #19312 (2025-06-09): requested = util × total; snapshot before NCCL init (after it from 0.11.0,
    // #25359). The sampler each era and install runs: vllm_sampler.h.
    {VllmEra::v0_9, "0.9-0.11.0", "0.9.1", 0.90, true, false, false, 8, false, false},
    // #26016 (v0.11.1): capture sizes step 16 above 256; the FlashInfer sampler stopped being the default
    // (#26859), so the dummy run sorts (apply_top_k_top_p_pytorch).
    {VllmEra::v0_11, "0.11.1-0.16", "0.11.1", 0.90, true, false, false, 16, true, true},
    // #33538 (v0.17.0): apply_top_k_top_p_triton for ≥ 8 rows. #30515 (v0.18.0) profiles CUDA graphs but
    // subtracts the estimate only when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 (default "0" through 0.20).
    {VllmEra::v0_17, "0.17-0.20", "0.17.0", 0.90, true, false, false, 16, true, true},
    // #38284 (v0.21.0): the estimate is subtracted by default (envs.py VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS
    // "1"); #40465: gpu_memory_utilization 0.92. FlashInfer is the first sampler call again (#40376), but the
    // warm-up's second call with a generator takes forward_native (gpu_model_runner.py _dummy_sampler_run), so
    // the Triton path's peak still applies. #41069: GPU KV cache size = concurrency × max_model_len.
    {VllmEra::v0_21, "0.21+", "0.21.0", 0.92, true, true, true, 16, true, true},
};
// clang-format on

std::string lower(std::string_view s) {
    std::string out;
    for (char c : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Case-insensitive "a100" in a device name, without building a lowered copy (the defaults are resolved per
// solver step).
bool contains_a100(std::string_view name) {
    // Only the letter has a case; the digits compare as they are.
    for (std::size_t i = 0; i + 4 <= name.size(); ++i)
        if ((name[i] == 'a' || name[i] == 'A') && name.compare(i + 1, 3, "100") == 0) return true;
    return false;
}

// A vLLM release as its tags and wheels spell it (v prefix already dropped): MAJOR.MINOR (a release series,
// "0.19"), MAJOR.MINOR.PATCH or a fourth number ("0.10.1.1"), then PEP 440 suffixes as the nightly and source
// wheels carry them: rcN, .postN and .devN in that order, each at most once ("0.19.0rc1", "0.8.5.post1",
// "0.29.1rc1.dev17"), and a +local label ("0.6.3+cu118", "0.29.1rc1.dev17+g3a9c1e2"). "0.19" → (0, 19, 0).
// false for anything else ("0.19.1.2.3", "0.19rc", "0.19.dev").
bool major_minor(const std::string& s, int& major, int& minor, int* patch = nullptr) {
    std::size_t i = 0;
    auto digits = [&](int& out) {
        const std::size_t start = i;
        out = 0;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 4) out = out * 10 + (s[i++] - '0');
        return i > start && (i == s.size() || !std::isdigit(static_cast<unsigned char>(s[i])));
    };
    auto number_follows = [&](std::size_t at) { return at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])); };
    int parts[4] = {0, 0, 0, 0};
    int n = 0;
    while (n < 4) {
        if (!digits(parts[n])) return false;
        ++n;
        if (i < s.size() && s[i] == '.' && number_follows(i + 1)) ++i;
        else break;
    }
    if (n < 2) return false;
    major = parts[0];
    minor = parts[1];
    if (patch) *patch = parts[2];
    int ignored = 0;
    for (const char* suffix : {"rc", ".post", ".dev"}) {
        const std::size_t len = std::char_traits<char>::length(suffix);
        if (s.compare(i, len, suffix) != 0) continue;
        i += len;
        if (!digits(ignored)) return false;
    }
    if (i < s.size() && s[i] == '+') return i + 1 < s.size();
    return i == s.size();
}

std::string with_count(const char* name, std::int64_t v, const std::string& why) {
    return std::string(name) + " " + std::to_string(v) + " (vLLM default: " + why + ")";
}

}  // namespace

std::span<const VllmEraRules> vllm_eras() { return kEras; }

const VllmEraRules& vllm_era_rules(VllmEra era) {
    // The table is in VllmEra order; the scan covers a table that is not.
    if (const auto i = static_cast<std::size_t>(era); i < std::size(kEras) && kEras[i].era == era) return kEras[i];
    for (const auto& e : kEras)
        if (e.era == era) return e;
    return kEras[std::size(kEras) - 1];
}

std::string vllm_era_ids() {
    std::string out;
    for (const auto& e : kEras) out += (out.empty() ? "" : ", ") + std::string(e.id);
    return out;
}

std::optional<VllmEra> parse_vllm_version(std::string_view text) {
    std::string s = lower(text);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    while (!s.empty() && s.front() == ' ') s.erase(0, 1);
    if (s.empty() || s == "latest" || s == "newest") return kNewestVllmEra;
    for (const auto& e : kEras)
        if (s == lower(e.id)) return e.era;
    if (s == "v1") return kNewestVllmEra;
    if (s[0] == 'v') s.erase(0, 1);
    int major = 0, minor = 0;
    if (!major_minor(s, major, minor)) return std::nullopt;
    if (s.rfind("0.11.0", 0) == 0) return VllmEra::v0_9;  // 0.11.0 still sampled with FlashInfer (#26859 came after)
    if (major >= 1) return kNewestVllmEra;
    if (major != 0) return std::nullopt;
    // Releases before 0.9.1 default to V0 where the V1 worker had not yet settled (V1 ≤ 0.9.0 subtracted the CUDA
    // context and other processes' memory too: closest is the V0 formula, reference §2.2).
    if (minor <= 8) return VllmEra::v0;
    if (minor <= 10) return VllmEra::v0_9;
    if (minor <= 16) return VllmEra::v0_11;
    if (minor <= 20) return VllmEra::v0_17;
    return VllmEra::v0_21;
}

std::optional<std::string> vllm_version_note(std::string_view text) {
    constexpr int kNewestCheckedMinor = 25;  // vllm-v0.25.1, the newest measured boot (docs/SOURCES.md "vLLM start-up accounting")
    std::string s = lower(text);
    while (!s.empty() && s.back() == ' ') s.pop_back();
    while (!s.empty() && s.front() == ' ') s.erase(0, 1);
    if (!s.empty() && s[0] == 'v') s.erase(0, 1);
    int major = 0, minor = 0, patch = 0;
    if (!major_minor(s, major, minor, &patch)) return std::nullopt;
    // Older than the oldest era's first release (V0 from 0.6.5): priced, but by rules it predates.
    const VllmEraRules& oldest = kEras[0];
    int old_major = 0, old_minor = 0, old_patch = 0;
    major_minor(oldest.first_release, old_major, old_minor, &old_patch);
    if (std::tie(major, minor, patch) < std::tie(old_major, old_minor, old_patch))
        return "vllm_version " + std::string(text) + " is older than any vLLM release kvcalc prices; it is priced " +
               "with its oldest era's start-up accounting, " + oldest.id + " (from " + oldest.first_release +
               "), which it may not follow";
    if (major == 0 && minor <= kNewestCheckedMinor) return std::nullopt;
    const VllmEraRules& newest = vllm_era_rules(kNewestVllmEra);
    return "vllm_version " + std::string(text) + " is newer than any vLLM release kvcalc has checked (0." +
           std::to_string(kNewestCheckedMinor) + "); it is priced with the newest era's start-up accounting, " +
           newest.id + " (from " + newest.first_release + "), which it may not follow";
}

std::optional<VllmEntryPoint> parse_vllm_usage_context(std::string_view text) {
    std::string s;
    for (char c : text) s += static_cast<char>(c == '-' ? '_' : std::tolower(static_cast<unsigned char>(c)));
    if (s.empty() || s == "auto" || s == "openai_api_server" || s == "api_server" || s == "serve")
        return VllmEntryPoint::api_server;
    if (s == "llm_class" || s == "llm" || s == "offline") return VllmEntryPoint::llm_class;
    return std::nullopt;
}

std::string vllm_usage_context_ids() { return "openai_api_server, llm_class"; }

namespace {
// The CUDA-graph counts at the resolved settings in `a`.
void count_cudagraphs(const VllmServeFlags& f, const VllmEraRules& rules, VllmAccounting& a) {
    // CUDA-graph capture sizes (config/vllm.py _set_cudagraph_sizes): max = min(2 × max_num_seqs × (1 + spec), 512)
    // capped at max_num_batched_tokens; [1, 2, 4] + every 8 below 256 + every `stride` from 256 (+ mnbt if it fits).
    if (!f.enforce_eager && rules.v1_engine) {
        const std::int64_t max_size =
            std::min<std::int64_t>(std::min<std::int64_t>(a.max_num_seqs * (1 + f.num_speculative_tokens) * 2, 512),
                                   a.max_num_batched_tokens);
        // Counted, not listed (no allocation): n(≤ x) = sizes of the list not above x.
        const std::int64_t stride = rules.capture_stride_above_256;
        auto count_upto = [&](std::int64_t x) {
            x = std::min(x, max_size);
            std::int64_t n = (x >= 1) + (x >= 2) + (x >= 4);
            if (x >= 8) n += (std::min<std::int64_t>(x, 255) - 8) / 8 + 1;
            if (x >= 256) n += (x - 256) / stride + 1;
            return n;
        };
        const std::int64_t m = a.max_num_batched_tokens;
        const bool in_list = m <= 4 ? (m == 1 || m == 2 || m == 4) : m < 256 ? m % 8 == 0 : (m - 256) % stride == 0;
        const bool extra = m <= max_size && !in_list;
        a.cudagraph_capture_sizes = static_cast<int>(count_upto(max_size) + (extra ? 1 : 0));
        if (rules.full_and_piecewise) {
            const std::int64_t decode = a.max_num_seqs * (1 + f.num_speculative_tokens);
            a.full_cudagraphs = static_cast<int>(count_upto(decode) + (extra && m <= decode ? 1 : 0));
        }
    }
}
}  // namespace

VllmAccounting vllm_resolve_defaults(const VllmDevice& device, const VllmServeFlags& f, VllmEra era, bool explain) {
    VllmAccounting a;
    vllm_resolve_defaults_into(device, f, era, explain, a);
    count_cudagraphs(f, vllm_era_rules(era), a);
    return a;
}

void vllm_resolve_defaults_into(const VllmDevice& device, const VllmServeFlags& f, VllmEra era, bool explain,
                                VllmAccounting& a) {
    const VllmEraRules& rules = vllm_era_rules(era);
    a.era = era;
    a.assumed_defaults.clear();
    a.cudagraph_capture_sizes = 0;
    a.full_cudagraphs = 0;
    const std::int64_t len = std::max<std::int64_t>(f.max_model_len, 1);

    // get_batch_defaults (arg_utils.py): ≥ 70 GiB cards whose name lacks "a100" get the large batch defaults
    // (#17073, #17885); V0 defaults to 256 sequences and max(max_model_len, 2048) tokens without chunked prefill.
    const bool large = device.cuda_total_bytes >= 70 * kBytesPerGib && !contains_a100(device.name);
    const bool api = f.entry_point == VllmEntryPoint::api_server;
    const char* ctx = api ? "vllm serve" : "LLM class";
    std::int64_t mnbt = 0, seqs = 0;
    const char* why_tokens = "";
    const char* why_seqs = "";
    bool capped_tokens = false, capped_seqs = false, chunked_off = false;
    if (!rules.v1_engine) {
        seqs = 256;
        why_seqs = "V0 scheduler";
        // V0 enables chunked prefill by itself above 32K tokens (arg_utils.py, use_v2_block_manager era).
        const bool chunked = f.enable_chunked_prefill && len > 32768;
        mnbt = chunked ? 2048 : std::max<std::int64_t>(len, 2048);
        why_tokens = chunked ? "V0 with chunked prefill above 32K" : "V0: max(max_model_len, 2048)";
    } else {
        mnbt = large ? (api ? 8192 : 16384) : (api ? 2048 : 8192);
        seqs = large ? 1024 : 256;
        why_tokens = large ? "cards of ≥ 70 GiB except A100" : "cards under 70 GiB and A100";
        why_seqs = why_tokens;
        if (!f.enable_chunked_prefill) {
            mnbt = std::max(mnbt, len);
            chunked_off = true;
        }
    }
    const std::int64_t user_seqs = f.max_num_seqs.value_or(0);
    if (!f.max_num_batched_tokens) {
        // never above seqs × max_model_len; saturating: resolve() prices the scenario's own load before
        // check_load() rejects an out-of-range max_model_len / max_num_seqs.
        const std::int64_t cap = sat_mul(user_seqs > 0 ? user_seqs : seqs, len);
        if (cap < mnbt) {
            mnbt = cap;
            capped_tokens = true;
        }
        a.max_num_batched_tokens = mnbt;
        if (explain)
            a.assumed_defaults.push_back(with_count(
                "max_num_batched_tokens", mnbt,
                std::string(rules.v1_engine ? ctx : "") + (rules.v1_engine ? " on " : "") + why_tokens +
                    (chunked_off ? ", chunked prefill off: at least max_model_len" : "") +
                    (capped_tokens ? ", capped at max_num_seqs × max_model_len" : "")));
    } else {
        a.max_num_batched_tokens = *f.max_num_batched_tokens;
    }
    if (user_seqs <= 0) {
        if (a.max_num_batched_tokens < seqs) {
            seqs = a.max_num_batched_tokens;
            capped_seqs = true;
        }
        a.max_num_seqs = seqs;
        if (explain)
            a.assumed_defaults.push_back(with_count(
                "max_num_seqs", seqs,
                std::string(rules.v1_engine ? ctx : "") + (rules.v1_engine ? " on " : "") + why_seqs +
                    (capped_seqs ? ", capped at max_num_batched_tokens" : "")));
    } else {
        a.max_num_seqs = user_seqs;
    }
    if (f.gpu_memory_utilization && *f.gpu_memory_utilization > 0) {
        a.gpu_memory_utilization = *f.gpu_memory_utilization;
    } else {
        a.gpu_memory_utilization = rules.default_gpu_memory_utilization;
        char buf[96];
        if (explain) {
            std::snprintf(buf, sizeof buf, "gpu_memory_utilization %.2f (vLLM default from %s)",
                          rules.default_gpu_memory_utilization, rules.first_release);
            a.assumed_defaults.emplace_back(buf);
        }
    }
    if (f.block_size && *f.block_size > 0) {
        a.block_size = *f.block_size;
    } else {
        a.block_size = 16;
        if (explain) a.assumed_defaults.emplace_back("block_size 16 (vLLM default; hybrid and MLA backends may pick larger)");
    }
}

}  // namespace kvcalc
