/** The worker thread failing: timeouts, a wedged or crashed worker replaced, a closed client. */
import { describe, expect, it } from 'vitest';
import type { VaultCodec } from '../keys/secret-codec.js';
import { isVaultError } from '../vault-error.js';
import { codeOf, useVaultClients } from './vault-clients.js';

const { profile, client } = useVaultClients();

describe('worker failures', () => {
  it('a call that takes too long is rejected with timeout; a wedged worker is replaced (locked)', async () => {
    const dir = profile();
    const v = client({ profileDir: dir, testHooks: true, pingTimeoutMs: 300 });
    await v.createWallet({ passphrase: 'pw' });
    const hang = v.testHangWorker(30_000, { timeoutMs: 200 });
    const queued = v.status();
    const hangError = await hang.catch((e) => e);
    expect(isVaultError(hangError, 'timeout')).toBe(true);
    expect(hangError.message).toMatch(/__testHang within 200 ms/);
    // the call queued behind the wedged thread fails once the worker is replaced...
    expect(await codeOf(queued)).toBe('worker-crashed');
    // ...and the next call gets a fresh worker: wallet still there, locked
    expect(await v.status()).toMatchObject({ hasWallet: true, unlocked: false });
    expect(await v.unlock({ passphrase: 'pw' })).toMatchObject({ unlocked: true });
  });

  it('a slow but live worker is kept after a timeout', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    const slowCodec: VaultCodec = {
      encrypt: (b) => Buffer.from(b),
      decrypt: async (b) => {
        await gate;
        return Buffer.from(b);
      },
    };
    const v = client({ profileDir: profile(), codec: slowCodec, testHooks: true });
    await v.createWallet({});
    await v.lock();
    expect(await codeOf(v.unlock({}, { timeoutMs: 100 }))).toBe('timeout');
    // the worker still answers, so it was not restarted; the unlock finishes in the background
    expect(await v.ping()).toEqual({ pong: true });
    release();
    let status = await v.status();
    for (let i = 0; i < 50 && !status.unlocked; i++) {
      await new Promise((r) => setTimeout(r, 20));
      status = await v.status();
    }
    expect(status.unlocked).toBe(true);
  });

  it('a worker that exits fails its pending calls and restarts on the next call', async () => {
    const v = client({ profileDir: profile(), testHooks: true });
    await v.createWallet({ passphrase: 'pw' });
    expect(await codeOf(v.testCrashWorker('exit'))).toBe('worker-crashed');
    expect(await v.status()).toMatchObject({ hasWallet: true, unlocked: false });
    await v.unlock({ passphrase: 'pw' });
    expect((await v.status()).unlocked).toBe(true);
  });

  it('an uncaught exception in the worker fails every pending call', async () => {
    const never = new Promise<Buffer>(() => undefined);
    const stuckCodec: VaultCodec = { encrypt: (b) => Buffer.from(b), decrypt: () => never };
    const dir = profile();
    const setup = client({ profileDir: dir, codec: stuckCodec });
    await setup.createWallet({});
    await setup.close();
    const v = client({ profileDir: dir, codec: stuckCodec, testHooks: true });
    const unlocking = v.unlock();
    await v.ping();
    const crash = v.testCrashWorker('throw');
    expect(await codeOf(unlocking)).toBe('worker-crashed');
    expect(await codeOf(crash)).toBe('worker-crashed');
    expect(await v.status()).toMatchObject({ hasWallet: true, unlocked: false });
  });

  it('test hooks are off unless asked for; a closed client refuses calls', async () => {
    const v = client({ profileDir: profile() });
    expect(await codeOf(v.testHangWorker(10))).toBe('bad-request');
    await v.close();
    expect(await codeOf(v.status())).toBe('closed');
  });
});
