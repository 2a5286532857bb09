/**
 * `relay backup` and `relay restore` as an operator runs them: a backup taken by the command
 * while the relay takes sends, restored by the command into another folder, where a relay
 * starts and has the data: accounts and their keys, the queue, a blob and the TLS identity.
 * A restore never writes over a folder with anything in it, nor from a damaged file.
 */
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../../../test-support/child-process.js';
import { envelopeBodies } from '../../../test-support/sealed-like.js';
import { callJson, signIn } from '../../../test-support/sign-in.js';
import { startRelayServer, type RunningRelay } from '../../server.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { loadOrCreateLanCertificate } from '../../tls/lan-certificate.js';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const SLOW = 120_000;
const dirs: string[] = [];
const relays: RunningRelay[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'relay-backup-test-'));
  dirs.push(d);
  return d;
};
afterAll(async () => {
  await Promise.all(relays.map((r) => r.close()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function start(dataDir: string): Promise<RunningRelay> {
  const relay = await startRelayServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    lan: false,
    rateLimit: 0,
    retentionDays: 30,
    stakeCurrency: 'ETH',
    chainId: 1,
    baseUrl: null,
    allowedHosts: [],
    trustProxy: false,
    minFreeDiskMib: 0,
    maxQueued: 100_000,
  });
  relays.push(relay);
  return relay;
}

async function post(url: string, apiKey: string, body: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

/** A blob upload, as the relay's blob tests make one. */
function uploadBlob(base: string, apiKey: string, bytes: Buffer): Promise<{ status: number; json: { id: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}/api/v1/blobs`,
      {
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/octet-stream',
          'content-length': bytes.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as { id: string } }));
      },
    );
    req.once('error', reject);
    req.end(bytes);
  });
}

describe('backup and restore', () => {
  it(
    'a backup taken while sends go on restores into another folder, where a relay starts with the data',
    async () => {
      const dataDir = tempDir();
      const tls = await loadOrCreateLanCertificate(dataDir);
      const relay = await start(dataDir);
      const alice = await signIn(relay.url, 'sender');
      const bob = await signIn(relay.url, 'recipient');
      await callJson('PUT', `${relay.url}/api/v1/contacts/${alice.address}`, bob.apiKey);
      const blobBytes = randomBytes(64 * 1024);
      const blob = await uploadBlob(relay.url, alice.apiKey, blobBytes);
      expect(blob.status).toBe(200);

      let answeredBeforeBackup = 0;
      let answered = 0;
      let backupStarted = false;
      let failed: Error | null = null;
      const sending = (async () => {
        for (let i = 0; i < 300; i++) {
          // made one at a time: making them all first would hold the event loop for seconds
          const body = envelopeBodies([{ address: bob.address, deviceKey: bob.deviceKey }], 1, 10)[0];
          const r = await post(`${relay.url}/api/v1/envelopes`, alice.apiKey, body);
          if (r.status !== 200) throw new Error(`a send answered ${r.status}: ${JSON.stringify(r.json)}`);
          answered += 10;
          if (!backupStarted) answeredBeforeBackup = answered;
        }
      })().catch((e: Error) => {
        failed = e;
      });
      while (answered < 200 && !failed) await new Promise((r) => setTimeout(r, 10));
      const out = join(tempDir(), 'nested', 'relay.backup');
      backupStarted = true;
      const backup = await runTs(CLI, ['backup', '--data', dataDir, '--out', out]);
      const answeredAfterBackup = answered;
      expect(backup.stderr).toBe('');
      expect(backup.code).toBe(0);
      await sending;
      if (failed) throw failed;
      const printed = JSON.parse(backup.stdout) as { savedTo: string; bytes: number };
      expect(printed).toEqual({ savedTo: out, bytes: statSync(out).size });
      // the sends really overlapped the backup
      expect(answeredAfterBackup).toBeGreaterThan(answeredBeforeBackup);

      const restored = join(tempDir(), 'restored');
      const restore = await runTs(CLI, ['restore', '--in', out, '--data', restored]);
      expect(restore.code).toBe(0);
      expect(JSON.parse(restore.stdout)).toEqual({ restoredTo: restored });
      expect(readFileSync(join(restored, 'tls-key.pem'), 'utf8')).toBe(tls.key);
      expect(readFileSync(join(restored, 'tls-cert.pem'), 'utf8')).toBe(tls.cert);
      expect(statSync(join(restored, 'tls-key.pem')).mode & 0o777).toBe(0o600);

      const store = openSqliteStore(join(restored, 'relay.db'), { checkpointIntervalMs: 0 });
      let queued: number;
      try {
        queued = (await store.stats()).queuedEnvelopes;
      } finally {
        await store.close();
      }
      // everything answered before the backup began is in it, and nothing that was never sent
      expect(queued).toBeGreaterThanOrEqual(answeredBeforeBackup);
      expect(queued).toBeLessThanOrEqual(answeredAfterBackup);
      expect(queued % 10).toBe(0);

      const again = await start(restored);
      const me = (await callJson('GET', `${again.url}/api/v1/me`, bob.apiKey)) as { address: string };
      expect(me.address).toBe(bob.address);
      const pulled = (await callJson('GET', `${again.url}/api/v1/envelopes?wait=0&limit=100`, bob.apiKey)) as {
        envelopes: unknown[];
      };
      expect(pulled.envelopes.length).toBeGreaterThan(0);
      const got = await fetch(`${again.url}/api/v1/blobs/${blob.json.id}`, {
        headers: { authorization: `Bearer ${alice.apiKey}` },
      });
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(blobBytes)).toBe(true);
    },
    SLOW,
  );

  it(
    'restore refuses a folder with anything in it, and a damaged file, and writes nothing',
    async () => {
      const dataDir = tempDir();
      const relay = await start(dataDir);
      await signIn(relay.url, 'someone');
      const out = join(tempDir(), 'relay.backup');
      expect((await runTs(CLI, ['backup', '--data', dataDir, '--out', out])).code).toBe(0);
      // a second backup to the same name is refused rather than overwriting the first
      const twice = await runTs(CLI, ['backup', '--data', dataDir, '--out', out]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/exists already/);

      const occupied = tempDir();
      writeFileSync(join(occupied, 'keep-me'), 'mine');
      const refused = await runTs(CLI, ['restore', '--in', out, '--data', occupied]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/not empty/);
      expect(readdirSync(occupied)).toEqual(['keep-me']);

      const parent = tempDir();
      const damaged = join(parent, 'damaged.backup');
      writeFileSync(damaged, readFileSync(out));
      truncateSync(damaged, statSync(damaged).size - 10);
      const cut = await runTs(CLI, ['restore', '--in', damaged, '--data', join(parent, 'new')]);
      expect(cut.code).toBe(1);
      expect(cut.stderr).toMatch(/cut short|damaged/);
      expect(readdirSync(parent)).toEqual(['damaged.backup']);

      // an empty folder that exists is fine
      const empty = join(tempDir(), 'empty');
      mkdirSync(empty);
      expect((await runTs(CLI, ['restore', '--in', out, '--data', empty])).code).toBe(0);
      expect(existsSync(join(empty, 'relay.db'))).toBe(true);
    },
    SLOW,
  );

  it('needs its folder and file named, and sends a PostgreSQL relay to pg_dump', async () => {
    const r = await runTs(CLI, ['restore', '--in', 'x.backup']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/restore needs --data/);
    const pg = await runTs(CLI, ['backup', '--database', 'postgres://u@localhost/db', '--out', 'x']);
    expect(pg.code).toBe(2);
    expect(pg.stderr).toMatch(/pg_dump/);
  });
});
