/**
 * What the vault's worker tests share: VaultClients on throw-away profile folders (closed and
 * removed after each file), a well-known wallet to import, the code a refusal carries, and the
 * envelope a relay would hand over for a seal.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { VaultClient, type VaultClientOptions } from '../worker/vault-client.js';
import { isVaultError } from '../vault-error.js';
import type { EnvelopeToOpen, SealedForRecipient } from '../worker/vault-protocol.js';

export const HARDHAT_MNEMONIC = 'test test test test test test test test test test test junk';
export const HARDHAT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
export const HARDHAT_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const GROUP = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** Called at a test file's top level: its clients and profile folders, gone after the file. */
export function useVaultClients(): { profile: () => string; client: (options: VaultClientOptions) => VaultClient } {
  const dirs: string[] = [];
  const clients: VaultClient[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    profile() {
      const dir = mkdtempSync(join(tmpdir(), 'vault-test-'));
      dirs.push(dir);
      return dir;
    },
    client(options) {
      const c = new VaultClient(options);
      clients.push(c);
      return c;
    },
  };
}

export async function codeOf(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
  } catch (e) {
    return isVaultError(e) ? e.code : `not a VaultError: ${String(e)}`;
  }
  return undefined;
}

export function envelopeFrom(
  sealed: SealedForRecipient,
  senderAddress: string,
  extra: Partial<EnvelopeToOpen> = {},
): EnvelopeToOpen {
  return {
    id: globalThis.crypto.randomUUID(),
    senderAddress,
    groupId: null,
    via: null,
    recipientDeviceKey: sealed.deviceKey,
    ephemeralPublicKey: sealed.ephemeralPublicKey,
    nonce: sealed.nonce,
    ciphertext: sealed.ciphertext,
    ...extra,
  };
}
