// End-to-end cases of "bounded on any input" (docs/result-format.md
// "Memory", docs/page-loading.md "Downloads"): a `#d=` link whose result
// inflates past the page's memory budget, and a `#url=` server that streams
// without end, are refused with a message naming the limit, and the tab's
// memory stays small (CDP Performance.getMetrics: JSHeapUsedSize).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { cliPath, fixtureFiles, waitDone } from './helpers.mjs';
import { OUT } from './paths.mjs';
import { encodeLinkData } from '../../src/app/link.js';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

/** @param {number} v */
function varint(v) {
  const o = [];
  while (v >= 0x80) {
    o.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  o.push(v);
  return o;
}

/**
 * A version 2 result (docs/result-format.md) of `cells` cells of every fio3
 * bin, count 1, one block: tests/bounds/make_result.py in JS.
 * @param {number} cells
 */
export function repeatedCells(cells) {
  const le = (/** @type {number} */ n, /** @type {number} */ v) => {
    const b = Buffer.alloc(n);
    if (n === 4) b.writeUInt32LE(v);
    else b.writeBigUInt64LE(BigInt(v));
    return b;
  };
  const f64 = (/** @type {number} */ v) => {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(v);
    return b;
  };
  const head = Buffer.concat([le(4, 0), f64(1000), le(4, 28), le(4, cells), le(4, 1), Buffer.from([0]), le(4, 4), Buffer.from('fio3'), le(4, 0), Buffer.from([0]),
    le(4, 1), le(4, 0), le(4, 0), f64(0), f64(1e12), f64(0), f64(1e12)]);
  const bins = [];
  for (let k = 0; k < 1856; ++k) bins.push(0, 1);
  const body = [];
  for (let q = 0; q < cells; ++q) body.push(0, ...varint(q), ...varint(1856), ...bins, 0);
  const block = Buffer.concat([le(8, 0), le(4, cells), Buffer.from(body)]);
  const hz = zlib.deflateSync(head, { level: 9 });
  const bz = zlib.deflateSync(block, { level: 9 });
  const start = Buffer.concat([Buffer.from('LSRESULT'), le(4, 2), le(4, hz.length), hz]);
  const blockAt = start.length;
  const blocks = Buffer.concat([le(4, bz.length), bz]);
  const indexAt = start.length + blocks.length;
  const index = Buffer.concat([Buffer.from('LSIX'), le(4, 1), le(8, 0), le(8, cells - 1), le(8, blockAt), le(4, bz.length), le(4, cells), le(8, indexAt), Buffer.from('LSRESEND')]);
  return new Uint8Array(Buffer.concat([start, blocks, index]));
}

/** The tab's JS heap in use (CDP). @param {import('playwright-core').Page} p */
async function jsHeapUsed(p) {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Performance.enable');
  const { metrics } = await cdp.send('Performance.getMetrics');
  await cdp.detach();
  return metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const BOUNDS_CASES = [
  {
    name: 'bounds: a #d= link whose result decodes past the memory budget is refused by name, the tab stays small',
    async run(c) {
      const p = c.page;
      // 2,000 cells of 1856 bins: ~90 MB decoded (160 B a cell, 24 B a bin)
      // from a link of a few KB; the budget of 32 MiB bounds it, at its
      // least of 64 MiB (budget.js MIN_RESULT_BYTES).
      const { data } = encodeLinkData({ name: 'cells.lsr', bytes: repeatedCells(2000) });
      assert.ok(data.length < 64 * 1024, `link of ${data.length} chars`);
      await p.goto(`${c.url}?budget=32MiB#v=1&d=${data}`);
      const state = await waitDone(p);
      const errs = await p.$$eval('[data-testid=file-errors] .file-error-msg', (ds) => ds.map((d) => d.textContent || ''));
      const status = (await p.textContent('[data-testid=status]')) ?? '';
      assert.ok(state === 'error' || errs.length === 1, `state ${state}, status ${status}`);
      const said = [...errs, status].join(' | ');
      assert.match(said, /cells\.lsr: result: block 0: cell \d+: the decoded result would take over 64 MiB, the limit of memory for one result/, said);
      const heap = await jsHeapUsed(p);
      assert.ok(heap < 200 * 2 ** 20, `JS heap ${Math.round(heap / 2 ** 20)} MiB`);
      // Under the default budget (1 GiB) the same link loads.
      await p.goto(`${c.url}#v=1&d=${data}`);
      assert.equal(await waitDone(p), 'ready');
    },
  },
  {
    name: 'bounds: a #url= server streaming without end is stopped past the memory budget, named, the tab stays small',
    async run(c) {
      const p = c.page;
      let sent = 0;
      let closed = false;
      // Streams 1 MiB chunks until the page hangs up (or 1 GiB, so that a
      // page that never stops fails this case instead of hanging it).
      const server = http.createServer((req, res) => {
        res.writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(2 ** 20, 0x31);
        const more = () => {
          while (!closed && sent < 2 ** 30) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('close', () => {
          closed = true;
        });
        more();
      });
      await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
      try {
        const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
        const url = `http://127.0.0.1:${addr.port}/big_clat_hist.1.log`;
        await p.goto(`${c.url}?budget=32MiB#url=${encodeURIComponent(url)}`);
        await waitDone(p);
        await p.waitForFunction((u) => document.body.textContent?.includes(`${u}: stopped after`), url, { timeout: 60000, polling: 100 });
        const text = (await p.textContent('body')) ?? '';
        assert.match(text, /big_clat_hist\.1\.log: stopped after 3[23]\.\d MiB, past the page's memory budget of 32\.0 MiB/, text.slice(text.indexOf('stopped after') - 100, text.indexOf('stopped after') + 200));
        assert.ok(sent < 2 ** 30, `the server sent ${sent} bytes: the page did not stop`);
        const heap = await jsHeapUsed(p);
        assert.ok(heap < 200 * 2 ** 20, `JS heap ${Math.round(heap / 2 ** 20)} MiB`);
      } finally {
        closed = true;
        server.closeAllConnections?.();
        await new Promise((resolve) => server.close(() => resolve(undefined)));
      }
    },
  },
  {
    name: 'bounds: `latscope report` of files whose names hold a TAB, a newline and ESC reopens in the page, the names shown escaped',
    async run(c) {
      const dir = fs.mkdtempSync(path.join(OUT, 'odd-names-'));
      const logs = fixtureFiles('local', /_clat_hist\.\d\.log$/);
      const odd = ['a\tb_clat_hist.1.log', 'c\nd_clat_hist.2.log', 'e\x1b[31mf_clat_hist.3.log'];
      const files = odd.map((n, i) => {
        const f = path.join(dir, n);
        fs.copyFileSync(logs[i % logs.length], f);
        return f;
      });
      try {
        await openOddReport(c, dir, files);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];

/**
 * `latscope report` of files with odd names, opened in the page.
 * @param {Ctx} c @param {string} dir @param {string[]} files
 */
async function openOddReport(c, dir, files) {
  const html = path.join(dir, 'report.html');
  const r = spawnSync(cliPath(), ['report', '--template', path.join(OUT, 'dist', 'latscope.html'), ...files, '-o', html], { encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, `latscope report exit ${r.status}: ${r.stderr}`);
  const p = c.page;
  await p.goto(pathToFileURL(html).href);
  assert.equal(await waitDone(p), 'ready', (await p.textContent('[data-testid=status]')) ?? '');
  const table = (await p.textContent('[data-testid=file-table]')) ?? '';
  assert.ok(table.includes('a\\x09b_clat_hist.1.log'), `the TAB shown as \\x09: ${table.slice(0, 300)}`);
}
