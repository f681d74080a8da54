// A click on a host in the groups view of a result with a per-host matrix
// (docs/page-views.md, "Drilling into a host"): that host's percentiles over
// time, from the result's histograms of that host alone. The drill is the
// page's own selection (exclude_hosts: every other host) with the cluster
// grouping and the percentiles view, so a link reopens it (url-state.js
// "xh") and the CLI's `pctiles --exclude-host ...` gives the same numbers.

/** @param {string} key an engine group key, "host=node07" @returns {string | null} the host */
export function hostOfKey(key) {
  const m = /^host=([^;]*)$/.exec(key);
  return m ? m[1] : null;
}

/**
 * The state that shows one host's detail.
 * @param {string} host @param {string[]} hosts every host of the result
 * @returns {{exclude_hosts: string[], group_by: string, view: 'pctiles'}}
 */
export function drillState(host, hosts) {
  return { exclude_hosts: hosts.filter((h) => h !== host), group_by: 'all', view: 'pctiles' };
}

/**
 * The host a state shows alone, or null: every host but one excluded.
 * @param {{exclude_hosts: string[]}} s @param {string[]} hosts
 */
export function drilledHost(s, hosts) {
  if (!s.exclude_hosts.length || hosts.length < 2) return null;
  const out = new Set(s.exclude_hosts);
  const left = hosts.filter((h) => !out.has(h));
  return left.length === 1 && out.size === hosts.length - 1 ? left[0] : null;
}

/**
 * The hosts of the loaded files: each series' host label (a result keeps
 * them per series), else the file's host, natural order not needed.
 * @param {{host?: string, labels?: Record<string, string>, series?: {labels?: Record<string, string>}[]}[]} sources
 * @returns {string[]}
 */
export function hostsOfSources(sources) {
  const out = new Set();
  for (const src of sources) {
    const per = (src.series ?? []).map((x) => x.labels?.host).filter((h) => h !== undefined && h !== '');
    if (per.length) for (const h of per) out.add(h);
    else if (src.host || src.labels?.host) out.add(src.host || src.labels?.host);
  }
  return /** @type {string[]} */ ([...out]);
}

/** The state that goes back: every host, the groups view by host. */
export function undrillState() {
  return { exclude_hosts: [], group_by: 'host', view: /** @type {'groups'} */ ('groups') };
}
