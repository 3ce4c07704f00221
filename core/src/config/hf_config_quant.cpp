// read_quantization: quantization_config → weights format and checkpoint KV cache dtype (hf_config_quant.h).
#include "config/hf_config_quant.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string_view>
#include <tuple>

#include "kvcalc/base/json_safety.h"

namespace kvcalc::hf {

namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

/// True for what Python's `or` chain takes: not null, not false / 0, not an empty string, object or array.
bool truthy(const nlohmann::json* v) {
    if (!v || v->is_null()) return false;
    if (v->is_boolean()) return v->get<bool>();
    if (v->is_number()) return v->get<double>() != 0;
    if (v->is_string() || v->is_object() || v->is_array()) return !v->empty() && !(v->is_string() && v->get<std::string>().empty());
    return true;
}

const nlohmann::json* member(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

/// The cache dtype vLLM stores for kv_cache_dtype auto when the checkpoint quantizes the KV cache, else "".
/// ModelOpt (vllm/utils/torch_utils.py resolve_kv_cache_dtype_string → get_kv_cache_quant_algo_string): quant_method
/// modelopt* (or producer.name modelopt, which _normalize_quantization_config turns into it); the first set of
/// quantization.kv_cache_scheme, kv_cache_scheme, quantization.kv_cache_quant_algo, kv_cache_quant_algo; "fp8" in any
/// case, or {dynamic: false, num_bits: 8, type: float}, maps to fp8_e4m3 (MODELOPT_TO_VLLM_KV_CACHE_DTYPE_MAP); any
/// other value falls back to auto with vLLM's warning. compressed-tensors: a kv_cache_scheme makes Attention.__init__
/// (vllm/model_executor/layers/attention/attention.py) switch an auto cache to "fp8", e4m3 on CUDA.
std::string checkpoint_kv_dtype(KeyReader& keys, const nlohmann::json& q, const std::string& path) {
    std::string method;
    if (const auto* m = member(q, "quant_method"); m && m->is_string()) method = lower(m->get<std::string>());
    if (const auto* p = member(q, "producer"); method.empty() && p && p->is_object()) {
        if (const auto* n = member(*p, "name"); n && n->is_string() && n->get<std::string>() == "modelopt")
            method = "modelopt";
    }
    if (method.rfind("modelopt", 0) == 0) {
        const auto* inner_p = member(q, "quantization");
        const nlohmann::json& inner = inner_p && inner_p->is_object() ? *inner_p : q;
        const nlohmann::json* kv = nullptr;
        std::string key;
        for (auto [j, k, name] : {std::tuple{&inner, "kv_cache_scheme", "quantization.kv_cache_scheme"},
                                  std::tuple{&q, "kv_cache_scheme", "kv_cache_scheme"},
                                  std::tuple{&inner, "kv_cache_quant_algo", "quantization.kv_cache_quant_algo"},
                                  std::tuple{&q, "kv_cache_quant_algo", "kv_cache_quant_algo"}}) {
            if (truthy(member(*j, k))) {
                kv = member(*j, k);
                key = path + "." + (j == &q ? std::string(k) : std::string(name));
                break;
            }
        }
        if (!kv) return "";
        bool fp8 = false;
        if (kv->is_object()) {
            const auto* dyn = member(*kv, "dynamic");
            const auto* bits = member(*kv, "num_bits");
            const auto* type = member(*kv, "type");
            fp8 = dyn && dyn->is_boolean() && !dyn->get<bool>() && bits && bits->is_number_integer() &&
                  bits->get<std::int64_t>() == 8 && type && type->is_string() && type->get<std::string>() == "float";
        } else if (kv->is_string()) {
            fp8 = lower(kv->get<std::string>()) == "fp8";
        } else {
            return "";
        }
        if (fp8) {
            keys.note_source("kv_cache_quant", "config.json: " + key + " (ModelOpt)");
            return "fp8_e4m3";
        }
        keys.warning("kv_quant_ignored", key,
                     key + " is " + shown_value(*kv, 60) + ": vLLM knows only FP8 here, warns and keeps "
                     "kv_cache_dtype auto in the model dtype");
        return "";
    }
    if (method == "compressed-tensors" || method == "compressed_tensors") {
        const auto* kv = member(q, "kv_cache_scheme");
        if (!kv || kv->is_null()) return "";
        keys.note_source("kv_cache_quant", "config.json: " + path + ".kv_cache_scheme (compressed-tensors)");
        return "fp8_e4m3";
    }
    return "";
}


/// The weight widths a quantizer stores, from the code that loads it; a method not listed accepts 1–16.
struct BitsRule {
    std::string_view method;
    std::array<int, 4> valid;  ///< 0 = unused slot
    std::string_view valid_text;
    std::string_view source;
};
constexpr std::array<BitsRule, 3> kBitsRules = {{
    {"gptq", {2, 3, 4, 8}, "2, 3, 4 or 8", "transformers GPTQConfig.post_init"},
    {"auto-round", {2, 3, 4, 8}, "2, 3, 4 or 8", "transformers AutoRoundConfig.post_init"},
    {"awq", {4, 0, 0, 0}, "4", "vLLM AWQConfig: only 4-bit AWQ is supported"},
}};

const BitsRule* bits_rule(const std::string& method) {
    for (const auto& r : kBitsRules)
        if (r.method == method) return &r;
    return nullptr;
}

/// A whole-number bit width from quantization_config (the first of bits / w_bit / num_bits / weight_bits), checked
/// against the method's widths. Absent → nullopt; a wrong type or width → an error naming the key, nullopt.
std::optional<int> read_bits(KeyReader& keys, const nlohmann::json& q, const std::string& path,
                             const BitsRule* rule, bool& reported) {
    for (const char* k : {"bits", "w_bit", "num_bits", "weight_bits"}) {
        const nlohmann::json* b = member(q, k);
        if (!b || b->is_null()) continue;
        const std::string key = path + "." + k;
        const std::string valid = rule ? std::string(rule->valid_text) : std::string("1–16 (quantizers use 2–8)");
        if (!b->is_number_integer()) {
            std::string hint;
            if (b->is_string()) {
                const std::string t = b->get<std::string>();
                const bool digits = !t.empty() && t.size() < 4 &&
                                    std::all_of(t.begin(), t.end(), [](unsigned char c) { return std::isdigit(c); });
                if (digits) hint = ": write " + t + " without the quotes";
            }
            keys.error("wrong_type", key,
                       key + " is " + shown_value(*b, 40) + "; expected a whole number of bits per weight (" + valid +
                           ")" + hint);
            reported = true;
            return std::nullopt;
        }
        // Compared as int64 / uint64 so that a huge value never wraps through get<int>().
        bool ok = b->is_number_unsigned() ? b->get<std::uint64_t>() >= 1 && b->get<std::uint64_t>() <= 16
                                          : b->get<std::int64_t>() >= 1 && b->get<std::int64_t>() <= 16;
        if (ok && rule) ok = std::find(rule->valid.begin(), rule->valid.end(), b->get<int>()) != rule->valid.end();
        if (!ok) {
            keys.error("out_of_range", key,
                       key + " is " + shown_value(*b, 40) + ": " +
                           (rule ? "quant_method " + std::string(rule->method) + " stores " + valid +
                                       " bits per weight (" + std::string(rule->source) + ")"
                                 : "weight bit widths are " + valid));
            reported = true;
            return std::nullopt;
        }
        keys.note_source("quant_bits", "config.json: " + key);
        return b->get<int>();
    }
    return std::nullopt;
}

/// A boolean flag of the bitsandbytes dict; a non-boolean value is an error naming the key.
std::optional<bool> bnb_flag(KeyReader& keys, const nlohmann::json& q, const std::string& path, const char* k) {
    const nlohmann::json* v = member(q, k);
    if (!v || v->is_null()) return std::nullopt;
    if (!v->is_boolean()) {
        keys.error("wrong_type", path + "." + k, path + "." + k + " is " + shown_value(*v, 40) + "; expected true or false");
        return std::nullopt;
    }
    return v->get<bool>();
}

/// bitsandbytes as vLLM loads a pre-quantized checkpoint (vllm/model_executor/layers/quantization/bitsandbytes.py
/// BitsAndBytesConfig.from_config: load_in_8bit defaults to false, load_in_4bit to true;
/// model_loader/bitsandbytes_loader.py: load_in_8bit picks the 8-bit path). 4-bit (nf4 or fp4, the same size):
/// two weights per byte plus one absmax per block of 64 weights (bitsandbytes nn/modules.py Params4bit, blocksize
/// 64 on CUDA), kept in fp32 on the GPU — the loader's _dequantize_dq expands double-quantized absmax back to fp32.
/// 8-bit (LLM.int8()): one byte per weight plus an fp32 scale per output row (negligible).
void read_bitsandbytes(KeyReader& keys, const nlohmann::json& q, const std::string& path, HfArchitecture& h) {
    const auto in8 = bnb_flag(keys, q, path, "load_in_8bit");
    const auto in4 = bnb_flag(keys, q, path, "load_in_4bit");
    if (in8.value_or(false) && in4.value_or(false)) {
        keys.error("inconsistent", path + ".load_in_4bit",
                   path + ".load_in_4bit and " + path + ".load_in_8bit are both true; a bitsandbytes checkpoint is "
                   "one or the other (transformers' BitsAndBytesConfig refuses both): set one to false");
        return;
    }
    h.quant_method = "bitsandbytes";
    if (in8.value_or(false)) {
        h.quant_bits = 8;
        keys.note_source("quant_bits", "config.json: " + path + ".load_in_8bit (bitsandbytes LLM.int8())");
        return;
    }
    h.quant_bits = 4;
    h.quant_group_size = 64;
    h.quant_scale_bytes = 4;
    keys.note_source("quant_bits", "config.json: " + path + (in4 ? ".load_in_4bit" : " (load_in_4bit absent: vLLM "
                                                                                    "reads bitsandbytes as 4-bit)") +
                                       "; absmax fp32 per 64 weights");
    if (const nlohmann::json* skip = member(q, "llm_int8_skip_modules"); skip && skip->is_array() && !skip->empty()) {
        keys.info("weights_partly_16bit", path + ".llm_int8_skip_modules",
                  path + ".llm_int8_skip_modules keeps " + std::to_string(skip->size()) +
                      " module name(s) unquantized; kvcalc prices every linear layer but the embeddings and lm_head "
                      "at 4 bits, so the real weights are somewhat larger (give weights_gb to be exact)");
    }
    if (const nlohmann::json* t = member(q, "bnb_4bit_quant_type"); t && !t->is_null()) {
        const bool ok = t->is_string() && (t->get<std::string>() == "nf4" || t->get<std::string>() == "fp4");
        if (!ok) {
            keys.error("out_of_range", path + ".bnb_4bit_quant_type",
                       path + ".bnb_4bit_quant_type is " + shown_value(*t, 40) +
                           "; valid: \"nf4\" or \"fp4\" (the two 4-bit codes bitsandbytes has)");
        }
    }
    if (const nlohmann::json* st = member(q, "bnb_4bit_quant_storage");
        st && st->is_string() && st->get<std::string>() != "uint8") {
        keys.warning("engine_refuses", path + ".bnb_4bit_quant_storage",
                     path + ".bnb_4bit_quant_storage is " + shown_value(*st, 40) +
                         ": vLLM loads only \"uint8\" and refuses this checkpoint (Unsupported bnb_4bit_quant_storage); "
                         "the weights are priced at 4 bits all the same");
    }
}

/// A bits / num_bits key in an fp8 quantization_config that is not 8: a warning naming it (vLLM ignores it).
void note_fp8_bits(KeyReader& keys, const nlohmann::json& q, const std::string& path) {
    for (const char* k : {"bits", "w_bit", "num_bits", "weight_bits"}) {
        const nlohmann::json* b = member(q, k);
        if (!b || b->is_null()) continue;
        if (b->is_number_integer() && !b->is_number_unsigned() && b->get<std::int64_t>() == 8) return;
        if (b->is_number_unsigned() && b->get<std::uint64_t>() == 8) return;
        const std::string key = path + "." + std::string(k);
        keys.warning("ignored_key", key,
                     key + " is " + shown_value(*b, 40) + ", but quant_method fp8 stores one byte per weight "
                     "(float8_e4m3fn) and vLLM's Fp8Config reads no bit width: priced at 8 bits");
        return;
    }
}

/// ModelOpt names its scheme in quant_algo (top level, or under `quantization` as hf_quant_config.json has it):
/// FP8 variants store one byte per weight, NVFP4 four bits (vLLM ModelOptFp8Config / ModelOptNvFp4Config).
void read_modelopt_algo(KeyReader& keys, const nlohmann::json& q, const std::string& path, HfArchitecture& h) {
    const nlohmann::json* algo = member(q, "quant_algo");
    std::string key = path + ".quant_algo";
    if (!algo) {
        if (const auto* inner = member(q, "quantization"); inner && inner->is_object()) {
            algo = member(*inner, "quant_algo");
            key = path + ".quantization.quant_algo";
        }
    }
    if (!algo || !algo->is_string()) return;
    const std::string a = lower(algo->get<std::string>());
    if (a.rfind("fp8", 0) == 0) {
        h.quant_bits = 8;
    } else if (a == "nvfp4") {
        h.quant_bits = 4;
    } else {
        keys.warning("weights_layout_unknown", key,
                     key + " is " + shown_value(*algo, 40) + ": kvcalc prices ModelOpt FP8 and NVFP4 only, and "
                     "prices this one as NVFP4; give weights_gb for the real size");
        return;
    }
    keys.note_source("quant_bits", "config.json: " + key);
}

}  // namespace

void read_quantization(KeyReader& keys, HfArchitecture& h) {
    std::string path;
    const nlohmann::json* q = keys.raw({"quantization_config", "compression_config"}, path);
    if (!q) return;
    if (!q->is_object()) {
        keys.error("wrong_type", path,
                   path + " is " + shown_value(*q, 40) + "; expected an object such as {\"quant_method\": \"awq\", "
                   "\"bits\": 4, \"group_size\": 128}, or no key for an unquantized checkpoint");
        return;
    }
    const nlohmann::json* m = member(*q, "quant_method");
    if (m && !m->is_null() && !m->is_string()) {
        keys.error("wrong_type", path + ".quant_method",
                   path + ".quant_method is " + shown_value(*m, 40) + "; expected a string such as \"gptq\", \"awq\", "
                   "\"bitsandbytes\", \"fp8\" or \"compressed-tensors\"");
        return;
    }
    std::string method = m && m->is_string() ? lower(m->get<std::string>()) : std::string();
    h.kv_cache_quant = checkpoint_kv_dtype(keys, *q, path);
    const bool bnb_flags = member(*q, "load_in_4bit") || member(*q, "load_in_8bit");
    if (method == "bitsandbytes" || (method.empty() && bnb_flags)) {
        // transformers reads a dict with only the load_in flags as bitsandbytes too (quantizers/auto.py).
        read_bitsandbytes(keys, *q, path, h);
        keys.note_source("quantization", "config.json: " + path);
        return;
    }
    h.quant_method = m && m->is_string() ? m->get<std::string>() : std::string();
    const BitsRule* rule = bits_rule(method);
    bool reported = false;
    if (method == "fp8") {
        // vLLM's Fp8Config.from_config reads no bit width: the weights are float8_e4m3fn, one byte each, whatever
        // a bits key says, so a contradicting one is named and the weights priced as vLLM loads them.
        note_fp8_bits(keys, *q, path);
    } else if (auto bits = read_bits(keys, *q, path, rule, reported)) {
        h.quant_bits = *bits;
    }
    if (!reported && h.quant_bits == 0 && method == "gptq") {
        keys.error("missing_key", path + ".bits",
                   path + ".bits is missing: a GPTQ checkpoint must say its width (2, 3, 4 or 8 bits per weight); "
                   "transformers' GPTQConfig(bits) and vLLM's GPTQ config both require it");
    } else if (!reported && h.quant_bits == 0 && (method == "awq" || method == "auto-round")) {
        h.quant_bits = 4;
        keys.warning("assumed", path + ".bits",
                     path + ".bits is missing: read as 4 bits per weight, transformers' " +
                         std::string(method == "awq" ? "AwqConfig" : "AutoRoundConfig") + " default" +
                         (method == "awq" ? "; vLLM's AWQ config needs w_bit or bits and refuses this file as it is"
                                          : ""));
        keys.note_source("quant_bits", "assumed 4 (transformers default)");
    }
    for (const char* k : {"group_size", "q_group_size"}) {
        auto g = q->find(k);
        if (g == q->end() || g->is_null()) continue;
        // -1: one scale per output channel (GPTQConfig / AwqConfig "per-column quantization"). An unsigned value
        // above INT64_MAX (2^64 − 1) must not wrap to -1.
        const bool whole = g->is_number_integer() && !(g->is_number_unsigned() && g->get<std::uint64_t>() > (1u << 20));
        const std::int64_t v = whole ? g->get<std::int64_t>() : 0;
        if (whole && ((v > 0 && v <= 1 << 20) || v == -1)) {
            h.quant_group_size = static_cast<int>(v);
        } else {
            keys.error("out_of_range", path + "." + k,
                       path + "." + k + " is " + shown_value(*g) + "; expected the number of weights sharing one "
                       "scale, 1..1048576 (GPTQ and AWQ use 32, 64 or 128), or -1 for one scale per output channel");
        }
    }
    // compressed-tensors keeps the weight scheme one level down: config_groups.<name>.weights.
    auto groups = q->find("config_groups");
    if (groups != q->end() && groups->is_object()) {
        for (const auto& g : *groups) {
            if (!g.is_object()) continue;
            auto w = g.find("weights");
            if (w == g.end() || !w->is_object()) continue;
            auto nb = w->find("num_bits");
            if (nb != w->end() && nb->is_number_integer() && h.quant_bits == 0) {
                const std::int64_t v = nb->get<std::int64_t>();
                if (v >= 1 && v <= 16) h.quant_bits = static_cast<int>(v);
            }
            auto gs = w->find("group_size");
            if (gs != w->end() && gs->is_number_integer() && h.quant_group_size == 0 && gs->get<std::int64_t>() > 0 &&
                gs->get<std::int64_t>() <= 1 << 20)
                h.quant_group_size = gs->get<int>();
            auto ty = w->find("type");
            if (ty != w->end() && ty->is_string() && ty->get<std::string>() == "float" && h.quant_bits == 8) {
                h.quant_method = "fp8";
            }
        }
    }
    if (method.rfind("modelopt", 0) == 0 && h.quant_bits == 0) read_modelopt_algo(keys, *q, path, h);
    keys.note_source("quantization", "config.json: " + path);
}

}  // namespace kvcalc::hf
