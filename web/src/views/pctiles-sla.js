// The SLA thresholds of the percentiles view: a dashed line per rule in its
// percentile's colour, labelled with the rule at the right edge
// (docs/page-views.md "SLA"). The shading of the quanta that break a rule
// is drawn with each line (pctiles-view.js).
import { percentileColor } from './colors.js';
import { dodgeLabels } from './scales.js';

/** Pixels between the baselines of two SLA labels (11 px text). */
const LABEL_GAP = 13;

/**
 * Draws the thresholds inside the plot. Labels of thresholds close together
 * (p99 < 2 ms beside p99.9 <= 2.1 ms) overprinted each other; they are
 * moved apart (dodgeLabels), each with its rule as a tooltip.
 * @param {any} g plot group
 * @param {{text: string, label: string, t: number, max?: boolean, pi: number, p?: number | null}[]} rules core's expanded rules (the answer's sla), thresholds in the result's unit
 * @param {(v: number) => number} y @param {string[]} percentiles the result's
 * @param {number} mainH @param {number} width @param {string} bg the halo colour
 */
export function drawSlaLines(g, rules, y, percentiles, mainH, width, bg) {
  const slaG = g.append('g').attr('class', 'sla-lines');
  const seen = new Set();
  /** @type {{y: number, col: string, text: string, rule: string}[]} */
  const labels = [];
  for (const rule of rules) {
    const ty = y(rule.t);
    if (!(ty >= 0 && ty <= mainH) || seen.has(rule.text)) continue;
    seen.add(rule.text);
    const col = rule.max ? percentileColor(100) : percentileColor(percentiles[rule.pi] ?? rule.p ?? 99);
    slaG.append('line').attr('data-rule', rule.text).attr('x1', 0).attr('x2', width).attr('y1', ty).attr('y2', ty).attr('stroke', col).attr('stroke-dasharray', '6,4').attr('stroke-width', 1.5);
    labels.push({ y: ty - 4, col, text: `SLA ${rule.label}`, rule: rule.text });
  }
  const ys = dodgeLabels(labels.map((l) => l.y), LABEL_GAP, LABEL_GAP, mainH - 2);
  labels.forEach((l, i) => {
    slaG
      .append('text')
      .attr('class', 'sla-label')
      .attr('data-rule', l.rule)
      .attr('x', width - 4)
      .attr('y', ys[i])
      .attr('text-anchor', 'end')
      .attr('fill', l.col)
      .attr('stroke', bg)
      .attr('stroke-width', 3)
      .attr('paint-order', 'stroke')
      .text(l.text)
      .append('title')
      .text(`SLA rule ${l.rule}`);
  });
}
