// Must NOT compile under the core's flags (-Werror=switch): a switch over a fact-sheet enum that forgets one
// value (CacheGrowth::windowed). Checked by the ctest compile_fail_switch (WILL_FAIL); fact_all_cases.cpp is its
// twin.
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

int test_growth_number(CacheGrowth g) {
    switch (g) {
        case CacheGrowth::none: return 0;
        case CacheGrowth::per_token: return 1;
        case CacheGrowth::per_sequence: return 3;
    }
    return -1;
}

}  // namespace kvcalc
