/** Builds the renderer once per run, so the stories never test a stale build. */
import { build } from 'vite';
import { join } from 'node:path';
import { root } from './harness.js';

export default async function globalSetup(): Promise<void> {
  await build({ configFile: join(root, '.config/vite.web.config.ts'), logLevel: 'warn' });
}
