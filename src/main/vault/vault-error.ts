/**
 * Every failure the vault reports carries a stable code, so callers (client, IPC, UI) can
 * branch on it without parsing messages. Messages never contain secret material.
 */
export type VaultErrorCode =
  // sealing and opening
  | 'bad-key' // a device key that is not 32 bytes / 64 hex
  | 'bad-envelope' // fields that are not hex / base64 of the right sizes
  | 'low-order' // a low-order X25519 point (all-zero shared secret)
  | 'auth-failed' // AES-GCM authentication failed
  | 'wrong-device' // the envelope names another device key
  | 'bad-frame' // unknown frame tag or version, truncated frame, group id mismatch
  | 'bad-payload' // payload is not the documented JSON shape
  | 'bad-signature' // recovered signer differs from m.from
  | 'sender-mismatch' // m.from differs from the envelope's sender (and it is not a bot post)
  | 'bad-certificate' // a recipient's device certificate does not verify
  // wallet and vault state
  | 'bad-mnemonic'
  | 'bad-private-key'
  | 'no-wallet'
  | 'wallet-exists'
  | 'locked'
  | 'bad-passphrase'
  | 'no-passphrase'
  | 'codec-failed'
  | 'corrupt-vault'
  | 'siwe-rejected'
  | 'bad-request'
  | 'crypto-unavailable' // libsecp256k1 did not load (libsecp256k1.ts)
  // transport between client and worker
  | 'timeout'
  | 'worker-crashed'
  | 'closed'
  | 'internal';

export class VaultError extends Error {
  constructor(
    readonly code: VaultErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultError';
  }
}

export function isVaultError(e: unknown, code?: VaultErrorCode): e is VaultError {
  return e instanceof VaultError && (code === undefined || e.code === code);
}
