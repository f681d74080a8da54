// End-to-end cases of the percentile field and a link's p= read by core
// alone (docs/page-views.md, "Percentile field"; docs/cli.md, "Percentile
// lists"): a list typed into the field goes to the engine's parser, its
// sentence for a bad item is the one `latscope --percentiles` prints, and
// the CSV export equals `latscope pctiles --percentiles` given the same
// text; the link the page writes reopens the same list. Real files through
// the file input; every assertion on what the page shows or holds.
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath, cliPctiles, download, fixtureFiles, loadThroughInput, settled, waitDone } from './helpers.mjs';
import { SHOTS } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */
/** @typedef {import('playwright-core').Page} Page */

const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);

/** The field's text: every separator and spelling core reads, repeats of the checked presets among them. */
const TYPED = '99.95; p99.99 MAX,median';
/** What the page then shows: the presets and the field, sorted, one per value. */
const SHOWN = ['50', '90', '99', '99.9', '99.95', '99.99', '100'];
/**
 * The same list in the CLI's spellings: in order and once each, since the
 * CLI keeps the order and repeats as columns (docs/cli.md, "Percentile lists").
 */
const CLI_LIST = '50,90,99,99.9 99.95; p99.99 MAX';

/** @param {Ctx} c */
function noPageErrors(c) {
  assert.deepEqual(c.errors, [], 'the page logged errors');
}

/** What `latscope pctiles --percentiles LIST` says on stderr for a refused list. @param {string} list */
function cliRefusal(list) {
  const r = spawnSync(cliPath(), ['pctiles', '--percentiles', list, ...S1()], { encoding: 'utf8' });
  assert.equal(r.status, 2, `latscope pctiles --percentiles '${list}' should be refused: ${r.stderr}`);
  return r.stderr;
}

/** @param {Page} p @param {string} text */
async function typePercentiles(p, text) {
  await p.fill('[data-testid=extra-percentiles]', text);
  await p.press('[data-testid=extra-percentiles]', 'Enter');
}

/** @param {Page} p */
const shown = (p) => p.evaluate(() => /** @type {any} */ (window).latscope.store.state.percentiles);

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const PCT_FIELD_CASES = [
  {
    name: 'percentile field: typed lists are read by core: the CSV is `latscope pctiles --percentiles` of the same list, a bad item shows the CLI\'s sentence and changes nothing, the page\'s link reopens the list',
    async run(c) {
      const p = c.page;
      const files = S1();
      assert.equal(await loadThroughInput(p, c.url, files), 'ready');
      await p.selectOption('[data-testid=quantum]', '1000');
      await settled(p);
      await typePercentiles(p, TYPED);
      await p.waitForFunction((want) => /** @type {any} */ (window).latscope.store.state.percentiles.join() === want, SHOWN.join());
      await settled(p);
      assert.equal(await p.textContent('[data-testid=pct-error]'), '');
      const want = cliPctiles(['--quantum', '1000', '--percentiles', CLI_LIST], files);
      assert.match(want.split('\n')[0], /p99\.95.*p99\.99.*p100/);
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), want, 'the CSV is the CLI\'s for the same text');
      await p.screenshot({ path: path.join(SHOTS, 'pct-field-typed.png') });

      // A bad item: core's sentence, the one the CLI prints, and the list shown stays.
      await typePercentiles(p, 'p99.99 abc');
      const sentence = 'percentile "abc" (item 2, column 8) is not a percentile: write a number from 0 to 100 (99.9 or p99.9), max or median';
      await p.waitForFunction((s) => document.querySelector('[data-testid=pct-error]')?.textContent === s, sentence);
      assert.ok(cliRefusal('p99.99 abc').includes(sentence), 'the CLI names the bad item the same way');
      assert.deepEqual(await shown(p), SHOWN);
      await p.screenshot({ path: path.join(SHOTS, 'pct-field-error.png') });

      // The link the page wrote (p=, q=) reopens the list; the files loaded again give the same CSV.
      const link = await p.evaluate(() => location.href);
      assert.match(link, /[#&]p=50,90,99,99\.9,99\.95,99\.99,100(&|$)/);
      await p.goto('about:blank');
      await p.goto(link);
      await p.waitForFunction((want) => /** @type {any} */ (window).latscope.store.state.percentiles.join() === want, SHOWN.join());
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      assert.deepEqual(await shown(p), SHOWN);
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), want, 'the reopened link gives the same CSV');
      noPageErrors(c);
    },
  },
  {
    name: 'percentile field: a link\'s p= in any spelling core reads gives the CLI\'s CSV; a bad p= leaves the default with core\'s sentence',
    async run(c) {
      const p = c.page;
      const files = S1();
      await p.goto(`${c.url}#v=1&q=1000&p=${encodeURIComponent('max,P99.90;median')}`);
      await p.waitForFunction(() => /** @type {any} */ (window).latscope.store.state.percentiles.join() === '50,99.90,100');
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      assert.equal((await download(p, '[data-testid=export-csv]')).bytes.toString('utf8'), cliPctiles(['--quantum', '1000', '--percentiles', 'median P99.90 max'], files));
      await p.screenshot({ path: path.join(SHOTS, 'pct-field-link.png') });
      noPageErrors(c);
      // A bad list in a link: the default percentiles, core's sentence under the field.
      await p.goto('about:blank');
      await p.goto(`${c.url}#v=1&p=50,abc`);
      const sentence = 'percentile "abc" (item 2, column 4) is not a percentile: write a number from 0 to 100 (99.9 or p99.9), max or median';
      await p.waitForFunction((s) => document.querySelector('[data-testid=pct-error]')?.textContent === s, sentence);
      assert.deepEqual(await shown(p), ['50', '90', '99', '99.9', '100']);
      noPageErrors(c);
    },
  },
];
