// Paths shared by the end-to-end runner and its cases.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const WEB = path.resolve(here, '../..');
export const REPO = path.resolve(WEB, '..');
export const OUT = path.join(here, 'out');
export const SHOTS = path.join(WEB, 'test/screenshots');
export const FIXTURES = path.join(REPO, 'tests/fixtures');
