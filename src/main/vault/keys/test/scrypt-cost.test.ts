/**
 * The vault's `scrypt` option: tests make their throw-away profiles at scrypt's least accepted
 * cost, and that must neither leak into a vault made without it nor lower one made at the full
 * cost (N=2^17, vault-worker.test.ts), and the file must say which cost opens it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT, type ScryptParams } from '../secret-codec.js';
import { VaultClient, type VaultClientOptions } from '../../worker/vault-client.js';
import { isVaultError } from '../../vault-error.js';
import { vaultPath } from '../vault-file.js';

const CHEAP: ScryptParams = { N: 2 ** 14, r: 8, p: 1 };
const dirs: string[] = [];
const clients: VaultClient[] = [];

function client(options: Omit<VaultClientOptions, 'profileDir'>, profileDir?: string): VaultClient {
  const dir = profileDir ?? mkdtempSync(join(tmpdir(), 'vault-scrypt-'));
  if (!profileDir) dirs.push(dir);
  const c = new VaultClient({ profileDir: dir, ...options });
  clients.push(c);
  return c;
}

/** the scrypt parameters recorded in the profile's vault.json */
function recordedCost(profileDir: string): ScryptParams {
  const body = JSON.parse(readFileSync(vaultPath(profileDir), 'utf8'));
  const { N, r, p } = JSON.parse(Buffer.from(body.wrappedKey, 'base64').toString('utf8'));
  return { N, r, p };
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the vault's scrypt option", () => {
  it('writes the wrap at the given cost and records it, so a vault opened without the option still unlocks', async () => {
    const cheap = client({ scrypt: CHEAP });
    const dir = dirs.at(-1)!;
    const { address } = await cheap.createWallet({ passphrase: 'correct horse' });
    expect(recordedCost(dir)).toEqual(CHEAP);
    await cheap.close();

    const plain = client({}, dir);
    expect((await plain.unlock({ passphrase: 'correct horse' })).address).toBe(address);
    expect(
      await plain.unlock({ passphrase: 'wrong horse' }).catch((e: unknown) => (isVaultError(e) ? e.code : e)),
    ).toBe('bad-passphrase');
  });

  it('leaves a vault made at the full cost at it: without the option a vault gets N=2^17, and a cheap client only reads it', async () => {
    const full = client({});
    const dir = dirs.at(-1)!;
    const { address } = await full.createWallet({ passphrase: 'correct horse' });
    expect(recordedCost(dir)).toEqual(DEFAULT_SCRYPT);
    expect(DEFAULT_SCRYPT.N).toBe(2 ** 17);
    await full.close();

    const before = readFileSync(vaultPath(dir), 'utf8');
    const cheap = client({ scrypt: CHEAP }, dir);
    expect((await cheap.unlock({ passphrase: 'correct horse', rememberMs: 60_000 })).address).toBe(address);
    expect(readFileSync(vaultPath(dir), 'utf8')).toBe(before);
  });

  it("refuses a cost below scrypt's least accepted one, or one that is not a power of two", () => {
    for (const scrypt of [
      { N: 2 ** 13, r: 8, p: 1 },
      { N: 3 * 2 ** 13, r: 8, p: 1 },
      { N: 2 ** 14, r: 4, p: 1 },
    ]) {
      let code: unknown;
      try {
        client({ scrypt });
      } catch (e) {
        code = isVaultError(e) ? e.code : e;
      }
      expect(code, JSON.stringify(scrypt)).toBe('bad-request');
    }
  });
});
