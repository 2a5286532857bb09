import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/**
 * A rolling-minute counter for @fastify/rate-limit: the plugin's own store counts in fixed
 * windows, which lets a client send twice the limit across a window edge. Each key keeps the
 * times of its last `max` counted requests, so memory stays bounded by the limit.
 */
export class SlidingWindowStore implements FastifyRateLimitStore {
  private readonly hits = new Map<string, number[]>();
  private readonly sweeper: NodeJS.Timeout;

  private readonly now: () => number = Date.now;

  constructor() {
    // Forget idle keys so a stream of one-off peers cannot grow the map without end.
    this.sweeper = setInterval(() => this.forgetIdle(), 60_000);
    this.sweeper.unref();
  }

  incr(
    key: string,
    cb: (err: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow: number,
    max: number,
  ): void {
    const now = this.now();
    let times = this.hits.get(key);
    if (!times) this.hits.set(key, (times = []));
    while (times.length > 0 && times[0] <= now - timeWindow) times.shift();
    times.push(now);
    let current = times.length;
    if (times.length > max) {
      times.shift();
      current = max + 1;
    }
    cb(null, { current, ttl: Math.max(1, times[0] + timeWindow - now) });
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private forgetIdle(): void {
    const cutoff = this.now() - 60_000;
    for (const [key, times] of this.hits)
      if (times.length === 0 || times[times.length - 1] <= cutoff) this.hits.delete(key);
  }
}
