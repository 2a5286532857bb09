/**
 * The headless client: `npm run client -- --profile DIR <command> ...`. QA and bots drive it,
 * so its output is a contract: one JSON value per line on stdout; errors as one JSON line
 * `{ error, code }` on stderr with exit code 1 (2 for bad usage). See USAGE below.
 */
import { parseArgs } from 'node:util';
import type { ConversationId } from '../../shared/domain.js';
import { DEVICE_REVOKED_MESSAGE, Messenger } from './messenger.js';
import { MessengerError } from './messenger-error.js';
import { groupDigits } from './safety-number.js';
import type { AppliedIncoming } from './local-store.js';
import type { CrashPoint } from './sync-engine.js';
import type { SendOutcome } from './outbox.js';
import { isTransient } from './relay-api.js';
import { formatWei } from '../../shared/stake/amount.js';
import { DEFAULT_PASSPHRASE_ENV, UsageError, fail, passphraseFromEnv, printJson, requireProfile } from './cli-support.js';
import { ADDRESS, CONVERSATION_ID_PATTERN } from '../../shared/identity-patterns.js';
import { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS, snippetParts } from '../../shared/message-search.js';
import { changeLine, runMessageChange, shownText } from './cli-message-changes.js';
import { runBackupCommand } from './backup-cli.js';
import { receiveHistory, runHistory } from './cli-history.js';

const PROG = 'client';
const DEFAULT_UNLOCK_TTL_S = 300;
/** a working session at most */
const MAX_UNLOCK_TTL_S = 24 * 60 * 60;

export const USAGE = `usage: npm run client -- --profile DIR [--passphrase-env VAR] [--unlock-ttl SECONDS] <command> [args]
       (or without npm: node bin/client.mjs --profile DIR ...)

  init --relay URL [--handle NAME] [--fingerprint FP] [--mnemonic-env VAR | --private-key-env VAR] [--show-mnemonic]
                                     create (or import) the wallet, sign in → {address, deviceKey, handle}
  whoami                             → {address, deviceKey, handle, relay}
  lock                               forget the remembered unlock now → {locked: true}
  handle <name>                      claim or change the handle
  send <0xADDRESS|@handle> <text> [--request] [--stake [MAX]]
  send <0xADDRESS|@handle> --file PATH [--file PATH …] [text]
                                     up to 10 files of at most 25 MiB, encrypted, with text as the caption
                                     → {messageId, to, state, routed, stakeRequired, stakeCurrency, devices:[…]}
                                     state: sent | queued (offline; \`outbox\` sends it) | failed | blocked | stake-required;
                                     exit 1 when nothing was delivered (failed, blocked, stake-required)
                                     --stake: when they ask for a stake (at most MAX, if given), deposit it from this
                                     wallet and send with it → also {stake:{id, amountWei, deadline, …}}
  stakes [--sent|--received]         stakes sent and received, with status (and refundable: true once it can come back)
  stake config                       the relay's chain, the RPC URL used, this wallet's balance there
  stake rpc <URL|relay>              use this RPC URL for the relay's chain (relay: the relay's own again)
  stake refund <id>                  take a sent stake back: accepted by them, or past its deadline
  accept <address>                   accept a contact request; a staked one's stake goes back to its sender
  spam <address>                     a staked request is spam: keep its stake (a transaction; needs gas), block them
  sync [--json] [--follow]           pull until empty; one line per new message
                                     {id, from, groupId, routed, kind, text, sentAt, via[, files]}, with expiresIn
                                     (seconds) when it disappears, timer (seconds, 0 = off) on a timer notice, and one per
                                     message an edit or delete changed {id, conversationId, from, edited, text, editedAt |
                                     deleted}. A message with files is printed once they are fetched and checked: files:
                                     [{name, mime, size, path}] (path: kept encrypted in the profile; a refused one has
                                     error instead)
  save-file <messageId> <index> <PATH>
                                     write a received file's plaintext to PATH → {saved: PATH}
  edit <conversation> <message-id> <text>            edit one of my messages (everywhere) → {…, edited, sent}
  delete <conversation> <message-id>                 delete one of my messages for everyone → {…, deleted, sent}
  timer <conversation> <off|5m|1h|1d|1w>             disappearing messages in that conversation (any N s|m|h|d|w
                                                     from 30s to 4w too) → {conversationId, timerSeconds, sent}
                                     <conversation>: direct:0x… | group:ID | 0xADDRESS | @handle
                                     --follow: keep running (held pulls: each message printed as one JSON
                                     line the moment it is stored; history from another device
                                     is imported as it comes) until Ctrl-C / SIGTERM
  outbox                             send what is queued → one line per message
  requests                           pending contact requests (syncs first; offline, says so and shows the last synced)
  allow <address> | block <address> | unblock <address> | decline <address>
  policy <request|stake-gate|block> [--stake X]
  conversations | messages <conversationId> [--limit N]    (conversations syncs first, like requests)
  search <query> [--conversation ID] [--limit N]
                                     messages stored on this device with every word of the query (word prefixes),
                                     newest first → [{id, conversationId, from, fromMe, sentAt, snippet, matches}]
                                     (local: sync first for what is still on the relay)
  directory <query>
  devices | revoke-device <publicKey>
  history send <deviceKey>           send this device's history (conversations, messages, contacts, groups, settings,
                                     files), sealed to that new device of this wallet → {history: "sent", deviceKey, size,
                                     blobs}; progress as JSON lines on stderr
  history receive                    sync, then import history another device of this wallet sent here (every sync does
                                     too) → {history: "received", fromDevice, conversations, messages} | {history:
                                     "refused", fromDevice, reason} (exit 1; nothing imported) | {history: "none"}
  safety-number <address|@handle>    → {address, safetyNumber: "12345 …" (12 groups of 5), verified, changed, myDevices, theirDevices}
                                     compare it with theirs; changed: their devices changed since you verified them
  verify <address|@handle> [--off]   mark them verified against their current devices (--off: take the mark away;
                                     either lets messages go to them again after a change)
  keys | mint-key <label> | revoke-key <id>
  backup --out FILE --backup-passphrase-env VAR      write an encrypted backup of this profile's history (never the
                                                     wallet key) → {savedTo, bytes, conversations, messages, files}
  restore --in FILE --backup-passphrase-env VAR      restore one into this profile (same wallet, no conversations yet:
                                                     right after init) → {conversations, messages, files}
                                     --backup-passphrase-env names the backup file's passphrase (at least 8
                                     characters); the profile's own comes, as everywhere, from --passphrase-env. Progress: JSON lines on stderr
  group create <name> [--public] [--password P]      → {id, …}
  group add <id> <address|@handle>                   → {…, added: member|invited}; invited until they accept
  group remove <id> <address>                        remove a member or withdraw an invitation
  invitations                                        group invitations waiting for my answer
  group accept <id> | group decline <id> [--block]   answer one (--block also blocks the inviter)
  group admin <id> <address> | group unadmin <id> <address>
                                                     creator only: admins add/remove members, edit, mint bot tokens
  group join <id> [--password P] | group leave <id> | group info <id> | group list [--public]
  group send <id> <text> | group send <id> --file PATH [--file PATH …] [text]
  group token <id> <name>                            → {token, botToken}
  group tokens <id> | group revoke-token <id> <tokenId>

The profile's passphrase comes from the environment variable named by --passphrase-env
(default ${DEFAULT_PASSPHRASE_ENV}) in every command, backup and restore included; unset means an
empty passphrase (still encrypted). A backup file's own passphrase is named by --backup-passphrase-env.
An unlock is remembered for --unlock-ttl seconds (default ${DEFAULT_UNLOCK_TTL_S}; 0 = never, and forget it)
after the last command, so that commands in a row skip the passphrase's key derivation.
`;


const CRASH_POINTS: readonly CrashPoint[] = ['before-commit', 'after-commit', 'after-print', 'after-ack'];

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseCli(argv);
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (!values.profile) throw new UsageError('--profile DIR is required');
  const [command, ...args] = positionals;
  if (!command) throw new UsageError('a command is required');

  const unlockTtlS = values['unlock-ttl'] === undefined ? DEFAULT_UNLOCK_TTL_S : nonNegativeInt(values['unlock-ttl'], '--unlock-ttl', MAX_UNLOCK_TTL_S);
  const crash = process.env.RELAY_CLIENT_TEST_CRASH as CrashPoint | undefined;
  const pullLimit = values.limit !== undefined && command === 'sync' ? positiveInt(values.limit, '--limit') : undefined;
  requireProfile(values.profile, command);
  const messenger = await Messenger.open({
    profileDir: values.profile,
    shell: 'web',
    autoSync: false,
    crashAt: crash && CRASH_POINTS.includes(crash) ? crash : null,
    pullLimit,
  });
  try {
    // the profile's, in every command (backup and restore name their file's with --backup-passphrase-env)
    const passphrase = passphraseFromEnv(values['passphrase-env'], PROG);
    if (command === 'init') {
      await init(messenger, passphrase, values, args);
      return;
    }
    if (command === 'lock') {
      if (args.length > 0) throw new UsageError('lock takes no arguments');
      await messenger.lock();
      printJson({ locked: true });
      return;
    }
    await openProfile(messenger, passphrase, unlockTtlS * 1000);
    await run(messenger, command, args, values);
  } finally {
    await messenger.close();
  }
}

type Values = ReturnType<typeof parseCli>['values'];

/** `--stake` takes an optional value on `send` (the most to pay); alone it means whatever they ask. */
function withStakeValue(argv: string[]): string[] {
  return argv.flatMap((a, i) => (a === '--stake' && (i === argv.length - 1 || argv[i + 1].startsWith('--')) ? ['--stake', ANY_STAKE] : [a]));
}
const ANY_STAKE = 'any';

function parseCli(argv: string[]) {
  try {
    return parseArgs({
      args: withStakeValue(argv),
      allowPositionals: true,
      strict: true,
      options: {
        profile: { type: 'string' },
        'passphrase-env': { type: 'string' },
        'backup-passphrase-env': { type: 'string' },
        'unlock-ttl': { type: 'string' },
        relay: { type: 'string' },
        handle: { type: 'string' },
        fingerprint: { type: 'string' },
        'mnemonic-env': { type: 'string' },
        'private-key-env': { type: 'string' },
        'show-mnemonic': { type: 'boolean' },
        request: { type: 'boolean' },
        json: { type: 'boolean' },
        follow: { type: 'boolean' },
        public: { type: 'boolean' },
        block: { type: 'boolean' },
        password: { type: 'string' },
        stake: { type: 'string' },
        sent: { type: 'boolean' },
        received: { type: 'boolean' },
        limit: { type: 'string' },
        off: { type: 'boolean' },
        conversation: { type: 'string' },
        file: { type: 'string', multiple: true },
        out: { type: 'string' },
        in: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

async function init(m: Messenger, passphrase: string, values: Values, args: string[]): Promise<void> {
  if (args.length > 0) throw new UsageError(`init takes no positional arguments (got "${args[0]}")`);
  const st = await m.vault.status();
  let mnemonic: string | undefined;
  if (st.hasWallet) {
    if (values['mnemonic-env'] || values['private-key-env']) throw new MessengerError('bad-argument', 'this profile already has a wallet');
    await m.unlock({ passphrase });
  } else if (values['mnemonic-env']) {
    const words = process.env[values['mnemonic-env']];
    if (!words) throw new UsageError(`${values['mnemonic-env']} is empty`);
    await m.importMnemonic({ mnemonic: words, passphrase });
  } else if (values['private-key-env']) {
    const key = process.env[values['private-key-env']];
    if (!key) throw new UsageError(`${values['private-key-env']} is empty`);
    await m.importPrivateKey({ privateKey: key, passphrase });
  } else {
    mnemonic = (await m.createWallet({ passphrase })).mnemonic;
  }
  if (values.relay) {
    await m.connectRelay({ mode: values.fingerprint ? 'lan' : 'url', url: values.relay, ...(values.fingerprint ? { fingerprint: values.fingerprint } : {}) });
  } else if (!(await m.appStatus()).relay.url) {
    throw new UsageError('init needs --relay URL');
  }
  if (values.handle) await m.claimHandle({ handle: values.handle });
  const who = m.whoami()!;
  printJson({ address: who.address, deviceKey: who.deviceKey, handle: who.handle, ...(values['show-mnemonic'] && mnemonic ? { mnemonic } : {}) });
}

async function openProfile(m: Messenger, passphrase: string, rememberMs: number): Promise<void> {
  const st = await m.vault.status();
  if (!st.hasWallet) throw new MessengerError('no-wallet', 'this profile has no wallet; run init first');
  const status = await m.unlock({ passphrase }, { rememberMs });
  if (status.relay.revoked) throw new MessengerError('device-revoked', DEVICE_REVOKED_MESSAGE);
  if (!status.ready) throw new MessengerError('not-signed-in', `not signed in to the relay${status.relay.lastError ? `: ${status.relay.lastError}` : ''}`);
}

function need(args: string[], n: number, what: string): void {
  if (args.length < n) throw new UsageError(`missing argument: ${what}`);
}

function nonNegativeInt(v: string, name: string, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max) throw new UsageError(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

/** Search hits with the snippet as plain text beside the words it matched (no control characters in the JSON). */
function searchHits(m: Messenger, query: string, values: Values) {
  if (query.length > SEARCH_QUERY_MAX_CHARS) throw new UsageError(`the query is longer than ${SEARCH_QUERY_MAX_CHARS} characters`);
  const limit = values.limit === undefined ? undefined : Math.min(positiveInt(values.limit, '--limit'), SEARCH_MAX_LIMIT);
  return m.searchMessages({ query, ...(values.conversation ? { conversationId: values.conversation } : {}), ...(limit ? { limit } : {}) }).map((h) => {
    const parts = snippetParts(h.snippet);
    return {
      id: h.messageId,
      conversationId: h.conversationId,
      from: h.from,
      fromMe: h.fromMe,
      sentAt: h.sentAt,
      snippet: parts.map((p) => p.text).join(''),
      matches: parts.filter((p) => p.match).map((p) => p.text),
    };
  });
}

function positiveInt(v: string, name: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a positive integer`);
  return n;
}

async function run(m: Messenger, command: string, args: string[], values: Values): Promise<void> {
  switch (command) {
    case 'whoami': {
      const st = await m.appStatus();
      printJson({ address: st.address, deviceKey: st.deviceKey, handle: st.handle, relay: st.relay.url });
      return;
    }
    case 'handle': {
      need(args, 1, '<name>');
      const st = await m.claimHandle({ handle: args[0] });
      printJson({ address: st.address, handle: st.handle });
      return;
    }
    case 'send': {
      const files = values.file ?? [];
      need(args, files.length > 0 ? 1 : 2, files.length > 0 ? '<0xADDRESS|@handle>' : '<0xADDRESS|@handle> <text>');
      if (files.length > 0 && (values.request || values.stake !== undefined)) throw new UsageError('--file goes with neither --request nor --stake');
      const to = await m.resolveRecipient(args[0]);
      const max = values.stake === undefined ? null : values.stake === ANY_STAKE ? 'any' : stakeAmount(values.stake);
      const text = args.slice(1).join(' ');
      const { outcome } = files.length > 0 ? await m.sendFiles(`direct:${to}`, files, text) : await m.sendAndWait(`direct:${to}`, text, values.request === true);
      if (max !== null && outcome.routed === 'stake-gate' && outcome.stakeQuote) {
        const asked = BigInt(outcome.stakeQuote.amountWei);
        if (max !== 'any' && asked > max) throw new MessengerError('bad-argument', `they ask for ${formatWei(asked)} ${outcome.stakeCurrency ?? ''}, more than --stake ${values.stake}; nothing was paid`);
        const paid = await m.stakes.pay(outcome.messageId);
        printJson({ messageId: outcome.messageId, to, state: 'sent', routed: paid.message.routed, stake: paid.stake });
        return;
      }
      printJson({
        messageId: outcome.messageId,
        to,
        state: sendState(outcome),
        routed: outcome.routed,
        stakeRequired: outcome.stakeRequired,
        stakeCurrency: outcome.stakeCurrency,
        error: outcome.error,
        devices: outcome.deliveries,
      });
      exitUnlessDelivered(outcome);
      return;
    }
    case 'edit':
    case 'delete':
    case 'timer':
      await runMessageChange(m, command, args);
      return;
    case 'sync':
      await sync(m, values.json === true || values.follow === true, values.follow === true);
      return;
    case 'backup':
    case 'restore':
      await runBackupCommand(m, command, args, values);
      return;
    case 'history':
      await runHistory(m, args);
      return;
    case 'save-file': {
      need(args, 3, '<messageId> <index> <PATH>');
      await m.attachments.exportFile(args[0].toLowerCase(), nonNegativeInt(args[1], 'index', 9), args[2]);
      printJson({ saved: args[2] });
      return;
    }
    case 'outbox': {
      for (const o of await m.flushOutbox(true)) printJson(o);
      return;
    }
    case 'requests':
      await syncFirst(m);
      printJson(m.listRequests());
      return;
    case 'allow':
      need(args, 1, '<address>');
      await m.allow(address(args[0]));
      printJson({ ok: true, allowed: address(args[0]) });
      return;
    case 'block':
      need(args, 1, '<address>');
      await m.block({ address: address(args[0]) });
      printJson({ ok: true, blocked: address(args[0]) });
      return;
    case 'unblock':
      need(args, 1, '<address>');
      await m.unblock({ address: address(args[0]) });
      printJson({ ok: true, unblocked: address(args[0]) });
      return;
    case 'decline': {
      const who = await pendingRequestFrom(m, args);
      await m.declineRequest({ address: who });
      printJson({ ok: true, declined: who });
      return;
    }
    case 'policy': {
      need(args, 1, '<request|stake-gate|block>');
      const p = args[0];
      if (p !== 'request' && p !== 'stake-gate' && p !== 'block') throw new UsageError('policy must be request, stake-gate or block');
      if (values.stake !== undefined && p !== 'stake-gate') throw new UsageError('--stake applies to stake-gate only');
      printJson(await m.setPolicy({ unknownSenders: p, ...(values.stake !== undefined ? { stake: values.stake } : {}) }));
      return;
    }
    case 'conversations':
      await syncFirst(m);
      printJson(m.listConversations());
      return;
    case 'messages':
      need(args, 1, '<conversationId>');
      printJson(m.listMessages({ conversationId: args[0], ...(values.limit ? { limit: positiveInt(values.limit, '--limit') } : {}) }));
      return;
    case 'directory':
      printJson(await m.searchDirectory({ q: args.join(' ') }));
      return;
    case 'search':
      need(args, 1, '<query>');
      if (values.conversation !== undefined && !new RegExp(CONVERSATION_ID_PATTERN).test(values.conversation)) throw new UsageError('--conversation must be a conversation id (direct:0x… or group:…)');
      printJson(searchHits(m, args.join(' '), values));
      return;
    case 'devices':
      printJson(await m.listDevices());
      return;
    case 'safety-number':
    case 'verify': {
      need(args, 1, '<address|@handle>');
      const who = await m.resolveRecipient(args[0]);
      const info = command === 'verify' ? await m.trust.verify(who, values.off !== true) : await m.trust.safetyNumber(who);
      printJson({ address: info.address, safetyNumber: groupDigits(info.digits), verified: info.verified, verifiedAt: info.verifiedAt, changed: info.changed, myDevices: info.myDevices, theirDevices: info.theirDevices });
      return;
    }
    case 'revoke-device':
      need(args, 1, '<publicKey>');
      await m.revokeDevice({ publicKey: args[0].toLowerCase() });
      printJson({ ok: true });
      return;
    case 'keys':
      printJson(await m.listApiKeys());
      return;
    case 'mint-key':
      need(args, 1, '<label>');
      printJson(await m.mintApiKey({ label: args[0] }));
      return;
    case 'revoke-key':
      need(args, 1, '<id>');
      await m.revokeApiKey({ id: args[0] });
      printJson({ ok: true });
      return;
    case 'group':
      await group(m, args, values);
      return;
    case 'stakes':
      if (values.sent && values.received) throw new UsageError('--sent or --received, not both');
      printJson(await m.stakes.list(values.sent ? 'sent' : values.received ? 'received' : undefined));
      return;
    case 'stake':
      await stake(m, args);
      return;
    case 'accept': {
      const who = await pendingRequestFrom(m, args);
      await m.acceptRequest({ address: who });
      const staked = (await m.stakes.settings()).enabled ? (await m.stakes.list('received')).find((x) => x.peer === who && x.released) ?? null : null;
      printJson({ ok: true, accepted: who, stake: staked });
      return;
    }
    case 'spam': {
      need(args, 1, '<address>');
      const who = address(args[0]);
      const forfeited = await m.stakes.forfeitFrom(who);
      await m.block({ address: who });
      printJson({ ok: true, blocked: who, stake: forfeited });
      return;
    }
    case 'invitations':
      printJson(await m.listInvitations());
      return;
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

/** `<address>` of a pending contact request (synced first), or not-found. */
async function pendingRequestFrom(m: Messenger, args: string[]): Promise<string> {
  need(args, 1, '<address>');
  await syncFirst(m);
  const who = address(args[0]);
  if (!m.listRequests().some((r) => r.address === who)) throw new MessengerError('not-found', `there is no contact request from ${who}`);
  return who;
}

async function stake(m: Messenger, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'config':
      printJson(await m.stakes.settings());
      return;
    case 'rpc': {
      need(rest, 1, '<URL|relay>');
      const { chainId } = await m.stakes.settings();
      if (chainId === null) throw new MessengerError('stakes-unavailable', 'this relay takes no stakes (it names no chain)');
      printJson(await m.stakes.setRpcUrl(chainId, rest[0] === 'relay' ? null : rest[0]));
      return;
    }
    case 'refund':
      need(rest, 1, '<id>');
      if (!/^0x[0-9a-fA-F]{64}$/.test(rest[0])) throw new UsageError('a stake id is 0x + 64 hex (see `stakes`)');
      printJson(await m.stakes.refund(rest[0]));
      return;
    default:
      throw new UsageError('stake config | stake rpc <URL|relay> | stake refund <id>');
  }
}

/** `--stake 0.01`: wei of a decimal amount (18 decimals). */
function stakeAmount(v: string): bigint {
  const m = /^(\d{1,12})(?:\.(\d{1,18}))?$/.exec(v);
  if (!m) throw new UsageError('--stake takes a decimal amount such as 0.01 (or nothing: pay what they ask)');
  return BigInt(m[1]) * 10n ** 18n + BigInt((m[2] ?? '').padEnd(18, '0'));
}

/** What the relay did with the message, in one word: `blocked` and `stake-required` are not deliveries. */
function sendState(o: SendOutcome): string {
  if (o.state !== 'sent') return o.state;
  if (o.routed === 'blocked') return 'blocked';
  if (o.routed === 'stake-gate') return 'stake-required';
  return 'sent';
}

/** A send that reached nobody exits 1 (the JSON line above says why); one still queued exits 0. */
function exitUnlessDelivered(o: SendOutcome): void {
  const state = sendState(o);
  if (state === 'failed' || state === 'blocked' || state === 'stake-required') process.exitCode = 1;
}

/**
 * Lists answer from what is on this computer: pull first so they are current. Offline, say
 * so on stderr and answer from what was synced before.
 */
async function syncFirst(m: Messenger): Promise<void> {
  try {
    const res = await m.syncPass();
    if (res.deferred > 0) process.stderr.write(`${JSON.stringify({ deferred: res.deferred, note: 'more is waiting on the relay; run sync' })}\n`);
  } catch (e) {
    if (!isTransient(e)) throw e;
    process.stderr.write(`${JSON.stringify({ note: `offline: showing what was synced before (${(e as Error).message})` })}\n`);
  }
}

function address(a: string): string {
  if (!ADDRESS.test(a)) throw new UsageError(`"${a}" is not an address (0x + 40 hex)`);
  return a.toLowerCase();
}

function groupId(id: string | undefined): string {
  if (!id || !/^[0-9a-fA-F-]{36}$/.test(id)) throw new UsageError('a group id (uuid) is required');
  return id.toLowerCase();
}

async function group(m: Messenger, args: string[], values: Values): Promise<void> {
  const [sub, ...rest] = args;
  switch (sub) {
    case 'create': {
      need(rest, 1, '<name>');
      printJson(await m.createGroup({ name: rest.join(' '), isPublic: values.public === true, ...(values.password ? { password: values.password } : {}) }));
      return;
    }
    case 'add':
      need(rest, 2, '<id> <address|@handle>');
      printJson(await m.addMember({ groupId: groupId(rest[0]), member: rest[1] }));
      return;
    case 'remove':
      need(rest, 2, '<id> <address>');
      printJson(await m.removeMember({ groupId: groupId(rest[0]), address: address(rest[1]) }));
      return;
    case 'accept':
      printJson(await m.acceptInvitation({ groupId: groupId(rest[0]) }));
      return;
    case 'decline':
      await m.declineInvitation({ groupId: groupId(rest[0]), blockInviter: values.block === true });
      printJson({ ok: true, declined: groupId(rest[0]), blocked: values.block === true });
      return;
    case 'admin':
    case 'unadmin':
      need(rest, 2, '<id> <address>');
      printJson(await m.setAdmin({ groupId: groupId(rest[0]), address: address(rest[1]) }, sub === 'admin'));
      return;
    case 'join':
      printJson(await m.joinGroup({ groupId: groupId(rest[0]), ...(values.password !== undefined ? { password: values.password } : {}) }));
      return;
    case 'leave':
      await m.leaveGroup({ groupId: groupId(rest[0]) });
      printJson({ ok: true });
      return;
    case 'info':
      printJson(await m.getGroup({ groupId: groupId(rest[0]) }));
      return;
    case 'list':
      printJson(values.public ? await m.listPublicGroups() : await m.listMyGroups());
      return;
    case 'send': {
      const files = values.file ?? [];
      need(rest, files.length > 0 ? 1 : 2, files.length > 0 ? '<id>' : '<id> <text>');
      const id = groupId(rest[0]);
      const text = rest.slice(1).join(' ');
      const { outcome } = files.length > 0 ? await m.sendFiles(`group:${id}` as ConversationId, files, text) : await m.sendAndWait(`group:${id}` as ConversationId, text);
      printJson({ messageId: outcome.messageId, groupId: id, state: sendState(outcome), routed: outcome.routed, error: outcome.error, devices: outcome.deliveries });
      exitUnlessDelivered(outcome);
      return;
    }
    case 'token':
      need(rest, 2, '<id> <name>');
      printJson(await m.mintBotToken({ groupId: groupId(rest[0]), name: rest.slice(1).join(' ') }));
      return;
    case 'tokens':
      printJson(await m.listBotTokens({ groupId: groupId(rest[0]) }));
      return;
    case 'revoke-token':
      need(rest, 2, '<id> <tokenId>');
      await m.revokeBotToken({ groupId: groupId(rest[0]), tokenId: rest[1].toLowerCase() });
      printJson({ ok: true });
      return;
    default:
      throw new UsageError(`unknown group command "${sub ?? ''}"`);
  }
}

/**
 * Pulls until the inbox is empty. Lines are printed after the local commit and before the
 * ack, and each is marked printed right after it is written, so a crash at any point neither
 * loses a message nor prints one twice (barring a crash inside that one write-and-mark).
 */
async function sync(m: Messenger, json: boolean, follow: boolean): Promise<void> {
  // A message with files is printed once they are saved (or refused), so its line names where they are.
  m.autoFetchFiles = false;
  const print = (): void => {
    for (const msg of m.store.unshownMessages()) {
      if (m.attachments.hasPending(msg.id)) continue;
      const groupId = msg.conversationId.startsWith('group:') ? msg.conversationId.slice(6) : null;
      const files = m.attachments.filesOf(msg.id).map((f) => ({ name: f.name, mime: f.mime, size: f.size, path: f.path, ...(f.state === 'refused' ? { error: f.error } : {}) }));
      if (json) {
        printJson({
          id: msg.id, from: msg.from, groupId, routed: msg.routed, kind: msg.kind, text: msg.text, sentAt: msg.sentAt, via: msg.via, botName: msg.botName,
          ...(msg.expiresIn !== null ? { expiresIn: msg.expiresIn } : {}), ...(msg.timerSeconds !== null ? { timer: msg.timerSeconds } : {}), ...(msg.editedAt ? { editedAt: msg.editedAt } : {}), ...(msg.deleted ? { deleted: true } : {}),
          ...(files.length > 0 ? { files } : {}),
        });
      } else {
        const attached = files.map((f) => ` [${f.name}, ${f.size} bytes${f.path ? ` at ${f.path}` : `: ${f.error ?? 'not fetched'}`}]`).join('');
        process.stdout.write(`${msg.sentAt} ${msg.from}${groupId ? ` in ${groupId}` : ''}${msg.routed === 'request' ? ' (request)' : ''}: ${shownText(msg)}${attached}\n`);
      }
      m.store.markShown(msg.seq);
    }
  };
  const printChanged = (applied: AppliedIncoming): void => {
    for (const msg of applied.changed) {
      if (json) printJson(changeLine(msg));
      else process.stdout.write(`${msg.id} ${msg.deleted ? 'deleted' : `edited: ${msg.text}`}\n`);
    }
  };
  const fetchThenPrint = async (): Promise<void> => {
    await m.attachments.fetchPending();
    print();
  };
  // lines a previous run committed but did not get to print
  print();
  m.committedHook = (applied: AppliedIncoming) => {
    print();
    printChanged(applied);
  };
  const off = m.on('message.rejected', (r) => process.stderr.write(`${JSON.stringify({ rejected: r.envelopeId, claimedSender: r.claimedSender, reason: r.reason })}\n`));
  if (follow) {
    // files are fetched as each message arrives
    const offFiles = m.on('message.new', () => void fetchThenPrint().catch((e: unknown) => process.stderr.write(`${JSON.stringify({ files: 'not fetched', error: (e as Error).message })}\n`)));
    // history sent from another device of the wallet is imported as it arrives, one after another,
    // its outcome printed as a line like `sync` prints it
    let importing: Promise<unknown> = Promise.resolve();
    const importHistory = () => {
      if (!m.history.hasPending()) return;
      importing = importing.then(() => receiveHistory(m)).catch((e: unknown) => process.stderr.write(`${JSON.stringify({ history: 'not imported', error: (e as Error).message })}\n`));
    };
    const hooked = m.committedHook;
    m.committedHook = async (applied: AppliedIncoming) => {
      await hooked?.(applied);
      importHistory();
    };
    importHistory();
    // the background loop holds a pull open; the profile closes (cancelling it) in main's finally
    const stopped = new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    // the loop's timers and sockets are unref'd (they must not hold a closing app open): this holds the process
    const alive = setInterval(() => undefined, 1 << 30);
    m.follow();
    process.stderr.write(`${JSON.stringify({ following: true, note: 'each message is printed as it arrives; Ctrl-C ends' })}\n`);
    const signal = await stopped;
    await importing;
    clearInterval(alive);
    off();
    offFiles();
    process.stderr.write(`${JSON.stringify({ following: false, signal })}\n`);
    return;
  }
  const res = await m.syncPass().finally(off);
  // then the files of what it stored (and of earlier runs' messages still waiting for theirs)
  await fetchThenPrint();
  await receiveHistory(m);
  if (res.deferred > 0) process.stderr.write(`${JSON.stringify({ deferred: res.deferred, note: 'left on the relay for the next sync' })}\n`);
}

main(process.argv.slice(2)).catch((e: unknown) => fail(PROG, e, USAGE));
