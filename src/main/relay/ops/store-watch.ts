/**
 * A store seen from outside: every call goes through, and its outcome tells whether the database
 * is there. The first call that finds it unreachable (StoreUnavailable, or a failed health
 * check) logs the loss once; while it is lost a probe asks every few seconds, and the first
 * health check that passes, the probe's or a /healthz or /readyz request's, logs the recovery
 * with how long it lasted. Deliveries are also told
 * to the metrics here, with the route each envelope took (docs/protocol.md §9 Routing).
 */
import type { Logger } from 'pino';
import { StoreUnavailable, type Delivery, type DeliveryOutcome, type RelayStore } from '../store/store.js';

const PROBE_MS = 2000;

export interface StoreWatchers {
  log?: Logger;
  onDelivered?: (delivery: Delivery, outcomes: readonly DeliveryOutcome[]) => void;
  now?: () => number;
}

export function watchStore(store: RelayStore, watchers: StoreWatchers): RelayStore {
  const now = watchers.now ?? Date.now;
  let lostAt: number | null = null;
  let probe: NodeJS.Timeout | null = null;
  let closed = false;

  const lost = (err: StoreUnavailable | null) => {
    if (lostAt !== null || closed) return;
    lostAt = now();
    watchers.log?.error(err ? { err } : { reason: 'the health check failed' }, 'database unreachable');
    probe = setInterval(() => void store.healthy().then((up) => up && back()), PROBE_MS);
    probe.unref();
  };
  const back = () => {
    if (lostAt === null) return;
    watchers.log?.info({ downMs: now() - lostAt }, 'database reachable again');
    lostAt = null;
    if (probe) clearInterval(probe);
    probe = null;
  };
  const settle = (key: string, value: unknown): unknown => {
    if (!(value instanceof Promise)) return value;
    return value.then(
      (result: unknown) => {
        // Only a health check decides that the database is back: during an outage a call that
        // needs no connection (or finds one still open) may succeed, and the log must not flap.
        const answered = key === 'healthy' ? result === true : key === 'readiness' ? result !== 'unreachable' : null;
        if (answered === true) back();
        else if (answered === false) lost(null);
        return result;
      },
      (err: unknown) => {
        if (err instanceof StoreUnavailable) lost(err);
        throw err;
      },
    );
  };

  // Own methods over the store as a prototype: its getters (counters tests read) stay live.
  const watched: RelayStore = Object.create(store);
  for (const key of methodNames(store)) {
    const method: unknown = Reflect.get(store, key);
    if (typeof method !== 'function') continue;
    Reflect.set(watched, key, (...args: unknown[]) => settle(key, method.apply(store, args)));
  }
  watched.deliver = async (d: Delivery) => {
    const outcomes = (await settle('deliver', store.deliver(d))) as DeliveryOutcome[];
    watchers.onDelivered?.(d, outcomes);
    return outcomes;
  };
  watched.close = () => {
    closed = true;
    if (probe) clearInterval(probe);
    return store.close();
  };
  return watched;
}

/** Every method name of `store` and the objects it is built on (a test's shim sits on the real store). */
function methodNames(store: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = store; o && o !== Object.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const key of Object.getOwnPropertyNames(o)) {
      const d = Object.getOwnPropertyDescriptor(o, key);
      // `sql` is a PostgreSQL store's pool, used as it is by the cluster bus and the rate limit
      if (d && typeof d.value === 'function' && key !== 'constructor' && key !== 'sql') names.add(key);
    }
  }
  return [...names];
}
