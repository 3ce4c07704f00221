// embind surface of the core: strings in, strings out. Every entry point catches everything, so a bad
// request becomes an {"ok": false, "diagnostics": [...]} document in JavaScript, never an abort.
#include <emscripten/bind.h>

#include <string>

#include "kvcalc/api.h"

namespace {

std::string error_document(const char* what) {
    std::string msg = what ? what : "unknown error";
    std::string escaped;
    for (char c : msg) {
        if (c == '"' || c == '\\') escaped += '\\';
        if (static_cast<unsigned char>(c) >= 0x20) escaped += c;
    }
    return R"({"schema":1,"ok":false,"diagnostics":[{"severity":"error","code":"internal","field":"","message":")" +
           escaped + "\"}]}";
}

/// evaluate(requestJson) → reportJson. See docs/SCHEMA.md for both documents.
std::string evaluate(const std::string& request_json) {
    try {
        return kvcalc::evaluate_json(request_json);
    } catch (const std::exception& e) {
        return error_document(e.what());
    } catch (...) {
        return error_document(nullptr);
    }
}

}  // namespace

EMSCRIPTEN_BINDINGS(kvcalc) {
    emscripten::function("evaluate", &evaluate);
}
