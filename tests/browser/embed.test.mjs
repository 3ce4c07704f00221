// The embed view inside a host page on a phone, as docs/EMBEDDING.md tells a writer to put it: at 320, 390 and 520 px
// wide the host page does not scroll sideways, and the verdict, the bar and "Open in kvcalc" are inside the frame's
// visible box. The host page lives on a second origin, as a blog or a docs site would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSiteAndBrowser, repoDir, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const siteUrl = fs.readFileSync(path.join(repoDir, 'docs/site-url.txt'), 'utf8').trim();
const doc = fs.readFileSync(path.join(repoDir, 'docs/EMBEDDING.md'), 'utf8');

/** The first ```html block of EMBEDDING.md: the snippet a writer copies (iframe and, if the doc has one, script). */
function docSnippet() {
  const m = doc.match(/```html\n([\s\S]*?)```/);
  assert.ok(m, 'EMBEDDING.md has an html snippet');
  return m[1].replaceAll(siteUrl, env.server.url);  // the published site → the local build
}

const hostPage = (snippet, width) => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>a blog post</title>
<style>body { margin: 0 auto; padding: 0 12px; font: 16px/1.5 serif; max-width: ${width}px; }</style></head>
<body><h1>Will my model fit?</h1><p>Here is the calculator for the setup I run at home:</p>
${snippet}
<p>That is all.</p></body></html>`;

/** Opens the host page at `width` × 800 on a touch phone and waits for the embedded app to draw. */
async function openHost(width, snippet) {
  const context = await env.browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 2,
    isMobile: true, hasTouch: true });
  await context.route('http://blog.test/**', (route) => route.fulfill({ contentType: 'text/html',
    body: hostPage(snippet, width) }));
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto('http://blog.test/post.html');
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 3 && window.kvcalcState, null, { timeout: 60000 });
  await page.waitForTimeout(800);  // the height message and the frames after the resize
  return { context, page, frame, errors };
}

for (const width of [320, 390, 520]) {
  test(`embed at ${width} px: no sideways scroll, verdict, bar and "Open in kvcalc" visible in the frame`, async () => {
    const { context, page, frame, errors } = await openHost(width, docSnippet());
    const host = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
    assert.ok(host.scroll <= host.inner, `host page is ${host.scroll} px wide in a ${host.inner} px view`);
    const box = await page.evaluate(() => {
      const r = document.querySelector('iframe').getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width, height: r.height };
    });
    assert.ok(box.left >= 0 && box.right <= width, `iframe ${box.left}..${box.right} in ${width} px`);
    const state = await frame.evaluate(() => window.kvcalcState);
    assert.equal(state.embed, true);
    for (const name of ['embed_verdict', 'embed_bar', 'open_full']) {
      const b = state.hitboxes[name];
      assert.ok(b, `${name} drawn`);
      const [x, y, w, h] = b;
      assert.ok(x >= 0 && x + w <= box.width + 0.5, `${name} x ${x}..${x + w} inside the ${box.width} px frame`);
      assert.ok(y >= 0 && y + h <= box.height + 0.5, `${name} y ${y}..${y + h} inside the ${box.height} px frame`);
    }
    await page.screenshot({ path: path.join(screenshotDir, `embed-host-${width}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the embed view reports its height; the doc\'s script sizes the iframe to it', async () => {
  const { context, page, frame } = await openHost(390, docSnippet());
  const reported = await frame.evaluate(() => window.kvcalcEmbedHeight);
  assert.ok(reported > 100 && reported < 800, `reported ${reported} px`);
  const height = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
  assert.ok(Math.abs(height - reported) <= 2, `iframe ${height} px for ${reported} px of content`);
  await context.close();
});
