// The sidebar's width: a drag handle (pointer, or arrow keys when focused)
// between the sidebar and the views. The width is kept in localStorage, so
// it survives a reload; the views are laid out again after a change.

const KEY = 'latscope-sidebar-width';
export const SIDEBAR_MIN = 240;
export const SIDEBAR_DEFAULT = 470;

/**
 * The width before the user picks one: SIDEBAR_DEFAULT (the file table's
 * trust columns fit it, docs/page-views.md "File table and sidebar"), at
 * most 45% of a narrow window so the views keep the larger part.
 * @param {number} windowWidth
 */
export function defaultSidebar(windowWidth) {
  return Math.round(Math.max(SIDEBAR_MIN, Math.min(SIDEBAR_DEFAULT, windowWidth * 0.45)));
}

/**
 * A width the layout can take: at least SIDEBAR_MIN, at most 60% of the
 * window; what is not a number gives the default.
 * @param {unknown} w @param {number} windowWidth
 */
export function clampSidebar(w, windowWidth) {
  const n = Number(w);
  if (!Number.isFinite(n) || n <= 0) return SIDEBAR_DEFAULT;
  return Math.round(Math.max(SIDEBAR_MIN, Math.min(n, Math.max(SIDEBAR_MIN, windowWidth * 0.6))));
}

/**
 * @param {HTMLElement} sidebar @param {HTMLElement} handle
 * @param {() => void} onResized called after the width changed (once per drag)
 */
export function installSidebarResize(sidebar, handle, onResized) {
  const root = sidebar.ownerDocument.documentElement;
  const win = /** @type {Window} */ (sidebar.ownerDocument.defaultView);
  const apply = (/** @type {number} */ w) => {
    const c = clampSidebar(w, win.innerWidth);
    root.style.setProperty('--sidebar-w', `${c}px`);
    handle.setAttribute('aria-valuenow', String(c));
    return c;
  };
  const save = (/** @type {number} */ w) => {
    try {
      win.localStorage.setItem(KEY, String(w));
    } catch {
      /* storage refused (sandboxed iframe): the width lasts this visit */
    }
  };
  let saved = null;
  try {
    saved = win.localStorage.getItem(KEY);
  } catch {
    /* as above */
  }
  handle.setAttribute('aria-valuemin', String(SIDEBAR_MIN));
  apply(saved ? Number(saved) : defaultSidebar(win.innerWidth));

  handle.addEventListener('pointerdown', (ev) => {
    ev.preventDefault();
    handle.setPointerCapture(ev.pointerId);
    handle.classList.add('dragging');
    const x0 = ev.clientX;
    const w0 = sidebar.getBoundingClientRect().width;
    const move = (/** @type {PointerEvent} */ e) => apply(w0 + e.clientX - x0);
    const up = (/** @type {PointerEvent} */ e) => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      handle.classList.remove('dragging');
      save(apply(w0 + e.clientX - x0));
      onResized();
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  handle.addEventListener('keydown', (ev) => {
    const step = ev.shiftKey ? 60 : 20;
    const d = ev.key === 'ArrowLeft' ? -step : ev.key === 'ArrowRight' ? step : 0;
    if (!d) return;
    ev.preventDefault();
    ev.stopPropagation(); // the page's arrow keys pan the time range
    save(apply(sidebar.getBoundingClientRect().width + d));
    onResized();
  });
}
