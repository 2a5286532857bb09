/**
 * The profile's tie to its relay: which relay (URL, pinned fingerprint, mode), the `sk_live_`
 * key for it (sealed in the local database with the vault's codec), signing in, whether this
 * device was revoked there, and the connection state that relay.status reports. Every change
 * of that state goes through `succeeded` / `failed` here, so the status has one author.
 */
import type { RelayMode } from '../../../shared/domain.js';
import type { VaultCodec } from '../../vault/keys/secret-codec.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { LocalStore } from '../store/local-store.js';
import { toIpcError } from '../../../shared/plain-errors.js';
import { MessengerError } from './messenger-error.js';
import { RelayApi, RelayError, credentialRefused, isTransient } from '../network/relay-api.js';
import { RequestPacer } from '../network/request-pacer.js';
import { openSecret, sealSecret } from '../store/sealed-secret.js';

/** What a revoked device is told, whichever command found out. */
export const DEVICE_REVOKED_MESSAGE =
  'This device was revoked (from another device of this wallet): it keeps the messages already on it, but can no longer send or receive through this relay. ' +
  'To use this wallet here again, import it into a new profile, which gets a new device key.';

export function revokedError(): MessengerError {
  return new MessengerError('device-revoked', DEVICE_REVOKED_MESSAGE);
}

const S = {
  relayMode: 'relay.mode',
  relayUrl: 'relay.url',
  relayFingerprint: 'relay.fingerprint',
  handle: 'handle',
  apiKey: (origin: string) => `apiKey:${origin}`,
  deviceRevoked: (origin: string) => `deviceRevoked:${origin}`,
} as const;

export interface RelaySessionDeps {
  store: LocalStore;
  vault: Pick<VaultClient, 'signSiwe' | 'deviceCertificate'>;
  me: () => { address: string; deviceKey: string };
  now: () => number;
  /** client-side request budget per minute (see RequestPacer) */
  requestsPerMinute?: number;
  /** the connection state changed: relay.status is worth sending */
  onChange: () => void;
  /** a sign-in began: the sync loop retries one that fails because the relay is away */
  onSigningIn: () => void;
  /** this device turned out revoked: nothing more goes to this relay */
  onRevoked: () => void;
}

interface ConnectionState {
  connected: boolean;
  /** a sentence for people, from the one error mapper */
  lastError: string | null;
  /** the raw text behind it (`connect ECONNREFUSED …`), shown only on asking */
  lastErrorDetail: string | null;
}

export class RelaySession {
  private api: RelayApi | null = null;
  private codec: VaultCodec | null = null;
  /**
   * The invite code given with the relay it is for, sent with the first sign-in there. Kept in
   * memory only: once a sign-in worked the relay knows the wallet and never asks again.
   */
  private invite: { origin: string; code: string } | null = null;
  private signingIn: Promise<void> | null = null;
  /** the key's pin each connection learnt from a pin on the whole certificate (http-transport.ts) */
  private readonly keyPins = new WeakMap<RelayApi, string>();
  /** the API key unwrapped during unlock (beside the vault's scrypt), used once by ensureSignedIn */
  private openedApiKey: { origin: string; key: string } | null = null;
  private state: ConnectionState = { connected: false, lastError: null, lastErrorDetail: null };

  constructor(private readonly d: RelaySessionDeps) {
    const url = d.store.getSetting(S.relayUrl);
    if (url) this.api = this.newApi(url, d.store.getSetting(S.relayFingerprint));
  }

  /** Takes the relay from the store again: the profile's own database opens only at unlock (profile-database.ts). */
  reload(): void {
    const url = this.d.store.getSetting(S.relayUrl);
    if (!url || url === this.api?.origin) return;
    this.api?.close();
    this.api = this.newApi(url, this.d.store.getSetting(S.relayFingerprint));
  }

  get connected(): boolean {
    return this.state.connected;
  }

  get lastError(): string | null {
    return this.state.lastError;
  }

  get lastErrorDetail(): string | null {
    return this.state.lastErrorDetail;
  }

  get mode(): RelayMode | null {
    return (this.d.store.getSetting(S.relayMode) as RelayMode | null) ?? null;
  }

  get url(): string | null {
    return this.d.store.getSetting(S.relayUrl);
  }

  /** Our handle as the relay last told us. */
  get handle(): string | null {
    return this.d.store.getSetting(S.handle);
  }

  set handle(h: string | null) {
    this.d.store.setSetting(S.handle, h);
  }

  hasRelay(): boolean {
    return this.api !== null;
  }

  /** Signed in (or at least holding a key) for the current relay. */
  hasCredential(): boolean {
    return this.api?.hasCredential() ?? false;
  }

  /** The codec that seals the API key: the wallet's, from the moment it opens. */
  setCodec(codec: VaultCodec): void {
    this.codec = codec;
  }

  /**
   * Starts unwrapping the stored key with `codec` (a scrypt for a passphrase codec) so that it
   * runs beside the vault's own unlock; a failure is ignored (the vault reports a wrong passphrase).
   */
  unwrapStoredKey(codec: VaultCodec): Promise<void> {
    const origin = this.api?.origin;
    const stored = origin ? this.d.store.getSetting(S.apiKey(origin)) : null;
    if (!origin || !stored) return Promise.resolve();
    return openSecret(codec, stored).then(
      (key) => {
        this.openedApiKey = { origin, key };
      },
      () => undefined,
    );
  }

  /** Points the profile at another relay (URL already checked) without trying it; the old client is closed. */
  pointAt(mode: RelayMode, url: string, fingerprint: string | null, invite?: string): void {
    const next = this.newApi(url, fingerprint);
    this.invite = invite ? { origin: next.origin, code: invite } : null;
    this.api?.close();
    this.adopt(mode, next, fingerprint);
  }

  /**
   * Signs in to another relay and only then makes it the profile's: on any failure the profile
   * stays on the relay it had (same client, same state, nothing saved) and the error is thrown.
   */
  async switchTo(mode: RelayMode, url: string, fingerprint: string | null, invite?: string): Promise<void> {
    const before = { api: this.api, state: this.state };
    const next = this.newApi(url, fingerprint);
    this.invite = invite ? { origin: next.origin, code: invite } : null;
    this.api = next;
    this.state = { connected: false, lastError: null, lastErrorDetail: null };
    try {
      await this.ensureSignedIn();
    } catch (e) {
      next.close();
      this.api = before.api;
      this.state = before.state;
      this.d.onChange();
      throw e;
    }
    before.api?.close();
    this.adopt(mode, next, fingerprint);
    this.state = { connected: true, lastError: null, lastErrorDetail: null };
    this.d.onChange();
  }

  private adopt(mode: RelayMode, api: RelayApi, fingerprint: string | null): void {
    this.api = api;
    this.d.store.setSetting(S.relayMode, mode);
    this.d.store.setSetting(S.relayUrl, api.origin);
    // a sign-in over a pin on the whole certificate has already told the key's pin
    this.d.store.setSetting(S.relayFingerprint, this.keyPins.get(api) ?? fingerprint);
    this.state = { connected: false, lastError: null, lastErrorDetail: null };
  }

  /** Uses the stored key for this relay, or signs in for a new one (device registered and bound). */
  ensureSignedIn(): Promise<void> {
    if (this.signingIn) return this.signingIn;
    this.signingIn = (async () => {
      const api = this.requireApi();
      this.d.onSigningIn();
      const stored = this.d.store.getSetting(S.apiKey(api.origin));
      const opened = this.openedApiKey;
      this.openedApiKey = null;
      if (this.isRevoked()) throw revokedError();
      if (stored && opened && opened.origin === api.origin) {
        api.setCredential(opened.key);
      } else if (stored && this.codec) {
        api.setCredential(await openSecret(this.codec, stored));
      } else {
        await this.signIn();
      }
      try {
        await this.refreshMe();
      } catch (e) {
        // A stored key the relay refuses: revoked with its device, or the relay was reset. A new
        // sign-in tells the two apart (a revoked device key cannot be registered again).
        if (!stored || !credentialRefused(e)) throw e;
        await this.signIn();
        await this.refreshMe();
      }
      this.succeeded();
    })().finally(() => {
      this.signingIn = null;
    });
    return this.signingIn;
  }

  private async signIn(): Promise<void> {
    const api = this.requireApi();
    const me = this.d.me();
    if (!this.codec) throw new MessengerError('locked', 'unlock the wallet first');
    const challenge = await api.challenge(me.address);
    const signed = await this.d.vault.signSiwe({ message: challenge.message, expectedUri: api.origin });
    const device = await this.d.vault.deviceCertificate();
    let res;
    try {
      res = await api.signIn({
        message: challenge.message,
        signature: signed.signature,
        label: 'device sign-in',
        device: { publicKey: device.publicKey, certificate: device.certificate },
        ...(this.invite?.origin === api.origin ? { invite: this.invite.code } : {}),
      });
    } catch (e) {
      // the relay knows this device key but no longer lists it: it was revoked
      if (e instanceof RelayError && e.status === 409 && e.code === 'device-exists') this.markRevoked();
      throw this.isRevoked() ? revokedError() : e;
    }
    this.invite = null;
    this.d.store.setSetting(S.apiKey(api.origin), await sealSecret(this.codec, res.apiKey));
    api.setCredential(res.apiKey);
  }

  private async refreshMe(): Promise<void> {
    const me = await this.requireApi().me();
    this.handle = me.handle;
  }

  isRevoked(): boolean {
    return this.api !== null && this.d.store.getSetting(S.deviceRevoked(this.api.origin)) !== null;
  }

  /** Remembered per relay, so every later command says so at once instead of a bare 401. */
  private markRevoked(): void {
    const api = this.requireApi();
    this.d.store.setSetting(S.deviceRevoked(api.origin), new Date(this.d.now()).toISOString());
    this.d.store.setSetting(S.apiKey(api.origin), null);
    api.setCredential(null);
    this.state = { connected: false, lastError: DEVICE_REVOKED_MESSAGE, lastErrorDetail: null };
    this.d.onRevoked();
    this.d.onChange();
  }

  /** The relay answered as expected. */
  succeeded(): void {
    if (this.state.connected && this.state.lastError === null) return;
    this.state = { connected: true, lastError: null, lastErrorDetail: null };
    this.d.onChange();
  }

  /**
   * A call failed: connected stays true when the relay answered (a refusal), false when it
   * could not be reached. A key the relay no longer takes is dropped, so the next cycle signs in again.
   */
  failed(e: unknown): void {
    if (credentialRefused(e) && (e as RelayError).code !== 'no-credential' && this.codec && this.api) {
      this.d.store.setSetting(S.apiKey(this.api.origin), null);
      this.api.setCredential(null);
    }
    if (this.isRevoked()) e = revokedError();
    const detail = e instanceof Error ? e.message : String(e);
    const plain = this.isRevoked() ? DEVICE_REVOKED_MESSAGE : toIpcError(e).message;
    this.state = {
      connected: !this.isRevoked() && !(isTransient(e) && !(e instanceof RelayError)),
      lastError: plain,
      lastErrorDetail: detail === plain ? null : detail,
    };
    this.d.onChange();
  }

  requireApi(): RelayApi {
    if (!this.api) throw new MessengerError('no-relay', 'no relay is configured (relay.connect)');
    return this.api;
  }

  /** The API client, signed in and not revoked (the caller checks that the wallet is open). */
  signedIn(): RelayApi {
    const api = this.requireApi();
    if (this.isRevoked()) throw revokedError();
    if (!api.hasCredential()) throw new MessengerError('not-signed-in', 'not signed in to the relay yet');
    return api;
  }

  close(): void {
    this.api?.close();
  }

  private newApi(url: string, fingerprint: string | null): RelayApi {
    const api: RelayApi = new RelayApi({
      baseUrl: url,
      fingerprint,
      pacer: new RequestPacer({ perMinute: this.d.requestsPerMinute }),
      // A pin on the whole certificate ends when the relay renews it; the key's pin does not.
      // Kept only while this connection is still the profile's choice.
      onKeyPin: (keyPin) => {
        this.keyPins.set(api, keyPin);
        if (this.api === api && this.d.store.getSetting(S.relayFingerprint) === fingerprint)
          this.d.store.setSetting(S.relayFingerprint, keyPin);
      },
    });
    return api;
  }
}
