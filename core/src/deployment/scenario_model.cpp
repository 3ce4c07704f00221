// The model half of a Scenario, copied or replaced as one unit (scenario.h).
#include "kvcalc/base/scenario.h"

namespace kvcalc {

void copy_model_fields(const Scenario& from, Scenario& to) {
    to.model_id = from.model_id;
    to.model = from.model;
    to.config_json = from.config_json;
    to.weights_dtype = from.weights_dtype;
    to.safetensors_index_json = from.safetensors_index_json;
    to.safetensors_headers = from.safetensors_headers;
    to.hub_model = from.hub_model;
    to.hub_gguf = from.hub_gguf;
    to.compose = from.compose;
    to.weights_variant = from.weights_variant;
    to.weights_gb = from.weights_gb;
}

void use_catalog_model(Scenario& s, const std::string& id) {
    Scenario blank;
    copy_model_fields(blank, s);
    s.model_id = id;
}

}  // namespace kvcalc
