// A file whose head shows it is no latency log is not read to its end
// (Engine::wants_bytes): a results folder often holds fio's data files, of
// gigabytes each, which the page would otherwise slice through in full
// (docs/folders.md, "Reading a folder").
import { describe, expect, it } from 'vitest';
import { webcrypto } from 'node:crypto';
import { createEngine } from '../../src/engine/index.js';
import { nodeWasmSource } from '../../src/engine/node.js';

/** A Blob that counts the bytes of the slices read from it. */
class CountingBlob extends Blob {
  /** @param {BlobPart[]} parts */
  constructor(parts) {
    super(parts);
    this.sliced = 0;
  }

  /** @param {number} [a] @param {number} [b] @param {string} [type] */
  slice(a = 0, b = this.size, type) {
    this.sliced += Math.min(b, this.size) - a;
    return super.slice(a, b, type);
  }
}

/** n random bytes (a fio data file's content). @param {number} n */
function randomBytes(n) {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) webcrypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

describe('a file that is no latency log', () => {
  it('is read only as far as its head: the rest of a 32 MiB data file is not sliced', async () => {
    const e = await createEngine({ mode: 'inthread', wasm: nodeWasmSource() });
    try {
      const blob = new CountingBlob([randomBytes(32 << 20)]);
      const [src] = await e.loadFiles([{ file: blob, name: 'results/randread.0.0' }], { inPrimary: true, sliceBytes: 1 << 20 });
      expect(src.format).toBe('ignored');
      expect(src.ignored).toBe('binary data');
      expect(blob.sliced).toBeLessThanOrEqual((1 << 20) + 6); // the container sniff's 6 bytes and one slice
    } finally {
      e.terminate();
    }
  });
});
