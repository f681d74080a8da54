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
 * @param {{cors?: boolean}} [opts] cors: send Access-Control-Allow-Origin: * (a data server for #url= loads)
 * @returns {Promise<{url: string, close: () => Promise<void>, requests: string[]}>}
 */
export function serveStatic(root, opts = {}) {
  /** @type {string[]} */
  const requests = [];
  const base = path.resolve(root);
  const server = http.createServer((req, res) => {
    const u = new URL(req.url || '/', 'http://x');
    requests.push(u.pathname);
    let p = path.normalize(path.join(base, decodeURIComponent(u.pathname)));
    if (!p.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    if (fs.existsSync(p) && fs.statSync(p).isDirectory()) p = path.join(p, 'index.html');
    fs.stat(p, (err, st) => {
      if (err || !st.isFile()) {
        res.writeHead(404, { 'content-type': 'text/plain', ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}) }).end('not found');
        return;
      }
      res.writeHead(200, {
        'content-type': TYPES[path.extname(p)] || 'application/octet-stream',
        'content-length': st.size,
        'cache-control': 'no-store',
        ...(opts.cors ? { 'access-control-allow-origin': '*' } : {}),
      });
      fs.createReadStream(p).pipe(res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      resolve({
        url: `http://127.0.0.1:${port}/`,
        requests,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
