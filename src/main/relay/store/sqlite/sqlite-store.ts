import { statSync } from 'node:fs';
import { BUSY_TIMEOUT_MS, openDatabase } from '../../../sqlite/open-database.js';
import { GroupCommit } from './group-commit.js';
import { accountsPart } from './sqlite-accounts.js';
import { moderationPart } from './sqlite-moderation.js';
import { blobsPart } from './sqlite-blobs.js';
import { credentialsPart } from './sqlite-credentials.js';
import { envelopesPart } from './sqlite-envelopes.js';
import { groupsPart } from './sqlite-groups.js';
import { stakesPart } from './sqlite-stakes.js';
import { MIGRATIONS } from './sqlite-migrations.js';
import { latestVersion, type OnMigrated } from '../../../sqlite/migrations.js';
import type { OnSnapshot } from '../../../sqlite/migration-snapshot.js';
import type { RelayStats, RelayStore } from '../store.js';

export type CheckpointMode = 'PASSIVE' | 'RESTART' | 'TRUNCATE';

export interface CheckpointResult {
  /** 1 when the checkpoint could not finish because a reader or writer was in the way. */
  busy: number;
  /** frames in the WAL */
  log: number;
  /** frames copied back into the database */
  checkpointed: number;
}

export interface ConnectionSettings {
  journalMode: string;
  synchronous: number;
  foreignKeys: number;
  busyTimeout: number;
  walAutocheckpoint: number;
  journalSizeLimit: number;
  userVersion: number;
}

export interface SqliteRelayStore extends RelayStore {
  /** Transactions committed by the group-commit batcher (tests read it to see batching). */
  readonly groupCommits: number;
  /** Checkpoints the idle timer has run once sends paused (tests wait for one). */
  readonly idleCheckpoints: number;
  /** Runs a WAL checkpoint now; RESTART and TRUNCATE never wait for other connections. */
  checkpoint(mode: CheckpointMode): CheckpointResult;
  /** The per-connection settings in force, for tests and `stats`-style diagnostics. */
  connectionSettings(): ConnectionSettings;
}

export interface SqliteStoreOptions {
  /** How often the idle checkpoint runs; 0 turns the timer off. */
  checkpointIntervalMs?: number;
  /** The largest WAL file the idle checkpoint keeps for reuse (bytes); a larger one is truncated. */
  keepWalBytes?: number;
  /** told the schema versions before and after opening (the relay's log) */
  onMigrated?: OnMigrated;
  /** told of the copy taken before migrations change an existing database (the relay's log) */
  snapshotBeforeMigrating?: OnSnapshot;
}

const CHECKPOINT_INTERVAL_MS = 30_000;
/**
 * An idle relay keeps a WAL file up to this size (twice the ~4 MiB the automatic checkpoint
 * lets it reach), fully checkpointed: the next commits overwrite it from the start. Truncated,
 * each commit after a pause grew a new file, and its fsync cost more for it, a share of a
 * message's way through an idle relay worth keeping (docs/benchmarks.md, live).
 */
const KEEP_WAL_BYTES = 8 * 1024 * 1024;

/**
 * Opens (creating and migrating if needed) the relay database in `file`. Nothing the
 * operator's commands change is cached: every read asks SQLite, so a second connection's
 * writes are seen at once.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SqliteRelayStore {
  const db = openDatabase(file, {
    migrations: MIGRATIONS,
    owner: 'relay',
    onMigrated: options.onMigrated,
    // every relay database gets its copy before a migration, an admin command's opening included
    snapshotBeforeMigrating: options.snapshotBeforeMigrating ?? (() => undefined),
  });

  const commit = new GroupCommit(db);
  const statsStatement = db.prepare<[], RelayStats>(
    `SELECT
       (SELECT count(*) FROM accounts) AS accounts,
       (SELECT count(*) FROM devices WHERE revoked_at IS NULL) AS devices,
       (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL) AS apiKeys,
       (SELECT count(*) FROM chat_groups) AS groups,
       (SELECT count(*) FROM envelopes) AS queuedEnvelopes,
       (SELECT min(created_at) FROM envelopes) AS oldestQueuedAt`,
  );

  const blobBytesStatement = db.prepare<[], { bytes: number }>(`SELECT coalesce(sum(size), 0) AS bytes FROM blobs`);
  const fileBytes = (path: string) => {
    try {
      return statSync(path).size;
    } catch {
      return 0;
    }
  };

  const checkpoint = (mode: CheckpointMode): CheckpointResult => {
    if (mode === 'PASSIVE') return (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0];
    // RESTART and TRUNCATE wait for readers through the busy handler, which would stall the
    // event loop; without one they give up at once and say so in `busy`.
    db.pragma('busy_timeout = 0');
    try {
      return (db.pragma(`wal_checkpoint(${mode})`) as CheckpointResult[])[0];
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  };

  // Off the request path: a PASSIVE pass while sends flow; once they pause, the whole WAL into
  // the database, its file kept for the next commits unless a burst left it large.
  let commitsAtLastTick = commit.commits;
  let idleCheckpoints = 0;
  const intervalMs = options.checkpointIntervalMs ?? CHECKPOINT_INTERVAL_MS;
  const keepWalBytes = options.keepWalBytes ?? KEEP_WAL_BYTES;
  const walBytes = () => fileBytes(`${file}-wal`);
  const timer =
    intervalMs > 0
      ? setInterval(() => {
          const idle = commit.pending === 0 && commit.commits === commitsAtLastTick;
          commitsAtLastTick = commit.commits;
          try {
            checkpoint(!idle ? 'PASSIVE' : walBytes() > keepWalBytes ? 'TRUNCATE' : 'RESTART');
            if (idle) idleCheckpoints++;
          } catch {
            // A failed checkpoint leaves the WAL as it was; the next tick tries again.
          }
        }, intervalMs)
      : null;
  timer?.unref();

  let closing: Promise<void> | null = null;

  return {
    ...accountsPart(db),
    ...credentialsPart(db, commit),
    ...groupsPart(db),
    ...envelopesPart(db, commit),
    ...stakesPart(db),
    ...blobsPart(db),
    ...moderationPart(db),
    commitsInOrder: true,
    get groupCommits() {
      return commit.commits;
    },
    get idleCheckpoints() {
      return idleCheckpoints;
    },
    checkpoint,
    connectionSettings() {
      const read = (name: string) => db.pragma(name, { simple: true });
      return {
        journalMode: read('journal_mode') as string,
        synchronous: read('synchronous') as number,
        foreignKeys: read('foreign_keys') as number,
        busyTimeout: read('busy_timeout') as number,
        walAutocheckpoint: read('wal_autocheckpoint') as number,
        journalSizeLimit: read('journal_size_limit') as number,
        userVersion: read('user_version') as number,
      };
    },
    async stats() {
      return statsStatement.get()!;
    },
    // The file is this process's own: reachable for as long as the store is open.
    async healthy() {
      return db.open;
    },
    async readiness() {
      if (!db.open) return 'unreachable';
      return db.pragma('user_version', { simple: true }) === latestVersion(MIGRATIONS) ? 'ready' : 'not-migrated';
    },
    // the database file and its WAL, which holds commits not yet copied into it
    async storageBytes() {
      return { database: fileBytes(file) + walBytes(), blobs: blobBytesStatement.get()!.bytes };
    },
    close() {
      closing ??= (async () => {
        if (timer) clearInterval(timer);
        await commit.close();
        try {
          // Keeps the planner's statistics current for the next start (cheap when nothing changed).
          db.pragma('optimize');
          checkpoint('TRUNCATE');
        } finally {
          db.close();
        }
      })();
      return closing;
    },
  };
}
