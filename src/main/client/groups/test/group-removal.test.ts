/**
 * A member taken out of a group is told, by whom: the remover's client sends a notice, the
 * removed member's client believes it only once the relay no longer counts it a member, and
 * the group's conversation then takes no more messages. Without the notice (lost, or refused
 * by the member's inbox policy) the first send learns it from the relay and fails for good.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationId, ConversationSummary } from '../../../../shared/domain.js';
import { cleanup, newProfile, startRelay, type Relay } from '../../test/harness.js';

type Profile = Awaited<ReturnType<typeof newProfile>>;
let relay: Relay;
let ann: Profile;
let ben: Profile;
let cat: Profile;

beforeAll(async () => {
  relay = await startRelay();
  // one at a time: wallets derived at once can starve each vault past its answer timeout on a loaded machine
  ann = await newProfile(relay.url, { handle: 'ann_r' });
  ben = await newProfile(relay.url, { handle: 'ben_r' });
  cat = await newProfile(relay.url, { handle: 'cat_r' });
}, 90_000);
afterAll(cleanup);

/** Runs `p`'s sync passes until `what` holds: the notice goes out once the removal is done, and is checked after it arrives. */
const syncUntil = async <T>(p: Profile, what: () => T | undefined | null | false, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    await p.m.syncPass();
    const v = what();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A group of ann's with ben and cat in it (each accepted the invitation). */
async function groupOfThree(name: string): Promise<{ id: string; conv: ConversationId }> {
  const g = await ann.m.groups.create({ name, isPublic: false });
  for (const p of [ben, cat]) {
    await ann.m.groups.addMember({ groupId: g.id, member: p.address });
    await p.m.groups.acceptInvitation({ groupId: g.id });
  }
  return { id: g.id, conv: `group:${g.id}` };
}

describe('removed from a group', { timeout: 120_000 }, () => {
  it('the removed member learns who removed them; the chat closes and Group info hides what they no longer see', async () => {
    const { id, conv } = await groupOfThree('Readers');
    expect(ben.m.store.getConversation(conv)?.closed).toBeNull();
    const updates: ConversationSummary[] = [];
    ben.m.on('conversation.updated', (c) => updates.push(c));

    await ann.m.groups.removeMember({ groupId: id, address: ben.address });
    const closed = await syncUntil(ben, () => updates.find((c) => c.id === conv && c.closed !== null));
    expect(closed.closed).toEqual({ reason: 'removed', by: ann.address });
    expect(ben.m.store.getConversation(conv)?.closed).toEqual({ reason: 'removed', by: ann.address });

    const info = await ben.m.groups.get({ groupId: id });
    expect(info).toMatchObject({ isMember: false, closed: { reason: 'removed', by: ann.address } });
    expect(info.members).toBeUndefined();
    // the others go on
    expect(ann.m.store.getConversation(conv)?.closed).toBeNull();
    expect(cat.m.store.getConversation(conv)?.closed).toBeNull();
  });

  it('a notice while the relay still counts me a member changes nothing (anyone can send one)', async () => {
    const { id, conv } = await groupOfThree('Walkers');
    await ben.m.groups.removalNoticed(cat.address, id);
    expect(ben.m.store.getConversation(conv)?.closed).toBeNull();
    expect((await ben.m.groups.get({ groupId: id })).isMember).toBe(true);
  });

  it('without the notice, the first send learns it from the relay: failed for good, and the chat closes', async () => {
    const { id, conv } = await groupOfThree('Runners');
    await ann.m.groups.removeMember({ groupId: id, address: cat.address });
    // cat sends before any pass could bring the notice
    const { message, outcome } = await cat.m.messages.sendAndWait(conv, 'still here?');
    expect(outcome.state).toBe('failed');
    expect(cat.m.store.getMessage(message.id)).toMatchObject({ state: 'failed', errorCode: 'not-a-member' });
    expect(cat.m.store.getConversation(conv)?.closed).toEqual({ reason: 'removed', by: null });
    // the notice, once it comes, says who
    await syncUntil(cat, () => {
      const closed = cat.m.store.getConversation(conv)?.closed;
      return closed?.reason === 'removed' && closed.by === ann.address;
    });
  });

  it('a group I left says so, and a notice afterwards does not turn it into a removal', async () => {
    const { id, conv } = await groupOfThree('Swimmers');
    await ben.m.groups.leave({ groupId: id });
    expect(ben.m.store.getConversation(conv)?.closed).toEqual({ reason: 'left' });
    await ben.m.groups.removalNoticed(ann.address, id);
    expect(ben.m.store.getConversation(conv)?.closed).toEqual({ reason: 'left' });
  });
});
