import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: '.',
    include: ['src/**/*.test.ts'],
    // Tests start real relays, real SQLite files and worker processes: isolate them per file.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
