// Loading from URLs (#url=, ?url=): each URL is fetched with progress,
// archives are unpacked (archive.js), and the files become load items like
// picked ones. Several URLs are several runs: each gets its own folder in
// the names (the URL's file name), so identically named logs of runs A and
// B stay apart and "each file" tells them apart.
//
// A fetch refused by CORS rejects with an opaque TypeError ("Failed to
// fetch"), the same as a server that is down. To say which, a second
// request in no-cors mode is made: if it resolves (an opaque response), the
// server answered and only its Access-Control-Allow-Origin header is
// missing, and the message says what it must send.
import { expandDownload } from './archive.js';
import { selectItems } from './files.js';
import { looksLikeHtml, parseListing, MAX_LISTING_PAGES, MAX_LISTING_FILES, MAX_LISTING_DEPTH } from './listing.js';
import { abortError } from '../util/abort.js';

/** An HTML page larger than this is not read as a folder listing. */
const MAX_LISTING_BYTES = 8 * 2 ** 20;

/** The sentence for an HTML page that is no folder listing. @param {string} url */
export function htmlPageText(url) {
  return (
    `${url}: the server sent an HTML page, not a log, an archive or a folder listing. ` +
    'Give the URL of a log file, of a .tar, .tar.gz or .zip of the results folder, ' +
    'or of the folder itself on a server that lists folders (python3 -m http.server, nginx "autoindex on").'
  );
}

/**
 * The listing in `blob` when it is an HTML page: {listing} (null when the
 * page is no folder listing), or null when the bytes are no HTML page.
 * @param {Blob} blob @param {string} url
 */
async function asListing(blob, url) {
  if (!looksLikeHtml(new Uint8Array(await blob.slice(0, 1024).arrayBuffer()))) return null;
  if (blob.size > MAX_LISTING_BYTES) return { listing: null };
  return { listing: parseListing(await blob.text(), url) };
}

/**
 * Follows a folder listing's links (listing.js): every file under it, in
 * its subfolders too, fetched and named `<root>/<path in the folder>`, as
 * a picked folder's files are named. Bounded in pages, files and depth;
 * what was left out is said.
 * @param {NonNullable<ReturnType<typeof parseListing>>} top
 * @param {string} root
 * @param {{signal?: AbortSignal, onProgress?: (p: FetchProgress) => void, fetch?: typeof fetch, pageOrigin?: string, held?: DownloadBudget}} o
 */
async function followListing(top, root, o) {
  /** @type {import('./files.js').LoadItem[]} */
  const items = [];
  /** @type {import('./files.js').SkippedItem[]} */
  const skipped = [];
  /** @type {string[]} */
  const errors = [];
  const queue = [{ listing: top, prefix: '' }];
  let pages = 1;
  let files = 0;
  let folders = 0;
  let left = 0;
  const name = (/** @type {string} */ p) => (root ? `${root}/${p}` : p);
  while (queue.length) {
    const { listing, prefix } = /** @type {{listing: typeof top, prefix: string}} */ (queue.shift());
    for (const f of listing.files) {
      if (files >= MAX_LISTING_FILES) {
        left++;
        continue;
      }
      files++;
      try {
        const blob = await fetchBlob(f.url, o);
        const n = name(prefix + f.path);
        const x = await expandDownload(n, blob, { folder: runName(n), signal: o.signal });
        items.push(...x.items);
        skipped.push(...x.skipped);
        if (x.note) errors.push(`${n}: ${x.note}`);
      } catch (e) {
        if (/** @type {Error} */ (e).name === 'AbortError') throw e;
        errors.push(/** @type {Error} */ (e).message);
      }
    }
    for (const d of listing.folders) {
      const p = prefix + d.path;
      if (pages >= MAX_LISTING_PAGES || p.split('/').length - 1 > MAX_LISTING_DEPTH) {
        left++;
        continue;
      }
      pages++;
      try {
        const got = await asListing(await fetchBlob(d.url, o), d.url);
        if (!got?.listing) {
          errors.push(`${d.url}: no folder listing came back for this folder; its files were not fetched.`);
          continue;
        }
        folders++;
        queue.push({ listing: got.listing, prefix: p });
      } catch (e) {
        if (/** @type {Error} */ (e).name === 'AbortError') throw e;
        errors.push(/** @type {Error} */ (e).message);
      }
    }
  }
  let note =
    `a folder listing (the server's page of links): the page followed its links and fetched ${files} file${files === 1 ? '' : 's'}` +
    (folders ? ` in ${folders + 1} folders` : '');
  if (left) {
    note += `; ${left} more file${left === 1 ? '' : 's'} or folder${left === 1 ? '' : 's'} left out (at most ${MAX_LISTING_FILES} files, ${MAX_LISTING_PAGES} folders, ${MAX_LISTING_DEPTH} levels): give the URL of a .tar or .zip of the folder instead`;
  }
  return { items, skipped, errors, note };
}

/**
 * @typedef {object} FetchProgress
 * @property {string} url
 * @property {number} bytesDone
 * @property {number} bytesTotal  0 when the server sent no Content-Length
 * @property {'fetching'|'done'|'error'} state
 */

/** The last path part of a URL, decoded ("run1.tar.gz"), or its host. @param {string} url */
export function urlFileName(url) {
  const u = new URL(url);
  const last = u.pathname.split('/').filter(Boolean).pop() || '';
  let n = last;
  try {
    n = decodeURIComponent(last);
  } catch {
    /* keep it encoded */
  }
  n = n.replace(/[\u0000-\u001f\u007f/\\]/g, '_'); // eslint-disable-line no-control-regex
  return n || u.host || 'download';
}

/** "run1.tar.gz" -> "run1" (the folder a run's files are shown under). @param {string} name */
export function runName(name) {
  return name.replace(/\.(tar\.gz|tgz|tar|zip|gz)$/i, '') || name;
}

/**
 * The sentence for a failed fetch of `url` from a page at `pageOrigin`.
 * @param {string} url @param {string} pageOrigin @param {'cors'|'unreachable'|'mixed'} why
 */
export function fetchFailureText(url, pageOrigin, why) {
  const origin = new URL(url).origin;
  if (why === 'cors') {
    return (
      `${url}: the server answered, but the browser keeps the answer from this page because it allows no other origin (CORS). ` +
      `The server at ${origin} must send the header "Access-Control-Allow-Origin: ${pageOrigin}" (or "*") with the file; ` +
      'or download the file and open it here.'
    );
  }
  if (why === 'mixed') return `${url}: an https page may not load http:// URLs (mixed content); serve the file over https, or download it and open it here.`;
  return `${url}: could not be reached (network error, unknown host, or refused by the page's policy); download it and open it here.`;
}

/** The download bytes a load holds at once when the page has no memory budget (?budget=off): 2 GiB. */
export const MAX_DOWNLOAD_BYTES = 2 ** 31;

/**
 * What a load's downloads hold so far, and the most they may: every file
 * is held whole until it is parsed, and a server streaming 3 GiB once took
 * the tab to 7 GB (docs/page-loading.md, "Downloads").
 * @typedef {{bytes: number, limit: number}} DownloadBudget
 */

/** @param {number} n */
function mib(n) {
  return `${(n / 2 ** 20).toFixed(n < 2 ** 30 ? 1 : 0)} MiB`;
}

/**
 * The sentence that stops a download past the budget.
 * @param {string} url @param {DownloadBudget} held @param {number} bytes what it had (or announced)
 * @param {boolean} streamed
 */
export function downloadTooLargeText(url, held, bytes, streamed) {
  const before = held.bytes ? ` beside the ${mib(held.bytes)} fetched before it` : '';
  return `${url}: ${streamed ? `stopped after ${mib(bytes)}` : `announces ${mib(bytes)}`}${before}, past the page's memory budget of ${mib(held.limit)} ` +
    '(docs/page-loading.md, "Downloads"); nothing of it is loaded: open the file from disk, or raise ?budget=';
}

/**
 * Fetches one URL with progress; throws with a sentence. With o.held, the
 * bytes are counted as they stream and the fetch stops past held.limit.
 * @param {string} url
 * @param {{signal?: AbortSignal, onProgress?: (p: FetchProgress) => void, pageOrigin?: string, fetch?: typeof fetch, held?: DownloadBudget}} [o]
 * @returns {Promise<Blob>}
 */
export async function fetchBlob(url, o = {}) {
  const f = o.fetch ?? fetch;
  const pageOrigin = o.pageOrigin ?? globalThis.location?.origin ?? '';
  /** @type {Response} */
  let res;
  try {
    res = await f(url, { mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer', signal: o.signal });
  } catch (e) {
    if (/** @type {Error} */ (e).name === 'AbortError' || o.signal?.aborted) throw abortError();
    if (pageOrigin.startsWith('https:') && url.startsWith('http:')) throw new Error(fetchFailureText(url, pageOrigin, 'mixed'));
    let reachable = false;
    try {
      await f(url, { mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer', signal: o.signal });
      reachable = true;
    } catch {
      /* unreachable */
    }
    throw new Error(fetchFailureText(url, pageOrigin, reachable ? 'cors' : 'unreachable'));
  }
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  const total = Number(res.headers.get('content-length')) || 0;
  const held = o.held;
  if (held && total > held.limit - held.bytes) {
    res.body?.cancel().catch(() => {});
    throw new Error(downloadTooLargeText(url, held, total, false));
  }
  o.onProgress?.({ url, bytesDone: 0, bytesTotal: total, state: 'fetching' });
  if (!res.body) {
    const b = await res.blob();
    if (held && b.size > held.limit - held.bytes) throw new Error(downloadTooLargeText(url, held, b.size, true));
    if (held) held.bytes += b.size;
    o.onProgress?.({ url, bytesDone: b.size, bytesTotal: b.size, state: 'done' });
    return b;
  }
  const reader = res.body.getReader();
  /** @type {Uint8Array[]} */
  const parts = [];
  let done = 0;
  for (;;) {
    if (o.signal?.aborted) {
      reader.cancel().catch(() => {});
      throw abortError();
    }
    const r = await reader.read();
    if (r.done) break;
    if (held && done + r.value.length > held.limit - held.bytes) {
      reader.cancel().catch(() => {});
      throw new Error(downloadTooLargeText(url, held, done + r.value.length, true));
    }
    parts.push(r.value);
    done += r.value.length;
    o.onProgress?.({ url, bytesDone: done, bytesTotal: Math.max(total, done), state: 'fetching' });
  }
  if (held) held.bytes += done;
  o.onProgress?.({ url, bytesDone: done, bytesTotal: done, state: 'done' });
  return new Blob(/** @type {BlobPart[]} */ (parts));
}

/**
 * Fetches every URL (one after another: a page should not open many
 * connections to one server at once) and unpacks archives.
 * @param {string[]} urls
 * @param {{signal?: AbortSignal, onProgress?: (p: FetchProgress) => void, fetch?: typeof fetch, pageOrigin?: string, maxBytes?: number}} [opts]
 *   maxBytes: what the downloads may hold at once (the page's memory budget; else MAX_DOWNLOAD_BYTES)
 * @returns {Promise<{items: import('./files.js').LoadItem[], skipped: import('./files.js').SkippedItem[], errors: string[], notes: string[]}>}
 *   errors: URLs that failed (each a sentence); the others load
 */
export async function fetchItems(urls, opts = {}) {
  const max = opts.maxBytes;
  const o = { ...opts, held: { bytes: 0, limit: max !== undefined && Number.isFinite(max) && max > 0 ? max : MAX_DOWNLOAD_BYTES } };
  /** @type {import('./files.js').LoadItem[]} */
  const items = [];
  /** @type {import('./files.js').SkippedItem[]} */
  const skipped = [];
  /** @type {string[]} */
  const errors = [];
  /** @type {string[]} */
  const notes = [];
  const names = urls.map(urlFileName);
  // Several runs: each under its own folder; identical names get a number.
  /** @type {Map<string, number>} */
  const used = new Map();
  for (let i = 0; i < urls.length; i++) {
    const url = urls[i];
    try {
      const blob = await fetchBlob(url, o);
      let folder = '';
      if (urls.length > 1) {
        const base = runName(names[i]);
        const k = (used.get(base) ?? 0) + 1;
        used.set(base, k);
        folder = k > 1 ? `${base}-${k}` : base;
      }
      // An HTML page: a folder listing is followed (listing.js); any other
      // page is said to be no data, with what to give instead.
      const html = await asListing(blob, url);
      if (html) {
        if (!html.listing) {
          errors.push(htmlPageText(url));
          continue;
        }
        const x = await followListing(html.listing, folder || names[i], o);
        items.push(...x.items);
        skipped.push(...x.skipped);
        errors.push(...x.errors);
        notes.push(`${url}: ${x.note}`);
        continue;
      }
      // What the archive unpacks to is held too: bounded by what the downloads may still hold.
      const x = await expandDownload(names[i], blob, { folder, signal: o.signal, limit: Math.max(1, o.held.limit - o.held.bytes) });
      // A plain file keeps its own name (host suffixes are read from it);
      // one named like an earlier URL's goes under its URL's folder.
      for (const it of x.items) {
        if (!x.archive && items.some((p) => p.name === it.name)) {
          const dir = new URL(url).pathname.split('/').filter(Boolean).slice(-2, -1)[0] || `url${i + 1}`;
          it.name = `${dir}/${it.name}`;
          if (items.some((p) => p.name === it.name)) it.name = `url${i + 1}/${names[i]}`;
        }
        items.push(it);
      }
      skipped.push(...x.skipped);
      if (x.note) notes.push(`${names[i]}: ${x.note}`);
    } catch (e) {
      if (/** @type {Error} */ (e).name === 'AbortError') throw e;
      errors.push(/** @type {Error} */ (e).message);
    }
  }
  // In code-unit order over all runs, as picked files are (the CLI's order).
  const sel = selectItems(items, skipped);
  return { items: sel.items, skipped: sel.skipped, errors, notes };
}
