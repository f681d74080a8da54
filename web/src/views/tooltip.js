// The hover box of every view: lines of text beside the pointer, kept
// inside the chart's box.

/** @param {HTMLElement} wrap @param {MouseEvent} ev @param {string[]} lines */
export function showTip(wrap, ev, lines) {
  let tip = /** @type {HTMLElement|null} */ (wrap.querySelector('.tip'));
  if (!tip) {
    tip = document.createElement('div');
    tip.className = 'tip';
    wrap.appendChild(tip);
  }
  tip.replaceChildren(...lines.map((l) => Object.assign(document.createElement('div'), { textContent: l })));
  const b = wrap.getBoundingClientRect();
  const px = ev.clientX - b.left;
  const py = ev.clientY - b.top;
  tip.style.display = 'block';
  tip.style.left = `${px + 14 + 220 > b.width ? px - 234 : px + 14}px`;
  tip.style.top = `${Math.max(0, py - 10)}px`;
}

/** @param {HTMLElement} wrap */
export function hideTip(wrap) {
  const tip = /** @type {HTMLElement|null} */ (wrap.querySelector('.tip'));
  if (tip) tip.style.display = 'none';
}
