// Every ```console block in README.md and docs/*.md whose first line is
// "$ build/latscope ..." is run from the repository root; its stdout must
// equal the rest of the block. Keeps each documented claim produced by the
// command shown next to it (the README shows a few; docs/cli.md the rest).
//   node tests/doc_examples.mjs [path/to/latscope]
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.argv[2] || path.join(root, 'build/latscope');
const docs = ['README.md', ...fs.readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
// Files that must hold examples: an example moved or dropped by mistake
// would otherwise leave the check with nothing to run there.
const mustHave = ['README.md', 'docs/cli.md'];
let checked = 0;
let failed = 0;
const perFile = new Map();
for (const doc of docs) {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  const blocks = [...text.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]);
  for (const block of blocks) {
    const [first, ...rest] = block.split('\n');
    if (!first.startsWith('$ build/latscope ')) continue;
    const cmd = bin + first.slice('$ build/latscope'.length);
    const expected = rest.join('\n');
    let actual;
    try {
      actual = execSync(cmd, { cwd: root, shell: '/bin/sh', stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    } catch (e) {
      actual = e.stdout ? e.stdout.toString() : `(failed: ${e.message})`;
    }
    checked++;
    perFile.set(doc, (perFile.get(doc) || 0) + 1);
    if (actual !== expected) {
      failed++;
      console.error(`${doc}: example differs: ${first}\n--- ${doc}\n${expected}--- actual\n${actual}`);
    }
  }
}
for (const doc of mustHave) {
  if (!perFile.get(doc)) {
    console.error(`${doc}: no examples found`);
    failed++;
  }
}
console.log(`${checked} documented examples checked (${[...perFile].map(([f, n]) => `${f}: ${n}`).join(', ')}), ${failed} differ`);
process.exit(failed ? 1 : 0);
