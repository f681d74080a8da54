// The URL as a view of the store: the fragment (url-state.js) is read into
// the store's view state, and what the data came from (the session's
// origin) loaded, at start and on Back/Forward; every committed change of
// the view state writes a history entry. Untrusted input: what is
// malformed is ignored with a console note.
import { initialState } from './state.js';
import { parseFragment, stateToFragment, FIELD_OF } from './url-state.js';
import { readEmbeddedData, removeStaticLayer } from './embedded-data.js';
import { narrowConnectSrc } from './csp.js';
import { rememberedFiles } from './reopen.js';

/** @typedef {import('./state.js').State} State */

/** State keys the fragment carries (url-state.js). */
// quantumPinned rides in q= (url-state.js stateToFragment: a pinned quantum is written, one that follows the zoom is not).
const URL_KEYS = new Set([...Object.keys(FIELD_OF), 'quantumPinned']);

export class UrlSync {
  /**
   * @param {import('./state.js').Store} store
   * @param {import('./session.js').Session} session
   * @param {{redraw: () => void, message: (text: string) => void, reopen: (names: string[]) => void, sla: (text: string) => void, percentiles: (lists: LinkList[]) => void}} page every view drawn again (a theme from the link), saying a text, naming the local files to open again, a link's SLA rules to read (core reads them, app/sla.js), or its percentiles (core reads them, app/pct-field.js)
   */
  constructor(store, session, page) {
    this.store = store;
    this.session = session;
    this.page = page;
    /** The fragment last read or written (popstate/hashchange of our own writes are ignored). */
    this.lastHash = '';
    /** True while a fragment is being applied: its store changes write no history. */
    this.applying = false;
    /** The theme is in the fragment only once chosen (in this tab or by the link). */
    this.themeInUrl = false;
    /** connect-src was narrowed to 'self' at start (csp.js). */
    this.narrowed = false;
    /** The page was opened with data embedded in it (embedded-data.js). */
    this.embedded = false;
    /** Last history write, to coalesce drags and held keys into one entry. */
    this.lastWrite = { t: 0, keys: '' };
  }

  /** Listens: the store's changes go to the history, Back and Forward come back. */
  install() {
    this.store.subscribe((changed) => this.write(changed));
    this.apply(true);
    window.addEventListener('popstate', () => this.apply(false));
    window.addEventListener('hashchange', () => this.apply(false));
  }

  /**
   * Reads the fragment and `?url=`: applies its view state and loads what
   * it names (URLs, a link's data, the demo) when that differs from what is
   * loaded.
   * @param {boolean} first
   */
  apply(first) {
    if (!first && location.hash === this.lastHash) return;
    this.lastHash = location.hash;
    const session = this.session;
    const frag = parseFragment(location.hash, { search: location.search, base: document.baseURI });
    for (const n of frag.notes) console.warn(`latscope: link: ${n}`);
    if (first) this.narrowed = narrowConnectSrc(document, frag.urls.length > 0);
    else if (this.narrowed && frag.urls.length) {
      // This page may only talk to its own origin: start afresh without that narrowing.
      location.reload();
      return;
    }
    /** @type {Record<string, any>} */
    const state = { ...urlDefaults(this.store.state.theme), ...frag.state };
    if (frag.state.theme) this.themeInUrl = true;
    if (first && this.loadEmbedded(frag)) return;
    const sla = takeSla(state);
    const lists = takeLists(state, frag.state);
    const origin = { urls: frag.urls, data: frag.data, demo: frag.demo && !frag.data && !frag.urls.length };
    const same = JSON.stringify(origin) === JSON.stringify(this.store.session.origin);
    const wants = origin.urls.length || origin.data || origin.demo;
    // Fields that depend on the data (range, exclusions, offsets, groups) wait for the load.
    this.applyState(wants && !same ? withoutDataFields(state) : state);
    // After the unit: a bare threshold is in the link's unit.
    this.page.sla(sla);
    this.page.percentiles(lists);
    if (first && !wants) {
      // A reload of local files: name them; opening them again applies this state after the load (reopen.js).
      const names = rememberedFiles(globalThis.sessionStorage);
      if (names) {
        session.reopen = { names, state };
        this.page.reopen(names);
      }
    }
    if (same || !wants) return;
    if (origin.data) session.loadLinkData(origin.data, state);
    else if (origin.urls.length) session.loadUrls(origin.urls, state);
    else session.loadDemo(state);
  }

  /**
   * The result embedded in the page (`latscope report`, embedded-data.js),
   * loaded at start-up like an opened file, with its view state; the
   * fragment's view fields (the viewer's changes, kept across a reload) go
   * on top. A link's own data (url=, d=, demo) is not loaded then.
   * @param {import('./url-state.js').ParsedFragment} frag
   * @returns {boolean} true when the page embeds something (loaded or said to be bad)
   */
  loadEmbedded(frag) {
    removeStaticLayer(document);
    const em = readEmbeddedData(document);
    if (!em) return false;
    for (const n of em.notes) console.warn(`latscope: embedded data: ${n}`);
    if (em.error) {
      this.session.say('error', `The data embedded in this page cannot be read: ${em.error}. Open files instead.`);
      this.page.message('The embedded data cannot be read');
      return true;
    }
    if (frag.urls.length || frag.data || frag.demo) console.warn('latscope: link: the page embeds its data; url=, d= and demo in the link are ignored');
    /** @type {Record<string, any>} */
    const state = { ...urlDefaults(this.store.state.theme), ...em.view, ...frag.state };
    const sla = takeSla(state);
    const lists = takeLists(state, { ...em.view, ...frag.state });
    this.applyState(withoutDataFields(state));
    this.page.sla(sla);
    this.page.percentiles(lists);
    const r = /** @type {{name: string, bytes: Uint8Array}} */ (em.result);
    this.embedded = true;
    this.session.load([{ name: r.name, file: new Blob([/** @type {BlobPart} */ (r.bytes)]) }], [], { after: state, inputs: em.trust ? { rows: em.trust, dropped: em.trustDropped } : undefined });
    return true;
  }

  /** View state from a link or a load: no history entry of its own. @param {Partial<State>} state */
  applyState(state) {
    const theme = this.store.state.theme;
    this.applying = true;
    try {
      this.store.set(state);
    } finally {
      this.applying = false;
    }
    if (theme !== this.store.state.theme) this.page.redraw();
  }

  /** The fragment for the current state and data. */
  fragment() {
    const o = this.store.session.origin;
    return stateToFragment(this.store.state, { urls: o.urls, data: o.data, demo: o.demo, theme: this.themeInUrl });
  }

  /**
   * Writes the state into the fragment: a new history entry per committed
   * change (Back undoes it), replacing the entry while a drag or a held key
   * repeats the same change.
   * @param {Set<string>} changed
   */
  write(changed) {
    if (this.applying) return;
    const keys = [...changed].filter((k) => URL_KEYS.has(k));
    if (!keys.length) return;
    if (changed.has('theme')) this.themeInUrl = true;
    const frag = this.fragment();
    if (`#${frag}` === location.hash) return;
    if (!location.hash && frag === 'v=1') return;
    const now = performance.now();
    const sig = keys.sort().join(',');
    const drag = sig === 'surfaceP' || (sig === this.lastWrite.keys && now - this.lastWrite.t < 400);
    this.lastWrite = { t: now, keys: sig };
    const url = `${location.pathname}${location.search}#${frag}`;
    try {
      if (drag) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    } catch (e) {
      // Some hosts refuse history writes (an opaque-origin frame): the state stays in the page.
      console.warn(`latscope: the URL could not be updated (${/** @type {Error} */ (e).message})`);
    }
    this.lastHash = location.hash;
  }

  /** Rewrites the current history entry's fragment after the data's origin changed. */
  writeOrigin() {
    const frag = this.fragment();
    if (`#${frag}` === location.hash || (!location.hash && frag === 'v=1')) return;
    try {
      history.replaceState(null, '', `${location.pathname}${location.search}#${frag}`);
    } catch {
      /* see write */
    }
    this.lastHash = location.hash;
  }
}

/**
 * The fragment's fields at their defaults: a fragment that lacks a field
 * means the default (Back to an earlier entry restores it). The theme stays
 * the viewer's unless the fragment names one.
 * @param {'light'|'dark'} theme
 */
function urlDefaults(theme) {
  const s = initialState();
  /** @type {Record<string, any>} */
  const out = {};
  for (const k of URL_KEYS) out[k] = /** @type {Record<string, any>} */ (s)[k];
  out.theme = theme;
  return out;
}

/**
 * The link's SLA rules as text, taken out of its state: core reads them
 * (app/sla.js) and the state gets core's spelling, or core's sentence is
 * shown (docs/page-views.md, "SLA").
 * @param {Record<string, any>} s @returns {string}
 */
function takeSla(s) {
  const text = (s.sla ?? []).join(',');
  delete s.sla;
  return text;
}

/** @typedef {{key: import('./pct-field.js').PercentileKey, text: string}} LinkList */

/**
 * The percentiles a link or a view gave (p=, gp=) as text, taken out of its
 * state: core reads them (app/pct-field.js) and the state gets core's list,
 * or the default with core's sentence (docs/page-views.md, "Percentile
 * field"). A field the link lacks keeps its default in the state.
 * @param {Record<string, any>} s the state to apply
 * @param {Record<string, any>} given what the link or view itself said
 * @returns {LinkList[]}
 */
export function takeLists(s, given) {
  /** @type {LinkList[]} */
  const out = [];
  for (const key of /** @type {const} */ (['percentiles', 'groupsP'])) {
    if (given[key] === undefined) continue;
    out.push({ key, text: [given[key]].flat().join(',') });
    delete s[key];
  }
  return out;
}

/** The state without the fields that need the data (applied after the load). @param {Record<string, any>} s */
function withoutDataFields(s) {
  const { range, exclude_sources, exclude_hosts, offsets, group_by, ...rest } = s;
  return rest;
}
