// Keyboard alone and what a screen reader gets: the user test's task 1 (Qwen3 32B at 4 bits on one RTX 5090, 32K,
// 8 users) done with Tab, arrows, Enter, Space and typing only; the focused control's label and value in the
// accessibility tree as the user tabs; Tab leaving the canvas after the last control. And on a phone (touch only),
// "8 users at 32K on one RTX 5090" shows both context answers, each labelled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { qwen3_32b_awq } from './configs.mjs';
import { useSiteAndBrowser, openApp, appState, waitState, tapHitbox, touchDrag, mirrorText, activeElementId,
  desktop, phone, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const shot = (page, name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });


/** The focus mirror's text, as the accessibility tree has it (the page's assertive status region). */
async function focusText(page) {
  return (await page.locator('#focus-text').textContent()) || '';
}

/** Every node's name in Chromium's accessibility tree (what a screen reader is given), with its role. */
async function accessibleTexts(page) {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  await cdp.detach();
  return nodes.filter((n) => n.name && n.name.value).map((n) => `${n.role && n.role.value}: ${n.name.value}`);
}

/** Presses `key` until the focused control's description matches `re` (at most `limit` presses). */
async function pressUntil(page, key, re, limit = 80) {
  const seen = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press(key);
    await page.waitForTimeout(120);
    const t = await focusText(page);
    seen.push(t);
    if (re.test(t)) return seen;
  }
  throw new Error(`no focus matching ${re} after ${limit} × ${key}; last: ${seen.slice(-6).join(' | ')}`);
}

async function waitProxy(page) {
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'text-proxy', null,
    { timeout: 10000 });
}

test('task 1 by keyboard alone (desktop): paste the AWQ config, RTX 5090, 32K, 8 users; the focus is read out', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  let keys = 0;
  const counted = async (key, re, limit) => { const s = await pressUntil(page, key, re, limit); keys += s.length; return s; };

  // Tab from the page enters the canvas on its first control, and the mirror names it.
  await page.keyboard.press('Tab');
  keys++;
  await page.waitForFunction(() => document.getElementById('focus-text').textContent.length > 0, null, { timeout: 5000 });
  assert.equal(await activeElementId(page), 'canvas');
  const first = await focusText(page);
  assert.match(first, /^Units: Gi?B, button/, 'the first control is the unit switch in the header');
  const tree = await accessibleTexts(page);
  assert.ok(tree.some((t) => /^StaticText: Units: GiB, button/.test(t)), `the focused control is in the accessibility tree: ${tree.join(' | ')}`);

  // Tabbing walks the controls: each one is read with its label (and value where it has one).
  const walked = await counted('Tab', /^Paste config\.json…, button/);
  assert.ok(walked.some((t) => /^search models \(name, id, family\), text field/.test(t)), walked.join(' | '));
  assert.ok(new Set(walked).size === walked.length, 'every Tab moved the focus to another control');
  await shot(page, 'keyboard-desktop-focus-ring');
  await page.keyboard.press('Enter');
  keys++;
  await page.waitForSelector('#paste:not([hidden])');
  assert.equal(await activeElementId(page), 'paste-text');
  await page.keyboard.insertText(qwen3_32b_awq);  // what Ctrl+V puts in the textarea
  await page.keyboard.press('Tab');
  assert.equal(await activeElementId(page), 'paste-use');
  await page.keyboard.press('Enter');
  keys += 3;
  await waitState(page, (s) => /Qwen\/Qwen3-32B-AWQ/.test(s.model_note || ''));
  assert.equal(await activeElementId(page), 'canvas', 'closing the overlay gives the focus back to the canvas');

  // The GPU list: Space opens it, arrows walk the rows (each read out), Enter picks.
  await counted('Tab', /^GPU, button, /);
  await page.keyboard.press('Space');
  keys++;
  await counted('ArrowDown', /RTX 5090/, 120);
  await page.keyboard.press('Enter');
  keys++;
  await waitState(page, (s) => s.scenario.gpu === 'rtx-5090');

  // Typing into fields: Tab into max_model_len starts editing it; Tab ends the edit and moves on.
  await counted('Tab', /^max_model_len in tokens, text field/);
  await waitProxy(page);
  await page.keyboard.type('32768', { delay: 20 });
  assert.match(await focusText(page), /^max_model_len in tokens, text field, .*editing/);
  await page.keyboard.press('Tab');
  keys += 6;
  await waitState(page, (s) => s.scenario.max_model_len === 32768);
  await page.waitForTimeout(200);
  assert.doesNotMatch(await focusText(page), /^max_model_len in tokens/, 'Tab moved on after the edit');
  await counted('Tab', /^max_num_seqs, text field/);
  await waitProxy(page);
  await page.keyboard.type('8', { delay: 20 });
  await page.keyboard.press('Enter');
  keys += 2;
  await waitState(page, (s) => s.scenario.max_num_seqs === 8);

  const state = await appState(page);
  assert.equal(state.verdict, 'TIGHT', `8 × 32K of a 64-layer, 8-KV-head model do not fit in one 5090's pool: ${state.verdict_line}`);
  // KV per token 64 layers × 8 heads × 128 × 2 (K, V) × 2 B = 262,144 B: 8 × 32,768 tokens need 64 GiB.
  assert.match(state.verdict_line, /needs 64\.0 GiB KV/);
  // 9.9 GiB free for KV (the RTX 5090's CUDA total is 31.36 GiB, from a deviceQuery) / 262,144 B per token = 40,550
  // tokens: one request up to 39K (× 1,024) boots.
  assert.match(state.verdict_line, /8 users × [\d,.K]+ fit; one request up to 39K boots/);
  const text = await mirrorText(page);
  assert.match(text, /^TIGHT: /);
  // The pool is 40,640 tokens (9.92 GiB: 0.92 × 31.36 GiB, the RTX 5090's CUDA total, minus weights, activation and
  // overhead) = 2,540 blocks of 16; 8 sequences get 317 blocks each = 5,072 tokens. One request boots up to the pool,
  // 40,640 tokens, just under the model's 40,960.
  assert.match(text, /GPU KV cache size: 40,640 tokens/);
  assert.match(text, /Largest max_model_len at which all 8 sequences fit at once: 5,072 tokens\./);
  assert.match(text, /Largest max_model_len that boots: 40,640 tokens\./, 'one request of the whole pool boots');
  assert.match(text, /Command: [^]*vllm serve /);
  assert.match(text, /GPU KV cache size: [\d,]+ tokens/);
  await shot(page, 'keyboard-desktop-task1');

  // Tab past the last control leaves the canvas for the page's text version of the result; Shift+Tab comes back.
  let left = false;
  for (let i = 0; i < 150 && !left; i++) {
    await page.keyboard.press('Tab');
    await page.waitForTimeout(120);
    left = !['canvas', 'text-proxy'].includes(await activeElementId(page));  // a Tab into a field edits it
  }
  assert.ok(left, 'Tab leaves the canvas after the last control');
  assert.equal(await activeElementId(page), 'result-text');
  await shot(page, 'keyboard-desktop-left-canvas');
  await page.keyboard.press('Shift+Tab');
  await page.waitForTimeout(200);
  assert.equal(await activeElementId(page), 'canvas');
  assert.ok((await focusText(page)).length > 0, 'Shift+Tab lands on the last control, which is read out');
  console.log(`task 1 by keyboard: ${keys} key presses (Tab, arrows, Enter, Space) and 3 typed strings`);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone (touch only): 8 users at 32K on one RTX 5090 shows both context answers, each labelled', async () => {
  const { context, page, errors } = await openApp(env.browser,
    env.server.url + '?v=2&m=qwen3-8b&g=rtx-5090&ctx=32768&seqs=8', phone);
  await waitState(page, (s) => s.scenario.max_num_seqs === 8 && s.scenario.gpu === 'rtx-5090');
  const state = await appState(page);
  assert.equal(state.verdict, 'TIGHT');
  const all = state.solver.max_model_len_all_sequences, boots = state.solver.max_model_len;
  // Qwen3 8B: 36 layers × 8 KV heads × 128 × 2 × 2 B = 147,456 B per token. All 8 sequences share the pool, so
  // each gets at most an eighth of its tokens (whole 16-token blocks); one request alone may use all of it.
  const pool = Number(/GPU KV cache size: ([\d,]+) tokens/.exec(state.startup_lines.join('\n'))[1].replace(/,/g, ''));
  assert.ok(all > 0 && all <= Math.floor(pool / 8 / 16) * 16 + 16, `all 8 fit ${all}, pool ${pool}`);
  assert.ok(all >= Math.floor(pool / 8 / 16) * 16 - 2048, `all 8 fit ${all} is about an eighth of ${pool}`);
  assert.ok(boots >= 32768 && boots > all, `one request boots longer (${boots} vs ${all})`);
  // The sticky bar (390 px) keeps the KV pair and names the all-users answer; the Solver panel below has both.
  assert.match(state.sticky_line, /8×[\d,.K]+ fit(, 1×[\d,.K]+ boots)?|8 × [\d,.K]+ fit; 1 × [\d,.K]+ boots/,
    `the sticky bar says what its context answers: ${state.sticky_line}`);
  assert.equal(state.sticky_clipped, false, state.sticky_line);
  // The solver panel: swipe to it; both lines say what they answer.
  for (let i = 0; i < 20; i++) {
    const box = (await appState(page)).hitboxes.use_len_all;
    if (box && box[1] > 80 && box[1] < 600) break;
    await touchDrag(page, 200, 700, -450);
    await page.waitForTimeout(250);
  }
  await page.waitForTimeout(300);
  const drawn = (await appState(page)).drawn_text;
  assert.match(drawn.solver_use_len_all || '', /^Largest max_model_len for all 8 sequences at once: [\d,]+ tokens/);
  assert.match(drawn.solver_use_len || '', /^Largest max_model_len that boots \(one full request\): [\d,]+ tokens/);
  const text = await mirrorText(page);
  assert.match(text, /Largest max_model_len at which all 8 sequences fit at once: /);
  assert.match(text, /Largest max_model_len that boots: /);
  await shot(page, 'keyboard-phone-two-answers');
  await tapHitbox(page, 'sticky_verdict');
  await page.waitForTimeout(400);
  await shot(page, 'keyboard-phone-sticky');
  assert.deepEqual(errors, []);
  await context.close();
});
