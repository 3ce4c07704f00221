// --gguf ORG/NAME[@REV]/FILE.gguf (or its huggingface.co URL): a GGUF file's header read from the Hub with HTTP
// range requests, never the tensor data; the header bytes are cached. docs/GGUF.md "A GGUF on the Hub".
#pragma once
#include <string>

#include "kvcalc/config/gguf.h"
#include "kvcalc/config/hub_gguf.h"

namespace kvcli {

/// Where one file's cached header bytes live: hub_cache_dir()/ORG--NAME/REV/gguf-headers/FILE.
std::string hub_gguf_cache_path(const kvcalc::HubGguf& ref);

/// Reads the header of one Hub GGUF file: from the cache when it holds it, else (unless `offline`) with
/// `Range: bytes=A-B` GETs from $HF_ENDPOINT (default https://huggingface.co), following the Hub's redirect to its
/// CDN, starting at 256 KiB and doubling (appending each new range) until the core's read_gguf_header has the whole
/// header, at most kMaxGgufHeaderBytes; HF_TOKEN, when set, goes as `Authorization: Bearer` to the Hub (libcurl
/// drops it on the redirect to another host). Writes the header bytes (not the tensor data) to the cache. Returns
/// "" on success, else an error naming `flag`, the URL, the HTTP status and what to do.
std::string read_hub_gguf_header(const kvcalc::HubGguf& ref, bool offline, const std::string& flag,
                                 kvcalc::GgufHeader& out);

}  // namespace kvcli
