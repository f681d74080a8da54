// Natural order of names (host2 before host10), for every list the page
// sorts: files, hosts, groups.

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Natural order: digit runs compare as numbers, so host2 < host10 and
 * job 1, 2, … 10 in that order. Ties (names equal but for case) fall back
 * to code-point order, so the order is total.
 * @param {string} a @param {string} b
 */
export function naturalCompare(a, b) {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
