/**
 * Backup and restore through the `.relaybackup` file (backup-file.ts, backups.ts): a restore
 * into a fresh profile reproduces every row and file; a one-byte change anywhere (header, any
 * chunk, a length, the last chunk), a file cut short, bytes added at the end, a wrong passphrase
 * or another wallet's backup are refused with their own code, and the profile is left as it was.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Backups } from '../backups.js';
import type { BackupParams } from '../backup-file.js';
import { LocalStore } from '../../store/local-store.js';
import { ME, dump, fillProfile, folderFiles } from '../../test/backup-fixture.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

// cheap scrypt and small chunks: the file has many chunks to damage, and the tests stay quick
const PARAMS: BackupParams = { log2N: 10, r: 8, p: 1, chunkBytes: 4096 };
const PASS = 'a long backup passphrase';

function profile(wallet = ME): { dir: string; store: LocalStore; backups: Backups; key: Buffer } {
  const dir = tempDir('backup-profile');
  const store = LocalStore.open(join(dir, 'client.db'));
  const key = randomBytes(32);
  const backups = new Backups({
    store,
    profileDir: dir,
    attachments: { archiveFiles: async () => folderFiles(join(dir, 'files'), key) },
    wallet: () => wallet,
    openStore: (f) => LocalStore.open(f),
    params: PARAMS,
  });
  return { dir, store, backups, key };
}

let made: { file: string; source: LocalStore } | null = null;
async function backupFile(): Promise<{ file: string; source: LocalStore }> {
  if (made) return made;
  const src = profile();
  await fillProfile(src.store, folderFiles(join(src.dir, 'files'), src.key), 300);
  const file = join(tempDir('backup-out'), 'me.relaybackup');
  const summary = await src.backups.export(file, PASS);
  expect(summary).toMatchObject({ conversations: 3, messages: 305, files: 2 });
  made = { file, source: src.store };
  return made;
}

/** The restore fails with `code`, and the profile holds nothing of it: no rows, no files, no temp database. */
async function expectRefused(
  bytes: Buffer,
  code: string,
  opts: { pass?: string; wallet?: string } = {},
): Promise<void> {
  const dst = profile(opts.wallet);
  const file = join(dst.dir, 'in.relaybackup');
  writeFileSync(file, bytes);
  const before = dump(dst.store);
  await expect(dst.backups.restore(file, opts.pass ?? PASS)).rejects.toMatchObject({ name: 'MessengerError', code });
  expect(dump(dst.store)).toEqual(before);
  expect(readdirSync(join(dst.dir, 'files'))).toEqual([]);
  expect(readdirSync(dst.dir).filter((f) => f.startsWith('restore-'))).toEqual([]);
}

describe('backup file', { timeout: 120_000 }, () => {
  it('restores into a fresh profile every conversation, message and file, row for row', async () => {
    const { file, source } = await backupFile();
    const dst = profile();
    const progress: number[] = [];
    const summary = await dst.backups.restore(file, PASS, (p) => progress.push(p.done));
    expect(summary).toMatchObject({ conversations: 3, messages: 305, files: 2 });
    expect(progress.length).toBeGreaterThan(2);
    expect(dump(dst.store)).toEqual(dump(source, { portableSettingsOnly: true }));
    expect(dst.store.listMessages(`direct:0x${'b2'.repeat(20)}`, null, 500)).toEqual(
      source.listMessages(`direct:0x${'b2'.repeat(20)}`, null, 500),
    );
    expect(readdirSync(join(dst.dir, 'files')).sort()).toHaveLength(2);
    expect(readdirSync(dst.dir).filter((f) => f.startsWith('restore-'))).toEqual([]);
    // the device's own secrets did not travel
    expect(dst.store.getSetting('apiKey:http://127.0.0.1:1')).toBeNull();
    // and a second restore is refused: the profile has a history now
    await expect(dst.backups.restore(file, PASS)).rejects.toMatchObject({ code: 'backup-not-new-profile' });
  });

  it('holds no message text in the clear', async () => {
    const { file } = await backupFile();
    const raw = readFileSync(file);
    expect(raw.includes(Buffer.from('my reply'))).toBe(false);
    expect(raw.includes(Buffer.from('héllo'))).toBe(false);
    expect(raw.subarray(0, 8).toString()).toBe('RLYBAKUP');
  });

  it('refuses a one-byte change anywhere, and changes nothing', async () => {
    const { file } = await backupFile();
    const raw = readFileSync(file);
    const chunk = PARAMS.chunkBytes + 16 + 4;
    const offsets = [
      0, // magic
      10, // scrypt cost
      20, // salt
      31, // nonce prefix
      38, // chunk size
      44, // passphrase check
      60, // header checksum
      64, // first chunk's length
      64 + 4 + 100, // first chunk's ciphertext
      64 + 3 * chunk + 4 + 7, // a middle chunk
      64 + 2 * chunk - 1, // a tag
      raw.length - 20, // the last chunk's ciphertext or tag
      raw.length - 1, // the very last byte
    ];
    expect(raw.length).toBeGreaterThan(64 + 5 * chunk);
    for (const at of offsets) {
      const bad = Buffer.from(raw);
      bad[at] ^= 0x01;
      await expectRefused(bad, 'backup-damaged');
    }
  });

  it('refuses a file cut short (at a chunk boundary too), one with bytes added, and swapped chunks', async () => {
    const { file } = await backupFile();
    const raw = readFileSync(file);
    const chunk = PARAMS.chunkBytes + 16 + 4;
    for (const cut of [raw.length - 1, 64 + 2 * chunk, 64, 40])
      await expectRefused(raw.subarray(0, cut), 'backup-damaged');
    await expectRefused(Buffer.concat([raw, Buffer.from([0])]), 'backup-damaged');
    const swapped = Buffer.concat([
      raw.subarray(0, 64),
      raw.subarray(64 + chunk, 64 + 2 * chunk),
      raw.subarray(64, 64 + chunk),
      raw.subarray(64 + 2 * chunk),
    ]);
    await expectRefused(swapped, 'backup-damaged');
  });

  it('refuses a wrong passphrase and another wallet, and changes nothing', async () => {
    const { file } = await backupFile();
    const raw = readFileSync(file);
    await expectRefused(raw, 'backup-wrong-passphrase', { pass: 'not the passphrase' });
    await expectRefused(raw, 'backup-other-wallet', { wallet: '0x' + '77'.repeat(20) });
  });
});
