// Property test (issue 28, fuzz targets): the page's fragment and link
// decoders under Node, over random and mutated inputs, iteration-capped and
// seeded (the same inputs every run). parseFragment never throws and always
// returns its shape; decodeLinkData returns a named result or throws an
// Error with a sentence about the link data, never anything else.
import { describe, it, expect } from 'vitest';
import { parseFragment } from '../../src/app/url-state.js';
import { decodeLinkData, encodeLinkData, base64url } from '../../src/app/link.js';

/** mulberry32: a small seeded generator. @param {number} seed */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALPHABET = '#&=?%+,.-_/:;0123456789abcdefqurlvdw=eximpsAZ \t\n\u0000\u001b\u202e\u00e9\ud83d\ude00\ud800';

/** @param {() => number} r @param {number} max */
function randomText(r, max) {
  let s = '';
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

/** One random edit: insert, delete, replace or duplicate a span. @param {() => number} r @param {string} s */
function mutate(r, s) {
  const at = Math.floor(r() * (s.length + 1));
  const len = Math.floor(r() * 8);
  switch (Math.floor(r() * 4)) {
    case 0: return s.slice(0, at) + randomText(r, 8) + s.slice(at);
    case 1: return s.slice(0, at) + s.slice(at + len);
    case 2: return s.slice(0, at) + randomText(r, len + 1) + s.slice(at + len);
    default: return s.slice(0, at) + s.slice(at, at + len).repeat(1 + Math.floor(r() * 50)) + s.slice(at);
  }
}

const SEEDS = [
  '#v=1&q=5000&p=50,99,99.9&g=host&view=heatmap&from=0&to=60000',
  '#url=https%3A%2F%2Fd.example%2Fa.log&url=https%3A%2F%2Fd.example%2Fb%2F',
  '#v=1&off=host%3Da%3A1000&sla=p99%3C%3D5ms&unit=ms&m=fio&rows=64',
  '#demo',
  "#v=1&view=pctiles&q=1000&p=50,99&theme=dark",
];

/** A valid framed result link (a minimal LSRESULT body: the decoder checks the magic only). */
const VALID_LINK = encodeLinkData({ name: 'a_clat_hist.1.log', bytes: new TextEncoder().encode('LSRESULT\u0002\u0000\u0000\u0000rest') }).data;

describe('fragment and link decoders, random and mutated inputs', () => {
  it('parseFragment never throws and keeps its shape', () => {
    const r = rng(28);
    for (let i = 0; i < 3000; i++) {
      const s = i % 3 === 0 ? randomText(r, 200) : mutate(r, mutate(r, SEEDS[i % SEEDS.length]));
      const out = parseFragment(s, { search: i % 5 === 0 ? `?${randomText(r, 40)}` : '' });
      expect(typeof out.state).toBe('object');
      expect(Array.isArray(out.urls)).toBe(true);
      expect(Array.isArray(out.notes)).toBe(true);
      expect(typeof out.data).toBe('string');
      for (const n of out.notes) expect(typeof n).toBe('string');
    }
  });

  it('decodeLinkData returns a named result or throws an Error about the link data', () => {
    const r = rng(2828);
    let ok = 0;
    for (let i = 0; i < 3000; i++) {
      let s;
      if (i % 3 === 0) s = randomText(r, 100);
      else if (i % 3 === 1) s = mutate(r, VALID_LINK);
      else {
        // Mutated bytes behind a valid base64url: the framing is what is tested.
        const b = Uint8Array.from(Buffer.from(VALID_LINK.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
        const k = Math.floor(r() * b.length);
        b[k] = Math.floor(r() * 256);
        s = base64url(i % 2 ? b : b.subarray(0, Math.floor(r() * b.length)));
      }
      try {
        const d = decodeLinkData(s);
        expect(typeof d.name).toBe('string');
        expect(d.name.length).toBeGreaterThan(0);
        expect(d.bytes).toBeInstanceOf(Uint8Array);
        ok++;
      } catch (e) {
        expect(e).toBeInstanceOf(Error);
        expect(/** @type {Error} */ (e).message).toMatch(/^the link data /);
      }
    }
    expect(ok).toBeGreaterThan(0);
  });
});
