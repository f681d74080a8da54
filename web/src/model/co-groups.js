// Group names of a coordinated-omission query: each group is doubled into
// a corrected and an uncorrected half (docs/coordinated-omission.md), which
// the views draw as one colour, dashed and solid.

/**
 * A group name of a coordinated-omission query split into the group it
 * doubles and which half it is: "host=a;co=corrected" -> {base: "host=a",
 * co: "corrected"}; a name without co= -> co null.
 * @param {string} name @returns {{base: string, co: 'corrected' | 'uncorrected' | null}}
 */
export function coSplit(name) {
  const parts = String(name).split(';');
  const i = parts.findIndex((p) => p === 'co=corrected' || p === 'co=uncorrected');
  if (i < 0) return { base: name, co: null };
  const co = /** @type {'corrected' | 'uncorrected'} */ (parts[i].slice(3));
  parts.splice(i, 1);
  return { base: parts.join(';') || 'all', co };
}

/**
 * Groups of a result paired for drawing: each group's base index (colour),
 * and whether it is the corrected half (dashed).
 * @param {string[]} groups @returns {{bases: string[], of: {base: number, corrected: boolean, co: boolean}[]}}
 */
export function coPairs(groups) {
  /** @type {string[]} */
  const bases = [];
  const of = groups.map((g) => {
    const { base, co } = coSplit(g);
    let b = bases.indexOf(base);
    if (b < 0) b = bases.push(base) - 1;
    return { base: b, corrected: co === 'corrected', co: co !== null };
  });
  return { bases, of };
}
