// docs/SCHEMA.md shows request/response pairs: each request runs through the built module and every value the
// abridged response shows must be what the core returns. "..." as a key or array item stands for what was left
// out; "…" inside a string matches any text; a shown number matches to the decimals it is written with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const core = await require(path.join(repo, 'build/wasm-release/site/kvcalc-core.js'))();
const doc = fs.readFileSync(path.join(repo, 'docs/SCHEMA.md'), 'utf8');

// Blocks in order, each with its source text (to read how many decimals a number was written with).
const blocks = [...doc.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((m) => ({
  line: doc.slice(0, m.index).split('\n').length + 1,
  text: m[1],
  value: JSON.parse(m[1]),
}));
const pairs = [];
for (let i = 0; i + 1 < blocks.length; i++) {
  if (!('ok' in blocks[i].value) && 'ok' in blocks[i + 1].value) pairs.push([blocks[i], blocks[i + 1]]);
}

function decimalsOf(text, key, value) {
  const m = text.match(new RegExp(`"${key}":\\s*(-?[0-9.]+(?:e-?\\d+)?)`));
  const written = m ? m[1] : String(value);
  const dot = written.indexOf('.');
  return dot < 0 ? 0 : written.length - dot - 1;
}

// Every shown leaf of `shown` equals the same leaf of `actual`; returns the first mismatch as text, or ''.
function mismatch(shown, actual, where, text, key) {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${where}: expected an array, got ${JSON.stringify(actual)}`;
    const open = shown.at(-1) === '...';
    const items = open ? shown.slice(0, -1) : shown;
    if (!open && items.length !== actual.length) return `${where}: ${actual.length} items, the doc shows ${items.length}`;
    for (let i = 0; i < items.length; i++) {
      const m = mismatch(items[i], actual[i], `${where}[${i}]`, text, key);
      if (m) return m;
    }
    return '';
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object') return `${where}: expected an object, got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(shown)) {
      if (k === '...') continue;
      if (!(k in actual)) return `${where}.${k}: not in the response`;
      const m = mismatch(v, actual[k], `${where}.${k}`, text, k);
      if (m) return m;
    }
    return '';
  }
  if (typeof shown === 'number') {
    if (typeof actual !== 'number') return `${where}: ${JSON.stringify(actual)}, the doc shows ${shown}`;
    const tol = 0.5 * 10 ** -decimalsOf(text, key, shown) + 1e-9 * Math.abs(shown);
    return Math.abs(actual - shown) <= tol ? '' : `${where}: ${actual}, the doc shows ${shown}`;
  }
  if (typeof shown === 'string' && shown.includes('…')) {
    const re = new RegExp('^' + shown.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*') + '$');
    return typeof actual === 'string' && re.test(actual) ? '' : `${where}: ${JSON.stringify(actual)}, the doc shows ${JSON.stringify(shown)}`;
  }
  return shown === actual ? '' : `${where}: ${JSON.stringify(actual)}, the doc shows ${JSON.stringify(shown)}`;
}

test('SCHEMA.md has request/response examples', () => assert.ok(pairs.length >= 2, `found ${pairs.length} pairs`));

for (const [request, response] of pairs) {
  test(`docs/SCHEMA.md:${response.line}: the shown response is what the core returns for the request at line ${request.line}`, () => {
    const actual = JSON.parse(core.evaluate(JSON.stringify(request.value)));
    assert.equal(mismatch(response.value, actual, 'response', response.text, ''), '');
  });
}
