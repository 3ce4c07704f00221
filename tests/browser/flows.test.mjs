// The page's user flows end to end, as a person does them: pick from lists, type, tap, swipe. Desktop runs use the
// mouse and keyboard; the phone runs use touch only (and the keyboard only where a soft keyboard would type into the
// HTML input the page focused). Assertions are on what a user sees: the screen-reader mirror, the URL, the title.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useSiteAndBrowser, openApp, appState, clickHitbox, wheelClickHitbox, hitboxCentre, waitHitbox, waitState, tapHitbox,
  touchDrag, mirrorText, activeElementId, desktop, phone, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const shot = (page, name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });

/** Types into the field the last click or tap put ImGui in (through the page's HTML input). */
async function typeText(page, text) {
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'text-proxy', null,
    { timeout: 10000 });
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text, { delay: 20 });
}

test('flow 1 (desktop): landing → search a model → pick a GPU from the list → type 32768 → verdict', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  let state = await appState(page);
  assert.equal(state.scenario.gpu, 'rtx-4090', 'the landing scenario is a real catalog card');
  assert.equal(state.scenario.vram_gb ?? null, null);
  assert.equal(state.scenario.max_num_seqs, 0, "max_num_seqs not given: vLLM's default for the card");
  assert.equal(state.scenario.gpu_memory_utilization, 0, "gpu_memory_utilization not given: vLLM's default");

  await clickHitbox(page, 'model_search');
  await typeText(page, 'qwen3 8b');
  await page.mouse.click((await waitHitbox(page, 'model_qwen3-8b')).x, (await hitboxCentre(page, 'model_qwen3-8b')).y);
  await waitState(page, (s) => s.scenario.model_id === 'qwen3-8b');
  state = await appState(page);
  assert.match(state.model_note, /vLLM's defaults/, 'the model change says which settings it reset');

  // Open the list and pick the card. On a loaded machine the first frames of the popup can move its rows under
  // the click, so a user's second try is allowed (the pick itself must then stick and keep the scenario valid).
  for (let attempt = 1; ; ++attempt) {
    await clickHitbox(page, 'gpu_combo');
    const option = await waitHitbox(page, 'gpu_option_rtx-3090');
    await page.waitForTimeout(300);
    const settled = await waitHitbox(page, 'gpu_option_rtx-3090');
    await page.mouse.click(settled.x ?? option.x, settled.y ?? option.y);
    try {
      await waitState(page, (s) => s.scenario.gpu === 'rtx-3090', undefined, 5000);
      break;
    } catch (e) {
      if (attempt >= 2) throw e;
      await page.keyboard.press('Escape');
    }
  }
  state = await appState(page);
  assert.equal(state.ok, true, `picking a GPU keeps the scenario valid: ${state.reason}`);
  assert.equal(state.scenario.vram_gb ?? null, null, 'one source of truth: no custom VRAM next to the GPU');
  assert.equal(state.scenario.vram_gib ?? null, null);

  await wheelClickHitbox(page, 'max_model_len');
  await typeText(page, '32768');
  await page.keyboard.press('Enter');
  await waitState(page, (s) => s.scenario.max_model_len === 32768).catch(async (e) => {
    await shot(page, 'flow1-desktop-failed');
    throw new Error(`${e.message}: ${JSON.stringify((await appState(page)).scenario)} ${JSON.stringify((await appState(page)).clamp_notes)}`);
  });
  const text = await mirrorText(page);
  assert.match(text, /^(PASS|TIGHT|FAIL): Qwen3 8B on 1 × RTX 3090 .*max_model_len 32,768/);
  assert.match(page.url(), /[?&]m=qwen3-8b(&|$)/);
  assert.match(page.url(), /[?&]g=rtx-3090(&|$)/);
  assert.match(page.url(), /[?&]ctx=32768(&|$)/);
  assert.doesNotMatch(page.url(), /vram/);
  assert.match(await page.title(), /^(PASS|TIGHT|FAIL) · Qwen3 8B on 1× RTX 3090 — kvcalc$/);
  await shot(page, 'flow1-desktop');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 1 (phone, touch only): the same task in at most 5 taps and 2 swipes, typing through the HTML input', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  let taps = 0, swipes = 0;
  const tap = async (name) => { await tapHitbox(page, name); taps++; };
  /** Swipes the page up until the widget is in the lower-middle of the screen (each swipe counted). */
  const reveal = async (name) => {
    for (let i = 0; i < 4; i++) {
      const { y } = await waitHitbox(page, name);
      if (y > 120 && y < 700) return;
      await touchDrag(page, 200, 640, y >= 700 ? -420 : 420);
      swipes++;
      await page.waitForTimeout(300);
    }
  };

  await tap('model_search');
  assert.equal(await activeElementId(page), 'text-proxy', 'the tap focused a real input (soft keyboard)');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('inputmode')), 'search');
  await page.keyboard.type('qwen3 8b', { delay: 20 });
  await waitHitbox(page, 'model_qwen3-8b');
  await tap('model_qwen3-8b');
  await waitState(page, (s) => s.scenario.model_id === 'qwen3-8b');
  await reveal('gpu_combo');
  await tap('gpu_combo');
  await tap('gpu_option_rtx-3090');
  await waitState(page, (s) => s.scenario.gpu === 'rtx-3090');
  assert.equal((await appState(page)).ok, true);
  await reveal('max_model_len');
  await tap('max_model_len');
  assert.equal(await activeElementId(page), 'text-proxy');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('inputmode')), 'numeric');
  await page.keyboard.type('32768', { delay: 20 });
  await page.keyboard.press('Enter');  // the soft keyboard's Done key
  await waitState(page, (s) => s.scenario.max_model_len === 32768);
  const line = await page.evaluate(() => window.kvcalcState.verdict_line);
  const sticky = await hitboxCentre(page, 'sticky_verdict');
  assert.ok(sticky.y > 0 && sticky.y < 200, 'the one-line verdict is on screen at the top');
  assert.match(line, /^(PASS|TIGHT|FAIL) · /);
  console.log(`# phone flow 1: ${taps} taps, ${swipes} swipes (verdict: ${line})`);
  assert.ok(taps <= 5, `taps ${taps}`);
  assert.ok(swipes <= 2, `swipes ${swipes}`);
  await shot(page, 'flow1-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 2: the solver\'s "use" gives a context the verdict accepts, and the start-up lines agree', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090&ctx=40960&seqs=4&kv=bf16`, desktop);
  let state = await appState(page);
  const answer = state.solver.max_model_len_rounded;
  assert.ok(answer > 0, 'the solver has an answer');
  await wheelClickHitbox(page, 'use_len');
  await waitState(page, (s, a) => s.scenario.max_model_len === a, answer);
  state = await appState(page);
  assert.notEqual(state.verdict, 'FAIL', 'the verdict accepts the solver\'s answer');
  const lines = state.startup_lines.join('\n');
  assert.doesNotMatch(lines, /refuses to start|stops/i, 'the predicted start-up log boots too');
  const concurrency = Number((lines.match(/Maximum concurrency for [\d,]+ tokens per request: ([\d.]+)x/) || [])[1]);
  assert.ok(concurrency >= 1, `at least one full-length request fits in the predicted log (${lines})`);
  assert.match(await mirrorText(page), new RegExp(`max_model_len ${answer.toLocaleString('en-US')}`));
  assert.deepEqual(errors, []);
  await context.close();
});

const qwen2Config = JSON.stringify({ architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 3584,
  intermediate_size: 18944, num_hidden_layers: 28, num_attention_heads: 28, num_key_value_heads: 4,
  max_position_embeddings: 32768, vocab_size: 152064, rope_theta: 1000000.0, torch_dtype: 'bfloat16',
  tie_word_embeddings: false, _name_or_path: 'Qwen/Qwen2-7B-Instruct' }, null, 2);  // Qwen/Qwen2-7B-Instruct config.json

test('flow 3: paste a config.json → Copy link → the link opened in a fresh page shows the same model and verdict', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&g=rtx-3090&tp=2`, desktop);
  await clickHitbox(page, 'paste_config');
  await page.locator('#paste').waitFor({ state: 'visible' });
  await page.locator('#paste-text').fill(qwen2Config);
  await page.locator('#paste-use').click();
  await waitState(page, (s) => s.scenario.model && s.scenario.model.num_hidden_layers === 28);
  const before = await appState(page);
  assert.equal(before.share_blocker, '', 'Copy link can carry this model');
  const mirror = await mirrorText(page);
  await wheelClickHitbox(page, 'copy_link');
  await page.waitForFunction(() => window.kvcalcLastCopied, null, { timeout: 10000 });
  const link = await page.evaluate(() => window.kvcalcLastCopied);
  assert.match(link, /#cfg=/, 'the pasted model travels in the fragment');
  assert.doesNotMatch(link, /[?&]m=/, 'the link names no other catalog model');
  assert.deepEqual(errors, []);
  await context.close();

  const fresh = await openApp(env.browser, link, desktop);
  const after = await appState(fresh.page);
  assert.deepEqual(after.url_warnings, []);
  assert.equal(after.scenario.model.num_hidden_layers, 28);
  assert.equal(after.scenario.model.display_name, 'Qwen/Qwen2-7B-Instruct');
  assert.equal(after.verdict, before.verdict);
  assert.equal(after.scenario.tensor_parallel_size, before.scenario.tensor_parallel_size);
  assert.equal(await mirrorText(fresh.page), mirror, 'the same sentence, figure for figure');
  await wheelClickHitbox(fresh.page, 'copy_vllm');
  await fresh.page.waitForFunction(() => /vllm serve/.test(window.kvcalcLastCopied || ''), null, { timeout: 10000 });
  const serve = await fresh.page.evaluate(() => window.kvcalcLastCopied);
  assert.match(serve, /^vllm serve Qwen\/Qwen2-7B-Instruct /m);
  assert.doesNotMatch(serve, /--kv-cache-dtype (bf16|fp16)\b/, 'no kvcalc-only dtype spelling');
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
});

test('flow 4: a garbage link renders with warnings and no crash', async () => {
  const garbage = `${env.server.url}?v=1&m=nope&tp=banana&ctx=-5&seqs=zz&util=7#cfg=%%%not-base64`;
  for (const device of [desktop, phone]) {
    const { context, page, errors } = await openApp(env.browser, garbage, device);
    const state = await appState(page);
    assert.ok(state.url_warnings.length >= 4, JSON.stringify(state.url_warnings));
    assert.ok(state.url_warnings.some((w) => /cfg/.test(w)), 'the fragment problem is named');
    assert.equal(state.ok, true, 'the rest falls back to defaults and evaluates');
    assert.match(await mirrorText(page), /Link problem: /, 'the warnings reach the screen-reader mirror');
    await shot(page, `flow4-${device === phone ? 'phone' : 'desktop'}`);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('flow 5 (phone): a vertical swipe over a slider changes nothing; the sticky verdict stays and scrolls to the result', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090&ctx=20000&seqs=4&kv=bf16`, phone);
  let slider = await waitHitbox(page, 'max_model_len_slider');
  if (slider.y > 600) {
    await touchDrag(page, 200, 700, -(slider.y - 400));
    await page.waitForTimeout(400);
    slider = await waitHitbox(page, 'max_model_len_slider');
  }
  const before = (await appState(page)).scenario.max_model_len;
  await touchDrag(page, slider.x - 120, slider.y, -300);  // starts on the slider's left part, moves up
  await page.waitForTimeout(400);
  let state = await appState(page);
  assert.equal(state.scenario.max_model_len, before, 'the swipe scrolled, it did not set a context');
  const moved = await hitboxCentre(page, 'max_model_len_slider');
  assert.ok(moved.y < slider.y - 100, `the page scrolled (slider y ${slider.y} → ${moved.y})`);
  // Further down, the one-line verdict is still on screen; tapping it brings the Result up.
  await touchDrag(page, 200, 700, -450);
  await page.waitForTimeout(300);
  const sticky = await hitboxCentre(page, 'sticky_verdict');
  assert.ok(sticky.y > 0 && sticky.y < 200, 'sticky verdict visible after scrolling');
  await tapHitbox(page, 'sticky_verdict');
  await page.waitForTimeout(400);
  state = await appState(page);
  assert.ok(state.hitboxes.use_len || true);
  await shot(page, 'flow5-phone-result');
  // Typing into the context field on the phone goes through the HTML input with a numeric keyboard.
  await touchDrag(page, 200, 250, 580);  // back up
  await page.waitForTimeout(300);
  await touchDrag(page, 200, 250, 580);
  await page.waitForTimeout(300);
  const field = await waitHitbox(page, 'max_model_len');
  if (field.y > 700) { await touchDrag(page, 200, 700, field.y - 400 > 0 ? -(field.y - 400) : -300); await page.waitForTimeout(300); }
  await tapHitbox(page, 'max_model_len');
  assert.equal(await activeElementId(page), 'text-proxy');
  await page.keyboard.type('16384', { delay: 20 });
  await page.keyboard.press('Enter');
  await waitState(page, (s) => s.scenario.max_model_len === 16384);
  assert.notEqual(await activeElementId(page), 'text-proxy', 'Enter ends the edit (the soft keyboard closes)');
  // Every button, field and radio on screen is a 44 px tap target (drawn height + ImGui's touch padding).
  state = await appState(page);
  const pad = state.touch_extra_padding[1];
  for (const name of ['max_model_len', 'max_model_len+', 'ctx_32K', 'gpu_combo', 'paste_config', 'unit']) {
    const box = state.hitboxes[name];
    if (box) assert.ok(box[3] + 2 * pad >= 44, `${name}: ${box[3]} + 2×${pad} px`);
  }
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 6: GPU shopping\'s first row is the cheapest PASS (least total VRAM), shown once per GPU', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090&ctx=32768&seqs=1&kv=bf16`, desktop);
  const state = await appState(page);
  const rows = state.shop_rows;
  assert.ok(rows.length > 10);
  assert.equal(rows[0].verdict, 'PASS');
  const passes = rows.filter((r) => r.verdict === 'PASS');
  assert.equal(rows[0].vram_bytes, Math.min(...passes.map((r) => r.vram_bytes)), 'least VRAM among the PASS rows');
  const firstNonPass = rows.findIndex((r) => r.verdict !== 'PASS');
  assert.ok(firstNonPass === -1 || rows.slice(firstNonPass).every((r) => r.verdict !== 'PASS'), 'PASS rows come first');
  assert.equal(new Set(rows.map((r) => r.gpu)).size, rows.length, 'each GPU once, at its smallest passing count');
  assert.deepEqual(errors, []);
  await context.close();
});

test('accessibility: canvas role and label, pinch-zoom allowed, title, 4.5:1 text contrast in both themes', async () => {
  for (const theme of ['', '&theme=light']) {
    const { context, page } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090${theme}`, desktop);
    const canvas = page.locator('#canvas');
    assert.equal(await canvas.getAttribute('role'), 'application');
    assert.ok((await canvas.getAttribute('aria-label')).length > 10);
    assert.notEqual(await canvas.evaluate((c) => getComputedStyle(c).touchAction), 'none');
    assert.match(await page.title(), / — kvcalc$/);
    const c = (await appState(page)).theme_colors;
    const lum = ([r, g, b]) => [r, g, b].map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
      .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => (Math.max(lum(a), lum(b)) + 0.05) / (Math.min(lum(a), lum(b)) + 0.05);
    for (const name of ['text', 'text_disabled', 'pass', 'tight', 'fail'])
      assert.ok(ratio(c[name], c.window_bg) >= 4.5, `${theme || 'dark'} ${name}: ${ratio(c[name], c.window_bg).toFixed(2)}:1`);
    await context.close();
  }
});

/** Phone: swipes the page until the widget is between 200 and 600 px from the top. */
async function revealOnPhone(page, name) {
  for (let i = 0; i < 8; i++) {
    const { y } = await waitHitbox(page, name);
    if (y > 200 && y < 600) return;
    await touchDrag(page, 200, y > 600 ? 700 : 250, y > 600 ? -Math.min(420, y - 400) : Math.min(420, 400 - y));
    await page.waitForTimeout(400);
  }
  throw new Error(`could not bring "${name}" on screen`);
}

test('flow 7 (phone): a tap that changes the result above keeps the control under the finger in place', async () => {
  // qwen3-8b on a 3090 at 8K, bf16 KV, util 0.95: 6.43 GiB of KV room; 4 sequences ask 4.5 GiB, 3 ask 3.4 GiB, so
  // going to 3 adds a "KV is cheap here" note to the Result, which sits above the Serving controls on a phone.
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090&ctx=8192&seqs=4&kv=bf16&util=0.95`, phone);
  await revealOnPhone(page, 'max_num_seqs-');
  const before = await hitboxCentre(page, 'max_num_seqs-');
  await tapHitbox(page, 'max_num_seqs-');
  await waitState(page, (s) => s.scenario.max_num_seqs === 3);
  await page.waitForTimeout(600);  // the recompute and the frames after it
  const after = await hitboxCentre(page, 'max_num_seqs-');
  const state = await appState(page);
  assert.ok(Math.abs(after.y - before.y) <= 2, `"−" stayed under the finger: y ${before.y} → ${after.y}`);
  assert.ok(Math.abs(state.scroll_anchor.corrected_px) >= 8,
    `the result above did grow or shrink and the page made up for it (${state.scroll_anchor.corrected_px} px)`);

  // A pick from a list: the kv_cache_dtype combo stays where it was.
  await revealOnPhone(page, 'kv_cache_dtype');
  const combo = await hitboxCentre(page, 'kv_cache_dtype');
  await tapHitbox(page, 'kv_cache_dtype');
  await tapHitbox(page, 'kv_option_fp8_e5m2');
  await waitState(page, (s) => s.scenario.kv_cache_dtype === 'fp8_e5m2');
  await page.waitForTimeout(600);
  const comboAfter = await hitboxCentre(page, 'kv_cache_dtype');
  assert.ok(Math.abs(comboAfter.y - combo.y) <= 2, `the combo stayed put: y ${combo.y} → ${comboAfter.y}`);
  await shot(page, 'flow7-phone');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 8: kv_cache_dtype auto is the default, resolves per card, and the serve command keeps auto', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  let state = await appState(page);
  assert.equal(state.scenario.kv_cache_dtype, 'auto', "vLLM's default on the landing page");
  assert.match(await mirrorText(page), /kv_cache_dtype auto \(bf16\)/, 'Llama 3.1 8B is bf16: auto stores bf16 on a 4090');
  await wheelClickHitbox(page, 'copy_vllm');
  await page.waitForFunction(() => /vllm serve/.test(window.kvcalcLastCopied || ''), null, { timeout: 10000 });
  assert.match(await page.evaluate(() => window.kvcalcLastCopied), /--kv-cache-dtype auto\b/);
  // A hand-picked dtype, then a new model: the model change puts auto back.
  await wheelClickHitbox(page, 'kv_cache_dtype');
  await waitHitbox(page, 'kv_option_fp8_e5m2');
  await clickHitbox(page, 'kv_option_fp8_e5m2');
  await waitState(page, (s) => s.scenario.kv_cache_dtype === 'fp8_e5m2');
  await wheelClickHitbox(page, 'model_search');
  await typeText(page, 'qwen3 8b');
  await waitHitbox(page, 'model_qwen3-8b');
  await page.mouse.click((await hitboxCentre(page, 'model_qwen3-8b')).x, (await hitboxCentre(page, 'model_qwen3-8b')).y);
  await waitState(page, (s) => s.scenario.model_id === 'qwen3-8b');
  state = await appState(page);
  assert.equal(state.scenario.kv_cache_dtype, 'auto');
  assert.match(state.model_note, /kv_cache_dtype \(auto\)/);
  assert.deepEqual(errors, []);
  await context.close();

  // A Turing card has no bfloat16: vLLM runs the model, and so the cache, in float16 (same 2 bytes).
  const t4 = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=t4&ctx=8192&kv=auto`, desktop);
  assert.match(await mirrorText(t4.page), /kv_cache_dtype auto \(fp16\)/);
  assert.deepEqual(t4.errors, []);
  await t4.context.close();
});

test('flow 9: fp8_e4m3 on a T4 (sm_75) is a FAIL that says why, no shopping row passes on sm_75 cards, and sm_86 runs it', async () => {
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=qwen3-8b&g=t4&ctx=8192&seqs=1&kv=fp8_e4m3`, desktop);
  const state = await appState(page);
  assert.equal(state.verdict, 'FAIL');
  assert.match(await mirrorText(page), /does not run on NVIDIA T4/);
  for (const id of ['t4', 'rtx-2080-ti']) {
    const rows = state.shop_rows.filter((r) => r.gpu === id);
    assert.ok(rows.every((r) => r.verdict === 'FAIL' && r.runs === false), `${id}: ${JSON.stringify(rows)}`);
  }
  // One answer: no solver length, a start-up log that stops before any KV line (Triton's fp8e4nv error of vLLM
  // issue #26431: no e4m3 below sm_89, and FlashInfer's none below sm_80), and no "KV is cheap" advice under the FAIL.
  assert.equal(state.solver.max_model_len, 0);
  assert.equal(state.solver.max_num_seqs, 0);
  assert.match(state.startup_lines.join('\n'), /fp8e4nv not supported in this architecture/);
  assert.doesNotMatch(state.startup_lines.join('\n'), /GPU KV cache size|Maximum concurrency/);
  assert.ok(!state.notes.some((n) => /KV is cheap/.test(n)), JSON.stringify(state.notes));
  const ada = state.shop_rows.find((r) => r.gpu === 'rtx-4090');
  assert.ok(ada && ada.runs && ada.verdict !== 'FAIL', 'the 4090 (sm_89) runs it');
  // sm_86 serves e4m3 through FlashInfer (2 × RTX 3090 boot: noonghunna/club-3090 PR #594).
  const ampere = state.shop_rows.find((r) => r.gpu === 'rtx-3090');
  assert.ok(ampere && ampere.runs, 'the 3090 (sm_86) runs it through FlashInfer');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 10 (phone): the sticky verdict reads in words, fits 390 px, and follows the unit toggle', async () => {
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=qwen3-8b&g=rtx-3090&ctx=32768&seqs=1&kv=bf16`, phone);
  let state = await appState(page);
  // Whichever width fits: "needs 4.5 GiB KV, 4.9 GiB free · largest context 35K" … "needs 4.5 of 4.9 GiB KV · max 35K".
  const words = /^(PASS|TIGHT|FAIL) · (needs [\d.]+ GiB KV, [\d.]+ GiB free · largest context \S+|needs [\d.]+ of [\d.]+ GiB KV · max (context )?\S+)$/;
  assert.match(state.sticky_line, words);
  assert.equal(state.sticky_clipped, false, 'the whole line fits a 390 px phone');
  await tapHitbox(page, 'unit');
  await waitState(page, (s) => s.unit === 'gb');
  await page.waitForTimeout(300);
  state = await appState(page);
  assert.match(state.sticky_line, / GB KV/);
  assert.doesNotMatch(state.sticky_line, /GiB/);
  assert.equal(state.sticky_clipped, false);
  await shot(page, 'flow10-phone-sticky');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 11: model search matches every word in any order; GPU rows are finger-sized and in VRAM order', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  await clickHitbox(page, 'model_search');
  await typeText(page, '8B LLAMA');
  await waitHitbox(page, 'model_llama-3.1-8b');
  const shown = Object.keys((await appState(page)).hitboxes).filter((k) => k.startsWith('model_') && k !== 'model_search');
  assert.ok(shown.length >= 1 && shown.every((k) => /8b/.test(k)), `only 8B models: ${shown}`);
  assert.deepEqual(errors, []);
  await context.close();

  const phoneRun = await openApp(env.browser, env.server.url, phone);
  await revealOnPhone(phoneRun.page, 'gpu_combo');
  await tapHitbox(phoneRun.page, 'gpu_combo');
  await waitHitbox(phoneRun.page, 'gpu_option_rtx-4090');
  await phoneRun.page.waitForTimeout(300);
  const state = await appState(phoneRun.page);
  const pad = state.touch_extra_padding[1];
  const rows = Object.entries(state.hitboxes).filter(([k]) => k.startsWith('gpu_option_'));
  assert.ok(rows.length >= 4, `rows on screen: ${rows.length}`);
  for (const [name, box] of rows) assert.ok(box[3] + 2 * pad >= 44, `${name}: ${box[3]} + 2×${pad} px`);
  const gib = Object.fromEntries(state.shop_rows.map((r) => [r.gpu, r.vram_bytes / r.cards]));  // per card
  const ordered = rows.sort((a, b) => a[1][1] - b[1][1]).map(([k]) => gib[k.slice('gpu_option_'.length)]);
  for (let i = 1; i < ordered.length; i++) assert.ok(ordered[i] >= ordered[i - 1], `VRAM order: ${ordered}`);
  await shot(phoneRun.page, 'flow11-phone-gpu-list');
  assert.deepEqual(phoneRun.errors, []);
  await phoneRun.context.close();
});

test('flow 12: typed entry takes the field table\'s whole range and refuses one past it with the table\'s words', async () => {
  // Ranges from core/src/deployment/scenario_fields.cpp: max_num_seqs 1..65536 (0 = the engine's default), max_num_batched_tokens
  // 1..2^27. The page's buttons and sliders may span less; what is typed must not.
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=h100-80gb&ctx=8192`, desktop);
  const typeInto = async (hitbox, text) => {
    await wheelClickHitbox(page, hitbox);
    await typeText(page, text);
    await page.keyboard.press('Enter');
  };
  await typeInto('max_num_seqs field', '65536');
  await waitState(page, (s) => s.scenario.max_num_seqs === 65536);
  assert.match(page.url(), /[?&]seqs=65536(&|$)/);
  assert.equal((await appState(page)).clamp_notes.max_num_seqs, undefined, 'the table\'s maximum is accepted as is');

  await typeInto('max_num_seqs field', '65537');
  await waitState(page, (s) => s.clamp_notes.max_num_seqs !== undefined);
  let state = await appState(page);
  // The field table's row (core/src/deployment/scenario_fields.cpp, max_num_seqs: range and meaning of 0), as the CLI prints it.
  assert.equal(state.clamp_notes.max_num_seqs, 'max_num_seqs = 65537 is out of range; expected an integer 1..65536 ' +
    "(sequences), or 0 = the engine's default (vLLM: 256, or 1024 on >= 70 GiB cards but A100, a cap of which one " +
    'full-length request is priced; llama.cpp -np 1; SGLang: a cap, one request priced)');
  assert.equal(state.scenario.max_num_seqs, 65536, 'the refused text changed nothing (not even to its prefix 6553)');
  assert.match(await mirrorText(page), /max_num_seqs = 65537 is out of range/, 'the note is read out too');

  await typeInto('max_num_seqs field', '0');  // the table's "0 = vLLM's default"
  await waitState(page, (s) => s.scenario.max_num_seqs === 0);
  assert.doesNotMatch(page.url(), /[?&]seqs=[1-9]/);
  // vLLM (arg_utils.py) picks 1,024 on a card of 70 GiB and more other than the A100.
  assert.match(await mirrorText(page), /max_num_seqs 1024,/);

  await wheelClickHitbox(page, 'max_num_batched_tokens_on');
  await waitState(page, (s) => s.scenario.max_num_batched_tokens > 0);
  await typeInto('tokens##batched field', '134217728');
  await waitState(page, (s) => s.scenario.max_num_batched_tokens === 134217728);
  assert.match(page.url(), /[?&]mnbt=134217728(&|$)/);
  await typeInto('tokens##batched field', '134217729');
  await waitState(page, (s) => s.clamp_notes['tokens##batched'] !== undefined);
  state = await appState(page);
  assert.equal(state.clamp_notes['tokens##batched'],
    'max_num_batched_tokens = 134217729 is out of range; expected an integer 1..134217728 (tokens)');
  assert.equal(state.scenario.max_num_batched_tokens, 134217728);
  await shot(page, 'flow12-desktop-range-note');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 13 (desktop): numbers are never split across lines; GPU shopping shows whole GPU names', async () => {
  // Qwen3 32B at tensor_parallel_size 2 on RTX 4090s: the weights alone exceed the per-card budget (FAIL), and
  // the first shopping rows are 80-96 GiB cards with long names ("RTX PRO 6000 Blackwell").
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=qwen3-32b&g=rtx-4090&tp=2&ctx=40000&kv=auto`, desktop);
  const state = await appState(page);
  assert.equal(state.verdict, 'FAIL');
  const banner = state.drawn_text.result_banner;
  assert.ok(banner.includes('\n'), 'the sentence is long enough to wrap in the Result column');
  // Dear ImGui breaks after '.' and ',': "(21." / "79 GiB)". Lines now break at spaces only.
  assert.doesNotMatch(banner, /\d[.,]\n\d/, `a number split across lines: ${JSON.stringify(banner)}`);
  const sentence = banner.split('\nLargest term')[0].replace(/\n/g, ' ');
  assert.ok((await mirrorText(page)).includes(sentence), `the banner says what the mirror says: ${sentence}`);
  assert.match(state.verdict_line, /^FAIL · fixed terms need [\d.]+ of [\d.]+ GiB · largest context none$/,
    'the one-line verdict names the fixed terms, not "needs 4.9 of 0.0 GiB KV"');
  const names = { 'rtx-pro-6000-blackwell': 'RTX PRO 6000 Blackwell', 'rtx-6000-ada': 'RTX 6000 Ada Generation',
    'h100-80gb': 'H100 80GB (SXM / PCIe)' };
  let checked = 0;
  state.shop_rows.forEach((row, i) => {
    if (!names[row.gpu]) return;
    const drawn = state.drawn_text[`shop_gpu_${i}`];
    assert.equal(drawn.replace(/\n/g, ' ').replace(/ \*$/, ''), `${row.cards}× ${names[row.gpu]}`);
    checked++;
  });
  assert.ok(checked >= 2, `long GPU names checked: ${checked}`);
  await shot(page, 'flow13-desktop-wrapping');
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 14 (phone, touch only): nothing is cut off at the right edge; tensor_parallel_size 8 can be tapped', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  const width = page.viewportSize().width;
  const offEdge = async () => Object.entries((await appState(page)).hitboxes)
    .filter(([, b]) => b[2] > 0 && (b[0] < 0 || b[0] + b[2] > width + 0.5)).map(([k, b]) => `${k} x ${b[0]}..${b[0] + b[2]}`);
  await revealOnPhone(page, 'tp_8');
  assert.deepEqual(await offEdge(), []);
  const tp8 = (await appState(page)).hitboxes.tp_8;
  assert.ok(tp8[0] + tp8[2] <= width, `tp_8 ends at ${tp8[0] + tp8[2]} px of ${width}`);
  await tapHitbox(page, 'tp_8');
  await waitState(page, (s) => s.scenario.tensor_parallel_size === 8);
  await shot(page, 'flow14-phone-tp8');
  // Further down: max_num_seqs and gpu_memory_utilization say "vLLM's default" without running off the screen.
  await revealOnPhone(page, 'gpu_memory_utilization_default');
  assert.deepEqual(await offEdge(), []);
  const state = await appState(page);
  assert.ok(state.hitboxes.max_num_seqs_default || state.hitboxes.gpu_memory_utilization_default);
  await shot(page, 'flow14-phone-serving');
  // A FAIL whose cause is the cache dtype says so in the sticky line, not a KV figure that would fit.
  await context.close();
  // (sm_75: below the sm_80 FlashInfer floor; an RTX 3090 runs it.)
  const t = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=rtx-2080-ti&ctx=8192&kv=fp8_e4m3`, phone);
  const line = (await appState(t.page)).sticky_line;
  assert.match(line, /^FAIL · (kv_cache_dtype )?fp8_e4m3 does not run on (RTX 2080 Ti|this card)$/, line);
  assert.deepEqual(errors, []);
  assert.deepEqual(t.errors, []);
  await t.context.close();
});

// Qwen/Qwen3-8B config.json (tests/data/configs/qwen3-8b.json) with the rope_scaling its model card gives for long
// texts (YaRN, factor 4 over 32,768): vLLM derives 131,072 tokens (_get_and_verify_max_len), not the 40,960 of
// max_position_embeddings.
const qwen3YarnConfig = JSON.stringify({ architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', head_dim: 128,
  hidden_size: 4096, intermediate_size: 12288, max_position_embeddings: 40960, num_attention_heads: 32,
  num_hidden_layers: 36, num_key_value_heads: 8, rope_scaling: { rope_type: 'yarn', factor: 4.0,
    original_max_position_embeddings: 32768 }, rope_theta: 1000000, tie_word_embeddings: false,
  torch_dtype: 'bfloat16', vocab_size: 151936, _name_or_path: 'Qwen/Qwen3-8B' }, null, 2);

test('flow 15: a Qwen3 config.json with YaRN keeps 131,072 tokens, in the page and in its link', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=llama-3.1-8b&g=h100-80gb&ctx=131072`, desktop);
  await clickHitbox(page, 'paste_config');
  await page.locator('#paste').waitFor({ state: 'visible' });
  await page.locator('#paste-text').fill(qwen3YarnConfig);
  await page.locator('#paste-use').click();
  await waitState(page, (s) => s.scenario.model && s.scenario.model.num_hidden_layers === 36);
  let state = await appState(page);
  assert.equal(state.scenario.max_model_len, 131072, 'the core\'s derived maximum, not max_position_embeddings');
  await wheelClickHitbox(page, 'copy_link');
  await page.waitForFunction(() => window.kvcalcLastCopied, null, { timeout: 10000 });
  const link = await page.evaluate(() => window.kvcalcLastCopied);
  assert.deepEqual(errors, []);
  await context.close();

  const fresh = await openApp(env.browser, link, desktop);
  state = await appState(fresh.page);
  assert.deepEqual(state.url_warnings, [], 'the link is not clamped to 40,960');
  assert.equal(state.scenario.max_model_len, 131072);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
});

test('flow 16: the max_num_batched_tokens toggle starts at vLLM\'s default for the card', async () => {
  // vllm/engine/arg_utils.py get_batch_defaults: `vllm serve` takes 2,048 tokens on cards under 70 GiB and 8,192
  // on larger ones other than the A100.
  for (const [gpu, expected] of [['rtx-3090', 2048], ['h100-80gb', 8192]]) {
    const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&m=qwen3-8b&g=${gpu}&ctx=8192`, desktop);
    await wheelClickHitbox(page, 'max_num_batched_tokens_on');
    await waitState(page, (s) => s.scenario.max_num_batched_tokens > 0);
    assert.equal((await appState(page)).scenario.max_num_batched_tokens, expected, gpu);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('flow 17 (phone): the sticky verdict and the Result sentence quote the same KV pair; the largest term reads as a label', async () => {
  // The README's link: Gemma 4 31B on 2 × RTX 3090, int8_per_token_head, 262,144 tokens × 4 sequences, MTP. 4
  // full-length sequences need far more KV than the pool holds (TIGHT, capped). The bar read one sequence against
  // the pool ("needs 10.4 of 10.9") while the sentence read the growing part alone ("holds 10.62 of 40.31").
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=gemma-4-31b&g=rtx-3090&tp=2&kv=int8_per_token_head&ctx=262144&seqs=4&mtp=1`, phone);
  const state = await appState(page);
  assert.equal(state.verdict, 'TIGHT');
  const bar = state.sticky_line.match(/needs ([\d.]+)(?: GiB KV, | of )([\d.]+) GiB/);
  assert.ok(bar, `the sticky line quotes a KV pair: ${state.sticky_line}`);
  const mirror = await mirrorText(page);
  const sentence = mirror.match(/the KV pool holds ([\d.]+) GiB of the ([\d.]+) GiB that 4 full-length sequences/);
  assert.ok(sentence, `the Result sentence quotes the pool and the need: ${mirror}`);
  const [pool, needs] = [Number(sentence[1]), Number(sentence[2])];
  assert.equal(Number(bar[1]).toFixed(1), needs.toFixed(1), 'the same KV need on the bar and in the sentence');
  assert.equal(Number(bar[2]).toFixed(1), pool.toFixed(1), 'the same KV pool on the bar and in the sentence');
  // TIGHT: one full-length sequence fits the pool and all 4 do not, so a need above the pool is the 4 sequences'.
  assert.ok(needs > pool, 'the need is the 4 sequences\' KV, not one sequence\'s');
  // "Available KV cache memory: X GiB" is what vLLM prints for the pool.
  const logged = state.startup_lines.find((l) => l.startsWith('Available KV cache memory:'));
  assert.equal(logged, `Available KV cache memory: ${pool.toFixed(2)} GiB`);
  assert.match(mirror, /largest term: KV cache \(growing\)\./);
  assert.doesNotMatch(mirror, /kv_growing/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('flow 18 (phone): the weights variant list keeps its label and "(?)" on its own line', async () => {
  // On a 390 px phone the list was 14 em wide, so the "(?)" after "weights variant" wrapped onto a line of its own.
  const { context, page, errors } = await openApp(env.browser,
    `${env.server.url}?v=1&m=gemma-4-31b&g=rtx-3090&tp=2&kv=int8_per_token_head&ctx=262144&seqs=4&mtp=1`, phone);
  const state = await appState(page);
  const combo = state.hitboxes.weights_variant, help = state.hitboxes.weights_variant_help;
  assert.ok(combo && help, 'Gemma 4 31B has several weights variants: the list and its help are drawn');
  const middle = (b) => b[1] + b[3] / 2;
  assert.ok(Math.abs(middle(combo) - middle(help)) < combo[3] / 2,
    `"(?)" at y ${middle(help)}, the list at y ${middle(combo)}: one line`);
  assert.ok(help[0] + help[2] <= page.viewportSize().width, 'the "(?)" is inside the screen');
  assert.deepEqual(errors, []);
  await context.close();
});
