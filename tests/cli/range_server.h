// A tiny HTTP/1.1 server on 127.0.0.1 for the Hub GGUF tests: it plays the Hub (a 302 from /ORG/NAME/resolve/REV/FILE
// to a CDN path, as huggingface.co redirects LFS files) and the CDN (Range: bytes=A-B answered 206 with
// Content-Range), and logs every request so a test can check which bytes were asked for. No network beyond loopback.
#pragma once
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace clitest {

class RangeServer {
public:
    struct Request {
        std::string path;           ///< the request target
        std::string range;          ///< the Range header's value, "" when none
        std::string authorization;  ///< the Authorization header's value, "" when none
    };

    /// Serves `files`: repo path "ORG/NAME/FILE" (at any revision) → local file. Repos under `gated` answer 401
    /// unless the request carries "Authorization: Bearer <token>".
    RangeServer(std::map<std::string, std::string> files, std::string gated = "", std::string token = "");
    ~RangeServer();
    RangeServer(const RangeServer&) = delete;
    RangeServer& operator=(const RangeServer&) = delete;

    /// "http://127.0.0.1:PORT", for HF_ENDPOINT.
    std::string endpoint() const;
    std::vector<Request> requests();
    void clear_requests();

private:
    void serve();
    void answer(int fd);
    std::map<std::string, std::string> files_;
    std::string gated_, token_;
    int listen_fd_ = -1;
    int port_ = 0;
    bool stop_ = false;
    std::mutex mutex_;
    std::vector<Request> log_;
    std::thread thread_;
};

}  // namespace clitest
