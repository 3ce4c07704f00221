// A small XML well-formedness check (enough for the SVGs kvcalc writes): one root, balanced and properly nested
// tags, quoted attributes without duplicates, known entities only, no stray '<' or '&' in text.
#pragma once
#include <string>

namespace clitest {

/// "" when `xml` is well-formed, otherwise what is wrong and where.
std::string xml_problem(const std::string& xml);

}  // namespace clitest
