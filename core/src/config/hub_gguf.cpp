// The Hub GGUF reference (kvcalc/config/hub_gguf.h): what --gguf ORG/NAME/FILE.gguf, the page's box and gguf= accept.
#include "kvcalc/config/hub_gguf.h"

#include <algorithm>
#include <cctype>

#include "config/served_model.h"

namespace kvcalc {

namespace {

constexpr std::size_t kMaxFileChars = 256;
constexpr std::size_t kMaxRevisionChars = 96;

bool file_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '+' || c == '/';
}

/// A branch, tag or commit. A branch may hold '/' (a pull request's is "refs/pr/N"), never an empty segment or "..".
bool revision_ok(std::string_view r) {
    if (r.empty() || r.size() > kMaxRevisionChars || r.find("..") != std::string_view::npos) return false;
    if (r.front() == '/' || r.back() == '/' || r.find("//") != std::string_view::npos) return false;
    return std::all_of(r.begin(), r.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/';
    });
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/// `%XX` escapes as the Hub writes them in its URLs (a revision's '/' is %2F); nullopt for a broken escape.
std::optional<std::string> percent_decoded(std::string_view t) {
    std::string out;
    out.reserve(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] != '%') {
            out += t[i];
            continue;
        }
        const int hi = i + 1 < t.size() ? hex_digit(t[i + 1]) : -1, lo = i + 2 < t.size() ? hex_digit(t[i + 2]) : -1;
        if (hi < 0 || lo < 0) return std::nullopt;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

/// The revision as a URL path segment or in ORG/NAME@REV/FILE: its '/' as %2F, so it stays one segment.
std::string revision_segment(const std::string& r) {
    std::string out;
    for (char c : r) out += c == '/' ? std::string("%2F") : std::string(1, c);
    return out;
}

bool file_ok(std::string_view f) {
    if (f.size() < 6 || f.size() > kMaxFileChars || f.front() == '/' || f.back() == '/') return false;
    if (!std::all_of(f.begin(), f.end(), file_char)) return false;
    std::string tail(f.substr(f.size() - 5));
    std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char c) { return std::tolower(c); });
    if (tail != ".gguf") return false;
    // No empty, "." or ".." folder: the path stays inside the repo (and inside the CLI's cache folder).
    std::size_t at = 0;
    while (at <= f.size()) {
        const std::size_t end = std::min(f.find('/', at), f.size());
        const std::string_view seg = f.substr(at, end - at);
        if (seg.empty() || seg == "." || seg == "..") return false;
        at = end + 1;
    }
    return true;
}

std::optional<HubGguf> make(std::string_view repo, std::string_view rev_text, std::string_view file_text) {
    const std::optional<std::string> rev = percent_decoded(rev_text), file = percent_decoded(file_text);
    if (!rev || !file || detail::hub_repo_of(repo) != repo || !revision_ok(*rev) || !file_ok(*file))
        return std::nullopt;
    return HubGguf{std::string(repo), *rev, *file};
}

/// The part after the n-th '/' (and that part's start), or npos.
std::size_t after_slashes(std::string_view t, int n) {
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) {
        at = t.find('/', at);
        if (at == std::string_view::npos) return at;
        ++at;
    }
    return at;
}

}  // namespace

std::optional<HubGguf> parse_hub_gguf(std::string_view t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    for (std::string_view scheme : {"https://", "http://"}) {
        if (t.substr(0, scheme.size()) != scheme) continue;
        std::string_view rest = t.substr(scheme.size());
        bool host = false;
        for (std::string_view h : {"huggingface.co/", "www.huggingface.co/", "hf.co/"})
            if (rest.substr(0, h.size()) == h) {
                rest.remove_prefix(h.size());
                host = true;
                break;
            }
        if (!host) return std::nullopt;
        rest = rest.substr(0, rest.find_first_of("?#"));
        // ORG/NAME/(resolve|blob)/REV/FILE
        const std::size_t kind_at = after_slashes(rest, 2);
        if (kind_at == std::string_view::npos) return std::nullopt;
        const std::size_t rev_at = after_slashes(rest, 3);
        const std::size_t file_at = after_slashes(rest, 4);
        if (rev_at == std::string_view::npos || file_at == std::string_view::npos) return std::nullopt;
        const std::string_view kind = rest.substr(kind_at, rev_at - 1 - kind_at);
        if (kind != "resolve" && kind != "blob") return std::nullopt;
        return make(rest.substr(0, kind_at - 1), rest.substr(rev_at, file_at - 1 - rev_at), rest.substr(file_at));
    }
    // ORG/NAME[@REV]/FILE
    const std::size_t file_at = after_slashes(t, 2);
    if (file_at == std::string_view::npos) return std::nullopt;
    const std::string_view head = t.substr(0, file_at - 1);
    const std::size_t at = head.find('@');
    if (at == std::string_view::npos) return make(head, "main", t.substr(file_at));
    return make(head.substr(0, at), head.substr(at + 1), t.substr(file_at));
}

std::string hub_gguf_text(const HubGguf& r) {
    return r.repo + (r.revision == "main" ? std::string() : "@" + revision_segment(r.revision)) + "/" + r.file;
}

std::string hub_gguf_url(const HubGguf& r, std::string_view endpoint) {
    return std::string(endpoint) + "/" + r.repo + "/resolve/" + revision_segment(r.revision) + "/" + r.file;
}

}  // namespace kvcalc
