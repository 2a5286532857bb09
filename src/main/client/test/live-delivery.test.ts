/**
 * Live delivery (issue 9): the receiver's loop keeps one held pull open, so a message is
 * stored the moment the send commits, with no timer involved; a relay that does not hold
 * pulls is polled instead; the loop comes back after the relay restarts; close cancels a hold.
 */
import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '../../../shared/domain.js';
import { Messenger } from '../messenger.js';
import { PASSPHRASE, cleanup, newProfile, startRelay, tempDir, type Relay } from './harness.js';

afterEach(async () => {
  vi.useRealTimers();
  await cleanup();
});

/** A profile whose background loop runs (the harness's profiles sync by hand). */
async function liveProfile(relayUrl: string, pollIntervalMs: number): Promise<{ m: Messenger; address: string }> {
  const m = await Messenger.open({ profileDir: tempDir('live'), shell: 'web', pollIntervalMs });
  await m.createWallet({ passphrase: PASSPHRASE });
  const st = await m.connectRelay({ mode: 'url', url: relayUrl });
  if (!st.ready) throw new Error(`not ready: ${st.relay.lastError}`);
  return { m, address: m.whoami()!.address };
}

function nextMessage(m: Messenger, text: string): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const off = m.on('message.new', (msg) => {
      if (msg.text === text && !msg.fromMe) {
        off();
        resolve(msg);
      }
    });
  });
}

/** Resolves once the relay holds `n` pulls (the profiles' loops have gone quiet, waiting). */
async function holding(relay: Relay, n = 1): Promise<void> {
  for (let i = 0; i < 400 && relay.running.heldPulls() < n; i++) await new Promise((r) => setTimeout(r, 25));
  expect(relay.running.heldPulls()).toBe(n);
}

describe('live delivery', () => {
  it('a message is stored on the receiver once the send commits, with every timer frozen', async () => {
    const relay = await startRelay();
    // an hour between polls: only a held pull can bring the message in time
    const bob = await liveProfile(relay.url, 3_600_000);
    const alice = await newProfile(relay.url);
    await bob.m.allow(alice.address);
    await holding(relay);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] });
    const arrived = nextMessage(bob.m, 'live hello');
    const { outcome } = await alice.m.sendAndWait(`direct:${bob.address}`, 'live hello');
    expect(outcome.state).toBe('sent');
    const msg = await arrived;
    expect(msg).toMatchObject({ from: alice.address, text: 'live hello', routed: 'inbox' });
    expect(bob.m.listMessages({ conversationId: `direct:${alice.address}` }).map((x) => x.text)).toEqual(['live hello']);
    vi.useRealTimers();
  }, 30_000);

  it('falls back to polling a relay that does not answer Relay-Wait', async () => {
    const relay = await startRelay();
    const target = new URL(relay.url);
    const held: string[] = [];
    // a relay of an older kind: it ignores `wait` and never says Relay-Wait
    const proxy = http.createServer((req, res) => {
      const url = new URL(req.url!, relay.url);
      if (url.searchParams.has('wait')) held.push(url.search);
      url.searchParams.delete('wait');
      const fwd = http.request({ host: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: req.headers }, (up) => {
        const headers = { ...up.headers };
        delete headers['relay-wait'];
        res.writeHead(up.statusCode ?? 502, headers);
        up.pipe(res);
      });
      req.pipe(fwd);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const bob = await liveProfile(proxyUrl, 200);
      const alice = await newProfile(relay.url);
      await bob.m.allow(alice.address);
      for (let i = 0; i < 200 && bob.m.syncStatus().lastSyncAt === null; i++) await new Promise((r) => setTimeout(r, 25));
      const arrived = nextMessage(bob.m, 'polled hello');
      await alice.m.sendAndWait(`direct:${bob.address}`, 'polled hello');
      expect((await arrived).text).toBe('polled hello');
      // one try at holding, then plain polls
      expect(held).toHaveLength(1);
      await bob.m.close();
    } finally {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    }
  }, 30_000);

  it('comes back after the relay restarts and holds again', async () => {
    const relay = await startRelay();
    const bob = await liveProfile(relay.url, 200);
    const alice = await newProfile(relay.url);
    await bob.m.allow(alice.address);
    await holding(relay);

    await relay.stop();
    const back = await startRelay({ dataDir: relay.dataDir, port: relay.port });
    const offline = new Promise<void>((resolve) => {
      const off = bob.m.on('sync.status', (s) => {
        if (s.state === 'idle' && s.lastSyncAt !== null) {
          off();
          resolve();
        }
      });
    });
    await offline;
    const arrived = nextMessage(bob.m, 'after the restart');
    await alice.m.sendAndWait(`direct:${bob.address}`, 'after the restart');
    expect((await arrived).from).toBe(alice.address);
    expect(bob.m.relayStatus()).toMatchObject({ connected: true, lastError: null });
    await holding(back);
    await back.stop();
  }, 60_000);

  it('lock and close cancel the held pull: the relay holds nothing more', async () => {
    const relay = await startRelay();
    const bob = await liveProfile(relay.url, 3_600_000);
    const carol = await liveProfile(relay.url, 3_600_000);
    await holding(relay, 2);
    await bob.m.lock();
    await holding(relay, 1);
    // close waits for the cycle in flight: a hold it did not cancel would keep it 25 s (the timeout here is 10 s)
    await carol.m.close();
    expect(relay.running.heldPulls()).toBe(0);
  }, 60_000);
});
