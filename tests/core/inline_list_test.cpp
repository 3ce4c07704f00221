#include <doctest/doctest.h>

#include <vector>

#include "kvcalc/base/inline_list.h"

using kvcalc::InlineList;

TEST_SUITE("inline_list") {
    TEST_CASE("values past the inline capacity go to the heap, in order, and copies keep them") {
        InlineList<int, 2> list;
        for (int v : {10, 20, 30, 40}) list.push_back(v);  // the third and fourth move the list to the heap
        REQUIRE(list.size() == 4);
        CHECK(std::vector<int>(list.begin(), list.end()) == std::vector<int>{10, 20, 30, 40});
        const InlineList<int, 2> copy = list;
        CHECK(std::vector<int>(copy.begin(), copy.end()) == std::vector<int>{10, 20, 30, 40});
        list.assign(std::vector<int>{7});  // back inline
        REQUIRE(list.size() == 1);
        CHECK(list[0] == 7);
        CHECK(copy[3] == 40);
    }
}
