// What the page exports: the shown view as an image (PNG, SVG with a
// caption naming what it shows, caption.js) and as CSV (through the view
// registry: the percentiles as `latscope pctiles` prints them, the others'
// numbers as shown).
import { exportCaption } from './caption.js';
import { pctilesCsv } from './view-registry.js';
import { isLog, LOCAL_HOST } from './sources.js';
import { timeExtent } from '../views/pctiles-data.js';
import { downloadBlob, downloadText } from '../util/download.js';
import { naturalCompare } from '../util/natural-order.js';

export class Exporter {
  /**
   * @param {import('./state.js').Store} store
   * @param {{engine: () => any, pct: () => any, shown?: () => {groups?: string[]} | null, views: () => Record<string, import('../views/view.js').View>, registry: ReturnType<typeof import('./view-registry.js').makeRegistry>, hosts?: () => Promise<void>}} page
   */
  constructor(store, page) {
    this.store = store;
    this.page = page;
  }

  /** @param {'png'|'svg'} kind */
  async image(kind) {
    const s = this.store.state;
    const view = this.page.views()[s.view];
    // Charts drawn in slices must be complete; only the percentiles view draws in slices.
    await view.drawing;
    const frame = view.frame;
    const name = `latscope-${s.view}.${kind}`;
    const caption = this.caption();
    if (kind === 'svg') downloadText(frame.toSVGString(caption), name, 'image/svg+xml');
    else downloadBlob(await frame.toPNGBlob(caption), name);
  }

  /** Title and context lines of an exported image (caption.js). */
  caption() {
    const s = this.store.state;
    const pct = this.page.pct();
    const files = this.store.session.sources
      .filter((src) => isLog(src) && !s.exclude_sources.includes(src.name) && !s.exclude_hosts.includes(src.host || src.labels?.host || LOCAL_HOST))
      .map((src) => src.name)
      .sort(naturalCompare);
    const heatRows = s.heatY === 'latency' ? 'latency' : s.heatY === 'bs' ? 'block size' : 'offset';
    // The groups of what the view drew (scheduler.js shown): the groups view's own answer, not the percentiles query's.
    // A heat map's own answer has notes but no groups: the percentiles query's then.
    const groups = (this.page.shown?.()?.groups ?? pct?.groups) || [];
    return exportCaption({ view: s.view, state: s, files, extent: timeExtent(pct), absolute: !!pct?.absolute_time, groups, heatRows });
  }

  /**
   * What the CSV exports are asked with, or null before anything is loaded;
   * grouped by host, with the hosts' own histograms in the engine
   * (level-follow.js withHosts: the groups view may be drawn without them).
   */
  async ask() {
    await this.page.hosts?.();
    const engine = this.page.engine();
    if (!engine || !this.store.session.sources.length) return null;
    return { engine, pct: this.page.pct(), sources: this.store.session.sources };
  }

  /** The percentiles view as `latscope pctiles` CSV (zoomed range only when zoomed). */
  async pctilesCsv() {
    const q = await this.ask();
    if (!q) return;
    const out = await pctilesCsv(q, this.store.state);
    downloadText(out.text, out.name, 'text/csv');
  }

  /** CSV of the numbers the visible view shows. */
  async viewCsv() {
    const q = await this.ask();
    if (!q) return;
    const s = this.store.state;
    const out = await this.page.registry[s.view].csv(this.page.views()[s.view], q, s);
    if (out) downloadText(out.text, out.name, 'text/csv');
  }
}
