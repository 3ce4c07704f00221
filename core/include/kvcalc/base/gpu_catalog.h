// GPU catalog: VRAM per card in exact bytes, compute capability, architecture, source.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvcalc {

/// Who makes the card: the KV-format kernels an engine has differ by vendor (CUDA vs ROCm builds).
enum class GpuVendor { nvidia, amd };

/// One accelerator. Convention: a card sold as "N GB" has N GiB of VRAM (N × 2^30 bytes) — a "24 GB" RTX 3090
/// is 25,769,803,776 B, which is what nvidia-smi reports as 24576 MiB. (Decimal GB would undercount a card: docs/SOURCES.md quirk 1.)
struct GpuSpec {
    std::string id;                    ///< e.g. "rtx-3090"
    std::string display_name;          ///< e.g. "NVIDIA GeForce RTX 3090"
    std::int64_t vram_bytes = 0;       ///< per card, exact
    int sm_x10 = 0;                    ///< CUDA compute capability × 10 (86 = sm_86); 0 for non-NVIDIA
    std::string architecture;          ///< e.g. "ampere-consumer", "cdna3"
    GpuVendor vendor = GpuVendor::nvidia;
    /// AMD's LLVM target of the card ("gfx942" MI300X/MI325X, "gfx1100" RX 7900 XTX; AMD ROCm LLVM target list,
    /// vllm/platforms/rocm.py device map); empty for NVIDIA. vLLM's ROCm kernels are chosen by it.
    std::string gfx_arch;
    std::vector<std::string> aliases;  ///< extra lookup keys ("3090", "rtx3090")
    std::string source;                ///< vendor datasheet / spec page
    /// Total memory as CUDA / ROCm reports it (torch.cuda.mem_get_info()[1]): what vLLM multiplies by
    /// gpu_memory_utilization. Less than vram_bytes: the driver keeps some, and ECC on GDDR cards a sixteenth.
    std::int64_t cuda_total_bytes = 0;
    /// true when no public log gave the total and estimate_cuda_total_bytes() supplied it.
    bool cuda_total_estimated = true;
    std::string cuda_total_source;     ///< the log that printed it, or the estimate rule
    /// Multi-card servers of this part join the cards by NVLink / NVSwitch (SXM and HGX boards); false for
    /// PCIe-only parts (GeForce, L4, L40S, T4, A10). vLLM's non-torch and CUDA-graph memory at TP ≥ 2 depend on it.
    bool nvlink = false;
};

/// CUDA-visible total of a card with `vram_bytes` of memory when no log gives it:
/// vram × (15/16 if ECC on GDDR is on by default) − (0.2 GiB + 0.75 % of vram). Fitted on the logged totals of
/// the catalog (RTX 3070 … H100: every one within 0.18 GiB); docs/ENGINE_RULES.md lists them.
std::int64_t estimate_cuda_total_bytes(std::int64_t vram_bytes, bool ecc_gddr);

/// Every catalogued card (40 entries), consumer first then workstation, datacenter, AMD.
const std::vector<GpuSpec>& gpu_catalog();

/// Looks a card up by id or alias, ignoring case, spaces, underscores, hyphens and a leading "nvidia"/"geforce".
/// nullptr when unknown.
const GpuSpec* find_gpu(std::string_view id);

}  // namespace kvcalc
