/**
 * The client database's schema history, oldest first, keyed by PRAGMA user_version. Never
 * edit a shipped entry: append a new one. Addresses are lower-case; `*_ms` columns are epoch
 * milliseconds; `sent_at`/`received_at` are ISO 8601 strings as the domain types carry them.
 */
import type { Migration } from '../../sqlite/migrations.js';

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      -- One row per setting: address, device key, relay URL and pin, the sealed API key, cursors.
      CREATE TABLE profile (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) WITHOUT ROWID;

      -- state: known (we wrote to them or they reached our inbox), allowed (accepted),
      -- requested (their intro waits for a decision), blocked.
      CREATE TABLE contacts (
        address TEXT PRIMARY KEY,
        handle TEXT,
        verified INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL CHECK (state IN ('known', 'allowed', 'requested', 'blocked')),
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      CREATE TABLE groups (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        is_public INTEGER NOT NULL DEFAULT 0,
        verified INTEGER NOT NULL DEFAULT 0,
        has_password INTEGER NOT NULL DEFAULT 0,
        avatar TEXT,
        member_count INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        creator TEXT,
        members TEXT, -- JSON array of addresses, as last fetched
        is_member INTEGER NOT NULL DEFAULT 1,
        fetched_ms INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;

      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('direct', 'group')),
        peer TEXT NOT NULL,
        unread INTEGER NOT NULL DEFAULT 0,
        last_message_seq INTEGER,
        updated_at TEXT NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX conversations_updated ON conversations (updated_at);

      -- seq orders the log and never reuses an id; id is the message uuid from the signed
      -- payload, so a redelivered envelope is a no-op insert.
      CREATE TABLE messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        author TEXT NOT NULL,
        from_me INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('text', 'request')),
        text TEXT NOT NULL,
        sent_at TEXT NOT NULL,
        received_at TEXT,
        state TEXT NOT NULL CHECK (state IN ('sending', 'sent', 'failed')),
        routed TEXT,
        stake_required TEXT,
        stake_currency TEXT,
        via TEXT,
        error TEXT,
        deliveries TEXT, -- JSON: per device, how the relay routed our copy (sender side)
        envelope_id TEXT, -- the relay envelope it arrived in (receiver side)
        shown INTEGER NOT NULL DEFAULT 0 -- printed by the headless client (print-then-mark)
      );
      CREATE INDEX messages_conversation ON messages (conversation_id, sent_at, seq);
      CREATE INDEX messages_unshown ON messages (seq) WHERE shown = 0;

      -- Contact requests waiting for a decision (one per sender).
      CREATE TABLE requests (
        address TEXT PRIMARY KEY,
        intro TEXT NOT NULL,
        received_at TEXT NOT NULL,
        message_count INTEGER NOT NULL DEFAULT 0
      ) WITHOUT ROWID;

      -- Messages waiting to be sealed and posted; survives restarts. payload is the exact
      -- JSON text that gets signed, so every retry sends the same bytes.
      CREATE TABLE outbox (
        message_id TEXT PRIMARY KEY REFERENCES messages (id) ON DELETE CASCADE,
        conversation_id TEXT NOT NULL,
        payload TEXT NOT NULL,
        as_request INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL,
        last_error TEXT,
        queued_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX outbox_due ON outbox (next_attempt_ms);

      -- Envelopes whose content is committed locally but whose ack has not reached the relay.
      CREATE TABLE pending_acks (
        envelope_id TEXT PRIMARY KEY,
        added_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      -- Devices whose certificate we verified, per address, as last fetched from GET /keys.
      CREATE TABLE certified_devices (
        address TEXT NOT NULL,
        public_key TEXT NOT NULL,
        certificate TEXT NOT NULL,
        created_at TEXT NOT NULL,
        fetched_ms INTEGER NOT NULL,
        PRIMARY KEY (address, public_key)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 2,
    name: 'why a send was refused',
    sql: `
      -- The relay's code for a refused send (recipient-full, storage-full, …), so that the app
      -- can say what it means for this conversation; error keeps the relay's own sentence.
      ALTER TABLE messages ADD COLUMN error_code TEXT;
    `,
  },
  {
    version: 3,
    name: 'contacts by handle',
    sql: `
      -- A send to @handle is resolved from the contacts first (offline too): one lookup, not a scan.
      CREATE INDEX contacts_handle ON contacts (handle) WHERE handle IS NOT NULL;
    `,
  },
  {
    version: 4,
    name: 'bot names',
    sql: `
      -- The relay's name for the group token that posted a bot message (NULL otherwise): the
      -- signature only proves the bot's address, which says nothing to a person.
      ALTER TABLE messages ADD COLUMN bot_name TEXT;
    `,
  },
  {
    version: 5,
    name: 'receipts from the peer',
    sql: `
      -- What the peer's receipts said about an own message (NULL: none yet). Kept apart from
      -- state, which is the outbox's: a receipt may arrive while another device's copy is still
      -- being retried. Only ever moves NULL → delivered → read.
      ALTER TABLE messages ADD COLUMN peer_state TEXT CHECK (peer_state IN ('delivered', 'read'));
    `,
  },
  {
    version: 6,
    name: 'muted conversations',
    sql: `
      -- A muted conversation raises no desktop notification; it still counts unread.
      ALTER TABLE conversations ADD COLUMN muted INTEGER NOT NULL DEFAULT 0 CHECK (muted IN (0, 1));
    `,
  },
  {
    version: 7,
    name: 'edits, deletes and disappearing messages',
    sql: `
      -- Edits and deletes (kinds edit, delete) change the author's own message in place:
      -- edited_at marks an edit; a delete blanks the text and sets deleted_at (the row stays, as
      -- the "message deleted" placeholder).
      ALTER TABLE messages ADD COLUMN edited_at TEXT;
      ALTER TABLE messages ADD COLUMN deleted_at TEXT;
      -- Disappearing messages: expires_in (seconds) is the sender's timer when it was sent;
      -- expires_at_ms is when this device removes it (set once read here, or at once for our own).
      ALTER TABLE messages ADD COLUMN expires_in INTEGER;
      ALTER TABLE messages ADD COLUMN expires_at_ms INTEGER;
      -- A timer notice (kind timer) is kept as a row of its own: the seconds it set (0 = off).
      ALTER TABLE messages ADD COLUMN timer_seconds INTEGER;
      CREATE INDEX messages_expiry ON messages (expires_at_ms) WHERE expires_at_ms IS NOT NULL;
      CREATE INDEX messages_unstarted_expiry ON messages (conversation_id) WHERE expires_in IS NOT NULL AND expires_at_ms IS NULL;

      -- The conversation's current timer (seconds; 0 = off), as the last timer notice set it.
      ALTER TABLE conversations ADD COLUMN timer_seconds INTEGER NOT NULL DEFAULT 0;

      -- An edit or delete that arrived before the message it names (another device's copies
      -- can come in any order): applied when that message arrives, and only if the author matches.
      CREATE TABLE pending_changes (
        target_id TEXT NOT NULL,
        change_id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        author TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('edit', 'delete')),
        text TEXT,
        sent_at TEXT NOT NULL,
        added_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX pending_changes_target ON pending_changes (target_id);

      -- Edits, deletes and timer changes we send wait in the outbox like messages, but an edit or
      -- delete has no row of its own in messages: the outbox loses its foreign key to messages,
      -- and a trigger keeps the old cascade (a message deleted takes its outbox entry along).
      CREATE TABLE outbox_v7 (
        message_id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL,
        payload TEXT NOT NULL,
        as_request INTEGER NOT NULL DEFAULT 0,
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_ms INTEGER NOT NULL,
        last_error TEXT,
        queued_ms INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO outbox_v7 SELECT message_id, conversation_id, payload, as_request, attempts, next_attempt_ms, last_error, queued_ms FROM outbox;
      DROP TABLE outbox;
      ALTER TABLE outbox_v7 RENAME TO outbox;
      CREATE INDEX outbox_due ON outbox (next_attempt_ms);
      CREATE TRIGGER messages_outbox_cascade AFTER DELETE ON messages BEGIN
        DELETE FROM outbox WHERE message_id = OLD.id;
      END;
    `,
  },
  {
    version: 8,
    name: 'safety numbers: device sets, verified marks, device notices',
    sql: `
      -- Each wallet's certified device keys as last seen (JSON array, sorted), and the set the
      -- person verified the safety number against (NULL: not verified). change_pending: the
      -- set changed after it was verified; the app asks before the next message to them.
      CREATE TABLE device_sets (
        address TEXT PRIMARY KEY,
        devices TEXT NOT NULL,
        verified_devices TEXT,
        verified_ms INTEGER,
        change_pending INTEGER NOT NULL DEFAULT 0 CHECK (change_pending IN (0, 1)),
        updated_ms INTEGER NOT NULL
      ) WITHOUT ROWID;

      -- "Bob added a new device on …": at is the device's certification time for an added one,
      -- the time we noticed for a removed one (ISO 8601). Our own address's notices go to Settings.
      CREATE TABLE device_notices (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        address TEXT NOT NULL,
        change TEXT NOT NULL CHECK (change IN ('added', 'removed')),
        device_key TEXT NOT NULL,
        at TEXT NOT NULL,
        noticed_ms INTEGER NOT NULL
      );
      CREATE INDEX device_notices_address ON device_notices (address, id);
    `,
  },
  {
    version: 9,
    name: 'message search',
    sql: `
      -- Full-text index of the message texts for local search. External content: the words are
      -- indexed, the text stays in messages (snippet() reads it from there by rowid = seq).
      -- conversation_id is indexed too, so a search within one conversation is an intersection
      -- in the index rather than a filter over every match. remove_diacritics 2: "cafe" finds
      -- "café". prefix: the 2- and 3-letter prefixes have their own index, so results come while
      -- a word is still being typed.
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        text, conversation_id, content = 'messages', content_rowid = 'seq',
        tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
      );
      -- Kept in step by triggers, so every way a message is stored, edited or removed (a
      -- conversation's cascade included) reaches the index in the same transaction. An external
      -- content index forgets a row by being told its old text.
      CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
        INSERT INTO messages_fts (rowid, text, conversation_id) VALUES (new.seq, new.text, new.conversation_id);
      END;
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, text, conversation_id) VALUES ('delete', old.seq, old.text, old.conversation_id);
      END;
      CREATE TRIGGER messages_fts_update AFTER UPDATE OF text, conversation_id ON messages BEGIN
        INSERT INTO messages_fts (messages_fts, rowid, text, conversation_id) VALUES ('delete', old.seq, old.text, old.conversation_id);
        INSERT INTO messages_fts (rowid, text, conversation_id) VALUES (new.seq, new.text, new.conversation_id);
      END;
      -- the messages stored before this version
      INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
      -- A search reads the newest matches in storage order; a match stored late but sent
      -- later than those is found from this side, by time (local-store-search.ts).
      CREATE INDEX messages_sent ON messages (sent_at, seq);
    `,
  },
  {
    version: 10,
    name: 'attachments',
    sql: `
      -- The files of an attachment message, as signed (blob id, key, nonce, name, mime, size,
      -- sha256), and how far fetching each got (attachment-store.ts). key is emptied once the
      -- file is kept at rest (under the profile's own key) or refused.
      CREATE TABLE attachments (
        message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        blob TEXT NOT NULL,
        key TEXT NOT NULL,
        nonce TEXT NOT NULL,
        name TEXT NOT NULL,
        mime TEXT NOT NULL,
        size INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('sent', 'pending', 'saved', 'refused')),
        path TEXT,
        error TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (message_id, idx)
      );
      CREATE INDEX attachments_pending ON attachments (attempts) WHERE state = 'pending';
    `,
  },
  {
    version: 11,
    name: 'a deleted message forgets its files',
    sql: `
      -- A message deleted for everyone (kind delete) keeps its row as the placeholder; its files
      -- go with its text. An expired one loses its row, and its files with it (ON DELETE CASCADE).
      -- The kept files themselves leave the disk with Attachments.sweepFiles.
      CREATE TRIGGER messages_deleted_files AFTER UPDATE OF deleted_at ON messages WHEN NEW.deleted_at IS NOT NULL BEGIN
        DELETE FROM attachments WHERE message_id = NEW.id;
      END;
    `,
  },
  {
    version: 12,
    name: 'attachment previews',
    sql: `
      -- An image's downscaled preview (a data: URL the sender made, at most 8 KiB), carried in
      -- the attachment message so that the app shows it before the file is fetched.
      ALTER TABLE attachments ADD COLUMN preview TEXT;
    `,
  },
  {
    version: 13,
    name: 'removed from a group',
    sql: `
      -- When the relay took us out of a group (removed_at), and who did (removed_by, when their
      -- notice reached us): the group's chat says so and takes no more messages. Cleared when
      -- we are a member again.
      ALTER TABLE groups ADD COLUMN removed_by TEXT;
      ALTER TABLE groups ADD COLUMN removed_at TEXT;
    `,
  },
];
