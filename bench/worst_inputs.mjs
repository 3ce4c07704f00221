// Worst-input benchmark for the wasm module (build/wasm-release/site/kvcalc-core.js, the page's core): the same
// inputs as bench/worst_inputs.cpp, one evaluate() each in a fresh module instance, printing wall time and the wasm
// heap it grew to. Prints numbers, asserts nothing. Targets: 1 s and 256 MB per answer.
//   node bench/worst_inputs.mjs
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const modulePath = path.join(here, '..', 'build', 'wasm-release', 'site', 'kvcalc-core.js');
const load = createRequire(import.meta.url)(modulePath);

// Llama 3.1 8B's keys (meta-llama/Llama-3.1-8B config.json), then the generated part (tests/core/worst_inputs.h).
const head = '{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,' +
  '"num_attention_heads":32,"num_key_value_heads":8,"head_dim":128,"intermediate_size":14336,' +
  '"vocab_size":128256,"max_position_embeddings":8192,"torch_dtype":"bfloat16",';
const nanConfig = (n) => head + '"num_hidden_layers":32,"x":[' + Array(n).fill('NaN').join(',') + ']}';
const manyKeys = (n) => head + '"num_hidden_layers":32' + Array.from({ length: n }, (_, i) => `,"k${i}":NaN`).join('') + '}';
const layers = (n) => head + `"sliding_window":4096,"num_hidden_layers":${n},"layer_types":[` +
  Array.from({ length: n }, (_, i) => (i % 6 === 5 ? '"full_attention"' : '"sliding_attention"')).join(',') + ']}';
const request = (config, action) => JSON.stringify({ schema: 1, action, config_json: config, gpu: 'h100-80gb', max_model_len: 8192 });

const inputs = [
  ['config.json, 1M NaN tokens (4.0 MB), predict', request(nanConfig(1000000), 'predict')],
  ['config.json, 1M NaN tokens (4.0 MB), solve', request(nanConfig(1000000), 'solve')],
  ['config.json, 49k NaN-valued keys (under the 50k limit), predict', request(manyKeys(49000), 'predict')],
  ['config.json, 300k NaN-valued keys (refused), predict', request(manyKeys(300000), 'predict')],
  ['config.json, 10,000 typed layers, predict', request(layers(10000), 'predict')],
  ['config.json, 10,000 typed layers, solve', request(layers(10000), 'solve')],
];

console.log('kvcalc worst inputs, wasm module under node: one evaluate() each in a fresh instance (wall time, wasm heap)');
for (const [name, req] of inputs) {
  const core = await load();
  // HEAP8 is the module's view of its memory; emscripten replaces it when the heap grows.
  const heap = () => (core.HEAP8 ? core.HEAP8.length : NaN);
  const heap0 = heap();
  const t0 = performance.now();
  const out = core.evaluate(req);
  const ms = performance.now() - t0;
  const ok = JSON.parse(out).ok;
  console.log(`  ${name.padEnd(48)} ${(ms / 1000).toFixed(3).padStart(7)} s  heap ${(heap() / 2 ** 20).toFixed(0).padStart(4)} MiB` +
    ` (from ${(heap0 / 2 ** 20).toFixed(0)})  ${out.length} B out  ok=${ok}`);
}
