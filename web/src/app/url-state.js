// The page's view state in the URL fragment, and back. A fragment is
// untrusted input (anyone can write a link): every field is validated on its
// own; an unknown or malformed field is ignored with a note (the caller logs
// it to the console), never executed, never thrown. Only values the page's
// own controls could produce get through.
//
//   #v=1&view=heatmap&q=5000&p=50,99,99.9&t=12000,30000&g=host&palette=magma
//   #v=1&acc=hist                     (histogram logs count a job that has both)
//   #v=1&url=https://ci.example/run1.tar.gz&url=https://ci.example/run2.tar.gz
//   #v=1&clickhouse=<ClickHouse HTTP URL with table=...>   (load/clickhouse.js)
//   #v=1&d=<deflate-raw + base64url of the loaded data>   ("Copy link with data")
//   #demo                                                 (the demo data set)
//
// `?url=` in the query string is read too (a server or a CI page may prefer
// it); the page only ever writes the fragment, so nothing it holds is sent
// to the server that serves it.
import { DEFAULTS, QUANTA } from './options.js';
import { PALETTES } from '../views/scales.js';
import { clickhouseQueryUrl } from '../load/clickhouse.js';

/** The fragment format's version: `v=1`. A link without `v` is read as version 1. */
export const FRAGMENT_VERSION = 1;

/** Fragments longer than this are not read at all (a link with data is at most ~64 KB). */
export const MAX_FRAGMENT_CHARS = 1 << 20;

/** At most this many `url=` fields are loaded. */
export const MAX_URLS = 64;

const VIEWS = ['pctiles', 'heatmap', 'surface', 'spectrum', 'groups', 'density'];
const MAX_LIST = 64; // percentiles, excluded files/hosts, offsets, SLA thresholds
const MAX_NAME = 512; // one file or host name
const MAX_HOSTS = 4096; // excluded hosts: a drill into one host of a cluster names every other

/**
 * The state keys the fragment carries, with their fragment names. Keys not
 * listed (yZoomNs, clipOutliers' heat map rows...) stay per tab.
 * @type {Record<string, string>}
 */
export const FIELD_OF = {
  view: 'view',
  percentiles: 'p',
  quantum_ms: 'q',
  adaptive: 'ad',
  range: 't',
  group_by: 'g',
  directions: 'dir',
  unit: 'unit',
  method: 'method',
  kinds: 'kind',
  account: 'acc',
  co_interval_ms: 'co',
  exclude_sources: 'xf',
  exclude_hosts: 'xh',
  offsets: 'off',
  yLog: 'ylog',
  showMean: 'mean',
  showBand: 'band',
  sla: 'sla',
  palette: 'palette',
  colorMode: 'color',
  clipOutliers: 'clip',
  heatLines: 'hlines',
  heatY: 'hy',
  surfaceP: 'sp',
  groupsMode: 'gm',
  groupsP: 'gp',
  topN: 'gn',
  groupsSort: 'gs',
  theme: 'theme',
};

/** Fragment fields that are no state key. */
const OTHER_FIELDS = new Set(['v', 'url', 'clickhouse', 'd', 'demo']);

/**
 * @typedef {object} ParsedFragment
 * @property {Partial<import('./state.js').State>} state  validated view state
 * @property {string[]} urls    http(s) URLs to load (`url=`, `clickhouse=`, validated)
 * @property {string} data      `d=`: the loaded data of a "link with data" (base64url; '' when none)
 * @property {boolean} demo     `#demo`
 * @property {string[]} notes   what was ignored and why (for the console)
 */

/** @param {string} v */
function bool(v) {
  if (v === '1' || v === 'true') return true;
  if (v === '0' || v === 'false') return false;
  throw new Error('not 0 or 1');
}

/** A finite number written plainly (no hex, no exponent tricks beyond JS's own). @param {string} v */
function num(v) {
  if (!/^-?\d+(\.\d+)?$/.test(v)) throw new Error('not a number');
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error('not finite');
  return n;
}

/** @param {string} v @param {number} [max] */
function list(v, max = MAX_LIST) {
  const xs = v.split(',').filter((x) => x !== '');
  if (xs.length > max) throw new Error(`more than ${max} entries`);
  return xs;
}

/**
 * A file or host name inside a list: written with '%', ',' and ':' escaped
 * (escapeItem); any text but control characters, bounded.
 * @param {string} v
 */
function name(v) {
  let s;
  try {
    s = decodeURIComponent(v);
  } catch {
    throw new Error('not a name');
  }
  // eslint-disable-next-line no-control-regex
  if (!s || s.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(s)) throw new Error('not a name');
  return s;
}

/** The inverse of name(): a list item keeps its commas and colons. @param {string} v */
function escapeItem(v) {
  return v.replace(/%/g, '%25').replace(/,/g, '%2C').replace(/:/g, '%3A');
}

/**
 * Validators: fragment value -> state value, or throw with why.
 * @type {Record<string, (v: string) => any>}
 */
const PARSE = {
  view: (v) => {
    if (!VIEWS.includes(v)) throw new Error(`not one of ${VIEWS.join(', ')}`);
    return v;
  },
  // Percentiles as the link writes them ("50,99,p99.9,max"), kept as
  // text: core reads them when the link is applied (url-sync.js takeLists,
  // app/pct-field.js) and gives its list or its sentence naming the bad
  // item (docs/page-views.md, "Percentile field").
  percentiles: (v) => list(v),
  quantum_ms: (v) => {
    const q = num(v);
    if (!QUANTA.includes(q)) throw new Error(`not one of the quanta ${QUANTA.join(', ')} ms`);
    return q;
  },
  range: (v) => {
    const xs = v.split(',');
    if (xs.length !== 2) throw new Error('not FROM,TO');
    const [a, b] = xs.map(num);
    if (!(b > a)) throw new Error('TO is not after FROM');
    return [a, b];
  },
  group_by: (v) => {
    // Label names, comma-combined, as the engine's group_by; the app falls
    // back to the cluster when the loaded logs lack them.
    if (v !== 'all' && !/^[a-z][a-z0-9_]{0,31}(,[a-z][a-z0-9_]{0,31}){0,3}$/.test(v)) throw new Error('not label names');
    return v;
  },
  directions: (v) => {
    const d = list(v);
    if (!d.length || d.some((x) => !['r', 'w', 't'].includes(x)) || new Set(d).size !== d.length) throw new Error('not r, w, t');
    return ['r', 'w', 't'].filter((x) => d.includes(x)).join(',');
  },
  unit: (v) => {
    if (!['ns', 'us', 'ms'].includes(v)) throw new Error('not ns, us or ms');
    return v;
  },
  method: (v) => {
    // The engine's methods; the app falls back when the loaded logs do not allow one (exact: per-I/O logs).
    if (!['interp', 'fio', 'hdr', 'exact'].includes(v)) throw new Error('not interp, fio, hdr or exact');
    return v;
  },
  kinds: (v) => {
    const k = list(v);
    if (k.some((x) => !['clat', 'lat', 'slat'].includes(x)) || new Set(k).size !== k.length) throw new Error('not clat, lat, slat');
    return k.join(',');
  },
  account: (v) => {
    if (v !== 'per-io' && v !== 'hist') throw new Error('not per-io or hist');
    return v;
  },
  adaptive: (v) => {
    const a = num(v);
    if (!(a >= 0 && a <= 100)) throw new Error('not 0 (fixed quanta) or an accuracy up to 100');
    return a;
  },
  co_interval_ms: (v) => {
    const ms = num(v);
    if (!(ms >= 0 && ms <= 1e7)) throw new Error('not 0 (off) or an interval in ms');
    return ms;
  },
  heatY: (v) => {
    if (!['latency', 'bs', 'offset'].includes(v)) throw new Error('not latency, bs or offset');
    return v;
  },
  exclude_sources: (v) => [...new Set(list(v).map((x) => name(x)))],
  // A drill into one of hundreds of hosts excludes all the others (host-drill.js).
  exclude_hosts: (v) => [...new Set(list(v, MAX_HOSTS).map((x) => name(x)))],
  offsets: (v) => {
    /** @type {Record<string, number>} */
    const out = Object.create(null);
    for (const kv of list(v)) {
      const i = kv.lastIndexOf(':');
      if (i <= 0) throw new Error('not HOST:MS');
      const host = name(kv.slice(0, i));
      const ms = num(kv.slice(i + 1));
      if (Math.abs(ms) > 1e9) throw new Error('offset over 10^9 ms');
      out[host] = ms;
    }
    // A plain object (no prototype surprises): only own string keys.
    return { ...out };
  },
  yLog: bool,
  showMean: bool,
  showBand: bool,
  clipOutliers: bool,
  heatLines: bool,
  // SLA rules as the page writes them ("p99<2ms,p99.9<=20ms"), kept as
  // text: core reads them when the link is applied (url-sync.js, app/sla.js;
  // a bare threshold, "500", is in the link's unit) and gives their
  // spelling or its sentence for a bad rule (docs/page-views.md, "SLA").
  sla: (v) => list(v),
  groupsMode: (v) => {
    if (!['heat', 'top', 'multiples'].includes(v)) throw new Error('not heat, top or multiples');
    return v;
  },
  // One percentile, read by core as p= is (above).
  groupsP: (v) => {
    if (!v || v.length > MAX_NAME) throw new Error('not one percentile');
    return v;
  },
  topN: (v) => {
    const n = num(v);
    if (!Number.isInteger(n) || n < 1 || n > 20) throw new Error('not a whole number from 1 to 20');
    return n;
  },
  groupsSort: (v) => {
    if (v !== 'name' && v !== 'worst') throw new Error('not name or worst');
    return v;
  },
  palette: (v) => {
    if (!Object.prototype.hasOwnProperty.call(PALETTES, v)) throw new Error(`not one of ${Object.keys(PALETTES).join(', ')}`);
    return v;
  },
  colorMode: (v) => {
    if (!['linear', 'log', 'false'].includes(v)) throw new Error('not linear, log or false');
    return v;
  },
  surfaceP: (v) => {
    const p = num(v);
    if (!(p >= 0 && p <= 100)) throw new Error('not between 0 and 100');
    return p;
  },
  theme: (v) => {
    if (v !== 'light' && v !== 'dark') throw new Error('not light or dark');
    return v;
  },
};

/** @type {Record<string, string>} fragment name -> state key */
const KEY_OF = Object.fromEntries(Object.entries(FIELD_OF).map(([k, f]) => [f, k]));

/** Shortens a value for a console note (it is untrusted: never more than 60 characters). @param {string} v */
function shown(v) {
  return JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);
}

/**
 * Checks one URL to load: absolute http(s) only (or relative to the page,
 * which resolves to the page's own origin). Throws with why.
 * @param {string} v @param {string} base the page's URL
 * @returns {string} the absolute URL
 */
export function checkLoadUrl(v, base) {
  if (v.length > 8192) throw new Error('longer than 8192 characters');
  let u;
  try {
    u = new URL(v, base);
  } catch {
    throw new Error('not a URL');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error(`${u.protocol} URLs are not loaded (http and https only)`);
  if (u.username || u.password) throw new Error('URLs with a user name or password are not loaded');
  return u.href;
}

/**
 * Reads a fragment (with or without '#') and optionally a query string
 * (`?url=` only). Never throws.
 * @param {string} hash location.hash
 * @param {{search?: string, base?: string}} [o] location.search; the page URL (for relative url=)
 * @returns {ParsedFragment}
 */
export function parseFragment(hash, o = {}) {
  /** @type {ParsedFragment} */
  const out = { state: {}, urls: [], data: '', demo: false, notes: [] };
  const base = o.base ?? 'http://localhost/';
  try {
    const text = String(hash ?? '').replace(/^#/, '');
    const addUrl = (/** @type {string} */ v, /** @type {string} */ where) => {
      if (out.urls.length >= MAX_URLS) {
        out.notes.push(`${where}: more than ${MAX_URLS} URLs; the rest are ignored`);
        return;
      }
      try {
        const u = checkLoadUrl(v, base);
        // ?url= and the fragment the page wrote from it name the same URL once.
        if (!out.urls.includes(u)) out.urls.push(u);
      } catch (e) {
        out.notes.push(`${where} ${shown(v)} ignored: ${/** @type {Error} */ (e).message}`);
      }
    };
    if (o.search) {
      try {
        for (const v of new URLSearchParams(o.search).getAll('url')) addUrl(v, '?url=');
      } catch {
        out.notes.push('the query string could not be read');
      }
    }
    if (!text) return out;
    if (text.length > MAX_FRAGMENT_CHARS) {
      out.notes.push(`the fragment is ${text.length} characters, over ${MAX_FRAGMENT_CHARS}: ignored`);
      return out;
    }
    const params = new URLSearchParams(text);
    const v = params.get('v');
    if (v !== null && v !== String(FRAGMENT_VERSION)) {
      out.notes.push(/^\d+$/.test(v) && Number(v) > FRAGMENT_VERSION
        ? `the link was made by a newer latscope (fragment version ${shown(v)}); fields this page knows are read`
        : `fragment version ${shown(v)} unknown; fields this page knows are read`);
    }
    /** @type {Set<string>} */
    const seen = new Set();
    for (const [field, value] of params) {
      if (field === 'v') continue;
      if (field === 'demo') {
        out.demo = true;
        continue;
      }
      if (field === 'url') {
        addUrl(value, 'url=');
        continue;
      }
      if (field === 'clickhouse') {
        // A ClickHouse table or view, fetched as a URL (load/clickhouse.js).
        try {
          addUrl(clickhouseQueryUrl(value, base), 'clickhouse=');
        } catch (e) {
          out.notes.push(`clickhouse= ${shown(value)} ignored: ${/** @type {Error} */ (e).message}`);
        }
        continue;
      }
      if (field === 'd') {
        if (out.data) out.notes.push('a second d= field ignored');
        else if (!/^[A-Za-z0-9_-]+$/.test(value)) out.notes.push('d= is not base64url: ignored');
        else out.data = value;
        continue;
      }
      const key = Object.prototype.hasOwnProperty.call(KEY_OF, field) ? KEY_OF[field] : undefined;
      if (!key || OTHER_FIELDS.has(field)) {
        out.notes.push(`unknown field ${shown(field)} ignored`);
        continue;
      }
      if (seen.has(field)) {
        out.notes.push(`a second ${field}= field ignored`);
        continue;
      }
      seen.add(field);
      if (key === 'quantum_ms' && value === 'auto') {
        // The quantum follows the zoom (docs/page-views.md "Quantum follows the zoom").
        out.state.quantumPinned = false;
        continue;
      }
      try {
        /** @type {any} */ (out.state)[key] = PARSE[key](value);
        if (key === 'quantum_ms') out.state.quantumPinned = true;
      } catch (e) {
        out.notes.push(`${field}=${shown(value)} ignored: ${/** @type {Error} */ (e).message}`);
      }
    }
  } catch (e) {
    out.notes.push(`the fragment could not be read (${/** @type {Error} */ (e).message})`);
  }
  return out;
}

/** Default values of the fragment's state keys: fields equal to them are left out. */
function defaults() {
  return {
    ...DEFAULTS,
    view: 'pctiles',
    range: null,
    exclude_sources: [],
    exclude_hosts: [],
    offsets: {},
    yLog: true,
    showMean: true,
    showBand: true,
    sla: [],
    palette: 'viridis',
    colorMode: 'log',
    clipOutliers: false,
    heatLines: true,
    surfaceP: 99,
    groupsMode: 'heat',
    groupsP: '99',
    topN: 5,
    groupsSort: 'name',
    kinds: '',
    co_interval_ms: 0,
    adaptive: 0,
    heatY: 'latency',
    quantumPinned: false,
  };
}

/** @param {any} v @param {string} [key] @returns {string} */
function write(v, key = '') {
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (Array.isArray(v)) return v.map((x) => (key.startsWith('exclude_') ? escapeItem(String(x)) : String(x))).join(',');
  if (v && typeof v === 'object') return Object.entries(v).filter(([, ms]) => Number(ms) !== 0).map(([h, ms]) => `${escapeItem(h)}:${ms}`).join(',');
  return String(v);
}

/**
 * The fragment (without '#') for a state: `v=1`, then every field that
 * differs from the page's default, then the URLs and data to load.
 * Theme is written only when asked (it is otherwise the viewer's choice).
 * @param {import('./state.js').State} s
 * @param {{urls?: string[], data?: string, demo?: boolean, theme?: boolean}} [extra]
 */
export function stateToFragment(s, extra = {}) {
  const d = /** @type {Record<string, any>} */ (defaults());
  const st = /** @type {Record<string, any>} */ (s);
  const parts = [`v=${FRAGMENT_VERSION}`];
  if (extra.demo) parts.push('demo');
  for (const [key, field] of Object.entries(FIELD_OF)) {
    if (key === 'theme' && !extra.theme) continue;
    const v = st[key];
    if (v === undefined || v === null) continue;
    // The quantum is written when pinned, whatever it is; a quantum that follows the zoom is not (q=auto, the default).
    if (key === 'quantum_ms' && !st.quantumPinned) continue;
    if (key !== 'theme' && key !== 'quantum_ms' && JSON.stringify(v) === JSON.stringify(d[key])) continue;
    const w = write(v, key);
    if (w === '') continue;
    parts.push(`${field}=${encodeField(w)}`);
  }
  for (const u of extra.urls ?? []) parts.push(`url=${encodeField(u)}`);
  if (extra.data) parts.push(`d=${extra.data}`);
  return parts.join('&');
}

/**
 * Percent-encodes what URLSearchParams would misread (&, =, +, #, %, space)
 * and non-ASCII, keeping commas, colons and slashes readable.
 * @param {string} v
 */
function encodeField(v) {
  return encodeURIComponent(v).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2F/g, '/');
}

/**
 * The view-state fields of a posted message's `view` (an object with state
 * keys or fragment names, or a fragment string), validated like a fragment.
 * @param {unknown} view
 * @returns {{state: Partial<import('./state.js').State>, notes: string[]}}
 */
export function parseViewState(view) {
  if (typeof view === 'string') {
    const r = parseFragment(view);
    return { state: r.state, notes: r.notes };
  }
  if (!view || typeof view !== 'object' || Array.isArray(view)) return { state: {}, notes: view == null ? [] : ['view is not an object or a fragment string: ignored'] };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(view)) {
    const key = Object.prototype.hasOwnProperty.call(FIELD_OF, k) ? k : Object.prototype.hasOwnProperty.call(KEY_OF, k) ? KEY_OF[k] : '';
    const field = key ? FIELD_OF[key] : k;
    if (field === 'url' || field === 'd' || field === 'demo' || field === 'v') continue;
    params.append(field, typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || Array.isArray(v) || (v && typeof v === 'object') ? write(v, key) : '');
  }
  const r = parseFragment(params.toString());
  return { state: r.state, notes: r.notes };
}
