import { latestVersion, type Migration } from '../../../sqlite/migrations.js';

/**
 * The relay's schema history, oldest first. Never edit a shipped entry: append a new one.
 * Addresses, keys and handles are stored lower-case; times are epoch milliseconds.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE accounts (
        address TEXT PRIMARY KEY,
        handle TEXT UNIQUE,
        handle_claimed_at INTEGER,
        verified INTEGER NOT NULL DEFAULT 0,
        unknown_senders TEXT NOT NULL DEFAULT 'request' CHECK (unknown_senders IN ('request', 'stake-gate', 'block')),
        stake TEXT
      );
      -- Directory without a query: newest claims first, ties by rowid (implicit in the index).
      CREATE INDEX accounts_claims ON accounts (handle_claimed_at) WHERE handle IS NOT NULL;

      CREATE TABLE entitlements (
        address TEXT NOT NULL,
        name TEXT NOT NULL,
        granted_at INTEGER NOT NULL,
        PRIMARY KEY (address, name)
      ) WITHOUT ROWID;

      CREATE TABLE challenges (
        nonce TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        message TEXT NOT NULL,
        expires_at INTEGER NOT NULL,
        used_at INTEGER
      ) WITHOUT ROWID;
      CREATE INDEX challenges_expiry ON challenges (expires_at);

      CREATE TABLE devices (
        public_key TEXT PRIMARY KEY,
        address TEXT NOT NULL REFERENCES accounts (address),
        certificate TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX devices_address ON devices (address, created_at);

      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        address TEXT NOT NULL REFERENCES accounts (address),
        hash BLOB NOT NULL UNIQUE,
        label TEXT,
        prefix TEXT NOT NULL,
        device_key TEXT REFERENCES devices (public_key),
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_address ON api_keys (address, created_at);
      CREATE INDEX api_keys_device ON api_keys (device_key) WHERE device_key IS NOT NULL;

      -- Allow and block are independent lists so that a block can win over an allow.
      CREATE TABLE contacts (
        owner TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('allow', 'block')),
        other TEXT NOT NULL,
        PRIMARY KEY (owner, kind, other)
      ) WITHOUT ROWID;

      -- A direct send routed inbox or request: the sender has written to the recipient before.
      CREATE TABLE sent_before (
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        PRIMARY KEY (sender, recipient)
      ) WITHOUT ROWID;

      CREATE TABLE chat_groups (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        is_public INTEGER NOT NULL,
        verified INTEGER NOT NULL DEFAULT 0,
        password_hash TEXT,
        avatar TEXT,
        creator_address TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX chat_groups_public ON chat_groups (created_at, seq) WHERE is_public = 1;

      CREATE TABLE group_members (
        group_id TEXT NOT NULL REFERENCES chat_groups (id),
        address TEXT NOT NULL,
        joined_at INTEGER NOT NULL,
        PRIMARY KEY (group_id, address)
      ) WITHOUT ROWID;
      CREATE INDEX group_members_address ON group_members (address);

      CREATE TABLE bot_tokens (
        id TEXT PRIMARY KEY,
        group_id TEXT NOT NULL REFERENCES chat_groups (id),
        name TEXT NOT NULL,
        prefix TEXT NOT NULL,
        hash BLOB NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      );
      CREATE INDEX bot_tokens_group ON bot_tokens (group_id, created_at);

      -- seq orders the queue and is never reused (AUTOINCREMENT), even after an ack deletes
      -- the newest row; id is the public, time-ordered uuid v7.
      CREATE TABLE envelopes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        device_key TEXT,
        ciphertext TEXT NOT NULL,
        ephemeral_public_key TEXT NOT NULL,
        nonce TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        routed TEXT NOT NULL CHECK (routed IN ('inbox', 'request')),
        group_id TEXT,
        via TEXT CHECK (via IN ('group-token', 'api-key'))
      );
      -- One randomly placed index per envelope keeps sends cheap: it serves both pulls in
      -- queue order and filters the device inside the index, without touching the rows.
      CREATE INDEX envelopes_inbox ON envelopes (recipient, seq, device_key);
      -- Appended at the right edge (times grow), so it costs little; it makes the sweep a range.
      CREATE INDEX envelopes_age ON envelopes (created_at);
    `,
  },
  {
    version: 2,
    name: 'payable stakes',
    sql: `
      -- A quote the relay issued for a stake-gated send (docs/protocol.md §13): the ref is
      -- bound to the sender, the recipient and the amount, and dropped once it expired.
      CREATE TABLE stake_quotes (
        ref TEXT PRIMARY KEY,
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        amount_wei TEXT NOT NULL,
        min_deadline INTEGER NOT NULL,
        max_deadline INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX stake_quotes_expiry ON stake_quotes (expires_at);

      -- A stake that opened a request. ref UNIQUE is what makes a stake single-use: the
      -- delivery inserts it in its own transaction, and a second insert is a replay.
      CREATE TABLE stakes (
        id TEXT PRIMARY KEY,
        ref TEXT NOT NULL UNIQUE,
        chain_id INTEGER NOT NULL,
        escrow TEXT NOT NULL,
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        amount_wei TEXT NOT NULL,
        deadline INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'released', 'forfeited', 'refunded')),
        release_signature TEXT,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX stakes_sender ON stakes (sender, created_at);
      CREATE INDEX stakes_recipient ON stakes (recipient, created_at);

      -- The stake of a staked request, as the wire's EnvelopeStake JSON; NULL for the rest.
      ALTER TABLE envelopes ADD COLUMN stake TEXT;
    `,
  },
  {
    version: 3,
    name: 'group consent and admins, queue quotas',
    sql: `
      ALTER TABLE group_members ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;

      -- An invited wallet is not a member until it accepts (docs/protocol.md §12).
      CREATE TABLE group_invitations (
        group_id TEXT NOT NULL REFERENCES chat_groups (id),
        address TEXT NOT NULL,
        invited_by TEXT NOT NULL,
        invited_at INTEGER NOT NULL,
        PRIMARY KEY (group_id, address)
      ) WITHOUT ROWID;
      CREATE INDEX group_invitations_address ON group_invitations (address, invited_at);

      -- Undelivered envelopes and decoded ciphertext bytes (from the padded base64's length) per
      -- recipient device ('' for envelopes sealed to no device), kept by triggers so that a
      -- send checks its quota with one point read whatever the queue's length.
      CREATE TABLE queue_usage (
        recipient TEXT NOT NULL,
        device_key TEXT NOT NULL,
        envelopes INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        PRIMARY KEY (recipient, device_key)
      ) WITHOUT ROWID;
      INSERT INTO queue_usage (recipient, device_key, envelopes, bytes)
        SELECT recipient, coalesce(device_key, ''), count(*), sum(length(ciphertext) / 4 * 3 - (substr(ciphertext, -1) = '=') - (substr(ciphertext, -2) = '==')) FROM envelopes GROUP BY 1, 2;
      CREATE TRIGGER envelopes_usage_insert AFTER INSERT ON envelopes BEGIN
        INSERT INTO queue_usage (recipient, device_key, envelopes, bytes)
          VALUES (NEW.recipient, coalesce(NEW.device_key, ''), 1, length(NEW.ciphertext) / 4 * 3 - (substr(NEW.ciphertext, -1) = '=') - (substr(NEW.ciphertext, -2) = '=='))
          ON CONFLICT DO UPDATE SET envelopes = envelopes + 1, bytes = bytes + excluded.bytes;
      END;
      CREATE TRIGGER envelopes_usage_delete AFTER DELETE ON envelopes BEGIN
        UPDATE queue_usage SET envelopes = envelopes - 1, bytes = bytes - (length(OLD.ciphertext) / 4 * 3 - (substr(OLD.ciphertext, -1) = '=') - (substr(OLD.ciphertext, -2) = '=='))
          WHERE recipient = OLD.recipient AND device_key = coalesce(OLD.device_key, '');
        DELETE FROM queue_usage WHERE recipient = OLD.recipient AND device_key = coalesce(OLD.device_key, '') AND envelopes <= 0;
      END;

      -- Undelivered request-routed envelopes per sender and recipient wallet.
      CREATE TABLE pending_requests (
        sender TEXT NOT NULL,
        recipient TEXT NOT NULL,
        envelopes INTEGER NOT NULL,
        PRIMARY KEY (sender, recipient)
      ) WITHOUT ROWID;
      INSERT INTO pending_requests (sender, recipient, envelopes)
        SELECT sender, recipient, count(*) FROM envelopes WHERE routed = 'request' GROUP BY 1, 2;
      CREATE TRIGGER envelopes_requests_insert AFTER INSERT ON envelopes WHEN NEW.routed = 'request' BEGIN
        INSERT INTO pending_requests (sender, recipient, envelopes) VALUES (NEW.sender, NEW.recipient, 1)
          ON CONFLICT DO UPDATE SET envelopes = envelopes + 1;
      END;
      CREATE TRIGGER envelopes_requests_delete AFTER DELETE ON envelopes WHEN OLD.routed = 'request' BEGIN
        UPDATE pending_requests SET envelopes = envelopes - 1 WHERE sender = OLD.sender AND recipient = OLD.recipient;
        DELETE FROM pending_requests WHERE sender = OLD.sender AND recipient = OLD.recipient AND envelopes <= 0;
      END;
    `,
  },
  {
    version: 4,
    name: 'bot name on group-token envelopes',
    sql: `
      -- The name of the group token that posted (NULL for every other envelope): only the relay
      -- knows which of a group's tokens it was, and receivers show it beside the bot's address.
      ALTER TABLE envelopes ADD COLUMN bot_name TEXT;
    `,
  },
  {
    version: 5,
    name: 'blobs',
    sql: `
      -- Uploaded attachment ciphertext (docs/protocol.md §14): the bytes are a file named by the
      -- id in the blob folder; this row says whose it is, how big, and until when it is kept.
      CREATE TABLE blobs (
        id TEXT PRIMARY KEY,
        uploader TEXT NOT NULL,
        size INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      -- The quota sums a wallet's unexpired blobs; the sweep takes the oldest expired ones.
      CREATE INDEX blobs_uploader ON blobs (uploader, expires_at);
      CREATE INDEX blobs_expiry ON blobs (expires_at);
    `,
  },
  {
    version: 6,
    name: 'the requests share of the queue quota, invitations as requests, caps on groups and keys',
    sql: `
      -- Request-routed envelopes (strangers') may fill only half of a device's quota
      -- (docs/protocol.md, Limits): queue_usage counts them apart, so the send's one point read
      -- sees both figures.
      ALTER TABLE queue_usage ADD COLUMN requests INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE queue_usage ADD COLUMN request_bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE queue_usage SET requests = r.n, request_bytes = r.b
        FROM (SELECT recipient, coalesce(device_key, '') AS device_key, count(*) AS n,
                sum(length(ciphertext) / 4 * 3 - (substr(ciphertext, -1) = '=') - (substr(ciphertext, -2) = '==')) AS b
              FROM envelopes WHERE routed = 'request' GROUP BY 1, 2) AS r
        WHERE queue_usage.recipient = r.recipient AND queue_usage.device_key = r.device_key;
      DROP TRIGGER envelopes_usage_insert;
      DROP TRIGGER envelopes_usage_delete;
      CREATE TRIGGER envelopes_usage_insert AFTER INSERT ON envelopes BEGIN
        INSERT INTO queue_usage (recipient, device_key, envelopes, bytes, requests, request_bytes)
          VALUES (NEW.recipient, coalesce(NEW.device_key, ''), 1, length(NEW.ciphertext) / 4 * 3 - (substr(NEW.ciphertext, -1) = '=') - (substr(NEW.ciphertext, -2) = '=='),
            NEW.routed = 'request', (NEW.routed = 'request') * (length(NEW.ciphertext) / 4 * 3 - (substr(NEW.ciphertext, -1) = '=') - (substr(NEW.ciphertext, -2) = '==')))
          ON CONFLICT DO UPDATE SET envelopes = envelopes + 1, bytes = bytes + excluded.bytes,
            requests = requests + excluded.requests, request_bytes = request_bytes + excluded.request_bytes;
      END;
      CREATE TRIGGER envelopes_usage_delete AFTER DELETE ON envelopes BEGIN
        UPDATE queue_usage SET envelopes = envelopes - 1,
            bytes = bytes - (length(OLD.ciphertext) / 4 * 3 - (substr(OLD.ciphertext, -1) = '=') - (substr(OLD.ciphertext, -2) = '==')),
            requests = requests - (OLD.routed = 'request'),
            request_bytes = request_bytes - (OLD.routed = 'request') * (length(OLD.ciphertext) / 4 * 3 - (substr(OLD.ciphertext, -1) = '=') - (substr(OLD.ciphertext, -2) = '=='))
          WHERE recipient = OLD.recipient AND device_key = coalesce(OLD.device_key, '');
        DELETE FROM queue_usage WHERE recipient = OLD.recipient AND device_key = coalesce(OLD.device_key, '') AND envelopes <= 0;
      END;

      -- A pending group invitation is a contact request: pending_requests counts it with the
      -- inviter's request-routed envelopes, so the per-pair cap covers both and a send still
      -- checks it with one point read.
      INSERT INTO pending_requests (sender, recipient, envelopes)
        SELECT invited_by, address, count(*) FROM group_invitations WHERE true GROUP BY 1, 2
        ON CONFLICT DO UPDATE SET envelopes = envelopes + excluded.envelopes;
      CREATE TRIGGER group_invitations_requests_insert AFTER INSERT ON group_invitations BEGIN
        INSERT INTO pending_requests (sender, recipient, envelopes) VALUES (NEW.invited_by, NEW.address, 1)
          ON CONFLICT DO UPDATE SET envelopes = envelopes + 1;
      END;
      CREATE TRIGGER group_invitations_requests_delete AFTER DELETE ON group_invitations BEGIN
        UPDATE pending_requests SET envelopes = envelopes - 1 WHERE sender = OLD.invited_by AND recipient = OLD.address;
        DELETE FROM pending_requests WHERE sender = OLD.invited_by AND recipient = OLD.address AND envelopes <= 0;
      END;

      -- The counts behind --max-groups-per-wallet and --max-keys-per-wallet, each a short range.
      CREATE INDEX chat_groups_creator ON chat_groups (creator_address);
      CREATE INDEX api_keys_active ON api_keys (address) WHERE revoked_at IS NULL;
    `,
  },
  {
    version: 7,
    name: 'queue counters written once per delivery',
    sql: `
      -- A delivery now adds its envelopes to queue_usage and pending_requests itself, once per
      -- recipient device and per recipient, in the same transaction as its rows: the per-row
      -- upserts of these triggers were half of a 100-envelope batch's time, all on one hot row.
      -- Acks, the sweep and dropped devices still take rows off through the delete triggers.
      DROP TRIGGER envelopes_usage_insert;
      DROP TRIGGER envelopes_requests_insert;
    `,
  },
  {
    version: 8,
    name: 'registration and moderation',
    sql: `
      -- A suspended wallet keeps its row, queue and handle; only its sign-ins and keys stop.
      ALTER TABLE accounts ADD COLUMN suspended_at INTEGER;
      ALTER TABLE accounts ADD COLUMN suspended_reason TEXT;
      ALTER TABLE accounts ADD COLUMN last_sign_in_at INTEGER;
      -- Invite codes are shown to the operator again by invite list, so they are kept as they are.
      CREATE TABLE invites (
        code TEXT PRIMARY KEY,
        uses_left INTEGER NOT NULL CHECK (uses_left >= 0),
        expires_at INTEGER,
        revoked_at INTEGER,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 9,
    name: 'bot tokens record who minted them',
    sql: `
      -- A token answers for the admin who minted it: blocks are checked against them, and their
      -- tokens go when they stop being an admin. Older tokens keep NULL (the creator's, as before).
      ALTER TABLE bot_tokens ADD COLUMN minted_by TEXT;
      CREATE INDEX bot_tokens_live ON bot_tokens (group_id, minted_by) WHERE revoked_at IS NULL;
    `,
  },
];

export const LATEST_VERSION = latestVersion(MIGRATIONS);
