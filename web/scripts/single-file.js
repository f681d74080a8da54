// Vite plugin for the single-file page (web/vite.single.config.js): puts the
// one script chunk and the one stylesheet of the build into index.html,
// writes it as latscope.html, and gives it a Content-Security-Policy that
// allows exactly those two inline elements by their SHA-256 hashes
// (docs/security.md §2). The worker and the .wasm are inlined by Vite
// itself (`?worker&inline`, `?url&inline`, web/src/engine/page-engine-single.js).
//
// Why not vite-plugin-singlefile: it does the first step only (script and
// stylesheet into the HTML); the policy hashes need the final inline text, so
// this step is ours either way, and the rest is a dozen lines.
import { createHash } from 'node:crypto';

/** The single-file page's policy; SCRIPT and STYLE become the hashes. */
const POLICY = [
  "default-src 'none'",
  "script-src SCRIPT 'wasm-unsafe-eval'",
  'worker-src blob:',
  'connect-src https: http:',
  'img-src data: blob:',
  'style-src STYLE',
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');

/** @param {string} text */
const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * @param {{fileName?: string}} [o] output name (default latscope.html)
 * @returns {import('vite').Plugin}
 */
export function singleFile(o = {}) {
  const fileName = o.fileName ?? 'latscope.html';
  return {
    name: 'latscope-single-file',
    enforce: 'post',
    apply: 'build',
    generateBundle(_options, bundle) {
      const page = bundle['index.html'];
      if (!page || page.type !== 'asset') throw new Error('single-file: the build has no index.html');
      let html = String(page.source);
      /** @type {string[]} */
      const scripts = [];
      /** @type {string[]} */
      const styles = [];
      /** @param {string} ref @param {string} closing */
      const take = (ref, closing) => {
        const key = ref.replace(/^\.?\//, '');
        const item = bundle[key];
        if (!item) throw new Error(`single-file: ${ref} is not in the bundle`);
        const text = item.type === 'chunk' ? item.code : String(item.source);
        // Inline text ends at the first closing tag: refuse rather than mangle.
        if (text.toLowerCase().includes(closing)) throw new Error(`single-file: ${key} contains ${closing}`);
        delete bundle[key];
        return text;
      };
      html = html.replace(/<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g, (_m, src) => {
        const code = take(src, '</script');
        scripts.push(code);
        return `<script type="module">${code}</script>`;
      });
      html = html.replace(/<link rel="stylesheet"[^>]*\shref="([^"]+)"[^>]*>/g, (_m, href) => {
        const css = take(href, '</style');
        styles.push(css);
        return `<style>${css}</style>`;
      });
      if (scripts.length !== 1) throw new Error(`single-file: expected one script, found ${scripts.length}`);
      if (/<link rel="modulepreload"/.test(html)) throw new Error('single-file: the build still preloads chunks');
      const policy = POLICY.replace('SCRIPT', scripts.map(sha256).join(' ')).replace('STYLE', styles.length ? styles.map(sha256).join(' ') : "'none'");
      const meta = /<meta http-equiv="Content-Security-Policy" content="[^"]*"\s*\/?>/;
      if (!meta.test(html)) throw new Error('single-file: index.html has no Content-Security-Policy to replace');
      html = html.replace(meta, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
      const left = Object.keys(bundle).filter((k) => k !== 'index.html');
      if (left.length) throw new Error(`single-file: not inlined: ${left.join(', ')}`);
      delete bundle['index.html'];
      this.emitFile({ type: 'asset', fileName, source: html });
    },
  };
}
