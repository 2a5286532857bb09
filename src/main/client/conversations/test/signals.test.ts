/**
 * The pacing of receipts and typing notices going out: receipts to one person are
 * gathered and go one receipt message a second, a read receipt stands for the delivered one of
 * the same message; typing `on` is renewed at most every 3 s and `off` goes only after an `on`.
 * Sealing and the relay are stand-ins here: what is counted is what would be sent.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VaultClient } from '../../../vault/worker/vault-client.js';
import type { CertifiedDevices } from '../../trust/certified-devices.js';
import type { RelayApi } from '../../network/relay-api.js';
import { Signals } from '../receipts-and-typing.js';

const ME = '0x' + '1'.repeat(40);
const PEER = '0x' + '2'.repeat(40);
const OTHER = '0x' + '3'.repeat(40);
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** One request to the relay: the signal bodies sealed into it, and for whom. */
interface Post {
  to: string[];
  bodies: Array<Record<string, unknown>>;
  priority: string;
}

let posts: Post[];
let signals: Signals;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  posts = [];
  let sealing: Array<Record<string, unknown>> = [];
  const vault = {
    sealMessage: async ({
      message,
      recipients,
    }: {
      message: Record<string, unknown>;
      recipients: Array<{ deviceKey: string }>;
    }) => {
      sealing.push(message);
      return {
        sealed: recipients.map((r) => ({
          deviceKey: r.deviceKey,
          ciphertext: 'c',
          ephemeralPublicKey: 'e',
          nonce: 'n',
        })),
      };
    },
  } as unknown as Pick<VaultClient, 'sealMessage'>;
  const api = {
    send: async (envelopes: Array<{ toAddress: string }>, priority: string) => {
      posts.push({
        to: [...new Set(envelopes.map((e) => e.toAddress))],
        bodies: sealing.map(({ kind, of, state }) => (of === undefined ? { kind, state } : { kind, of, state })),
        priority,
      });
      sealing = [];
    },
  } as unknown as RelayApi;
  const devices = {
    fetch: async (address: string) => [{ address, publicKey: `${address}-device`, certificate: '', createdAt: '' }],
  } as unknown as CertifiedDevices;
  signals = new Signals({
    api: () => api,
    vault,
    devices,
    me: () => ({ address: ME, deviceKey: 'my-device' }),
    now: () => Date.now(),
  });
});

afterEach(() => {
  signals.close();
  vi.useRealTimers();
});

describe('receipts going out', () => {
  it('are gathered per person and sent one receipt message a second, in the background budget', async () => {
    signals.receipt(PEER, [ID(1)], 'delivered');
    signals.receipt(PEER, [ID(2)], 'delivered');
    await vi.advanceTimersByTimeAsync(299);
    expect(posts).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts).toEqual([
      { to: [PEER], bodies: [{ kind: 'receipt', of: [ID(1), ID(2)], state: 'delivered' }], priority: 'background' },
    ]);

    // the next ones wait for a second after the last request, however many come
    signals.receipt(PEER, [ID(3)], 'delivered');
    signals.receipt(PEER, [ID(1), ID(2)], 'read');
    signals.receipt(PEER, [ID(4)], 'delivered');
    await vi.advanceTimersByTimeAsync(999);
    expect(posts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    // one receipt message a second: delivered first, the read ones a second later
    expect(posts.slice(1)).toEqual([
      { to: [PEER], bodies: [{ kind: 'receipt', of: [ID(3), ID(4)], state: 'delivered' }], priority: 'background' },
    ]);
    await vi.advanceTimersByTimeAsync(999);
    expect(posts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(posts.slice(2)).toEqual([
      { to: [PEER], bodies: [{ kind: 'receipt', of: [ID(1), ID(2)], state: 'read' }], priority: 'background' },
    ]);
  });

  it('more ids than one receipt holds go 100 at a time, a second apart', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => ID(i + 1));
    signals.receipt(PEER, ids, 'read');
    await vi.advanceTimersByTimeAsync(300);
    expect(posts.map((p) => p.bodies)).toEqual([[{ kind: 'receipt', of: ids.slice(0, 100), state: 'read' }]]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(posts.map((p) => p.bodies)).toEqual([
      [{ kind: 'receipt', of: ids.slice(0, 100), state: 'read' }],
      [{ kind: 'receipt', of: ids.slice(100), state: 'read' }],
    ]);
  });

  it('a read receipt stands for the delivered one of the same message; people are paced apart', async () => {
    signals.receipt(PEER, [ID(1)], 'delivered');
    signals.receipt(OTHER, [ID(2)], 'delivered');
    signals.receipt(PEER, [ID(1)], 'read');
    await vi.advanceTimersByTimeAsync(300);
    expect(posts.map((p) => [p.to, p.bodies])).toEqual([
      [[PEER], [{ kind: 'receipt', of: [ID(1)], state: 'read' }]],
      [[OTHER], [{ kind: 'receipt', of: [ID(2)], state: 'delivered' }]],
    ]);
  });

  it('nothing is sent after close', async () => {
    signals.receipt(PEER, [ID(1)], 'delivered');
    signals.close();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(posts).toEqual([]);
  });
});

describe('typing notices going out', () => {
  it('on is renewed at most every 3 s; off goes once, only after an on; a sent message resets it', async () => {
    await signals.typing(PEER, 'off');
    expect(posts).toEqual([]);
    await signals.typing(PEER, 'on');
    await vi.advanceTimersByTimeAsync(2_999);
    await signals.typing(PEER, 'on');
    expect(posts.map((p) => p.bodies)).toEqual([[{ kind: 'typing', state: 'on' }]]);
    await vi.advanceTimersByTimeAsync(1);
    await signals.typing(PEER, 'on');
    await signals.typing(PEER, 'off');
    await signals.typing(PEER, 'off');
    expect(posts.map((p) => p.bodies)).toEqual([
      [{ kind: 'typing', state: 'on' }],
      [{ kind: 'typing', state: 'on' }],
      [{ kind: 'typing', state: 'off' }],
    ]);
    // a message ends the typing on the other side by itself: no off follows it, and the next on goes at once
    await signals.typing(PEER, 'on');
    signals.messageSent(PEER);
    await signals.typing(PEER, 'off');
    await signals.typing(PEER, 'on');
    expect(posts.slice(3).map((p) => p.bodies)).toEqual([
      [{ kind: 'typing', state: 'on' }],
      [{ kind: 'typing', state: 'on' }],
    ]);
    expect(posts.every((p) => p.priority === 'background' && p.to.join() === PEER)).toBe(true);
  });
});
