// The SLA field judged by core (engine.judgeSla, core sla_field.h), the
// page's only judge, on real logs: the rules, counts and sentences per group
// and summed in sla-core.expected.json are what the page's own JS judge
// wrote for the same logs and options before core took over — but for the
// sums over several groups, which count rows and now say so ("7 of 40 rows
// (2 groups x 20 quanta of 1 s)", docs/ci-reports.md "What is judged") — (and equal
// `latscope pctiles --sla`'s counts: tests/sla_field_test.cc), in both
// engine implementations (in this thread and behind the worker protocol).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineImpls } from './node-endpoint.js';
import { parseSlaList } from '../../src/app/sla.js';

/** @type {{rule: [string, string, number], groups: [string, number, number, number, string][], total: string}[][]} */
const EXPECTED = JSON.parse(fs.readFileSync(new URL('./sla-core.expected.json', import.meta.url), 'utf8'));

const S1 = fileURLToPath(new URL('../../../tests/fixtures/fio-s1/', import.meta.url));
const files = () => fs.readdirSync(S1).filter((n) => n.includes('_clat_hist.')).map((n) => ({ name: n, file: new File([fs.readFileSync(path.join(S1, n))], n) }));

describe.each(engineImpls(2))('SLA judged by core (%s)', (_name, make) => {
  /** @type {import('../../src/engine/index.js').Engine} */
  let engine;
  beforeAll(async () => {
    engine = await make();
    await engine.loadFiles(files());
  });
  afterAll(() => engine?.terminate());

  const cases = /** @type {[string, any][]} */ ([
    ['p99<2ms, p99.9 <= 20 ms; max<1s, 5ms, p99.95<3ms', { quantum_ms: 1000, group_by: 'host', percentiles: ['50', '99', '99.9'], unit: 'us' }],
    ['p99 < 500us', { quantum_ms: 250, group_by: 'host,dir', percentiles: ['99'], unit: 'ms' }],
    ['p50<100', { quantum_ms: 2000, percentiles: ['50', '100'], unit: 'us' }],
  ]);
  cases.forEach(([text, opts], c) => {
    it(`${text} over ${JSON.stringify(opts)}`, async () => {
      const want = EXPECTED[c];
      const { rules } = await engine.parseSla({ text, unit: opts.unit });
      expect(rules.map((/** @type {any} */ r) => r.text)).toEqual(parseSlaList(text, opts.unit).map((r) => r.text));
      const { verdicts } = await engine.judgeSla({ text, unit: opts.unit, opts });
      expect(verdicts.length).toBe(want.length);
      verdicts.forEach((/** @type {any} */ v, /** @type {number} */ k) => {
        const w = want[k];
        expect([v.rule.text, v.rule.what, v.pi]).toEqual(w.rule);
        expect(v.groups.map((/** @type {any} */ o) => [o.group, o.evaluated, o.violated, o.few, o.sentence])).toEqual(w.groups);
        expect(v.total.sentence).toBe(w.total);
      });
      expect(verdicts.some((/** @type {any} */ v) => v.total.violated > 0)).toBe(true);
    });
  });

  it('refuses a bad rule with the page\'s sentence', async () => {
    await expect(engine.parseSla({ text: 'p99 < 2 parsecs', unit: 'us' })).rejects.toThrow('"p99 < 2 parsecs" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s');
  });
});
