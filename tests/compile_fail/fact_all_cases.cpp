// Compiles: a fact-sheet-style visit with one lambda per LayerCache alternative and a switch over every
// CacheGrowth value. The twin of fact_missing_case.cpp and growth_missing_case.cpp, so that their failure can
// only come from the case they leave out (tests/CMakeLists.txt, compile_fail_*).
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

int test_kind_number(const LayerCache& c) {
    return std::visit(overloaded{
                          [](const NoCache&) { return 0; },
                          [](const FullAttention&) { return 1; },
                          [](const SlidingWindow&) { return 2; },
                          [](const ChunkedLocalAttention&) { return 3; },
                          [](const MlaLatent&) { return 4; },
                          [](const RecurrentState&) { return 5; },
                      },
                      c);
}

int test_growth_number(CacheGrowth g) {
    switch (g) {
        case CacheGrowth::none: return 0;
        case CacheGrowth::per_token: return 1;
        case CacheGrowth::windowed: return 2;
        case CacheGrowth::per_sequence: return 3;
    }
    return -1;
}

}  // namespace kvcalc
