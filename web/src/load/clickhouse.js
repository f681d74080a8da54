// `#clickhouse=`: a ClickHouse server's HTTP interface as a source
// (docs/cluster-merge.md, section 5). The value names the server, the user
// and a table or view holding latscope's compact (or long) table, the sum
// the cluster keeps (`latscope.cluster_cells`); the page asks for it with a
// plain GET (no preflight: 18.16 answers none) and reads the answer like any
// log. Only what a link may hold is accepted: no password (a link is shared;
// give the page a readonly user without one), a table name that is a name,
// a time range as numbers, so the SQL is built here and nothing from the
// link is pasted into it unchecked.
//
//   #clickhouse=http%3A%2F%2Fch1.example%3A8123%2F%3Fuser%3Dpage%26table%3Dlatscope.cluster_cells%26from%3D0%26to%3D3600000
//   -> http://ch1.example:8123/?user=page&query=SELECT%20*%20FROM%20latscope.cluster_cells%20WHERE%20t_ms%20%3E%3D%200%20AND%20t_ms%20%3C%203600000%20FORMAT%20TSVWithNames

/** The parameters a `#clickhouse=` URL may carry. */
export const CLICKHOUSE_PARAMS = /** @type {const} */ (['user', 'table', 'from', 'to']);

const NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * The URL to fetch for a `#clickhouse=` value.
 * @param {string} value  the server's HTTP URL with `table=DB.TABLE`, optionally `user=`, `from=`, `to=` (t_ms, ms)
 * @param {string} [base] the page URL (for a relative value)
 * @returns {string}
 * @throws {Error} saying what in the value is not accepted
 */
export function clickhouseQueryUrl(value, base = 'http://localhost/') {
  let u;
  try {
    u = new URL(value, base);
  } catch {
    throw new Error('not a URL');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`${u.protocol} is not ClickHouse's HTTP interface (http or https)`);
  if (u.username || u.password || u.searchParams.has('password')) {
    throw new Error('a password is not taken from a link: give the page a readonly user without one (docs/cluster-merge.md, section 5)');
  }
  for (const k of u.searchParams.keys()) {
    if (!(/** @type {readonly string[]} */ (CLICKHOUSE_PARAMS)).includes(k)) throw new Error(`unknown parameter ${JSON.stringify(k.slice(0, 40))} (${CLICKHOUSE_PARAMS.join(', ')})`);
  }
  const table = u.searchParams.get('table') ?? '';
  const parts = table.split('.');
  if (parts.length > 2 || !parts.every((p) => NAME.test(p))) throw new Error(`table ${JSON.stringify(table.slice(0, 80))} is not a name (table or database.table)`);
  const user = u.searchParams.get('user');
  if (user !== null && !NAME.test(user)) throw new Error(`user ${JSON.stringify(user.slice(0, 80))} is not a name`);
  /** @type {string[]} */
  const where = [];
  for (const [k, op] of /** @type {const} */ ([['from', '>='], ['to', '<']])) {
    const v = u.searchParams.get(k);
    if (v === null) continue;
    if (!/^-?\d+(\.\d+)?$/.test(v) || !Number.isFinite(Number(v))) throw new Error(`${k}=${JSON.stringify(v.slice(0, 40))} is not a time in ms`);
    where.push(`t_ms ${op} ${v}`);
  }
  const sql = `SELECT * FROM ${table}${where.length ? ` WHERE ${where.join(' AND ')}` : ''} FORMAT TSVWithNames`;
  return `${u.origin}${u.pathname}?${user !== null ? `user=${user}&` : ''}query=${encodeURIComponent(sql)}`;
}
