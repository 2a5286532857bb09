/**
 * Real relays and real profiles for the client tests: the relay is the lead's
 * startRelayServer (createRelay + openSqliteStore, listening on 127.0.0.1), in a fresh temp
 * folder; profiles are Messenger instances over fresh profile folders.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_CONFIG } from '../../relay/config.js';
import { startRelayServer, type RunningRelay } from '../../relay/server.js';
import type { ServeOptions } from '../../relay/cli-args.js';
import { Messenger, type MessengerOptions } from '../core/messenger.js';
import { runTs, type Finished } from '../../test-support/child-process.js';
import type { ScryptParams } from '../../vault/keys/secret-codec.js';

export const PASSPHRASE = 'correct horse battery staple';
/**
 * scrypt's least accepted cost, for the throw-away profiles of tests (newProfile, and any test
 * that opens a Messenger itself: `scrypt: TEST_SCRYPT`): a profile costs two or three wraps,
 * each ~0.5 s at the default N=2^17. The vault's own tests keep the default.
 */
export const TEST_SCRYPT: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
export const ROOT = resolve(import.meta.dirname, '../../../..');

const cleanups: Array<() => Promise<void> | void> = [];

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `client-${prefix}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Runs registered cleanups (last first); call from afterAll/afterEach. */
export async function cleanup(): Promise<void> {
  while (cleanups.length > 0) {
    const fn = cleanups.pop()!;
    try {
      await fn();
    } catch {
      // a cleanup failure must not hide the test's own result
    }
  }
}

export interface Relay {
  url: string;
  port: number;
  dataDir: string;
  /** the pin of a LAN relay: its public key's SHA-256 */
  fingerprint: string | null;
  running: RunningRelay;
  stop(): Promise<void>;
}

/** A relay on 127.0.0.1 (port 0 = any), rate limit off unless given; same dataDir+port = a restart. */
export async function startRelay(
  opts: {
    dataDir?: string;
    port?: number;
    rateLimit?: number;
    lan?: boolean;
    stake?: ServeOptions['stake'];
    maxQueued?: number;
    registration?: ServeOptions['registration'];
    /** behind a proxy that names the host it was reached at in X-Forwarded-Host */
    trustProxy?: boolean;
  } = {},
): Promise<Relay> {
  const dataDir = opts.dataDir ?? tempDir('relay');
  const running = await startRelayServer({
    host: '127.0.0.1',
    port: opts.port ?? 0,
    dataDir,
    lan: opts.lan ?? false,
    rateLimit: opts.rateLimit ?? 0,
    retentionDays: 30,
    stakeCurrency: 'ETH',
    chainId: 1,
    baseUrl: null,
    allowedHosts: [],
    trustProxy: opts.trustProxy ?? false,
    stake: opts.stake ?? null,
    maxQueued: opts.maxQueued ?? DEFAULT_CONFIG.maxQueued,
    maxQueuedMib: DEFAULT_CONFIG.maxQueuedMib,
    maxRequestsPerPair: DEFAULT_CONFIG.maxRequestsPerPair,
    // The disk guard has its own test; a nearly full CI disk must not fail every other one.
    minFreeDiskMib: 0,
    ...(opts.registration ? { registration: opts.registration } : {}),
  });
  let stopped = false;
  const relay: Relay = {
    url: running.url,
    port: running.port,
    dataDir,
    fingerprint: running.lan?.certificate.pin ?? null,
    running,
    async stop() {
      if (stopped) return;
      stopped = true;
      await running.close();
    },
  };
  cleanups.push(() => relay.stop());
  return relay;
}

export interface ProfileOptions {
  handle?: string;
  mnemonic?: string;
  privateKey?: string;
  dir?: string;
  /** more Messenger options (a fake clock, an expiry timer) */
  options?: Partial<MessengerOptions>;
}

/** A fresh profile with a wallet (new or imported), signed in to the relay. */
export async function newProfile(
  relayUrl: string,
  opts: ProfileOptions & { fingerprint?: string; invite?: string } = {},
): Promise<{ m: Messenger; address: string; deviceKey: string; mnemonic: string | null; dir: string }> {
  const dir = opts.dir ?? tempDir('profile');
  const m = await Messenger.open({
    profileDir: dir,
    shell: 'web',
    autoSync: false,
    scrypt: TEST_SCRYPT,
    ...opts.options,
  });
  cleanups.push(() => m.close());
  let mnemonic: string | null = null;
  if (opts.mnemonic) await m.wallet.importMnemonic({ mnemonic: opts.mnemonic, passphrase: PASSPHRASE });
  else if (opts.privateKey) await m.wallet.importPrivateKey({ privateKey: opts.privateKey, passphrase: PASSPHRASE });
  else mnemonic = (await m.wallet.create({ passphrase: PASSPHRASE })).mnemonic;
  const status = await m.connectRelay({
    mode: opts.fingerprint ? 'lan' : 'url',
    url: relayUrl,
    ...(opts.fingerprint ? { fingerprint: opts.fingerprint } : {}),
    ...(opts.invite ? { invite: opts.invite } : {}),
  });
  if (!status.ready) throw new Error(`profile not ready: ${status.relay.lastError}`);
  if (opts.handle) await m.claimHandle({ handle: opts.handle });
  const who = m.whoami()!;
  return { m, address: who.address, deviceKey: who.deviceKey, mnemonic, dir };
}

export interface CliResult extends Finished {
  /** stdout parsed line by line as JSON */
  json: unknown[];
}

/** Runs a client entry (cli.ts or bot-cli.ts) as a child process, as users run it (bin/*.mjs; see test-support's nodeArgsFor). */
export async function runEntry(
  entry: 'cli' | 'bot-cli',
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  const file = join(ROOT, 'src/main/client/cli', `${entry}.ts`);
  const done = await runTs(file, args, {
    cwd: ROOT,
    env: { ...process.env, RELAY_PASSPHRASE: PASSPHRASE, RELAY_CLIENT_TEST_CRASH: undefined, ...env },
  });
  const json = done.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): unknown => {
      try {
        return JSON.parse(line);
      } catch {
        return line;
      }
    });
  return { ...done, json };
}

export function cli(profile: string, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runEntry('cli', ['--profile', profile, ...args], env);
}

/** Asserts a zero exit and returns the first JSON line. */
export async function cliOk<T = Record<string, unknown>>(
  profile: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<T> {
  const r = await cli(profile, args, env);
  if (r.code !== 0) throw new Error(`client ${args.join(' ')} exited ${r.code ?? r.signal}: ${r.stderr}`);
  return r.json[0] as T;
}

/**
 * `sync --follow` on a profile as a child process: its stdout lines (JSON) as they come, its
 * stderr, `started` once it says it is following, and a clean stop (SIGTERM) that gives the exit code.
 */
export function followCli(profile: string, env: Record<string, string | undefined> = {}) {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src/main/client/cli/cli.ts'), '--profile', profile, 'sync', '--follow'],
    {
      cwd: ROOT,
      env: { ...process.env, RELAY_PASSPHRASE: PASSPHRASE, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: unknown[] = [];
  const status = { stderr: '' };
  let out = '';
  proc.stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
      lines.push(JSON.parse(out.slice(0, nl)));
      out = out.slice(nl + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => proc.once('close', resolve));
  const started = new Promise<void>((resolve, reject) => {
    proc.stderr.setEncoding('utf8').on('data', (d: string) => {
      status.stderr += d;
      if (status.stderr.includes('"following":true')) resolve();
    });
    void exited.then((code) => reject(new Error(`sync --follow ended (${code}): ${status.stderr}`)));
  });
  cleanups.push(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  return {
    lines,
    /** what it wrote to stderr so far */
    stderr: () => status.stderr,
    started,
    stop: () => {
      proc.kill('SIGTERM');
      return exited;
    },
  };
}
