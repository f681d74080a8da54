// Sharing: "Copy link" (the view, and where its data comes from), "Copy
// link with data" (the loaded data as a result file in the fragment when
// it fits 64 KB, else the leanest plan that fits, saying what it leaves
// out: queries.js linkPlans) and "Download result (.lsr)" when none does.
import { encodeLinkData, MAX_LINK_CHARS } from './link.js';
import { stateToFragment } from './url-state.js';
import { linkState, linkPlans } from './queries.js';
import { QUANTA } from './options.js';
import { loadSummary } from './sources.js';
import { downloadBlob } from '../util/download.js';
import { formatKB, formatQuantum } from '../util/format.js';

/**
 * @param {import('./state.js').Store} store
 * @param {import('./session.js').Session} session
 * @param {import('./url-sync.js').UrlSync} url
 * @param {(id: string) => HTMLElement} $
 * @param {() => [number, number] | null} extent the loaded data's time span, ms
 */
export function installShare(store, session, url, $, extent) {
  const say = (/** @type {string} */ t) => {
    $('link-status').textContent = t;
  };

  /** "Download result (.lsr)", offered when the data is too large for a link. */
  async function downloadResult() {
    try {
      const r = await session.resultFile();
      downloadBlob(new Blob([/** @type {BlobPart} */ (r.bytes)], { type: 'application/octet-stream' }), r.name);
    } catch (e) {
      say(`The result file could not be written: ${/** @type {Error} */ (e).message}.`);
    }
  }

  /** @param {boolean} withData */
  async function copyLink(withData) {
    const out = /** @type {HTMLInputElement} */ ($('link-output'));
    out.value = '';
    $('download-result').hidden = true;
    // file:// pages have the origin "null": the link is the page's own URL.
    const base = location.protocol === 'file:' ? `file://${location.pathname}` : `${location.origin}${location.pathname}`;
    const ss = store.session;
    let link;
    let what;
    if (!withData) {
      link = `${base}${location.search}#${url.fragment()}`;
      what = ss.origin.urls.length || ss.origin.data || ss.origin.demo
        ? 'the view and where its data comes from'
        : url.embedded
          ? 'the view (this page carries its data)'
          : 'the view only (the files stay here: use "Copy link with data")';
    } else {
      if (!session.engine || !loadSummary(ss.sources, ss.skipped).logs) return say('Load logs first.');
      const s = store.state;
      const logs = loadSummary(ss.sources, ss.skipped).logs;
      // Fullest first; the first that fits (queries.js linkPlans): fewer
      // labels, then coarser whole quanta, each said when it is left out.
      const span = extent();
      const plans = linkPlans(s, QUANTA, span ? span[1] - span[0] : 0);
      let held = '';
      /** @type {string[]} */
      let dropped = [];
      let full = 0;
      for (const plan of plans) {
        let r;
        try {
          r = await session.resultFile(plan);
        } catch (e) {
          return say(`The data could not be written as a result: ${/** @type {Error} */ (e).message}.`);
        }
        const enc = encodeLinkData(r);
        // The link's view: the plan's quantum; directions added together are all its result holds.
        const view = { ...linkState(s), quantum_ms: plan.quantum_ms, ...(plan.labels.includes('dir') ? {} : { directions: 'r,w,t' }) };
        const candidate = `${base}#${stateToFragment(view, { data: enc.data, theme: url.themeInUrl })}`;
        held = `a result file of ${logs} log${logs === 1 ? '' : 's'} (${formatKB(r.bytes.length)}: quanta of ${formatQuantum(plan.quantum_ms)}, labels ${plan.labels.join(', ')})`;
        if (!full) full = candidate.length;
        if (candidate.length <= MAX_LINK_CHARS) {
          link = candidate;
          dropped = plan.dropped;
          break;
        }
      }
      if (!link) {
        $('download-result').hidden = false;
        return say(`The link would be ${formatKB(full)}, over the ${formatKB(MAX_LINK_CHARS)} a link holds, even as ${held}. Download the result file instead (it opens here like a log), or put the files on a web server that sends Access-Control-Allow-Origin and share a link with #url=….`);
      }
      const left = dropped.length ? `. To fit the ${formatKB(MAX_LINK_CHARS)} a link holds (${formatKB(full)} with everything) it leaves out ${dropped.join(' and ')}` : '';
      what = `${formatKB(link.length)}: ${held} and the view${left}. It holds file and host names as labels, not the logs' text, and opens with no server but this page`;
    }
    out.value = link;
    out.hidden = false;
    let copied = false;
    try {
      await navigator.clipboard.writeText(link);
      copied = true;
    } catch {
      /* no clipboard permission: the link is in the box */
    }
    say(`${copied ? 'Link copied' : 'Link ready (copy it from the box)'} — ${what}.`);
    out.select();
  }

  $('copy-link').addEventListener('click', () => copyLink(false));
  $('copy-link-data').addEventListener('click', () => copyLink(true));
  $('download-result').addEventListener('click', () => downloadResult());
}
