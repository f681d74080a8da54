// End-to-end cases of folders as benchmark tools leave them, fetched from a
// #url= that answers with a folder listing (docs/page-loading.md "A URL of a
// folder", docs/formats.md "Folders that benchmark tools leave"): Python's
// own http.server (a request handler that adds the CORS header; the listing
// pages are Python's) serves tests/fixtures/layouts on another origin.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { cliPctiles, fixture, waitDone, download } from './helpers.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[], context: import('playwright-core').BrowserContext}} Ctx */

const SERVER = `
import functools, http.server, sys
class H(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header('Access-Control-Allow-Origin', '*')
        super().end_headers()
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), functools.partial(H, directory=sys.argv[1]))
print(s.server_address[1], flush=True)
s.serve_forever()
`;

/** Python's http.server over `dir` with CORS; resolves to its URL and a stop function. @param {string} dir */
function pythonServer(dir) {
  const p = spawn('python3', ['-u', '-c', SERVER, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    p.stdout.once('data', (c) => resolve({ url: `http://127.0.0.1:${String(c).trim()}/`, close: () => p.kill() }));
    p.on('exit', (code) => reject(new Error(`python3 http.server exited ${code}`)));
  });
}

/** Every file under dir, sorted in code-unit order (the page's order). @param {string} dir */
function filesUnder(dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else out.push(path.join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}

export const LAYOUT_CASES = [
  {
    name: '#url= of a pbench-fio folder listing: its files fetched, hosts from clients/<host>/, one run, no error; csv equals the CLI',
    async run(/** @type {Ctx} */ c) {
      const p = c.page;
      const data = /** @type {{url: string, close: () => void}} */ (await pythonServer(fixture('layouts')));
      try {
        await p.goto(`${c.url}#g=host&url=${data.url}pbench/`);
        assert.equal(await waitDone(p), 'ready');
        const status = (await p.textContent('[data-testid=status]')) || '';
        // 2 hosts x 2 jobs x (clat_hist, clat, lat, slat); the other 48 files named.
        assert.match(status, /^16 logs loaded in [\d.]+ s, 48 files ignored/, status);
        assert.doesNotMatch(status, /error/, status);
        assert.equal(await p.getAttribute('[data-testid=runs-banner]', 'hidden'), '', 'no runs banner: the hosts are one run');
        const msgs = await p.$$eval('.fetch-error', (els) => els.map((e) => e.textContent));
        assert.equal(msgs.length, 1, msgs.join('\n'));
        assert.match(msgs[0] || '', /pbench\/: a folder listing .*fetched 64 files in 11 folders$/);
        const ignored = (await p.textContent('[data-testid=ignored-files]')) || '';
        for (const what of ['fio-histo-log-pctiles.py', 'pbench-fio plot series', 'pbench-fio result summary', 'HTML page', 'fio json output without json+ bins'])
          assert.ok(ignored.includes(what), `ignored list lacks ${what}`);
        const csv = (await download(p, '[data-testid=export-csv]')).bytes.toString('utf8');
        assert.equal(csv, cliPctiles(['--group-by', 'host'], filesUnder(fixture('layouts', 'pbench'))));
        assert.match(csv, /host=127\.0\.0\.1/);
        assert.match(csv, /host=127\.0\.0\.2/);
        // An HTML page that is no listing: said, with what to give instead.
        await p.goto(`${c.url}#url=${data.url}pbench/fio_layouts_2026.11.26T10.40.00/1-randread-4KiB/sample1/fio.html`);
        assert.equal(await waitDone(p), 'error');
        const err = (await p.textContent('[data-testid=file-errors]')) || (await p.textContent('body')) || '';
        assert.match(err, /the server sent an HTML page, not a log, an archive or a folder listing\. Give the URL of a log file, of a \.tar/);
        assert.deepEqual(c.errors, [], 'the page logged errors');
      } finally {
        data.close();
      }
    },
  },
];
