// HTTP folder listings fetched from a #url= (docs/page-loading.md, "A URL of
// a folder"). A static server asked for a folder answers with an HTML page
// of links when it lists folders: `python3 -m http.server` ("Directory
// listing for /path/"), nginx's autoindex and Apache's mod_autoindex ("Index
// of /path/"), lighttpd's dirlisting ("Index of /path/"). The page follows
// such a page's links into the folder, as if the folder had been picked:
// only links on the listing's own origin and below its folder (never up,
// never to another host, no query: Apache's column-sort links), folders
// recursively, bounded in pages and files.

/** Folder pages read at most, per URL. */
export const MAX_LISTING_PAGES = 500;
/** Files fetched at most, per URL. */
export const MAX_LISTING_FILES = 5000;
/** Folder depth below the URL followed at most. */
export const MAX_LISTING_DEPTH = 8;

/** True when the bytes start an HTML document. @param {Uint8Array} b */
export function looksLikeHtml(b) {
  let s = new TextDecoder().decode(b.subarray(0, 1024)).replace(/^\ufeff/, '').trimStart().toLowerCase();
  while (s.startsWith('<!--')) {
    const end = s.indexOf('-->');
    if (end < 0) return false;
    s = s.slice(end + 3).trimStart();
  }
  return s.startsWith('<!doctype html') || s.startsWith('<html') || s.startsWith('<head') || s.startsWith('<title');
}

/** The few entities listings use in names and links. @param {string} s */
function unescapeHtml(s) {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d) => String.fromCodePoint(Number(d)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The URL of a folder: its path ends with "/", no query or fragment. @param {string} url */
export function folderUrl(url) {
  const u = new URL(url);
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

/**
 * Reads an HTML page as a folder listing of `url`; null when it is none.
 * A listing's title (or first heading) says "Index of <path>" or "Directory
 * listing for <path>", or is the folder's path itself (Caddy's browse).
 * @param {string} html
 * @param {string} url the URL the page was fetched from
 * @returns {{folder: string, files: {url: string, path: string}[], folders: {url: string, path: string}[]} | null}
 *   path: decoded, relative to the listed folder ("a.log", "clients/")
 */
export function parseListing(html, url) {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? '';
  const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1] ?? '';
  const folder = folderUrl(url);
  const fpath = decodeURIComponent(new URL(folder).pathname);
  const said = (/** @type {string} */ t) => {
    const x = unescapeHtml(t.replace(/<[^>]*>/g, '')).trim();
    return /^(index of|directory listing for)\s/i.test(x) || x === fpath || `${x}/` === fpath;
  };
  if (!said(title) && !said(h1)) return null;
  /** @type {{url: string, path: string}[]} */
  const files = [];
  /** @type {{url: string, path: string}[]} */
  const folders = [];
  const seen = new Set();
  const base = new URL(folder);
  for (const m of html.matchAll(/<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const href = unescapeHtml(m[1] ?? m[2] ?? m[3] ?? '');
    let u;
    try {
      u = new URL(href, folder);
    } catch {
      continue;
    }
    // Same origin, below the folder, no query (sort links), no fragment.
    if (u.origin !== base.origin || u.search || u.hash || !u.pathname.startsWith(base.pathname)) continue;
    const rel = u.pathname.slice(base.pathname.length);
    if (!rel || seen.has(rel)) continue;
    seen.add(rel);
    let p;
    try {
      p = decodeURIComponent(rel);
    } catch {
      p = rel;
    }
    // A name may not climb out through an encoded "..".
    if (p.split('/').some((x) => x === '..' || x === '.')) continue;
    (rel.endsWith('/') ? folders : files).push({ url: u.href, path: p });
  }
  return { folder, files, folders };
}
