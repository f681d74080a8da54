// Issue 28 §3: #url= downloads are counted as they stream and stopped past
// the page's memory budget, with a sentence naming the URL and the limit
// (docs/page-loading.md, "Downloads"). No timing: bytes pulled are counted.
import { describe, it, expect } from 'vitest';
import { fetchItems, MAX_DOWNLOAD_BYTES } from '../../src/load/remote.js';
import { withResultBudget, MIN_RESULT_BYTES } from '../../src/engine/budget.js';

const MiB = 2 ** 20;

/**
 * A fetch whose body streams 1 MiB chunks, `chunks` of them (Infinity:
 * endless), optionally announcing a length; `pulled` counts what was read.
 * @param {number} chunks @param {{pulled: number, cancelled: boolean}} seen @param {number} [announce]
 * @returns {typeof fetch}
 */
function streaming(chunks, seen, announce) {
  return /** @type {typeof fetch} */ (/** @type {unknown} */ (async () => {
    let sent = 0;
    const body = new ReadableStream({
      pull(c) {
        if (sent >= chunks) return c.close();
        sent++;
        seen.pulled += MiB;
        c.enqueue(new Uint8Array(MiB));
      },
      cancel() {
        seen.cancelled = true;
      },
    });
    const headers = new Headers(announce ? { 'content-length': String(announce) } : {});
    return new Response(body, { status: 200, headers });
  }));
}

describe('download budget', () => {
  it('stops an endless stream past the budget, naming the URL and the limit', async () => {
    const seen = { pulled: 0, cancelled: false };
    const r = await fetchItems(['https://d.example/big.log'], { fetch: streaming(Infinity, seen), maxBytes: 8 * MiB });
    expect(r.items).toEqual([]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^https:\/\/d\.example\/big\.log: stopped after 9\.0 MiB, past the page's memory budget of 8\.0 MiB .*nothing of it is loaded/);
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThanOrEqual(8 * MiB + 2 * MiB);  // the stream's own look-ahead at most
  });

  it('refuses an announced length past the budget before reading, and counts every URL of a load together', async () => {
    const seen = { pulled: 0, cancelled: false };
    const r = await fetchItems(['https://d.example/huge.log'], { fetch: streaming(3, seen, 3 * 2 ** 30), maxBytes: 64 * MiB });
    expect(r.errors[0]).toMatch(/huge\.log: announces 3072 MiB, past the page's memory budget of 64.0 MiB/);
    const two = { pulled: 0, cancelled: false };
    const both = await fetchItems(['https://d.example/a/x.log', 'https://d.example/b/x.log'], { fetch: streaming(6, two), maxBytes: 10 * MiB });
    expect(both.items).toHaveLength(1);
    expect(both.errors[0]).toMatch(/b\/x\.log: stopped after 5\.0 MiB beside the 6\.0 MiB fetched before it, past the page's memory budget of 10\.0 MiB/);
  });

  it('has a bound with no budget (?budget=off)', async () => {
    expect(MAX_DOWNLOAD_BYTES).toBe(2 ** 31);
    const seen = { pulled: 0, cancelled: false };
    const r = await fetchItems(['https://d.example/a.log'], { fetch: streaming(2, seen), maxBytes: Infinity });
    expect(r.errors).toEqual([]);
    expect(r.items).toHaveLength(1);
  });
});

describe('result budget (docs/result-format.md, "Memory")', () => {
  it('passes the memory budget as max_result_bytes, at least MIN_RESULT_BYTES; none without a budget', () => {
    expect(withResultBudget({ hdr_unit: 'us' }, { bytes: 2 ** 30 })).toEqual({ hdr_unit: 'us', max_result_bytes: 2 ** 30 });
    expect(withResultBudget(undefined, { bytes: 2e6 })).toEqual({ max_result_bytes: MIN_RESULT_BYTES });
    expect(withResultBudget({ a: 1 }, { bytes: Infinity })).toEqual({ a: 1 });
    expect(withResultBudget(undefined, undefined)).toBe(undefined);
  });
});
