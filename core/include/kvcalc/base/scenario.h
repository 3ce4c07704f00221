// Scenario: everything a user can set. The CLI flags, the URL and the JSON API encode this one struct.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kvcalc/base/measured_terms.h"
#include "kvcalc/base/model_spec.h"

namespace kvcalc {

/// One serving question: model × hardware × vLLM settings. The serving settings default to what the engine does
/// when its flag is not given (vLLM's: --kv-cache-dtype auto, --max-model-len from the model, --max-num-seqs and
/// --gpu-memory-utilization from the card and release; docs/CLI.md "Defaults"), so the CLI, the JSON API and the
/// page answer the same question the same way. The seed CLI's values (fp8_e5m2, 180000, 1, 0.95) are what its
/// calibration runs set, and those rows set them explicitly.
struct Scenario {
    // --- model ---
    std::string model_id = "qwen3.6-27b";      ///< catalog id; ignored when `model` is set
    std::optional<ModelSpec> model;            ///< inline spec (e.g. from a config.json), wins over model_id
    /// Text of a Hugging Face config.json, read with read_hf_config (docs/CONFIG_JSON.md); wins over `model`
    /// and model_id. Its diagnostics come back prefixed "config_json." and its provenance as Report::model_facts.
    std::string config_json;
    /// Weights dtype for a config_json model: bf16, fp16, fp8, int8, int4, nvfp4, mxfp4, or empty/"auto" = the
    /// config's quantization_config, else torch_dtype (param_count.h estimate_weights). weights_gb wins.
    std::string weights_dtype;
    /// Text of the checkpoint's model.safetensors.index.json, with config_json: the weights are its tensors as vLLM
    /// loads and shards them (checkpoint_weights.h price_checkpoint), not a parameter count × weights_dtype.
    /// weights_gb still wins; weights_dtype other than auto re-prices from the parameter count instead.
    std::string safetensors_index_json;
    /// JSON headers of the checkpoint's shards (the text after each file's 8-byte length), optional: with them the
    /// per-card split is exact per tensor. Needs safetensors_index_json.
    std::vector<std::string> safetensors_headers;
    /// The Hugging Face repo the checkpoint files came from, "ORG/NAME" or "ORG/NAME@REVISION" (CLI --model
    /// ORG/NAME, the page's Hub box): the command serves it, and a link carries it (`hf=`) instead of the files,
    /// which the front end reads again on open. The core does no I/O: without config_json it prices nothing by itself.
    std::string hub_model;
    /// The Hub GGUF file the model was read from, "ORG/NAME[@REVISION]/FILE.gguf" (kvcalc/config/hub_gguf.h; CLI --gguf
    /// ORG/NAME/FILE.gguf, the page's Hub GGUF box): the llama-server command downloads it (--hf-repo, --hf-file),
    /// and a link carries it (`gguf=`) instead of the header, which the front end reads again on open. The core
    /// does no I/O: the model itself comes with `model`, built from the header by read_gguf_model.
    std::string hub_gguf;
    std::string compose;                       ///< preset id it came from (informational; JSON applies it)
    std::string weights_variant;               ///< variant id or alias; empty = model default
    std::optional<double> weights_gb;          ///< override total checkpoint size, decimal GB (> 0)
    // --- hardware (give at most one of gpu / vram_gb / vram_gib; none = 24 GB decimal, seed default) ---
    std::string gpu;                           ///< GPU catalog id, e.g. "rtx-3090"
    std::optional<double> vram_gb;             ///< per card, decimal GB (seed --vram: 24 means 24e9 B)
    std::optional<double> vram_gib;            ///< per card, GiB
    int gpus = 0;                              ///< physical GPUs in the box, 1..8; 0 = equal to tensor_parallel_size
    // --- serving engine ---
    /// Whose allocation rules price the KV cache: "vllm" (default), "llama.cpp" or "sglang" (docs/ENGINE_RULES.md).
    /// llama.cpp and SGLang: only weights and KV are modelled (no activation / CUDA-graph terms).
    std::string engine = "vllm";
    // --- vLLM serving settings ---
    int tensor_parallel_size = 1;
    /// "auto" = the model's dtype (vLLM/SGLang --kv-cache-dtype auto, llama.cpp -ctk f16); any engine's spelling
    /// is read (canonical_kv_cache_dtype).
    std::string kv_cache_dtype = "auto";
    std::int64_t max_model_len = 0;            ///< tokens; 0 = the engine's derived maximum (context_limit.h)
    std::int64_t max_num_seqs = 0;             ///< 0 = the engine's default (vLLM: per card, vllm/accounting.h)
    double gpu_memory_utilization = 0.0;       ///< (0, 1]; 0 = the engine's default (vLLM 0.90, 0.92 from 0.21)
    std::optional<std::int64_t> max_num_batched_tokens;  ///< unset = vLLM's default (seed families: no scratch delta)
    /// Price a max_model_len above the model's derived maximum (context_limit.h), as the engine does with
    /// VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 (SGLang: SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1); a warning says
    /// outputs past that length may be wrong. false = such a length is an error, as the engine refuses it.
    bool allow_long_max_model_len = false;
    /// vLLM release whose start-up accounting prices models without a calibrated fit: "0.19", "v0.11.1", an era
    /// id ("0.17-0.20"), "V0"; empty = the newest era (parse_vllm_version).
    std::string vllm_version;
    /// The top-k/top-p sampler vLLM's profile run exercises: "auto" (or empty) = what a plain `pip install vllm`
    /// of that release gets, "flashinfer" (the Docker images before 0.11.1, VLLM_USE_FLASHINFER_SAMPLER=1),
    /// "pytorch" (no FlashInfer installed, or VLLM_USE_FLASHINFER_SAMPLER=0). vllm_sampler.h has the rules.
    std::string vllm_sampler;
    /// How vLLM was started, as its UsageContext names it (vllm/usage/usage_lib.py): "openai_api_server" (or
    /// empty) = `vllm serve`, "llm_class" = Python's offline `LLM(...)`. vllm/engine/arg_utils.py
    /// get_batch_defaults gives the LLM class larger max_num_batched_tokens defaults (8192 instead of 2048 on cards
    /// under 70 GiB and A100, 16384 instead of 8192 above), which raise the profiled torch peak.
    std::string vllm_usage_context;
    // --- vLLM flags that change start-up memory (vLLM's names; vllm/engine/arg_utils.py EngineArgs) ---
    /// --enforce-eager: no CUDA graphs are captured, so none are estimated or subtracted (config/vllm.py sets
    /// cudagraph_mode NONE; gpu_model_runner.py profile_cudagraph_memory then returns 0).
    bool enforce_eager = false;
    /// --block-size: tokens per KV block (vllm/config/cache.py BlockSize: 1, 8, 16, 32, 64, 128, 256); every
    /// request's blocks are rounded up to it. 0 = vLLM's default (16; hybrid and MLA backends may pick larger).
    int block_size = 0;
    /// --kv-cache-memory-bytes: the KV pool per card in bytes. vLLM skips the memory profile and ignores
    /// gpu_memory_utilization (vllm/v1/worker/gpu_worker.py determine_available_memory). unset = profiled.
    std::optional<std::int64_t> kv_cache_memory_bytes;
    /// --data-parallel-size: engine replicas, each on its own tensor_parallel_size cards; without expert parallel
    /// every replica holds the whole model (vllm/config/parallel.py ParallelConfig).
    int data_parallel_size = 1;
    /// --enable-expert-parallel: routed experts are split whole over the tensor_parallel_size ×
    /// data_parallel_size cards instead of being tensor-sliced (vllm/model_executor/layers/fused_moe/config.py
    /// FusedMoEParallelConfig.make: ep_size = dp_size × tp_size).
    bool enable_expert_parallel = false;
    /// --cpu-offload-gb: weights per card kept in CPU memory, in GiB (vllm/config/offload.py OffloadConfig
    /// cpu_offload_gb "the space in GiB to offload to CPU, per GPU"; models/utils.py maybe_offload_to_cpu).
    double cpu_offload_gib = 0.0;
    // --- llama.cpp serving settings (engine "llama.cpp"; the other engines ignore them) ---
    /// --swa-full: the sliding-window layers get a cache of the full context instead of window × sequences +
    /// n_ubatch cells (llama-kv-cache-iswa.cpp).
    bool swa_full = false;
    int n_ubatch = 0;                          ///< -ub tokens; 0 = llama.cpp's default 512
    /// llama.cpp build number (release bN, "build: N (commit)" in its log) whose KV rules price the cache;
    /// 0 = the newest (LlamaCppSettings::build).
    int llama_cpp_build = 0;
    // --- speculative decoding ---
    std::optional<bool> mtp;                   ///< unset = off unless a preset turned it on; true = model's MTP drafter
    std::string drafter;                       ///< drafter id from the model's list; wins over mtp
    std::optional<double> drafter_gb;          ///< override drafter weights, decimal GB total (sharded by TP)
    std::optional<int> num_speculative_tokens; ///< override the drafter's default
    // --- --kv-breakdown extras (reporting only; not in the verdict; docs/SOURCES.md "The KV formula") ---
    bool include_draft_kv = false;
    double draft_kv_gb = 0.0;                  ///< per card, decimal GB
    int compressed_layers = 0;
    int compression_ratio = 128;
    int compressed_head_dim = 0;
    int indexer_ratio_layers = 0;
    int indexer_compress_ratio = 4;
    int indexer_head_dim = 0;
    std::string indexer_format = "fp4";
    // --- calibration ---
    /// The terms a real boot printed (io/startup_calibration.h reads them from a start-up log): the budget
    /// evaluates them instead of kvcalc's predictions, scaled by kvcalc's rules for what a change of settings
    /// moves. vLLM only; nullopt = kvcalc's own prediction.
    std::optional<MeasuredTerms> measured;

    /// Field-wise equality. resolve()'s cache keys on every field but the load (resolve_cache.cpp same_but_load
    /// names each one, so a field added here does not compile until it is part of the key).
    bool operator==(const Scenario&) const = default;
};

/// Copies the model half of a scenario (every member under "--- model ---": catalog id, inline spec, config.json,
/// weights dtype, checkpoint index and headers, Hub repo, Hub GGUF, preset, weights variant and size) from `from` into `to`,
/// leaving the hardware and serving settings of `to` alone. A front end that rebuilds a scenario (for example around
/// a start-up log) keeps the user's model with it, so no model field is forgotten when one is added.
void copy_model_fields(const Scenario& from, Scenario& to);

/// Makes `id` the scenario's model: sets model_id and clears every other source of the model (inline spec,
/// config.json, checkpoint files, Hub repo, preset, weights variant, dtype and size), which described another model.
void use_catalog_model(Scenario& s, const std::string& id);

}  // namespace kvcalc
