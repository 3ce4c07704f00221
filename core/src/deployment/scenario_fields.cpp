// The scenario field table (scenario_fields.h) and the value rules every front end shares.
#include "kvcalc/deployment/scenario_fields.h"

#include <charconv>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "kvcalc/catalog/catalog.h"
#include "kvcalc/base/gpu_catalog.h"
#include "kvcalc/base/kv_format.h"
#include "kvcalc/model/layer_cache.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/engines/vllm/accounting.h"
#include "kvcalc/engines/vllm/sampler.h"
#include "kvcalc/config/hub_gguf.h"

#include "config/served_model.h"
#include "engines/deploy_internal.h"
#include "util/text.h"

namespace kvcalc {

namespace {

/// 2^27 tokens: the longest max_model_len / max_num_batched_tokens; keeps every byte sum inside int64
/// (docs/RELIABILITY.md).
constexpr double kMaxTokens = 134217728;
/// 65,536 concurrent sequences (vLLM's largest default is 1,024).
constexpr double kMaxSeqs = 65536;
/// The largest size in GB (checkpoint, VRAM, drafter): far beyond any card or checkpoint, finite.
constexpr double kMaxGb = 1e6;

template <class List> std::string join_ids(const List& items) {
    std::string ids;
    for (const auto& x : items) ids += (ids.empty() ? "" : ", ") + x.id;
    return ids;
}

/// ASCII lower case of a choice value (the engines' spellings are lower case; users type FP8 and BFloat16).
std::string lowered(std::string_view t) {
    std::string out(t);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// The engines' --kv-cache-dtype / -ctk spellings that differ from kvcalc's format names. kvcalc's own names
/// (fp16, bf16, fp8_e5m2, fp8_e4m3, int8_per_token_head, nvfp4, turboquant_3bit_nc, q8_0, q4_0, …) are also
/// vLLM's, SGLang's or llama.cpp's where those have the format.
struct KvSpelling {
    std::string_view spelled, name, source;
};
constexpr KvSpelling kKvSpellings[] = {
    {"float16", "fp16", "vLLM"},              // vllm/config/cache.py CacheDType
    {"bfloat16", "bf16", "vLLM, SGLang"},     // CacheDType; sglang server_args.py kv_cache_dtype choices
    {"fp8", "fp8_e4m3", "vLLM"},              // cache.py: "fp8 (=fp8_e4m3)" on CUDA and ROCm
    {"turboquant_k8v4", "k8v4", "vLLM"},      // CacheDType
    {"f16", "fp16", "llama.cpp"},             // common/arg.cpp --cache-type-k/-v
};

std::optional<std::string> identity_if(bool ok, std::string_view t) {
    return ok ? std::optional<std::string>(std::string(t)) : std::nullopt;
}

// ---- choice lists: the same look-ups resolve() uses ----
// Catalog ids, presets, GPUs, engines and vLLM versions are already looked up case-insensitively (and GPUs by
// alias); their value is kept as typed. Formats and dtypes are stored in kvcalc's lower-case spelling.
const FieldChoices kModels{[](std::string_view t) { return identity_if(find_model(t) != nullptr, t); },
                           [] { return model_id_list(); }};
const FieldChoices kPresets{[](std::string_view t) { return identity_if(find_preset(t) != nullptr, t); },
                            [] { return join_ids(compose_presets()); }};
const FieldChoices kGpus{[](std::string_view t) { return identity_if(find_gpu(t) != nullptr, t); },
                         [] { return join_ids(gpu_catalog()); }};
const FieldChoices kKvFormats{[](std::string_view t) { return canonical_kv_cache_dtype(t); }, [] {
                                  std::string also;
                                  for (const auto& a : kKvSpellings)
                                      also.append(also.empty() ? "" : ", ")
                                          .append(a.spelled)
                                          .append(" = ")
                                          .append(a.name)
                                          .append(" (")
                                          .append(a.source)
                                          .append(")");
                                  return kv_format_name_list() + "; also the engines' spellings " + also +
                                         "; any case";
                              }};
const FieldChoices kEngines{[](std::string_view t) { return identity_if(find_engine(t) != nullptr, t); },
                            [] { return detail::engine_name_list(); }};
const FieldChoices kIndexerFormats{[](std::string_view t) {
                                       std::string x = lowered(t);
                                       return indexer_bpe_x400(x) >= 0 ? std::optional<std::string>(x) : std::nullopt;
                                   },
                                   [] { return std::string("fp16, bf16, fp8_e5m2, fp8_e4m3, int8, fp4, int4"); }};
// The dtypes estimate_weights prices (param_count.h).
const FieldChoices kWeightsDtypeChoices{[](std::string_view t) {
                                            std::string x = lowered(t);
                                            return is_weights_dtype(x) ? std::optional<std::string>(x) : std::nullopt;
                                        },
                                        [] { return weights_dtype_list(); }};
// A Hub reference; the front end reads its files (served_model.h hub_repo_of).
const FieldChoices kHubModels{[](std::string_view t) { return identity_if(!detail::hub_repo_of(t).empty(), t); },
                              [] { return std::string("a Hugging Face repo ORG/NAME or ORG/NAME@REVISION"); }};
// A Hub GGUF reference, kept in its canonical spelling (hub_gguf.h): a URL typed in becomes ORG/NAME/FILE.
const FieldChoices kHubGgufs{[](std::string_view t) -> std::optional<std::string> {
                                 if (auto r = parse_hub_gguf(t)) return hub_gguf_text(*r);
                                 return std::nullopt;
                             },
                             [] {
                                 return std::string("a Hub GGUF file ORG/NAME/FILE.gguf or ORG/NAME@REVISION/FILE.gguf "
                                                    "(or its https://huggingface.co/ORG/NAME/resolve/REVISION/FILE URL)");
                             }};
const FieldChoices kVllmVersions{[](std::string_view t) { return identity_if(parse_vllm_version(t).has_value(), t); },
                                 [] { return "a release such as 0.19 or 0.11.1, or an era: " + vllm_era_ids(); }};
const FieldChoices kVllmSamplers{[](std::string_view t) {
                                     return parse_vllm_sampler(t) ? std::optional<std::string>(lowered(t)) : std::nullopt;
                                 },
                                 [] { return vllm_sampler_ids() + "; any case"; }};
const FieldChoices kVllmUsageContexts{[](std::string_view t) {
                                          return parse_vllm_usage_context(t) ? std::optional<std::string>(lowered(t))
                                                                             : std::nullopt;
                                      },
                                      [] { return vllm_usage_context_ids() + "; any case"; }};

// clang-format off
const std::vector<ScenarioField> kFields = {
    {.name = "model_id", .group = "Model", .type = FieldType::choice, .member = &Scenario::model_id,
     .unit = "catalog model id", .default_text = "qwen3.6-27b", .url_key = "m", .cli_flag = "--model",
     .metavar = "ID", .help = "catalog model id (--list-models; JSON: \"model\" as a string is the same)",
     .choices = kModels},
    {.name = "compose", .group = "Model", .type = FieldType::choice, .member = &Scenario::compose,
     .unit = "preset id", .default_text = "none", .url_key = "c", .cli_flag = "--compose", .metavar = "NAME",
     .help = "serving preset '<model>:<name>' or a bare name unique to one model (--list-composes), applied "
             "first; every other field overrides it (JSON writes it back as \"compose_source\", a label)",
     .choices = kPresets},
    {.name = "weights_variant", .group = "Model", .type = FieldType::text, .member = &Scenario::weights_variant,
     .unit = "weights variant id or alias of the model", .default_text = "the model's first", .url_key = "wv",
     .cli_flag = "--weights-variant", .metavar = "ID", .help = "quantized checkpoint variant id or alias"},
    {.name = "weights_gb", .group = "Model", .type = FieldType::number, .member = &Scenario::weights_gb,
     .min = 0, .max = kMaxGb, .min_open = true, .unit = "decimal GB, checkpoint total", .default_text = "catalog",
     .url_key = "wgb", .cli_flag = "--weights-gb", .metavar = "GB", .help = "override the checkpoint size"},
    {.name = "gpu", .group = "Hardware", .type = FieldType::choice, .member = &Scenario::gpu,
     .unit = "GPU catalog id or alias", .default_text = "none", .url_key = "g", .cli_flag = "--gpu",
     .cli_aliases = {"--card"}, .metavar = "NAME",
     .help = "GPU from the catalog (--list-gpus): exact VRAM as the engine sees it, KV-format support checks",
     .choices = kGpus},
    {.name = "vram_gb", .group = "Hardware", .type = FieldType::number, .member = &Scenario::vram_gb,
     // at least one byte per card: a positive figure below it (5e-324) would price a card of 0 B
     .min = 1e-9, .max = kMaxGb, .unit = "decimal GB per card", .default_text = "24 when no gpu",
     .url_key = "vram", .cli_flag = "--vram", .metavar = "GB",
     .help = "VRAM per card in decimal GB (24 means 24e9 B, as the seed tool); give one of gpu, vram_gb, vram_gib"},
    {.name = "vram_gib", .group = "Hardware", .type = FieldType::number, .member = &Scenario::vram_gib,
     .min = 1.0 / 1073741824.0, .max = kMaxGb, .unit = "GiB per card", .default_text = "unset",  // one byte
     .url_key = "vgib", .cli_flag = "--vram-gib", .metavar = "GIB",
     .help = "VRAM per card in GiB (2^30 B), what nvidia-smi's MiB / 1024 shows"},
    {.name = "gpus", .group = "Hardware", .type = FieldType::integer, .member = &Scenario::gpus,
     .min = 1, .max = kMaxTensorParallel, .zero_means = "the same as tensor_parallel_size", .unit = "GPUs",
     .default_text = "0", .url_key = "n", .cli_flag = "--gpus", .metavar = "N",
     .help = "physical GPUs in the box (informational: TP shards the memory); fewer than TP is an error"},
    {.name = "tensor_parallel_size", .group = "Hardware", .type = FieldType::integer,
     .member = &Scenario::tensor_parallel_size, .min = 1, .max = kMaxTensorParallel, .unit = "GPUs",
     .default_text = "1", .url_key = "tp", .cli_flag = "--tensor-parallel-size", .cli_aliases = {"--tp", "-tp", "--tp-size"},
     .metavar = "N", .help = "vLLM --tensor-parallel-size; must split the model's heads (the error lists valid values)"},
    {.name = "kv_cache_dtype", .group = "Serving", .type = FieldType::choice, .member = &Scenario::kv_cache_dtype,
     .unit = "KV format", .default_text = "auto", .url_key = "kv", .cli_flag = "--kv-cache-dtype",
     .cli_aliases = {"--kv-format"}, .metavar = "NAME",
     .help = "KV-cache element format; auto = the model's dtype, every engine's default (the start command spells "
             "it the engine's way)",
     .choices = kKvFormats},
    {.name = "max_model_len", .group = "Serving", .type = FieldType::integer, .member = &Scenario::max_model_len,
     .min = 1, .max = kMaxTokens,
     .zero_means = "the model's derived maximum for the engine (context_limit.h: vLLM's and SGLang's length "
                   "when the flag is not given, llama.cpp's n_ctx_train)",
     .unit = "tokens", .default_text = "0 = the model's maximum", .url_key = "ctx",
     .cli_flag = "--max-model-len", .cli_aliases = {"--max-ctx", "--context-length"}, .metavar = "TOKENS",
     .help = "context length per request; above the model's derived maximum is an error (vLLM and SGLang refuse "
             "it; see --allow-long-max-model-len)"},
    {.name = "max_num_seqs", .group = "Serving", .type = FieldType::integer, .member = &Scenario::max_num_seqs,
     .min = 1, .max = kMaxSeqs,
     .zero_means = "the engine's default (vLLM: 256, or 1024 on >= 70 GiB cards but A100, a cap of which one "
                   "full-length request is priced; llama.cpp -np 1; SGLang: a cap, one request priced)",
     .unit = "sequences", .default_text = "0 = the engine's default", .url_key = "seqs", .cli_flag = "--max-num-seqs", .cli_aliases = {"--sequences", "--max-running-requests", "--parallel", "-np"},
     .metavar = "N", .help = "concurrent full-length sequences"},
    {.name = "gpu_memory_utilization", .group = "Serving", .type = FieldType::number,
     .member = &Scenario::gpu_memory_utilization, .min = 0, .max = 1, .min_open = true,
     .zero_means = "the engine's default (vLLM's release: 0.90, 0.92 from 0.21; llama.cpp and SGLang: 0.90, "
                   "kvcalc's share for the pool)",
     .unit = "fraction of the card", .default_text = "0 = the engine's default",
     .url_key = "util", .cli_flag = "--gpu-memory-utilization", .cli_aliases = {"--mem-util", "--mem-fraction-static"},
     .metavar = "FRACTION", .help = "share of the card the engine may use"},
    {.name = "max_num_batched_tokens", .group = "Serving", .type = FieldType::integer,
     .member = &Scenario::max_num_batched_tokens, .min = 1, .max = kMaxTokens, .unit = "tokens",
     .default_text = "unset (vLLM's default)", .url_key = "mnbt", .cli_flag = "--max-num-batched-tokens",
     .metavar = "TOKENS", .help = "tokens per scheduler step; unset = vLLM's default for the card (calibrated Qwen "
                                  "3.6 / Gemma 4 fits: no DeltaNet scratch change)"},
    {.name = "allow_long_max_model_len", .group = "Serving", .type = FieldType::boolean, .member = &Scenario::allow_long_max_model_len, .default_text = "false", .url_key = "long", .cli_flag = "--allow-long-max-model-len", .metavar = "", .help = "price a max_model_len above the model's derived maximum, as VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (SGLang: SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1) lets the engine start; a warning says outputs past it may be wrong"},
    {.name = "mtp", .group = "Speculative decoding", .type = FieldType::boolean, .member = &Scenario::mtp,
     .default_text = "unset (the preset's choice, else off)", .url_key = "mtp", .cli_flag = "--mtp", .metavar = "",
     .help = "the model's built-in MTP drafter on; false removes an MTP drafter a preset added (--no-mtp)"},
    {.name = "drafter", .group = "Speculative decoding", .type = FieldType::text, .member = &Scenario::drafter,
     .unit = "drafter id of the model", .default_text = "none", .url_key = "dr", .cli_flag = "--drafter",
     .metavar = "ID", .help = "drafter id from the model's list (wins over mtp)"},
    {.name = "drafter_gb", .group = "Speculative decoding", .type = FieldType::number,
     .member = &Scenario::drafter_gb, .min = 0, .max = kMaxGb, .unit = "decimal GB total, sharded by TP",
     .default_text = "the drafter's size, else 0", .url_key = "dgb", .cli_flag = "--drafter-gb",
     .cli_aliases = {"--dflash-draft-gb"}, .metavar = "GB", .help = "drafter weights override"},
    {.name = "num_speculative_tokens", .group = "Speculative decoding", .type = FieldType::integer,
     .member = &Scenario::num_speculative_tokens, .min = 0, .max = 64, .unit = "tokens",
     .default_text = "the drafter's", .url_key = "nst", .cli_flag = "--num-speculative-tokens", .metavar = "N",
     .help = "override the drafter's speculative token count"},
    {.name = "include_draft_kv", .group = "Cache breakdown (reporting only)", .type = FieldType::boolean,
     .member = &Scenario::include_draft_kv, .default_text = "false", .url_key = "dkv",
     .cli_flag = "--include-draft-kv", .metavar = "", .help = "add draft_kv_gb to the breakdown"},
    {.name = "draft_kv_gb", .group = "Cache breakdown (reporting only)", .type = FieldType::number,
     .member = &Scenario::draft_kv_gb, .min = 0, .max = kMaxGb, .unit = "decimal GB per card", .default_text = "0",
     .url_key = "dkvgb", .cli_flag = "--draft-kv-gb", .metavar = "GB", .help = "draft-model KV per card"},
    {.name = "compressed_layers", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::compressed_layers, .min = 0, .max = 4096, .unit = "layers", .default_text = "0",
     .url_key = "cl", .cli_flag = "--compressed-layers", .metavar = "N",
     .help = "layers with a compressed/sparse KV cache"},
    {.name = "compression_ratio", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::compression_ratio, .min = 1, .max = 1 << 20, .unit = "tokens per entry",
     .default_text = "128", .url_key = "cr", .cli_flag = "--compression-ratio", .metavar = "N",
     .help = "tokens per compressed entry"},
    {.name = "compressed_head_dim", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::compressed_head_dim, .min = 1, .max = 65536, .zero_means = "the model's head dim",
     .unit = "elements", .default_text = "0", .url_key = "chd", .cli_flag = "--compressed-head-dim",
     .metavar = "N", .help = "elements per compressed entry"},
    {.name = "indexer_ratio_layers", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::indexer_ratio_layers, .min = 0, .max = 4096, .unit = "layers", .default_text = "0",
     .url_key = "irl", .cli_flag = "--indexer-ratio-layers", .metavar = "N",
     .help = "layers with a sparse-attention indexer cache"},
    {.name = "indexer_compress_ratio", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::indexer_compress_ratio, .min = 1, .max = 1 << 20, .unit = "tokens per entry",
     .default_text = "4", .url_key = "icr", .cli_flag = "--indexer-compress-ratio", .metavar = "N",
     .help = "tokens per indexer entry"},
    {.name = "indexer_head_dim", .group = "Cache breakdown (reporting only)", .type = FieldType::integer,
     .member = &Scenario::indexer_head_dim, .min = 1, .max = 65536, .zero_means = "the model's head dim",
     .unit = "elements", .default_text = "0", .url_key = "ihd", .cli_flag = "--indexer-head-dim", .metavar = "N",
     .help = "elements per indexer entry"},
    {.name = "indexer_format", .group = "Cache breakdown (reporting only)", .type = FieldType::choice,
     .member = &Scenario::indexer_format, .unit = "indexer element format", .default_text = "fp4",
     .url_key = "ixf", .cli_flag = "--indexer-format", .metavar = "NAME", .help = "indexer element format",
     .choices = kIndexerFormats},
    {.name = "engine", .group = "Model", .type = FieldType::choice, .member = &Scenario::engine,
     .unit = "serving engine", .default_text = "vllm", .url_key = "e", .cli_flag = "--engine", .metavar = "NAME",
     .help = "whose allocation rules price the KV cache; llama.cpp: weights + KV + its GPU compute buffer; sglang: weights + KV only (a note says so)",
     .choices = kEngines},
    {.name = "weights_dtype", .group = "Model", .type = FieldType::choice, .member = &Scenario::weights_dtype,
     .unit = "weights dtype", .default_text = "auto", .url_key = "wd", .cli_flag = "--weights-dtype",
     .metavar = "DTYPE", .help = "for config.json and popular models priced from their parameter count: auto = "
                                 "quantization_config, else torch_dtype; weights_gb wins",
     .choices = kWeightsDtypeChoices},
    {.name = "vllm_version", .group = "Serving", .type = FieldType::choice, .member = &Scenario::vllm_version,
     .unit = "vLLM release or era", .default_text = "the newest era", .url_key = "vv", .cli_flag = "--vllm-version",
     .metavar = "VERSION", .help = "vLLM release whose start-up accounting prices models without a calibrated fit "
                                   "(the report's settings name the era priced)",
     .choices = kVllmVersions},
    {.name = "vllm_sampler", .group = "Serving", .type = FieldType::choice, .member = &Scenario::vllm_sampler,
     .unit = "top-k/top-p sampler", .default_text = "auto", .url_key = "vs", .cli_flag = "--vllm-sampler",
     .metavar = "NAME", .help = "sampler vLLM's profile run uses: auto = what pip install vllm of that release "
                                "gets (PyTorch before 0.21, FlashInfer from 0.21); flashinfer for the Docker "
                                "images before 0.11.1; pytorch when the log says \"FlashInfer is not available\"",
     .choices = kVllmSamplers},
    {.name = "vllm_usage_context", .group = "Serving", .type = FieldType::choice,
     .member = &Scenario::vllm_usage_context, .unit = "how vLLM is started", .default_text = "openai_api_server",
     .url_key = "vuc", .cli_flag = "--vllm-usage-context", .metavar = "NAME",
     .help = "openai_api_server = vllm serve; llm_class = Python's LLM(...), whose default max_num_batched_tokens "
             "is larger (vllm/engine/arg_utils.py get_batch_defaults: 8192 instead of 2048 on cards under 70 GiB "
             "and A100, 16384 instead of 8192 above), so its profiled torch peak is higher",
     .choices = kVllmUsageContexts},
    {.name = "enforce_eager", .group = "Serving", .type = FieldType::boolean,
     .member = &Scenario::enforce_eager, .default_text = "false", .url_key = "eager", .cli_flag = "--enforce-eager",
     .metavar = "", .help = "no CUDA graphs: their memory is 0 (from 0.21 the budget no longer subtracts their "
                            "estimate, so the pool grows by it; before, graphs lived outside the budget)"},
    {.name = "block_size", .group = "Serving", .type = FieldType::integer, .member = &Scenario::block_size,
     .min = 1, .max = 256, .zero_means = "vLLM's default (16; hybrid and MLA backends may pick larger)",
     .unit = "tokens per KV block", .default_text = "0 = vLLM's default", .url_key = "bs", .cli_flag = "--block-size",
     .metavar = "TOKENS", .help = "KV block size: each request's blocks round up to it (vllm/config/cache.py "
                                  "BlockSize: 1, 8, 16, 32, 64, 128, 256)"},
    {.name = "kv_cache_memory_bytes", .group = "Serving", .type = FieldType::integer,
     .member = &Scenario::kv_cache_memory_bytes, .min = 1, .max = kMaxGb * 1e9, .unit = "bytes per card",
     .default_text = "unset (profiled)", .url_key = "kvb", .cli_flag = "--kv-cache-memory-bytes", .metavar = "BYTES",
     .help = "the KV pool per card: vLLM skips the memory profile and gpu_memory_utilization; kvcalc checks the "
             "rest still fits the card"},
    {.name = "data_parallel_size", .group = "Serving", .type = FieldType::integer,
     .member = &Scenario::data_parallel_size, .min = 1, .max = kMaxTensorParallel, .unit = "replicas",
     .default_text = "1", .url_key = "dp", .cli_flag = "--data-parallel-size", .cli_aliases = {"-dp", "--dp-size"},
     .metavar = "N", .help = "engine replicas of tensor_parallel_size cards each (cards = TP x DP); each holds the "
                             "whole model unless --enable-expert-parallel"},
    {.name = "enable_expert_parallel", .group = "Serving", .type = FieldType::boolean,
     .member = &Scenario::enable_expert_parallel, .default_text = "false", .url_key = "ep",
     .cli_flag = "--enable-expert-parallel", .cli_aliases = {"-ep"}, .metavar = "",
     .help = "MoE: routed experts split whole over the TP x DP cards (expert weights / (TP x DP) per card); "
             "attention and dense layers stay split by TP"},
    {.name = "cpu_offload_gib", .group = "Serving", .type = FieldType::number,
     .member = &Scenario::cpu_offload_gib, .min = 0, .max = kMaxGb, .unit = "GiB per card (vLLM reads the flag as GiB)",
     .default_text = "0", .url_key = "cpu", .cli_flag = "--cpu-offload-gb", .cli_aliases = {"--cpu-offload-gib"},
     .metavar = "GIB", .help = "weights per card kept in CPU memory: the card's weights drop by that much "
                               "(vllm/config/offload.py; whole modules move, so vLLM may offload slightly more)"},
    {.name = "swa_full", .group = "llama.cpp", .type = FieldType::boolean, .member = &Scenario::swa_full,
     .default_text = "false", .url_key = "swaf", .cli_flag = "--swa-full", .metavar = "",
     .help = "llama.cpp --swa-full: sliding-window layers cache the full context, not window × sequences + "
             "n_ubatch cells"},
    {.name = "n_ubatch", .group = "llama.cpp", .type = FieldType::integer, .member = &Scenario::n_ubatch,
     .min = 1, .max = kMaxTokens, .zero_means = "llama.cpp's default 512", .unit = "tokens",
     .default_text = "0 = 512", .url_key = "ub", .cli_flag = "--ubatch-size", .cli_aliases = {"-ub"},
     .metavar = "TOKENS", .help = "llama.cpp -ub: the physical batch; the SWA cache keeps one more of it"},
    {.name = "llama_cpp_build", .group = "llama.cpp", .type = FieldType::integer,
     .member = &Scenario::llama_cpp_build, .min = 1, .max = 1000000, .zero_means = "the newest rules",
     .unit = "build number", .default_text = "0 = the newest", .url_key = "lcb", .cli_flag = "--llama-cpp-build",
     .metavar = "N", .help = "llama.cpp release bN (its log's \"build: N\") whose KV cache rules price the run: "
                            "cell padding 32 without flash attention before b7000, SWA cache f16 from b8628"},
    {.name = "hub_model", .group = "Model", .type = FieldType::choice, .member = &Scenario::hub_model,
     .unit = "Hugging Face repo ORG/NAME[@REVISION]", .default_text = "none", .url_key = "hf", .cli_flag = "",
     .metavar = "", .help = "the Hub repo config_json and the safetensors files were read from (CLI --model "
                            "ORG/NAME); the command serves it, and a link carries it instead of the files",
     .choices = kHubModels},
    {.name = "hub_gguf", .group = "Model", .type = FieldType::choice, .member = &Scenario::hub_gguf,
     .unit = "Hub GGUF file ORG/NAME[@REVISION]/FILE.gguf", .default_text = "none", .url_key = "gguf",
     .cli_flag = "", .metavar = "", .help = "the Hub GGUF file the model's header was read from (CLI --gguf "
                                         "ORG/NAME/FILE.gguf); the llama-server command downloads it, and a link "
                                         "carries it instead of the header",
     .choices = kHubGgufs},
    // JSON only: too large for a link, read from a file by the CLI (--config PATH).
    {.name = "config_json", .group = "Model", .type = FieldType::text, .member = &Scenario::config_json,
     .unit = "text of a Hugging Face config.json", .default_text = "\"\"", .url_key = "", .cli_flag = "",
     .metavar = "", .help = "read with read_hf_config (CONFIG_JSON.md); wins over model and model_id"},
    {.name = "model", .group = "Model", .type = FieldType::object, .member = &Scenario::model,
     .unit = "inline ModelSpec", .default_text = "unset", .url_key = "", .cli_flag = "", .metavar = "",
     .help = "an inline model (below); wins over model_id"},
};
// clang-format on

/// "1000000" for integral values, else the shortest round-trip decimal.
std::string bound_text(double x) { return format_field_number(x); }

std::optional<std::int64_t> parse_integer(std::string_view t, bool& overflow) {
    overflow = false;
    std::int64_t x = 0;
    if (t.empty()) return std::nullopt;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ptr != t.data() + t.size()) return std::nullopt;
    if (r.ec == std::errc::result_out_of_range) {
        overflow = true;
        return std::nullopt;
    }
    if (r.ec != std::errc{}) return std::nullopt;
    return x;
}

/// A plain decimal: optional '-', digits with at most one '.', optional exponent. strtod alone would also take
/// "inf", "nan", hex and leading blanks. `overflow`: well-formed but beyond a double.
std::optional<double> parse_number(std::string_view t, bool& overflow) {
    overflow = false;
    std::size_t i = 0;
    if (i < t.size() && t[i] == '-') ++i;
    std::size_t digits = 0, dots = 0;
    for (; i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.'); ++i) {
        if (t[i] == '.') ++dots;
        else ++digits;
    }
    if (digits == 0 || dots > 1) return std::nullopt;
    if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
        std::size_t exp_digits = 0;
        for (; i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i) ++exp_digits;
        if (exp_digits == 0) return std::nullopt;
    }
    if (i != t.size()) return std::nullopt;
    const std::string text(t);
    const double x = std::strtod(text.c_str(), nullptr);
    // Beyond a double either way: inf, or a nonzero mantissa that underflows to 0 (1e-400 must not read as the
    // field's sentinel 0, e.g. vLLM's default gpu_memory_utilization).
    const std::string_view mantissa = t.substr(0, t.find_first_of("eE"));
    if (!std::isfinite(x) || (x == 0 && mantissa.find_first_of("123456789") != std::string_view::npos)) {
        overflow = true;
        return std::nullopt;
    }
    return x;
}

/// A value echoed in an error: plain when modest, %g when huge, "nan" / "inf" as such.
std::string shown_number(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    if (std::fabs(x) < 1e15) return format_field_number(x);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
}

template <class T> struct Plain { using type = T; };
template <class T> struct Plain<std::optional<T>> { using type = T; };

}  // namespace

const std::vector<ScenarioField>& scenario_fields() { return kFields; }

std::optional<std::string> canonical_kv_cache_dtype(std::string_view value) {
    const std::string x = lowered(value);
    if (is_auto_kv_cache_dtype(x)) return x;
    if (const KvFormat* f = find_kv_format(x)) return std::string(f->name);
    for (const auto& a : kKvSpellings)
        if (x == a.spelled) return std::string(a.name);
    return std::nullopt;
}

std::string canonical_choice(const ScenarioField& field, std::string_view value) {
    if (field.type != FieldType::choice || !field.choices.canonical || value.empty()) return std::string(value);
    std::optional<std::string> name = field.choices.canonical(value);
    return name ? std::move(*name) : std::string(value);
}

const ScenarioField* find_scenario_field(std::string_view name) {
    for (const auto& f : kFields)
        if (name == f.name) return &f;
    return nullptr;
}

std::string format_field_number(double x) { return text::shortest_decimal(x); }

std::string field_valid_text(const ScenarioField& f) {
    const std::string unit = *f.unit ? std::string(" (") + f.unit + ")" : std::string();
    const std::string zero = *f.zero_means ? std::string(", or 0 = ") + f.zero_means : std::string();
    switch (f.type) {
        case FieldType::integer:
            return "an integer " + bound_text(f.min) + ".." + bound_text(f.max) + unit + zero;
        case FieldType::number:
            return std::string("a number in ") + (f.min_open ? "(" : "[") + bound_text(f.min) + ", " +
                   bound_text(f.max) + "]" + unit + zero;
        case FieldType::boolean: return "true or false (1 or 0 in a link)";
        case FieldType::choice: {
            std::string list = f.choices.list();
            return list.rfind("a ", 0) == 0 ? list : "one of " + list;  // "a release such as 0.19 …" reads as is
        }
        case FieldType::text: return std::string("text: ") + f.unit;
        case FieldType::object: return std::string("an object: ") + f.unit;
    }
    return "";
}

bool field_number_ok(const ScenarioField& f, double v) {
    if (!std::isfinite(v)) return false;
    if (v == 0 && *f.zero_means) return true;
    return (f.min_open ? v > f.min : v >= f.min) && v <= f.max;
}

FieldTextStatus set_field_from_text(const ScenarioField& f, std::string_view t, Scenario& s, bool words) {
    return std::visit(
        [&](auto m) -> FieldTextStatus {
            using M = std::remove_reference_t<decltype(s.*m)>;
            using T = typename Plain<M>::type;
            if constexpr (std::is_same_v<T, std::string>) {
                if (f.type == FieldType::choice && !t.empty()) {
                    std::optional<std::string> name = f.choices.canonical(t);
                    if (!name) return FieldTextStatus::not_a_choice;
                    s.*m = std::move(*name);
                    return FieldTextStatus::ok;
                }
                s.*m = std::string(t);
                return FieldTextStatus::ok;
            } else if constexpr (std::is_same_v<T, bool>) {
                if (t == "1" || (words && t == "true")) s.*m = true;
                else if (t == "0" || (words && t == "false")) s.*m = false;
                else return FieldTextStatus::not_a_value;
                return FieldTextStatus::ok;
            } else if constexpr (std::is_integral_v<T>) {
                bool overflow = false;
                const auto x = parse_integer(t, overflow);
                if (overflow) return FieldTextStatus::out_of_range;
                if (!x) return FieldTextStatus::not_a_value;
                // Bounds stay far inside 2^53, so the double comparison is exact.
                if (!field_number_ok(f, static_cast<double>(*x))) return FieldTextStatus::out_of_range;
                s.*m = static_cast<T>(*x);
                return FieldTextStatus::ok;
            } else if constexpr (std::is_floating_point_v<T>) {
                bool overflow = false;
                const auto x = parse_number(t, overflow);
                if (overflow) return FieldTextStatus::out_of_range;
                if (!x) return FieldTextStatus::not_a_value;
                if (!field_number_ok(f, *x)) return FieldTextStatus::out_of_range;
                s.*m = *x;
                return FieldTextStatus::ok;
            } else {
                return FieldTextStatus::not_a_value;  // an inline model has no text form
            }
        },
        f.member);
}

const char* field_status_text(const ScenarioField& f, FieldTextStatus status) {
    switch (status) {
        case FieldTextStatus::ok: return "is valid";
        case FieldTextStatus::out_of_range: return "is out of range";
        case FieldTextStatus::not_a_choice: return "is not one of the valid values";
        case FieldTextStatus::not_a_value: break;
    }
    switch (f.type) {
        case FieldType::integer: return "is not an integer";
        case FieldType::number: return "is not a number";
        case FieldType::boolean: return "is not true or false";
        default: return "is not valid";
    }
}

std::optional<std::string> field_text(const ScenarioField& f, const Scenario& s) {
    return std::visit(
        [&](auto m) -> std::optional<std::string> {
            using M = std::remove_cvref_t<decltype(s.*m)>;
            using T = typename Plain<M>::type;
            auto text = [](const T& v) -> std::optional<std::string> {
                if constexpr (std::is_same_v<T, std::string>) return v;
                else if constexpr (std::is_same_v<T, bool>) return std::string(v ? "1" : "0");
                else if constexpr (std::is_integral_v<T>) return std::to_string(v);
                else if constexpr (std::is_floating_point_v<T>) return format_field_number(v);
                else return std::nullopt;
            };
            if constexpr (std::is_same_v<M, T>) return text(s.*m);
            else return (s.*m) ? text(*(s.*m)) : std::nullopt;
        },
        f.member);
}

bool field_is_default(const ScenarioField& f, const Scenario& s) {
    static const Scenario defaults{};
    return std::visit(
        [&](auto m) {
            using M = std::remove_cvref_t<decltype(s.*m)>;
            if constexpr (std::is_same_v<M, std::optional<ModelSpec>>) return !(s.*m).has_value();
            else return s.*m == defaults.*m;
        },
        f.member);
}

std::string field_range_message(const ScenarioField& f, const std::string& value_text) {
    return std::string(f.name) + " = " + value_text + " is out of range; expected " + field_valid_text(f);
}

void check_scenario_fields(const Scenario& s, Diagnostics& d) {
    for (const auto& f : kFields) {
        if (f.type != FieldType::integer && f.type != FieldType::number) continue;
        std::visit(
            [&](auto m) {
                using M = std::remove_cvref_t<decltype(s.*m)>;
                using T = typename Plain<M>::type;
                if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
                    const std::optional<T> v = s.*m;
                    if (!v) return;
                    const double x = static_cast<double>(*v);
                    // Integers beyond 2^53 compare safely: every bound is far below it.
                    if (field_number_ok(f, x)) return;
                    std::string shown;
                    if constexpr (std::is_integral_v<T>) shown = std::to_string(*v);
                    else shown = shown_number(x);
                    d.push_back({Severity::error, "out_of_range", f.name, field_range_message(f, shown)});
                }
            },
            f.member);
    }
}

}  // namespace kvcalc
