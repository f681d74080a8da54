// A static file server for the built page (web/dist), on 127.0.0.1 and a
// free port. MIME types matter: module scripts and .wasm are refused by the
// browser otherwise. .gz files are served as bytes (no Content-Encoding),
// exactly as a user's file would be read.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gz': 'application/gzip',
};

/**
 * @param {string} root directory to serve
 * @param {{cors?: boolean, headers?: Record<string, string>}} [opts] cors: send Access-Control-Allow-Origin: * (a data server for #url= loads);
 *   headers: sent with every file (a CI artifact server's Content-Security-Policy)
 * @returns {Promise<{url: string, close: () => Promise<void>, requests: string[], ranges: {path: string, start: number, end: number}[]}>}
 */
export function serveStatic(root, opts = {}) {
  /** @type {string[]} */
  const requests = [];
  /** @type {{path: string, start: number, end: number}[]} */
  const ranges = [];
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    const u = new URL(req.url || '/', 'http://x');
    requests.push(u.pathname);
    let p = path.normalize(path.join(base, decodeURIComponent(u.pathname)));
    if (!p.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    // A CORS preflight, as a data server configured for cross-origin range
    // reads answers it (a Range request may need one; docs/page-loading.md).
    if (req.method === 'OPTIONS' && opts.cors) {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'range', 'access-control-allow-methods': 'GET, HEAD' }).end();
      return;
    }
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
    fs.stat(p, (err, st) => {
      if (err || !st.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain', ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}) }).end('not found');
        return;
      }
      const head = {
        'content-type': TYPES[path.extname(p)] || 'application/octet-stream',
        'cache-control': 'no-store',
        'accept-ranges': 'bytes',
        ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}),
        ...opts.headers,
      };
      // One byte range ("bytes=a-b"), as static servers answer them: a
      // result with several resolutions is read this way (load/levels.js).
      const m = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range || ''));
      if (m && Number(m[1]) <= Number(m[2]) && Number(m[1]) < st.size) {
        const a = Number(m[1]);
        const b = Math.min(Number(m[2]), st.size - 1);
        ranges.push({ path: u.pathname, start: a, end: b });
        res.writeHead(206, { ...head, 'content-length': b - a + 1, 'content-range': `bytes ${a}-${b}/${st.size}` });
        if (req.method === 'HEAD') res.end();
        else fs.createReadStream(p, { start: a, end: b }).pipe(res);
        return;
      }
      res.writeHead(200, { ...head, 'content-length': st.size });
      if (req.method === 'HEAD') res.end();
      else fs.createReadStream(p).pipe(res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({
        url: `http://127.0.0.1:${port}/`,
        requests,
        ranges,
        // Chromium keeps its connections open: without closing them, close()
        // waits for their keep-alive to run out (a minute).
        close: () =>
          new Promise((r) => {
            server.close(() => r());
            server.closeAllConnections();
          }),
      });
    });
  });
}
