/**
 * Everything main owns, in plain Node (no electron import, so tests and web mode use it as
 * is): the embedded relay, the vault, and the messenger client. Electron's doorway and web
 * mode's socket both talk to it through `handlers` (one per command of the contract) and
 * listen to `onEvent`.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import type { AppStatus, RelayStatus } from '../../shared/domain.js';
import type { EventName, Events } from '../../shared/ipc.js';
import type { Handlers } from '../ipc/handler-types.js';
import { AppError } from '../ipc/plain-errors.js';
import type { VaultCodec } from '../vault/secret-codec.js';
import { VaultClient } from '../vault/vault-client.js';
import { readSettings, writeSettings, type AppSettings } from './app-settings.js';
import { EmbeddedRelay, type RelayLauncher } from './embedded-relay.js';
import { clientHandlers, openClientSession, type ClientSession } from './client-session.js';
import { lockProfile } from './profile-lock.js';

export interface AppServicesOptions {
  /** the profile: vault, client database, embedded relay data, settings */
  dataDir: string;
  shell: 'electron' | 'web';
  relayLauncher: RelayLauncher;
  /** Electron's safeStorage; without it the vault asks for a passphrase */
  vaultCodec?: VaultCodec;
  vaultWorkerEntry?: string | URL;
  openExternal: (url: string) => Promise<void>;
}

type Listener = <E extends EventName>(event: E, payload: Events[E]) => void;

const RESTART_BACKOFF_MS = [1000, 2000, 5000, 10_000, 30_000];

export class AppServices {
  readonly handlers: Handlers;
  private readonly emitter = new EventEmitter();
  private readonly vault: VaultClient;
  private readonly relay: EmbeddedRelay;
  private settings: AppSettings;
  private client: ClientSession | null = null;
  private clientError: string | null = null;
  private unlock: (() => void) | null = null;
  private restarts = 0;
  private closed = false;
  private localStarting: Promise<unknown> | null = null;

  constructor(private readonly opts: AppServicesOptions) {
    this.settings = readSettings(opts.dataDir);
    this.vault = new VaultClient({ profileDir: join(opts.dataDir, 'vault'), codec: opts.vaultCodec, workerEntry: opts.vaultWorkerEntry });
    this.relay = new EmbeddedRelay({ launcher: opts.relayLauncher, dataDir: join(opts.dataDir, 'relay') });
    this.relay.on('status', () => this.emit('relay.status', this.relayStatus()));
    this.relay.on('exit', () => this.localRelayCrashed());
    this.handlers = this.createHandlers();
  }

  /** Takes the profile, starts the local relay when enabled, and reopens a known session. */
  async start(): Promise<void> {
    this.unlock = lockProfile(this.opts.dataDir);
    if (this.settings.localRelay.enabled) this.startLocalRelay().catch(() => undefined);
    const v = await this.vault.status();
    // A keychain-protected vault opens without asking; a passphrase one waits for the user.
    if (v.hasWallet && !v.unlocked && v.protection === 'codec') await this.vault.unlock({}).catch(() => undefined);
    if ((await this.vault.status()).unlocked && this.settings.relay) await this.openClient().catch(() => undefined);
  }

  onEvent(fn: Listener): () => void {
    const f = (event: EventName, payload: unknown) => fn(event, payload as never);
    this.emitter.on('event', f);
    return () => this.emitter.off('event', f);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client?.close().catch(() => undefined);
    this.client = null;
    await this.relay.stop().catch(() => undefined);
    await this.vault.close().catch(() => undefined);
    this.unlock?.();
  }

  private emit<E extends EventName>(event: E, payload: Events[E]): void {
    this.emitter.emit('event', event, payload);
  }

  // ---- relay ---------------------------------------------------------------------------

  private startLocalRelay(): Promise<unknown> {
    if (this.localStarting) return this.localStarting;
    this.localStarting = this.relay
      .start({ port: this.settings.localRelay.port, lan: this.settings.localRelay.lan })
      .then((s) => {
        this.restarts = 0;
        if (s.port !== this.settings.localRelay.port) this.saveSettings({ localRelay: { ...this.settings.localRelay, port: s.port } });
        return s;
      })
      .finally(() => {
        this.localStarting = null;
      });
    return this.localStarting;
  }

  private localRelayCrashed(): void {
    if (this.closed || !this.settings.localRelay.enabled) return;
    const delay = RESTART_BACKOFF_MS[Math.min(this.restarts, RESTART_BACKOFF_MS.length - 1)];
    this.restarts++;
    setTimeout(() => {
      if (!this.closed && this.settings.localRelay.enabled) this.startLocalRelay().catch(() => undefined);
    }, delay).unref();
  }

  /** The URL and pin the client should use for the chosen relay. */
  private async relayTarget(): Promise<{ url: string; fingerprint: string | null }> {
    const choice = this.settings.relay;
    if (!choice) throw new AppError('no-relay', 'Choose a relay first.');
    if (choice.mode !== 'local') return { url: choice.url!, fingerprint: choice.fingerprint };
    if (!this.relay.status().running) {
      if (!this.settings.localRelay.enabled) this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled: true } });
      await this.startLocalRelay();
    }
    const s = this.relay.status();
    // With LAN sharing on, the local relay speaks HTTPS with its own certificate: pin it.
    return { url: s.url!, fingerprint: s.lan?.fingerprint ?? null };
  }

  relayStatus(): RelayStatus {
    const local = this.relay.status();
    const choice = this.settings.relay;
    const conn = this.client?.connection() ?? { connected: false, lastError: this.clientError };
    return {
      mode: choice?.mode ?? null,
      url: choice ? (choice.mode === 'local' ? local.url : choice.url) : null,
      connected: conn.connected,
      lastError: conn.lastError,
      local: { running: local.running, url: local.url, lan: local.lan },
    };
  }

  // ---- client --------------------------------------------------------------------------

  private async openClient(): Promise<void> {
    await this.client?.close().catch(() => undefined);
    this.client = null;
    const v = await this.vault.status();
    if (!v.unlocked || !v.address || !v.deviceKey) throw new AppError('locked', 'Unlock the app first.');
    const target = await this.relayTarget();
    try {
      this.client = await openClientSession({
        dataDir: join(this.opts.dataDir, 'client'),
        vault: this.vault,
        relayUrl: target.url,
        fingerprint: target.fingerprint,
        address: v.address,
        deviceKey: v.deviceKey,
        emit: (event, payload) => {
          this.emit(event, payload);
          if (event === 'sync.status') this.emit('relay.status', this.relayStatus());
        },
      });
      this.clientError = null;
    } catch (e) {
      this.clientError = (e as Error).message;
      throw e;
    }
    this.emit('app.status', await this.status());
  }

  private requireClient(): ClientSession {
    if (!this.client) throw new AppError('not-connected', 'Not connected to a relay yet.');
    return this.client;
  }

  async status(): Promise<AppStatus> {
    const v = await this.vault.status();
    return {
      shell: this.opts.shell,
      hasWallet: v.hasWallet,
      unlocked: v.unlocked,
      ready: v.unlocked && this.client !== null,
      address: v.address,
      handle: this.client?.handle() ?? null,
      deviceKey: v.deviceKey,
      relay: this.relayStatus(),
      keychain: this.opts.vaultCodec !== undefined,
    };
  }

  private saveSettings(patch: Partial<AppSettings>): void {
    this.settings = { ...this.settings, ...patch };
    writeSettings(this.opts.dataDir, this.settings);
  }

  // ---- commands ------------------------------------------------------------------------

  private createHandlers(): Handlers {
    const client = () => this.requireClient();
    const passphrase = (p: string) => (this.opts.vaultCodec ? {} : { passphrase: p });
    return {
      'app.status': () => this.status(),

      'wallet.create': async ({ passphrase: p }) => {
        const w = await this.vault.createWallet(passphrase(p));
        this.emit('app.status', await this.status());
        return { address: w.address, mnemonic: w.mnemonic };
      },
      'wallet.importMnemonic': async ({ mnemonic, passphrase: p }) => {
        const w = await this.vault.importMnemonic({ mnemonic: mnemonic.trim().toLowerCase().split(/\s+/).join(' '), ...passphrase(p) });
        this.emit('app.status', await this.status());
        return { address: w.address };
      },
      'wallet.importPrivateKey': async ({ privateKey, passphrase: p }) => {
        const w = await this.vault.importPrivateKey({ privateKey: privateKey.trim(), ...passphrase(p) });
        this.emit('app.status', await this.status());
        return { address: w.address };
      },
      'wallet.unlock': async ({ passphrase: p }) => {
        await this.vault.unlock(passphrase(p));
        if (this.settings.relay) await this.openClient().catch(() => undefined);
        return this.status();
      },

      'relay.connect': async ({ mode, url, fingerprint }) => {
        const previous = this.settings.relay;
        if (mode !== 'local') {
          if (!url) throw new AppError('bad-arguments', 'Enter the relay’s address.');
          let u: URL;
          try {
            u = new URL(url);
          } catch {
            throw new AppError('bad-arguments', 'That relay address is not a valid URL.');
          }
          if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError('bad-arguments', 'A relay address starts with http:// or https://.');
          if (mode === 'lan' && u.protocol !== 'https:') throw new AppError('bad-arguments', 'A shared network relay uses an https:// address.');
          if (mode === 'lan' && !fingerprint) throw new AppError('bad-arguments', 'Enter the fingerprint shown by the computer that shares the relay.');
        }
        this.saveSettings({ relay: { mode, url: mode === 'local' ? null : url!.replace(/\/+$/, ''), fingerprint: mode === 'lan' ? fingerprint! : null } });
        try {
          await this.openClient();
        } catch (e) {
          this.saveSettings({ relay: previous });
          throw e;
        }
        return this.status();
      },
      'profile.claimHandle': async ({ handle }) => {
        await client().claimHandle(handle);
        const s = await this.status();
        this.emit('app.status', s);
        return s;
      },

      'relay.status': async () => this.relayStatus(),
      'relay.setLocal': async ({ enabled }) => {
        this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled } });
        if (enabled) await this.startLocalRelay();
        else await this.relay.stop();
        return this.relayStatus();
      },
      'relay.shareOnLan': async ({ enabled }) => {
        if (!this.relay.status().running && !enabled) {
          this.saveSettings({ localRelay: { ...this.settings.localRelay, lan: false } });
          return this.relayStatus();
        }
        this.saveSettings({ localRelay: { ...this.settings.localRelay, enabled: true, lan: enabled } });
        await this.relay.stop();
        await this.startLocalRelay();
        // The scheme (and the certificate to pin) changed under the client: reconnect it.
        if (this.settings.relay?.mode === 'local' && this.client) await this.openClient().catch(() => undefined);
        return this.relayStatus();
      },

      'links.openExternal': async ({ url }) => {
        const u = new URL(url);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new AppError('bad-arguments', 'Only web links can be opened.');
        await this.opts.openExternal(u.href);
      },

      ...clientHandlers(client),
    };
  }
}
