import { describe, expect, it } from 'vitest';
import { StoreError } from '../store.js';
import { addr } from './temp-store.js';

import { STORE_BACKENDS, useTestStore } from './backends.js';

describe.each(STORE_BACKENDS)('$name store', (backend) => {
  const t = useTestStore(backend);

  async function rejectsWith(p: Promise<unknown>, code: string): Promise<StoreError> {
    const e = await p.then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StoreError);
    expect((e as StoreError).code).toBe(code);
    return e as StoreError;
  }

  describe('sign-in challenges', () => {
    const A = addr(1);

    it('returns the stored message and address once, then refuses the nonce', async () => {
      await t.store.createChallenge({
        nonce: 'abcdEFGH1234',
        address: A.toUpperCase().replace('0X', '0x'),
        message: 'sign me',
        expiresAt: 10_000,
      });
      expect(await t.store.consumeChallenge('abcdEFGH1234', 5_000)).toEqual({ address: A, message: 'sign me' });
      await rejectsWith(t.store.consumeChallenge('abcdEFGH1234', 5_001), 'nonce-invalid');
    });

    it('refuses an unknown nonce and an expired one', async () => {
      await rejectsWith(t.store.consumeChallenge('neverissued', 1), 'nonce-invalid');
      await t.store.createChallenge({ nonce: 'expiring1', address: A, message: 'm', expiresAt: 10_000 });
      await rejectsWith(t.store.consumeChallenge('expiring1', 10_000), 'nonce-invalid');
    });

    it('forgets challenges that expired before a new one was issued, but keeps live ones', async () => {
      await t.store.createChallenge({ nonce: 'old00001', address: A, message: 'm', expiresAt: 1_000 });
      await t.store.createChallenge({ nonce: 'live0001', address: A, message: 'm', expiresAt: 2_000_000 });
      await t.store.createChallenge({ nonce: 'live0002', address: A, message: 'm2', expiresAt: 2_000_001 });
      expect((await t.rows('SELECT nonce FROM challenges ORDER BY nonce')).map((r) => r.nonce)).toEqual([
        'live0001',
        'live0002',
      ]);
      expect((await t.store.consumeChallenge('live0001', 1_999_999)).message).toBe('m');
    });
  });

  describe('accounts and handles', () => {
    const A = addr(1);
    const B = addr(2);

    it('has no account for a stranger', async () => {
      expect(await t.store.getAccount(A)).toBeNull();
    });

    it('claims a handle lower-case, keeps the claim time when unchanged, and frees the old one on change', async () => {
      const row = await t.store.setHandle(A, 'Alice', 100);
      expect(row).toEqual({
        address: A,
        handle: 'alice',
        handleClaimedAt: 100,
        verified: false,
        unknownSenders: 'request',
        stake: null,
      });
      expect((await t.store.setHandle(A, 'alice', 200)).handleClaimedAt).toBe(100);
      expect((await t.store.findHandle('ALICE'))?.address).toBe(A);
      const changed = await t.store.setHandle(A, 'alice2', 300);
      expect(changed).toMatchObject({ handle: 'alice2', handleClaimedAt: 300 });
      expect(await t.store.findHandle('alice')).toBeNull();
      expect((await t.store.setHandle(B, 'alice', 400)).handle).toBe('alice');
    });

    it('refuses a handle another wallet holds, in any case, and leaves both as they were', async () => {
      await t.store.setHandle(A, 'bob_1', 1);
      await t.store.setHandle(B, 'other', 2);
      await rejectsWith(t.store.setHandle(B, 'BOB_1', 3), 'handle-taken');
      expect((await t.store.getAccount(B))?.handle).toBe('other');
      expect((await t.store.findHandle('bob_1'))?.address).toBe(A);
    });

    it('stores the unknown-sender policy and stake', async () => {
      await t.store.setPolicy(A, 'stake-gate', '0.5');
      expect(await t.store.getAccount(A)).toMatchObject({ unknownSenders: 'stake-gate', stake: '0.5' });
      await t.store.setPolicy(A, 'block', null);
      expect(await t.store.getAccount(A)).toMatchObject({ unknownSenders: 'block', stake: null });
    });
  });

  describe('directory search', () => {
    it('lists exact handle matches first, then fragments of handle or address, newest claims first', async () => {
      await t.store.setHandle(addr(0xa1), 'anna', 10);
      await t.store.setHandle(addr(0xa2), 'hanna', 30);
      await t.store.setHandle(addr(0xa3), 'ann', 20);
      await t.store.setHandle(addr(0xa4), 'zed', 40);
      const found = await t.store.searchDirectory('ANN', 10);
      expect(found.map((r) => r.handle)).toEqual(['ann', 'hanna', 'anna']);
    });

    it('matches address fragments case-insensitively', async () => {
      const A = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
      await t.store.setHandle(A, 'checksum', 1);
      await t.store.setHandle(addr(7), 'unrelated', 2);
      expect((await t.store.searchDirectory('0x5AAEB6', 10)).map((r) => r.address)).toEqual([A]);
      expect((await t.store.searchDirectory('EF1BEAED', 10)).map((r) => r.address)).toEqual([A]);
    });

    it('treats LIKE wildcards in the query as plain characters', async () => {
      await t.store.setHandle(addr(1), 'a_b', 1);
      await t.store.setHandle(addr(2), 'axb', 2);
      expect((await t.store.searchDirectory('a_b', 10)).map((r) => r.handle)).toEqual(['a_b']);
      expect(await t.store.searchDirectory('%', 10)).toEqual([]);
    });

    it('lists only accounts with a handle, newest claims first without a query, ties newest first, up to limit', async () => {
      await t.store.setPolicy(addr(9), 'request', null); // an account without a handle
      await t.store.setHandle(addr(1), 'first', 100);
      await t.store.setHandle(addr(2), 'second', 200);
      await t.store.setHandle(addr(3), 'third', 200);
      expect((await t.store.searchDirectory(null, 10)).map((r) => r.handle)).toEqual(['third', 'second', 'first']);
      expect((await t.store.searchDirectory('', 2)).map((r) => r.handle)).toEqual(['third', 'second']);
      expect((await t.store.searchDirectory('0x', 10)).every((r) => r.handle !== null)).toBe(true);
      expect(await t.store.searchDirectory('0x', 10)).toHaveLength(3);
    });
  });

  describe('entitlements, contacts and the operator', () => {
    const A = addr(1);
    const B = addr(2);

    it('grants, lists and revokes entitlements', async () => {
      await t.store.grantEntitlement(A, 'developer-api');
      await t.store.grantEntitlement(A, 'developer-api');
      await t.store.grantEntitlement(A, 'badge');
      expect(await t.store.getEntitlements(A)).toEqual(['badge', 'developer-api']);
      expect(await t.store.revokeEntitlement(A, 'badge')).toBe(true);
      expect(await t.store.revokeEntitlement(A, 'badge')).toBe(false);
      expect(await t.store.getEntitlements(A)).toEqual(['developer-api']);
    });

    it('keeps allow and block as separate lists; forgetting one leaves the other', async () => {
      await t.store.setContact(A, B, 'allow', 'allow');
      await t.store.setContact(A, addr(3), 'block', 'block');
      expect(await t.store.getContacts(A)).toEqual({ allowed: [B], blocked: [addr(3)] });
      await t.store.setContact(A, B, 'block', 'block');
      expect(await t.store.getContacts(A)).toEqual({ allowed: [B], blocked: [B, addr(3)] });
      await t.store.setContact(A, B, null, 'allow');
      expect(await t.store.getContacts(A)).toEqual({ allowed: [], blocked: [B, addr(3)] });
      await t.store.setContact(A, B, null, 'block');
      expect(await t.store.getContacts(A)).toEqual({ allowed: [], blocked: [addr(3)] });
      expect(await t.store.getContacts(B)).toEqual({ allowed: [], blocked: [] });
    });

    it('caps each list at maxEntries new addresses (too-many-entries); re-filing one already there and removing still work', async () => {
      for (let i = 10; i < 13; i++) await t.store.setContact(A, addr(i), 'block', 'block', 3);
      await rejectsWith(t.store.setContact(A, addr(13), 'block', 'block', 3), 'too-many-entries');
      await t.store.setContact(A, addr(12), 'block', 'block', 3);
      // the allow list has a count of its own
      await t.store.setContact(A, addr(13), 'allow', 'allow', 3);
      await t.store.setContact(A, addr(10), null, 'block', 3);
      await t.store.setContact(A, addr(13), 'block', 'block', 3);
      expect((await t.store.getContacts(A)).blocked).toEqual([addr(11), addr(12), addr(13)]);
    });

    it('verifies only known accounts', async () => {
      expect(await t.store.setVerified(A, true)).toBe(false);
      await t.store.setHandle(A, 'acme', 1);
      expect(await t.store.setVerified(A, true)).toBe(true);
      expect((await t.store.getAccount(A))?.verified).toBe(true);
      expect(await t.store.setVerified(A, false)).toBe(true);
      expect((await t.store.getAccount(A))?.verified).toBe(false);
    });
  });
});
