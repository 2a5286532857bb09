/**
 * The SQL of edits, deletes and disappearing messages (kinds edit, delete, timer and the
 * `expiresIn` field), on the local store's connection. Its methods run inside the caller's
 * transaction (LocalStore.applyIncoming, insertOutgoing) or in one of their own.
 *
 * Rules kept here, where the rows are:
 * - an edit or delete counts only from the author of the message it names, in the same
 *   conversation; one naming a message not here yet waits in pending_changes and is applied
 *   when that message arrives (the same rule checked then);
 * - the newest edit wins (by its sentAt); a deleted message takes no more edits;
 * - expireMessages(now) is the one place rows are removed because their time ran out.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { ConversationId } from '../../../shared/domain.js';
import type { ControlBody } from './message-control.js';

/** An edit or delete to apply: the change's own id, who sent it, from which conversation, when. */
export interface MessageChange {
  changeId: string;
  conversationId: ConversationId;
  author: string;
  sentAt: string;
  body: Extract<ControlBody, { kind: 'edit' | 'delete' }>;
}

export type ChangeOutcome =
  | { applied: string }
  | { refused: string }
  /** the message it names is not here (yet): kept for when it arrives */
  | { pending: true }
  /** already applied, superseded, or the message was deleted: nothing to do */
  | { ignored: true };

/** Edits waiting for a message that never came are forgotten after the relay's longest retention. */
const PENDING_KEPT_MS = 30 * 24 * 3600_000;

export const MESSAGE_CHANGES_SQL = {
  target: 'SELECT author, conversation_id, deleted_at, edited_at FROM messages WHERE id = ?',
  applyEdit: `UPDATE messages SET text = @text, edited_at = @at
    WHERE id = @id AND deleted_at IS NULL AND (edited_at IS NULL OR edited_at < @at)`,
  applyDelete: `UPDATE messages SET text = '', deleted_at = @at WHERE id = @id AND deleted_at IS NULL`,
  insertPending: `INSERT INTO pending_changes (target_id, change_id, conversation_id, author, kind, text, sent_at, added_ms)
    VALUES (@target, @change, @conv, @author, @kind, @text, @sent_at, @now) ON CONFLICT (change_id) DO NOTHING`,
  pendingFor:
    'SELECT change_id, conversation_id, author, kind, text, sent_at FROM pending_changes WHERE target_id = ? ORDER BY sent_at',
  deletePendingFor: 'DELETE FROM pending_changes WHERE target_id = ?',
  deleteStalePending: 'DELETE FROM pending_changes WHERE added_ms < ?',

  conversationTimer: 'SELECT timer_seconds FROM conversations WHERE id = ?',
  setConversationTimer: 'UPDATE conversations SET timer_seconds = ? WHERE id = ?',
  setTimerNotice: 'UPDATE messages SET timer_seconds = ? WHERE id = ?',
  setExpiry: 'UPDATE messages SET expires_in = @expires_in, expires_at_ms = @expires_at_ms WHERE id = @id',
  startExpiry: `UPDATE messages SET expires_at_ms = @now + expires_in * 1000
    WHERE conversation_id = @conv AND expires_in IS NOT NULL AND expires_at_ms IS NULL`,
  expired: 'SELECT id, conversation_id FROM messages WHERE expires_at_ms <= ? ORDER BY expires_at_ms',
  deleteMessage: 'DELETE FROM messages WHERE id = ?',
  // an own message still waiting in the outbox, never handed to the relay
  withdrawQueued: `DELETE FROM outbox WHERE message_id = @id
    AND EXISTS (SELECT 1 FROM messages WHERE id = @id AND conversation_id = @conv AND from_me = 1 AND state = 'sending')`,
  nextExpiry: 'SELECT MIN(expires_at_ms) AS next FROM messages WHERE expires_at_ms IS NOT NULL',
  // the conversation list's preview falls back to the newest message still there
  relinkLastMessage: `UPDATE conversations SET last_message_seq =
    (SELECT seq FROM messages WHERE conversation_id = @conv ORDER BY sent_at DESC, seq DESC LIMIT 1) WHERE id = @conv`,
};

export class MessageChangesStore {
  private readonly s: Record<keyof typeof MESSAGE_CHANGES_SQL, Statement>;

  constructor(private readonly db: Database.Database) {
    this.s = Object.fromEntries(
      Object.entries(MESSAGE_CHANGES_SQL).map(([name, sql]) => [name, db.prepare(sql)]),
    ) as Record<keyof typeof MESSAGE_CHANGES_SQL, Statement>;
  }

  inTransaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** Applies an edit or delete, or keeps it for a message not here yet; the caller holds the transaction. */
  apply(c: MessageChange, nowMs: number): ChangeOutcome {
    const target = this.s.target.get(c.body.of) as
      { author: string; conversation_id: string; deleted_at: string | null; edited_at: string | null } | undefined;
    if (!target) {
      this.s.insertPending.run({
        target: c.body.of,
        change: c.changeId,
        conv: c.conversationId,
        author: c.author,
        kind: c.body.kind,
        text: c.body.kind === 'edit' ? c.body.text : null,
        sent_at: c.sentAt,
        now: nowMs,
      });
      return { pending: true };
    }
    if (target.author !== c.author)
      return { refused: `${c.author} may not ${c.body.kind} a message by ${target.author}` };
    if (target.conversation_id !== c.conversationId)
      return { refused: `the ${c.body.kind} names a message of another conversation` };
    const changed =
      c.body.kind === 'edit'
        ? this.s.applyEdit.run({ id: c.body.of, text: c.body.text, at: c.sentAt }).changes
        : this.s.applyDelete.run({ id: c.body.of, at: c.sentAt }).changes;
    return changed > 0 ? { applied: c.body.of } : { ignored: true };
  }

  /**
   * Takes back an own message that never left: its outbox entry and the message itself go, so
   * it is never sent at all (a delete for everyone would send the text first, then its delete).
   * False when it is not waiting in the outbox. The caller makes sure no send has it in hand.
   */
  withdrawQueued(id: string, conversationId: ConversationId): boolean {
    return this.db.transaction(() => {
      if (this.s.withdrawQueued.run({ id, conv: conversationId }).changes === 0) return false;
      this.s.deleteMessage.run(id);
      this.s.relinkLastMessage.run({ conv: conversationId });
      return true;
    })();
  }

  /**
   * A message just stored: its timer fields, and any edits or deletes that came before it.
   * Returns the refusals among those (an edit by someone other than its author).
   */
  noteInserted(
    m: {
      id: string;
      conversationId: ConversationId;
      fromMe: boolean;
      sentAt: string;
      expiresIn: number | null;
      timerSeconds: number | null;
    },
    nowMs: number,
  ): string[] {
    if (m.timerSeconds !== null) {
      this.s.setTimerNotice.run(m.timerSeconds, m.id);
      this.s.setConversationTimer.run(m.timerSeconds, m.conversationId);
    }
    // one's own message counts down from when it was sent; another's from when it is read here
    if (m.expiresIn !== null)
      this.s.setExpiry.run({
        id: m.id,
        expires_in: m.expiresIn,
        expires_at_ms: m.fromMe ? Date.parse(m.sentAt) + m.expiresIn * 1000 : null,
      });
    const waiting = this.s.pendingFor.all(m.id) as Array<{
      change_id: string;
      conversation_id: string;
      author: string;
      kind: 'edit' | 'delete';
      text: string | null;
      sent_at: string;
    }>;
    if (waiting.length === 0) return [];
    this.s.deletePendingFor.run(m.id);
    const refusals: string[] = [];
    for (const w of waiting) {
      const body =
        w.kind === 'edit'
          ? { kind: 'edit' as const, of: m.id, text: w.text ?? '' }
          : { kind: 'delete' as const, of: m.id };
      const out = this.apply(
        {
          changeId: w.change_id,
          conversationId: w.conversation_id as ConversationId,
          author: w.author,
          sentAt: w.sent_at,
          body,
        },
        nowMs,
      );
      if ('refused' in out) refusals.push(out.refused);
    }
    return refusals;
  }

  timer(conversationId: ConversationId): number {
    return (this.s.conversationTimer.get(conversationId) as { timer_seconds: number } | undefined)?.timer_seconds ?? 0;
  }

  /** The conversation is on screen: its messages that carry a timer start counting down. Returns how many started. */
  startExpiry(conversationId: ConversationId, nowMs: number): number {
    return this.s.startExpiry.run({ conv: conversationId, now: nowMs }).changes;
  }

  /**
   * Removes every message whose time has run out, in one transaction, and returns them. This is
   * where anything else kept for a message (files on disk, the search index) is let go of: rows
   * deleted here fire the database's triggers, and callers get the ids to clean up after.
   */
  expireMessages(nowMs: number): Array<{ id: string; conversationId: ConversationId }> {
    return this.db.transaction(() => {
      const rows = this.s.expired.all(nowMs) as Array<{ id: string; conversation_id: string }>;
      const convs = new Set<string>();
      for (const r of rows) {
        this.s.deleteMessage.run(r.id);
        convs.add(r.conversation_id);
      }
      for (const conv of convs) this.s.relinkLastMessage.run({ conv });
      this.s.deleteStalePending.run(nowMs - PENDING_KEPT_MS);
      return rows.map((r) => ({ id: r.id, conversationId: r.conversation_id as ConversationId }));
    })();
  }

  /** When the next message is due to disappear (epoch ms), or null. */
  nextExpiry(): number | null {
    return (this.s.nextExpiry.get() as { next: number | null }).next;
  }
}
