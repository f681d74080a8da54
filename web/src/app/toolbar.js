// The page's toolbar and drop target: the file, folder and add pickers, the
// demo, cancel, theme and help buttons, the export buttons, and files
// dropped anywhere on the page, each handed to the session that loads.
import { itemsFromFileList, itemsFromDataTransfer } from '../load/files.js';

/**
 * Wires the toolbar; returns the help dialog (the keys open it too).
 * @param {(id: string) => HTMLElement} $ @param {import('./session.js').Session} session
 * @param {{toggleTheme: () => void, exporter: import('./exports.js').Exporter}} page
 * @returns {HTMLDialogElement}
 */
export function installToolbar($, session, page) {
  /** @param {string} id @param {'replace' | 'add'} mode */
  const picker = (id, mode) => {
    const input = /** @type {HTMLInputElement} */ ($(id));
    input.addEventListener('change', () => {
      if (input.files?.length) session.loadSelection(itemsFromFileList(input.files), mode);
      input.value = '';
    });
    return input;
  };
  picker('file-input', 'replace');
  picker('folder-input', 'replace');
  const addInput = picker('add-input', 'add');
  $('add-button').addEventListener('click', () => addInput.click());
  $('demo-button').addEventListener('click', () => session.loadDemo());
  $('cancel-button').addEventListener('click', () => session.abort?.abort());
  $('theme-button').addEventListener('click', () => page.toggleTheme());
  const help = /** @type {HTMLDialogElement} */ ($('help'));
  $('help-button').addEventListener('click', () => help.showModal());
  $('export-png').addEventListener('click', () => page.exporter.image('png'));
  $('export-svg').addEventListener('click', () => page.exporter.image('svg'));
  $('export-view-csv').addEventListener('click', () => page.exporter.viewCsv());
  $('export-csv').addEventListener('click', () => page.exporter.pctilesCsv());
  installDrop($('drop-overlay'), session);
  return help;
}

/**
 * Files and folders dropped anywhere on the page, with an overlay while dragging.
 * @param {HTMLElement} overlay @param {import('./session.js').Session} session
 */
function installDrop(overlay, session) {
  let depth = 0;
  window.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    depth++;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (!depth) overlay.hidden = true;
  });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    overlay.hidden = true;
    // Entries must be taken synchronously inside the handler.
    if (e.dataTransfer) itemsFromDataTransfer(e.dataTransfer).then((sel) => session.loadSelection(sel, 'ask'));
  });
}
