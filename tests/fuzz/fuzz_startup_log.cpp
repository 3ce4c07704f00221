// libFuzzer target: the start-up log reader (docs/STARTUP_LOGS.md). read_startup_log on any text must return
// with every fact on a line of the text, finite numbers, bounded diagnostics, and a JSON form that serialises.
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "kvcalc/base/json_safety.h"
#include "kvcalc/io/startup_log.h"
#include "kvcalc/io/startup_log_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kFuzzMaxInput) return 0;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const kvcalc::StartupLog log = kvcalc::read_startup_log(text);

    fuzz_require(log.ok == !kvcalc::has_error(log.diagnostics) ? "" : "ok disagrees with the diagnostics", "ok");
    fuzz_require(!log.ok || !log.facts.empty() ? "" : "ok without a fact", "ok");
    fuzz_require(log.read_lines <= log.known_lines && log.known_lines <= log.lines ? "" : "line counts out of order",
                 "counts");
    // 20 unread-line warnings + 20 contradictions + the consistency checks + one of each other kind at most
    fuzz_require(log.diagnostics.size() <= 20 + 20 + 4 + log.facts.size() + 8 ? "" : "too many diagnostics",
                 "diagnostics");
    for (const kvcalc::LogFact& f : log.facts) {
        fuzz_require(f.line >= 1 && f.line <= log.lines ? "" : "a fact on a line the text does not have", "line");
        fuzz_require(!f.has_value || std::isfinite(f.value) ? "" : "a fact that is not a finite number", "value");
        fuzz_require(!f.name.empty() ? "" : "a fact without a name", "name");
    }
    const std::string json = kvcalc::dump_safe(nlohmann::json(log));
    fuzz_require(!json.empty() && json.front() == '{' ? "" : "the JSON form is not an object", "json");
    return 0;
}
