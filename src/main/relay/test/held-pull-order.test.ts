import { describe, expect, it } from 'vitest';
import { WaiterRegistry, type WakeReason } from '../live/waiters.js';

/**
 * Two nodes of a cluster, each with its own registry, and the database's notification log: every
 * announcement is appended once and delivered to every node in log order, but each node hears
 * the log when the test says so (a slow LISTEN connection is just a node that hears late).
 */
function cluster() {
  const log: { node: string; keyId: string; hold: number }[] = [];
  const heardUpTo = new Map<string, number>();
  const nodes = new Map<string, WaiterRegistry>();
  const node = (name: string) => {
    const reg = new WaiterRegistry(100, (keyId, hold) => log.push({ node: name, keyId, hold }));
    nodes.set(name, reg);
    heardUpTo.set(name, 0);
    return reg;
  };
  /** Delivers to `name` everything in the log it has not heard yet. */
  const hear = (name: string) => {
    const reg = nodes.get(name)!;
    for (let i = heardUpTo.get(name)!; i < log.length; i++) reg.heard(log[i].keyId, log[i].hold, log[i].node === name);
    heardUpTo.set(name, log.length);
  };
  return { node, hear };
}

const state = (w: { woken: Promise<WakeReason> }) => Promise.race([w.woken, new Promise<'held'>((r) => setImmediate(() => r('held')))]);

describe('one held pull per credential across nodes', () => {
  it('the later of two pulls stays held even when the earlier announcement reaches the other node late', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const first = a.register('key', '0xb', null, 60_000);
    hear('a'); // a hears its own announcement; b's LISTEN is slow and has heard nothing yet
    const second = b.register('key', '0xb', null, 60_000);
    hear('b'); // b now hears a's older announcement: its own pull is newer and not announced yet
    expect(await state(second)).toBe('held');
    hear('a'); // a hears b's: a's pull was announced first, so it is the one replaced
    expect(await first.woken).toBe('replaced');
    expect(await state(second)).toBe('held');
    expect(a.size + b.size).toBe(1);
  });

  it('when both nodes hear promptly, the earlier pull is answered and the later one held', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const first = a.register('key', '0xb', null, 60_000);
    hear('a');
    hear('b');
    const second = b.register('key', '0xb', null, 60_000);
    hear('a');
    hear('b');
    expect(await first.woken).toBe('replaced');
    expect(await state(second)).toBe('held');
  });

  it('pulls registered at once on two nodes: exactly one stays held, the same verdict on both', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const onA = a.register('key', '0xb', null, 60_000);
    const onB = b.register('key', '0xb', null, 60_000);
    hear('b');
    hear('a');
    expect(await onA.woken).toBe('replaced');
    expect(await state(onB)).toBe('held');
  });

  it('another credential and an outdated announcement of our own are ignored', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const old = a.register('key', '0xb', null, 60_000);
    const current = a.register('key', '0xb', null, 60_000); // replaces `old` on the spot
    expect(await old.woken).toBe('replaced');
    b.register('other', '0xc', null, 60_000);
    hear('a');
    expect(await state(current)).toBe('held');
    const later = b.register('key', '0xb', null, 60_000);
    hear('a');
    hear('b');
    expect(await current.woken).toBe('replaced');
    expect(await state(later)).toBe('held');
  });
});
