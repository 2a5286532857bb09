/**
 * The limits of a running relay, read on every request rather than captured at start, so that a
 * reload (SIGHUP) changes them without a restart and without dropping a connection. Everything
 * else in RelayConfig (addresses, the base URL, stakes) is fixed for the life of the process.
 */
import type { ServeOptions } from '../cli-args.js';
import { DEFAULT_CONFIG, type RelayConfig } from '../config.js';
import type { RegistrationMode } from '../store/moderation-rows.js';

/** The settings a reload may change, as RelayConfig names them. */
export const RELOADABLE = [
  'rateLimit',
  'retentionDays',
  'maxHeldPulls',
  'maxQueued',
  'maxQueuedMib',
  'maxRequestsPerPair',
  'minFreeDiskMib',
  'maxGroupsPerWallet',
  'maxKeysPerWallet',
  'maxBlobMib',
  'maxBlobStorageMib',
] as const;

export type ReloadableKey = (typeof RELOADABLE)[number];
/** The numeric limits, and who may sign in for the first time, which a reload changes too. */
export type Limits = Pick<RelayConfig, ReloadableKey> & { registration: RegistrationMode };

/** The limits that `opts` sets, with the defaults for those it leaves out. */
export function limitsOf(opts: ServeOptions): Limits {
  return {
    rateLimit: opts.rateLimit,
    retentionDays: opts.retentionDays,
    maxHeldPulls: opts.maxHeldPulls ?? DEFAULT_CONFIG.maxHeldPulls,
    maxQueued: opts.maxQueued ?? DEFAULT_CONFIG.maxQueued,
    maxQueuedMib: opts.maxQueuedMib ?? DEFAULT_CONFIG.maxQueuedMib,
    maxRequestsPerPair: opts.maxRequestsPerPair ?? DEFAULT_CONFIG.maxRequestsPerPair,
    minFreeDiskMib: opts.minFreeDiskMib ?? DEFAULT_CONFIG.minFreeDiskMib,
    maxGroupsPerWallet: opts.maxGroupsPerWallet ?? DEFAULT_CONFIG.maxGroupsPerWallet,
    maxKeysPerWallet: opts.maxKeysPerWallet ?? DEFAULT_CONFIG.maxKeysPerWallet,
    maxBlobMib: opts.maxBlobMib ?? DEFAULT_CONFIG.maxBlobMib,
    maxBlobStorageMib: opts.maxBlobStorageMib ?? DEFAULT_CONFIG.maxBlobStorageMib,
    registration: opts.registration ?? 'open',
  };
}

export type LimitChange =
  | { key: ReloadableKey; from: number; to: number }
  | { key: 'registration'; from: RegistrationMode; to: RegistrationMode };

export interface Applied {
  changed: LimitChange[];
  /** changes a running relay cannot make, kept at their old values (and why) */
  refused: Array<LimitChange & { why: string }>;
}

export class LiveConfig {
  #config: RelayConfig;
  readonly #listeners = new Set<(config: Readonly<RelayConfig>, changed: LimitChange[]) => void>();

  constructor(config: RelayConfig) {
    this.#config = { ...config };
  }

  /** The configuration in force now; read it at the moment of use, never keep it. */
  get current(): Readonly<RelayConfig> {
    return this.#config;
  }

  /**
   * Puts `next`'s limits in force and says what changed. Turning the rate limit on or off is
   * refused: the limiter is registered (or not) when the app is built, and changing that would
   * mean a new app, hence dropped connections; its number changes freely.
   */
  apply(next: Limits): Applied {
    const changed: LimitChange[] = [];
    const refused: Applied['refused'] = [];
    const updated = { ...this.#config };
    const registration = this.#config.registration ?? 'open';
    if (registration !== next.registration) {
      updated.registration = next.registration;
      changed.push({ key: 'registration', from: registration, to: next.registration });
    }
    for (const key of RELOADABLE) {
      const from = this.#config[key];
      const to = next[key];
      if (from === to) continue;
      if (key === 'rateLimit' && (from === 0) !== (to === 0)) {
        refused.push({ key, from, to, why: 'turning the rate limit on or off takes a restart' });
        continue;
      }
      updated[key] = to;
      changed.push({ key, from, to });
    }
    this.#config = updated;
    if (changed.length > 0) for (const listener of this.#listeners) listener(updated, changed);
    return { changed, refused };
  }

  /** Hears every change (after it is in force); returns the unsubscribe. */
  onChange(listener: (config: Readonly<RelayConfig>, changed: LimitChange[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
