/** How the relay's refusals reach the client: RelayError (an error status or a broken answer), and which ones are worth trying again. */
import { NetworkError } from './http-transport.js';

export { NetworkError };

/** The relay answered with an error status (or with a body that breaks the contract). */
export class RelayError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'RelayError';
  }
}

/**
 * Whether the relay refused our credential itself (revoked key, relay reset), as opposed to a
 * 401 about one group: a key whose wallet is not a member of that group is 401 `not-a-member`
 * there (docs/protocol.md §2, group member keys) and must not make us drop the key.
 */
export function credentialRefused(e: unknown): boolean {
  return e instanceof RelayError && e.status === 401 && e.code !== 'not-a-member' && e.code !== 'token-scope';
}

/** True for errors where trying again later may succeed (relay down, timeouts, 5xx, 429). */
export function isTransient(e: unknown): boolean {
  if (e instanceof NetworkError) return e.code !== 'pin-mismatch';
  if (e instanceof RelayError) return e.status === 429 || e.status >= 500;
  return false;
}
