/**
 * The wallet's life in a profile: created or imported, unlocked (opening the encrypted
 * database and the relay key beside it), locked; and who we are while it is open. And its
 * recovery phrase: kept in the vault, shown again without a passphrase only until the person
 * confirms writing it down (a reload or a restart of setup comes back to it), with it after.
 */
import type { AppStatus } from '../../../shared/domain.js';
import type { CommandArgs } from '../../../shared/ipc.js';
import { passphraseCodec, scryptFor, type ScryptParams, type VaultCodec } from '../../vault/keys/secret-codec.js';
import { forgetTicket, ticketingCodec, ticketPath } from '../../vault/keys/unlock-ticket.js';
import type { VaultClient } from '../../vault/worker/vault-client.js';
import type { LocalStore } from '../store/local-store.js';
import type { ProfileDatabase } from '../store/profile-database.js';
import { effectivePassphrase } from '../store/profile-passphrase.js';
import type { FeatureHandlers } from './feature-context.js';
import { MessengerError } from './messenger-error.js';
import type { RelaySession } from './relay-session.js';

export interface ProfileWalletDeps {
  vault: VaultClient;
  database: ProfileDatabase;
  /** the profile's settings: whether the new wallet's phrase still waits for its confirmation */
  store: Pick<LocalStore, 'getSetting' | 'setSetting'>;
  session: RelaySession;
  profileDir: string;
  /** the OS-keychain codec (Electron); without it the passphrase protects the profile */
  codec?: VaultCodec;
  /** test seam: the scrypt cost of the passphrase wraps; default N=2^17 */
  scrypt?: ScryptParams;
  /** the database is open: what ran out while it was closed goes (messages/message-changes.ts) */
  onDatabaseOpen(): void;
  /** locked: the background work that needs the keys stops */
  onLock(): void;
  appStatus(): Promise<AppStatus>;
  onOpened(status: AppStatus): void;
}

/** profile setting: set while a new wallet's phrase waits for the person to confirm it */
const PHRASE_UNCONFIRMED = 'recovery-phrase-unconfirmed';

export class ProfileWallet {
  identity: { address: string; deviceKey: string } | null = null;
  unlocked = false;
  /** the kept files' codec while unlocked (attachments/) */
  filesCodec: VaultCodec | null = null;

  constructor(private readonly d: ProfileWalletDeps) {}

  handlers(): FeatureHandlers<
    | 'wallet.create'
    | 'wallet.importMnemonic'
    | 'wallet.importPrivateKey'
    | 'wallet.unlock'
    | 'wallet.recoveryPhrase'
    | 'wallet.confirmPhrase'
  > {
    return {
      'wallet.create': (a) => this.create(a),
      'wallet.importMnemonic': (a) => this.importMnemonic(a),
      'wallet.importPrivateKey': (a) => this.importPrivateKey(a),
      'wallet.unlock': (a) => this.unlock(a),
      'wallet.recoveryPhrase': (a) => this.recoveryPhrase(a),
      'wallet.confirmPhrase': () => this.confirmPhrase(),
    };
  }

  private passphraseCodec(passphrase: string, opts?: { deriveAhead: boolean }): VaultCodec {
    return passphraseCodec(passphrase, scryptFor(passphrase, this.d.scrypt), opts);
  }

  /**
   * The API key's codec for a new wallet: a new wallet signs in next, and sealing its API key
   * costs a scrypt; derived from now on, beside the vault's own (`init` ran the two in a row).
   */
  private newWalletCodec(passphrase: string): VaultCodec | undefined {
    return this.d.codec ? undefined : this.passphraseCodec(passphrase, { deriveAhead: true });
  }

  me(): { address: string; deviceKey: string } {
    if (!this.identity) throw new MessengerError('no-wallet', 'this profile has no wallet yet');
    return this.identity;
  }

  async create(a: CommandArgs<'wallet.create'>): Promise<{ address: string; mnemonic: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    const codec = this.newWalletCodec(passphrase);
    const w = await this.d.vault.createWallet(this.d.codec ? {} : { passphrase });
    await this.opened(w.address, w.deviceKey, passphrase, codec, true);
    return { address: w.address, mnemonic: w.mnemonic };
  }

  /** Where the recovery phrase stands (AppStatus.recoveryPhrase); null while locked. */
  async phraseStatus(): Promise<'unconfirmed' | 'kept' | 'none' | null> {
    if (!this.unlocked) return null;
    const { hasRecoveryPhrase } = await this.d.vault.status();
    if (hasRecoveryPhrase === null) return null;
    if (!hasRecoveryPhrase) return 'none';
    return this.d.store.getSetting(PHRASE_UNCONFIRMED) === '1' ? 'unconfirmed' : 'kept';
  }

  /**
   * The phrase again: while it waits for its confirmation, as setup shows it; after that only
   * against the passphrase (the vault checks it), unless the OS keychain protects the wallet.
   */
  async recoveryPhrase(a: CommandArgs<'wallet.recoveryPhrase'>): Promise<{ phrase: string | null }> {
    if (!this.unlocked) throw new MessengerError('locked', 'unlock the wallet first');
    if (a.passphrase === undefined) {
      if ((await this.phraseStatus()) !== 'unconfirmed')
        throw new MessengerError('passphrase-required', 'type your passphrase to see the recovery phrase');
      return this.d.vault.recoveryPhrase();
    }
    return this.d.vault.recoveryPhrase(this.d.codec ? {} : { passphrase: effectivePassphrase(a.passphrase) });
  }

  async confirmPhrase(): Promise<AppStatus> {
    this.d.store.setSetting(PHRASE_UNCONFIRMED, null);
    const status = await this.d.appStatus();
    this.d.onOpened(status);
    return status;
  }

  async importMnemonic(a: CommandArgs<'wallet.importMnemonic'>): Promise<{ address: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    // pasted phrases come with stray spaces, line breaks and capitals
    const mnemonic = a.mnemonic.trim().toLowerCase().split(/\s+/).join(' ');
    const codec = this.newWalletCodec(passphrase);
    const w = await this.d.vault.importMnemonic({ mnemonic, ...(this.d.codec ? {} : { passphrase }) });
    await this.opened(w.address, w.deviceKey, passphrase, codec);
    return { address: w.address };
  }

  async importPrivateKey(a: CommandArgs<'wallet.importPrivateKey'>): Promise<{ address: string }> {
    const passphrase = effectivePassphrase(a.passphrase);
    const codec = this.newWalletCodec(passphrase);
    const w = await this.d.vault.importPrivateKey({
      privateKey: a.privateKey.trim(),
      ...(this.d.codec ? {} : { passphrase }),
    });
    await this.opened(w.address, w.deviceKey, passphrase, codec);
    return { address: w.address };
  }

  /**
   * `rememberMs` (the command-line client): keep this unlock for so long in unlock tickets, so
   * the next command skips both scrypts (vault/keys/unlock-ticket.ts); 0 forgets them.
   */
  async unlock(a: CommandArgs<'wallet.unlock'>, opts: { rememberMs?: number } = {}): Promise<AppStatus> {
    const { session, vault } = this.d;
    const passphrase = effectivePassphrase(a.passphrase);
    const remember = this.d.codec ? undefined : opts.rememberMs;
    const apiKeyTicket = ticketPath(this.d.profileDir, 'api-key');
    if (remember === 0) forgetTicket(apiKeyTicket);
    const plain = this.d.codec ?? this.passphraseCodec(passphrase);
    const codec = remember ? ticketingCodec(plain, { passphrase, path: apiKeyTicket, ttlMs: remember }) : plain;
    // both unwraps cost a scrypt: run the API key's beside the vault's, unless the key is in the
    // encrypted database, which opens only once the vault is unlocked
    const apiKey = this.d.database.hasProfileData ? session.unwrapStoredKey(codec) : null;
    const st = await vault.unlock(
      this.d.codec ? {} : { passphrase, ...(remember === undefined ? {} : { rememberMs: remember }) },
    );
    await (apiKey ?? this.openDatabase().then(() => session.unwrapStoredKey(codec)));
    await this.opened(st.address!, st.deviceKey!, passphrase, codec);
    return this.d.appStatus();
  }

  /** Locks the vault and forgets any remembered unlock (the CLI's `lock`). */
  async lock(): Promise<void> {
    forgetTicket(ticketPath(this.d.profileDir, 'api-key'));
    this.unlocked = false;
    this.filesCodec = null;
    this.d.onLock();
    this.d.database.lock();
    await this.d.vault.lock();
  }

  private async opened(
    address: string,
    deviceKey: string,
    passphrase: string,
    codec?: VaultCodec,
    newPhrase = false,
  ): Promise<void> {
    const { session } = this.d;
    await this.openDatabase();
    // in the encrypted database, so that a reload or a restart of setup comes back to the phrase
    if (newPhrase) this.d.store.setSetting(PHRASE_UNCONFIRMED, '1');
    this.identity = { address: address.toLowerCase(), deviceKey: deviceKey.toLowerCase() };
    this.unlocked = true;
    session.setCodec(codec ?? this.d.codec ?? this.passphraseCodec(passphrase));
    // not the API key's remembering codec: its one ticket would then hold the file key instead
    this.filesCodec = this.d.codec ?? this.passphraseCodec(passphrase);
    if (session.hasRelay()) {
      try {
        await session.ensureSignedIn();
      } catch (e) {
        // the wallet is open either way; the relay's trouble shows in relay.status
        session.failed(e);
      }
    }
    this.d.onOpened(await this.d.appStatus());
  }

  /** The profile's database, encrypted, in place of the store in memory (or the clear file): profile-database.ts. */
  private async openDatabase(): Promise<void> {
    await this.d.database.unlock();
    this.d.session.reload();
    this.d.onDatabaseOpen();
  }
}
