// --log FILE: see startup_log_text.h.
#include "startup_log_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

namespace kvcli {
namespace {

std::string number_text(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, v == static_cast<double>(static_cast<long long>(v)) && v < 1e18 ? "%.0f" : "%.10g", v);
    return buf;
}

}  // namespace

std::string read_log_text(const std::string& path, std::string& text) {
    std::ifstream file;
    std::istream* in = &std::cin;
    if (path != "-") {
        file.open(path, std::ios::binary);
        if (!file) return "--log: cannot read '" + path + "': " + std::strerror(errno);
        in = &file;
    }
    text.clear();
    char buf[1 << 16];
    while (text.size() <= kvcalc::kMaxStartupLogBytes) {
        in->read(buf, sizeof buf);
        const std::streamsize n = in->gcount();
        if (n <= 0) break;
        text.append(buf, static_cast<std::size_t>(n));
        if (!*in) break;
    }
    if (in->bad()) return "--log: reading '" + path + "' failed";
    return {};
}

void print_startup_log(std::ostream& os, const kvcalc::StartupLog& log, const std::string& path) {
    os << "Start-up log " << (path == "-" ? std::string("(stdin)") : path) << ": "
       << kvcalc::log_engine_name(log.engine);
    if (!log.engine_version.empty()) os << " " << log.engine_version;
    os << ", " << log.lines << " lines, " << log.read_lines << " of " << log.known_lines
       << " known lines with numbers read";
    if (log.runs > 1) os << ", " << log.runs << " start-ups (the last, from line " << log.run_first_line << ", read)";
    os << "\n";
    for (const kvcalc::LogFact& f : log.facts) {
        os << "  line " << f.line << "  " << f.name << " = ";
        if (f.has_value) {
            os << number_text(f.value);
            if (!f.unit.empty()) os << " " << f.unit;
            if (!f.detail.empty()) os << " [" << f.detail << "]";
        } else {
            os << f.detail;
        }
        if (!f.rank.empty()) os << "  (" << f.rank << ")";
        os << "\n";
    }
    if (!log.ok) os << "Nothing is priced from this log: see the errors above.\n";
}

void print_log_comparison(std::ostream& os, const kvcalc::StartupCalibration& c,
                          const std::vector<kvcalc::LogComparisonRow>& rows) {
    if (!c.filled.empty()) {
        os << "From the log:";
        for (std::size_t i = 0; i < c.filled.size(); ++i) os << (i ? "; " : " ") << c.filled[i];
        os << "\n";
    }
    os << (c.scenario.measured ? "Calibrated to the log (its measured terms price every answer above):\n"
                               : "Beside the log (no measured terms used):\n");
    if (rows.empty()) return;
    const auto cell = [](const std::optional<double>& v, const std::string& unit) {
        if (!v) return std::string("-");
        char buf[40];
        std::snprintf(buf, sizeof buf, unit == "GiB" ? "%.2f" : unit == "x" ? "%.2f" : "%.0f", *v);
        return std::string(buf);
    };
    os << "  line  printed line                               printed     kvcalc  calibrated   difference\n";
    for (const kvcalc::LogComparisonRow& r : rows) {
        char buf[256];
        const std::string diff = r.calibrated ? cell(*r.calibrated - r.printed, r.unit) : std::string("-");
        std::snprintf(buf, sizeof buf, "  %4zu  %-40.40s %10s %10s %11s %12s %s\n", r.line, r.label.c_str(),
                      cell(r.printed, r.unit).c_str(), cell(r.predicted, r.unit).c_str(),
                      cell(r.calibrated, r.unit).c_str(), diff.c_str(), r.unit.c_str());
        os << buf;
    }
}

}  // namespace kvcli
