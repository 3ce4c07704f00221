// What one kvcalc invocation asks for: the Scenario plus how to answer and print it.
#pragma once
#include <string>
#include <vector>

#include "kvcalc/base/diagnostic.h"
#include "kvcalc/base/scenario.h"
#include "kvcalc/config/gguf.h"
#include "kvcalc/engines/llama_cpp_buffers.h"

namespace kvcli {

/// What to do; exactly one per run (the first mode flag wins; two different modes are an error).
enum class Mode {
    predict, solve_max_ctx, solve_max_seqs, fit, fit_all, shop, calibration, list_models, list_gpus, list_composes,
    help, version
};

/// Parsed command line. `scenario` already has the preset (--compose) and --from-url applied under the flags.
struct Options {
    Mode mode = Mode::predict;
    kvcalc::Scenario scenario;
    bool json = false;
    bool kv_breakdown = false;
    bool every_count = false;    ///< --every-count: --shop lists every card count of every GPU, not one row per GPU
    bool tp_given = false;       ///< --tensor-parallel-size typed: --shop prices every GPU at that TP only
    std::string url_base;        ///< --url BASE: print BASE?query after the answer
    std::string svg_path;        ///< --svg PATH: write the per-card breakdown
    std::string config_path;     ///< --config PATH: Hugging Face config.json
    std::string checkpoint;      ///< --model DIR or ORG/NAME[@REV]: a snapshot folder or a Hub repo
    std::string checkpoint_named_by = "--model ";  ///< how the user named it, for errors: "--model " or "--from-url hf="
    std::string gguf_named_by = "--gguf ";  ///< how the user named the GGUF, for errors: "--gguf " or "--from-url gguf="
    bool offline = false;        ///< --offline: Hub repos come from the cache only
    std::string gguf_path;       ///< --gguf FILE (or --model FILE.gguf): a GGUF file whose header describes the model
    kvcalc::Diagnostics model_notes;  ///< warnings from reading --gguf, also put into the report
    std::vector<kvcalc::GgufHeader> gguf_headers;  ///< the --gguf parts' headers, for llama.cpp's buffer lines
    kvcalc::LlamaCppPlacement placement;           ///< -ngl, --n-cpu-moe, --gpu-device-name (llama.cpp, --gguf)
    /// --fit-free-mib, --fit-target, --fit-ctx: llama.cpp's --fit emulated for one GPU (free_bytes 0 = not asked).
    kvcalc::LlamaCppFitRequest llama_fit{0};
    std::string fit_tuning_flag;  ///< "--fit-target" or "--fit-ctx" when typed: they tune a fit only --fit-free-mib asks for
    std::string fit_target;      ///< --fit MODEL[:PRESET] as given
    std::string log_path;        ///< --log FILE: an engine's start-up log ("-" reads stdin)
    kvcalc::Diagnostics warnings;  ///< non-fatal notes from parsing (e.g. --from-url warnings)
};

/// Outcome of parsing: when `error` is non-empty, print it on stderr and exit 2.
struct ParseResult {
    Options options;
    std::string error;
};

}  // namespace kvcli
