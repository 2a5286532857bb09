import { asUnavailable } from './pg-client.js';

/**
 * Every method of the store, with a lost database turned into StoreUnavailable (503 with
 * Retry-After) instead of the driver's connection error (500).
 */
export function withUnavailable<T extends object>(store: T): T {
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      // `sql` is the driver's pool, for the cluster bus and the rate-limit store: a wrapper would
      // hide its methods (`unsafe`, `begin`), and it maps its own errors where it is used.
      if (typeof value !== 'function' || key === 'sql') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise ? result.catch((e: unknown) => Promise.reject(asUnavailable(e))) : result;
      };
    },
  });
}
