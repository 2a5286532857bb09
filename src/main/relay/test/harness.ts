import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createRelay } from '../app.js';
import type { StakeChain } from '../chain/stake-chain.js';
import { DEFAULT_CONFIG, type RelayConfig, type RelayDeps } from '../config.js';
import { deviceCertificateText } from '../auth/sign-in.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { RelayStore } from '../store/store.js';
import { startClusterRelay } from './cluster-harness.js';
import { destroySharedCluster } from '../store/test/backends.js';
import { WaiterRegistry, type WakeReason } from '../live/waiters.js';
import { afterAll, vi } from 'vitest';

/** A real relay on 127.0.0.1, port 0, over a real database file in a fresh temp folder. */
export interface TestRelay {
  url: string;
  app: FastifyInstance;
  store: RelayStore;
  /** one node's own URL: `url` itself, except on a cluster, where `url` is the round-robin proxy */
  nodeUrl: string;
  dir: string;
  clock: { now: number | null };
  close(): Promise<void>;
}

/**
 * A stake chain for tests of routing and policy that never read it: a relay with it takes
 * stake-gate policies and issues quotes; any read fails the test loudly.
 */
export const UNREAD_STAKE_CHAIN: StakeChain = {
  config: {
    rpcUrls: ['http://127.0.0.1:9'],
    chainId: 31337,
    escrow: '0x00000000000000000000000000000000000e5c40',
    confirmations: 1,
  },
  verify: async () => undefined,
  readStake: () => Promise.reject(new Error('this test does not read the chain')),
  readLatest: () => Promise.reject(new Error('this test does not read the chain')),
  isReleaseSignature: () => Promise.reject(new Error('this test does not read the chain')),
};

/**
 * With RELAY_TEST_BACKEND=cluster every relay a test starts is two nodes on PostgreSQL behind a
 * round-robin proxy (npm run test:cluster), so the same suite checks that a cluster behaves as one relay.
 */
export const CLUSTER_MODE = process.env.RELAY_TEST_BACKEND === 'cluster';
// The file's throw-away PostgreSQL cluster goes with the file (a worker's exit handler may not run).
if (CLUSTER_MODE) afterAll(destroySharedCluster);

/**
 * `wrapStore` lets a test put a shim (a slow look, say) between the routes and the real store
 * (SQLite only); `logger` and `metrics` turn the relay's log and metrics on (SQLite only).
 */
export async function startRelay(
  overrides: Partial<RelayConfig> = {},
  deps: {
    stakeChain?: StakeChain;
    wrapStore?: (store: RelayStore) => RelayStore;
    logger?: RelayDeps['logger'];
    metrics?: RelayDeps['metrics'];
  } = {},
): Promise<TestRelay> {
  const clock: { now: number | null } = { now: null };
  // The base URL is fixed before the port is known; the Host guard accepts any loopback port.
  // The disk guard is off unless a test asks for it: a nearly full CI disk must not fail the rest.
  const config: RelayConfig = {
    ...DEFAULT_CONFIG,
    rateLimit: 0,
    minFreeDiskMib: 0,
    baseUrl: 'http://127.0.0.1',
    ...overrides,
  };
  if (CLUSTER_MODE) return startClusterRelay(config, clock, deps);
  const dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
  const store = openSqliteStore(join(dir, 'relay.db'), { checkpointIntervalMs: 0 });
  const app = await createRelay({
    store: deps.wrapStore ? deps.wrapStore(store) : store,
    config,
    dataDir: dir,
    now: () => clock.now ?? Date.now(),
    stakeChain: deps.stakeChain,
    logger: deps.logger,
    metrics: deps.metrics,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: address,
    nodeUrl: address,
    app,
    store,
    dir,
    clock,
    async close() {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Call {
  status: number;
  /** the answer's JSON, read freely: each test's expectations are the check of its shape */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- hundreds of expectations read answers of every route
  body: any;
  headers: Headers;
}

/** fetch with JSON in and out; `auth` is a bearer secret. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { auth?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Call> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.auth) headers.authorization = `Bearer ${opts.auth}`;
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export interface TestUser {
  account: PrivateKeyAccount;
  address: string;
  deviceKey: string;
  apiKey: string;
  keyId: string;
}

export function newDeviceKey(): string {
  const { publicKey } = generateKeyPairSync('x25519', {
    publicKeyEncoding: { format: 'jwk' },
    privateKeyEncoding: { format: 'jwk' },
  });
  return Buffer.from((publicKey as unknown as { x: string }).x, 'base64url').toString('hex');
}

export async function certify(account: PrivateKeyAccount, deviceKey: string): Promise<string> {
  return account.signMessage({ message: deviceCertificateText(deviceKey, account.address) });
}

/** Signs a wallet in through the real API, registering one device. */
export async function signIn(
  base: string,
  account: PrivateKeyAccount = privateKeyToAccount(generatePrivateKey()),
  deviceKey = newDeviceKey(),
): Promise<TestUser> {
  const address = account.address.toLowerCase();
  const ch = await call(base, 'POST', '/api/v1/auth/challenge', { body: { address } });
  if (ch.status !== 200) throw new Error(`challenge failed: ${ch.status} ${JSON.stringify(ch.body)}`);
  const signature = await account.signMessage({ message: ch.body.message });
  const res = await call(base, 'POST', '/api/v1/auth/keys', {
    body: {
      message: ch.body.message,
      signature,
      device: { publicKey: deviceKey, certificate: await certify(account, deviceKey) },
    },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { account, address, deviceKey, apiKey: res.body.apiKey, keyId: res.body.key.id };
}

/**
 * Signs in a wallet the relay already knows, its account made behind the guards' back: for tests
 * of a relay whose disk guard is on, where a new wallet's first sign-in is a write it refuses.
 */
export async function signInKnown(relay: { url: string; store: RelayStore }): Promise<TestUser> {
  const account = privateKeyToAccount(generatePrivateKey());
  await relay.store.setPolicy(account.address.toLowerCase(), 'request', null);
  return signIn(relay.url, account);
}

/** Content fields that look like real AES-GCM output (random bytes) to the relay. */
export function sealedLooking(size = 64): { ciphertext: string; nonce: string; ephemeralPublicKey: string } {
  return {
    ciphertext: randomBytes(size).toString('base64'),
    nonce: randomBytes(12).toString('base64'),
    ephemeralPublicKey: newDeviceKey(),
  };
}

export function envelopeTo(user: { address: string; deviceKey?: string }, extra: Record<string, unknown> = {}) {
  return {
    toAddress: user.address,
    ...(user.deviceKey ? { recipientDeviceKey: user.deviceKey } : {}),
    ...sealedLooking(),
    ...extra,
  };
}

/** A pull a relay of this process held: its credential, the wait it was registered for, and why it stopped waiting. */
export interface HeldPull {
  keyId: string;
  ms: number;
  /** null while it still waits */
  reason: WakeReason | null;
  woken: Promise<WakeReason>;
}

/**
 * Records every pull that the relays of this process hold from now on (a test cluster's nodes
 * run in this process too), in the order held. Why a pull stopped waiting tells an answer caused
 * by an event (a ring, a revocation, a later pull, shutdown) from one whose wait ran out, so a
 * test asserts the cause instead of timing the answer. Call it once per file.
 */
export function watchHeldPulls(): HeldPull[] {
  const held: HeldPull[] = [];
  const register = WaiterRegistry.prototype.register;
  vi.spyOn(WaiterRegistry.prototype, 'register').mockImplementation(function (
    this: WaiterRegistry,
    ...args: Parameters<WaiterRegistry['register']>
  ) {
    const waiter = register.apply(this, args);
    const pull: HeldPull = { keyId: args[0], ms: args[3], reason: null, woken: waiter.woken };
    void waiter.woken.then((reason) => (pull.reason = reason));
    held.push(pull);
    return waiter;
  });
  return held;
}
