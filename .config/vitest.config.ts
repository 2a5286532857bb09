import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: '.',
    include: ['src/**/*.test.ts'],
    // Tests start real relays, real SQLite files and worker processes: isolate them per file.
    pool: 'forks',
    // vitest's default on two cores is one file at a time; the files mostly wait on child
    // processes, sockets and timers, so two at a time overlap that waiting
    maxWorkers: 2,
    // the Node bundles up to date, and the run's PostgreSQL server (see the file)
    globalSetup: ['src/main/test-support/vitest-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
