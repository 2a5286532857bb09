/**
 * Base64 for the vault's envelopes, by @scure/base (portable, no Buffer, so that the noble
 * sealer and the relay-side verifiers stay free of node:).
 */
import { base64, base64nopad } from '@scure/base';
import { VaultError } from '../vault-error.js';

/** Standard alphabet, always padded. */
export function toBase64(bytes: Uint8Array): string {
  return base64.encode(bytes);
}

/**
 * Strict decoder: standard alphabet, padding optional, no whitespace, and the unused low bits
 * of the last character must be zero (so every byte string has exactly one accepted spelling
 * per padding choice).
 */
export function fromBase64(text: string): Uint8Array {
  try {
    return text.endsWith('=') ? base64.decode(text) : base64nopad.decode(text);
  } catch {
    throw new VaultError('bad-envelope', 'not canonical base64');
  }
}
