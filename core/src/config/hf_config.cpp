// read_hf_config: config.json text → ModelSpec. Key aliases and typing rules: docs/CONFIG_JSON.md.
#include "kvcalc/config/hf_config.h"
#include "kvcalc/base/json_safety.h"

#include <algorithm>
#include <unordered_map>

#include "config/hf_config_context.h"
#include "config/hf_config_json.h"
#include "config/hf_config_keys.h"
#include "config/hf_config_layers.h"
#include "config/hf_config_quant.h"
#include "kvcalc/config/model_traits.h"
#include "kvcalc/config/param_count.h"

namespace kvcalc {

namespace {

using hf::KeyReader;
using hf::MixerKind;

// Plausibility limits: far beyond any published model, small enough that products stay in int64.
constexpr std::int64_t kMaxLayers = 10000;
constexpr std::int64_t kMaxHeads = 100000;
constexpr std::int64_t kMaxDim = 1000000;
constexpr std::int64_t kMaxTokens = 1000000000;

int as_int(std::optional<std::int64_t> v, int fallback = 0) { return v ? static_cast<int>(*v) : fallback; }

/// Bytes per element of the checkpoint dtype name ("bfloat16" → 2); 0 when unknown.
int dtype_bytes(const std::string& name) {
    if (name == "float32" || name == "fp32") return 4;
    if (name == "bfloat16" || name == "float16" || name == "bf16" || name == "fp16" || name == "half") return 2;
    return 0;
}

struct Attn {
    int heads = 0, kv_heads = 0, head_dim = 0;
    int head_dim_v = 0;                  ///< V head size (v_head_dim when not MLA), else head_dim
    int global_kv_heads = 0, global_head_dim = 0, global_head_dim_v = 0;  ///< full layers (Gemma 4 global_*)
    int swa_kv_heads = 0, swa_head_dim = 0, swa_head_dim_v = 0;           ///< sliding layers (MiMo-V2 swa_*)
    int full_k_eq_v = 0;  ///< attention_k_eq_v: full layers hold no v_proj (sliding and chunked layers do)
    std::int64_t window = 0;
    bool window_covers_context = false;  ///< sliding_window ≥ max_position_embeddings: nothing ever slides out
    bool mla_as_plain = false;           ///< MLA-shaped weights run as plain attention (MiniCPM3)
};

void read_identity(KeyReader& keys, const nlohmann::json& root, HfConfig& out) {
    keys.string({"model_type"}, "model_type");  // type-checks it and records where it came from
    out.arch.model_type = keys.text_model_type();
    auto it = root.find("architectures");
    if (it != root.end() && it->is_array()) {
        for (const auto& a : *it) {
            if (a.is_string()) out.arch.architectures.push_back(a.get<std::string>());
        }
    }
    out.spec.model_type = out.arch.model_type;
    out.spec.family = "generic";
    out.spec.display_name = out.arch.architectures.empty() ? out.arch.model_type : out.arch.architectures.front();
}

Attn read_attention(KeyReader& keys, HfConfig& out) {
    Attn a;
    ModelSpec& s = out.spec;
    a.heads = as_int(keys.integer({"num_attention_heads", "n_head", "num_heads", "n_heads"}, "num_attention_heads", 1, kMaxHeads));
    s.num_attention_heads = a.heads;
    auto kv = keys.integer({"num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num",
                            "attn_config.kv_n_heads"},
                           "num_key_value_heads", 1, kMaxHeads);
    const std::string& mt = out.arch.model_type;
    const bool falcon = mt == "falcon" || mt == "RefinedWeb" || mt == "RefinedWebModel";
    if ((falcon || mt == "gpt_bigcode") && keys.boolean({"multi_query"}, "multi_query").value_or(false) &&
        !(falcon && keys.boolean({"new_decoder_architecture"}, "new_decoder_architecture").value_or(false))) {
        // Falcon-7B's config.json says multi_query true next to num_kv_heads 71: the model has one K/V head
        // (vLLM falcon.py FalconAttention; FalconModelArchConfigConvertor.get_total_num_kv_heads returns 1 and
        // ignores num_kv_heads unless new_decoder_architecture). StarCoder (gpt_bigcode.py GPTBigCodeAttention) too.
        a.kv_heads = 1;
        keys.info("derived", keys.prefix() + "num_key_value_heads",
                  "multi_query true (and no new_decoder_architecture): one K/V head shared by all " +
                      std::to_string(a.heads) + " query heads" +
                      (kv && *kv != 1 ? ", as vLLM reads it; num_kv_heads " + std::to_string(*kv) + " is ignored"
                                      : std::string()));
        keys.note_source("num_key_value_heads", "multi_query (Falcon): 1");
    } else if (kv) {
        a.kv_heads = static_cast<int>(*kv);
        // Grouped-query attention shares each K/V head among num_attention_heads / num_key_value_heads query heads
        // (transformers' repeat_kv; vLLM's Attention asserts num_heads % num_kv_heads == 0).
        if (a.heads > 0 && a.kv_heads > a.heads) {
            keys.error("inconsistent", keys.prefix() + "num_key_value_heads",
                       "num_key_value_heads " + std::to_string(a.kv_heads) + " is more than num_attention_heads " +
                           std::to_string(a.heads) + ": each K/V head serves one or more query heads, so it must be "
                           "at most " + std::to_string(a.heads) + " (and divide it)");
        } else if (a.heads > 0 && a.heads % a.kv_heads != 0) {
            // vllm/attention/layer.py Attention.__init__: assert num_heads % num_kv_heads == 0.
            keys.error("inconsistent", keys.prefix() + "num_key_value_heads",
                       "num_attention_heads " + std::to_string(a.heads) + " is not a multiple of "
                       "num_key_value_heads " + std::to_string(a.kv_heads) + ": each K/V head serves a whole group "
                       "of query heads, and vLLM's Attention refuses the model (num_heads % num_kv_heads must be "
                       "0); valid num_key_value_heads divide " + std::to_string(a.heads));
        }
    } else if (a.heads > 0) {
        a.kv_heads = a.heads;
        keys.warning("assumed", keys.prefix() + "num_key_value_heads",
                     "num_key_value_heads missing: assumed equal to num_attention_heads (" + std::to_string(a.heads) +
                         ", plain multi-head attention)");
        keys.note_source("num_key_value_heads", "assumed = num_attention_heads");
    }
    auto hd = keys.integer({"head_dim", "attention_head_dim", "kv_channels"}, "head_dim", 1, kMaxDim);
    if (hd) {
        a.head_dim = static_cast<int>(*hd);
    } else if (a.heads > 0 && s.hidden_size > 0) {
        a.head_dim = s.hidden_size / a.heads;
        if (s.hidden_size % a.heads != 0) {
            keys.warning("assumed", keys.prefix() + "head_dim",
                         "head_dim missing and hidden_size " + std::to_string(s.hidden_size) +
                             " is not a multiple of num_attention_heads " + std::to_string(a.heads) +
                             ": assumed head_dim " + std::to_string(a.head_dim) + "; add head_dim to be exact");
        } else {
            keys.info("derived", keys.prefix() + "head_dim",
                      "head_dim missing: derived as hidden_size / num_attention_heads = " +
                          std::to_string(a.head_dim));
        }
        keys.note_source("head_dim", "hidden_size / num_attention_heads");
    }
    a.global_kv_heads =
        as_int(keys.integer({"num_global_key_value_heads"}, "num_global_key_value_heads", 1, kMaxHeads), a.kv_heads);
    a.global_head_dim = as_int(keys.integer({"global_head_dim"}, "global_head_dim", 1, kMaxDim), a.head_dim);
    // V head size apart from K (MiMo-V2: 192 / 128). For MLA configs v_head_dim is the latent's V width instead.
    std::string mla_path;
    const bool mla = keys.raw({"kv_lora_rank"}, mla_path) != nullptr;
    // DeepSeek-VL2-tiny switches MLA off with kv_lora_rank null and v_head_dim 0: 0 means "not set" there.
    a.head_dim_v = mla ? a.head_dim : as_int(keys.integer({"v_head_dim"}, "v_head_dim", 0, kMaxDim), a.head_dim);
    if (a.head_dim_v == 0) a.head_dim_v = a.head_dim;
    const int head_dim_v = a.head_dim_v;
    a.global_head_dim_v = a.global_head_dim == a.head_dim ? head_dim_v : a.global_head_dim;
    a.swa_kv_heads = as_int(keys.integer({"swa_num_key_value_heads"}, "swa_num_key_value_heads", 1, kMaxHeads), a.kv_heads);
    a.swa_head_dim = as_int(keys.integer({"swa_head_dim"}, "swa_head_dim", 1, kMaxDim), a.head_dim);
    a.swa_head_dim_v = as_int(keys.integer({"swa_v_head_dim"}, "swa_v_head_dim", 1, kMaxDim),
                              a.swa_head_dim == a.head_dim ? head_dim_v : a.swa_head_dim);
    const bool k_eq_v = keys.boolean({"attention_k_eq_v"}, "attention_k_eq_v").value_or(false);
    // Only full-attention layers drop v_proj (vLLM gemma4.py Gemma4DecoderLayer: use_k_eq_v = is_full_attention and
    // attention_k_eq_v); every layer still caches K and V (KvHeads in layer_kinds.h).
    a.full_k_eq_v = k_eq_v ? 1 : 0;
    a.window = keys.integer({"sliding_window", "attention_window_size"}, "sliding_window", 1, kMaxTokens).value_or(0);
    if (a.window > 0 && s.max_position_embeddings > 0 && a.window >= s.max_position_embeddings) {
        // Phi-3-mini-128k ships sliding_window 262144 with max_position_embeddings 131072: the window never drops
        // a token, so every engine keeps the whole context, as for full attention.
        a.window_covers_context = true;
        keys.info("window_covers_context", keys.prefix() + "sliding_window",
                  "sliding_window " + std::to_string(a.window) + " ≥ max_position_embeddings " +
                      std::to_string(s.max_position_embeddings) + ": no token ever leaves the window, so the "
                      "layers are priced as full attention");
    }
    auto& h = out.arch;
    h.head_dim = a.head_dim;
    h.num_key_value_heads = a.kv_heads;
    h.num_global_key_value_heads = a.global_kv_heads == a.kv_heads ? 0 : a.global_kv_heads;
    h.global_head_dim = a.global_head_dim == a.head_dim ? 0 : a.global_head_dim;
    h.attention_k_eq_v = k_eq_v;
    h.attention_bias = keys.boolean({"attention_bias", "qkv_bias", "bias"}, "attention_bias")
                           .value_or(h.model_type == "qwen2" || h.model_type == "qwen2_moe");
    h.qk_norm = h.model_type.rfind("qwen3", 0) == 0 || h.model_type.rfind("gemma3", 0) == 0 ||
                h.model_type.rfind("gemma4", 0) == 0;
    h.attention_sinks = h.model_type == "gpt_oss";
    return a;
}

void read_mla(KeyReader& keys, HfArchitecture& h) {
    h.kv_lora_rank = as_int(keys.integer({"kv_lora_rank"}, "kv_lora_rank", 1, kMaxDim));
    if (h.kv_lora_rank == 0) return;
    h.q_lora_rank = as_int(keys.integer({"q_lora_rank"}, "q_lora_rank", 1, kMaxDim));
    h.qk_nope_head_dim = as_int(keys.integer({"qk_nope_head_dim"}, "qk_nope_head_dim", 0, kMaxDim));
    h.v_head_dim = as_int(keys.integer({"v_head_dim"}, "v_head_dim", 1, kMaxDim), h.qk_nope_head_dim);
    auto rope = keys.integer({"qk_rope_head_dim"}, "qk_rope_head_dim", 0, kMaxDim);
    if (!rope) {
        keys.error("missing_key", keys.prefix() + "qk_rope_head_dim",
                   "kv_lora_rank is set (MLA) but qk_rope_head_dim is missing: add qk_rope_head_dim (64 for "
                   "DeepSeek V2/V3 and Kimi K2)");
    }
    h.qk_rope_head_dim = as_int(rope);
    h.index_head_dim = as_int(keys.integer({"index_head_dim"}, "index_head_dim", 1, kMaxDim));
    h.index_n_heads = as_int(keys.integer({"index_n_heads"}, "index_n_heads", 1, kMaxHeads));
}

/// MiniCPM3 has MLA-shaped projections (kv_lora_rank) but caches full K and V: vLLM minicpm3.py
/// MiniCPM3Attention builds Attention(num_heads, qk_nope_head_dim + qk_rope_head_dim, num_kv_heads = num_heads) and
/// pads V to that head size. The weights keep their MLA shapes (param count); the layers are typed as plain attention.
void run_mla_as_plain(KeyReader& keys, HfConfig& out, Attn& a) {
    const HfArchitecture& h = out.arch;
    if (h.model_type != "minicpm3" || h.kv_lora_rank == 0) return;
    a.mla_as_plain = true;
    a.head_dim = a.head_dim_v = h.qk_nope_head_dim + h.qk_rope_head_dim;
    a.kv_heads = a.heads;
    a.global_kv_heads = a.swa_kv_heads = a.heads;
    a.global_head_dim = a.global_head_dim_v = a.swa_head_dim = a.swa_head_dim_v = a.head_dim;
    keys.info("mla_as_plain_attention", keys.prefix() + "kv_lora_rank",
              "minicpm3: kv_lora_rank shapes the projections, but vLLM caches full K and V (" + std::to_string(a.heads) +
                  " heads of qk_nope_head_dim + qk_rope_head_dim = " + std::to_string(a.head_dim) +
                  ", V padded to it; minicpm3.py MiniCPM3Attention)");
    keys.note_source("layers", "minicpm3: plain attention, num_attention_heads K/V heads of " + std::to_string(a.head_dim));
}

/// The MLP's shape where a family departs from the gated (gate + up + down) default: the up + down MLPs, their
/// 4 × hidden default width, QWen's halved width and GPT-2 / GPTBigCode's learned positions (each from its vLLM
/// model file, named below).
void read_mlp_shape(KeyReader& keys, HfConfig& out) {
    auto& h = out.arch;
    const auto& s = out.spec;
    const std::string& mt = h.model_type;
    // Up + down only: bloom.py BloomMLP, falcon.py FalconMLP, gpt_j.py GPTJMLP, gpt2.py GPT2MLP, gpt_bigcode.py
    // GPTBigMLP, gpt_neox.py GPTNeoXMLP, mpt.py MPTMLP, phi.py PhiMLP, starcoder2.py Starcoder2MLP, opt.py (fc1/fc2).
    static constexpr std::string_view kUpDown[] = {"bloom", "falcon", "RefinedWeb", "RefinedWebModel", "gptj",
                                                   "gpt2", "gpt_bigcode", "gpt_neox", "mpt", "phi", "starcoder2",
                                                   "opt"};
    for (std::string_view t : kUpDown)
        if (mt == t) h.gated_mlp = false;
    if (!h.gated_mlp && h.intermediate_size == 0 && s.hidden_size > 0 && mt != "mpt") {
        // n_inner / ffn_hidden_size null: 4 × hidden (gpt_j.py `4 * config.n_embd if config.n_inner is None`,
        // gpt_bigcode.py and gpt2.py alike; bloom.py and falcon.py build 4 * hidden_size).
        h.intermediate_size = static_cast<int>(std::min<std::int64_t>(4LL * s.hidden_size, kMaxDim));
        keys.info("derived", keys.prefix() + "intermediate_size",
                  "no MLP width in the file (n_inner / ffn_hidden_size): " + mt + " builds 4 × hidden_size = " +
                      std::to_string(h.intermediate_size));
        keys.note_source("intermediate_size", "4 × hidden_size (" + mt + ")");
    }
    if (mt == "qwen" && h.intermediate_size > 0) {
        // QWen (v1) states the sum of both halves of its gated MLP: qwen.py QWenBlock builds
        // QWenMLP(hidden_size, intermediate_size // 2).
        h.intermediate_size /= 2;
        keys.info("derived", keys.prefix() + "intermediate_size",
                  "qwen: intermediate_size is both halves of the gated MLP; each is intermediate_size / 2 = " +
                      std::to_string(h.intermediate_size) + " wide (vLLM qwen.py QWenMLP)");
        keys.note_source("intermediate_size", "intermediate_size / 2 (qwen)");
    }
    if (mt == "gpt2" || mt == "gpt_bigcode") {
        // wpe: one learned vector per position (gpt2.py, gpt_bigcode.py nn.Embedding(max_position_embeddings, …)).
        h.learned_positions = static_cast<int>(keys.integer({"n_positions", "max_position_embeddings"},
                                                             "n_positions", 1, kMaxTokens)
                                                   .value_or(0));
    }
}

void read_moe_and_mlp(KeyReader& keys, HfConfig& out) {
    auto& h = out.arch;
    auto& s = out.spec;
    h.vocab_size = as_int(keys.integer({"vocab_size", "padded_vocab_size"}, "vocab_size", 1, 100000000));
    h.hidden_size_per_layer_input =
        as_int(keys.integer({"hidden_size_per_layer_input"}, "hidden_size_per_layer_input", 0, kMaxDim));
    h.vocab_size_per_layer_input =
        as_int(keys.integer({"vocab_size_per_layer_input"}, "vocab_size_per_layer_input", 1, 100000000));
    if (h.vocab_size_per_layer_input == 0) h.vocab_size_per_layer_input = h.vocab_size;
    h.intermediate_size = as_int(keys.integer({"intermediate_size", "ffn_hidden_size", "n_inner", "ffn_config.ffn_hidden_size"},
                                              "intermediate_size", 1, kMaxDim));
    if (h.intermediate_size == 0 && s.hidden_size > 0) {
        // MPT: the MLP is expansion_ratio × d_model wide (vllm/model_executor/models/mpt.py MPTMLP).
        if (auto ratio = keys.integer({"expansion_ratio"}, "expansion_ratio", 1, 1000))
            h.intermediate_size = static_cast<int>(std::min<std::int64_t>(*ratio * s.hidden_size, kMaxDim));
    }
    read_mlp_shape(keys, out);
    s.num_experts = as_int(keys.integer({"n_routed_experts", "num_experts", "num_local_experts", "moe_num_experts",
                                         "ffn_config.moe_num_experts"},
                                        "num_experts", 0, 1000000));
    s.num_experts_per_tok = as_int(keys.integer(
        {"num_experts_per_tok", "experts_per_token", "top_k_experts", "moe_topk", "moe_k", "ffn_config.moe_top_k"}, "num_experts_per_tok", 0,
        1000000));
    if (s.num_experts > 0) {
        // Mixtral / gpt-oss name the expert width intermediate_size.
        h.moe_intermediate_size = as_int(
            keys.integer({"moe_intermediate_size", "expert_intermediate_size"}, "moe_intermediate_size", 1, kMaxDim),
            h.intermediate_size);
    }
    h.moe_latent_size = as_int(keys.integer({"moe_latent_size"}, "moe_latent_size", 1, kMaxDim));
    h.n_shared_experts = as_int(keys.integer({"n_shared_experts", "num_shared_experts", "num_shared_expert"}, "n_shared_experts", 0, 100000));
    h.shared_expert_intermediate_size = as_int(keys.integer(
        {"shared_expert_intermediate_size", "moe_shared_expert_intermediate_size"}, "shared_expert_intermediate_size",
        0, kMaxDim));
    h.dense_intermediate_size =
        as_int(keys.integer({"intermediate_size_mlp"}, "intermediate_size_mlp", 1, kMaxDim));
    h.interleave_moe_layer_step =
        as_int(keys.integer({"interleave_moe_layer_step"}, "interleave_moe_layer_step", 1, kMaxLayers));
    h.first_k_dense_replace = as_int(keys.integer({"first_k_dense_replace"}, "first_k_dense_replace", 0, kMaxLayers));
    std::string freq_path;
    if (const nlohmann::json* f = keys.raw({"moe_layer_freq"}, freq_path); f && f->is_array()) {
        for (const auto& e : *f) h.moe_layer_freq.push_back(e.is_number_integer() && e.get<std::int64_t>() != 0 ? 1 : 0);
    }
    if (h.moe_layer_freq.empty() && s.num_experts > 1 &&
        (h.model_type == "jamba" || keys.present("expert_layer_period"))) {
        // Jamba: experts only where i % expert_layer_period == expert_layer_offset (JambaConfig.layers_num_experts,
        // defaults 2 and 1; vLLM jamba.py picks JambaMoE when layers_num_experts[i] > 1, else a dense JambaMLP).
        const auto period = keys.integer({"expert_layer_period"}, "expert_layer_period", 1, kMaxLayers).value_or(2);
        const auto offset = keys.integer({"expert_layer_offset"}, "expert_layer_offset", 0, kMaxLayers).value_or(1);
        for (int i = 0; i < s.num_hidden_layers; ++i) h.moe_layer_freq.push_back(i % period == offset ? 1 : 0);
        keys.note_source("moe layers", "expert_layer_period " + std::to_string(period) + ", expert_layer_offset " +
                                           std::to_string(offset));
    }
    auto tie = keys.boolean({"tie_word_embeddings"}, "tie_word_embeddings");
    // Gemma's config classes and FalconConfig default to tied (vllm/model_executor/models/falcon.py
    // FalconForCausalLM: an absent key ties lm_head to word_embeddings); the other families default to untied.
    const bool gemma = h.model_type.rfind("gemma", 0) == 0, falcon = h.model_type == "falcon";
    // BLOOM, MPT and GPT-2 keep PretrainedConfig's tie_word_embeddings true: vLLM bloom.py, mpt.py (which asserts
    // it) and gpt2.py use the input embedding as lm_head.
    // MiniCPM / MiniCPM3's remote configs keep it too (minicpm.py ties when tie_word_embeddings; MiniCPM3-4B's
    // published 4.07B parameters count one 73,448 × 2,560 table).
    const bool tied_family = h.model_type == "bloom" || h.model_type == "mpt" || h.model_type == "gpt2" ||
                             h.model_type == "minicpm" || h.model_type == "minicpm3";
    h.tie_word_embeddings = tie.value_or(gemma || falcon || tied_family);
    if (!tie) {
        keys.info("assumed", "tie_word_embeddings",
                  std::string("tie_word_embeddings missing: assumed ") +
                      (gemma ? "true (Gemma default)" : falcon ? "true (FalconConfig default)"
                       : tied_family ? "true (" + h.model_type + ": lm_head is the input embedding)" : "false") +
                      " for the parameter count");
    }
}

void read_recurrent_dims(KeyReader& keys, HfConfig& out) {
    auto& h = out.arch;
    auto& s = out.spec;
    s.linear_num_key_heads = as_int(keys.integer({"linear_num_key_heads"}, "linear_num_key_heads", 1, kMaxHeads));
    s.linear_num_value_heads =
        as_int(keys.integer({"linear_num_value_heads"}, "linear_num_value_heads", 1, kMaxHeads));
    s.linear_key_head_dim = as_int(keys.integer({"linear_key_head_dim"}, "linear_key_head_dim", 1, kMaxDim));
    s.linear_value_head_dim = as_int(keys.integer({"linear_value_head_dim"}, "linear_value_head_dim", 1, kMaxDim));
    s.linear_conv_kernel_dim =
        as_int(keys.integer({"linear_conv_kernel_dim"}, "linear_conv_kernel_dim", 1, 1024));
    h.conv_l_cache = as_int(keys.integer({"conv_L_cache"}, "conv_L_cache", 1, 1024));
    h.mamba_num_heads = as_int(keys.integer({"mamba_num_heads", "mamba_n_heads"}, "mamba_num_heads", 1, kMaxHeads));
    h.mamba_head_dim = as_int(keys.integer({"mamba_head_dim", "mamba_d_head"}, "mamba_head_dim", 1, kMaxDim));
    h.mamba_d_state = as_int(keys.integer({"ssm_state_size", "mamba_d_state", "state_size"}, "ssm_state_size", 1, kMaxDim));
    h.mamba_n_groups = as_int(keys.integer({"n_groups", "mamba_n_groups", "mamba_num_groups"}, "n_groups", 1, kMaxHeads), 1);
    h.mamba_d_conv = as_int(keys.integer({"conv_kernel", "mamba_d_conv"}, "conv_kernel", 1, 1024));
    h.mamba_d_inner = as_int(keys.integer({"mamba_d_ssm", "mamba_intermediate_size"}, "mamba_d_inner", 1, kMaxDim));
    if (h.mamba_d_inner == 0) {
        if (h.mamba_num_heads > 0 && h.mamba_head_dim > 0) {
            const std::int64_t inner = std::int64_t{h.mamba_num_heads} * h.mamba_head_dim;  // both ≤ limits: no int overflow
            if (inner > kMaxDim)
                keys.error("out_of_range", keys.prefix() + "mamba_head_dim",
                           "mamba_num_heads × mamba_head_dim = " + std::to_string(inner) +
                               " (the Mamba inner width) is outside the valid range 1..1000000");
            h.mamba_d_inner = static_cast<int>(std::min<std::int64_t>(inner, kMaxDim));
        } else if (auto expand = keys.number({"mamba_expand", "expand"}, "mamba_expand", 0.0, 1000.0)) {
            h.mamba_d_inner = static_cast<int>(*expand * s.hidden_size);
        }
    }
}

void read_dtype_and_quant(KeyReader& keys, HfArchitecture& h) {
    h.torch_dtype = keys.string({"torch_dtype", "dtype"}, "torch_dtype").value_or("");
    hf::read_quantization(keys, h);
}

/// Recurrent state of one linear-attention (Gated DeltaNet) layer, vLLM layout at TP=1:
/// temporal state num_v_heads × k_dim × v_dim, conv state (kernel − 1) × (2·key_dim + value_dim).
RecurrentState gdn_state(const ModelSpec& s, int state_bytes, int conv_bytes) {
    RecurrentState r;
    const std::int64_t key_dim = static_cast<std::int64_t>(s.linear_num_key_heads) * s.linear_key_head_dim;
    const std::int64_t value_dim = static_cast<std::int64_t>(s.linear_num_value_heads) * s.linear_value_head_dim;
    r.state_elements = static_cast<std::int64_t>(s.linear_num_value_heads) * s.linear_key_head_dim *
                       s.linear_value_head_dim;
    r.conv_elements = static_cast<std::int64_t>(std::max(0, s.linear_conv_kernel_dim - 1)) * (2 * key_dim + value_dim);
    r.num_heads = std::max(1, s.linear_num_key_heads);
    r.state_dtype_bytes = state_bytes;
    r.conv_dtype_bytes = conv_bytes;
    return r;
}

/// Recurrent state of one Mamba layer at TP=1. Mamba-2 (heads given): state heads × head_dim × d_state, conv
/// (d_conv − 1) × (d_inner + 2·n_groups·d_state). Mamba-1 (Jamba): state d_inner × d_state, conv
/// (d_conv − 1) × d_inner.
RecurrentState mamba_state(const HfArchitecture& h, int state_bytes, int conv_bytes) {
    RecurrentState r;
    const std::int64_t d_conv_keep = std::max(0, h.mamba_d_conv - 1);
    if (h.mamba_num_heads > 0) {
        r.state_elements = static_cast<std::int64_t>(h.mamba_num_heads) * h.mamba_head_dim * h.mamba_d_state;
        r.conv_elements = d_conv_keep * (h.mamba_d_inner + 2LL * h.mamba_n_groups * h.mamba_d_state);
        r.num_heads = h.mamba_num_heads;
    } else {
        r.state_elements = static_cast<std::int64_t>(h.mamba_d_inner) * h.mamba_d_state;
        r.conv_elements = d_conv_keep * h.mamba_d_inner;
        r.num_heads = std::max(1, h.mamba_d_inner);
    }
    r.state_dtype_bytes = state_bytes;
    r.conv_dtype_bytes = conv_bytes;
    return r;
}

/// LFM2 gated short convolution: (conv_L_cache − 1) × hidden_size values per sequence, in the model dtype
/// (vLLM MambaStateShapeCalculator.short_conv_state_shape with intermediate_size = hidden_size, lfm2.py), split
/// over TP by channel.
RecurrentState short_conv_state(const ModelSpec& s, const HfArchitecture& h, int conv_bytes) {
    RecurrentState r;
    r.state_elements = 0;
    r.conv_elements = static_cast<std::int64_t>(std::max(0, h.conv_l_cache - 1)) * s.hidden_size;
    r.num_heads = std::max(1, s.hidden_size);
    r.state_dtype_bytes = conv_bytes;
    r.conv_dtype_bytes = conv_bytes;
    return r;
}

void require_recurrent_dims(KeyReader& keys, const HfConfig& out, MixerKind kind) {
    const auto& s = out.spec;
    const auto& h = out.arch;
    if (kind == MixerKind::linear &&
        (s.linear_num_key_heads == 0 || s.linear_num_value_heads == 0 || s.linear_key_head_dim == 0 ||
         s.linear_value_head_dim == 0 || s.linear_conv_kernel_dim == 0)) {
        keys.error("missing_key", keys.prefix() + "linear_num_value_heads",
                   "linear-attention layers need linear_num_key_heads, linear_num_value_heads, linear_key_head_dim, "
                   "linear_value_head_dim and linear_conv_kernel_dim: add the missing ones");
    }
    if (kind == MixerKind::mamba && (h.mamba_d_state == 0 || h.mamba_d_conv == 0 || h.mamba_d_inner == 0)) {
        const std::string why = keys.noted_source("layer pattern");
        keys.error("missing_key", keys.prefix() + "ssm_state_size",
                   (why.empty() ? std::string() : "the layer pattern comes from " + why + "; ") +
                   "Mamba layers need the state size (ssm_state_size / mamba_d_state), the conv kernel "
                   "(conv_kernel / mamba_d_conv) and the inner width (mamba_num_heads × mamba_head_dim or "
                   "mamba_expand): add the missing ones");
    }
}

void type_layers(KeyReader& keys, HfConfig& out, const Attn& a, int model_bytes) {
    ModelSpec& s = out.spec;
    const HfArchitecture& h = out.arch;
    const auto pattern = hf::resolve_layer_pattern(keys, s.num_hidden_layers, h.model_type, a.window > 0);
    if (pattern.kinds.empty()) return;  // an error was reported
    out.arch.layer_blocks = pattern.blocks;
    out.arch.layer_mlp_widths = pattern.mlp_widths;
    out.arch.layer_linear_attention = pattern.linear_attention;
    auto at = [](const auto& v, std::size_t i, auto fallback) { return i < v.size() && v[i] > 0 ? v[i] : fallback; };
    auto ssm = keys.string({"mamba_ssm_dtype", "mamba_ssm_cache_dtype"}, "mamba_ssm_dtype");
    int state_bytes = ssm ? dtype_bytes(*ssm) : 0;
    if (state_bytes == 0) state_bytes = model_bytes;

    bool need_attention = false;
    for (std::size_t i = 0; i < pattern.kinds.size(); ++i) {
        const MixerKind k = pattern.kinds[i];
        if (k == MixerKind::sliding && a.window_covers_context && at(pattern.windows, i, std::int64_t{0}) == 0) {
            // Same K/V shape as the sliding layer, kept for the whole context.
            s.layers.emplace_back(FullAttention{a.swa_kv_heads, a.swa_head_dim, a.swa_head_dim_v, 0});
            continue;
        }
        if (k == MixerKind::full || k == MixerKind::sliding || k == MixerKind::chunked) need_attention = true;
        if (k == MixerKind::linear || k == MixerKind::mamba) require_recurrent_dims(keys, out, k);
        if (h.kv_lora_rank > 0 && !a.mla_as_plain && (k == MixerKind::full || k == MixerKind::sliding)) {
            s.layers.emplace_back(MlaLatent{h.kv_lora_rank, h.qk_rope_head_dim, h.index_head_dim});
        } else if (k == MixerKind::full) {
            s.layers.emplace_back(FullAttention{at(pattern.kv_heads, i, a.global_kv_heads), a.global_head_dim,
                                                a.global_head_dim_v, a.full_k_eq_v});
        } else if (k == MixerKind::sliding) {
            const std::int64_t window = at(pattern.windows, i, a.window);
            if (window <= 0) {
                keys.error("missing_key", keys.prefix() + "sliding_window",
                           "layer " + std::to_string(i) + " is a sliding-attention layer but sliding_window is "
                           "missing: add sliding_window (tokens)");
            }
            s.layers.emplace_back(
                SlidingWindow{at(pattern.kv_heads, i, a.swa_kv_heads), a.swa_head_dim, a.swa_head_dim_v, 0,
                              window});
        } else if (k == MixerKind::chunked) {
            const auto chunk = keys.integer({"attention_chunk_size"}, "attention_chunk_size", 1, kMaxTokens);
            if (!chunk) {
                keys.error("missing_key", keys.prefix() + "attention_chunk_size",
                           "layer " + std::to_string(i) + " is a chunked-attention layer but attention_chunk_size "
                           "is missing: add attention_chunk_size (tokens, 8192 for Llama 4)");
                return;
            }
            s.layers.emplace_back(ChunkedLocalAttention{a.kv_heads, a.head_dim, a.head_dim_v, 0, *chunk});
        } else if (k == MixerKind::conv) {
            if (h.conv_l_cache == 0) {
                keys.error("missing_key", keys.prefix() + "conv_L_cache",
                           "layer " + std::to_string(i) + " is a short-convolution layer but conv_L_cache is "
                           "missing: add conv_L_cache (3 for LFM2)");
                return;
            }
            s.layers.emplace_back(short_conv_state(s, h, model_bytes));
        } else if (k == MixerKind::linear) {
            s.layers.emplace_back(gdn_state(s, state_bytes, model_bytes));
        } else if (k == MixerKind::mamba) {
            s.layers.emplace_back(mamba_state(h, state_bytes, model_bytes));
        } else {
            s.layers.emplace_back(NoCache{});
        }
    }
    if (pattern.parallel_mamba) {
        require_recurrent_dims(keys, out, MixerKind::mamba);
        s.parallel_caches.assign(s.layers.size(), LayerCache{mamba_state(h, state_bytes, model_bytes)});
    }
    if (need_attention && (a.heads == 0 || a.head_dim == 0) && h.kv_lora_rank == 0) {
        keys.error("missing_key", keys.prefix() + "num_attention_heads",
                   "attention layers need num_attention_heads (and head_dim or hidden_size): add them");
    }
    // Gemma 3n / Gemma 4 small: the last num_kv_shared_layers reuse an earlier layer's K/V and keep nothing.
    s.num_kv_shared_layers =
        as_int(keys.integer({"num_kv_shared_layers"}, "num_kv_shared_layers", 0, s.num_hidden_layers - 1));
    for (int i = 0; i < s.num_kv_shared_layers; ++i) s.layers[s.layers.size() - 1 - i] = NoCache{};
}

/// The non_standard_json warnings: one per token for the first kMaxNonFiniteWarnings, then one line counting
/// the rest, so a file of a million NaN tokens costs a bounded answer (a real Hub config holds one or two).
void note_non_finite(const hf::NonFiniteTokens& found, Diagnostics& diags) {
    constexpr std::size_t kMaxNonFiniteWarnings = hf::NonFiniteTokens::kKeptInOrder - 1;
    const std::size_t shown = std::min(found.first.size(), kMaxNonFiniteWarnings);
    for (std::size_t i = 0; i < shown; ++i) {
        const auto& r = found.first[i];
        diags.push_back({Severity::warning, "non_standard_json", r.path,
                         r.path + " is " + r.token + " (Python's json writes it; strict JSON has no such value): read "
                         "as null"});
    }
    if (found.count <= shown) return;
    const auto& first = found.first[shown];
    diags.push_back({Severity::warning, "non_standard_json", first.path,
                     std::to_string(found.count - shown) + " more values were NaN or Infinity (read as null); the "
                     "first of them at " + first.path + " (" + first.token + ")"});
}

/// One info line naming every fact that came from the config class's defaults (each is also in provenance).
void note_defaults_used(const KeyReader& keys, HfConfig& out) {
    if (keys.defaults_used().empty() || !keys.traits()) return;
    std::string list;
    for (const auto& k : keys.defaults_used()) list += (list.empty() ? "" : ", ") + k;
    out.diagnostics.push_back({Severity::info, "class_defaults", keys.prefix() + "model_type",
                               "not in the file, taken from transformers " + std::string(keys.traits()->config_class) +
                                   " defaults: " + list});
}

/// Architectures whose cache kvcalc cannot type (an error naming why), or that the newest vLLM no longer runs.
void check_architecture_support(KeyReader& keys, HfConfig& out) {
    const HfArchitecture& h = out.arch;
    if (h.model_type == "deepseek_v4") {
        // vllm/model_executor/layers/deepseek_v4_attention.py DeepseekV4MultiHeadLatentAttentionWrapper: every
        // layer keeps a DeepseekV4SWACache of sliding_window tokens (head_dim 512 as 448 fp8 + 64 bf16 + scales),
        // and layers whose compress_ratios entry exceeds 1 add a compressed latent cache (one entry per ratio
        // tokens, DeepseekCompressor) plus, at ratio 4, a sparse-attention indexer key.
        keys.error("unsupported_architecture", "model_type",
                   "model_type deepseek_v4 (DeepSeek V4) caches a 128-token sliding window per layer plus a KV "
                   "compressed 4:1 or 128:1 (compress_ratios) with an indexer: kvcalc has no layer kind for that "
                   "compressed cache, so it cannot price this model's KV; its bytes per token would be a guess");
    }
    for (const auto& a : h.architectures) {
        if (a != "MllamaForConditionalGeneration") continue;
        // vllm/model_executor/models/registry.py _PREVIOUSLY_SUPPORTED_MODELS: "MllamaForConditionalGeneration":
        // "0.10.2" (encoder-decoder models removed with the V0 engine). V0's CacheEngine gave every one of
        // num_hidden_layers a K/V slot per block (cross-attention layers included, mllama.py kv_caches[idx]).
        keys.warning("vllm_removed", "architectures",
                     "MllamaForConditionalGeneration (Llama 3.2 Vision) runs only up to vLLM 0.10.2 (later releases "
                     "refuse it: registry.py _PREVIOUSLY_SUPPORTED_MODELS); priced as that V0 engine cached it, a "
                     "K/V slot per token in all " + std::to_string(out.spec.num_hidden_layers) +
                         " layers, the cross_attention_layers included");
    }
}

}  // namespace

HfConfig read_hf_config(std::string_view text) {
    HfConfig out;
    if (json_too_deep(text)) {
        out.diagnostics.push_back({Severity::error, "too_deep", "",
                                   "config.json nests arrays/objects deeper than " + std::to_string(kMaxJsonDepth) +
                                       " levels; a real config.json nests 3-4"});
        return out;
    }
    hf::NonFiniteTokens non_finite;
    const std::string cleaned = hf::replace_non_finite_tokens(text, non_finite);
    hf::ParsedJson parsed = hf::parse_counting_duplicates(cleaned);
    const nlohmann::json& root = parsed.root;
    note_non_finite(non_finite, out.diagnostics);
    if (parsed.too_many_keys) {
        out.diagnostics.push_back({Severity::error, "too_large", "",
                                   "config.json holds more than " + std::to_string(hf::kMaxConfigKeys) +
                                       " keys; a real one holds a few hundred (at most about 1,200, one entry per "
                                       "layer): is this the right file?"});
        return out;
    }
    if (root.is_discarded()) {
        const std::string detail = json_error_detail(cleaned);
        out.diagnostics.push_back({Severity::error, "bad_json", "",
                                   "config.json is not valid JSON: " + detail +
                                       (detail.find("overflow") == std::string::npos &&
                                                detail.find("must be UTF-8") == std::string::npos
                                            ? " (check for a truncated paste or trailing commas)"
                                            : "")});
        return out;
    }
    if (!root.is_object()) {
        out.diagnostics.push_back({Severity::error, "bad_json", "",
                                   "config.json must be a JSON object ({ … }), got " + std::string(root.type_name())});
        return out;
    }
    if (const hf::DuplicateKeys& dup = parsed.duplicates; dup.count > 0) {
        out.diagnostics.push_back({Severity::warning, "duplicate_key", dup.first_path,
                                   dup.first_path + " is spelled twice in one object; the last value is read (as "
                                   "Python's json and transformers do)" +
                                       (dup.count > 1 ? "; " + std::to_string(dup.count - 1) + " more repeated key(s) in the file"
                                                      : std::string())});
    }
    for (const char* wrapper : {"text_config", "llm_config", "language_config"}) {
        // transformers builds the sub-config from a dict (or None → the class default); anything else is a broken
        // file, and reading on from the top level would price the vision wrapper's few keys as the model.
        auto it = root.find(wrapper);
        if (it == root.end() || it->is_null() || it->is_object()) continue;
        out.diagnostics.push_back({Severity::error, "wrong_type", wrapper,
                                   std::string(wrapper) + " is the " + it->type_name() + " " + shown_value(*it, 40) +
                                       "; expected an object holding the language model's keys ({\"hidden_size\": …, "
                                       "\"num_hidden_layers\": …}), or null / left out for a text-only model"});
    }
    KeyReader keys(root, out.diagnostics, out.spec.provenance);
    keys.set_non_finite(std::move(non_finite.members));
    read_identity(keys, root, out);
    ModelSpec& s = out.spec;
    auto layers = keys.integer({"num_hidden_layers", "n_layer", "num_layers", "n_layers"}, "num_hidden_layers", 1,
                               kMaxLayers);
    if (!layers && !has_error(out.diagnostics)) {
        keys.error("missing_key", keys.prefix() + "num_hidden_layers",
                   "num_hidden_layers is missing: add the number of transformer blocks (e.g. 32 for Llama 3.1 8B)");
    }
    s.num_hidden_layers = as_int(layers);
    s.hidden_size = as_int(keys.integer({"hidden_size", "n_embd", "d_model"}, "hidden_size", 1, kMaxDim));
    if (s.hidden_size == 0 && !has_error(out.diagnostics)) {
        keys.error("missing_key", keys.prefix() + "hidden_size",
                   "hidden_size is missing: add the model width (e.g. 4096 for Llama 3.1 8B)");
    }
    hf::read_context_limits(keys, out);
    Attn attn = read_attention(keys, out);
    read_mla(keys, out.arch);
    run_mla_as_plain(keys, out, attn);
    read_moe_and_mlp(keys, out);
    read_recurrent_dims(keys, out);
    read_dtype_and_quant(keys, out.arch);
    out.spec.torch_dtype = out.arch.torch_dtype;  // kv_cache_dtype auto resolves from it (kv_format.h)
    out.spec.checkpoint_kv_cache_dtype = out.arch.kv_cache_quant;
    int model_bytes = dtype_bytes(out.arch.torch_dtype);
    if (model_bytes == 0) {
        model_bytes = 2;
        const std::string& d = out.arch.torch_dtype;
        keys.warning("assumed", "torch_dtype",
                     (d.empty() ? std::string("torch_dtype missing")
                                : "torch_dtype " + shown_value(nlohmann::json(d), 40) +
                                      " is not a float type (valid: bfloat16, float16, float32)") +
                         ": assumed bfloat16 (2 bytes) for the model dtype");
    }
    check_architecture_support(keys, out);
    if (has_error(out.diagnostics) || s.num_hidden_layers == 0) return out;
    std::vector<std::string_view> archs(out.arch.architectures.begin(), out.arch.architectures.end());
    if (is_encoder_only(out.arch.model_type, archs)) {
        // vLLM gives bidirectional encoders EncoderOnlyAttentionSpec (max_memory_usage_bytes 0): nothing is cached
        // between requests, so only the weights (and activations) take memory.
        out.arch.encoder_only = true;
        s.layers.assign(static_cast<std::size_t>(s.num_hidden_layers), NoCache{});
        keys.note_source("layers", "encoder-only model (" + out.arch.model_type + "): no KV cache");
        out.diagnostics.push_back({Severity::info, "encoder_only", "model_type",
                                   "model_type " + out.arch.model_type +
                                       " is an encoder-only (embedding / classification) model: no KV cache; "
                                       "weights only"});
    } else {
        type_layers(keys, out, attn, model_bytes);
    }
    note_defaults_used(keys, out);
    if (!has_error(out.diagnostics)) s.num_parameters = count_parameters(s, out.arch).total();
    return out;
}

}  // namespace kvcalc
