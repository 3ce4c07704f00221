// "Paste a start-up log" as a person does it (docs/PAGE.md "Start-up log"): on a phone by touch alone through the
// paste overlay, on a desktop by dropping the file. Assertions are on what a user sees: the screen-reader mirror
// (the page's live region), the panel's drawn text, the link. The logs are real ones from tests/data/startup_logs,
// each with its SOURCE line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSiteAndBrowser, openApp, appState, waitState, waitHitbox, tapHitbox, touchDrag, mirrorText,
  wheelClickHitbox, desktop, phone, repoDir, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const shot = (page, name) => page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
const readLog = (name) => fs.readFileSync(path.join(repoDir, 'tests/data/startup_logs', name), 'utf8');

/** Swipes (touch) until the widget is in the middle of a phone screen. */
async function reveal(page, name) {
  for (let i = 0; i < 30; i++) {
    const { y } = await waitHitbox(page, name);
    if (y > 150 && y < 780) return;  // on a 844 px screen, below the sticky verdict
    await touchDrag(page, 200, y > 600 ? 700 : 250, y > 600 ? -Math.min(420, y - 400) : Math.min(420, 400 - y));
    await page.waitForTimeout(400);
  }
  throw new Error(`could not bring "${name}" on screen`);
}

// issue 10517's RTX 3090 boots of meta-llama/Llama-3.1-8B-Instruct on vLLM 0.6.4 (V0): at --max-model-len 20000 it
// printed kv_cache_size=3.81GiB and "Maximum concurrency for 20000 tokens per request: 1.56x"; at 29000 the same
// machine refused ("The model's max seq len (29000) is larger than the maximum number of tokens that can be stored
// in KV cache (23648)").
const boot20k = 'vllm-0.6.4-v0-llama31-8b-3090-20k.log';

test('phone, touch only: paste a vLLM log → printed beside predicted, the calibrated answer, and a link that keeps it', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  await reveal(page, 'paste_log');
  await tapHitbox(page, 'paste_log');
  await page.locator('#paste').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#paste-title').textContent(), 'Paste a start-up log (vLLM, llama.cpp or SGLang)');
  await page.locator('#paste-text').fill(readLog(boot20k));  // what a long-press → Paste puts in the textarea
  await page.locator('#paste-use').tap();
  await waitState(page, (s) => s.log.active && s.log.rows.length > 0);

  const mirror = await mirrorText(page);
  // The printed pool beside kvcalc's calibrated value (and kvcalc's own, uncalibrated, with its difference).
  assert.match(mirror, /Available KV cache memory \(line 5\): printed 3\.81 GiB; kvcalc \d+\.\d\d GiB \([+−±]\d+\.\d\d GiB\); calibrated 3\.81 GiB \(±0\.00 GiB\)/,
    mirror);
  assert.match(mirror, /Maximum concurrency \(line 7\): printed 1\.56x;/);
  assert.match(mirror, /Every answer is priced from this boot's measured terms\./);
  // The log filled what the fresh page had not been told: the boot's length, the card's CUDA total, V0.
  const state = await appState(page);
  assert.equal(state.scenario.max_model_len, 20000);
  assert.equal(state.scenario.vram_gib, 23.58);
  assert.equal(state.scenario.gpu ?? '', '');
  assert.ok(state.log.filled.some((f) => /^max_model_len 20000 \(log line 7\)/.test(f)), state.log.filled.join(' | '));
  assert.equal(state.log.what_if, false, 'the page now is the boot itself');
  // The calibrated solvers. The boot printed 1.56x concurrency at 20,000 tokens: one full-length sequence fits, not
  // two. The longest max_model_len that boots is above the boot's 20,000 and not where this machine refused (29,000;
  // V0 batches max_model_len tokens up to 32K, so the profile peak grows with it until chunked prefill takes over).
  assert.match(mirror, /Largest max_num_seqs at full length: 1\./);
  const longest = Number(/Largest max_model_len that boots: ([\d,]+) tokens\./.exec(mirror)[1].replace(/,/g, ''));
  assert.ok(longest > 20000 && !(longest >= 29000 && longest <= 32768), `largest max_model_len ${longest}`);
  assert.equal(state.solver.max_model_len, longest);
  const drawn = state.drawn_text;
  assert.match(drawn.log_rows, /Available KV cache memory \(line 5\): printed 3\.81 GiB;.*calibrated 3\.81 GiB/);
  assert.match(drawn.log_answers, new RegExp(`Largest max_model_len that boots: ${longest.toLocaleString('en-US')} tokens`));
  await reveal(page, 'forget_log');
  await shot(page, 'log-phone-pasted');

  // A what-if on the same boot: type 29000 (the soft keyboard). The same machine's 29k boot printed
  // kv_cache_size=2.89GiB and refused; the calibrated prediction must say the same within 0.02 GiB.
  await reveal(page, 'max_model_len');
  await tapHitbox(page, 'max_model_len');
  await page.waitForFunction(() => document.activeElement && document.activeElement.id === 'text-proxy');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('29000', { delay: 20 });
  await page.keyboard.press('Enter');
  await waitState(page, (s) => s.scenario.max_model_len === 29000 && s.log.what_if);
  const whatIf = await mirrorText(page);
  const pool = Number(/Available KV cache memory \(line 5\): printed 3\.81 GiB; kvcalc [^;]*; calibrated (\d+\.\d\d) GiB/.exec(whatIf)[1]);
  assert.ok(Math.abs(pool - 2.89) <= 0.02, `calibrated pool at 29000: ${pool} GiB (the 29k boot printed 2.89)`);
  assert.match(whatIf, /vLLM refuses to start/);
  assert.equal((await appState(page)).verdict, 'FAIL');
  await reveal(page, 'log_boot_settings');
  await tapHitbox(page, 'log_boot_settings');
  await waitState(page, (s) => s.scenario.max_model_len === 20000 && !s.log.what_if);

  await reveal(page, 'forget_log');
  await shot(page, 'log-phone-pasted');

  // Copy link (touch) → a fresh page opens the same calibrated verdict from the measured terms alone.
  await reveal(page, 'copy_link');
  await tapHitbox(page, 'copy_link');
  await page.waitForFunction(() => window.kvcalcLastCopied, null, { timeout: 10000 });
  const link = await page.evaluate(() => window.kvcalcLastCopied);
  assert.match(link, /[?&]mt=/, 'the measured terms travel in the link');
  assert.doesNotMatch(decodeURIComponent(link), /Memory profiling|Loading model weights/, 'the log text does not');
  assert.deepEqual(errors, []);
  await context.close();

  const fresh = await openApp(env.browser, link, phone);
  const after = await appState(fresh.page);
  assert.deepEqual(after.url_warnings, []);
  assert.equal(after.log.calibrated, true);
  assert.equal(after.verdict_line, state.verdict_line);
  assert.equal(after.solver.max_model_len, longest);
  const freshMirror = await mirrorText(fresh.page);
  assert.match(freshMirror, /Calibrated by the link: a boot's measured terms price every answer \(per card: weights 14\.99 GiB, .*KV cache 3\.81 GiB, of a 23\.58 GiB card at max_model_len 20,000 and utilization 0\.90\)/,
    freshMirror);
  assert.deepEqual(fresh.errors, []);
  await fresh.context.close();
});

test('desktop: a dropped log that contradicts itself shows the core\'s message naming the line, and prices nothing', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  const before = await appState(page);
  // PR 10511's H100 table (vLLM 0.6.5) with its KV line edited from 53.29 to 63.29 GiB: the terms no longer add up to
  // "the current vLLM instance can use 71.29GiB".
  const edited = readLog('vllm-0.6.5-v0-table-llama3-8b-h100.log').replace('available_kv_cache_memory    53.29GiB',
    'available_kv_cache_memory    63.29GiB');
  assert.notEqual(edited, readLog('vllm-0.6.5-v0-table-llama3-8b-h100.log'));
  const drop = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'vllm-h100.log', { type: 'text/plain' }));
    return dt;
  }, edited);
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: drop });
  await waitState(page, (s) => s.log.status_is_error);
  const state = await appState(page);
  assert.match(state.log.status, /^This log cannot be read, so nothing is priced from it:\n• line 11: weights 14\.96 \+ non-torch 1\.79 \+ activation peak 1\.26 \+ KV 63\.29 = 81\.3 GiB, but line 7 says the instance can use 71\.29 GiB/,
    state.log.status);
  assert.equal(state.log.active, false);
  assert.equal(state.log.calibrated, false);
  assert.deepEqual(state.scenario, before.scenario, 'the scenario is untouched');
  assert.match(await mirrorText(page), /Start-up log: This log cannot be read.*line 11: weights 14\.96/s);
  await wheelClickHitbox(page, 'paste_log');
  await shot(page, 'log-desktop-bad');
  // The same file unedited is read and calibrates (dropped the same way).
  await page.locator('#paste-cancel').click();
  const good = await page.evaluateHandle((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'vllm-h100.log', { type: 'text/plain' }));
    return dt;
  }, readLog('vllm-0.6.5-v0-table-llama3-8b-h100.log'));
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: good });
  await waitState(page, (s) => s.log.active && s.log.rows.length > 0);
  const ok = await appState(page);
  assert.equal(ok.log.source, 'vllm-h100.log');
  assert.match(ok.drawn_text.log_rows, /Available KV cache memory \(line 11\): printed 53\.29 GiB;.*calibrated 53\.29 GiB/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('desktop: a llama.cpp log pasted into the overlay sets the engine and lists the numbers it printed', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  await wheelClickHitbox(page, 'paste_log');
  await page.locator('#paste').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#paste-use').textContent(), 'Read this log');
  // llama.cpp b4893 on a V100, pythia 2.8B Q4_K_M: "CUDA0 KV buffer size =   640.00 MiB" (line 15).
  await page.locator('#paste-text').fill(readLog('llama.cpp-b4893-pythia-2.8b-q4km-v100.log'));
  await page.locator('#paste-use').click();
  await waitState(page, (s) => s.log.active);
  const state = await appState(page);
  assert.equal(state.scenario.engine, 'llama.cpp');
  assert.equal(state.log.calibrated, false, 'only vLLM terms calibrate');
  assert.match(state.drawn_text.log_facts, /kv_buffer_size_mib = 640\.00 MiB \(CUDA0, line 15\)/);
  assert.match(await mirrorText(page), /Start-up log \(llama\.cpp[^)]*\):.*Read \d+ numbers from the pasted llama\.cpp[ \w]* log/s);
  // The overlay goes back to being the config.json one for the model panel's button.
  await wheelClickHitbox(page, 'paste_config');
  await page.locator('#paste').waitFor({ state: 'visible' });
  assert.equal(await page.locator('#paste-use').textContent(), 'Use this config');
  assert.equal(await page.locator('#paste-text').inputValue(), '', 'the log text is not offered as a config');
  assert.deepEqual(errors, []);
  await context.close();
});
