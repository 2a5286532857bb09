/**
 * The local facts behind who someone is to me (relationship.ts decides), and the blocks: a
 * block keeps the person's waiting request, so that unblocking (or Undo) puts it back where it
 * was. Statements are prepared once, on the local store's connection.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { BlockedPerson, Relationship } from '../../../shared/domain.js';
import type { ContactState } from '../store/local-store-rows.js';
import { decideRelationship } from './relationship.js';

export const RELATIONSHIP_STORE_SQL = {
  state: 'SELECT state FROM contacts WHERE address = ?',
  received: `SELECT 1 FROM messages WHERE conversation_id = 'direct:' || ? AND from_me = 0 AND routed = 'inbox' LIMIT 1`,
  reached: `SELECT 1 FROM messages WHERE conversation_id = 'direct:' || ? AND from_me = 1 AND routed = 'inbox' LIMIT 1`,
  // held back by a stake gate or refused by a block, it did not reach them: no request is waiting
  sent: `SELECT 1 FROM messages WHERE conversation_id = 'direct:' || ? AND from_me = 1 AND state <> 'failed'
    AND (routed IS NULL OR routed IN ('request', 'inbox')) LIMIT 1`,
  sharesGroup: 'SELECT 1 FROM groups g, json_each(g.members) j WHERE g.is_member = 1 AND j.value = ? LIMIT 1',
  blocked: `SELECT address, handle, verified FROM contacts WHERE state = 'blocked' ORDER BY handle IS NULL, handle, address`,
  block: `INSERT INTO contacts (address, state, updated_ms) VALUES (@address, 'blocked', @now)
    ON CONFLICT (address) DO UPDATE SET state = 'blocked', updated_ms = excluded.updated_ms`,
  hasRequest: 'SELECT 1 FROM requests WHERE address = ?',
  unblock: `UPDATE contacts SET state = @state, updated_ms = @now WHERE address = @address AND state = 'blocked'`,
} as const;

export class RelationshipStore {
  private readonly s: Record<keyof typeof RELATIONSHIP_STORE_SQL, Statement>;

  constructor(private readonly db: Database.Database) {
    this.s = Object.fromEntries(
      Object.entries(RELATIONSHIP_STORE_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof RELATIONSHIP_STORE_SQL, Statement>;
  }

  /** Who `address` is to `me` (null: not known yet, before a wallet exists). */
  of(address: string, me: string | null = null): Relationship {
    const a = address.toLowerCase();
    const has = (s: Statement) => () => s.get(a) !== undefined;
    return decideRelationship({
      self: me !== null && a === me.toLowerCase(),
      state: ((this.s.state.get(a) as { state: ContactState } | undefined)?.state ?? null) as ContactState | null,
      received: has(this.s.received),
      reached: has(this.s.reached),
      sent: has(this.s.sent),
      sharesGroup: has(this.s.sharesGroup),
    });
  }

  blocked(): BlockedPerson[] {
    return (this.s.blocked.all() as Array<{ address: string; handle: string | null; verified: number }>).map((r) => ({
      address: r.address,
      handle: r.handle,
      verified: r.verified === 1,
    }));
  }

  /** Blocks the address; a request it had waiting stays, hidden, for an unblock to bring back. */
  block(address: string, nowMs: number): void {
    this.s.block.run({ address: address.toLowerCase(), now: nowMs });
  }

  /** Ends a block: someone whose request was waiting is a requester again; `restored` says so. */
  unblock(address: string, nowMs: number): { restored: boolean } {
    const a = address.toLowerCase();
    return this.db.transaction(() => {
      const restored = this.s.hasRequest.get(a) !== undefined;
      this.s.unblock.run({ address: a, state: restored ? 'requested' : 'known', now: nowMs });
      return { restored };
    })();
  }
}
