/**
 * Errors the Messenger raises itself, and one mapping of every error it can let through
 * (its own, the relay's, the network's, the vault's) to the IPC's `{ code, message }`, so
 * the doorway never has to guess and never forwards a stack trace.
 */
import type { IpcError } from '../../shared/ipc.js';
import { SELF_SIGNED_CODES, SELF_SIGNED_MESSAGE } from '../../shared/relay-address.js';
import { VaultError } from '../vault/vault-error.js';
import { NetworkError, RelayError } from './relay-api.js';

export type MessengerErrorCode =
  | 'no-wallet'
  | 'locked'
  | 'no-relay'
  | 'not-signed-in'
  | 'device-revoked'
  | 'bad-argument'
  | 'not-found'
  | 'closed';

export class MessengerError extends Error {
  constructor(
    readonly code: MessengerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MessengerError';
  }
}

/**
 * Codes: the Messenger's own (above); `vault.<code>` for the vault's; `relay.<status>` (or
 * `relay.<code>` when the relay named one) for relay refusals; `network.<code>` when the relay
 * could not be reached (including `network.pin-mismatch`); `internal` otherwise.
 */
export function toIpcError(e: unknown): IpcError {
  if (e instanceof MessengerError) return { code: e.code, message: e.message };
  if (e instanceof VaultError) return { code: `vault.${e.code}`, message: e.message };
  if (e instanceof RelayError) return { code: `relay.${e.code ?? e.status}`, message: e.message };
  if (e instanceof NetworkError && SELF_SIGNED_CODES.includes(e.code)) return { code: 'network.self-signed', message: SELF_SIGNED_MESSAGE };
  if (e instanceof NetworkError) return { code: `network.${e.code}`, message: `the relay could not be reached: ${e.message}` };
  return { code: 'internal', message: 'something went wrong in the messenger' };
}
