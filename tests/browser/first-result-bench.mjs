// Benchmark (not a test): time to the first result on a slow phone-class setup — Chromium's CPU throttled 4×, a
// 9 Mbit/s link with 60 ms round trips — and on an unthrottled desktop, files served gzip-compressed as GitHub Pages
// serves them. The first result is the first drawn frame (window.kvcalcFirstFrameMs, from navigation start): the
// verdict is computed before that frame is drawn. Prints the gzip bytes of each file the page loads and best / median
// of five fresh visits per profile.
// Run: node tests/browser/first-result-bench.mjs [SITE_DIR]   (after scripts/build-site.sh; SITE_DIR defaults to
// build/wasm-release/site, another folder compares an older build on the same machine load)
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchChromium, siteDir, phone, desktop } from './harness.mjs';
import { pageFiles } from './budget.mjs';

const kMbitPerS = 9, kRttMs = 60, kCpuSlowdown = 4, kVisits = 5;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml' };

const root = path.resolve(process.argv[2] || siteDir);

function serveGzip() {
  const cache = new Map();
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname.replace(/^\/kvcalc\//, '')) || 'index.html';
    const file = path.join(root, rel);
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) { res.writeHead(404); res.end(); return; }
    if (!cache.has(file)) cache.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
    const body = cache.get(file);
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream',
      'content-encoding': 'gzip', 'content-length': body.length, 'cache-control': 'no-store' });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () =>
    resolve({ url: `http://127.0.0.1:${server.address().port}/kvcalc/`, close: () => new Promise((r) => server.close(r)) })));
}

const gzipOf = (f) => zlib.gzipSync(fs.readFileSync(path.join(root, f)), { level: 9 }).length;
const gzipBytes = pageFiles.reduce((sum, f) => sum + gzipOf(f), 0);
const server = await serveGzip();
const browser = await launchChromium();
// The phone (4× slower CPU, 9 Mbit/s, 60 ms) and a desktop with no throttling, both from the same gzip server.
const profiles = [
  { name: `phone 390×844, ${kCpuSlowdown}× CPU slowdown, ${kMbitPerS} Mbit/s, ${kRttMs} ms RTT`, device: phone, slow: true },
  { name: 'desktop 1280×800, no throttling', device: desktop, slow: false },
];
const results = [];
try {
  for (const profile of profiles) {
    const times = [];
    const milestones = [];
    for (let i = 0; i < kVisits; i++) {
      const context = await browser.newContext(profile.device);
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      if (profile.slow) {
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: kRttMs,
          downloadThroughput: (kMbitPerS * 1e6) / 8, uploadThroughput: (kMbitPerS * 1e6) / 8 });
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: kCpuSlowdown });
      }
      await page.goto(server.url);
      await page.waitForFunction(() => window.kvcalcFirstFrameMs && window.kvcalcState && window.kvcalcState.verdict,
        null, { timeout: 120000 });
      times.push(await page.evaluate(() => window.kvcalcFirstFrameMs));
      milestones.push(await page.evaluate(() => ({ ...window.kvcalcStartup,
        wasm_downloaded: performance.getEntriesByType('resource').find((e) => e.name.endsWith('.wasm'))?.responseEnd })));
      await context.close();
    }
    results.push({ profile, times, milestones });
  }
} finally {
  await browser.close();
  await server.close();
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`site: ${root}`);
console.log(`page download, gzip -9: ${(gzipBytes / 1024).toFixed(1)} KB = ${gzipBytes} bytes`);
for (const f of pageFiles) console.log(`  ${f.padEnd(18)} ${String(gzipOf(f)).padStart(8)} B gzip`);
for (const { profile, times, milestones } of results) {
  times.sort((a, b) => a - b);
  const names = Object.keys(milestones[0] || {}).sort((a, b) => milestones[0][a] - milestones[0][b]);
  console.log(`first result, ${profile.name}: best ${times[0].toFixed(0)} ms, median ${median(times).toFixed(0)} ms ` +
    `[${times.map((t) => t.toFixed(0)).join(', ')}]`);
  console.log('  start-up milestones, median ms after navigation: ' +
    names.map((k) => `${k} ${median(milestones.map((m) => m[k] ?? NaN)).toFixed(0)}`).join(', '));
}
