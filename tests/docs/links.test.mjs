// Docs link test: every relative link and image in README.md and docs/*.md points at a file that exists,
// every link or iframe to the published site (docs/site-url.txt) opens the app or the embed view with a query
// string the core decodes without a single diagnostic, and the rendered site docs have no broken relative links.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const siteUrl = fs.readFileSync(path.join(repo, 'docs/site-url.txt'), 'utf8').split('\n')[0].trim();
const siteDir = path.join(repo, 'build/wasm-release/site');
const require = createRequire(import.meta.url);
const createKvcalcCore = require(path.join(siteDir, 'kvcalc-core.js'));
const core = await createKvcalcCore();

const markdownFiles = ['README.md', ...fs.readdirSync(path.join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => 'docs/' + f)];

const decodeEntities = (s) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

// Links of one Markdown file: inline links and images, reference definitions, and src/href attributes of raw HTML.
// Fenced code blocks and `code spans` are skipped (they show commands, not links).
function markdownLinks(text) {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
  const out = [];
  for (const m of prose.matchAll(/!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s+<?(\S+?)>?(?:\s|$)/gm)) out.push(m[1]);
  for (const m of prose.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)) out.push(decodeEntities(m[1]));
  return out;
}

function htmlLinks(html) {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*"([^"]*)"/g)].map((m) => decodeEntities(m[1]));
}

const isExternal = (url) => /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('//');

// A relative link's target on disk: query and fragment dropped, a folder must hold index.html.
function resolveRelative(fromFile, url) {
  const clean = decodeURIComponent(url.split('#')[0].split('?')[0]);
  if (clean === '') return { ok: true }; // same-page anchor
  const target = path.resolve(path.dirname(fromFile), clean);
  if (!fs.existsSync(target)) return { ok: false, target };
  if (fs.statSync(target).isDirectory() && !fs.existsSync(path.join(target, 'index.html'))) return { ok: false, target: target + '/index.html' };
  return { ok: true };
}

let relativeCount = 0;
let siteLinkCount = 0;

for (const rel of markdownFiles) {
  const file = path.join(repo, rel);
  const links = markdownLinks(fs.readFileSync(file, 'utf8'));

  test(`${rel}: relative links and images resolve`, () => {
    const broken = [];
    for (const url of links) {
      if (isExternal(url) || url.startsWith('#')) continue;
      relativeCount++;
      const r = resolveRelative(file, url);
      if (!r.ok) broken.push(`${url} → ${path.relative(repo, r.target)}`);
    }
    assert.deepEqual(broken, [], `broken links in ${rel}`);
  });

  test(`${rel}: links to the published site open the app or embed view and decode with no warning`, () => {
    const problems = [];
    for (const url of links) {
      if (!url.startsWith(siteUrl)) continue;
      siteLinkCount++;
      const rest = url.slice(siteUrl.length);
      const [pagePart, query = ''] = rest.split('#')[0].split('?');
      if (!['', 'index.html', 'embed.html'].includes(pagePart)) {
        problems.push(`${url}: points at "${pagePart}", expected the app ("" or index.html) or embed.html`);
        continue;
      }
      if (query === '') continue;
      const out = JSON.parse(core.decodeQuery(query));
      if (!out.ok || out.diagnostics.length > 0) problems.push(`${url}: ${JSON.stringify(out.diagnostics)}`);
      else {
        const report = JSON.parse(core.evaluate(JSON.stringify(out.scenario)));
        if (!report.ok) problems.push(`${url}: decodes, but evaluate fails: ${JSON.stringify(report.diagnostics)}`);
      }
    }
    assert.deepEqual(problems, []);
  });
}

test('every worked example in KV_MATH.md has a live embed and an SVG snapshot linked to the calculator', () => {
  const text = fs.readFileSync(path.join(repo, 'docs/KV_MATH.md'), 'utf8');
  const iframes = [...text.matchAll(/<iframe src="([^"]+)"/g)].map((m) => decodeEntities(m[1]));
  const snapshots = [...text.matchAll(/\[!\[[^\]]*\]\((snapshots\/[^)]+\.svg)\)\]\(([^)]+)\)/g)];
  assert.ok(iframes.length >= 5, `${iframes.length} iframes`);
  assert.equal(snapshots.length, iframes.length, 'one snapshot per iframe');
  for (const src of iframes) assert.ok(src.startsWith(siteUrl + 'embed.html?'), src);
  // The snapshot opens the same scenario as the iframe next to it.
  snapshots.forEach((m, i) => {
    const q = (u) => new URLSearchParams(u.split('?')[1]);
    const a = q(iframes[i]);
    a.delete('embed');
    assert.equal(a.toString(), q(m[2]).toString(), m[1]);
  });
});

test('the rendered site docs have no broken relative links', (t) => {
  const docsDir = path.join(siteDir, 'docs');
  if (!fs.existsSync(docsDir)) {
    t.skip('build/wasm-release/site/docs is missing: run scripts/build-site.sh');
    return;
  }
  const broken = [];
  let checked = 0;
  for (const name of fs.readdirSync(docsDir).filter((f) => f.endsWith('.html'))) {
    const file = path.join(docsDir, name);
    for (const url of htmlLinks(fs.readFileSync(file, 'utf8'))) {
      if (isExternal(url) || url.startsWith('#')) continue;
      checked++;
      const r = resolveRelative(file, url);
      if (!r.ok) broken.push(`${name}: ${url}`);
    }
  }
  assert.ok(checked > 0);
  assert.deepEqual(broken, []);
});

test('link count', () => {
  // Reported so a run shows how much was checked (the per-file tests above ran first).
  console.log(`# docs links: ${relativeCount} relative, ${siteLinkCount} to ${siteUrl}`);
  assert.ok(relativeCount > 0 && siteLinkCount > 0);
});
