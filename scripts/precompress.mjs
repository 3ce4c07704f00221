// Writes FILE.gz (gzip -9) and FILE.br (Brotli, quality 11) next to each text and wasm file of a site folder, for
// servers that send a precompressed copy when the browser accepts it (nginx gzip_static / brotli_static, Caddy
// precompressed, most CDNs); GitHub Pages compresses on its own and ignores them. A copy that is not smaller is not
// written. Usage: node scripts/precompress.mjs SITE_DIR
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = process.argv[2];
if (!root || !fs.statSync(root, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node scripts/precompress.mjs SITE_DIR (a built site folder)');
  process.exit(2);
}
const kinds = new Set(['.html', '.js', '.css', '.svg', '.wasm', '.json']);
for (const name of fs.readdirSync(root)) {
  const file = path.join(root, name);
  if (!kinds.has(path.extname(name)) || !fs.statSync(file).isFile()) continue;
  const body = fs.readFileSync(file);
  const gz = zlib.gzipSync(body, { level: 9 });
  const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
  for (const [ext, data] of [['.gz', gz], ['.br', br]]) {
    if (data.length < body.length) fs.writeFileSync(file + ext, data);
    else fs.rmSync(file + ext, { force: true });
  }
}
