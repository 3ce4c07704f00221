// Issue 25, the page part: a weights format for every model (the command serves what was priced), a Hub model read
// from the same files as the CLI (config.json, model.safetensors.index.json, shard headers by range requests), and
// links that carry a Hub model as hf=ORG/NAME[@REV].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useSiteAndBrowser, openApp, appState, clickHitbox, waitHitbox, waitState, tapHitbox, touchDrag, mirrorText,
  repoDir, desktop, phone } from './harness.mjs';

const env = useSiteAndBrowser();
const cli = process.env.KVCALC_CLI || path.join(repoDir, 'build/native-release/cli/kvcalc');
const fixtures = path.join(repoDir, 'tests/data/checkpoints');

/** Serves huggingface.co/ORG/NAME/resolve/REV/FILE from tests/data/checkpoints/<dir>/FILE (404 for the rest), with
 *  range requests answered as the Hub answers them (206 and the bytes asked for). Records what was asked. */
async function routeHub(context, repo, dir) {
  const asked = [];
  const root = path.isAbsolute(dir) ? dir : path.join(fixtures, dir);
  await context.route('https://huggingface.co/**', async (route) => {
    const url = new URL(route.request().url());
    asked.push(url.pathname + (route.request().headers().range ? ' ' + route.request().headers().range : ''));
    const prefix = `/${repo}/resolve/main/`;
    const file = url.pathname.startsWith(prefix) ? path.join(root, decodeURIComponent(url.pathname.slice(prefix.length))) : '';
    if (!file || !fs.existsSync(file)) return route.fulfill({ status: 404, body: 'Entry not found' });
    const body = fs.readFileSync(file);
    const range = /bytes=(\d+)-(\d+)/.exec(route.request().headers().range || '');
    if (range) return route.fulfill({ status: 206, body: body.subarray(Number(range[1]), Number(range[2]) + 1) });
    return route.fulfill({ status: 200, body, headers: { 'access-control-allow-origin': '*' } });
  });
  return asked;
}

/** Types `id` into the Hub box and presses Load (desktop). */
async function loadFromHub(page, id) {
  const field = (await appState(page)).hitboxes.hf_load;
  await page.mouse.click(field[0] - 60, field[1] + field[3] / 2);  // the id box left of "Load"
  await page.keyboard.type(id);
  await clickHitbox(page, 'hf_load');
}

test('phone, touch only: "Qwen3 32B, 4-bit, one RTX 5090, 32K" in at most 5 taps; the command serves the 4-bit repo', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  let taps = 0, swipes = 0;
  const tap = async (name) => { await tapHitbox(page, name); taps++; };
  /** Swipes until the widget is in the upper part of the screen, so that its list opens below it. */
  const reveal = async (name) => {
    for (let i = 0; i < 4; i++) {
      const { y } = await waitHitbox(page, name);
      if (y > 120 && y < 320) return;
      await touchDrag(page, 200, 640, y >= 320 ? -Math.min(420, y - 200) : 300);
      swipes++;
      await page.waitForTimeout(300);
    }
  };
  await tap('model_search');
  await page.keyboard.type('qwen3 32b 4-bit', { delay: 20 });
  await tap('model_qwen3-32b_int4');  // one row: the model in that format
  await waitState(page, (s) => s.scenario.model_id === 'qwen3-32b' && s.scenario.weights_dtype === 'int4');
  await reveal('gpu_combo');
  await tap('gpu_combo');
  // The list opens at the current card (RTX 4090, 24 GiB); the 32 GiB RTX 5090 is a few rows further: one swipe
  // inside the list brings it up.
  const list = await waitHitbox(page, 'gpu_option_rtx-4090');
  await touchDrag(page, list.x, list.y, -200);
  swipes++;
  await page.waitForTimeout(300);
  await tap('gpu_option_rtx-5090');
  await waitState(page, (s) => s.scenario.gpu === 'rtx-5090');
  const state = await appState(page);
  assert.equal(state.scenario.max_model_len, 32768, 'the landing 32K context was kept');
  // 4-bit Qwen3 32B: 19.21 GB of weights on a 31.36 GiB card (kvcalc --model qwen3-32b --weights-dtype int4
  // --gpu rtx-5090 --max-model-len 32768: PASS); in bf16 it does not fit (65 GB).
  assert.equal(state.verdict, 'PASS', state.verdict_line);
  assert.match(state.command, /^vllm serve Qwen\/Qwen3-32B-AWQ \\$/m, 'the command loads the 4-bit repo that was priced');
  assert.doesNotMatch(state.command, /vllm serve Qwen\/Qwen3-32B \\/);
  assert.match(await mirrorText(page), /vllm serve Qwen\/Qwen3-32B-AWQ/, 'the screen-reader text names it too');
  assert.match(page.url(), /[?&]wd=int4(&|$)/);
  console.log(`# phone 4-bit flow: ${taps} taps, ${swipes} swipes (${state.verdict_line})`);
  assert.ok(taps <= 5, `taps ${taps}`);
  assert.ok(swipes <= 2, `swipes ${swipes}`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the Hub box reads config.json and the index as the CLI does: the same weights per card', async () => {
  const repo = 'RedHatAI/Meta-Llama-3-8B-Instruct-FP8', dir = 'meta-llama-3-8b-instruct-fp8';
  const context = await env.browser.newContext(desktop);
  const asked = await routeHub(context, repo, dir);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`${env.server.url}?v=2&g=rtx-4090&ctx=8192&tp=2&n=2`);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await loadFromHub(page, repo);
  await waitState(page, (s) => /model\.safetensors\.index\.json of /.test(s.model_status), undefined, 20000);
  const state = await appState(page);
  assert.ok(asked.some((p) => p.endsWith('/config.json')) && asked.some((p) => p.endsWith('/model.safetensors.index.json')));
  assert.ok(asked.some((p) => /model-00001-of-0000\d\.safetensors bytes=0-7$/.test(p)), 'the shard headers were asked for');
  assert.match(state.model_status, /shard headers were not read/, 'a missing shard is said, and the index is used');
  // The CLI on the same files (a local snapshot of them).
  const out = JSON.parse(execFileSync(cli, ['--model', path.join(fixtures, dir), '--gpu', 'rtx-4090',
    '--max-model-len', '8192', '--tp', '2', '--json'], { encoding: 'utf8' }));
  assert.ok(out.terms.weights_bytes > 4e9, `the CLI priced ${out.terms.weights_bytes} B per card`);
  assert.equal(state.terms.weights, out.terms.weights_bytes, 'the page prices the checkpoint\'s exact bytes, as the CLI');
  assert.equal(state.verdict, out.verdict);
  assert.match(state.command, /vllm serve RedHatAI\/Meta-Llama-3-8B-Instruct-FP8 /);
  assert.match(page.url(), /[?&]hf=RedHatAI%2FMeta-Llama-3-8B-Instruct-FP8(&|$)/);
  assert.doesNotMatch(page.url(), /[?&]m=/, 'no stale catalog model in the link');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a link for a Hub model opens the same model and verdict in a fresh page; offline it says so', async () => {
  const repo = 'RedHatAI/Meta-Llama-3-8B-Instruct-FP8', dir = 'meta-llama-3-8b-instruct-fp8';
  const first = await env.browser.newContext(desktop);
  await routeHub(first, repo, dir);
  const page = await first.newPage();
  await page.goto(`${env.server.url}?v=2&g=rtx-3090&ctx=4096`);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await loadFromHub(page, repo);
  await waitState(page, (s) => /of RedHatAI/.test(s.model_status), undefined, 20000);
  const before = await appState(page);
  const mirror = await mirrorText(page);
  await clickHitbox(page, 'copy_link').catch(() => {});
  const link = page.url();
  assert.match(link, /[?&]hf=RedHatAI%2FMeta-Llama-3-8B-Instruct-FP8/);
  assert.doesNotMatch(link, /#cfg=/, 'a Hub model is read again, not carried in the fragment');
  await first.close();

  const fresh = await env.browser.newContext(desktop);
  await routeHub(fresh, repo, dir);
  const again = await fresh.newPage();
  await again.goto(link);
  await again.waitForFunction(() => window.kvcalcState && /of RedHatAI/.test(window.kvcalcState.model_status), null, { timeout: 60000 });
  const after = await appState(again);
  assert.deepEqual(after.url_warnings, []);
  assert.equal(after.scenario.model.display_name, repo);
  assert.equal(after.verdict, before.verdict);
  assert.equal(after.terms.weights, before.terms.weights);
  assert.equal(after.scenario.max_model_len, 4096);
  assert.equal(await mirrorText(again), mirror, 'the same sentence, figure for figure');
  await fresh.close();

  const offline = await env.browser.newContext(desktop);
  await offline.route('https://huggingface.co/**', (route) => route.abort('internetdisconnected'));
  const cut = await offline.newPage();
  await cut.goto(link);
  await cut.waitForFunction(() => window.kvcalcState && window.kvcalcState.url_warnings.length > 0, null, { timeout: 60000 });
  const off = await appState(cut);
  assert.match(off.url_warnings.join(' '), /hf=RedHatAI\/Meta-Llama-3-8B-Instruct-FP8.*Could not reach huggingface\.co/);
  await offline.close();
});

/** A single-file checkpoint of a small Llama: its config.json and a model.safetensors holding only the header (the
 *  8-byte length and the JSON; no tensor data is read by either front end). The layout is transformers'
 *  LlamaForCausalLM state dict. */
function tinyLlama() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvcalc-hub-'));
  const hidden = 256, inter = 512, layers = 2, heads = 4, kv = 2, vocab = 1024, hd = hidden / heads;
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ architectures: ['LlamaForCausalLM'],
    model_type: 'llama', hidden_size: hidden, intermediate_size: inter, num_hidden_layers: layers,
    num_attention_heads: heads, num_key_value_heads: kv, max_position_embeddings: 2048, vocab_size: vocab,
    torch_dtype: 'bfloat16', tie_word_embeddings: false }));
  const shapes = { 'model.embed_tokens.weight': [vocab, hidden], 'model.norm.weight': [hidden], 'lm_head.weight': [vocab, hidden] };
  for (let i = 0; i < layers; i++) {
    const l = `model.layers.${i}.`;
    Object.assign(shapes, { [l + 'input_layernorm.weight']: [hidden], [l + 'post_attention_layernorm.weight']: [hidden],
      [l + 'self_attn.q_proj.weight']: [heads * hd, hidden], [l + 'self_attn.k_proj.weight']: [kv * hd, hidden],
      [l + 'self_attn.v_proj.weight']: [kv * hd, hidden], [l + 'self_attn.o_proj.weight']: [hidden, heads * hd],
      [l + 'mlp.gate_proj.weight']: [inter, hidden], [l + 'mlp.up_proj.weight']: [inter, hidden],
      [l + 'mlp.down_proj.weight']: [hidden, inter] });
  }
  const header = { __metadata__: { format: 'pt' } };
  let at = 0;
  for (const [name, shape] of Object.entries(shapes)) {
    const bytes = shape.reduce((a, b) => a * b, 1) * 2;
    header[name] = { dtype: 'BF16', shape, data_offsets: [at, at + bytes] };
    at += bytes;
  }
  const json = Buffer.from(JSON.stringify(header));
  const len = Buffer.alloc(8);
  len.writeBigUInt64LE(BigInt(json.length));
  fs.writeFileSync(path.join(dir, 'model.safetensors'), Buffer.concat([len, json]));
  return { dir, bytes: at };
}

test('the Hub box reads a shard header by range requests (8 bytes, then the header) and prices it as the CLI does', async () => {
  const repo = 'kvcalc-test/tiny-llama';
  const { dir, bytes } = tinyLlama();
  const context = await env.browser.newContext(desktop);
  const asked = await routeHub(context, repo, dir);
  const page = await context.newPage();
  await page.goto(`${env.server.url}?v=2&g=rtx-4090&ctx=2048&tp=2&n=2`);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await loadFromHub(page, repo);
  await waitState(page, (s) => /shard header of /.test(s.model_status), undefined, 20000);
  assert.ok(asked.some((p) => p.endsWith('/model.safetensors bytes=0-7')), asked.join('\n'));
  assert.ok(asked.some((p) => /\/model\.safetensors bytes=8-\d+$/.test(p)), 'then the header by its length');
  const state = await appState(page);
  const out = JSON.parse(execFileSync(cli, ['--model', dir, '--gpu', 'rtx-4090', '--max-model-len', '2048', '--tp', '2',
    '--json'], { encoding: 'utf8' }));
  assert.equal(out.settings.weights_bytes_total, bytes, 'the CLI counts every tensor of the header');
  assert.equal(state.terms.weights, out.terms.weights_bytes, 'the page places the same tensors per card');
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
