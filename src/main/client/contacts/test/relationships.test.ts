/**
 * Who someone is to me is decided in one place (relationship.ts) and every answer follows it:
 * the conversation list, requests, the directory's hits, Settings → Blocked, and the
 * `contact.relationship` events the screens listen to. A block keeps a waiting request for an
 * unblock (or Undo) to bring back, and a blocked person's envelopes make no conversation.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactRequest, Relationship } from '../../../../shared/domain.js';
import { LocalStore, type IncomingMessage } from '../../store/local-store.js';
import { cleanup, newProfile, startRelay, tempDir, type Relay } from '../../test/harness.js';
import { decideRelationship, type RelationshipFacts } from '../relationship.js';

let relay: Relay;
beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

const facts = (
  f: Partial<Omit<RelationshipFacts, 'received' | 'reached' | 'sent' | 'sharesGroup'>> & {
    received?: boolean;
    reached?: boolean;
    sent?: boolean;
    sharesGroup?: boolean;
  },
): RelationshipFacts => ({
  self: f.self ?? false,
  state: f.state ?? null,
  received: () => f.received ?? false,
  reached: () => f.reached ?? false,
  sent: () => f.sent ?? false,
  sharesGroup: () => f.sharesGroup ?? false,
});

describe('who someone is to me', () => {
  it('decides from the contact row first, then what was exchanged, then shared groups', () => {
    const cases: Array<[Parameters<typeof facts>[0], Relationship]> = [
      [{ self: true, state: 'blocked' }, 'self'],
      [{ state: 'blocked', received: true, reached: true }, 'blocked'],
      [{ state: 'requested', sent: true }, 'requester'],
      [{ state: 'allowed' }, 'contact'],
      [{ state: 'known', received: true }, 'contact'],
      [{ state: 'known', reached: true, sent: true }, 'contact'],
      [{ state: 'known', sent: true, sharesGroup: true }, 'request-sent'],
      [{ sharesGroup: true }, 'member'],
      [{}, 'stranger'],
    ];
    for (const [f, expected] of cases) expect(decideRelationship(facts(f)), JSON.stringify(f)).toBe(expected);
  });

  it('a blocked author’s group message is dropped like their direct ones', () => {
    const store = LocalStore.open(join(tempDir('rel-store'), 'client.db'));
    const author = '0x' + 'ab'.repeat(20);
    const group = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const item = (id: string): IncomingMessage => ({
      id,
      envelopeId: id,
      author,
      kind: 'text',
      text: 'hello group',
      sentAt: '2026-01-01T00:00:00.000Z',
      receivedAt: '2026-01-01T00:00:01.000Z',
      via: 'api-key',
      botName: null,
      control: null,
      expiresIn: null,
      files: null,
      conversationId: `group:${group}`,
      conversationKind: 'group',
      peer: group,
      fromMe: false,
      routed: 'inbox',
      isRequest: false,
    });
    expect(store.applyIncoming([item('0a000000-0000-4000-8000-000000000001')], [], 1).messages).toHaveLength(1);
    store.blockContact(author, 2);
    expect(store.applyIncoming([item('0a000000-0000-4000-8000-000000000002')], [], 3).messages).toEqual([]);
    store.close();
  });

  it(
    'a request, a block and its undo, an acceptance: every answer follows, and each change is announced',
    { timeout: 120_000 },
    async () => {
      const ann = await newProfile(relay.url, { handle: 'ann_rel' });
      const ben = await newProfile(relay.url, { handle: 'ben_rel' });
      const announced: Array<{ address: string; relationship: Relationship }> = [];
      ben.m.on('contact.relationship', (r) => announced.push(r));
      const requests: ContactRequest[] = [];
      ben.m.on('request.new', (r) => requests.push(r));
      const hit = async (p: typeof ann, handle: string) =>
        (await p.m.contacts.searchDirectory({ q: handle })).find((h) => h.handle === handle)!.relationship;

      expect(await hit(ann, 'ben_rel')).toBe('stranger');
      expect(await hit(ann, 'ann_rel')).toBe('self');
      const c = await ann.m.conversations.open({ to: '@ben_rel' });
      await ann.m.messages.sendAndWait(c.id, 'Hi Ben, Ann here.', true);
      expect(await hit(ann, 'ben_rel')).toBe('request-sent');
      expect(ann.m.store.getConversation(c.id)?.relationship).toBe('request-sent');

      await ben.m.syncPass();
      const direct = `direct:${ann.address}` as const;
      expect(ben.m.contacts.relationshipOf(ann.address)).toBe('requester');
      expect(ben.m.store.listConversations().map((x) => x.id)).not.toContain(direct);

      await ben.m.contacts.block({ address: ann.address });
      expect(announced.at(-1)).toEqual({ address: ann.address, relationship: 'blocked' });
      expect(await hit(ben, 'ann_rel')).toBe('blocked');
      expect(ben.m.contacts.listRequests()).toEqual([]);
      expect(ben.m.contacts.blocked()).toEqual([{ address: ann.address, handle: 'ann_rel', verified: false }]);
      expect(ben.m.store.listConversations().map((x) => x.id)).not.toContain(direct);
      expect(ben.m.store.getConversation(direct)?.relationship).toBe('blocked');

      // Undo: the request is back as it was, and announced
      await ben.m.contacts.unblock({ address: ann.address });
      expect(announced.at(-1)).toEqual({ address: ann.address, relationship: 'requester' });
      expect(requests.at(-1)).toMatchObject({ address: ann.address, intro: 'Hi Ben, Ann here.' });
      expect(ben.m.contacts.listRequests().map((r) => r.address)).toEqual([ann.address]);
      expect(ben.m.contacts.blocked()).toEqual([]);

      await ben.m.contacts.acceptRequest({ address: ann.address });
      expect(announced.at(-1)).toEqual({ address: ann.address, relationship: 'contact' });
      expect(await hit(ben, 'ann_rel')).toBe('contact');
      expect(ben.m.store.listConversations().map((x) => x.id)).toContain(direct);
      await ben.m.messages.sendAndWait(direct, 'Hello Ann!');
      await ann.m.syncPass();
      expect(await hit(ann, 'ben_rel')).toBe('contact');
    },
  );
});
