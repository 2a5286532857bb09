import { afterEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import type { RelayConfig } from '../../config.js';
import { call, certify, envelopeTo, newDeviceKey, signIn, startRelay, watchHeldPulls } from '../harness.js';
import type { TestRelay, TestUser } from '../harness.js';

/**
 * Who may join a relay (docs/operations.md, Registration and moderation), through the real API,
 * and what a suspension does to a wallet that is signed in and holding a pull. The operator's
 * side goes through the store the running relay uses, as its admin socket does.
 */
const relays: TestRelay[] = [];
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
});
async function relayWith(over: Partial<RelayConfig>): Promise<TestRelay> {
  const r = await startRelay(over);
  relays.push(r);
  return r;
}

/** A sign-in attempt with an optional invite code, answered as the relay answers it. */
async function trySignIn(base: string, account: PrivateKeyAccount, invite?: string) {
  const address = account.address.toLowerCase();
  const ch = await call(base, 'POST', '/api/v1/auth/challenge', { body: { address } });
  const deviceKey = newDeviceKey();
  return call(base, 'POST', '/api/v1/auth/keys', {
    body: {
      message: ch.body.message,
      signature: await account.signMessage({ message: ch.body.message }),
      device: { publicKey: deviceKey, certificate: await certify(account, deviceKey) },
      ...(invite === undefined ? {} : { invite }),
    },
  });
}
const wallet = () => privateKeyToAccount(generatePrivateKey());

const holds = watchHeldPulls();
const reasonsOf = (u: TestUser) => holds.filter((h) => h.keyId === u.keyId).map((h) => h.reason);

describe('registration modes', () => {
  it('invite mode: a new wallet needs a live code, told to ask for an invite; a code is spent once per wallet', async () => {
    const relay = await relayWith({ registration: 'invite' });
    const alice = wallet();
    const refused = await trySignIn(relay.url, alice);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('invite-required');
    expect(refused.body.error).toMatch(/ask .*for an invite/);

    await relay.app.operatorStore.createInvite({ code: 'oneUseCode01', uses: 1, expiresAt: null, now: Date.now() });
    expect((await trySignIn(relay.url, alice, 'oneUseCode01')).status).toBe(200);
    // known now: no code needed again
    expect((await trySignIn(relay.url, alice)).status).toBe(200);
    const bob = await trySignIn(relay.url, wallet(), 'oneUseCode01');
    expect([bob.status, bob.body.code]).toEqual([403, 'invite-invalid']);
    expect(bob.body.error).toMatch(/new invite/);
  });

  it('closed mode: no new wallet signs in, a known one does', async () => {
    const relay = await relayWith({ registration: 'closed' });
    const known = wallet();
    await relay.store.admitSignIn(known.address, { mode: 'open', invite: null, now: Date.now() });
    const stranger = await trySignIn(relay.url, wallet(), 'whatever01');
    expect([stranger.status, stranger.body.code]).toEqual([403, 'registration-closed']);
    expect((await trySignIn(relay.url, known)).status).toBe(200);
  });

  it('open mode lets anyone in, and a reload to invite mode is in force for the next sign-in', async () => {
    const relay = await relayWith({});
    expect((await trySignIn(relay.url, wallet())).status).toBe(200);
    const live = relay.app.liveConfig;
    live.apply({ ...(live.current as Required<RelayConfig>), registration: 'invite' });
    // a cluster's other node reloads on its own SIGHUP; this asks the node whose mode changed
    const after = await trySignIn(relay.nodeUrl, wallet());
    expect([after.status, after.body.code]).toEqual([403, 'invite-required']);
  });
});

describe('suspension', () => {
  it('ends the held pull and every key at once, refuses sign-in, keeps the queue; unsuspending lets the wallet back', async () => {
    const relay = await relayWith({});
    const alice = await signIn(relay.url);
    const second = await signIn(relay.url, alice.account);
    const bob = await signIn(relay.url);
    await call(relay.url, 'PUT', `/api/v1/contacts/${bob.address}`, { auth: alice.apiKey });
    const before = relay.app.heldPulls;
    const held = call(relay.url, 'GET', '/api/v1/envelopes?wait=10', { auth: alice.apiKey });
    await expect.poll(() => relay.app.heldPulls, { timeout: 3000, interval: 5 }).toBe(before + 1);

    expect(await relay.app.operatorStore.setSuspended(alice.address, true, 'spam', Date.now())).toBe(true);
    const answer = await held;
    expect(answer.status).toBe(401);
    // answered by the suspension, not when its wait ran out
    expect(reasonsOf(alice)).toEqual(['revoked']);
    for (const key of [alice.apiKey, second.apiKey]) {
      expect((await call(relay.url, 'GET', '/api/v1/me', { auth: key })).status).toBe(401);
      const send = await call(relay.url, 'POST', '/api/v1/envelopes', {
        auth: key,
        body: envelopeTo(bob),
      });
      expect(send.status).toBe(401);
    }
    const again = await trySignIn(relay.url, alice.account);
    expect([again.status, again.body.code]).toEqual([403, 'suspended']);
    // mail for a suspended wallet still queues and waits for it
    const sent = await call(relay.url, 'POST', '/api/v1/envelopes', {
      auth: bob.apiKey,
      body: envelopeTo({ address: alice.address }),
    });
    expect(sent.status).toBe(200);

    expect(await relay.app.operatorStore.setSuspended(alice.address, false, null, Date.now())).toBe(true);
    const back = await signIn(relay.url, alice.account);
    const pulled = await call(relay.url, 'GET', '/api/v1/envelopes', { auth: back.apiKey });
    expect(pulled.body.envelopes.map((e: { id: string }) => e.id)).toEqual([sent.body.envelope.id]);
  });
});
