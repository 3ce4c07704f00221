// The page's font is a subset (imgui_ui/ui_font.h lists its ranges): a character outside it draws as '?'. Every
// character the page can print must be in the ranges: the string literals of the UI and the core, and the text the
// core returns at run time (catalog names and sources, a report's notes and diagnostics).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const require = createRequire(import.meta.url);

/** [lo, hi] pairs between the "glyph ranges begin/end" markers of ui_font.h. */
function glyphRanges() {
  const header = fs.readFileSync(path.join(repo, 'imgui_ui/ui_font.h'), 'utf8');
  const block = header.match(/glyph ranges begin([\s\S]*)glyph ranges end/)[1].replace(/\/\/[^\n]*/g, '');
  const points = [...block.matchAll(/0x[0-9A-Fa-f]+/g)].map((m) => Number(m[0]));
  assert.ok(points.length >= 2 && points.length % 2 === 0, 'ui_font.h ranges come in pairs');
  const ranges = [];
  for (let i = 0; i < points.length; i += 2) ranges.push([points[i], points[i + 1]]);
  return ranges;
}
const ranges = glyphRanges();
const covered = (cp) => cp === 0x0a || ranges.some(([lo, hi]) => cp >= lo && cp <= hi);

/** Characters of `text` the font lacks, with where they were seen. */
function missing(text, where, out) {
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (cp < 0x20 || covered(cp)) continue;
    const key = `U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${ch}`;
    if (!out.has(key)) out.set(key, where);
  }
}

test('ui_font.h ranges are ordered and include ASCII', () => {
  for (const [lo, hi] of ranges) assert.ok(lo <= hi, `range ${lo.toString(16)}-${hi.toString(16)}`);
  assert.ok(covered(0x20) && covered(0x7e));
});

test('every string literal of the UI and the core is drawable in the UI font', () => {
  const found = new Map();
  for (const dir of ['imgui_ui', 'core/src', 'core/include/kvcalc']) {
    for (const name of fs.readdirSync(path.join(repo, dir), { recursive: true })) {
      if (!/\.(cpp|h)$/.test(name)) continue;
      const src = fs.readFileSync(path.join(repo, dir, name), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:"\\])\/\/[^\n]*/g, '$1');
      for (const m of src.matchAll(/"(?:[^"\\\n]|\\.)*"/g)) missing(m[0], `${dir}/${name}`, found);
    }
  }
  assert.deepEqual([...found].map(([k, w]) => `${k} (${w})`), []);
});

test('the text the core returns (catalog, report notes and diagnostics) is drawable in the UI font', async () => {
  const core = await require(path.join(repo, 'build/wasm-release/site/kvcalc-core.js'))();
  const found = new Map();
  const catalog = core.evaluate(JSON.stringify({ action: 'catalog' }));
  assert.ok(JSON.parse(catalog).ok !== false, 'catalog action answers');
  missing(JSON.stringify(JSON.parse(catalog)), 'catalog', found);
  // A pass, a failure with notes, and a bad request, each as the page would show it.
  for (const request of [{ model: 'llama-3.1-8b', gpu: 'rtx-4090', max_model_len: 32768 },
    { model: 'llama-3.1-70b', gpu: 'rtx-4090', max_model_len: 131072, action: 'solve' },
    { model: 'no-such-model', gpu: 'rtx-4090', max_model_len: -5 }]) {
    const report = JSON.parse(core.evaluate(JSON.stringify(request)));
    assert.equal(report.ok, request.model !== 'no-such-model', JSON.stringify(request));
    missing(JSON.stringify(report), JSON.stringify(request), found);
  }
  assert.deepEqual([...found].map(([k, w]) => `${k} (${w})`), []);
});
