// Options every Hub request shares (hub_http.h).
#include "hub_http.h"

#include <cstdlib>
#include <string>

namespace kvcli {

curl_slist* set_hub_request_options(CURL* c, char* error, long timeout_s) {
    curl_slist* headers = nullptr;
    const char* token = std::getenv("HF_TOKEN");
    if (token && *token) {
        const std::string auth = std::string("Authorization: Bearer ") + token;
        headers = curl_slist_append(headers, auth.c_str());  // libcurl copies the string
        curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    }
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(c, CURLOPT_MAXREDIRS, 10L);
    curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
    curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout_s);
    // A server that accepts the connection and then sends nothing: give up after 20 s below 1 byte per second.
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, 20L);
    curl_easy_setopt(c, CURLOPT_USERAGENT, "kvcalc");
    return headers;
}

}  // namespace kvcli
