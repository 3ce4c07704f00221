#include "kvcalc/base/kv_format.h"

#include "kvcalc/base/gpu_catalog.h"

#include <algorithm>
#include <array>
#include <numeric>

namespace kvcalc {

const std::vector<KvFormat>& kv_formats() {
    // bpe × 400. Source: docs/SOURCES.md "KV formats" (the original's table, kv-calc.py line 169) and the rows' notes.
    static const std::vector<KvFormat> table{
        {KvFormatId::fp16, "fp16", 800, "2", 0, 0, "", 800, 0},
        {KvFormatId::bf16, "bf16", 800, "2", 0, 0, "", 800, 0},
        {KvFormatId::fp8_e5m2, "fp8_e5m2", 400, "1", 0, 0, "", 400, 0},
        // sm_80-88 run it only through FlashInfer's attention kernels (kv_format_backend_note); Triton's e4m3
        // type needs sm_89 (vllm-project/vllm issue #26431).
        {KvFormatId::fp8_e4m3, "fp8_e4m3", 400, "1", 80, 0,
         "fp8_e4m3 needs sm_80 or newer (FlashInfer's attention kernels; Triton's from sm_89) — use fp8_e5m2 or "
         "int8_per_token_head there", 400, 0},
        // 1 byte + an amortised per-token-head scale ≈ 1%: 101/100 (vLLM PR #40391/#42102).
        {KvFormatId::int8_per_token_head, "int8_per_token_head", 404, "101/100", 0, 0, "", 400, 4},
        // 4 bits + one group scale per 32 elements: 1/2 + 1/16 = 9/16.
        {KvFormatId::q4_0, "q4_0", 225, "9/16", 0, 0, "", 225, 0},
        // K int8, V int4: (1 + 1/2) / 2 = 3/4.
        {KvFormatId::k8v4, "k8v4", 300, "3/4", 0, 0, "", 300, 0},
        // 3 bits + ≈0.05 B overhead: 3/8 + 1/20 = 17/40 (TurboQuant, arXiv 2504.19874).
        {KvFormatId::turboquant_3bit_nc, "turboquant_3bit_nc", 170, "17/40", 0, 0,
         "TurboQuant 3-bit is supplied by the Genesis patches for Qwen 3.6 (DeltaNet) models only", 170, 0},
        // 4 bits + one fp8 scale per 16 elements: 1/2 + 1/16 = 9/16 (projected, no measured boot).
        // Consumer Blackwell has no FP4 attention kernel build: vllm-project/vllm issue #43562.
        {KvFormatId::nvfp4, "nvfp4", 225, "9/16", 100, 103,
         "nvfp4 KV needs datacenter Blackwell (sm_100/sm_103); consumer Blackwell (sm_120/121) has no FP4 attention "
         "kernel for it", 225, 0},
        // llama.cpp cache types (-ctk / -ctv), bytes per block of 32 values (ggml-common.h block_q8_0 = fp16 scale
        // + 32 int8 = 34 B; block_q4_1 = scale + min + 16 B = 20; block_q5_0 = scale + 4 B high bits + 16 = 22;
        // block_q5_1 = 24; block_iq4_nl = scale + 16 = 18). vLLM and SGLang have no such cache dtype.
        {KvFormatId::q8_0, "q8_0", 425, "17/16", 0, 0, "", 425, 0},
        {KvFormatId::q4_1, "q4_1", 250, "5/8", 0, 0, "", 250, 0},
        {KvFormatId::q5_0, "q5_0", 275, "11/16", 0, 0, "", 275, 0},
        {KvFormatId::q5_1, "q5_1", 300, "3/4", 0, 0, "", 300, 0},
        {KvFormatId::iq4_nl, "iq4_nl", 225, "9/16", 0, 0, "", 225, 0},
    };
    return table;
}

const KvFormat* find_kv_format(std::string_view name) {
    for (const auto& f : kv_formats())
        if (name == f.name) return &f;
    return nullptr;
}

KvElementStorage kv_element_storage(const KvFormat& f) {
    const int g = std::gcd(f.element_x400, kBpeDenominator);
    return {f.element_x400 / g, kBpeDenominator / g, f.scale_bytes_per_head};
}

bool is_auto_kv_cache_dtype(std::string_view name) { return name == kAutoKvCacheDtype; }

std::vector<std::string> kv_format_names() {
    std::vector<std::string> out{std::string(kAutoKvCacheDtype)};
    for (const auto& f : kv_formats()) out.emplace_back(f.name);
    return out;
}

std::string kv_format_name_list() {
    std::string out;
    for (const auto& n : kv_format_names()) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

std::string kv_format_label(std::string_view name) {
    // What each name means to someone who has not read the engines' source; the name itself stays in the label.
    struct Row {
        std::string_view name, label;
    };
    static constexpr std::array<Row, 15> rows{{
        {"auto", "auto (model dtype)"},
        {"fp16", "fp16 (16-bit)"},
        {"bf16", "bf16 (16-bit)"},
        {"fp8_e5m2", "fp8 (e5m2)"},
        {"fp8_e4m3", "fp8 (e4m3)"},
        {"int8_per_token_head", "int8 (per-token-head scale)"},
        {"q4_0", "4-bit (q4_0)"},
        {"k8v4", "K 8-bit, V 4-bit (k8v4)"},
        {"turboquant_3bit_nc", "3-bit TurboQuant (turboquant_3bit_nc)"},
        {"nvfp4", "fp4 (nvfp4)"},
        {"q8_0", "8-bit (q8_0)"},
        {"q4_1", "4-bit (q4_1)"},
        {"q5_0", "5-bit (q5_0)"},
        {"q5_1", "5-bit (q5_1)"},
        {"iq4_nl", "4-bit (iq4_nl)"},
    }};
    for (const Row& r : rows)
        if (r.name == name) return std::string(r.label);
    return std::string(name);
}

int indexer_bpe_x400(std::string_view name) {
    // The 16-bit and fp8 names are KV formats (the table's sizes); int8, fp4 and int4 are the indexer's own.
    if (name == "fp16" || name == "bf16" || name == "fp8_e5m2" || name == "fp8_e4m3") return find_kv_format(name)->bpe_x400;
    if (name == "int8") return 400;
    if (name == "fp4" || name == "int4") return 200;
    return -1;
}

std::string kv_format_backend_note(const KvFormat& format, const GpuSpec* card) {
    if (format.id != KvFormatId::fp8_e4m3 || !card || card->vendor != GpuVendor::nvidia) return {};
    if (card->sm_x10 < 80 || card->sm_x10 >= 89) return {};
    return "fp8_e4m3 KV on " + card->display_name + " (sm_" + std::to_string(card->sm_x10) +
           ") runs through FlashInfer's attention backend: FlashAttention 2 stores no fp8 cache, so vLLM's backend "
           "selector moves to FLASHINFER (Qwen3.6-27B-FP8 boots with --kv-cache-dtype fp8 on 2 × RTX 3090: "
           "noonghunna/club-3090 PR #594). A model vLLM puts on the Triton backend instead (FlashInfer not installed, attention sinks) stops "
           "there: Triton has no e4m3 type below sm_89 (\"type fp8e4nv not supported\", vllm-project/vllm issue "
           "#26431); if the start-up log names TRITON_ATTN, use fp8_e5m2";
}

bool kv_format_runs_on(const KvFormat& format, int sm_x10) {
    if (format.min_sm_x10 == 0) return true;
    if (sm_x10 == 0 || sm_x10 < format.min_sm_x10) return false;
    return format.max_sm_x10 == 0 || sm_x10 <= format.max_sm_x10;
}

namespace {

// vllm/platforms/rocm.py RocmPlatform.supports_fp8: gfx94x, gfx95x and gfx12xx have fp8 (gfx94x as e4m3fnuz).
bool rocm_has_fp8(const std::string& gfx) {
    return gfx.rfind("gfx94", 0) == 0 || gfx.rfind("gfx95", 0) == 0 || gfx.rfind("gfx12", 0) == 0;
}

KvSupport amd_support(const KvFormat& f, const GpuSpec& card) {
    switch (f.id) {
        case KvFormatId::fp8_e4m3: return rocm_has_fp8(card.gfx_arch) ? KvSupport::runs : KvSupport::does_not_run;
        case KvFormatId::nvfp4: return KvSupport::does_not_run;
        case KvFormatId::fp8_e5m2:
        case KvFormatId::int8_per_token_head:
        case KvFormatId::k8v4:
        case KvFormatId::turboquant_3bit_nc: return KvSupport::not_known;
        default: return KvSupport::runs;  // 16-bit floats and the ggml block types: no hardware requirement
    }
}

}  // namespace

KvSupport kv_format_support(const KvFormat& f, const GpuSpec* card) {
    if (!card) return f.min_sm_x10 == 0 ? KvSupport::runs : KvSupport::not_known;
    if (card->vendor == GpuVendor::amd) return amd_support(f, *card);
    return kv_format_runs_on(f, card->sm_x10) ? KvSupport::runs : KvSupport::does_not_run;
}

std::string kv_format_support_reason(const KvFormat& f, const GpuSpec* card) {
    const KvSupport s = kv_format_support(f, card);
    if (s == KvSupport::runs) return {};
    if (!card || card->vendor == GpuVendor::nvidia) return f.hardware_note;
    const std::string name = f.name;
    if (s == KvSupport::not_known)
        return "kvcalc has no source saying whether vLLM's ROCm build has a " + name + " KV kernel for " +
               card->gfx_arch + "; the verdict assumes it runs";
    if (f.id == KvFormatId::fp8_e4m3)
        return "vLLM's ROCm fp8 KV cache needs gfx94x (MI300 series), gfx95x or gfx12xx (RocmPlatform.supports_fp8); " +
               card->gfx_arch + " has no fp8 — use auto (bf16)";
    return name + " KV is NVIDIA-only (datacenter Blackwell, sm_100/sm_103): ROCm has no kernel for it";
}

}  // namespace kvcalc
