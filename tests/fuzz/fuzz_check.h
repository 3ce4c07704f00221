// What every kvcalc fuzz target shares: a failed invariant aborts (libFuzzer saves the input as a crash), and
// the input is capped so one execution stays in milliseconds.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string>

#include "report_invariants.h"

/// Aborts with `what` when `problem` is not empty (libFuzzer then writes crash-<sha1> with the input).
inline void fuzz_require(const std::string& problem, const char* what) {
    if (problem.empty()) return;
    std::fprintf(stderr, "invariant broken (%s): %s\n", what, problem.c_str());
    std::abort();
}

/// Inputs longer than this are ignored: every size cap in the core is far below the fuzzer's -max_len anyway.
inline constexpr std::size_t kFuzzMaxInput = 1 << 16;
