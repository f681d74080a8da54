// Pure summaries of engine Source objects for the file and host tables.

/**
 * @param {any} src Source from engine.loadFiles
 * @returns {{ok: boolean, message: string, format: string, host: string, jobs: string, dirs: string, records: string, repaired: string, skipped: number, skippedDetail: string, notes: string}}
 */
export function fileSummary(src) {
  const series = src.series || [];
  const ok = !!(src.status ? src.status.ok : true);
  const uniq = (/** @type {string[]} */ xs) => [...new Set(xs.filter((x) => x !== '' && x != null))];
  const dirs = uniq(series.map((/** @type {any} */ s) => s.dir));
  const jobs = uniq(series.map((/** @type {any} */ s) => s.job));
  const rep = series.map((/** @type {any} */ s) => !!s.repaired);
  const issues = (src.issues || []).filter((/** @type {any} */ i) => i.count > 0);
  // Lines are dropped by issues of severity error; warnings adjust values
  // (repair, saturation, merged duplicates); info is a note.
  const skipped = issues.filter((/** @type {any} */ i) => i.severity === 'error').reduce((/** @type {number} */ a, /** @type {any} */ i) => a + i.count, 0);
  const ex = src.examples || [];
  const describe = (/** @type {any[]} */ list) => list
    .map((/** @type {any} */ i) => {
      const e = ex.find((/** @type {any} */ x) => x.issue === i.name);
      // Examples not tied to a line (line 0: a series-level note) show no position.
      const at = e && e.line ? `line ${e.line}${e.column ? `, column ${e.column}` : ''}: ` : '';
      const where = e ? ` (e.g. ${at}${String(e.text).slice(0, 60)})` : '';
      return `${i.count} × ${i.description || i.name}${where}`;
    })
    .join('; ');
  // The warning list shows skipped lines and warnings other than the repair,
  // which has its own column (its text is that cell's tooltip).
  const detail = describe(issues.filter((/** @type {any} */ i) => i.severity === 'error' || (i.severity === 'warning' && i.name !== 'repaired')));
  const notes = describe(issues.filter((/** @type {any} */ i) => i.severity === 'info' || i.name === 'repaired'));
  return {
    ok,
    message: src.status?.message || '',
    format: src.format ? `${src.format}${src.layout ? ` (${src.layout})` : ''}` : '?',
    host: src.host || (src.format === 'fio-json' ? 'whole run' : ''),
    jobs: jobs.join(',') || src.job || '',
    dirs: dirs.map((d) => (d === 'read' ? 'r' : d === 'write' ? 'w' : d === 'trim' ? 't' : d)).join(''),
    records: thousands(Number(src.records || 0)),
    repaired: !series.length ? '' : rep.every(Boolean) ? 'yes' : rep.some(Boolean) ? 'partly' : 'no',
    skipped,
    skippedDetail: detail,
    notes,
  };
}

/**
 * Hosts of the usable sources with their file counts, sorted by name.
 * @param {any[]} sources @returns {{host: string, files: number}[]}
 */
export function hostsOf(sources) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const s of sources) {
    if (s.status && !s.status.ok) continue;
    // fio json output holds whole-run histograms of several hosts; it is not
    // part of the time views, so it has no host row (and no offset) here.
    if (s.format === 'fio-json') continue;
    m.set(s.host || '', (m.get(s.host || '') || 0) + 1);
  }
  return [...m.entries()].sort((a, b) => a[0].localeCompare(b[0], 'en', { numeric: true })).map(([host, files]) => ({ host, files }));
}

/** 1234567 -> "1,234,567" (toLocaleString is slow: ICU per call). @param {number} n */
export function thousands(n) {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
