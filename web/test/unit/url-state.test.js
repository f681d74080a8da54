// The view state in the URL fragment: round trips, and a fragment as
// untrusted input (each field validated on its own, never thrown).
import { describe, it, expect } from 'vitest';
import { parseFragment, stateToFragment, parseViewState, checkLoadUrl, FRAGMENT_VERSION, FIELD_OF } from '../../src/app/url-state.js';
import { initialState } from '../../src/app/state.js';

describe('url-state', () => {
  it('a fresh state is just the version', () => {
    expect(stateToFragment(initialState())).toBe(`v=${FRAGMENT_VERSION}`);
    expect(parseFragment('#v=1')).toEqual({ state: {}, urls: [], data: '', demo: false, notes: [] });
  });

  it('round-trips every field the controls can set', () => {
    const s = {
      ...initialState(),
      view: /** @type {const} */ ('heatmap'),
      percentiles: ['50', '99', '99.99', '100'],
      quantum_ms: 5000,
      quantumPinned: true,
      range: /** @type {[number, number]} */ ([12000, 30000]),
      group_by: 'host,dir',
      directions: 'r,w',
      unit: 'ms',
      method: 'hdr',
      exclude_sources: ['run a/h1,x_clat_hist.1.log', 'h2:50%.log'],
      exclude_hosts: ['10.0.0.2'],
      // Hosts and files (a file's own offset, file-table.js) share the map.
      offsets: { '(local)': 3000, 'fe80::1': -250, 'run a/h1,x_clat_hist.2.log': 20000 },
      yLog: false,
      showMean: false,
      showBand: false,
      sla: ['p99<2ms', 'p99.9<=20.5ms', 'max<1s', '<=500us'],
      palette: 'magma',
      colorMode: /** @type {const} */ ('false'),
      clipOutliers: true,
      heatLines: false,
      surfaceP: 99.9,
      theme: /** @type {const} */ ('dark'),
    };
    const more = { kinds: 'clat,lat', account: 'hist', co_interval_ms: 2.5, adaptive: 0.25, heatY: 'bs', groupsMode: 'top', groupsP: '99.9', topN: 7, groupsSort: 'worst' };
    const frag = stateToFragment(/** @type {any} */ ({ ...s, ...more }), { theme: true });
    const r = parseFragment(`#${frag}`);
    expect(r.notes).toEqual([]);
    // Every field the fragment carries comes back; nothing else is in it.
    const want = { ...Object.fromEntries(Object.keys(FIELD_OF).map((k) => [k, /** @type {any} */ ({ ...s, ...more })[k]])), quantumPinned: true };
    expect(r.state).toEqual(want);
    expect(Object.keys(FIELD_OF)).not.toContain('yZoomNs');
  });

  // Core reads them when the link is applied (app/sla.js SlaField): their
  // spelling, bare thresholds in the link's unit and a bad rule's sentence
  // are tested there (sla-core.test.js).
  it('keeps SLA rules as the link writes them, for core to read', () => {
    const r = parseFragment(`#v=1&sla=${encodeURIComponent('p99<2ms,p99.9 <= 20 ms')}`);
    expect(r.state.sla).toEqual(['p99<2ms', 'p99.9 <= 20 ms']);
    expect(parseFragment('#v=1&unit=ms&sla=500,2000.5').state).toEqual({ unit: 'ms', sla: ['500', '2000.5'] });
    expect(parseFragment(`#v=1&sla=${'1,'.repeat(65)}`).notes[0]).toMatch(/sla=.*ignored: more than 64 entries/);
    // A drill into one host of 200 excludes the other 199 (host-drill.js); past 4096 the list is refused.
    const others = Array.from({ length: 199 }, (_, i) => `h${i}`);
    expect(parseFragment(`#v=1&xh=${others.join(',')}`).state.exclude_hosts).toEqual(others);
    expect(parseFragment(`#v=1&xh=${'h,'.repeat(4097)}`).notes[0]).toMatch(/xh=.*ignored: more than 4096 entries/);
    for (const [f, v] of [['gm', 'pie'], ['gn', '0'], ['gn', '21'], ['gn', '2.5'], ['gp', ''], ['gs', 'random']]) {
      const x = parseFragment(`#v=1&${f}=${v}`);
      expect(x.state).toEqual({});
      expect(x.notes).toHaveLength(1);
    }
  });

  it('keeps url= and d= and #demo', () => {
    const frag = stateToFragment(initialState(), { urls: ['https://ci.example/a b/run1.tar.gz?x=1&y=2', 'http://h/r2.zip'], data: 'AbC-_9', demo: true });
    const r = parseFragment(frag, { base: 'https://page.example/latscope/' });
    expect(r.urls).toEqual(['https://ci.example/a%20b/run1.tar.gz?x=1&y=2', 'http://h/r2.zip']);
    expect(r.data).toBe('AbC-_9');
    expect(r.demo).toBe(true);
    expect(parseFragment('#demo').demo).toBe(true);
  });

  it('reads ?url= from the query string, relative to the page', () => {
    const r = parseFragment('', { search: '?url=logs/a.log&url=https://x.example/b.gz', base: 'https://page.example/app/' });
    expect(r.urls).toEqual(['https://page.example/app/logs/a.log', 'https://x.example/b.gz']);
    // The fragment the page writes repeats them: each URL is loaded once.
    const again = parseFragment('#v=1&url=https://x.example/b.gz', { search: '?url=https://x.example/b.gz', base: 'https://page.example/' });
    expect(again.urls).toEqual(['https://x.example/b.gz']);
  });

  // Core reads p= and gp= when the link is applied (app/pct-field.js): their
  // lists, and a bad item's sentence, are tested there (pct-field-core.test.js).
  it('keeps percentiles as the link writes them, for core to read', () => {
    expect(parseFragment('#v=1&p=50,p99.9,,max&gp=median').state).toEqual({ percentiles: ['50', 'p99.9', 'max'], groupsP: 'median' });
    expect(parseFragment(`#v=1&p=${'1,'.repeat(65)}`).notes[0]).toMatch(/p=.*ignored: more than 64 entries/);
  });

  // A malformed sla=, p= or gp= is core's to refuse when the link is applied (sla-core.test.js, pct-field-core.test.js).
  it('ignores unknown and malformed fields, one by one, with a note each', () => {
    const r = parseFragment(
      '#v=1&view=<img src=x onerror=alert(1)>&q=1234&t=5,1&g=host&g=job&dir=r,x&unit=s&palette=__proto__&theme=x"onload=1' +
        '&sp=101&ylog=yes&off=h:1e400&xf=%00bad&constructor=1&__proto__=1&url=javascript:alert(1)&url=data:text/html,x&d=<b>',
    );
    expect(r.state).toEqual({ group_by: 'host' });
    expect(r.urls).toEqual([]);
    expect(r.data).toBe('');
    const text = r.notes.join('\n');
    for (const f of ['view=', 'q=', 't=', 'dir=', 'unit=', 'palette=', 'theme=', 'sp=', 'ylog=', 'off=', 'xf=', '"constructor"', '"__proto__"', 'javascript:', 'data:', 'd= is not', 'a second g=']) {
      expect(text).toContain(f);
    }
    expect(Object.getPrototypeOf(r.state)).toBe(Object.prototype);
    // Notes quote at most 60 characters of what was written (then the six view names).
    expect(parseFragment(`#view=${'x'.repeat(500)}`).notes[0].length).toBeLessThan(150);
  });

  it('never throws, whatever the input', () => {
    const nasty = ['#%', '#%E0%A4%A', '#&&&==&', '#v=2&view=surface', '#v=abc', `#${'a=1&'.repeat(10000)}`, '#off=:5,a:', '#xf=%E0%A4%A', null, undefined, 42];
    for (const h of nasty) {
      const r = parseFragment(/** @type {any} */ (h));
      expect(Array.isArray(r.notes)).toBe(true);
    }
    expect(parseFragment('#v=2&view=surface').state).toEqual({ view: 'surface' });
    expect(parseFragment('#v=2&view=surface').notes[0]).toMatch(/newer latscope/);
    expect(parseFragment(`#${'x'.repeat(2 << 20)}`).notes[0]).toMatch(/over/);
  });

  // docs/page-views.md "Quantum follows the zoom": a pinned quantum is written whatever it is,
  // one that follows the zoom never (q=auto is the default).
  it('keeps a pinned quantum, and one that follows the zoom as auto', () => {
    expect(stateToFragment({ ...initialState(), quantum_ms: 5000 })).toBe(`v=${FRAGMENT_VERSION}`);
    expect(stateToFragment({ ...initialState(), quantum_ms: 1000, quantumPinned: true })).toBe(`v=${FRAGMENT_VERSION}&q=1000`);
    expect(parseFragment('#v=1&q=1000').state).toEqual({ quantum_ms: 1000, quantumPinned: true });
    expect(parseFragment('#v=1&q=auto')).toMatchObject({ state: { quantumPinned: false }, notes: [] });
    expect(parseFragment('#v=1').state).not.toHaveProperty('quantumPinned');
    expect(parseFragment('#v=1&q=1234')).toMatchObject({ state: {}, notes: [expect.stringMatching(/^q="1234" ignored/)] });
  });

  it('accepts only http(s) URLs without credentials', () => {
    expect(checkLoadUrl('https://a.example/x.log', 'https://p/')).toBe('https://a.example/x.log');
    for (const bad of ['javascript:alert(1)', 'file:///etc/passwd', 'blob:https://p/1', 'https://u:p@a.example/x', 'ftp://a/x']) {
      expect(() => checkLoadUrl(bad, 'https://p/')).toThrow();
    }
  });

  it('a posted view state: object or fragment string, validated the same way', () => {
    expect(parseViewState({ view: 'spectrum', percentiles: ['50', '99.9'], q: 2000, bogus: 1 })).toEqual({
      state: { view: 'spectrum', percentiles: ['50', '99.9'], quantum_ms: 2000, quantumPinned: true },
      notes: ['unknown field "bogus" ignored'],
    });
    expect(parseViewState('view=surface&palette=magma').state).toEqual({ view: 'surface', palette: 'magma' });
    expect(parseViewState({ view: '<svg onload=alert(1)>' }).state).toEqual({});
    expect(parseViewState([1, 2]).notes.length).toBe(1);
    expect(parseViewState(undefined)).toEqual({ state: {}, notes: [] });
  });
});
