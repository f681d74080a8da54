// web/src/load: slicing, gzip, compressed-format detection, cancel, and the
// folder/drag-and-drop helpers, on real fio logs from tests/fixtures.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { Container, FileFormatError, readChunks, sniffContainer } from '../../src/load/read.js';
import { itemsFromDataTransfer, itemsFromFileList, skipReason, sortItems, toLoadItem } from '../../src/load/files.js';

const FIX = new URL('../../../tests/fixtures/', import.meta.url);
const plainPath = new URL('local/local_clat_hist.1.log', FIX);
const gzPath = new URL('gz/local_clat_hist.1.log.gz', FIX);

/** @param {AsyncIterable<Uint8Array>} it */
async function collect(it) {
  const parts = [];
  for await (const c of it) parts.push(c);
  return parts;
}

/** @param {Uint8Array[]} parts */
function concat(parts) {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

describe('sniffContainer', () => {
  it('recognises gzip from a real .gz and the magic of formats we cannot inflate', () => {
    expect(sniffContainer(fs.readFileSync(gzPath).subarray(0, 6))).toBe(Container.GZIP);
    expect(sniffContainer(fs.readFileSync(plainPath).subarray(0, 6))).toBe(Container.PLAIN);
    expect(sniffContainer(new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0]))).toBe(Container.XZ);
    expect(sniffContainer(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd]))).toBe(Container.ZSTD);
    expect(sniffContainer(new TextEncoder().encode('BZh91AY'))).toBe(Container.BZIP2);
    expect(sniffContainer(new Uint8Array([0x50, 0x4b, 3, 4]))).toBe(Container.ZIP);
    expect(sniffContainer(new Uint8Array([0x1f]))).toBe(Container.PLAIN);
    expect(sniffContainer(new Uint8Array([]))).toBe(Container.PLAIN);
  });
});

describe('readChunks', () => {
  const text = fs.readFileSync(plainPath);
  for (const slice of [7, 4093, 65536, 1 << 24]) {
    it(`returns the file's bytes in slices of ${slice}`, async () => {
      /** @type {number[]} */
      const seen = [];
      const parts = await collect(
        readChunks(new Blob([text]), { sliceBytes: slice, onBytes: (n) => seen.push(n) }),
      );
      expect(concat(parts).equals(text)).toBe(true);
      expect(parts.length).toBe(Math.ceil(text.length / slice));
      for (const p of parts) {
        expect(p.byteOffset).toBe(0);
        expect(p.byteLength).toBe(p.buffer.byteLength); // owns its buffer: transferable
      }
      expect(seen.at(-1)).toBe(text.length);
      expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    });
  }

  it('inflates gzip and counts stored (compressed) bytes as progress', async () => {
    const gz = fs.readFileSync(gzPath);
    /** @type {number[]} */
    const seen = [];
    const parts = await collect(readChunks(new Blob([gz]), { sliceBytes: 1024, onBytes: (n) => seen.push(n) }));
    expect(concat(parts).equals(zlib.gunzipSync(gz))).toBe(true);
    expect(concat(parts).equals(text)).toBe(true); // the fixture is gzip -9 of local/
    expect(parts.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(gz.length);
  });

  it('keeps what a truncated gzip held and says so (the CLI policy)', async () => {
    const gz = fs.readFileSync(gzPath);
    const bad = gz.subarray(0, Math.floor(gz.length / 2));
    /** @type {string[]} */
    const problems = [];
    const parts = await collect(readChunks(new Blob([bad]), { sliceBytes: 4096, onProblem: (m) => problems.push(m) }));
    const got = concat(parts);
    expect(got.length).toBeGreaterThan(0);
    expect(text.subarray(0, got.length).equals(got)).toBe(true); // a prefix of the real content
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/gzip stream truncated/);
    expect(problems[0]).toContain(`the ${got.length} bytes`);
    expect(problems[0]).toMatch(/read are used$/);
  });

  it('a gzip that inflates to nothing usable is a FileFormatError', async () => {
    const notGzip = new Uint8Array([0x1f, 0x8b, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const err = await collect(readChunks(new Blob([notGzip]))).catch((e) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect(err.message).toMatch(/gzip.*nothing could be read/);
  });

  it('refuses xz with a sentence naming the fix', async () => {
    const xz = new Blob([new Uint8Array([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 1, 2])]);
    const err = await collect(readChunks(xz)).catch((e) => e);
    expect(err).toBeInstanceOf(FileFormatError);
    expect(err.message).toMatch(/xz-compressed.*unxz/);
  });

  it('stops with an AbortError when the signal aborts', async () => {
    const ctl = new AbortController();
    const got = [];
    const err = await (async () => {
      for await (const c of readChunks(new Blob([text]), { sliceBytes: 1000, signal: ctl.signal })) {
        got.push(c);
        if (got.length === 2) ctl.abort();
      }
    })().catch((e) => e);
    expect(err?.name).toBe('AbortError');
    expect(got.length).toBe(2);
    const gzCtl = new AbortController();
    gzCtl.abort();
    const err2 = await collect(readChunks(new Blob([fs.readFileSync(gzPath)]), { signal: gzCtl.signal })).catch(
      (e) => e,
    );
    expect(err2?.name).toBe('AbortError');
  });

  it('reads an empty file as no chunk at all', async () => {
    expect(await collect(readChunks(new Blob([])))).toEqual([]);
  });
});

describe('load items', () => {
  it('uses webkitRelativePath, sorts like the C locale, reads hidden folders, lists OS files it leaves out', () => {
    const f = (/** @type {string} */ name, rel = '') => {
      const file = new File(['x'], name);
      if (rel) Object.defineProperty(file, 'webkitRelativePath', { value: rel });
      return file;
    };
    const sel = itemsFromFileList([
      f('s1_clat_hist.2.log', 'run/hostB/s1_clat_hist.2.log'),
      f('s1_clat_hist.1.log', 'run/hostB/s1_clat_hist.1.log'),
      f('s1_clat_hist.1.log', 'run/Host/s1_clat_hist.1.log'),
      f('.DS_Store', 'run/.DS_Store'),
      f('x.log', 'run/__MACOSX/x.log'),
      f('y.log', 'run/__MACOSX/y.log'),
      f('a.log'),
    ]);
    expect(sel.items.map((i) => i.name)).toEqual([
      'a.log',
      'run/Host/s1_clat_hist.1.log',
      'run/hostB/s1_clat_hist.1.log',
      'run/hostB/s1_clat_hist.2.log',
    ]);
    expect(sel.skipped).toEqual([
      { name: 'run/.DS_Store', reason: 'OS bookkeeping file', files: 1 },
      { name: 'run/__MACOSX/', reason: 'macOS archive metadata', files: 2 },
    ]);
    expect(toLoadItem({ file: new Blob(['y']), name: 'n' }).name).toBe('n');
    expect(sortItems([{ file: new Blob([]), name: 'b' }, { file: new Blob([]), name: 'b' }]).length).toBe(1);
  });

  it('a picked folder named .fio-results loads, with its hidden subfolders; .git is listed, not read', () => {
    const f = (/** @type {string} */ rel) => {
      const file = new File(['x'], rel.split('/').pop() ?? '');
      Object.defineProperty(file, 'webkitRelativePath', { value: rel });
      return file;
    };
    const sel = itemsFromFileList([
      f('.fio-results/s1_clat_hist.1.log'),
      f('.fio-results/.host2/s1_clat_hist.1.log'),
      f('.fio-results/.hidden.log'),
      f('.fio-results/.git/HEAD'),
      f('.fio-results/.git/config'),
    ]);
    expect(sel.items.map((i) => i.name)).toEqual([
      '.fio-results/.hidden.log',
      '.fio-results/.host2/s1_clat_hist.1.log',
      '.fio-results/s1_clat_hist.1.log',
    ]);
    expect(sel.skipped).toEqual([{ name: '.fio-results/.git/', reason: 'version-control folder', files: 2 }]);
    expect(skipReason('.fio-results/x.log').reason).toBe('');
    expect(skipReason('a/._x.log').reason).toMatch(/bookkeeping/);
  });

  it('walks dropped folders recursively, reading every readEntries batch', async () => {
    /** Fake FileSystemEntry tree as Chromium gives it to a drop handler. */
    const file = (/** @type {string} */ path) => ({
      isFile: true,
      isDirectory: false,
      name: path.split('/').pop(),
      fullPath: '/' + path,
      file: (/** @type {(f: File) => void} */ ok) => ok(new File([path], path.split('/').pop() ?? '')),
    });
    const dir = (/** @type {string} */ path, /** @type {any[]} */ children) => ({
      isFile: false,
      isDirectory: true,
      name: path.split('/').pop(),
      fullPath: '/' + path,
      createReader() {
        // Chromium hands out at most 100 entries per call; emulate 2 per call.
        let i = 0;
        return {
          readEntries: (/** @type {(e: any[]) => void} */ ok) => {
            ok(children.slice(i, i + 2));
            i += 2;
          },
        };
      },
    });
    const tree = dir('run', [
      file('run/b.log'),
      file('run/a.log'),
      dir('run/.git', [file('run/.git/HEAD')]),
      dir('run/.h2', [file('run/.h2/c.log'), file('run/.h2/d.log'), file('run/.h2/e.log')]),
    ]);
    const loose = new File(['z'], 'z.log');
    const dt = /** @type {any} */ ({
      items: [
        { kind: 'file', webkitGetAsEntry: () => tree },
        { kind: 'file', webkitGetAsEntry: () => null, getAsFile: () => loose },
        { kind: 'string' },
      ],
    });
    const { items, skipped } = await itemsFromDataTransfer(dt);
    // Hidden folders are walked; .git is listed as left out without being read.
    expect(items.map((i) => i.name)).toEqual(['run/.h2/c.log', 'run/.h2/d.log', 'run/.h2/e.log', 'run/a.log', 'run/b.log', 'z.log']);
    expect(await items[0].file.text()).toBe('run/.h2/c.log');
    expect(skipped).toEqual([{ name: 'run/.git/', reason: 'version-control folder', files: 0 }]);
  });
});
