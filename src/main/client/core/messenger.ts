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
 * Every command of `src/shared/ipc.ts` but the shell's own (`relay.setLocal`, `relay.shareOnLan`,
 * `links.openExternal`, `notifications.show`, `attachments.*`) is served by one feature module
 * (connection.ts, profile-wallet.ts, groups/, contacts/, account/, conversations/, messages/,
 * stakes/, trust/, history/, backup/), each exporting its part of the command table;
 * `handlers()` is their merge, typed so that a missing command fails to compile. Arguments are
 * normalised there (mnemonic spacing, address case), so the app and the CLI get the same.
 *
 * Errors are thrown as MessengerError / RelayError / NetworkError / VaultError; map them to
 * `{ code, message }` with `toIpcError` (src/shared/plain-errors.ts), as the doorway and the CLI do.
 *
 * ## Events
 * `on(name, fn)` (returns an unsubscribe function) for the Events of ipc.ts: `message.new` (stored,
 * received or composed here), `message.updated` (state changed), `conversation.updated`,
 * `message.rejected` (a received envelope failed a check and was dropped, nothing kept),
 * `request.new` (one per sender, keyed by address), `contact.updated` (a handle was learned),
 * `sync.status`, `relay.status`, `app.status`.
 *
 * ## Life cycle
 * `Messenger.open({ profileDir })` → (first run) `createWallet` or an import → `connectRelay`
 * (the RelaySession signs in: SIWE challenge signed by the vault, this device registered
 * with its certificate, the `sk_live_` key stored sealed with the vault's codec) → ready. On
 * later runs: `unlock` → ready. When ready, the SyncLoop flushes the outbox and pulls (paced
 * to stay inside 120 requests a minute) unless `autoSync: false`. `close()` at exit.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppStatus, RelayStatus, SyncStatus } from '../../../shared/domain.js';
import type { CommandArgs, EventName, Events } from '../../../shared/ipc.js';
import { VaultClient } from '../../vault/worker/vault-client.js';
import { VaultError } from '../../vault/vault-error.js';
import { Account } from '../account/account.js';
import { Attachments } from '../attachments/attachments.js';
import { backupHandlers } from '../backup/backup-commands.js';
import { BackupFolder, Backups } from '../backup/backups.js';
import { Contacts } from '../contacts/contacts.js';
import { Conversations } from '../conversations/conversations.js';
import { Groups } from '../groups/groups.js';
import { archiveSink, archiveSource } from '../history/history-archive.js';
import { historyHandlers } from '../history/history-commands.js';
import { HistoryTransfer } from '../history/history-transfer.js';
import { MessageChanges } from '../messages/message-changes.js';
import { Messages } from '../messages/messages.js';
import type { RelayApi } from '../network/relay-api.js';
import { Stakes } from '../stakes/stakes.js';
import { LocalStore, type AppliedIncoming } from '../store/local-store.js';
import { EMPTY_PASSPHRASE_STANDIN, effectivePassphrase } from '../store/profile-passphrase.js';
import { ProfileDatabase } from '../store/profile-database.js';
import { StoreWorker } from '../store/store-worker-client.js';
import { CertifiedDevices } from '../trust/certified-devices.js';
import { Trust } from '../trust/trust.js';
import { ClientEvents } from './client-events.js';
import { Connection } from './connection.js';
import type { ClientHandlers, FeatureContext } from './feature-context.js';
import { MessengerError } from './messenger-error.js';
import { Outbox } from './outbox.js';
import { RelaySession, DEVICE_REVOKED_MESSAGE } from './relay-session.js';
import { Signals } from '../conversations/receipts-and-typing.js';
import { SyncPass, type SyncPassResult } from './sync-pass.js';
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
  private readonly events: ClientEvents;
  private readonly session: RelaySession;
  /** client.db, encrypted with the vault's database key */
  private readonly database: ProfileDatabase;
  /** the wallet's life here, and who we are while it is open */
  readonly wallet: ProfileWallet;
  private readonly devices: CertifiedDevices;
  private readonly outbox: Outbox;
  private readonly passes: SyncPass;
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
  /** app and relay status, the relay choice, the handle */
  private readonly connection: Connection;
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
    this.events = new ClientEvents({
      store,
      hasIdentity: () => this.wallet.identity !== null,
      // never against the store in memory of a locked profile: it refers to no file, so all would go
      onMessageGone: () => {
        if (this.database.hasProfileData) void this.attachments.sweepFiles().catch(() => undefined);
      },
    });
    const now = opts.now ?? Date.now;
    this.session = new RelaySession({
      store,
      vault,
      me: () => this.me(),
      now,
      requestsPerMinute: opts.requestsPerMinute,
      onChange: () => this.events.emit('relay.status', this.relayStatus()),
      onSigningIn: () => this.loop.start(),
      onRevoked: () => {
        this.loop.stop();
        void this.appStatus().then(
          (st) => this.events.emit('app.status', st),
          () => undefined,
        );
      },
    });
    if (opts.codec) this.session.setCodec(opts.codec);
    const api = () => this.session.requireApi();
    this.devices = new CertifiedDevices(api, store, now, undefined, (a, list) => this.trust.observe(a, list));
    this.trust = new Trust({
      store,
      fetchDevices: (a) => this.devices.fetch(a),
      me: () => this.me(),
      now,
      onNotice: (n) => this.events.emit('devices.changed', n),
    });
    // What the outbox and the sync pass both need: the relay, the vault, the local store, who we are.
    const shared = { api, vault, store, devices: this.devices, me: () => this.me(), now };
    this.outbox = new Outbox({
      ...shared,
      onUpdated: (m) => {
        this.events.emit('message.updated', m);
        this.events.emitConversation(m.conversationId);
      },
      onStakeQuote: (id, quote) => this.stakes.noteQuote(id, quote),
      holdsBack: (peer) => this.trust.holdsBack(peer),
      onNotAMember: (groupId) => this.groups.noLongerMember(groupId),
    });
    this.stakes = new Stakes({
      ...shared,
      api: () => this.ready(),
      outbox: this.outbox,
      onUpdated: (m) => this.events.emit('message.updated', m),
    });
    // backups and history do their database work in the store worker, off the main thread
    const offThread = { worker: new StoreWorker(), profile: () => this.database.access() };
    const archive = { store, files: () => this.attachments.archiveFiles(), wallet: () => this.me().address, offThread };
    this.history = new HistoryTransfer({
      ...shared,
      ...opts.history,
      profileDir: opts.profileDir,
      source: () => archiveSource(archive),
      sink: () => archiveSink({ ...archive, tempDir: join(opts.profileDir, 'history') }),
      onProgress: (p) => this.events.emit('history.progress', p),
      onNewOwnDevice: () => this.outbox.forgetOwnDevices(),
      onOutcome: (o) => {
        this.events.emit('history.outcome', o);
        this.changes.reschedule();
        for (const c of this.store.listConversations()) this.events.emit('conversation.updated', c);
      },
    });
    this.passes = new SyncPass({
      ...shared,
      history: this.history,
      crashAt: opts.crashAt ?? null,
      pullLimit: opts.pullLimit,
      onCommitted: (applied) => this.onCommitted(applied),
      onRejected: (r) => this.events.emit('message.rejected', r),
      onSignals: (signals) => {
        this.conversations.applySignals(signals);
        this.groups.signalsArrived(signals);
      },
    });
    this.changes = new MessageChanges({
      store,
      outbox: this.outbox,
      me: () => this.me(),
      now,
      schedule: opts.expiryTimer,
      onMessage: (event, m) => this.events.emit(event, m),
      onRemoved: (removed) => this.events.emit('message.removed', removed),
      onConversation: (id) => this.events.emitConversation(id),
      onQueued: () => void this.messages.kickOutbox(),
    });
    this.signals = new Signals({ api, vault, devices: this.devices, me: () => this.me(), now });
    this.attachments = new Attachments({
      api,
      store,
      profileDir: opts.profileDir,
      codec: () => this.wallet.filesCodec,
      onUpdated: (id) => {
        const m = this.store.getMessage(id);
        if (m) this.events.emit('message.updated', m);
      },
      onDownloadProgress: (id, index, done, total) =>
        this.events.emit('file.progress', { direction: 'down', id, index, done, total }),
      onRefused: (r) =>
        this.events.emit('message.rejected', {
          envelopeId: `${r.messageId}/${r.index}`,
          claimedSender: this.store.getMessage(r.messageId)?.from ?? '',
          reason: `file "${r.name}": ${r.reason}`,
        }),
    });
    this.backups = new Backups({
      store,
      profileDir: opts.profileDir,
      attachments: this.attachments,
      wallet: () => this.me().address,
      openStore: (f, key) => LocalStore.open(f, { key }),
      offThread,
    });
    this.backupFolder = new BackupFolder(this.backups, opts.profileDir, (p) => this.events.emit('backup.progress', p));
    this.loop = new SyncLoop({
      session: this.session,
      outbox: this.outbox,
      passes: this.passes,
      store,
      now,
      pollIntervalMs: opts.pollIntervalMs,
      autoSync: opts.autoSync !== false,
      mayRun: () => this.wallet.unlocked && this.session.hasRelay() && !this.session.isRevoked(),
      refreshGroup: (id) => this.groups.refresh(id),
      onHandleLearned: (known) => {
        this.events.emit('contact.updated', known);
        this.events.emitConversation(`direct:${known.address}`);
        const request = this.store.getRequest(known.address);
        if (request) this.events.emit('request.new', request);
      },
      onStatus: (st) => this.events.emit('sync.status', st),
    });
    this.wallet = new ProfileWallet({
      vault,
      database: this.database,
      store,
      session: this.session,
      profileDir: opts.profileDir,
      codec: opts.codec,
      scrypt: opts.scrypt,
      onDatabaseOpen: () => this.changes.expireDue(),
      onLock: () => {
        this.attachments.lock();
        this.loop.stop();
      },
      appStatus: () => this.appStatus(),
      onOpened: (st) => this.events.emit('app.status', st),
    });
    this.connection = new Connection({
      vault,
      session: this.session,
      wallet: this.wallet,
      loop: this.loop,
      shell: opts.shell ?? 'electron',
      localRelay: opts.localRelay,
      emit: (e, p) => this.events.emit(e, p),
      ready: () => this.ready(),
    });
    const ctx: FeatureContext = {
      store,
      emit: (e, p) => this.events.emit(e, p),
      emitConversation: (id) => this.events.emitConversation(id),
      me: () => this.me(),
      ready: () => this.ready(),
      nowMs: () => this.nowMs(),
    };
    const wantHandles = (addresses: readonly string[]) => this.loop.wantHandles(addresses);
    this.contacts = new Contacts({
      ...ctx,
      stakes: this.stakes,
      wantHandles,
      requestAccepted: (address) => this.conversations.requestAccepted(address),
    });
    const resolveRecipient = (to: string) => this.contacts.resolveRecipient(to);
    const tellRemoved = (member: string, groupId: string) => this.signals.groupRemoved(member, groupId);
    this.groups = new Groups({ ...ctx, resolveRecipient, block: (a) => this.contacts.block(a), tellRemoved });
    this.account = new Account({ ...ctx, trust: this.trust, history: this.history, whoami: () => this.whoami() });
    this.conversations = new Conversations({
      ...ctx,
      signals: this.signals,
      session: this.session,
      resolveRecipient,
      wantHandles,
      onRead: (id) => this.changes.read(id),
    });
    const { outbox, changes, trust, signals, attachments, session } = this;
    this.messages = new Messages({
      ...ctx,
      outbox,
      changes,
      trust,
      signals,
      attachments,
      session,
      announce: () => this.loop.announce(),
    });
  }

  /** Opens (creating) the profile folder, its database and its vault worker. */
  static async open(opts: MessengerOptions): Promise<Messenger> {
    mkdirSync(opts.profileDir, { recursive: true, mode: 0o700 });
    const vault = new VaultClient({
      profileDir: opts.profileDir,
      codec: opts.codec,
      timeoutMs: opts.vaultTimeoutMs,
      scrypt: opts.scrypt,
    });
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
      if (st.hasWallet && st.address && st.deviceKey)
        m.wallet.identity = { address: st.address, deviceKey: st.deviceKey };
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
    return this.events.on(event, fn);
  }

  // =========================================================================================
  // the command map: the merge of the features' tables and the Messenger's own

  handlers(): ClientHandlers {
    return {
      ...this.connection.handlers(),
      ...this.wallet.handlers(),
      ...this.conversations.handlers(),
      ...this.messages.handlers(),
      ...this.contacts.handlers(),
      ...this.groups.handlers(),
      ...this.account.handlers(),
      ...this.stakes.handlers(),
      ...this.trust.handlers(),
      ...historyHandlers(this.history),
      ...backupHandlers(this.backupFolder),
      'sync.now': () => this.syncNow(),
      'app.visibility': async (a) => this.loop.setVisible(a.visible),
    };
  }

  // =========================================================================================
  // status

  // the page's view of the profile and its relay: connection.ts
  appStatus(): Promise<AppStatus> {
    return this.connection.appStatus();
  }

  relayStatus(): RelayStatus {
    return this.connection.relayStatus();
  }

  syncStatus(): SyncStatus {
    return this.loop.syncStatus();
  }

  /** The wallet address and device key of this profile (null before a wallet exists). */
  whoami(): { address: string; deviceKey: string; handle: string | null } | null {
    const id = this.wallet.identity;
    return id ? { ...id, handle: this.session.handle } : null;
  }

  /** Points the profile at a relay, tried before adopted (connection.ts). */
  connectRelay(a: CommandArgs<'relay.connect'>, opts: { untried?: boolean } = {}): Promise<AppStatus> {
    return this.connection.connectRelay(a, opts);
  }

  claimHandle(a: CommandArgs<'profile.claimHandle'>): Promise<AppStatus> {
    return this.connection.claimHandle(a);
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
    for (const m of applied.messages) this.events.emit('message.new', m);
    for (const m of applied.changed) {
      this.events.emit('message.updated', m);
      this.events.emitConversation(m.conversationId);
    }
    for (const r of applied.refused)
      this.events.emit('message.rejected', { envelopeId: r.envelopeId, claimedSender: r.author, reason: r.reason });
    this.changes.reschedule();
    this.conversations.committed(applied);
    for (const id of applied.conversations) this.events.emitConversation(id);
    for (const r of applied.requests) this.events.emit('request.new', r);
    await this.committedHook?.(applied);
    this.loop.noteCommitted(applied);
    // files are fetched after the ack, off the sync path; the CLI awaits fetchPending itself
    if (this.autoFetchFiles && applied.messages.some((m) => this.attachments.hasPending(m.id)))
      void this.attachments.fetchPending().catch(() => undefined);
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
    this.events.close();
  }
}

export { VaultError };
