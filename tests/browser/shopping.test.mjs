// GPU shopping's headlines as a buyer reads them: each names the least VRAM (or the fewest cards) over every GPU at
// every card count, not over the one row per GPU the table shows; a click opens that very row; a pinned
// tensor_parallel_size prices every GPU at that count only (as `kvcalc --shop --tp N`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, openApp, appState, wheelClickHitbox, waitState, desktop } from './harness.mjs';

const env = useSiteAndBrowser();

// The UI test's task 1: Qwen3 32B at 4 bits, 32K, 8 users. 64 layers x 8 KV heads x 128 x K+V x 2 B = 256 KiB per
// token: one 32K request is 8 GiB, all 8 are 64 GiB. One RTX 5090 (32 GiB) boots with one request (TIGHT) and passes
// only at 4 cards; the headline said "4x RTX 3080 10GB (40 GiB)".
const task1 = '?v=2&m=qwen3-32b&wd=int4&g=rtx-5090&ctx=32768&seqs=8';

test('least VRAM that boots names 1x RTX 5090 (32 GiB), which passes only at 4 cards; clicking it opens that row', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url + task1, desktop);
  let state = await appState(page);
  const boots = state.shop_headlines?.least_vram_boots;
  assert.ok(boots, 'a "least VRAM that boots" headline');
  assert.deepEqual([boots.gpu, boots.cards, boots.vram_bytes, boots.verdict], ['rtx-5090', 1, 32 * 2 ** 30, 'TIGHT']);
  assert.match(state.drawn_text.shop_head_boots.replace(/\n/g, ' '),
    /^Least VRAM that boots \(TIGHT\): 1× RTX 5090 \(32(\.0+)? GiB in all\)/);
  const table5090 = state.shop_rows.find((r) => r.gpu === 'rtx-5090');
  assert.equal(table5090.cards, 4, 'the table shows the 5090 at its fewest passing count');
  const pass = state.shop_headlines.least_vram_pass;
  assert.deepEqual([pass.gpu, pass.cards, pass.verdict], ['h100-nvl', 1, 'PASS']);
  assert.deepEqual([state.shop_headlines.fewest_cards.cards, state.shop_headlines.fewest_cards.verdict], [1, 'PASS']);

  // The passing headline's card first, so that the second click visibly opens the other row.
  await wheelClickHitbox(page, 'shop_head_pass');
  await waitState(page, (s) => s.scenario.gpu === 'h100-nvl' && s.scenario.tensor_parallel_size === 1);
  state = await appState(page);
  assert.equal(state.verdict, 'PASS', 'the row a click opens has the headline\'s verdict');
  // The headlines do not depend on the card chosen: the 5090 headline is still there, and opens a TIGHT.
  assert.equal(state.shop_headlines.least_vram_boots.gpu, 'rtx-5090');
  await wheelClickHitbox(page, 'shop_head_boots');
  await waitState(page, (s) => s.scenario.gpu === 'rtx-5090' && s.scenario.tensor_parallel_size === 1);
  state = await appState(page);
  assert.equal(state.verdict, 'TIGHT');
  assert.deepEqual(errors, []);
  await context.close();
});

test('"only tensor_parallel_size 2" prices every GPU at 2 cards, headlines included', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url + task1.replace('g=rtx-5090', 'g=rtx-5090&tp=2'), desktop);
  let state = await appState(page);
  assert.ok(state.shop_rows.some((r) => r.cards !== 2), 'unpinned: 1, 2, 4 and 8 cards');
  await wheelClickHitbox(page, 'shop_pin_tp');
  await waitState(page, (s) => s.shop_pinned_tp === 2);
  state = await appState(page);
  assert.ok(state.shop_rows.length > 10);
  assert.ok(state.shop_rows.every((r) => r.cards === 2), 'every row at tensor_parallel_size 2');
  const boots = state.shop_headlines.least_vram_boots;
  assert.deepEqual([boots.cards, boots.vram_bytes, boots.verdict], [2, 32 * 2 ** 30, 'TIGHT'], '2x 16 GiB cards');
  assert.equal(state.shop_headlines.least_vram_pass.cards, 2);
  assert.equal(state.drawn_text.shop_head_fewest, undefined, 'no "fewest cards" when the count is pinned');
  assert.deepEqual(errors, []);
  await context.close();
});
