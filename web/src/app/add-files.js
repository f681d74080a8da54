// Adding files to what is loaded (docs/page-views.md, "Runs and A/B"): the
// "Add files…" button keeps the loaded files and adds the picked ones; a drop
// onto a page that has files asks whether to replace or add. Adding reloads
// the whole set, so runs are planned over every file (docs/runs.md) exactly
// as if all had been opened at once.

/** @typedef {import('../load/files.js').LoadItem} LoadItem */

/**
 * The loaded items followed by the added ones. The same path picked again is
 * the same file and replaces the loaded one; a file of another pick that
 * only shares the name (two picks of "a_clat_hist.1.log" from different
 * folders) is kept under "added-N/NAME", so both stay apart in the file
 * table, in exclude_sources and in the run plan (a folder is no evidence of
 * a run on its own, docs/runs.md).
 * @param {LoadItem[]} loaded @param {LoadItem[]} added
 * @returns {LoadItem[]}
 */
export function mergeItems(loaded, added) {
  const out = loaded.slice();
  const names = new Set(out.map((it) => it.name));
  for (const it of added) {
    const at = out.findIndex((x) => x.name === it.name);
    if (at >= 0 && sameFile(out[at].file, it.file)) {
      out[at] = it;
      continue;
    }
    let name = it.name;
    for (let k = 2; names.has(name); k++) name = `added-${k}/${it.name}`;
    names.add(name);
    out.push({ file: it.file, name });
  }
  return out;
}

/** @param {Blob} a @param {Blob} b */
function sameFile(a, b) {
  const fa = /** @type {any} */ (a);
  const fb = /** @type {any} */ (b);
  return a === b || (a.size === b.size && fa.lastModified !== undefined && fa.lastModified === fb.lastModified);
}

/**
 * Asks whether dropped files replace the loaded ones or are added to them.
 * A modal <dialog>: focus starts on "Add", Escape cancels, Tab moves
 * between the buttons (the browser keeps focus inside a modal dialog).
 * @param {Document} doc @param {number} loaded files loaded now @param {number} incoming
 * @returns {Promise<'add' | 'replace' | null>}
 */
export function askReplaceOrAdd(doc, loaded, incoming) {
  return new Promise((resolve) => {
    const dlg = doc.createElement('dialog');
    dlg.className = 'add-or-replace';
    dlg.dataset.testid = 'add-or-replace';
    const p = doc.createElement('p');
    p.textContent = `${loaded} file${loaded === 1 ? ' is' : 's are'} loaded. Add the ${incoming} new file${incoming === 1 ? '' : 's'} to them, or replace them?`;
    dlg.appendChild(p);
    const row = doc.createElement('div');
    row.className = 'dialog-buttons';
    /** @param {string} text @param {'add'|'replace'|null} v @param {string} id */
    const button = (text, v, id) => {
      const b = doc.createElement('button');
      b.type = 'button';
      b.className = 'button';
      b.textContent = text;
      b.dataset.testid = id;
      b.addEventListener('click', () => done(v));
      row.appendChild(b);
      return b;
    };
    const add = button('Add', 'add', 'choice-add');
    add.classList.add('primary');
    button('Replace', 'replace', 'choice-replace');
    button('Cancel', null, 'choice-cancel');
    dlg.appendChild(row);
    let settled = false;
    /** @param {'add'|'replace'|null} v */
    const done = (v) => {
      if (settled) return;
      settled = true;
      dlg.close();
      dlg.remove();
      resolve(v);
    };
    dlg.addEventListener('cancel', () => done(null));
    doc.body.appendChild(dlg);
    dlg.showModal();
    add.focus();
  });
}
