// What every kvcalc fuzz target shares: a failed invariant aborts (libFuzzer saves the input as a crash), and
// the input is capped so one execution stays in milliseconds.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "report_invariants.h"

/// Aborts with `what` when `problem` is not empty (libFuzzer then writes crash-<sha1> with the input).
inline void fuzz_require(const std::string& problem, const char* what) {
    if (problem.empty()) return;
    std::fprintf(stderr, "invariant broken (%s): %s\n", what, problem.c_str());
    std::abort();
}

/// Inputs longer than this are ignored: every size cap in the core is far below the fuzzer's -max_len anyway.
inline constexpr std::size_t kFuzzMaxInput = 1 << 16;

/// Choices drawn from the input's own bytes (an FNV-1a hash, remixed after each draw), so the scenario a crash
/// ran under reproduces from the saved input alone: pick(n) is in [0, n), n ≥ 1.
class InputPicker {
public:
    explicit InputPicker(std::string_view bytes) {
        for (const unsigned char c : bytes) h_ = (h_ ^ c) * 1099511628211ull;
    }
    std::int64_t operator()(std::uint64_t n) {
        const std::uint64_t v = h_ % n;
        h_ = h_ / n ^ (h_ * 0x9E3779B97F4A7C15ull);
        return static_cast<std::int64_t>(v);
    }

private:
    std::uint64_t h_ = 1469598103934665603ull;
};
