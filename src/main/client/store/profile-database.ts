/**
 * The profile's database file (client.db) encrypted at rest with a key the vault derives from
 * the device secret and gives only while unlocked (VaultCore.databaseKey).
 *
 * Before the unlock an encrypted file cannot be read, so the store works in memory; the settings
 * written meanwhile (the relay chosen on the first screen) are carried into the file when it
 * opens. A clear file (a profile from before encryption, or a new one whose wallet is not made
 * yet) is used as it is until the unlock, which encrypts it in place, crash-safely
 * (sqlite/encrypt-in-place.ts). Locking closes the file again.
 */
import { databaseFileState } from '../../sqlite/database-cipher.js';
import { LocalStore } from './local-store.js';
import type { StoreAccess } from './store-worker-client.js';

export interface DatabaseKeySource {
  databaseKey(): Promise<{ key: string }>;
}

export class ProfileDatabase {
  /** whether the store has the file open with its key (false: clear file, or in memory) */
  private keyed = false;
  private inMemory: boolean;

  constructor(
    private readonly file: string,
    private readonly store: LocalStore,
    private readonly vault: DatabaseKeySource,
  ) {
    this.inMemory = databaseFileState(file) === 'encrypted';
  }

  /** The store to hand the rest of the client: the clear file if that is what there is, else memory until unlock. */
  static openStore(file: string): LocalStore {
    return databaseFileState(file) === 'encrypted' ? LocalStore.inMemory() : LocalStore.open(file);
  }

  /** Whether what the store holds now is the profile's own data (false while an encrypted file waits for its key). */
  get hasProfileData(): boolean {
    return !this.inMemory;
  }

  /** Opens the file with its key (encrypting a clear one first); the vault must be unlocked. */
  async unlock(): Promise<void> {
    if (this.keyed) return;
    const key = Buffer.from((await this.vault.databaseKey()).key, 'hex');
    try {
      const carried = this.inMemory ? this.store.allSettings() : [];
      this.store.switchTo(this.file, { key });
      for (const s of carried) this.store.setSetting(s.key, s.value);
    } finally {
      // SQLite keeps its own copy for the connection; this one is not needed any more
      key.fill(0);
    }
    this.keyed = true;
    this.inMemory = false;
  }

  /**
   * How the store worker opens this same file on a connection of its own, for the heavy work of
   * backups and history: null while the store is in memory. The key is asked of the vault anew,
   * for the worker alone (its copy here is zeroed as it is sent).
   */
  async access(): Promise<StoreAccess | null> {
    if (this.inMemory) return null;
    if (!this.keyed) return { file: this.file };
    return { file: this.file, key: Buffer.from((await this.vault.databaseKey()).key, 'hex') };
  }

  /** Closes the file: until the next unlock the store is in memory again. */
  lock(): void {
    if (!this.keyed) return;
    this.store.switchTo(':memory:');
    this.keyed = false;
    this.inMemory = true;
  }
}
