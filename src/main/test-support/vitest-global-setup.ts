/**
 * Once per `vitest run` (.config/vitest.config.ts): the Node bundles the tests start as child
 * processes are brought up to date before any file runs (else parallel files race to build
 * them), and a folder is handed to the files for the run's one PostgreSQL server, which the
 * first file that needs it starts (relay/store/test/backends.ts) and which is stopped here.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { stopRunPgCluster } from './pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** where the run's PostgreSQL server lives; see pg-cluster.ts, runPgCluster */
    pgRunDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const build = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('../../../.config/build-node.mjs', import.meta.url))],
    { encoding: 'utf8' },
  );
  if (build.status !== 0)
    throw new Error(`building the Node entries failed (exit ${build.status ?? build.signal}): ${build.stderr}`);
  const runDir = mkdtempSync(join(tmpdir(), 'relay-pg-run-'));
  // the server's own folder inside is the postgres user's when the tests run as root
  chmodSync(runDir, 0o755);
  project.provide('pgRunDir', runDir);
  return () => stopRunPgCluster(runDir);
}
