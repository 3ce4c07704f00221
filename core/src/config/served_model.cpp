// The model a config.json model's start command serves (served_model.h).
#include "config/served_model.h"

#include <nlohmann/json.hpp>

namespace kvcalc::detail {

namespace {

bool repo_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.';
}

bool word_char(char c) { return repo_char(c) && c != '-' && c != '.'; }

bool repo_part_ok(std::string_view p) {
    if (p.empty() || !word_char(p.front()) || !word_char(p.back())) return false;
    for (char c : p)
        if (!repo_char(c)) return false;
    return true;
}

}  // namespace

std::string hub_id_from_config(std::string_view config_json) {
    const nlohmann::json j = nlohmann::json::parse(config_json, nullptr, false);
    if (!j.is_object()) return "";
    const auto it = j.find("_name_or_path");
    if (it == j.end() || !it->is_string()) return "";
    const std::string& v = it->get_ref<const std::string&>();
    const std::size_t slash = v.find('/');
    if (v.size() > 96 || slash == std::string::npos || v.find('/', slash + 1) != std::string::npos) return "";
    if (v.find("--") != std::string::npos || v.find("..") != std::string::npos) return "";
    if (!repo_part_ok(std::string_view(v).substr(0, slash)) || !repo_part_ok(std::string_view(v).substr(slash + 1)))
        return "";
    return v;
}

std::string hub_repo_of(std::string_view ref) {
    const std::size_t at = ref.find('@');
    const std::string_view repo = ref.substr(0, at);
    const std::size_t slash = repo.find('/');
    if (repo.size() > 96 || slash == std::string::npos || repo.find('/', slash + 1) != std::string::npos) return "";
    if (repo.find("--") != std::string::npos || repo.find("..") != std::string::npos) return "";
    if (!repo_part_ok(repo.substr(0, slash)) || !repo_part_ok(repo.substr(slash + 1))) return "";
    if (at != std::string::npos) {
        const std::string_view rev = ref.substr(at + 1);
        if (rev.empty() || rev.size() > 96 || rev.find("..") != std::string_view::npos) return "";
        for (char c : rev)
            if (!repo_char(c) && c != '/') return "";
    }
    return std::string(repo);
}

std::string placeholder_comment(std::string_view served) {
    if (served.empty() || served.front() != '<') return "";
    if (served != kModelDirPlaceholder)
        return "# " + std::string(served) +
               ": a checkpoint of the model as priced (its weights format or variant); kvcalc knows no Hub repo "
               "that holds it, and another repo would load other weights than were priced\n";
    return "# " + std::string(kModelDirPlaceholder) +
           ": the folder with this config.json and the weights (or the model's Hub id); config.json's _name_or_path "
           "names no Hub repo, and the engine serves a folder or a Hub id, not the config file\n";
}

}  // namespace kvcalc::detail
