import { yieldToEvents } from '../util/yield.js';
import { LEFT_OUT_FILES, LEFT_OUT_FILE_PREFIX, LEFT_OUT_FOLDERS } from '../model/option-defaults.js';
// Turns what the page receives (a FileList from <input multiple> or
// <input webkitdirectory>, a drag-and-drop DataTransfer with files and
// folders) into one flat, sorted list of load items for engine.loadFiles().
//
// Hidden files and folders are read (a results folder may be .fio-results;
// the engine names whatever is no latency log); only OS bookkeeping files and
// version-control folders are left out, and those are listed with why.
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

/**
 * A path the page does not read, with why. A folder (name ends in "/")
 * stands for every file under it.
 * @typedef {object} SkippedItem
 * @property {string} name
 * @property {string} reason
 * @property {number} files  files under it (0 when a dropped folder was not walked)
 */

/**
 * The items to load and what was left out. Hidden files and folders are
 * loaded like any other (a results folder may be called .fio-results); the
 * engine names what is no latency log. Only OS bookkeeping and
 * version-control folders are left out, and they are listed.
 * @typedef {object} ItemSelection
 * @property {LoadItem[]} items
 * @property {SkippedItem[]} skipped
 */


/** @type {Readonly<Record<string, string>>} */
const FOLDERS = LEFT_OUT_FOLDERS;
/** @type {Readonly<Record<string, string>>} */
const FILES = LEFT_OUT_FILES;

/**
 * Why a path is not read, or '' when it is: core's rule (folder.h
 * walk_left_out, its names in the generated module), which the CLI applies
 * to a folder named on its command line. For a left-out folder, `at` is
 * its path (ending in "/") so that its files are listed once.
 * @param {string} path
 * @returns {{reason: string, at: string}}
 */
export function skipReason(path) {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    if (Object.hasOwn(FOLDERS, parts[i])) return { reason: FOLDERS[parts[i]], at: `${parts.slice(0, i + 1).join('/')}/` };
  }
  const base = parts[parts.length - 1];
  if (Object.hasOwn(FILES, base)) return { reason: FILES[base], at: path };
  if (base.startsWith(LEFT_OUT_FILE_PREFIX.prefix)) return { reason: LEFT_OUT_FILE_PREFIX.reason, at: path };
  return { reason: '', at: '' };
}

/** @param {string} path */
export function isIgnoredPath(path) {
  return skipReason(path).reason !== '';
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
 * in the C locale), drops exact duplicates and lists what skipReason leaves out.
 * @param {LoadItem[]} items
 * @param {SkippedItem[]} [skipped] already left out (folders not walked)
 * @returns {ItemSelection}
 */
export function selectItems(items, skipped = []) {
  const seen = new Set();
  const out = [];
  /** @type {Map<string, SkippedItem>} */
  const left = new Map(skipped.map((s) => [s.name, { ...s }]));
  for (const it of items) {
    const why = skipReason(it.name);
    if (why.reason) {
      const s = left.get(why.at) ?? { name: why.at, reason: why.reason, files: 0 };
      s.files++;
      left.set(why.at, s);
      continue;
    }
    if (seen.has(it.name)) continue;
    seen.add(it.name);
    out.push(it);
  }
  const byName = (/** @type {{name: string}} */ a, /** @type {{name: string}} */ b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return { items: out.sort(byName), skipped: [...left.values()].sort(byName) };
}

/**
 * selectItems without the list of what was left out.
 * @param {LoadItem[]} items
 * @returns {LoadItem[]}
 */
export function sortItems(items) {
  return selectItems(items).items;
}

/**
 * From <input type=file multiple> or <input webkitdirectory>.
 * @param {FileList | File[]} list
 * @returns {ItemSelection}
 */
export function itemsFromFileList(list) {
  return selectItems(Array.from(list, toLoadItem));
}

/**
 * From a drop event's DataTransfer: files and (recursively) folders. Must be
 * called synchronously inside the drop handler (the entries die with it);
 * the returned promise may be awaited later.
 * @param {DataTransfer} dt
 * @returns {Promise<ItemSelection>}
 */
export function itemsFromDataTransfer(dt) {
  /** @type {Promise<LoadItem[]>[]} */
  const jobs = [];
  /** Folders left out without walking them. @type {SkippedItem[]} */
  const notWalked = [];
  /** @type {File[]} */
  const plain = [];
  const items = dt.items ? Array.from(dt.items) : [];
  for (const item of items) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) jobs.push(walkEntry(entry, notWalked));
    else {
      const f = item.getAsFile();
      if (f) plain.push(f);
    }
  }
  if (items.length === 0 && dt.files) plain.push(...Array.from(dt.files));
  return Promise.all(jobs).then((lists) => selectItems([...plain.map(toLoadItem), ...lists.flat()], notWalked));
}

/**
 * @param {FileSystemEntry} entry
 * @param {SkippedItem[]} notWalked  receives the folders left out
 * @returns {Promise<LoadItem[]>}
 */
async function walkEntry(entry, notWalked) {
  const path = entry.fullPath.replace(/^\//, '') || entry.name;
  if (entry.isDirectory) {
    const why = skipReason(`${path}/x`);
    if (why.reason && why.at === `${path}/`) {
      notWalked.push({ name: why.at, reason: why.reason, files: 0 });
      return [];
    }
  }
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
  const lists = await Promise.all(children.map((c) => walkEntry(c, notWalked)));
  return lists.flat();
}

/**
 * Asks for every item's size, a few files per task. The first read of a
 * picked or dropped File's size is a synchronous round trip to the browser
 * (about 1 ms each in Chromium); 200 files read in one go made the load's
 * first task 300-440 ms long (docs/page-views.md "The load's longest task"). Later reads (the
 * progress total, the workers' parse requests) are then immediate.
 * @param {LoadItem[]} items @param {number} [perTask]
 */
export async function statItems(items, perTask = 16) {
  let bytes = 0;
  for (let i = 0; i < items.length; i += perTask) {
    if (i > 0) await yieldToEvents();
    for (const it of items.slice(i, i + perTask)) bytes += it.file.size;
  }
  return bytes;
}
