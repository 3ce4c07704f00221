// Reading a checkpoint's safetensors metadata: model.safetensors.index.json and shard headers. No I/O: the
// front ends fetch the files (the CLI with libcurl or from a snapshot folder, the page with fetch).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"

namespace kvcalc {

/// model.safetensors.index.json as transformers' save_pretrained writes it (modeling_utils.py
/// PreTrainedModel.save_pretrained): {"metadata": {"total_size": N}, "weight_map": {tensor name: shard file}}.
struct SafetensorsIndex {
    /// metadata.total_size: bytes of every tensor's data over all shards (headers excluded); 0 when absent.
    std::int64_t total_size_bytes = 0;
    std::vector<std::string> tensor_names;  ///< the weight_map keys, in file order
    Diagnostics diagnostics;                ///< errors name the key ("weight_map", "metadata.total_size")
};

/// Reads an index file. Bad JSON, a missing or non-object weight_map, a negative or non-integer total_size are
/// errors; a missing total_size is a warning (some uploads omit it; the tensor list still counts).
SafetensorsIndex read_safetensors_index(std::string_view json_text);

/// One tensor of a shard header.
struct SafetensorsTensor {
    std::string name;
    std::string dtype;                 ///< safetensors spelling: "BF16", "F16", "F32", "F8_E4M3", "I32", "U8", …
    std::vector<std::int64_t> shape;   ///< dims as stored (quantized formats pack several values per element)
    std::int64_t bytes = 0;            ///< data_offsets end − begin (what the file holds)
};

/// Tensors of one or more shard headers.
struct SafetensorsHeader {
    std::vector<SafetensorsTensor> tensors;
    Diagnostics diagnostics;
};

/// Bytes of one element of a safetensors dtype (the format's README), 0 for a name it does not list.
int safetensors_dtype_bytes(std::string_view dtype);

/// Reads the JSON part of a shard header: {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__"}.
/// A tensor whose data_offsets disagree with dtype × shape is an error naming it (a truncated or hand-edited file).
SafetensorsHeader read_safetensors_header_json(std::string_view json_text);

/// Reads the start of a shard file as a range request returns it: an 8-byte little-endian header length N, then
/// N bytes of JSON (the safetensors format README). Fewer than 8 + N bytes is an error saying how many are needed.
SafetensorsHeader read_safetensors_header(std::string_view shard_prefix);

}  // namespace kvcalc
