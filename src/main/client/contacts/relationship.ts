/**
 * Who someone is to me: the one place that decides it. Every screen follows the answer (the
 * conversation list, Requests, the Directory's buttons, Settings → Blocked), so none of them
 * can disagree about whether someone is a contact, waits in Requests, or is blocked.
 *
 * The facts come from the local database (relationship-store.ts); they are asked for in the
 * order below, and only as far as needed: most people are decided by their contact row alone.
 */
import type { ConversationSummary, Relationship } from '../../../shared/domain.js';
import type { ContactState } from '../store/local-store-rows.js';

export interface RelationshipFacts {
  /** the address is this wallet's */
  self: boolean;
  /** what the contact row says, null when there is none */
  state: ContactState | null;
  /** they wrote to me and it reached my inbox (not a request waiting for my answer) */
  received: () => boolean;
  /** a message of mine to them reached their inbox (they accepted me, or wrote to me first) */
  reached: () => boolean;
  /**
   * I wrote to them (a request, or a message routed as one) and it is on its way or waits for
   * them: not failed, not held back by a stake gate, not refused by a block
   */
  sent: () => boolean;
  /** we are both in a group I am in */
  sharesGroup: () => boolean;
}

export function decideRelationship(f: RelationshipFacts): Relationship {
  if (f.self) return 'self';
  switch (f.state) {
    case 'blocked':
      return 'blocked';
    case 'requested':
      return 'requester';
    case 'allowed':
      return 'contact';
    default:
      break;
  }
  if (f.received() || f.reached()) return 'contact';
  if (f.sent()) return 'request-sent';
  return f.sharesGroup() ? 'member' : 'stranger';
}

/** Chats shows groups and the people I talk with; a requester waits in Requests, a blocked person nowhere. */
export function shownInChats(c: Pick<ConversationSummary, 'kind' | 'relationship'>): boolean {
  return c.kind === 'group' || (c.relationship !== 'blocked' && c.relationship !== 'requester');
}
