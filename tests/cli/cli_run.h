// Runs the kvcalc binary under test and captures what it printed.
#pragma once
#include <string>

namespace clitest {

/// What one run of kvcalc produced.
struct Run {
    int status = -1;   ///< exit status (0, 1, 2), or -1 when it did not exit normally
    std::string out;   ///< stdout
    std::string err;   ///< stderr
};

/// Runs `kvcalc ARGS` through the shell (ARGS are shell words, quote as needed).
Run kvcalc(const std::string& args);

/// Runs `kvcalc ARGS` with the environment assignments `env` ("NAME=value …", shell words) added.
Run kvcalc_env(const std::string& env, const std::string& args);

/// Whole file as text ("" when missing).
std::string read_file(const std::string& path);

/// A path in the test build directory, unique to this process.
std::string temp_path(const std::string& name);

/// Wraps a value in single quotes for the shell.
std::string shell_quote(const std::string& s);

}  // namespace clitest
