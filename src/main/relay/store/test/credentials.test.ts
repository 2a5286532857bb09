import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreError, type ApiKeyRow } from '../store.js';
import { addr, devKey } from './temp-store.js';

import { STORE_BACKENDS, useTestStore } from './backends.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  const A = addr(1);
  const B = addr(2);
  const cert = (n: number) => `0x${n.toString(16).padStart(130, '0')}`;
  const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

  function key(id: string, address: string, deviceKey: string | null, createdAt = 1): ApiKeyRow & { hash: Buffer } {
    return {
      id,
      address,
      label: `key ${id}`,
      prefix: `sk_live_${id.slice(0, 4)}`,
      deviceKey,
      createdAt,
      lastUsedAt: null,
      revokedAt: null,
      hash: hashOf(id),
    };
  }

  async function send(from: string, to: string, recipientDeviceKey: string | null) {
    const [outcome] = await t.store.deliver({
      senderAddress: from,
      groupId: null,
      via: null,
      now: 1,
      items: [
        {
          toAddress: to,
          recipientDeviceKey,
          ciphertext: 'Y2lwaGVydGV4dA==',
          ephemeralPublicKey: devKey(99),
          nonce: 'AAAAAAAAAAAAAAAA',
          asRequest: false,
        },
      ],
    });
    return outcome.envelope!;
  }

  describe('devices', () => {
    it('registers devices (creating the account) and lists the current ones oldest first', async () => {
      const d = await t.store.addDevice({
        publicKey: devKey(2).toUpperCase(),
        address: A,
        certificate: cert(2),
        now: 20,
      });
      expect(d).toEqual({ publicKey: devKey(2), address: A, certificate: cert(2), createdAt: 20, revokedAt: null });
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: cert(1), now: 10 });
      expect((await t.store.listDevices(A)).map((x) => x.publicKey)).toEqual([devKey(1), devKey(2)]);
      expect(await t.store.getAccount(A)).not.toBeNull();
    });

    it('refuses a key that is already registered, for any wallet and in any case', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: cert(1), now: 1 });
      const e = await t.store
        .addDevice({ publicKey: devKey(1).toUpperCase(), address: B, certificate: cert(1), now: 2 })
        .catch((err: unknown) => err);
      expect(e).toBeInstanceOf(StoreError);
      expect((e as StoreError).code).toBe('device-exists');
      expect(await t.store.listDevices(B)).toEqual([]);
    });

    it('revokes only the caller’s device, with the keys bound to it and its undelivered envelopes', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: cert(1), now: 1 });
      await t.store.addDevice({ publicKey: devKey(2), address: A, certificate: cert(2), now: 2 });
      await t.store.insertApiKey(key('k-dev1', A, devKey(1)));
      await t.store.insertApiKey(key('k-dev2', A, devKey(2)));
      await t.store.insertApiKey(key('k-free', A, null));
      const forDev1 = await send(B, A, devKey(1));
      const forDev2 = await send(B, A, devKey(2));
      const unbound = await send(B, A, null);

      expect(await t.store.revokeDevice(B, devKey(1), 5)).toBe(false);
      expect(await t.store.revokeDevice(A, devKey(1), 5)).toBe(true);
      expect(await t.store.revokeDevice(A, devKey(1), 6)).toBe(false);

      expect((await t.store.listDevices(A)).map((x) => x.publicKey)).toEqual([devKey(2)]);
      const keys = await t.store.listApiKeys(A);
      expect(keys.find((k) => k.id === 'k-dev1')?.revokedAt).toBe(5);
      expect(keys.find((k) => k.id === 'k-dev2')?.revokedAt).toBeNull();
      expect(keys.find((k) => k.id === 'k-free')?.revokedAt).toBeNull();
      expect((await t.store.pull(A, devKey(2), 100)).map((e) => e.id)).toEqual([forDev2.id, unbound.id]);
      expect(await t.store.ack(A, null, [forDev1.id])).toBe(0);
    });
  });

  describe('API keys', () => {
    it('stores a key by hash and finds it again, metadata and hash alike', async () => {
      const k = key('11111111-1111-7111-8111-111111111111', A, null, 7);
      await t.store.insertApiKey(k);
      expect(await t.store.findApiKeyByHash(hashOf('11111111-1111-7111-8111-111111111111'))).toEqual(k);
      expect(await t.store.findApiKeyByHash(hashOf('nope'))).toBeNull();
    });

    it('binds a key to a device and lists a wallet’s keys oldest first, revoked ones included', async () => {
      await t.store.addDevice({ publicKey: devKey(1), address: A, certificate: cert(1), now: 1 });
      await t.store.insertApiKey(key('k2', A, devKey(1).toUpperCase(), 20));
      await t.store.insertApiKey(key('k1', A, null, 10));
      await t.store.insertApiKey(key('kb', B, null, 5));
      expect(await t.store.revokeApiKey(A, 'k1', 30)).toBe(true);
      const list = await t.store.listApiKeys(A);
      expect(list.map((k) => [k.id, k.deviceKey, k.revokedAt])).toEqual([
        ['k1', null, 30],
        ['k2', devKey(1), null],
      ]);
      expect(list[0]).not.toHaveProperty('hash');
    });

    it('revokes only the caller’s own key, and a second revoke keeps the first time', async () => {
      await t.store.insertApiKey(key('ka', A, null));
      expect(await t.store.revokeApiKey(B, 'ka', 5)).toBe(false);
      expect(await t.store.revokeApiKey(A, 'missing', 5)).toBe(false);
      expect(await t.store.revokeApiKey(A, 'ka', 5)).toBe(true);
      expect(await t.store.revokeApiKey(A, 'ka', 9)).toBe(true);
      expect((await t.store.findApiKeyByHash(hashOf('ka')))?.revokedAt).toBe(5);
    });

    it('records the last use, never moving it backwards', async () => {
      await t.store.insertApiKey(key('ka', A, null));
      await t.store.touchApiKey('ka', 50);
      expect((await t.store.findApiKeyByHash(hashOf('ka')))?.lastUsedAt).toBe(50);
      await Promise.all([t.store.touchApiKey('ka', 70), t.store.touchApiKey('ka', 60)]);
      expect((await t.store.findApiKeyByHash(hashOf('ka')))?.lastUsedAt).toBe(70);
    });
  });
});
