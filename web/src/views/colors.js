// Line colours that stay put. A percentile has its own colour whatever else
// is shown (adding p99.99 does not recolour max), and a group keeps the
// colour it got when it was first seen (regrouping back, excluding a host or
// zooming does not shuffle them). docs/page-views.md "Colours".
import * as d3 from 'd3';

/**
 * The three palettes' greys: grey is the mean's, the others band's (groups
 * view) and the muted text's colour; a line in it read as one of them (the
 * worst host of the top-N was drawn in the band's grey).
 */
const GREYS = new Set(['#bab0ab', '#666666', '#999999']);

/**
 * The palettes' reds: red is the SLA's (thresholds, the groups view's SLA
 * line, the theme's --warn), so no group line is drawn in it.
 */
export const REDS = new Set(['#e15759', '#e41a1c']);

/**
 * 23 distinguishable line colours: Tableau 10, then Dark2 and Set1, without
 * their greys (GREYS) and Set1's yellow (unreadable on white).
 */
export const LINE_PALETTE = [...d3.schemeTableau10, ...d3.schemeDark2, ...d3.schemeSet1].filter((c) => c !== '#ffff33' && !GREYS.has(c));

/** Group colours: LINE_PALETTE without its reds (REDS); groups beyond 21 reuse them in order. */
export const GROUP_PALETTE = LINE_PALETTE.filter((c) => !REDS.has(c));

/**
 * Fixed places of the percentiles people use: the page's defaults keep the
 * colours they had when colours followed the list's order (p50 blue, p90
 * orange, p99 red, p99.9 teal, max green).
 */
const PERCENTILE_SLOT = new Map([
  [50, 0],
  [90, 1],
  [99, 2],
  [99.9, 3],
  [100, 4],
  [99.99, 5],
  [99.999, 6],
  [75, 7],
  [95, 8],
  [99.5, 9],
  [99.95, 10],
  [99.995, 11],
  [0, 12],
  [25, 13],
]);

/** FNV-1a of a string: a stable slot for anything without a fixed one. @param {string} s */
export function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Colour of a percentile line ("99.9", "100" = max), the same whatever
 * other percentiles are shown.
 * @param {string | number} p
 */
export function percentileColor(p) {
  const n = Number(p);
  const slot = PERCENTILE_SLOT.get(n);
  if (slot !== undefined) return LINE_PALETTE[slot];
  // Others: a slot from the number's text, after the fixed ones.
  const free = LINE_PALETTE.length - PERCENTILE_SLOT.size;
  return LINE_PALETTE[PERCENTILE_SLOT.size + (hashString(String(n)) % free)];
}

/**
 * Group colours by first-seen order: the first group ever drawn gets the
 * palette's first colour and keeps it. The page holds one keeper for its
 * lifetime (App.colors); a new load starts a new one.
 */
export class ColorKeeper {
  constructor() {
    /** @type {Map<string, number>} group key -> order of first sight */
    this.order = new Map();
  }

  /** @param {string} key group name as the engine writes it ("host=a;job=1") */
  index(key) {
    let i = this.order.get(key);
    if (i === undefined) {
      i = this.order.size;
      this.order.set(key, i);
    }
    return i;
  }

  /** @param {string} key */
  color(key) {
    return GROUP_PALETTE[this.index(key) % GROUP_PALETTE.length];
  }

  /**
   * Gives every key a colour in the order given (natural order of names is
   * the caller's choice), so the first view drawn does not decide by draw order.
   * @param {string[]} keys
   */
  see(keys) {
    for (const k of keys) this.index(k);
  }
}

/** Dash of the coordinated-omission-corrected lines (recorded ones are solid). */
export const CO_DASH = '7,4';
