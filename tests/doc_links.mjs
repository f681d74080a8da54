// Every pointer into the project's docs resolves: "Docs are reference", so a
// comment or a page that cites one must find it there. Checked:
//   1. markdown links [text](path) and [text](path#anchor) in the project's
//      .md files: the file exists, the anchor is one of its headings;
//   2. paths of .md files named anywhere in the docs, the code and the tests
//      (docs/model.md, tests/bench/README.md, ...): the file exists;
//   3. sections cited by name, `docs/page-speed.md "Warming the engine"`,
//      `README, "What the numbers mean"`, `runs.md, "Time"` inside docs/: the quoted
//      words occur in that file (wrapped lines and comment leaders joined);
//   4. sections cited by number, `docs/page-loading.md §8` (a heading
//      "## 8.") and `§8.5` (item 5. of that section).
//   node tests/doc_links.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'public', 'fixtures', 'golden', 'bench-data', 'out', 'screenshots']);  // out, screenshots: test output, not sources
const SOURCE = /\.(md|cc|h|js|mjs|sh|css|html|py|java|txt)$|^CMakeLists\.txt$/;

/** Files under dir (relative to root) that may cite docs. */
function walk(dir, out) {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !(dir === '' && e.name.startsWith('build'))) walk(rel, out);
    } else if (SOURCE.test(e.name)) {
      out.push(rel);
    }
  }
  return out;
}
const files = [
  ...['README.md', 'CONTRIBUTING.md'].filter((f) => fs.existsSync(path.join(root, f))),
  ...['docs', 'core', 'wasm', 'web', 'tests', '.ci'].filter((d) => fs.existsSync(path.join(root, d))).flatMap((d) => walk(d, [])),
];
// The fixtures' and golden files' READMEs are docs too (their data is not).
for (const d of ['tests/fixtures', 'tests/golden']) {
  const walkMd = (dir) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) walkMd(rel);
      else if (e.name === 'README.md') files.push(rel);
    }
  };
  if (fs.existsSync(path.join(root, d))) walkMd(d);
}

const problems = [];
const read = (rel) => fs.readFileSync(path.join(root, rel), 'utf8');
const exists = (rel) => fs.existsSync(path.join(root, rel));
const squash = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();
/** A file's text as the words a citation can quote, wrapped lines joined. */
const textCache = new Map();
function targetText(rel) {
  if (!textCache.has(rel)) textCache.set(rel, squash(read(rel).replace(/[*`_]/g, '')));
  return textCache.get(rel);
}
/** GitHub's anchor for a heading. */
function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}
function headings(rel) {
  const text = read(rel).replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/^#{1,6} +(.+?) *#*$/gm)].map((m) => m[1]);
}
/** The line number of offset i in text. */
const lineOf = (text, i) => text.slice(0, i).split('\n').length;

for (const file of files) {
  const raw = read(file);
  const isMd = file.endsWith('.md');
  const dir = path.posix.dirname(file);

  // 1. Markdown links.
  if (isMd) {
    const text = raw.replace(/```[\s\S]*?```/g, (m) => m.replace(/[^\n]/g, ' '));
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z]+:/i.test(target)) continue;
      const [p, anchor] = target.split('#');
      const rel = p ? path.posix.normalize(path.posix.join(dir, p)) : file;
      if (!exists(rel)) {
        problems.push(`${file}:${lineOf(text, m.index)}: link to ${target}: no such file`);
      } else if (anchor && rel.endsWith('.md') && !headings(rel).map(slug).includes(anchor)) {
        problems.push(`${file}:${lineOf(text, m.index)}: link to ${target}: no such heading`);
      }
    }
  }

  // 2. Paths of docs named anywhere.
  for (const m of raw.matchAll(/(?<![\w/.-])((?:docs|tests|core|web|wasm)\/[\w./-]*?[\w-]+\.md)\b/g)) {
    if (!exists(m[1])) problems.push(`${file}:${lineOf(raw, m.index)}: names ${m[1]}: no such file`);
  }

  // 3 and 4. Sections cited by name or number. Comment leaders are taken off
  // each line and the lines joined, so a citation wrapped over two comment
  // lines reads as one.
  const joined = raw
    .split('\n')
    .map((l) => l.replace(/^\s*(\/\/+|\/\*+|\*(?!\*)|#+(?=\s)|<!--)?\s?/, ''))
    .join(' ');
  const cite =
    /(?<![\w/.-])(docs\/[\w-]+\.md|tests\/[\w/-]+\/README\.md|README(?:\.md)?|(?<=^|[\s(])[a-z][\w-]*\.md)(?:\]\([^)]*\))?(?:,|:)? +(?:"([^"]{2,120})"|§ ?(\d+)(?:\.(\d+))?)/g;
  for (const m of joined.matchAll(cite)) {
    let target = m[1];
    if (target === 'README') target = 'README.md';
    else if (!target.includes('/') && target !== 'README.md') {
      // A bare name: a sibling page (docs/ citing docs/).
      if (dir !== 'docs') continue;
      target = `docs/${target}`;
    }
    if (!exists(target)) continue; // reported by 2. when it names a path
    if (m[2] !== undefined) {
      const words = squash(m[2].replace(/[*`_]/g, '')).replace(/[.,;:]$/, '');
      if (!targetText(target).includes(words)) {
        problems.push(`${file}: cites ${m[1]} "${m[2]}": not found in ${target}`);
      }
    } else {
      const text = read(target);
      const sec = text.match(new RegExp(`^## +${m[3]}\\.[^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, 'm'));
      if (!sec) problems.push(`${file}: cites ${m[1]} §${m[3]}: no heading "## ${m[3]}." in ${target}`);
      else if (m[4] && !new RegExp(`^${m[4]}\\. `, 'm').test(sec[1])) {
        problems.push(`${file}: cites ${m[1]} §${m[3]}.${m[4]}: no item ${m[4]}. in that section`);
      }
    }
  }
}

if (problems.length) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} dangling doc pointers`);
  process.exit(1);
}
console.log(`${files.length} files: every doc link and citation resolves`);
