/**
 * When an API key's use is next worth recording: its `lastUsedAt` is kept to the minute, so a
 * key is touched at most once every `everyMs`. Keys not seen for that long are forgotten (a
 * forgotten key is simply due again), at most once per `everyMs`, so the memory follows the
 * keys in use rather than every key the relay has seen since it started.
 */
export class TouchThrottle {
  readonly #last = new Map<string, number>();
  #prunedAt = -Infinity;

  constructor(
    readonly everyMs: number,
    /** entries past which stale ones are dropped */
    readonly keep: number = 10_000,
  ) {}

  get size(): number {
    return this.#last.size;
  }

  /** Whether key `id`, used at `t`, should be touched now; if so, it is counted as touched at `t`. */
  due(id: string, t: number): boolean {
    if ((this.#last.get(id) ?? -Infinity) + this.everyMs > t) return false;
    this.#last.set(id, t);
    if (this.#last.size > this.keep && this.#prunedAt + this.everyMs <= t) {
      this.#prunedAt = t;
      for (const [key, at] of this.#last) if (at + this.everyMs <= t) this.#last.delete(key);
    }
    return true;
  }
}
