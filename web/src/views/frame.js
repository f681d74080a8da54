// A chart frame: an SVG for axes/lines/brush over an optional canvas for
// dense cells, sized to its container. Export turns both into one standalone
// SVG (the canvas embedded as a PNG image) and rasterises that SVG for PNG,
// so PNG and SVG exports always show the same picture.
import * as d3 from 'd3';
import { logTicks, logDomain } from './scales.js';
import { formatNumber } from '../util/format.js';
import { unitScale } from '../model/units.js';

/** @type {{key: string, value: ReturnType<typeof readThemeColors>} | null} */
let themeCache = null;

/**
 * Colours of the current theme, read from CSS custom properties. Cached per
 * theme: reading computed style after building an SVG forces a style
 * recalculation of the whole page.
 */
export function themeColors() {
  const key = document.documentElement.dataset.theme || '';
  if (themeCache && themeCache.key === key) return themeCache.value;
  const value = readThemeColors();
  themeCache = { key, value };
  return value;
}

function readThemeColors() {
  const cs = getComputedStyle(document.documentElement);
  const v = (/** @type {string} */ n, /** @type {string} */ d) => cs.getPropertyValue(n).trim() || d;
  return {
    fg: v('--fg', '#222'),
    bg: v('--panel', '#fff'),
    muted: v('--muted', '#777'),
    grid: v('--grid', '#e5e5e5'),
    warn: v('--warn', '#d62728'),
    band: v('--band', 'rgba(0,0,0,0.08)'),
    font: v('--font', 'system-ui, sans-serif'),
  };
}

/** Line colours of groups: Tableau 10, distinguishable in both themes. */
export const GROUP_COLORS = d3.schemeTableau10;

export class Frame {
  /**
   * @param {HTMLElement} host element to fill
   * @param {{margin?: {top:number,right:number,bottom:number,left:number}, canvas?: boolean, height?: number}} o
   */
  constructor(host, o = {}) {
    this.host = host;
    this.margin = o.margin || { top: 12, right: 24, bottom: 36, left: 64 };
    this.fixedHeight = o.height;
    // Sizes are set by resize() below; declared here so they are numbers.
    this.width = 0;
    this.height = 0;
    this.dpr = 0;
    this.innerW = 0;
    this.innerH = 0;
    this.wrap = document.createElement('div');
    this.wrap.className = 'frame';
    host.appendChild(this.wrap);
    if (o.canvas) {
      this.canvas = document.createElement('canvas');
      this.canvas.className = 'frame-canvas';
      this.wrap.appendChild(this.canvas);
    }
    this.svg = d3.select(this.wrap).append('svg').attr('class', 'frame-svg').attr('xmlns', 'http://www.w3.org/2000/svg');
    this.resize();
  }

  /** Re-reads the container size. @returns {boolean} whether it changed */
  resize() {
    const w = Math.max(320, Math.floor(this.host.clientWidth || 800));
    const h = this.fixedHeight || Math.max(240, Math.floor(this.host.clientHeight || 400));
    const dpr = window.devicePixelRatio || 1;
    const changed = w !== this.width || h !== this.height;
    // Unchanged: nothing is written. Setting a canvas's size, even to the
    // same, reallocates and clears it, and every relayout asks each view.
    if (!changed && dpr === this.dpr) return false;
    this.dpr = dpr;
    this.width = w;
    this.height = h;
    this.innerW = w - this.margin.left - this.margin.right;
    this.innerH = h - this.margin.top - this.margin.bottom;
    this.wrap.style.width = `${w}px`;
    this.wrap.style.height = `${h}px`;
    this.svg.attr('width', w).attr('height', h).attr('viewBox', `0 0 ${w} ${h}`);
    if (this.canvas) {
      this.canvas.style.left = `${this.margin.left}px`;
      this.canvas.style.top = `${this.margin.top}px`;
      this.canvas.style.width = `${this.innerW}px`;
      this.canvas.style.height = `${this.innerH}px`;
      this.canvas.width = Math.round(this.innerW * dpr);
      this.canvas.height = Math.round(this.innerH * dpr);
    }
    return changed;
  }

  /** Empties the SVG and returns the plot group translated by the margins. */
  clear() {
    this.svg.selectAll('*').remove();
    // A tooltip of the old drawing would stay up over the new one (after a
    // zoom the pointer has not moved, so no mouseleave comes).
    const tip = /** @type {HTMLElement | null} */ (this.wrap.querySelector('.tip'));
    if (tip) tip.style.display = 'none';
    const c = themeColors();
    // Through the CSSOM, not a style attribute: the page's CSP allows no inline
    // style attributes (the serialized SVG still carries them).
    this.svg.style('color', c.fg).style('font-family', c.font).style('font-size', '11px');
    this.svg.append('rect').attr('class', 'bg').attr('width', this.width).attr('height', this.height).attr('fill', c.bg);
    // The canvas sits under the SVG in the page; in exports it is embedded here.
    this.imageSlot = this.svg.append('g').attr('class', 'image-slot');
    return this.svg.append('g').attr('transform', `translate(${this.margin.left},${this.margin.top})`);
  }

  /** Message in the middle of an empty chart, one line per \n. @param {string} text */
  message(text) {
    const g = this.clear();
    const lines = text.split('\n');
    const t = g
      .append('text')
      .attr('x', this.innerW / 2)
      .attr('y', this.innerH / 2 - ((lines.length - 1) * 20) / 2)
      .attr('text-anchor', 'middle')
      .attr('fill', 'currentColor')
      .attr('class', 'chart-message');
    lines.forEach((l, i) => t.append('tspan').attr('x', this.innerW / 2).attr('dy', i ? 20 : 0).text(l));
    if (this.canvas) this.canvas.getContext('2d')?.clearRect(0, 0, this.canvas.width, this.canvas.height);
  }

  /**
   * Standalone SVG text of the chart (canvas embedded as an image). With a
   * caption, its first line is a title and the others context, in a band
   * above the chart: an image taken out of the page still says what it shows.
   * @param {string[]} [caption]
   */
  toSVGString(caption = []) {
    return this.exportSVG(caption).text;
  }

  /** @param {string[]} caption @returns {{text: string, height: number}} */
  exportSVG(caption) {
    const node = /** @type {SVGSVGElement} */ (/** @type {SVGSVGElement} */ (this.svg.node()).cloneNode(true));
    node.querySelectorAll('.brush .overlay, .brush .handle, .hover-layer').forEach((n) => n.remove());
    // Legends drawn in HTML over the chart (legend.js) have an SVG twin for exports.
    node.querySelectorAll('.legend-export').forEach((n) => n.removeAttribute('display'));
    if (this.canvas) {
      const slot = node.querySelector('.image-slot');
      const img = document.createElementNS('http://www.w3.org/2000/svg', 'image');
      img.setAttribute('x', String(this.margin.left));
      img.setAttribute('y', String(this.margin.top));
      img.setAttribute('width', String(this.innerW));
      img.setAttribute('height', String(this.innerH));
      img.setAttribute('preserveAspectRatio', 'none');
      img.setAttribute('href', this.canvas.toDataURL('image/png'));
      slot?.appendChild(img);
    }
    // Style attributes become SVG presentation attributes (color, font-size,
    // display, ...): the PNG export draws this SVG as an image, which the
    // page's CSP (no inline styles) would render unstyled.
    for (const el of [node, ...node.querySelectorAll('[style]')]) {
      const st = /** @type {SVGElement} */ (el).style;
      for (let i = st.length - 1; i >= 0; i--) {
        const prop = st[i];
        if (!el.hasAttribute(prop)) el.setAttribute(prop, st.getPropertyValue(prop));
      }
      el.removeAttribute('style');
    }
    let height = this.height;
    if (caption.length) {
      const NS = 'http://www.w3.org/2000/svg';
      const c = themeColors();
      const band = 12 + 18 + 15 * (caption.length - 1);
      height += band;
      const body = document.createElementNS(NS, 'g');
      body.setAttribute('transform', `translate(0,${band})`);
      body.append(...node.childNodes);
      const bg = document.createElementNS(NS, 'rect');
      bg.setAttribute('width', String(this.width));
      bg.setAttribute('height', String(height));
      bg.setAttribute('fill', c.bg);
      const head = document.createElementNS(NS, 'g');
      head.setAttribute('class', 'export-caption');
      caption.forEach((line, i) => {
        const t = document.createElementNS(NS, 'text');
        t.setAttribute('x', '12');
        t.setAttribute('y', String(i === 0 ? 20 : 20 + 4 + 15 * i));
        t.setAttribute('fill', i === 0 ? c.fg : c.muted);
        t.setAttribute('font-size', i === 0 ? '14' : '11');
        if (i === 0) t.setAttribute('font-weight', '600');
        t.textContent = line;
        head.appendChild(t);
      });
      node.append(bg, head, body);
      node.setAttribute('height', String(height));
      node.setAttribute('viewBox', `0 0 ${this.width} ${height}`);
    }
    node.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    node.setAttribute('version', '1.1');
    return { text: '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(node), height };
  }

  /** PNG of the chart at 2x, with the caption as toSVGString. @param {string[]} [caption] @returns {Promise<Blob>} */
  async toPNGBlob(caption = []) {
    const { text: svgText, height } = this.exportSVG(caption);
    const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
    try {
      const img = new Image();
      img.src = url;
      await img.decode();
      const scale = 2;
      const c = document.createElement('canvas');
      c.width = this.width * scale;
      c.height = height * scale;
      const ctx = /** @type {CanvasRenderingContext2D} */ (c.getContext('2d'));
      ctx.scale(scale, scale);
      ctx.drawImage(img, 0, 0, this.width, height);
      return await new Promise((res, rej) => c.toBlob((b) => (b ? res(b) : rej(new Error('PNG encoding failed'))), 'image/png'));
    } finally {
      URL.revokeObjectURL(url);
    }
  }
}

/**
 * Horizontal grid lines + left axis.
 * @param {any} g plot group @param {any} y scale @param {number} w @param {any} axis
 */
export function drawYGrid(g, y, w, axis) {
  const c = themeColors();
  const ticks = axis.tickValues() || (y.ticks ? y.ticks(...axis.tickArguments()) : []);
  g.append('g')
    .attr('class', 'grid')
    .selectAll('line')
    .data(ticks)
    .join('line')
    .attr('x1', 0)
    .attr('x2', w)
    .attr('y1', (/** @type {number} */ d) => y(d))
    .attr('y2', (/** @type {number} */ d) => y(d))
    .attr('stroke', c.grid);
  g.append('g').attr('class', 'axis y-axis').call(axis);
}

/** Axis label. @param {any} g @param {string} text @param {number} x @param {number} y @param {number} [rotate] */
export function axisLabel(g, text, x, y, rotate = 0) {
  g.append('text')
    .attr('class', 'axis-label')
    .attr('transform', `translate(${x},${y}) rotate(${rotate})`)
    .attr('text-anchor', 'middle')
    .attr('fill', 'currentColor')
    .text(text);
}

/**
 * A y scale for latencies, log or linear, fitted to the shown values
 * [lo, hi]: a log axis spans them with a little headroom (scales.js
 * logDomain), a linear one starts near lo rather than at 0, so a flat
 * 2 ms line is not pressed against the top of a 0 … 2 ms axis.
 * @param {boolean} log @param {[number, number]} domain @param {[number, number]} range
 */
export function latencyScale(log, domain, range) {
  if (log) return d3.scaleLog().domain(logDomain(domain[0], domain[1])).range(range);
  let [lo, hi] = domain;
  if (!(hi > 0)) hi = 1;
  if (!(lo >= 0) || lo > hi) lo = 0;
  // 5% of the span as margin (10% of the value when the span is nil), never below 0.
  const pad = (hi - lo) * 0.05 || hi * 0.1;
  return d3.scaleLinear().domain([Math.max(0, lo - pad), hi + pad]).range(range).nice();
}

/**
 * Left axis for a latencyScale: ticks are numbers in the scale's unit (the
 * axis label names it, "latency (µs)"), as many as fit without labels
 * overprinting.
 * @param {any} y scale whose values are in the display unit
 * @param {number} [count] at most this many ticks on a linear axis
 */
export function latencyAxis(y, count) {
  const ax = d3.axisLeft(/** @type {d3.AxisScale<number>} */ (y));
  const [r0, r1] = y.range();
  const px = Math.abs(r1 - r0);
  if (y.base) {
    const [lo, hi] = y.domain();
    ax.tickValues(logTicks(lo, hi, px));
  } else {
    ax.ticks(Math.max(2, Math.min(count ?? 8, Math.floor(px / 28))));
  }
  return ax.tickFormat((t) => formatNumber(Number(t)));
}

/**
 * Left axis for a log scale in ns (the rows of a heat-map grid) whose ticks
 * are round numbers of the display unit, as many as fit without
 * overprinting (scales.js logTicks).
 * @param {any} yNs @param {number} lo @param {number} hi the scale's domain, ns
 * @param {number} h the axis' height px @param {string} unit the display unit
 */
export function nsLogAxis(yNs, lo, hi, h, unit) {
  const ku = unitScale(unit);
  return d3
    .axisLeft(yNs)
    .tickValues(logTicks(lo / ku, hi / ku, h).map((t) => t * ku))
    .tickFormat((t) => formatNumber(Number(t) / ku));
}

/** @type {CanvasRenderingContext2D | null} */
let measureCtx = null;
/**
 * Width of a label in the charts' 11px font, measured on a canvas: asking
 * the SVG (getComputedTextLength) forces a layout of the whole page.
 * @param {string} text
 */
export function textWidth(text) {
  if (!measureCtx) {
    measureCtx = document.createElement('canvas').getContext('2d');
    if (measureCtx) measureCtx.font = `11px ${themeColors().font}`;
  }
  return measureCtx ? measureCtx.measureText(text).width : text.length * 6.5;
}
