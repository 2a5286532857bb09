/**
 * Once per run: builds the renderer, so the stories never test a stale build, and brings the
 * Node bundles that bin/*.mjs start up to date (harness.ts), so parallel workers do not race
 * to build them at their first start.
 */
import { build } from 'vite';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './harness.js';

export default async function globalSetup(): Promise<void> {
  await build({ configFile: join(root, '.config/vite.web.config.ts'), logLevel: 'warn' });
  const node = spawnSync(process.execPath, [join(root, '.config/build-node.mjs')], { encoding: 'utf8' });
  if (node.status !== 0)
    throw new Error(`building the Node entries failed (exit ${node.status ?? node.signal}): ${node.stderr}`);
}
