/**
 * Errors the Messenger raises itself. They become `{ code, message }` for the app and the CLI
 * alike through the one mapper, src/shared/plain-errors.ts.
 */

export type MessengerErrorCode =
  | 'no-profile'
  | 'no-wallet'
  | 'locked'
  | 'no-relay'
  | 'not-signed-in'
  | 'device-revoked'
  | 'bad-argument'
  | 'not-found'
  | 'closed'
  // the recovery phrase once confirmed is shown against the passphrase only (profile-wallet.ts)
  | 'passphrase-required'
  // stakes (stakes.ts)
  | 'stakes-unavailable'
  | 'insufficient-funds'
  | 'chain-unreachable'
  | 'chain-refused'
  | 'stake-refused'
  // safety numbers (trust.ts): a verified contact's devices changed; the person is asked first
  | 'safety-number-changed'
  // backups (backups.ts)
  | 'backup-wrong-passphrase'
  | 'backup-damaged'
  | 'backup-other-wallet'
  | 'backup-too-new'
  | 'backup-not-new-profile';

export class MessengerError extends Error {
  constructor(
    readonly code: MessengerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MessengerError';
  }
}
