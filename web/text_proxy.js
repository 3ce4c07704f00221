// The app's text fields are drawn by Dear ImGui on a canvas, which no soft keyboard, IME or clipboard can reach.
// This file gives them a real <input>: when ImGui starts editing a field, the input gets focus (with the field's
// inputmode, so a phone opens the right keyboard) and every edit, paste or selection change is sent to the app,
// which copies it into the ImGui field. Enter / Tab / closing the keyboard end the edit.
(function () {
  'use strict';
  const bridge = window.kvcalcBridge;
  let input = null;
  let session = 0;          // the app's field id being edited; 0 = none
  let endingByApp = false;  // blur requested by the app: do not report it back
  let sent = '';
  let pendingFocusTimer = 0;

  function send(kind) {
    if (!session) return;
    const state = input.value + '\u0000' + input.selectionStart + ':' + input.selectionEnd;
    if (kind === 'text' && state === sent) return;
    if (kind === 'text') sent = state;
    bridge.inbox.push({ kind: kind, text: input.value,
      source: session + ':' + (input.selectionStart || 0) + ':' + (input.selectionEnd || 0) });
  }

  function setMode(mode) {
    input.setAttribute('inputmode', mode);
    input.setAttribute('enterkeyhint', mode === 'search' ? 'search' : 'done');
    input.type = mode === 'url' ? 'url' : 'text';
  }

  /** The app started editing field `id`: show its text and focus (no-op for the focus if already focused). */
  function textBegin(id, mode, text, start, end) {
    clearTimeout(pendingFocusTimer);
    // Keys typed between the tap (which focused the input at once) and this call replace the field's selection.
    const early = session === 0 && document.activeElement === input ? input.value : '';
    session = id;
    setMode(mode);
    input.value = text;
    sent = '';
    if (document.activeElement !== input) input.focus({ preventScroll: true });
    try { input.setSelectionRange(start, end); } catch (e) { /* type=url has no selection API */ }
    if (early) {
      try { input.setRangeText(early, Math.min(start, end), Math.max(start, end), 'end'); } catch (e) { input.value = early; }
      send('text');
    }
    sent = input.value + '\u0000' + input.selectionStart + ':' + input.selectionEnd;
  }

  function textEnd() {
    session = 0;
    if (document.activeElement === input) {
      endingByApp = true;
      input.blur();
      endingByApp = false;
    }
  }

  /** The published text field under (x, y) in CSS px, or null. */
  function fieldAt(x, y) {
    const fields = (window.kvcalcState && window.kvcalcState.text_fields) || [];
    for (const f of fields) if (x >= f[0] && x <= f[0] + f[2] && y >= f[1] && y <= f[1] + f[3]) return f;
    return null;
  }

  function wire() {
    input = document.getElementById('text-proxy');
    const canvas = document.getElementById('canvas');
    if (!input || !canvas) return;
    for (const ev of ['input', 'select', 'keyup', 'pointerup']) input.addEventListener(ev, () => send('text'));
    document.addEventListener('selectionchange', () => { if (document.activeElement === input) send('text'); });
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === 'Tab' || e.key === 'Escape') {
        e.preventDefault();
        send('text');
        send('text_done');
        textEnd();
        canvas.focus({ preventScroll: true });
        // Tab ends the edit and moves on, as on any form (the app picks the next control or leaves the canvas).
        if (e.key === 'Tab') bridge.inbox.push({ kind: 'nav', text: e.shiftKey ? 'prev' : 'next', source: 'key' });
      }
    });
    input.addEventListener('blur', (e) => {
      if (endingByApp || e.relatedTarget === canvas) return;  // a press on the canvas: ImGui decides
      send('text');
      send('text_done');
    });
    // A press starts where ImGui will see it; the canvas takes focus unless it lands on a text field, so an open
    // soft keyboard does not flicker when the user moves from one field to the next.
    let down = null;
    canvas.addEventListener('pointerdown', (e) => {
      down = { x: e.clientX, y: e.clientY, t: performance.now() };
      if (!fieldAt(e.clientX, e.clientY)) canvas.focus({ preventScroll: true });
    }, true);
    // A tap on a text field focuses the input inside the touch handler: iOS opens the keyboard only there.
    canvas.addEventListener('pointerup', (e) => {
      if (!down) return;
      const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
      const quick = performance.now() - down.t < 800;
      down = null;
      const f = fieldAt(e.clientX, e.clientY);
      if (!f || moved > 10 || !quick) return;
      setMode(f[4]);
      if (document.activeElement !== input) {
        if (!session) input.value = '';  // whatever is typed before the app starts the edit (textBegin)
        input.focus({ preventScroll: true });
      }
      clearTimeout(pendingFocusTimer);
      // If ImGui does not start editing (the tap became a scroll), give the focus back.
      pendingFocusTimer = setTimeout(() => { if (!session && document.activeElement === input) input.blur(); }, 600);
    }, true);
  }

  bridge.textBegin = textBegin;
  bridge.textEnd = textEnd;
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', wire);
  else wire();
})();
