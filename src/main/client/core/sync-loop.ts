/**
 * The background cycle while the wallet is open: flush the outbox, run a sync pass, learn the
 * names of groups and senders the pass brought, then go again.
 *
 * Against a relay that holds pulls (docs/protocol.md §10) the next cycle starts at once with a
 * held pull: the relay answers it the moment something for us commits, so a message arrives
 * without any timer; after the wake the pass commits, acks and drains with `wait=0`, then
 * holds again. Otherwise (a relay without `Relay-Wait`, the relay away, envelopes we cannot
 * settle yet that would answer every hold at once) the next cycle waits on a timer: the poll
 * period, sooner when an outbox retry falls due, longer with each failure in a row. While the
 * app is on screen that wait stays within a few seconds, so someone looking at it sees it come
 * back soon after the relay does; coming on screen, or "Retry now", tries at once.
 */
import type { KnownHandle, SyncStatus } from '../../../shared/domain.js';
import type { AppliedIncoming, LocalStore } from '../store/local-store.js';
import type { Outbox } from './outbox.js';
import { RelayError, isTransient } from '../network/relay-api.js';
import type { RelaySession } from './relay-session.js';
import { NetworkError } from '../network/http-transport.js';
import type { Hold, SyncPass, SyncPassResult } from './sync-pass.js';

export interface SyncLoopDeps {
  session: RelaySession;
  outbox: Outbox;
  /** runs one pass each time the loop asks */
  passes: SyncPass;
  store: LocalStore;
  now: () => number;
  /** cycle period while nothing else is due (default 3 s; the pacer keeps the total within budget) */
  pollIntervalMs?: number;
  /** false: never run in the background (the CLI runs passes itself) */
  autoSync: boolean;
  /** whether another cycle may be scheduled now (wallet open, relay set, device not revoked) */
  mayRun: () => boolean;
  /** learns a group's name and members (a conversation we were added to) */
  refreshGroup: (id: string) => Promise<unknown>;
  /** a sender's handle was learned: their conversation and request titles changed */
  onHandleLearned: (known: KnownHandle) => void;
  onStatus: (s: SyncStatus) => void;
}

const MAX_BACKOFF_MS = 60_000;
/** the longest wait between tries while the relay is away and someone looks at the app */
const VISIBLE_MAX_BACKOFF_MS = 4000;
/** the first try after a failure, while on screen; doubling up to the cap */
const VISIBLE_FIRST_RETRY_MS = 1000;
/** the longest hold the contract allows */
const MAX_HOLD_S = 25;
/** handle lookups per cycle: a nicety, not worth the request budget of a flood of strangers */
const HANDLES_PER_CYCLE = 10;

export class SyncLoop {
  private status: SyncStatus = { state: 'idle', lastSyncAt: null, pendingOutbox: 0, error: null };
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private offlineStreak = 0;
  private closed = false;
  /** the held pull in flight, to cancel on stop */
  private hold: AbortController | null = null;
  /** envelopes the last pass left on the relay */
  private unsettled = 0;
  /** syncNow calls in progress: no hold starts meanwhile (it would make their pass wait) */
  private urgent = 0;
  private auto: boolean;
  /** addresses shown without a handle, looked up (directory, by address) after a pass or soon after they are asked for */
  private readonly unknownHandles = new Set<string>();
  /** addresses already looked up this session: one the directory does not know is not asked again */
  private readonly lookedUp = new Set<string>();
  private learning: Promise<void> | null = null;
  /** groups we were added to since the last look */
  private readonly unknownGroups = new Set<string>();
  /** an app window shows us (the page says so: app.visibility); the CLI never does */
  private visible = false;

  constructor(private readonly d: SyncLoopDeps) {
    this.auto = d.autoSync;
  }

  syncStatus(): SyncStatus {
    return { ...this.status, pendingOutbox: this.d.store.outboxCount() };
  }

  /** Turns the background cycle on for a profile opened without it (`sync --follow`), and starts it. */
  enable(): void {
    this.auto = true;
    this.start();
  }

  /** Starts the background cycle unless it runs already (or must not run). */
  start(): void {
    if (!this.auto || this.closed || this.timer || this.running || !this.d.mayRun()) return;
    this.schedule(0);
  }

  /** Cancels the timer and any held pull; a cycle in flight ends, and the next only if `mayRun`. */
  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.hold?.abort();
  }

  /** Stops for good and waits for the cycle in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    await this.running?.catch(() => undefined);
  }

  /**
   * The window came on screen or went off it. Coming back while the relay is away tries at
   * once: whoever looks should not wait out a wait chosen while nobody did.
   */
  setVisible(visible: boolean): void {
    const back = visible && !this.visible;
    this.visible = visible;
    if (back && this.offlineStreak > 0 && this.timer && !this.running) {
      clearTimeout(this.timer);
      this.timer = null;
      this.schedule(0);
    }
  }

  /** Sends the whole outbox, then pulls until the inbox is empty; failures land in the status. */
  async syncNow(): Promise<SyncStatus> {
    this.urgent++;
    try {
      // the wait before the next try ends here: this is the try
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      this.hold?.abort();
      await this.running?.catch(() => undefined);
      await this.cycle(true);
    } finally {
      this.urgent--;
      if (this.urgent === 0 && !this.running && !this.timer) this.next();
    }
    return this.syncStatus();
  }

  /** One pass for callers that want its details (the CLI); errors propagate. */
  async pass(): Promise<SyncPassResult> {
    await this.d.outbox.flush(true);
    const res = await this.d.passes.syncOnce();
    await this.learn();
    return res;
  }

  /** What a committed batch tells the loop to look up afterwards. */
  noteCommitted(applied: AppliedIncoming): void {
    for (const id of applied.conversations) {
      if (id.startsWith('group:') && !this.d.store.getGroup(id.slice(6))) this.unknownGroups.add(id.slice(6));
    }
    for (const m of applied.messages) {
      if (!m.fromMe && m.fromHandle === null && m.via !== 'group-token') this.unknownHandles.add(m.from);
    }
  }

  /** One cycle; with `hold`, quietly (no "syncing" while the relay holds the pull). */
  private async cycle(force: boolean, hold?: Hold): Promise<void> {
    if (!hold) this.setStatus({ state: 'syncing' });
    const { session } = this.d;
    try {
      if (!session.hasCredential()) await session.ensureSignedIn();
      // back after an outage: what waited in its own backoff goes now, not minutes later
      await this.d.outbox.flush(force || this.offlineStreak > 0);
      const res = await this.d.passes.syncOnce(hold);
      this.unsettled = res.unsettled;
      await this.learn();
      this.offlineStreak = 0;
      session.succeeded();
      this.setStatus({ state: 'idle', lastSyncAt: new Date(this.d.now()).toISOString(), error: null });
    } catch (e) {
      // cancelled on purpose (stop, lock, close, sync now): not the relay's fault
      if (e instanceof NetworkError && e.code === 'aborted') {
        if (!hold) this.setStatus({ state: 'idle' });
        return;
      }
      const offline = isTransient(e) && !(e instanceof RelayError && e.status !== 429 && e.status < 500);
      if (offline) this.offlineStreak++;
      session.failed(e);
      this.setStatus({ state: offline ? 'offline' : 'error', error: e instanceof Error ? e.message : String(e) });
    }
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.cycle(false).finally(() => this.cycleEnded());
    }, delayMs);
    this.timer.unref?.();
  }

  private cycleEnded(): void {
    this.running = null;
    this.hold = null;
    if (this.urgent === 0) this.next();
  }

  /** A held pull at once when the relay holds them and nothing stands in the way; else a timer. */
  private next(): void {
    if (this.closed || !this.auto || !this.d.mayRun()) return;
    const wait = this.holdSeconds();
    if (wait === 0) return this.schedule(this.nextDelay());
    const ctl = new AbortController();
    this.hold = ctl;
    this.running = this.cycle(false, { waitSeconds: wait, signal: ctl.signal }).finally(() => this.cycleEnded());
  }

  /** How long the next pull may be held: 0 = poll on a timer instead. */
  private holdSeconds(): number {
    const { session } = this.d;
    if (this.offlineStreak > 0 || this.unsettled > 0 || !session.hasCredential()) return 0;
    if (session.requireApi().holdsPulls === false) return 0;
    // an outbox retry falling due ends the hold in time to send it
    const due = this.d.store.nextOutboxDue();
    const untilDue = due === null ? Infinity : Math.floor((due - this.d.now()) / 1000);
    return untilDue >= 1 ? Math.min(MAX_HOLD_S, untilDue) : due === null ? MAX_HOLD_S : 0;
  }

  private nextDelay(): number {
    const base = this.d.pollIntervalMs ?? 3000;
    let delay =
      this.offlineStreak === 0
        ? base
        : this.visible
          ? Math.min(VISIBLE_MAX_BACKOFF_MS, VISIBLE_FIRST_RETRY_MS * 2 ** (this.offlineStreak - 1))
          : Math.min(MAX_BACKOFF_MS, base * 2 ** this.offlineStreak);
    const due = this.d.store.nextOutboxDue();
    if (due !== null) delay = Math.min(delay, Math.max(50, due - this.d.now()));
    return delay;
  }

  private async learn(): Promise<void> {
    await this.learnGroups();
    await this.learnHandles();
  }

  private async learnGroups(): Promise<void> {
    for (const id of [...this.unknownGroups]) {
      this.unknownGroups.delete(id);
      try {
        await this.d.refreshGroup(id);
      } catch {
        // removed again since, or the relay is away: the conversation keeps a generic title
      }
    }
  }

  /**
   * Addresses the app shows without a handle (group members, inviters, a conversation opened by
   * address): the next few are looked up at once, the rest with the following passes, each once.
   */
  wantHandles(addresses: Iterable<string>): void {
    for (const a of addresses) {
      const address = a.toLowerCase();
      if (!this.lookedUp.has(address) && !this.d.store.getContact(address)?.handle) this.unknownHandles.add(address);
    }
    if (this.unknownHandles.size > 0 && this.d.mayRun()) void this.learnHandles();
  }

  private learnHandles(): Promise<void> {
    this.learning ??= this.lookUpHandles().finally(() => (this.learning = null));
    return this.learning;
  }

  private async lookUpHandles(): Promise<void> {
    if (!this.d.session.hasCredential()) return;
    const api = this.d.session.requireApi();
    for (const address of [...this.unknownHandles].slice(0, HANDLES_PER_CYCLE)) {
      this.unknownHandles.delete(address);
      this.lookedUp.add(address);
      try {
        const hit = (await api.directory(address, 5)).find((h) => h.address.toLowerCase() === address);
        if (!hit) continue;
        this.d.store.setContactHandle(address, hit.handle, hit.verified, this.d.now());
        this.d.onHandleLearned({ address, handle: hit.handle, verified: hit.verified });
      } catch {
        // the relay is away: the short address stays, and the next ask tries again
        this.lookedUp.delete(address);
      }
    }
  }

  /** Reports the status as it is now (the outbox count changes without the loop). */
  announce(): void {
    this.d.onStatus(this.syncStatus());
  }

  private setStatus(patch: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...patch };
    this.announce();
  }
}
