#include "cli_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace clitest {

std::string read_file(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
}

std::string temp_path(const std::string& name) {
    return std::string(KVCALC_TMP_DIR) + "/" + std::to_string(getpid()) + "_" + name;
}

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

Run kvcalc(const std::string& args) { return kvcalc_env("", args); }

Run kvcalc_env(const std::string& env, const std::string& args) {
    const std::string out = temp_path("stdout.txt"), err = temp_path("stderr.txt");
    const std::string cmd = (env.empty() ? std::string() : "env " + env + " ") + shell_quote(KVCALC_BIN) + " " + args + " >" + shell_quote(out) + " 2>" + shell_quote(err);
    const int raw = std::system(cmd.c_str());
    Run r;
    r.status = (raw != -1 && WIFEXITED(raw)) ? WEXITSTATUS(raw) : -1;
    r.out = read_file(out);
    r.err = read_file(err);
    std::remove(out.c_str());
    std::remove(err.c_str());
    return r;
}

}  // namespace clitest
