// A #url= that points at a folder served with a listing (load/listing.js,
// load/remote.js; docs/page-loading.md "A URL of a folder"): Python's own
// http.server lists tests/fixtures/layouts/pbench over real HTTP and the
// page's loader fetches every file under it, named as a picked folder's
// files; nginx's and Apache's listing pages (their documented shapes) give
// the same links; links out of the folder or to another host are never
// followed; an HTML page that is no listing is said to be none, with what to
// give instead; the bounds say what they left out.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fetchItems, htmlPageText } from '../../src/load/remote.js';
import { parseListing, looksLikeHtml, MAX_LISTING_DEPTH } from '../../src/load/listing.js';

const LAYOUTS = path.resolve(__dirname, '../../../tests/fixtures/layouts');

/** Every file under dir, as "/"-joined paths relative to it, sorted in code-unit order. @param {string} dir */
function filesUnder(dir) {
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d, /** @type {string} */ rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  };
  walk(dir, '');
  return out.sort();
}

describe('python3 -m http.server folder listing', () => {
  /** @type {import('node:child_process').ChildProcess} */
  let server;
  let base = '';
  beforeAll(async () => {
    server = spawn('python3', ['-u', '-m', 'http.server', '--bind', '127.0.0.1', '--directory', LAYOUTS, '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    base = await new Promise((resolve, reject) => {
      let out = '';
      server.stdout?.on('data', (c) => {
        out += c;
        const m = /port (\d+)/.exec(out);
        if (m) resolve(`http://127.0.0.1:${m[1]}/`);
      });
      server.on('exit', (code) => reject(new Error(`python3 http.server exited ${code}`)));
    });
  });
  afterAll(() => {
    server?.kill();
  });

  it('its page is read as a listing of the folder', async () => {
    const res = await fetch(`${base}pbench/`);
    const html = await res.text();
    expect(looksLikeHtml(new TextEncoder().encode(html))).toBe(true);
    const l = parseListing(html, `${base}pbench/`);
    expect(l).not.toBeNull();
    expect(l?.folders.map((f) => f.path)).toEqual(['fio_layouts_2026.11.26T10.40.00/']);
    expect(l?.files).toEqual([]);
  });

  it('#url= of the folder fetches every file under it, named as a picked folder names them', async () => {
    /** @type {string[]} */
    const asked = [];
    const f = /** @type {typeof fetch} */ ((u, init) => {
      asked.push(String(u));
      return fetch(u, init);
    });
    const r = await fetchItems([`${base}pbench/`], { fetch: f, pageOrigin: 'http://page.example' });
    expect(r.errors).toEqual([]);
    const want = filesUnder(path.join(LAYOUTS, 'pbench')).map((p) => `pbench/${p}`);
    expect(r.items.map((i) => i.name)).toEqual(want);
    // Byte for byte.
    const one = r.items.find((i) => i.name.endsWith('clients/127.0.0.2/fio_clat_hist.2.log'));
    const disk = fs.readFileSync(path.join(LAYOUTS, one?.name ?? ''));
    expect(new Uint8Array(await /** @type {Blob} */ (one?.file).arrayBuffer())).toEqual(new Uint8Array(disk));
    const folders = new Set(want.map((p) => p.slice(0, p.lastIndexOf('/')).split('/')).flatMap((parts) => parts.map((_, k) => parts.slice(0, k + 1).join('/'))));
    expect(r.notes).toEqual([`${base}pbench/: a folder listing (the server's page of links): the page followed its links and fetched ${want.length} files in ${folders.size} folders`]);
    // Nothing above the folder was asked for.
    expect(asked.every((u) => u.startsWith(`${base}pbench/`))).toBe(true);
  });

  it('the folder without its trailing slash: the same files', async () => {
    const r = await fetchItems([`${base}cbt`], { fetch, pageOrigin: 'http://page.example' });
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => i.name)).toEqual(filesUnder(path.join(LAYOUTS, 'cbt')).map((p) => `cbt/${p}`));
  });
});

/** A fake server: url -> [body, content type]. @param {Record<string, string>} pages @param {string[]} asked */
function fakeFetch(pages, asked) {
  return /** @type {typeof fetch} */ (
    /** @type {unknown} */ (
      async (/** @type {string} */ u) => {
        asked.push(u);
        return pages[u] !== undefined ? new Response(pages[u]) : new Response('no', { status: 404, statusText: 'Not Found' });
      }
    )
  );
}

describe('listing pages of other servers', () => {
  // nginx autoindex: "Index of", a parent link, <pre> rows.
  const nginx =
    '<html>\r\n<head><title>Index of /runs/r1/</title></head>\r\n<body>\r\n<h1>Index of /runs/r1/</h1><hr><pre><a href="../">../</a>\r\n' +
    '<a href="clients/">clients/</a>                                           26-Nov-2026 10:40       -\r\n' +
    '<a href="fio%20result.txt">fio result.txt</a>                             26-Nov-2026 10:40    1234\r\n' +
    '<a href="a_clat_hist.1.log">a_clat_hist.1.log</a>                         26-Nov-2026 10:40    5678\r\n' +
    '</pre><hr></body>\r\n</html>\r\n';
  // Apache mod_autoindex: sort links with a query, an absolute parent link.
  const apache =
    '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">\n<html>\n <head>\n  <title>Index of /runs/r1/clients</title>\n </head>\n <body>\n<h1>Index of /runs/r1/clients</h1>\n' +
    '<table><tr><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th></tr>' +
    '<tr><td><a href="/runs/r1/">Parent Directory</a></td></tr>' +
    '<tr><td><a href="h1/">h1/</a></td></tr><tr><td><a href="http://elsewhere.example/runs/r1/clients/x.log">x.log</a></td></tr>' +
    '<tr><td><a href="%2e%2e/secret.log">..</a></td></tr></table>\n</body></html>\n';

  it('nginx and Apache listings: files and folders below the folder only', () => {
    const a = parseListing(nginx, 'https://d.example/runs/r1/');
    expect(a?.files.map((f) => f.path)).toEqual(['fio result.txt', 'a_clat_hist.1.log']);
    expect(a?.folders.map((f) => f.path)).toEqual(['clients/']);
    const b = parseListing(apache, 'https://d.example/runs/r1/clients/');
    expect(b?.files).toEqual([]);
    expect(b?.folders).toEqual([{ url: 'https://d.example/runs/r1/clients/h1/', path: 'h1/' }]);
  });

  it('follows subfolders; never another host, the parent or a sort link', async () => {
    /** @type {string[]} */
    const asked = [];
    const pages = {
      'https://d.example/runs/r1/': nginx,
      'https://d.example/runs/r1/clients/': apache,
      'https://d.example/runs/r1/clients/h1/': '<html><head><title>Index of /runs/r1/clients/h1/</title></head><body><a href="fio_clat_hist.1.log">x</a></body></html>',
      'https://d.example/runs/r1/fio%20result.txt': '{}',
      'https://d.example/runs/r1/a_clat_hist.1.log': '1000, 0, 4096, 1\n',
      'https://d.example/runs/r1/clients/h1/fio_clat_hist.1.log': '1000, 0, 4096, 2\n',
    };
    const r = await fetchItems(['https://d.example/runs/r1/'], { fetch: fakeFetch(pages, asked), pageOrigin: 'https://page.example' });
    expect(r.errors).toEqual([]);
    expect(r.items.map((i) => i.name)).toEqual(['r1/a_clat_hist.1.log', 'r1/clients/h1/fio_clat_hist.1.log', 'r1/fio result.txt']);
    expect(asked.sort()).toEqual(Object.keys(pages).sort());
  });

  it('an HTML page that is no listing: a sentence saying what to give instead', async () => {
    const page = '<!doctype html><html><head><title>Our benchmark results</title></head><body><a href="a.log">a</a></body></html>';
    /** @type {string[]} */
    const asked = [];
    const r = await fetchItems(['https://d.example/results/'], { fetch: fakeFetch({ 'https://d.example/results/': page }, asked) });
    expect(r.items).toEqual([]);
    expect(r.errors).toEqual([htmlPageText('https://d.example/results/')]);
    expect(r.errors[0]).toMatch(/not a log, an archive or a folder listing.*\.tar, \.tar\.gz or \.zip.*python3 -m http\.server/);
    expect(asked).toEqual(['https://d.example/results/']);
  });

  it('folders deeper than the bound are left out, and said', async () => {
    /** @type {Record<string, string>} */
    const pages = {};
    let url = 'https://d.example/deep/';
    for (let k = 0; k <= MAX_LISTING_DEPTH + 2; k++) {
      pages[url] = `<html><title>Index of ${new URL(url).pathname}</title><a href="f${k}.log">f</a> <a href="d/">d/</a></html>`;
      pages[`${url}f${k}.log`] = `${k}\n`;
      url += 'd/';
    }
    const r = await fetchItems(['https://d.example/deep/'], { fetch: fakeFetch(pages, []) });
    expect(r.items.length).toBe(MAX_LISTING_DEPTH + 1);
    expect(r.notes[0]).toMatch(/1 more file or folder left out \(at most \d+ files, \d+ folders, 8 levels\): give the URL of a \.tar or \.zip of the folder instead$/);
  });
});
