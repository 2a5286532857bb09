/**
 * What an address and a handle look like, said once for the relay's schemas, the client, the
 * CLIs and the app, so that no two places can disagree about what is well-formed.
 */

const LOWER_ADDRESS_BODY = '0x[0-9a-f]{40}';

/** A wallet address as typed or sent: 0x and 40 hex digits, either case. */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';
export const ADDRESS = new RegExp(ADDRESS_PATTERN);

/** An address as stored and as signed payloads and conversation ids carry it: lower case. */
export const LOWER_ADDRESS = new RegExp(`^${LOWER_ADDRESS_BODY}$`);

/** A conversation id: `direct:` and the peer's lower-case address, or `group:` and the group's id. */
export const CONVERSATION_ID_PATTERN = `^(direct:${LOWER_ADDRESS_BODY}|group:[0-9a-f-]{36})$`;

/** A handle: 3–32 letters, digits or underscores, case-insensitive. */
export const HANDLE_PATTERN = '^[A-Za-z0-9_]{3,32}$';
export const HANDLE = new RegExp(HANDLE_PATTERN);

/** A handle as a person types it, with or without its @. */
export const TYPED_HANDLE = /^@?[A-Za-z0-9_]{3,32}$/;

/** A typed handle without its @ (as stored, sent and shown in a field that has its own @). */
export function bareHandle(typed: string): string {
  return typed.replace(/^@/, '');
}
