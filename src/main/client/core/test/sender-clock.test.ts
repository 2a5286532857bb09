/**
 * A message's `sentAt` is the sender's clock (docs/wire-format.md, Payload): one later than the
 * receiving device's clock when it takes the message in is replaced by that arrival time, with no
 * tolerance; one in the past is kept as written.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../../../../shared/domain.js';
import { cleanup, newProfile, startRelay } from '../../test/harness.js';

afterAll(cleanup);

const HOUR = 3_600_000;

describe("the sender's clock", () => {
  it('a sentAt ahead of the receiver is replaced by the arrival time; one behind is kept', async () => {
    const relay = await startRelay();
    const bob = await newProfile(relay.url);
    const ahead = await newProfile(relay.url, { options: { now: () => Date.now() + HOUR } });
    const behind = await newProfile(relay.url, { options: { now: () => Date.now() - HOUR } });
    for (const p of [ahead, behind]) await bob.m.contacts.allow(p.address);
    const toBob = `direct:${bob.address}` as ConversationId;

    const early = await ahead.m.messages.sendAndWait(toBob, 'from an hour ahead');
    const late = await behind.m.messages.sendAndWait(toBob, 'from an hour behind');
    await bob.m.syncPass();

    const fromAhead = bob.m.store.getMessage(early.message.id)!;
    expect(fromAhead.receivedAt).not.toBeNull();
    expect(fromAhead.sentAt).toBe(fromAhead.receivedAt);
    expect(Date.parse(fromAhead.sentAt)).toBeLessThan(Date.parse(early.message.sentAt));

    const fromBehind = bob.m.store.getMessage(late.message.id)!;
    expect(fromBehind.sentAt).toBe(late.message.sentAt);
    expect(Date.parse(fromBehind.sentAt)).toBeLessThan(Date.parse(fromBehind.receivedAt!));
  }, 120_000);
});
