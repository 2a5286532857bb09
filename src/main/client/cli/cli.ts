/**
 * The headless client: `npm run client -- --profile DIR <command> ...`. QA and bots drive it,
 * so its output is a contract: one JSON value per line on stdout; errors as one JSON line
 * `{ error, code }` on stderr with exit code 1 (2 for bad usage). See USAGE (cli-usage.ts).
 */
import { parseArgs } from 'node:util';
import { DEVICE_REVOKED_MESSAGE, Messenger } from '../core/messenger.js';
import { MessengerError } from '../core/messenger-error.js';
import { groupDigits } from '../trust/safety-number.js';
import type { CrashPoint } from '../core/sync-pass.js';
import { isTransient } from '../network/relay-api.js';
import { formatWei } from '../../../shared/stake/amount.js';
import { UsageError, fail, passphraseFromEnv, printJson, requireProfile } from './cli-support.js';
import { CONVERSATION_ID_PATTERN } from '../../../shared/identity-patterns.js';
import { SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX_CHARS, snippetParts } from '../../../shared/message-search.js';
import { runMessageChange } from './cli-message-changes.js';
import { runBackupCommand } from './backup-cli.js';
import { runHistory } from './cli-history.js';
import {
  address,
  atMostArgs,
  conversationId,
  deviceKey,
  exitUnlessDelivered,
  need,
  recipient,
  sendState,
  initRelay,
} from './cli-args.js';
import { group } from './cli-groups.js';
import { sync } from './cli-sync.js';
import { DEFAULT_UNLOCK_TTL_S, USAGE } from './cli-usage.js';

const PROG = 'client';
/** a working session at most */
const MAX_UNLOCK_TTL_S = 24 * 60 * 60;

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

  const unlockTtlS =
    values['unlock-ttl'] === undefined
      ? DEFAULT_UNLOCK_TTL_S
      : nonNegativeInt(values['unlock-ttl'], '--unlock-ttl', MAX_UNLOCK_TTL_S);
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
  // delivered receipts from `sync --follow` only (docs/cli.md, Live delivery, receipts and typing)
  messenger.conversations.deliveredReceipts = command === 'sync' && values.follow === true;
  try {
    // the profile's, in every command (backup and restore name their file's with --backup-passphrase-env)
    const passphrase = passphraseFromEnv(values['passphrase-env'], PROG);
    if (command === 'init') {
      await init(messenger, passphrase, values, args);
      return;
    }
    if (command === 'lock') {
      if (args.length > 0) throw new UsageError('lock takes no arguments');
      await messenger.wallet.lock();
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
  return argv.flatMap((a, i) =>
    a === '--stake' && (i === argv.length - 1 || argv[i + 1].startsWith('--')) ? ['--stake', ANY_STAKE] : [a],
  );
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
        invite: { type: 'string' },
        'mnemonic-env': { type: 'string' },
        'private-key-env': { type: 'string' },
        'show-mnemonic': { type: 'boolean' },
        request: { type: 'boolean' },
        json: { type: 'boolean' },
        follow: { type: 'boolean' },
        public: { type: 'boolean' },
        block: { type: 'boolean' },
        password: { type: 'string' },
        'password-env': { type: 'string' },
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
    if (values['mnemonic-env'] || values['private-key-env'])
      throw new MessengerError('bad-argument', 'this profile already has a wallet');
    await m.wallet.unlock({ passphrase });
  } else if (values['mnemonic-env']) {
    const words = process.env[values['mnemonic-env']];
    if (!words) throw new UsageError(`${values['mnemonic-env']} is empty`);
    await m.wallet.importMnemonic({ mnemonic: words, passphrase });
  } else if (values['private-key-env']) {
    const key = process.env[values['private-key-env']];
    if (!key) throw new UsageError(`${values['private-key-env']} is empty`);
    await m.wallet.importPrivateKey({ privateKey: key, passphrase });
  } else {
    mnemonic = (await m.wallet.create({ passphrase })).mnemonic;
  }
  const relay = initRelay(values);
  if (relay) {
    await m.connectRelay(relay);
  } else if (!(await m.appStatus()).relay.url) {
    throw new UsageError('init needs --relay URL');
  }
  if (values.handle) await m.claimHandle({ handle: values.handle });
  const who = m.whoami()!;
  printJson({
    address: who.address,
    deviceKey: who.deviceKey,
    handle: who.handle,
    ...(values['show-mnemonic'] && mnemonic ? { mnemonic } : {}),
  });
}

async function openProfile(m: Messenger, passphrase: string, rememberMs: number): Promise<void> {
  const st = await m.vault.status();
  if (!st.hasWallet) throw new MessengerError('no-wallet', 'this profile has no wallet; run init first');
  const status = await m.wallet.unlock({ passphrase }, { rememberMs });
  if (status.relay.revoked) throw new MessengerError('device-revoked', DEVICE_REVOKED_MESSAGE);
  if (!status.ready)
    throw new MessengerError(
      'not-signed-in',
      `not signed in to the relay${status.relay.lastError ? `: ${status.relay.lastError}` : ''}`,
    );
}

function nonNegativeInt(v: string, name: string, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > max) throw new UsageError(`${name} must be a whole number from 0 to ${max}`);
  return n;
}

/** Search hits with the snippet as plain text beside the words it matched (no control characters in the JSON). */
function searchHits(m: Messenger, query: string, values: Values) {
  if (query.length > SEARCH_QUERY_MAX_CHARS)
    throw new UsageError(`the query is longer than ${SEARCH_QUERY_MAX_CHARS} characters`);
  const limit =
    values.limit === undefined ? undefined : Math.min(positiveInt(values.limit, '--limit'), SEARCH_MAX_LIMIT);
  return m.messages
    .search({
      query,
      ...(values.conversation ? { conversationId: values.conversation } : {}),
      ...(limit ? { limit } : {}),
    })
    .map((h) => {
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
  atMostArgs(command, args);
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
      if (files.length > 0 && (values.request || values.stake !== undefined))
        throw new UsageError('--file goes with neither --request nor --stake');
      const to = await m.contacts.resolveRecipient(recipient(args[0]));
      const max = values.stake === undefined ? null : values.stake === ANY_STAKE ? 'any' : stakeAmount(values.stake);
      const text = args.slice(1).join(' ');
      const { outcome } =
        files.length > 0
          ? await m.messages.sendFiles(`direct:${to}`, files, text)
          : await m.messages.sendAndWait(`direct:${to}`, text, values.request === true);
      if (max !== null && outcome.routed === 'stake-gate' && outcome.stakeQuote) {
        const asked = BigInt(outcome.stakeQuote.amountWei);
        if (max !== 'any' && asked > max)
          throw new MessengerError(
            'bad-argument',
            `they ask for ${formatWei(asked)} ${outcome.stakeCurrency ?? ''}, more than --stake ${values.stake}; nothing was paid`,
          );
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
      for (const o of await m.messages.flushOutbox(true)) printJson(o);
      return;
    }
    case 'requests':
      await syncFirst(m);
      printJson(m.contacts.listRequests());
      return;
    case 'allow':
      need(args, 1, '<address>');
      await m.contacts.allow(address(args[0]));
      printJson({ ok: true, allowed: address(args[0]) });
      return;
    case 'block':
      need(args, 1, '<address>');
      await m.contacts.block({ address: address(args[0]) });
      printJson({ ok: true, blocked: address(args[0]) });
      return;
    case 'unblock':
      need(args, 1, '<address>');
      await m.contacts.unblock({ address: address(args[0]) });
      printJson({ ok: true, unblocked: address(args[0]) });
      return;
    case 'decline': {
      const who = await pendingRequestFrom(m, args);
      await m.contacts.declineRequest({ address: who });
      printJson({ ok: true, declined: who });
      return;
    }
    case 'policy': {
      need(args, 1, '<request|stake-gate|block>');
      const p = args[0];
      if (p !== 'request' && p !== 'stake-gate' && p !== 'block')
        throw new UsageError('policy must be request, stake-gate or block');
      if (values.stake !== undefined && p !== 'stake-gate') throw new UsageError('--stake applies to stake-gate only');
      printJson(
        await m.account.setPolicy({
          unknownSenders: p,
          ...(values.stake !== undefined ? { stake: values.stake } : {}),
        }),
      );
      return;
    }
    case 'conversations':
      await syncFirst(m);
      printJson(m.conversations.list());
      return;
    case 'messages':
      need(args, 1, '<conversationId>');
      printJson(
        m.messages.listMessages({
          conversationId: conversationId(args[0]),
          ...(values.limit ? { limit: positiveInt(values.limit, '--limit') } : {}),
        }),
      );
      return;
    case 'directory':
      printJson(await m.contacts.searchDirectory({ q: args.join(' ') }));
      return;
    case 'search':
      need(args, 1, '<query>');
      if (values.conversation !== undefined && !new RegExp(CONVERSATION_ID_PATTERN).test(values.conversation))
        throw new UsageError('--conversation must be a conversation id (direct:0x… or group:…)');
      printJson(searchHits(m, args.join(' '), values));
      return;
    case 'devices':
      printJson(await m.account.listDevices());
      return;
    case 'safety-number':
    case 'verify': {
      need(args, 1, '<address|@handle>');
      const who = await m.contacts.resolveRecipient(recipient(args[0]));
      const info =
        command === 'verify' ? await m.trust.verify(who, values.off !== true) : await m.trust.safetyNumber(who);
      printJson({
        address: info.address,
        safetyNumber: groupDigits(info.digits),
        verified: info.verified,
        verifiedAt: info.verifiedAt,
        changed: info.changed,
        myDevices: info.myDevices,
        theirDevices: info.theirDevices,
      });
      return;
    }
    case 'revoke-device':
      need(args, 1, '<publicKey>');
      await m.account.revokeDevice({ publicKey: deviceKey(args[0], 'usage: revoke-device <publicKey>') });
      printJson({ ok: true });
      return;
    case 'keys':
      printJson(await m.account.listApiKeys());
      return;
    case 'mint-key':
      need(args, 1, '<label>');
      printJson(await m.account.mintApiKey({ label: args[0] }));
      return;
    case 'revoke-key':
      need(args, 1, '<id>');
      await m.account.revokeApiKey({ id: args[0] });
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
      await m.contacts.acceptRequest({ address: who });
      const staked = (await m.stakes.settings()).enabled
        ? ((await m.stakes.list('received')).find((x) => x.peer === who && x.released) ?? null)
        : null;
      printJson({ ok: true, accepted: who, stake: staked });
      return;
    }
    case 'spam': {
      need(args, 1, '<address>');
      const who = address(args[0]);
      const forfeited = await m.stakes.forfeitFrom(who);
      await m.contacts.block({ address: who });
      printJson({ ok: true, blocked: who, stake: forfeited });
      return;
    }
    case 'invitations':
      printJson(await m.groups.listInvitations());
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
  if (!m.contacts.listRequests().some((r) => r.address === who))
    throw new MessengerError('not-found', `there is no contact request from ${who}`);
  return who;
}

async function stake(m: Messenger, args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  atMostArgs(`stake ${sub}`, rest);
  switch (sub) {
    case 'config':
      printJson(await m.stakes.settings());
      return;
    case 'rpc': {
      need(rest, 1, '<URL|relay>');
      const { chainId } = await m.stakes.settings();
      if (chainId === null)
        throw new MessengerError('stakes-unavailable', 'this relay takes no stakes (it names no chain)');
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

/**
 * Lists answer from what is on this computer: pull first so they are current. Offline, say
 * so on stderr and answer from what was synced before.
 */
async function syncFirst(m: Messenger): Promise<void> {
  try {
    const res = await m.syncPass();
    if (res.deferred > 0)
      process.stderr.write(
        `${JSON.stringify({ deferred: res.deferred, note: 'more is waiting on the relay; run sync' })}\n`,
      );
  } catch (e) {
    if (!isTransient(e)) throw e;
    process.stderr.write(
      `${JSON.stringify({ note: `offline: showing what was synced before (${(e as Error).message})` })}\n`,
    );
  }
}

main(process.argv.slice(2)).catch((e: unknown) => fail(PROG, e, USAGE));
