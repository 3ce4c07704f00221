// KV-cache element formats: bytes per stored element as exact rationals, plus hardware limits.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace kvcalc {

/// Every bytes-per-element value is an integer number of 1/400 byte, so per-token sums stay exact
/// (0.425 = 170/400, 1.01 = 404/400, 0.5625 = 225/400). 400 = lcm of the denominators 40, 100, 16, 4.
inline constexpr int kBpeDenominator = 400;

/// Position of a format in per-format coefficient tables (constants.json order).
enum class KvFormatId {
    fp16, bf16, fp8_e5m2, fp8_e4m3, int8_per_token_head, q4_0, k8v4, turboquant_3bit_nc, nvfp4,
    // llama.cpp ggml block types (ggml-common.h): 32 values per block plus fp16 scale (and min)
    q8_0, q4_1, q5_0, q5_1, iq4_nl,
};
inline constexpr int kNumKvFormats = 14;

/// One kv_cache_dtype value.
/// Source: seed 000 "bytes_per_kv_element by KV format"; reference/constants.json kv_format_bytes_per_element.
struct KvFormat {
    KvFormatId id;
    const char* name;          ///< vLLM --kv-cache-dtype spelling used by kvcalc
    int bpe_x400;              ///< bytes per element × 400 (exact)
    const char* bpe_exact;     ///< the rational as text, e.g. "17/40"
    int min_sm_x10;            ///< lowest compute capability × 10 that runs it (0 = any)
    int max_sm_x10;            ///< highest compute capability × 10 that runs it (0 = no upper limit)
    const char* hardware_note; ///< empty when none
};

/// All formats in KvFormatId order.
const std::vector<KvFormat>& kv_formats();
/// Looks a format up by name (exact, lower-case); nullptr when unknown.
const KvFormat* find_kv_format(std::string_view name);
/// The names, in table order, for UI pickers and error messages.
std::vector<std::string> kv_format_names();
/// Comma-separated list of the names (for diagnostics).
std::string kv_format_name_list();

/// Indexer-cache element size in 1/400 byte for --kv-breakdown's indexer_format
/// (fp16/bf16 2, fp8_* / int8 1, fp4 / int4 0.5; constants.json indexer_format_bytes_per_element).
/// Returns -1 for an unknown name.
int indexer_bpe_x400(std::string_view name);

/// True when `format` has a kernel on a card of compute capability `sm_x10` (e.g. 86 for sm_86); 0 means the
/// card is unknown, which runs only formats without a hardware requirement. Source: seed 000 KV-format table.
bool kv_format_runs_on(const KvFormat& format, int sm_x10);

}  // namespace kvcalc
