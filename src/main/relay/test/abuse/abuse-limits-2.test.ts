/**
 * More of docs/protocol.md §4 Limits: invitations are contact requests,
 * strangers cannot crowd out contacts, every write obeys the disk guard and a count, and a revoked
 * credential's held pull stops at once. Each against a real relay over HTTP (on a two-node
 * cluster behind a round-robin proxy under `npm run test:cluster`).
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseInvocation } from '../../cli-args.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../../config.js';
import { createRelay } from '../../app.js';
import { MAX_HELD_PER_WALLET, type Revoked } from '../../live/waiters.js';
import type { RevocationBus } from '../../store/credential-cache.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import type { StakeRow } from '../../store/store.js';
import {
  call,
  envelopeTo,
  newDeviceKey,
  sealedLooking,
  signIn,
  signInKnown,
  startRelay,
  UNREAD_STAKE_CHAIN,
  type TestRelay,
  type TestUser,
  watchHeldPulls,
} from '../harness.js';

const relays: TestRelay[] = [];
async function relayWith(
  config: Partial<RelayConfig>,
  deps: Parameters<typeof startRelay>[1] = {},
): Promise<TestRelay> {
  const r = await startRelay(config, deps);
  relays.push(r);
  return r;
}
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});

const holds = watchHeldPulls();
/** Why each pull held with this key stopped waiting (null: it still waits), oldest first. */
const reasonsOf = (u: { keyId: string }) => holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason);

const api = (r: TestRelay, u: TestUser | string, method: string, path: string, body?: unknown) =>
  call(r.url, method, path, { auth: typeof u === 'string' ? u : u.apiKey, body });
const newGroup = async (r: TestRelay, creator: TestUser, name = 'g') => {
  const g = await api(r, creator, 'POST', '/api/v1/groups', { name, isPublic: false });
  expect(g.status).toBe(201);
  return g.body.id as string;
};
const invite = (r: TestRelay, by: TestUser, groupId: string, who: TestUser) =>
  api(r, by, 'POST', `/api/v1/groups/${groupId}/members`, { address: who.address });

describe('invitations are contact requests', () => {
  it("a stranger's pending invitations count with its requests toward --max-requests-per-pair (429 too-many-requests-pending)", async () => {
    const relay = await relayWith({ maxRequestsPerPair: 3 });
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    expect((await api(relay, stranger, 'POST', '/api/v1/envelopes', envelopeTo(me))).body.routed).toBe('request');
    const groups = [];
    for (let i = 0; i < 4; i++) groups.push(await newGroup(relay, stranger, `g${i}`));
    const statuses = [];
    for (const g of groups) statuses.push(await invite(relay, stranger, g, me));
    expect(statuses.map((s) => [s.status, s.body.status ?? s.body.code])).toEqual([
      [200, 'invited'],
      [200, 'invited'],
      [429, 'too-many-requests-pending'],
      [429, 'too-many-requests-pending'],
    ]);
    expect((await api(relay, me, 'GET', '/api/v1/me/invitations')).body.invitations).toHaveLength(2);
    // the invitations count against the stranger's next direct request too
    expect((await api(relay, stranger, 'POST', '/api/v1/envelopes', envelopeTo(me))).body.code).toBe(
      'too-many-requests-pending',
    );
    // declining one frees one
    expect(
      (await api(relay, me, 'POST', `/api/v1/groups/${groups[0]}/invitation`, { accept: false })).body.status,
    ).toBe('declined');
    expect((await invite(relay, stranger, groups[2], me)).body.status).toBe('invited');
    // another stranger has a count of its own, and someone I allow puts me in at once
    const other = await signIn(relay.url);
    expect((await invite(relay, other, await newGroup(relay, other), me)).body.status).toBe('invited');
    await api(relay, me, 'PUT', `/api/v1/contacts/${stranger.address}`);
    expect((await invite(relay, stranger, groups[3], me)).body.status).toBe('member');
  });

  it("under stake-gate a stranger's invitation is 403 stake-required until a paid stake opens the contact; under block 403 blocked", async () => {
    const relay = await relayWith({}, { stakeChain: UNREAD_STAKE_CHAIN });
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    expect(
      (await api(relay, me, 'PUT', '/api/v1/me/policy', { unknownSenders: 'stake-gate', stake: '0.01' })).status,
    ).toBe(200);
    // a direct message is held at the gate, and so is an invitation now
    expect((await api(relay, stranger, 'POST', '/api/v1/envelopes', envelopeTo(me))).body.routed).toBe('stake-gate');
    const g = await newGroup(relay, stranger);
    const refused = await invite(relay, stranger, g, me);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'stake-required', error: expect.stringMatching(/stake/) });
    expect((await api(relay, me, 'GET', '/api/v1/me/invitations')).body.invitations).toEqual([]);
    // the stranger pays: a verified stake (read from the chain, here put in place) opens one request
    const stake: StakeRow = {
      id: '0x' + createHash('sha256').update(randomBytes(8)).digest('hex'),
      ref: '0x' + randomBytes(32).toString('hex'),
      chainId: 31337,
      escrow: UNREAD_STAKE_CHAIN.config.escrow,
      sender: stranger.address,
      recipient: me.address,
      amountWei: '10000000000000000',
      deadline: Math.floor(Date.now() / 1000) + 8 * 86_400,
      status: 'active',
      releaseSignature: null,
      createdAt: Date.now(),
    };
    const [paid] = await relay.store.deliver({
      senderAddress: stranger.address,
      groupId: null,
      via: null,
      now: Date.now(),
      items: [
        {
          toAddress: me.address,
          recipientDeviceKey: me.deviceKey,
          ...sealedLooking(),
          asRequest: false,
          stakeRef: stake.ref,
          stake: { ok: stake },
        },
      ],
    });
    expect(paid.routed).toBe('request');
    expect((await invite(relay, stranger, g, me)).body.status).toBe('invited');
    // block: refused as before
    const blocker = await signIn(relay.url);
    await api(relay, blocker, 'PUT', '/api/v1/me/policy', { unknownSenders: 'block' });
    expect((await invite(relay, stranger, g, blocker)).body.code).toBe('blocked');
  });
});

describe('strangers cannot crowd out contacts', () => {
  it('requests fill at most half of --max-queued (429 requests-full); the other half stays for contacts', async () => {
    const relay = await relayWith({ maxQueued: 4 });
    const me = await signIn(relay.url);
    const friend = await signIn(relay.url);
    await api(relay, me, 'PUT', `/api/v1/contacts/${friend.address}`);
    const answers = [];
    for (let i = 0; i < 4; i++)
      answers.push(await api(relay, await signIn(relay.url), 'POST', '/api/v1/envelopes', envelopeTo(me)));
    expect(answers.map((a) => a.body.routed ?? a.body.code)).toEqual([
      'request',
      'request',
      'requests-full',
      'requests-full',
    ]);
    expect(answers[2].status).toBe(429);
    const fromFriend = await api(relay, friend, 'POST', '/api/v1/envelopes', [envelopeTo(me), envelopeTo(me)]);
    expect(fromFriend.status).toBe(200);
    expect(fromFriend.body.results.map((r: { routed: string }) => r.routed)).toEqual(['inbox', 'inbox']);
    // the quota itself is unchanged: a contact past it bounces as before
    expect((await api(relay, friend, 'POST', '/api/v1/envelopes', envelopeTo(me))).body.code).toBe('recipient-full');
  });

  it('and at most half of --max-queued-mib', async () => {
    const relay = await relayWith({ maxQueuedMib: 1 });
    const me = await signIn(relay.url);
    const stranger = await signIn(relay.url);
    const friend = await signIn(relay.url);
    await api(relay, me, 'PUT', `/api/v1/contacts/${friend.address}`);
    const big = () => ({ ...envelopeTo(me), ...sealedLooking(64 * 1024) });
    // 8 × 64 KiB is half a MiB
    expect((await api(relay, stranger, 'POST', '/api/v1/envelopes', Array.from({ length: 8 }, big))).status).toBe(200);
    expect((await api(relay, stranger, 'POST', '/api/v1/envelopes', big())).body.code).toBe('requests-full');
    expect((await api(relay, friend, 'POST', '/api/v1/envelopes', Array.from({ length: 8 }, big))).status).toBe(200);
  });
});

describe('every write obeys the disk guard and a count', () => {
  it('below --min-free-disk-mib, group creation and edits, avatars, handle claims and minted keys and tokens are 507 storage-full; sign-in works', async () => {
    const relay = await relayWith({ minFreeDiskMib: 1024 * 1024 * 1024 });
    const u = await signInKnown(relay);
    const g = await relay.store.createGroup({
      id: crypto.randomUUID(),
      name: 'g',
      isPublic: false,
      passwordHash: null,
      avatar: null,
      creatorAddress: u.address,
      now: Date.now(),
    });
    await relay.store.grantEntitlement(u.address, 'developer-api');
    const writes = [
      api(relay, u, 'POST', '/api/v1/groups', { name: 'new', isPublic: false }),
      api(relay, u, 'PATCH', `/api/v1/groups/${g.id}`, { name: 'renamed' }),
      api(relay, u, 'PATCH', `/api/v1/groups/${g.id}`, {
        avatar: 'data:image/png;base64,' + randomBytes(1024).toString('base64'),
      }),
      api(relay, u, 'PUT', '/api/v1/me/handle', { handle: 'diskfull' }),
      api(relay, u, 'POST', '/api/v1/me/keys', { label: 'ci' }),
      api(relay, u, 'POST', `/api/v1/groups/${g.id}/tokens`, { name: 'bot' }),
    ];
    for (const w of await Promise.all(writes)) expect([w.status, w.body.code]).toEqual([507, 'storage-full']);
    expect((await relay.store.getGroup(g.id))?.name).toBe('g');
    expect((await signIn(relay.url, u.account)).apiKey).toMatch(/^sk_live_/);
  });

  it('--max-groups-per-wallet: past it POST /groups is 429 too-many-groups; other wallets are not held back', async () => {
    const relay = await relayWith({ maxGroupsPerWallet: 3 });
    const u = await signIn(relay.url);
    for (let i = 0; i < 3; i++) await newGroup(relay, u, `g${i}`);
    const over = await api(relay, u, 'POST', '/api/v1/groups', { name: 'one too many', isPublic: true });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('too-many-groups');
    expect((await api(relay, u, 'GET', '/api/v1/groups?mine=1')).body.groups).toHaveLength(3);
    await newGroup(relay, await signIn(relay.url));
  });
});

describe('a revoked credential stops at once', () => {
  /** A pull held now; its answer comes later (wrapped, so that awaiting this does not wait for it). */
  const holdPull = async (relay: TestRelay, u: TestUser) => {
    const before = relay.app.heldPulls;
    const answer = call(relay.url, 'GET', '/api/v1/envelopes?wait=10', { auth: u.apiKey });
    await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(before + 1);
    return { answer };
  };

  it('revoking the key answers its held pull 401 at once, with the body a new request with it gets', async () => {
    const relay = await relayWith({});
    const u = await signIn(relay.url);
    const held = await holdPull(relay, u);
    expect((await api(relay, u, 'DELETE', `/api/v1/me/keys/${u.keyId}`)).status).toBe(200);
    const answer = await held.answer;
    expect(answer.status).toBe(401);
    // answered by the revocation, not when its wait ran out
    expect(reasonsOf(u)).toEqual(['revoked']);
    const fresh = await call(relay.url, 'GET', '/api/v1/envelopes?wait=1', { auth: u.apiKey });
    expect([fresh.status, fresh.body]).toEqual([401, answer.body]);
    expect(relay.app.heldPulls).toBe(0);
  });

  it('revoking a device answers the held pulls of its keys 401 at once, and no later envelope reaches them; other devices keep theirs', async () => {
    const relay = await relayWith({});
    const u = await signIn(relay.url);
    const other = await signIn(relay.url, u.account);
    const sender = await signIn(relay.url);
    await api(relay, u, 'PUT', `/api/v1/contacts/${sender.address}`);
    const held = await holdPull(relay, u);
    const otherHeld = await holdPull(relay, other);
    expect((await api(relay, other, 'DELETE', `/api/v1/devices/${u.deviceKey}`)).status).toBe(200);
    // an envelope sealed to no device after the revocation: the revoked device's pull never shows it
    const sent = await api(relay, sender, 'POST', '/api/v1/envelopes', envelopeTo({ address: u.address }));
    expect(sent.status).toBe(200);
    const answer = await held.answer;
    expect(answer.status).toBe(401);
    expect(reasonsOf(u)).toEqual(['revoked']);
    expect((await otherHeld.answer).body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
  });
});

describe('a revoked credential, on a node that may have missed the revocation', () => {
  it('held pulls look at their credential again: a revoked one answers 401, a valid one keeps waiting', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-test-'));
    const store = openSqliteStore(join(dir, 'relay.db'), { checkpointIntervalMs: 0 });
    // a cluster bus that has just come back after its LISTEN connection was down
    const listeners = new Set<(r: Revoked | null) => void>();
    const revocations: RevocationBus = {
      announce: async () => undefined,
      onRevoked: (l) => (listeners.add(l), () => listeners.delete(l)),
      trusted: true,
    };
    const app = await createRelay({
      store,
      config: { ...DEFAULT_CONFIG, rateLimit: 0, minFreeDiskMib: 0, baseUrl: 'http://127.0.0.1' },
      revocations,
    });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const [gone, kept, sender] = [await signIn(url), await signIn(url), await signIn(url)];
      const pulls = [gone, kept].map((u) => call(url, 'GET', '/api/v1/envelopes?wait=10', { auth: u.apiKey }));
      await expect.poll(() => app.heldPulls, { timeout: 3000, interval: 5 }).toBe(2);
      // revoked by another node, whose news this node never heard
      expect(await store.revokeApiKey(gone.address, gone.keyId, Date.now())).toBe(true);
      for (const l of listeners) l(null);
      expect((await pulls[0]).status).toBe(401);
      // woken to look at its credential again, not when its wait ran out
      expect(reasonsOf(gone)).toEqual(['recheck']);
      await expect.poll(() => app.heldPulls, { timeout: 3000, interval: 5 }).toBe(1);
      const sent = await call(url, 'POST', '/api/v1/envelopes', { auth: sender.apiKey, body: envelopeTo(kept) });
      expect((await pulls[1]).body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
      // the valid one looked at its credential, held again, and was woken by the send
      expect(reasonsOf(kept)).toEqual(['recheck', 'rung']);
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('caps on keys and held pulls per wallet', () => {
  it('--max-keys-per-wallet: a sign-in past it is 409 too-many-keys, saying where old keys are revoked; revoking one makes room', async () => {
    const relay = await relayWith({ maxKeysPerWallet: 3 });
    const u = await signIn(relay.url);
    await signIn(relay.url, u.account, u.deviceKey);
    await signIn(relay.url, u.account, u.deviceKey);
    const refused = signIn(relay.url, u.account, u.deviceKey);
    await expect(refused).rejects.toThrow(/409 .*too-many-keys/);
    await expect(refused).rejects.toThrow(/Settings → API keys.*revoke-key/);
    await relay.store.grantEntitlement(u.address, 'developer-api');
    expect((await api(relay, u, 'POST', '/api/v1/me/keys', { label: 'ci' })).body.code).toBe('too-many-keys');
    expect((await api(relay, u, 'DELETE', `/api/v1/me/keys/${u.keyId}`)).status).toBe(200);
    expect((await signIn(relay.url, u.account, u.deviceKey)).apiKey).toMatch(/^sk_live_/);
  });

  it('a sign-in from a new device refused past --max-keys-per-wallet registers no device: senders never seal to it', async () => {
    const relay = await relayWith({ maxKeysPerWallet: 2 });
    const u = await signIn(relay.url);
    await signIn(relay.url, u.account, u.deviceKey);
    await expect(signIn(relay.url, u.account, newDeviceKey())).rejects.toThrow(/409 .*too-many-keys/);
    const keys = await api(relay, u, 'GET', `/api/v1/keys/${u.address}`);
    expect(keys.body.deviceKeys).toEqual([u.deviceKey]);
    // with room again, the new device signs in and is registered
    expect((await api(relay, u, 'DELETE', `/api/v1/me/keys/${u.keyId}`)).status).toBe(200);
    const other = await signIn(relay.url, u.account, newDeviceKey());
    expect((await api(relay, other, 'GET', `/api/v1/keys/${u.address}`)).body.deviceKeys).toEqual([
      u.deviceKey,
      other.deviceKey,
    ]);
  });

  it(`a wallet holds at most ${MAX_HELD_PER_WALLET} pulls: the next answers its oldest with no envelopes`, async () => {
    const relay = await relayWith({});
    const first = await signIn(relay.url);
    const keys = [first];
    for (let i = 0; i < MAX_HELD_PER_WALLET; i++) keys.push(await signIn(relay.url, first.account, first.deviceKey));
    const pulls = [];
    for (const [i, k] of keys.entries()) {
      if (i === MAX_HELD_PER_WALLET) break;
      pulls.push(call(relay.url, 'GET', '/api/v1/envelopes?wait=20', { auth: k.apiKey }));
      await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(i + 1);
    }
    const last = call(relay.url, 'GET', '/api/v1/envelopes?wait=2', { auth: keys[MAX_HELD_PER_WALLET].apiKey });
    const answer = await pulls[0];
    expect([answer.status, answer.body]).toEqual([200, { envelopes: [] }]);
    // answered by the pull past the cap, not when its own wait ran out
    expect(reasonsOf(keys[0])).toEqual(['replaced']);
    await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(MAX_HELD_PER_WALLET);
    expect((await last).status).toBe(200);
  });
});

describe('operator flags', () => {
  it('take the defaults of docs/protocol.md (Limits) and refuse nonsense', () => {
    const plain = parseInvocation([]);
    expect(plain.mode === 'serve' && plain.options).toMatchObject({ maxGroupsPerWallet: 100, maxKeysPerWallet: 50 });
    expect(DEFAULT_CONFIG).toMatchObject({ maxGroupsPerWallet: 100, maxKeysPerWallet: 50 });
    const set = parseInvocation(['--max-groups-per-wallet', '5', '--max-keys-per-wallet', '7']);
    expect(set.mode === 'serve' && set.options).toMatchObject({ maxGroupsPerWallet: 5, maxKeysPerWallet: 7 });
    expect(() => parseInvocation(['--max-keys-per-wallet', '0'])).toThrow(/--max-keys-per-wallet: must be between/);
    expect(() => parseInvocation(['--max-groups-per-wallet', 'many'])).toThrow(/expected an integer/);
  });
});
