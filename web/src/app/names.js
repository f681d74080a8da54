// Pure helpers for showing file names in narrow places: truncation in the
// middle (the end of a log's name says which host, job and log it is:
// s1_clat_hist.2.log.127.0.0.1). No DOM, unit-tested.

/**
 * Splits a name into a head that may be cut short and a tail that is always
 * shown: the part that tells files apart. A fio log's tail starts at its
 * job number (".2.log", ".2.log.127.0.0.1" with client/server's host
 * suffix, ".log.gz"); for other names the last `keep` characters, widened to
 * the start of the extension.
 * @param {string} name @param {number} [keep] characters of tail at least
 * @returns {[string, string]} head + tail === name
 */
export function middleSplit(name, keep = 10) {
  const m = /\.\d+\.log(\.[^/]*)?$/.exec(name);
  let cut = m ? m.index : Math.max(0, name.length - keep);
  if (!m) {
    const dot = name.lastIndexOf('.');
    if (dot > 0 && dot < cut && name.length - dot <= keep + 8) cut = dot;
  }
  // Never all tail: a name shorter than the tail is shown whole anyway.
  if (cut <= 0) return ['', name];
  return [name.slice(0, cut), name.slice(cut)];
}

/**
 * A name in the pieces a line may break between: after `_`, `-` and `/`,
 * and before a fio log's job part and host suffix
 * (`h1_clat_hist` `.1.log` `.127.0.0.1`), so a wrapped name breaks where
 * its parts meet and never inside a number or an address.
 * @param {string} name
 * @returns {string[]} pieces; joined they are the name
 */
export function breakPoints(name) {
  const m = /\.\d+\.log/.exec(name);
  const cuts = new Set();
  for (let i = 0; i < name.length; i++) if ('_-/'.includes(name[i])) cuts.add(i + 1);
  if (m) {
    cuts.add(m.index);
    if (m.index + m[0].length < name.length) cuts.add(m.index + m[0].length);
  }
  const at = [...cuts].filter((c) => c > 0 && c < name.length).sort((a, b) => a - b);
  return [0, ...at].map((c, i) => name.slice(c, i < at.length ? at[i] : name.length));
}

/**
 * A name cut to at most max characters by dropping its middle: "abcdef…xyz"
 * (for text that cannot use CSS, e.g. captions of exported images).
 * @param {string} text @param {number} max at least 5
 * @returns {string}
 */
export function middleTruncate(text, max) {
  if (text.length <= max) return text;
  const [head, tail] = middleSplit(text, Math.floor(max / 2));
  const t = tail.length < max - 1 ? tail : tail.slice(tail.length - Math.floor((max - 1) / 2));
  return `${head.slice(0, Math.max(1, max - 1 - t.length))}…${t}`;
}
