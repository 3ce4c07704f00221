// Checkpoint weights from real safetensors indexes (tests/data/checkpoints, sources in its SOURCES.tsv) and the
// TP placement rules of vLLM's layers (each case names the vLLM file and function the expected value follows).
#include <doctest/doctest.h>

#include <string>

#include "kvcalc/config/checkpoint_weights.h"
#include "kvcalc/config/hf_config.h"
#include "kvcalc/config/safetensors.h"
#include "test_data.h"

using namespace kvcalc;

namespace {

struct Priced {
    HfConfig cfg;
    SafetensorsIndex index;
    CheckpointWeights w;
};

Priced price_dir(const std::string& dir, const std::vector<SafetensorsTensor>& headers = {}) {
    Priced p;
    p.cfg = read_hf_config(test::data_file("checkpoints/" + dir + "/config.json"));
    p.index = read_safetensors_index(test::data_file("checkpoints/" + dir + "/model.safetensors.index.json"));
    p.w = price_checkpoint(p.index, headers, p.cfg.arch, p.cfg.spec, {});
    return p;
}

SafetensorsTensor t(std::string name, std::string dtype, std::vector<std::int64_t> shape) {
    SafetensorsTensor x{std::move(name), std::move(dtype), std::move(shape), 0};
    x.bytes = safetensors_dtype_bytes(x.dtype);
    for (auto d : x.shape) x.bytes *= d;
    return x;
}

std::int64_t rank_bytes(const std::vector<SafetensorsTensor>& ts, const HfConfig& c, int tp) {
    SafetensorsIndex none;
    return price_checkpoint(none, ts, c.arch, c.spec, {}).bytes_per_rank_by_tp.at(static_cast<std::size_t>(tp - 1));
}

}  // namespace

TEST_CASE("index: every reference checkpoint loads its total_size unless vLLM skips tensors, with the reason") {
    // total_size is each index's metadata.total_size (tests/data/checkpoints/SOURCES.tsv).
    for (const char* dir : {"devstral-small-2507", "wizardlm-2-8x22b", "qwen3.5-18b-reap-a3b-coding", "qwen-vl-chat-int4",
                            "meta-llama-3-8b-instruct-fp8", "gpt-oss-20b", "medgemma-27b-it", "gemma-4-31b",
                            "molmo-7b-d-0924-nf4"}) {
        CAPTURE(dir);
        const Priced p = price_dir(dir);
        REQUIRE(p.index.diagnostics.empty());
        CHECK(p.w.skipped.empty());
        CHECK(p.w.loaded_bytes == p.index.total_size_bytes);
        CHECK(p.w.bytes_per_rank_by_tp.at(0) == p.index.total_size_bytes);
    }
}

TEST_CASE("index: float32 Reflection-70B is held as 16-bit (vllm/config/model.py _get_and_verify_dtype, dtype auto)") {
    const Priced p = price_dir("reflection-llama-3.1-70b");
    CHECK(p.index.total_size_bytes == 282215219200);
    CHECK(p.w.loaded_bytes == 141107609600);  // 282,215,219,200 / 2
}

TEST_CASE("index: Falcon-180B's lm_head.weight is skipped, FalconConfig ties by default (falcon.py FalconForCausalLM)") {
    const Priced p = price_dir("falcon-180b-chat");
    CHECK(p.cfg.arch.tie_word_embeddings);
    REQUIRE(p.w.skipped.size() == 1);
    CHECK(p.w.skipped[0].first_name == "lm_head.weight");
    CHECK(p.w.skipped[0].bytes == 65024LL * 14848 * 2);  // vocab_size × hidden_size × bf16
    CHECK(p.w.loaded_bytes == 359045130240LL - 1930952704LL);
}

TEST_CASE("index: MiMo-7B's mtp_layers are skipped without speculative decoding (mimo.py MiMoModel.load_weights)") {
    const Priced p = price_dir("mimo-7b");
    REQUIRE(p.w.skipped.size() == 1);
    CHECK(p.w.skipped[0].count == 16);
    // One decoder layer of config.json widths (hidden 4096, 32 × 128 q, 8 × 128 k/v with biases, intermediate
    // 11008), input_proj 8192 → 4096 and five norms: 210,790,400 parameters × 2 bytes.
    CHECK(p.w.skipped[0].bytes == 421580800);
    CHECK(p.w.loaded_bytes == 15666819072LL - 421580800LL);
    CheckpointLoadOptions mtp;
    mtp.load_mtp_layers = true;
    CHECK(price_checkpoint(p.index, {}, p.cfg.arch, p.cfg.spec, mtp).loaded_bytes == 15666819072LL);
}

TEST_CASE("index: the per-card split keeps norms whole and splits the rest (linear.py, layernorm.py)") {
    const Priced p = price_dir("devstral-small-2507");
    const double total = static_cast<double>(p.index.total_size_bytes);
    const auto& r = p.w.bytes_per_rank_by_tp;
    // Mistral-Small 24B: 40 layers × 2 norms + 1 final norm of 5120 = 414,720 parameters are whole on each rank.
    for (int tp : {2, 4, 8}) {
        CAPTURE(tp);
        const double extra = static_cast<double>(r.at(static_cast<std::size_t>(tp - 1))) - total / tp;
        CHECK(extra > 0.9 * 414720 * 2 * (1.0 - 1.0 / tp));
        CHECK(extra < 1.1 * 414720 * 2 * (1.0 - 1.0 / tp));
    }
}

TEST_CASE("headers: vocab rows are padded to 64 before the split (vocab_parallel_embedding.py pad_vocab_size)") {
    // GPT-2: vocab 50257 → 50304 padded rows; TP 4 → 12576 rows × 768 × 2 bytes on each rank.
    const HfConfig c = read_hf_config(
        R"({"model_type":"gpt2","architectures":["GPT2LMHeadModel"],"vocab_size":50257,"n_embd":768,"n_layer":12,
            "n_head":12,"n_positions":1024,"torch_dtype":"float16","tie_word_embeddings":true})");
    CHECK(rank_bytes({t("transformer.wte.weight", "F16", {50257, 768})}, c, 4) == 12576LL * 768 * 2);
}

TEST_CASE("headers: K/V heads are replicated once TP exceeds num_key_value_heads (linear.py QKVParallelLinear)") {
    // Qwen2.5-7B: 4 KV heads of 128 over hidden 3584. At TP 8 each rank keeps one whole KV head, not half of one.
    const HfConfig c = read_hf_config(
        R"({"model_type":"qwen2","architectures":["Qwen2ForCausalLM"],"vocab_size":152064,"hidden_size":3584,
            "intermediate_size":18944,"num_hidden_layers":28,"num_attention_heads":28,"num_key_value_heads":4,
            "max_position_embeddings":32768,"torch_dtype":"bfloat16","tie_word_embeddings":false})");
    const auto k = t("model.layers.0.self_attn.k_proj.weight", "BF16", {512, 3584});
    CHECK(rank_bytes({k}, c, 8) == 128LL * 3584 * 2);
    CHECK(rank_bytes({k}, c, 4) == 128LL * 3584 * 2);
    CHECK(rank_bytes({k}, c, 2) == 256LL * 3584 * 2);
    // q_proj is column parallel: 3584 rows / 8.
    CHECK(rank_bytes({t("model.layers.0.self_attn.q_proj.weight", "BF16", {3584, 3584})}, c, 8) == 448LL * 3584 * 2);
}

TEST_CASE("headers: row-parallel weights split, their biases and norms stay whole (linear.py RowParallelLinear)") {
    const Priced p = price_dir("gpt-oss-20b");
    // gpt-oss-20b: hidden 2880, 64 × 64 query width; o_proj has a bias (attention_bias).
    const std::vector<SafetensorsTensor> ts = {t("model.layers.0.self_attn.o_proj.weight", "BF16", {2880, 4096}),
                                               t("model.layers.0.self_attn.o_proj.bias", "BF16", {2880}),
                                               t("model.layers.0.input_layernorm.weight", "BF16", {2880}),
                                               t("model.layers.0.mlp.router.weight", "BF16", {32, 2880})};
    CHECK(rank_bytes(ts, p.cfg, 2) == 2880LL * 4096 * 2 / 2 + 2880 * 2 + 2880 * 2 + 32 * 2880 * 2);
}

TEST_CASE("headers: mxfp4 expert blocks and scales split by TP (fused_moe/layer.py FusedMoE, intermediate dim)") {
    const Priced p = price_dir("gpt-oss-20b");
    // gpt-oss-20b: 32 experts, 2 × 2880 gate_up rows, 2880 / 32 blocks of 16 bytes; scales one byte per block.
    const std::vector<SafetensorsTensor> ts = {t("model.layers.0.mlp.experts.gate_up_proj_blocks", "U8", {32, 5760, 90, 16}),
                                               t("model.layers.0.mlp.experts.gate_up_proj_scales", "U8", {32, 5760, 90})};
    CHECK(rank_bytes(ts, p.cfg, 4) == (32LL * 5760 * 90 * 16 + 32LL * 5760 * 90) / 4);
}

TEST_CASE("headers: GPTQ g_idx of a column-parallel layer stays whole (gptq.py GPTQLinearMethod, input_dim 0)") {
    const Priced p = price_dir("qwen-vl-chat-int4");
    // Qwen-VL: c_attn packs q/k/v of hidden 4096 (32 heads, no GQA); qweight 4096 / 8 rows × 12288 int32 columns.
    const std::vector<SafetensorsTensor> ts = {t("transformer.h.0.attn.c_attn.qweight", "I32", {512, 12288}),
                                               t("transformer.h.0.attn.c_attn.g_idx", "I32", {4096})};
    CHECK(rank_bytes(ts, p.cfg, 2) == 512LL * 12288 * 4 / 2 + 4096 * 4);
}

TEST_CASE("headers: float32 weights count half, float32 scales stay (fp8.py keeps weight_scale float32)") {
    const Priced p = price_dir("meta-llama-3-8b-instruct-fp8");
    const std::vector<SafetensorsTensor> ts = {t("model.norm.weight", "F32", {4096}),
                                               t("model.layers.0.mlp.down_proj.weight_scale", "F32", {}),
                                               t("model.layers.0.mlp.down_proj.weight", "F8_E4M3", {4096, 14336})};
    SafetensorsIndex none;
    const CheckpointWeights w = price_checkpoint(none, ts, p.cfg.arch, p.cfg.spec, {});
    CHECK(w.loaded_bytes == 4096 * 2 + 4 + 4096LL * 14336);
    CHECK(w.bytes_per_rank_by_tp.at(1) == 4096 * 2 + 4 + 4096LL * 14336 / 2);
}

TEST_CASE("safetensors header: 8-byte length + JSON, offsets checked against dtype × shape") {
    const std::string json = R"({"__metadata__":{"format":"pt"},"a.weight":{"dtype":"BF16","shape":[2,3],"data_offsets":[0,12]}})";
    std::string file(8, '\0');
    file[0] = static_cast<char>(json.size());
    file += json;
    const SafetensorsHeader h = read_safetensors_header(file);
    REQUIRE(h.diagnostics.empty());
    REQUIRE(h.tensors.size() == 1);
    CHECK(h.tensors[0].bytes == 12);
    CHECK(read_safetensors_header(file.substr(0, 20)).diagnostics.at(0).code == "header_truncated");
    const SafetensorsHeader bad = read_safetensors_header_json(
        R"({"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,12]}})");
    CHECK(bad.diagnostics.at(0).code == "tensor_size_mismatch");
    CHECK(read_safetensors_index(R"({"metadata":{"total_size":-1},"weight_map":{}})").diagnostics.at(0).field ==
          "metadata.total_size");
    CHECK(read_safetensors_index(R"({"metadata":{}})").diagnostics.at(0).code == "index_no_weight_map");
}
