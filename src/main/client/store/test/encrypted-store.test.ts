/**
 * The local database encrypted at rest (sqlite/database-cipher.ts): no message text in the raw
 * bytes of the file, its WAL or its shared-memory index; a clear database from before is
 * encrypted in place and a crash after any step of that loses nothing; a wrong key, or no key,
 * is refused with a clear error.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../../../../shared/domain.js';
import { DatabaseKeyError, databaseFileState } from '../../../sqlite/database-cipher.js';
import { ENCRYPT_STEPS, encryptingTempFile, type EncryptStep } from '../../../sqlite/encrypt-in-place.js';
import { LocalStore, type IncomingMessage } from '../local-store.js';
import { cleanup, tempDir } from '../../test/harness.js';

afterAll(cleanup);

const ME = '0x' + '11'.repeat(20);
const PEER = '0x' + '22'.repeat(20);
const CONV = `direct:${PEER}` as ConversationId;
const RECEIVED = 'zanzibar-received-marmalade';
const SENT = 'quixotic-sent-periwinkle';

function incoming(n: number): IncomingMessage {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  return {
    id: globalThis.crypto.randomUUID(),
    envelopeId: globalThis.crypto.randomUUID(),
    conversationId: CONV,
    conversationKind: 'direct',
    peer: PEER,
    author: PEER,
    fromMe: false,
    kind: 'text',
    text: `${RECEIVED} number ${n}`,
    sentAt: at,
    receivedAt: at,
    routed: 'inbox',
    via: null,
    botName: null,
    isRequest: false,
  };
}

function fill(store: LocalStore, count: number): void {
  store.applyIncoming(
    Array.from({ length: count }, (_, i) => incoming(i)),
    [],
    Date.now(),
  );
  store.insertOutgoing({
    id: globalThis.crypto.randomUUID(),
    conversationId: CONV,
    kind: 'direct',
    peer: PEER,
    author: ME,
    messageKind: 'text',
    text: `${SENT} to you`,
    sentAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
    payload: JSON.stringify({ text: SENT }),
    asRequest: false,
    nowMs: Date.now(),
  });
}

/** The files of the database (main, -wal, -shm) as they are on disk now. */
function rawFiles(file: string): Buffer[] {
  return [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f)).map((f) => readFileSync(f));
}

function leaks(file: string): string[] {
  return rawFiles(file).flatMap((bytes) => [RECEIVED, SENT, 'SQLite format 3'].filter((t) => bytes.includes(t)));
}

describe('encrypted local database', () => {
  it('keeps no message text in the raw bytes of the file, its WAL or its -shm, open or closed', () => {
    const file = join(tempDir('dbcrypt'), 'client.db');
    const key = randomBytes(32);
    const store = LocalStore.open(file, { key });
    fill(store, 50);
    // while open, the WAL holds the commits
    expect(existsSync(`${file}-wal`)).toBe(true);
    expect(leaks(file)).toEqual([]);
    expect(store.listMessages(CONV, null, 100).map((m) => m.text)).toContain(`${SENT} to you`);
    expect(store.search.search('zanzibar', { limit: 10 })).toHaveLength(10);
    store.close();
    expect(leaks(file)).toEqual([]);
    expect(databaseFileState(file)).toBe('encrypted');

    const again = LocalStore.open(file, { key });
    expect(again.listMessages(CONV, null, 100)).toHaveLength(51);
    again.close();
  });

  it('refuses a wrong key and a missing key, saying which', () => {
    const file = join(tempDir('dbcrypt'), 'client.db');
    const key = randomBytes(32);
    const store = LocalStore.open(file, { key });
    fill(store, 3);
    store.close();
    const wrong = (() => {
      try {
        LocalStore.open(file, { key: randomBytes(32) });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(wrong).toBeInstanceOf(DatabaseKeyError);
    expect(wrong).toMatchObject({ code: 'wrong-key', message: expect.stringMatching(/does not open with this key/) });
    expect(() => LocalStore.open(file)).toThrow(
      expect.objectContaining({ code: 'locked', message: expect.stringMatching(/encrypted/) }),
    );
    expect(() => LocalStore.open(file, { key: randomBytes(16) })).toThrow(expect.objectContaining({ code: 'bad-key' }));
    // the refusals changed nothing
    const right = LocalStore.open(file, { key });
    expect(right.listMessages(CONV, null, 10)).toHaveLength(4);
    right.close();
  });

  describe('migration of a clear database', () => {
    /** A clear profile database as an older version left it: messages, a search index, a WAL not checkpointed. */
    function clearProfile(): { file: string; expected: string[] } {
      const file = join(tempDir('dbcrypt-migrate'), 'client.db');
      const store = LocalStore.open(file);
      fill(store, 40);
      const expected = store.listMessages(CONV, null, 100).map((m) => `${m.id} ${m.text}`);
      // left open: the last commits stay in the WAL, as after a crash of the old version
      const copyDir = tempDir('dbcrypt-clear');
      for (const suffix of ['', '-wal', '-shm'])
        if (existsSync(file + suffix)) copyFileSync(file + suffix, join(copyDir, 'client.db' + suffix));
      store.close();
      expect(existsSync(join(copyDir, 'client.db-wal'))).toBe(true);
      return { file: join(copyDir, 'client.db'), expected };
    }

    function expectWhole(file: string, key: Buffer, expected: string[]): void {
      const store = LocalStore.open(file, { key });
      expect(store.listMessages(CONV, null, 100).map((m) => `${m.id} ${m.text}`)).toEqual(expected);
      expect(store.search.search('periwinkle', { limit: 10 }).map((h) => h.snippet)).toHaveLength(1);
      store.close();
      expect(databaseFileState(file)).toBe('encrypted');
      expect(leaks(file)).toEqual([]);
      expect(readdirSync(join(file, '..')).filter((f) => f.includes('encrypting'))).toEqual([]);
    }

    it('encrypts in place on the first open with a key', () => {
      const { file, expected } = clearProfile();
      expect(leaks(file).length).toBeGreaterThan(0);
      expectWhole(file, randomBytes(32), expected);
    });

    it.each(ENCRYPT_STEPS)(
      'survives a crash after step "%s": the next open finishes or starts again',
      (crashAfter: EncryptStep) => {
        const { file, expected } = clearProfile();
        const key = randomBytes(32);
        expect(() =>
          LocalStore.open(file, {
            key,
            afterEncryptStep: (step) => {
              if (step === crashAfter) throw new Error(`crash after ${step}`);
            },
          }),
        ).toThrow(`crash after ${crashAfter}`);
        // never a mix: the file is whole, clear before the rename and encrypted from it on
        const renamed = ENCRYPT_STEPS.indexOf(crashAfter) >= ENCRYPT_STEPS.indexOf('renamed');
        expect(databaseFileState(file)).toBe(renamed ? 'encrypted' : 'clear');
        expectWhole(file, key, expected);
      },
    );

    it('starts again over a half-written temp file', () => {
      const { file, expected } = clearProfile();
      // where a crashed copy stopped: the first pages only, with a journal beside them
      writeFileSync(encryptingTempFile(file), readFileSync(file).subarray(0, 3000));
      writeFileSync(`${encryptingTempFile(file)}-journal`, 'x');
      expectWhole(file, randomBytes(32), expected);
    });
  });
});
