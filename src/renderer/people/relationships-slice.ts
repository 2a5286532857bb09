import type { StateCreator } from 'zustand';
import type { BlockedPerson, ConversationSummary, Relationship } from '../../shared/domain.js';
import { call } from '../bridge/bridge.js';
import type { Store } from '../store.js';

/**
 * Who each person is to me, as main decides it (src/main/client/contacts/relationship.ts): from
 * conversation summaries, directory hits and `contact.relationship` events, the newest word
 * winning. Every screen reads it here (relationshipOf), so none offers what no longer applies.
 */
export interface RelationshipsSlice {
  relationships: Record<string, Relationship>;
  /** Settings → Blocked; null until asked for */
  blocked: BlockedPerson[] | null;
  relationshipChanged: (address: string, relationship: Relationship) => void;
  relationshipsSeen: (list: Array<{ address: string; relationship: Relationship }>) => void;
  loadBlocked: () => Promise<void>;
  /** blocks on the relay and here; the screens follow the event main sends */
  block: (address: string) => Promise<void>;
  unblock: (address: string) => Promise<void>;
}

/** Who `address` is to me, as far as the page has heard; `fallback` (a directory hit's) until then. */
export function relationshipOf(
  s: Pick<Store, 'relationships'>,
  address: string,
  fallback: Relationship = 'stranger',
): Relationship {
  return s.relationships[address.toLowerCase()] ?? fallback;
}

/** Chats shows groups and the people I talk with: a requester waits in Requests, a blocked person shows nowhere. */
export function shownInChats(s: Pick<Store, 'relationships'>, c: ConversationSummary): boolean {
  if (c.kind === 'group') return true;
  const r = relationshipOf(s, c.peer, c.relationship ?? 'stranger');
  return r !== 'blocked' && r !== 'requester';
}

export const createRelationshipsSlice: StateCreator<Store, [], [], RelationshipsSlice> = (set, get) => ({
  relationships: {},
  blocked: null,
  relationshipChanged: (address, relationship) => {
    const a = address.toLowerCase();
    set((s) => ({ relationships: { ...s.relationships, [a]: relationship } }));
    // the list in Settings follows too, once it was asked for
    const listed = get().blocked;
    if (listed && (relationship === 'blocked') !== listed.some((b) => b.address === a))
      void get()
        .loadBlocked()
        .catch(() => undefined);
  },
  relationshipsSeen: (list) =>
    set((s) => ({
      relationships: {
        ...s.relationships,
        ...Object.fromEntries(list.map((x) => [x.address.toLowerCase(), x.relationship])),
      },
    })),
  loadBlocked: async () => {
    set({ blocked: await call('contacts.blocked', {}) });
  },
  block: async (address) => {
    await call('contacts.block', { address });
    get().relationshipChanged(address, 'blocked');
  },
  unblock: async (address) => {
    await call('contacts.unblock', { address });
  },
});
