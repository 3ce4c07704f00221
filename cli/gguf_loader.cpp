// --gguf: file I/O lives here (the core never reads files); the bytes are parsed by the core's read_gguf_header.
// Only the header is read: a first block, then as much more as the header turns out to need, up to a cap.
#include "gguf_loader.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "hub_gguf.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/config/hub_gguf.h"

namespace kvcli {

namespace {

constexpr std::size_t kFirstReadBytes = std::size_t{1} << 20;

/// The header of one file, read in growing steps until the core has all of it. "" or the error.
std::string read_header(const std::string& path, kvcalc::GgufHeader& out) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) return "cannot read '" + path + "': no such file";
    if (std::filesystem::is_directory(status)) return "'" + path + "' is a folder; give the .gguf file";
    std::ifstream f(path, std::ios::binary);
    if (!f) return "cannot read '" + path + "'";
    std::string bytes;
    std::size_t want = kFirstReadBytes;
    for (;;) {
        const std::size_t have = bytes.size();
        bytes.resize(want);
        f.read(bytes.data() + have, static_cast<std::streamsize>(want - have));
        bytes.resize(have + static_cast<std::size_t>(f.gcount()));
        const bool eof = bytes.size() < want;
        kvcalc::GgufReadResult r = kvcalc::read_gguf_header(bytes);
        if (r.header) {
            out = std::move(*r.header);
            return "";
        }
        if (!r.truncated || eof || want >= kMaxGgufHeaderBytes) {
            std::string why;
            for (const auto& d : r.diagnostics)
                if (d.severity == kvcalc::Severity::error) why += (why.empty() ? "" : "; ") + d.message;
            if (r.truncated && !eof)
                why = "its header is larger than " + std::to_string(kMaxGgufHeaderBytes >> 20) +
                      " MiB, the most kvcalc reads (" + why + ")";
            else if (r.truncated)
                why = "the file ends inside its header (" + why + "): is it cut short?";
            return "'" + path + "': " + why;
        }
        want = std::min(want * 2, kMaxGgufHeaderBytes);
    }
}

/// The parts of a split file named like NAME-00001-of-00003.gguf, in order; just `path` otherwise.
std::vector<std::string> split_parts(const std::string& path) {
    const kvcalc::GgufSplitName name = kvcalc::parse_gguf_split_name(path);
    if (name.part == 0 || name.count > 9999) return {path};
    std::vector<std::string> parts;
    for (int i = 1; i <= name.count; ++i) parts.push_back(kvcalc::gguf_split_part_name(name.stem, i, name.count));
    return parts;
}

}  // namespace

bool is_gguf_path(const std::string& path) {
    if (is_hub_gguf(path)) return true;
    if (path.size() < 5) return false;
    std::string tail = path.substr(path.size() - 5);
    std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return std::tolower(c); });
    return tail == ".gguf";
}

bool is_hub_gguf(const std::string& value) {
    std::error_code ec;
    return !std::filesystem::exists(value, ec) && kvcalc::parse_hub_gguf(value).has_value();
}

std::string load_gguf(const std::string& path, bool offline, kvcalc::Scenario& scenario, kvcalc::Diagnostics& notes,
                      std::vector<kvcalc::GgufHeader>& headers, const std::string& who) {
    const std::string flag = who.substr(0, who.find_last_not_of(" ") + 1);  // "--gguf", "--from-url gguf="
    headers.clear();
    std::string shown = path, hub_ref, first_part;
    if (is_hub_gguf(path)) {
        // ORG/NAME[@REV]/FILE.gguf or its URL: every part from the Hub, by range requests (hub_gguf.h).
        kvcalc::HubGguf ref = *kvcalc::parse_hub_gguf(path);
        const std::vector<std::string> parts = split_parts(ref.file);
        for (const auto& part : parts) {
            kvcalc::HubGguf one = ref;
            one.file = part;
            kvcalc::GgufHeader h;
            if (std::string error = read_hub_gguf_header(one, offline, flag, h); !error.empty()) return error;
            headers.push_back(std::move(h));
        }
        // The command and the link name the first part: llama.cpp loads a split model from it.
        ref.file = parts.front();
        hub_ref = kvcalc::hub_gguf_text(ref);
        first_part = parts.front();
        shown = hub_ref;
    } else {
        // A web address that is not a Hub GGUF reference would otherwise be looked for as a local file.
        std::error_code ec;
        const bool web = path.rfind("https://", 0) == 0 || path.rfind("http://", 0) == 0;
        if (web && !std::filesystem::exists(path, ec))
            return flag + ": '" + path + "' is not a Hub GGUF URL kvcalc reads: give " +
                   "https://huggingface.co/ORG/NAME/resolve/REVISION/FILE.gguf (or /blob/), whose file path has only "
                   "letters, digits and . _ + - / (%XX escapes are decoded first, a revision's '/' as %2F), or "
                   "download the file and give its path";
        const std::vector<std::string> parts = split_parts(path);
        first_part = parts.front();
        for (const auto& part : parts) {
            kvcalc::GgufHeader h;
            if (std::string error = read_header(part, h); !error.empty()) return flag + ": " + error;
            headers.push_back(std::move(h));
        }
    }
    kvcalc::GgufModel g = kvcalc::read_gguf_model(headers);
    std::string errors;
    for (auto& d : g.diagnostics) {
        if (d.severity == kvcalc::Severity::error) errors += (errors.empty() ? "" : "; ") + d.field + ": " + d.message;
        // --weights-gb prices the weights itself, so "the weights are unknown" no longer applies; without it the
        // note's size hint goes beside resolve's "weights_unknown" warning.
        else if (d.code == "gguf_weights_unknown" ? !scenario.weights_gb : d.severity == kvcalc::Severity::warning)
            notes.push_back(std::move(d));
    }
    if (!errors.empty()) return flag + ": '" + shown + "': " + errors;
    // The id is the file name without .gguf. The llama-server command's -m is the local path as given, or a split
    // model's first part (llama.cpp's loader finds the others from it); a Hub GGUF is downloaded by the command.
    g.spec.id = std::filesystem::path(hub_ref.empty() ? path : hub_ref).stem().string();
    if (hub_ref.empty()) g.spec.gguf_file = first_part;
    scenario.model = std::move(g.spec);
    scenario.hub_gguf = hub_ref;  // the command downloads it (--hf-repo, --hf-file), a link carries it (gguf=)
    return "";
}

}  // namespace kvcli
