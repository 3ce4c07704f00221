#include "xml_check.h"

#include <cctype>
#include <set>
#include <vector>

namespace clitest {

namespace {

bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.'; }

/// Checks text between tags (or an attribute value) for bare '<' and unknown entities.
std::string check_text(const std::string& t, std::size_t at) {
    for (std::size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '<') return "bare '<' at " + std::to_string(at + i);
        if (t[i] != '&') continue;
        const auto semi = t.find(';', i);
        if (semi == std::string::npos) return "unterminated entity at " + std::to_string(at + i);
        const std::string e = t.substr(i + 1, semi - i - 1);
        static const std::set<std::string> known = {"amp", "lt", "gt", "quot", "apos"};
        if (!known.count(e) && !(e.size() > 1 && e[0] == '#')) return "unknown entity &" + e + ";";
        i = semi;
    }
    return "";
}

}  // namespace

std::string xml_problem(const std::string& x) {
    std::vector<std::string> open;
    int roots = 0;
    std::size_t i = 0;
    while (i < x.size()) {
        if (x[i] != '<') {
            const auto next = x.find('<', i);
            const std::string text = x.substr(i, next == std::string::npos ? std::string::npos : next - i);
            if (open.empty()) {
                for (const char c : text)
                    if (!std::isspace(static_cast<unsigned char>(c))) return "text outside the root element";
            }
            if (auto p = check_text(text, i); !p.empty()) return p;
            if (next == std::string::npos) break;
            i = next;
            continue;
        }
        if (x.compare(i, 5, "<?xml") == 0) {
            const auto end = x.find("?>", i);
            if (end == std::string::npos || i != 0) return "bad XML declaration";
            i = end + 2;
            continue;
        }
        if (x.compare(i, 4, "<!--") == 0) {
            const auto end = x.find("-->", i);
            if (end == std::string::npos) return "unterminated comment";
            i = end + 3;
            continue;
        }
        const bool closing = i + 1 < x.size() && x[i + 1] == '/';
        std::size_t j = i + (closing ? 2 : 1);
        const std::size_t name_start = j;
        while (j < x.size() && name_char(x[j])) ++j;
        const std::string name = x.substr(name_start, j - name_start);
        if (name.empty()) return "tag without a name at " + std::to_string(i);
        if (closing) {
            while (j < x.size() && std::isspace(static_cast<unsigned char>(x[j]))) ++j;
            if (j >= x.size() || x[j] != '>') return "bad closing tag </" + name;
            if (open.empty() || open.back() != name) return "</" + name + "> does not close <" + (open.empty() ? "" : open.back()) + ">";
            open.pop_back();
            i = j + 1;
            continue;
        }
        std::set<std::string> attrs;
        bool self_closing = false;
        while (true) {
            while (j < x.size() && std::isspace(static_cast<unsigned char>(x[j]))) ++j;
            if (j >= x.size()) return "unterminated tag <" + name;
            if (x[j] == '>') { ++j; break; }
            if (x[j] == '/' && j + 1 < x.size() && x[j + 1] == '>') { self_closing = true; j += 2; break; }
            const std::size_t a = j;
            while (j < x.size() && name_char(x[j])) ++j;
            const std::string attr = x.substr(a, j - a);
            if (attr.empty()) return "bad attribute in <" + name;
            if (!attrs.insert(attr).second) return "duplicate attribute " + attr + " in <" + name;
            if (j >= x.size() || x[j] != '=') return "attribute " + attr + " without a value";
            ++j;
            if (j >= x.size() || (x[j] != '"' && x[j] != '\'')) return "unquoted attribute " + attr;
            const char q = x[j];
            const auto end = x.find(q, j + 1);
            if (end == std::string::npos) return "unterminated attribute " + attr;
            if (auto p = check_text(x.substr(j + 1, end - j - 1), j + 1); !p.empty()) return p;
            j = end + 1;
        }
        if (open.empty()) {
            if (++roots > 1) return "more than one root element";
        }
        if (!self_closing) open.push_back(name);
        i = j;
    }
    if (!open.empty()) return "<" + open.back() + "> is never closed";
    if (roots != 1) return "no root element";
    return "";
}

}  // namespace clitest
