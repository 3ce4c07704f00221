// The Hub half of --gguf: HTTP range requests (libcurl) and the header cache; the bytes are parsed by the core.
#include "hub_gguf.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "checkpoint_loader.h"
#include "gguf_loader.h"
#include "hub_http.h"

namespace kvcli {

namespace fs = std::filesystem;

namespace {

/// The first range asked for: a small vocabulary's header fits, and a 256k-token one takes five doublings more.
constexpr std::size_t kFirstRangeBytes = std::size_t{256} << 10;

struct Body {
    std::string bytes;
    std::size_t limit = 0;  ///< a server that ignores Range sends the whole file: stop after this many bytes
};

size_t append_range(char* data, size_t size, size_t n, void* out) {
    auto* b = static_cast<Body*>(out);
    const std::size_t room = b->limit - std::min(b->limit, b->bytes.size());
    b->bytes.append(data, std::min(room, size * n));
    return size * n <= room ? size * n : 0;  // 0 stops the transfer: the rest of the file is not wanted
}

struct RangeAnswer {
    long status = -1;
    std::string error;      ///< libcurl's sentence when the server was not reached
    std::string bytes;      ///< bytes [from, to] (fewer at the end of the file)
    bool file_ended = false;  ///< the file ends inside or at the end of the range asked for
};

/// GET `url` with Range: bytes=from-to. A 200 (no range support) keeps only bytes [from, to] of the body.
RangeAnswer get_range(const std::string& url, std::size_t from, std::size_t to) {
    RangeAnswer a;
    CURL* c = curl_easy_init();
    if (!c) {
        a.error = "libcurl could not start";
        return a;
    }
    Body body;
    body.limit = to + 1;  // a 200 carries the file from byte 0
    char err[CURL_ERROR_SIZE] = {0};
    const std::string range = std::to_string(from) + "-" + std::to_string(to);
    curl_slist* headers = set_hub_request_options(c, err, 120L);
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_RANGE, range.c_str());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append_range);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    const CURLcode rc = curl_easy_perform(c);
    long status = -1;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    // A write stopped on purpose (a 200 past the range) is not a failure.
    if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && body.bytes.size() >= body.limit)) a.status = status;
    else a.error = err[0] ? err : curl_easy_strerror(rc);
    curl_slist_free_all(headers);
    curl_easy_cleanup(c);
    if (a.status == 206) {
        a.bytes = std::move(body.bytes);
        a.file_ended = a.bytes.size() < to - from + 1;
    } else if (a.status == 200) {
        a.file_ended = body.bytes.size() <= to;
        a.bytes = body.bytes.size() > from ? body.bytes.substr(from) : std::string();
    } else if (a.status == 416) {  // the range starts at or past the end of the file
        a.file_ended = true;
    }
    return a;
}

bool read_cached(const fs::path& p, std::string& out) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec || size > kMaxGgufHeaderBytes) return false;
    std::ifstream f(p, std::ios::binary);
    out.assign(static_cast<std::size_t>(size), '\0');
    return f && f.read(out.data(), static_cast<std::streamsize>(size));
}

std::string endpoint() {
    const char* e = std::getenv("HF_ENDPOINT");
    std::string base = e && *e ? e : "https://huggingface.co";
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
}

/// The sentence for an HTTP status other than 206/200/416.
std::string status_problem(const kvcalc::HubGguf& ref, long status) {
    using kvcalc::hub_gguf_text;
    const std::string page = "https://huggingface.co/" + ref.repo;
    if (status == 401 || status == 403) {
        const char* token = std::getenv("HF_TOKEN");
        if (token && *token)
            return "a gated or private repo, and the HF_TOKEN sent has no access to it: accept the model's terms on " +
                   page + " with that account, or use a token with read access to it";
        return "a gated or private repo: accept the model's terms on " + page +
               ", then set HF_TOKEN to an access token (https://huggingface.co/settings/tokens) and run again";
    }
    if (status == 404)
        return "no such file: check the repo, the revision (" + ref.revision + ") and the file name on " + page +
               "/tree/" + ref.revision + " (no local file has the path " + hub_gguf_text(ref) +
               " either: for a file on disk, check its path)";
    if (status == 429) return "too many requests: wait a minute and run again";
    return "try again later, or download the file and pass --gguf FILE";
}

}  // namespace

std::string hub_gguf_cache_path(const kvcalc::HubGguf& ref) {
    std::string folder = ref.repo;
    folder.replace(folder.find('/'), 1, "--");
    return (fs::path(hub_cache_dir()) / folder / ref.revision / "gguf-headers" / ref.file).string();
}

std::string read_hub_gguf_header(const kvcalc::HubGguf& ref, bool offline, const std::string& flag,
                                 kvcalc::GgufHeader& out) {
    // How the user named it: "--gguf ORG/NAME/FILE.gguf", or a link's "--from-url gguf=ORG/NAME/FILE.gguf".
    const std::string named = flag + (flag.back() == '=' ? "" : " ") + kvcalc::hub_gguf_text(ref);
    const fs::path cached = hub_gguf_cache_path(ref);
    const std::string url = kvcalc::hub_gguf_url(ref, endpoint());
    std::string bytes;
    std::string damaged;  // why a cached copy that exists cannot be read (cut short by a full disk, edited)
    if (read_cached(cached, bytes)) {
        kvcalc::GgufReadResult r = kvcalc::read_gguf_header(bytes);
        if (r.header) {
            out = std::move(*r.header);
            return "";
        }
        damaged = r.truncated ? "it ends inside the header, after " + std::to_string(bytes.size()) + " bytes"
                              : "it is not a GGUF header";
    }
    if (offline && !damaged.empty())
        return named + ": --offline, and its cached header (" + cached.string() + ") cannot be read: " + damaged +
               "; run once without --offline to read it again from the Hub";
    if (offline)
        return named + ": --offline, and its header is not in the cache (" +
               cached.string() + "): run once without --offline to cache it, or download the file and pass --gguf" +
               " FILE";
    bytes.clear();
    std::size_t want = kFirstRangeBytes;
    for (;;) {
        RangeAnswer a = get_range(url, bytes.size(), want - 1);
        if (a.status < 0)
            return named + ": cannot reach " + url + " (" + a.error +
                   "); check the network (and HF_ENDPOINT), use --offline when the header is cached (" +
                   cached.string() + "), or download the file and pass --gguf" + " FILE";
        if (a.status != 206 && a.status != 200 && a.status != 416)
            return named + ": " + url + " answered HTTP " +
                   std::to_string(a.status) + ": " + status_problem(ref, a.status);
        bytes += a.bytes;
        kvcalc::GgufReadResult r = kvcalc::read_gguf_header(bytes);
        if (r.header) {
            // The cache keeps the header's own bytes, not the tensor data the last range reached into.
            const std::size_t keep = std::min<std::size_t>(bytes.size(), r.header->header_bytes);
            std::error_code ec;
            fs::create_directories(cached.parent_path(), ec);
            std::ofstream f(cached, std::ios::binary);
            f.write(bytes.data(), static_cast<std::streamsize>(keep));
            // A cache that cannot be written costs a new read next time, nothing more.
            out = std::move(*r.header);
            return "";
        }
        if (!r.truncated || a.file_ended || want >= kMaxGgufHeaderBytes) {
            std::string why;
            for (const auto& d : r.diagnostics)
                if (d.severity == kvcalc::Severity::error) why += (why.empty() ? "" : "; ") + d.message;
            if (bytes.substr(0, 4) != "GGUF")
                why = "not a GGUF file (it does not start with the 4 bytes \"GGUF\"): give the URL of a .gguf file";
            else if (r.truncated && !a.file_ended)
                why = "its header is larger than " + std::to_string(kMaxGgufHeaderBytes >> 20) +
                      " MiB, the most kvcalc reads (" + why + ")";
            else if (r.truncated)
                why = "the file ends inside its header (" + why + "): is the upload cut short?";
            return named + " (" + url + "): " + why;
        }
        want = std::min(want * 2, kMaxGgufHeaderBytes);
    }
}

}  // namespace kvcli
