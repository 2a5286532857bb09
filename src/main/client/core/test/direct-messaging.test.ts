/**
 * Two profiles on one real relay: contact requests, allow, replies, block and stake-gate,
 * through the Messenger facade (the same calls the UI makes). The relay is shared; each case
 * makes the profiles it needs, so any one of them runs alone and in any order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ContactRequest } from '../../../../shared/domain.js';
import type { Messenger } from '../messenger.js';
import { ANVIL_MISSING } from '../../../devchain/anvil.js';
import { startLocalChain } from '../../../devchain/local-chain.js';
import { cleanup, newProfile, startRelay, type Relay } from '../../test/harness.js';

let relay: Relay;

beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

/** Two fresh profiles, alice_<tag> and bob_<tag>, who have never written to each other. */
async function strangers(tag: string) {
  // one after the other: a wallet's scrypt is heavy, and two at once on a busy machine can outwait the vault's timeout
  const alice = await newProfile(relay.url, { handle: `alice_${tag}` });
  const bob = await newProfile(relay.url, { handle: `bob_${tag}` });
  return { alice, bob };
}

/** Two fresh profiles who know each other: alice's first message was a request, and bob accepted it. */
async function acquainted(tag: string) {
  const { alice, bob } = await strangers(tag);
  await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'hi bob, it is alice');
  await bob.m.syncPass();
  await bob.m.contacts.acceptRequest({ address: alice.address });
  return { alice, bob };
}

function collect<T>(m: Messenger, event: 'message.new' | 'request.new'): T[] {
  const out: T[] = [];
  m.on(event, (p) => out.push(p as T));
  return out;
}

// each case makes its own wallets (scrypt), which takes a while on a busy machine
describe('direct messages between two profiles', { timeout: 120_000 }, () => {
  it('a first message from a stranger arrives as a contact request', async () => {
    const { alice, bob } = await strangers('req');
    const requests = collect<ContactRequest>(bob.m, 'request.new');
    const opened = await alice.m.conversations.open({ to: '@bob_req' });
    expect(opened.id).toBe(`direct:${bob.address}`);
    expect(opened.title).toBe('@bob_req');

    const { outcome } = await alice.m.messages.sendAndWait(opened.id, 'hi bob, it is alice');
    expect(outcome.state).toBe('sent');
    expect(outcome.routed).toBe('request');
    expect(outcome.deliveries).toEqual([
      { address: bob.address, deviceKey: bob.deviceKey, own: false, routed: 'request' },
    ]);
    expect(alice.m.messages.listMessages({ conversationId: opened.id })[0]).toMatchObject({
      state: 'sent',
      routed: 'request',
      fromMe: true,
    });

    const pass = await bob.m.syncPass();
    expect(pass.stored).toBe(1);
    expect(pass.rejected).toBe(0);
    const list = bob.m.contacts.listRequests();
    expect(list).toHaveLength(1);
    // the sender's handle is looked up after the pass
    expect(list[0]).toMatchObject({
      address: alice.address,
      handle: 'alice_req',
      intro: 'hi bob, it is alice',
      messageCount: 1,
    });
    expect(requests.map((r) => [r.address, r.handle])).toEqual([
      [alice.address, null],
      [alice.address, 'alice_req'],
    ]);
    // a pending request is not a conversation yet
    expect(bob.m.conversations.list().map((c) => c.id)).not.toContain(`direct:${alice.address}`);
    const msgs = bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` });
    expect(msgs.map((m) => [m.from, m.text, m.routed, m.fromMe])).toEqual([
      [alice.address, 'hi bob, it is alice', 'request', false],
    ]);
  });

  it('after bob allows alice, her messages land in his inbox', async () => {
    const { alice, bob } = await strangers('allow');
    await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'hi bob, it is alice');
    await bob.m.syncPass();
    expect(bob.m.contacts.listRequests().map((r) => r.address)).toEqual([alice.address]);
    await bob.m.contacts.acceptRequest({ address: alice.address });
    expect(bob.m.contacts.listRequests()).toEqual([]);
    expect(bob.m.conversations.list().map((c) => c.id)).toContain(`direct:${alice.address}`);

    const { outcome } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'second message');
    expect(outcome.routed).toBe('inbox');
    const arrived = collect<ChatMessage>(bob.m, 'message.new');
    await bob.m.syncPass();
    expect(arrived.map((m) => [m.text, m.routed])).toEqual([['second message', 'inbox']]);
    const conv = bob.m.conversations.list().find((c) => c.id === `direct:${alice.address}`)!;
    expect(conv.lastMessage).toMatchObject({ text: 'second message', fromMe: false });
    expect(conv.unread).toBe(2);
    bob.m.conversations.markRead({ conversationId: conv.id });
    expect(bob.m.conversations.list().find((c) => c.id === conv.id)!.unread).toBe(0);
  });

  it("bob's replies land in alice's inbox", async () => {
    const { alice, bob } = await acquainted('reply');
    const reply = bob.m.messages.send({ conversationId: `direct:${alice.address}`, text: 'hello alice' });
    expect(reply.state).toBe('sending');
    await bob.m.messages.flushOutbox(true);
    // the background kick may have sent it before this flush; the stored state tells either way
    const stored = bob.m.messages
      .listMessages({ conversationId: `direct:${alice.address}` })
      .find((m) => m.id === reply.id)!;
    expect(stored.state).toBe('sent');
    expect(stored.routed).toBe('inbox');

    await alice.m.syncPass();
    const msgs = alice.m.messages.listMessages({ conversationId: `direct:${bob.address}` });
    expect(msgs.map((m) => [m.fromMe, m.text])).toEqual([
      [true, 'hi bob, it is alice'],
      [false, 'hello alice'],
    ]);
    expect(msgs[1]).toMatchObject({ from: bob.address, fromHandle: 'bob_reply', routed: 'inbox', state: 'sent' });
    expect(alice.m.contacts.listRequests()).toEqual([]);
  });

  it('a redelivered envelope is shown once', async () => {
    const { alice, bob } = await acquainted('again');
    await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'only once');
    const before = bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` }).length;
    await bob.m.syncPass();
    await bob.m.syncPass();
    expect(bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` }).length).toBe(before + 1);
  });

  it('once bob blocks alice, her sends report blocked and nothing reaches him', async () => {
    const { alice, bob } = await acquainted('block');
    await bob.m.contacts.block({ address: alice.address });
    const { outcome, message } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'are you there?');
    expect(outcome.routed).toBe('blocked');
    expect(message).toMatchObject({ state: 'sent', routed: 'blocked' });
    const pass = await bob.m.syncPass();
    expect(pass.pulled).toBe(0);
  });

  it('a relay without a chain refuses the stake-gate policy', async () => {
    const erin = await newProfile(relay.url);
    await expect(erin.m.account.setPolicy({ unknownSenders: 'stake-gate', stake: '0.05' })).rejects.toThrow(
      /takes no stakes/,
    );
    expect(await erin.m.account.getPolicy()).toEqual({ unknownSenders: 'request', stake: null });
  });

  it.skipIf(ANVIL_MISSING !== null)(
    `a stake-gate policy reports its stake and currency to the sender (relay with a chain)${ANVIL_MISSING ? ` (skipped: ${ANVIL_MISSING})` : ''}`,
    async () => {
      const chain = await startLocalChain();
      try {
        const gated = await startRelay({
          stake: {
            rpcUrls: [chain.anvil.rpcUrl],
            chainId: chain.anvil.chainId,
            escrow: chain.escrow,
            confirmations: 1,
            publicRpcUrls: [],
          },
        });
        const carol = await newProfile(gated.url, { handle: 'carol' });
        const dan = await newProfile(gated.url);
        const policy = await carol.m.account.setPolicy({ unknownSenders: 'stake-gate', stake: '0.05' });
        expect(policy).toEqual({ unknownSenders: 'stake-gate', stake: '0.05' });
        expect(await carol.m.account.getPolicy()).toEqual({ unknownSenders: 'stake-gate', stake: '0.05' });

        const { outcome, message } = await dan.m.messages.sendAndWait(`direct:${carol.address}`, 'hello stranger');
        expect(outcome).toMatchObject({ routed: 'stake-gate', stakeRequired: '0.05', stakeCurrency: 'ETH' });
        expect(message).toMatchObject({ routed: 'stake-gate', stakeRequired: '0.05', stakeCurrency: 'ETH' });
        expect((await carol.m.syncPass()).pulled).toBe(0);
        await gated.stop();
      } finally {
        await chain.stop();
      }
    },
    120_000,
  );

  it('a contact-request intro (asRequest) reaches a request inbox with its note', async () => {
    const alice = await newProfile(relay.url);
    const dave = await newProfile(relay.url);
    const { outcome } = await dave.m.messages.sendAndWait(
      `direct:${alice.address}`,
      'Dave here, we met at the meetup',
      true,
    );
    expect(outcome.routed).toBe('request');
    await alice.m.syncPass();
    expect(alice.m.contacts.listRequests().find((r) => r.address === dave.address)).toMatchObject({
      intro: 'Dave here, we met at the meetup',
    });
    // declining forgets him locally
    await alice.m.contacts.declineRequest({ address: dave.address });
    expect(alice.m.contacts.listRequests().find((r) => r.address === dave.address)).toBeUndefined();
    expect(alice.m.messages.listMessages({ conversationId: `direct:${dave.address}` })).toEqual([]);
  });

  it('directory search, devices and status answer in domain types', async () => {
    const { alice, bob } = await strangers('dir');
    const hits = await alice.m.contacts.searchDirectory({ q: 'bob_d' });
    expect(hits).toContainEqual({ handle: 'bob_dir', address: bob.address, verified: false, relationship: 'stranger' });
    const devices = await alice.m.account.listDevices();
    expect(devices).toEqual([
      { publicKey: alice.deviceKey, createdAt: expect.any(String), current: true, history: null },
    ]);
    const st = await alice.m.appStatus();
    expect(st).toMatchObject({
      hasWallet: true,
      unlocked: true,
      ready: true,
      address: alice.address,
      handle: 'alice_dir',
      deviceKey: alice.deviceKey,
    });
    expect(st.relay).toMatchObject({ mode: 'url', url: relay.url, connected: true });
    const keys = await alice.m.account.listApiKeys();
    expect(keys).toHaveLength(1);
    expect(keys[0].deviceKey).toBe(alice.deviceKey);
  });
});
