import { SchemaTooNewError, type Migration, type OnMigrated } from '../../../sqlite/migrations.js';
import type { PgSql } from './pg-client.js';

/**
 * The relay's PostgreSQL schema history, oldest first: the same tables and rules as the SQLite
 * schema (sqlite-migrations.ts): version 1 is SQLite's 4, version 2 its 5 (blobs), version 6 its 6. Never edit a
 * shipped entry: append a new one.
 * Addresses, keys and handles are stored lower-case; times are epoch milliseconds (bigint).
 * `seq` identity columns stand in for SQLite's rowid where order of insertion breaks ties.
 */
export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE accounts (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        address text PRIMARY KEY,
        handle text UNIQUE,
        handle_claimed_at bigint,
        verified boolean NOT NULL DEFAULT false,
        unknown_senders text NOT NULL DEFAULT 'request' CHECK (unknown_senders IN ('request', 'stake-gate', 'block')),
        stake text
      );
      CREATE INDEX accounts_claims ON accounts (handle_claimed_at, seq) WHERE handle IS NOT NULL;

      CREATE TABLE entitlements (
        address text NOT NULL,
        name text NOT NULL,
        granted_at bigint NOT NULL,
        PRIMARY KEY (address, name)
      );

      CREATE TABLE challenges (
        nonce text PRIMARY KEY,
        address text NOT NULL,
        message text NOT NULL,
        expires_at bigint NOT NULL,
        used_at bigint
      );
      CREATE INDEX challenges_expiry ON challenges (expires_at);

      CREATE TABLE devices (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        public_key text PRIMARY KEY,
        address text NOT NULL REFERENCES accounts (address),
        certificate text NOT NULL,
        created_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE INDEX devices_address ON devices (address, created_at);

      CREATE TABLE api_keys (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        address text NOT NULL REFERENCES accounts (address),
        hash bytea NOT NULL UNIQUE,
        label text,
        prefix text NOT NULL,
        device_key text REFERENCES devices (public_key),
        created_at bigint NOT NULL,
        last_used_at bigint,
        revoked_at bigint
      );
      CREATE INDEX api_keys_address ON api_keys (address, created_at);
      CREATE INDEX api_keys_device ON api_keys (device_key) WHERE device_key IS NOT NULL;

      CREATE TABLE contacts (
        owner text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('allow', 'block')),
        other text NOT NULL,
        PRIMARY KEY (owner, kind, other)
      );

      CREATE TABLE sent_before (
        sender text NOT NULL,
        recipient text NOT NULL,
        PRIMARY KEY (sender, recipient)
      );

      CREATE TABLE chat_groups (
        seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        id text PRIMARY KEY,
        name text NOT NULL,
        is_public boolean NOT NULL,
        verified boolean NOT NULL DEFAULT false,
        password_hash text,
        avatar text,
        creator_address text NOT NULL,
        created_at bigint NOT NULL
      );
      CREATE INDEX chat_groups_public ON chat_groups (created_at, seq) WHERE is_public;

      CREATE TABLE group_members (
        group_id text NOT NULL REFERENCES chat_groups (id),
        address text NOT NULL,
        joined_at bigint NOT NULL,
        is_admin boolean NOT NULL DEFAULT false,
        PRIMARY KEY (group_id, address)
      );
      CREATE INDEX group_members_address ON group_members (address);

      CREATE TABLE group_invitations (
        group_id text NOT NULL REFERENCES chat_groups (id),
        address text NOT NULL,
        invited_by text NOT NULL,
        invited_at bigint NOT NULL,
        PRIMARY KEY (group_id, address)
      );
      CREATE INDEX group_invitations_address ON group_invitations (address, invited_at);

      CREATE TABLE bot_tokens (
        seq bigint GENERATED ALWAYS AS IDENTITY,
        id text PRIMARY KEY,
        group_id text NOT NULL REFERENCES chat_groups (id),
        name text NOT NULL,
        prefix text NOT NULL,
        hash bytea NOT NULL UNIQUE,
        created_at bigint NOT NULL,
        revoked_at bigint
      );
      CREATE INDEX bot_tokens_group ON bot_tokens (group_id, created_at);

      -- seq orders the queue and is never reused; id is the public, time-ordered uuid v7. The
      -- sequence is also what a node polls while its LISTEN connection is down.
      CREATE TABLE envelopes (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id text NOT NULL UNIQUE,
        sender text NOT NULL,
        recipient text NOT NULL,
        device_key text,
        ciphertext text NOT NULL,
        ephemeral_public_key text NOT NULL,
        nonce text NOT NULL,
        created_at bigint NOT NULL,
        routed text NOT NULL CHECK (routed IN ('inbox', 'request')),
        group_id text,
        via text CHECK (via IN ('group-token', 'api-key')),
        stake text,
        bot_name text
      );
      CREATE INDEX envelopes_inbox ON envelopes (recipient, seq) INCLUDE (device_key);
      CREATE INDEX envelopes_age ON envelopes (created_at);

      CREATE TABLE stake_quotes (
        ref text PRIMARY KEY,
        sender text NOT NULL,
        recipient text NOT NULL,
        amount_wei text NOT NULL,
        min_deadline bigint NOT NULL,
        max_deadline bigint NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX stake_quotes_expiry ON stake_quotes (expires_at);

      CREATE TABLE stakes (
        id text PRIMARY KEY,
        ref text NOT NULL UNIQUE,
        chain_id bigint NOT NULL,
        escrow text NOT NULL,
        sender text NOT NULL,
        recipient text NOT NULL,
        amount_wei text NOT NULL,
        deadline bigint NOT NULL,
        status text NOT NULL CHECK (status IN ('active', 'released', 'forfeited', 'refunded')),
        release_signature text,
        created_at bigint NOT NULL
      );
      CREATE INDEX stakes_sender ON stakes (sender, created_at);
      CREATE INDEX stakes_recipient ON stakes (recipient, created_at);

      -- Queue quotas (docs/protocol.md §4), kept by statement triggers over the rows a statement
      -- inserted or deleted, so a batch of a few hundred envelopes updates each counter once.
      CREATE TABLE queue_usage (
        recipient text NOT NULL,
        device_key text NOT NULL,
        envelopes bigint NOT NULL,
        bytes bigint NOT NULL,
        PRIMARY KEY (recipient, device_key)
      );
      CREATE TABLE pending_requests (
        sender text NOT NULL,
        recipient text NOT NULL,
        envelopes bigint NOT NULL,
        PRIMARY KEY (sender, recipient)
      );
      -- Decoded bytes of padded base64, as the SQLite triggers count them.
      CREATE FUNCTION decoded_size(c text) RETURNS bigint LANGUAGE sql IMMUTABLE AS
        $$ SELECT length(c) / 4 * 3 - (right(c, 1) = '=')::int - (right(c, 2) = '==')::int $$;
      CREATE FUNCTION envelopes_counted_in() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Sorted, so that two nodes touching the same counters take their row locks in one order.
        INSERT INTO queue_usage (recipient, device_key, envelopes, bytes)
          SELECT recipient, coalesce(device_key, ''), count(*), sum(decoded_size(ciphertext)) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (recipient, device_key) DO UPDATE SET envelopes = queue_usage.envelopes + excluded.envelopes, bytes = queue_usage.bytes + excluded.bytes;
        INSERT INTO pending_requests (sender, recipient, envelopes)
          SELECT sender, recipient, count(*) FROM new_rows WHERE routed = 'request' GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (sender, recipient) DO UPDATE SET envelopes = pending_requests.envelopes + excluded.envelopes;
        RETURN NULL;
      END $$;
      CREATE FUNCTION envelopes_counted_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE queue_usage u SET envelopes = u.envelopes - o.n, bytes = u.bytes - o.b
          FROM (SELECT recipient, coalesce(device_key, '') AS device_key, count(*) AS n, sum(decoded_size(ciphertext)) AS b
                FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) o
          WHERE u.recipient = o.recipient AND u.device_key = o.device_key;
        DELETE FROM queue_usage WHERE envelopes <= 0 AND recipient IN (SELECT recipient FROM old_rows);
        UPDATE pending_requests p SET envelopes = p.envelopes - o.n
          FROM (SELECT sender, recipient, count(*) AS n FROM old_rows WHERE routed = 'request' GROUP BY 1, 2 ORDER BY 1, 2) o
          WHERE p.sender = o.sender AND p.recipient = o.recipient;
        DELETE FROM pending_requests WHERE envelopes <= 0 AND recipient IN (SELECT recipient FROM old_rows WHERE routed = 'request');
        RETURN NULL;
      END $$;
      CREATE TRIGGER envelopes_count_in AFTER INSERT ON envelopes REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION envelopes_counted_in();
      CREATE TRIGGER envelopes_count_out AFTER DELETE ON envelopes REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION envelopes_counted_out();

      -- The rolling-minute rate limit shared by every node: the times of each key's last counted
      -- requests. UNLOGGED: no WAL and no fsync per request; a crash merely forgets the minute.
      CREATE UNLOGGED TABLE rate_windows (
        key text PRIMARY KEY,
        hits bigint[] NOT NULL,
        touched_at bigint NOT NULL
      );
    `,
  },
  {
    version: 2,
    name: 'blobs',
    sql: `
      -- Uploaded attachment metadata (docs/protocol.md §14), as SQLite's version 5; the bytes are
      -- files in the directory the operator names (--blob-dir), shared by every node.
      CREATE TABLE blobs (
        id text PRIMARY KEY,
        uploader text NOT NULL,
        size bigint NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      );
      CREATE INDEX blobs_uploader ON blobs (uploader, expires_at);
      CREATE INDEX blobs_expiry ON blobs (expires_at);
    `,
  },
  {
    version: 3,
    name: 'a device pulls its inbox in order from the index',
    sql: `
      -- A device's pull reads two ordered ranges, its own envelopes and those sealed to no
      -- device, each stopping at the page size: a backlog of thousands costs what a page does,
      -- whatever the planner's statistics say (with one OR filter it read and sorted them all).
      CREATE INDEX envelopes_device_inbox ON envelopes (recipient, device_key, seq);
    `,
  },
  {
    version: 4,
    name: 'envelopes keep their wire JSON around the ciphertext',
    sql: `
      -- Written at the send (envelope-rows.ts, envelopeWireParts), so that a pull joins
      -- head || ciphertext || tail instead of building each row's JSON (most of a pull's time).
      -- Nullable and not filled in: a row without them (queued before this version, or by a
      -- node still running the earlier version) is built from its columns as before; adding
      -- them rewrites nothing, and nodes still running the earlier version keep working.
      ALTER TABLE envelopes ADD COLUMN wire_head text, ADD COLUMN wire_tail text;
    `,
  },
  {
    version: 5,
    name: "a device's page has an index whose order no other index gives",
    sql: `
      -- The orders the pages ask for (pg-envelopes.ts, INBOX_PAGE and DEVICE_PAGE), which no
      -- other index gives, so that no planner estimate, a cached generic plan's included, walks
      -- the primary key through the whole queue instead. They replace envelopes_device_inbox, so
      -- a send writes as many index entries as before. Building them holds writes to the
      -- envelopes back for as long as reading the queue once takes.
      CREATE INDEX envelopes_device_page ON envelopes (device_key, recipient, seq) WHERE device_key IS NOT NULL;
      CREATE INDEX envelopes_unbound_page ON envelopes (recipient, seq) WHERE device_key IS NULL;
      DROP INDEX envelopes_device_inbox;
    `,
  },
  {
    version: 6,
    name: 'the requests share of the queue quota, invitations as requests, caps on groups and keys',
    sql: `
      -- As SQLite's version 6. Request-routed envelopes (strangers') may fill only half of a
      -- device's quota (docs/protocol.md, Limits): queue_usage counts them apart, so the send's
      -- facts read sees both figures. Older nodes neither read nor write the new columns; the
      -- triggers below keep them for every node's inserts and deletes.
      ALTER TABLE queue_usage ADD COLUMN requests bigint NOT NULL DEFAULT 0, ADD COLUMN request_bytes bigint NOT NULL DEFAULT 0;
      UPDATE queue_usage u SET requests = r.n, request_bytes = r.b
        FROM (SELECT recipient, coalesce(device_key, '') AS device_key, count(*) AS n, sum(decoded_size(ciphertext)) AS b
              FROM envelopes WHERE routed = 'request' GROUP BY 1, 2) r
        WHERE u.recipient = r.recipient AND u.device_key = r.device_key;
      CREATE OR REPLACE FUNCTION envelopes_counted_in() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- Sorted, so that two nodes touching the same counters take their row locks in one order.
        INSERT INTO queue_usage (recipient, device_key, envelopes, bytes, requests, request_bytes)
          SELECT recipient, coalesce(device_key, ''), count(*), sum(decoded_size(ciphertext)),
                 count(*) FILTER (WHERE routed = 'request'), coalesce(sum(decoded_size(ciphertext)) FILTER (WHERE routed = 'request'), 0)
          FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (recipient, device_key) DO UPDATE SET envelopes = queue_usage.envelopes + excluded.envelopes, bytes = queue_usage.bytes + excluded.bytes,
            requests = queue_usage.requests + excluded.requests, request_bytes = queue_usage.request_bytes + excluded.request_bytes;
        INSERT INTO pending_requests (sender, recipient, envelopes)
          SELECT sender, recipient, count(*) FROM new_rows WHERE routed = 'request' GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (sender, recipient) DO UPDATE SET envelopes = pending_requests.envelopes + excluded.envelopes;
        RETURN NULL;
      END $$;
      CREATE OR REPLACE FUNCTION envelopes_counted_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE queue_usage u SET envelopes = u.envelopes - o.n, bytes = u.bytes - o.b, requests = u.requests - o.rn, request_bytes = u.request_bytes - o.rb
          FROM (SELECT recipient, coalesce(device_key, '') AS device_key, count(*) AS n, sum(decoded_size(ciphertext)) AS b,
                  count(*) FILTER (WHERE routed = 'request') AS rn, coalesce(sum(decoded_size(ciphertext)) FILTER (WHERE routed = 'request'), 0) AS rb
                FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) o
          WHERE u.recipient = o.recipient AND u.device_key = o.device_key;
        DELETE FROM queue_usage WHERE envelopes <= 0 AND recipient IN (SELECT recipient FROM old_rows);
        UPDATE pending_requests p SET envelopes = p.envelopes - o.n
          FROM (SELECT sender, recipient, count(*) AS n FROM old_rows WHERE routed = 'request' GROUP BY 1, 2 ORDER BY 1, 2) o
          WHERE p.sender = o.sender AND p.recipient = o.recipient;
        DELETE FROM pending_requests WHERE envelopes <= 0 AND recipient IN (SELECT recipient FROM old_rows WHERE routed = 'request');
        RETURN NULL;
      END $$;

      -- A pending group invitation is a contact request: pending_requests counts it with the
      -- inviter's request-routed envelopes, so the per-pair cap covers both and a send still
      -- reads one counter.
      INSERT INTO pending_requests (sender, recipient, envelopes)
        SELECT invited_by, address, count(*) FROM group_invitations GROUP BY 1, 2
        ON CONFLICT (sender, recipient) DO UPDATE SET envelopes = pending_requests.envelopes + excluded.envelopes;
      CREATE FUNCTION invitations_counted_in() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO pending_requests (sender, recipient, envelopes)
          SELECT invited_by, address, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
          ON CONFLICT (sender, recipient) DO UPDATE SET envelopes = pending_requests.envelopes + excluded.envelopes;
        RETURN NULL;
      END $$;
      CREATE FUNCTION invitations_counted_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE pending_requests p SET envelopes = p.envelopes - o.n
          FROM (SELECT invited_by, address, count(*) AS n FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2) o
          WHERE p.sender = o.invited_by AND p.recipient = o.address;
        DELETE FROM pending_requests WHERE envelopes <= 0 AND recipient IN (SELECT address FROM old_rows);
        RETURN NULL;
      END $$;
      CREATE TRIGGER group_invitations_count_in AFTER INSERT ON group_invitations REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION invitations_counted_in();
      CREATE TRIGGER group_invitations_count_out AFTER DELETE ON group_invitations REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION invitations_counted_out();

      -- The counts behind --max-groups-per-wallet and --max-keys-per-wallet, each a short range.
      CREATE INDEX chat_groups_creator ON chat_groups (creator_address);
      CREATE INDEX api_keys_active ON api_keys (address) WHERE revoked_at IS NULL;
    `,
  },
  {
    version: 7,
    name: 'registration and moderation',
    sql: `
      -- A suspended wallet keeps its row, queue and handle; only its sign-ins and keys stop.
      ALTER TABLE accounts ADD COLUMN suspended_at bigint;
      ALTER TABLE accounts ADD COLUMN suspended_reason text;
      ALTER TABLE accounts ADD COLUMN last_sign_in_at bigint;
      -- Invite codes are shown to the operator again by invite list, so they are kept as they are.
      CREATE TABLE invites (
        code text PRIMARY KEY,
        uses_left integer NOT NULL CHECK (uses_left >= 0),
        expires_at bigint,
        revoked_at bigint,
        created_at bigint NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'bot tokens record who minted them',
    sql: `
      -- As SQLite's version 9: a token answers for the admin who minted it. Older tokens keep NULL.
      ALTER TABLE bot_tokens ADD COLUMN minted_by text;
      CREATE INDEX bot_tokens_live ON bot_tokens (group_id, minted_by) WHERE revoked_at IS NULL;
    `,
  },
];

/** The advisory lock key of migrations (any constant shared by every node). */
const MIGRATION_LOCK = 0x72656c6179; // "relay"

/**
 * Brings the database to the newest schema. Every node calls it at start; the transaction-scoped
 * advisory lock makes the second wait for the first and then find nothing to do. A database
 * written by a newer relay is refused before anything touches it.
 */
export async function migratePg(
  sql: PgSql,
  migrations: readonly Migration[] = PG_MIGRATIONS,
  onMigrated?: OnMigrated,
): Promise<number> {
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const from = await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS relay_schema (version integer NOT NULL)`;
    const [row] = await tx<{ version: number }[]>`SELECT version FROM relay_schema`;
    const current = row?.version ?? 0;
    if (current > latest) throw new SchemaTooNewError(current, latest, 'relay');
    for (const m of migrations) if (m.version > current) await tx.unsafe(m.sql);
    if (row === undefined) await tx`INSERT INTO relay_schema (version) VALUES (${latest})`;
    else if (current !== latest) await tx`UPDATE relay_schema SET version = ${latest}`;
    return current;
  });
  // after the commit: what is reported has happened
  onMigrated?.({ from, to: latest });
  return latest;
}
