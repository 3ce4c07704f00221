// Loads the embind module (JSON in, JSON out) the way a page or a script would, and checks real values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const modulePath = path.resolve(here, '../../build/wasm-release/site/kvcalc-core.js');
const require = createRequire(import.meta.url);
const createKvcalcCore = require(modulePath);
const core = await createKvcalcCore();

test('Qwen 3.6 27B growing KV per token at fp8 is 32,768 B (docs/SOURCES.md "The KV formula": 16 layers × 4 heads × 256 × 2 × 1 B)', () => {
  const report = JSON.parse(core.evaluate(JSON.stringify({ schema: 1, model: 'qwen3.6-27b', kv_cache_dtype: 'fp8_e5m2' })));
  assert.equal(report.schema, 1);
  assert.equal(report.ok, true);
  assert.equal(report.terms.kv_bytes_per_token, 32768);
  assert.equal(report.settings.model_id, 'qwen3.6-27b');
});

test('malformed JSON comes back as an error document, not an exception', () => {
  const report = JSON.parse(core.evaluate('{not json'));
  assert.equal(report.ok, false);
  assert.ok(report.diagnostics.length > 0);
  assert.equal(report.diagnostics[0].severity, 'error');
});
