// End-to-end cases of the page's memory budget (docs/page-loading.md §7):
// past the budget (lowered through the page's URL), files are loaded reduced
// to the page's quantum and the CSV still equals the CLI's on the logs; a
// parse worker whose WebAssembly memory runs out costs only its file.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { cliPath, cliPctiles, fixtureFiles, download, waitDone, largeLogs, settled } from './helpers.mjs';
import { OUT, SHOTS } from './paths.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

const S1 = () => fixtureFiles('fio-s1', /^s1_clat_hist\./);

/** The state cells of the file table, by file name. @param {import('playwright-core').Page} p */
function fileStates(p) {
  return p.$$eval('[data-testid=file-table] tbody tr:not(.trust-line)', (trs) =>
    trs.map((tr) => ({ file: /** @type {HTMLElement} */ (tr).dataset.file, reduced: /** @type {HTMLElement} */ (tr).dataset.reduced ?? '', state: tr.querySelector('td.state')?.textContent ?? '' })),
  );
}

/** @type {{name: string, skip?: () => string, run: (c: Ctx) => Promise<void>}[]} */
export const BUDGET_CASES = [
  {
    name: 'memory budget: past it files load reduced to the quantum, the table says so, CSV equals the CLI at the quantum and a multiple',
    async run(c) {
      const p = c.page;
      const files = S1();
      // Each of these logs costs ~14 KB in the engine (budget.js modelBytes):
      // a 20 KB budget holds the first, the three after it are reduced.
      await p.goto(`${c.url}?budget=20000#q=5000`);
      await p.setInputFiles('[data-testid=file-input]', files);
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      const states = await fileStates(p);
      assert.deepEqual(states.map((s) => s.reduced), ['', '5000', '5000', '5000'], JSON.stringify(states));
      assert.deepEqual(states.map((s) => s.state), ['ok', '↓5 s', '↓5 s', '↓5 s']);
      const fmts = await p.$$eval('[data-testid=file-table] tbody td.fmt', (tds) => tds.map((td) => td.textContent));
      assert.deepEqual(fmts, ['fio-hist', 'fio-hist', 'fio-hist', 'fio-hist'], 'the format read, not the engine\'s result');
      const status = (await p.textContent('[data-testid=status]')) ?? '';
      assert.match(status, /memory budget of 19\.5 KiB passed: 3 files reduced to 5 s quanta/);
      const mem = (await p.textContent('[data-testid=memory]')) ?? '';
      assert.match(mem, /^memory: [\d.]+ KiB of 19\.5 KiB budget$/);
      await p.screenshot({ path: path.join(SHOTS, 'budget-reduced.png') });

      // At the reduced quantum and at a multiple the reduced files are exact:
      // the CSV is the CLI's on the logs themselves.
      let { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '5000'], files));
      await p.selectOption('[data-testid=quantum]', '10000');
      await settled(p);
      assert.equal(await p.isHidden('text=/no multiple of 5 s/'), true, 'no note at a multiple');
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '10000'], files));

      // At 1 s (no multiple) the page says what it shows, and shows what the
      // CLI shows for the first log with the other three as `latscope reduce`
      // results at 5 s (the same labels kept).
      await p.selectOption('[data-testid=quantum]', '1000');
      await settled(p);
      const notes = (await p.textContent('#query-notes')) ?? '';
      assert.match(notes, /3 files were reduced to 5 s quanta while loading \(memory budget\): 1 s is no multiple of 5 s, so each of their quanta is shared evenly among the finer ones/);
      const dir = path.join(OUT, 'budget');
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      const reduced = files.slice(1).map((f) => {
        const out = path.join(dir, `${path.basename(f)}.lsr`);
        execFileSync(cliPath(), ['reduce', '--quantum', '5000', '--keep', 'host,job,dir,file,tag,kind', f, '-o', out], { stdio: 'ignore' });
        return out;
      });
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      const page1s = bytes.toString('utf8');
      assert.equal(page1s, cliPctiles(['--quantum', '1000'], [files[0], ...reduced]));
      assert.notEqual(page1s, cliPctiles(['--quantum', '1000'], files), 'at 1 s the reduced files differ from the logs (else this case proves nothing)');
      // Regrouping still works: the labels were kept.
      await p.selectOption('[data-testid=quantum]', '5000');
      await p.selectOption('[data-testid=group-by]', 'host');
      await settled(p);
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '5000', '--group-by', 'host'], files));
      assert.deepEqual(c.errors, []);
    },
  },
  {
    name: 'a parse worker out of WebAssembly memory: a sentence names the file, the other files load, the engine stays usable',
    async run(c) {
      const p = c.page;
      const small = S1();
      // 40 MB of real log lines: its 16 MiB slices cannot fit a 24 MiB worker.
      const [big] = largeLogs(1, 40);
      await p.goto(`${c.url}?worker_memory=24MiB`);
      await p.setInputFiles('[data-testid=file-input]', [...small, big]);
      assert.equal(await waitDone(p, 120000), 'ready');
      await settled(p);
      const msg = (await p.textContent(`[data-testid=file-errors] .file-error-msg[data-file="${path.basename(big)}"]`)) ?? '';
      assert.match(msg, /^large_clat_hist\.1\.log: the engine aborted while reading this file, most likely out of memory/);
      const status = (await p.textContent('[data-testid=status]')) ?? '';
      assert.match(status, /4 logs loaded in [\d.]+ s, 1 file with errors/);
      let { bytes } = await download(p, '[data-testid=export-csv]');
      assert.equal(bytes.toString('utf8'), cliPctiles([], small));
      await p.screenshot({ path: path.join(SHOTS, 'budget-worker-oom.png') });
      // The engine still answers and loads again.
      await p.selectOption('[data-testid=quantum]', '5000');
      await settled(p);
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '5000'], small));
      await p.setInputFiles('[data-testid=file-input]', small.slice(0, 2));
      assert.equal(await waitDone(p), 'ready');
      await settled(p);
      ({ bytes } = await download(p, '[data-testid=export-csv]'));
      assert.equal(bytes.toString('utf8'), cliPctiles(['--quantum', '5000'], small.slice(0, 2)));
      assert.deepEqual(c.errors, [], 'the abort is a warning in the worker, not a page error');
    },
  },
];
