/**
 * Packaging (`npm run dist`, electron-builder.json): every Electron fuse as intended, and the
 * built-in relay of the Electron shell started as a utility process, which is what still runs
 * Node once the runAsNode fuse is off. The Electron binary is not needed: the utility process
 * is stood in for by a Node child whose `process.parentPort` posts to its parent as Electron's
 * does, so the relay's own side of it (relay/cli.ts) runs for real.
 */
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findSqliteBinding, SQLITE_BINDING_ENV } from '../../sqlite/sqlite-binding.js';
import { EmbeddedRelay } from '../embedded-relay.js';
import { binPath } from '../../test-support/child-process.js';
import { electronRelayLauncher } from '../relay-launcher.js';
import { utilityProcessSpawner, type UtilityFork, type UtilityProcessLike } from '../relay-process.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const dirs: string[] = [];
const relays: EmbeddedRelay[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'packaging-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface BuilderConfig {
  appId: string;
  productName: string;
  files: string[];
  extraResources: { from: string; to: string; filter: string[] }[];
  icon: string;
  asar: boolean;
  npmRebuild: boolean;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
  electronFuses: Record<string, boolean>;
}
const config = JSON.parse(readFileSync(join(ROOT, 'electron-builder.json'), 'utf8')) as BuilderConfig;

/** Stands in for `utilityProcess.fork`: Node with a `process.parentPort` that posts over fd 3. */
const PARENT_PORT = `data:text/javascript,${encodeURIComponent(
  "import { writeSync } from 'node:fs'; process.parentPort = { postMessage: (m) => writeSync(3, JSON.stringify(m) + '\\n') };",
)}`;
function nodeAsUtilityProcess(calls: Parameters<UtilityFork>[]): UtilityFork {
  return (modulePath, args, options) => {
    calls.push([modulePath, args, options]);
    const child = spawn(process.execPath, [...options.execArgv, '--import', PARENT_PORT, modulePath, ...args], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    const events = new EventEmitter();
    createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on('line', (l) =>
      events.emit('message', JSON.parse(l)),
    );
    // Electron reports an exit code only
    child.once('exit', (code, signal) => events.emit('exit', code ?? (signal ? 128 + 15 : 0)));
    const like: UtilityProcessLike = {
      stdout: child.stdout,
      stderr: child.stderr,
      on: (event, listener) => events.on(event, listener),
      once: (event, listener) => events.once(event, listener),
      kill: () => child.kill('SIGTERM'),
    };
    return like;
  };
}

describe('packaging with electron-builder', () => {
  it('sets every fuse: no running as Node, no NODE_OPTIONS or --inspect, cookies encrypted, only the checked app.asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    expect(config.asar).toBe(true);
  });

  it('packs the built app, its icon and the optional Electron SQLite binding where the app looks for it', () => {
    expect(config.productName).toBe('Relay Messenger');
    expect(config.appId).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
    expect(config.files).toEqual(expect.arrayContaining(['out/**', 'package.json']));
    expect(existsSync(join(ROOT, config.icon))).toBe(true);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // copied to the resources folder's top, under the name the packaged app looks up there
    expect(config.extraResources).toEqual([{ from: 'resources', to: '.', filter: ['better_sqlite3.node'] }]);
    // node_modules keeps Node's build: rebuilding it for Electron in place would leave the tests,
    // web mode and the CLI without a binding they can load
    expect(config.npmRebuild).toBe(false);
    const resourcesPath = tempDir();
    writeFileSync(join(resourcesPath, config.extraResources[0].filter[0]), '');
    const saved = process.env[SQLITE_BINDING_ENV];
    delete process.env[SQLITE_BINDING_ENV];
    try {
      expect(findSqliteBinding(resourcesPath, join(tempDir(), 'out/main'))).toBe(
        join(resourcesPath, 'better_sqlite3.node'),
      );
    } finally {
      if (saved !== undefined) process.env[SQLITE_BINDING_ENV] = saved;
    }
  });

  it('the Electron shell starts its relay with utilityProcess.fork, never child_process.fork', () => {
    const index = readFileSync(join(ROOT, 'src/main/index.ts'), 'utf8');
    expect(index).toMatch(/relayLauncher: electronRelayLauncher\(/);
    expect(index).toMatch(/utilityProcess\.fork\(/);
    expect(index).not.toMatch(/builtRelayLauncher\(|from 'node:child_process'/);

    const builtDir = tempDir();
    writeFileSync(join(builtDir, 'relay-cli.js'), '');
    const calls: Parameters<UtilityFork>[] = [];
    const launcher = electronRelayLauncher(builtDir, { RELAY_SQLITE_BINDING: '/x/better_sqlite3.node' }, (...a) => {
      calls.push(a);
      throw new Error('no Electron here');
    });
    expect(launcher.modulePath).toBe(join(builtDir, 'relay-cli.js'));
    expect(launcher.spawn).toBeTypeOf('function');
    launcher.spawn!(launcher.modulePath, ['--port', '0'], { execArgv: [], env: { ...launcher.env, A: undefined } });
    expect(calls).toEqual([
      [
        join(builtDir, 'relay-cli.js'),
        ['--port', '0'],
        { env: { RELAY_SQLITE_BINDING: '/x/better_sqlite3.node' }, execArgv: [], stdio: 'pipe', serviceName: 'Relay' },
      ],
    ]);
  });

  it('a relay in a utility process reports ready through process.parentPort and stops on request', async () => {
    const calls: Parameters<UtilityFork>[] = [];
    const relay = new EmbeddedRelay({
      // the relay as users run it (bin/relay.mjs runs the built bundle in its own process)
      launcher: {
        modulePath: binPath('relay'),
        execArgv: [],
        spawn: utilityProcessSpawner(nodeAsUtilityProcess(calls)),
      },
      dataDir: tempDir(),
      startTimeoutMs: 30_000,
    });
    relays.push(relay);
    const st = await relay.start({ port: 0, lan: false });
    expect(calls).toHaveLength(1);
    expect(st.running).toBe(true);
    expect(st.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${st.url}/healthz`);
    expect(health.status).toBe(200);
    await relay.stop();
    expect(relay.status().running).toBe(false);
  }, 90_000);
});
