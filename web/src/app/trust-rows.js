// What the engine's trust summary (core Engine::trust, docs/folders.md)
// adds to the file lists: each log's fio version, unit, account and I/Os
// against fio's json+ count as a line under its row, the account control
// above the table, and the files an embedded report was made from.
import { ignoredRows, nameCell, cell, commonFolder, chunkTables } from './file-rows.js';
import { ACCOUNTS } from './options.js';
import { formatNumber } from '../util/format.js';
import { naturalCompare } from '../util/natural-order.js';

/**
 * The account control above the table: which log counts the I/Os of a job
 * that has both a histogram and a per-I/O log (the queries' "accounts",
 * `latscope --account`). Shown when the loaded files have such a job (a
 * trust row names the file used instead); otherwise the choice changes
 * nothing and the control would only raise a question.
 * @param {HTMLElement | null} el @param {import('../engine/inthread.js').TrustRow[] | null | undefined} trust
 * @param {string} account the state's @param {(account: 'per-io' | 'hist') => void} onChange
 */
export function renderAccountChoice(el, trust, account, onChange) {
  if (!el) return;
  const both = (trust ?? []).filter((t) => t.used_instead);
  el.hidden = !both.length;
  if (!both.length) {
    el.replaceChildren();
    return;
  }
  const doc = el.ownerDocument;
  const label = doc.createElement('label');
  label.title = 'A job with both a histogram log and a per-I/O log: which one counts its I/Os (never both: that would count each I/O twice). latscope --account per-io|hist';
  label.append('I/Os counted by ');
  const sel = doc.createElement('select');
  sel.dataset.testid = 'account';
  for (const [v, text] of ACCOUNTS) {
    const o = doc.createElement('option');
    o.value = v;
    o.textContent = text;
    sel.appendChild(o);
  }
  sel.value = account === 'hist' ? 'hist' : 'per-io';
  sel.addEventListener('change', () => onChange(sel.value === 'hist' ? 'hist' : 'per-io'));
  label.appendChild(sel);
  const n = both.length;
  const note = doc.createElement('div');
  note.className = 'muted';
  note.textContent = `${n} file${n === 1 ? '' : 's'} not added: another log counts the same I/Os.`;
  el.replaceChildren(label, note);
}

/**
 * The trust fields of one file (core TrustRow, docs/folders.md), as text
 * and tooltips. Pure: unit-tested without a page.
 * @param {import('../engine/inthread.js').TrustRow} t
 * @param {(name: string) => string} short a file name as the table shows it
 * @param {string} [format] the source's format ('fio-json', 'result', ...)
 */
export function trustCells(t, short = (n) => n, format = '') {
  const notAdded = !!t.used_instead;
  // "fio-3.33" from json+; "fio 3 (1856 bins)" inferred from a log's layout:
  // "fio 3", the why is the tooltip.
  const fio = t.fio_version.replace(/ \(.*\)$/, '');
  const fioTitle = !t.fio_version
    ? 'fio version unknown'
    : /^fio-/.test(t.fio_version)
      ? `${t.fio_version} (fio's json+ output of this run)`
      : `${t.fio_version}: inferred from the log itself (no fio json+ output of this run)`;
  const unitNotes = t.notes.filter((n) => !n.startsWith('not added') && !n.startsWith('not read'));
  const unit = t.unit === 'us' ? 'µs' : t.unit;
  const unitTitle = [t.unit ? `values written in ${unit}` : 'no latency values of its own', ...unitNotes].join('\n');
  /** @type {Record<string, string>} */
  const ACCOUNT = { hist: 'histogram', 'per-io': 'per-I/O', avg: 'averages' };
  const account = notAdded ? `not added: counted by ${short(t.used_instead)}` : ACCOUNT[t.account] ?? '';
  const accountTitle = notAdded
    ? t.notes.filter((n) => n.startsWith('not added') || n.startsWith('not read')).join('\n') || `not added: ${t.used_instead} counts the same I/Os`
    : t.account === 'hist'
      ? 'a fio histogram log: its jobs\' I/Os are counted from it (windows of bin counts)'
      : t.account === 'per-io'
        ? 'a fio per-I/O log: its jobs\' I/Os are counted from it (every I/O, exact)'
        : t.account === 'avg'
          ? 'a fio log of window averages (log_avg_msec): no I/O counts'
          : t.what;
  let ios = '';
  let iosTitle = '';
  // I/Os of fio's logs (what is checked against fio's count) and fio's
  // json+ count itself. Not of other files: a result's row counts its
  // fixed-point bins, not I/Os (the engine's trust gives 2^28 per I/O).
  if (!notAdded && t.ios > 0 && (t.account || format === 'fio-json')) {
    if (t.compared) {
      ios = `${formatNumber(t.ios)} of ${formatNumber(t.fio_ios)}`;
      iosTitle = `holds ${formatNumber(t.ios)} of the ${formatNumber(t.fio_ios)} I/Os fio counted (its json+ output)${t.account === 'hist' ? '; fio never logs a job\'s last, partial window, so a histogram log holds a little less' : ''}`;
    } else {
      ios = formatNumber(t.ios);
      iosTitle = t.account ? `${formatNumber(t.ios)} I/Os; fio's own count is not among the files (its json+ output), so it is not compared` : `${formatNumber(t.ios)} I/Os`;
    }
  }
  return {
    fio: { text: fio, title: fioTitle },
    unit: { text: unit, title: unitTitle },
    account: { text: account, title: accountTitle },
    ios: { text: ios, title: iosTitle },
    notAdded,
    warnings: t.warnings.slice(),
    doubtful: t.doubtful,
  };
}

/** A trust row of a file that is no latency log (core trust.cc what_of: "not a latency log (fio job file)"). */
const NOT_A_LOG = /^not a latency log(?: \((.*)\))?$/;

/**
 * The files a report was made from (`latscope report` embeds their trust
 * summary beside the result: docs/page-loading.md §6), under the file
 * table: the page holds only the result, so this is where a reader sees
 * which logs counted its I/Os and how far to trust them. Each input is a
 * name row with the same trust line as a loaded file (trustCells,
 * trustLine): fio version, unit, account or "not added: counted by X",
 * I/Os of fio's count, warnings as text, doubtful rows marked. Files that
 * are no latency log go to the same collapsed list as the table's. No
 * checkbox, offset or account control: the report's choices are made,
 * these files are not in the page. Text only (textContent).
 * @param {HTMLElement | null} el @param {import('../engine/inthread.js').TrustRow[] | null | undefined} rows
 * @param {number} [dropped] rows of the embedded summary that could not be read (embedded-data.js)
 */
export function renderReportInputs(el, rows, dropped = 0) {
  if (!el) return;
  el.hidden = !rows;
  if (!rows) {
    el.replaceChildren();
    return;
  }
  const doc = el.ownerDocument;
  const short = (() => {
    const common = commonFolder(rows.map((r) => r.file));
    return (/** @type {string} */ name) => name.slice(common.length) || name;
  })();
  const logs = [...rows].filter((r) => !NOT_A_LOG.test(r.what)).sort((a, b) => naturalCompare(a.file, b.file));
  const ignored = rows.filter((r) => NOT_A_LOG.test(r.what)).map((r) => ({ name: r.file, what: r.what.replace(NOT_A_LOG, (_, w) => w || 'not a latency log') }));
  const head = doc.createElement('h3');
  head.className = 'inputs-head';
  head.textContent = 'Made from';
  const count = doc.createElement('span');
  count.className = 'muted';
  const n = rows.length;
  const doubtful = rows.filter((r) => r.doubtful).length;
  const unusable = rows.filter((r) => !r.ok).length;
  count.textContent = ` ${formatNumber(n)} file${n === 1 ? '' : 's'}`;
  head.appendChild(count);
  // How many are doubtful, in the heading: the reader of a report sees it
  // before reading any line (the lines say which and why).
  for (const [k, text] of /** @type {[number, string][]} */ ([[doubtful, 'doubtful'], [unusable, 'unusable']])) {
    if (!k) continue;
    const b = doc.createElement('strong');
    b.className = 'inputs-bad';
    b.textContent = ` · ${formatNumber(k)} ${text}`;
    head.appendChild(b);
  }
  const what = doc.createElement('div');
  what.className = 'muted inputs-what';
  what.textContent = 'latscope report made the result above from these files; the page holds the result, not the files.';
  /** @type {HTMLTableRowElement[]} */
  const trs = [];
  for (const t of logs) {
    const tr = doc.createElement('tr');
    tr.dataset.input = t.file;
    tr.appendChild(doc.createElement('td'));
    nameCell(tr, short(t.file), t.what ? `${t.file}\n${t.what}` : t.file);
    // trustCells shows an I/O count for fio's logs and fio's json+ (not
    // for a result's fixed-point bins); the row says json+ by its `what`.
    const tc = trustCells(t, short, t.what.startsWith('fio json') ? 'fio-json' : '');
    if (!t.ok) {
      // An input the report could not use: not in the result, said as text.
      tr.classList.add('file-error');
      tc.warnings.unshift('not usable: left out of the result');
    }
    trs.push(tr);
    const line = trustLine(tr, t.file, tc, 2);
    if (line) trs.push(line);
  }
  /** @type {HTMLElement[]} */
  const parts = [head, what];
  if (trs.length) parts.push(...chunkTables(doc, trs, '<colgroup><col class="c-inc"><col class="c-name"></colgroup>', ''));
  const ig = ignoredRows(doc, ignored, short);
  if (ig) parts.push(ig);
  if (dropped) {
    const d = doc.createElement('div');
    d.className = 'file-warn-msg';
    d.textContent = `${formatNumber(dropped)} input${dropped === 1 ? '' : 's'} of the page's data could not be read and ${dropped === 1 ? 'is' : 'are'} not shown (the browser console says why).`;
    parts.push(d);
  }
  el.replaceChildren(...parts);
}

/**
 * The trust line under a file's row: its fio version, unit, account and
 * I/Os against fio's count as labelled text fields (class fio, unit, acct,
 * ios), then each warning on its own line, readable without hovering. A
 * file with warnings has its row marked (class trust-warn, a ⚠), a doubtful
 * one (its numbers disagree with fio's, or its fio version is known to log
 * them wrong; docs/folders.md) more so (trust-doubtful, ✗ doubtful). Null
 * when the summary has nothing to say about the file.
 * @param {HTMLTableRowElement} tr the file's row @param {string} name
 * @param {ReturnType<typeof trustCells>} tc @param {number} span columns
 * @param {boolean} [withFacts] the fields as text too (false: the file table shows them as columns)
 * @returns {HTMLTableRowElement | null}
 */
export function trustLine(tr, name, tc, span, withFacts = true) {
  const doc = tr.ownerDocument;
  /** @type {[string, string, {text: string, title: string}][]} label, class, field */
  const fields = [
    ['', 'fio', tc.fio],
    ['', 'unit', tc.unit],
    ['', tc.notAdded ? 'acct not-added' : 'acct', tc.account],
    ['I/Os ', 'ios', tc.ios],
  ];
  const shown = withFacts ? fields.filter(([, , f]) => f.text) : [];
  const warn = tc.warnings.length > 0 || tc.doubtful;
  if (tc.notAdded) tr.classList.add('not-added');
  if (!shown.length && !warn) return null;
  const row = doc.createElement('tr');
  row.className = 'trust-line';
  // Not data-file: that names the file's own row (tests, offsets, the pending-row update).
  row.dataset.trustFor = name;
  row.appendChild(doc.createElement('td'));
  const td = doc.createElement('td');
  td.colSpan = span - 1;
  // The fields sit in fixed grid columns (main.css .trust-facts), so that
  // down the table they line up like columns; the separators, hidden
  // there, keep the text readable when copied.
  const facts = doc.createElement('div');
  facts.className = 'trust-facts';
  shown.forEach(([label, cls, f], i) => {
    if (i) {
      const sep = doc.createElement('span');
      sep.className = 'sep';
      sep.textContent = ' · ';
      facts.appendChild(sep);
    }
    const el = doc.createElement('span');
    el.className = cls;
    el.textContent = f.text;
    if (f.title) el.title = f.title;
    if (!label) {
      facts.appendChild(el);
      return;
    }
    const box = doc.createElement('span');
    box.className = `${cls}-cell`;
    box.append(label, el);
    if (f.title) box.title = f.title;
    facts.appendChild(box);
  });
  if (shown.length) td.appendChild(facts);
  if (warn) {
    const kind = tc.doubtful ? 'doubtful' : 'warn';
    tr.classList.add(`trust-${kind}`);
    row.classList.add(kind);
    const lines = tc.warnings.length ? tc.warnings : ["its numbers disagree with fio's own count"];
    for (const [i, w] of lines.entries()) {
      const d = doc.createElement('div');
      d.className = 'trust-warning';
      // The mark says how bad, as text (not colour alone).
      const mark = doc.createElement('strong');
      mark.className = 'trust-mark';
      mark.textContent = i === 0 && tc.doubtful ? '✗ doubtful: ' : '⚠ ';
      d.append(mark, w);
      td.appendChild(d);
    }
  }
  row.appendChild(td);
  return row;
}
