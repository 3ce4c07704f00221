// The UI test's minor findings, each as the flow that showed it (../shared/reference/ui-usertest-2.md §5, §7, Findings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { qwen3_32b_awq } from './configs.mjs';
import { useSiteAndBrowser, openApp, appState, wheelClickHitbox, waitState, mirrorText, desktop } from './harness.mjs';

const env = useSiteAndBrowser();


test('llama.cpp FAIL names the KV of all -np slots, and the table says what llama.cpp reserves', async () => {
  // Llama 3.1 8B: 131,072 B of KV per token; 2 slots of 65,536 tokens (-c 131,072) are 16 GiB, one slot 8 GiB.
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=2&m=llama-3.1-8b&g=rtx-4090&e=llama.cpp&kv=bf16&ctx=65536&seqs=2`, desktop);
  const state = await appState(page);
  assert.equal(state.verdict, 'FAIL');
  assert.match(state.reason, /the cache of all 2 -np slots .* needs 17\.18 GB/);
  const banner = state.drawn_text.result_banner.replace(/\n/g, ' ');
  assert.match(banner, /the cache for 2 slots of 65,536 tokens \(-np 2, -c 131,072\) needs 16\.00 GiB/);
  assert.doesNotMatch(banner, /one 65,536-token sequence/);
  assert.equal(state.drawn_text.result_total_label, 'Total llama.cpp reserves');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 30 KB link lists five problems and a count, and the controls stay on the first screen', async () => {
  const junk = Array.from({ length: 2000 }, (_, i) => `zz${i}=${'x'.repeat(8)}`).join('&');
  const { context, page } = await openApp(env.browser, `${env.server.url}?v=2&m=qwen3-8b&${junk}`, desktop);
  const state = await appState(page);
  assert.ok(state.url_warnings.length > 5, `${state.url_warnings.length} problems in the link`);
  assert.equal(state.drawn_text.url_warnings_shown, '5');
  assert.ok(state.hitboxes.model_search[1] < 800, `model search at y ${state.hitboxes.model_search[1]}`);
  const text = await mirrorText(page);
  assert.equal((text.match(/Link problem:/g) || []).length, 5);
  assert.match(text, /And \d+ more link problems\./);
  await context.close();
});

test('Back returns to the settings before a change, inside the app', async () => {
  const { context, page } = await openApp(env.browser, `${env.server.url}?v=2&m=qwen3-8b&g=rtx-4090&ctx=8192`, desktop);
  await page.waitForTimeout(1600);  // a quiet moment: the next change is a step of its own
  await wheelClickHitbox(page, 'tp_2');
  await waitState(page, (s) => s.scenario.tensor_parallel_size === 2);
  await page.waitForFunction(() => /tp=2/.test(location.search));
  await page.goBack();
  await waitState(page, (s) => s.scenario.tensor_parallel_size === 1);
  assert.match(page.url(), /m=qwen3-8b/, 'still the app, at the entry before the change');
  await page.goForward();
  await waitState(page, (s) => s.scenario.tensor_parallel_size === 2);
  await context.close();
});

test('the model note goes once a setting it names changes; a pasted config keeps max_num_seqs', async () => {
  const { context, page } = await openApp(env.browser, `${env.server.url}?v=2&m=qwen3-8b&g=rtx-5090&ctx=32768&seqs=8`, desktop);
  await page.evaluate((text) => window.kvcalcBridge.inbox.push({ kind: 'config', text, source: 'paste' }), qwen3_32b_awq);
  await waitState(page, (s) => /Qwen\/Qwen3-32B-AWQ/.test(s.model_note || ''));
  let state = await appState(page);
  assert.equal(state.scenario.max_num_seqs, 8, 'the 8 users typed before the paste stay');
  assert.match(state.model_note, /kept max_num_seqs 8, tensor_parallel_size 1, max_model_len 32,768/);
  await wheelClickHitbox(page, 'tp_2');
  await waitState(page, (s) => s.scenario.tensor_parallel_size === 2);
  state = await appState(page);
  assert.equal(state.model_note, '', 'no "kept tensor_parallel_size 1" once it is 2');
  await context.close();
});

test('weights alone over the card: the largest term is the weights, and the per-token KV is not 0 B', async () => {
  // Qwen3 32B in bf16 (~65.5 GB) on one RTX 5090: vLLM stops while loading; 8 × 32K would ask 64 GiB of KV.
  const { context, page } = await openApp(env.browser, `${env.server.url}?v=2&m=qwen3-32b&g=rtx-5090&ctx=32768&seqs=8`, desktop);
  const state = await appState(page);
  assert.equal(state.verdict, 'FAIL');
  assert.equal(state.limiting_term, 'weights');
  assert.match(state.drawn_text.result_banner.replace(/\n/g, ' '), /Largest term: weights/i);
  assert.doesNotMatch(state.drawn_text.startup_rules || '', /: 0 B/);
  assert.match(state.drawn_text.startup_rules, /KV per token per rank: 262,144 B/);
  await context.close();
});
