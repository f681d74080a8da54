// Keyboard shortcuts (listed in the help dialog of index.html).
import { VIEW_NAMES as VIEWS } from '../model/state.js';

/**
 * What the keys drive (the page, app.js).
 * @typedef {object} KeyTarget
 * @property {import('./state.js').Store} store
 * @property {(op: {zoom?: number, pan?: number}) => void} zoom
 * @property {() => void} resetZoom
 * @property {() => void} toggleTheme
 * @property {() => unknown} loadDemo
 */

/** @param {KeyTarget} app @param {HTMLDialogElement} help */
export function installKeys(app, help) {
  window.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA') && e.key !== 'Escape') return;
    const s = app.store.state;
    const i = VIEWS.indexOf(s.view);
    switch (e.key) {
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
        app.store.set({ view: VIEWS[Number(e.key) - 1] });
        break;
      case '[':
        app.store.set({ view: VIEWS[(i + VIEWS.length - 1) % VIEWS.length] });
        break;
      case ']':
        app.store.set({ view: VIEWS[(i + 1) % VIEWS.length] });
        break;
      case '+':
      case '=':
        app.zoom({ zoom: 0.5 });
        break;
      case '-':
      case '_':
        app.zoom({ zoom: 2 });
        break;
      case 'ArrowLeft':
        app.zoom({ pan: -0.25 });
        break;
      case 'ArrowRight':
        app.zoom({ pan: 0.25 });
        break;
      case '0':
      case 'Escape':
        if (help.open) return;
        app.resetZoom();
        break;
      case 'l':
        app.store.set({ yLog: !s.yLog });
        break;
      case 't':
        app.toggleTheme();
        break;
      case 'o':
        document.getElementById('file-input')?.click();
        break;
      case 'd':
        app.loadDemo();
        break;
      case '?':
        if (help.open) help.close();
        else help.showModal();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
}
