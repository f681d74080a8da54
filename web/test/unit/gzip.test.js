// gzip in the page (web/src/load/read.js, fflate): multi-member streams as
// cat, pigz and bgzip write them, checked trailers, truncation and corruption
// reported with what was kept, the inflation bound; and the zlib inflater the
// WebAssembly engine calls for HdrHistogram payloads (web/src/engine/inflate.js).
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import zlib from 'node:zlib';
import { FileFormatError, crc32, readChunks } from '../../src/load/read.js';
import { adler32, inflateZlib } from '../../src/engine/inflate.js';

const FIX = new URL('../../../tests/fixtures/', import.meta.url);
const log1 = fs.readFileSync(new URL('local/local_clat_hist.1.log', FIX));
const log2 = fs.readFileSync(new URL('local/local_clat_hist.2.log', FIX));

/**
 * @param {Uint8Array} bytes
 * @param {import('../../src/load/read.js').ReadOptions} [opts]
 * @returns {Promise<{out: Buffer, problems: string[]}>}
 */
async function gunzip(bytes, opts = {}) {
  /** @type {string[]} */
  const problems = [];
  const parts = [];
  for await (const c of readChunks(new Blob([/** @type {BlobPart} */ (bytes)]), { sliceBytes: 8192, onProblem: (m) => problems.push(m), ...opts })) {
    expect(c.byteLength).toBe(c.buffer.byteLength); // owns its buffer: transferable
    parts.push(Buffer.from(c));
  }
  return { out: Buffer.concat(parts), problems };
}

/** A BGZF (bgzip) block: gzip member with the "BC" extra field, then the deflate data. @param {Buffer} data */
function bgzfBlock(data) {
  const gz = zlib.gzipSync(data);
  const body = gz.subarray(10); // deflate data + CRC32 + ISIZE (Node writes a 10-byte header)
  const head = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43, 2, 0, 0, 0]);
  head.writeUInt16LE(head.length + body.length - 1, 16); // BSIZE - 1
  return Buffer.concat([head, body]);
}

describe('gzip members', () => {
  it('cat a.gz b.gz: both members, in order', async () => {
    const { out, problems } = await gunzip(Buffer.concat([zlib.gzipSync(log1), zlib.gzipSync(log2)]));
    expect(out.equals(Buffer.concat([log1, log2]))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('pigz-style: one member per block, many members, members straddling slices', async () => {
    const members = [];
    for (let o = 0; o < log1.length; o += 3000) members.push(zlib.gzipSync(log1.subarray(o, o + 3000), { level: 1 }));
    expect(members.length).toBeGreaterThan(10);
    for (const sliceBytes of [100, 8192, 1 << 20]) {
      const { out, problems } = await gunzip(Buffer.concat(members), { sliceBytes });
      expect(out.equals(log1)).toBe(true);
      expect(problems).toEqual([]);
    }
  });

  it('bgzip: BGZF blocks with the extra field and the empty EOF block', async () => {
    const eof = Buffer.from('1f8b08040000000000ff0600424302001b0003000000000000000000', 'hex');
    const blocks = [bgzfBlock(log1.subarray(0, 20000)), bgzfBlock(log1.subarray(20000)), eof];
    const { out, problems } = await gunzip(Buffer.concat(blocks));
    expect(out.equals(log1)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('a CRC error in a member is reported, and what was read is used', async () => {
    const a = zlib.gzipSync(log1);
    const b = zlib.gzipSync(log2);
    const bad = Buffer.from(Buffer.concat([a, b]));
    bad[a.length - 6] ^= 0xff; // member 1's CRC-32
    const { out, problems } = await gunzip(bad);
    expect(out.subarray(0, log1.length).equals(log1)).toBe(true);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/gzip member 1 fails its CRC-32\/length check/);
    expect(problems[0]).toContain(`the ${out.length} bytes`);
  });

  it('corrupt deflate data in the last member: reported by its trailer check', async () => {
    const a = Buffer.from(zlib.gzipSync(log1));
    a[200] ^= 0x55;
    const { problems } = await gunzip(a).catch((e) => ({ problems: [String(e.message)] }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/gzip|CRC/);
  });

  it('a stream cut inside its trailer is reported (fflate alone would accept it)', async () => {
    const a = zlib.gzipSync(log1);
    const { out, problems } = await gunzip(a.subarray(0, a.length - 3));
    expect(out.equals(log1)).toBe(true);
    expect(problems[0]).toMatch(/truncated or corrupt/);
  });

  it('stops inflating past the bound and names it (gzip bomb)', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(40e6), { level: 9 });
    const { out, problems } = await gunzip(bomb, { maxInflatedBytes: 5e6 });
    expect(out.length).toBeLessThan(5e6 + 70e6); // one 64 KiB piece at most past the bound
    expect(problems[0]).toMatch(/gzip inflates to over 5000000 bytes .*gzip bomb/);
  });

  it('nothing inflated at all: FileFormatError', async () => {
    await expect(gunzip(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]))).rejects.toThrow(FileFormatError);
  });

  it('crc32 matches zlib', () => {
    expect(crc32(0, log1)).toBe(zlib.crc32 ? zlib.crc32(log1) : zlib.gzipSync(log1).readUInt32LE(zlib.gzipSync(log1).length - 8));
    expect(crc32(crc32(0, log1.subarray(0, 999)), log1.subarray(999))).toBe(crc32(0, log1));
  });
});

describe('inflateZlib (the WASM engine\'s zlib for .hlog payloads)', () => {
  it('inflates what zlib deflates, and checks Adler-32', () => {
    const z = zlib.deflateSync(log1);
    expect(Buffer.from(inflateZlib(z)).equals(log1)).toBe(true);
    expect(adler32(log1)).toBe(z.readUInt32BE(z.length - 4));
    const bad = Buffer.from(z);
    bad[bad.length - 1] ^= 1;
    expect(() => inflateZlib(bad)).toThrow(/incorrect data check/);
  });

  it('refuses truncated and non-zlib input, and output over the bound', () => {
    const z = zlib.deflateSync(log1);
    expect(() => inflateZlib(z.subarray(0, 100))).toThrow(/not a valid zlib stream/);
    expect(() => inflateZlib(Buffer.from('not zlib at all'))).toThrow(/not a valid zlib stream/);
    expect(() => inflateZlib(z, 1000)).toThrow(/inflated size over 1000 bytes/);
    expect(inflateZlib(zlib.deflateSync(Buffer.alloc(0))).length).toBe(0);
  });

  it('small streams (the kept-buffer path) give what zlib gives, at every size around the buffer', () => {
    for (const size of [1, 600, 4096, 65535, 65536, 65537, 200000]) {
      const plain = Buffer.alloc(size);
      for (let i = 0; i < size; i++) plain[i] = (i * 7919) % 251 < 40 ? (i * 31) & 255 : 0;
      const z = zlib.deflateSync(plain);
      const got = inflateZlib(z);
      expect(Buffer.from(got).equals(plain)).toBe(true);
      // Each answer is its own copy: the next inflate must not change it.
      inflateZlib(zlib.deflateSync(Buffer.from('other')));
      expect(Buffer.from(got).equals(plain)).toBe(true);
      expect(() => inflateZlib(z, size - 1)).toThrow(`inflated size over ${size - 1} bytes`);
      const bad = Buffer.from(z);
      bad[bad.length - 2] ^= 4;
      expect(() => inflateZlib(bad)).toThrow(/incorrect data check/);
      expect(() => inflateZlib(z.subarray(0, z.length - 5))).toThrow(/not a valid zlib stream/);
    }
    // A header asking for a preset dictionary is refused, as zlib refuses it.
    const z = Buffer.from(zlib.deflateSync(Buffer.from('abc')));
    z[1] = (2 << 6) | 32; // FLEVEL 2, FDICT
    z[1] += 31 - (((z[0] << 8) | z[1]) % 31) || 0; // FCHECK
    expect(((z[0] << 8) | z[1]) % 31).toBe(0);
    expect(() => inflateZlib(z)).toThrow(/not a valid zlib stream/);
  });
});
