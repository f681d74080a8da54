// Turns what the page receives (a FileList from <input multiple> or
// <input webkitdirectory>, a drag-and-drop DataTransfer with files and
// folders) into one flat, sorted list of load items for engine.loadFiles().
//
// Items keep the path relative to the dropped/picked folder as their name:
// per-host folders often hold identically named logs
// (hostA/s1_clat_hist.1.log, hostB/s1_clat_hist.1.log), and the path is what
// tells them apart in the file list and in exclude_sources.

/**
 * @typedef {object} LoadItem
 * @property {Blob} file   the bytes (a File, or any Blob)
 * @property {string} name  relative path or file name shown and used as Source name
 */

/** Hidden and OS bookkeeping files are never latency logs. */
const IGNORED = /(^|\/)(\.[^/]*|__MACOSX|Thumbs\.db|desktop\.ini)(\/|$)/;

/** @param {string} path */
export function isIgnoredPath(path) {
  return IGNORED.test(path);
}

/**
 * Normalises File | Blob | LoadItem into a LoadItem.
 * @param {File | Blob | LoadItem} f
 * @returns {LoadItem}
 */
export function toLoadItem(f) {
  if (f && typeof f === 'object' && 'file' in f && f.file instanceof Blob) {
    return { file: f.file, name: String(f.name ?? /** @type {any} */ (f.file).name ?? 'unnamed') };
  }
  const blob = /** @type {Blob & {name?: string, webkitRelativePath?: string}} */ (f);
  return { file: blob, name: blob.webkitRelativePath || blob.name || 'unnamed' };
}

/**
 * Orders items by name (code-unit order, as the shell sorts `latscope pctiles dir/*`
 * in the C locale) and drops hidden files and exact duplicates.
 * @param {LoadItem[]} items
 * @returns {LoadItem[]}
 */
export function sortItems(items) {
  const seen = new Set();
  const out = [];
  for (const it of items) {
    if (isIgnoredPath(it.name) || seen.has(it.name)) continue;
    seen.add(it.name);
    out.push(it);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * From <input type=file multiple> or <input webkitdirectory>.
 * @param {FileList | File[]} list
 * @returns {LoadItem[]}
 */
export function itemsFromFileList(list) {
  return sortItems(Array.from(list, toLoadItem));
}

/**
 * From a drop event's DataTransfer: files and (recursively) folders. Must be
 * called synchronously inside the drop handler (the entries die with it);
 * the returned promise may be awaited later.
 * @param {DataTransfer} dt
 * @returns {Promise<LoadItem[]>}
 */
export function itemsFromDataTransfer(dt) {
  /** @type {Promise<LoadItem[]>[]} */
  const jobs = [];
  /** @type {File[]} */
  const plain = [];
  const items = dt.items ? Array.from(dt.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) jobs.push(walkEntry(entry));
    else {
      const f = item.getAsFile();
      if (f) plain.push(f);
    }
  }
  if (items.length === 0 && dt.files) plain.push(...Array.from(dt.files));
  return Promise.all(jobs).then((lists) => sortItems([...plain.map(toLoadItem), ...lists.flat()]));
}

/**
 * @param {FileSystemEntry} entry
 * @returns {Promise<LoadItem[]>}
 */
async function walkEntry(entry) {
  const path = entry.fullPath.replace(/^\//, '') || entry.name;
  if (isIgnoredPath(path)) return [];
  if (entry.isFile) {
    const file = await new Promise((resolve, reject) =>
      /** @type {FileSystemFileEntry} */ (entry).file(resolve, reject),
    );
    return [{ file, name: path }];
  }
  if (!entry.isDirectory) return [];
  const reader = /** @type {FileSystemDirectoryEntry} */ (entry).createReader();
  /** @type {FileSystemEntry[]} */
  const children = [];
  // readEntries returns at most ~100 entries per call; read until empty.
  for (;;) {
    const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    children.push(...batch);
  }
  const lists = await Promise.all(children.map(walkEntry));
  return lists.flat();
}
