// A Hub GGUF on a phone, touch only: open the llama.cpp (GGUF) section, type ORG/NAME/FILE.gguf in the Hub GGUF box,
// tap Read. huggingface.co is routed (page.route) to the real fixture bytes of tests/data/gguf, honouring Range as
// the Hub's CDN does, so no test touches the network. The verdict, the per-device table and the llama-server command
// must equal what `kvcalc --gguf ORG/NAME/FILE.gguf --json` prints, the CLI reading the same bytes from a loopback
// range server (HF_ENDPOINT); only header bytes are asked for, and the page's link (gguf=) reopens the same model.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { useSiteAndBrowser, appState, waitHitbox, waitState, tapHitbox, touchDrag, phone, repoDir,
  screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const fixtures = path.join(repoDir, 'tests/data/gguf');
const cli = process.env.KVCALC_CLI || path.join(repoDir, 'build/native-release/cli/kvcalc');
const repo = 'test-org/fixtures-GGUF';

/** Bytes [from, to] of a fixture for a Range header, as a CDN answers it: {status, body, headers}. */
function rangeAnswer(file, range) {
  // cut-<N>-<file>: the fixture's first N bytes, a Hub upload that did not finish.
  const cut = /^cut-(\d+)-(.+)$/.exec(file);
  const whole = fs.readFileSync(path.join(fixtures, cut ? cut[2] : file));
  const all = cut ? whole.subarray(0, Number(cut[1])) : whole;
  const m = /bytes=(\d+)-(\d+)/.exec(range || '');
  if (!m) return { status: 200, body: all, headers: {} };
  const from = Number(m[1]), to = Math.min(Number(m[2]), all.length - 1);
  return { status: 206, body: all.subarray(from, to + 1), headers: { 'content-range': `bytes ${from}-${to}/${all.length}` } };
}

/** The file a Hub resolve URL names in the routed repo, or null. */
function fileOf(pathname) {
  const m = new RegExp(`^/${repo}/resolve/[^/]+/(.+)$`).exec(pathname);
  const real = m && m[1].replace(/^cut-\d+-/, '');
  return m && fs.existsSync(path.join(fixtures, real)) ? m[1] : null;
}

/** A loopback Hub for the CLI (HF_ENDPOINT), serving the same fixtures with Range. */
const server = http.createServer((req, res) => {
  const file = fileOf(new URL(req.url, 'http://x').pathname);
  if (!file) { res.writeHead(404); res.end('Entry not found'); return; }
  const a = rangeAnswer(file, req.headers.range);
  res.writeHead(a.status, a.headers);
  res.end(a.body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
after(() => server.close());
const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'kvcalc-hub-gguf-'));

/** `kvcalc --gguf REF --engine llama.cpp` at the page's settings, --json, read through the loopback Hub (run
 * asynchronously: the loopback server answers from this same process). */
async function cliJson(ref, scenario) {
  const args = ['--gguf', ref, '--engine', 'llama.cpp', '--gpu', scenario.gpu,
    '--max-model-len', String(scenario.max_model_len), '--json'];
  if (scenario.max_num_seqs > 0) args.push('--max-num-seqs', String(scenario.max_num_seqs));
  const envs = { ...process.env, HF_ENDPOINT: `http://127.0.0.1:${server.address().port}`, XDG_CACHE_HOME: cache, HF_TOKEN: '' };
  try {
    return JSON.parse((await promisify(execFile)(cli, args, { encoding: 'utf8', env: envs })).stdout);
  } catch (err) {
    if (err.status !== 1) throw err;  // 1 = FAIL verdict, still a report
    return JSON.parse(err.stdout);
  }
}

/** A phone page with huggingface.co routed to the fixtures; `asked` logs each path and Range. `maxBytes` caps each
 * 206 answer (a server may send fewer bytes than a range asks for; HTTP lets it). */
async function openRouted(url, maxBytes = Infinity, { hideRange = false } = {}) {
  const context = await env.browser.newContext(phone);
  const asked = [];
  await context.route('https://huggingface.co/**', async (route) => {
    const u = new URL(route.request().url());
    const range = route.request().headers().range || '';
    asked.push({ path: u.pathname, range });
    // hideRange: a CDN that does not expose Content-Range to scripts (the page then knows no file size).
    const cors = hideRange ? { 'access-control-allow-origin': '*' }
      : { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Content-Range' };
    const file = fileOf(u.pathname);
    if (!file) return route.fulfill({ status: 404, body: 'Entry not found', headers: cors });
    const a = rangeAnswer(file, range);
    if (a.status === 206 && a.body.length > maxBytes) {
      const from = Number(/bytes=(\d+)/.exec(range)[1]);
      a.body = a.body.subarray(0, maxBytes);
      a.headers['content-range'] = a.headers['content-range'].replace(/^bytes \d+-\d+/, `bytes ${from}-${from + maxBytes - 1}`);
    }
    return route.fulfill({ status: a.status, body: a.body, headers: { ...cors, ...a.headers } });
  });
  const page = await context.newPage();
  const errors = [];
  page.on('console', (msg) => { if (msg.type() === 'error' && !/404/.test(msg.text())) errors.push(msg.text()); });
  page.on('pageerror', (err) => errors.push(String(err)));
  await page.goto(url);
  await page.waitForFunction(() => (window.kvcalcFramesDrawn || 0) >= 2, null, { timeout: 60000 });
  await page.waitForTimeout(300);
  return { context, page, errors, asked };
}

/** Swipes the page (touch) until the widget `name` is on screen, away from the sticky bar and the bottom edge. */
async function scrollIntoView(page, name) {
  const height = page.viewportSize().height;
  for (let i = 0; i < 20; i++) {
    const { y } = await waitHitbox(page, name);
    if (y > 140 && y < height - 60) return;
    const dy = y >= height - 60 ? -Math.min(400, y - height / 2) : Math.min(400, height / 2 - y);
    await touchDrag(page, 40, height / 2, dy);
    await page.waitForTimeout(250);
  }
  throw new Error(`could not scroll "${name}" into view`);
}

/** Opens the GGUF section, taps the Hub GGUF box, types `ref` and taps Read. */
async function readHub(page, ref) {
  const state = await appState(page);
  if (!state.hitboxes.gguf_hub) {
    await scrollIntoView(page, 'gguf_section');
    await tapHitbox(page, 'gguf_section');
  }
  await scrollIntoView(page, 'gguf_hub');
  await tapHitbox(page, 'gguf_hub');
  await page.keyboard.type(ref);
  await page.waitForTimeout(200);
  await scrollIntoView(page, 'gguf_hub_read');
  await tapHitbox(page, 'gguf_hub_read');
}

const printed = (line) => line.log_line.match(/= +([\d.]+(?: … [\d.]+)?) MiB/)[1];

test('phone, touch only: a Hub GGUF → verdict, buffers per device and command equal the CLI; the link reopens it', async () => {
  const { context, page, errors, asked } = await openRouted(env.server.url);
  const ref = `${repo}/llama-2-tiny-random.gguf`;
  await readHub(page, `https://huggingface.co/${repo}/blob/main/llama-2-tiny-random.gguf`);
  await waitState(page, (s) => s.gguf.in_use && s.gguf.buffers && s.gguf.buffers.lines.length > 0, undefined, 30000);
  const s = await appState(page);
  assert.equal(s.scenario.engine, 'llama.cpp');
  assert.equal(s.gguf.hub, ref, 'the /blob/ URL is read as ORG/NAME/FILE');
  assert.match(s.gguf.status, /^Read the header of test-org\/fixtures-GGUF\/llama-2-tiny-random\.gguf from the Hub/);

  const j = await cliJson(ref, s.scenario);
  assert.equal(s.verdict, j.verdict);
  assert.match(s.drawn_text.gguf_verdict, new RegExp('^' + j.verdict));
  assert.equal(s.gguf.terms.weights_bytes, j.terms.weights_bytes);
  assert.equal(s.gguf.terms.kv_bytes_per_token, j.terms.kv_bytes_per_token);
  const cliLines = j.llama_cpp_buffers.lines;
  assert.deepEqual(s.gguf.buffers.lines.map((l) => [l.device, l.kind, l.bytes, l.lower_bytes, l.log_line]),
    cliLines.map((l) => [l.device, l.kind, l.bytes, l.lower_bytes || 0, l.log_line]));  // the CLI leaves lower_bytes 0 out
  for (const d of [...new Set(cliLines.map((l) => l.device))]) {
    const cell = (kind) => cliLines.find((l) => l.device === d && l.kind === kind);
    assert.equal(s.drawn_text[`gguf_row_${d}`], ['model', 'KV', 'compute'].map((k) => (cell(k) ? printed(cell(k)) : '')).join(' | '));
  }
  // The command downloads the file read, with llama.cpp's own Hub flags; the CLI prints the same.
  assert.equal(s.gguf.command, j.command);
  assert.equal(s.drawn_text.gguf_command, j.command);
  assert.match(j.command, /llama-server --hf-repo test-org\/fixtures-GGUF --hf-file llama-2-tiny-random\.gguf \\/);
  // Only the header was asked for: ranges from byte 0, ending before the file (1,750,560 B; the tensor data starts
  // at 724,416) and within one doubling of the header's end.
  const ranges = asked.filter((a) => a.range).map((a) => a.range.match(/bytes=(\d+)-(\d+)/).slice(1).map(Number));
  assert.ok(ranges.length >= 1 && asked.every((a) => a.range), 'every request carried a Range');
  let next = 0;
  for (const [from, to] of ranges) { assert.equal(from, next, 'no byte asked twice'); next = to + 1; }
  console.log(`# Hub GGUF, page: ${ranges.length} range requests, ${next} bytes of 1750560 (header 724416)`);
  assert.ok(next > 724416 && next < 2 * 724416, `bytes asked ${next}`);
  await page.screenshot({ path: path.join(screenshotDir, 'gguf-hub-phone.png') });

  // The link names the Hub GGUF (gguf=), not the catalog model; a fresh page reads it again and prices the same.
  const link = page.url();
  assert.match(link, /[?&]gguf=test-org%2Ffixtures-GGUF%2Fllama-2-tiny-random\.gguf(&|$)/);
  assert.doesNotMatch(link, /[?&]m=/);
  assert.deepEqual(errors, []);
  await context.close();

  const again = await openRouted(link);
  await waitState(again.page, (x) => x.gguf.in_use && x.gguf.buffers, undefined, 30000);
  const t = await appState(again.page);
  assert.deepEqual(t.url_warnings, []);
  assert.equal(t.verdict, s.verdict);
  assert.deepEqual(t.gguf.buffers.lines, s.gguf.buffers.lines);
  assert.equal(t.gguf.command, s.gguf.command);
  assert.equal(t.gguf.hub, ref);
  assert.deepEqual(again.errors, []);
  await again.context.close();
});

test('phone: a Hub GGUF that is not there, and text that is no Hub GGUF, each get a clear message', async () => {
  const { context, page, errors } = await openRouted(env.server.url);
  await readHub(page, `${repo}/missing.gguf`);
  await waitState(page, (s) => s.gguf.status_is_error, undefined, 20000);
  let s = await appState(page);
  assert.match(s.gguf.status, /HTTP 404 for https:\/\/huggingface\.co\/test-org\/fixtures-GGUF\/resolve\/main\/missing\.gguf/);
  assert.match(s.gguf.status, /check the repo, the revision and the file name/);
  assert.equal(s.gguf.in_use, false);
  assert.equal(s.scenario.engine, 'vllm', 'nothing was read: the landing scenario stays');
  assert.doesNotMatch(page.url(), /gguf=/);

  // Clear the box (select all, type over it) and type a repo without a file.
  await tapHitbox(page, 'gguf_hub');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Qwen/Qwen3-8B');
  await tapHitbox(page, 'gguf_hub_read');
  await waitState(page, (x) => /is not a Hub GGUF file/.test(x.gguf.status));
  s = await appState(page);
  assert.match(s.gguf.status, /type ORG\/NAME\/FILE\.gguf/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: a Hub that answers each range with fewer bytes than asked is asked again, and the model reads the same', async () => {
  // The page used to stitch a short answer in as if it were whole: "general.name is 5116089176692883464 bytes long".
  const { context, page, errors, asked } = await openRouted(env.server.url, 100000);
  const ref = `${repo}/llama-2-tiny-random.gguf`;
  await readHub(page, ref);
  await waitState(page, (s) => s.gguf.in_use && s.gguf.buffers && s.gguf.buffers.lines.length > 0, undefined, 30000);
  const s = await appState(page);
  const j = await cliJson(ref, s.scenario);
  assert.equal(s.gguf.terms.weights_bytes, j.terms.weights_bytes);
  assert.deepEqual(s.gguf.buffers.lines.map((l) => l.bytes), j.llama_cpp_buffers.lines.map((l) => l.bytes));
  assert.ok(asked.length > 3, 'the short answers were followed by more range requests');
  assert.deepEqual(errors, []);
  await context.close();
});

test('a Hub file cut inside its header, from a CDN that hides Content-Range: the page names where it ends, not "still downloading?"', async () => {
  const { context, page, errors } = await openRouted(env.server.url, Infinity, { hideRange: true });
  await readHub(page, `${repo}/cut-300000-llama-2-tiny-random.gguf`);
  await waitState(page, (s) => s.gguf.status_is_error, undefined, 30000);
  const s = await appState(page);
  assert.match(s.gguf.status, /^cut-300000-llama-2-tiny-random\.gguf ends inside its GGUF header \(the file ends after 300\.0 kB/);
  assert.match(s.gguf.status, /on the Hub cut short/);
  assert.doesNotMatch(s.gguf.status, /still downloading/);
  assert.equal(s.gguf.in_use, false);
  assert.deepEqual(errors, []);
  await context.close();
});
