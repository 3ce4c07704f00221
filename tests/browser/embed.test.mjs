// The embed view inside a host page on a phone, as docs/EMBEDDING.md tells a writer to put it: at 320, 390 and 520 px
// wide the host page does not scroll sideways, and the verdict, the bar and "Open in kvcalc" are inside the frame's
// visible box. The host page lives on a second site (localhost, the app on 127.0.0.1), as a blog or a docs site would;
// it is served by a real local server, since Chromium's local-network checks block a page fulfilled under a public
// name (the old blog.test route) from framing 127.0.0.1.
import http from 'node:http';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSiteAndBrowser, repoDir, screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
// The blog: GET /post-<width>.html answers the doc's whole snippet, /post-<width>-noscript.html only its <iframe>
// (a renderer that strips scripts, so the frame keeps the snippet's fixed height).
let host = null;
before(async () => {
  host = http.createServer((req, res) => {
    const m = /^\/post-(\d+)(-noscript)?\.html$/.exec(req.url);
    if (!m) { res.writeHead(404); res.end(); return; }
    const snippet = m[2] ? docSnippet().match(/<iframe[\s\S]*?<\/iframe>/)[0] : docSnippet();
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(hostPage(snippet, Number(m[1])));
  });
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve));
});
after(() => new Promise((resolve) => host.close(resolve)));
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
async function openHost(width, variant = '') {
  const context = await env.browser.newContext({ viewport: { width, height: 800 }, deviceScaleFactor: 2,
    isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(`http://localhost:${host.address().port}/post-${width}${variant}.html`);
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 3 && window.kvcalcState, null, { timeout: 60000 });
  await page.waitForTimeout(800);  // the height message and the frames after the resize
  return { context, page, frame, errors };
}

const cases = [320, 390, 520].map((width) => ({ width, variant: '' })).concat([{ width: 320, variant: '-noscript' }]);
for (const { width, variant } of cases) {
  const how = variant ? 'the iframe alone (no height script, fixed height)' : 'the doc\'s snippet';
  test(`embed at ${width} px, ${how}: no sideways scroll, verdict, bar and "Open in kvcalc" in the frame`, async () => {
    const { context, page, frame, errors } = await openHost(width, variant);
    // A phone widens its layout viewport to fit content wider than the screen, so the bound is the screen's width.
    const host = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }));
    assert.ok(host.scroll <= width && host.inner === width,
      `host page is ${host.scroll} px wide (layout viewport ${host.inner} px) on a ${width} px screen`);
    const box = await page.evaluate(() => {
      const r = document.querySelector('iframe').getBoundingClientRect();
      return { left: r.left, right: r.right, width: r.width, height: r.height };
    });
    assert.ok(box.left >= 0 && box.right <= width, `iframe ${box.left}..${box.right} in ${width} px`);
    if (variant) assert.equal(Math.round(box.height), 420, 'no script: the snippet\'s fixed height');
    const state = await frame.evaluate(() => window.kvcalcState);
    assert.equal(state.embed, true);
    for (const name of ['embed_verdict', 'verdict_title', 'verdict_detail', 'embed_bar', 'open_full']) {
      const b = state.hitboxes[name];
      assert.ok(b, `${name} drawn`);
      const [x, y, w, h] = b;
      assert.ok(x >= 0 && x + w <= box.width + 0.5, `${name} x ${x}..${x + w} inside the ${box.width} px frame`);
      assert.ok(y >= 0 && y + h <= box.height + 0.5, `${name} y ${y}..${y + h} inside the ${box.height} px frame`);
    }
    await page.screenshot({ path: path.join(screenshotDir, `embed-host-${width}${variant}.png`), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('the embed view reports its height; the doc\'s script sizes the iframe to it', async () => {
  const { context, page, frame } = await openHost(390);
  const reported = await frame.evaluate(() => window.kvcalcEmbedHeight);
  assert.ok(reported > 100 && reported < 800, `reported ${reported} px`);
  const height = await page.evaluate(() => document.querySelector('iframe').getBoundingClientRect().height);
  assert.ok(Math.abs(height - reported) <= 2, `iframe ${height} px for ${reported} px of content`);
  await context.close();
});
