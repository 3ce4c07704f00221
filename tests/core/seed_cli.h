// The seed CLI's settings (docs/SOURCES.md "Constants" cli_defaults: qwen3.6-27b, kv fp8_e5m2, max_ctx 180000,
// max_num_seqs 1, mem_util 0.95, 24 GB): the values the seeds' tables were computed at. kvcalc's own defaults are
// vLLM's (scenario.h), so a test that reproduces a seed table starts from these.
#pragma once
#include "kvcalc/base/scenario.h"

inline kvcalc::Scenario seed_cli_scenario() {
    kvcalc::Scenario s;
    s.model_id = "qwen3.6-27b";
    s.kv_cache_dtype = "fp8_e5m2";
    s.max_model_len = 180000;
    s.max_num_seqs = 1;
    s.gpu_memory_utilization = 0.95;
    return s;
}
