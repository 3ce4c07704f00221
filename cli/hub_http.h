// What every request kvcalc's CLI makes to the Hugging Face Hub shares (libcurl): the config.json / index fetch of
// --model ORG/NAME (checkpoint_loader.cpp) and the GGUF header ranges of --gguf ORG/NAME/FILE.gguf (hub_gguf.cpp).
#pragma once
#include <curl/curl.h>

namespace kvcli {

/// Sets the options both requests share on `c`: redirects followed (the Hub sends files from a CDN), a 10 s
/// connect and `timeout_s` whole-transfer limit, 20 s without a byte ends it (a stalled server), kvcalc's user agent, libcurl's error text into `error`
/// (CURL_ERROR_SIZE bytes), and, when HF_TOKEN is set, "Authorization: Bearer <token>" (gated and private repos,
/// as huggingface_hub sends it). Returns the header list to free with curl_slist_free_all after the transfer
/// (nullptr when there is none).
curl_slist* set_hub_request_options(CURL* c, char* error, long timeout_s);

}  // namespace kvcli
