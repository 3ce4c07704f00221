// The llama.cpp (GGUF) path on a phone, touch only: open the section, tap "Open a .gguf file…", pick a real GGUF
// fixture in the file chooser, and see the verdict, llama.cpp's start-up buffers per device and the llama-server
// command. The page renders the core's numbers: each is asserted equal to what `kvcalc --gguf <same file> --json`
// prints for the same settings (the CLI runs from the test). Also the messages for a file that is not GGUF, a cut
// header, a vocab-only file and one part of a split model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { useSiteAndBrowser, openApp, appState, waitHitbox, waitState, tapHitbox, touchDrag, desktop, phone, repoDir,
  screenshotDir } from './harness.mjs';

const env = useSiteAndBrowser();
const fixtures = path.join(repoDir, 'tests/data/gguf');
const cli = process.env.KVCALC_CLI || path.join(repoDir, 'build/native-release/cli/kvcalc');

/** `kvcalc --gguf FILE --engine llama.cpp` at the page's settings, --json, parsed (exit 0 or 1: a verdict). Run in
 * the file's folder, so the command's -m names the file as the page does (by its name). */
function cliJson(file, scenario) {
  const args = ['--gguf', path.basename(file), '--engine', 'llama.cpp', '--gpu', scenario.gpu,
    '--max-model-len', String(scenario.max_model_len), '--json'];
  if (scenario.max_num_seqs > 0) args.push('--max-num-seqs', String(scenario.max_num_seqs));
  let out;
  try {
    out = execFileSync(cli, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], cwd: path.dirname(file) });
  } catch (err) {
    if (err.status !== 1) throw err;  // 1 = FAIL verdict, still a report
    out = err.stdout;
  }
  return JSON.parse(out);
}

/** Swipes the page (touch) until the widget `name` is on screen, away from the sticky bar and the bottom edge. */
async function scrollIntoView(page, name) {
  const height = page.viewportSize().height;
  for (let i = 0; i < 20; i++) {
    const { x, y } = await waitHitbox(page, name);
    if (y > 140 && y < height - 60) return;
    const dy = y >= height - 60 ? -Math.min(400, y - height / 2) : Math.min(400, height / 2 - y);
    await touchDrag(page, 40, height / 2, dy);
    await page.waitForTimeout(250);
  }
  throw new Error(`could not scroll "${name}" into view`);
}

/** Opens the GGUF section (once) and picks `files` in the file chooser the page opens. */
async function pickFiles(page, files) {
  const state = await appState(page);
  if (!state.hitboxes.gguf_open) {
    await scrollIntoView(page, 'gguf_section');
    await tapHitbox(page, 'gguf_section');
  }
  await scrollIntoView(page, 'gguf_open');
  const { x, y } = await waitHitbox(page, 'gguf_open');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 10000 }), page.touchscreen.tap(x, y)]);
  assert.equal(chooser.isMultiple(), true, 'several files may be picked: the parts of a split model');
  await chooser.setFiles(files);
}

/** The MiB figure of a CLI log line, as printed ("= 0.12 MiB"). */
const printed = (line) => line.log_line.match(/= +([\d.]+(?: … [\d.]+)?) MiB/)[1];

test('phone, touch only: pick llama-2-tiny-random.gguf → verdict, buffers per device and command equal the CLI', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  const file = path.join(fixtures, 'llama-2-tiny-random.gguf');
  await pickFiles(page, file);
  await waitState(page, (s) => s.gguf.in_use && s.gguf.buffers && s.gguf.buffers.lines.length > 0);
  const s = await appState(page);
  assert.equal(s.scenario.engine, 'llama.cpp', 'the engine switched to llama.cpp');
  assert.match(s.gguf.status, /Read the header of llama-2-tiny-random\.gguf .*nothing uploaded/);

  const j = cliJson(file, s.scenario);
  // The verdict the page shows is the CLI's.
  assert.equal(s.verdict, j.verdict);
  assert.match(s.drawn_text.gguf_verdict, new RegExp('^' + j.verdict));
  assert.equal(s.gguf.terms.weights_bytes, j.terms.weights_bytes);
  assert.equal(s.gguf.terms.kv_bytes_per_token, j.terms.kv_bytes_per_token);
  // The per-device table: the CLI's llama_cpp_buffers lines, byte for byte, and as drawn (the CLI's MiB figures).
  const cliLines = j.llama_cpp_buffers.lines;
  assert.deepEqual(s.gguf.buffers.lines.map((l) => [l.device, l.kind, l.bytes, l.log_line]),
    cliLines.map((l) => [l.device, l.kind, l.bytes, l.log_line]));
  for (const l of cliLines.filter((x) => x.kind === 'compute'))
    assert.equal(s.gguf.buffers.lines.find((x) => x.kind === 'compute' && x.device === l.device).lower_bytes,
      l.lower_bytes);
  assert.equal(s.drawn_text.gguf_offloaded, `load_tensors: offloaded ${j.llama_cpp_buffers.offloaded_layers}/` +
    `${j.llama_cpp_buffers.total_layers} layers to GPU`);
  const devices = [...new Set(cliLines.map((l) => l.device))];
  assert.deepEqual(devices, ['CUDA0', 'CPU_Mapped', 'CUDA_Host'],
    'every layer on the GPU, token_embd mapped on the CPU, the graph inputs in the host compute buffer');
  for (const d of devices) {
    const cell = (kind) => cliLines.find((l) => l.device === d && l.kind === kind);
    const model = cell('model'), kv = cell('KV'), compute = cell('compute');
    assert.equal(s.drawn_text[`gguf_row_${d}`], [model, kv, compute].map((l) => (l ? printed(l) : '')).join(' | '));
  }
  // The file's own keys: 1 layer (llama.block_count), 2 KV heads, head_dim 4 (embedding_length 8 / head_count 2):
  // K + V at f16 = 1 × 2 × 4 × 2 × 2 B = 32 B per cell, 4,096 cells (-c 4096, its context_length) = 131,072 B.
  assert.equal(cliLines.find((l) => l.device === 'CUDA0' && l.kind === 'KV').bytes, 131072);
  assert.equal(s.drawn_text.gguf_row_CUDA0.split(' | ')[1], '0.12');
  // The command is the core's, as the CLI prints it.
  assert.equal(s.gguf.command, j.command);
  assert.equal(s.drawn_text.gguf_command, j.command);
  assert.match(s.drawn_text.gguf_command, /llama-server -m llama-2-tiny-random\.gguf/);
  await page.screenshot({ path: path.join(screenshotDir, 'gguf-phone-tiny-llama.png') });
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: a vocab-only GGUF past the first MiB is read in two steps; weights unknown, KV priced as the CLI does', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  // 1,156,067 B, all header (no tensor infos): more than the first 1 MiB read, so the page asks for more.
  const file = path.join(fixtures, 'ggml-vocab-deepseek-coder.gguf');
  assert.ok(fs.statSync(file).size > 1048576);
  await pickFiles(page, file);
  await waitState(page, (s) => s.gguf.in_use);
  const s = await appState(page);
  assert.match(s.gguf.status, /1\.2 MB of 1\.2 MB read/);
  assert.equal(s.gguf.tensors_listed, false);
  assert.equal(s.gguf.buffers, undefined, 'no tensors: no per-device table');
  assert.equal(s.drawn_text.gguf_vocab_only, 'weights unknown');
  const j = cliJson(file, s.scenario);
  assert.equal(s.verdict, j.verdict);
  assert.equal(s.gguf.terms.weights_known, false);
  assert.equal(j.settings.weights_known, false);
  assert.equal(s.gguf.terms.kv_bytes_per_token, j.terms.kv_bytes_per_token);
  // deepseek-coder-6.7b: 32 layers × 32 KV heads × 128 × (K + V) × 2 B = 524,288 B per token at f16.
  assert.equal(s.gguf.terms.kv_bytes_per_token, 524288);
  assert.equal(s.gguf.command, j.command);
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone: a file that is not GGUF, a cut header and one part of a split model each get a clear message', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, phone);
  const tiny = fs.readFileSync(path.join(fixtures, 'llama-2-tiny-random.gguf'));

  await pickFiles(page, { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{"model_type": "llama"}') });
  await waitState(page, (s) => s.gguf.status_is_error);
  let s = await appState(page);
  assert.match(s.gguf.status, /^config\.json is not a GGUF file: a GGUF file starts with the 4 bytes "GGUF"/);
  assert.match(s.gguf.status, /Paste config\.json/);
  assert.equal(s.gguf.in_use, false);

  // Shorter than the magic itself, and named .gguf: still not a GGUF file, not a "cut" one.
  await pickFiles(page, { name: 'notes.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from('hi\n') });
  await waitState(page, (s) => /^notes\.gguf/.test(s.gguf.status));
  assert.match((await appState(page)).gguf.status, /^notes\.gguf is not a GGUF file/);

  // The first 4,000 bytes of a real GGUF: the tokenizer's strings go on past the end.
  await pickFiles(page, { name: 'cut.gguf', mimeType: 'application/octet-stream', buffer: tiny.subarray(0, 4000) });
  await waitState(page, (s) => /^cut\.gguf/.test(s.gguf.status));
  s = await appState(page);
  assert.match(s.gguf.status, /^cut\.gguf ends inside its GGUF header \(the file ends after 4\.0 kB/);
  assert.match(s.gguf.status, /cut short, or still downloading/);

  await pickFiles(page, { name: 'qwen-00002-of-00003.gguf', mimeType: 'application/octet-stream', buffer: tiny });
  await waitState(page, (s) => /^qwen-00002/.test(s.gguf.status));
  s = await appState(page);
  assert.match(s.gguf.status, /part 2 of a model split into 3 files/);
  assert.match(s.gguf.status, /select all 3 parts together, qwen-00001-of-00003\.gguf to qwen-00003-of-00003\.gguf/);
  assert.match(s.gguf.status, /Missing: qwen-00001-of-00003\.gguf, qwen-00003-of-00003\.gguf\.$/);
  assert.equal(s.drawn_text.gguf_status, s.gguf.status, 'the message is drawn, not only published');
  assert.equal(s.scenario.engine, 'vllm', 'nothing was read: the landing scenario stays');
  assert.deepEqual(errors, []);
  await context.close();
});

// Ollama keeps a model as a blob named by its SHA-256 ("sha256-<hex>", no extension): the magic bytes, not the name,
// say it is a GGUF.
const ollamaBlob = 'sha256-' + crypto.createHash('sha256').update(fs.readFileSync(path.join(fixtures, 'llama-2-tiny-random.gguf'))).digest('hex');
for (const name of ['llama-2-tiny-random.gguf', ollamaBlob]) test(`desktop: a GGUF dropped on the page (${name.slice(0, 24)}) is read as a pick is, and the section unfolds to show it`, async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  const file = path.join(fixtures, 'llama-2-tiny-random.gguf');
  const bytes = fs.readFileSync(file).toString('base64');
  // What a file dragged from the desktop delivers: a drop event whose DataTransfer holds the File.
  const dt = await page.evaluateHandle(([b64, fileName]) => {
    const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const t = new DataTransfer();
    t.items.add(new File([raw], fileName, { type: 'application/octet-stream' }));
    return t;
  }, [bytes, name]);
  await page.dispatchEvent('#canvas', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: dt });
  await waitState(page, (s) => s.gguf.in_use && s.gguf.buffers);
  const s = await appState(page);
  assert.ok(s.hitboxes.gguf_open, 'the section unfolded');
  const j = cliJson(file, s.scenario);
  assert.deepEqual(s.gguf.buffers.lines.map((l) => l.bytes), j.llama_cpp_buffers.lines.map((l) => l.bytes));
  // The CLI read the fixture by its own name; the page names the file as it was dropped (an Ollama blob has no .gguf).
  assert.equal(s.gguf.command, j.command.replace('-m llama-2-tiny-random.gguf', '-m ' + name));
  assert.match(s.gguf.command, new RegExp('llama-server -m ' + name + ' \\\\\n'));
  assert.deepEqual(errors, []);
  await context.close();
});

test('desktop: a file named .gguf that is not one, dropped on the page, gets the GGUF reader\'s message, not the log reader\'s', async () => {
  const { context, page, errors } = await openApp(env.browser, env.server.url, desktop);
  // ELF bytes, as a binary renamed to .gguf would start (the breaker's /bin/ls named x.gguf).
  const dt = await page.evaluateHandle(() => {
    const t = new DataTransfer();
    t.items.add(new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0])], 'x.gguf'));
    return t;
  });
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: dt });
  await waitState(page, (s) => /^x\.gguf/.test(s.gguf.status));
  const s = await appState(page);
  assert.match(s.gguf.status, /^x\.gguf is not a GGUF file/);
  assert.ok(!s.log || !s.log.status || !/start-up line/.test(s.log.status), 'the log reader was not asked');
  assert.deepEqual(errors, []);
  await context.close();
});
