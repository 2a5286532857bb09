/**
 * # Messenger: the client without a UI
 *
 * The one facade the desktop app (Electron main), web mode and the headless CLI call. It
 * owns a profile folder:
 *
 *   <profileDir>/vault.json   wallet + device key (the vault worker's file; encrypted)
 *   <profileDir>/client.db    local database (SQLite, WAL, synchronous=FULL; encrypted: profile-database.ts)
 *
 * ## Commands
 * Every command of `src/shared/ipc.ts` except the shell's own (`relay.setLocal`,
 * `relay.shareOnLan`, `links.openExternal`) has one method here, taking the command's
 * argument object and resolving to exactly its result type; `handlers()` maps the command
 * names to them, typed so that a missing command fails to compile. Arguments are normalised
 * here (mnemonic spacing, address case), so the app and the CLI get the same.
 *
 * `relay.connect` takes a resolved URL (the shell turns mode `local`/`lan` into one) and,
 * for a self-signed LAN relay, the certificate's SHA-256 fingerprint, which is then pinned on
 * every connection.
 *
 * Errors are thrown as MessengerError / RelayError / NetworkError / VaultError; map them to
 * `{ code, message }` with `toIpcError` (src/shared/plain-errors.ts), as the doorway and the CLI do.
 *
 * ## Events
 * `on(name, fn)` (returns an unsubscribe function) for the Events of ipc.ts:
 * - `message.new`: a message was stored (received, or composed here; own messages start in
 *   state `sending`);
 * - `message.updated`: a message changed state (sent with its routing, failed);
 * - `conversation.updated`: a conversation's summary changed (new message, read, accepted);
 * - `message.rejected`: a received envelope failed a check (forged, tampered, misaddressed,
 *   uncertified device) and was dropped; one event each, nothing is kept;
 * - `request.new`: a contact request arrived, grew, or learned its sender's handle (one per
 *   sender, keyed by address; see requests.list);
 * - `contact.updated`: the handle of an address shown without one was learned;
 * - `sync.status`, `relay.status`, `app.status`: when they change.
 *
 * ## Life cycle
 * `Messenger.open({ profileDir })` → (first run) `createWallet` or an import → `connectRelay`
 * (the RelaySession signs in: SIWE challenge signed by the vault, this device registered
 * with its certificate, the `sk_live_` key stored sealed with the vault's codec) → ready. On
 * later runs: `unlock` → ready. When ready, the SyncLoop flushes the outbox and pulls (paced
 * to stay inside 120 requests a minute) unless `autoSync: false`. `close()` at exit.
 */
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyMeta } from '../../shared/api/account.js';
import type { GroupDetail, GroupSummary } from '../../shared/api/groups.js';
import type {
  ApiKeyInfo, AppStatus, BotToken, ChatMessage, ContactRequest, ConversationId, ConversationSummary, DeviceInfo,
  DirectoryHit, GroupAddResult, GroupInfo, GroupInvitation, InboxPolicy, KnownHandle, Preferences, RelayStatus, SyncStatus,
} from '../../shared/domain.js';
import { DEFAULT_PREFERENCES } from '../../shared/domain.js';
import type { CommandArgs, CommandName, CommandResult, EventName, Events } from '../../shared/ipc.js';
import { SEARCH_DEFAULT_LIMIT, type MessageSearchHit } from '../../shared/message-search.js';
import { passphraseCodec, scryptFor, type ScryptParams, type VaultCodec } from '../vault/secret-codec.js';
import { VaultClient } from '../vault/vault-client.js';
import { VaultError } from '../vault/vault-error.js';
import { CertifiedDevices, keepCertified } from './certified-devices.js';
import { Trust } from './trust.js';
import { LocalStore, groupInfoOf, type GroupRecord } from './local-store.js';
import { MessengerError } from './messenger-error.js';
import { Outbox, type SendOutcome } from './outbox.js';
import { RelayError, isTransient, type RelayApi } from './relay-api.js';
import { parseRecipient } from '../../shared/recipient.js';
import { fingerprintProblem, parseRelayUrl } from '../../shared/relay-address.js';
import { ADDRESS, bareHandle } from '../../shared/identity-patterns.js';
import { EMPTY_PASSPHRASE_STANDIN, effectivePassphrase } from './profile-passphrase.js';
import { forgetTicket, ticketingCodec, ticketPath } from '../vault/unlock-ticket.js';
import { RelaySession, revokedError, DEVICE_REVOKED_MESSAGE } from './relay-session.js';
import { Stakes } from './stakes.js';
import { SyncEngine, type CrashPoint, type SyncPassResult } from './sync-engine.js';
import { SyncLoop } from './sync-loop.js';
import { Signals } from './signals.js';
import { MessageChanges, type ScheduleTimer } from './message-changes.js';
import { Attachments } from './attachments.js';
import { HistoryTransfer } from './history-transfer.js';
import { archiveSink, archiveSource } from './history-archive.js';
import type { AttachmentRef } from './attachment-wire.js';
import type { IncomingSignal } from './sync-engine.js';
import type { AppliedIncoming } from './local-store.js';
import { BackupFolder, Backups } from './backups.js';
import { ProfileDatabase } from './profile-database.js';

/** The commands the Messenger serves (the shell owns the rest). */
export type ClientCommand = Exclude<CommandName, 'relay.setLocal' | 'relay.shareOnLan' | 'links.openExternal' | 'notifications.show' | `attachments.${string}`>;
export type ClientHandlers = { [K in ClientCommand]: (args: CommandArgs<K>) => Promise<CommandResult<K>> };

export { EMPTY_PASSPHRASE_STANDIN, effectivePassphrase, DEVICE_REVOKED_MESSAGE };

export interface MessengerOptions {
  profileDir: string;
  shell?: 'electron' | 'web';
  /** the OS-keychain codec (Electron safeStorage); without it, the passphrase protects the profile */
  codec?: VaultCodec;
  /** background loop period while ready (default 3 s; the pacer keeps the total within 120/min) */
  pollIntervalMs?: number;
  /** run the background sync loop once ready (default true; the CLI turns it off) */
  autoSync?: boolean;
  /** what the shell knows of its embedded relay, merged into relay.status */
  localRelay?: () => RelayStatus['local'];
  vaultTimeoutMs?: number;
  /**
   * Client-side request budget per minute for the relay key (default 120, the relay's limit);
   * 0 turns pacing off, for a relay whose operator turned its limit off.
   */
  requestsPerMinute?: number;
  /** test seam for crash-safety tests */
  crashAt?: CrashPoint | null;
  pullLimit?: number;
  now?: () => number;
  /** test seam: the timer that makes messages disappear (fake time) */
  expiryTimer?: ScheduleTimer;
  /** test seam: history transfers in small chunks and blobs */
  history?: { chunkBytes?: number; blobBytes?: number };
  /** test seam: the scrypt cost of the passphrase wraps (vault, API key, files); default N=2^17 */
  scrypt?: ScryptParams;
}

const DB_FILE = 'client.db';
const PREFERENCES_KEY = 'preferences';
/** how long "typing…" shows without a renewal (the sender renews every 3 s) */
const TYPING_SHOWN_MS = 6000;

export class Messenger {
  readonly profileDir: string;
  readonly store: LocalStore;
  readonly vault: VaultClient;
  private readonly opts: MessengerOptions;
  private readonly events = new EventEmitter();
  private readonly session: RelaySession;
  /** client.db, encrypted with the vault's database key */
  private readonly database: ProfileDatabase;
  private identity: { address: string; deviceKey: string } | null = null;
  private unlocked = false;
  private readonly devices: CertifiedDevices;
  private readonly outbox: Outbox;
  private readonly engine: SyncEngine;
  /** files of attachment messages: upload, fetch and check, keep at rest, export */
  readonly attachments: Attachments;
  readonly stakes: Stakes;
  private readonly loop: SyncLoop;
  private readonly signals: Signals;
  /** edits, deletes and disappearing messages */
  readonly changes: MessageChanges;
  readonly trust: Trust;
  /** backup and restore (backups.ts); `backupFolder` is the page's side of it */
  readonly backups: Backups;
  readonly backupFolder: BackupFolder;
  /** history to and from our other devices */
  readonly history: HistoryTransfer;
  /** peers shown typing, each until a renewal is overdue */
  private readonly typingUntil = new Map<string, NodeJS.Timeout>();
  private closed = false;

  private constructor(opts: MessengerOptions, store: LocalStore, vault: VaultClient) {
    this.opts = opts;
    this.profileDir = opts.profileDir;
    this.store = store;
    this.vault = vault;
    this.database = new ProfileDatabase(join(opts.profileDir, DB_FILE), store, vault);
    this.events.setMaxListeners(100);
    const now = opts.now ?? Date.now;
    this.session = new RelaySession({
      store,
      vault,
      me: () => this.me(),
      now,
      requestsPerMinute: opts.requestsPerMinute,
      onChange: () => this.emit('relay.status', this.relayStatus()),
      onSigningIn: () => this.loop.start(),
      onRevoked: () => {
        this.loop.stop();
        void this.appStatus().then((st) => this.emit('app.status', st), () => undefined);
      },
    });
    if (opts.codec) this.session.setCodec(opts.codec);
    const api = () => this.session.requireApi();
    this.devices = new CertifiedDevices(api, store, now, undefined, (a, list) => this.trust.observe(a, list));
    this.trust = new Trust({ store, fetchDevices: (a) => this.devices.fetch(a), me: () => this.me(), now, onNotice: (n) => this.emit('devices.changed', n) });
    // What the outbox and the sync engine both need: the relay, the vault, the local store, who we are.
    const shared = { api, vault, store, devices: this.devices, me: () => this.me(), now };
    this.outbox = new Outbox({
      ...shared,
      onUpdated: (m) => {
        this.emit('message.updated', m);
        this.emitConversation(m.conversationId);
      },
      onStakeQuote: (id, quote) => this.stakes.noteQuote(id, quote),
      holdsBack: (peer) => this.trust.holdsBack(peer),
    });
    this.stakes = new Stakes({ ...shared, api: () => this.ready(), outbox: this.outbox, onUpdated: (m) => this.emit('message.updated', m) });
    const archive = { store, files: () => this.attachments.archiveFiles(), wallet: () => this.me().address };
    this.history = new HistoryTransfer({
      ...shared, ...opts.history, profileDir: opts.profileDir,
      source: () => archiveSource(archive), sink: () => archiveSink({ ...archive, tempDir: join(opts.profileDir, 'history') }),
      onProgress: (p) => this.emit('history.progress', p),
      onNewOwnDevice: () => this.outbox.forgetOwnDevices(),
      onOutcome: (o) => {
        this.emit('history.outcome', o);
        this.changes.reschedule();
        for (const c of this.store.listConversations()) this.emit('conversation.updated', c);
      },
    });
    this.engine = new SyncEngine({
      ...shared,
      history: this.history,
      crashAt: opts.crashAt ?? null,
      pullLimit: opts.pullLimit,
      onCommitted: (applied) => this.onCommitted(applied),
      onRejected: (r) => this.emit('message.rejected', r),
      onSignals: (signals) => this.applySignals(signals),
    });
    this.changes = new MessageChanges({
      store, outbox: this.outbox, me: () => this.me(), now, schedule: opts.expiryTimer,
      onMessage: (event, m) => this.emit(event, m),
      onRemoved: (removed) => this.emit('message.removed', removed),
      onConversation: (id) => this.emitConversation(id),
      onQueued: () => void this.kickOutbox(),
    });
    this.signals = new Signals({ api, vault, devices: this.devices, me: () => this.me(), now });
    this.attachments = new Attachments({
      api, store, profileDir: opts.profileDir, codec: () => this.filesCodec,
      onUpdated: (id) => { const m = this.store.getMessage(id); if (m) this.emit('message.updated', m); },
      onDownloadProgress: (id, index, done, total) => this.emit('file.progress', { direction: 'down', id, index, done, total }),
      onRefused: (r) => this.emit('message.rejected', { envelopeId: `${r.messageId}/${r.index}`, claimedSender: this.store.getMessage(r.messageId)?.from ?? '', reason: `file "${r.name}": ${r.reason}` }),
    });
    this.backups = new Backups({ store, profileDir: opts.profileDir, attachments: this.attachments, wallet: () => this.me().address, // the restore's staging file is encrypted under a key that dies with it: nothing lands on disk in clear
      openStore: (f) => LocalStore.open(f, { key: randomBytes(32) }) });
    this.backupFolder = new BackupFolder(this.backups, opts.profileDir, (p) => this.emit('backup.progress', p));
    this.loop = new SyncLoop({
      session: this.session,
      outbox: this.outbox,
      engine: this.engine,
      store,
      now,
      pollIntervalMs: opts.pollIntervalMs,
      autoSync: opts.autoSync !== false,
      mayRun: () => this.unlocked && this.session.hasRelay() && !this.session.isRevoked(),
      refreshGroup: (id) => this.refreshGroup(id),
      onHandleLearned: (known) => {
        this.emit('contact.updated', known);
        this.emitConversation(`direct:${known.address}`);
        const request = this.store.getRequest(known.address);
        if (request) this.emit('request.new', request);
      },
      onStatus: (st) => this.emit('sync.status', st),
    });
  }

  /** Opens (creating) the profile folder, its database and its vault worker. */
  static async open(opts: MessengerOptions): Promise<Messenger> {
    mkdirSync(opts.profileDir, { recursive: true, mode: 0o700 });
    const store = ProfileDatabase.openStore(join(opts.profileDir, DB_FILE));
    const vault = new VaultClient({ profileDir: opts.profileDir, codec: opts.codec, timeoutMs: opts.vaultTimeoutMs, scrypt: opts.scrypt });
    const m = new Messenger(opts, store, vault);
    try {
      const st = await vault.status();
      if (st.hasWallet && st.address && st.deviceKey) m.identity = { address: st.address, deviceKey: st.deviceKey };
      // what ran out while the profile was closed goes now; the timer takes the rest
      m.changes.expireDue();
    } catch (e) {
      await m.close();
      throw e;
    }
    return m;
  }

  // =========================================================================================
  // events

  /** Subscribes to an event of ipc.ts; returns the unsubscribe function. */
  on<E extends EventName>(event: E, fn: (payload: Events[E]) => void): () => void {
    this.events.on(event, fn as (p: unknown) => void);
    return () => this.events.off(event, fn as (p: unknown) => void);
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    // a message deleted for everyone or expired takes its kept files off the disk
    // (never against the store in memory of a locked profile: it refers to no file, so all would go)
    const sweep = event === 'message.removed' || (event === 'message.updated' && (payload as ChatMessage).deleted);
    if (sweep && this.database.hasProfileData) void this.attachments.sweepFiles().catch(() => undefined);
    try {
      this.events.emit(event, payload);
    } catch {
      // a listener's bug must not break a sync pass (the data is already committed)
    }
  }

  private emitConversation(id: ConversationId): void {
    if (!this.identity) return;
    const c = this.store.getConversation(id);
    if (c) this.emit('conversation.updated', c);
  }

  // =========================================================================================
  // the command map

  handlers(): ClientHandlers {
    return {
      'app.status': () => this.appStatus(),
      'wallet.create': (a) => this.createWallet(a),
      'wallet.importMnemonic': (a) => this.importMnemonic(a),
      'wallet.importPrivateKey': (a) => this.importPrivateKey(a),
      'wallet.unlock': (a) => this.unlock(a),
      'relay.connect': (a) => this.connectRelay(a),
      'relay.status': async () => this.relayStatus(),
      'profile.claimHandle': (a) => this.claimHandle(a),
      'conversations.list': async () => this.listConversations(),
      'conversations.open': (a) => this.openConversation(a),
      'conversations.markRead': async (a) => this.markRead(a),
      'messages.list': async (a) => this.listMessages(a),
      'messages.send': async (a) => this.sendMessage(a),
      'messages.retry': async (a) => this.retryMessage(a),
      'messages.edit': async (a) => this.changes.edit(a),
      'messages.delete': async (a) => this.changes.delete(a),
      'conversations.setTimer': async (a) => this.changes.setTimer(a),
      'messages.search': async (a) => this.searchMessages(a),
      'requests.list': async () => this.listRequests(),
      'requests.accept': (a) => this.acceptRequest(a),
      'requests.decline': (a) => this.declineRequest(a),
      'requests.spam': async (a) => {
        await this.stakes.forfeitFrom(a.address);
        await this.block(a);
      },
      'stakes.settings': () => this.stakes.settings(),
      'stakes.setRpcUrl': (a) => this.stakes.setRpcUrl(a.chainId, a.url),
      'stakes.list': (a) => this.stakes.list(a.role),
      'stakes.pay': (a) => this.stakes.pay(a.messageId),
      'stakes.refund': (a) => this.stakes.refund(a.id),
      'contacts.block': (a) => this.block(a),
      'contacts.unblock': (a) => this.unblock(a),
      'contacts.handles': async (a) => this.knownHandles(a.addresses),
      'contacts.safetyNumber': (a) => this.trust.safetyNumber(a.address),
      'contacts.verify': (a) => this.trust.verify(a.address, a.verified),
      'history.send': (a) => this.history.send(a.deviceKey),
      'history.decline': async (a) => this.history.decline(a.deviceKey),
      'contacts.trust': async (a) => this.trust.status(a.address, true),
      'directory.search': (a) => this.searchDirectory(a),
      'groups.listPublic': () => this.listPublicGroups(),
      'groups.listMine': () => this.listMyGroups(),
      'groups.get': (a) => this.getGroup(a),
      'groups.create': (a) => this.createGroup(a),
      'groups.join': (a) => this.joinGroup(a),
      'groups.leave': (a) => this.leaveGroup(a),
      'groups.addMember': (a) => this.addMember(a),
      'groups.removeMember': (a) => this.removeMember(a),
      'groups.listTokens': (a) => this.listBotTokens(a),
      'groups.mintToken': (a) => this.mintBotToken(a),
      'groups.revokeToken': (a) => this.revokeBotToken(a),
      'groups.addAdmin': (a) => this.setAdmin(a, true),
      'groups.removeAdmin': (a) => this.setAdmin(a, false),
      'invitations.list': () => this.listInvitations(),
      'invitations.accept': (a) => this.acceptInvitation(a),
      'invitations.decline': (a) => this.declineInvitation(a),
      'devices.list': () => this.listDevices(),
      'devices.revoke': (a) => this.revokeDevice(a),
      'apiKeys.list': () => this.listApiKeys(),
      'apiKeys.mint': (a) => this.mintApiKey(a),
      'apiKeys.revoke': (a) => this.revokeApiKey(a),
      'policy.get': () => this.getPolicy(),
      'policy.set': (a) => this.setPolicy(a),
      'sync.now': () => this.syncNow(),
      'conversations.typing': (a) => this.typing(a),
      'conversations.mute': async (a) => this.mute(a),
      'preferences.get': async () => this.preferences(),
      'preferences.set': async (a) => this.setPreferences(a),
      'backup.export': (a) => this.backupFolder.export(a.passphrase),
      'backup.download': (a) => this.backupFolder.download(a.name, a.offset),
      'backup.upload': (a) => this.backupFolder.upload(a.name, a.offset, a.data),
      'backup.restore': (a) => this.backupFolder.restore(a.name, a.passphrase),
    };
  }

  // =========================================================================================
  // status

  async appStatus(): Promise<AppStatus> {
    const st = await this.vault.status();
    return {
      shell: this.opts.shell ?? 'electron',
      hasWallet: st.hasWallet,
      unlocked: st.unlocked,
      ready: st.unlocked && this.session.hasCredential(),
      address: st.address,
      handle: this.session.handle,
      deviceKey: st.deviceKey,
      relay: this.relayStatus(),
    };
  }

  relayStatus(): RelayStatus {
    return {
      mode: this.session.mode,
      url: this.session.url,
      connected: this.session.connected,
      lastError: this.session.lastError,
      revoked: this.session.isRevoked(),
      local: this.opts.localRelay?.() ?? { running: false, url: null, lan: null },
    };
  }

  syncStatus(): SyncStatus {
    return this.loop.syncStatus();
  }

  /** The wallet address and device key of this profile (null before a wallet exists). */
  whoami(): { address: string; deviceKey: string; handle: string | null } | null {
    return this.identity ? { ...this.identity, handle: this.session.handle } : null;
  }

  // =========================================================================================
  // wallet

  async createWallet(a: CommandArgs<'wallet.create'>): Promise<{ address: string; mnemonic: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    const w = await this.vault.createWallet(this.opts.codec ? {} : { passphrase });
    await this.walletOpened(w.address, w.deviceKey, passphrase);
    return { address: w.address, mnemonic: w.mnemonic };
  }

  async importMnemonic(a: CommandArgs<'wallet.importMnemonic'>): Promise<{ address: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    // pasted phrases come with stray spaces, line breaks and capitals
    const mnemonic = a.mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
    const w = await this.vault.importMnemonic({ mnemonic, ...(this.opts.codec ? {} : { passphrase }) });
    await this.walletOpened(w.address, w.deviceKey, passphrase);
    return { address: w.address };
  }

  async importPrivateKey(a: CommandArgs<'wallet.importPrivateKey'>): Promise<{ address: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    const w = await this.vault.importPrivateKey({ privateKey: a.privateKey.trim(), ...(this.opts.codec ? {} : { passphrase }) });
    await this.walletOpened(w.address, w.deviceKey, passphrase);
    return { address: w.address };
  }

  /**
   * `rememberMs` (the command-line client): keep this unlock for so long in unlock tickets, so
   * the next command skips both scrypts (vault/unlock-ticket.ts); 0 forgets them.
   */
  async unlock(a: CommandArgs<'wallet.unlock'>, opts: { rememberMs?: number } = {}): Promise<AppStatus> {
    const passphrase = effectivePassphrase(a.passphrase);
    const remember = this.opts.codec ? undefined : opts.rememberMs;
    const apiKeyTicket = ticketPath(this.opts.profileDir, 'api-key');
    if (remember === 0) forgetTicket(apiKeyTicket);
    const plain = this.opts.codec ?? this.passphraseCodec(passphrase);
    const codec = remember ? ticketingCodec(plain, { passphrase, path: apiKeyTicket, ttlMs: remember }) : plain;
    // both unwraps cost a scrypt: run the API key's beside the vault's, unless the key is in the
    // encrypted database, which opens only once the vault is unlocked
    const apiKey = this.database.hasProfileData ? this.session.unwrapStoredKey(codec) : null;
    const st = await this.vault.unlock(this.opts.codec ? {} : { passphrase, ...(remember === undefined ? {} : { rememberMs: remember }) });
    await (apiKey ?? this.openDatabase().then(() => this.session.unwrapStoredKey(codec)));
    await this.walletOpened(st.address!, st.deviceKey!, passphrase, codec);
    return this.appStatus();
  }

  /** Locks the vault and forgets any remembered unlock (the CLI's `lock`). */
  async lock(): Promise<void> {
    forgetTicket(ticketPath(this.opts.profileDir, 'api-key'));
    this.unlocked = false;
    this.filesCodec = null;
    this.attachments.lock();
    this.loop.stop();
    this.database.lock();
    await this.vault.lock();
  }

  private async walletOpened(address: string, deviceKey: string, passphrase: string, codec?: VaultCodec): Promise<void> {
    await this.openDatabase();
    this.identity = { address: address.toLowerCase(), deviceKey: deviceKey.toLowerCase() };
    this.unlocked = true;
    this.session.setCodec(codec ?? this.opts.codec ?? this.passphraseCodec(passphrase));
    // not the API key's remembering codec: its one ticket would then hold the file key instead
    this.filesCodec = this.opts.codec ?? this.passphraseCodec(passphrase);
    if (this.session.hasRelay()) {
      try {
        await this.session.ensureSignedIn();
      } catch (e) {
        // the wallet is open either way; the relay's trouble shows in relay.status
        this.session.failed(e);
      }
    }
    this.emit('app.status', await this.appStatus());
  }

  /** The profile's database, encrypted, in place of the store in memory (or the clear file): profile-database.ts. */
  private async openDatabase(): Promise<void> {
    await this.database.unlock();
    this.session.reload();
    this.changes.expireDue();
  }

  // =========================================================================================
  // relay connection and sign-in

  /**
   * Points the profile at a relay (a resolved URL; the fingerprint pins a self-signed LAN
   * certificate) and, with an unlocked wallet, signs in. Sign-in errors are thrown (and kept
   * in relay.status).
   */
  async connectRelay(a: CommandArgs<'relay.connect'>): Promise<AppStatus> {
    if (!a.url) throw new MessengerError('bad-argument', 'relay.connect needs the relay URL (the shell resolves local and LAN modes)');
    const parsed = parseRelayUrl(a.url);
    if ('problem' in parsed) throw new MessengerError('bad-argument', parsed.problem);
    const fpProblem = a.fingerprint === undefined ? null : fingerprintProblem(a.fingerprint);
    if (fpProblem) throw new MessengerError('bad-argument', fpProblem);
    this.loop.stop();
    this.session.pointAt(a.mode, parsed.url, a.fingerprint ?? null);
    if (this.unlocked) {
      try {
        await this.session.ensureSignedIn();
      } catch (e) {
        this.session.failed(e);
        throw e;
      }
    }
    this.emit('relay.status', this.relayStatus());
    const status = await this.appStatus();
    this.emit('app.status', status);
    return status;
  }

  async claimHandle(a: CommandArgs<'profile.claimHandle'>): Promise<AppStatus> {
    const handle = bareHandle(a.handle);
    const rec = await this.ready().claimHandle(handle);
    this.session.handle = rec.handle;
    const status = await this.appStatus();
    this.emit('app.status', status);
    return status;
  }

  // =========================================================================================
  // conversations and messages

  listConversations(): ConversationSummary[] {
    return this.store.listConversations();
  }

  /** Opens (creating) the direct conversation with `0x…` or `@handle`. */
  async openConversation(a: CommandArgs<'conversations.open'>): Promise<ConversationSummary> {
    const address = await this.resolveRecipient(a.to);
    const id = `direct:${address}` as const;
    this.store.ensureConversation(id, 'direct', address, new Date(this.nowMs()).toISOString());
    this.loop.wantHandles([address]);
    const c = this.store.getConversation(id)!;
    this.emit('conversation.updated', c);
    return c;
  }

  /** Marks the conversation read, and tells the peer so (`read` receipts) unless the person turned that off. */
  markRead(a: CommandArgs<'conversations.markRead'>): void {
    const id = a.conversationId as ConversationId;
    const unread = this.store.getConversation(id)?.unread ?? 0;
    this.store.markRead(id);
    this.changes.read(id);
    this.emitConversation(id);
    if (unread === 0 || !id.startsWith('direct:') || !this.preferences().readReceipts || !this.session.hasCredential()) return;
    const ids = this.store.listMessages(id, null, Math.min(unread, 100)).filter((m) => !m.fromMe && m.routed === 'inbox').map((m) => m.id);
    this.signals.receipt(id.slice(7), ids, 'read');
  }

  /** Typing notices go to direct conversations only (a group's would reach every member's devices). */
  async typing(a: CommandArgs<'conversations.typing'>): Promise<void> {
    const id = a.conversationId as ConversationId;
    if (!id.startsWith('direct:') || !this.session.hasCredential() || this.session.isRevoked()) return;
    await this.signals.typing(id.slice(7), a.state);
  }

  mute(a: CommandArgs<'conversations.mute'>): ConversationSummary {
    const id = a.conversationId as ConversationId;
    const c = this.store.getConversation(id);
    if (!c) throw new MessengerError('not-found', 'no such conversation');
    this.store.setMuted(id, a.muted);
    const updated = this.store.getConversation(id)!;
    this.emit('conversation.updated', updated);
    return updated;
  }

  preferences(): Preferences {
    const raw = this.store.getSetting(PREFERENCES_KEY);
    let kept: Partial<Preferences> = {};
    try {
      kept = raw ? (JSON.parse(raw) as Partial<Preferences>) : {};
    } catch {
      // unreadable: the defaults
    }
    return { ...DEFAULT_PREFERENCES, ...kept };
  }

  setPreferences(a: CommandArgs<'preferences.set'>): Preferences {
    const next = { ...this.preferences(), ...a };
    this.store.setSetting(PREFERENCES_KEY, JSON.stringify(next));
    return next;
  }

  /** Receipts move own messages forward (delivered → read); typing notices pass straight to the app. */
  private applySignals(signals: IncomingSignal[]): void {
    for (const { from, signal } of signals) {
      const conversationId = `direct:${from}` as const;
      if (signal.kind === 'typing') {
        this.setTyping(from, signal.state);
        continue;
      }
      const changed = signal.state === 'read' ? this.store.markReadByPeer(conversationId, signal.of) : this.store.markDelivered(conversationId, signal.of);
      for (const id of changed) {
        const m = this.store.getMessage(id);
        if (m) this.emit('message.updated', m);
      }
    }
  }

  /**
   * A page of a conversation, oldest first: the `limit` (default 200) newest messages, or
   * with `before` (a message id) the `limit` messages just older than that one, or with
   * `around` (a message id) the `limit` older ones, it and the newer ones (to open at it).
   */
  listMessages(a: CommandArgs<'messages.list'>): ChatMessage[] {
    if (a.before && a.around) throw new MessengerError('bad-argument', 'messages.list takes before or around, not both');
    if (!a.around) return this.store.listMessages(a.conversationId as ConversationId, a.before ?? null, a.limit ?? 200);
    const page = this.store.listMessagesAround(a.conversationId as ConversationId, a.around, a.limit ?? 200);
    if (!page) throw new MessengerError('not-found', 'no such message in this conversation');
    return page;
  }

  /** Local full-text search (every word, as a prefix), newest first; across conversations or in one. */
  searchMessages(a: CommandArgs<'messages.search'>): MessageSearchHit[] {
    return this.store.search.search(a.query, { conversationId: (a.conversationId as ConversationId | undefined) ?? null, limit: a.limit ?? SEARCH_DEFAULT_LIMIT });
  }

  /**
   * Stores the message (state `sending`) and returns at once; the outbox sends it in the
   * background and `message.updated` reports the routing. Use `sendAndWait` to await it.
   */
  sendMessage(a: CommandArgs<'messages.send'>): ChatMessage {
    const m = this.enqueue(a.conversationId as ConversationId, a.text, a.asRequest === true);
    void this.kickOutbox();
    return m;
  }

  /** Stores the message and makes one send attempt now; the outcome carries the per-device routing. */
  async sendAndWait(conversationId: ConversationId, text: string, asRequest = false, files?: AttachmentRef[]): Promise<{ message: ChatMessage; outcome: SendOutcome }> {
    const m = this.enqueue(conversationId, text, asRequest, files);
    const outcomes = await this.outbox.flush(true);
    const outcome = outcomes.find((o) => o.messageId === m.id) ?? { messageId: m.id, state: 'queued' as const, routed: null, stakeRequired: null, stakeCurrency: null, deliveries: [], error: null };
    return { message: this.store.getMessage(m.id)!, outcome };
  }

  /** Uploads the files (encrypted) and sends an attachment message with them; `text` is its caption, `previews` the images' (the app's). */
  async sendFiles(conversationId: ConversationId, paths: string[], text = '', onProgress?: (file: number, done: number, total: number) => void, previews?: Array<string | undefined>): Promise<{ message: ChatMessage; outcome: SendOutcome }> {
    this.ready();
    const refs = await this.attachments.upload(paths, onProgress);
    return this.sendAndWait(conversationId, text, false, refs.map((r, i) => (previews?.[i] ? { ...r, preview: previews[i] } : r)));
  }

  private enqueue(conversationId: ConversationId, text: string, asRequest: boolean, files?: AttachmentRef[]): ChatMessage {
    this.me();
    // queued for a relay that will never take it again would read as "waiting", not as refused
    if (this.session.isRevoked()) throw revokedError();
    let m: ChatMessage;
    if (conversationId.startsWith('direct:')) {
      const peer = conversationId.slice(7);
      if (!ADDRESS.test(peer)) throw new MessengerError('bad-argument', 'not a direct conversation id');
      // replying to a pending request answers it: the relay counts the reply as "has written before"
      if (this.store.getContact(peer.toLowerCase())?.state === 'requested') this.store.acceptRequest(peer.toLowerCase(), this.nowMs());
      this.trust.assertMaySend(peer);
      m = this.outbox.enqueue({ kind: 'direct', peer: peer.toLowerCase() }, text, asRequest && !files ? 'request' : 'text', { expiresIn: this.changes.expiresIn(conversationId), files });
      this.signals.messageSent(peer.toLowerCase());
    } else if (conversationId.startsWith('group:')) {
      if (asRequest) throw new MessengerError('bad-argument', 'a group message cannot be a contact request');
      m = this.outbox.enqueue({ kind: 'group', groupId: conversationId.slice(6).toLowerCase() }, text, 'text', { expiresIn: this.changes.expiresIn(conversationId), files });
    } else throw new MessengerError('bad-argument', 'unknown conversation id');
    this.emit('message.new', m);
    this.emitConversation(m.conversationId);
    this.changes.reschedule();
    this.loop.announce();
    return m;
  }

  retryMessage(a: CommandArgs<'messages.retry'>): ChatMessage {
    if (!this.outbox.retry(a.messageId)) throw new MessengerError('not-found', 'no failed message of yours with that id');
    const m = this.store.getMessage(a.messageId)!;
    this.emit('message.updated', m);
    void this.kickOutbox();
    return m;
  }

  /** Sends what is in the outbox now (all of it with `force`, else only what is due). */
  flushOutbox(force = false): Promise<SendOutcome[]> {
    this.ready();
    return this.outbox.flush(force);
  }

  private async kickOutbox(): Promise<void> {
    if (!this.session.hasCredential()) return;
    try {
      await this.outbox.flush(false);
    } catch {
      // the outbox keeps the message; the loop retries
    }
    this.loop.announce();
  }

  // =========================================================================================
  // contact requests and contacts

  listRequests(): ContactRequest[] {
    return this.store.listRequests();
  }

  /** Allows the sender on the relay (later messages reach the inbox) and shows the conversation. */
  async acceptRequest(a: CommandArgs<'requests.accept'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.stakes.releaseFrom(address);
    await this.ready().allow(address);
    this.store.acceptRequest(address, this.nowMs());
    this.emitConversation(`direct:${address}`);
  }

  /** Forgets the sender and what they wrote, here and on the relay's allow list. */
  async declineRequest(a: CommandArgs<'requests.decline'>): Promise<void> {
    const address = a.address.toLowerCase();
    this.store.declineRequest(address);
    try {
      await this.ready().forget(address);
    } catch (e) {
      if (!isTransient(e)) throw e;
    }
  }

  async block(a: CommandArgs<'contacts.block'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ready().block(address);
    this.store.blockContact(address, this.nowMs());
  }

  /** The handles known for these addresses; the others are looked up and announced (`contact.updated`). */
  knownHandles(addresses: readonly string[]): KnownHandle[] {
    const known: KnownHandle[] = [];
    for (const a of new Set(addresses.map((x) => x.toLowerCase()))) {
      const c = this.store.getContact(a);
      if (c?.handle) known.push({ address: a, handle: c.handle, verified: c.verified });
    }
    this.loop.wantHandles(addresses);
    return known;
  }

  async unblock(a: CommandArgs<'contacts.unblock'>): Promise<void> {
    const address = a.address.toLowerCase();
    await this.ready().unblock(address);
    this.store.setContactState(address, 'known', this.nowMs());
    this.emitConversation(`direct:${address}`);
  }

  /** Allows an address without a pending request (CLI `allow`). */
  async allow(address: string): Promise<void> {
    const a = address.toLowerCase();
    await this.ready().allow(a);
    this.store.acceptRequest(a, this.nowMs());
  }

  // =========================================================================================
  // directory

  async searchDirectory(a: CommandArgs<'directory.search'>): Promise<DirectoryHit[]> {
    const hits = await this.ready().directory(a.q, 20);
    return hits.map((h) => ({ handle: h.handle, address: h.address.toLowerCase(), verified: h.verified }));
  }

  /** `0x…` as is; `@name` (or `name`) through the relay's handle lookup. */
  async resolveRecipient(to: string): Promise<string> {
    const r = parseRecipient(to);
    if ('problem' in r) throw new MessengerError('bad-argument', r.problem);
    if (r.kind === 'address') return r.address;
    let rec;
    try {
      rec = await this.ready().resolveHandle(r.handle);
    } catch (e) {
      // Offline, a contact we already know by this handle is still who it names: the message
      // can wait in the outbox like any other. (Online, the relay's answer wins: handles move.)
      const known = isTransient(e) ? this.store.findContactByHandle(r.handle) : null;
      if (known) return known.address;
      throw e;
    }
    if (!rec) throw new MessengerError('not-found', `no one has claimed the handle @${r.handle}`);
    const address = rec.address.toLowerCase();
    this.store.setContactHandle(address, rec.handle, rec.verified, this.nowMs());
    return address;
  }

  // =========================================================================================
  // groups

  async listPublicGroups(): Promise<GroupInfo[]> {
    const list = await this.ready().listGroups(false);
    return list.map((g) => this.groupInfoFromSummary(g));
  }

  async listMyGroups(): Promise<GroupInfo[]> {
    const list = await this.ready().listGroups(true);
    for (const g of list) {
      const local = this.store.getGroup(g.id);
      this.store.upsertGroup({ ...this.recordFromSummary(g), creator: local?.creator ?? null, members: local?.members ?? null, isMember: true }, this.nowMs());
    }
    return list.map((g) => groupInfoOf(this.store.getGroup(g.id)!, this.me().address));
  }

  /** The group as a member sees it (with creator and members); a non-member gets what the public list knows. */
  async getGroup(a: CommandArgs<'groups.get'>): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    try {
      return await this.refreshGroup(id);
    } catch (e) {
      // 404: no such group; 401 not-a-member: it exists but we are not (or no longer) in it
      if (!(e instanceof RelayError && (e.status === 404 || e.code === 'not-a-member'))) throw e;
      const local = this.store.getGroup(id);
      if (local) {
        this.store.setGroupMembership(id, false);
        return groupInfoOf({ ...local, isMember: false }, this.me().address);
      }
      throw new MessengerError('not-found', 'no such group, or it is private');
    }
  }

  async createGroup(a: CommandArgs<'groups.create'>): Promise<GroupInfo> {
    const g = await this.ready().createGroup({ name: a.name, isPublic: a.isPublic, ...(a.password ? { password: a.password } : {}), ...(a.avatar ? { avatar: a.avatar } : {}) });
    return this.storeGroupDetail(g);
  }

  async joinGroup(a: CommandArgs<'groups.join'>): Promise<GroupInfo> {
    const g = await this.ready().joinGroup(a.groupId.toLowerCase(), a.password);
    return this.storeGroupDetail(g);
  }

  async leaveGroup(a: CommandArgs<'groups.leave'>): Promise<void> {
    const id = a.groupId.toLowerCase();
    await this.ready().removeMember(id, this.me().address);
    this.store.setGroupMembership(id, false);
    this.emitConversation(`group:${id}`);
  }

  /** Adds at once when they allow us, otherwise invites them (`added: 'invited'`); a wallet that refuses is 403. */
  async addMember(a: CommandArgs<'groups.addMember'>): Promise<GroupAddResult> {
    const address = await this.resolveRecipient(a.member);
    const res = await this.ready().addMember(a.groupId.toLowerCase(), address);
    return { ...this.storeGroupDetail(res), added: res.status };
  }

  async setAdmin(a: CommandArgs<'groups.addAdmin'>, admin: boolean): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    await this.ready().setAdmin(id, a.address.toLowerCase(), admin);
    return this.refreshGroup(id);
  }

  async listInvitations(): Promise<GroupInvitation[]> {
    return (await this.ready().invitations()).map((i) => ({ ...i, groupId: i.groupId.toLowerCase() }));
  }

  async acceptInvitation(a: CommandArgs<'invitations.accept'>): Promise<GroupInfo> {
    const res = await this.ready().answerInvitation(a.groupId.toLowerCase(), true);
    if (!res.group) throw new MessengerError('not-found', 'the relay did not return the group');
    return this.storeGroupDetail(res.group);
  }

  async declineInvitation(a: CommandArgs<'invitations.decline'>): Promise<void> {
    const id = a.groupId.toLowerCase();
    const inviter = a.blockInviter ? (await this.ready().invitations()).find((i) => i.groupId.toLowerCase() === id)?.invitedBy : undefined;
    await this.ready().answerInvitation(id, false);
    if (inviter) await this.block({ address: inviter });
  }

  async removeMember(a: CommandArgs<'groups.removeMember'>): Promise<GroupInfo> {
    const id = a.groupId.toLowerCase();
    await this.ready().removeMember(id, a.address.toLowerCase());
    return this.refreshGroup(id);
  }

  async listBotTokens(a: CommandArgs<'groups.listTokens'>): Promise<BotToken[]> {
    const view = await this.ready().group(a.groupId.toLowerCase());
    return (view.botTokens ?? []).map((t) => ({ ...t }));
  }

  async mintBotToken(a: CommandArgs<'groups.mintToken'>): Promise<{ token: string; botToken: BotToken }> {
    const res = await this.ready().mintBotToken(a.groupId.toLowerCase(), a.name);
    return { token: res.token, botToken: { ...res.botToken } };
  }

  async revokeBotToken(a: CommandArgs<'groups.revokeToken'>): Promise<void> {
    await this.ready().revokeBotToken(a.groupId.toLowerCase(), a.tokenId.toLowerCase());
  }

  private async refreshGroup(id: string): Promise<GroupInfo> {
    const view = await this.ready().group(id);
    return this.storeGroupDetail(view.group);
  }

  private storeGroupDetail(g: GroupDetail): GroupInfo {
    const me = this.me().address;
    const members = g.members.map((m) => m.toLowerCase());
    const rec: GroupRecord = { ...this.recordFromSummary(g), creator: g.creatorAddress.toLowerCase(), members, isMember: members.includes(me) };
    this.store.upsertGroup(rec, this.nowMs());
    if (rec.isMember) this.store.ensureConversation(`group:${g.id}`, 'group', g.id, g.createdAt);
    this.emitConversation(`group:${g.id}`);
    // Admins and invitations are the relay's to know: shown as fetched, not kept locally.
    const admins = (g.admins ?? []).map((x) => x.toLowerCase());
    const info = groupInfoOf(rec, me);
    return {
      ...info,
      admins,
      ...(g.invited ? { invited: g.invited.map((x) => x.toLowerCase()) } : {}),
      canManage: info.isCreator || admins.includes(me),
    };
  }

  private recordFromSummary(g: GroupSummary): Omit<GroupRecord, 'creator' | 'members' | 'isMember'> {
    return {
      id: g.id.toLowerCase(),
      name: g.name,
      isPublic: g.isPublic,
      verified: g.verified,
      hasPassword: g.hasPassword,
      avatar: typeof g.avatar === 'string' ? g.avatar : null,
      memberCount: g.memberCount,
      createdAt: g.createdAt,
    };
  }

  private groupInfoFromSummary(g: GroupSummary): GroupInfo {
    const local = this.store.getGroup(g.id.toLowerCase());
    return groupInfoOf({ ...this.recordFromSummary(g), creator: local?.creator ?? null, members: local?.members ?? null, isMember: local?.isMember ?? false }, this.me().address);
  }

  // =========================================================================================
  // settings: devices, API keys, policy

  async listDevices(): Promise<DeviceInfo[]> {
    const me = this.me();
    const res = await this.ready().deviceKeys(me.address);
    this.trust.observe(me.address, keepCertified(me.address, res?.devices ?? []));
    const answers = this.history.answers();
    return (res?.devices ?? []).map((d) => {
      const publicKey = d.publicKey.toLowerCase();
      return { publicKey, createdAt: d.createdAt, current: publicKey === me.deviceKey, history: answers[publicKey] ?? null };
    });
  }

  async revokeDevice(a: CommandArgs<'devices.revoke'>): Promise<void> {
    const key = a.publicKey.toLowerCase();
    // Revoking the device in use would leave this profile signed out with no way back in from
    // here: refused, so that it is done from another device (or by a fresh sign-in elsewhere).
    if (key === this.whoami()?.deviceKey.toLowerCase()) {
      throw new MessengerError('bad-argument', 'that is the device you are using; revoke it from another device (this one would be signed out and could not sign in again)');
    }
    await this.ready().revokeDevice(key);
  }

  async listApiKeys(): Promise<ApiKeyInfo[]> {
    return (await this.ready().listKeys()).map(apiKeyInfo);
  }

  async mintApiKey(a: CommandArgs<'apiKeys.mint'>): Promise<{ apiKey: string; key: ApiKeyInfo }> {
    const res = await this.ready().mintKey(a.label);
    return { apiKey: res.apiKey, key: apiKeyInfo(res.key) };
  }

  async revokeApiKey(a: CommandArgs<'apiKeys.revoke'>): Promise<void> {
    await this.ready().revokeKey(a.id.toLowerCase());
  }

  async getPolicy(): Promise<InboxPolicy> {
    const p = await this.ready().getPolicy();
    return { unknownSenders: p.unknownSenders, stake: p.stake ?? null };
  }

  async setPolicy(a: CommandArgs<'policy.set'>): Promise<InboxPolicy> {
    const p = await this.ready().setPolicy(a.unknownSenders, a.unknownSenders === 'stake-gate' ? a.stake : undefined);
    return { unknownSenders: p.unknownSenders, stake: p.stake ?? null };
  }

  // =========================================================================================
  // sync

  /** Sends the whole outbox, then pulls until the inbox is empty. */
  async syncNow(): Promise<SyncStatus> {
    this.ready();
    return this.loop.syncNow();
  }

  /** Starts the background loop in a profile opened without it (`sync --follow`): held pulls from now on. */
  follow(): void {
    this.ready();
    this.loop.enable();
  }

  /** One pass for callers that want its details (the CLI); errors propagate. */
  async syncPass(): Promise<SyncPassResult> {
    this.ready();
    return this.loop.pass();
  }

  private async onCommitted(applied: AppliedIncoming): Promise<void> {
    for (const m of applied.messages) this.emit('message.new', m);
    for (const m of applied.changed) {
      this.emit('message.updated', m);
      this.emitConversation(m.conversationId);
    }
    for (const r of applied.refused) this.emit('message.rejected', { envelopeId: r.envelopeId, claimedSender: r.author, reason: r.reason });
    this.changes.reschedule();
    for (const m of applied.messages) if (!m.fromMe && this.typingUntil.has(m.from)) this.setTyping(m.from, 'off');
    this.sendDeliveredReceipts(applied);
    for (const id of applied.conversations) this.emitConversation(id);
    for (const r of applied.requests) this.emit('request.new', r);
    await this.committedHook?.(applied);
    this.loop.noteCommitted(applied);
    // files are fetched after the ack, off the sync path; the CLI awaits fetchPending itself
    if (this.autoFetchFiles && applied.messages.some((m) => this.attachments.hasPending(m.id))) void this.attachments.fetchPending().catch(() => undefined);
    if (this.autoFetchFiles && this.history.hasPending()) void this.history.importPending().catch(() => undefined);
  }

  /** A peer types on while notices come at least every 6 s; a message from them or an `off` ends it. */
  private setTyping(from: string, state: 'on' | 'off'): void {
    const shown = this.typingUntil.get(from);
    if (shown) clearTimeout(shown);
    this.typingUntil.delete(from);
    if (state === 'on') {
      const t = setTimeout(() => this.setTyping(from, 'off'), TYPING_SHOWN_MS);
      t.unref?.();
      this.typingUntil.set(from, t);
    } else if (!shown) return;
    this.emit('typing', { conversationId: `direct:${from}`, from, state });
  }

  /** Direct messages that reached the inbox are acknowledged to their sender (requests are not, until accepted). */
  private sendDeliveredReceipts(applied: AppliedIncoming): void {
    const byPeer = new Map<string, string[]>();
    for (const m of applied.messages) {
      if (m.fromMe || m.routed !== 'inbox' || !m.conversationId.startsWith('direct:')) continue;
      const peer = m.conversationId.slice(7);
      byPeer.set(peer, [...(byPeer.get(peer) ?? []), m.id]);
    }
    for (const [peer, ids] of byPeer) this.signals.receipt(peer, ids, 'delivered');
  }

  private filesCodec: VaultCodec | null = null;

  private passphraseCodec(passphrase: string): VaultCodec {
    return passphraseCodec(passphrase, scryptFor(passphrase, this.opts.scrypt));
  }

  /** Fetch received files in the background as they arrive (the CLI fetches them itself, then prints). */
  autoFetchFiles = true;

  /** The CLI prints here: after the commit, before the ack. */
  committedHook: ((applied: AppliedIncoming) => void | Promise<void>) | null = null;

  // =========================================================================================
  // plumbing

  private nowMs(): number {
    return (this.opts.now ?? Date.now)();
  }

  private me(): { address: string; deviceKey: string } {
    if (!this.identity) throw new MessengerError('no-wallet', 'this profile has no wallet yet');
    return this.identity;
  }

  /** The API client, once the wallet is open and signed in. */
  private ready(): RelayApi {
    if (!this.unlocked) throw new MessengerError('locked', 'unlock the wallet first');
    return this.session.signedIn();
  }

  /** Stops the loop, waits for work in flight, closes the relay client, the vault worker and the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signals.close();
    this.changes.close();
    for (const t of this.typingUntil.values()) clearTimeout(t);
    await this.loop.close();
    this.session.close();
    await this.vault.close().catch(() => undefined);
    this.store.close();
    this.events.removeAllListeners();
  }
}

function apiKeyInfo(k: ApiKeyMeta): ApiKeyInfo {
  return { id: k.id, label: k.label, prefix: k.prefix, deviceKey: k.deviceKey, createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt };
}

export { VaultError };
