// The shape of the page's state: what the one store (app/state.js) holds,
// the fragment carries (app/url-state.js) and the views read.

/** @typedef {'pctiles' | 'heatmap' | 'surface' | 'spectrum' | 'groups' | 'density'} ViewName */

/**
 * One group of the groups view shown alone in the heat map: the logs of the
 * other groups left out of the heat map's queries only, so the file table,
 * the json+ output (placement, tails) and the other views keep every file
 * (docs/page-views.md, "Groups view").
 * @typedef {{key: string, exclude_sources: string[], directions: string, unsupported: string[]}} Focus
 */

/**
 * @typedef {object} State
 * @property {number} quantum_ms
 * @property {boolean} quantumPinned          the quantum was chosen (selector, link); false: it follows the zoom (docs/page-views.md "Quantum follows the zoom")
 * @property {number} adaptive                 percentiles view: adaptive quanta at this accuracy (0 = fixed quanta; docs/uncertainty.md)
 * @property {string[]} percentiles
 * @property {string} group_by
 * @property {string} directions
 * @property {string} method
 * @property {string} unit
 * @property {'per-io'|'hist'} account        a job with both a histogram and a per-I/O log: which counts its I/Os (options.js accountsOf)
 * @property {string} kinds                    latency kinds ('' = the engine's default: clat when several)
 * @property {number} co_interval_ms           coordinated-omission expected interval (0 = off)
 * @property {Record<string, number>} offsets   host or file name -> ms
 * @property {string[]} exclude_sources
 * @property {string[]} exclude_hosts
 * @property {[number, number] | null} range    brushed time range, ms
 * @property {ViewName} view
 * @property {'light'|'dark'} theme
 * @property {boolean} yLog
 * @property {boolean} showMean
 * @property {boolean} showBand
 * @property {string[]} sla                     SLA rules as core spells them ("p99<2ms"; app/sla.js asks core)
 * @property {'heat'|'top'|'multiples'} groupsMode  groups view: group x time heat map, top-N lines, small multiples
 * @property {string} groupsP                  groups view: the percentile shown ("99", "100" = max)
 * @property {number} topN                     groups view: worst groups drawn as lines; percentiles view too past MANY_GROUPS
 * @property {boolean} allLines                percentiles view: every group's lines, not the worst topN and a band
 * @property {'name'|'worst'} groupsSort       groups view: row / chart order
 * @property {string[]} hidden                 legend keys of hidden series ("g:host=a", "p:99.9", "band")
 * @property {string} palette
 * @property {'linear'|'log'|'false'} colorMode
 * @property {boolean} clipOutliers
 * @property {boolean} heatLines               percentile lines over the heat map
 * @property {[number, number] | null} yZoomNs heat map latency range
 * @property {'latency'|'bs'|'offset'} heatY    heat map rows (bs/offset: per-I/O logs)
 * @property {number} surfaceP                 percentile picked on the surface
 * @property {Focus | null} focus             the heat map narrowed to one group of the groups view (not in the URL)
 */

/** The views, in the tabs' order (keys 1-6 pick them). @type {ViewName[]} */
export const VIEW_NAMES = ['pctiles', 'heatmap', 'surface', 'spectrum', 'groups', 'density'];
