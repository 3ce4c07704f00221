// Every ```js example in README.md and docs/*.md that loads kvcalc-core.js runs as written (saved as an ES module
// next to the built module) and prints what its `// comment` says: a reader who pastes it gets that output.
// A console.log line ending in `// text` expects that text (runs of spaces compared as one); other lines are free.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const modulePath = path.join(repo, 'build/wasm-release/site/kvcalc-core.js');
const markdownFiles = ['README.md', ...fs.readdirSync(path.join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => 'docs/' + f)];

const squash = (s) => s.trim().replace(/\s+/g, ' ');

function snippets(file) {
  const text = fs.readFileSync(path.join(repo, file), 'utf8');
  const out = [];
  for (const m of text.matchAll(/^```js\n([\s\S]*?)^```$/gm)) {
    if (!m[1].includes('kvcalc-core.js')) continue;
    const line = text.slice(0, m.index).split('\n').length + 1;
    out.push({ file, line, code: m[1] });
  }
  return out;
}

const all = markdownFiles.flatMap(snippets);

test('the README and the embedding guide have runnable module examples', () => {
  assert.ok(all.some((s) => s.file === 'README.md'), 'README.md has no ```js example that loads kvcalc-core.js');
  assert.ok(all.some((s) => s.file === 'docs/EMBEDDING.md'), 'docs/EMBEDDING.md has no such example');
});

for (const s of all) {
  test(`${s.file}:${s.line} runs as written and prints what it says`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kvcalc-snippet-'));
    try {
      fs.copyFileSync(modulePath, path.join(dir, 'kvcalc-core.js'));
      fs.writeFileSync(path.join(dir, 'example.mjs'), s.code);
      const printed = execFileSync(process.execPath, ['example.mjs'], { cwd: dir, encoding: 'utf8' }).trimEnd().split('\n');
      const logs = s.code.split('\n').filter((l) => /^\s*console\.log\(/.test(l));
      assert.equal(printed.length, logs.length, `expected one printed line per console.log, got:\n${printed.join('\n')}`);
      logs.forEach((l, i) => {
        const said = l.match(/\/\/\s*(.*)$/);
        if (said) assert.equal(squash(printed[i]), squash(said[1]), `${s.file}:${s.line}: console.log #${i + 1}`);
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
