/**
 * Every SQL statement of the local store (local-store.ts), prepared once per connection.
 */
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';

export const MESSAGE_COLUMNS = `m.seq, m.id, m.conversation_id, m.author, m.from_me, m.kind, m.text, m.sent_at, m.received_at, m.state,
  m.routed, m.stake_required, m.stake_currency, m.via, m.bot_name, m.error, m.error_code, m.peer_state,
  m.edited_at, m.deleted_at, m.timer_seconds, m.expires_in, m.expires_at_ms, c.handle AS author_handle`;

export const CONVERSATION_SELECT = `
  SELECT v.id, v.kind, v.peer, v.unread, v.updated_at, v.muted, v.timer_seconds,
    c.handle AS contact_handle, c.verified AS contact_verified, g.name AS group_name, g.verified AS group_verified,
    g.is_member AS group_member, g.removed_by AS group_removed_by, g.removed_at AS group_removed_at,
    CASE WHEN m.deleted_at IS NOT NULL THEN 'Message deleted' WHEN m.timer_seconds IS NOT NULL THEN 'Disappearing messages changed' ELSE m.text END AS last_text,
    CASE WHEN m.deleted_at IS NOT NULL THEN 'deleted' WHEN m.timer_seconds IS NOT NULL THEN 'timer' ELSE 'text' END AS last_kind,
    m.sent_at AS last_sent_at, m.from_me AS last_from_me
  FROM conversations v
  LEFT JOIN contacts c ON v.kind = 'direct' AND c.address = v.peer
  LEFT JOIN groups g ON v.kind = 'group' AND g.id = v.peer
  LEFT JOIN messages m ON m.seq = v.last_message_seq`;

/** Every statement of the local store, prepared once per connection (exported for the query-plan test). */
export const LOCAL_STORE_SQL = {
  getSetting: 'SELECT value FROM profile WHERE key = ?',
  setSetting: 'INSERT INTO profile (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  deleteSetting: 'DELETE FROM profile WHERE key = ?',
  allSettings: 'SELECT key, value FROM profile',

  getContact: 'SELECT address, handle, verified, state FROM contacts WHERE address = ?',
  contactByHandle: 'SELECT address, handle, verified, state FROM contacts WHERE handle = ?',
  upsertContactState: `INSERT INTO contacts (address, state, updated_ms) VALUES (@address, @state, @now)
    ON CONFLICT (address) DO UPDATE SET state = excluded.state, updated_ms = excluded.updated_ms`,
  // 'known' never overrides a decision (allowed, requested or blocked)
  contactKnown: `INSERT INTO contacts (address, state, updated_ms) VALUES (@address, 'known', @now) ON CONFLICT (address) DO NOTHING`,
  upsertContactHandle: `INSERT INTO contacts (address, handle, verified, state, updated_ms) VALUES (@address, @handle, @verified, 'known', @now)
    ON CONFLICT (address) DO UPDATE SET handle = excluded.handle, verified = excluded.verified`,
  deleteContact: 'DELETE FROM contacts WHERE address = ?',

  upsertGroup: `INSERT INTO groups (id, name, is_public, verified, has_password, avatar, member_count, created_at, creator, members, is_member, fetched_ms)
    VALUES (@id, @name, @is_public, @verified, @has_password, @avatar, @member_count, @created_at, @creator, @members, @is_member, @fetched_ms)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_public = excluded.is_public, verified = excluded.verified,
      has_password = excluded.has_password, avatar = excluded.avatar, member_count = excluded.member_count,
      created_at = excluded.created_at, creator = COALESCE(excluded.creator, groups.creator),
      members = COALESCE(excluded.members, groups.members), is_member = excluded.is_member, fetched_ms = excluded.fetched_ms,
      removed_by = CASE WHEN excluded.is_member = 1 THEN NULL ELSE groups.removed_by END,
      removed_at = CASE WHEN excluded.is_member = 1 THEN NULL ELSE groups.removed_at END`,
  getGroup: 'SELECT * FROM groups WHERE id = ?',
  setGroupMembership: 'UPDATE groups SET is_member = ? WHERE id = ?',

  ensureConversation: `INSERT INTO conversations (id, kind, peer, updated_at) VALUES (@id, @kind, @peer, @at) ON CONFLICT (id) DO NOTHING`,
  touchConversation: `UPDATE conversations SET
      last_message_seq = CASE WHEN last_message_seq IS NULL OR @at >= (SELECT sent_at FROM messages WHERE seq = last_message_seq) THEN @seq ELSE last_message_seq END,
      updated_at = MAX(updated_at, @at), unread = unread + @unread
    WHERE id = @id`,
  // whose conversations Chats shows is decided with the rest of who someone is (contacts/relationship.ts)
  listConversations: `${CONVERSATION_SELECT}
    ORDER BY v.updated_at DESC, v.id`,
  getConversation: `${CONVERSATION_SELECT} WHERE v.id = ?`,
  markRead: 'UPDATE conversations SET unread = 0 WHERE id = ?',
  setMuted: 'UPDATE conversations SET muted = ? WHERE id = ?',
  deleteConversation: 'DELETE FROM conversations WHERE id = ?',

  insertMessage: `INSERT INTO messages (id, conversation_id, author, from_me, kind, text, sent_at, received_at, state, routed, via, bot_name, envelope_id, shown)
    VALUES (@id, @conv, @author, @from_me, @kind, @text, @sent_at, @received_at, @state, @routed, @via, @bot_name, @envelope_id, @shown)
    ON CONFLICT (id) DO NOTHING`,
  getMessage: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author WHERE m.id = ?`,
  messageOrder: 'SELECT sent_at, seq, conversation_id FROM messages WHERE id = ?',
  listMessages: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv ORDER BY m.sent_at DESC, m.seq DESC LIMIT @limit`,
  listMessagesBefore: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv AND (m.sent_at < @sent_at OR (m.sent_at = @sent_at AND m.seq < @seq))
    ORDER BY m.sent_at DESC, m.seq DESC LIMIT @limit`,
  listMessagesFrom: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author
    WHERE m.conversation_id = @conv AND (m.sent_at > @sent_at OR (m.sent_at = @sent_at AND m.seq >= @seq))
    ORDER BY m.sent_at, m.seq LIMIT @limit`,
  unshown: `SELECT ${MESSAGE_COLUMNS} FROM messages m LEFT JOIN contacts c ON c.address = m.author WHERE m.shown = 0 ORDER BY m.seq`,
  markShown: 'UPDATE messages SET shown = 1 WHERE seq = ?',
  markSent: `UPDATE messages SET state = 'sent', routed = @routed, stake_required = @stake_required, stake_currency = @stake_currency,
    via = @via, deliveries = @deliveries, error = NULL, error_code = NULL WHERE id = @id`,
  markFailed: `UPDATE messages SET state = 'failed', error = ?, error_code = ? WHERE id = ?`,
  markPeerDelivered: `UPDATE messages SET peer_state = 'delivered' WHERE id = ? AND conversation_id = ? AND from_me = 1 AND peer_state IS NULL`,
  markPeerRead: `UPDATE messages SET peer_state = 'read' WHERE id = ? AND conversation_id = ? AND from_me = 1 AND (peer_state IS NULL OR peer_state = 'delivered')`,
  markSending: `UPDATE messages SET state = 'sending', error = NULL, error_code = NULL WHERE id = ?`,

  insertOutbox: `INSERT INTO outbox (message_id, conversation_id, payload, as_request, attempts, next_attempt_ms, queued_ms)
    VALUES (@message_id, @conv, @payload, @as_request, 0, @next, @queued)
    ON CONFLICT (message_id) DO UPDATE SET attempts = 0, next_attempt_ms = excluded.next_attempt_ms, last_error = NULL`,
  getOutbox: 'SELECT * FROM outbox WHERE message_id = ?',
  // Due, or queued before a due entry of its conversation (still in its backoff): it goes along,
  // first, so a conversation's messages never overtake one another after a failed try.
  dueOutbox: `SELECT * FROM outbox o WHERE EXISTS (
      SELECT 1 FROM outbox l WHERE l.conversation_id = o.conversation_id AND l.next_attempt_ms <= @now
        AND (l.queued_ms, l.message_id) >= (o.queued_ms, o.message_id))
    ORDER BY queued_ms, message_id LIMIT @limit`,
  deferOutbox:
    'UPDATE outbox SET attempts = @attempts, next_attempt_ms = @next, last_error = @error WHERE message_id = @id',
  deleteOutbox: 'DELETE FROM outbox WHERE message_id = ?',
  outboxCount: 'SELECT COUNT(*) AS n FROM outbox',
  nextOutboxDue: 'SELECT MIN(next_attempt_ms) AS next FROM outbox',

  insertPendingAck:
    'INSERT INTO pending_acks (envelope_id, added_ms) VALUES (?, ?) ON CONFLICT (envelope_id) DO NOTHING',
  pendingAcks: 'SELECT envelope_id FROM pending_acks ORDER BY added_ms LIMIT ?',
  deletePendingAck: 'DELETE FROM pending_acks WHERE envelope_id = ?',

  upsertRequest: `INSERT INTO requests (address, intro, received_at, message_count) VALUES (@address, @intro, @received_at, 1)
    ON CONFLICT (address) DO UPDATE SET message_count = requests.message_count + 1`,
  // a blocked sender's request is kept for an unblock to bring back, and shown only then
  listRequests: `SELECT r.address, r.intro, r.received_at, r.message_count, c.handle, c.verified
    FROM requests r LEFT JOIN contacts c ON c.address = r.address
    WHERE c.state IS NULL OR c.state <> 'blocked' ORDER BY r.received_at DESC`,
  getRequest: `SELECT r.address, r.intro, r.received_at, r.message_count, c.handle, c.verified
    FROM requests r LEFT JOIN contacts c ON c.address = r.address
    WHERE r.address = ? AND (c.state IS NULL OR c.state <> 'blocked')`,
  deleteRequest: 'DELETE FROM requests WHERE address = ?',

  certifiedDevices:
    'SELECT public_key, certificate, created_at, fetched_ms FROM certified_devices WHERE address = ? ORDER BY created_at',
  deleteCertifiedDevices: 'DELETE FROM certified_devices WHERE address = ?',
  insertCertifiedDevice:
    'INSERT INTO certified_devices (address, public_key, certificate, created_at, fetched_ms) VALUES (?, ?, ?, ?, ?)',
};

/** Every statement of LOCAL_STORE_SQL, prepared on one connection. */
export type LocalStatements = Record<keyof typeof LOCAL_STORE_SQL, Statement>;

export function prepareAll(db: Database.Database): LocalStatements {
  return Object.fromEntries(Object.entries(LOCAL_STORE_SQL).map(([name, sql]) => [name, db.prepare(sql)])) as Record<
    keyof typeof LOCAL_STORE_SQL,
    Statement
  >;
}
