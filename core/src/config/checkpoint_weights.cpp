// A checkpoint's tensors → bytes per rank under vLLM's tensor parallelism (checkpoint_weights.h has the rules).
#include "kvcalc/config/checkpoint_weights.h"

#include <algorithm>
#include <cmath>

#include "kvcalc/base/checked_math.h"
#include "kvcalc/config/param_count.h"
#include "kvcalc/model/layer_kinds.h"
#include "util/text.h"

namespace kvcalc {

namespace {

bool ends_with(std::string_view s, std::string_view t) { return s.size() >= t.size() && s.substr(s.size() - t.size()) == t; }
bool contains(std::string_view s, std::string_view t) { return s.find(t) != std::string_view::npos; }

/// A tensor name split into its module (the last component naming a layer) and its parameter ("weight",
/// "bias", "qweight", "scales", "absmax", …). gpt-oss writes the parameter into the module name
/// ("gate_up_proj_blocks", "down_proj_bias"); those are split too.
struct NameParts {
    std::string_view module, param, parent;
};

NameParts split_name(std::string_view name) {
    // bitsandbytes keeps its quant state as "<module>.weight.quant_state.bitsandbytes__nf4", "<module>.weight.absmax".
    static constexpr std::string_view kTails[] = {".weight.quant_state.bitsandbytes__nf4", ".weight.quant_state.bitsandbytes__fp4",
                                                  ".weight.absmax", ".weight.quant_map", ".weight.nested_absmax",
                                                  ".weight.nested_quant_map"};
    NameParts p;
    for (const auto t : kTails) {
        if (ends_with(name, t)) {
            p.param = t.substr(8);
            name.remove_suffix(t.size());
            goto split_module;
        }
    }
    if (const auto dot = name.rfind('.'); dot != std::string_view::npos) {
        p.param = name.substr(dot + 1);
        name = name.substr(0, dot);
    }
split_module:
    const auto dot = name.rfind('.');
    p.module = dot == std::string_view::npos ? name : name.substr(dot + 1);
    p.parent = dot == std::string_view::npos ? std::string_view{} : name.substr(0, dot);
    if (const auto pd = p.parent.rfind('.'); pd != std::string_view::npos) p.parent = p.parent.substr(pd + 1);
    // gpt-oss: "experts.gate_up_proj_blocks", "experts.down_proj_bias", bf16 "experts.gate_up_proj".
    if (p.module == "experts") {
        p.parent = p.module;
        p.module = p.param;
        p.param = "weight";
        for (const std::string_view s : {"_blocks", "_scales", "_bias"}) {
            if (ends_with(p.module, s) && p.module.size() > s.size()) {
                p.param = s == "_bias" ? "bias" : s.substr(1);
                p.module.remove_suffix(s.size());
                break;
            }
        }
    }
    return p;
}

bool is_one_of(std::string_view s, std::initializer_list<std::string_view> list) {
    return std::find(list.begin(), list.end(), s) != list.end();
}

/// Index of the decoder layer a name belongs to ("model.layers.61.…" → 61), −1 when none.
int layer_index(std::string_view name) {
    for (const std::string_view key : {".layers.", ".h.", ".blocks."}) {
        const auto at = name.find(key);
        if (at == std::string_view::npos) continue;
        std::size_t i = at + key.size();
        int n = 0, digits = 0;
        while (i < name.size() && name[i] >= '0' && name[i] <= '9' && digits < 7) n = n * 10 + (name[i++] - '0'), ++digits;
        if (digits > 0 && i < name.size() && name[i] == '.') return n;
    }
    return -1;
}

// Modules split by output (ColumnParallelLinear family) and by input (RowParallelLinear), vLLM's model files.
bool column_module(std::string_view m) {
    return is_one_of(m, {"q_proj", "k_proj", "v_proj", "qkv_proj", "query_key_value", "c_attn", "Wqkv", "wqkv", "W_pack",
                         "gate_proj", "up_proj", "gate_up_proj", "w1", "w3", "fc1", "dense_h_to_4h", "c_fc", "q_b_proj",
                         "kv_b_proj", "in_proj", "in_proj_qkvz", "in_proj_ba", "wq", "wk", "wv", "att_proj", "ff_proj",
                         "linear_fc1", "up", "query", "key", "value", "qkv", "w12", "fc_in"});
}
bool row_module(std::string_view m) {
    return is_one_of(m, {"o_proj", "down_proj", "w2", "fc2", "dense_4h_to_h", "c_proj", "out_proj", "wo", "dense",
                         "attn_out", "linear_fc2", "down", "proj", "fc_out"});
}
bool vocab_module(std::string_view m, std::string_view parent) {
    return is_one_of(m, {"embed_tokens", "wte", "word_embeddings", "lm_head", "embed_out", "tok_embeddings", "output",
                         "embed_tokens_per_layer"}) ||
           (m == "ff_out" && parent == "transformer");  // Molmo's LM head (molmo.py: ParallelLMHead named ff_out)
}
/// Parameters that are scalars or per-tensor scales: the same on every rank.
bool per_tensor_param(std::string_view p) {
    return is_one_of(p, {"input_scale", "k_scale", "v_scale", "weight_global_scale", "input_global_scale", "quant_map",
                         "nested_quant_map", "bitsandbytes__nf4", "bitsandbytes__fp4", "quant_state", "inv_freq"});
}

}  // namespace

TensorRole tensor_role(std::string_view name, const HfArchitecture& arch, const ModelSpec& spec,
                       const CheckpointLoadOptions& options) {
    TensorRole r;
    const NameParts p = split_name(name);
    // MTP / next-token-prediction layers: MiMo's model.mtp_layers (mimo.py MiMoModel.load_weights skips
    // "mtp_layers"), Qwen3-Next / Qwen3.5 "mtp." (qwen3_next.py load_weights skips names starting "mtp."), DeepSeek V3
    // and GLM-4.5 store them as layers past num_hidden_layers (deepseek_v2.py get_spec_layer_idx_from_weight_name).
    const int layer = layer_index(name);
    const bool mtp = contains(name, "mtp_layers") || name.rfind("mtp.", 0) == 0 || contains(name, ".mtp.") ||
                     (layer >= 0 && spec.num_hidden_layers > 0 && layer >= spec.num_hidden_layers &&
                      !contains(name, "vision") && !contains(name, "visual") && !contains(name, "audio"));
    if (mtp && !options.load_mtp_layers) {
        r.placement = TensorPlacement::not_loaded;
        r.skip_reason = "MTP layers: loaded only with speculative decoding (--speculative-config method mtp); the target "
                        "model's load_weights skips them (vllm/model_executor/models/mimo.py, deepseek_v2.py, qwen3_next.py)";
        return r;
    }
    if (p.param == "inv_freq" || contains(name, "rotary_emb.")) {
        r.placement = TensorPlacement::not_loaded;
        r.skip_reason = "rotary inv_freq buffers: recomputed, every model's load_weights skips rotary_emb.inv_freq";
        return r;
    }
    if (p.module == "lm_head" && arch.tie_word_embeddings) {
        r.placement = TensorPlacement::not_loaded;
        r.skip_reason = "lm_head tied to the embedding (tie_word_embeddings): AutoWeightsLoader skips \"lm_head.\" "
                        "(vllm/model_executor/models/falcon.py, llama.py FalconForCausalLM / LlamaForCausalLM)";
        return r;
    }
    if (vocab_module(p.module, p.parent)) {
        r.placement = per_tensor_param(p.param) ? TensorPlacement::replicated : TensorPlacement::vocab;
        return r;
    }
    if (per_tensor_param(p.param)) return r;  // replicated
    const bool router = p.module == "gate" || p.module == "router" || contains(p.module, "router") ||
                        p.module == "e_score_correction";
    if (router || contains(p.module, "norm") || p.module.rfind("ln", 0) == 0 || p.module == "q_a_proj" ||
        p.module == "kv_a_proj_with_mqa")
        return r;  // ReplicatedLinear / norms (deepseek_v2.py: q_a_proj and kv_a_proj_with_mqa are ReplicatedLinear)
    if (column_module(p.module)) {
        r.placement = TensorPlacement::column;
        // GPTQ's g_idx of a column-parallel layer indexes its input rows: whole on every rank (gptq.py, input_dim 0
        // with is_row_parallel false → the loader does not narrow it).
        if (p.param == "g_idx") r.placement = TensorPlacement::replicated;
        r.kv_heads = is_one_of(p.module, {"k_proj", "v_proj", "wk", "wv", "key", "value"});
        r.fused_qkv = is_one_of(p.module, {"qkv_proj", "query_key_value", "c_attn", "Wqkv", "wqkv", "W_pack", "qkv", "att_proj"});
        return r;
    }
    if (row_module(p.module)) {
        // RowParallelLinear keeps its bias whole (linear.py: the bias is added once after the all-reduce).
        r.placement = p.param == "bias" ? TensorPlacement::replicated : TensorPlacement::row;
        return r;
    }
    return r;  // unknown modules: whole on every rank, an upper bound
}

namespace {

/// Output-row fraction of a column-parallel K/V or fused QKV tensor one rank holds (QKVParallelLinear:
/// num_kv_heads_per_rank = max(1, kv / tp), num_heads / tp query heads).
double qkv_rank_fraction(const TensorRole& r, int heads, int kv, int tp) {
    if (kv <= 0 || heads <= 0 || tp <= kv) return 1.0 / tp;
    if (r.kv_heads) return 1.0 / kv;
    if (r.fused_qkv) return (static_cast<double>(heads) / tp + 2.0) / (heads + 2.0 * kv);
    return 1.0 / tp;
}

/// Bytes one rank holds of a tensor of `bytes` with `rows` leading rows.
double rank_bytes(const TensorRole& r, double bytes, std::int64_t rows, int heads, int kv, int tp) {
    switch (r.placement) {
        case TensorPlacement::not_loaded: return 0.0;
        case TensorPlacement::replicated: return bytes;
        case TensorPlacement::row: return bytes / tp;
        case TensorPlacement::column: return bytes * qkv_rank_fraction(r, heads, kv, tp);
        case TensorPlacement::vocab: {
            if (rows <= 0) return bytes / tp;
            const std::int64_t padded = (rows + 63) / 64 * 64;  // pad_vocab_size(vocab, 64)
            const std::int64_t per_rank = (padded + tp - 1) / tp;
            return bytes / static_cast<double>(rows) * static_cast<double>(per_rank);
        }
    }
    return bytes;
}

/// Parameters of a tensor guessed from its name and config.json widths (Llama-style names), −1 when unknown.
double guessed_params(std::string_view name, const HfArchitecture& a, const ModelSpec& s) {
    const NameParts p = split_name(name);
    const double H = s.hidden_size, V = a.vocab_size, I = a.intermediate_size;
    const double hd = a.head_dim > 0 ? a.head_dim : (s.num_attention_heads > 0 ? H / s.num_attention_heads : 0);
    const double q = s.num_attention_heads * hd, kv = a.num_key_value_heads * hd;
    const bool bias = p.param == "bias";
    if (p.param != "weight" && !bias) return -1;
    if (contains(p.module, "norm")) return H;
    if (p.module == "q_proj") return bias ? q : q * H;
    if (p.module == "k_proj" || p.module == "v_proj") return bias ? kv : kv * H;
    if (p.module == "o_proj") return bias ? H : H * q;
    if (is_one_of(p.module, {"gate_proj", "up_proj", "down_proj"})) return bias ? -1 : I * H;
    if (is_one_of(p.module, {"input_proj", "eh_proj"})) return bias ? H : 2 * H * H;  // [hidden; embedding] → hidden
    if (is_one_of(p.module, {"lm_head", "embed_tokens", "word_embeddings", "wte"})) return bias ? -1 : V * H;
    return -1;
}

double dtype_bytes_of(const HfArchitecture& a) { return a.torch_dtype == "float32" ? 4.0 : 2.0; }

}  // namespace

CheckpointWeights price_checkpoint(const SafetensorsIndex& index, const std::vector<SafetensorsTensor>& headers,
                                   const HfArchitecture& arch, const ModelSpec& spec,
                                   const CheckpointLoadOptions& options) {
    CheckpointWeights out;
    out.from_headers = !headers.empty();
    const int heads = spec.num_attention_heads, kv = arch.num_key_value_heads;
    std::vector<double> per_rank(kMaxCheckpointTp, 0.0);
    const auto skip = [&](const TensorRole& r, std::string_view name, double bytes, bool estimated) {
        for (auto& g : out.skipped) {
            if (g.reason != r.skip_reason) continue;
            ++g.count;
            g.bytes = sat_add(g.bytes, round_to_int64(std::max(bytes, 0.0)));
            g.bytes_estimated = g.bytes_estimated || estimated;
            return;
        }
        out.skipped.push_back({r.skip_reason, 1, std::string(name), round_to_int64(std::max(bytes, 0.0)), estimated});
    };
    if (out.from_headers) {
        double total = 0, loaded = 0;
        for (const auto& t : headers) {
            const double b = static_cast<double>(t.bytes);
            total += b;
            const TensorRole r = tensor_role(t.name, arch, spec, options);
            if (r.placement == TensorPlacement::not_loaded) {
                skip(r, t.name, b, false);
                continue;
            }
            // Float32 weights are cast to the 16-bit model dtype; float32 quantization scales stay float32.
            const NameParts p = split_name(t.name);
            const double held = t.dtype == "F32" && (p.param == "weight" || p.param == "bias") ? b / 2 : b;
            loaded += held;
            const std::int64_t rows = t.shape.empty() ? 0 : t.shape.front();
            std::int64_t elements = 1;
            for (const auto d : t.shape) elements = sat_mul(elements, d);
            TensorRole placed = r;
            if (elements <= 1) placed.placement = TensorPlacement::replicated;  // a per-tensor scale: on every rank
            for (int tp = 1; tp <= kMaxCheckpointTp; ++tp)
                per_rank[static_cast<std::size_t>(tp - 1)] += rank_bytes(placed, held, rows, heads, kv, tp);
        }
        out.checkpoint_bytes = round_to_int64(total);
        out.loaded_bytes = round_to_int64(loaded);
        if (index.total_size_bytes > 0 && std::abs(total - static_cast<double>(index.total_size_bytes)) > 0.5) {
            out.diagnostics.push_back({Severity::warning, "headers_vs_total_size", "metadata.total_size",
                                       "the shard headers hold " + std::to_string(out.checkpoint_bytes) +
                                           " bytes of tensors but the index's total_size is " +
                                           std::to_string(index.total_size_bytes) + ": the headers are priced"});
        }
        out.basis = "safetensors headers: " + std::to_string(headers.size()) + " tensors placed by vLLM's TP rules";
    } else {
        if (index.total_size_bytes <= 0) {
            out.diagnostics.push_back({Severity::error, "checkpoint_size_unknown", "metadata.total_size",
                                       "the index has no total_size and no shard headers were read: the checkpoint's "
                                       "size is unknown (give weights_gb, or the shard headers)"});
            return out;
        }
        const double bpe = dtype_bytes_of(arch);
        double skipped = 0;
        for (const auto& name : index.tensor_names) {
            const TensorRole r = tensor_role(name, arch, spec, options);
            if (r.placement != TensorPlacement::not_loaded) continue;
            const double params = guessed_params(name, arch, spec);
            skip(r, name, params > 0 ? params * bpe : 0.0, true);
            if (params > 0) skipped += params * bpe;
        }
        const double total = static_cast<double>(index.total_size_bytes);
        const double kept = std::max(0.0, total - skipped);
        const double loaded = arch.torch_dtype == "float32" ? kept / 2 : kept;
        out.checkpoint_bytes = index.total_size_bytes;
        out.loaded_bytes = round_to_int64(loaded);
        // Shares from the config's parameter count: norms and routers whole on every rank, K/V per head group.
        const ParamBreakdown pb = count_parameters(spec, arch);
        const double all = static_cast<double>(pb.total());
        const double whole = all > 0 ? static_cast<double>(pb.norms + pb.router) / all : 0.0;
        const double hd = arch.head_dim > 0 ? arch.head_dim : (heads > 0 ? static_cast<double>(spec.hidden_size) / heads : 0);
        int attention_layers = 0;  // only attention layers have K/V projections (hybrids: a quarter of them)
        for (const auto& l : spec.layers)
            attention_layers += layer_mixer_weights(l) == MixerWeights::gqa_attention;
        const double kv_share = all > 0 ? 2.0 * attention_layers * kv * hd * spec.hidden_size / all : 0.0;
        for (int tp = 1; tp <= kMaxCheckpointTp; ++tp) {
            double share = whole + (1.0 - whole) / tp;
            if (kv > 0 && tp > kv) share += kv_share * (1.0 / kv - 1.0 / tp);  // one K/V head per rank, not kv / tp
            per_rank[static_cast<std::size_t>(tp - 1)] = loaded * share;
        }
        out.basis = "model.safetensors.index.json total_size, split by config.json's parameter shares";
    }
    for (const double b : per_rank) out.bytes_per_rank_by_tp.push_back(round_to_int64(std::ceil(b)));
    if (arch.torch_dtype == "float32" || (out.from_headers && out.loaded_bytes < out.checkpoint_bytes)) {
        out.basis += "; float32 weights held as 16-bit (vLLM dtype auto)";
    }
    for (const auto& g : out.skipped) {
        out.diagnostics.push_back({Severity::info, "tensors_not_loaded", "weight_map",
                                   std::to_string(g.count) + " tensor" + (g.count == 1 ? "" : "s") + " (" +
                                       text::quoted(g.first_name) + (g.count > 1 ? ", …" : "") + ", " +
                                       (g.bytes > 0 ? (g.bytes_estimated ? "≈ " : "") + std::to_string(g.bytes) + " bytes"
                                                    : std::string("size not known")) +
                                       (g.count == 1 ? ") is" : ") are") + " not loaded: " + g.reason});
    }
    return out;
}

}  // namespace kvcalc
