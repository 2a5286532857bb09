/**
 * Crash durability: the relay as a real child process is killed with SIGKILL while
 * sends and acks are in flight. After a restart on the same data folder, every envelope the
 * relay answered 200 for is there, nothing whose ack was answered comes back, and SQLite's
 * integrity check passes. (WAL with synchronous=FULL and group commit that answers only after
 * COMMIT is what this holds to.) The same runs against a node of a cluster: a relay
 * process on a PostgreSQL database, checked with amcheck, restarted on the same database.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openPg } from '../../store/postgres/pg-client.js';
import { privateCluster } from '../../store/test/backends.js';
import { pgMissing } from '../../../test-support/pg-cluster.js';
import { startTs, type Child } from '../../../test-support/child-process.js';
import { DB_FILE } from '../../admin.js';
import { call, envelopeTo, signIn, type TestUser } from '../harness.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const READY = /^relay listening on (\S+)$/;
const SENDERS = 4;
const BATCH = 5;
/** Kill once this many envelopes have been answered 200: well inside the stream of sends. */
const KILL_AFTER = 120;
const MAX_SENT = 400; // stays under one pull page (500), so the restarted relay can show them all

const dirs: string[] = [];
const children: Child[] = [];
afterAll(async () => {
  if (postgres.missing === null) privateCluster().destroy();
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface CrashState {
  integrity: string;
  stored: Set<string>;
  usage: { envelopes: number; counted: number };
}

/** Where the crashed relay keeps its data, and how the test reads what the crash left. */
interface Backend {
  name: string;
  missing: string | null;
  /** the relay's storage arguments for a fresh store */
  prepare(): Promise<string[]>;
  read(args: string[]): Promise<CrashState>;
}

const USAGE_SQL = `SELECT (SELECT coalesce(sum(envelopes), 0) FROM queue_usage) AS envelopes, (SELECT count(*) FROM envelopes) AS counted`;

const sqlite: Backend = {
  name: 'a relay on SQLite',
  missing: null,
  async prepare() {
    const dataDir = mkdtempSync(join(tmpdir(), 'relay-crash-'));
    dirs.push(dataDir);
    return ['--data', dataDir];
  },
  async read(args) {
    // the database as the crash left it (SQLite replays the WAL on open)
    const db = new Database(join(args[1], DB_FILE));
    try {
      return {
        integrity: db.pragma('integrity_check', { simple: true }) as string,
        stored: new Set(db.prepare<[], string>('SELECT id FROM envelopes').pluck().all()),
        usage: db.prepare<[], { envelopes: number; counted: number }>(USAGE_SQL).get()!,
      };
    } finally {
      db.close();
    }
  },
};

const postgres: Backend = {
  name: 'a node of a cluster on PostgreSQL',
  missing: pgMissing(),
  async prepare() {
    return ['--database', await privateCluster().createDatabase(), '--node-id', 'crash'];
  },
  async read(args) {
    const sql = openPg(args[1], { max: 1 });
    try {
      await sql`CREATE EXTENSION IF NOT EXISTS amcheck`;
      // amcheck raises on the first inconsistent B-tree; every index of the relay's tables is checked
      const checked =
        await sql`SELECT bt_index_check(i.indexrelid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public'`;
      const ids = await sql<{ id: string }[]>`SELECT id FROM envelopes`;
      const [usage] = await sql.unsafe<{ envelopes: number; counted: number }[]>(USAGE_SQL);
      return {
        integrity: checked.length > 0 ? 'ok' : 'no indexes checked',
        stored: new Set(ids.map((r) => r.id)),
        usage: { envelopes: Number(usage.envelopes), counted: Number(usage.counted) },
      };
    } finally {
      await sql.end();
    }
  },
};

function startRelayProcess(storage: string[]): Promise<Child> {
  return startTs(
    CLI,
    ['--host', '127.0.0.1', '--port', '0', ...storage, '--rate-limit', '0', '--min-free-disk-mib', '0'],
    READY,
    90_000,
  ).then((c) => {
    children.push(c);
    return c;
  });
}

describe.each([sqlite, postgres])('crash durability of $name', (backend) => {
  it.skipIf(backend.missing !== null)(
    `kill -9 during concurrent sends and acks: every 200'd envelope survives, nothing acked comes back, integrity ok${backend.missing ? ` (skipped: ${backend.missing})` : ''}`,
    async () => {
      const storage = await backend.prepare();
      const first = await startRelayProcess(storage);
      const url = first.ready;
      const recipient: TestUser = await signIn(url);
      const senders = await Promise.all(Array.from({ length: SENDERS }, () => signIn(url)));
      for (const s of senders) await call(url, 'PUT', `/api/v1/contacts/${s.address}`, { auth: recipient.apiKey });

      const confirmed = new Set<string>(); // answered 200 on send
      const acked = new Set<string>(); // answered 200 on ack
      // An ack the relay may have committed without its answer arriving before the kill: those ids
      // may be gone or still queued, so neither "lost" nor "resurrected" can be said of them.
      const ackInFlight = new Set<string>();
      const ackCounts: Array<{ asked: number; acked: number }> = [];
      let killed = false;
      let sent = 0;

      const sender = async (s: TestUser) => {
        while (!killed && sent < MAX_SENT) {
          sent += BATCH;
          try {
            const r = await call(url, 'POST', '/api/v1/envelopes', {
              auth: s.apiKey,
              body: Array.from({ length: BATCH }, () => envelopeTo(recipient)),
            });
            if (r.status === 200) for (const x of r.body.results) confirmed.add(x.envelope.id);
          } catch {
            return; // the relay is gone
          }
        }
      };
      const acker = async () => {
        while (!killed) {
          try {
            const page = await call(url, 'GET', '/api/v1/envelopes?limit=50', { auth: recipient.apiKey });
            const ids = (page.body.envelopes as Array<{ id: string }>).filter((_, i) => i % 2 === 0).map((e) => e.id);
            if (ids.length === 0) continue;
            for (const id of ids) ackInFlight.add(id);
            const r = await call(url, 'POST', '/api/v1/envelopes/ack', { auth: recipient.apiKey, body: { ids } });
            if (r.status === 200) {
              ackCounts.push({ asked: ids.length, acked: r.body.acked });
              for (const id of ids) {
                acked.add(id);
                ackInFlight.delete(id);
              }
            }
          } catch {
            return; // the relay is gone; this ack's ids stay in flight
          }
        }
      };
      const killer = async () => {
        while (confirmed.size < KILL_AFTER) await new Promise((resolve) => setTimeout(resolve, 5));
        first.proc.kill('SIGKILL');
        killed = true;
      };
      await Promise.all([...senders.map(sender), acker(), acker(), killer()]);
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(confirmed.size).toBeGreaterThanOrEqual(KILL_AFTER);
      expect(acked.size).toBeGreaterThan(0);
      // the two ackers may ack the same page; what one acked the other finds already gone
      for (const c of ackCounts) expect(c.acked).toBeLessThanOrEqual(c.asked);
      expect(ackCounts.reduce((n, c) => n + c.acked, 0)).toBeGreaterThan(0);
      for (const id of acked) ackInFlight.delete(id);

      const { integrity, stored, usage } = await backend.read(storage);
      expect(integrity).toBe('ok');
      // the quota counters moved with the rows they count
      expect(usage.envelopes).toBe(usage.counted);
      expect(ackInFlight.size).toBeLessThanOrEqual(2 * 25); // at most one unanswered ack per acker
      const lost = [...confirmed].filter((id) => !acked.has(id) && !ackInFlight.has(id) && !stored.has(id));
      expect(lost).toEqual([]);
      const resurrected = [...acked].filter((id) => stored.has(id));
      expect(resurrected).toEqual([]);

      // and a restarted relay serves exactly that queue
      const second = await startRelayProcess(storage);
      const pulled = await call(second.ready, 'GET', '/api/v1/envelopes?limit=500', { auth: recipient.apiKey });
      expect(pulled.status).toBe(200);
      expect(new Set((pulled.body.envelopes as Array<{ id: string }>).map((e) => e.id))).toEqual(stored);
      expect(await second.stop()).toEqual({ code: 0, signal: null });
    },
    240_000,
  );
});
