// GPU catalog. VRAM convention: a card marketed as "N GB" has N GiB (N × 2^30 B) of memory; figures from the
// vendors' datasheets / product pages. Compute capability from NVIDIA's CUDA GPUs list. CUDA-visible totals
// (what vLLM's budget multiplies) from public start-up logs and OOM messages where one exists, else the rule of
// estimate_cuda_total_bytes.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/units.h"
#include "util/text.h"

namespace kvcalc {

namespace {

struct Row {
    const char* id;
    const char* name;
    int vram_gib;
    int sm_x10;
    const char* arch;
    std::vector<std::string> aliases;
    const char* source;
};

const char* const kGeForce = "NVIDIA GeForce product specifications";
const char* const kPro = "NVIDIA RTX professional datasheet";
const char* const kDc = "NVIDIA data-center datasheet";

// CUDA totals printed by real runs: GiB with the digits the log gives, and where it was printed.
struct CudaTotal {
    const char* id;
    double gib;
    const char* source;
};
const CudaTotal kCudaTotals[] = {
    {"rtx-3070", 7.78, "OOM message \"7.78 GiB total capacity\" (github.com/akshitac8/OW-DETR issue #46)"},
    {"rtx-3080-10gb", 9.78, "OOM message \"9.78 GiB total capacity\" (github.com/zai-org/CogVideo issue #34)"},
    {"rtx-3090", 23.58, "vLLM log total_gpu_memory=23.58 GiB (vllm-project/vllm issue #10517, PR #14447)"},
    {"rtx-4090", 23.68, "OOM message \"23.68 GiB total capacity\" (github.com/zai-org/CogVideo issue #36)"},
    {"t4", 14.75, "OOM message \"total capacity of 14.75 GiB\" (github.com/hpcaitech/Open-Sora issue #697)"},
    {"v100-32gb", 31.74, "OOM message \"31.74 GiB total capacity\" (github.com/liucongg/ChatGLM-Finetuning issue #73)"},
    {"l4", 22.05, "vLLM log \"Free memory on device (19.77/22.05 GiB)\" (pytorch/pytorch issue #175666)"},
    {"rtx-a5000", 23.56,
     "vLLM 0.21.0 OOM \"GPU 0 has a total capacity of 23.56 GiB\" on an RTX A5000 (LMCache/LMCache issue #3430)"},
    {"l40s", 44.42,
     "vLLM 0.7.1 log \"total_gpu_memory (44.42GiB)\" on 2 x L40S (vllm-project/vllm issue #15815)"},
    {"rtx-5090", 33677180928.0 / 1073741824.0,
     "deviceQuery RTX 5090: 33677180928 bytes (aikitoria/open-gpu-kernel-modules issue #1)"},
    {"a100-40gb", 42298834944.0 / 1073741824.0,
     "deviceQuery A100-SXM4-40GB: 42298834944 bytes (bottlerocket-os/bottlerocket PR #3873)"},
    {"h100-80gb", 79.19, "vLLM v0.19 H100 logs, total 79.19 GiB (jgchn/llm-d-planner d3121e0; "
                         "reference/vllm-startup-accounting.md §8.1)"},
};

// Parts sold on NVLink / NVSwitch boards (SXM, HGX, the NVL pairs): NVIDIA data-center datasheets. Every other
// NVIDIA card here is PCIe-only in multi-card servers.
bool nvlink_part(const std::string& id) {
    for (const char* x : {"v100-32gb", "a100-40gb", "a100-80gb", "h100-80gb", "h100-nvl", "h200", "b200", "b300"})
        if (id == x) return true;
    return false;
}

// AMD cards: the LLVM target vLLM's ROCm platform reads (vllm/platforms/rocm.py: MI300X and MI325X are CDNA3
// gfx942; AMD's ROCm "LLVM targets" table: Radeon RX 7900 XTX is RDNA3 gfx1100).
struct AmdTarget {
    const char* id;
    const char* gfx;
};
const AmdTarget kAmdTargets[] = {{"mi300x", "gfx942"}, {"mi325x", "gfx942"}, {"rx-7900-xtx", "gfx1100"}};

// GDDR data-center cards ship with ECC on, which reserves 1/16 of the memory (T4 16 GiB → 14.75 GiB).
bool ecc_gddr(const std::string& id) {
    for (const char* x : {"t4", "a10", "a40", "l4", "l40", "l40s"})
        if (id == x) return true;
    return false;
}

std::vector<GpuSpec> build() {
    // clang-format off
    const std::vector<Row> rows{
        {"rtx-3060-12gb", "NVIDIA GeForce RTX 3060 12GB", 12, 86, "ampere-consumer", {"rtx3060", "3060"}, kGeForce},
        {"rtx-3070", "NVIDIA GeForce RTX 3070", 8, 86, "ampere-consumer", {"3070"}, kGeForce},
        {"rtx-3080-10gb", "NVIDIA GeForce RTX 3080 10GB", 10, 86, "ampere-consumer", {"rtx3080", "3080"}, kGeForce},
        {"rtx-3080-12gb", "NVIDIA GeForce RTX 3080 12GB", 12, 86, "ampere-consumer", {}, kGeForce},
        {"rtx-3090", "NVIDIA GeForce RTX 3090", 24, 86, "ampere-consumer", {"3090"}, kGeForce},
        {"rtx-3090-ti", "NVIDIA GeForce RTX 3090 Ti", 24, 86, "ampere-consumer", {"3090ti"}, kGeForce},
        {"rtx-4060-ti-16gb", "NVIDIA GeForce RTX 4060 Ti 16GB", 16, 89, "ada-consumer", {"4060ti"}, kGeForce},
        {"rtx-4070-ti-super", "NVIDIA GeForce RTX 4070 Ti SUPER", 16, 89, "ada-consumer", {"4070tisuper"}, kGeForce},
        {"rtx-4080", "NVIDIA GeForce RTX 4080", 16, 89, "ada-consumer", {"4080"}, kGeForce},
        {"rtx-4080-super", "NVIDIA GeForce RTX 4080 SUPER", 16, 89, "ada-consumer", {"4080super"}, kGeForce},
        {"rtx-4090", "NVIDIA GeForce RTX 4090", 24, 89, "ada-consumer", {"4090"}, kGeForce},
        {"rtx-5060-ti-16gb", "NVIDIA GeForce RTX 5060 Ti 16GB", 16, 120, "blackwell-consumer", {"5060ti"}, kGeForce},
        {"rtx-5070-ti", "NVIDIA GeForce RTX 5070 Ti", 16, 120, "blackwell-consumer", {"5070ti"}, kGeForce},
        {"rtx-5080", "NVIDIA GeForce RTX 5080", 16, 120, "blackwell-consumer", {"5080"}, kGeForce},
        {"rtx-5090", "NVIDIA GeForce RTX 5090", 32, 120, "blackwell-consumer", {"5090"}, kGeForce},
        {"rtx-2080-ti", "NVIDIA GeForce RTX 2080 Ti", 11, 75, "turing-consumer", {"2080ti"}, kGeForce},
        {"rtx-a4000", "NVIDIA RTX A4000", 16, 86, "ampere-workstation", {"a4000"}, kPro},
        {"rtx-a5000", "NVIDIA RTX A5000", 24, 86, "ampere-workstation", {"a5000"}, kPro},
        {"rtx-a6000", "NVIDIA RTX A6000", 48, 86, "ampere-workstation", {"a6000"}, kPro},
        {"rtx-4000-ada", "NVIDIA RTX 4000 Ada Generation", 20, 89, "ada-workstation", {}, kPro},
        {"rtx-6000-ada", "NVIDIA RTX 6000 Ada Generation", 48, 89, "ada-workstation", {"6000ada"}, kPro},
        {"rtx-pro-6000-blackwell", "NVIDIA RTX PRO 6000 Blackwell", 96, 120, "blackwell-workstation",
         {"rtx-6000-pro-blackwell", "rtxpro6000"}, kPro},
        {"t4", "NVIDIA T4", 16, 75, "turing-datacenter", {}, kDc},
        {"v100-32gb", "NVIDIA V100 32GB", 32, 70, "volta-datacenter", {}, kDc},
        {"a10", "NVIDIA A10", 24, 86, "ampere-datacenter", {}, kDc},
        {"a40", "NVIDIA A40", 48, 86, "ampere-datacenter", {}, kDc},
        {"l4", "NVIDIA L4", 24, 89, "ada-datacenter", {}, kDc},
        {"l40", "NVIDIA L40", 48, 89, "ada-datacenter", {}, kDc},
        {"l40s", "NVIDIA L40S", 48, 89, "ada-datacenter", {}, kDc},
        {"a100-40gb", "NVIDIA A100 40GB", 40, 80, "ampere-datacenter", {"a100-40"}, kDc},
        {"a100-80gb", "NVIDIA A100 80GB", 80, 80, "ampere-datacenter", {"a100-80"}, kDc},
        {"h100-80gb", "NVIDIA H100 80GB (SXM / PCIe)", 80, 90, "hopper-datacenter", {"h100"}, kDc},
        {"h100-nvl", "NVIDIA H100 NVL", 94, 90, "hopper-datacenter", {}, kDc},
        {"h200", "NVIDIA H200", 141, 90, "hopper-datacenter", {}, kDc},
        {"b200", "NVIDIA B200", 180, 100, "blackwell-datacenter", {}, kDc},
        {"b300", "NVIDIA B300", 288, 103, "blackwell-datacenter", {}, kDc},
        {"dgx-spark", "NVIDIA DGX Spark (GB10, unified memory)", 128, 121, "blackwell-gb10", {"gb10"},
         "NVIDIA DGX Spark datasheet (128 GB LPDDR5x shared with the CPU)"},
        {"mi300x", "AMD Instinct MI300X", 192, 0, "cdna3", {}, "AMD Instinct MI300X datasheet"},
        {"mi325x", "AMD Instinct MI325X", 256, 0, "cdna3", {}, "AMD Instinct MI325X datasheet"},
        {"rx-7900-xtx", "AMD Radeon RX 7900 XTX", 24, 0, "rdna3", {"7900xtx"}, "AMD Radeon RX 7900 XTX specifications"},
    };
    // clang-format on
    std::vector<GpuSpec> out;
    for (const auto& r : rows) {
        GpuSpec g;
        g.id = r.id;
        g.display_name = r.name;
        g.vram_bytes = std::int64_t{r.vram_gib} * kBytesPerGib;
        g.sm_x10 = r.sm_x10;
        g.architecture = r.arch;
        g.aliases = r.aliases;
        g.source = r.source;
        g.nvlink = nvlink_part(g.id);
        for (const auto& a : kAmdTargets) {
            if (g.id != a.id) continue;
            g.vendor = GpuVendor::amd;
            g.gfx_arch = a.gfx;
        }
        g.cuda_total_bytes = estimate_cuda_total_bytes(g.vram_bytes, ecc_gddr(g.id));
        g.cuda_total_source = std::string("estimate: VRAM") + (ecc_gddr(g.id) ? " × 15/16 (ECC)" : "") +
                              " − (0.2 GiB + 0.75 % of VRAM)";
        for (const auto& t : kCudaTotals) {
            if (g.id != t.id) continue;
            g.cuda_total_bytes = static_cast<std::int64_t>(std::llround(t.gib * static_cast<double>(kBytesPerGib)));
            g.cuda_total_estimated = false;
            g.cuda_total_source = t.source;
        }
        out.push_back(std::move(g));
    }
    return out;
}

// Lower-case, drop spaces / underscores / hyphens and a leading "nvidia", "geforce" or "rtx".
std::string key(std::string_view s) {
    std::string k;
    for (char c : s) {
        if (c == ' ' || c == '_' || c == '-') continue;
        k += text::lower(c);
    }
    for (const char* prefix : {"nvidia", "geforce", "rtx"})
        if (k.rfind(prefix, 0) == 0) k.erase(0, std::string_view(prefix).size());
    return k;
}

}  // namespace

std::int64_t estimate_cuda_total_bytes(std::int64_t vram_bytes, bool ecc) {
    const double v = static_cast<double>(vram_bytes);
    const double usable = ecc ? v * 15.0 / 16.0 : v;
    return static_cast<std::int64_t>(std::llround(usable - (0.2 * static_cast<double>(kBytesPerGib) + 0.0075 * v)));
}

const std::vector<GpuSpec>& gpu_catalog() {
    static const std::vector<GpuSpec> gpus = build();
    return gpus;
}

const GpuSpec* find_gpu(std::string_view id) {
    // Normalised keys of every id and alias, built once (a constant table).
    static const std::vector<std::pair<std::string, const GpuSpec*>> keys = [] {
        std::vector<std::pair<std::string, const GpuSpec*>> out;
        for (const auto& g : gpu_catalog()) {
            out.emplace_back(key(g.id), &g);
            for (const auto& a : g.aliases) out.emplace_back(key(a), &g);
        }
        return out;
    }();
    const std::string k = key(id);
    if (k.empty()) return nullptr;
    for (const auto& [name, gpu] : keys)
        if (name == k) return gpu;
    return nullptr;
}

}  // namespace kvcalc
