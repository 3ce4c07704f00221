// Writes GGUF header bytes for tests: the layout of gguf.cpp (little-endian, 64-bit counts), built from keys and
// tensor infos a test names, so hostile and synthetic headers can be made byte by byte.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kvcalc::test {

struct GgufWriter {
    std::string bytes;

    template <class T> GgufWriter& raw(T v) {
        unsigned char b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        bytes.append(reinterpret_cast<const char*>(b), sizeof(T));
        return *this;
    }
    GgufWriter& str(const std::string& s) { raw<std::uint64_t>(s.size()); bytes += s; return *this; }
    GgufWriter& head(std::uint64_t n_tensors, std::uint64_t n_kv, std::uint32_t version = 3) {
        bytes += "GGUF";
        return raw(version).raw(n_tensors).raw(n_kv);
    }
    GgufWriter& kv_u32(const std::string& k, std::uint32_t v) { str(k).raw<std::uint32_t>(4); return raw(v); }
    GgufWriter& kv_f32(const std::string& k, float v) { str(k).raw<std::uint32_t>(6); return raw(v); }
    GgufWriter& kv_bool(const std::string& k, bool v) { str(k).raw<std::uint32_t>(7); return raw<std::uint8_t>(v); }
    GgufWriter& kv_str(const std::string& k, const std::string& v) { str(k).raw<std::uint32_t>(8); return str(v); }
    GgufWriter& kv_u16(const std::string& k, std::uint16_t v) { str(k).raw<std::uint32_t>(2); return raw(v); }
    GgufWriter& kv_i32(const std::string& k, std::int32_t v) { str(k).raw<std::uint32_t>(5); return raw(v); }
    GgufWriter& kv_u32_array(const std::string& k, const std::vector<std::uint32_t>& v) {
        str(k).raw<std::uint32_t>(9).raw<std::uint32_t>(4).raw<std::uint64_t>(v.size());
        for (auto x : v) raw(x);
        return *this;
    }
    GgufWriter& kv_bool_array(const std::string& k, const std::vector<bool>& v) {
        str(k).raw<std::uint32_t>(9).raw<std::uint32_t>(7).raw<std::uint64_t>(v.size());
        for (bool x : v) raw<std::uint8_t>(x);
        return *this;
    }
    GgufWriter& tensor(const std::string& name, std::uint32_t type, const std::vector<std::int64_t>& ne,
                       std::uint64_t offset) {
        str(name).raw<std::uint32_t>(static_cast<std::uint32_t>(ne.size()));
        for (auto x : ne) raw(x);
        return raw(type).raw(offset);
    }
};

/// Tensor infos in the order given, each offset after the previous one padded to 32 bytes (gguf.cpp's layout).
struct TensorSpec {
    std::string name;
    std::uint32_t type;
    std::vector<std::int64_t> ne;
    std::int64_t bytes;
};
inline void write_tensors(GgufWriter& w, const std::vector<TensorSpec>& ts) {
    std::uint64_t off = 0;
    for (const auto& t : ts) {
        w.tensor(t.name, t.type, t.ne, off);
        off += (static_cast<std::uint64_t>(t.bytes) + 31) / 32 * 32;
    }
}

}  // namespace kvcalc::test
