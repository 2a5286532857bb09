/**
 * The one error mapper: any failure of the messenger, the vault, the relay or the network
 * becomes `{ code, message }`, the same for the app (through the command doorway) and the CLI
 * (on stderr). What the person asked for decides what a refusal means (a 409 on a handle claim
 * is "taken"), known codes get a sentence a person can act on, the client's own messages pass
 * as sentences, and anything unexpected is `internal` with a generic sentence; the caller logs
 * its detail. Errors are read by name and fields, so this stays free of the classes' modules.
 */
import type { IpcError } from './ipc.js';
import { SELF_SIGNED_CODES, SELF_SIGNED_MESSAGE } from './relay-address.js';

export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

const NETWORK = "Can't reach the relay. Check its address, or whether it is running.";
const RELAY_REFUSED = 'The relay refused that.';
const RELAY_PROBLEM = 'The relay had a problem. Try again in a moment.';
const INTERNAL = 'Something went wrong. Try again; if it keeps happening, restart the app.';
export const UNKNOWN_COMMAND = 'The app does not know that command.';

export const localRelayOffMessage =
  'The relay on this computer is not running. Turn it on in Settings → Relay to manage it.';

/** By error code (the vault's, the Messenger's, the relay's named codes). */
const PLAIN: Record<string, string> = {
  'bad-passphrase': 'That passphrase is not right.',
  'no-passphrase': 'Enter your passphrase.',
  'passphrase-required': 'Enter your passphrase to see the recovery phrase.',
  'no-wallet': 'There is no wallet on this computer yet.',
  'wallet-exists': 'This computer already has a wallet.',
  'bad-mnemonic': 'That recovery phrase is not valid. Check the words and their order.',
  'bad-private-key': 'That private key is not valid. It is 64 hexadecimal characters, optionally starting with 0x.',
  locked: 'Unlock the app first.',
  'codec-failed':
    "The system keychain could not open your wallet. Check that you're signed in to your desktop session.",
  'corrupt-vault': 'The wallet file on this computer is damaged. Restore it from your recovery phrase.',
  'no-relay': 'Choose a relay first.',
  'not-signed-in': 'Not signed in to the relay yet. Check your connection.',
  timeout: 'That took too long. Try again.',
  'worker-crashed': 'The key vault restarted. Unlock again and retry.',
  'pin-mismatch':
    "That relay's certificate does not match the fingerprint. Check the fingerprint with whoever shares the relay.",
  'profile-in-use': 'This profile is already open in another window of the app.',
  'entitlement-required': 'This relay has not enabled developer API keys for your account. Ask its operator.',
  'recipient-full': 'Not delivered: their inbox on the relay is full. Try again later.',
  'too-many-requests-pending':
    'Not delivered: too many of your contact requests and group invitations to them are still unanswered.',
  'requests-full': 'Not delivered: they have too many contact requests waiting on the relay. Try again later.',
  'storage-full': 'The relay is low on disk space and refuses new messages and changes for now. Try again later.',
  'too-many-groups': 'You have created as many groups as this relay allows.',
  'too-many-keys':
    'This wallet has as many API keys as this relay allows. Revoke old ones in Settings → API keys (or revoke devices you no longer use in Settings → Devices), then try again.',
  'invite-required':
    'This relay lets people join by invitation only. Ask the relay’s owner for an invite, then join with the link or code they give you.',
  'invite-invalid':
    'That invite no longer works: it was used up, it expired or the relay’s owner withdrew it. Ask them for a new one.',
  'registration-closed': 'This relay is not taking anyone new. Ask the relay’s owner whether they can let you in.',
  suspended:
    'The relay’s owner has suspended your account on this relay, so you cannot sign in or send there. Ask them if you think this is a mistake.',
  'local-relay-off': localRelayOffMessage,
  'stake-required':
    'They ask strangers for a refundable stake first. Send them a staked contact request; once it is paid, you can invite them.',
  'backup-wrong-passphrase': 'That passphrase does not open this backup. Nothing was changed.',
  'backup-damaged': 'This backup file is damaged or was altered, so it cannot be restored. Nothing was changed.',
  'backup-other-wallet': 'This backup belongs to another wallet. Import that wallet’s recovery phrase to restore it.',
  'backup-too-new': 'This backup was made by a newer version of the app. Update the app, then restore it.',
  'backup-not-new-profile': 'A backup can be restored only into a new profile, before any conversation.',
};

/** What an HTTP refusal from the relay means, by command. */
const BY_STATUS: Record<string, Record<number, [string, string]>> = {
  'profile.claimHandle': {
    409: ['handle-taken', 'That handle is already taken. Try another.'],
    400: ['bad-handle', 'Handles are 3–32 letters, digits or underscores.'],
  },
  'groups.join': {
    403: ['wrong-password', 'That group password is not right.'],
    404: ['not-found', 'That group no longer exists.'],
  },
  'groups.addMember': {
    403: [
      'forbidden',
      'Only the group’s creator or an admin can add members, and only people who accept invitations from you.',
    ],
    404: ['unknown-recipient', 'Nobody with that handle or address is on this relay.'],
    409: ['already-member', 'They are already a member.'],
  },
  'groups.removeMember': {
    403: [
      'forbidden',
      'Only the group’s creator or an admin can remove members, and admins cannot remove the creator or other admins.',
    ],
  },
  'groups.addAdmin': {
    403: ['forbidden', 'Only the group’s creator can name admins.'],
    404: ['not-a-member', 'Only members can be admins.'],
  },
  'groups.removeAdmin': { 403: ['forbidden', 'Only the group’s creator can take admin rights back.'] },
  'invitations.accept': { 404: ['no-invitation', 'That invitation is no longer open.'] },
  'invitations.decline': { 404: ['no-invitation', 'That invitation is no longer open.'] },
  'groups.leave': { 409: ['creator-cannot-leave', 'As the creator you can leave only once everyone else has left.'] },
  'groups.mintToken': { 403: ['forbidden', 'Only the group’s creator or an admin can mint bot tokens.'] },
  'apiKeys.mint': {
    403: ['entitlement-required', 'This relay has not enabled developer API keys for your account. Ask its operator.'],
  },
  'conversations.open': { 404: ['unknown-recipient', 'Nobody with that handle or address is on this relay.'] },
  'relay.connect': { 404: ['not-a-relay', 'That address does not answer like a relay. Check it.'] },
};

const BY_STATUS_ANY: Record<number, [string, string]> = {
  401: ['signed-out', 'The relay no longer accepts this device’s key. Reconnect to the relay in Settings.'],
  403: ['forbidden', 'You’re not allowed to do that.'],
  404: ['not-found', 'That could not be found. It may have been removed.'],
  413: ['too-large', 'That is too large to send.'],
  429: ['rate-limited', 'Too many requests at once. Wait a moment and try again.'],
};

function sentence(text: string): string {
  let line = text.split('\n')[0].trim();
  if (line.length > 300) line = `${line.slice(0, 297)}…`;
  if (!line) return '';
  line = line[0].toUpperCase() + line.slice(1);
  return /[.!?…)]$/.test(line) ? line : `${line}.`;
}

function looksInternal(text: string): boolean {
  return /\bat .+:\d+:\d+\)?$|^(TypeError|RangeError|ReferenceError|SyntaxError|Error):|undefined|null is not|Cannot read prop/.test(
    text,
  );
}

export function toIpcError(e: unknown, command?: string): IpcError {
  const err = e as { name?: unknown; code?: unknown; status?: unknown; message?: unknown } | null;
  const name = typeof err?.name === 'string' ? err.name : '';
  const code = typeof err?.code === 'string' && /^[A-Za-z0-9_.-]{1,40}$/.test(err.code) ? err.code : null;
  const message = typeof err?.message === 'string' ? err.message : '';

  if (e instanceof AppError) return { code: e.code, message: e.message };
  if (name === 'ProfileInUseError') return { code: 'profile-in-use', message: PLAIN['profile-in-use'] };

  if (name === 'RelayError' && typeof err?.status === 'number') {
    // A code with a sentence of its own says more than what the command's status usually means.
    const specific =
      (code && PLAIN[code] ? [code, PLAIN[code]] : null) || (command && BY_STATUS[command]?.[err.status]);
    if (specific) return { code: specific[0], message: specific[1] };
    // The relay words its refusals for people ("that wallet does not accept group invitations
    // from you"); where it named the reason, say that rather than a generic "not allowed".
    const named = code !== null && (err.status === 403 || err.status === 404);
    if (err.status === 400 || err.status === 409 || named)
      return { code: `relay.${code ?? err.status}`, message: sentence(message) || RELAY_REFUSED };
    const any = BY_STATUS_ANY[err.status];
    if (any) return { code: any[0], message: any[1] };
    return { code: `relay.${err.status}`, message: RELAY_PROBLEM };
  }
  if (name === 'NetworkError' && code && SELF_SIGNED_CODES.includes(code))
    return { code: 'self-signed', message: SELF_SIGNED_MESSAGE };
  if (name === 'NetworkError')
    return code === 'pin-mismatch'
      ? { code, message: PLAIN[code] }
      : { code: 'network', message: NETWORK, ...(message ? { detail: message } : {}) };
  if (name === 'VaultError' || name === 'MessengerError') {
    if (code && PLAIN[code]) return { code, message: PLAIN[code] };
    if (message && !looksInternal(message)) return { code: code ?? 'error', message: sentence(message) };
  }
  // Unexpected: the caller keeps the detail in its log; the person gets something to do.
  return { code: 'internal', message: INTERNAL };
}

function camel(s: string): string {
  return s.replace(/[.-](\w)/g, (_, c: string) => c.toUpperCase());
}

/**
 * Every fixed sentence above with the catalogue id the renderer shows it under, in the person's
 * language (src/renderer/i18n/error-messages.ts; a test keeps the two in step). The English
 * stays the message itself: the CLI prints it, and it is the fallback for any language.
 */
export function plainErrorSentences(): { id: string; message: string }[] {
  const list = [
    ...Object.entries(PLAIN).map(([code, message]) => ({ id: `error.${camel(code)}`, message })),
    ...Object.entries(BY_STATUS).flatMap(([command, byStatus]) =>
      Object.values(byStatus).map(([code, message]) => ({ id: `error.${camel(command)}.${camel(code)}`, message })),
    ),
    ...Object.values(BY_STATUS_ANY).map(([code, message]) => ({ id: `error.${camel(code)}`, message })),
    { id: 'error.network', message: NETWORK },
    { id: 'error.selfSigned', message: SELF_SIGNED_MESSAGE },
    { id: 'error.relayRefused', message: RELAY_REFUSED },
    { id: 'error.relayProblem', message: RELAY_PROBLEM },
    { id: 'error.internal', message: INTERNAL },
    { id: 'error.unknownCommand', message: UNKNOWN_COMMAND },
  ];
  // The same sentence under two commands is one message to translate.
  const seen = new Set<string>();
  return list.filter((e) => !seen.has(e.message) && seen.add(e.message));
}
