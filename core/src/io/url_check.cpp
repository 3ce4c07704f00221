// scenario_errors / url_link_problems: predict()'s errors for a scenario, renamed to a link's keys.
#include "kvcalc/io/url_check.h"

#include <string>

#include "kvcalc/deployment/predict.h"
#include "kvcalc/deployment/scenario_fields.h"

namespace kvcalc {

Diagnostics scenario_errors(const Scenario& s) {
    Diagnostics out;
    for (Diagnostic& x : predict(s).diagnostics)
        if (x.severity == Severity::error) out.push_back(std::move(x));
    return out;
}

Diagnostics url_link_problems(const Scenario& s) {
    Diagnostics out = scenario_errors(s);
    for (Diagnostic& x : out) {
        x.severity = Severity::warning;
        const ScenarioField* f = find_scenario_field(x.field);
        if (!f || !*f->url_key) continue;
        x.message = std::string("link key \"") + f->url_key + "\" (" + f->name + "): " + x.message;
        x.field = std::string("url.") + f->url_key;
    }
    return out;
}

}  // namespace kvcalc
