// What the app (C++ through EM_JS and emscripten::val) asks of the page: clipboard, new tabs, the paste overlay (a
// config.json or a start-up log), a dropped log or .gguf file, the GGUF picker and the Hugging Face fetch (config.json,
// index, shard headers). Answers go into `inbox`, which the app polls once per frame.
(function () {
  'use strict';
  const inbox = [];

  function deliver(kind, text, source) {
    inbox.push({ kind: kind, text: String(text), source: String(source) });  // the app polls every frame
  }

  function copyFallback(text) {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try { document.execCommand('copy'); } catch (e) { /* nothing more to try */ }
    area.remove();
  }

  function copy(text) {
    window.kvcalcLastCopied = text;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).catch(() => copyFallback(text));
    } else {
      copyFallback(text);
    }
  }

  function open(url) { window.open(url, '_blank', 'noopener'); }

  // A Hub model: the same files the CLI reads (cli/checkpoint_loader.cpp): config.json, model.safetensors.index.json
  // and each shard's safetensors header by range requests (its first 8 bytes give the header's length N, then bytes
  // 8..8+N-1), or a lone model.safetensors's header. The app hands them to the core's readers.
  const kHub = 'https://huggingface.co/';
  const kMaxHeaderBytes = 16 << 20;   // a shard header is a few hundred KB; larger is not read
  const kMaxShards = 256;

  /** Bytes [from, to] of a file: a range request, or the start of the body when the server sends all of it. */
  async function fetchRange(url, from, to) {
    const response = await fetch(url, { credentials: 'omit', headers: { Range: 'bytes=' + from + '-' + to } });
    if (!response.ok) return { status: response.status };
    const want = to - from + 1;
    if (response.status === 206) return { status: 206, bytes: new Uint8Array(await response.arrayBuffer()).slice(0, want) };
    // 200: the whole file; read only as far as the range reaches, then stop the download.
    const reader = response.body.getReader();
    const parts = [];
    let have = 0;
    while (have < to + 1) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      have += value.length;
    }
    reader.cancel().catch(() => {});
    const all = new Uint8Array(have);
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    return { status: 200, bytes: all.slice(from, to + 1) };
  }

  /** A shard's JSON header text, or an error sentence. */
  async function shardHeader(base, file) {
    const url = base + encodeURIComponent(file).replace(/%2F/g, '/');
    const head = await fetchRange(url, 0, 7);
    if (!head.bytes || head.bytes.length < 8) return { error: file + ': HTTP ' + head.status };
    let n = 0;
    for (let i = 7; i >= 0; i--) n = n * 256 + head.bytes[i];
    if (n <= 0 || n > kMaxHeaderBytes) return { error: file + ': a header of ' + n + ' bytes (kvcalc reads up to 16 MiB)' };
    const body = await fetchRange(url, 8, 8 + n - 1);
    if (!body.bytes || body.bytes.length < n) return { error: file + ': the header was cut short (HTTP ' + body.status + ')' };
    return { text: new TextDecoder().decode(body.bytes) };
  }

  async function fetchHfModel(id) {
    const clean = String(id).trim().replace(/^https?:\/\/huggingface\.co\//, '').replace(/\/+$/, '');
    const m = /^([\w.-]+\/[\w.-]+)(?:@([\w./-]+))?$/.exec(clean);
    if (!m) {
      deliver('error', '"' + id + '" is not a Hugging Face model id (expected ORG/NAME or ORG/NAME@REVISION, e.g. ' +
        'Qwen/Qwen3-8B).', id);
      return;
    }
    const repo = m[1], rev = m[2] || 'main';
    const base = kHub + repo + '/resolve/' + encodeURIComponent(rev) + '/';
    const offline = 'Could not reach huggingface.co (offline, or blocked by the network), so ' + clean +
      ' was not read. Paste its config.json instead, or try again when online.';
    try {
      const config = await fetch(base + 'config.json', { credentials: 'omit' });
      if (config.status === 401 || config.status === 403) {
        deliver('error', clean + ' is gated or private on the Hub (HTTP ' + config.status + '). Open its page, ' +
          'accept the license, then paste its config.json here instead.', clean);
        return;
      }
      if (!config.ok) {
        deliver('error', 'The Hub has no config.json for ' + clean + ' (HTTP ' + config.status + ' at revision ' + rev +
          '). Check the id, or paste the config.json instead.', clean);
        return;
      }
      const files = { config: await config.text(), index: '', headers: [], notes: [] };
      const index = await fetch(base + 'model.safetensors.index.json', { credentials: 'omit' });
      let shards = [];
      if (index.ok) {
        files.index = await index.text();
        try {
          const map = JSON.parse(files.index).weight_map || {};
          shards = Array.from(new Set(Object.values(map).filter((v) => typeof v === 'string')));
        } catch (e) { /* the core's reader names what is wrong with it */ }
      } else {
        shards = ['model.safetensors'];  // a single-file checkpoint: its header alone lists the tensors
      }
      if (shards.length > kMaxShards) {
        files.notes.push(shards.length + ' shards: their headers were not read (kvcalc reads up to ' + kMaxShards + ')');
      } else if (shards.length) {
        const got = await Promise.all(shards.map((f) => shardHeader(base, f).catch(() => ({ error: f + ': not reachable' }))));
        const bad = got.find((g) => g.error);
        if (bad) {
          files.notes.push(index.ok ? 'the shard headers were not read (' + bad.error + '): the weights come from ' +
            'the index' : 'no model.safetensors.index.json and no model.safetensors header (' + bad.error +
            '): the weights come from the parameter count');
        } else {
          files.headers = got.map((g) => g.text);
          if (!index.ok) files.index = '{"metadata":{},"weight_map":{}}';
        }
      }
      if (!index.ok && !files.headers.length) files.index = '';
      deliver('hub', JSON.stringify(files), clean);
    } catch (err) {
      deliver('error', offline, clean);
    }
  }

  // One overlay, two uses: a model's config.json and an engine's start-up log. Its words, button and the kind of
  // message it delivers follow the use; switching use clears the text.
  const pasteKinds = {
    config: { title: "Paste a model's config.json", use: 'Use this config',
      placeholder: '{"architectures": [...], "num_hidden_layers": ...}' },
    log: { title: 'Paste a start-up log (vLLM, llama.cpp or SGLang)', use: 'Read this log',
      placeholder: 'INFO ... Model loading took 14.99 GiB ...\nINFO ... Available KV cache memory: 3.81 GiB ...' },
  };
  let pasteKind = 'config';

  function showPaste(kind) {
    const overlay = document.getElementById('paste');
    if (!overlay) return;
    const next = kind === 'log' ? 'log' : 'config';
    const area = document.getElementById('paste-text');
    if (next !== pasteKind) area.value = '';
    pasteKind = next;
    document.getElementById('paste-title').textContent = pasteKinds[next].title;
    document.getElementById('paste-use').textContent = pasteKinds[next].use;
    area.placeholder = pasteKinds[next].placeholder;
    overlay.hidden = false;
    area.focus();
  }

  // Which path a dropped file takes: a GGUF model (its first four bytes are the magic "GGUF", whatever its name:
  // Ollama keeps its models as blobs named sha256-…) or a file named .gguf (the GGUF reader says what is wrong with
  // it) goes to the GGUF section, anything else is read as a start-up log (text). A file the browser cannot read at
  // all takes the log path, which says so.
  const isGgufName = (file) => /\.gguf$/i.test(file.name);
  const isGguf = (file) => file.slice(0, 4).arrayBuffer().then(
    (b) => new TextDecoder('latin1').decode(b) === 'GGUF' || isGgufName(file), () => isGgufName(file));
  // A file dropped on the page (desktop) is read as a start-up log. The core reads at most 32 MiB
  // (kMaxStartupLogBytes); a larger file is not loaded into the page at all.
  const maxLogBytes = 32 * 1024 * 1024;
  function readLog(file) {
    if (file.size > maxLogBytes) {
      deliver('log_error', file.name + ' is ' + Math.round(file.size / 1048576) + ' MiB; kvcalc reads start-up ' +
        'logs up to 32 MiB. Keep the part from the start to the KV cache lines.', file.name);
      return;
    }
    file.text().then((text) => deliver('log', text, file.name),
      () => deliver('log_error', 'The browser could not read ' + file.name + '.', file.name));
  }
  function wireDrop() {
    const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes('Files');
    window.addEventListener('dragover', (e) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    });
    window.addEventListener('drop', (e) => {
      const files = Array.from((e.dataTransfer && e.dataTransfer.files) || []);
      if (!files.length) return;
      e.preventDefault();  // the browser would otherwise open the file in place of the page
      Promise.all(files.map(isGguf)).then((gguf) => {
        const b = window.kvcalcBridge;
        if (gguf.some(Boolean) && b.ggufDropped) b.ggufDropped(files);
        else readLog(files[0]);
      });
    });
  }

  function wirePasteOverlay() {
    const overlay = document.getElementById('paste');
    if (!overlay) return;
    const area = document.getElementById('paste-text');
    // Closing the overlay gives the focus back to the canvas, where the "Paste config.json…" button still has the
    // app's keyboard focus.
    const back = () => { const c = document.getElementById('canvas'); if (c) c.focus({ preventScroll: true }); };
    document.getElementById('paste-use').addEventListener('click', () => {
      overlay.hidden = true;
      deliver(pasteKind, area.value, 'paste');
      back();
    });
    document.getElementById('paste-cancel').addEventListener('click', () => { overlay.hidden = true; back(); });
    overlay.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') { overlay.hidden = true; back(); }
    });
  }

  // The screen-reader mirror: written once the text has been stable for a moment, so dragging a slider is not
  // read out step by step. The page title carries the verdict at once (it is not announced).
  let announceTimer = 0;
  function announce(text, title) {
    if (title) document.title = title;
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => {
      const el = document.getElementById('result-text');
      if (el && el.textContent !== text) el.textContent = text;
    }, 600);
  }

  // The focused control, read out at once when the keyboard focus moves inside the canvas (keyboard_nav.cpp).
  function announceFocus(text) {
    const el = document.getElementById('focus-text');
    if (el && el.textContent !== text) el.textContent = text;
  }

  /** Elements Tab reaches, in document order (the canvas included). */
  function tabbables() {
    return Array.from(document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'))
      .filter((el) => el.tabIndex >= 0 && !el.disabled && !el.closest('[hidden]'));
  }

  /** Tab past the last control (1) or Shift+Tab before the first (-1): focus moves to the page around the canvas. */
  function leaveCanvas(direction) {
    const canvas = document.getElementById('canvas');
    const list = tabbables();
    const at = list.indexOf(canvas);
    const next = at >= 0 ? list[at + direction] : null;
    if (next) next.focus();
    else canvas.blur();
  }

  // Tab belongs to the page, not to SDL (which would keep it on the canvas): inside the canvas it moves between
  // the app's controls, and the app hands the focus back to the page at either end.
  function wireKeyboard() {
    const canvas = document.getElementById('canvas');
    if (!canvas) return;
    let tabAt = 0, tabShift = false;
    window.addEventListener('keydown', (e) => {
      if (e.key !== 'Tab' || e.ctrlKey || e.altKey || e.metaKey) return;
      tabAt = performance.now();
      tabShift = e.shiftKey;
      if (document.activeElement !== canvas) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      inbox.push({ kind: 'nav', text: e.shiftKey ? 'prev' : 'next', source: 'key' });
    }, true);
    // Arriving by Tab starts at the first control, by Shift+Tab at the last (a click lands where it clicks).
    canvas.addEventListener('focus', (e) => {
      const from = e.relatedTarget;  // back from the app's own text input or paste overlay: the app keeps its focus
      if (from && (from.id === 'text-proxy' || from.closest('#paste'))) return;
      if (performance.now() - tabAt < 500) inbox.push({ kind: 'nav', text: tabShift ? 'last' : 'first', source: 'key' });
    });
  }

  // The embed view's height, for a host page that sizes its iframe to it (docs/EMBEDDING.md). Only the number
  // leaves the frame; whole CSS px, and only when it changed.
  let reportedHeight = 0;
  function reportHeight(px) {
    const h = Math.ceil(px);
    if (window.parent === window || h <= 0 || h === reportedHeight) return;
    reportedHeight = h;
    window.kvcalcEmbedHeight = h;
    window.parent.postMessage({ type: 'kvcalc-embed-height', height: h }, '*');
  }

  window.kvcalcBridge = { inbox: inbox, copy: copy, open: open, fetchHfModel: fetchHfModel, showPaste: showPaste,
    announce: announce, announceFocus: announceFocus, leaveCanvas: leaveCanvas, reportHeight: reportHeight };
  // Back / Forward between the app's own history entries (app_state.cpp write_url): the app reads the address again.
  window.addEventListener('popstate', () => deliver('location', location.search, 'history'));
  function wire() { wirePasteOverlay(); wireKeyboard(); wireDrop(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();

// The llama.cpp (GGUF) path (imgui_ui/gguf_import.cpp): a file picker, and the first N bytes of a picked file read
// with Blob.slice — the header only, never the tensor data; nothing leaves the browser. The app asks for more bytes
// while the core says the header goes on, and copies each answer out with ggufTake (platform_web.cpp).
(function ggufFiles() {
  'use strict';
  const bridge = window.kvcalcBridge;
  let picked = [];        // the File objects of the last pick, in the order the app was told
  const read = new Map();  // index → Uint8Array read, until the app takes it

  function send(kind, text, source) { bridge.inbox.push({ kind: kind, text: String(text), source: String(source) }); }

  function input() {
    let el = document.getElementById('gguf-file');
    if (el) return el;
    el = document.createElement('input');
    el.type = 'file';
    el.id = 'gguf-file';
    el.accept = '.gguf';
    el.multiple = true;  // the parts of a split model are picked together
    el.hidden = true;
    el.setAttribute('aria-label', 'GGUF model file');
    el.addEventListener('change', () => {
      take(el.files, 'picker');
      el.value = '';  // picking the same file again is a new pick
    });
    document.body.appendChild(el);
    return el;
  }

  function ggufPick() { input().click(); }

  let generation = 0;  // a new pick makes the reads still under way for the last one stale
  function take(files, source) {
    generation += 1;
    picked = Array.from(files || []);
    read.clear();
    send('gguf_files', JSON.stringify(picked.map((f) => ({ name: f.name, size: f.size }))), source);
  }

  // A GGUF file dropped anywhere on the page (wireDrop tells it from a log) takes the same path as a pick.
  function ggufDropped(files) { take(files, 'drop'); }

  async function ggufRead(index, bytes) {
    const file = picked[index];
    if (!file) { send('gguf_error', 'The picked file is gone: open it again.', index); return; }
    const n = Math.min(Math.max(0, Math.floor(bytes)), file.size);
    const gen = generation;
    try {
      const data = new Uint8Array(await file.slice(0, n).arrayBuffer());
      if (gen !== generation) return;  // picked again meanwhile: the app waits for the new files
      read.set(index, data);
      send('gguf_bytes', index, n);
    } catch (err) {
      if (gen !== generation) return;
      send('gguf_error', 'The browser could not read ' + file.name + ' (' + (err && err.name ? err.name : err) +
        '): open it again.', index);
    }
  }

  function ggufTake(index) {
    const bytes = read.get(index);
    read.delete(index);
    return bytes;
  }

  Object.assign(bridge, { ggufPick: ggufPick, ggufRead: ggufRead, ggufTake: ggufTake, ggufDropped: ggufDropped,
    ggufTakeFiles: take });
})();

// A Hub GGUF (imgui_ui/gguf_import.cpp gguf_request_hub): each part becomes a file-like object whose
// slice(0, n).arrayBuffer() is a range request (Range: bytes=A-B, appending to what was read), handed to the
// picker's path above, so the app reads its header in the same growing steps as a picked file. Only header bytes
// are asked for; the fetch follows the Hub's redirect to its CDN, which honours Range.
(function ggufHub() {
  'use strict';
  const bridge = window.kvcalcBridge;
  const kFirstBytes = 256 << 10;  // the first range: a size (Content-Range) and a small header at once
  const kTimeoutMs = 30000;        // per request: the Hub answers a range in well under a second

  function send(kind, text, source) { bridge.inbox.push({ kind: kind, text: String(text), source: String(source) }); }

  /** Bytes [from, to] of url: {status, bytes, size}; a 200 (no range support) is read only as far as `to`. */
  async function rangeGet(url, from, to) {
    // A Hub that accepts the connection and never answers would leave the page "Reading…" for ever.
    const response = await fetch(url, { credentials: 'omit', headers: { Range: 'bytes=' + from + '-' + to },
      signal: AbortSignal.timeout(kTimeoutMs) });
    if (response.status === 416) return { status: 416, bytes: new Uint8Array(0) };
    if (!response.ok) return { status: response.status };
    const total = /\/(\d+)\s*$/.exec(response.headers.get('content-range') || '');
    if (response.status === 206) {
      const bytes = new Uint8Array(await response.arrayBuffer()).slice(0, to - from + 1);
      return { status: 206, bytes: bytes, size: total ? Number(total[1]) : undefined };
    }
    const reader = response.body.getReader();
    const parts = [];
    let have = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      parts.push(value);
      have += value.length;
      if (have > to) break;
    }
    reader.cancel().catch(() => {});
    const all = new Uint8Array(have);
    let at = 0;
    for (const p of parts) { all.set(p, at); at += p.length; }
    return { status: 200, bytes: all.slice(from, to + 1), size: have <= to ? have : undefined };
  }

  /** A part as the picker path reads a File: name, size and slice(0, n).arrayBuffer(). */
  function remoteFile(name, url, first, size) {
    let have = first;
    async function upTo(n) {
      // A server may answer a range with fewer bytes than asked: ask again from where it stopped.
      while (n > have.length) {
        const more = await rangeGet(url, have.length, n - 1);
        if (!more.bytes) throw new Error('HTTP ' + more.status + ' for ' + url);
        if (!more.bytes.length) break;  // the file ends here
        const next = new Uint8Array(have.length + more.bytes.length);
        next.set(have, 0);
        next.set(more.bytes, have.length);
        have = next;
      }
      return have.slice(0, n).buffer;
    }
    return { name: name, size: size, slice: (from, to) => ({ arrayBuffer: () => upTo(to) }) };
  }

  function problem(ref, url, status) {
    const repo = ref.split('/').slice(0, 2).join('/').replace(/@.*$/, '');
    if (status === 401 || status === 403)
      return ref + ' is gated or private on the Hub (HTTP ' + status + ' for ' + url + '). The page reads public ' +
        'files only: accept its terms on https://huggingface.co/' + repo + ', download the file and open it with ' +
        '"Open a .gguf file…", or use the CLI with HF_TOKEN (kvcalc --gguf ' + ref + ').';
    if (status === 404)
      return 'The Hub has no ' + url.replace(/^.*\/resolve\/[^/]+\//, '') + ' in ' + repo + ' (HTTP 404 for ' + url +
        '): check the repo, the revision and the file name on its Files tab.';
    return 'The Hub answered HTTP ' + status + ' for ' + url + ': try again later, or download the file and open it.';
  }

  async function ggufHubOpen(json) {
    let request;
    try { request = JSON.parse(json); } catch (e) { return; }
    const ref = String(request.ref || '');
    try {
      const parts = await Promise.all((request.files || []).map(async (f) => {
        const first = await rangeGet(f.url, 0, kFirstBytes - 1);
        if (!first.bytes) return { error: problem(ref, f.url, first.status) };
        // Without a readable Content-Range a full first range says nothing of the size: assume more follows.
        const size = first.size !== undefined ? first.size
          : first.bytes.length < kFirstBytes ? first.bytes.length : Number.MAX_SAFE_INTEGER;
        return { file: remoteFile(f.name, f.url, first.bytes, size) };
      }));
      const bad = parts.find((p) => p.error);
      if (bad) { send('gguf_error', bad.error, 'hub'); return; }
      bridge.ggufTakeFiles(parts.map((p) => p.file), 'hub');
    } catch (err) {
      const why = err && err.name === 'TimeoutError'
        ? 'huggingface.co did not answer within ' + kTimeoutMs / 1000 + ' s'
        : 'Could not reach huggingface.co (offline, or blocked by the network)';
      send('gguf_error', why + ', so ' + ref + ' was not read. Try again when online, or download the file and ' +
        'open it with "Open a .gguf file…".', 'hub');
    }
  }

  Object.assign(bridge, { ggufHubOpen: ggufHubOpen });
})();
