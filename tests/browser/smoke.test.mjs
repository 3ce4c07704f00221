// The built site in headless Chromium from a sub-path: it loads, draws, logs no errors, the canvas is
// not blank, and desktop + phone screenshots are saved for people to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useSiteAndBrowser, openApp, pixelVariance, mirrorText, desktop, phone, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();

for (const [name, device] of [['desktop', desktop], ['phone', phone]]) {
  test(`page draws on ${name} without console errors`, async () => {
    const { context, page, errors } = await openApp(env.browser, env.server.url, device);
    const png = await page.screenshot({ path: path.join(screenshotDir, `smoke-${name}.png`) });
    const variance = await pixelVariance(page, png);
    assert.ok(variance > 50, `canvas looks blank (pixel variance ${variance.toFixed(1)})`);
    assert.equal(await page.locator('#loading').isVisible(), false, 'loading overlay still visible');
    // Two live regions on the loaded page, the keyboard focus and the result: the loading overlay's progress text
    // is not one.
    const live = await page.evaluate(() => [...document.querySelectorAll('[aria-live], [role=status], [role=alert]')]
      .map((e) => e.id));
    assert.deepEqual(live, ['focus-text', 'result-text']);
    const mirrored = await mirrorText(page);
    assert.match(mirrored, /^(PASS|TIGHT|FAIL): Llama 3.1 8B Instruct on 1 × RTX 4090 .*max_model_len 32,768/);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
