// Reading the test data (tests/data, sources in tests/data/configs/SOURCES.tsv) from the core tests.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace kvcalc::test {

/// The text of tests/data/`path` (KVCALC_TEST_DATA_DIR, set by tests/CMakeLists.txt); empty when it is missing.
inline std::string data_file(const std::string& path) {
    std::ifstream f(std::string(KVCALC_TEST_DATA_DIR) + "/" + path);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

/// A real config.json from tests/data/configs, e.g. config_file("llama-3.1-8b.json").
inline std::string config_file(const std::string& name) { return data_file("configs/" + name); }

}  // namespace kvcalc::test
