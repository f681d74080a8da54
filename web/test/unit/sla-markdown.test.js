// The CI verdict (`latscope pctiles --sla ... --sla-summary md F.md`,
// docs/ci-reports.md) rendered by a CommonMark + GFM-tables renderer
// (markdown-it, as job summaries and merge-request comments render it):
// every table is a table with as many cells per row as its header, the
// latencies read with their unit, the charts are mermaid code blocks, and
// no line of a table falls out as a paragraph.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = process.env.LATSCOPE_CLI ?? path.join(ROOT, 'build/latscope');
const S1 = path.join(ROOT, 'tests/fixtures/fio-s1');

/** The verdict Markdown of `pctiles --sla RULES` on the fio-s1 histogram logs. @param {string[]} args */
function verdict(args) {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-md-')), 'verdict.md');
  const logs = fs.readdirSync(S1).filter((n) => n.startsWith('s1_clat_hist.')).map((n) => path.join(S1, n));
  const r = spawnSync(CLI, ['pctiles', ...args, '--sla-summary', 'md', out, ...logs], { encoding: 'utf8' });
  expect([0, 3]).toContain(r.status);
  return fs.readFileSync(out, 'utf8');
}

describe.skipIf(!fs.existsSync(CLI))('the SLA verdict as Markdown, rendered', () => {
  it.each([
    [['--group-by', 'host', '--sla', 'p99<=2ms,max<20ms'], 'FAIL'],
    [['--sla', 'p50<=1s'], 'PASS'],
  ])('%j', (args, word) => {
    const md = verdict(args);
    const html = new MarkdownIt().render(md);
    expect(html).toContain(`latscope SLA: ${word}`);
    const tables = md.split('\n').filter((l) => /^\| ?-{3}/.test(l)).length;
    expect(tables).toBeGreaterThan(0);
    expect(html.match(/<table>/g)?.length).toBe(tables);
    // Each row has as many cells as its table's header.
    for (const t of html.split('<table>').slice(1)) {
      const head = t.slice(0, t.indexOf('</thead>'));
      const cols = (head.match(/<th[ >]/g) || []).length;
      const body = t.slice(t.indexOf('<tbody>'), t.indexOf('</table>'));
      for (const row of body.split('<tr>').slice(1)) expect((row.match(/<td[ >]/g) || []).length).toBe(cols);
    }
    // No table line left as text, and latencies with their unit in cells.
    expect(html).not.toMatch(/<p>\|/);
    expect(html).toMatch(/<td[^>]*>\d+(\.\d+)? (ns|us|µs|ms|s)<\/td>/);
    // Charts as mermaid code blocks (rendered where the CI renders Mermaid).
    expect(html).toContain('<pre><code class="language-mermaid">xychart-beta');
  });
});
