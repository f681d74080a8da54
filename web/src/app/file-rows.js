// Pieces of the sidebar's file lists (file-table.js, trust-rows.js): rows
// cut into tables of a few dozen (so the browser lays out only what is in
// view), the name cell (whole, wrapping at separators), the collapsed list of files that
// are no latency log, and the folder every name shares.
import { breakPoints } from './names.js';

/** Rows per table of the file list (chunkTables). */
const CHUNK_ROWS = 40;

/** A row's height in px (11.5 px text, padding, border), the size a table not laid out yet holds. */
const ROW_PX = 25;

/** A trust line's or an editor row's height in px, for the same estimate. */
const ATTACHED_PX = 16;

/** A row that belongs to the file row above it: its offset editor, its trust line. @param {HTMLTableRowElement} tr */
export function attached(tr) {
  return tr.classList.contains('offset-editor') || tr.classList.contains('trust-line');
}

/**
 * The file list as tables of CHUNK_ROWS files, the first with the header,
 * each later one in a box that the browser lays out only when it is
 * scrolled into view (content-visibility). With fixed table layout and the
 * same columns, the tables line up as one. A 200-file table laid out whole
 * took 50-170 ms of one task after each load (docs/page-views.md "The
 * load's longest task"); a list of up to CHUNK_ROWS files is one table.
 * A file's trust line and offset editor stay in its table and do not count.
 * @param {Document} doc @param {HTMLTableRowElement[]} rows @param {string} cols @param {string} head
 */
export function chunkTables(doc, rows, cols, head) {
  /** @type {HTMLElement[]} */
  const out = [];
  let i = 0;
  do {
    let end = i;
    let files = 0;
    let px = 0;
    while (end < rows.length && (files < CHUNK_ROWS || attached(rows[end]))) {
      if (attached(rows[end])) px += ATTACHED_PX;
      else {
        files++;
        px += ROW_PX;
      }
      end++;
    }
    const table = doc.createElement('table');
    table.className = 'file-table';
    table.innerHTML = i === 0 ? cols + head : cols;
    const tb = doc.createElement('tbody');
    tb.append(...rows.slice(i, end));
    table.appendChild(tb);
    if (i === 0) out.push(table);
    else {
      const box = doc.createElement('div');
      box.className = 'file-chunk';
      // Its rows' height until it is first laid out (then the one it had):
      // a short last table holding 40 rows' place left blank space to scroll to.
      box.style.containIntrinsicSize = `auto ${px}px`;
      box.appendChild(table);
      out.push(box);
    }
    i = end;
  } while (i < rows.length);
  return out;
}

/**
 * The collapsed list of files that are no latency log (ignoredList; a
 * report's inputs, renderReportInputs).
 * @param {Document} doc @param {{name: string, what: string}[]} rows @param {(name: string) => string} short
 * @returns {HTMLDetailsElement | null}
 */
export function ignoredRows(doc, rows, short) {
  if (!rows.length) return null;
  const det = doc.createElement('details');
  det.className = 'ignored-files';
  det.dataset.testid = 'ignored-files';
  const sum = doc.createElement('summary');
  sum.textContent = `${rows.length} file${rows.length > 1 ? 's' : ''} ignored (not latency logs)`;
  det.appendChild(sum);
  const ul = doc.createElement('ul');
  for (const r of rows) {
    const li = doc.createElement('li');
    li.dataset.file = r.name;
    const n = doc.createElement('span');
    n.className = 'name';
    n.textContent = short(r.name);
    n.title = r.name;
    const w = doc.createElement('span');
    w.className = 'what';
    w.textContent = r.what;
    li.append(n, w);
    ul.appendChild(li);
  }
  det.appendChild(ul);
  return det;
}

/**
 * The folder every name is in ("run/" for run/a.log and run/h2/b.log), or ''.
 * @param {string[]} names
 */
export function commonFolder(names) {
  if (!names.length) return '';
  let p = names[0].slice(0, names[0].lastIndexOf('/') + 1);
  for (const n of names) while (p && !n.startsWith(p)) p = p.slice(0, p.slice(0, -1).lastIndexOf('/') + 1);
  return p;
}

/**
 * The file name cell: the whole (shortened-folder) name, never cut. A name
 * longer than the column wraps after its separators (`_ . - /`), so
 * `h1_clat_hist.1.log.127.0.0.1` reads whole on two lines: cutting its
 * middle showed `h.1.log.127.0.0.1`, a name no file has.
 * @param {HTMLTableRowElement} tr @param {string} text @param {string} title
 */
export function nameCell(tr, text, title) {
  const doc = tr.ownerDocument;
  const td = doc.createElement('td');
  td.className = 'name';
  td.title = title;
  for (const [i, part] of breakPoints(text).entries()) {
    if (i) td.appendChild(doc.createElement('wbr'));
    td.append(part);
  }
  tr.appendChild(td);
  return td;
}

/** @param {HTMLTableRowElement} tr @param {string} text @param {string} [cls] */
export function cell(tr, text, cls) {
  const td = tr.ownerDocument.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}
