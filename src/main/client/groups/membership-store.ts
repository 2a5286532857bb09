/**
 * Our own membership of a group as the local database remembers it: taken out by the relay
 * (and by whom, once their notice reached us), so that the group's chat says so and takes no
 * more messages. Joining again clears it (the local store's group upsert).
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

export const MEMBERSHIP_STORE_SQL = {
  // the first time we learn it keeps its moment; a later notice only adds who it was; a group we
  // left stays left
  markRemoved: `UPDATE groups SET is_member = 0, removed_at = COALESCE(removed_at, @at), removed_by = COALESCE(@by, removed_by)
    WHERE id = @id AND (is_member = 1 OR (removed_at IS NOT NULL AND removed_by IS NULL AND @by IS NOT NULL))`,
} as const;

export class MembershipStore {
  private readonly s: Record<keyof typeof MEMBERSHIP_STORE_SQL, Statement>;

  constructor(db: Database.Database) {
    this.s = Object.fromEntries(
      Object.entries(MEMBERSHIP_STORE_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof MEMBERSHIP_STORE_SQL, Statement>;
  }

  /** We are out of the group, `by` someone when known; false when nothing changed (known already, or no such group). */
  markRemoved(id: string, by: string | null, at: string): boolean {
    return this.s.markRemoved.run({ id: id.toLowerCase(), by: by?.toLowerCase() ?? null, at }).changes > 0;
  }
}
