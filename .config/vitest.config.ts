import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: '.',
    include: ['src/**/*.test.ts'],
    // Tests start real relays, real SQLite files and worker processes: isolate them per file.
    pool: 'forks',
    // the Node bundles up to date, and the run's PostgreSQL server (see the file)
    globalSetup: ['src/main/test-support/vitest-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
