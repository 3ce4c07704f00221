// libFuzzer target: the GGUF header reader (docs/GGUF.md). read_gguf_header on any bytes; a clean header is typed
// by read_gguf_model (alone and as both parts of a split pair) and a clean model priced through predict() at
// llama.cpp and vLLM with a length and concurrency picked from a hash of the input.
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/deployment/predict.h"

namespace {

/// What a header the reader accepted must satisfy.
std::string check_header(const kvcalc::GgufHeader& h, std::size_t size) {
    if (h.version != 2 && h.version != 3) return "version " + std::to_string(h.version) + " accepted";
    if (h.header_bytes > size) return "header_bytes past the input";
    if (h.data_offset < h.header_bytes || h.data_offset % h.alignment != 0) return "data_offset not aligned after header";
    if (h.tensor_bytes < 0 || static_cast<std::uint64_t>(h.tensor_bytes) > h.data_bytes) return "tensor bytes out of range";
    std::int64_t sum = 0;
    for (const auto& t : h.tensors) {
        const kvcalc::GgmlType* type = kvcalc::find_ggml_type(t.ggml_type);
        if (!type) return "unknown ggml type accepted";
        if (kvcalc::ggml_tensor_bytes(*type, t.ne) != t.bytes) return "tensor bytes disagree with the type table";
        sum += t.bytes;
    }
    return sum == h.tensor_bytes ? "" : "tensor_bytes is not the sum";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > kFuzzMaxInput) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    const kvcalc::GgufReadResult r = kvcalc::read_gguf_header(bytes);
    if (!r.header) {
        fuzz_require(kvcalc::has_error(r.diagnostics) ? "" : "no header and no error", "read_gguf_header");
        return 0;
    }
    fuzz_require(check_header(*r.header, size), "read_gguf_header");
    const kvcalc::GgufModel g = kvcalc::read_gguf_model({*r.header});
    (void)kvcalc::read_gguf_model({*r.header, *r.header});
    if (kvcalc::has_error(g.diagnostics)) return 0;
    if (g.spec.layers.size() != static_cast<std::size_t>(g.spec.num_hidden_layers))
        fuzz_require("layers do not match block_count", "read_gguf_model");

    InputPicker pick(bytes);
    kvcalc::Scenario s;
    s.model = g.spec;
    s.engine = pick(2) ? "llama.cpp" : "vllm";
    s.kv_cache_dtype = pick(2) ? "f16" : "q8_0";
    s.max_model_len = 1 + pick(std::int64_t{1} << 27);
    s.max_num_seqs = 1 + pick(256);
    s.vram_gb = static_cast<double>(1 + pick(100000));
    if (g.spec.weights.empty() || pick(2)) s.weights_gb = 0.5 + static_cast<double>(pick(2000));
    fuzz_require(kvinv::check_report(kvcalc::predict(s)), "predict(gguf model)");
    return 0;
}
