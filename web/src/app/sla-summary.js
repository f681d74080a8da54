// The SLA verdict under the views (docs/ci-reports.md): per rule, the total
// over groups (what `latscope pctiles --sla` prints for the same query) and
// each group, violating groups first; beyond eight groups the rest fold away.
import { naturalCompare } from '../util/natural-order.js';

/** The last verdict asked per element: an older answer never replaces a newer one. */
const asked = new WeakMap();

/**
 * Shows core's verdict of the rules on the percentiles answer shown
 * (engine.judgeSla: the counts and sentences `latscope pctiles --sla` and
 * the report give, core sla_field.h); `relayout` when its height changed
 * (the charts give it the room it takes).
 * @param {HTMLElement} el @param {import('./state.js').State} state @param {any} pct
 * @param {() => void} relayout
 * @param {((text: string, unit: string) => Promise<import('../engine/inthread.js').SlaVerdicts>) | null} judge
 * @returns {Promise<void>}
 */
export async function showSla(el, state, pct, relayout, judge) {
  const token = {};
  asked.set(el, token);
  const h0 = el.hidden ? 0 : el.offsetHeight;
  const hide = () => {
    el.hidden = true;
    el.replaceChildren();
    if (h0) relayout();
  };
  if (!state.sla.length || !pct || !pct.n || !judge) return hide();
  /** @type {import('../engine/inthread.js').SlaVerdict[]} */
  let verdicts;
  try {
    ({ verdicts } = await judge(state.sla.join(';'), state.unit));
  } catch {
    // The query itself failed: the page says so where it shows the query's error.
    if (asked.get(el) === token) hide();
    return;
  }
  if (asked.get(el) !== token) return;
  const doc = el.ownerDocument;
  /** @param {import('../engine/inthread.js').SlaRule} rule @param {import('../engine/inthread.js').SlaGroupVerdict} o @param {boolean} total */
  const line = (rule, o, total) => {
    const d = doc.createElement('div');
    d.className = `sla-line${o.violated ? ' sla-bad' : ''}`;
    d.dataset.rule = rule.text;
    d.dataset.what = rule.what;
    d.dataset.group = total ? '*' : o.group;
    d.dataset.violated = String(o.violated);
    d.dataset.evaluated = String(o.evaluated);
    d.textContent = o.sentence;
    return d;
  };
  /** @type {HTMLElement[]} */
  const out = [];
  for (const ev of verdicts) {
    const groups = ev.groups.slice().sort((a, b) => b.violated - a.violated || naturalCompare(a.group, b.group));
    if (groups.length > 1) out.push(line(ev.rule, ev.total, true));
    const shown = groups.length > 1 ? groups.slice(0, 8) : groups;
    for (const o of shown) out.push(line(ev.rule, o, false));
    if (groups.length > shown.length) {
      const det = doc.createElement('details');
      const sum = doc.createElement('summary');
      const bad = groups.slice(shown.length).filter((o) => o.violated).length;
      sum.textContent = `${groups.length - shown.length} more groups (${bad} with violations)`;
      det.append(sum, ...groups.slice(shown.length).map((o) => line(ev.rule, o, false)));
      out.push(det);
    }
  }
  el.replaceChildren(...out);
  el.hidden = false;
  // The charts give it the room it takes (a no-op when its height is unchanged).
  if (el.offsetHeight !== h0) relayout();
}
