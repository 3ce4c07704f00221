// The calculator in headless Chromium: a link restores its scenario, a click changes the URL and reopening
// restores the change, garbage parameters render with a warning, embed mode, phone drag-scroll and tap, idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useSiteAndBrowser, openApp, pixelVariance, appState, clickHitbox, hitboxCentre, touchDrag, mirrorText,
  desktop, phone, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();

const shot = (page, name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
const link = 'v=1&m=gemma-4-31b&g=rtx-3090&tp=2&ctx=65536&seqs=4&kv=fp8_e4m3';

test('a link restores its scenario; a click changes the URL; reopening restores the change', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?${link}`, desktop);
  let state = await appState(page);
  assert.equal(state.scenario.model_id, 'gemma-4-31b');
  assert.equal(state.scenario.gpu, 'rtx-3090');
  assert.equal(state.scenario.tensor_parallel_size, 2);
  assert.equal(state.scenario.max_model_len, 65536);
  assert.equal(state.scenario.max_num_seqs, 4);
  assert.equal(state.scenario.kv_cache_dtype, 'fp8_e4m3');
  assert.deepEqual(state.url_warnings, []);
  assert.match(await mirrorText(page), /^(PASS|TIGHT|FAIL): .*max_model_len 65,536, max_num_seqs 4/);
  await shot(page, 'desktop-link');

  await clickHitbox(page, 'tp_1');  // tensor_parallel_size 2 → 1: the tp key leaves the URL (1 is the default)
  await page.waitForFunction(() => !/(^|&|\?)tp=/.test(location.search), null, { timeout: 10000 });
  const changed = page.url();
  assert.equal((await appState(page)).scenario.tensor_parallel_size, 1);
  assert.deepEqual(errors, []);
  await context.close();

  const reopened = await openApp(env.browser, changed, desktop);
  state = await appState(reopened.page);
  assert.equal(state.scenario.tensor_parallel_size, 1);
  assert.equal(state.scenario.max_num_seqs, 4);
  assert.equal(state.scenario.model_id, 'gemma-4-31b');
  assert.deepEqual(reopened.errors, []);
  await reopened.context.close();
});

test('garbage parameters still render, with a visible warning and per-field fallback', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&ctx=banana&zzz=1&tp=99&m=gemma-4-31b&seqs=-3`, desktop);
  const state = await appState(page);
  assert.ok(state.url_warnings.length >= 3, `warnings: ${JSON.stringify(state.url_warnings)}`);
  assert.equal(state.scenario.model_id, 'gemma-4-31b', 'the good field survives');
  assert.equal(state.scenario.max_model_len, 180000, 'the bad field falls back to its default');
  assert.equal(state.ok, true);
  const png = await shot(page, 'desktop-garbage-link');
  assert.ok(await pixelVariance(page, png) > 50);
  assert.deepEqual(errors, []);
  await context.close();
});

test('embed mode shows the compact result with a link to the full calculator', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}embed.html?${link}`,
    { viewport: { width: 520, height: 420 }, deviceScaleFactor: 1 });
  const state = await appState(page);
  assert.equal(state.embed, true);
  assert.ok(state.hitboxes.open_full, 'open-in-kvcalc link is drawn');
  assert.ok(!state.hitboxes.max_num_seqs, 'no input panels in embed mode');
  assert.match(page.url(), /embed=1/);
  await shot(page, 'embed');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: single column, a finger drag scrolls, a tap presses a button', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?${link}`, phone);
  assert.equal((await appState(page)).narrow_layout, true);
  await shot(page, 'phone-top');
  const before = await hitboxCentre(page, 'max_model_len+');
  await touchDrag(page, 200, 760, -420);     // a vertical swipe scrolls whatever it starts on
  await page.waitForTimeout(300);
  const after = await hitboxCentre(page, 'max_model_len+');
  assert.ok(after.y < before.y - 200, `content scrolled (button y ${before.y} → ${after.y})`);
  await shot(page, 'phone-scrolled');
  assert.ok(after.y > 0 && after.y < 844, `the stepper is on screen after scrolling (y ${before.y} → ${after.y})`);
  await page.touchscreen.tap(after.x, after.y);  // + doubles 65,536 to the next power of two
  await page.waitForFunction(() => /(^|&|\?)ctx=131072(&|$)/.test(location.search), null, { timeout: 10000 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('idle: no frames are drawn after a second without input', async () => {
  const { context, page } = await openApp(env.browser, `${env.server.url}?${link}`, desktop);
  await page.waitForTimeout(1000);
  const start = await page.evaluate(() => window.kvcalcFramesDrawn);
  await page.waitForTimeout(1500);
  const end = await page.evaluate(() => window.kvcalcFramesDrawn);
  assert.equal(end - start, 0, `frames drawn while idle: ${end - start}`);
  await context.close();
});

const llamaConfig = JSON.stringify({ architectures: ['LlamaForCausalLM'], model_type: 'llama', hidden_size: 4096,
  num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 8, head_dim: 128, intermediate_size: 14336,
  vocab_size: 128256, max_position_embeddings: 131072, torch_dtype: 'bfloat16' });

test('a config.json pasted into the HTML overlay becomes the model', async () => {
  const { context, page, errors } = await openApp(env.browser, `${env.server.url}?v=1&g=rtx-4090`, desktop);
  await clickHitbox(page, 'paste_config');
  await page.locator('#paste').waitFor({ state: 'visible' });
  await page.locator('#paste-text').fill(llamaConfig);
  await page.locator('#paste-use').click();
  await page.waitForFunction(() => /Read config.json/.test(window.kvcalcState.model_status), null, { timeout: 10000 });
  const state = await appState(page);
  assert.equal(state.ok, true);
  assert.equal(state.scenario.model.num_hidden_layers, 32);
  await shot(page, 'desktop-pasted-config');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a gated Hugging Face model gives a clear message and points to the paste route', async () => {
  const context = await env.browser.newContext(desktop);
  await context.route('https://huggingface.co/**', (route) => route.fulfill({ status: 401, body: 'gated' }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(env.server.url);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await page.waitForTimeout(300);
  const field = (await appState(page)).hitboxes.hf_load;
  await page.mouse.click(field[0] - 60, field[1] + field[3] / 2);  // the id box left of "Load"
  await page.keyboard.type('meta-llama/Llama-3.1-8B');
  await clickHitbox(page, 'hf_load');
  await page.waitForFunction(() => /gated or private/.test(window.kvcalcState.model_status), null, { timeout: 10000 });
  assert.match((await appState(page)).model_status, /paste its config\.json/);
  assert.deepEqual(errors, []);
  await context.close();
});
