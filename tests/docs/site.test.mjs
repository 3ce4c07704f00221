// The rendered docs on the built site, served from a sub-path like GitHub Pages (/kvcalc/): KV_MATH's live embeds
// point at the site's own embed view, and the first one loads and shows the verdict the CLI prints for it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { serveSite, launchChromium, siteDir, screenshotDir } from '../browser/harness.mjs';

const built = fs.existsSync(path.join(siteDir, 'kvcalc-app.wasm')) && fs.existsSync(path.join(siteDir, 'docs/KV_MATH.html'));
let server, browser;
before(async () => {
  if (!built) return;
  server = await serveSite();
  browser = await launchChromium();
});
after(async () => { await browser?.close(); await server?.close(); });

test('KV_MATH on the site: embeds resolve under the sub-path and the first shows TIGHT (Qwen 27B dual-turbo, 20 GB)', { skip: !built && 'site not built (scripts/build-site.sh)' }, async () => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  const response = await page.goto(server.url + 'docs/KV_MATH.html');
  assert.equal(response.status(), 200);
  const srcs = await page.locator('iframe').evaluateAll((els) => els.map((e) => e.src));
  assert.ok(srcs.length >= 5, `${srcs.length} iframes`);
  for (const src of srcs) assert.match(src, new RegExp('^' + server.url.replace(/[.]/g, '\\.') + 'embed\\.html\\?v=\\d'), src);
  const images = await page.locator('main img').evaluateAll((els) => els.map((e) => [e.currentSrc, e.naturalWidth]));
  for (const [src, width] of images) assert.ok(width > 0, `image did not load: ${src}`);

  await page.locator('iframe').first().scrollIntoViewIfNeeded();
  const frame = page.frameLocator('iframe').first();
  await frame.locator('#result-text').filter({ hasText: /\w/ }).waitFor({ state: 'attached', timeout: 90000 });
  const text = await frame.locator('#result-text').textContent();
  assert.match(text, /^TIGHT/, text);
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.waitForTimeout(500);
  await page.locator('iframe').first().screenshot({ path: path.join(screenshotDir, 'docs-kv-math-embed.png') });
  assert.deepEqual(errors, []);
  await context.close();
});
