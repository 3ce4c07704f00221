// Popular Hugging Face models as embedded config.json texts, read by read_hf_config (no I/O).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// One catalog entry's raw material: the config.json facts of `hf_repo` (only the keys kvcalc reads, written
/// from the published config), and the weights dtype the repo ships ("bf16", "fp8", "mxfp4").
struct PopularModelSource {
    std::string id;             ///< lower-case slug, e.g. "llama-3.1-8b"
    std::string display_name;   ///< e.g. "Llama 3.1 8B Instruct"
    std::string hf_repo;        ///< e.g. "meta-llama/Llama-3.1-8B-Instruct"
    std::string weights_dtype;  ///< default weights variant, priced by estimate_weights
    std::string config_json;    ///< the config.json text
    double published_params_b = 0.0;  ///< parameter count the model card states, billions (0 = not stated)
};

/// A published Hub checkpoint of a popular model in another weights format than its own (an AWQ, GPTQ, FP8 or
/// W8A8 upload): what `vllm serve` names when the model is priced in that format (Scenario::weights_dtype).
struct PopularFormatRepo {
    std::string model_id;       ///< PopularModelSource::id
    std::string weights_dtype;  ///< the format it holds: "fp8", "int8", "int4", "nvfp4", "mxfp4"
    std::string hf_repo;        ///< e.g. "Qwen/Qwen3-32B-AWQ"
};

/// Every known repo, in catalog order (core/src/catalog/format_repos.cpp names the publishers).
std::vector<PopularFormatRepo> popular_format_repos();

/// The repo holding `model_id` in `weights_dtype`, or "" when the catalog knows none.
std::string popular_format_repo(std::string_view model_id, std::string_view weights_dtype);

/// The embedded sources, in catalog order.
std::vector<PopularModelSource> popular_model_sources();

/// At least 25 popular models as ModelSpecs: each source parsed by read_hf_config, `id`/`display_name` set,
/// family "generic", uncalibrated, one default WeightsVariant (id = weights dtype, size from
/// estimate_weights, hf_repo) and a provenance entry naming the repo. Entries whose config fails to parse are
/// skipped (a unit test asserts none does).
std::vector<ModelSpec> popular_models();

/// The popular model with this id, or nullopt when the catalog has none.
std::optional<ModelSpec> popular_model(std::string_view id);

}  // namespace kvcalc
