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

/**
 * What is wrong with the text: `code` (with the typed `text` and, for a short or long address,
 * its `digits`) for the renderer to say in the person's language, `problem` the English sentence
 * for main and the CLI.
 */
export type RecipientProblem =
  | { code: 'empty'; text: string; problem: string }
  | { code: 'address-characters'; text: string; problem: string }
  | { code: 'address-length'; text: string; digits: number; problem: string }
  | { code: 'neither'; text: string; problem: string };

/** The recipient, or what is wrong with the text. */
export function parseRecipient(text: string): Recipient | RecipientProblem {
  const t = text.trim();
  if (ADDRESS.test(t)) return { kind: 'address', address: t.toLowerCase() };
  if (/^0x/i.test(t)) {
    const digits = t.slice(2);
    if (/[^0-9a-fA-F]/.test(digits))
      return {
        code: 'address-characters',
        text: t,
        problem: `“${t}” is not a valid address: after 0x an address has only the digits 0-9 and letters a-f.`,
      };
    const n = digits.length;
    return {
      code: 'address-length',
      text: t,
      digits: n,
      problem: `“${t}” is not a valid address: it has ${n} hex digit${n === 1 ? '' : 's'} after 0x, and an address has 40.`,
    };
  }
  if (TYPED_HANDLE.test(t)) return { kind: 'handle', handle: bareHandle(t) };
  if (!t) return { code: 'empty', text: t, problem: 'Enter a handle (like @alice) or a wallet address (0x…).' };
  return {
    code: 'neither',
    text: t,
    problem: `“${t}” is neither a handle (3–32 letters, digits or underscores) nor a wallet address (0x + 40 hex digits).`,
  };
}
