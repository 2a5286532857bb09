#!/usr/bin/env node
// `npm run setup`: installs the project on a fresh machine. Plain Node with no dependencies,
// because it runs before node_modules exists.
//
// The Electron binary is fetched from a host that is not always reachable (CI, offline
// machines), and electron's postinstall would then fail the whole `npm ci`. So the install
// skips that download, and the binary is tried once afterwards on its own: without it the
// app runs in web mode, everything else (relay, client, tests) works the same.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ELECTRON_TIMEOUT_MS = 180_000;

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const windows = process.platform === 'win32';

const ci = spawnSync(windows ? 'npm.cmd' : 'npm', ['ci', '--no-audit', '--no-fund'], {
  stdio: 'inherit',
  shell: windows,
  env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
});
if (ci.error) {
  console.error(`setup: could not run npm ci: ${ci.error.message}`);
  process.exit(1);
}
if (ci.status !== 0) {
  console.error(`setup: npm ci failed (exit ${ci.status ?? ci.signal})`);
  process.exit(ci.status ?? 1);
}

const installer = 'node_modules/electron/install.js';
if (!existsSync(installer)) {
  console.log('setup: note: electron is not installed, so the app will use web mode');
  process.exit(0);
}
const env = { ...process.env };
delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
const electron = spawnSync(process.execPath, [installer], {
  env,
  encoding: 'utf8',
  timeout: ELECTRON_TIMEOUT_MS,
  stdio: ['ignore', 'pipe', 'pipe'],
});
if (electron.status === 0 && !electron.error) {
  console.log('setup: Electron binary installed');
} else {
  const why = electron.error?.message ?? errorLine(electron.stderr) ?? `exit ${electron.status ?? electron.signal}`;
  console.log(`setup: note: the Electron binary is unavailable (${why}), so the app will use web mode`);
}

/** The line of a stack dump that says what went wrong, e.g. "RequestError: getaddrinfo ENOTFOUND github.com". */
function errorLine(text) {
  const lines = (text ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const line = lines.find((l) => /^\w*Error\b|\bE[A-Z_]{3,}\b/.test(l)) ?? lines[0];
  return line === undefined ? undefined : line.slice(0, 160);
}
