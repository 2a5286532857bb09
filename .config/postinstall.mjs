#!/usr/bin/env node
// npm's postinstall: applies patches/ with patch-package in a development install. A production
// install (`npm ci --omit=dev`, docs/operations.md) has no patch-package and needs none: the
// patched packages are bundled into out/node by the build, which a development install made.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'patch-package.cmd' : 'patch-package');
if (!existsSync(bin)) {
  console.log('postinstall: patch-package is not installed (a production install): the build carries the patches');
  process.exit(0);
}
const run = spawnSync(bin, [], { stdio: 'inherit', cwd: root, shell: process.platform === 'win32' });
process.exit(run.status ?? 1);
