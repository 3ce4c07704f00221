// --gguf FILE (or --model FILE.gguf): read a GGUF file's header and put its model into the Scenario.
#pragma once
#include <string>

#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/config/gguf.h"

namespace kvcli {

/// Most header bytes read from one GGUF file. A header is the metadata (tokenizer included) and the tensor
/// infos: a few MB for a 256k-token vocabulary; the tensor data after it is never read.
inline constexpr std::size_t kMaxGgufHeaderBytes = std::size_t{256} << 20;

/// True when `path` names a GGUF file by its extension (".gguf", any case).
bool is_gguf_path(const std::string& path);

/// Reads the header of `path` (every part when it is named NAME-0000K-of-0000N.gguf), hands the bytes to the
/// core's GGUF reader (kvcalc/config/gguf.h) and sets scenario.model to the ModelSpec it builds. Returns "" on
/// success, with the reader's warnings in `notes` and the parts' headers in `headers` (for llama.cpp's buffer
/// lines); otherwise an error naming --gguf, the path and the problem.
std::string load_gguf(const std::string& path, kvcalc::Scenario& scenario, kvcalc::Diagnostics& notes,
                      std::vector<kvcalc::GgufHeader>& headers);

}  // namespace kvcli
