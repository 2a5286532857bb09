/**
 * The recovery phrase is kept in the vault, encrypted, and given again only while the vault is
 * unlocked; asked with a passphrase, that passphrase must open the file. A wallet imported from
 * a private key has none.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultClient } from '../worker/vault-client.js';
import { isVaultError } from '../vault-error.js';
import { vaultPath } from '../keys/vault-file.js';

const SCRYPT = { N: 2 ** 14, r: 8, p: 1 };
const dirs: string[] = [];
const clients: VaultClient[] = [];

function vaultIn(): { dir: string; vault: VaultClient } {
  const dir = mkdtempSync(join(tmpdir(), 'vault-phrase-'));
  dirs.push(dir);
  const vault = new VaultClient({ profileDir: dir, scrypt: SCRYPT });
  clients.push(vault);
  return { dir, vault };
}

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return isVaultError(e) ? e.code : `not a VaultError: ${String(e)}`;
  }
  return undefined;
}

describe('the recovery phrase in the vault', () => {
  it('comes back while unlocked, across a restart of the worker, and never in clear on disk', async () => {
    const { dir, vault } = vaultIn();
    const { mnemonic } = await vault.createWallet({ passphrase: 'correct horse' });
    expect(await vault.recoveryPhrase()).toEqual({ phrase: mnemonic });
    expect(await vault.status()).toMatchObject({ hasRecoveryPhrase: true });
    expect(readFileSync(vaultPath(dir), 'utf8')).not.toContain(mnemonic.split(' ').slice(0, 2).join(' '));

    // a new process: locked, nothing to give until the passphrase unlocks it
    await vault.close();
    const again = new VaultClient({ profileDir: dir, scrypt: SCRYPT });
    clients.push(again);
    expect(await again.status()).toMatchObject({ unlocked: false, hasRecoveryPhrase: null });
    expect(await codeOf(again.recoveryPhrase())).toBe('locked');
    expect(await codeOf(again.recoveryPhrase({ passphrase: 'correct horse' }))).toBe('locked');
    await again.unlock({ passphrase: 'correct horse' });
    expect(await again.recoveryPhrase()).toEqual({ phrase: mnemonic });
  });

  it('asked with a passphrase, only the right one gives it', async () => {
    const { vault } = vaultIn();
    const { mnemonic } = await vault.createWallet({ passphrase: 'correct horse' });
    expect(await codeOf(vault.recoveryPhrase({ passphrase: 'wrong horse' }))).toBe('bad-passphrase');
    expect(await codeOf(vault.recoveryPhrase({ passphrase: '' }))).toBe('no-passphrase');
    expect(await vault.recoveryPhrase({ passphrase: 'correct horse' })).toEqual({ phrase: mnemonic });
    await vault.lock();
    expect(await codeOf(vault.recoveryPhrase({ passphrase: 'correct horse' }))).toBe('locked');
  });

  it('an imported phrase is kept too; a private key has none', async () => {
    const phrase = 'test test test test test test test test test test test junk';
    const imported = vaultIn().vault;
    await imported.importMnemonic({ mnemonic: phrase, passphrase: 'pass' });
    expect(await imported.recoveryPhrase({ passphrase: 'pass' })).toEqual({ phrase });
    const keyed = vaultIn().vault;
    await keyed.importPrivateKey({
      privateKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
      passphrase: 'pass',
    });
    expect(await keyed.status()).toMatchObject({ hasRecoveryPhrase: false });
    expect(await keyed.recoveryPhrase({ passphrase: 'pass' })).toEqual({ phrase: null });
  });
});
