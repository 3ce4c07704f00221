#include "range_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <strings.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

namespace clitest {

namespace {

std::string header_value(const std::string& head, const std::string& name) {
    std::istringstream in(head);
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.size() > name.size() + 1 && strncasecmp(line.c_str(), name.c_str(), name.size()) == 0 &&
            line[name.size()] == ':') {
            std::string v = line.substr(name.size() + 1);
            while (!v.empty() && v.front() == ' ') v.erase(0, 1);
            return v;
        }
    }
    return "";
}

void send_all(int fd, const std::string& s) {
    std::size_t at = 0;
    while (at < s.size()) {
        const ssize_t n = ::send(fd, s.data() + at, s.size() - at, MSG_NOSIGNAL);
        if (n <= 0) return;  // the client stopped reading (it had the bytes it wanted)
        at += static_cast<std::size_t>(n);
    }
}

std::string reply(int status, const char* reason, const std::string& headers, const std::string& body) {
    return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nContent-Length: " + std::to_string(body.size()) +
           "\r\nConnection: close\r\n" + headers + "\r\n" + body;
}

}  // namespace

RangeServer::RangeServer(std::map<std::string, std::string> files, std::string gated, std::string token)
    : files_(std::move(files)), gated_(std::move(gated)), token_(std::move(token)) {
    listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::listen(listen_fd_, 16);
    socklen_t len = sizeof addr;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
}

RangeServer::~RangeServer() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    thread_.join();
    ::close(listen_fd_);
}

std::string RangeServer::endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

std::vector<RangeServer::Request> RangeServer::requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    return log_;
}

void RangeServer::clear_requests() {
    std::lock_guard<std::mutex> lock(mutex_);
    log_.clear();
}

void RangeServer::serve() {
    for (;;) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stop_) return;
        }
        pollfd p{listen_fd_, POLLIN, 0};
        if (::poll(&p, 1, 50) <= 0) continue;
        const int fd = ::accept(listen_fd_, nullptr, nullptr);
        if (fd < 0) continue;
        answer(fd);
        ::close(fd);
    }
}

void RangeServer::answer(int fd) {
    std::string head;
    char buf[4096];
    while (head.find("\r\n\r\n") == std::string::npos && head.size() < 65536) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) return;
        head.append(buf, static_cast<std::size_t>(n));
    }
    std::istringstream first(head);
    std::string method, target;
    first >> method >> target;
    Request r{target, header_value(head, "Range"), header_value(head, "Authorization")};
    {
        std::lock_guard<std::mutex> lock(mutex_);
        log_.push_back(r);
    }
    static const std::regex resolve(R"(/([^/]+/[^/]+)/resolve/([^/]+)/(.+))");
    std::smatch m;
    if (std::regex_match(target, m, resolve)) {
        const std::string repo = m[1].str(), file = m[3].str();
        if (!gated_.empty() && repo == gated_ && r.authorization != "Bearer " + token_) {
            send_all(fd, reply(401, "Unauthorized", "", "Access to model " + repo + " is restricted."));
            return;
        }
        if (!files_.count(repo + "/" + file)) {
            send_all(fd, reply(404, "Not Found", "", "Entry not found"));
            return;
        }
        // The Hub sends LFS files to its CDN; the CDN URL is what honours Range.
        send_all(fd, reply(302, "Found", "Location: " + endpoint() + "/cdn/" + repo + "/" + file + "\r\n", ""));
        return;
    }
    if (target.rfind("/cdn/", 0) == 0 && files_.count(target.substr(5))) {
        std::ifstream f(files_[target.substr(5)], std::ios::binary);
        std::ostringstream all;
        all << f.rdbuf();
        const std::string body = all.str();
        static const std::regex bytes(R"(bytes=(\d+)-(\d+))");
        std::smatch b;
        if (!std::regex_match(r.range, b, bytes)) {
            send_all(fd, reply(200, "OK", "Accept-Ranges: bytes\r\n", body));
            return;
        }
        const std::size_t from = std::stoull(b[1].str()), to = std::stoull(b[2].str());
        if (from >= body.size()) {
            send_all(fd, reply(416, "Range Not Satisfiable", "Content-Range: bytes */" + std::to_string(body.size()) + "\r\n", ""));
            return;
        }
        const std::size_t last = std::min(to, body.size() - 1);
        send_all(fd, reply(206, "Partial Content",
                           "Content-Range: bytes " + std::to_string(from) + "-" + std::to_string(last) + "/" +
                               std::to_string(body.size()) + "\r\n",
                           body.substr(from, last - from + 1)));
        return;
    }
    send_all(fd, reply(404, "Not Found", "", "Entry not found"));
}

}  // namespace clitest
