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

/// True when `value` is no local file but a Hub GGUF: ORG/NAME[@REV]/FILE.gguf or its huggingface.co URL
/// (kvcalc/config/hub_gguf.h parse_hub_gguf).
bool is_hub_gguf(const std::string& value);

/// Reads the header of `path` (every part when it is named NAME-0000K-of-0000N.gguf), hands the bytes to the
/// core's GGUF reader (kvcalc/config/gguf.h) and sets scenario.model to the ModelSpec it builds. A Hub GGUF
/// (is_hub_gguf) is read with range requests or from the cache (hub_gguf.h; `offline`: the cache only) and is also
/// set as scenario.hub_gguf, naming its first part. Returns "" on success, with the reader's warnings in `notes`
/// and the parts' headers in `headers` (for llama.cpp's buffer lines); otherwise an error naming `who` (how the
/// user named the file: "--gguf ", or "--from-url gguf=" for a link's key), the path or URL and the problem.
std::string load_gguf(const std::string& path, bool offline, kvcalc::Scenario& scenario, kvcalc::Diagnostics& notes,
                      std::vector<kvcalc::GgufHeader>& headers, const std::string& who = "--gguf ");

}  // namespace kvcli
