// Must NOT compile: a fact-sheet-style visit over the real LayerCache variant that forgets one alternative
// (ChunkedLocalAttention). overloaded{} has no generic lambda to fall back on, so std::visit finds no call for
// the missing kind. Checked by the ctest compile_fail_layer_visit (WILL_FAIL); fact_all_cases.cpp is its twin.
#include "kvcalc/model/layer_kinds.h"

namespace kvcalc {

int test_kind_number(const LayerCache& c) {
    return std::visit(overloaded{
                          [](const NoCache&) { return 0; },
                          [](const FullAttention&) { return 1; },
                          [](const SlidingWindow&) { return 2; },
                          [](const MlaLatent&) { return 4; },
                          [](const RecurrentState&) { return 5; },
                      },
                      c);
}

}  // namespace kvcalc
