import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withCredentialCache } from '../credential-cache.js';
import type { ApiKeyRow, RelayStore } from '../store.js';

/** A store that knows every key and counts how often it is asked. */
function countingStore() {
  const asked = new Map<string, number>();
  const store = {
    async findApiKeyByHash(hash: Buffer): Promise<ApiKeyRow & { hash: Buffer }> {
      const id = hash.toString('hex');
      asked.set(id, (asked.get(id) ?? 0) + 1);
      return {
        id,
        address: '0x00',
        label: null,
        prefix: 'sk_live_abcd',
        deviceKey: null,
        createdAt: 0,
        lastUsedAt: null,
        revokedAt: null,
        hash,
      };
    },
  } as unknown as RelayStore;
  return { store, asked };
}

const hashOf = (i: number) => createHash('sha256').update(String(i)).digest();

describe('credential cache', () => {
  it('past its size it forgets only its oldest entry: a relay with more keys in use than that still answers the others from memory', async () => {
    const { store, asked } = countingStore();
    const cached = withCredentialCache(store, () => 1000);
    // 20,000 keys fit (twice the default cap of held pulls); one more pushes out only the first
    for (let i = 0; i <= 20_000; i++) await cached.findApiKeyByHash(hashOf(i));
    for (const i of [1, 10_000, 20_000]) await cached.findApiKeyByHash(hashOf(i));
    expect([1, 10_000, 20_000].map((i) => asked.get(hashOf(i).toString('hex')))).toEqual([1, 1, 1]);
    await cached.findApiKeyByHash(hashOf(0));
    expect(asked.get(hashOf(0).toString('hex'))).toBe(2);
  });
});
