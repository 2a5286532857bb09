/**
 * A profile's database encrypted at rest, through the Messenger (profile-database.ts): after a
 * message is sent and received, neither profile's client.db, -wal or -shm holds its text; the
 * file opens only once the vault is unlocked (with the key it derives, refused while locked),
 * and locking closes it again.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseFileState } from '../../../sqlite/database-cipher.js';
import { Messenger } from '../../core/messenger.js';
import { cleanup, newProfile, PASSPHRASE, startRelay, type Relay } from '../../test/harness.js';

let relay: Relay;

beforeAll(async () => {
  relay = await startRelay();
}, 60_000);
afterAll(cleanup);

function rawHas(dir: string, text: string): string[] {
  const file = join(dir, 'client.db');
  return [file, `${file}-wal`, `${file}-shm`].filter((f) => existsSync(f) && readFileSync(f).includes(text));
}

describe('encrypted profile database', { timeout: 120_000 }, () => {
  it('holds no message text on disk after sending and receiving, and still finds it', async () => {
    const alice = await newProfile(relay.url, { handle: 'alice_dbc' });
    const bob = await newProfile(relay.url, { handle: 'bob_dbc' });
    const text = 'the aubergine parliament meets at noon';
    const { outcome } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, text);
    expect(outcome.state).toBe('sent');
    expect((await bob.m.syncPass()).stored).toBe(1);
    // a pending request's conversation is not searched: accept it first
    await bob.m.contacts.acceptRequest({ address: alice.address });
    expect(bob.m.store.search.search('aubergine', { limit: 5 })).toHaveLength(1);
    for (const p of [alice, bob]) {
      expect(databaseFileState(join(p.dir, 'client.db'))).toBe('encrypted');
      expect(rawHas(p.dir, 'aubergine')).toEqual([]);
    }
    await bob.m.close();
    expect(rawHas(bob.dir, 'aubergine')).toEqual([]);
  });

  it('opens the file only once unlocked, and closes it on lock', async () => {
    const carol = await newProfile(relay.url, { handle: 'carol_dbc' });
    const dave = await newProfile(relay.url, { handle: 'dave_dbc' });
    await carol.m.messages.sendAndWait(`direct:${dave.address}`, 'kept behind the key');
    const conversationId = `direct:${dave.address}` as const;
    const key = await carol.m.vault.databaseKey();
    expect(key.key).toMatch(/^[0-9a-f]{64}$/);
    await carol.m.close();

    const again = await Messenger.open({ profileDir: carol.dir, shell: 'web', autoSync: false });
    try {
      // locked: the store is in memory, the vault refuses the key
      expect(again.messages.listMessages({ conversationId })).toEqual([]);
      await expect(again.vault.databaseKey()).rejects.toMatchObject({ code: 'locked' });
      const status = await again.wallet.unlock({ passphrase: PASSPHRASE });
      // the relay and its API key came out of the encrypted file: signed in without asking again
      expect(status.ready).toBe(true);
      expect(again.messages.listMessages({ conversationId }).map((m) => m.text)).toEqual(['kept behind the key']);
      // the same key every unlock (it is derived, not stored)
      expect(await again.vault.databaseKey()).toEqual(key);
      await again.wallet.lock();
      expect(again.messages.listMessages({ conversationId })).toEqual([]);
    } finally {
      await again.close();
    }
    expect((await dave.m.vault.databaseKey()).key).not.toBe(key.key);
  });
});
