// The example dashboard's script (docs/embedding.md): handshake, then post
// the files and a view state; show latscope's replies.
const frame = /** @type {HTMLIFrameElement} */ (document.getElementById('latscope'));
const log = /** @type {HTMLElement} */ (document.getElementById('log'));
// Only this page's own origin may post to the embedded app (?embedOrigin=);
// the app replies to this origin only.
frame.src = `index.html?embedOrigin=${encodeURIComponent(location.origin)}#v=1&view=heatmap`;
const app = new URL(frame.src, location.href).origin;

/** Fetches the demo logs (a CI page would post its own run's files). */
async function files() {
  const manifest = await (await fetch('demo/manifest.json')).json();
  return Promise.all(
    manifest.files.map(async (/** @type {string} */ name) => ({ name, data: await (await fetch(`demo/${name}`)).arrayBuffer() })),
  );
}

let ready = false;
let nextId = 1;
window.addEventListener('message', (ev) => {
  // Replies come from the iframe's window and origin only.
  if (ev.source !== frame.contentWindow || ev.origin !== app) return;
  const m = ev.data;
  if (!m || m.latscope !== 1) return;
  if (m.type === 'pong' && !ready) {
    ready = true;
    log.textContent = `latscope ${m.version} ready; posting the logs…`;
    post();
  } else if (m.type === 'loaded') {
    log.textContent = `loaded: ${m.status}`;
    log.dataset.state = 'loaded';
  } else if (m.type === 'error') {
    log.textContent = `latscope could not load them: ${m.message}`;
    log.dataset.state = 'error';
  }
});

async function post() {
  const list = await files();
  // The ArrayBuffers are transferred (not copied) to the iframe.
  frame.contentWindow?.postMessage(
    { latscope: 1, type: 'load', id: nextId++, files: list, view: { view: 'heatmap', percentiles: ['50', '99', '99.9'] } },
    app,
    list.map((f) => f.data),
  );
}

// Handshake: once the iframe's page is there, ping until latscope answers
// (its script may still be starting).
frame.addEventListener('load', () => {
  const ping = setInterval(() => {
    if (ready) return clearInterval(ping);
    frame.contentWindow?.postMessage({ latscope: 1, type: 'ping' }, app);
  }, 200);
});
document.getElementById('post')?.addEventListener('click', post);
