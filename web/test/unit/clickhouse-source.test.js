// `#clickhouse=` (load/clickhouse.js, docs/cluster-merge.md section 5): the
// value becomes the GET the page fetches, with the SQL built from checked
// parts; what a link may not carry is refused with a sentence.
import { describe, it, expect } from 'vitest';
import { clickhouseQueryUrl } from '../../src/load/clickhouse.js';
import { parseFragment } from '../../src/app/url-state.js';

const CH = 'http://ch1.example:8123/';

describe('#clickhouse=', () => {
  it('builds the documented query for a table or view', () => {
    expect(clickhouseQueryUrl(`${CH}?user=page&table=latscope.cluster_cells`)).toBe(
      `${CH}?user=page&query=SELECT%20*%20FROM%20latscope.cluster_cells%20FORMAT%20TSVWithNames`,
    );
  });

  it('a time range becomes a WHERE on t_ms', () => {
    const u = new URL(clickhouseQueryUrl(`${CH}?table=latscope.cluster_cells&from=60000&to=120000.5`));
    expect(u.searchParams.get('user')).toBe(null);
    expect(u.searchParams.get('query')).toBe('SELECT * FROM latscope.cluster_cells WHERE t_ms >= 60000 AND t_ms < 120000.5 FORMAT TSVWithNames');
  });

  it('refuses passwords, unknown parameters, names that are not names and times that are not numbers', () => {
    expect(() => clickhouseQueryUrl(`${CH}?user=page&password=x&table=t`)).toThrow(/password is not taken from a link/);
    expect(() => clickhouseQueryUrl('http://page:x@ch1.example:8123/?table=t')).toThrow(/password/);
    expect(() => clickhouseQueryUrl(`${CH}?table=t&query=DROP%20TABLE%20t`)).toThrow(/unknown parameter "query"/);
    expect(() => clickhouseQueryUrl(`${CH}?table=t;DROP%20TABLE%20t`)).toThrow(/is not a name/);
    expect(() => clickhouseQueryUrl(`${CH}?table=a.b.c`)).toThrow(/is not a name/);
    expect(() => clickhouseQueryUrl(`${CH}?user=page`)).toThrow(/table "" is not a name/);
    expect(() => clickhouseQueryUrl(`${CH}?table=t&from=1e3`)).toThrow(/from="1e3" is not a time in ms/);
    expect(() => clickhouseQueryUrl('file:///etc/passwd?table=t')).toThrow(/http or https/);
  });

  it('is read from the fragment as a URL to load; a bad value is a note', () => {
    const value = `${CH}?user=page&table=latscope.cluster_cells`;
    const f = parseFragment(`#v=1&clickhouse=${encodeURIComponent(value)}`);
    expect(f.urls).toEqual([clickhouseQueryUrl(value)]);
    expect(f.notes).toEqual([]);
    const bad = parseFragment(`#clickhouse=${encodeURIComponent(`${CH}?table=x&password=y`)}`);
    expect(bad.urls).toEqual([]);
    expect(bad.notes[0]).toMatch(/^clickhouse= .* ignored: a password is not taken from a link/);
  });
});
