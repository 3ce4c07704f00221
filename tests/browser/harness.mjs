// Shared pieces of the browser tests: a static server for the built site on 127.0.0.1 and Debian's
// Chromium driven by playwright-core (no browser download; flags from ../shared/TOOLCHAIN.md).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoDir = path.resolve(here, '../..');
export const siteDir = path.join(repoDir, 'build/wasm-release/site');
export const screenshotDir = path.join(repoDir, 'build/wasm-release/screenshots');

const types = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.png': 'image/png', '.json': 'application/json', '.md': 'text/markdown',
  '.ttf': 'font/ttf' };

/** Serves `root` under the URL prefix `base` (e.g. '/kvcalc/' like GitHub Pages) on 127.0.0.1, random port. */
export async function serveSite(root = siteDir, base = '/kvcalc/') {
  // 64 KiB of request head: GitHub Pages and common servers take links far past node's 16 KiB default, and the
  // bad-link flows open 30 KB links.
  const server = http.createServer({ maxHeaderSize: 65536 }, (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (!url.pathname.startsWith(base)) { res.writeHead(404); res.end(); return; }
    let rel = decodeURIComponent(url.pathname.slice(base.length)) || 'index.html';
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404); res.end('not found'); return;
    }
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream',
      'content-length': body.length });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${base}`, close: () => new Promise((r) => server.close(r)) };
}

export async function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--use-gl=angle', '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
  });
}

export const desktop = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };
export const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

/** Opens `url` in a fresh context, collects console errors, waits until the app has drawn frames. */
export async function openApp(browser, url, device = desktop) {
  const context = await browser.newContext(device);
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error') errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await page.waitForTimeout(300);
  return { context, page, errors };
}

/** Pixel variance of a PNG screenshot (0 for a blank canvas), measured in the page with a 2D canvas. */
export async function pixelVariance(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width; c.height = img.height;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0, sum = 0, sum2 = 0;
    for (let i = 0; i < d.length; i += 16) { const v = (d[i] + d[i + 1] + d[i + 2]) / 3; sum += v; sum2 += v * v; n++; }
    const mean = sum / n;
    return sum2 / n - mean * mean;
  }, png.toString('base64'));
}

/** The app's published state (window.kvcalcState, written after every drawn frame). */
export async function appState(page) {
  return page.evaluate(() => window.kvcalcState);
}

/** Centre of a widget the app published under `name` in kvcalcState.hitboxes (CSS px). */
export async function hitboxCentre(page, name) {
  const box = (await appState(page)).hitboxes[name];
  if (!box) throw new Error(`no hitbox "${name}" in kvcalcState`);
  return { x: box[0] + box[2] / 2, y: box[1] + box[3] / 2 };
}

/** Clicks a published widget with the mouse. */
export async function clickHitbox(page, name) {
  const { x, y } = await hitboxCentre(page, name);
  await page.mouse.click(x, y);
}

/** A finger drag from (x, y) by dy CSS px, through Chrome's touch events (what a phone sends). */
export async function touchDrag(page, x, y, dy, steps = 8) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + (dy * i) / steps }] });
    await page.waitForTimeout(30);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Registers before/after hooks that serve the site and launch Chromium once per test file; the returned
 *  object's `server` and `browser` are set by the time the tests run. */
export function useSiteAndBrowser() {
  const env = { server: null, browser: null };
  before(async () => {
    fs.mkdirSync(screenshotDir, { recursive: true });
    env.server = await serveSite();
    env.browser = await launchChromium();
  });
  after(async () => { await env.browser?.close(); await env.server?.close(); });
  return env;
}

/** Waits until `predicate(window.kvcalcState)` holds (the predicate runs in the page). */
export async function waitState(page, predicate, arg, timeout = 15000) {
  await page.waitForFunction(([src, a]) => {
    const s = window.kvcalcState;
    return s && new Function('s', 'a', `return (${src})(s, a);`)(s, a);
  }, [predicate.toString(), arg], { timeout });
}

/** Waits for a widget the app publishes under `name` (it may need a frame to appear, e.g. a combo's rows). */
export async function waitHitbox(page, name, timeout = 15000) {
  await page.waitForFunction((n) => window.kvcalcState && window.kvcalcState.hitboxes[n], name, { timeout });
  return hitboxCentre(page, name);
}

/** A finger tap on a published widget (touch only: the phone runs never use the mouse). */
export async function tapHitbox(page, name) {
  const { x, y } = await waitHitbox(page, name);
  await page.touchscreen.tap(x, y);
  await page.waitForTimeout(150);
}

/** The screen-reader mirror once it has settled (the page writes it 600 ms after the last change): the text of the
 *  page's one live region, found by its role and name as a screen reader finds it (strict: a second match throws). */
export async function mirrorText(page, wait = 900) {
  await page.waitForTimeout(wait);
  return page.getByRole('status', { name: 'kvcalc result' }).textContent();
}

/** The id of document.activeElement ("" when it has none). */
export async function activeElementId(page) {
  return page.evaluate(() => (document.activeElement && document.activeElement.id) || document.activeElement?.tagName || '');
}

/** Desktop: turns the mouse wheel over a widget's column until the widget is on screen, then clicks it. */
export async function wheelClickHitbox(page, name) {
  const height = page.viewportSize().height;
  for (let i = 0; i < 30; i++) {
    const { x, y } = await waitHitbox(page, name);
    if (y > 20 && y < height - 20) { await page.mouse.click(x, y); return; }
    await page.mouse.move(x, Math.min(Math.max(y, 100), height - 100));
    await page.mouse.wheel(0, y >= height - 20 ? 240 : -240);  // below the fold: down; above: up
    await page.waitForTimeout(250);
  }
  throw new Error(`could not scroll "${name}" into view`);
}
