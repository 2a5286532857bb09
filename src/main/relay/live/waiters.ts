import type { EnvelopeRow } from '../store/store.js';
import type { Recipient } from './doorbell.js';

/** Why a held pull stopped waiting. */
export type WakeReason = 'rung' | 'timeout' | 'replaced' | 'shutdown' | 'aborted' | 'revoked' | 'recheck';

/** Held pulls one wallet may have at once (docs/protocol.md, Limits); its next one answers its oldest. */
export const MAX_HELD_PER_WALLET = 16;

/**
 * A wallet's share of a node's cap on held pulls: MAX_HELD_PER_WALLET, but never more than a
 * twentieth of the node's cap (at least one), so that a few wallets with many keys each cannot
 * take every place and leave a bystander with 503.
 */
export const heldPerWallet = (nodeMax: number): number =>
  Math.min(MAX_HELD_PER_WALLET, Math.max(1, Math.floor(nodeMax / 20)));

/**
 * A revoked credential whose held pulls must stop: one key, every key bound to a device, every
 * key of a wallet (a suspension), or a bot token (which holds none).
 */
export type Revoked =
  { keyId: string } | { address: string; deviceKey: string } | { wallet: string } | { tokenId: string };

/** How long a revocation is remembered for pulls that were between looks when it came: past the longest wait. */
const REVOKED_MEMORY_MS = 30_000;

/**
 * The envelopes of the ring that woke a pull, and the wallet's ring count (`ringsOf`) just
 * before and just after that ring: the route answers with them instead of looking at the queue
 * when the count says that nothing else rang between its last look and now.
 */
export interface Handed {
  rows: EnvelopeRow[];
  before: number;
  after: number;
}

export interface Waiter {
  readonly keyId: string;
  readonly address: string;
  /** null for a key bound to no device: it sees only envelopes sealed to no device */
  readonly deviceKey: string | null;
  /** when it was registered (ms since the epoch, strictly increasing on this node): the cluster's order of held pulls */
  readonly hold: number;
  /** Settles once, with the first reason. */
  readonly woken: Promise<WakeReason>;
  /** What the ring that woke it carried, on a registry that hands envelopes over; otherwise null. */
  readonly handed: Handed | null;
  /** Stops waiting (removes the waiter) with this reason; later calls do nothing. */
  wake(reason: WakeReason, handed?: Handed): void;
}

/** Another node's held pull of a wallet, as it announced it; `until` is when its wait ends at the latest. */
export interface RemoteHold {
  keyId: string;
  address: string;
  hold: number;
  until: number;
}

export class TooManyWaiters extends Error {
  constructor(readonly max: number) {
    super(`this relay holds at most ${max} pulls at once; retry shortly or pull without wait`);
    this.name = 'TooManyWaiters';
  }
}

/** Buckets of the per-wallet ring counts (`ringsOf`): a power of two; wallets that share one only cost an extra look. */
const RING_BUCKETS = 4096;
const bucketOf = (address: string): number => {
  let h = 0;
  for (let i = address.length - 8; i < address.length; i++) h = (h * 31 + address.charCodeAt(i)) | 0;
  return h & (RING_BUCKETS - 1);
};

const clock = () => performance.timeOrigin + performance.now();
/** Whether a pull can see an envelope for this recipient: unbound ones are every key's; one sealed to a device only that device's. */
const sees = (w: Waiter, r: Recipient) => r.deviceKey === null || w.deviceKey === r.deviceKey;
const matches = (r: Revoked, keyId: string, address: string, deviceKey: string | null) =>
  'keyId' in r
    ? r.keyId === keyId
    : 'wallet' in r
      ? r.wallet === address
      : 'address' in r && r.address === address && r.deviceKey === deviceKey;

/**
 * Held pulls, indexed by wallet (what a ring names) and by credential (one held pull each).
 * A waiter is removed the moment it wakes for any reason, so the registry only ever holds
 * live requests. A wallet holds at most MAX_HELD_PER_WALLET; on a cluster that counts the
 * other nodes' pulls of the wallet too, as they announced them (`heardWallet`).
 */
export class WaiterRegistry {
  readonly #byAddress = new Map<string, Set<Waiter>>();
  readonly #byKey = new Map<string, Waiter>();
  /** the other nodes' held pulls by wallet, then by credential (the latest announced of each) */
  readonly #remote = new Map<string, Map<string, RemoteHold>>();
  /** recent revocations, for pulls that were looking at the inbox (not waiting) when one came */
  #revoked: Array<{ r: Revoked; at: number }> = [];
  /** rings heard, by bucket of wallets */
  readonly #rings = new Uint32Array(RING_BUCKETS);
  #max: number;
  readonly #handOver: boolean;
  readonly #onRegister: (keyId: string, hold: number, wallet: { address: string; until: number }) => void;
  #lastHold = 0;
  #heardSinceSweep = 0;
  #closed = false;

  /**
   * `onRegister` hears of every held pull with its registration time (a cluster tells its other
   * nodes). `handOver`: a woken pull is given the envelopes of the ring that woke it. Only for a
   * store whose commits this process makes one after another and rings in that order (SQLite's
   * one writer): a cluster's other nodes commit without ringing here first, so there a woken
   * pull must look.
   */
  constructor(
    max: number,
    onRegister: (keyId: string, hold: number, wallet: { address: string; until: number }) => void = () => undefined,
    handOver = false,
  ) {
    this.#max = max;
    this.#onRegister = onRegister;
    this.#handOver = handOver;
  }

  get size(): number {
    return this.#byKey.size;
  }

  /** A new cap on held pulls (a reload): pulls held past it stay until they end; new ones wait for room. */
  setMax(max: number): void {
    this.#max = max;
  }

  /**
   * Registers a held pull for `ms` milliseconds. A held pull of the same credential is
   * answered at once (reason `replaced`), and so is the wallet's oldest when it would hold more
   * than its share (`heldPerWallet`); past the node's cap this throws TooManyWaiters. The
   * wallet's oldest is answered before the node's cap is checked, so a wallet at its share
   * never meets a full node by its own pulls.
   */
  register(keyId: string, address: string, deviceKey: string | null, ms: number): Waiter {
    this.#byKey.get(keyId)?.wake('replaced');
    const hold = (this.#lastHold = Math.max(clock(), this.#lastHold + 0.001));
    if (this.#closed)
      return {
        keyId,
        address,
        deviceKey,
        hold,
        woken: Promise.resolve('shutdown'),
        handed: null,
        wake: () => undefined,
      };
    const mine = this.#byAddress.get(address);
    if (mine && mine.size >= heldPerWallet(this.#max)) {
      let oldest: Waiter | undefined;
      for (const w of mine) if (!oldest || w.hold < oldest.hold) oldest = w;
      oldest?.wake('replaced');
    }
    if (this.#byKey.size >= this.#max) throw new TooManyWaiters(this.#max);
    let settle!: (r: WakeReason) => void;
    const woken = new Promise<WakeReason>((resolve) => (settle = resolve));
    let done = false;
    // Whole milliseconds: Node keeps one list of timers per duration, and a fractional one each
    // (every pull's rest of its wait) made a list and a priority-queue entry per held pull.
    const timer = setTimeout(() => waiter.wake('timeout'), Math.ceil(ms));
    const waiter: { -readonly [K in keyof Waiter]: Waiter[K] } = {
      keyId,
      address,
      deviceKey,
      hold,
      woken,
      handed: null,
      wake: (reason, handed) => {
        if (done) return;
        done = true;
        if (handed) waiter.handed = handed;
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
    this.#onRegister(keyId, hold, { address, until: hold + ms });
    this.#capWallet(address);
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
   * Another node's held pull of a wallet: counted with this node's until its wait is over (a pull
   * answered earlier is not announced, so it may count a little too long), and this node answers
   * those of its own pulls of the wallet that are now among the oldest past MAX_HELD_PER_WALLET.
   * Every node orders the same registration times, so each answers its share of the same oldest.
   */
  heardWallet(pull: RemoteHold): void {
    if (++this.#heardSinceSweep >= 1000) this.#sweepRemote();
    let holds = this.#remote.get(pull.address);
    if (!holds) this.#remote.set(pull.address, (holds = new Map()));
    const known = holds.get(pull.keyId);
    if (!known || known.hold < pull.hold) holds.set(pull.keyId, pull);
    this.#capWallet(pull.address);
  }

  /**
   * Wakes the held pulls that can see an envelope for each recipient: an unbound envelope
   * wakes every pull of its wallet, a device's envelope wakes that device's pulls and those of
   * keys bound to no device. Handing over, each woken pull gets the ring's envelopes it can see,
   * in the ring's order (the delivery's, which is the queue's).
   */
  ring(recipients: readonly Recipient[]): void {
    // Every count first: a woken pull compares the count after the whole ring with the count when it answers.
    const before = new Map<number, number>();
    for (const r of recipients) {
      const b = bucketOf(r.address);
      if (!before.has(b)) before.set(b, this.#rings[b]);
      this.#rings[b]++;
    }
    const woken = new Map<Waiter, EnvelopeRow[] | null>();
    for (const r of recipients) {
      const set = this.#byAddress.get(r.address);
      if (!set) continue;
      for (const w of set) {
        if (!sees(w, r)) continue;
        const rows = woken.get(w);
        // a recipient without its row (a ring from another node) leaves the pull to look
        if (rows === undefined) woken.set(w, this.#handOver && r.envelope ? [r.envelope] : null);
        else if (rows !== null) {
          if (r.envelope) rows.push(r.envelope);
          else woken.set(w, null);
        }
      }
    }
    for (const [w, rows] of woken) {
      const b = bucketOf(w.address);
      w.wake('rung', rows === null ? undefined : { rows, before: before.get(b)!, after: this.#rings[b] });
    }
  }

  /**
   * A count that moves whenever the wallet's doorbell rings (and, now and then, another wallet's
   * that shares its bucket). Read before a look at the queue and again once the pull is
   * registered: unchanged, nothing was committed for the wallet since the look began that the look
   * could have missed (a store rings only after its COMMIT), so the pull need not look again.
   */
  ringsOf(address: string): number {
    return this.#rings[bucketOf(address)];
  }

  /** Answers the held pulls of a revoked credential (reason `revoked`), and remembers it a while for `isRevoked`. */
  revoke(r: Revoked): void {
    if ('tokenId' in r) return;
    const now = clock();
    this.#revoked = this.#revoked.filter((x) => x.at > now - REVOKED_MEMORY_MS);
    this.#revoked.push({ r, at: now });
    if ('keyId' in r) this.#byKey.get(r.keyId)?.wake('revoked');
    else if ('wallet' in r) for (const w of [...(this.#byAddress.get(r.wallet) ?? [])]) w.wake('revoked');
    else if ('address' in r)
      for (const w of [...(this.#byAddress.get(r.address) ?? [])]) if (w.deviceKey === r.deviceKey) w.wake('revoked');
  }

  /** Whether this credential was revoked since `since` (a held pull's registration): its page must not be sent. */
  isRevoked(keyId: string, address: string, deviceKey: string | null, since: number): boolean {
    return this.#revoked.some((x) => x.at >= since && matches(x.r, keyId, address, deviceKey));
  }

  /** Wakes every held pull with `reason` (`recheck`: this node may have missed revocations, each pull looks at its credential again). */
  wakeAll(reason: WakeReason): void {
    for (const w of [...this.#byKey.values()]) w.wake(reason);
  }

  /** Answers every held pull, and every later one at once (shutdown). */
  close(): void {
    this.#closed = true;
    this.wakeAll('shutdown');
  }

  /** Answers this node's pulls of the wallet that are among its oldest past the cap, counting other nodes' pulls. */
  #capWallet(address: string): void {
    const local = this.#byAddress.get(address);
    if (!local) return;
    const all: Array<{ hold: number; keyId: string; waiter?: Waiter }> = [...local].map((w) => ({
      hold: w.hold,
      keyId: w.keyId,
      waiter: w,
    }));
    const remote = this.#remote.get(address);
    if (remote) {
      const now = clock();
      for (const [keyId, h] of remote) {
        if (h.until <= now) remote.delete(keyId);
        // a credential held here now holds nowhere else (the rule of one held pull per credential)
        else if (!this.#byKey.has(keyId)) all.push({ hold: h.hold, keyId });
      }
      if (remote.size === 0) this.#remote.delete(address);
    }
    const cap = heldPerWallet(this.#max);
    if (all.length <= cap) return;
    all.sort((x, y) => x.hold - y.hold || (x.keyId < y.keyId ? -1 : 1));
    for (const x of all.slice(0, all.length - cap)) x.waiter?.wake('replaced');
  }

  #sweepRemote(): void {
    this.#heardSinceSweep = 0;
    const now = clock();
    for (const [address, holds] of this.#remote) {
      for (const [keyId, h] of holds) if (h.until <= now) holds.delete(keyId);
      if (holds.size === 0) this.#remote.delete(address);
    }
  }
}
