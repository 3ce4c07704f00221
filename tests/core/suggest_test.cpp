// The "did you mean" rule (suggest.h): one typo (a swap of two neighbours, one letter more, less or different) of a
// known name is caught; an unrelated word is not.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/deployment/suggest.h"

using kvcalc::closest_name;
using kvcalc::typo_distance;

TEST_SUITE("suggest") {
    TEST_CASE("a swap of two neighbouring letters is one edit, as is one letter more, less or different") {
        CHECK(typo_distance("--modle", "--model") == 1);   // the QA report's typo; Levenshtein counts 2
        CHECK(typo_distance("--mdoel", "--model") == 1);
        CHECK(typo_distance("--mode", "--model") == 1);
        CHECK(typo_distance("--modell", "--model") == 1);
        CHECK(typo_distance("--modal", "--model") == 1);
        CHECK(typo_distance("RTX-3090", "rtx-3090") == 0);  // ids are case-insensitive everywhere
        CHECK(typo_distance("--frob", "--fit") == 3);
        CHECK(typo_distance("", "abc") == 3);
        CHECK(typo_distance("ca", "abc") == 3);  // optimal string alignment: a swapped pair is not edited again
    }

    TEST_CASE("near names are suggested, unrelated words and one-letter names are not") {
        const std::vector<std::string> flags{"--model", "--max-ctx", "--max-model-len", "--fit", "--fit-all",
                                             "--gpu", "--tp", "-h", "-np"};
        CHECK(closest_name("--modle", flags) == "--model");
        CHECK(closest_name("--max-ctxx", flags) == "--max-ctx");
        CHECK(closest_name("--max-model-length", flags) == "--max-model-len");  // 3 edits on 16 letters
        CHECK(closest_name("--pt", flags) == "--tp");
        CHECK(closest_name("--frob", flags).empty());
        CHECK(closest_name("--banana", flags).empty());
        CHECK(closest_name("-x", flags).empty());  // one letter: every one-letter flag is one edit away
        CHECK(closest_name("--", flags).empty());
    }

    TEST_CASE("every catalog model and GPU id survives one swap or one dropped character") {
        std::vector<std::string> models, gpus;
        for (const auto& m : kvcalc::model_catalog()) models.push_back(m.id);
        for (const auto& g : kvcalc::gpu_catalog()) gpus.push_back(g.id);
        for (const auto* list : {&models, &gpus}) {
            for (const std::string& id : *list) {
                for (std::size_t i = 0; i + 1 < id.size(); ++i) {
                    std::string swapped = id, dropped = id;
                    std::swap(swapped[i], swapped[i + 1]);
                    dropped.erase(i, 1);
                    for (const std::string& typo : {swapped, dropped}) {
                        if (typo_distance(typo, id) == 0 || typo.size() < 2) continue;  // "aa" swapped; "t4" less a letter
                        const std::string near = closest_name(typo, *list);
                        INFO(id, " typed as ", typo);
                        REQUIRE_FALSE(near.empty());
                        CHECK(typo_distance(typo, near) <= typo_distance(typo, id));  // it or one as near
                    }
                }
            }
        }
    }

    TEST_CASE("split_list reads field_valid_text's ', ' lists") {
        CHECK(kvcalc::split_list("a, b,c ,, d") == std::vector<std::string>{"a", "b", "c", "d"});
        CHECK(kvcalc::split_list("").empty());
    }
}
