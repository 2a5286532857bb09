/**
 * The plaintext archive (backup-archive.ts) on its own: a profile written out and read into a
 * new database gives the same rows and the same files; an archive cut short, of another wallet,
 * or read into a database with history is refused.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveError, readArchive, writeArchive, type ArchiveFiles } from '../backup-archive.js';
import { LocalStore } from '../../store/local-store.js';
import { ME, dump, fillProfile, folderFiles } from '../../test/backup-fixture.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

async function source(): Promise<{
  store: LocalStore;
  files: ArchiveFiles;
  chunks: Uint8Array[];
  kept: Map<string, Buffer>;
}> {
  const dir = tempDir('archive-src');
  const store = LocalStore.open(join(dir, 'client.db'));
  const files = folderFiles(join(dir, 'files'), randomBytes(32));
  const kept = await fillProfile(store, files);
  const chunks: Uint8Array[] = [];
  await writeArchive(store, files, ME, async (c) => void chunks.push(c));
  return { store, files, chunks, kept };
}

async function* from(chunks: Uint8Array[], pieceSize = 777): AsyncGenerator<Uint8Array> {
  // a chunking unlike the writer's, as a transport would cut it
  const all = Buffer.concat(chunks);
  for (let at = 0; at < all.length; at += pieceSize) yield all.subarray(at, at + pieceSize);
}

async function collect(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const p of it) parts.push(p);
  return Buffer.concat(parts);
}

describe('archive round trip', () => {
  it('reproduces every archived row and every kept file in a new database', async () => {
    const src = await source();
    const progress: Array<{ done: number; total: number }> = [];
    const again: Uint8Array[] = [];
    await writeArchive(
      src.store,
      src.files,
      ME,
      async (c) => void again.push(c),
      (p) => progress.push(p),
    );
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.map((p) => p.done)).toEqual(progress.map((p) => p.done).sort((a, b) => a - b));
    expect(progress.at(-1)).toEqual({ done: progress[0].total, total: progress[0].total });

    const dir = tempDir('archive-dst');
    const dst = LocalStore.open(join(dir, 'client.db'));
    const dstKey = randomBytes(32);
    const head = await readArchive(from(src.chunks), {
      store: dst,
      files: folderFiles(join(dir, 'files'), dstKey),
      wallet: ME.toUpperCase().replace('0X', '0x'),
    });
    expect(head.wallet).toBe(ME);
    expect(dump(dst)).toEqual(dump(src.store, { portableSettingsOnly: true }));
    // and the fixture's rows are all there to compare (not two empty databases)
    const counts = Object.fromEntries(Object.entries(dump(dst)).map(([table, rows]) => [table, rows.length]));
    expect(counts).toEqual({
      profile: 2,
      contacts: 2,
      groups: 1,
      conversations: 3,
      messages: 45,
      attachments: 2,
      outbox: 1,
      requests: 1,
      pending_changes: 0,
      device_sets: 1,
      device_notices: 1,
    });
    expect(dst.getSetting('filesKey')).toBeNull();
    expect(dst.getSetting('preferences')).toBe(src.store.getSetting('preferences'));
    // the files, kept at rest under the new profile's key, give the same bytes
    const files = dst.backup.page('attachments', null, 10).rows;
    expect(files).toHaveLength(2);
    for (const f of files) {
      const plain = await collect(folderFiles(join(dir, 'files'), dstKey).read(String(f.path)));
      expect(plain.equals([...src.kept.values()][Number(f.idx)])).toBe(true);
      expect(String(f.path).startsWith(join(dir, 'files'))).toBe(true);
    }
    // the restored text is searchable (the index follows the rows)
    expect(dst.search.search('héllo', { limit: 5 }).length).toBe(5);
  });

  it('refuses an archive cut short, and leaves no file of it behind', async () => {
    const src = await source();
    const all = Buffer.concat(src.chunks);
    for (const cut of [all.length - 5, all.length - 1, Math.floor(all.length / 2), 3]) {
      const dir = tempDir('archive-cut');
      const dst = LocalStore.open(join(dir, 'client.db'));
      const err = await readArchive(from([all.subarray(0, cut)]), {
        store: dst,
        files: folderFiles(join(dir, 'files'), randomBytes(32)),
        wallet: ME,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ArchiveError);
      expect((err as ArchiveError).code).toBe('archive-truncated');
      expect(readdirSync(join(dir, 'files'))).toEqual([]);
    }
  });

  it('refuses an archive of another wallet, and reading into a database that has history', async () => {
    const src = await source();
    const dir = tempDir('archive-other');
    const dst = LocalStore.open(join(dir, 'client.db'));
    const files = folderFiles(join(dir, 'files'), randomBytes(32));
    await expect(
      readArchive(from(src.chunks), { store: dst, files, wallet: '0x' + '99'.repeat(20) }),
    ).rejects.toMatchObject({ code: 'archive-other-wallet' });
    expect(dst.backup.holdsNoHistory()).toBe(true);
    await expect(readArchive(from(src.chunks), { store: src.store, files, wallet: ME })).rejects.toMatchObject({
      code: 'archive-target-not-empty',
    });
  });

  it('leaves out a kept file gone from disk instead of failing, and the restored profile downloads it again', async () => {
    const src = await source();
    const [lost, still] = src.store.backup.page('attachments', null, 10).rows;
    rmSync(String(lost.path));
    const chunks: Uint8Array[] = [];
    const head = await writeArchive(src.store, src.files, ME, async (c) => void chunks.push(c));
    expect(head.files.count).toBe(1);
    const dir = tempDir('archive-lost');
    const dst = LocalStore.open(join(dir, 'client.db'));
    await readArchive(from(chunks), {
      store: dst,
      files: folderFiles(join(dir, 'files'), randomBytes(32)),
      wallet: ME,
    });
    const rows = dst.backup.page('attachments', null, 10).rows;
    const byIdx = (r: typeof lost) => rows.find((x) => x.message_id === r.message_id && x.idx === r.idx)!;
    expect(byIdx(lost)).toMatchObject({ state: 'pending', path: null, attempts: 0 });
    expect(byIdx(still)).toMatchObject({ state: 'saved' });
    expect(String(byIdx(still).path).startsWith(join(dir, 'files'))).toBe(true);
  });
});
