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
 * argument object and resolving to exactly its result type. Most live in the feature modules
 * (groups/, contacts/, account/, conversations/, messages/), each with its part of the command
 * table; `handlers()` merges them, typed so that a missing command fails to compile. Arguments
 * are normalised there (mnemonic spacing, address case), so the app and the CLI get the same.
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
import type { AppStatus, ChatMessage, ConversationId, RelayStatus, SyncStatus } from '../../../shared/domain.js';
import type { CommandArgs, EventName, Events } from '../../../shared/ipc.js';
import { fingerprintProblem, parseRelayUrl } from '../../../shared/relay-address.js';
import { bareHandle } from '../../../shared/identity-patterns.js';
import { VaultClient } from '../../vault/vault-client.js';
import { VaultError } from '../../vault/vault-error.js';
import { Account } from '../account/account.js';
import { Attachments } from '../attachments/attachments.js';
import { BackupFolder, Backups } from '../backup/backups.js';
import { Contacts } from '../contacts/contacts.js';
import { Conversations } from '../conversations/conversations.js';
import { Groups } from '../groups/groups.js';
import { archiveSink, archiveSource } from '../history/history-archive.js';
import { HistoryTransfer } from '../history/history-transfer.js';
import { MessageChanges } from '../messages/message-changes.js';
import { Messages } from '../messages/messages.js';
import type { RelayApi } from '../network/relay-api.js';
import { Stakes } from '../stakes/stakes.js';
import { LocalStore, type AppliedIncoming } from '../store/local-store.js';
import { EMPTY_PASSPHRASE_STANDIN, effectivePassphrase } from '../store/profile-passphrase.js';
import { ProfileDatabase } from '../store/profile-database.js';
import { CertifiedDevices } from '../trust/certified-devices.js';
import { Trust } from '../trust/trust.js';
import type { ClientHandlers, FeatureContext } from './feature-context.js';
import { MessengerError } from './messenger-error.js';
import { Outbox } from './outbox.js';
import { RelaySession, DEVICE_REVOKED_MESSAGE } from './relay-session.js';
import { Signals } from '../conversations/receipts-and-typing.js';
import { SyncEngine, type SyncPassResult } from './sync-pass.js';
import { SyncLoop } from './sync-loop.js';
import { ProfileWallet } from './profile-wallet.js';
import type { MessengerOptions } from './messenger-options.js';

export type { ClientCommand, ClientHandlers } from './feature-context.js';
export type { MessengerOptions } from './messenger-options.js';
export { EMPTY_PASSPHRASE_STANDIN, effectivePassphrase, DEVICE_REVOKED_MESSAGE };

const DB_FILE = 'client.db';

export class Messenger {
  readonly profileDir: string;
  readonly store: LocalStore;
  readonly vault: VaultClient;
  private readonly opts: MessengerOptions;
  private readonly events = new EventEmitter();
  private readonly session: RelaySession;
  /** client.db, encrypted with the vault's database key */
  private readonly database: ProfileDatabase;
  /** the wallet's life here, and who we are while it is open */
  readonly wallet: ProfileWallet;
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
  readonly backupFolder: BackupFolder;
  readonly backups: Backups;
  /** history to and from our other devices */
  readonly history: HistoryTransfer;
  // the features, each with its commands (feature-context.ts)
  readonly groups: Groups;
  readonly contacts: Contacts;
  readonly account: Account;
  readonly conversations: Conversations;
  readonly messages: Messages;
  private closed = false;
  /** Fetch received files in the background as they arrive (the CLI fetches them itself, then prints). */
  autoFetchFiles = true;
  /** The CLI prints here: after the commit, before the ack. */
  committedHook: ((applied: AppliedIncoming) => void | Promise<void>) | null = null;


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
      onSignals: (signals) => this.conversations.applySignals(signals),
    });
    this.changes = new MessageChanges({
      store, outbox: this.outbox, me: () => this.me(), now, schedule: opts.expiryTimer,
      onMessage: (event, m) => this.emit(event, m),
      onRemoved: (removed) => this.emit('message.removed', removed),
      onConversation: (id) => this.emitConversation(id),
      onQueued: () => void this.messages.kickOutbox(),
    });
    this.signals = new Signals({ api, vault, devices: this.devices, me: () => this.me(), now });
    this.attachments = new Attachments({
      api, store, profileDir: opts.profileDir, codec: () => this.wallet.filesCodec,
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
      mayRun: () => this.wallet.unlocked && this.session.hasRelay() && !this.session.isRevoked(),
      refreshGroup: (id) => this.groups.refresh(id),
      onHandleLearned: (known) => {
        this.emit('contact.updated', known);
        this.emitConversation(`direct:${known.address}`);
        const request = this.store.getRequest(known.address);
        if (request) this.emit('request.new', request);
      },
      onStatus: (st) => this.emit('sync.status', st),
    });
    this.wallet = new ProfileWallet({
      vault, database: this.database, session: this.session, profileDir: opts.profileDir, codec: opts.codec, scrypt: opts.scrypt,
      onDatabaseOpen: () => this.changes.expireDue(),
      onLock: () => {
        this.attachments.lock();
        this.loop.stop();
      },
      appStatus: () => this.appStatus(),
      onOpened: (st) => this.emit('app.status', st),
    });
    const ctx: FeatureContext = {
      store, emit: (e, p) => this.emit(e, p), emitConversation: (id) => this.emitConversation(id),
      me: () => this.me(), ready: () => this.ready(), nowMs: () => this.nowMs(),
    };
    const wantHandles = (addresses: readonly string[]) => this.loop.wantHandles(addresses);
    this.contacts = new Contacts({ ...ctx, stakes: this.stakes, wantHandles });
    const resolveRecipient = (to: string) => this.contacts.resolveRecipient(to);
    this.groups = new Groups({ ...ctx, resolveRecipient, block: (a) => this.contacts.block(a) });
    this.account = new Account({ ...ctx, trust: this.trust, history: this.history, whoami: () => this.whoami() });
    this.conversations = new Conversations({ ...ctx, signals: this.signals, session: this.session, resolveRecipient, wantHandles, onRead: (id) => this.changes.read(id) });
    const { outbox, changes, trust, signals, attachments, session } = this;
    this.messages = new Messages({ ...ctx, outbox, changes, trust, signals, attachments, session, announce: () => this.loop.announce() });
  }


  /** Opens (creating) the profile folder, its database and its vault worker. */
  static async open(opts: MessengerOptions): Promise<Messenger> {
    mkdirSync(opts.profileDir, { recursive: true, mode: 0o700 });
    const vault = new VaultClient({ profileDir: opts.profileDir, codec: opts.codec, timeoutMs: opts.vaultTimeoutMs, scrypt: opts.scrypt });
    // the worker's start (its own thread) goes on beside the store's opening and ours
    const status = vault.status();
    status.catch(() => undefined);
    let m: Messenger;
    try {
      m = new Messenger(opts, ProfileDatabase.openStore(join(opts.profileDir, DB_FILE)), vault);
    } catch (e) {
      await vault.close().catch(() => undefined);
      throw e;
    }
    try {
      const st = await status;
      if (st.hasWallet && st.address && st.deviceKey) m.wallet.identity = { address: st.address, deviceKey: st.deviceKey };
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
    if (!this.wallet.identity) return;
    const c = this.store.getConversation(id);
    if (c) this.emit('conversation.updated', c);
  }

  // =========================================================================================
  // the command map: the merge of the features' tables and the Messenger's own

  handlers(): ClientHandlers {
    return {
      ...this.conversations.handlers(),
      ...this.messages.handlers(),
      ...this.contacts.handlers(),
      ...this.groups.handlers(),
      ...this.account.handlers(),
      'app.status': () => this.appStatus(),
      'wallet.create': (a) => this.wallet.create(a),
      'wallet.importMnemonic': (a) => this.wallet.importMnemonic(a),
      'wallet.importPrivateKey': (a) => this.wallet.importPrivateKey(a),
      'wallet.unlock': (a) => this.wallet.unlock(a),
      'relay.connect': (a) => this.connectRelay(a),
      'relay.status': async () => this.relayStatus(),
      'profile.claimHandle': (a) => this.claimHandle(a),
      'stakes.settings': () => this.stakes.settings(),
      'stakes.setRpcUrl': (a) => this.stakes.setRpcUrl(a.chainId, a.url),
      'stakes.list': (a) => this.stakes.list(a.role),
      'stakes.pay': (a) => this.stakes.pay(a.messageId),
      'stakes.refund': (a) => this.stakes.refund(a.id),
      'contacts.safetyNumber': (a) => this.trust.safetyNumber(a.address),
      'contacts.verify': (a) => this.trust.verify(a.address, a.verified),
      'contacts.trust': async (a) => this.trust.status(a.address, true),
      'history.send': (a) => this.history.send(a.deviceKey),
      'history.decline': async (a) => this.history.decline(a.deviceKey),
      'sync.now': () => this.syncNow(),
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
      lastErrorDetail: this.session.lastErrorDetail,
      revoked: this.session.isRevoked(),
      local: this.opts.localRelay?.() ?? { running: false, url: null, lan: null },
    };
  }

  syncStatus(): SyncStatus {
    return this.loop.syncStatus();
  }

  /** The wallet address and device key of this profile (null before a wallet exists). */
  whoami(): { address: string; deviceKey: string; handle: string | null } | null {
    const id = this.wallet.identity;
    return id ? { ...id, handle: this.session.handle } : null;
  }

  // =========================================================================================
  // relay connection and sign-in

  /**
   * Points the profile at a relay (a resolved URL; the fingerprint pins a self-signed LAN
   * certificate). With an unlocked wallet it signs in there first and switches only when that
   * worked; a failure is thrown and the profile stays on its relay. `untried`: the shell moves
   * the profile to where its own built-in relay now listens, which is not a choice to refuse.
   */
  async connectRelay(a: CommandArgs<'relay.connect'>, opts: { untried?: boolean } = {}): Promise<AppStatus> {
    if (!a.url && a.mode === 'local') throw new MessengerError('bad-argument', 'relay.connect needs the relay URL (the shell resolves the local mode)');
    const parsed = parseRelayUrl(a.url ?? '');
    if ('problem' in parsed) throw new MessengerError('bad-argument', parsed.problem);
    if (a.mode === 'lan' && !parsed.url.startsWith('https://')) throw new MessengerError('bad-argument', 'A relay shared on a network uses an https:// address.');
    // a relay shared on a network is known by its pinned certificate: no fingerprint, no LAN relay
    const fingerprint = a.fingerprint?.trim() ?? (a.mode === 'lan' ? '' : undefined);
    const fpProblem = fingerprint === undefined ? null : fingerprintProblem(fingerprint);
    if (fpProblem) throw new MessengerError('bad-argument', fpProblem);
    // Tried before adopted: a mistyped or dead relay leaves the profile where it was, still syncing.
    if (this.wallet.unlocked && !opts.untried) {
      await this.session.switchTo(a.mode, parsed.url, fingerprint ?? null).catch((e: unknown) => {
        // the sign-in started the loop; with no relay to go back to, it has nothing to do
        if (!this.session.hasRelay()) this.loop.stop();
        throw e;
      });
    } else {
      this.loop.stop();
      this.session.pointAt(a.mode, parsed.url, fingerprint ?? null);
      if (this.wallet.unlocked) await this.session.ensureSignedIn().catch((e: unknown) => this.session.failed(e));
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
    this.conversations.committed(applied);
    for (const id of applied.conversations) this.emitConversation(id);
    for (const r of applied.requests) this.emit('request.new', r);
    await this.committedHook?.(applied);
    this.loop.noteCommitted(applied);
    // files are fetched after the ack, off the sync path; the CLI awaits fetchPending itself
    if (this.autoFetchFiles && applied.messages.some((m) => this.attachments.hasPending(m.id))) void this.attachments.fetchPending().catch(() => undefined);
    if (this.autoFetchFiles && this.history.hasPending()) void this.history.importPending().catch(() => undefined);
  }


  // =========================================================================================
  // plumbing

  private nowMs(): number {
    return (this.opts.now ?? Date.now)();
  }

  private me(): { address: string; deviceKey: string } {
    return this.wallet.me();
  }

  /** The API client, once the wallet is open and signed in. */
  private ready(): RelayApi {
    if (!this.wallet.unlocked) throw new MessengerError('locked', 'unlock the wallet first');
    return this.session.signedIn();
  }

  /** Stops the loop, waits for work in flight, closes the relay client, the vault worker and the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.signals.close();
    this.changes.close();
    this.conversations.close();
    await this.loop.close();
    this.session.close();
    await this.vault.close().catch(() => undefined);
    this.store.close();
    this.events.removeAllListeners();
  }
}

export { VaultError };