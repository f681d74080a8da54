// The demo data set: real fio logs served with the page from demo/
// (web/public/demo/manifest.json lists them). Fetched from the page's own
// origin, then loaded exactly like files the user picks.

/**
 * @returns {Promise<{items: {file: Blob, name: string}[], note: string}>}
 */
export async function loadDemoItems() {
  const base = new URL('demo/', document.baseURI);
  const res = await fetch(new URL('manifest.json', base));
  if (!res.ok) throw new Error(`demo/manifest.json: HTTP ${res.status}`);
  const manifest = await res.json();
  const names = (manifest.files || []).map((/** @type {any} */ f) => (typeof f === 'string' ? f : f.name));
  if (!names.length) throw new Error('the demo manifest lists no files');
  const items = await Promise.all(
    names.map(async (/** @type {string} */ name) => {
      const r = await fetch(new URL(name, base));
      if (!r.ok) throw new Error(`demo/${name}: HTTP ${r.status}`);
      const blob = await r.blob();
      return { file: new File([blob], name.split('/').pop() || name), name };
    }),
  );
  return { items, note: manifest.description ? String(manifest.description) : 'demo data' };
}
