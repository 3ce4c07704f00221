// The UI test's minor findings that the page's phone layout and link reading showed, each as the flow that showed it
// (../shared/reference/ui-usertest-2.md §7 and Findings): rows past the phone's right edge, a half row at the GPU
// list's edge, and bad links without `v`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, openApp, appState, touchDrag, waitHitbox, phone, tapHitbox, waitState } from './harness.mjs';

const env = useSiteAndBrowser();

/** Swipes the page until `name` is between y 150 and 650 on the 844 px phone. */
async function reveal(page, name) {
  for (let i = 0; i < 12; i++) {
    const { y } = await waitHitbox(page, name);
    if (y > 150 && y < 650) return;
    await touchDrag(page, 200, y > 650 ? 700 : 250, y > 650 ? -Math.min(420, y - 400) : Math.min(420, 400 - y));
    await page.waitForTimeout(400);
  }
  throw new Error(`could not bring "${name}" on screen`);
}

test('phone: every kv_cache_dtype row and the engine radios end inside the 390 px screen', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=2&m=llama-3.1-8b&g=rtx-4090`, phone);
  const width = page.viewportSize().width;
  await reveal(page, 'kv_cache_dtype');
  const engines = Object.entries((await appState(page)).hitboxes).filter(([k]) => k.startsWith('engine_'));
  assert.deepEqual(engines.map(([k]) => k).sort(), ['engine_llama.cpp', 'engine_sglang', 'engine_vllm']);
  for (const [k, b] of engines) assert.ok(b[0] >= 0 && b[0] + b[2] <= width, `${k} x ${b[0]}..${b[0] + b[2]}`);
  await tapHitbox(page, 'kv_cache_dtype');
  await waitHitbox(page, 'kv_option_auto');
  // The longest rows were int8_per_token_head (to 446 px) and turboquant_3bit_nc (to 497 px) of 390.
  const rows = Object.entries((await appState(page)).hitboxes).filter(([k]) => k.startsWith('kv_option_'));
  assert.ok(rows.some(([k]) => k === 'kv_option_turboquant_3bit_nc'), rows.map(([k]) => k).join(' '));
  const off = rows.filter(([, b]) => b[0] < 0 || b[0] + b[2] > width).map(([k, b]) => `${k} ${b[0]}..${b[0] + b[2]}`);
  assert.deepEqual(off, [], `rows past the ${width} px edge`);
  await tapHitbox(page, 'kv_option_turboquant_3bit_nc');  // a wrapped row is still one row
  await waitState(page, (s) => s.scenario.kv_cache_dtype === 'turboquant_3bit_nc');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: the GPU list shows whole rows, and a tap on its last row picks that card', async () => {
  // Scrolled so the list opens under the GPU box (Hardware near the top), the list held 9.4 rows of 52 px: the last
  // one showed 9 px, and a finger aimed at it landed below the list and closed it on the old card.
  for (const swipe of [0, -350]) {
    const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=2&m=llama-3.1-8b&g=rtx-4090`, phone);
    if (swipe) { await touchDrag(page, 200, 700, swipe); await page.waitForTimeout(400); }
    await tapHitbox(page, 'gpu_combo');
    await waitHitbox(page, 'gpu_list');
    await page.waitForTimeout(300);  // the list's scroll lands on the frame after it opens
    const { hitboxes } = await appState(page);
    const [, ly, , lh] = hitboxes.gpu_list;
    // A row's box includes half of the 8 px gap to its neighbours (ImGui's Selectable); what is drawn is 4 px inside.
    const rows = Object.entries(hitboxes).filter(([k]) => k.startsWith('gpu_option_'))
      .map(([k, b]) => [k, [b[0], b[1] + 4, b[2], b[3] - 8]])
      .filter(([, b]) => b[1] < ly + lh && b[1] + b[3] > ly).sort((a, b) => a[1][1] - b[1][1]);
    assert.ok(rows.length >= 3, `${rows.length} rows in the list`);
    const cut = rows.filter(([, b]) => b[1] < ly - 0.5 || b[1] + b[3] > ly + lh + 0.5)
      .map(([k, b]) => `${k} ${b[1]}..${b[1] + b[3]} in ${ly}..${ly + lh}`);
    assert.deepEqual(cut, [], `swipe ${swipe}: rows cut at the list's edge`);
    const [last, [x, y, w, h]] = rows[rows.length - 1];
    await page.touchscreen.tap(x + w / 2, y + h / 2);
    await page.waitForTimeout(400);
    const state = await appState(page);
    assert.equal(state.scenario.gpu, last.slice('gpu_option_'.length), `swipe ${swipe}: the tapped row's card`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a bad link without v opens on the starting example, and says so', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?m=nonexistent`, phone);
  const state = await appState(page);
  // The landing page's example (no query at all): Llama 3.1 8B on an RTX 4090 at 32,768 tokens, a PASS; version 1's
  // defaults were a FAIL (Qwen 3.6 27B, 24 GB custom card, fp8_e5m2, 180,000 tokens).
  assert.equal(state.scenario.model_id, 'llama-3.1-8b');
  assert.equal(state.scenario.gpu, 'rtx-4090');
  assert.equal(state.scenario.max_model_len, 32768);
  assert.equal(state.verdict, 'PASS');
  assert.match(state.url_warnings[0], /'m' \(model_id\) = 'nonexistent'/);
  assert.match(state.url_warnings.at(-1), /Nothing in this link could be used/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('?tp=3&m=llama-3.1-8b: the link problems name tp and why, not a ctx the link never had', async () => {
  // Llama 3.1 8B has 32 attention heads (config.json num_attention_heads), which 3 cards cannot split.
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?tp=3&m=llama-3.1-8b`, phone);
  const state = await appState(page);
  assert.equal(state.ok, true, 'evaluates: tp read as absent');
  assert.equal(state.scenario.tensor_parallel_size, 1);
  assert.ok(state.url_warnings.some((w) => /^tp=3 .*32 attention heads are not divisible by 3/.test(w)),
    JSON.stringify(state.url_warnings));
  assert.ok(!state.url_warnings.some((w) => /ctx=180000/.test(w)), JSON.stringify(state.url_warnings));
  // No v: a version 1 link, whose absent ctx is 180,000, above the model's 131,072 (max_position_embeddings).
  assert.ok(state.url_warnings.some((w) => /no ctx .* version 1's default max_model_len 180,000 is above .* 131,072/.test(w)),
    JSON.stringify(state.url_warnings));
  assert.equal(state.scenario.max_model_len, 131072);
  assert.notEqual(state.sticky_line, 'Cannot evaluate: fix the settings');
  assert.deepEqual(errors, []);
  await context.close();
});
