// kvcalc shell: checks the browser, downloads the app with a progress bar, starts it on the canvas.
// The app itself (Dear ImGui in WebAssembly) takes over from there.
(function () {
  'use strict';
  const text = document.getElementById('loading-text');
  const bar = document.getElementById('loading-bar');
  const overlay = document.getElementById('loading');

  // The page's one live region is the result (#result-text): download progress is not read out, a failure to
  // start is (role=alert, once).
  function fail(message) {
    text.setAttribute('role', 'alert');
    text.textContent = message;
    text.className = 'error';
    bar.parentElement.style.display = 'none';
  }

  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fail('This browser cannot run WebAssembly, which kvcalc needs. Please use a current Firefox, Chrome, Edge or Safari.');
    return;
  }
  const probe = document.createElement('canvas');
  if (!probe.getContext('webgl2')) {
    fail('This browser has WebGL2 turned off or unsupported, which kvcalc needs to draw. ' +
         'Enable hardware acceleration or try a current Firefox, Chrome, Edge or Safari.');
    return;
  }

  // Embed page: same app, result-only view.
  if (document.documentElement.dataset.embed === '1') {
    const params = new URLSearchParams(location.search);
    if (params.get('embed') !== '1') {
      params.set('embed', '1');
      history.replaceState(null, '', location.pathname + '?' + params.toString() + location.hash);
    }
  }

  window.kvcalcReady = function () {
    window.kvcalcFirstFrameMs = performance.now();  // since navigation start (read by tests/browser/budget.mjs)
    overlay.classList.add('hidden');
  };

  // The wasm is compiled while it downloads (WebAssembly.compileStreaming, off the main thread), from a stream that
  // also moves the progress bar. index.html preloads it, so the download starts before this script runs.
  function showProgress(received, total) {
    bar.style.width = (total ? Math.min(95, Math.round(95 * received / total)) : 50) + '%';
    // Content-Length counts the compressed bytes; the stream yields them decompressed.
    text.textContent = 'Downloading the calculator… ' + Math.round(received / 1024) +
      (total && received <= total ? ' / ' + Math.round(total / 1024) : '') + ' KiB';
  }

  async function compileWithProgress(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
    const total = Number(response.headers.get('content-length')) || 0;
    let received = 0;
    const counted = response.body && typeof TransformStream === 'function'
      ? response.body.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          received += chunk.length;
          showProgress(received, total);
          controller.enqueue(chunk);
        },
      }))
      : response.body;
    const wasm = new Response(counted, { headers: { 'Content-Type': 'application/wasm' } });
    if (typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(wasm);
    return WebAssembly.compile(await wasm.arrayBuffer());
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = src;
      s.onload = resolve;
      s.onerror = () => reject(new Error('could not load ' + src));
      document.head.appendChild(s);
    });
  }

  (async function start() {
    try {
      const [wasmModule] = await Promise.all([compileWithProgress('kvcalc-app.wasm'), loadScript('kvcalc-app.js')]);
      bar.style.width = '97%';
      text.textContent = 'Starting…';
      await window.createKvcalcApp({
        canvas: document.getElementById('canvas'),
        // Emscripten's hook for a module compiled elsewhere: instantiate it with the glue's imports.
        instantiateWasm: (imports, receive) => {
          WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule),
            (err) => fail('kvcalc could not start: ' + (err && err.message ? err.message : err)));
          return {};
        },
        print: (s) => console.log(s),
        printErr: (s) => console.warn(s),
      });
    } catch (err) {
      fail('kvcalc could not start: ' + (err && err.message ? err.message : err));
    }
  })();
})();
