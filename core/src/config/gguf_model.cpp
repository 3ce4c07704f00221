// GGUF headers → ModelSpec: the architecture's keys as llama.cpp reads them (src/llama-arch.cpp LLM_KV names,
// src/llama-model.cpp load_hparams), typed into the same layers read_hf_config gives the model's config.json.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "kvcalc/config/gguf.h"
#include "kvcalc/config/param_count.h"

namespace kvcalc {

namespace {

constexpr std::int64_t kMaxLayers = 100000;
constexpr std::int64_t kMaxDim = 1000000;
constexpr std::int64_t kMaxTokens = std::int64_t{1} << 40;

}  // namespace

bool gguf_arch_is_encoder(const std::string& a) {
    static const char* const names[] = {"bert",          "jina-bert-v2", "jina-bert-v3", "nomic-bert",
                                        "nomic-bert-moe", "neo-bert",    "modern-bert",  "gemma-embedding",
                                        "wavtokenizer-dec", "dream",     "llada",        "llada-moe", "rnd1"};
    for (const char* n : names)
        if (a == n) return true;
    return false;
}

namespace {

/// llama.cpp's swa pattern for architectures that do not write one (load_hparams set_swa_pattern calls): every
/// n-th layer is a full-attention layer.
int default_swa_pattern(const std::string& a) {
    if (a == "gemma2") return 2;
    if (a == "gemma3") return 6;
    if (a == "cohere2") return 4;
    if (a == "gpt-oss") return 2;  // LLM_ARCH_OPENAI_MOE: set_swa_pattern(2), even layers slide
    return 0;
}

/// Reads one architecture's keys from the metadata, recording errors and where each fact came from.
struct Keys {
    const GgufHeader& h;
    std::string arch;
    Diagnostics& d;
    std::vector<Provenance>& provenance;

    std::string key(const std::string& suffix) const { return arch + "." + suffix; }

    void error(const std::string& code, const std::string& field, const std::string& message) {
        d.push_back({Severity::error, code, field, message});
    }

    /// An integer key, scalar or per-layer array, as `n` values (a scalar repeats). nullopt = absent or bad.
    std::optional<std::vector<std::int64_t>> per_layer(const std::string& suffix, std::int64_t n, std::int64_t lo,
                                                       std::int64_t hi, const std::string& fact) {
        const std::string k = key(suffix);
        const GgufValue* v = h.find(k);
        if (!v) return std::nullopt;
        const bool array = v->type == GgufValueType::array;
        const bool ints = !v->integers.empty() || (array && v->count == 0);
        if (!ints || v->above_int64 || (array && v->count != static_cast<std::uint64_t>(n))) {
            error(array && ints ? "gguf_layer_count_mismatch" : "gguf_wrong_type", k,
                  k + " must be an integer or an array of one integer per layer (" + std::to_string(n) +
                      "); the file has " + (array ? "an array of " + std::to_string(v->count) + " " +
                                                        gguf_value_type_name(v->element_type)
                                                  : std::string(gguf_value_type_name(v->type))));
            return std::nullopt;
        }
        std::vector<std::int64_t> out = array ? v->integers : std::vector<std::int64_t>(n, v->integers.front());
        for (const auto x : out)
            if (x < lo || x > hi) {
                error("gguf_out_of_range", k,
                      k + " = " + std::to_string(x) + " is outside the valid range " + std::to_string(lo) + ".." +
                          std::to_string(hi));
                return std::nullopt;
            }
        provenance.push_back({fact, "GGUF: " + k});
        return out;
    }

    std::optional<std::int64_t> integer(const std::string& suffix, std::int64_t lo, std::int64_t hi,
                                        const std::string& fact) {
        const std::string k = key(suffix);
        const GgufValue* v = h.find(k);
        if (!v) return std::nullopt;
        if (v->type == GgufValueType::array || v->integers.empty() || v->above_int64 ||
            v->type == GgufValueType::boolean) {
            error("gguf_wrong_type", k, k + " must be an integer; the file has " +
                                            std::string(gguf_value_type_name(v->type)));
            return std::nullopt;
        }
        const std::int64_t x = v->integers.front();
        if (x < lo || x > hi) {
            error("gguf_out_of_range", k,
                  k + " = " + std::to_string(x) + " is outside the valid range " + std::to_string(lo) + ".." +
                      std::to_string(hi));
            return std::nullopt;
        }
        provenance.push_back({fact, "GGUF: " + k});
        return x;
    }
};

std::int64_t max_of(const std::vector<std::int64_t>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

/// general.file_type (llama.h enum llama_ftype) → the weights dtype estimate_weights prices, for the unquantized
/// types only; "" for a quantized or unknown one.
std::string file_type_dtype(const GgufHeader& h) {
    const GgufValue* v = h.find("general.file_type");
    if (!v || v->integers.empty()) return "";
    switch (v->integers.front()) {
        case 0: return "fp32";   // LLAMA_FTYPE_ALL_F32
        case 1: return "fp16";   // LLAMA_FTYPE_MOSTLY_F16
        case 32: return "bf16";  // LLAMA_FTYPE_MOSTLY_BF16
        default: return "";
    }
}

/// Orders the parts of a split file by split.no and checks they make one whole set; "" or why not.
std::string order_parts(const std::vector<GgufHeader>& parts, std::vector<const GgufHeader*>& out) {
    out.assign(parts.size(), nullptr);
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const GgufValue* no = parts[i].find("split.no");
        const GgufValue* count = parts[i].find("split.count");
        if (parts.size() == 1 && !no) {
            out[0] = &parts[0];
            return "";
        }
        if (!no || !count || no->integers.empty() || count->integers.empty())
            return "part " + std::to_string(i + 1) + " of " + std::to_string(parts.size()) +
                   " has no split.no / split.count: give every part of one split file (gguf-split -0000K-of-0000N)";
        const std::int64_t k = no->integers.front(), n = count->integers.front();
        if (n != static_cast<std::int64_t>(parts.size()))
            return "split.count is " + std::to_string(n) + " but " + std::to_string(parts.size()) +
                   " parts were given: give all of them";
        if (k < 0 || k >= n || out[static_cast<std::size_t>(k)])
            return "split.no " + std::to_string(k) + " is missing, repeated or out of range 0.." + std::to_string(n - 1);
        out[static_cast<std::size_t>(k)] = &parts[i];
    }
    return "";
}

void type_layers(Keys& k, GgufModel& g, std::int64_t n, const std::vector<std::int64_t>& heads,
                 const std::vector<std::int64_t>& kv_heads, int state_bytes) {
    ModelSpec& s = g.spec;
    const std::int64_t embd = s.hidden_size;
    const std::int64_t head0 = std::max<std::int64_t>(1, max_of(heads));
    const std::int64_t head_k = k.integer("attention.key_length", 1, kMaxDim, "head_dim").value_or(embd / head0);
    const std::int64_t head_v = k.integer("attention.value_length", 1, kMaxDim, "head_dim_v").value_or(head_k);
    const std::int64_t swa_k = k.integer("attention.key_length_swa", 1, kMaxDim, "head_dim (sliding)").value_or(head_k);
    const std::int64_t swa_v = k.integer("attention.value_length_swa", 1, kMaxDim, "head_dim_v (sliding)").value_or(head_v);
    const auto window = k.integer("attention.sliding_window", 0, kMaxTokens, "sliding_window").value_or(0);
    const auto kv_lora = k.integer("attention.kv_lora_rank", 0, kMaxDim, "kv_lora_rank").value_or(0);
    const auto rope = k.integer("rope.dimension_count", 0, kMaxDim, "rotary_dim").value_or(0);
    s.rotary_dim = static_cast<int>(rope);

    // Which layers slide: a per-layer bool array, or every n-th layer full (llama-hparams.cpp set_swa_pattern).
    std::vector<bool> swa(static_cast<std::size_t>(n), false);
    if (window > 0) {
        const std::string pk = k.key("attention.sliding_window_pattern");
        const GgufValue* p = k.h.find(pk);
        if (p && p->type == GgufValueType::array && p->element_type == GgufValueType::boolean &&
            p->count == static_cast<std::uint64_t>(n) && p->integers.size() == static_cast<std::size_t>(n)) {
            for (std::int64_t i = 0; i < n; ++i) swa[static_cast<std::size_t>(i)] = p->integers[static_cast<std::size_t>(i)] != 0;
            s.provenance.push_back({"layer pattern", "GGUF: " + pk});
        } else {
            // A scalar n: layer i slides when i % n < n − 1, so 0 = every layer slides and 1 = none does.
            std::optional<std::int64_t> every;
            if (default_swa_pattern(k.arch) > 0) every = default_swa_pattern(k.arch);
            if (p) {
                every = k.integer("attention.sliding_window_pattern", 0, kMaxLayers, "layer pattern");
                if (!every) {
                    if (p->type == GgufValueType::array)
                        k.error("gguf_wrong_type", pk, pk + " must be an integer (every n-th layer is full attention) "
                                                            "or one bool per layer (" + std::to_string(n) + ")");
                    return;  // else out of range or of the wrong type, reported
                }
            }
            if (!every) {
                g.diagnostics.push_back({Severity::warning, "gguf_swa_ignored", k.key("attention.sliding_window"),
                                         k.key("attention.sliding_window") + " = " + std::to_string(window) +
                                             " but the file does not say which layers slide "
                                             "(attention.sliding_window_pattern) and llama.cpp sets no pattern for " +
                                             k.arch + ": every layer is priced as full attention"});
            } else {
                const std::int64_t e = *every;
                for (std::int64_t i = 0; i < n; ++i) swa[static_cast<std::size_t>(i)] = e == 0 || i % e < e - 1;
                if (!p) s.provenance.push_back({"layer pattern", "llama.cpp's pattern for " + k.arch + ": every " +
                                                                     std::to_string(e) + "th layer full"});
            }
        }
    }

    // Recurrent layers: every layer of a Mamba model, else the layers with no KV heads (Jamba, Granite hybrid,
    // Nemotron-H write head_count_kv 0 there; llama-model.cpp recurrent_layer_arr).
    const auto d_state = k.integer("ssm.state_size", 0, kMaxDim, "ssm_state_size").value_or(0);
    const auto d_inner = k.integer("ssm.inner_size", 0, kMaxDim, "ssm inner size").value_or(0);
    const auto d_conv = k.integer("ssm.conv_kernel", 0, 1024, "conv_kernel").value_or(0);
    const auto n_group = k.integer("ssm.group_count", 0, kMaxDim, "n_groups").value_or(0);
    const auto dt_rank = k.integer("ssm.time_step_rank", 0, kMaxDim, "ssm heads").value_or(0);
    const bool ssm = d_state > 0 && d_inner > 0;
    const bool all_recurrent = k.arch == "mamba" || k.arch == "mamba2";
    if (!ssm && all_recurrent) {
        k.error("gguf_missing_key", k.key("ssm.state_size"),
                k.arch + " layers need " + k.key("ssm.state_size") + ", " + k.key("ssm.inner_size") + " and " +
                    k.key("ssm.conv_kernel"));
        return;
    }
    if (k.arch.rfind("rwkv", 0) == 0 || k.arch.rfind("arwkv", 0) == 0) {
        k.error("gguf_unsupported", "general.architecture",
                k.arch + " keeps an RWKV state per layer, which the GGUF reader does not size yet (docs/GGUF.md)");
        return;
    }
    // LFM2's gated short convolutions: (L − 1) × embedding_length values per sequence, as read_hf_config sizes
    // them from conv_L_cache.
    const auto l_cache = k.integer("shortconv.l_cache", 0, 1024, "conv_L_cache").value_or(0);
    RecurrentState conv;
    conv.state_elements = 0;
    conv.conv_elements = std::max<std::int64_t>(0, l_cache - 1) * embd;
    conv.num_heads = static_cast<int>(std::max<std::int64_t>(1, embd));
    conv.state_dtype_bytes = state_bytes;
    conv.conv_dtype_bytes = state_bytes;
    bool any_zero_kv = false;
    for (const auto x : kv_heads) any_zero_kv = any_zero_kv || x == 0;
    if (ssm && !all_recurrent && !any_zero_kv) {
        k.error("gguf_unsupported", k.key("ssm.state_size"),
                "the file has " + k.key("ssm.*") + " keys but no layer without KV heads: which layers of " + k.arch +
                    " are recurrent is not read yet (docs/GGUF.md)");
        return;
    }
    RecurrentState state;
    if (ssm) {
        const std::int64_t keep = std::max<std::int64_t>(0, d_conv - 1);
        state.state_elements = d_inner * d_state;
        state.conv_elements = keep * (d_inner + (n_group > 0 ? 2 * n_group * d_state : 0));
        state.num_heads = static_cast<int>(n_group > 0 && dt_rank > 0 ? dt_rank : d_inner);
        state.state_dtype_bytes = state_bytes;
        state.conv_dtype_bytes = state_bytes;
    }

    for (std::int64_t i = 0; i < n; ++i) {
        const auto u = static_cast<std::size_t>(i);
        if (g.encoder_only) {
            s.layers.emplace_back(NoCache{});
        } else if (all_recurrent || (ssm && kv_heads[u] == 0)) {
            s.layers.emplace_back(state);
        } else if (kv_heads[u] == 0 && l_cache > 0) {
            s.layers.emplace_back(conv);
        } else if (kv_heads[u] == 0) {
            g.diagnostics.push_back({Severity::warning, "gguf_layer_no_cache", k.key("attention.head_count_kv"),
                                     "layer " + std::to_string(i) + " has no KV heads and no state keys: it is "
                                     "priced as keeping nothing"});
            s.layers.emplace_back(NoCache{});
        } else if (kv_lora > 0) {
            s.layers.emplace_back(MlaLatent{static_cast<int>(kv_lora), static_cast<int>(rope), 0});
        } else if (swa[u]) {
            s.layers.emplace_back(SlidingWindow{static_cast<int>(kv_heads[u]), static_cast<int>(swa_k),
                                                static_cast<int>(swa_v), 0, window});
        } else {
            s.layers.emplace_back(FullAttention{static_cast<int>(kv_heads[u]), static_cast<int>(head_k),
                                                static_cast<int>(head_v), 0});
        }
    }
}

}  // namespace

GgufModel read_gguf_model(const std::vector<GgufHeader>& parts) {
    GgufModel g;
    ModelSpec& s = g.spec;
    if (parts.empty()) {
        g.diagnostics.push_back({Severity::error, "gguf_no_file", "gguf", "no GGUF header was given"});
        return g;
    }
    std::vector<const GgufHeader*> ordered;
    if (const std::string why = order_parts(parts, ordered); !why.empty()) {
        g.diagnostics.push_back({Severity::error, "gguf_split_incomplete", "split.count", why});
        return g;
    }
    const GgufHeader& h = *ordered.front();
    const GgufValue* a = h.find("general.architecture");
    if (!a || a->type != GgufValueType::string || a->text.empty()) {
        g.diagnostics.push_back({Severity::error, "gguf_missing_key", "general.architecture",
                                 "general.architecture (a string such as \"llama\") is missing: every model GGUF "
                                 "names its architecture"});
        return g;
    }
    g.architecture = a->text;
    Keys k{h, g.architecture, g.diagnostics, s.provenance};
    const auto n_opt = k.integer("block_count", 1, kMaxLayers, "num_hidden_layers");
    if (!n_opt) {
        if (!h.find(k.key("block_count")))
            k.error("gguf_missing_key", k.key("block_count"), k.key("block_count") + " (the layer count) is missing");
        return g;
    }
    const std::int64_t n = *n_opt;
    const auto embd = k.integer("embedding_length", 1, kMaxDim, "hidden_size");
    const auto heads = k.per_layer("attention.head_count", n, 0, kMaxDim, "num_attention_heads");
    if (!embd || !heads) {
        for (const char* suffix : {"embedding_length", "attention.head_count"})
            if (!h.find(k.key(suffix))) k.error("gguf_missing_key", k.key(suffix), k.key(suffix) + " is missing");
        return g;
    }
    auto kv_heads = k.per_layer("attention.head_count_kv", n, 0, kMaxDim, "num_key_value_heads");
    if (!kv_heads) {
        if (h.find(k.key("attention.head_count_kv"))) return g;  // bad value, reported
        kv_heads = heads;  // llama.cpp: n_head_kv defaults to n_head
    }
    s.num_hidden_layers = static_cast<int>(n);
    s.hidden_size = static_cast<int>(*embd);
    s.num_attention_heads = static_cast<int>(max_of(*heads));
    if (const auto ctx = k.integer("context_length", 1, kMaxTokens, "max_position_embeddings"))
        s.max_position_embeddings = *ctx;
    else if (!h.find(k.key("context_length")))
        g.diagnostics.push_back({Severity::warning, "gguf_missing_key", k.key("context_length"),
                                 k.key("context_length") + " is missing: give max_model_len"});
    s.num_experts = static_cast<int>(k.integer("expert_count", 0, 1000000, "num_experts").value_or(0));
    s.num_experts_per_tok = static_cast<int>(k.integer("expert_used_count", 0, 1000000, "num_experts_per_tok").value_or(0));
    if (const auto ff = k.per_layer("feed_forward_length", n, 0, kMaxDim, "intermediate_size"))
        s.intermediate_size = static_cast<int>(max_of(*ff));
    s.moe_intermediate_size =
        static_cast<int>(k.integer("expert_feed_forward_length", 0, kMaxDim, "moe_intermediate_size").value_or(0));
    if (const auto v = k.integer("vocab_size", 1, kMaxDim * 100, "vocab_size")) {
        s.vocab_size = static_cast<int>(*v);
    } else if (const GgufValue* t = h.find("tokenizer.ggml.tokens"); t && t->type == GgufValueType::array) {
        s.vocab_size = static_cast<int>(std::min<std::uint64_t>(t->count, kMaxDim * 100));
        s.provenance.push_back({"vocab_size", "GGUF: tokenizer.ggml.tokens (its length)"});
    }
    g.encoder_only = gguf_arch_is_encoder(g.architecture);
    if (g.encoder_only)
        g.diagnostics.push_back({Severity::info, "encoder_only", "general.architecture",
                                 g.architecture + " keeps no KV cache: llama.cpp builds no memory for it (llama-model.cpp create_memory)"});
    const std::string dtype = file_type_dtype(h);
    const int state_bytes = dtype == "fp32" ? 4 : 2;
    const std::size_t errors_before = g.diagnostics.size();
    type_layers(k, g, n, *heads, *kv_heads, state_bytes);
    for (std::size_t i = errors_before; i < g.diagnostics.size(); ++i)
        if (g.diagnostics[i].severity == Severity::error) return g;
    if (static_cast<std::int64_t>(s.layers.size()) != n) return g;

    const GgufValue* name = h.find("general.name");
    s.display_name = name && name->type == GgufValueType::string && !name->text.empty() ? name->text : g.architecture;
    s.model_type = g.architecture;
    s.family = "generic";
    s.source = "GGUF header";

    // Weights: the tensors' own bytes, summed over every part.
    std::int64_t tensors = 0, elements = 0;
    for (const GgufHeader* p : ordered) {
        tensors += static_cast<std::int64_t>(p->tensors.size());
        g.tensor_bytes += p->tensor_bytes;  // each part's sum is below 2^63; the parts' count is small
        for (const auto& t : p->tensors) {
            std::int64_t e = 1;
            for (const auto x : t.ne) e = x != 0 && e > std::numeric_limits<std::int64_t>::max() / x ? 0 : e * x;
            elements += e;
        }
    }
    if (const GgufValue* want = h.find("split.tensors.count"); want && !want->integers.empty() &&
                                                                 want->integers.front() != tensors) {
        g.diagnostics.push_back({Severity::error, "gguf_split_incomplete", "split.tensors.count",
                                 "split.tensors.count is " + std::to_string(want->integers.front()) + " but the " +
                                     std::to_string(ordered.size()) + " parts list " + std::to_string(tensors)});
        return g;
    }
    g.tensors_listed = tensors > 0;
    if (g.tensors_listed) {
        s.num_parameters = elements;
        const std::string how = "sum of " + std::to_string(tensors) + " GGUF tensor infos (ggml type table)";
        s.weights.push_back({"gguf", static_cast<double>(g.tensor_bytes) / 1e9, "", {}, how, {}, {}});
        s.provenance.push_back({"weights", how});
        return g;
    }
    // Vocab-only: no tensors to sum, so the weights are unknown. They are not guessed: a vocab-only file says
    // nothing of the quantization its model is served at (general.file_type is the converter's, often f16). The
    // parameter-count size of an unquantized copy goes into the note as a hint only.
    HfArchitecture arch;
    arch.model_type = g.architecture;
    arch.vocab_size = s.vocab_size;
    arch.intermediate_size = s.intermediate_size;
    arch.moe_intermediate_size = s.moe_intermediate_size;
    arch.encoder_only = g.encoder_only;
    const ParamBreakdown params = count_parameters(s, arch);
    const WeightsEstimate w = dtype.empty() ? WeightsEstimate{} : estimate_weights(params, arch, dtype);
    std::string hint;
    if (w.bytes > 0 && std::isfinite(w.bytes)) {
        char gb[32];
        std::snprintf(gb, sizeof gb, "%.3g", w.bytes / 1e9);
        hint = " (an " + w.dtype + " copy of these hparams would be about " + gb + " GB)";
    }
    s.weights.push_back({kUnknownWeightsId, 0.0, "", {}, "no tensor infos (vocab-only GGUF)", {}, {}});
    s.provenance.push_back({"weights", "unknown: the GGUF lists no tensor infos"});
    g.diagnostics.push_back({Severity::info, "gguf_weights_unknown", "weights_gb",
                             "the GGUF lists no tensors (a vocab-only file): its weights are unknown" + hint +
                                 "; give weights_gb"});
    return g;
}

}  // namespace kvcalc
