// A GGUF file on the Hugging Face Hub, as the CLI's --gguf, the page's "Hub GGUF" box and the link key gguf= name
// it. The core only reads and writes the reference (no I/O): the front ends fetch the header bytes with HTTP range
// requests and hand them to read_gguf_header (kvcalc/config/gguf.h). docs/GGUF.md "A GGUF on the Hub".
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace kvcalc {

/// One GGUF file of a Hub repo.
struct HubGguf {
    std::string repo;               ///< "ORG/NAME" (huggingface_hub's repo-id rule, served_model.h hub_repo_of)
    std::string revision = "main";  ///< a branch, tag or commit
    std::string file;               ///< path in the repo, ending in ".gguf" (any case), e.g. "Q4_K_M/x-00001-of-00002.gguf"
};

/// Reads `ORG/NAME/FILE.gguf`, `ORG/NAME@REVISION/FILE.gguf`, or a Hub URL
/// `https://huggingface.co/ORG/NAME/resolve/REVISION/FILE.gguf` (also `/blob/` — the page a file has on the Hub —
/// and `hf.co`; a `?download=true` query is dropped). FILE may sit in folders; it must end in .gguf, have no ".."
/// segment and only [A-Za-z0-9._+-/] characters; a revision has [A-Za-z0-9._-/] with no empty segment (a pull
/// request's "refs/pr/1", written %2F-escaped as the Hub's URLs do: "refs%2Fpr%2F1"). `%XX` escapes in the revision
/// and the file are decoded first, then checked. nullopt when it is none.
std::optional<HubGguf> parse_hub_gguf(std::string_view text);

/// The canonical reference: "ORG/NAME/FILE" at revision main, else "ORG/NAME@REVISION/FILE" (what gguf= carries),
/// a '/' in the revision as %2F.
std::string hub_gguf_text(const HubGguf& ref);

/// "https://huggingface.co/ORG/NAME/resolve/REVISION/FILE" with `endpoint` in place of https://huggingface.co
/// (HF_ENDPOINT, no trailing '/').
std::string hub_gguf_url(const HubGguf& ref, std::string_view endpoint = "https://huggingface.co");

}  // namespace kvcalc
