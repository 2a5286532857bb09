/**
 * Main is the one place that learns handles of addresses the app shows on their own (group
 * members, inviters, a conversation opened by address): it answers what it knows and looks up
 * the rest, paced with its other relay calls, announcing each with `contact.updated`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationSummary, KnownHandle } from '../../../../shared/domain.js';
import { cleanup, newProfile, startRelay, type Relay } from '../../test/harness.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

const until = async <T>(what: () => T | undefined, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('handles main learns for the app', { timeout: 120_000 }, () => {
  it('answers known handles at once, looks up the others and announces them, and retitles a conversation opened by address', async () => {
    const alice = await newProfile(relay.url, { handle: 'alice_h' });
    const carol = await newProfile(relay.url, { handle: 'carol_h' });
    const nobody = '0x' + '5'.repeat(40);
    const learned: KnownHandle[] = [];
    alice.m.on('contact.updated', (k) => learned.push(k as KnownHandle));

    expect(alice.m.contacts.knownHandles([carol.address.toUpperCase().replace('0X', '0x'), nobody])).toEqual([]);
    const carolKnown = await until(() => learned.find((k) => k.address === carol.address));
    expect(carolKnown).toEqual({ address: carol.address, handle: 'carol_h', verified: false });
    expect(alice.m.contacts.knownHandles([carol.address, nobody])).toEqual([carolKnown]);
    // the directory has no handle for `nobody`: nothing is announced for it
    expect(learned.map((k) => k.address)).toEqual([carol.address]);

    const dave = await newProfile(relay.url, { handle: 'dave_h' });
    const updates: ConversationSummary[] = [];
    alice.m.on('conversation.updated', (c) => updates.push(c as ConversationSummary));
    const opened = await alice.m.conversations.open({ to: dave.address });
    expect(opened.title).not.toBe('@dave_h');
    const retitled = await until(() => updates.find((c) => c.id === opened.id && c.title === '@dave_h'));
    expect(retitled.peer).toBe(dave.address);
  });
});
