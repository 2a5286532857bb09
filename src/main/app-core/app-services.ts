/**
 * Everything main owns, in plain Node (no electron import, so tests and web mode use it as
 * is): the embedded relay (a child process) and the Messenger (which owns the vault worker
 * and the local database). Electron's doorway and web mode's socket both talk to it through
 * `handlers`, one per command of the contract, and listen to `onEvent`.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { AppStatus, ConversationId, RelayStatus } from '../../shared/domain.js';
import { eventNames, type CommandArgs, type EventName, type Events } from '../../shared/ipc.js';
import { Messenger } from '../client/core/messenger.js';
import type { Handlers } from '../commands/handler-types.js';
import { AppError } from '../../shared/plain-errors.js';
import { useKeychainCodec, type KeychainRefusal } from '../shell-guards.js';
import { warmResponseChecks } from '../client/network/relay-api.js';
import { warmCertificateChecks } from '../vault/signing/device-certificate.js';
import type { VaultCodec } from '../vault/keys/secret-codec.js';
import { readVaultHeader } from '../vault/keys/vault-file.js';
import { AttachmentCommands, eventWithFiles, withFiles } from './attachment-commands.js';
import {
  readLegacyRelay,
  readSettings,
  writeSettings,
  type AppSettings,
  type LegacyRelayChoice,
} from './app-settings.js';
import { EmbeddedRelay, type RelayLauncher } from './embedded-relay.js';
import { myRelayHandlers } from './my-relay.js';
import { lockProfile } from './profile-lock.js';

export interface AppServicesOptions {
  /** the profile: Messenger's folder (vault, client.db), the embedded relay's, settings */
  dataDir: string;
  shell: 'electron' | 'web';
  relayLauncher: RelayLauncher;
  /**
   * Electron's safeStorage as a vault codec, and why it must not protect new vaults (Linux's
   * `basic_text` fallback, or no keychain at all); without it the passphrase protects the vault.
   */
  keychain?: { codec: VaultCodec; refusal: KeychainRefusal };
  openExternal: (url: string) => Promise<void>;
  /**
   * Shows a desktop notification the shell's way (Electron's Notification; `onClick` when it
   * is clicked); absent in web mode, where the page uses the browser's own.
   */
  notify?: (n: { title: string; body: string; onClick: () => void }) => boolean;
  /**
   * Asks where to save a file: a received file, or a backup (with its file type). Electron's save
   * dialog; null: cancelled. Absent in web mode, where the page downloads it.
   */
  chooseSavePath?: (
    defaultName: string,
    filters?: Array<{ name: string; extensions: string[] }>,
  ) => Promise<string | null>;
  /** Messenger's background sync period (tests shorten it) */
  pollIntervalMs?: number;
}

type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;

/** The contract's schema checked the pattern; this gives the id the type of one of its two forms. */
function conversationIdOrNull(id: string | undefined): ConversationId | null {
  if (id?.startsWith('direct:')) return `direct:${id.slice('direct:'.length)}`;
  if (id?.startsWith('group:')) return `group:${id.slice('group:'.length)}`;
  return null;
}

const RESTART_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000, 30_000];
/** after start, when the page's first commands are answered */
const WARM_CHECKS_AFTER_MS = 3000;

export class AppServices {
  private commandTable: Handlers | null = null;
  private readonly emitter = new EventEmitter();
  private readonly relay: EmbeddedRelay;
  private settings: AppSettings;
  /** the relay an older settings file held, until the profile's database has adopted (or overruled) it */
  private legacyRelay: LegacyRelayChoice | null;
  private messenger!: Messenger;
  private releaseLock: (() => void) | null = null;
  private restarts = 0;
  private closed = false;
  /** the keychain codec this launch gave the vault, if any */
  private vaultCodec: VaultCodec | undefined;
  private localStarting: Promise<unknown> | null = null;

  private constructor(private readonly opts: AppServicesOptions) {
    this.settings = readSettings(opts.dataDir);
    this.legacyRelay = readLegacyRelay(opts.dataDir);
    this.relay = new EmbeddedRelay({ launcher: opts.relayLauncher, dataDir: join(opts.dataDir, 'relay') });
    // After close() the Messenger's database is shut: a relay exiting then (Ctrl-C reaches the
    // whole process group) must not ask it for anything.
    this.relay.on('status', () => {
      if (!this.closed) this.emit('relay.status', this.relayStatus());
    });
    this.relay.on('exit', () => this.localRelayCrashed());
    this.emitter.setMaxListeners(50);
  }

  /** Takes the profile, starts the local relay when enabled, opens the Messenger and, when it can, the wallet. */
  static async start(opts: AppServicesOptions): Promise<AppServices> {
    const s = new AppServices(opts);
    s.releaseLock = lockProfile(opts.dataDir);
    try {
      s.vaultCodec = await s.chooseVaultCodec();
      s.messenger = await Messenger.open({
        profileDir: s.profileDir(),
        shell: opts.shell,
        codec: s.vaultCodec,
        localRelay: () => s.relay.status(),
        ...(opts.pollIntervalMs ? { pollIntervalMs: opts.pollIntervalMs } : {}),
      });
      for (const name of eventNames) s.forwardEvent(name);
      // The built-in relay runs when the profile uses it or shares it, not because it exists:
      // first use starts it on demand, when "This computer" is chosen. Which relay the profile
      // uses is in its database, readable only once the wallet opens (which signs in there), so
      // until then the relay's own switch tells: choosing another relay turned it off unless shared.
      const { hasWallet } = await s.messenger.vault.status();
      const wanted = s.settings.localRelay.lan || (s.legacyRelay ? s.legacyRelay.mode === 'local' : hasWallet);
      if (wanted && s.settings.localRelay.enabled) await s.startLocalRelay().catch(() => undefined);
      await s.tryOpenWallet();
      await s.profileOpened();
      // A long-lived shell warms this thread's certificate check and the checks of a send's
      // answers once it has settled (the vault worker warms its own): a first group send then
      // runs at full speed.
      setTimeout(() => {
        warmResponseChecks();
        void warmCertificateChecks().catch(() => undefined);
      }, WARM_CHECKS_AFTER_MS).unref();
      return s;
    } catch (e) {
      await s.close();
      throw e;
    }
  }

  private profileDir(): string {
    return join(this.opts.dataDir, 'profile');
  }

  /**
   * The keychain protects new vaults only when it is a real one (see shell-guards.ts); a vault
   * it already protects can only be opened with it, so that one keeps it (and Settings says
   * how weak that is).
   */
  private async chooseVaultCodec(): Promise<VaultCodec | undefined> {
    const k = this.opts.keychain;
    if (!k) return undefined;
    const existing =
      k.refusal === null ? null : ((await readVaultHeader(this.profileDir()).catch(() => null))?.protection ?? null);
    return useKeychainCodec(k.refusal, existing) ? k.codec : undefined;
  }

  /** What the status says about the keychain. */
  private keychainStatus(): Pick<AppStatus, 'keychain' | 'keychainRefused'> {
    return { keychain: this.vaultCodec !== undefined, keychainRefused: this.opts.keychain?.refusal ?? null };
  }

  /**
   * A keychain vault opens without asking, and so does one created without a passphrase
   * (the Messenger's stand-in); a real passphrase waits for the unlock screen.
   */
  private async tryOpenWallet(): Promise<void> {
    const st = await this.messenger.vault.status();
    if (!st.hasWallet || st.unlocked) return;
    await this.messenger.wallet.unlock({ passphrase: '' }).catch(() => undefined);
  }

  /**
   * Once the profile's database is open (at start with a keychain or no passphrase, else at
   * unlock): an older settings file's relay is adopted if the profile has none, and a profile on
   * the built-in relay follows it to the port it listens on now.
   */
  private async profileOpened(): Promise<void> {
    if (!(await this.messenger.vault.status()).unlocked) return;
    const legacy = this.legacyRelay;
    if (legacy) {
      if (this.messenger.relayStatus().mode === null && legacy.mode !== 'local' && legacy.url) {
        await this.messenger
          .connectRelay(
            {
              mode: legacy.mode,
              url: legacy.url,
              ...(legacy.mode === 'lan' && legacy.fingerprint ? { fingerprint: legacy.fingerprint } : {}),
            },
            { untried: true },
          )
          .catch(() => undefined);
      }
      this.legacyRelay = null;
      writeSettings(this.opts.dataDir, this.settings);
    }
    const st = this.relay.status();
    const usesLocal =
      this.messenger.relayStatus().mode === 'local' ||
      (legacy?.mode === 'local' && this.messenger.relayStatus().mode === null);
    if (usesLocal && st.running && st.url !== this.messenger.relayStatus().url) {
      await this.messenger
        .connectRelay(
          { mode: 'local', url: st.url!, ...(st.lan ? { fingerprint: st.lan.fingerprint } : {}) },
          { untried: true },
        )
        .catch(() => undefined);
    }
  }

  onEvent(fn: Listener): () => void {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }

  /** Generic in the event, so that its name and payload stay one pair on the way through. */
  private forwardEvent<E extends EventName>(name: E): void {
    this.messenger.on(name, (payload) => this.emit(name, eventWithFiles(this.messenger.attachments, name, payload)));
  }

  /**
   * In order: no more events out, the sync loop and the database, then the relay, then the
   * profile lock. From the first moment of it, a relay child that exits (Ctrl-C reaches it too)
   * is not started again.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.emitter.removeAllListeners();
    await this.messenger?.close().catch(() => undefined);
    await this.relay.stop().catch(() => undefined);
    this.relay.removeAllListeners();
    this.releaseLock?.();
  }

  /** A shutdown asked for again: the relay child ends now instead of finishing what it serves. */
  hurryClose(): void {
    this.relay.kill();
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    if (event === 'app.status') payload = { ...(payload as AppStatus), ...this.keychainStatus() } as Events[E];
    this.emitter.emit('event', event, payload);
  }

  // ---- the embedded relay ---------------------------------------------------------------

  private startLocalRelay(): Promise<unknown> {
    if (this.localStarting) return this.localStarting;
    this.localStarting = this.relay
      .start({ port: this.settings.localRelay.port, lan: this.settings.localRelay.lan })
      .then((s) => {
        this.restarts = 0;
        if (s.port !== this.settings.localRelay.port)
          this.saveSettings({ localRelay: { ...this.settings.localRelay, port: s.port } });
        return s;
      })
      .finally(() => {
        this.localStarting = null;
      });
    return this.localStarting;
  }

  /** Like VS Code's utility processes: a crash becomes a restart, with backoff. */
  private localRelayCrashed(): void {
    if (this.closed || !this.settings.localRelay.enabled) return;
    const delay = RESTART_BACKOFF_MS[Math.min(this.restarts, RESTART_BACKOFF_MS.length - 1)];
    this.restarts++;
    setTimeout(() => {
      if (!this.closed && this.settings.localRelay.enabled)
        this.startLocalRelay().catch(() => this.localRelayCrashed());
    }, delay).unref();
  }

  private async ensureLocalRelay(): Promise<{ url: string; fingerprint: string | null }> {
    if (!this.settings.localRelay.enabled)
      this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled: true } });
    if (!this.relay.status().running) await this.startLocalRelay();
    const s = this.relay.status();
    if (!s.url) throw new AppError('relay-down', 'The relay on this computer is not running.');
    // With LAN sharing on, the local relay speaks HTTPS with its own certificate: pin it.
    return { url: s.url, fingerprint: s.lan?.fingerprint ?? null };
  }

  relayStatus(): RelayStatus {
    return this.messenger
      ? this.messenger.relayStatus()
      : { mode: null, url: null, connected: false, lastError: null, local: this.relay.status() };
  }

  async status(): Promise<AppStatus> {
    return { ...(await this.messenger.appStatus()), ...this.keychainStatus() };
  }

  private saveSettings(patch: Partial<AppSettings>): void {
    this.settings = { ...this.settings, ...patch };
    writeSettings(this.opts.dataDir, this.settings);
  }

  // ---- commands ---------------------------------------------------------------------------

  /** One per command of the contract; built on first use, which start() makes sure is after the Messenger opened. */
  get handlers(): Handlers {
    return (this.commandTable ??= this.createHandlers());
  }

  /** The Messenger's handlers, with the shell's own commands and the ones whose answer the shell completes. */
  private createHandlers(): Handlers {
    const files = new AttachmentCommands({
      messenger: () => this.messenger,
      profileDir: this.profileDir(),
      chooseSavePath: this.opts.chooseSavePath,
      emitProgress: (p) => this.emit('file.progress', p),
    });
    return {
      ...this.messenger.handlers(),
      ...files.handlers(),
      ...myRelayHandlers(() => {
        const local = this.relay.status();
        return local.running ? (local.dataDir ?? null) : null;
      }),
      'messages.list': async (a) => withFiles(this.messenger.attachments, this.messenger.messages.listMessages(a)),
      'app.status': () => this.status(),
      'wallet.unlock': async (a) => {
        await this.messenger.wallet.unlock(a);
        await this.profileOpened();
        return this.status();
      },
      'relay.connect': (a) => this.connect(a),
      'profile.claimHandle': async (a) => {
        await this.messenger.claimHandle(a);
        return this.status();
      },
      'relay.status': async () => this.relayStatus(),
      'relay.setLocal': async ({ enabled }) => {
        this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled } });
        if (enabled) await this.startLocalRelay();
        else await this.relay.stop();
        return this.relayStatus();
      },
      'relay.shareOnLan': async ({ enabled }) => {
        this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled: true, lan: enabled } });
        await this.relay.stop();
        await this.startLocalRelay();
        // The scheme and the certificate to pin changed under the client: point it again.
        if (this.messenger.relayStatus().mode === 'local') {
          const t = this.relay.status();
          await this.messenger
            .connectRelay(
              { mode: 'local', url: t.url!, ...(t.lan ? { fingerprint: t.lan.fingerprint } : {}) },
              { untried: true },
            )
            .catch(() => undefined);
        }
        return this.relayStatus();
      },
      'notifications.show': async ({ title, body, conversationId }) => {
        const shown =
          this.opts.notify?.({
            title,
            body,
            onClick: () => this.emit('notification.clicked', { conversationId: conversationIdOrNull(conversationId) }),
          }) ?? false;
        return { shown };
      },
      'backup.export': async ({ passphrase }) => {
        if (!this.opts.chooseSavePath) return this.messenger.backupFolder.export(passphrase);
        const path = await this.opts.chooseSavePath(`relay-${new Date().toISOString().slice(0, 10)}.relaybackup`, [
          { name: 'Relay backup', extensions: ['relaybackup'] },
        ]);
        return path === null ? null : this.messenger.backupFolder.export(passphrase, path);
      },
      'links.openExternal': async ({ url }) => {
        const u = new URL(url);
        if (u.protocol !== 'https:' && u.protocol !== 'http:')
          throw new AppError('bad-arguments', 'Only web links can be opened.');
        await this.opts.openExternal(u.href);
      },
    };
  }

  /**
   * "This computer" resolves to the embedded relay; the other modes pass their URL through.
   * The Messenger checks the address, signs in there before switching and keeps the choice in
   * the profile's database: the one place a relay choice is parsed, checked and stored.
   */
  private async connect(a: CommandArgs<'relay.connect'>): Promise<AppStatus> {
    if (a.mode === 'local') {
      const t = await this.ensureLocalRelay();
      await this.messenger.connectRelay({
        mode: 'local',
        url: t.url,
        ...(t.fingerprint ? { fingerprint: t.fingerprint } : {}),
      });
      return this.status();
    }
    // A missing address gets the same message as a mistyped one; only a LAN relay pins a fingerprint.
    await this.messenger.connectRelay({
      mode: a.mode,
      url: a.url ?? '',
      ...(a.mode === 'lan' ? { fingerprint: a.fingerprint ?? '' } : {}),
      ...(a.invite ? { invite: a.invite } : {}),
    });
    // Left for another relay, the built-in one has no one to serve unless it is shared.
    if (!this.settings.localRelay.lan && this.settings.localRelay.enabled) {
      this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled: false } });
      await this.relay.stop();
    }
    return this.status();
  }
}
