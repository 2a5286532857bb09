import type { Recipient } from './doorbell.js';

/** Why a held pull stopped waiting. */
export type WakeReason = 'rung' | 'timeout' | 'replaced' | 'shutdown' | 'aborted';

export interface Waiter {
  readonly keyId: string;
  readonly address: string;
  /** null for a key bound to no device: it sees every envelope of its wallet */
  readonly deviceKey: string | null;
  /** when it was registered (ms since the epoch, strictly increasing on this node): the cluster's order of held pulls */
  readonly hold: number;
  /** Settles once, with the first reason. */
  readonly woken: Promise<WakeReason>;
  /** Stops waiting (removes the waiter) with this reason; later calls do nothing. */
  wake(reason: WakeReason): void;
}

export class TooManyWaiters extends Error {
  constructor(readonly max: number) {
    super(`this relay holds at most ${max} pulls at once; retry shortly or pull without wait`);
    this.name = 'TooManyWaiters';
  }
}

/**
 * Held pulls, indexed by wallet (what a ring names) and by credential (one held pull each).
 * A waiter is removed the moment it wakes for any reason, so the registry only ever holds
 * live requests.
 */
export class WaiterRegistry {
  readonly #byAddress = new Map<string, Set<Waiter>>();
  readonly #byKey = new Map<string, Waiter>();
  readonly #max: number;
  readonly #onRegister: (keyId: string, hold: number) => void;
  #lastHold = 0;
  #closed = false;

  /** `onRegister` hears of every held pull with its registration time (a cluster tells its other nodes). */
  constructor(max: number, onRegister: (keyId: string, hold: number) => void = () => undefined) {
    this.#max = max;
    this.#onRegister = onRegister;
  }

  get size(): number {
    return this.#byKey.size;
  }

  /**
   * Registers a held pull for `ms` milliseconds. A held pull of the same credential is
   * answered at once (reason `replaced`); past the node's cap this throws TooManyWaiters.
   */
  register(keyId: string, address: string, deviceKey: string | null, ms: number): Waiter {
    this.#byKey.get(keyId)?.wake('replaced');
    const hold = (this.#lastHold = Math.max(performance.timeOrigin + performance.now(), this.#lastHold + 0.001));
    if (this.#closed) return { keyId, address, deviceKey, hold, woken: Promise.resolve('shutdown'), wake: () => undefined };
    if (this.#byKey.size >= this.#max) throw new TooManyWaiters(this.#max);
    let settle!: (r: WakeReason) => void;
    const woken = new Promise<WakeReason>((resolve) => (settle = resolve));
    let done = false;
    const timer = setTimeout(() => waiter.wake('timeout'), ms);
    const waiter: Waiter = {
      keyId,
      address,
      deviceKey,
      hold,
      woken,
      wake: (reason) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (this.#byKey.get(keyId) === waiter) this.#byKey.delete(keyId);
        const set = this.#byAddress.get(address);
        if (set) {
          set.delete(waiter);
          if (set.size === 0) this.#byAddress.delete(address);
        }
        settle(reason);
      },
    };
    this.#byKey.set(keyId, waiter);
    let set = this.#byAddress.get(address);
    if (!set) this.#byAddress.set(address, (set = new Set()));
    set.add(waiter);
    this.#onRegister(keyId, hold);
    return waiter;
  }

  /**
   * Another node's announcement of a held pull of `keyId`, registered at `hold`. Our pull of that
   * credential is answered (as replaced) when the other one is the later: every node compares the
   * same two registration times (ties broken by node name, `outranks`), so every node reaches the
   * same verdict whatever order the announcements arrive in, and exactly the last pull stays held.
   */
  heard(keyId: string, hold: number, outranks: boolean): void {
    const w = this.#byKey.get(keyId);
    if (w && (hold > w.hold || (hold === w.hold && outranks))) w.wake('replaced');
  }

  /**
   * Wakes the held pulls that can see an envelope for each recipient: an unbound envelope
   * wakes every pull of its wallet, a device's envelope wakes that device's pulls and those of
   * keys bound to no device.
   */
  ring(recipients: readonly Recipient[]): void {
    for (const r of recipients) {
      const set = this.#byAddress.get(r.address);
      if (!set) continue;
      for (const w of [...set]) if (r.deviceKey === null || w.deviceKey === null || w.deviceKey === r.deviceKey) w.wake('rung');
    }
  }

  /** Answers every held pull, and every later one at once (shutdown). */
  close(): void {
    this.#closed = true;
    for (const w of [...this.#byKey.values()]) w.wake('shutdown');
  }
}
