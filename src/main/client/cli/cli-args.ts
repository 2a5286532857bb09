/**
 * Argument checks and a send's outcome in one word, shared by the client CLI's command files
 * (cli*.ts). The checks hold arguments to the formats docs/cli.md states (addresses, device keys,
 * conversation ids, how many arguments a command takes) and refuse anything else as bad usage
 * (exit 2) before anything is sent.
 */
import { ADDRESS, CONVERSATION_ID_PATTERN, TYPED_HANDLE } from '../../../shared/identity-patterns.js';
import { parseRecipient } from '../../../shared/recipient.js';
import { parseInviteLink } from '../../../shared/relay-address.js';
import { toChecksumAddress } from '../../vault/signing/wallet.js';
import type { SendOutcome } from '../core/outbox.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import { UsageError } from './cli-support.js';

/** What the relay did with the message, in one word: `blocked` and `stake-required` are not deliveries. */
export function sendState(o: SendOutcome): string {
  if (o.state !== 'sent') return o.state;
  if (o.routed === 'blocked') return 'blocked';
  if (o.routed === 'stake-gate') return 'stake-required';
  return 'sent';
}

/** A send that reached nobody exits 1 (the JSON line above says why); one still queued exits 0. */
export function exitUnlessDelivered(o: SendOutcome): void {
  const state = sendState(o);
  if (state === 'failed' || state === 'blocked' || state === 'stake-required') process.exitCode = 1;
}

/**
 * An address as the CLI takes it, returned lower-case: `0x` and 40 hex digits, all in lower case
 * or exactly in its EIP-55 checksum spelling (as wallets show it). Mixed case is a checksum, and
 * one that does not check out means a mistyped character, so it is refused rather than lower-cased
 * into someone else's address.
 */
export function address(a: string): string {
  if (/^0X/.test(a)) throw new UsageError(`“${a}” is not an address: an address starts with 0x (a lower-case x)`);
  if (!ADDRESS.test(a)) {
    const r = parseRecipient(a);
    throw new UsageError('problem' in r ? r.problem : `“${a}” is not an address (0x + 40 hex digits)`);
  }
  if (a !== a.toLowerCase() && a !== toChecksumAddress(a))
    throw new UsageError(
      `“${a}” mixes upper and lower case, but not as its EIP-55 checksum: a character may be mistyped. ` +
        'Check it, or give the address all in lower case',
    );
  return a.toLowerCase();
}

/** `<0xADDRESS|@handle>`: a well-formed address (as `address` takes it) or a handle, else bad usage. */
export function recipient(a: string): string {
  if (/^0x/i.test(a)) return address(a);
  if (TYPED_HANDLE.test(a)) return a;
  const r = parseRecipient(a);
  throw new UsageError('problem' in r ? r.problem : `“${a}” is neither a handle nor an address`);
}

const CONVERSATION_ID = new RegExp(CONVERSATION_ID_PATTERN);

/** A conversation id as the CLI prints it: `direct:` and a lower-case address, or `group:` and the group's id. */
export function conversationId(id: string): string {
  if (!CONVERSATION_ID.test(id))
    throw new UsageError(`“${id}” is not a conversation id (direct:0x… with the address in lower case, or group:…)`);
  return id;
}

const DEVICE_KEY = /^[0-9a-f]{64}$/;

/** A device key as the wire format writes it and `devices` prints it: 64 lower-case hex digits. */
export function deviceKey(key: string | undefined, usage: string): string {
  if (key === undefined || !DEVICE_KEY.test(key))
    throw new UsageError(`${usage}: a device key is 64 hex digits in lower case, as \`devices\` prints it`);
  return key;
}

export function need(args: string[], n: number, what: string): void {
  if (args.length < n) throw new UsageError(`missing argument: ${what}`);
}

/**
 * The most arguments each command of fixed arity takes (those taking text take any number). One
 * more is refused, not ignored: `revoke-device KEY1 KEY2` would otherwise revoke only KEY1.
 */
const MOST_ARGS: Record<string, number> = {
  whoami: 0,
  handle: 1,
  outbox: 0,
  requests: 0,
  allow: 1,
  block: 1,
  unblock: 1,
  decline: 1,
  accept: 1,
  spam: 1,
  policy: 1,
  conversations: 0,
  messages: 1,
  devices: 0,
  'revoke-device': 1,
  keys: 0,
  'mint-key': 1,
  'revoke-key': 1,
  'safety-number': 1,
  verify: 1,
  stakes: 0,
  invitations: 0,
  sync: 0,
  'save-file': 3,
  'stake config': 0,
  'stake rpc': 1,
  'stake refund': 1,
  'group add': 2,
  'group remove': 2,
  'group accept': 1,
  'group decline': 1,
  'group admin': 2,
  'group unadmin': 2,
  'group join': 1,
  'group leave': 1,
  'group info': 1,
  'group list': 0,
  'group tokens': 1,
  'group revoke-token': 2,
};

export function atMostArgs(command: string, args: readonly string[]): void {
  const most = MOST_ARGS[command];
  if (most !== undefined && args.length > most)
    throw new UsageError(
      `${command} takes ${most === 0 ? 'no arguments' : `at most ${most} argument${most === 1 ? '' : 's'}`}; ` +
        `“${args[most]}” is one too many (quote a value that has spaces)`,
    );
}

/**
 * `init`'s relay: `--relay URL [--fingerprint FP]`, with `--invite` the operator's code or the
 * whole invite link, whose address and pin stand in for the flags left out. Undefined when
 * neither names a relay (the profile keeps the one it has).
 */
export function initRelay(values: {
  relay?: string;
  fingerprint?: string;
  invite?: string;
}): CommandArgs<'relay.connect'> | undefined {
  const link = values.invite ? parseInviteLink(values.invite) : null;
  if (values.invite && !link && /[/#\s]/.test(values.invite))
    throw new UsageError('--invite takes the code or the link the relay printed (…/join#invite=CODE&pin=HEX)');
  const url = values.relay ?? link?.url;
  if (!url) return undefined;
  const fingerprint = values.fingerprint ?? link?.pin ?? undefined;
  const invite = link?.invite ?? values.invite;
  return {
    mode: fingerprint ? 'lan' : 'url',
    url,
    ...(fingerprint ? { fingerprint } : {}),
    ...(invite ? { invite } : {}),
  };
}
