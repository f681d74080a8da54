// Every ```console block in README.md whose first line is "$ build/latscope ..."
// is run from the repository root; its stdout must equal the rest of the block.
// Keeps each README claim produced by the command shown next to it.
//   node tests/readme_examples.mjs [path/to/latscope]
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = process.argv[2] || path.join(root, 'build/latscope');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```console\n([\s\S]*?)```/g)].map((m) => m[1]);
let checked = 0;
let failed = 0;
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
  if (actual !== expected) {
    failed++;
    console.error(`README example differs: ${first}\n--- README\n${expected}--- actual\n${actual}`);
  }
}
if (checked === 0) {
  console.error('no README examples found');
  process.exit(1);
}
console.log(`${checked} README examples checked, ${failed} differ`);
process.exit(failed ? 1 : 0);
