// Issue 6 §3, §4: archives fetched from URLs (tar, tar.gz, zip), fetch
// failures explained (CORS), the link-with-data payload, embedding messages.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { zipSync } from 'fflate';
import { untar, isTar, expandDownload, cleanPath, unzipFiles } from '../../src/load/archive.js';
import { fetchBlob, fetchItems, urlFileName, runName } from '../../src/load/remote.js';
import { encodeLinkData, decodeLinkData, framePayload, unframePayload, base64url, fromBase64url } from '../../src/app/link.js';
import { checkFiles, allowedOrigins } from '../../src/app/embed.js';
import { parseEmbeddedData, fromBase64, MAX_TRUST_ROWS, MAX_TRUST_LIST } from '../../src/app/embedded-data.js';

const FIX = path.resolve(__dirname, '../../../tests/fixtures');

/** A tar made by the system's tar (GNU or bsdtar) from a folder of files. @param {Record<string, string>} files @param {string[]} [args] */
function makeTar(files, args = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'latscope-tar-'));
  for (const [n, t] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, 'src', n)), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', n), t);
  }
  const out = path.join(dir, 'a.tar');
  execFileSync('tar', ['cf', out, ...args, '-C', path.join(dir, 'src'), ...Object.keys(files).map((n) => n.split('/')[0]).filter((v, i, a) => a.indexOf(v) === i)]);
  const b = new Uint8Array(fs.readFileSync(out));
  fs.rmSync(dir, { recursive: true, force: true });
  return b;
}

const td = new TextDecoder();

describe('archives', () => {
  it('untar: files with their paths, folders skipped; long names (GNU and pax)', () => {
    const long = `run/${'d'.repeat(120)}/${'x'.repeat(90)}_clat_hist.1.log`;
    const files = { 'run/a_clat_hist.1.log': '1000, 0, 4096, 1\n', 'run/h/.hidden.log': 'hidden\n', [long]: 'long\n' };
    for (const fmt of [[], ['--format=pax'], ['--format=gnu']]) {
      const b = makeTar(files, fmt);
      expect(isTar(b)).toBe(true);
      const got = untar(b).map((f) => [f.name, td.decode(f.bytes)]).sort();
      expect(got).toEqual(Object.entries(files).sort());
    }
  });

  it('untar refuses a broken header and a truncated entry, with a sentence', () => {
    const b = makeTar({ 'r/a.log': 'x'.repeat(2000) });
    const bad = b.slice();
    bad[148] = 0x39; // checksum field: '9' is not octal
    expect(() => untar(bad)).toThrow(/checksum/);
    expect(() => untar(b.subarray(0, 1024))).toThrow(/truncated inside "r\/a.log"/);
    expect(isTar(new TextEncoder().encode('1000, 0, 4096, 0, 0, 0\n'.repeat(40)))).toBe(false);
  });

  it('cleanPath drops ., .. and empty parts', () => {
    expect(cleanPath('./a//b/../c/')).toBe('a/b/c');
    expect(cleanPath('/../../etc/passwd')).toBe('etc/passwd');
  });

  it('expandDownload: .tar.gz and .zip become the files inside (OS bookkeeping listed); a .gz log stays whole', async () => {
    const log = fs.readFileSync(path.join(FIX, 'local/local_clat_hist.1.log'));
    const tar = makeTar({ 'run/local_clat_hist.1.log': log.toString(), 'run/.DS_Store': 'x', 'run/README': 'r' });
    const tgz = await expandDownload('run.tar.gz', new Blob([zlib.gzipSync(tar)]), { folder: 'A' });
    expect(tgz.archive).toBe('tar.gz');
    expect(tgz.items.map((i) => i.name)).toEqual(['A/run/README', 'A/run/local_clat_hist.1.log']);
    expect(tgz.skipped).toEqual([{ name: 'A/run/.DS_Store', reason: 'OS bookkeeping file', files: 1 }]);
    expect(Buffer.from(await tgz.items[1].file.arrayBuffer()).equals(log)).toBe(true);

    const zip = zipSync({ 'run/': new Uint8Array(0), 'run/local_clat_hist.1.log': new Uint8Array(log), '__MACOSX/run/._x': new Uint8Array(3) });
    const z = await expandDownload('run.zip', new Blob([zip]));
    expect(z.archive).toBe('zip');
    expect(z.items.map((i) => i.name)).toEqual(['run/local_clat_hist.1.log']);
    expect(z.skipped.map((s) => s.reason)).toEqual(['macOS archive metadata']);

    const gz = await expandDownload('x_clat_hist.1.log.gz', new Blob([zlib.gzipSync(log)]));
    expect(gz.archive).toBe('');
    expect(gz.items.map((i) => i.name)).toEqual(['x_clat_hist.1.log.gz']);
    const plain = await expandDownload('x.log', new Blob([log]), { folder: 'B' });
    expect(plain.items.map((i) => i.name)).toEqual(['x.log']);
  });

  it('a zip that claims to unpack too far stops with a sentence before inflating', () => {
    const zip = zipSync({ 'a.log': new Uint8Array(1 << 10) }, { level: 9 });
    expect(unzipFiles(zip).map((f) => f.bytes.length)).toEqual([1024]);
    // The central directory's uncompressed size (offset 24 of its entry) says 2.4 GB.
    const v = new DataView(zip.buffer, zip.byteOffset);
    let at = -1;
    for (let i = zip.length - 22; i >= 0; i--) if (v.getUint32(i, true) === 0x02014b50) at = i;
    expect(at).toBeGreaterThan(0);
    v.setUint32(at + 24, 0x90000000, true);
    expect(() => unzipFiles(zip)).toThrow(/unpacks to over/);
  });
});

describe('URLs', () => {
  it('names: the last path part, decoded and made safe; run folders', () => {
    expect(urlFileName('https://ci.example/job/42/artifacts/run%201.tar.gz?x=1')).toBe('run 1.tar.gz');
    expect(urlFileName('https://ci.example/')).toBe('ci.example');
    expect(urlFileName('https://h/a%2Fb%00c.log')).toBe('a_b_c.log');
    expect(runName('run1.tar.gz')).toBe('run1');
    expect(runName('x.zip')).toBe('x');
  });

  /** A fetch whose cors request fails like a CORS refusal, and whose no-cors request succeeds. */
  const corsRefused = /** @type {any} */ (async (/** @type {string} */ _u, /** @type {any} */ init) => {
    if (init.mode === 'cors') throw new TypeError('Failed to fetch');
    return new Response(null, { status: 200 });
  });
  const down = /** @type {any} */ (async () => {
    throw new TypeError('Failed to fetch');
  });

  it('a CORS refusal says which header the server must send; a dead server says it cannot be reached', async () => {
    await expect(fetchBlob('https://data.example/a.log', { fetch: corsRefused, pageOrigin: 'https://page.example' })).rejects.toThrow(
      /CORS.*The server at https:\/\/data\.example must send the header "Access-Control-Allow-Origin: https:\/\/page\.example" \(or "\*"\)/,
    );
    await expect(fetchBlob('https://data.example/a.log', { fetch: down, pageOrigin: 'https://page.example' })).rejects.toThrow(/could not be reached/);
    await expect(fetchBlob('http://data.example/a.log', { fetch: down, pageOrigin: 'https://page.example' })).rejects.toThrow(/mixed content/);
  });

  it('fetchItems: progress, HTTP errors per URL, two runs in two folders, sorted', async () => {
    const log = fs.readFileSync(path.join(FIX, 'local/local_clat_hist.1.log'));
    const tar = makeTar({ 'r/local_clat_hist.1.log': log.toString() });
    /** @type {Record<string, Uint8Array>} */
    const served = { 'https://d/run1.tar': tar, 'https://d/run2.tar.gz': zlib.gzipSync(tar), 'https://d/a/x.log': log, 'https://d/b/x.log': log };
    const f = /** @type {any} */ (async (/** @type {string} */ u) => (served[u] ? new Response(/** @type {BodyInit} */ (/** @type {unknown} */ (served[u])), { headers: { 'content-length': String(served[u].length) } }) : new Response('no', { status: 404, statusText: 'Not Found' })));
    /** @type {any[]} */
    const prog = [];
    const r = await fetchItems(['https://d/run2.tar.gz', 'https://d/run1.tar', 'https://d/missing.log', 'https://d/a/x.log', 'https://d/b/x.log'], { fetch: f, onProgress: (p) => prog.push(p) });
    expect(r.errors).toEqual(['https://d/missing.log: HTTP 404 Not Found']);
    expect(r.items.map((i) => i.name)).toEqual(['b/x.log', 'run1/r/local_clat_hist.1.log', 'run2/r/local_clat_hist.1.log', 'x.log']);
    expect(prog.filter((p) => p.state === 'done').length).toBe(4);
    expect(prog.at(-1)).toMatchObject({ state: 'done', bytesDone: log.length, bytesTotal: log.length });
  });
});

describe('archive bombs', () => {
  // 64 MiB of zeros in a tar, gzipped to ~64 KB: unpacked past the downloads'
  // budget, each kind stops with a sentence before holding it all.
  const big = makeTar({ 'r/zeros_clat_hist.1.log': '0'.repeat(64 << 20) });
  it('a .tar.gz stops while inflating, a .tar and a .zip before unpacking, at the limit given', async () => {
    const gz = zlib.gzipSync(big);
    expect(gz.length).toBeLessThan(1 << 20);
    await expect(expandDownload('bomb.tar.gz', new Blob([gz]), { limit: 8 << 20 })).rejects.toThrow('bomb.tar.gz: tar.gz archive unpacks to over 8388608 bytes: stopped');
    await expect(expandDownload('bomb.tar', new Blob([big]), { limit: 8 << 20 })).rejects.toThrow('bomb.tar: tar archive unpacks to over 8388608 bytes: stopped');
    const zip = zipSync({ 'r/zeros_clat_hist.1.log': new Uint8Array(64 << 20) });
    await expect(expandDownload('bomb.zip', new Blob([zip]), { limit: 8 << 20 })).rejects.toThrow('bomb.zip: zip archive unpacks to over 8388608 bytes: stopped');
    // Within the limit it unpacks.
    const ok = await expandDownload('fine.tar.gz', new Blob([gz]), { limit: 128 << 20 });
    expect(ok.items.map((i) => i.name)).toEqual(['r/zeros_clat_hist.1.log']);
  });

  it('fetchItems bounds what an archive unpacks to by the downloads\' budget', async () => {
    const gz = zlib.gzipSync(big);
    const f = /** @type {any} */ (async () => new Response(/** @type {BodyInit} */ (/** @type {unknown} */ (gz)), { headers: { 'content-length': String(gz.length) } }));
    const r = await fetchItems(['https://d/bomb.tar.gz'], { fetch: f, maxBytes: 16 << 20 });
    expect(r.items).toEqual([]);
    expect(r.errors.join('\n')).toMatch(/bomb\.tar\.gz: tar\.gz archive unpacks to over \d+ bytes: stopped/);
  });
});

describe('link with data', () => {
  // A real result file (docs/result-format.md), committed as the format's version 1 fixture.
  const result = { name: 'é/<b> run.lsr', bytes: new Uint8Array(fs.readFileSync(path.join(FIX, 'result', 'v1-local.lsr'))) };

  it('frames a result file with its name; decodes it back', () => {
    expect(unframePayload(framePayload(result))).toEqual(result);
    const enc = encodeLinkData(result);
    expect(enc.data).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(enc.bytes).toBe(result.bytes.length + 7 + new TextEncoder().encode(result.name).length);
    expect(decodeLinkData(enc.data)).toEqual(result);
    // Why the frame is not deflated again: the result's blocks are zlib streams already.
    expect(zlib.deflateRawSync(framePayload(result), { level: 9 }).length).toBeGreaterThan(enc.bytes - 64);
  });

  it('base64url round trip over every byte value', () => {
    const b = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 256);
    expect(fromBase64url(base64url(b))).toEqual(b);
  });

  it('untrusted link data: every malformation is a sentence, never a crash', () => {
    const raw = framePayload(result);
    const nameEnd = 7 + new TextEncoder().encode(result.name).length;
    const bad = [
      '', 'AAAA', base64url(Uint8Array.from([1, 2, 3])),
      // truncated inside the name; a name but no result; not a result after the name
      base64url(raw.subarray(0, 10)),
      base64url(raw.subarray(0, nameEnd)),
      base64url(Buffer.concat([raw.subarray(0, nameEnd), Buffer.from('LSRESULX and more')])),
      // kind 1 (the encoded Sources of earlier builds), another version, another magic
      base64url(Buffer.concat([Buffer.from('LSLK'), Buffer.from([1, 1, 0])])),
      base64url(Buffer.concat([Buffer.from('LSLK'), Buffer.from([2, 2, 0])])),
      base64url(Buffer.from('XXXX\x01\x02\x00')),
      // a name length that never ends, a name with a control character
      base64url(Buffer.from([0x4c, 0x53, 0x4c, 0x4b, 1, 2, 0xff, 0xff, 0xff, 0xff, 0xff])),
      base64url(Buffer.concat([Buffer.from([0x4c, 0x53, 0x4c, 0x4b, 1, 2, 3]), Buffer.from('a\nb'), result.bytes])),
    ];
    for (const d of bad) expect(() => decodeLinkData(d)).toThrow(/link data/);
    expect(() => decodeLinkData('a+b')).toThrow(/base64url/);
  });
});

describe('data embedded in the page (latscope report)', () => {
  const lsr = fs.readFileSync(path.join(FIX, 'result', 'v1-local.lsr'));
  const good = { version: 1, name: 'nightly <run>.lsr', result: lsr.toString('base64'), view: { view: 'heatmap', q: 5000, p: '50,99' } };

  it('null or empty: nothing embedded', () => {
    expect(parseEmbeddedData('null')).toBeNull();
    expect(parseEmbeddedData('  null\n')).toBeNull();
    expect(parseEmbeddedData('')).toBeNull();
  });

  it('a result with a name and a view: the bytes, the name as text, the view validated', () => {
    const d = parseEmbeddedData(JSON.stringify(good));
    expect(d?.error).toBe('');
    expect(d?.result?.name).toBe('nightly <run>.lsr');
    expect(Buffer.from(/** @type {Uint8Array} */ (d?.result?.bytes))).toEqual(lsr);
    expect(d?.view).toEqual({ view: 'heatmap', quantum_ms: 5000, quantumPinned: true, percentiles: ['50', '99'] });
    expect(d?.notes).toEqual([]);
  });

  it('untrusted: each malformation is a sentence; unknown fields and bad view values are notes', () => {
    /** @param {any} o */
    const err = (o) => parseEmbeddedData(typeof o === 'string' ? o : JSON.stringify(o))?.error;
    expect(err('{"version":1,')).toMatch(/not JSON/);
    expect(err('[1]')).toMatch(/not a JSON object/);
    expect(err({ ...good, version: 2 })).toMatch(/version 2.*newer latscope/);
    expect(err({ ...good, version: '1' })).toMatch(/"version" must be 1/);
    expect(err({ ...good, name: '' })).toMatch(/"name"/);
    expect(err({ ...good, name: 'a\u0000b' })).toMatch(/"name"/);
    expect(err({ ...good, name: 7 })).toMatch(/"name"/);
    expect(err({ ...good, result: 5 })).toMatch(/"result" must be/);
    expect(err({ ...good, result: 'not base64!' })).toMatch(/not base64/);
    expect(err({ ...good, result: Buffer.from('hello world').toString('base64') })).toMatch(/not a latscope result/);
    const d = parseEmbeddedData(JSON.stringify({ ...good, extra: 1, view: { view: '<img src=x>', q: 7, url: 'https://evil.example/', d: 'AAAA' } }));
    expect(d?.error).toBe('');
    expect(d?.view).toEqual({});
    expect(d?.notes.join('\n')).toMatch(/unknown field "extra"/);
    expect(d?.notes.join('\n')).toMatch(/view: view="<img src=x>" ignored/);
  });

  // The trust summary of the report's inputs (`latscope report` writes it as
  // core trust_json does); each row as the page will show it.
  const ROW = { file: 'run/local_clat.1.log', what: 'fio per-I/O log (clat)', fio_version: 'fio-3.33', unit: 'ns', account: 'per-io', used_instead: '', ios: 8000, fio_ios: 8000, compared: true, repairs: '', warnings: [], notes: [], doubtful: false, ok: true };
  /** @param {any} trust */
  const withTrust = (trust) => /** @type {NonNullable<ReturnType<typeof parseEmbeddedData>>} */ (parseEmbeddedData(JSON.stringify({ ...good, trust })));

  it('"trust": valid rows are read whole; no "trust" is null, an empty one no rows', () => {
    const hist = { ...ROW, file: 'run/local_clat_hist.1.log', what: 'fio histogram log', fio_version: '', unit: '', account: 'hist', used_instead: 'run/local_clat.1.log', ios: 0, fio_ios: 0, compared: false, notes: ['not read: counts the same I/Os of job 1 (clat) as the per-I/O log local_clat.1.log'] };
    const bad = { ...ROW, file: 'run/x_clat_hist.1.log', doubtful: true, warnings: ['fio-3.12 wrote broken histogram logs', 'holds 3,605 of the 8,000 I/Os fio counted'] };
    const d = withTrust([ROW, hist, bad]);
    expect(d.error).toBe('');
    expect(d.trust).toEqual([ROW, hist, bad]);
    expect(d.trustDropped).toBe(0);
    expect(d.notes).toEqual([]);
    expect(parseEmbeddedData(JSON.stringify(good))?.trust).toBeNull();
    expect(withTrust([]).trust).toEqual([]);
    // Fields the core did not write take their empty values, without a note (a newer or older writer).
    expect(withTrust([{ file: 'a.log' }]).trust).toEqual([{ ...ROW, file: 'a.log', what: '', fio_version: '', unit: '', account: '', ios: 0, fio_ios: 0, compared: false }]);
  });

  it('"trust" that is no array is ignored with a note; the result still loads', () => {
    for (const t of [{ file: 'a.log' }, 'rows', 7, null, true]) {
      const d = withTrust(t);
      expect(d.error).toBe('');
      expect(d.result?.bytes.length).toBeGreaterThan(0);
      expect(d.trust).toBeNull();
      expect(d.notes.join('\n')).toMatch(/"trust" is not an array/);
    }
  });

  it('"trust" rows of the wrong types: a row without a file name is dropped, a wrong field takes its empty value, each with a note', () => {
    const d = withTrust([
      'not a row',
      [ROW],
      { ...ROW, file: '' },
      { ...ROW, file: 7 },
      { ...ROW, file: 'a\u0000b.log' },
      { ...ROW, file: 'x'.repeat(4097) },
      {
        ...ROW,
        file: 'wrong.log',
        what: { html: '<b>' },
        unit: 5,
        ios: -1,
        fio_ios: '8000',
        compared: 'yes',
        doubtful: 1,
        ok: null,
        warnings: 'one sentence',
        notes: ['fine', 7, { a: 1 }, 'y'.repeat(4097)],
        evil: '<script>',
      },
    ]);
    expect(d.error).toBe('');
    expect(d.trust?.map((r) => r.file)).toEqual(['wrong.log']);
    expect(d.trustDropped).toBe(6);
    const r = /** @type {any} */ (d.trust?.[0]);
    expect([r.what, r.unit, r.ios, r.fio_ios, r.compared, r.doubtful, r.ok, r.warnings, r.notes]).toEqual(['', '', 0, 0, false, false, true, [], ['fine']]);
    expect(r.evil).toBeUndefined();
    expect(Object.keys(r).sort()).toEqual(Object.keys(ROW).sort());
    const notes = d.notes.join('\n');
    expect(notes).toMatch(/trust\[0\] is not an object: dropped/);
    expect(notes).toMatch(/trust\[1\] is not an object: dropped/);
    expect(notes).toMatch(/trust\[2\]\.file must be a file name/);
    expect(notes).toMatch(/trust\[6\]\.what must be a string/);
    expect(notes).toMatch(/trust\[6\]\.ios must be a count/);
    expect(notes).toMatch(/trust\[6\]\.compared must be true or false/);
    expect(notes).toMatch(/trust\[6\]\.warnings must be an array of strings/);
    expect(notes).toMatch(/trust\[6\]\.notes: 3 entries .* dropped/);
    expect(notes).toMatch(/trust\[6\]: unknown field "evil" ignored/);
    // JSON.parse makes "__proto__" an own key: an unknown field like any other, the row's prototype untouched.
    const proto = parseEmbeddedData(JSON.stringify({ ...good, trust: [] }).replace('"trust":[]', '"trust":[{"file":"p.log","__proto__":{"doubtful":true}}]'));
    expect(proto?.trust?.[0].doubtful).toBe(false);
    expect(Object.getPrototypeOf(proto?.trust?.[0])).toBe(Object.prototype);
    expect(proto?.notes.join('\n')).toMatch(/unknown field "__proto__" ignored/);
  });

  it('"trust" that is huge: at most MAX_TRUST_ROWS rows, MAX_TRUST_LIST sentences a row, a bounded list of notes', () => {
    const many = Array.from({ length: MAX_TRUST_ROWS + 5 }, (_, i) => ({ ...ROW, file: `f${i}.log` }));
    const d = withTrust(many);
    expect(d.trust?.length).toBe(MAX_TRUST_ROWS);
    expect(d.trustDropped).toBe(5);
    expect(d.notes.join('\n')).toMatch(new RegExp(`holds ${MAX_TRUST_ROWS + 5} rows: the first ${MAX_TRUST_ROWS} are read`));
    const long = withTrust([{ ...ROW, warnings: Array.from({ length: 1000 }, (_, i) => `w${i}`) }]);
    expect(long.trust?.[0].warnings.length).toBe(MAX_TRUST_LIST);
    // Every row wrong: the notes stop at a bounded number and say how many more.
    const noise = withTrust(Array.from({ length: 5000 }, () => 1));
    expect(noise.trust).toEqual([]);
    expect(noise.trustDropped).toBe(5000);
    expect(noise.notes.length).toBeLessThan(30);
    expect(noise.notes.at(-1)).toMatch(/and 4980 more notes about "trust"/);
  });

  it('"trust" names and sentences with markup or control characters stay text (one line each)', () => {
    const evil = '<img src=x onerror=alert(1)>.log';
    const d = withTrust([{ ...ROW, file: evil, used_instead: '</script><b>x</b>', warnings: ['line one\nline two <script>alert(1)</script>'] }]);
    expect(d.trust?.[0].file).toBe(evil);
    expect(d.trust?.[0].used_instead).toBe('</script><b>x</b>');
    expect(d.trust?.[0].warnings).toEqual(['line one line two <script>alert(1)</script>']);
    // As `latscope report` writes it: < and > escaped inside the block; JSON.parse reads them back.
    const block = JSON.stringify({ ...good, trust: [{ ...ROW, file: evil }] }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
    expect(block.includes('<')).toBe(false);
    expect(parseEmbeddedData(block)?.trust?.[0].file).toBe(evil);
  });

  it('base64 with or without padding, across lines', () => {
    const b = Uint8Array.from({ length: 100 }, (_, i) => (i * 37) % 256);
    const s = Buffer.from(b).toString('base64');
    expect(fromBase64(s)).toEqual(b);
    expect(fromBase64(s.replace(/=+$/, ''))).toEqual(b);
    expect(fromBase64(s.replace(/(.{76})/g, '$1\n'))).toEqual(b);
    expect(fromBase64('A')).toBeNull();
    expect(fromBase64('-_')).toBeNull();
  });
});

describe('embedding messages', () => {
  it('checkFiles accepts {name, data} with bytes, a Blob or text; refuses the rest with a sentence', async () => {
    const r = checkFiles([
      { name: '/a.log', data: new Uint8Array([49, 50]).buffer },
      { name: 'b.log', data: new Uint8Array([1, 2, 3, 4]).subarray(1, 3) },
      { name: 'c.log', data: new Blob(['x']) },
      { name: 'd.log', data: 'text' },
    ]);
    expect(r.error).toBe('');
    expect(r.items.map((i) => [i.name, i.file.size])).toEqual([['a.log', 2], ['b.log', 2], ['c.log', 1], ['d.log', 4]]);
    expect(checkFiles('x').error).toMatch(/array/);
    expect(checkFiles([]).error).toMatch(/empty/);
    expect(checkFiles([{ name: '', data: 'x' }]).error).toMatch(/name/);
    expect(checkFiles([{ name: 'a\u0000b', data: 'x' }]).error).toMatch(/name/);
    expect(checkFiles([{ name: 'a', data: { length: 3 } }]).error).toMatch(/data must be/);
    expect(checkFiles([null]).error).toMatch(/name/);
  });

  it('?embedOrigin= gives an allow-list of origins; without it the page\'s own origin alone; * any', () => {
    const own = 'https://latscope.example';
    expect(allowedOrigins('', own)).toEqual([own]);
    expect(allowedOrigins('?embedOrigin=', own)).toEqual([own]);
    expect(allowedOrigins('', 'null')).toEqual([]);
    expect(allowedOrigins('?embedOrigin=*', own)).toBeNull();
    expect(allowedOrigins('?embedOrigin=https://a.example/x,https://b.example:8443&embedOrigin=javascript:1', own)).toEqual(['https://a.example', 'https://b.example:8443']);
  });
});
