// A legend that never overflows its chart: an HTML list laid over the
// frame (one row tall; "all N" opens it as a scrolling box), each entry a
// toggle button that hides or shows its series. docs/page-views.md "Legends".

/**
 * @typedef {object} LegendItem
 * @property {string} key      what hiding it hides ("g:host=a", "p:99.9", "band")
 * @property {string} label
 * @property {string} color
 * @property {string} [dash]   SVG dash array of the swatch
 * @property {'line'|'band'} [kind]
 * @property {string} [title]
 */

/**
 * A view's legend box, laid over its frame: empty and hidden until
 * renderLegend fills it.
 * @param {{wrap: HTMLElement}} frame @param {string} testid @param {string} [className]
 */
export function legendBoxOver(frame, testid, className = '') {
  const box = frame.wrap.ownerDocument.createElement('div');
  box.dataset.testid = testid;
  if (className) box.className = className;
  box.hidden = true;
  frame.wrap.appendChild(box);
  return box;
}

/** What each legend box last showed (renderLegend). @type {WeakMap<HTMLElement, string>} */
const drawn = new WeakMap();

/**
 * Fills `box` with the entries. `hidden` holds hidden keys; a click calls
 * onToggle(key). The box keeps its open/closed state across redraws.
 * @param {HTMLElement} box @param {LegendItem[]} items @param {Set<string>} hidden
 * @param {(key: string) => void} onToggle
 */
export function renderLegend(box, items, hidden, onToggle) {
  // A redraw with the same entries keeps the box as it is: rebuilding 200
  // hosts' entries and measuring them (scrollHeight below forces a layout of
  // the page) cost 45-70 ms of every redraw. Callers' onToggle only reads
  // the store, so an older one does the same.
  const sig = JSON.stringify([box.style.width, items, [...hidden].sort()]);
  if (drawn.get(box) === sig && box.childElementCount) {
    box.hidden = !items.length; // a view may have hidden it meanwhile (no data)
    return;
  }
  drawn.set(box, sig);
  const doc = box.ownerDocument;
  box.classList.add('legend-box');
  box.setAttribute('role', 'group');
  box.setAttribute('aria-label', 'Legend: click an entry to hide or show it');
  const list = doc.createElement('div');
  list.className = 'legend-items';
  for (const it of items) {
    const b = doc.createElement('button');
    b.type = 'button';
    b.className = 'legend-item';
    b.dataset.key = it.key;
    b.setAttribute('aria-pressed', String(!hidden.has(it.key)));
    b.title = it.title || `${hidden.has(it.key) ? 'Show' : 'Hide'} ${it.label}`;
    const sw = doc.createElementNS('http://www.w3.org/2000/svg', 'svg');
    sw.setAttribute('width', '18');
    sw.setAttribute('height', '10');
    sw.setAttribute('class', 'legend-swatch');
    if (it.kind === 'band') {
      const r = doc.createElementNS('http://www.w3.org/2000/svg', 'rect');
      r.setAttribute('width', '18');
      r.setAttribute('height', '10');
      r.setAttribute('fill', it.color);
      r.setAttribute('opacity', '0.35');
      sw.appendChild(r);
    } else {
      const l = doc.createElementNS('http://www.w3.org/2000/svg', 'line');
      l.setAttribute('x1', '0');
      l.setAttribute('x2', '18');
      l.setAttribute('y1', '5');
      l.setAttribute('y2', '5');
      l.setAttribute('stroke', it.color);
      l.setAttribute('stroke-width', '2.5');
      if (it.dash) l.setAttribute('stroke-dasharray', it.dash);
      sw.appendChild(l);
    }
    const t = doc.createElement('span');
    t.textContent = it.label;
    b.append(sw, t);
    b.addEventListener('click', () => onToggle(it.key));
    list.appendChild(b);
  }
  const more = doc.createElement('button');
  more.type = 'button';
  more.className = 'legend-more';
  more.dataset.testid = 'legend-more';
  const open = box.classList.contains('open');
  more.textContent = open ? 'less ▴' : `all ${items.length} ▾`;
  more.addEventListener('click', () => {
    box.classList.toggle('open');
    more.textContent = box.classList.contains('open') ? 'less ▴' : `all ${items.length} ▾`;
  });
  box.replaceChildren(list, more);
  box.hidden = !items.length;
  // "all N" only when the entries do not fit the closed box. That is known
  // after layout: measured here, it forced a layout of the page in the
  // middle of drawing (30-60 ms of a 200-host regroup, docs/page-speed.md
  // "Slices and the legend"). A ResizeObserver is told once the browser has
  // laid the list out, before it paints.
  more.hidden = true;
  watchOverflow(box, list, more);
}

/** Each legend box's observer. @type {WeakMap<HTMLElement, ResizeObserver>} */
const observers = new WeakMap();

/**
 * Shows `more` while the list overflows its closed box, checked whenever
 * the list's size changes.
 * @param {HTMLElement} box @param {HTMLElement} list @param {HTMLElement} more
 */
function watchOverflow(box, list, more) {
  // A side legend (the groups view's) is always open and scrolls: no
  // "less" to take room from its entries.
  const check = () => {
    more.hidden = box.classList.contains('legend-side') || (!box.classList.contains('open') && list.scrollHeight <= list.clientHeight + 1);
  };
  observers.get(box)?.disconnect();
  if (typeof ResizeObserver === 'undefined') return check();
  const ro = new ResizeObserver(check);
  ro.observe(list);
  observers.set(box, ro);
}

/** Toggles a key in a list of hidden keys (returns a new sorted list). @param {string[]} hidden @param {string} key */
export function toggleKey(hidden, key) {
  const s = new Set(hidden);
  if (s.has(key)) s.delete(key);
  else s.add(key);
  return [...s].sort();
}
