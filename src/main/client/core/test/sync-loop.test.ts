/**
 * When the background cycle holds a pull and when it polls on a timer: envelopes the
 * client cannot settle yet stay on the relay and would answer every held pull at once, so while
 * any are left the loop polls at its period instead of spinning; once they are settled it holds
 * again; against a relay without `Relay-Wait` it polls. The engine and relay are stand-ins.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocalStore } from '../../store/local-store.js';
import type { Outbox } from '../outbox.js';
import type { RelaySession } from '../relay-session.js';
import type { Hold, SyncPass, SyncPassResult } from '../sync-pass.js';
import { SyncLoop } from '../sync-loop.js';

/** Each pass: whether it held the pull, and for how long. */
let passes: Array<number | null>;
let loop: SyncLoop | null;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  passes = [];
  loop = null;
});
afterEach(async () => {
  await loop?.close();
  vi.useRealTimers();
});

/**
 * A loop whose passes leave `unsettled(n)` envelopes on the relay after pass n. A held pass
 * waits until it is cancelled (nothing new arrives here).
 */
function startLoop(unsettled: (n: number) => number, holdsPulls = true): void {
  const session = {
    hasCredential: () => true,
    ensureSignedIn: async () => undefined,
    requireApi: () => ({ holdsPulls }),
    succeeded: () => undefined,
    failed: () => undefined,
  } as unknown as RelaySession;
  const engine = {
    syncOnce: async (hold?: Hold): Promise<SyncPassResult> => {
      passes.push(hold ? hold.waitSeconds : null);
      const n = passes.length;
      if (hold) await new Promise((resolve) => hold.signal.addEventListener('abort', resolve));
      return { pulled: 0, stored: 0, rejected: 0, deferred: 0, unsettled: unsettled(n) };
    },
  } as unknown as SyncPass;
  const store = { outboxCount: () => 0, nextOutboxDue: () => null } as unknown as LocalStore;
  const outbox = { flush: async () => undefined } as unknown as Outbox;
  loop = new SyncLoop({
    session,
    passes: engine,
    store,
    outbox,
    now: () => Date.now(),
    pollIntervalMs: 3000,
    autoSync: true,
    mayRun: () => true,
    refreshGroup: async () => undefined,
    onHandleLearned: () => undefined,
    onStatus: () => undefined,
  });
  loop.start();
}

describe('holding or polling', () => {
  it('while envelopes stay unsettled on the relay it polls at its period, not in a spin; settled, it holds again', async () => {
    // unsettled after each of the first five passes
    startLoop((n) => (n <= 5 ? 1 : 0));
    await vi.advanceTimersByTimeAsync(0);
    expect(passes).toEqual([null]);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(passes).toEqual([null]);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes).toEqual([null, null]);
    await vi.advanceTimersByTimeAsync(3 * 3000);
    expect(passes).toEqual([null, null, null, null, null]);
    // the fifth pass still left one: one more poll; that one settles everything, and the next pull is held
    await vi.advanceTimersByTimeAsync(3000);
    expect(passes).toEqual([null, null, null, null, null, null, 25]);
    // and stays held
    await vi.advanceTimersByTimeAsync(60_000);
    expect(passes).toHaveLength(7);
  });

  it('against a relay without Relay-Wait it polls at its period', async () => {
    startLoop(() => 0, false);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(passes).toEqual([null, null, null, null]);
  });
});
