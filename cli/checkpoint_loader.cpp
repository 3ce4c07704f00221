// --model DIR / ORG/NAME[@REV]: file and network I/O live here; the core's read_hf_config and price_checkpoint read
// what is fetched.
#include "checkpoint_loader.h"
#include "hub_http.h"

#include <curl/curl.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "kvcalc/base/echo.h"
#include "kvcalc/deployment/input_limits.h"

namespace kvcli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxIndexBytes = kvcalc::kMaxConfigJsonBytes * 4;  // the core's cap on the index text

/// The whole file when it is at most `limit` bytes; false when it is missing or larger.
bool read_file(const fs::path& p, std::size_t limit, std::string& out) {
    std::error_code ec;
    const auto size = fs::file_size(p, ec);
    if (ec || size > limit) return false;
    std::ifstream f(p, std::ios::binary);
    if (!f) return false;
    out.assign(static_cast<std::size_t>(size), '\0');
    f.read(out.data(), static_cast<std::streamsize>(size));
    return static_cast<std::size_t>(f.gcount()) == size;
}

/// The JSON header of a local shard (8-byte length, then that many bytes), empty when it cannot be read.
std::string shard_header(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    unsigned char len[8];
    if (!f.read(reinterpret_cast<char*>(len), 8)) return "";
    std::uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | len[i];
    if (n == 0 || n > 100'000'000) return "";
    std::string json(static_cast<std::size_t>(n), '\0');
    if (!f.read(json.data(), static_cast<std::streamsize>(n))) return "";
    return json;
}

std::string snapshot_hint() {
    return "pass a local snapshot instead: --model DIR, a folder with config.json and model.safetensors.index.json "
           "(e.g. `hf download ORG/NAME config.json model.safetensors.index.json --local-dir DIR`)";
}

/// Reads a snapshot folder into the scenario.
std::string load_dir(const fs::path& dir, const std::string& shown, kvcalc::Scenario& s) {
    std::string config;
    if (!read_file(dir / "config.json", kvcalc::kMaxConfigJsonBytes, config))
        return "--model: '" + shown + "' has no readable config.json (at most 4 MiB); a snapshot folder holds the "
               "model's config.json and model.safetensors.index.json";
    s.config_json = std::move(config);
    std::string index;
    std::set<std::string> shards;
    const bool has_index = fs::exists(dir / "model.safetensors.index.json");
    if (has_index) {
        if (!read_file(dir / "model.safetensors.index.json", kMaxIndexBytes, index))
            return "--model: cannot read '" + shown + "/model.safetensors.index.json' (at most " +
                   std::to_string(kMaxIndexBytes >> 20) + " MiB)";
        // Shard names come from the index's weight_map values; only files that exist here are read.
        auto j = nlohmann::json::parse(index, nullptr, false);
        if (j.is_object() && j.contains("weight_map") && j["weight_map"].is_object())
            for (const auto& v : j["weight_map"])
                if (v.is_string()) shards.insert(v.get<std::string>());
    } else if (fs::exists(dir / "model.safetensors")) {
        shards.insert("model.safetensors");
        index = R"({"metadata":{},"weight_map":{}})";
    }
    std::vector<std::string> headers;
    bool all = !shards.empty();
    for (const auto& name : shards) {
        const fs::path p = dir / fs::path(name).filename();
        std::string h = fs::exists(p) ? shard_header(p) : std::string();
        if (h.empty()) {
            all = false;
            break;
        }
        headers.push_back(std::move(h));
    }
    if (all) s.safetensors_headers = std::move(headers);
    // A single-file checkpoint has no index: its header alone lists the tensors.
    if (has_index || !s.safetensors_headers.empty()) s.safetensors_index_json = std::move(index);
    return "";
}

size_t append_body(char* data, size_t size, size_t n, void* out) {
    auto* s = static_cast<std::string*>(out);
    if (s->size() + size * n > kMaxIndexBytes) return 0;  // stops the transfer: larger than kvcalc reads
    s->append(data, size * n);
    return size * n;
}

/// GET `url` into `body`; returns the HTTP status, or -1 with `error` set when the Hub cannot be reached.
long http_get(const std::string& url, std::string& body, std::string& error) {
    CURL* c = curl_easy_init();
    if (!c) {
        error = "libcurl could not start";
        return -1;
    }
    char err[CURL_ERROR_SIZE] = {0};
    curl_slist* headers = set_hub_request_options(c, err, 60L);  // HF_TOKEN too: a gated repo's config.json
    curl_easy_setopt(c, CURLOPT_URL, url.c_str());
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, append_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
    const CURLcode rc = curl_easy_perform(c);
    long status = -1;
    if (rc == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
    else error = err[0] ? err : curl_easy_strerror(rc);
    curl_slist_free_all(headers);
    curl_easy_cleanup(c);
    return status;
}

/// ORG/NAME[@REV] split; false when it is not of that form.
bool split_repo(const std::string& v, std::string& repo, std::string& rev) {
    const auto at = v.find('@');
    repo = v.substr(0, at);
    rev = at == std::string::npos ? "main" : v.substr(at + 1);
    const auto slash = repo.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == repo.size() || repo.find('/', slash + 1) != std::string::npos)
        return false;
    for (const char ch : repo + rev)
        if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_' || ch == '.' || ch == '/')) return false;
    return !rev.empty() && repo.front() != '.' && repo.find("..") == std::string::npos && rev.find("..") == std::string::npos;
}

/// Fetches one file of the repo into the cache folder; "" on success or when the Hub says 404 (`missing` set).
std::string fetch_to(const std::string& who, const std::string& base, const std::string& repo, const std::string& rev, const std::string& file,
                     const fs::path& to, bool& missing) {
    std::string body, error;
    const long status = http_get(base + "/" + repo + "/resolve/" + rev + "/" + file, body, error);
    missing = status == 404;
    if (missing) return "";
    if (status < 0)
        return who + repo + ": cannot reach the Hugging Face Hub (" + error + "); " + snapshot_hint() +
               ", or --offline to use the cache (" + hub_cache_dir() + ")";
    if (status == 401 || status == 403)
        return who + repo + ": the Hub refused " + file + " (HTTP " + std::to_string(status) +
               ": a gated or private repo); " + snapshot_hint();
    if (status != 200)
        return who + repo + ": the Hub answered HTTP " + std::to_string(status) + " for " + file + "; " +
               snapshot_hint();
    std::error_code ec;
    fs::create_directories(to.parent_path(), ec);
    std::ofstream f(to, std::ios::binary);
    f << body;
    if (!f) return who + repo + ": cannot write the cache file '" + to.string() + "'";
    return "";
}

}  // namespace

bool is_checkpoint_source(const std::string& value) {
    std::error_code ec;
    if (fs::is_directory(value, ec)) return true;
    return value.find('/') != std::string::npos;
}

std::string hub_cache_dir() {
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/kvcalc/hub";
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.cache/kvcalc/hub";
}

std::string load_checkpoint(const std::string& source, bool offline, kvcalc::Scenario& s, const std::string& who) {
    std::error_code ec;
    if (fs::is_directory(source, ec)) return load_dir(source, kvcalc::echo_cut(source), s);
    std::string repo, rev;
    if (!split_repo(source, repo, rev))
        return who + "'" + kvcalc::echo_cut(source) + "' is neither a folder nor a Hub repo ORG/NAME[@REVISION]; " +
               snapshot_hint();
    std::string folder = repo;
    folder.replace(folder.find('/'), 1, "--");
    const fs::path cached = fs::path(hub_cache_dir()) / folder / rev;
    if (!fs::exists(cached / "config.json")) {
        if (offline)
            return who + repo + ": --offline and not in the cache (" + cached.string() + "); " + snapshot_hint();
        const char* endpoint = std::getenv("HF_ENDPOINT");
        const std::string base = endpoint && *endpoint ? endpoint : "https://huggingface.co";
        bool missing = false;
        std::string e = fetch_to(who, base, repo, rev, "model.safetensors.index.json", cached / "model.safetensors.index.json", missing);
        if (!e.empty()) return e;
        e = fetch_to(who, base, repo, rev, "config.json", cached / "config.json", missing);
        if (!e.empty()) return e;
        if (missing) return who + repo + ": the Hub has no config.json at revision " + rev + "; " + snapshot_hint();
    }
    std::string error = load_dir(cached, cached.string(), s);
    // The command serves this repo, and --url carries it as hf= (the files are read again on open).
    if (error.empty()) s.hub_model = source;
    return error;
}

}  // namespace kvcli
