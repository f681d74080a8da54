// The percentiles view's legend: an HTML row over the chart (legend.js)
// whose clicks hide or show lines, and the same entries as SVG text for
// the exported image (which has no HTML).
import { themeColors, textWidth } from './frame.js';
import { renderLegend, toggleKey } from './legend.js';
import { CO_DASH } from './colors.js';
import { manyGroups } from './pctiles-rest.js';
import { percentileName } from '../model/percentiles.js';
import { coPairs } from '../model/co-groups.js';

/**
 * What the legend needs of the percentiles view (pctiles-view.js).
 * @typedef {{frame: import('./frame.js').Frame, legendBox: HTMLElement, ctx: {store: import('./view.js').ViewStore}}} PercentilesView
 */

/**
 * The legend's entries: groups by colour, percentiles by colour or dash,
 * the coordinated-omission halves by line style, and the mean.
 * @param {PercentilesView} view
 * @param {any} g @param {any} r @param {boolean} withMean @param {Function} color @param {Function} dash
 * @param {{bases: string[], interval: number} | null} co groups paired by coordinated-omission correction
 * @param {Set<number> | null} [keep] many groups: the ones drawn as lines (pctiles-rest.js); the others are a band
 */
export function drawLegend(view, g, r, withMean, color, dash, co, keep = null) {
  const c = themeColors();
  /** @type {import('./legend.js').LegendItem[]} */
  const items = [];
  const pItem = (/** @type {string} */ p, /** @type {string} */ col, /** @type {string} */ d) => ({ key: `p:${p}`, label: percentileName(p), color: col, dash: d });
  if (co) {
    // Colours: percentiles (one base group) or group × percentile; line style: recorded or corrected.
    if (co.bases.length > 1) {
      const gi = (/** @type {number} */ b) => r.groups.findIndex((/** @type {string} */ _g, /** @type {number} */ i) => coPairs(r.groups).of[i].base === b);
      co.bases.forEach((name, b) => items.push({ key: `g:${name}`, label: name, color: color(gi(b), 0), dash: '' }));
      r.percentiles.forEach((/** @type {string} */ p) => items.push(pItem(p, c.fg, '')));
    } else {
      r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => items.push(pItem(p, color(0, pi), '')));
    }
    items.push({ key: 'co:uncorrected', label: 'recorded (co=uncorrected)', color: c.fg, dash: '' });
    items.push({ key: 'co:corrected', label: `corrected for coordinated omission, interval ${co.interval} ms`, color: c.fg, dash: CO_DASH });
  } else if (r.groups.length > 1) {
    r.groups.forEach((/** @type {string} */ name, /** @type {number} */ gi) => {
      if (!keep || keep.has(gi)) items.push({ key: `g:${name}`, label: name, color: color(gi, 0), dash: '' });
    });
    r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => items.push(pItem(p, c.fg, dash(pi))));
  } else {
    r.percentiles.forEach((/** @type {string} */ p, /** @type {number} */ pi) => items.push(pItem(p, color(0, pi), '')));
  }
  if (withMean) items.push({ key: 'mean', label: co ? 'mean (dotted: corrected)' : 'mean', color: c.muted, dash: '4,3' });
  // An HTML legend over the top margin (legend.js): one row, "all N" opens
  // the rest in a scrolling box; a click hides or shows those lines.
  const f = view.frame;
  const box = view.legendBox;
  box.style.left = `${f.margin.left}px`;
  box.style.top = '4px';
  // The top right corner keeps the error-band note or the many-groups note (pctiles-rest.js).
  const noted = view.ctx.store.state.showBand || manyGroups(r, view.ctx.store.state);
  box.style.width = `${Math.max(160, f.innerW - (noted ? 360 : 0))}px`;
  renderLegend(box, items, new Set(view.ctx.store.state.hidden), (key) => view.ctx.store.set({ hidden: toggleKey(view.ctx.store.state.hidden, key) }));
  // The exported image has no HTML: the shown entries go into the SVG as text.
  const lg = g.append('g').attr('class', 'legend legend-export').attr('transform', 'translate(0,-22)').attr('display', 'none');
  let xo = 0;
  for (const it of items) {
    if (view.ctx.store.state.hidden.includes(it.key)) continue;
    const item = lg.append('g').attr('transform', `translate(${xo},0)`);
    item.append('line').attr('x1', 0).attr('x2', 18).attr('y1', 6).attr('y2', 6).attr('stroke', it.color).attr('stroke-width', 2).attr('stroke-dasharray', it.dash || '');
    item.append('text').attr('x', 22).attr('y', 10).attr('fill', 'currentColor').text(it.label);
    xo += 30 + textWidth(it.label);
    if (xo > f.innerW) break;
  }
}
