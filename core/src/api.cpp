// FIRST-THREAD STUB: replaced by the real scenario → report pipeline (issue 3).
#include "kvcalc/api.h"

#include <nlohmann/json.hpp>

namespace kvcalc {

std::string evaluate_json(std::string_view request_json) {
    using nlohmann::json;
    json req = json::parse(request_json, nullptr, false);
    if (req.is_discarded() || !req.is_object()) {
        return json{{"schema", 1}, {"ok", false},
                    {"diagnostics", json::array({{{"severity", "error"}, {"code", "bad_json"}, {"field", ""},
                                                  {"message", "request is not a JSON object"}}})}}
            .dump();
    }
    // Qwen 3.6 27B at fp8: 16 full-attention layers × 4 KV heads × 256 head_dim × 2 (K, V) × 1 byte (seed 000).
    const long long per_token = 16LL * 4 * 256 * 2 * 1;
    return json{{"schema", 1}, {"ok", true}, {"kv_growing_bytes_per_token", per_token}}.dump();
}

}  // namespace kvcalc
