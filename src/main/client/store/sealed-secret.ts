/**
 * Secrets the client keeps in its profile database (the relay API key) are never stored in
 * clear: they are wrapped with the same codec that protects the vault file (the vault's
 * passphrase codec, scrypt + AES-256-GCM, or the app's OS-keychain codec).
 */
import type { VaultCodec } from '../../vault/keys/secret-codec.js';

const PREFIX = 'sealed:v1:';

export async function sealSecret(codec: VaultCodec, secret: string): Promise<string> {
  const out = await codec.encrypt(Buffer.from(secret, 'utf8'));
  return PREFIX + Buffer.from(out).toString('base64');
}

export async function openSecret(codec: VaultCodec, stored: string): Promise<string> {
  if (!stored.startsWith(PREFIX)) throw new Error('the stored secret is not in a known format');
  const out = await codec.decrypt(Buffer.from(stored.slice(PREFIX.length), 'base64'));
  return Buffer.from(out).toString('utf8');
}
