/**
 * A send the relay refuses for a quota (docs/protocol.md §4 Limits) fails at once with the relay's
 * code, kept with the message, instead of waiting in the outbox as if the relay were busy;
 * in a batch, only the message to the full inbox fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, newProfile, startRelay, type Relay } from '../../test/harness.js';

let relay: Relay;
let alice: Awaited<ReturnType<typeof newProfile>>;
let bob: Awaited<ReturnType<typeof newProfile>>;
let carol: Awaited<ReturnType<typeof newProfile>>;
let dave: Awaited<ReturnType<typeof newProfile>>;

beforeAll(async () => {
  relay = await startRelay({ maxQueued: 2 });
  alice = await newProfile(relay.url, { handle: 'alice' });
  bob = await newProfile(relay.url, { handle: 'bob' });
  carol = await newProfile(relay.url, { handle: 'carol' });
  dave = await newProfile(relay.url, { handle: 'dave' });
  // alice is bob's contact: her messages fill his whole quota, a stranger's only half of it
  await bob.m.contacts.allow(alice.address);
}, 60_000);
afterAll(cleanup);

describe('quota refusals', () => {
  it("a stranger's request past half of the quota fails with requests-full and is not retried quietly", async () => {
    const conv = `direct:${carol.address}` as const;
    expect((await dave.m.messages.sendAndWait(conv, 'hi, it is dave')).outcome.state).toBe('sent');
    const { outcome, message } = await dave.m.messages.sendAndWait(conv, 'hello?');
    expect(outcome.state).toBe('failed');
    expect(message).toMatchObject({ state: 'failed', errorCode: 'requests-full' });
    expect(dave.m.syncStatus().pendingOutbox).toBe(0);
    // carol picks up what is there, which leaves her queue empty for the cases below
    await carol.m.syncPass();
  }, 60_000);

  it('a send to a full inbox fails with recipient-full and is not retried quietly', async () => {
    const conv = `direct:${bob.address}` as const;
    for (const text of ['one', 'two'])
      expect((await alice.m.messages.sendAndWait(conv, text)).outcome.state).toBe('sent');

    const { outcome, message } = await alice.m.messages.sendAndWait(conv, 'three');
    expect(outcome.state).toBe('failed');
    expect(message).toMatchObject({ state: 'failed', errorCode: 'recipient-full' });
    expect(message.error).toMatch(/nothing was sent/);
    expect(alice.m.syncStatus().pendingOutbox).toBe(0);
    // kept with the message: the app shows the same note after a restart
    expect(alice.m.messages.listMessages({ conversationId: conv }).at(-1)).toMatchObject({
      state: 'failed',
      errorCode: 'recipient-full',
    });

    // once bob has caught up, a retry goes through and the code is gone
    await bob.m.syncPass();
    alice.m.messages.retry({ messageId: message.id });
    await alice.m.messages.flushOutbox(true);
    expect(alice.m.messages.listMessages({ conversationId: conv }).at(-1)).toMatchObject({
      id: message.id,
      state: 'sent',
      errorCode: null,
      error: null,
    });
  }, 60_000);

  it('in one batch, only the message to the full inbox fails', async () => {
    const toBob = `direct:${bob.address}` as const;
    const toCarol = `direct:${carol.address}` as const;
    // fill bob's queue again (the retried message above is one of two)
    expect((await alice.m.messages.sendAndWait(toBob, 'four')).outcome.state).toBe('sent');
    // written while the relay is away, so that both go out in one batch when it is back
    await relay.stop();
    const full = (await alice.m.messages.sendAndWait(toBob, 'five')).message;
    const fine = (await alice.m.messages.sendAndWait(toCarol, 'hello carol')).message;
    expect([full.state, fine.state]).toEqual(['sending', 'sending']);
    relay = await startRelay({ dataDir: relay.dataDir, port: relay.port, maxQueued: 2 });
    const outcomes = await alice.m.messages.flushOutbox(true);
    expect(outcomes.map((o) => o.messageId).sort()).toEqual([full.id, fine.id].sort());
    const state = (conv: typeof toBob, id: string) =>
      alice.m.messages.listMessages({ conversationId: conv }).find((m) => m.id === id);
    expect(state(toBob, full.id)).toMatchObject({ state: 'failed', errorCode: 'recipient-full' });
    expect(state(toCarol, fine.id)).toMatchObject({ state: 'sent', errorCode: null });
  }, 60_000);
});
