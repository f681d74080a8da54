// End-to-end cases of the SLA field read and judged by core alone
// (docs/page-views.md, "SLA"): a rule typed into the field or given in a
// link goes to the engine's parser, its sentence for a bad rule is shown
// under the field, and the groups view frames the cells core marked, which
// are the cells `latscope pctiles --sla` counts. Real files through the
// file input; every assertion on what the page shows or holds, none on time.
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath, loadThroughInput, settled, waitDone } from './helpers.mjs';
import { SHOTS } from './paths.mjs';
import { hostLogs, SLOW } from './cases-groups.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

/** Core's sentence for the bad rule (core sla_field.cc, tests/sla_field_test.cc). */
const BAD = '"p99 < 2 parsecs" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s';

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** The cells the groups heat map framed, "group|t_ms", sorted. @param {Page} p @returns {Promise<string[]>} */
function framed(p) {
  return p.evaluate(() => /** @type {any} */ (window).latscope.views.groups.shown.framed.slice().sort());
}

/**
 * The cells that break p99 < 2 ms: the slow hosts' slow seconds (their
 * p99 x8, above 2.2 ms; every other cell's p99 is below 1.4 ms, `latscope
 * pctiles --group-by host --percentiles 99` on these logs).
 */
function slowCells() {
  /** @type {string[]} */
  const out = [];
  for (const s of SLOW) for (let t = s.from; t < s.to; t++) out.push(`host=${s.host}|${t * 1000}`);
  return out.sort();
}

/** `latscope pctiles --sla RULE --group-by host --percentiles 99`: the rows it finds violating. @param {string} rule @param {string[]} files */
function cliViolated(rule, files) {
  const r = spawnSync(cliPath(), ['pctiles', '--sla', rule, '--quantum', '1000', '--group-by', 'host', '--percentiles', '99', ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const m = r.stderr.match(/SLA \S+: (\d+) of \d+ /);
  assert.ok(m, `latscope pctiles --sla said: ${r.stderr}`);
  return Number(m[1]);
}

/** @param {Page} p */
async function groupsView(p) {
  await p.click('[data-testid=tab-groups]');
  await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.view === 'groups');
  await settled(p);
}

/** @param {Page} p @param {string} text */
async function typeSla(p, text) {
  await p.fill('[data-testid=sla]', text);
  await p.press('[data-testid=sla]', 'Enter');
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const SLA_CASES = [
  {
    name: 'sla: typed rules are read by core: a bad rule shows core\'s sentence and changes nothing, a good one frames the cells core marks in the groups view (the CLI\'s count)',
    async run(c) {
      const p = c.page;
      const files = hostLogs();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      await groupsView(p);
      assert.deepEqual(await framed(p), []);
      await typeSla(p, 'p99 < 2 parsecs');
      await p.waitForFunction((want) => document.querySelector('[data-testid=sla-error]')?.textContent === want, BAD);
      await settled(p);
      assert.deepEqual(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.sla), []);
      assert.deepEqual(await framed(p), [], 'a bad rule marks nothing');
      // Two rules: max (kept everywhere: every max is below 4 ms) before p99, so p99's marks are core's second.
      await typeSla(p, 'max < 1 s, p99 < 2 ms');
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.sla.join() === 'max<1s,p99<2ms');
      await settled(p);
      assert.equal(await p.textContent('[data-testid=sla-error]'), '', 'the sentence goes with the bad rule');
      // Core's rules are in the store, spelled as core spells them.
      assert.deepEqual(await p.evaluate(() => /** @type {any} */ (window).latscope.store.session.slaRules.map((/** @type {any} */ r) => [r.text, r.label])), [['max<1s', 'max < 1 s'], ['p99<2ms', 'p99 < 2 ms']]);
      const cells = await framed(p);
      assert.deepEqual(cells, slowCells(), 'the slow hosts\' slow seconds are framed, nothing else');
      assert.equal(cells.length, cliViolated('p99<2ms', files), 'as many as latscope pctiles --sla finds');
      await p.screenshot({ path: path.join(SHOTS, 'sla-groups-marks.png') });
      // The percentiles view shades the same quanta core marked, on each slow host's p99 line only.
      await p.click('[data-testid=tab-pctiles]');
      await settled(p);
      const shade = await p.$$eval('#view-pctiles .sla-shade', (ps) => ps.map((x) => [x.getAttribute('data-key'), x.getAttribute('data-rule'), Number(x.getAttribute('data-quanta'))]));
      assert.deepEqual(shade.sort(), SLOW.map((s) => [`host=${s.host}|99`, 'p99<2ms', s.to - s.from]));
      await p.screenshot({ path: path.join(SHOTS, 'sla-pctiles-marks.png') });
      noPageErrors(c);
    },
  },
  {
    name: 'sla: a link\'s sla= is read by core after the link\'s unit (bare numbers in it) and frames the same cells; a link\'s bad rule shows core\'s sentence and leaves no rules',
    async run(c) {
      const p = c.page;
      const files = hostLogs();
      // "p99<2": a bare number, in the link's unit (ms); core spells it p99<2ms.
      await p.goto(`${c.url}#v=1&view=groups&g=host&unit=ms&sla=${encodeURIComponent('p99<2')}`);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.sla.join() === 'p99<2ms');
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host');
      await groupsView(p);
      assert.deepEqual(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.sla), ['p99<2ms']);
      assert.deepEqual(await framed(p), slowCells());
      assert.equal(await p.textContent('[data-testid=sla-error]'), '');
      await p.screenshot({ path: path.join(SHOTS, 'sla-link-marks.png') });
      noPageErrors(c);
      // A bad rule in a link: core's sentence under the field, no rules, no marks.
      await p.goto('about:blank');
      await p.goto(`${c.url}#v=1&view=groups&g=host&sla=${encodeURIComponent('p99 < 2 parsecs')}`);
      await p.waitForFunction((want) => document.querySelector('[data-testid=sla-error]')?.textContent === want, BAD);
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await p.selectOption('[data-testid=group-by]', 'host');
      await groupsView(p);
      assert.deepEqual(await p.evaluate(() => /** @type {any} */ (window).latscope.store.state.sla), []);
      assert.deepEqual(await framed(p), []);
      noPageErrors(c);
    },
  },
];
