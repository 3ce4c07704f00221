// GGUF header bytes → GgufHeader. The layout is gguf.cpp's (gguf_init_from_file_impl): little-endian, counts and
// lengths 64-bit from version 2 on. Every read is checked against the bytes left, so a hostile header costs at
// most one pass over the bytes it came with.
#include <algorithm>
#include <cstring>
#include <limits>
#include <set>

#include "kvcalc/config/gguf.h"

namespace kvcalc {

namespace {

constexpr std::uint32_t kGgufDefaultAlignment = 32;  // gguf.h GGUF_DEFAULT_ALIGNMENT
constexpr std::size_t kGgmlMaxDims = 4;              // ggml.h GGML_MAX_DIMS

/// Cursor over the bytes. A failed read sets `truncated` (bytes ran out) or leaves an error in `d`.
struct Cursor {
    std::string_view bytes;
    std::size_t at = 0;
    Diagnostics& d;
    bool failed = false;
    bool truncated = false;

    void error(const std::string& code, const std::string& field, const std::string& message) {
        if (failed) return;
        failed = true;
        d.push_back({Severity::error, code, field, message + " (at byte " + std::to_string(at) + ")"});
    }
    bool need(std::uint64_t n, const std::string& field) {
        if (failed) return false;
        if (n <= bytes.size() - at) return true;
        truncated = true;
        error("gguf_truncated", field,
              "the GGUF header ends early: " + field + " needs " + std::to_string(n) + " more bytes but only " +
                  std::to_string(bytes.size() - at) + " are left");
        return false;
    }
    template <class T>
    bool read(T& out, const std::string& field) {
        if (!need(sizeof(T), field)) return false;
        unsigned char b[sizeof(T)];
        std::memcpy(b, bytes.data() + at, sizeof(T));
        std::uint64_t u = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) u |= static_cast<std::uint64_t>(b[i]) << (8 * i);
        if constexpr (sizeof(T) == 8) {
            std::memcpy(&out, &u, 8);
        } else if constexpr (sizeof(T) == 4) {
            const auto v = static_cast<std::uint32_t>(u);
            std::memcpy(&out, &v, 4);
        } else if constexpr (sizeof(T) == 2) {
            const auto v = static_cast<std::uint16_t>(u);
            std::memcpy(&out, &v, 2);
        } else {
            const auto v = static_cast<std::uint8_t>(u);
            std::memcpy(&out, &v, 1);
        }
        at += sizeof(T);
        return true;
    }
    /// A GGUF string: u64 length then that many bytes. `keep` = false skips the bytes.
    bool string(std::string& out, const std::string& field, std::uint64_t max_len, bool keep = true) {
        std::uint64_t n = 0;
        if (!read(n, field + " length")) return false;
        if (n > max_len) {
            error("gguf_string_too_long", field,
                  field + " is " + std::to_string(n) + " bytes long; at most " + std::to_string(max_len) + " are valid");
            return false;
        }
        if (!need(n, field)) return false;
        if (keep) out.assign(bytes.data() + at, static_cast<std::size_t>(n));
        at += static_cast<std::size_t>(n);
        return true;
    }
};

/// Bytes of one scalar element, 0 for string/array.
std::size_t scalar_size(GgufValueType t) {
    switch (t) {
        case GgufValueType::uint8: case GgufValueType::int8: case GgufValueType::boolean: return 1;
        case GgufValueType::uint16: case GgufValueType::int16: return 2;
        case GgufValueType::uint32: case GgufValueType::int32: case GgufValueType::float32: return 4;
        case GgufValueType::uint64: case GgufValueType::int64: case GgufValueType::float64: return 8;
        default: return 0;
    }
}

/// One numeric or bool element into v (kept only when `keep`).
bool read_scalar(Cursor& c, GgufValueType t, GgufValue& v, const std::string& field, bool keep) {
    std::int64_t i = 0;
    double r = 0;
    bool is_real = false;
    switch (t) {
        case GgufValueType::uint8: { std::uint8_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::int8: { std::int8_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::boolean: {
            std::uint8_t x;
            if (!c.read(x, field)) return false;
            if (x > 1) {
                c.error("gguf_bad_value", field, field + " is a bool stored as " + std::to_string(x) + "; valid: 0 or 1");
                return false;
            }
            i = x;
            break;
        }
        case GgufValueType::uint16: { std::uint16_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::int16: { std::int16_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::uint32: { std::uint32_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::int32: { std::int32_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::int64: { std::int64_t x; if (!c.read(x, field)) return false; i = x; break; }
        case GgufValueType::uint64: {
            std::uint64_t x;
            if (!c.read(x, field)) return false;
            if (x > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
                v.above_int64 = true;
                return true;
            }
            i = static_cast<std::int64_t>(x);
            break;
        }
        case GgufValueType::float32: { float x; if (!c.read(x, field)) return false; r = x; is_real = true; break; }
        case GgufValueType::float64: { double x; if (!c.read(x, field)) return false; r = x; is_real = true; break; }
        default: return false;
    }
    if (!keep) return true;
    if (is_real) v.reals.push_back(r);
    else v.integers.push_back(i);
    return true;
}

bool read_value(Cursor& c, std::uint32_t type_id, GgufValue& v, const std::string& key) {
    if (type_id > 12) {
        c.error("gguf_bad_value_type", key,
                key + " has value type " + std::to_string(type_id) + "; valid: 0..12 (gguf.h enum gguf_type)");
        return false;
    }
    v.type = static_cast<GgufValueType>(type_id);
    if (v.type == GgufValueType::string) return c.string(v.text, key, c.bytes.size());
    if (v.type != GgufValueType::array) return read_scalar(c, v.type, v, key, true);
    std::uint32_t et = 0;
    if (!c.read(et, key + " element type")) return false;
    if (et == 9) {
        c.error("gguf_nested_array", key, key + " is an array of arrays, which gguf.cpp does not read");
        return false;
    }
    if (et > 12) {
        c.error("gguf_bad_value_type", key,
                key + " is an array of value type " + std::to_string(et) + "; valid: 0..12 except 9");
        return false;
    }
    v.element_type = static_cast<GgufValueType>(et);
    if (!c.read(v.count, key + " element count")) return false;
    // Each element takes at least one byte (a string at least its 8-byte length): a count past the bytes left is
    // refused before any work is done on it.
    const std::uint64_t min_each = v.element_type == GgufValueType::string ? 8 : scalar_size(v.element_type);
    const std::uint64_t left = c.bytes.size() - c.at;
    if (v.count > left / min_each) {
        // Up to 1 TiB of elements may be a real array cut off by the read; more is a hostile count.
        const bool plausible = v.count <= (std::uint64_t{1} << 40) / min_each;
        c.truncated = plausible;
        c.error(plausible ? "gguf_truncated" : "gguf_count_too_large", key,
                key + " says it holds " + std::to_string(v.count) + " elements, more than the " +
                    std::to_string(left) + " bytes left can hold");
        return false;
    }
    for (std::uint64_t i = 0; i < v.count; ++i) {
        if (v.element_type == GgufValueType::string) {
            std::string ignored;
            if (!c.string(ignored, key + "[" + std::to_string(i) + "]", c.bytes.size(), false)) return false;
        } else if (!read_scalar(c, v.element_type, v, key, i < kGgufMaxKeptArrayElements)) {
            return false;
        }
    }
    return true;
}

std::uint64_t round_up(std::uint64_t n, std::uint64_t align) { return (n + align - 1) / align * align; }

void read_tensor_info(Cursor& c, GgufHeader& h, std::size_t index) {
    const std::string field = "tensor_infos[" + std::to_string(index) + "]";
    GgufTensorInfo t;
    if (!c.string(t.name, field + ".name", kGgufMaxTensorNameBytes)) return;
    std::uint32_t n_dims = 0;
    if (!c.read(n_dims, field + ".n_dims")) return;
    if (n_dims < 1 || n_dims > kGgmlMaxDims) {
        c.error("gguf_bad_tensor", field + ".n_dims",
                "tensor " + t.name + " has " + std::to_string(n_dims) + " dimensions; valid: 1..4 (GGML_MAX_DIMS)");
        return;
    }
    t.ne.resize(n_dims);
    for (auto& n : t.ne)
        if (!c.read(n, field + ".ne")) return;
    if (!c.read(t.ggml_type, field + ".type") || !c.read(t.offset, field + ".offset")) return;
    const GgmlType* type = find_ggml_type(t.ggml_type);
    if (!type) {
        c.error("gguf_bad_ggml_type", field + ".type",
                "tensor " + t.name + " has ggml type " + std::to_string(t.ggml_type) +
                    ", which ggml does not have (ggml.h enum ggml_type)");
        return;
    }
    const auto bytes = ggml_tensor_bytes(*type, t.ne);
    if (!bytes) {
        std::string shape;
        for (const auto n : t.ne) shape += (shape.empty() ? "" : ", ") + std::to_string(n);
        c.error("gguf_bad_tensor", field + ".ne",
                "tensor " + t.name + " of type " + type->name + " has shape [" + shape + "]: each dimension must be " +
                    "≥ 0, the first a multiple of " + std::to_string(type->block_size) +
                    " (the type's block size) and the bytes below 2^63");
        return;
    }
    t.bytes = *bytes;
    h.tensors.push_back(std::move(t));
}

}  // namespace

const char* gguf_value_type_name(GgufValueType t) {
    static const char* const names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "str", "arr",
                                        "u64", "i64", "f64"};
    const auto i = static_cast<std::uint32_t>(t);
    return i < 13 ? names[i] : "?";
}

const GgufValue* GgufHeader::find(std::string_view key) const {
    for (const auto& kv : metadata)
        if (kv.key == key) return &kv.value;
    return nullptr;
}

GgufReadResult read_gguf_header(std::string_view bytes) {
    GgufReadResult out;
    Cursor c{bytes, 0, out.diagnostics};
    GgufHeader h;
    const auto finish = [&]() {
        out.truncated = c.truncated;
        return out;
    };
    if (!c.need(4, "magic")) return finish();
    if (bytes.substr(0, 4) != "GGUF") {
        c.error("gguf_bad_magic", "magic", "the file does not start with \"GGUF\": it is not a GGUF file");
        return finish();
    }
    c.at = 4;
    if (!c.read(h.version, "version")) return finish();
    if (h.version != 2 && h.version != 3) {
        c.error("gguf_bad_version", "version",
                "GGUF version " + std::to_string(h.version) +
                    (h.version == 1 ? " (2023, 32-bit counts) is no longer read by llama.cpp" : " is unknown") +
                    "; valid: 2, 3");
        return finish();
    }
    std::uint64_t n_tensors = 0, n_kv = 0;
    if (!c.read(n_tensors, "n_tensors") || !c.read(n_kv, "n_kv")) return finish();
    if (n_tensors > kGgufMaxTensors)
        c.error("gguf_count_too_large", "n_tensors",
                "n_tensors = " + std::to_string(n_tensors) + "; at most " + std::to_string(kGgufMaxTensors) + " are read");
    if (n_kv > kGgufMaxKeyValues)
        c.error("gguf_count_too_large", "n_kv",
                "n_kv = " + std::to_string(n_kv) + "; at most " + std::to_string(kGgufMaxKeyValues) + " are read");
    std::set<std::string> keys;
    for (std::uint64_t i = 0; i < n_kv && !c.failed; ++i) {
        GgufKeyValue kv;
        if (!c.string(kv.key, "metadata[" + std::to_string(i) + "].key", kGgufMaxKeyBytes)) break;
        if (!keys.insert(kv.key).second) {
            c.error("gguf_duplicate_key", kv.key, "metadata key " + kv.key + " appears twice");
            break;
        }
        std::uint32_t type_id = 0;
        if (!c.read(type_id, kv.key + " type") || !read_value(c, type_id, kv.value, kv.key)) break;
        h.metadata.push_back(std::move(kv));
    }
    if (!c.failed) {
        if (const GgufValue* a = h.find("general.alignment")) {
            const std::int64_t v = a->integers.empty() ? 0 : a->integers.front();
            if (a->type != GgufValueType::uint32 || v <= 0 || (v & (v - 1)) != 0)
                c.error("gguf_bad_alignment", "general.alignment",
                        "general.alignment must be a u32 power of two; the file has " +
                            std::string(gguf_value_type_name(a->type)) + " " + std::to_string(v));
            else
                h.alignment = static_cast<std::uint64_t>(v);
        } else {
            h.alignment = kGgufDefaultAlignment;
        }
    }
    std::set<std::string> names;
    for (std::uint64_t i = 0; i < n_tensors && !c.failed; ++i) {
        read_tensor_info(c, h, static_cast<std::size_t>(i));
        if (!c.failed && !names.insert(h.tensors.back().name).second)
            c.error("gguf_duplicate_tensor", "tensor_infos[" + std::to_string(i) + "].name",
                    "tensor " + h.tensors.back().name + " is listed twice");
    }
    if (c.failed) return finish();
    h.header_bytes = c.at;
    h.data_offset = round_up(c.at, h.alignment);
    // gguf.cpp lays the tensors out in order, each padded to the alignment, and refuses any other offset.
    std::uint64_t expected = 0;
    for (std::size_t i = 0; i < h.tensors.size(); ++i) {
        const auto& t = h.tensors[i];
        if (t.offset != expected) {
            c.error("gguf_bad_offset", "tensor_infos[" + std::to_string(i) + "].offset",
                    "tensor " + t.name + " is at data offset " + std::to_string(t.offset) + ", expected " +
                        std::to_string(expected) + " (tensors follow each other, each padded to " +
                        std::to_string(h.alignment) + " bytes)");
            return finish();
        }
        const auto b = static_cast<std::uint64_t>(t.bytes);
        if (b > std::numeric_limits<std::uint64_t>::max() / 2 - expected ||
            h.tensor_bytes > std::numeric_limits<std::int64_t>::max() - t.bytes) {
            c.error("gguf_bad_tensor", "tensor_infos[" + std::to_string(i) + "]",
                    "the tensors' bytes add up past 2^63");
            return finish();
        }
        expected += round_up(b, h.alignment);
        h.tensor_bytes += t.bytes;
    }
    h.data_bytes = expected;
    out.header = std::move(h);
    return finish();
}

}  // namespace kvcalc
