// model.safetensors.index.json and shard headers → tensor names, dtypes, shapes and byte counts.
#include "kvcalc/config/safetensors.h"

#include <nlohmann/json.hpp>

#include <limits>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/base/json_safety.h"
#include "util/text.h"

namespace kvcalc {

namespace {

using nlohmann::json;

void error(Diagnostics& d, const char* code, std::string field, std::string message) {
    d.push_back({Severity::error, code, std::move(field), std::move(message)});
}

/// Parses `text` as a JSON object, or says why not under `what`.
bool parse_object(std::string_view text, const char* what, json& out, Diagnostics& d) {
    if (json_too_deep(text)) {
        error(d, "json_too_deep", "", std::string(what) + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        return false;
    }
    out = json::parse(text, nullptr, false);
    if (out.is_discarded()) {
        error(d, "bad_json", "", std::string(what) + " is not JSON: " + json_error_detail(text));
        return false;
    }
    if (!out.is_object()) {
        error(d, "bad_json", "", std::string(what) + " must be a JSON object, got " + shown_value(out));
        return false;
    }
    return true;
}

/// A non-negative integer that fits int64 (JSON numbers above 2^63 parse as unsigned or double).
bool non_negative_int(const json& v, std::int64_t& out) {
    if (v.is_number_unsigned()) {
        const auto u = v.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return false;
        out = static_cast<std::int64_t>(u);
        return true;
    }
    if (v.is_number_integer()) {
        out = v.get<std::int64_t>();
        return out >= 0;
    }
    return false;
}

}  // namespace

SafetensorsIndex read_safetensors_index(std::string_view text) {
    SafetensorsIndex out;
    json j;
    if (!parse_object(text, "model.safetensors.index.json", j, out.diagnostics)) return out;
    const auto wm = j.find("weight_map");
    if (wm == j.end() || !wm->is_object()) {
        error(out.diagnostics, "index_no_weight_map", "weight_map",
              "model.safetensors.index.json needs a weight_map object (tensor name → shard file), got " +
                  (wm == j.end() ? std::string("none") : shown_value(*wm)));
        return out;
    }
    out.tensor_names.reserve(wm->size());
    for (auto it = wm->begin(); it != wm->end(); ++it) out.tensor_names.push_back(it.key());
    const auto meta = j.find("metadata");
    const json* total = meta != j.end() && meta->is_object() && meta->contains("total_size") ? &(*meta)["total_size"] : nullptr;
    if (!total) {
        out.diagnostics.push_back({Severity::warning, "index_no_total_size", "metadata.total_size",
                                   "model.safetensors.index.json has no metadata.total_size: the checkpoint's size "
                                   "comes from the shard headers or the config's parameter count"});
    } else if (!non_negative_int(*total, out.total_size_bytes) || out.total_size_bytes > kMaxBytes) {
        out.total_size_bytes = 0;
        error(out.diagnostics, "out_of_range", "metadata.total_size",
              "metadata.total_size " + shown_value(*total) + " must be a whole number of bytes from 0 to 2^60");
    }
    return out;
}

int safetensors_dtype_bytes(std::string_view d) {
    if (d == "F64" || d == "I64" || d == "U64") return 8;
    if (d == "F32" || d == "I32" || d == "U32") return 4;
    if (d == "F16" || d == "BF16" || d == "I16" || d == "U16") return 2;
    if (d == "F8_E4M3" || d == "F8_E5M2" || d == "F8_E8M0" || d == "I8" || d == "U8" || d == "BOOL") return 1;
    return 0;
}

SafetensorsHeader read_safetensors_header_json(std::string_view text) {
    SafetensorsHeader out;
    json j;
    if (!parse_object(text, "safetensors header", j, out.diagnostics)) return out;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const json& t = it.value();
        SafetensorsTensor x;
        x.name = it.key();
        const std::string where = "tensor " + text::quoted(x.name);
        if (!t.is_object() || !t.contains("dtype") || !t["dtype"].is_string() || !t.contains("shape") ||
            !t["shape"].is_array() || !t.contains("data_offsets") || !t["data_offsets"].is_array() ||
            t["data_offsets"].size() != 2) {
            error(out.diagnostics, "bad_tensor", x.name,
                  where + " needs dtype (text), shape (array) and data_offsets ([begin, end]), got " + shown_value(t));
            continue;
        }
        x.dtype = t["dtype"].get<std::string>();
        std::int64_t elements = 1;
        bool ok = true;
        for (const json& dim : t["shape"]) {
            std::int64_t n = 0;
            ok = ok && non_negative_int(dim, n);
            x.shape.push_back(n);
            elements = sat_mul(elements, n);
        }
        std::int64_t begin = 0, end = 0;
        ok = ok && non_negative_int(t["data_offsets"][0], begin) && non_negative_int(t["data_offsets"][1], end) &&
             end >= begin && end <= kMaxBytes;
        if (!ok) {
            error(out.diagnostics, "bad_tensor", x.name,
                  where + ": shape and data_offsets must be whole numbers ≥ 0 with end ≥ begin, got " + shown_value(t));
            continue;
        }
        x.bytes = end - begin;
        const int width = safetensors_dtype_bytes(x.dtype);
        if (width > 0 && sat_mul(elements, width) != x.bytes) {
            error(out.diagnostics, "tensor_size_mismatch", x.name,
                  where + " is " + x.dtype + " " + shown_value(t["shape"]) + " = " +
                      std::to_string(sat_mul(elements, width)) + " bytes, but data_offsets span " +
                      std::to_string(x.bytes));
            continue;
        }
        out.tensors.push_back(std::move(x));
    }
    return out;
}

SafetensorsHeader read_safetensors_header(std::string_view prefix) {
    SafetensorsHeader out;
    if (prefix.size() < 8) {
        error(out.diagnostics, "header_truncated", "",
              "a safetensors file starts with an 8-byte header length; got " + std::to_string(prefix.size()) + " bytes");
        return out;
    }
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(prefix[static_cast<std::size_t>(i)]);
    // The format caps the header at 100 MB (safetensors README, "Header size").
    if (n > 100'000'000) {
        error(out.diagnostics, "header_too_large", "",
              "the safetensors header length " + std::to_string(n) + " exceeds the format's 100 MB limit");
        return out;
    }
    if (prefix.size() - 8 < n) {
        error(out.diagnostics, "header_truncated", "",
              "the safetensors header is " + std::to_string(n) + " bytes: read the first " + std::to_string(n + 8) +
                  " bytes of the shard, got " + std::to_string(prefix.size()));
        return out;
    }
    return read_safetensors_header_json(prefix.substr(8, static_cast<std::size_t>(n)));
}

}  // namespace kvcalc
