/**
 * What a person types to name someone: a wallet address (0x + 40 hex) or a handle (3–32
 * letters, digits or underscores, `@` optional). Text that starts like an address is judged
 * as one, so `0x123` is called a malformed address, not an unclaimed handle.
 */
import { ADDRESS, TYPED_HANDLE, bareHandle } from './identity-patterns.js';

export type Recipient = { kind: 'address'; address: string } | { kind: 'handle'; handle: string };

/** The recipient as the messenger's commands take it: the address, or the handle with its @. */
export function recipientText(r: Recipient): string {
  return r.kind === 'address' ? r.address : `@${r.handle}`;
}

/** The recipient, or a sentence saying what is wrong with the text. */
export function parseRecipient(text: string): Recipient | { problem: string } {
  const t = text.trim();
  if (ADDRESS.test(t)) return { kind: 'address', address: t.toLowerCase() };
  if (/^0x/i.test(t)) {
    const digits = t.slice(2);
    if (/[^0-9a-fA-F]/.test(digits)) return { problem: `“${t}” is not a valid address: after 0x an address has only the digits 0-9 and letters a-f.` };
    return { problem: `“${t}” is not a valid address: it has ${digits.length} hex digit${digits.length === 1 ? '' : 's'} after 0x, and an address has 40.` };
  }
  if (TYPED_HANDLE.test(t)) return { kind: 'handle', handle: bareHandle(t) };
  if (!t) return { problem: 'Enter a handle (like @alice) or a wallet address (0x…).' };
  return { problem: `“${t}” is neither a handle (3–32 letters, digits or underscores) nor a wallet address (0x + 40 hex digits).` };
}
