// The page's budgets (docs/PAGE.md), measured by budget.mjs. Size and idle frames are deterministic and checked
// here; first-frame and recompute times depend on the machine's load, so they are printed, not asserted
// (speed is a benchmark's job: `node tests/browser/budget.mjs` or scripts/bench.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measure, limits } from './budget.mjs';

test('budgets: download size and idle frames (times printed for the record)', async () => {
  const m = await measure();
  console.log(`# budgets: gzip ${m.gzipKB.toFixed(1)} KB, first frame ${m.firstFrameMs.toFixed(0)} ms, ` +
    `recompute ${m.recomputeMs.toFixed(2)} ms, idle ${m.idleFramesPerSecond} frames/s`);
  assert.ok(m.gzipKB <= limits.gzipKB, `gzip ${m.gzipKB.toFixed(1)} KB > ${limits.gzipKB} KB`);
  assert.equal(m.idleFramesPerSecond, limits.idleFramesPerSecond);
});
