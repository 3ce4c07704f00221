// The page's budgets (issue 6): measured by budget.mjs, printed, and checked against the limits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure, limits } from './budget.mjs';

test('budgets: download size, first frame, recompute, idle', async () => {
  const m = await measure();
  console.log(`# budgets: gzip ${m.gzipKB.toFixed(1)} KB, first frame ${m.firstFrameMs.toFixed(0)} ms, ` +
    `recompute ${m.recomputeMs.toFixed(2)} ms, idle ${m.idleFramesPerSecond} frames/s`);
  assert.ok(m.gzipKB <= limits.gzipKB, `gzip ${m.gzipKB.toFixed(1)} KB > ${limits.gzipKB} KB`);
  assert.ok(m.firstFrameMs < limits.firstFrameMs, `first frame ${m.firstFrameMs} ms`);
  assert.ok(m.recomputeMs < limits.recomputeMs, `recompute ${m.recomputeMs} ms`);
  assert.equal(m.idleFramesPerSecond, limits.idleFramesPerSecond);
});
