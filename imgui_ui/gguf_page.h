// The page's "llama.cpp (GGUF)" path: a .gguf file picked in the browser is read header-first (only the bytes the
// header needs, Blob.slice in web/bridge.js; nothing is uploaded), handed to the core's GGUF reader — the same
// read_gguf_header / read_gguf_model / predict_llama_cpp_startup the CLI's --gguf uses — and becomes the scenario's
// model with the engine set to llama.cpp. docs/GGUF.md "The page" and docs/PAGE.md "llama.cpp (GGUF)".
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcalc::ui {

struct App;
struct HostMessage;

/// First read of each picked file, in bytes; the read doubles while the core says the header goes on.
inline constexpr std::int64_t kGgufFirstReadBytes = std::int64_t{1} << 20;
/// Most header bytes read from one file (as the CLI's kMaxGgufHeaderBytes: a 256k-token vocabulary is a few MB).
inline constexpr std::int64_t kGgufMaxHeaderBytes = std::int64_t{256} << 20;

/// One file the user picked, and how far its header has been read.
struct GgufPickedFile {
    std::string name;              ///< the file's name (no folder: the browser gives none)
    int page_index = 0;            ///< its place in the page's list of picked files (what bytes are asked by)
    std::int64_t size_bytes = 0;   ///< File.size
    std::int64_t read_bytes = 0;   ///< bytes asked for so far (0 = not yet)
    std::optional<GgufHeader> header;  ///< set once the core has a whole header
};

/// The GGUF path's state: what was picked, where the reading is, what came out.
struct GgufPage {
    std::vector<GgufPickedFile> files;  ///< the parts being read, in part order (one file unless split)
    bool reading = false;               ///< bytes asked for and not yet answered
    std::string status;                 ///< the last message shown under the button ("" = none)
    bool status_is_error = false;
    bool open_section = false;          ///< a pick or drop arrived: unfold the section so its message is seen
    std::vector<std::string> notes;     ///< the reader's warnings for the model in use (weights unknown, …)
    /// The headers of the model in the scenario, in split order, and its ModelSpec id: the per-device table is shown
    /// while the scenario's inline model still has this id (picking a catalog model leaves the GGUF path).
    std::vector<GgufHeader> headers;
    std::string model_id;
    bool tensors_listed = false;        ///< false: a vocab-only file (no tensor infos), weights unknown
    /// predict_llama_cpp_startup at the scenario's settings, refreshed by recompute_if_dirty (gguf_recompute).
    std::optional<LlamaCppBuffers> buffers;
    /// The "Hub GGUF" box: ORG/NAME[@REV]/FILE.gguf or a huggingface.co URL (kvcalc/config/hub_gguf.h).
    char hub_input[512] = "";
    /// The Hub GGUF being read, canonical and naming the first part ("" = the files come from the picker); it
    /// becomes Scenario::hub_gguf (the command's --hf-repo/--hf-file, the link's gguf=) once the header is read.
    std::string hub_reading;
};

/// True while the scenario's model is the one read from the picked GGUF file.
bool gguf_model_in_use(const App& app);

/// Asks the page for the file picker (a tap on "Open a .gguf file…"). Sets a status when the host has none.
void gguf_request_pick(App& app);

/// Reads a Hub GGUF's header (`text`: ORG/NAME[@REV]/FILE.gguf or its huggingface.co URL; every part of a split
/// file) with range requests through the page (web/bridge.js ggufHub), the same steps as a picked file. Sets an error
/// status when `text` is no Hub GGUF or the host cannot fetch.
void gguf_request_hub(App& app, const std::string& text);

/// A link that carries gguf=: reads that Hub GGUF again (the link holds the reference, not the header).
void gguf_open_link(App& app);

/// Handles the page's "gguf_files" (what was picked) and "gguf_bytes" (the first N bytes of a file) messages.
/// Returns true when the message was one of these.
bool gguf_take_message(App& app, const HostMessage& m);

/// Recomputes the per-device buffers for the GGUF model at the scenario's settings (after each recompute).
void gguf_recompute(App& app);

/// The GGUF path's state as JSON text for window.kvcalcState.gguf (status, files, the buffer lines, the command).
std::string gguf_state_json(const App& app);

/// The "llama.cpp (GGUF)" section: the button, the reading status, and with a model read the verdict, the
/// per-device table (model buffer, KV buffer, compute buffer) and the llama-server command. True when the scenario
/// changed.
bool panel_gguf(App& app);

}  // namespace kvcalc::ui
