// Local files after a reload (app/reopen.js): what is kept in the tab's
// sessionStorage, when a pick is the same files, the hint's sentence.
import { describe, it, expect } from 'vitest';
import { rememberFiles, rememberedFiles, sameFiles, reopenText } from '../../src/app/reopen.js';

/** A Storage as the browser's, in memory. */
function memoryStorage() {
  const m = new Map();
  return /** @type {Storage} */ (/** @type {unknown} */ ({ getItem: (/** @type {string} */ k) => m.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => m.set(k, String(v)), removeItem: (/** @type {string} */ k) => m.delete(k) }));
}

describe('reopening local files after a reload', () => {
  it('keeps the names (sorted), forgets them on null; nothing kept, or storage refused or foreign: null', () => {
    const st = memoryStorage();
    expect(rememberedFiles(st)).toBe(null);
    rememberFiles(st, ['b.log', 'a.log']);
    expect(rememberedFiles(st)).toEqual(['a.log', 'b.log']);
    rememberFiles(st, null);
    expect(rememberedFiles(st)).toBe(null);
    st.setItem('latscope-local-files', '{"names":[1]}');
    expect(rememberedFiles(st)).toBe(null);
    st.setItem('latscope-local-files', 'not json');
    expect(rememberedFiles(st)).toBe(null);
    const refusing = /** @type {Storage} */ (/** @type {unknown} */ ({ getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('SecurityError'); } }));
    expect(rememberedFiles(refusing)).toBe(null);
    expect(() => rememberFiles(refusing, ['a'])).not.toThrow();
    expect(rememberedFiles(undefined)).toBe(null);
  });
  it('the same files in any order; one more, one less or another name is not', () => {
    expect(sameFiles(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameFiles(['a', 'b'], ['a'])).toBe(false);
    expect(sameFiles(['a', 'b'], ['a', 'b', 'c'])).toBe(false);
    expect(sameFiles(['a', 'b'], ['a', 'c'])).toBe(false);
  });
  it('the hint names the files, the first six and a count of the rest', () => {
    expect(reopenText(['x.log'])).toMatch(/^This view showed the local file x\.log\. .*open it again/);
    const many = Array.from({ length: 9 }, (_, i) => `f${i}.log`);
    expect(reopenText(many)).toMatch(/^This view showed 9 local files f0\.log, f1\.log, f2\.log, f3\.log, f4\.log, f5\.log and 3 more\. .*open them again/);
  });
});
