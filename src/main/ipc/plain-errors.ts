/**
 * Turns any error from the services into `{ code, message }` for the renderer: known codes get
 * a sentence a person can act on, other messages pass as their first line, and anything
 * unexpected becomes a generic sentence while the detail goes to main's log only.
 */
import type { IpcError } from '../../shared/ipc.js';

const PLAIN: Record<string, string> = {
  'bad-passphrase': 'That passphrase is not right.',
  'no-wallet': 'There is no wallet on this computer yet.',
  'wallet-exists': 'This computer already has a wallet.',
  'bad-mnemonic': 'That recovery phrase is not valid. Check the words and their order.',
  'invalid-mnemonic': 'That recovery phrase is not valid. Check the words and their order.',
  'bad-private-key': 'That private key is not valid. It should be 64 hexadecimal characters, optionally starting with 0x.',
  'invalid-private-key': 'That private key is not valid. It should be 64 hexadecimal characters, optionally starting with 0x.',
  locked: 'Unlock the app first.',
  'handle-taken': 'That handle is already taken. Try another.',
  'pin-mismatch': "That relay's certificate does not match the fingerprint. Check the fingerprint with whoever shares the relay.",
  ECONNREFUSED: "Can't reach the relay. Check the address, or whether it is running.",
  'not-connected': 'Not connected to a relay yet.',
  'rate-limited': 'Too many requests at once. Wait a moment and try again.',
  'unknown-recipient': 'Nobody with that handle or address is on this relay.',
  'wrong-password': 'That group password is not right.',
  'not-found': 'That could not be found. It may have been removed.',
  forbidden: "You're not allowed to do that.",
  timeout: 'That took too long. Try again.',
  'no-passphrase': 'Choose a passphrase: it protects your wallet on this computer.',
  'codec-failed': "The system keychain could not open your wallet. Check that you're signed in to your desktop session.",
  'network': "Can't reach the relay. Check the address, or whether it is running.",
};

/** What a refusal means depends on what was asked. */
const BY_STATUS: Record<string, Record<number, [string, string]>> = {
  'profile.claimHandle': { 409: ['handle-taken', 'That handle is already taken. Try another.'], 400: ['bad-handle', 'Handles are 3–32 letters, digits or underscores.'] },
  'groups.join': { 403: ['wrong-password', 'That group password is not right.'], 404: ['not-found', 'That group no longer exists.'] },
  'groups.addMember': { 403: ['forbidden', 'Only the group’s creator can add members.'], 404: ['unknown-recipient', 'Nobody with that handle or address is on this relay.'] },
  'groups.removeMember': { 403: ['forbidden', 'Only the group’s creator can remove members.'] },
  'groups.leave': { 409: ['creator-cannot-leave', 'As the creator you can leave only once everyone else has left.'] },
  'apiKeys.mint': { 403: ['no-entitlement', 'This relay has not enabled developer API keys for your account. Ask its operator.'] },
  'conversations.open': { 404: ['unknown-recipient', 'Nobody with that handle or address is on this relay.'] },
};

export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 300 ? `${line.slice(0, 297)}…` : line;
}

/** Messages meant for people start with a capital letter and are sentences; internals do not. */
function looksPlain(text: string): boolean {
  return /^[A-Z“"']/.test(text) && !/\bat .+:\d+:\d+\)?$/.test(text) && !/^(TypeError|RangeError|ReferenceError|SyntaxError|Error):/.test(text);
}

export function toIpcError(e: unknown, command?: string): IpcError {
  const err = e as { code?: unknown; message?: unknown; status?: unknown; name?: unknown };
  const code = typeof err?.code === 'string' && /^[A-Za-z0-9_.-]{1,40}$/.test(err.code) ? err.code : null;
  const message = typeof err?.message === 'string' ? firstLine(err.message) : '';
  if (code && PLAIN[code]) return { code, message: PLAIN[code] };
  if (err?.name === 'NetworkError') return { code: code ?? 'network', message: code === 'pin-mismatch' ? PLAIN['pin-mismatch'] : PLAIN.network };
  if (typeof err?.status === 'number') {
    const specific = command ? BY_STATUS[command]?.[err.status] : undefined;
    if (specific) return { code: specific[0], message: specific[1] };
    if (err.status === 429) return { code: 'rate-limited', message: PLAIN['rate-limited'] };
    if (err.status === 409) return { code: code ?? 'conflict', message: message && looksPlain(message) ? message : 'That is already taken.' };
    if (err.status === 403) return { code: code ?? 'forbidden', message: message && looksPlain(message) ? message : PLAIN.forbidden };
    if (err.status === 404) return { code: code ?? 'not-found', message: message && looksPlain(message) ? message : PLAIN['not-found'] };
  }
  if (e instanceof AppError || (code && message && looksPlain(message))) return { code: code ?? 'error', message };
  if (message && looksPlain(message)) return { code: code ?? 'error', message };
  // Unexpected: keep the detail in main's log, give the person something to do.
  console.error(`[${command ?? 'command'}]`, e);
  return { code: code ?? 'internal', message: 'Something went wrong. Try again; if it keeps happening, restart the app.' };
}
