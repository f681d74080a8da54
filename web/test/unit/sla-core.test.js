// The SLA field parsed and judged by core (engine.parseSla, engine.judgeSla,
// the queries' "sla" option; core sla_field.h), the page's only parser and
// judge, on real logs: the rules, counts and sentences per group
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
import { missingPercentiles, SlaField } from '../../src/app/sla.js';
import { parseFragment } from '../../src/app/url-state.js';
import { Store, initialState } from '../../src/app/state.js';

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

  // The field's text, the query, and the rules' spelling core gives (what the page's own JS parser wrote).
  const cases = /** @type {[string, any, string[]][]} */ ([
    ['p99<2ms, p99.9 <= 20 ms; max<1s, 5ms, p99.95<3ms', { quantum_ms: 1000, group_by: 'host', percentiles: ['50', '99', '99.9'], unit: 'us' }, ['p99<2ms', 'p99.9<=20ms', 'max<1s', '<=5ms', 'p99.95<3ms']],
    ['p99 < 500us', { quantum_ms: 250, group_by: 'host,dir', percentiles: ['99'], unit: 'ms' }, ['p99<500us']],
    ['p50<100', { quantum_ms: 2000, percentiles: ['50', '100'], unit: 'us' }, ['p50<100us']],
  ]);
  cases.forEach(([text, opts, spelled], c) => {
    it(`${text} over ${JSON.stringify(opts)}`, async () => {
      const want = EXPECTED[c];
      const { rules } = await engine.parseSla({ text, unit: opts.unit });
      expect(rules.map((/** @type {any} */ r) => r.text)).toEqual(spelled);
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

  it('names the percentiles the rules need that the list lacks (the page adds them)', async () => {
    const { rules } = await engine.parseSla({ text: '2ms, p99.95<5ms, max<1s', unit: 'us' });
    expect(missingPercentiles(rules, ['50', '99'])).toEqual(['99.95']);
    expect(missingPercentiles(rules, ['50', '99.950'])).toEqual([]);
  });

  // The views draw core's marks (docs/page-views.md, "SLA"): the percentiles
  // columns' rows and the groups matrix's cells that break each rule, as
  // many as core's verdict counts.
  it('marks the rows and cells that break each rule, as many as the verdict counts', async () => {
    const [text, opts] = cases[0];
    const { verdicts } = await engine.judgeSla({ text, unit: opts.unit, opts });
    const c = await engine.queryColumns({ ...opts, sla: text });
    const V = c.sla?.length ?? 0;
    const marks = /** @type {Uint8Array} */ (c.sla_marks);
    expect(c.sla?.map((v) => [v.rule.text, v.rule.what, v.pi])).toEqual(verdicts.map((/** @type {any} */ v) => [v.rule.text, v.rule.what, v.pi]));
    expect(marks.length).toBe(c.n * V);
    verdicts.forEach((/** @type {any} */ v, /** @type {number} */ k) => {
      let n = 0;
      for (let i = 0; i < c.n; i++) n += marks[i * V + k];
      expect(n).toBe(v.total.violated);
    });
    const mo = { ...opts, percentiles: ['99'] };
    const m = await engine.queryMatrix({ ...mo, sla: 'p99<2ms' });
    const j = await engine.judgeSla({ text: 'p99<2ms', unit: 'us', opts: mo });
    const cells = /** @type {Uint8Array} */ (m.sla_marks);
    expect(cells.length).toBe(m.values.length);
    let n = 0;
    for (let k = 0; k < cells.length; k++) {
      if (!cells[k]) continue;
      n++;
      expect(m.values[k]).toBeGreaterThanOrEqual(2000); // p99 < 2 ms broken: the value is not below 2,000 us
    }
    expect(n).toBe(j.verdicts[0].total.violated);
    expect(n).toBeGreaterThan(0);
    // Without the option, no marks: the answer is as before.
    expect((await engine.queryMatrix(mo)).sla_marks).toBeUndefined();
  });

  // A link's rules as the page applies them (url-sync.js, app/sla.js): the
  // fragment keeps the text, core spells it into the state and its rules
  // into the store, bare thresholds in the link's unit.
  it('reads a link\'s rules into the store: core\'s spelling, a bare threshold in the link\'s unit; a bad rule leaves none, with core\'s sentence', async () => {
    const apply = async (/** @type {string} */ hash) => {
      const frag = parseFragment(hash);
      const store = new Store({ ...initialState(), ...frag.state, sla: [] });
      const err = await new SlaField(store, async () => engine).set((frag.state.sla ?? []).join(','), { dropOnError: true });
      return { sla: store.state.sla, err, rules: store.session.slaRules.map((r) => r.text) };
    };
    expect(await apply(`#v=1&sla=${encodeURIComponent('p99<2ms,p99.9 <= 20 ms')}`)).toEqual({ sla: ['p99<2ms', 'p99.9<=20ms'], err: '', rules: ['p99<2ms', 'p99.9<=20ms'] });
    expect((await apply('#v=1&unit=ms&sla=500,2000.5')).sla).toEqual(['<=500ms', '<=2000.5ms']);
    expect((await apply('#v=1&sla=500')).sla).toEqual(['<=500us']);
    const bad = await apply(`#v=1&sla=${encodeURIComponent('p99<2parsecs')}`);
    expect(bad).toEqual({ sla: [], rules: [], err: '"p99<2parsecs" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s' });
    expect(await apply('#v=1&sla=-1')).toEqual({ sla: [], rules: [], err: '"-1" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s' });
  });

  it('refuses a bad rule with the page\'s sentence', async () => {
    await expect(engine.parseSla({ text: 'p99 < 2 parsecs', unit: 'us' })).rejects.toThrow('"p99 < 2 parsecs" is not a rule like p99 < 2 ms, p99.9 <= 20ms or max < 1s');
  });
});
