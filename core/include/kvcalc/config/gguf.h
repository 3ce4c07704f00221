// Reading the header of a GGUF file (llama.cpp's model format) into facts, and those facts into a ModelSpec.
// No I/O: the caller hands over the first bytes of the file. docs/GGUF.md says what is read and priced.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// One row of ggml's type table: a tensor of this type stores its elements in blocks of `block_size` elements,
/// each block `type_size` bytes (ggml/src/ggml.c type_traits, blck_size and type_size; ids from ggml/include/ggml.h
/// enum ggml_type).
struct GgmlType {
    std::uint32_t id = 0;          ///< enum ggml_type value written in GGUF tensor infos
    const char* name = "";         ///< ggml_type_name(), e.g. "q4_K"
    std::int64_t block_size = 0;   ///< elements per block
    std::int64_t type_size = 0;    ///< bytes per block
};

/// Every ggml type a GGUF file may name (ids 4, 5 and 31–33, 36–38 were removed from ggml and are not listed).
const std::vector<GgmlType>& ggml_types();

/// The row for a ggml type id, or nullptr when ggml has no such type.
const GgmlType* find_ggml_type(std::uint32_t id);

/// Bytes of a tensor of type `type` and shape `ne` (ggml order: ne[0] is the row length), as ggml_nbytes computes
/// it for a contiguous tensor: ne[0] / block_size × type_size × ne[1] × ne[2] × …. nullopt when ne[0] is not a
/// multiple of the block size, a dimension is negative, or the product passes 2^63.
std::optional<std::int64_t> ggml_tensor_bytes(const GgmlType& type, const std::vector<std::int64_t>& ne);

/// GGUF metadata value types (gguf.h enum gguf_type).
enum class GgufValueType : std::uint32_t {
    uint8 = 0, int8 = 1, uint16 = 2, int16 = 3, uint32 = 4, int32 = 5, float32 = 6, boolean = 7, string = 8,
    array = 9, uint64 = 10, int64 = 11, float64 = 12,
};

/// Name of a value type as gguf.cpp prints it ("u32", "str", "arr", …).
const char* gguf_value_type_name(GgufValueType t);

/// One metadata value. A scalar has count 1 and its value in `integers` (integer and bool types), `reals`
/// (float32/float64) or `text` (string). An array has type `array`, its `element_type` and `count`; integer, bool
/// and float elements are kept (at most kGgufMaxKeptArrayElements of them), string elements only counted.
struct GgufValue {
    GgufValueType type = GgufValueType::uint32;
    GgufValueType element_type = GgufValueType::uint32;  ///< arrays only
    std::uint64_t count = 1;                             ///< array length; 1 for a scalar
    std::vector<std::int64_t> integers;
    std::vector<double> reals;
    std::string text;
    bool above_int64 = false;  ///< a uint64 value above 2^63 − 1 was met (it is not kept)
};

/// Most numeric array elements kept per value; longer arrays (a tokenizer's scores) are counted, not kept.
inline constexpr std::uint64_t kGgufMaxKeptArrayElements = 1u << 16;
/// Caps that bound the work on a hostile header (each also fails when the bytes run out first).
inline constexpr std::uint64_t kGgufMaxTensors = 1u << 20;
inline constexpr std::uint64_t kGgufMaxKeyValues = 1u << 20;
inline constexpr std::uint64_t kGgufMaxKeyBytes = 1u << 16;
/// ggml's GGML_MAX_NAME (64) bounds a tensor name, including its terminating zero.
inline constexpr std::uint64_t kGgufMaxTensorNameBytes = 63;

struct GgufKeyValue {
    std::string key;
    GgufValue value;
};

/// One tensor info: name, ggml type id, shape (ggml order, 1 to 4 dimensions), offset into the data section.
struct GgufTensorInfo {
    std::string name;
    std::uint32_t ggml_type = 0;
    std::vector<std::int64_t> ne;
    std::uint64_t offset = 0;  ///< bytes from the start of the data section
    std::int64_t bytes = 0;    ///< ggml_tensor_bytes of its type and shape
};

/// Everything a GGUF header states. The data section starts at `data_offset` and is `data_bytes` long (each
/// tensor padded to `alignment`, gguf.cpp); `tensor_bytes` is the exact sum of the tensors' own bytes.
struct GgufHeader {
    std::uint32_t version = 0;                 ///< 2 or 3
    std::vector<GgufKeyValue> metadata;        ///< in file order
    std::vector<GgufTensorInfo> tensors;       ///< in file order
    std::uint64_t alignment = 32;              ///< general.alignment, else GGUF_DEFAULT_ALIGNMENT 32
    std::uint64_t header_bytes = 0;            ///< bytes up to the end of the tensor infos
    std::uint64_t data_offset = 0;             ///< header_bytes rounded up to alignment
    std::uint64_t data_bytes = 0;              ///< data section size (padded tensors)
    std::int64_t tensor_bytes = 0;             ///< sum of GgufTensorInfo::bytes

    /// The value of `key`, or nullptr.
    const GgufValue* find(std::string_view key) const;
};

/// What read_gguf_header returns. `header` is set when the bytes hold a whole valid header; `truncated` says the
/// bytes ended inside the header (read more of the file and call again); errors name the field and offset.
struct GgufReadResult {
    std::optional<GgufHeader> header;
    Diagnostics diagnostics;
    bool truncated = false;
};

/// Parses a GGUF v2/v3 header (gguf.cpp gguf_init_from_file_impl's layout: magic "GGUF", version, tensor count,
/// key/value count, the key/values, the tensor infos) from the first bytes of a file. Never reads past the tensor
/// infos and never throws: a bad magic or version, an unknown value or ggml type, a count or length past the caps
/// above or past the bytes given, a tensor shape that is not a whole number of blocks, duplicate keys or tensor
/// names, or tensor offsets that disagree with the layout gguf.cpp expects come back as error diagnostics.
/// Work and memory are bounded by the size of `bytes`.
GgufReadResult read_gguf_header(std::string_view bytes);

/// A model read from GGUF headers: the ModelSpec and what the file says about its weights.
struct GgufModel {
    ModelSpec spec;                  ///< layers typed as read_hf_config types them for the same model
    std::string architecture;        ///< general.architecture, e.g. "llama"
    bool tensors_listed = false;     ///< false for a vocab-only file (no tensor infos)
    std::int64_t tensor_bytes = 0;   ///< exact sum over all parts' tensors; 0 when none are listed
    bool encoder_only = false;       ///< bert family and others llama.cpp keeps no cache for
    Diagnostics diagnostics;         ///< errors mean `spec` must not be used
};

/// Architectures llama.cpp builds no memory and no output head for (src/llama-model.cpp create_memory returns
/// nullptr): encoders (bert family, gemma-embedding) and diffusion models, by general.architecture.
bool gguf_arch_is_encoder(const std::string& architecture);

/// Builds the ModelSpec from the headers of one GGUF file or of every part of a split file (gguf-split
/// `-00001-of-0000N`, in any order; their split.no / split.count must make a full set). Reads general.architecture
/// and the keys llama.cpp reads for it (src/llama-arch.cpp LLM_KV names, src/llama-model.cpp load_hparams):
/// {arch}.block_count, .context_length, .embedding_length, .feed_forward_length, .attention.head_count and
/// .head_count_kv (scalar or per-layer array), .attention.key_length / .value_length (default embedding_length /
/// head_count), .attention.sliding_window and .attention.sliding_window_pattern, .attention.kv_lora_rank (MLA),
/// .ssm.*, .expert_count / .expert_used_count, .rope.dimension_count. Weights are the exact tensor bytes when the
/// file lists tensors; a vocab-only file gets an estimate from the parameter count and a warning that its weights
/// are unknown. Architectures llama.cpp builds no memory for (bert family, gemma-embedding, diffusion models;
/// llama-model.cpp create_memory) get NoCache layers.
GgufModel read_gguf_model(const std::vector<GgufHeader>& parts);

/// A split GGUF's file name, NAME-0000K-of-0000N.gguf (llama.cpp's gguf-split writes it with llama_split_path,
/// src/llama.cpp: "%s-%05d-of-%05d.gguf"): NAME, K and N.
struct GgufSplitName {
    std::string stem;  ///< NAME (with any folder in front of it)
    int part = 0;      ///< K (1-based); 0 = not a split name
    int count = 0;     ///< N
};

/// Reads a split-file name: five digits each for K and N, 1 <= K <= N, ".gguf" in any case. `part` is 0 when
/// `name` is not one (a plain file name, a K of 0 or above N, other digit counts).
GgufSplitName parse_gguf_split_name(std::string_view name);

/// "STEM-0000K-of-0000N.gguf": the name of part `part` of `count`, as gguf-split names it.
std::string gguf_split_part_name(const std::string& stem, int part, int count);

}  // namespace kvcalc
