// End-to-end cases of the report's static layer (docs/ci-reports.md, "The
// static layer"): a real `latscope report` served as Jenkins serves an
// archived artifact — with its default Content-Security-Policy, which runs no
// script and applies no inline style — shows the verdict, its tables and both
// charts; served without the policy, the page runs and removes the layer.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath, fixtureFiles, waitDone } from './helpers.mjs';
import { OUT } from './paths.mjs';
import { serveStatic } from './server.mjs';

/** @typedef {{page: import('playwright-core').Page, url: string, errors: string[]}} Ctx */

/** Jenkins' default policy for archived artifacts (hudson.model.DirectoryBrowserSupport.CSP). */
export const JENKINS_CSP = "sandbox allow-same-origin; default-src 'none'; img-src 'self'; style-src 'self';";

/**
 * The README's client/server run per host, gated on two rules, with --svg:
 * a report that fails (exit 3) with violations in both hosts.
 * @returns {string} the folder holding report.html and svg/
 */
function makeReport() {
  const dir = fs.mkdtempSync(path.join(OUT, 'report-csp-'));
  const logs = fixtureFiles('fio-s1', /^s1_clat_hist\./);
  const r = spawnSync(cliPath(), ['report', '--template', path.join(OUT, 'dist', 'latscope.html'), ...logs, '-o', path.join(dir, 'report.html'),
    '--group-by', 'host', '--sla', 'p99<=2ms,p99.9<=20ms', '--svg', path.join(dir, 'svg')], { encoding: 'utf8' });
  assert.equal(r.status, 3, `latscope report exit ${r.status}: ${r.stderr}`);
  return dir;
}

/** @type {{name: string, run: (c: Ctx) => Promise<void>}[]} */
export const REPORT_CSP_CASES = [
  {
    name: 'report-csp: under Jenkins\' Content-Security-Policy the report shows its verdict, tables and both charts without a script',
    async run(c) {
      const dir = makeReport();
      const server = await serveStatic(dir, { headers: { 'content-security-policy': JENKINS_CSP } });
      try {
        const p = c.page;
        const res = await p.goto(`${server.url}report.html`);
        assert.equal(res?.headers()['content-security-policy'], JENKINS_CSP);
        await p.waitForLoadState('load');
        const layer = p.locator('#latscope-static');
        assert.equal(await layer.count(), 1, 'the static layer is there: no script removed it');
        assert.equal(await p.locator('h1').first().textContent(), 'latscope report: SLA FAIL');
        // The verdict's tables: rules, per group, worst quanta.
        assert.equal(await layer.locator('table').count(), 3);
        const rules = (await layer.locator('table').first().innerText()).replace(/\s+/g, ' ');
        assert.match(rules, /p99<=2ms FAIL 7 of 40 rows \(2 groups x 20 quanta\) \(17\.5%\) 4\.473 ms 0:00, host=127\.0\.0\.2/, rules);
        // Both charts drawn, as laid-out SVG, coloured by their attributes.
        const svgs = layer.locator('svg');
        assert.equal(await svgs.count(), 2);
        for (let i = 0; i < 2; i++) {
          const box = await svgs.nth(i).boundingBox();
          assert.ok(box && box.width > 900 && box.height > 400, `chart ${i} laid out: ${JSON.stringify(box)}`);
        }
        assert.ok(await layer.locator('rect.cell').count() > 100, 'heat-map cells');
        assert.ok(await layer.locator('path.series').count() >= 2, 'percentile lines');
        assert.ok(await layer.locator('rect.violation').count() > 0, 'violating quanta shaded');
        const fill = await layer.locator('rect.cell').first().evaluate((e) => getComputedStyle(e).fill);
        const attr = await layer.locator('rect.cell').first().getAttribute('fill');
        const hex = (/** @type {string} */ rgb) => '#' + (rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('');
        assert.equal(hex(fill), attr, 'the presentation attribute applies under style-src \'self\'');
        // The page's own script did not run: no app, the status line as written.
        assert.equal(await p.evaluate(() => typeof (/** @type {any} */ (window)).latscope), 'undefined');
        // The links to the SVG files resolve beside the report.
        const hrefs = await layer.locator('a').evaluateAll((as) => as.map((a) => /** @type {HTMLAnchorElement} */ (a).href));
        assert.equal(hrefs.length, 2);
        for (const h of hrefs) {
          const r = await p.request.get(h);
          assert.equal(r.status(), 200, h);
          assert.match(r.headers()['content-type'] ?? '', /image\/svg\+xml/);
        }
        await p.screenshot({ path: path.join(OUT, 'report-csp-jenkins.png'), fullPage: true });
      } finally {
        await server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'report-csp: served without that policy the page runs, removes the static layer and judges the same SLA, grouped as the report',
    async run(c) {
      const dir = makeReport();
      const server = await serveStatic(dir);
      try {
        const p = c.page;
        await p.goto(`${server.url}report.html`);
        assert.equal(await waitDone(p), 'ready', (await p.textContent('[data-testid=status]')) ?? '');
        assert.equal(await p.locator('#latscope-static').count(), 0, 'the page removed the static layer');
        await p.waitForSelector('[data-testid=sla-summary]:not([hidden])');
        const said = (await p.textContent('[data-testid=sla-summary]')) ?? '';
        // Grouped by host as the report was (its view's group_by): the static
        // layer's and the CLI's count, per host and summed.
        assert.match(said, /all groups: p99 ≤ 2 ms violated in 7 of 40 rows \(2 groups x 20 quanta of 1 s\) \(17\.5%\)/, said);
        assert.match(said, /host=127\.0\.0\.2: p99 ≤ 2 ms violated in 5 of 20 quanta of 1 s \(25%\)/, said);
      } finally {
        await server.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  },
];
