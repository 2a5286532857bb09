/**
 * The vault's at-rest codec backed by Electron's safeStorage (Keychain, DPAPI, libsecret).
 * It only ever sees the vault's random data key, never a wallet secret.
 */
import type { SafeStorage } from 'electron';
import type { VaultCodec } from './vault/keys/secret-codec.js';

export function safeStorageCodec(safeStorage: SafeStorage): VaultCodec {
  return {
    encrypt: (plain) => safeStorage.encryptString(plain.toString('base64')),
    decrypt: (sealed) => Buffer.from(safeStorage.decryptString(sealed), 'base64'),
  };
}
