/** A vault whose data key an injected codec protects (the OS keychain in the app), not a passphrase. */
import { describe, expect, it } from 'vitest';
import type { VaultCodec } from '../keys/secret-codec.js';
import { codeOf, useVaultClients } from './vault-clients.js';

const { profile, client } = useVaultClients();

describe('vault protected by an injected codec (safeStorage stand-in)', () => {
  const seen: number[] = [];
  // Toy codec: a real app passes Electron's safeStorage. It records what it is asked to protect.
  const codec: VaultCodec = {
    encrypt: (b) => {
      seen.push(b.length);
      return Buffer.concat([Buffer.from('TOY:'), Buffer.from(b).reverse()]);
    },
    decrypt: (b) => {
      if (b.subarray(0, 4).toString() !== 'TOY:') throw new Error('not mine');
      seen.push(b.length - 4);
      return Buffer.from(b.subarray(4)).reverse();
    },
  };
  const dir = profile();

  it('creates and unlocks without a passphrase; the codec only ever sees a 32-byte key', async () => {
    const v1 = client({ profileDir: dir, codec });
    const created = await v1.createWallet({});
    expect((await v1.status()).protection).toBe('codec');
    await v1.close();
    const v2 = client({ profileDir: dir, codec });
    expect(await v2.status()).toMatchObject({ hasWallet: true, unlocked: false, address: created.address });
    expect(await v2.unlock()).toMatchObject({ unlocked: true, address: created.address });
    expect((await v2.deviceCertificate()).publicKey).toBe(created.deviceKey);
    expect(seen).toEqual([32, 32]);
  });

  it('a process without the codec cannot unlock it', async () => {
    const v3 = client({ profileDir: dir });
    expect(await codeOf(v3.unlock({ passphrase: 'guess' }))).toBe('codec-failed');
  });

  it('a failing codec surfaces as codec-failed', async () => {
    const broken = client({
      profileDir: dir,
      codec: { encrypt: () => Buffer.alloc(0), decrypt: () => Promise.reject(new Error('keychain locked')) },
    });
    expect(await codeOf(broken.unlock())).toBe('codec-failed');
  });
});
