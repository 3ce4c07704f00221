// ggml's type table against ggml's own numbers: ids from ggml/include/ggml.h enum ggml_type, bits per weight from
// the block comments in ggml/src/ggml-common.h ("Effectively 4.5 bits per weight" for q4_K, …).
#include <doctest/doctest.h>

#include <set>

#include "kvcalc/config/gguf.h"

using namespace kvcalc;

namespace {

/// Bits per weight of a type: type_size × 8 / block_size.
double bpw(std::uint32_t id) {
    const GgmlType* t = find_ggml_type(id);
    REQUIRE(t);
    return static_cast<double>(t->type_size) * 8.0 / static_cast<double>(t->block_size);
}

}  // namespace

TEST_CASE("ggml types: ids and names as ggml.h and ggml_type_name give them, removed ids absent") {
    const std::pair<std::uint32_t, const char*> ids[] = {
        {0, "f32"}, {1, "f16"}, {2, "q4_0"}, {3, "q4_1"}, {6, "q5_0"}, {7, "q5_1"}, {8, "q8_0"}, {9, "q8_1"},
        {10, "q2_K"}, {11, "q3_K"}, {12, "q4_K"}, {13, "q5_K"}, {14, "q6_K"}, {15, "q8_K"}, {16, "iq2_xxs"},
        {17, "iq2_xs"}, {18, "iq3_xxs"}, {19, "iq1_s"}, {20, "iq4_nl"}, {21, "iq3_s"}, {22, "iq2_s"},
        {23, "iq4_xs"}, {24, "i8"}, {25, "i16"}, {26, "i32"}, {27, "i64"}, {28, "f64"}, {29, "iq1_m"},
        {30, "bf16"}, {34, "tq1_0"}, {35, "tq2_0"}, {39, "mxfp4"}};
    for (const auto& [id, name] : ids) {
        const GgmlType* t = find_ggml_type(id);
        REQUIRE_MESSAGE(t, id);
        CHECK(std::string(t->name) == name);
    }
    CHECK(ggml_types().size() == std::size(ids));
    // Q4_2, Q4_3 and the repacked Q4_0_x_x / IQ4_NL_x_x ids were removed from GGUF files; 40 is GGML_TYPE_COUNT.
    for (std::uint32_t gone : {4u, 5u, 31u, 32u, 33u, 36u, 37u, 38u, 40u, 0xffffffffu}) CHECK(find_ggml_type(gone) == nullptr);
}

TEST_CASE("ggml types: block sizes (QK4_0 = 32, QK_K = 256, QK_MXFP4 = 32) and plain types of one element") {
    for (std::uint32_t id : {2u, 3u, 6u, 7u, 8u, 9u, 20u, 39u}) CHECK(find_ggml_type(id)->block_size == 32);
    for (std::uint32_t id : {10u, 11u, 12u, 13u, 14u, 15u, 16u, 17u, 18u, 19u, 21u, 22u, 23u, 29u, 34u, 35u})
        CHECK(find_ggml_type(id)->block_size == 256);
    const std::pair<std::uint32_t, std::int64_t> plain[] = {{0, 4}, {1, 2}, {30, 2}, {24, 1}, {25, 2}, {26, 4},
                                                            {27, 8}, {28, 8}};
    for (const auto& [id, bytes] : plain) {
        CHECK(find_ggml_type(id)->block_size == 1);
        CHECK(find_ggml_type(id)->type_size == bytes);
    }
}

TEST_CASE("ggml types: bits per weight as ggml-common.h states them for each block") {
    CHECK(bpw(2) == doctest::Approx(4.5));      // q4_0
    CHECK(bpw(3) == doctest::Approx(5.0));      // q4_1
    CHECK(bpw(6) == doctest::Approx(5.5));      // q5_0
    CHECK(bpw(7) == doctest::Approx(6.0));      // q5_1
    CHECK(bpw(8) == doctest::Approx(8.5));      // q8_0
    CHECK(bpw(10) == doctest::Approx(2.625));   // q2_K
    CHECK(bpw(11) == doctest::Approx(3.4375));  // q3_K
    CHECK(bpw(12) == doctest::Approx(4.5));     // q4_K
    CHECK(bpw(13) == doctest::Approx(5.5));     // q5_K
    CHECK(bpw(14) == doctest::Approx(6.5625));  // q6_K
    CHECK(bpw(16) == doctest::Approx(2.0625));  // iq2_xxs
    CHECK(bpw(17) == doctest::Approx(2.3125));  // iq2_xs
    CHECK(bpw(18) == doctest::Approx(3.0625));  // iq3_xxs
    CHECK(bpw(19) == doctest::Approx(1.5625));  // iq1_s
    CHECK(bpw(21) == doctest::Approx(3.4375));  // iq3_s
    CHECK(bpw(22) == doctest::Approx(2.5625));  // iq2_s
    CHECK(bpw(23) == doctest::Approx(4.25));    // iq4_xs
    CHECK(bpw(29) == doctest::Approx(1.75));    // iq1_m
    CHECK(bpw(34) == doctest::Approx(1.6875));  // tq1_0
    CHECK(bpw(35) == doctest::Approx(2.0625));  // tq2_0
    CHECK(bpw(39) == doctest::Approx(4.25));    // mxfp4
    CHECK(find_ggml_type(9)->type_size == 36);  // q8_1: fp16 d and s + 32 int8
    CHECK(find_ggml_type(15)->type_size == 292);  // q8_K: fp32 d + 256 int8 + 16 int16 sums
    CHECK(find_ggml_type(20)->type_size == 18);   // iq4_nl: fp16 d + 16 B
}

TEST_CASE("ggml_tensor_bytes: rows of whole blocks; bad shapes and overflow refused") {
    const GgmlType& q4k = *find_ggml_type(12);
    // token_embd.weight of OpenLLaMA-7B Q4_K_M: 73,728,000 B (LOGS.md; "mem required = 70.40 MB" holds it).
    CHECK(ggml_tensor_bytes(q4k, {4096, 32000, 1, 1}) == 73728000);
    CHECK(ggml_tensor_bytes(*find_ggml_type(0), {4096}) == 16384);
    CHECK_FALSE(ggml_tensor_bytes(q4k, {100, 4}));          // 100 is not a multiple of 256
    CHECK_FALSE(ggml_tensor_bytes(q4k, {256, -1}));
    CHECK_FALSE(ggml_tensor_bytes(q4k, {}));
    CHECK_FALSE(ggml_tensor_bytes(*find_ggml_type(0), {std::int64_t{1} << 40, std::int64_t{1} << 30}));
    CHECK(ggml_tensor_bytes(q4k, {256, 0}) == 0);
}
