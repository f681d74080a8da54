// Helpers of the end-to-end cases: the CLI as the reference, waiting for the
// page, downloads, canvas pixel statistics and generated inputs.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { REPO, OUT, FIXTURES } from './paths.mjs';

/** The native CLI whose output the page must reproduce. */
export function cliPath() {
  const p = process.env.LATSCOPE_CLI || path.join(REPO, 'build/latscope');
  if (!fs.existsSync(p)) throw new Error(`native CLI not found at ${p}: build it (cmake -S . -B build && cmake --build build) or set LATSCOPE_CLI`);
  return p;
}

/** CSV text -> rows of objects (no quoted fields: the CLI's CSV has none here). @param {string} csv */
export function parseCsv(csv) {
  const [head, ...rows] = csv.trim().split('\n');
  const cols = head.split(',');
  return rows.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i], v])));
}

/** `latscope pctiles ARGS... FILES...` stdout. @param {string[]} args @param {string[]} files */
export function cliPctiles(args, files) {
  try {
    return execFileSync(cliPath(), ['pctiles', ...args, ...files], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    // Exit 1: lines were skipped (reported on stderr); the CSV is still whole.
    const err = /** @type {any} */ (e);
    if (err.status === 1) return String(err.stdout);
    throw new Error(`latscope pctiles failed (${err.status}): ${err.stderr}`);
  }
}

/** @param {...string} parts */
export function fixture(...parts) {
  return path.join(FIXTURES, ...parts);
}

/** Files of a fixture set matching a pattern, sorted as a shell glob would. @param {string} set @param {RegExp} re */
export function fixtureFiles(set, re) {
  return fs
    .readdirSync(fixture(set))
    .filter((f) => re.test(f))
    .sort()
    .map((f) => fixture(set, f));
}

/** Waits until processing ends; returns data-state. @param {import('playwright-core').Page} page @param {number} [timeout] */
export async function waitDone(page, timeout = 60000) {
  await page.waitForFunction(
    () => {
      const s = document.querySelector('[data-testid=status]');
      return s && (s.getAttribute('data-state') === 'ready' || s.getAttribute('data-state') === 'error');
    },
    null,
    { timeout, polling: 50 },
  );
  return page.getAttribute('[data-testid=status]', 'data-state');
}

/**
 * Waits until no query is in flight and the percentiles view has drawn its answer
 * (views are drawn after the worker answers, so reading the DOM before this races).
 * @param {import('playwright-core').Page} p
 */
export async function settled(p) {
  await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.running));
  await p.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.drawing);
}

/**
 * The percentiles chart's brush overlay, where a person drags to zoom, once
 * the view has drawn (a redraw makes the brush anew: reading it before races).
 * @param {import('playwright-core').Page} p
 * @returns {Promise<{x: number, y: number, width: number, height: number}>}
 */
export async function brushBox(p) {
  await settled(p);
  const overlay = p.locator('#view-pctiles .brush .overlay');
  await overlay.waitFor({ state: 'visible' });
  const box = await overlay.boundingBox();
  if (!box) throw new Error('the brush overlay has no box');
  return box;
}

/** Opens the page and loads files through the file input. @param {import('playwright-core').Page} page @param {string} url @param {string[]} files */
export async function loadThroughInput(page, url, files) {
  await page.goto(url);
  await page.setInputFiles('[data-testid=file-input]', files);
  return waitDone(page);
}

/**
 * Clicks a control and returns the download's name and bytes.
 * @param {import('playwright-core').Page} page @param {string} selector
 * @returns {Promise<{name: string, bytes: Buffer}>}
 */
export async function download(page, selector) {
  const [d] = await Promise.all([page.waitForEvent('download', { timeout: 30000 }), page.click(selector)]);
  const p = await d.path();
  return { name: d.suggestedFilename(), bytes: fs.readFileSync(/** @type {string} */ (p)) };
}

/**
 * Painted-pixel statistics of the canvas in a view panel: the share of
 * non-transparent pixels overall, and per region (fractions of the canvas).
 * @param {import('playwright-core').Page} page @param {string} view pctiles|heatmap|surface|spectrum
 * @param {{x0: number, x1: number, y0: number, y1: number}[]} [regions]
 */
export function canvasStats(page, view, regions = []) {
  return page.evaluate(
    ({ view, regions }) => {
      const c = /** @type {HTMLCanvasElement} */ (document.querySelector(`#view-${view} canvas`));
      const ctx = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
      const img = ctx.getImageData(0, 0, c.width, c.height).data;
      const share = (/** @type {number} */ x0, /** @type {number} */ x1, /** @type {number} */ y0, /** @type {number} */ y1) => {
        let n = 0;
        let painted = 0;
        const X0 = Math.floor(x0 * c.width);
        const X1 = Math.ceil(x1 * c.width);
        const Y0 = Math.floor(y0 * c.height);
        const Y1 = Math.ceil(y1 * c.height);
        for (let y = Y0; y < Y1; y++) {
          for (let x = X0; x < X1; x++) {
            n++;
            if (img[(y * c.width + x) * 4 + 3] > 0) painted++;
          }
        }
        return n ? painted / n : 0;
      };
      return { width: c.width, height: c.height, all: share(0, 1, 0, 1), regions: regions.map((r) => share(r.x0, r.x1, r.y0, r.y1)) };
    },
    { view, regions },
  );
}

/** A file with a structural error the engine must name. */
export function malformedFile() {
  fs.mkdirSync(OUT, { recursive: true });
  const p = path.join(OUT, 'broken_clat_hist.1.log');
  // 17 bin columns: not any fio layout (1856 >> c or 1216 >> c).
  const bins = Array.from({ length: 17 }, (_, i) => String(i % 3)).join(', ');
  fs.writeFileSync(p, `1000, 0, 4096, ${bins}\n2000, 0, 4096, ${bins}\n`);
  return p;
}

/**
 * Large fio histogram logs made from a real log's lines, repeated with
 * increasing timestamps (cached in out/). Local mode: never repaired.
 * @param {number} files @param {number} mbEach
 */
export function largeLogs(files, mbEach) {
  const src = fs.readFileSync(fixture('local', 'local_clat_hist.1.log'), 'utf8').trim().split('\n');
  const body = src.map((l) => l.slice(l.indexOf(','))); // ", ddir, bs, bins..."
  const out = [];
  for (let f = 1; f <= files; f++) {
    const p = path.join(OUT, `large_clat_hist.${f}.log`);
    out.push(p);
    if (fs.existsSync(p) && fs.statSync(p).size >= mbEach * 1e6) continue;
    const fd = fs.openSync(p, 'w');
    let bytes = 0;
    let k = 0;
    while (bytes < mbEach * 1e6) {
      const chunk = [];
      for (let i = 0; i < 500; i++, k++) {
        // Two lines (read, write) per 1000 ms window, as fio writes them.
        const t = 1000 * (Math.floor(k / 2) + 1) + (k % 2);
        chunk.push(`${t}${body[k % body.length].replace(/^, \d/, `, ${k % 2}`)}`);
      }
      const s = chunk.join('\n') + '\n';
      fs.writeSync(fd, s);
      bytes += s.length;
    }
    fs.closeSync(fd);
  }
  return out;
}

/** Whether the engine registers a reader (core/src/formats/<dir>/ and a line in registry.cc). @param {string} dir @param {string} entry */
export function readerLanded(dir, entry) {
  const reg = path.join(REPO, 'core/src/formats/registry.cc');
  return fs.existsSync(path.join(REPO, 'core/src/formats', dir)) && fs.existsSync(reg) && fs.readFileSync(reg, 'utf8').includes(`${entry}(),`);
}

/**
 * A results folder as fio leaves it, named .fio-results (hidden), with a
 * hidden subfolder: histogram logs, json+ output, the job file, a README, an
 * IOPS log, a .DS_Store, a corrupt .gz, and when their readers have landed a
 * tagged .hlog and a per-I/O log. Returns the folder and its parts.
 * @param {{hlog: boolean, perIo: boolean}} have
 */
export function mixedResultsFolder(have) {
  const dir = path.join(OUT, 'mixed', '.fio-results');
  fs.rmSync(path.join(OUT, 'mixed'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, '.more'), { recursive: true });
  const put = (/** @type {string} */ name, /** @type {string | Buffer} */ bytes) => {
    fs.writeFileSync(path.join(dir, name), bytes);
    return path.join(dir, name);
  };
  const logs = [
    put('local_clat_hist.1.log', fs.readFileSync(fixture('local', 'local_clat_hist.1.log'))),
    put('.more/local_clat_hist.2.log', fs.readFileSync(fixture('local', 'local_clat_hist.2.log'))),
    put('local.json', fs.readFileSync(fixture('local', 'local.json'))),
  ];
  if (have.hlog) logs.push(put('sig3-tagged.hlog', fs.readFileSync(fixture('hdr-processor', 'sig3-tagged.hlog'))));
  if (have.perIo) logs.push(put('s1_clat.1.log.127.0.0.1', fs.readFileSync(fixture('fio-s1', 's1_clat.1.log.127.0.0.1'))));
  const ignored = {
    'job.fio': 'fio job file',
    README: 'text',
    'local_iops.1.log': 'fio IOPS log: not latency',
  };
  put('job.fio', fs.readFileSync(fixture('local', 'local.fio')));
  put('README', 'Results of the nightly fio run.\nSee job.fio for the parameters.\n');
  put('local_iops.1.log', Array.from({ length: 20 }, (_, i) => `${(i + 1) * 1000}, ${900 + i}, 0, 4096, 0`).join('\n') + '\n');
  put('.DS_Store', Buffer.from([0, 0, 0, 1, 0x42, 0x75, 0x64, 0x31, 0, 0, 0x10, 0]));
  // A gzip header followed by bytes that are no deflate data.
  const corrupt = put('broken_clat_hist.3.log.gz', Buffer.concat([zlib.gzipSync(Buffer.alloc(0)).subarray(0, 10), Buffer.from('this is not deflate data at all, just text', 'utf8')]));
  return { dir, logs, ignored, corrupt };
}

/** cat a.gz b.gz of a log split in two (a multi-member gzip stream). */
export function multiMemberGz() {
  const text = fs.readFileSync(fixture('local', 'local_clat_hist.1.log'));
  const cut = text.indexOf('\n', Math.floor(text.length / 2)) + 1;
  fs.mkdirSync(path.join(OUT, 'mm'), { recursive: true });
  const p = path.join(OUT, 'mm', 'local_clat_hist.1.log.gz');
  fs.writeFileSync(p, Buffer.concat([zlib.gzipSync(text.subarray(0, cut)), zlib.gzipSync(text.subarray(cut))]));
  return p;
}

/**
 * Bounding boxes of elements, and whether any two overlap.
 * @param {import('playwright-core').Page} p @param {string} sel
 */
export async function overlaps(p, sel) {
  return p.$$eval(sel, (els) => {
    const bs = els.map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0 && b.height > 0);
    /** @type {string[]} */
    const hits = [];
    for (let i = 0; i < bs.length; i++) {
      for (let j = i + 1; j < bs.length; j++) {
        const a = bs[i];
        const b = bs[j];
        if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) hits.push(`${els[i].textContent} / ${els[j].textContent}`);
      }
    }
    return { n: bs.length, hits };
  });
}
