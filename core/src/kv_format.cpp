#include "kvcalc/kv_format.h"

namespace kvcalc {

const std::vector<KvFormat>& kv_formats() {
    // bpe × 400. Sources: seed 000 KV-format table; constants.json kv_format_bytes_per_element / _components.
    static const std::vector<KvFormat> table{
        {KvFormatId::fp16, "fp16", 800, "2", 0, 0, ""},
        {KvFormatId::bf16, "bf16", 800, "2", 0, 0, ""},
        {KvFormatId::fp8_e5m2, "fp8_e5m2", 400, "1", 0, 0, ""},
        {KvFormatId::fp8_e4m3, "fp8_e4m3", 400, "1", 89, 0,
         "fp8_e4m3 needs sm_89 or newer; the Triton path on Ampere (sm_86: 3090, A5000) has no e4m3 kernel — use "
         "fp8_e5m2 or int8_per_token_head there"},
        // 1 byte + an amortised per-token-head scale ≈ 1%: 101/100 (vLLM PR #40391/#42102).
        {KvFormatId::int8_per_token_head, "int8_per_token_head", 404, "101/100", 0, 0, ""},
        // 4 bits + one group scale per 32 elements: 1/2 + 1/16 = 9/16.
        {KvFormatId::q4_0, "q4_0", 225, "9/16", 0, 0, ""},
        // K int8, V int4: (1 + 1/2) / 2 = 3/4.
        {KvFormatId::k8v4, "k8v4", 300, "3/4", 0, 0, ""},
        // 3 bits + ≈0.05 B overhead: 3/8 + 1/20 = 17/40 (TurboQuant, arXiv 2504.19874).
        {KvFormatId::turboquant_3bit_nc, "turboquant_3bit_nc", 170, "17/40", 0, 0,
         "TurboQuant 3-bit is supplied by the Genesis patches for Qwen 3.6 (DeltaNet) models only"},
        // 4 bits + one fp8 scale per 16 elements: 1/2 + 1/16 = 9/16 (projected, no measured boot).
        {KvFormatId::nvfp4, "nvfp4", 225, "9/16", 100, 103,
         "nvfp4 KV needs datacenter Blackwell (sm_100/sm_103); consumer Blackwell (sm_120/121) has no FP4 FMHA "
         "build (vLLM #43562)"},
        // llama.cpp cache types (-ctk / -ctv), bytes per block of 32 values (ggml-common.h block_q8_0 = fp16 scale
        // + 32 int8 = 34 B; block_q4_1 = scale + min + 16 B = 20; block_q5_0 = scale + 4 B high bits + 16 = 22;
        // block_q5_1 = 24; block_iq4_nl = scale + 16 = 18). vLLM and SGLang have no such cache dtype.
        {KvFormatId::q8_0, "q8_0", 425, "17/16", 0, 0, ""},
        {KvFormatId::q4_1, "q4_1", 250, "5/8", 0, 0, ""},
        {KvFormatId::q5_0, "q5_0", 275, "11/16", 0, 0, ""},
        {KvFormatId::q5_1, "q5_1", 300, "3/4", 0, 0, ""},
        {KvFormatId::iq4_nl, "iq4_nl", 225, "9/16", 0, 0, ""},
    };
    return table;
}

const KvFormat* find_kv_format(std::string_view name) {
    for (const auto& f : kv_formats())
        if (name == f.name) return &f;
    return nullptr;
}

std::vector<std::string> kv_format_names() {
    std::vector<std::string> out;
    for (const auto& f : kv_formats()) out.emplace_back(f.name);
    return out;
}

std::string kv_format_name_list() {
    std::string out;
    for (const auto& f : kv_formats()) {
        if (!out.empty()) out += ", ";
        out += f.name;
    }
    return out;
}

int indexer_bpe_x400(std::string_view name) {
    if (name == "fp16" || name == "bf16") return 800;
    if (name == "fp8_e5m2" || name == "fp8_e4m3" || name == "int8") return 400;
    if (name == "fp4" || name == "int4") return 200;
    return -1;
}

bool kv_format_runs_on(const KvFormat& format, int sm_x10) {
    if (format.min_sm_x10 == 0) return true;
    if (sm_x10 == 0 || sm_x10 < format.min_sm_x10) return false;
    return format.max_sm_x10 == 0 || sm_x10 <= format.max_sm_x10;
}

}  // namespace kvcalc
