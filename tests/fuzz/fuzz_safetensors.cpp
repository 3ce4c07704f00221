// libFuzzer target: the checkpoint readers (config/safetensors.h). The first input byte picks the door —
// read_safetensors_index, read_safetensors_header (the binary shard prefix a range request returns) or
// read_safetensors_header_json — and the rest is the file. Every door then goes through predict() with one of the
// embedded popular config.json files as config_json and the input as the checkpoint, so price_checkpoint's TP
// sharding runs on whatever the reader accepted.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "kvcalc/catalog/catalog_popular.h"
#include "kvcalc/config/safetensors.h"
#include "kvcalc/deployment/predict.h"

namespace {

/// What an accepted shard header must satisfy: bytes never negative, and dtype × shape where the dtype is known.
std::string check_header(const kvcalc::SafetensorsHeader& h) {
    if (kvcalc::has_error(h.diagnostics)) return "";
    for (const auto& t : h.tensors) {
        if (t.bytes < 0) return "tensor " + t.name + " has negative bytes";
        const int e = kvcalc::safetensors_dtype_bytes(t.dtype);
        if (e <= 0) continue;
        std::int64_t n = e;
        bool overflow = false;
        for (const std::int64_t d : t.shape) {
            if (d < 0) return "tensor " + t.name + " has a negative dim";
            if (d != 0 && n > INT64_MAX / d) overflow = true;
            else n *= d;
        }
        if (!overflow && n != t.bytes) return "tensor " + t.name + " bytes disagree with dtype × shape";
    }
    return "";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || size > kFuzzMaxInput) return 0;
    const int door = data[0] % 3;
    const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
    static const std::vector<kvcalc::PopularModelSource> configs = kvcalc::popular_model_sources();
    InputPicker pick(text);

    kvcalc::Scenario s;
    s.config_json = configs[static_cast<std::size_t>(pick(configs.size()))].config_json;
    if (door == 0) {
        const kvcalc::SafetensorsIndex index = kvcalc::read_safetensors_index(text);
        if (!kvcalc::has_error(index.diagnostics) && index.total_size_bytes < 0)
            fuzz_require("negative total_size accepted", "read_safetensors_index");
        s.safetensors_index_json = text;
    } else {
        const kvcalc::SafetensorsHeader header =
            door == 1 ? kvcalc::read_safetensors_header(text) : kvcalc::read_safetensors_header_json(text);
        fuzz_require(check_header(header), "read_safetensors_header");
        if (kvcalc::has_error(header.diagnostics)) return 0;
        // The index a snapshot would hold beside this header: every tensor in one shard.
        std::string index = "{\"metadata\":{},\"weight_map\":{";
        for (std::size_t i = 0; i < header.tensors.size() && i < 4096; ++i) {
            std::string name;
            for (const char c : header.tensors[i].name)
                if (c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20) name += c;
            index += (i ? ",\"" : "\"") + name + std::to_string(i) + "\":\"model.safetensors\"";
        }
        s.safetensors_index_json = index + "}}";
        std::uint64_t json_bytes = 0;  // door 1: the 8-byte little-endian length the reader accepted
        for (int i = 7; door == 1 && i >= 0; --i) json_bytes = json_bytes << 8 | static_cast<unsigned char>(text[i]);
        s.safetensors_headers = {door == 1 ? text.substr(8, json_bytes) : text};
    }
    s.tensor_parallel_size = static_cast<int>(1 + pick(8));
    s.max_model_len = 1 + pick(1 << 17);
    s.max_num_seqs = 1 + pick(256);
    s.vram_gb = static_cast<double>(1 + pick(200));
    const kvcalc::Report r = kvcalc::predict(s);
    fuzz_require(kvinv::check_report(r), "predict(checkpoint)");
    return 0;
}
