// End-to-end cases of the page for many groups (docs/page-views.md "Groups
// view", "Legends", "Colours", "SLA"): the group x time heat map and its
// click to one group's latency heat map, the worst N as lines with the
// others as a band, small multiples, legends that hide series and do not
// overflow, stable colours, and SLA rules whose verdict equals
// `latscope pctiles --sla` on the same files. Real files through the file
// input; every assertion on what the page shows or holds, none on time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { brushBox, canvasStats, cliPath, cliPctiles, fixture, fixtureFiles, loadThroughInput, overlaps, parseCsv, settled } from './helpers.mjs';
import { SHOTS, OUT, REPO } from './paths.mjs';
import { formatNumber } from '../../src/util/format.js';
import * as d3 from 'd3';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);
const HOSTS = 12;
const SECONDS = 30;
/** Hosts made slow (latencies x8) for a while: "which host was slow when". */
export const SLOW = [
  { host: 'host05', from: 10, to: 15 },
  { host: 'host09', from: 20, to: 24 },
];

/**
 * fio histogram logs of HOSTS hosts (client/server names, `.log.hostNN`),
 * SECONDS one-second windows each, replaying the windows of a real local
 * fio log; in the SLOW windows every count moves up three bin groups (fio's
 * bins double every 64 indices: latencies x8). Cached in out/.
 * @returns {string[]}
 */
export function hostLogs(hosts = HOSTS, seconds = SECONDS) {
  const dir = path.join(OUT, seconds === SECONDS ? 'groups-hosts' : `groups-hosts-${hosts}x${seconds}`);
  const src = fs.readFileSync(fixture('local', 'local_clat_hist.1.log'), 'utf8').trim().split('\n');
  const recs = src.map((l) => l.split(',').map((x) => x.trim()));
  fs.mkdirSync(dir, { recursive: true });
  const out = [];
  for (let h = 1; h <= hosts; h++) {
    const host = `host${String(h).padStart(2, '0')}`;
    const p = path.join(dir, `grp_clat_hist.1.log.${host}`);
    out.push(p);
    if (fs.existsSync(p)) continue;
    const lines = [];
    for (let s = 1; s <= seconds; s++) {
      for (const dirn of [0, 1]) {
        // Windows of the source in turn; read and write lines as fio writes them.
        const rec = recs[((s - 1 + h) * 2 + dirn) % recs.length];
        let bins = rec.slice(3).map(Number);
        if (SLOW.some((x) => x.host === host && s > x.from && s <= x.to)) {
          const moved = new Array(bins.length).fill(0);
          bins.forEach((c, i) => (moved[Math.min(bins.length - 1, i + 3 * 64)] += c));
          bins = moved;
        }
        lines.push(`${s * 1000 + dirn}, ${dirn}, 4096, ${bins.join(', ')}`);
      }
    }
    fs.writeFileSync(p, lines.join('\n') + '\n');
  }
  return out;
}

/**
 * `latscope pctiles --sla RULES ARGS... FILES`: stderr's per-rule lines
 * ("SLA p99<2ms: 4 of 20 quanta violated (20%)", per host "7 of 40 rows (2 groups x 20
 * quanta) violated (17.5%)") as {rule: [violated, evaluated, percent]}.
 * @param {string} rules @param {string[]} args @param {string[]} files
 */
function cliSla(rules, args, files) {
  const r = spawnSync(cliPath(), ['pctiles', '--sla', rules, ...args, ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.ok(r.status === 0 || r.status === 1 || r.status === 3, `latscope pctiles --sla exited ${r.status}: ${r.stderr}`);
  /** @type {Record<string, [number, number, string]>} */
  const out = {};
  for (const m of r.stderr.matchAll(/SLA (\S+): (\d+) of (\d+) (?:quanta|quantum|rows?(?: \([^)]*\))?) violated \(([\d.]+)%\)/g)) out[m[1]] = [Number(m[2]), Number(m[3]), m[4]];
  return out;
}

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** @param {Page} p @param {string} view */
async function showView(p, view) {
  await p.click(`[data-testid=tab-${view}]`);
  await p.waitForFunction((v) => /** @type {any} */ (window).latscope.store.state.view === v, view);
  await settled(p);
}

/** Loads the host logs, lines per host, the groups view. @param {Ctx} c */
async function openGroups(c) {
  const p = c.page;
  assert.equal(await loadThroughInput(p, c.url, hostLogs()), 'ready');
  await p.selectOption('[data-testid=group-by]', 'host');
  await settled(p);
  await showView(p, 'groups');
  return p;
}

/** @param {Page} p */
function state(p) {
  return p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
}

/** The page's point of a heat-map cell: row of `group`, time t (ms). @param {Page} p @param {string} group @param {number} t */
async function heatCell(p, group, t) {
  return p.evaluate(
    ({ group, t }) => {
      const v = /** @type {any} */ (window).latscope.views.groups;
      const f = v.frame;
      const row = v.shown.order.indexOf(group);
      const [a, b] = /** @type {any} */ (window).latscope.store.state.range || [v.m.times[0], v.m.times[v.m.times.length - 1] + v.m.quantumMs];
      const box = f.svg.node().getBoundingClientRect();
      return { x: box.left + f.margin.left + ((t - a) / (b - a)) * f.innerW, y: box.top + f.margin.top + ((row + 0.5) * f.innerH) / v.shown.order.length, row };
    },
    { group, t },
  );
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const GROUP_CASES = [
  {
    name: 'bands with many lines: over 15 percentile lines none are drawn and a note says why; hiding a host in the legend brings them back (docs/page-speed.md "Bands when drawn")',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, hostLogs(4, SECONDS)), 'ready');
      await settled(p);
      // The cluster's five lines: bands.
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.band-sampling').length === 5);
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.waitForFunction(() => (/** @type {any} */ (window).latscope.pct?.groups ?? []).length === 4);
      await settled(p);
      assert.equal(await p.$$eval('#view-pctiles path.line-p', (ls) => ls.length), 20);
      assert.equal(await p.$$eval('#view-pctiles path.band-sampling', (ls) => ls.length), 0, '20 lines: no bands');
      assert.equal(await p.textContent('#view-pctiles .band-note'), 'error bands off above 15 lines (20 drawn)');
      await p.screenshot({ path: path.join(SHOTS, 'bands-many-lines.png') });
      await p.click('[data-testid=pctiles-legend] .legend-item[data-key="g:host=host01"]');
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.band-sampling').length === 15);
      assert.equal(await p.$('#view-pctiles .band-note'), null, 'no note once the bands are drawn');
      noPageErrors(c);
    },
  },
  {
    name: 'many groups in the percentiles view: the 5 worst hosts as lines (the slowed ones among them), the other 7 as grey bands, a note says so; "every line" draws all 12 and back (docs/page-views.md "Many groups")',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, hostLogs()), 'ready');
      await settled(p);
      await p.selectOption('[data-testid=group-by]', 'host');
      await p.waitForFunction((n) => (/** @type {any} */ (window).latscope.pct?.groups ?? []).length === n, HOSTS);
      await settled(p);
      const drawn = () => p.$$eval('#view-pctiles path.line-p', (ls) => [...new Set(ls.map((l) => (l.getAttribute('data-key') || '').split('|')[0]))].sort());
      const hosts = await drawn();
      assert.equal(hosts.length, 5, `five hosts drawn: ${hosts}`);
      for (const slow of SLOW) assert.ok(hosts.includes(`host=${slow.host}`), `${slow.host} (slowed) is among the worst: ${hosts}`);
      assert.equal(await p.$$eval('#view-pctiles path.line-p', (ls) => ls.length), 25, '5 hosts x 5 percentiles');
      assert.equal(await p.$$eval('#view-pctiles .rest-bands path', (ls) => ls.length), 5, 'a band per percentile');
      assert.equal((await p.textContent('#view-pctiles .rest-note'))?.trim(), '5 worst of 12 groups by p99.9; 7 as grey bands · every line');
      await p.screenshot({ path: path.join(SHOTS, 'pctiles-many-groups.png') });
      await p.click('#view-pctiles [data-testid=rest-toggle]');
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.line-p').length === 60);
      assert.equal(await p.$$eval('#view-pctiles .rest-bands path', (ls) => ls.length), 0);
      assert.equal((await p.textContent('#view-pctiles .rest-note'))?.trim(), 'all 12 groups drawn · the 5 worst and a band');
      await p.click('#view-pctiles [data-testid=rest-toggle]');
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.line-p').length === 25);
      noPageErrors(c);
    },
  },
  {
    name: 'bands when drawn: over 900 quanta a regroup asks no bands; a zoom and a hover bring those of what they show (docs/page-speed.md "Bands when drawn")',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, hostLogs(3, 900)), 'ready');
      await settled(p);
      const app = () => p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        const v = a.views.pctiles;
        return { bands: a.pct.bands, n: a.pct.n, groups: a.pct.groups.length, asked: v.bandCache.answers.length, sampling: document.querySelectorAll('#view-pctiles path.band-sampling').length, onCanvas: v.onCanvas };
      });
      // The load's answer (nothing to judge the extent by yet) has its bands; 900 quanta draw none.
      let st = await app();
      assert.equal(st.bands, undefined, `first answer: ${JSON.stringify(st)}`);
      assert.equal(st.sampling, 0);
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      st = await app();
      assert.equal(st.groups, 3);
      assert.equal(st.bands, false, `per host over 900 s at 1 s: no bands asked: ${JSON.stringify(st)}`);
      assert.equal(st.onCanvas, false);
      // Hover: this quantum's bands come in an answer of their own.
      const box = await brushBox(p);
      await p.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5);
      // Until they come the tip says "working them out" (its key line names the 95% band already).
      await p.waitForFunction(() => / · 95% /.test(document.querySelector('#view-pctiles .tip')?.textContent || ''));
      const tip = (await p.textContent('#view-pctiles .tip')) || '';
      assert.match(tip, /host=host01 p50: .*\(bin ±.*\) · 95% /);
      assert.doesNotMatch(tip, /working them out/);
      // Zoom to about 60 s: the bands of the shown quanta are asked for and drawn.
      await p.mouse.move(box.x + box.width * 0.45, box.y + box.height * 0.5);
      await p.mouse.down();
      await p.mouse.move(box.x + box.width * 0.515, box.y + box.height * 0.5, { steps: 5 });
      await p.mouse.up();
      await p.waitForFunction(() => document.querySelectorAll('#view-pctiles path.band-sampling').length === 3 * 5);
      st = await app();
      assert.equal(st.bands, false, 'the zoom asks for no new percentiles answer');
      // Each drawn band holds its value: the band answer's rows against the shown answer's.
      const check = await p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        const v = a.views.pctiles;
        const range = a.store.state.range;
        const b = v.bandCache.answers.find((/** @type {any} */ x) => x.range[0] <= range[0] && x.range[1] >= range[1]).cols;
        const P = b.percentiles.length;
        let held = 0;
        let same = 0;
        let all = 0;
        for (let i = 0; i < b.n; i++) {
          const j = Array.from(a.pct.t_ms).findIndex((t, k) => t === b.t_ms[i] && a.pct.groups[a.pct.group[k]] === b.groups[b.group[i]]);
          for (let q = 0; q < P; q++) {
            const val = b.p[i * P + q];
            if (val !== val) continue;
            all++;
            if (a.pct.p[j * P + q] === val) same++;
            if (b.lo[i * P + q] <= val && !(b.hi[i * P + q] < val)) held++;
          }
        }
        return { held, same, all, rows: b.n, P };
      });
      assert.ok(check.rows >= 3 * 60 && check.held === check.all && check.same === check.all && check.all > 3 * 60 * 3, `bands hold the shown values: ${JSON.stringify(check)}`);
      // A redraw of the same answer keeps them: a host hidden and shown again from the legend.
      await p.click('[data-testid=pctiles-legend] .legend-item[data-key="g:host=host02"]');
      await settled(p);
      assert.equal((await app()).sampling, 2 * 5, 'host02 hidden: its bands go with it');
      await p.click('[data-testid=pctiles-legend] .legend-item[data-key="g:host=host02"]');
      await settled(p);
      assert.equal((await app()).sampling, 3 * 5, 'shown again, with its bands');
      await p.screenshot({ path: path.join(SHOTS, 'bands-when-drawn.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'groups: heat map of p99 per host and second names the slow host and time on hover (value equals pctiles), a click opens that host\'s latency heat map',
    async run(c) {
      const p = await openGroups(c);
      const st = await state(p);
      assert.equal(st.groupsMode, 'heat');
      const order = await p.evaluate(() => /** @type {any} */ (window).latscope.views.groups.shown.order);
      assert.deepEqual(order, Array.from({ length: HOSTS }, (_, i) => `host=host${String(i + 1).padStart(2, '0')}`), 'rows in natural order of host names');
      // The reference: p99 per host and second from the CLI.
      const files = hostLogs();
      const ref = parseCsv(cliPctiles(['--group-by', 'host', '--percentiles', '99'], files));
      const at = (/** @type {string} */ g, /** @type {number} */ t) => ref.find((r) => r.group === g && Number(r.time_ms) === t);
      const slow = at('host=host05', 12000);
      const calm = at('host=host05', 5000);
      assert.ok(slow && calm && Number(slow.p99) > 4 * Number(calm.p99), `host05 is slow at 12 s in the data: ${slow?.p99} vs ${calm?.p99}`);
      const cell = await heatCell(p, 'host=host05', 12500);
      await p.mouse.move(cell.x, cell.y);
      await p.waitForSelector('#view-groups .tip', { state: 'visible' });
      const tip = (await p.textContent('#view-groups .tip')) || '';
      assert.match(tip, /host=host05/);
      assert.match(tip, /12(\.0+)? s/);
      assert.ok(tip.includes(`p99: ${formatNumber(Number(slow.p99))} µs`), `tooltip value in µs through formatNumber: ${tip} vs ${slow.p99}`);
      assert.ok(tip.includes(`samples: ${formatNumber(Number(slow.samples))}`), `samples: ${tip} vs ${slow.samples}`);
      // The colour says it too: host05's row is brighter (viridis: higher = lighter) in 10-15 s than host04's.
      const lum = await p.evaluate(
        ({ r5, r4, x0, x1 }) => {
          const cv = /** @type {HTMLCanvasElement} */ (document.querySelector('#view-groups canvas'));
          const f = /** @type {any} */ (window).latscope.views.groups.frame;
          const k = cv.width / f.innerW;
          const ctx = /** @type {CanvasRenderingContext2D} */ (cv.getContext('2d'));
          const mean = (/** @type {number} */ y) => {
            const d = ctx.getImageData(Math.round(x0 * k), Math.round(y * k), Math.max(1, Math.round((x1 - x0) * k)), 1).data;
            let s = 0;
            for (let i = 0; i < d.length; i += 4) s += d[i] + d[i + 1] + d[i + 2];
            return s / (d.length / 4);
          };
          return { r5: mean(r5), r4: mean(r4) };
        },
        await p.evaluate(() => {
          const v = /** @type {any} */ (window).latscope.views.groups;
          const f = v.frame;
          const rowH = f.innerH / v.shown.order.length;
          const x = (/** @type {number} */ t) => ((t - v.m.times[0]) / (v.m.times[v.m.times.length - 1] + v.m.quantumMs - v.m.times[0])) * f.innerW;
          return { r5: 4.5 * rowH, r4: 3.5 * rowH, x0: x(11000), x1: x(14000) };
        }),
      );
      assert.ok(lum.r5 > lum.r4 + 60, `the slow host's cells are lighter: ${JSON.stringify(lum)}`);
      await p.screenshot({ path: path.join(SHOTS, 'groups-heat.png') });

      // Click: that host's latency heat map, the others excluded.
      await p.mouse.click(cell.x, cell.y);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'heatmap');
      await settled(p);
      const after = await state(p);
      // The focus narrows the heat map alone: the page's selection is untouched.
      assert.deepEqual([after.exclude_hosts, after.exclude_sources], [[], []]);
      assert.equal(after.focus.key, 'host=host05');
      assert.equal(await p.isVisible('[data-testid=group-focus]'), true);
      assert.match((await p.textContent('[data-testid=group-focus]')) || '', /Heat map of host=host05 only/);
      // The heat map holds host05's I/Os alone: its total equals the CLI's samples of host05.
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.quanta > 0);
      const hmTotal = await p.evaluate(() => {
        const hm = /** @type {any} */ (window).latscope.views.heatmap.hm;
        let s = (hm.above || 0) + (hm.below || 0);
        for (const v of hm.counts) s += v;
        return s;
      });
      const cliTotal = ref.filter((r) => r.group === 'host=host05').reduce((a, r) => a + Number(r.samples), 0);
      assert.ok(Math.abs(hmTotal - cliTotal) < 1e-6 * cliTotal, `heat map total ${hmTotal} vs host05's samples ${cliTotal}`);
      await p.screenshot({ path: path.join(SHOTS, 'groups-heat-click.png') });
      await p.click('[data-testid=group-focus-clear]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'groups');
      assert.equal((await state(p)).focus, null);
      noPageErrors(c);
    },
  },
  {
    name: 'groups: a click focuses the heat map on one job and changes no data: json+ stays ticked, the late job keeps its startdelay and tail (total = the CLI group), the groups view keeps every group',
    async run(c) {
      const p = c.page;
      // A real client/server run (tests/fixtures/place-cs/, docs/placement.md): job 2 starts 2000 ms late on 127.0.0.1.
      const files = [fixture('place-cs', 'place-cs.json'), ...fixtureFiles('place-cs', /^pcs_clat_hist\.\d\.log\./)];
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host,job');
      await settled(p);
      await showView(p, 'groups');
      const groups = await p.evaluate(() => /** @type {any} */ (window).latscope.views.groups.shown.order);
      assert.equal(groups.length, 4, groups.join(' '));
      const cell = await heatCell(p, 'host=127.0.0.1;job=2', 3000);
      await p.mouse.click(cell.x, cell.y);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'heatmap');
      await settled(p);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.heatmap.hm?.quanta > 0);
      const s = await state(p);
      assert.deepEqual([s.exclude_sources, s.exclude_hosts, s.focus.key], [[], [], 'host=127.0.0.1;job=2']);
      const ticks = await p.$$eval('[data-testid=file-table] tr[data-file] input[type=checkbox]', (xs) => xs.map((x) => /** @type {HTMLInputElement} */ (x).checked));
      assert.deepEqual(ticks, files.map(() => true), 'every file stays ticked, the json+ output too');
      const hm = await p.evaluate(() => {
        const h = /** @type {any} */ (window).latscope.views.heatmap.hm;
        let total = h.above + h.below;
        let first = -1;
        for (let q = 0; q < h.quanta; q++) {
          let n = 0;
          for (let r = 0; r < h.rows; r++) n += h.counts[q * h.rows + r];
          total += n;
          if (n > 0 && first < 0) first = h.t0_ms + q * h.quantum_ms;
        }
        return { total, first, quantum: h.quantum_ms };
      });
      const ref = parseCsv(cliPctiles(['--quantum', String(hm.quantum), '--group-by', 'host,job'], files)).filter((r) => r.group === 'host=127.0.0.1;job=2');
      const cli = ref.reduce((a, r) => a + Number(r.samples), 0);
      assert.ok(Math.abs(hm.total - cli) < 1e-6 * cli, `the focused heat map holds the CLI group's I/Os with the json+ tail: ${hm.total} vs ${cli}`);
      assert.ok(hm.first >= 2000 - hm.quantum, `the late job stays placed at its startdelay: first I/O at ${hm.first} ms`);
      assert.match((await p.textContent('[data-testid=group-focus]')) || '', /Heat map of host=127\.0\.0\.1;job=2 only/);
      await p.screenshot({ path: path.join(SHOTS, 'groups-focus-late-job.png') });
      // Back on the groups tab: every group is still there, no bar (the focus is the heat map's only).
      await showView(p, 'groups');
      assert.equal((await p.evaluate(() => /** @type {any} */ (window).latscope.views.groups.shown.order)).length, 4);
      assert.equal(await p.isVisible('[data-testid=group-focus]'), false);
      noPageErrors(c);
    },
  },
  {
    name: 'groups: the worst N over the run as lines (ranked by the engine\'s run percentile, as pctiles over one quantum), the others as a min..max band; legend hides and shows',
    async run(c) {
      const p = await openGroups(c);
      await p.selectOption('[data-testid=groups-mode]', 'top');
      await p.fill('[data-testid=top-n]', '3');
      await p.press('[data-testid=top-n]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.topN === 3);
      await settled(p);
      // Reference ranking: p99 of each host over the whole run, one quantum
      // from the first quantum's start to the last one's end (the page's extent).
      const ext = await p.evaluate(() => {
        const r = /** @type {any} */ (window).latscope.pct;
        const ts = r.rows.map((/** @type {any} */ x) => x.t_ms);
        return [Math.min(...ts), Math.max(...ts) + r.quantum_ms];
      });
      assert.equal(ext[0], 0);
      const run = parseCsv(cliPctiles(['--group-by', 'host', '--percentiles', '99', '--quantum', String(ext[1])], hostLogs()));
      assert.equal(run.length, HOSTS, 'one row per host');
      const want = run
        .slice()
        .sort((a, b) => Number(b.p99) - Number(a.p99) || (a.group < b.group ? -1 : 1))
        .slice(0, 3)
        .map((r) => r.group);
      assert.deepEqual(want.slice(0, 2).sort(), ['host=host05', 'host=host09'], `the slowed hosts are the worst: ${JSON.stringify(run)}`);
      const lines = await p.$$eval('#view-groups path.group-line', (ps) => ps.map((x) => x.getAttribute('data-group')));
      assert.deepEqual(lines, want);
      const legend = await p.$$eval('[data-testid=groups-legend] .legend-item', (bs) => bs.map((b) => b.textContent));
      assert.equal(legend.length, 4, `three lines and the band: ${legend}`);
      for (const [i, g] of want.entries()) {
        const v = run.find((r) => r.group === g)?.p99;
        assert.equal(legend[i], `${g} (${formatNumber(Number(v))})`, 'legend names the run percentile');
      }
      assert.match(legend[3] || '', /other 9/);
      // Each entry whole in its box: the run values are not cut off.
      const clipped = await p.$$eval('[data-testid=groups-legend] .legend-item', (bs) =>
        bs.filter((b) => /** @type {HTMLElement} */ (b.querySelector('span')).getBoundingClientRect().right > /** @type {HTMLElement} */ (b.parentElement).getBoundingClientRect().right + 0.5).map((b) => b.textContent),
      );
      assert.deepEqual(clipped, [], `legend entries cut off at the box edge: ${JSON.stringify(clipped)}`);
      // The band spans the other hosts' lowest..highest per quantum.
      const band = await p.evaluate(() => document.querySelector('#view-groups path.others-band')?.getAttribute('d') || '');
      assert.ok(band.length > 20, 'the band is drawn');
      // No line in the band's grey (host09, second worst, was drawn in
      // Tableau's grey), nor in the SLA's red (docs/page-views.md "Colours").
      const strokes = await p.$$eval('#view-groups path.group-line', (ps) => ps.map((x) => getComputedStyle(x).stroke));
      assert.equal(strokes.length, 3);
      const warn = d3.lab('#d62728');
      for (const st of strokes) {
        const { r, g, b } = d3.rgb(st);
        assert.ok(Math.max(r, g, b) - Math.min(r, g, b) > 40, `a top-N line in grey: ${st}`);
        const l = d3.lab(st);
        assert.ok(Math.hypot(l.l - warn.l, l.a - warn.a, l.b - warn.b) > 25, `a top-N line in the SLA's red: ${st}`);
      }
      assert.equal(new Set(strokes).size, 3, `three colours: ${strokes}`);
      await p.screenshot({ path: path.join(SHOTS, 'groups-top.png') });
      // Hide host05 by its legend entry; show it again.
      await p.click(`[data-testid=groups-legend] .legend-item[data-key="g:${want[0]}"]`);
      await p.waitForFunction((g) => /** @type {any} */ (window).latscope.store.state.hidden.includes(`g:${g}`), want[0]);
      await settled(p);
      assert.deepEqual(await p.$$eval('#view-groups path.group-line', (ps) => ps.map((x) => x.getAttribute('data-group'))), want.slice(1));
      assert.equal(await p.getAttribute(`[data-testid=groups-legend] .legend-item[data-key="g:${want[0]}"]`, 'aria-pressed'), 'false');
      await p.click('[data-testid=groups-legend] .legend-item[data-key="band"]');
      await settled(p);
      assert.equal(await p.$('#view-groups path.others-band'), null, 'the band hides');
      await p.click(`[data-testid=groups-legend] .legend-item[data-key="g:${want[0]}"]`);
      await settled(p);
      assert.equal((await p.$$('#view-groups path.group-line')).length, 3);
      noPageErrors(c);
    },
  },
  {
    name: 'groups: small multiples, one chart per host on shared scales; hover names the host',
    async run(c) {
      const p = await openGroups(c);
      await p.selectOption('[data-testid=groups-mode]', 'multiples');
      await settled(p);
      const names = await p.$$eval('#view-groups .multiple-name', (ts) => ts.map((t) => t.getAttribute('data-group')));
      assert.equal(names.length, HOSTS);
      assert.match((await p.textContent('#view-groups .groups-caption')) || '', /shared scales: y log/);
      // Each row of charts has its y ticks (numbers of the caption's unit,
      // inside its range), and no time label runs into another at the
      // columns' shared edges.
      const cap = ((await p.textContent('#view-groups .groups-caption')) || '').match(/y log ([\d,.]+) … ([\d,.]+) µs/);
      assert.ok(cap, 'the caption names the y range');
      const [ylo, yhi] = [Number(cap[1].replace(/,/g, '')), Number(cap[2].replace(/,/g, ''))];
      const yTicks = await p.$$eval('#view-groups .multiples-y', (axes) => axes.map((a) => [...a.querySelectorAll('.tick text')].map((t) => Number((t.textContent || '').replace(/,/g, '')))));
      assert.equal(yTicks.length, Math.ceil(HOSTS / (await p.$$eval('#view-groups .x-axis', (a) => a.length))), `one y axis per row: ${JSON.stringify(yTicks)}`);
      for (const ts of yTicks) {
        assert.ok(ts.length >= 2, `y ticks of a row: ${ts}`);
        for (const v of ts) assert.ok(v >= ylo && v <= yhi, `tick ${v} inside ${ylo} … ${yhi}`);
      }
      const xl = await overlaps(p, '#view-groups .x-axis .tick text');
      assert.ok(xl.n >= 4, `time labels: ${xl.n}`);
      assert.deepEqual(xl.hits, [], 'time labels of neighbouring charts overlap');
      assert.deepEqual((await overlaps(p, '#view-groups .multiples-y .tick text')).hits, [], 'y labels overlap');
      await p.selectOption('[data-testid=groups-sort]', 'worst');
      await settled(p);
      const worst = await p.$$eval('#view-groups .multiple-name', (ts) => ts.map((t) => t.getAttribute('data-group')));
      assert.deepEqual(worst.slice(0, 2).sort(), ['host=host05', 'host=host09'], `worst first: ${worst}`);
      const box = await p.evaluate(() => {
        const el = document.querySelector('#view-groups .multiple-name');
        const b = /** @type {Element} */ (el).getBoundingClientRect();
        return { x: b.left + 40, y: b.top + 25 };
      });
      await p.mouse.move(box.x, box.y);
      await p.waitForSelector('#view-groups .tip', { state: 'visible' });
      assert.ok(((await p.textContent('#view-groups .tip')) || '').startsWith(worst[0]), 'the tooltip names the panel\'s host');
      await p.screenshot({ path: path.join(SHOTS, 'groups-multiples.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'groups: the percentiles legend stays one row (opens to scroll), hides a host\'s lines on click; colours stay per percentile and per host',
    async run(c) {
      const p = c.page;
      assert.equal(await loadThroughInput(p, c.url, hostLogs()), 'ready');
      await settled(p);
      const color = (/** @type {string} */ key) => p.$eval(`#view-pctiles path.line-p[data-key="${key}"]`, (e) => e.getAttribute('stroke'));
      const maxBefore = await color('all|100');
      const p99Before = await color('all|99');
      await p.fill('[data-testid=extra-percentiles]', '99.99');
      await p.press('[data-testid=extra-percentiles]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.pct?.percentiles.includes('99.99'));
      await settled(p);
      assert.equal(await color('all|100'), maxBefore, 'adding p99.99 keeps max\'s colour');
      assert.equal(await color('all|99'), p99Before);
      assert.notEqual(await color('all|99.99'), maxBefore);

      // Every host's lines (past MANY_GROUPS the default is the worst few and a band).
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ allLines: true }));
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      const box = await p.evaluate(() => {
        const b = /** @type {HTMLElement} */ (document.querySelector('[data-testid=pctiles-legend]'));
        const f = /** @type {HTMLElement} */ (document.querySelector('#view-pctiles .frame'));
        return { h: b.getBoundingClientRect().height, right: b.getBoundingClientRect().right, frameRight: f.getBoundingClientRect().right, items: b.querySelectorAll('.legend-item').length, more: !(/** @type {HTMLElement} */ (b.querySelector('.legend-more')).hidden) };
      });
      assert.equal(box.items, HOSTS + 6 + 1, 'hosts, percentiles, mean');
      assert.ok(box.h <= 24 && box.right <= box.frameRight, `closed legend stays one row inside the chart: ${JSON.stringify(box)}`);
      assert.ok(box.more, '"all N" is offered');
      await p.click('[data-testid=pctiles-legend] .legend-more');
      const open = await p.evaluate(() => {
        const l = /** @type {HTMLElement} */ (document.querySelector('[data-testid=pctiles-legend] .legend-items'));
        return { h: l.getBoundingClientRect().height, overflowY: getComputedStyle(l).overflowY };
      });
      assert.ok(open.h > 24 && open.overflowY === 'auto', `opened: ${JSON.stringify(open)}`);
      await p.screenshot({ path: path.join(SHOTS, 'groups-legend-open.png') });
      const host05 = await color('host=host05|99');
      await p.click('[data-testid=pctiles-legend] .legend-item[data-key="g:host=host05"]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.hidden.includes('g:host=host05'));
      await settled(p);
      assert.equal((await p.$$('#view-pctiles path.line-p[data-key^="host=host05|"]')).length, 0, 'host05 hidden');
      assert.equal((await p.$$('#view-pctiles path.line-p[data-key^="host=host04|"]')).length, 6, 'host04 still drawn');
      await p.click('[data-testid=pctiles-legend] .legend-item[data-key="g:host=host05"]');
      await settled(p);
      assert.equal(await color('host=host05|99'), host05);
      // Excluding host01 (its file) keeps host05's colour.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ exclude_hosts: ['host01'] }));
      await settled(p);
      assert.equal(await color('host=host05|99'), host05, 'a host keeps its colour when another leaves');
      // More than 10 hosts, more than 10 colours.
      const cols = await p.$$eval('#view-pctiles path.line-p', (ps) => new Set(ps.map((x) => x.getAttribute('stroke'))).size);
      assert.ok(cols >= HOSTS - 1, `distinct host colours: ${cols}`);
      noPageErrors(c);
    },
  },
  {
    name: 'groups: SLA rules typed with units; the summary equals latscope pctiles --sla (cluster and per host), shading is per line, rules live in the URL and on the spectrum',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await settled(p);
      const rules = 'p99 < 2ms, p99.9<=20ms, p99.99 < 30 ms';
      await p.fill('[data-testid=sla]', rules);
      await p.press('[data-testid=sla]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.sla.length === 3);
      // The rule's p99.99 joins the shown percentiles (the CLI adds it to its query).
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.pct?.percentiles.includes('99.99'));
      await settled(p);
      const cliRules = 'p99<2ms,p99.9<=20ms,p99.99<30ms';
      const check = async (/** @type {string[]} */ args, /** @type {string} */ group) => {
        const want = cliSla(cliRules, ['--quantum', '1000', ...args], files);
        assert.equal(Object.keys(want).length, 3, `the CLI judged three rules: ${JSON.stringify(want)}`);
        const got = await p.$$eval(`[data-testid=sla-summary] .sla-line[data-group="${group}"]`, (ls) => ls.map((l) => [/** @type {HTMLElement} */ (l).dataset.rule, Number(/** @type {HTMLElement} */ (l).dataset.violated), Number(/** @type {HTMLElement} */ (l).dataset.evaluated), l.textContent]));
        assert.equal(got.length, 3, `one line per rule: ${JSON.stringify(got)}`);
        for (const [rule, v, e, text] of got) {
          const w = want[/** @type {string} */ (rule)];
          assert.ok(w, `the CLI has ${rule}`);
          assert.deepEqual([v, e], [w[0], w[1]], `${rule}: page ${v} of ${e}, CLI ${w[0]} of ${w[1]}`);
          assert.ok(String(text).includes(`(${w[2]}%)`), `same percentage: ${text} vs ${w[2]}`);
        }
        return want;
      };
      const cluster = await check([], 'all');
      assert.ok(cluster['p99<2ms'][0] > 0, 'the start-up spike breaks p99 < 2 ms');
      assert.match((await p.textContent('[data-testid=sla-summary]')) || '', /all: p99 < 2 ms violated in \d+ of \d+ quanta of 1 s/);
      // Shading for that line only: the shaded quanta of the p99 line are its violations.
      const shade = await p.$$eval('#view-pctiles .sla-shade', (ps) => ps.map((x) => [x.getAttribute('data-key'), x.getAttribute('data-rule'), Number(x.getAttribute('data-quanta'))]));
      assert.deepEqual(shade.find((s) => s[1] === 'p99<2ms'), ['all|99', 'p99<2ms', cluster['p99<2ms'][0]]);
      assert.ok(shade.every((s) => String(s[0]).endsWith(`|${String(s[1]).match(/^p([\d.]+)/)?.[1]}`)), `each shade sits on its rule's line: ${JSON.stringify(shade)}`);
      assert.equal(await p.$$eval('#view-pctiles .sla-lines line', (ls) => ls.length), 3);
      await p.screenshot({ path: path.join(SHOTS, 'groups-sla.png') });
      // Per host: each host's line and the total equal the CLI with --group-by host.
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      const perHost = await check(['--group-by', 'host'], '*');
      for (const host of ['127.0.0.1', '127.0.0.2']) {
        const n = await p.$$eval(`[data-testid=sla-summary] .sla-line[data-group="host=${host}"]`, (ls) => ls.map((l) => Number(/** @type {HTMLElement} */ (l).dataset.evaluated)));
        assert.equal(n.length, 3);
        assert.equal(n[0] * 2, perHost['p99<2ms'][1], 'each host judged on half the rows');
      }
      // In the URL, and back after a reload's parse.
      const frag = await p.evaluate(() => location.hash);
      assert.match(decodeURIComponent(frag), /sla=p99<2ms,p99\.9<=20ms,p99\.99<30ms/);
      // The spectrum draws the three rules.
      await showView(p, 'spectrum');
      assert.deepEqual((await p.$$eval('#view-spectrum .sla-lines line[data-rule]', (ls) => ls.map((l) => l.getAttribute('data-rule')))).sort(), ['p99.99<30ms', 'p99.9<=20ms', 'p99<2ms']);
      await p.screenshot({ path: path.join(SHOTS, 'groups-sla-spectrum.png') });
      // A bare number is in the displayed unit; a bad rule says why and changes nothing.
      await p.selectOption('[data-testid=unit]', 'ms');
      await p.fill('[data-testid=sla]', 'p99<2');
      await p.press('[data-testid=sla]', 'Enter');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.sla.join() === 'p99<2ms');
      await p.fill('[data-testid=sla]', 'p99 < 2 parsecs');
      await p.press('[data-testid=sla]', 'Enter');
      await p.waitForFunction(() => /not a rule/.test(document.querySelector('[data-testid=sla-error]')?.textContent || ''));
      assert.deepEqual((await state(p)).sla, ['p99<2ms']);
      noPageErrors(c);
    },
  },
  {
    name: 'groups: 40 hosts per host go to the canvas (no SVG line per series): the lines are painted once all are drawn, a legend click hides a host\'s lines from the canvas too',
    /** @param {Ctx} c */
    async run(c) {
      const p = c.page;
      // 40 hosts x 15 min at 1 s: 40 x 900 x 6 line points, past CANVAS_POINTS.
      const dir = path.join(OUT, 'groups-canvas');
      const made = spawnSync('python3', [path.join(REPO, 'tests/bench/make_hosts_data.py'), '--out', dir, '--hosts', '40', '--seconds', '900'], { encoding: 'utf8' });
      assert.equal(made.status, 0, made.stderr);
      const logs = made.stdout.trim().split('\n').at(-1) ?? '';
      const files = fs.readdirSync(logs).filter((n) => !n.startsWith('.')).map((n) => path.join(logs, n));
      assert.equal(files.length, 40);
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      // Every host's lines (past MANY_GROUPS the default is the worst few and a band).
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ allLines: true }));
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      const view = () => p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.pctiles;
        return { onCanvas: v.onCanvas, groups: v.data.groups.length, svgLines: document.querySelectorAll('#view-pctiles svg path.line').length };
      });
      assert.deepEqual(await view(), { onCanvas: true, groups: 40, svgLines: 0 });
      // The plot area (above the IOPS strip) holds the lines.
      const all = await canvasStats(p, 'pctiles', [{ x0: 0, x1: 1, y0: 0, y1: 0.8 }]);
      assert.ok(all.regions[0] > 0.02, `lines painted on the canvas: ${JSON.stringify(all)}`);
      await p.screenshot({ path: path.join(SHOTS, 'groups-canvas-40-hosts.png') });
      // 28 of the 40 hosts hidden: 12 hosts' lines (still past CANVAS_POINTS) paint less of the plot.
      const keys = await p.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.data.groups.map((/** @type {string} */ g) => `g:${g}`));
      await p.evaluate((k) => /** @type {any} */ (window).latscope.store.set({ hidden: k.slice(12) }), keys);
      await settled(p);
      assert.equal((await view()).onCanvas, true);
      const some = await canvasStats(p, 'pctiles', [{ x0: 0, x1: 1, y0: 0, y1: 0.8 }]);
      assert.ok(some.regions[0] > 0 && some.regions[0] < all.regions[0] * 0.95, `12 hosts' lines: ${some.regions[0]} of ${all.regions[0]}`);
      // All hidden: nothing on the canvas.
      await p.evaluate((k) => /** @type {any} */ (window).latscope.store.set({ hidden: k }), keys);
      await settled(p);
      assert.equal((await canvasStats(p, 'pctiles', [{ x0: 0, x1: 1, y0: 0, y1: 0.8 }])).regions[0], 0);
      // An SLA rule: each violating host's p99 line is shaded on the canvas
      // over as many quanta as the SLA summary counts for it, no SVG shading.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ hidden: [], sla: ['p99<2ms'] }));
      await settled(p);
      const shaded = /** @type {{key: string, rule: string, quanta: number}[]} */ (await p.evaluate(() => /** @type {any} */ (window).latscope.views.pctiles.slaOnCanvas));
      const verdicts = await p.$$eval('#sla-summary .sla-line', (els) => els.map((e) => [/** @type {HTMLElement} */ (e).dataset.group, Number(/** @type {HTMLElement} */ (e).dataset.violated)]).filter(([g]) => g !== '*'));
      const bad = verdicts.filter(([, n]) => Number(n) > 0);
      assert.ok(bad.length > 0, "hosts violate p99<2ms");
      assert.deepEqual(shaded.map((x) => [x.key.replace(/\|99$/, ''), x.quanta]).sort(), bad.map(([g, n]) => [g, n]).sort());
      assert.equal((await p.$$('#view-pctiles .sla-shade')).length, 0);
      await p.screenshot({ path: path.join(SHOTS, 'groups-canvas-sla.png') });
      noPageErrors(c);
    },
  },
];
