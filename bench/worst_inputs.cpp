// Worst-input benchmark: prints, for each of the worst inputs the limits admit, the CPU time and the peak memory of
// one answer through the JSON API (the path the page and scripts use), each in a fresh child process so that one
// input's high-water mark does not hide the next. Prints numbers, asserts nothing; the budget test
// (tests/core/input_budget_test.cpp) checks that the work is linear. Targets: 0.3 s natively; the wasm module's
// figures come from bench/worst_inputs.mjs.
//   kvcalc_worst_inputs
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvcalc/io/api.h"
#include "../tests/core/worst_inputs.h"

namespace {

struct Input {
    std::string name;
    std::string request;
};

std::string with_config(const std::string& config, const char* action) {
    return nlohmann::json{{"schema", 1}, {"action", action}, {"config_json", config}, {"gpu", "h100-80gb"},
                          {"max_model_len", 8192}}
        .dump();
}

double cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace

int main() {
    namespace w = kvcalc::worst;
    const std::string nan = w::nan_config(1000000), keys = w::many_keys_config(49000), too_many = w::many_keys_config(300000), layers = w::layers_config(10000);
    const std::vector<Input> inputs = {
        {"config.json, 1M NaN tokens (4.0 MB), predict", with_config(nan, "predict")},
        {"config.json, 1M NaN tokens (4.0 MB), solve", with_config(nan, "solve")},
        {"config.json, 49k NaN-valued keys (under the 50k limit), predict", with_config(keys, "predict")},
        {"config.json, 300k NaN-valued keys (refused), predict", with_config(too_many, "predict")},
        {"config.json, 10,000 typed layers, predict", with_config(layers, "predict")},
        {"config.json, 10,000 typed layers, solve", with_config(layers, "solve")},
    };
    std::printf("kvcalc worst inputs: one JSON API answer each, in a fresh process (CPU time, peak RSS)\n");
    for (const auto& in : inputs) {
        std::fflush(stdout);  // else the child inherits the buffered lines and prints them again
        const pid_t pid = fork();
        if (pid == 0) {
            const double t0 = cpu_seconds();
            const std::string out = kvcalc::evaluate_json(in.request);
            const double s = cpu_seconds() - t0;
            const auto j = nlohmann::json::parse(out, nullptr, false);
            std::printf("  %-48s %8.3f s  %9zu B in  %7zu B out  ok=%s", in.name.c_str(), s, in.request.size(),
                        out.size(), j.is_object() && j.value("ok", false) ? "true " : "false");
            std::fflush(stdout);
            _exit(0);
        }
        int status = 0;
        rusage ru{};
        wait4(pid, &status, 0, &ru);
        std::printf("  peak RSS %6.1f MB\n", static_cast<double>(ru.ru_maxrss) / 1024.0);
    }
    return 0;
}
