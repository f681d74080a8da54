// Embedding: a dashboard or CI page shows latscope in an <iframe> and posts
// the data to it (docs/embedding.md).
//
//   parent                                              latscope (iframe)
//   {latscope: 1, type: 'ping', id}          ────▶
//                                            ◀────      {latscope: 1, type: 'pong', id, version, ready}
//   {latscope: 1, type: 'load', id,          ────▶      loads like picked files
//     files: [{name, data: ArrayBuffer}],
//     view?: {view: 'heatmap', ...} | 'view=heatmap&q=5000'}
//                                            ◀────      {latscope: 1, type: 'loaded', id, ok: true, logs, ignored, broken, status}
//                                            ◀────      {latscope: 1, type: 'error', id, ok: false, message}
//   {latscope: 1, type: 'view', id, view}    ────▶      view state only ◀──── {type: 'view', id, ok: true}
//
// Who may post: the window that embeds the page (window.parent) or opened it
// (window.opener), nobody else (another frame of the dashboard, a popup),
// and only from the page's own origin unless
// `?embedOrigin=https://a.example,https://b.example` names others (`*`: any
// origin) (docs/embedding.md §4, "Origins"). Data posted only flows into the page; nothing leaves it but the
// replies, which go to the sender alone (targetOrigin = event.origin).
// Every message is untrusted: its fields are checked, file names are text,
// and the view state is validated like a URL fragment (url-state.js).
import { parseViewState } from './url-state.js';
import { takeLists } from './url-sync.js';
import { loadSummary } from './sources.js';

/** The message protocol's version (replies carry it as `version`). */
export const EMBED_VERSION = 1;
/** Files per message at most. */
export const MAX_FILES = 10000;

/**
 * The origins that may post: those `?embedOrigin=` names, else the page's own
 * origin alone (a default that lets no other site drive the page); null when
 * `?embedOrigin=*` accepts any origin of the embedding window.
 * @param {string} search location.search
 * @param {string} own the page's origin (location.origin; "null" when opaque, as from file://)
 * @returns {string[] | null}
 */
export function allowedOrigins(search, own) {
  const v = new URLSearchParams(search).getAll('embedOrigin').join(',');
  const names = v.split(',').map((x) => x.trim()).filter(Boolean);
  if (names.includes('*')) return null;
  if (!names.length) return own && own !== 'null' ? [own] : [];
  const out = [];
  for (const o of names) {
    try {
      const u = new URL(o);
      if (u.protocol === 'https:' || u.protocol === 'http:') out.push(u.origin);
    } catch {
      console.warn(`latscope: embedOrigin ${JSON.stringify(o.slice(0, 80))} is not an origin: ignored`);
    }
  }
  return out;
}

/**
 * Checks a posted `files` list: [{name: string, data: ArrayBuffer | typed array | Blob}].
 * @param {unknown} files
 * @returns {{items: import('../load/files.js').LoadItem[], error: string}}
 */
export function checkFiles(files) {
  if (!Array.isArray(files)) return { items: [], error: 'files must be an array of {name, data}' };
  if (!files.length) return { items: [], error: 'files is empty' };
  if (files.length > MAX_FILES) return { items: [], error: `more than ${MAX_FILES} files` };
  /** @type {import('../load/files.js').LoadItem[]} */
  const items = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    const name = f && typeof f === 'object' ? f.name : undefined;
    const data = f && typeof f === 'object' ? f.data ?? f.bytes : undefined;
    // eslint-disable-next-line no-control-regex
    if (typeof name !== 'string' || !name || name.length > 4096 || /[\u0000-\u001f]/.test(name)) return { items: [], error: `files[${i}].name must be a non-empty string` };
    let blob;
    if (data instanceof Blob) blob = data;
    else if (data instanceof ArrayBuffer) blob = new Blob([data]);
    else if (ArrayBuffer.isView(data)) blob = new Blob([/** @type {BlobPart} */ (new Uint8Array(data.buffer, data.byteOffset, data.byteLength))]);
    else if (typeof data === 'string') blob = new Blob([data]);
    else return { items: [], error: `files[${i}].data must be an ArrayBuffer, a typed array, a Blob or a string` };
    items.push({ name: name.replace(/^\/+/, ''), file: blob });
  }
  return { items, error: '' };
}

/**
 * Listens for messages from the embedding page.
 * @param {any} app the App (load, applyState, sources, skipped, $)
 * @param {{win?: Window}} [o]
 */
export function installEmbed(app, o = {}) {
  const win = o.win ?? window;
  const allow = allowedOrigins(win.location.search, win.location.origin);
  win.addEventListener('message', async (ev) => {
    const msg = ev.data;
    if (!msg || typeof msg !== 'object' || msg.latscope !== EMBED_VERSION) return; // not for us
    const embedded = win.parent !== win && ev.source === win.parent;
    const opened = !!win.opener && ev.source === win.opener;
    if (!embedded && !opened) {
      console.warn(`latscope: a message from ${String(ev.origin).slice(0, 100)} ignored: only the embedding or opening window may post`);
      return;
    }
    if (allow && !allow.includes(ev.origin)) {
      const why = new URLSearchParams(win.location.search).has('embedOrigin') ? 'not in ?embedOrigin=' : 'another origin than the page\'s own (allow it with ?embedOrigin=ORIGIN, docs/embedding.md)';
      console.warn(`latscope: a message from ${String(ev.origin).slice(0, 100)} ignored: ${why}`);
      return;
    }
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : undefined;
    const reply = (/** @type {Record<string, unknown>} */ r) => {
      // Only to the sender. An opaque origin ("null": a sandboxed frame or
      // file://) cannot be named as a target, so '*' then: the reply still
      // goes to that one window and holds only what it sent us, counted.
      const target = ev.origin && ev.origin !== 'null' ? ev.origin : '*';
      /** @type {Window} */ (ev.source).postMessage({ latscope: EMBED_VERSION, id, ...r }, target);
    };
    try {
      if (msg.type === 'ping') return reply({ type: 'pong', version: EMBED_VERSION, ready: true });
      const view = parseViewState(msg.view);
      for (const n of view.notes) console.warn(`latscope: posted view: ${n}`);
      // Its percentiles are read by core, as a link's (url-sync.js takeLists).
      const lists = takeLists(view.state, view.state);
      if (msg.type === 'view') {
        app.applyState(view.state);
        await app.setLinkPercentiles(lists);
        return reply({ type: 'view', ok: true, ignored: view.notes });
      }
      if (msg.type === 'load') {
        const { items, error } = checkFiles(msg.files);
        if (error) return reply({ type: 'error', ok: false, message: error });
        await app.setLinkPercentiles(lists);
        await app.load(items, [], { after: view.state });
        const el = app.$('status');
        const sum = loadSummary(app.sources, app.skipped);
        const ok = el.dataset.state === 'ready';
        return reply(
          ok
            ? { type: 'loaded', ok: true, logs: sum.logs, ignored: sum.ignored, broken: sum.broken, status: el.textContent, ignoredView: view.notes }
            : { type: 'error', ok: false, message: el.textContent || 'nothing loaded' },
        );
      }
      reply({ type: 'error', ok: false, message: `unknown message type ${JSON.stringify(String(msg.type).slice(0, 40))} (ping, load, view)` });
    } catch (e) {
      reply({ type: 'error', ok: false, message: String(/** @type {Error} */ (e)?.message ?? e) });
    }
  });
}
