import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_HELD_PER_WALLET, WaiterRegistry, type RemoteHold, type WakeReason } from '../../live/waiters.js';

/**
 * Two nodes of a cluster, each with its own registry. Every announcement of a held pull reaches
 * the other node when the test says so, in whatever order: a slow LISTEN connection is a node
 * that hears late, and announcements can overtake one another on the way.
 */
function cluster() {
  const pending = new Map<string, Array<{ keyId: string; hold: number }>>([
    ['a', []],
    ['b', []],
  ]);
  const regs = new Map<string, WaiterRegistry>();
  const node = (name: 'a' | 'b') => {
    const other = name === 'a' ? 'b' : 'a';
    const reg = new WaiterRegistry(100, (keyId, hold) => pending.get(other)!.push({ keyId, hold }));
    regs.set(name, reg);
    return reg;
  };
  /** Delivers to `name` what the other node announced, newest first when `reversed`. */
  const hear = (name: 'a' | 'b', reversed = false) => {
    const list = pending.get(name)!.splice(0);
    if (reversed) list.reverse();
    // node b's name sorts after a's: it wins a tie on a
    for (const x of list) regs.get(name)!.heard(x.keyId, x.hold, name === 'a');
  };
  return { node, hear };
}

const state = (w: { woken: Promise<WakeReason> }) =>
  Promise.race([w.woken, new Promise<'held'>((r) => setImmediate(() => r('held')))]);
// A registration is stamped with the clock and a wait ends on a timer: both are the test's, so
// one pull is later than another, or over, exactly when the test says.
beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
afterEach(() => vi.useRealTimers());
const later = () => vi.advanceTimersByTime(2);

describe('a held pull on its own', () => {
  it('waits the milliseconds it was registered for, then answers as timed out', async () => {
    const reg = new WaiterRegistry(100);
    const pull = reg.register('key', '0xb', null, 1000);
    vi.advanceTimersByTime(999);
    expect(await state(pull)).toBe('held');
    vi.advanceTimersByTime(1);
    expect(await pull.woken).toBe('timeout');
    expect(reg.size).toBe(0);
  });
});

describe('one held pull per credential across nodes', () => {
  it('the later pull stays held even when the other node hears of the earlier one only after it', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const first = a.register('key', '0xb', null, 60_000);
    later();
    const second = b.register('key', '0xb', null, 60_000);
    hear('b'); // b hears of the earlier pull late: its own is newer and stays
    expect(await state(second)).toBe('held');
    hear('a');
    expect(await first.woken).toBe('replaced');
    expect(await state(second)).toBe('held');
    expect(a.size + b.size).toBe(1);
  });

  it('the same verdict whichever node hears first', async () => {
    for (const order of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const { node, hear } = cluster();
      const a = node('a');
      const b = node('b');
      const first = b.register('key', '0xb', null, 60_000);
      later();
      const second = a.register('key', '0xb', null, 60_000);
      hear(order[0]);
      hear(order[1]);
      expect(await first.woken).toBe('replaced');
      expect(await state(second)).toBe('held');
    }
  });

  it('several announcements out of order: only the last pull is left', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const onB = b.register('key', '0xb', null, 60_000);
    later();
    a.register('key', '0xb', null, 60_000); // replaced on a at once by the next
    later();
    const last = a.register('key', '0xb', null, 60_000);
    hear('b', true);
    hear('a');
    expect(await onB.woken).toBe('replaced');
    expect(await state(last)).toBe('held');
    expect(a.size + b.size).toBe(1);
  });

  it('another credential is left alone', async () => {
    const { node, hear } = cluster();
    const a = node('a');
    const b = node('b');
    const mine = a.register('key', '0xb', null, 60_000);
    later();
    b.register('other', '0xc', null, 60_000);
    hear('a');
    expect(await state(mine)).toBe('held');
  });
});

/** A node cap whose twentieth is past MAX_HELD_PER_WALLET, so the wallet's own cap is the one that bites. */
const NODE_CAP = 20 * MAX_HELD_PER_WALLET;

/** Two nodes that tell each other of every held pull, with its wallet, when the test says so. */
function walletCluster() {
  const pending = new Map<string, RemoteHold[]>([
    ['a', []],
    ['b', []],
  ]);
  const regs = new Map<string, WaiterRegistry>();
  const node = (name: 'a' | 'b') => {
    const other = name === 'a' ? 'b' : 'a';
    const reg = new WaiterRegistry(NODE_CAP, (keyId, hold, wallet) =>
      pending.get(other)!.push({ keyId, hold, ...wallet }),
    );
    regs.set(name, reg);
    return reg;
  };
  const hear = (name: 'a' | 'b', reversed = false) => {
    const list = pending.get(name)!.splice(0);
    if (reversed) list.reverse();
    for (const x of list) regs.get(name)!.heardWallet(x);
  };
  return { node, hear };
}

describe('at most MAX_HELD_PER_WALLET held pulls per wallet', () => {
  it("on one node, the 17th answers the wallet's oldest with no envelopes; other wallets are left alone", async () => {
    const reg = new WaiterRegistry(NODE_CAP);
    const other = reg.register('other', '0xc', null, 60_000);
    const pulls = [];
    for (let i = 0; i < MAX_HELD_PER_WALLET; i++) {
      pulls.push(reg.register(`key-${i}`, '0xb', null, 60_000));
      later();
    }
    expect(reg.size).toBe(MAX_HELD_PER_WALLET + 1);
    const last = reg.register('key-new', '0xb', null, 60_000);
    expect(await pulls[0].woken).toBe('replaced');
    for (const w of [...pulls.slice(1), last, other]) expect(await state(w)).toBe('held');
    expect(reg.size).toBe(MAX_HELD_PER_WALLET + 1);
  });

  it("across two nodes: the oldest of the wallet's pulls is answered, whichever node holds it and in whatever order they hear", async () => {
    for (const reversed of [false, true]) {
      const { node, hear } = walletCluster();
      const a = node('a');
      const b = node('b');
      const pulls = [];
      for (let i = 0; i <= MAX_HELD_PER_WALLET; i++) {
        pulls.push((i % 2 === 0 ? b : a).register(`key-${i}`, '0xb', null, 60_000));
        later();
      }
      hear('a', reversed);
      hear('b', reversed);
      // pull 0 was on b
      expect(await pulls[0].woken).toBe('replaced');
      for (const w of pulls.slice(1)) expect(await state(w)).toBe('held');
      expect(a.size + b.size).toBe(MAX_HELD_PER_WALLET);
    }
  });

  it("a wallet takes at most a twentieth of the node's cap, and a full share never meets a full node", async () => {
    const reg = new WaiterRegistry(40);
    const first = reg.register('key-0', '0xb', null, 60_000);
    later();
    const second = reg.register('key-1', '0xb', null, 60_000);
    later();
    const third = reg.register('key-2', '0xb', null, 60_000);
    expect(await first.woken).toBe('replaced');
    for (const w of [second, third]) expect(await state(w)).toBe('held');
    // a node of two places, both the wallet's: its next pull answers its oldest instead of 503
    const small = new WaiterRegistry(2);
    const a = small.register('key-a', '0xc', null, 60_000);
    later();
    const b = small.register('key-b', '0xc', null, 60_000);
    expect(await a.woken).toBe('replaced');
    small.register('key-c', '0xd', null, 60_000);
    later();
    small.register('key-d', '0xc', null, 60_000);
    expect(await b.woken).toBe('replaced');
  });

  it("another node's pull counts no more once its wait is over", async () => {
    const { node, hear } = walletCluster();
    const a = node('a');
    const b = node('b');
    const mine = [a.register('key-a', '0xb', null, 60_000), a.register('key-b', '0xb', null, 60_000)];
    later();
    // fifteen short pulls on b, newer than a's and over before a hears of them
    for (let i = 0; i < MAX_HELD_PER_WALLET - 1; i++) b.register(`short-${i}`, '0xb', null, 1);
    vi.advanceTimersByTime(20);
    hear('a');
    for (const w of mine) expect(await state(w)).toBe('held');
  });

  it('a credential now held here is not counted again for the node it held on before', async () => {
    const { node, hear } = walletCluster();
    const a = node('a');
    const b = node('b');
    const oldest = a.register('key-x', '0xb', null, 60_000);
    later();
    for (let i = 0; i < MAX_HELD_PER_WALLET - 1; i++) b.register(i === 0 ? 'moved' : `key-${i}`, '0xb', null, 60_000);
    later();
    // the client of 'moved' pulls again through a: sixteen credentials in all
    a.register('moved', '0xb', null, 60_000);
    hear('a');
    expect(await state(oldest)).toBe('held');
  });
});
