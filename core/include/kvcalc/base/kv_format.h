// KV-cache element formats: bytes per stored element as exact rationals, plus hardware limits.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace kvcalc {

struct GpuSpec;

/// Every bytes-per-element value is an integer number of 1/400 byte, so per-token sums stay exact
/// (0.425 = 170/400, 1.01 = 404/400, 0.5625 = 225/400). 400 = lcm of the denominators 40, 100, 16, 4.
inline constexpr int kBpeDenominator = 400;

/// Position of a format in per-format coefficient tables (the order of the original's table, docs/SOURCES.md "KV formats").
enum class KvFormatId {
    fp16, bf16, fp8_e5m2, fp8_e4m3, int8_per_token_head, q4_0, k8v4, turboquant_3bit_nc, nvfp4,
    // llama.cpp ggml block types (ggml-common.h): 32 values per block plus fp16 scale (and min)
    q8_0, q4_1, q5_0, q5_1, iq4_nl,
};
inline constexpr int kNumKvFormats = 14;

/// One kv_cache_dtype value: the one table of KV element sizes. Each engine's rules take the bytes of an element
/// from here through its own spelling of the format (kv_dtype.cpp in each engine's folder); none keeps its own.
/// Source: docs/SOURCES.md "KV formats".
struct KvFormat {
    KvFormatId id;
    const char* name;          ///< vLLM --kv-cache-dtype spelling used by kvcalc
    int bpe_x400;              ///< bytes per element × 400 (exact), per-vector scales amortised
    const char* bpe_exact;     ///< the rational as text, e.g. "17/40"
    int min_sm_x10;            ///< lowest compute capability × 10 that runs it (0 = any)
    int max_sm_x10;            ///< highest compute capability × 10 that runs it (0 = no upper limit)
    const char* hardware_note; ///< empty when none
    /// What the engines store: element_x400 / 400 bytes per element (the element alone) plus scale_bytes_per_head
    /// bytes per head vector. They differ from bpe_x400 only for int8_per_token_head: 1 B per element and one fp32
    /// scale per token and head (vLLM PR #40391), which bpe_x400 amortises as 1 %.
    int element_x400;
    int scale_bytes_per_head;
};

/// How an engine lays out one element of `format`: ceil(elements × num / den) bytes per head vector, plus
/// `scale_bytes_per_head` (the fraction in lowest terms: fp8 is 1/1, q8_0 17/16).
struct KvElementStorage {
    int num = 2, den = 1;
    int scale_bytes_per_head = 0;
};
KvElementStorage kv_element_storage(const KvFormat& format);

/// All formats in KvFormatId order.
const std::vector<KvFormat>& kv_formats();
/// Looks a format up by name (exact, lower-case); nullptr when unknown (also for "auto", which is not a size:
/// each engine resolves it, deployment.h EngineInfo::resolve_auto_kv).
const KvFormat* find_kv_format(std::string_view name);
/// The kv_cache_dtype value every engine defaults to: store the cache in the model's own dtype
/// (vLLM and SGLang --kv-cache-dtype auto; llama.cpp's -ctk/-ctv default f16).
inline constexpr std::string_view kAutoKvCacheDtype = "auto";
/// True for "auto" (exact, lower-case).
bool is_auto_kv_cache_dtype(std::string_view name);
/// Every accepted kv_cache_dtype value: "auto", then the table's names in order (UI pickers, validation).
std::vector<std::string> kv_format_names();
/// Comma-separated list of kv_format_names() (for diagnostics).
std::string kv_format_name_list();
/// Plain label for a picker, e.g. "fp8 (e4m3)", "bf16 (16-bit)"; "auto" reads "auto (model dtype)".
std::string kv_format_label(std::string_view name);

/// What kv_cache_dtype "auto" stores for one model on one card.
struct AutoKvResolution {
    const KvFormat* format = nullptr;  ///< fp16 or bf16; nullptr when the engine would store float32 (see error)
    std::string model_dtype;           ///< the dtype the engine runs the model in: "bfloat16", "float16", "float32"
    std::string note;                  ///< why, when the engine changes the config's dtype (empty otherwise)
    std::string error;                 ///< set when format is nullptr
};

/// Indexer-cache element size in 1/400 byte for --kv-breakdown's indexer_format
/// (fp16/bf16 2, fp8_* / int8 1, fp4 / int4 0.5; docs/SOURCES.md "The KV formula").
/// Returns -1 for an unknown name.
int indexer_bpe_x400(std::string_view name);

/// True when `format` has a kernel on a card of compute capability `sm_x10` (e.g. 86 for sm_86); 0 means the
/// card is unknown, which runs only formats without a hardware requirement. Source: docs/SOURCES.md "KV formats" and each row's hardware_note.
bool kv_format_runs_on(const KvFormat& format, int sm_x10);
/// The attention-backend caveat of a format that runs on `card` through one backend only: fp8_e4m3 on sm_80-88
/// (FlashInfer yes, Triton no: vllm-project/vllm issue #26431). Empty when there is none or the card is unknown.
std::string kv_format_backend_note(const KvFormat& format, const GpuSpec* card);

/// Whether a KV format has a kernel on a card, as far as kvcalc's sources say.
enum class KvSupport { runs, does_not_run, not_known };

/// The hardware rule for a format the engine stores (the stand-in when it has no such dtype) on `card`
/// (nullptr = VRAM typed in). NVIDIA: kv_format_runs_on. AMD (vLLM's ROCm build, vllm/platforms/rocm.py):
/// fp16 / bf16 and llama.cpp's ggml types run; fp8_e4m3 runs where RocmPlatform.supports_fp8 holds (gfx94x
/// MI300 series as e4m3fnuz, gfx95x, gfx12xx) and not elsewhere (RDNA3 gfx11xx); nvfp4 is NVIDIA-only; the
/// rest (fp8_e5m2, int8_per_token_head, k8v4, turboquant) has no public ROCm statement: not_known. A card
/// without a known generation runs only formats without a hardware requirement, else not_known.
KvSupport kv_format_support(const KvFormat& format, const GpuSpec* card);

/// Why `format` does not or may not run on `card` (empty when it runs): one clause, no card name.
std::string kv_format_support_reason(const KvFormat& format, const GpuSpec* card);

}  // namespace kvcalc
