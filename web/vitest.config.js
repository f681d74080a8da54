// Vitest for the JS unit tests (web/test/unit), run under Node by `npm test`
// (tests/run_all.sh): npx vitest run --config web/vitest.config.js
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: new URL('.', import.meta.url).pathname,
  test: {
    include: ['test/unit/**/*.test.js'],
    environment: 'node',
    // Engine tests instantiate WebAssembly and start worker threads.
    testTimeout: 60000,
  },
});
