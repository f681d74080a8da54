// Local files after a reload. A page cannot read the user's files again by
// itself: a reload keeps the view state (the fragment) but loses the data.
// The names of the files last opened are kept in this tab's sessionStorage,
// so the reloaded page says which files to reopen, and reopening exactly
// those applies the fragment's view state after the load, the zoom,
// exclusions and offsets included (docs/page-loading.md, "Reloading a page
// of local files"). Names only: never the files' bytes.

const KEY = 'latscope-local-files';

/** Names listed in the hint at most (the rest are counted). */
const SHOWN = 6;

/** Names kept at most (a folder of thousands: the hint counts them all). */
const KEPT = 10000;

/**
 * @param {Storage | undefined} storage @returns {string[] | null} the names last opened in this tab, or null
 */
export function rememberedFiles(storage) {
  try {
    const v = JSON.parse(storage?.getItem(KEY) ?? 'null');
    return Array.isArray(v?.names) && v.names.length && v.names.every((/** @type {unknown} */ n) => typeof n === 'string') ? v.names : null;
  } catch {
    return null; // storage refused (sandboxed frame) or not ours
  }
}

/**
 * Keeps the names of local files just opened; forgets them when null.
 * @param {Storage | undefined} storage @param {string[] | null} names
 */
export function rememberFiles(storage, names) {
  try {
    if (names && names.length) storage?.setItem(KEY, JSON.stringify({ names: [...names].sort().slice(0, KEPT) }));
    else storage?.removeItem(KEY);
  } catch {
    /* storage refused or full: no hint after a reload, nothing else lost */
  }
}

/**
 * Whether the files being opened are the ones remembered (the same names).
 * @param {string[]} remembered @param {string[]} names
 */
export function sameFiles(remembered, names) {
  if (remembered.length !== names.length) return false;
  const a = [...remembered].sort();
  const b = [...names].sort();
  return a.every((n, i) => n === b[i]);
}

/** What an empty view says meanwhile. @param {string[]} names */
export function reopenMessage(names) {
  return `Open the ${names.length === 1 ? 'file' : `${names.length} files`} again to see this view`;
}

/**
 * The hint's sentence: which files to reopen.
 * @param {string[]} names
 */
export function reopenText(names) {
  const shown = names.slice(0, SHOWN).join(', ');
  const more = names.length > SHOWN ? ` and ${names.length - SHOWN} more` : '';
  const n = names.length === 1 ? 'the local file' : `${names.length} local files`;
  return `This view showed ${n} ${shown}${more}. A page cannot read your files again by itself after a reload: open ${names.length === 1 ? 'it' : 'them'} again and the view (zoom, exclusions, offsets) comes back.`;
}
