// End-to-end cases of a result with a per-host matrix (docs/page-views.md
// "Groups from the matrix", "Drilling into a host"): the groups view by host
// answered from the matrix equals `latscope pctiles --group-by host` on the
// result and on the logs; a click on a host shows that host alone, whose CSV
// equals `latscope pctiles --exclude-host` (every other host) on the same
// file; a link reopens the drill; the bar goes back. A result with several
// resolutions cut by host: the drill reads that host's blocks alone
// (docs/page-loading.md §8, "Some hosts"). Real files through the file
// input; no assertion on time.
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadThroughInput, cliPath, cliPctiles, settled, download, waitDone, parseCsv } from './helpers.mjs';
import { SHOTS, OUT } from './paths.mjs';
import { hostLogs } from './cases-groups.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

/** The host logs reduced with hosts kept: a version 4 result with the matrix (1 s ... 1 h). */
function hostResult() {
  const out = path.join(OUT, 'host-matrix.lsr');
  execFileSync(cliPath(), ['reduce', '--keep', 'host,dir', ...hostLogs(), '-o', out], { stdio: ['ignore', 'ignore', 'pipe'] });
  return out;
}

/**
 * Opens the result through the file input and shows the groups view by
 * host, drawn with its 12 hosts.
 * @param {import('playwright-core').Page} p @param {string} url @param {string} lsr
 */
async function openGroupsByHost(p, url, lsr) {
  assert.equal(await loadThroughInput(p, url, [lsr]), 'ready');
  await p.selectOption('[data-testid=group-by]', 'host');
  await settled(p);
  await p.click('[data-testid=tab-groups]');
  await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.groups.m?.groups?.length === 12);
  await settled(p);
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const HOST_MATRIX_CASES = [
  {
    name: 'host matrix: the groups view by host comes from the per-host matrix and equals pctiles --group-by host on the result and the logs; a click drills into the host (CSV = pctiles --exclude-host the others), a link reopens it, the bar goes back',
    async run(c) {
      const p = c.page;
      const lsr = hostResult();
      await openGroupsByHost(p, c.url, lsr);
      const got = await p.evaluate(() => {
        const a = /** @type {any} */ (window).latscope;
        const m = a.views.groups.m;
        return { why: a.session.hostMatrix?.why, groups: m.groups, times: [...m.times], values: [...m.values], q: m.quantumMs, p: a.store.state.groupsP };
      });
      assert.equal(got.why, '', 'the matrix answered (no reason to ask the histograms)');
      assert.match((await p.textContent('#view-groups .groups-caption')) || '', /from the per-host matrix \(level 1000 ms\); click a row for that host's percentiles/);
      assert.equal(got.p, '99');
      // The CLI on the result answers from the same matrix; on the logs, from the histograms.
      const fromResult = parseCsv(cliPctiles(['--group-by', 'host', '--quantum', String(got.q)], [lsr]));
      const fromLogs = parseCsv(cliPctiles(['--group-by', 'host', '--quantum', String(got.q), '--percentiles', '99'], hostLogs()));
      assert.equal(fromResult.length, 12 * got.times.length, `one row per host and quantum: ${fromResult.length}`);
      const T = got.times.length;
      let compared = 0;
      for (const ref of [fromResult, fromLogs]) {
        for (const r of ref) {
          const gi = got.groups.indexOf(r.group);
          const k = got.times.indexOf(Number(r.time_ms));
          assert.ok(gi >= 0 && k >= 0, `the page has ${r.group} at ${r.time_ms}`);
          const v = got.values[gi * T + k];
          assert.ok(Math.abs(v - Number(r.p99)) <= 5e-4 + 1e-9 * Math.abs(v), `${r.group} at ${r.time_ms} ms: page ${v}, CLI ${r.p99}`);
          compared++;
        }
      }
      assert.equal(compared, 2 * 12 * T);
      await p.screenshot({ path: path.join(SHOTS, 'host-matrix-groups.png') });

      // Drill: a click on host05's row shows that host alone in the percentiles view.
      const cell = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.groups;
        const f = v.frame;
        const row = v.shown.order.indexOf('host=host05');
        const box = f.svg.node().getBoundingClientRect();
        return { x: box.left + f.margin.left + f.innerW / 2, y: box.top + f.margin.top + ((row + 0.5) * f.innerH) / v.shown.order.length };
      });
      await p.mouse.click(cell.x, cell.y);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'pctiles');
      await settled(p);
      const st = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      assert.equal(st.group_by, 'all');
      const others = Array.from({ length: 12 }, (_, i) => `host${String(i + 1).padStart(2, '0')}`).filter((h) => h !== 'host05');
      assert.deepEqual([...st.exclude_hosts].sort(), others);
      assert.equal(await p.isVisible('[data-testid=host-drill]'), true);
      assert.match((await p.textContent('[data-testid=host-drill]')) || '', /Host host05 only/);
      const ex = others.flatMap((h) => ['--exclude-host', h]);
      const want = cliPctiles(['--quantum', String(st.quantum_ms), ...ex], [lsr]);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), want, 'the drilled host\'s CSV is the CLI\'s on the result with the other hosts excluded');
      assert.equal(want, cliPctiles(['--quantum', String(st.quantum_ms), ...ex], hostLogs()), 'and on the logs');
      await p.screenshot({ path: path.join(SHOTS, 'host-matrix-drill.png') });

      // The link holds the drill (the hosts left out, the cluster grouping, the view): reloaded and the file opened again, host05 alone comes back.
      await p.waitForFunction(() => /xh=/.test(location.hash));
      assert.doesNotMatch(decodeURIComponent(p.url()), /host05/, 'the link names the hosts left out, not the one shown');
      await p.reload();
      await p.waitForSelector('[data-testid=reopen-hint]', { state: 'visible' });
      await p.setInputFiles('[data-testid=file-input]', [lsr]);
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      const again = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      assert.deepEqual([again.view, again.group_by, [...again.exclude_hosts].sort()], ['pctiles', 'all', others]);
      const { bytes: bytes2 } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes2.toString('utf8'), want, 'the reopened link shows the same numbers');
      assert.match((await p.textContent('[data-testid=host-drill]')) || '', /Host host05 only/, 'the bar is back with the drill');

      // Back: every host, the groups view by host, from the matrix again.
      await p.goto(c.url);
      await openGroupsByHost(p, c.url, lsr);
      const c2 = await p.evaluate(() => {
        const v = /** @type {any} */ (window).latscope.views.groups;
        const f = v.frame;
        const box = f.svg.node().getBoundingClientRect();
        return { x: box.left + f.margin.left + f.innerW / 2, y: box.top + f.margin.top + f.innerH / 24 };
      });
      await p.mouse.click(c2.x, c2.y);
      await p.waitForSelector('[data-testid=host-drill]', { state: 'visible' });
      await p.click('[data-testid=host-drill-back]');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'groups');
      await settled(p);
      const back = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      assert.deepEqual([back.exclude_hosts, back.group_by], [[], 'host']);
      assert.equal(await p.isVisible('[data-testid=host-drill]'), false);
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: 'host drill on a result with several resolutions cut by host: the zoomed drill reads that host\'s 1 s blocks alone (CSV = pctiles --exclude-host the others), back to all hosts reads every host\'s',
    async run(c) {
      const p = c.page;
      const logs = hostLogs(6, 3600);
      const lsr = path.join(OUT, 'host-drill-levels.lsr');
      execFileSync(cliPath(), ['reduce', '--keep', 'host,dir', '--levels', '1000,10000,60000', ...logs, '-o', lsr], { stdio: ['ignore', 'ignore', 'pipe'] });
      assert.equal(await loadThroughInput(p, c.url, [lsr]), 'ready');
      await settled(p);
      const hosts = Array.from({ length: 6 }, (_, i) => `host0${i + 1}`);
      const others = hosts.filter((h) => h !== 'host03');
      /** What the engine holds: the level, its chunks (null: every host) and their hosts, the status line. */
      const held = () =>
        p.evaluate(() => {
          const lod = /** @type {any} */ (window).latscope.session.levels.lod;
          const cur = lod.current;
          const ix = lod.levels[cur.li];
          return { q: ix.level.quantum_ms, hosts: cur.chunks ? [...cur.chunks].map((k) => ix.chunkHost[k]) : null, of: ix.chunkHost?.length, note: lod.note() };
        });
      const waitLevel = async (/** @type {RegExp} */ re) => {
        await p.waitForFunction((src) => new RegExp(src).test(document.querySelector('[data-testid=status]')?.textContent ?? ''), re.source, { timeout: 60000 });
        await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
        await settled(p);
      };
      assert.equal((await held()).q, 10000, 'the hour opens at 10 s');
      // The drill's state (host-drill.js drillState) over ten minutes: the 1 s blocks of host03 alone are read.
      await p.evaluate((ex) => /** @type {any} */ (window).latscope.store.set({ range: [1200000, 1800000], exclude_hosts: ex, group_by: 'all', view: 'pctiles' }), others);
      await waitLevel(/showing 1 s .*, 1 of 6 hosts/);
      const drill = await held();
      assert.deepEqual([drill.q, drill.hosts, drill.of], [1000, ['host03'], 6], drill.note);
      const st = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      const ex = others.flatMap((h) => ['--exclude-host', h]);
      const span = ['--quantum', String(st.quantum_ms), '--from', String(st.range[0]), '--to', String(st.range[1])];
      const { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([...span, ...ex], [lsr]), 'the drill on host03\'s blocks alone is the CLI on the whole file with the other hosts excluded');
      // Back to every host: the slice of one host does not serve it; every host's blocks are read.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ exclude_hosts: [] }));
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.session.levels.lod.current.chunks == null, null, { timeout: 60000 });
      await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
      await settled(p);
      const all = await held();
      assert.deepEqual([all.q, all.hosts], [1000, null], all.note);
      const { bytes: b2 } = await download(p, '[data-testid=export-csv]');
      assert.equal(b2.toString('utf8'), cliPctiles(span, [lsr]), 'every host again');
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
  {
    name: 'host matrix on a result with several resolutions: the groups view by host is drawn from the matrix beside the levels summed over hosts, no host\'s histograms read (equal to pctiles --group-by host); the host table names the 6 hosts; the ranking over the run reads the levels as kept',
    async run(c) {
      const p = c.page;
      const logs = hostLogs(6, 3600);
      const lsr = path.join(OUT, 'host-groups-levels.lsr');
      execFileSync(cliPath(), ['reduce', '--keep', 'host,dir', '--levels', '1000,10000,60000', ...logs, '-o', lsr], { stdio: ['ignore', 'ignore', 'pipe'] });
      assert.equal(await loadThroughInput(p, c.url, [lsr]), 'ready');
      await settled(p);
      const rest = async () => {
        await p.evaluate(() => /** @type {any} */ (window).latscope.levelBusy);
        await settled(p);
      };
      /** What the engine holds and what the groups view shows. */
      const seen = () =>
        p.evaluate(() => {
          const a = /** @type {any} */ (window).latscope;
          const lod = a.session.levels.lod;
          const ix = lod.levels[lod.current.li];
          const m = a.views.groups.m;
          const hostRows = [...document.querySelectorAll('#host-table tr[data-host]')].map((tr) => /** @type {HTMLElement} */ (tr).dataset.host);
          return { summed: !!lod.current.summed, q: ix.level.quantum_ms, note: lod.note(), why: a.session.hostMatrix?.why, groups: m?.groups ?? [], times: m ? [...m.times] : [], values: m ? [...m.values] : [], mq: m?.quantumMs, hostRows, caption: document.querySelector('#view-groups .groups-caption')?.textContent ?? '' };
        });
      // The groups tab, then "Lines per" host: both ask the groups view by host.
      await p.click('[data-testid=tab-groups]');
      await rest();
      await p.selectOption('[data-testid=group-by]', 'host');
      await rest();
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.groups.m?.groups?.length === 6);
      await rest();
      const got = await seen();
      assert.equal(got.why, '', 'the matrix answered');
      assert.deepEqual([got.summed, got.q], [true, 10000], `the engine holds the 10 s level summed over hosts, no host's histograms: ${got.note}`);
      assert.match(got.caption, /from the per-host matrix/);
      const hosts = Array.from({ length: 6 }, (_, i) => `host0${i + 1}`);
      assert.deepEqual(got.hostRows, hosts, 'the host table names the file\'s hosts (its finest level\'s header)');
      // The exported image names the hosts drawn, not the groups of the cluster's percentiles query
      // asked for the run's extent; the notes are the matrix answer's (its level is said once, in the caption).
      const svg = (await download(p, '[data-testid=export-svg]')).bytes.toString('utf8');
      assert.match(svg, /groups: host=host01, host=host02, host=host03, host=host04, … \(6 groups\) · /);
      assert.equal(await p.textContent('[data-testid=query-notes]'), '');
      // The numbers: the CLI's on the same file at the same quantum (answered from the same matrix).
      const ref = parseCsv(cliPctiles(['--group-by', 'host', '--quantum', String(got.mq), '--percentiles', '99'], [lsr]));
      const T = got.times.length;
      assert.equal(ref.length, 6 * T);
      for (const r of ref) {
        const v = got.values[got.groups.indexOf(r.group) * T + got.times.indexOf(Number(r.time_ms))];
        if (r.p99 === '') assert.ok(Number.isNaN(v), `${r.group} at ${r.time_ms}: empty, page ${v}`);
        else assert.ok(Math.abs(v - Number(r.p99)) <= 5e-4 + 1e-9 * Math.abs(v), `${r.group} at ${r.time_ms} ms: page ${v}, CLI ${r.p99}`);
      }
      // Worst first: the ranking over the run is the histograms' (groupsRunOptions), so the levels as kept are read.
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ groupsSort: 'worst' }));
      await p.waitForFunction(() => !(/** @type {any} */ (window).latscope.session.levels.lod.current.summed), null, { timeout: 60000 });
      await rest();
      const worst = await seen();
      assert.deepEqual([worst.summed, worst.q, worst.why], [false, 10000, ''], worst.note);
      assert.deepEqual(worst.values.map((v) => (Number.isNaN(v) ? 'NaN' : v)), got.values.map((v) => (Number.isNaN(v) ? 'NaN' : v)), 'the same matrix');
      const ranked = await p.evaluate(() => /** @type {any} */ (window).latscope.views.groups.run?.size);
      assert.equal(ranked, 6, 'the ranking over the run, one value per host');
      // Opened again, the same view: the percentiles CSV by host is asked of the hosts' histograms, read for it.
      assert.equal(await loadThroughInput(p, c.url, [lsr]), 'ready');
      await rest();
      await p.evaluate(() => /** @type {any} */ (window).latscope.store.set({ view: 'groups', group_by: 'host' }));
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.views.groups.m?.groups?.length === 6);
      await rest();
      assert.equal((await seen()).summed, true);
      const st = await p.evaluate(() => /** @type {any} */ (window).latscope.store.state);
      const { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles(['--group-by', 'host', '--quantum', String(st.quantum_ms)], [lsr]), 'the percentiles CSV by host is the CLI\'s on the file');
      assert.equal((await seen()).summed, false, 'read from the levels as kept');
      assert.deepEqual(c.errors, [], 'the page logged errors');
    },
  },
];
