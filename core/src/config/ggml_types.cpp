// ggml's type table: block size and bytes per block of every tensor type a GGUF file may hold.
// Source: ggml/include/ggml.h (enum ggml_type ids) and ggml/src/ggml.c type_traits (blck_size, type_size; the
// block structs in ggml/src/ggml-common.h give the byte counts).
#include <limits>

#include "kvcalc/config/gguf.h"

namespace kvcalc {

const std::vector<GgmlType>& ggml_types() {
    static const std::vector<GgmlType> table = {
        {0, "f32", 1, 4},
        {1, "f16", 1, 2},
        {2, "q4_0", 32, 18},       // fp16 d + 16 B of 4-bit quants
        {3, "q4_1", 32, 20},       // fp16 d, m + 16 B
        {6, "q5_0", 32, 22},       // fp16 d + 4 B high bits + 16 B
        {7, "q5_1", 32, 24},       // fp16 d, m + 4 B + 16 B
        {8, "q8_0", 32, 34},       // fp16 d + 32 int8
        {9, "q8_1", 32, 36},       // fp16 d, s + 32 int8
        {10, "q2_K", 256, 84},     // 16 B scales + 64 B quants + fp16 d, dmin
        {11, "q3_K", 256, 110},    // 32 B hmask + 64 B quants + 12 B scales + fp16 d
        {12, "q4_K", 256, 144},    // fp16 d, dmin + 12 B scales + 128 B quants
        {13, "q5_K", 256, 176},    // fp16 d, dmin + 12 B scales + 32 B high bits + 128 B
        {14, "q6_K", 256, 210},    // 128 B low + 64 B high + 16 B scales + fp16 d
        {15, "q8_K", 256, 292},    // fp32 d + 256 int8 + 16 int16 block sums
        {16, "iq2_xxs", 256, 66},  // fp16 d + 32 uint16
        {17, "iq2_xs", 256, 74},   // fp16 d + 32 uint16 + 8 B scales
        {18, "iq3_xxs", 256, 98},  // fp16 d + 96 B
        {19, "iq1_s", 256, 50},    // fp16 d + 32 B + 8 uint16
        {20, "iq4_nl", 32, 18},    // fp16 d + 16 B
        {21, "iq3_s", 256, 110},   // fp16 d + 64 B + 8 B high + 32 B signs + 4 B scales
        {22, "iq2_s", 256, 82},    // fp16 d + 64 B + 8 B high + 8 B scales
        {23, "iq4_xs", 256, 136},  // fp16 d + uint16 high scales + 4 B low scales + 128 B
        {24, "i8", 1, 1},
        {25, "i16", 1, 2},
        {26, "i32", 1, 4},
        {27, "i64", 1, 8},
        {28, "f64", 1, 8},
        {29, "iq1_m", 256, 56},    // 32 B + 16 B + 8 B scales (the scale is packed into them)
        {30, "bf16", 1, 2},
        {34, "tq1_0", 256, 54},    // 48 B base-3 + 4 B + fp16 d
        {35, "tq2_0", 256, 66},    // 64 B 2-bit + fp16 d
        {39, "mxfp4", 32, 17},     // 1 B shared exponent (E8M0) + 16 B of 4-bit E2M1
    };
    return table;
}

const GgmlType* find_ggml_type(std::uint32_t id) {
    for (const auto& t : ggml_types())
        if (t.id == id) return &t;
    return nullptr;
}

std::optional<std::int64_t> ggml_tensor_bytes(const GgmlType& type, const std::vector<std::int64_t>& ne) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    if (ne.empty() || type.block_size <= 0 || type.type_size <= 0) return std::nullopt;
    for (const auto n : ne)
        if (n < 0) return std::nullopt;
    if (ne[0] % type.block_size != 0) return std::nullopt;
    std::int64_t bytes = ne[0] / type.block_size;
    if (bytes != 0 && type.type_size > kMax / bytes) return std::nullopt;
    bytes *= type.type_size;
    for (std::size_t i = 1; i < ne.size(); ++i) {
        if (ne[i] != 0 && bytes > kMax / ne[i]) return std::nullopt;
        bytes *= ne[i];
    }
    return bytes;
}

}  // namespace kvcalc
