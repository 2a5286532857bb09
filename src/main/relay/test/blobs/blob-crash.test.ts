/**
 * A relay killed with SIGKILL in the middle of a blob upload: the half-written bytes
 * stay in the temp folder, never under a blob's name nor in the database, and a restarted relay
 * clears the stale temp file and serves uploads as before.
 */
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { startTs, type Child } from '../../../test-support/child-process.js';
import { DB_FILE } from '../../admin.js';
import { BlobFiles } from '../../blobs/blob-files.js';
import { STALE_AFTER_MS } from '../../blobs/blob-sweep.js';
import { signIn } from '../harness.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const READY = /^relay listening on (\S+)$/;

const dirs: string[] = [];
const children: Child[] = [];
afterAll(() => {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function startRelayProcess(dataDir: string): Promise<Child> {
  const c = await startTs(
    CLI,
    ['--host', '127.0.0.1', '--port', '0', '--data', dataDir, '--rate-limit', '0', '--min-free-disk-mib', '0'],
    READY,
    90_000,
  );
  children.push(c);
  return c;
}

const waitFor = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 1000 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

it('kill -9 during an upload leaves no half blob visible, and a restart clears the temp file', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'relay-blob-crash-'));
  dirs.push(dataDir);
  const blobDir = join(dataDir, 'blobs');
  const temp = join(blobDir, '.tmp');
  const first = await startRelayProcess(dataDir);
  const user = await signIn(first.ready);

  // 4 MiB declared, 1 MiB written: the relay holds a partial temp file when it is killed
  const url = new URL('/api/v1/blobs', first.ready);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: {
      authorization: `Bearer ${user.apiKey}`,
      'content-type': 'application/octet-stream',
      'content-length': String(4 * 1024 * 1024),
    },
  });
  const answered = new Promise<string>((resolve) => {
    req.on('response', (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', (err) => resolve(`failed: ${err.message}`));
  });
  req.write(randomBytes(1024 * 1024));
  await waitFor('the partial upload on disk', () => readdirSync(temp).some((n) => statSync(join(temp, n)).size > 0));
  first.proc.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect(await answered).toMatch(/^failed/);

  const parts = readdirSync(temp);
  expect(parts).toHaveLength(1);
  expect(readdirSync(blobDir).filter((n) => BlobFiles.isId(n))).toEqual([]);
  const db = new Database(join(dataDir, DB_FILE), { readonly: true });
  try {
    expect(db.prepare('SELECT count(*) FROM blobs').pluck().get()).toBe(0);
  } finally {
    db.close();
  }

  // The temp file is older than any upload can be by the time the relay starts again.
  const old = (Date.now() - STALE_AFTER_MS - 60_000) / 1000;
  utimesSync(join(temp, parts[0]), old, old);
  const second = await startRelayProcess(dataDir);
  await waitFor('the stale temp file to go', () => readdirSync(temp).length === 0);
  const bytes = randomBytes(64 * 1024);
  const up = await fetch(`${second.ready}/api/v1/blobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.apiKey}`, 'content-type': 'application/octet-stream' },
    body: bytes,
  });
  expect(up.status).toBe(200);
  const { id } = (await up.json()) as { id: string };
  const down = await fetch(`${second.ready}/api/v1/blobs/${id}`, {
    headers: { authorization: `Bearer ${user.apiKey}` },
  });
  expect(Buffer.from(await down.arrayBuffer()).equals(bytes)).toBe(true);
  expect(await second.stop()).toEqual({ code: 0, signal: null });
}, 240_000);
