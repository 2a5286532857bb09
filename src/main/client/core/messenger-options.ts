/** How a Messenger is opened: its profile folder, the shell around it, and the test seams. */
import type { RelayStatus } from '../../../shared/domain.js';
import type { ScryptParams, VaultCodec } from '../../vault/keys/secret-codec.js';
import type { ScheduleTimer } from '../messages/message-changes.js';
import type { CrashPoint } from './sync-pass.js';

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
