/**
 * Keeps one credential within the relay's budget (120 requests per rolling minute, counted
 * the same way as the relay counts them) so the client never has to learn it from a 429.
 * Background work (polling) leaves a reserve for what the user is waiting on (sends).
 */
import { LIMITS } from '../../../shared/api/common.js';

export type RequestPriority = 'user' | 'background';

export interface PacerOptions {
  /** requests per rolling minute; 0 = no pacing (a relay run with its limit off); default 120 */
  perMinute?: number;
  /** requests of the window that background work may not use */
  reserve?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const WINDOW_MS = 60_000;

export class RequestPacer {
  private readonly stamps: number[] = [];
  private pausedUntil = 0;
  private readonly perMinute: number;
  private readonly reserve: number;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** serialise waiters per priority so a burst is admitted in order, and polling never holds up a send */
  private readonly chains: Record<RequestPriority, Promise<void>> = {
    user: Promise.resolve(),
    background: Promise.resolve(),
  };

  constructor(opts: PacerOptions = {}) {
    this.perMinute = opts.perMinute ?? LIMITS.ratePerMinute;
    this.reserve = Math.max(0, Math.min(opts.reserve ?? Math.floor(this.perMinute / 5), this.perMinute - 1));
    this.now = opts.now ?? Date.now;
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
  }

  /** Resolves when a request of this priority may go out, and counts it. */
  acquire(priority: RequestPriority = 'user'): Promise<void> {
    const turn = this.chains[priority].then(() => this.waitForSlot(priority));
    this.chains[priority] = turn.catch(() => undefined);
    return turn;
  }

  /** A 429 told us to hold off: every request waits until then. */
  pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + ms);
  }

  /** Requests still available in the current window for this priority. */
  available(priority: RequestPriority = 'user'): number {
    if (this.perMinute === 0) return Number.POSITIVE_INFINITY;
    this.prune();
    const cap = priority === 'user' ? this.perMinute : this.perMinute - this.reserve;
    return Math.max(0, cap - this.stamps.length);
  }

  private prune(): void {
    const cutoff = this.now() - WINDOW_MS;
    while (this.stamps.length > 0 && this.stamps[0] <= cutoff) this.stamps.shift();
  }

  private async waitForSlot(priority: RequestPriority): Promise<void> {
    const cap = priority === 'user' ? this.perMinute : this.perMinute - this.reserve;
    for (;;) {
      const now = this.now();
      if (this.pausedUntil > now) {
        await this.sleep(this.pausedUntil - now);
        continue;
      }
      if (this.perMinute === 0) return;
      this.prune();
      if (this.stamps.length < cap) {
        this.stamps.push(now);
        return;
      }
      // the oldest stamp that must leave the window before one more fits
      const oldest = this.stamps[this.stamps.length - cap];
      await this.sleep(Math.max(1, oldest + WINDOW_MS - now + 1));
    }
  }
}
