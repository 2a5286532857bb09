/**
 * Backups and restores whose database work runs in the store worker (store-worker-client.ts):
 * the same rows as on the main thread, a backup that is one snapshot however the profile changes
 * while it is written, and a main thread that keeps answering while a restore is adopted.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Backups } from '../../backup/backups.js';
import type { BackupParams } from '../../backup/backup-file.js';
import { LocalStore } from '../local-store.js';
import { StoreWorker } from '../store-worker-client.js';
import { BOB, ME, dump, fillProfile, folderFiles } from '../../test/backup-fixture.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

const PARAMS: BackupParams = { log2N: 10, r: 8, p: 1, chunkBytes: 4096 };
const PASS = 'a long backup passphrase';

/** A profile whose database is encrypted as the app's is; `worker`: backups go through it. */
function profile(worker: StoreWorker | null) {
  const dir = tempDir('worker-profile');
  const file = join(dir, 'client.db');
  const dbKey = randomBytes(32);
  const store = LocalStore.open(file, { key: Buffer.from(dbKey) });
  const key = randomBytes(32);
  const backups = new Backups({
    store,
    profileDir: dir,
    attachments: { archiveFiles: async () => folderFiles(join(dir, 'files'), key) },
    wallet: () => ME,
    openStore: (f, k) => LocalStore.open(f, { key: k }),
    params: PARAMS,
    ...(worker ? { offThread: { worker, profile: async () => ({ file, key: Buffer.from(dbKey) }) } } : {}),
  });
  return { dir, store, backups, key };
}

const incoming = (n: number) => ({
  id: `10000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
  envelopeId: `late-${n}`,
  conversationId: `direct:${BOB}` as const,
  conversationKind: 'direct' as const,
  peer: BOB,
  author: BOB,
  fromMe: false,
  kind: 'text' as const,
  text: `arrived during the backup ${n}`,
  sentAt: new Date(Date.UTC(2026, 1, 1) + n).toISOString(),
  receivedAt: new Date(Date.UTC(2026, 1, 1) + n).toISOString(),
  routed: 'inbox' as const,
  via: null,
  botName: null,
  isRequest: false,
});

describe('store worker', { timeout: 120_000 }, () => {
  it('backs up and restores the same rows as the main thread does, and leaves no staging file', async () => {
    const worker = new StoreWorker();
    const src = profile(worker);
    await fillProfile(src.store, folderFiles(join(src.dir, 'files'), src.key), 1_200);
    const out = tempDir('worker-out');
    const offFile = join(out, 'off.relaybackup');
    const onFile = join(out, 'on.relaybackup');
    const off = await src.backups.export(offFile, PASS);
    // the same profile backed up the old way, on the main thread's connection
    const main = new Backups({
      store: src.store,
      profileDir: src.dir,
      attachments: { archiveFiles: async () => folderFiles(join(src.dir, 'files'), src.key) },
      wallet: () => ME,
      openStore: (f, k) => LocalStore.open(f, { key: k }),
      params: PARAMS,
    });
    const onSummary = await main.export(onFile, PASS);
    expect(off).toMatchObject({
      conversations: onSummary.conversations,
      messages: onSummary.messages,
      files: onSummary.files,
    });

    const expected = dump(src.store, { portableSettingsOnly: true });
    for (const file of [offFile, onFile]) {
      const dst = profile(worker);
      const summary = await dst.backups.restore(file, PASS);
      expect(summary).toMatchObject({ conversations: 3, messages: 1_205, files: 2 });
      expect(dump(dst.store)).toEqual(expected);
      expect(readdirSync(dst.dir).filter((f) => f.startsWith('restore-'))).toEqual([]);
      await expect(dst.backups.restore(file, PASS)).rejects.toMatchObject({ code: 'backup-not-new-profile' });
    }
  });

  it('writes one snapshot: messages stored while the backup runs are not in it', async () => {
    const src = profile(new StoreWorker());
    await fillProfile(src.store, folderFiles(join(src.dir, 'files'), src.key), 1_500);
    const before = dump(src.store, { portableSettingsOnly: true });
    let added = 0;
    const file = join(tempDir('worker-out'), 'snap.relaybackup');
    // the sync loop stores messages on the main thread while the rows are being written
    await src.backups.export(file, PASS, () => {
      if (added < 5) src.store.applyIncoming([incoming(added++)], [], Date.now());
    });
    expect(added).toBe(5);
    const dst = profile(new StoreWorker());
    await dst.backups.restore(file, PASS);
    expect(dump(dst.store)).toEqual(before);
  });

  it('keeps answering calls on the main thread while a restore is adopted', async () => {
    const src = profile(null);
    await fillProfile(src.store, folderFiles(join(src.dir, 'files'), src.key), 3_000);
    const file = join(tempDir('worker-out'), 'big.relaybackup');
    await src.backups.export(file, PASS);

    const answered: Array<{ during: string; settings: number }> = [];
    class Watched extends StoreWorker {
      override request(...args: Parameters<StoreWorker['request']>): Promise<unknown> {
        const reply = super.request(...args);
        const op = args[0].op;
        if (op === 'adopt') {
          let done = false;
          void reply.finally(() => (done = true));
          // an IPC-like call made as the adoption starts: a read of the profile on the main thread
          setImmediate(() =>
            answered.push({ during: done ? 'after' : 'adopt', settings: dst.store.allSettings().length }),
          );
        }
        return reply;
      }
    }
    const dst = profile(new Watched());
    const summary = await dst.backups.restore(file, PASS);
    expect(summary.messages).toBe(3_005);
    expect(answered).toEqual([{ during: 'adopt', settings: 0 }]);
  });
});
