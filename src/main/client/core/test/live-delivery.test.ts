/**
 * Live delivery: the receiver's loop keeps one held pull open, so a message is
 * stored the moment the send commits, with no timer involved; a relay that does not hold
 * pulls is polled instead; the loop comes back after the relay restarts; close cancels a hold.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage, DeliveryState, TypingNotice } from '../../../../shared/domain.js';
import { Messenger } from '../messenger.js';
import { Signals } from '../../conversations/receipts-and-typing.js';
import {
  PASSPHRASE,
  ROOT,
  cleanup,
  newProfile,
  runEntry,
  startRelay,
  tempDir,
  type Relay,
} from '../../test/harness.js';

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await cleanup();
});

/** A profile whose background loop runs (the harness's profiles sync by hand). */
async function liveProfile(relayUrl: string, pollIntervalMs: number): Promise<{ m: Messenger; address: string }> {
  const m = await Messenger.open({ profileDir: tempDir('live'), shell: 'web', pollIntervalMs });
  await m.wallet.create({ passphrase: PASSPHRASE });
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

function deliveryOf(m: Messenger, id: string, state: DeliveryState): Promise<ChatMessage> {
  return new Promise((resolve) => {
    const off = m.on('message.updated', (msg) => {
      if (msg.id === id && msg.delivery === state) {
        off();
        resolve(msg);
      }
    });
  });
}

function nextTyping(m: Messenger): Promise<TypingNotice> {
  return new Promise((resolve) => {
    const off = m.on('typing', (t) => {
      off();
      resolve(t);
    });
  });
}

/**
 * Resolves once the relay holds exactly `n` pulls (the profiles' loops have gone quiet, waiting;
 * or, going down, a cancelled hold has left the relay's list: that follows the socket's close).
 */
async function holding(relay: Relay, n = 1): Promise<void> {
  for (let i = 0; i < 400 && relay.running.heldPulls() !== n; i++) await new Promise((r) => setTimeout(r, 25));
  expect(relay.running.heldPulls()).toBe(n);
}

describe('live delivery', () => {
  it('a message is stored on the receiver once the send commits, with the timers frozen', async () => {
    const relay = await startRelay();
    // an hour between polls: only a held pull can bring the message in time
    const bob = await liveProfile(relay.url, 3_600_000);
    const alice = await newProfile(relay.url);
    await bob.m.contacts.allow(alice.address);
    await holding(relay);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const arrived = nextMessage(bob.m, 'live hello');
    const { outcome } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'live hello');
    expect(outcome.state).toBe('sent');
    const msg = await arrived;
    expect(msg).toMatchObject({ from: alice.address, text: 'live hello', routed: 'inbox' });
    expect(bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` }).map((x) => x.text)).toEqual([
      'live hello',
    ]);
    vi.useRealTimers();
  }, 30_000);

  it('falls back to polling a relay that does not answer Relay-Wait', async () => {
    // behind the proxy below, which says which host it was reached at, as a reverse proxy does
    const relay = await startRelay({ trustProxy: true });
    const target = new URL(relay.url);
    const held: string[] = [];
    // a relay of an older kind: it ignores `wait` and never says Relay-Wait
    const proxy = http.createServer((req, res) => {
      const url = new URL(req.url!, relay.url);
      if (url.searchParams.has('wait')) held.push(url.search);
      url.searchParams.delete('wait');
      const fwd = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: url.pathname + url.search,
          headers: { ...req.headers, 'x-forwarded-host': req.headers.host },
        },
        (up) => {
          const headers = { ...up.headers };
          delete headers['relay-wait'];
          res.writeHead(up.statusCode ?? 502, headers);
          up.pipe(res);
        },
      );
      req.pipe(fwd);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
      const bob = await liveProfile(proxyUrl, 200);
      const alice = await newProfile(relay.url);
      await bob.m.contacts.allow(alice.address);
      for (let i = 0; i < 200 && bob.m.syncStatus().lastSyncAt === null; i++)
        await new Promise((r) => setTimeout(r, 25));
      const arrived = nextMessage(bob.m, 'polled hello');
      await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'polled hello');
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
    await bob.m.contacts.allow(alice.address);
    await holding(relay);

    const wentOffline = new Promise<void>((resolve) => {
      const off = bob.m.on('sync.status', (s) => {
        if (s.state === 'offline') {
          off();
          resolve();
        }
      });
    });
    await relay.stop();
    await wentOffline;
    const back = await startRelay({ dataDir: relay.dataDir, port: relay.port });
    const arrived = nextMessage(bob.m, 'after the restart');
    await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'after the restart');
    expect((await arrived).from).toBe(alice.address);
    // the cycle that brought it ends, and the next one holds again
    await holding(back);
    expect(bob.m.relayStatus()).toMatchObject({ connected: true, lastError: null });
    await back.stop();
  }, 60_000);

  it('lock and close cancel the held pull: the relay holds nothing more', async () => {
    const relay = await startRelay();
    const bob = await liveProfile(relay.url, 3_600_000);
    const carol = await liveProfile(relay.url, 3_600_000);
    await holding(relay, 2);
    await bob.m.wallet.lock();
    await holding(relay, 1);
    // close waits for the cycle in flight: a hold it did not cancel would keep it 25 s (the timeout here is 10 s)
    await carol.m.close();
    // the relay hears the aborted request's socket close a moment later; a hold left open would stay 25 s
    await vi.waitFor(() => expect(relay.running.heldPulls()).toBe(0), { timeout: 2_000, interval: 10 });
  }, 60_000);

  it("receipts move the sender's message to delivered, then read when the receiver opens it; receipts never produce receipts", async () => {
    const relay = await startRelay();
    const alice = await liveProfile(relay.url, 3_600_000);
    const bob = await liveProfile(relay.url, 3_600_000);
    await bob.m.contacts.allow(alice.address);
    await alice.m.conversations.open({ to: bob.address });
    await holding(relay, 2);
    // every receipt either side queues (the spy calls through)
    const calls = vi.spyOn(Signals.prototype, 'receipt');

    const arrived = nextMessage(bob.m, 'tick tock');
    const sent = alice.m.messages.send({ conversationId: `direct:${bob.address}`, text: 'tick tock' });
    expect(sent.delivery).toBe('sending');
    const delivered = await deliveryOf(alice.m, sent.id, 'delivered');
    expect(delivered).toMatchObject({ state: 'sent', delivery: 'delivered' });
    await arrived;

    const read = deliveryOf(alice.m, sent.id, 'read');
    bob.m.conversations.markRead({ conversationId: `direct:${alice.address}` });
    expect((await read).delivery).toBe('read');
    expect(alice.m.messages.listMessages({ conversationId: `direct:${bob.address}` }).map((m) => m.delivery)).toEqual([
      'read',
    ]);

    // A receipt answered with a receipt would be queued while Alice commits it, before the read
    // shows; a message after both comes through the same held pulls all the same.
    const marker = bob.m.messages.send({ conversationId: `direct:${alice.address}`, text: 'marker' });
    await nextMessage(alice.m, marker.text);
    const queued = calls.mock.calls.map(([peer, ids, state]) => ({ peer, ids: [...ids], state }));
    // Bob acknowledges Alice's message, delivered then read; Alice answers neither (she may
    // acknowledge Bob's marker, a message of his, and nothing else)
    expect(queued.filter((q) => q.peer === alice.address)).toEqual([
      { peer: alice.address, ids: [sent.id], state: 'delivered' },
      { peer: alice.address, ids: [sent.id], state: 'read' },
    ]);
    expect(
      queued.filter(
        (q) =>
          q.peer !== alice.address &&
          !(q.peer === bob.address && q.ids.join() === marker.id && q.state === 'delivered'),
      ),
    ).toEqual([]);
  }, 60_000);

  it('read receipts turned off: the sender sees delivered, never read', async () => {
    const relay = await startRelay();
    const alice = await liveProfile(relay.url, 3_600_000);
    const bob = await liveProfile(relay.url, 3_600_000);
    await bob.m.contacts.allow(alice.address);
    expect(bob.m.conversations.setPreferences({ readReceipts: false })).toMatchObject({ readReceipts: false });
    await holding(relay, 2);

    const sent = alice.m.messages.send({ conversationId: `direct:${bob.address}`, text: 'quietly' });
    await deliveryOf(alice.m, sent.id, 'delivered');
    bob.m.conversations.markRead({ conversationId: `direct:${alice.address}` });
    // a receipt would come through the same held pull as the delivered one; a later message shows it did not
    const marker = bob.m.messages.send({ conversationId: `direct:${alice.address}`, text: 'after reading' });
    await nextMessage(alice.m, marker.text);
    expect(
      alice.m.messages.listMessages({ conversationId: `direct:${bob.address}` }).find((m) => m.id === sent.id)!
        .delivery,
    ).toBe('delivered');
  }, 60_000);

  it('typing shows on the other side and goes after 6 s without a renewal', async () => {
    const relay = await startRelay();
    const alice = await liveProfile(relay.url, 3_600_000);
    const bob = await liveProfile(relay.url, 3_600_000);
    await bob.m.contacts.allow(alice.address);
    await holding(relay, 2);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const on = nextTyping(bob.m);
    await alice.m.conversations.typing({ conversationId: `direct:${bob.address}`, state: 'on' });
    expect(await on).toEqual({ conversationId: `direct:${alice.address}`, from: alice.address, state: 'on' });
    // the expiry is a timer that emits as it fires: a listener sees it during advanceTimersByTime
    const seen: TypingNotice[] = [];
    bob.m.on('typing', (t) => seen.push(t));
    vi.advanceTimersByTime(5_900);
    expect(seen).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(seen).toEqual([{ conversationId: `direct:${alice.address}`, from: alice.address, state: 'off' }]);
    vi.useRealTimers();
  }, 60_000);

  it('typing notices never go into a group, only to the peer of a direct conversation', async () => {
    const relay = await startRelay();
    const alice = await liveProfile(relay.url, 3_600_000);
    const bob = await newProfile(relay.url);
    const group = await alice.m.groups.create({ name: 'Quiet', isPublic: false });
    // every signal leaves through Signals.send: count what goes where
    const sends = vi.spyOn(
      Signals.prototype as unknown as { send: (peer: string, bodies: unknown[]) => Promise<void> },
      'send',
    );
    await alice.m.conversations.typing({ conversationId: `group:${group.id}`, state: 'on' });
    await alice.m.conversations.typing({ conversationId: `group:${group.id}`, state: 'off' });
    expect(sends).not.toHaveBeenCalled();
    await alice.m.conversations.typing({ conversationId: `direct:${bob.address}`, state: 'on' });
    expect(sends.mock.calls).toEqual([[bob.address, [{ kind: 'typing', state: 'on' }]]]);
  }, 60_000);

  it('sync --follow prints each message as one JSON line as it arrives, and ends cleanly on SIGTERM', async () => {
    const relay = await startRelay();
    const dir = tempDir('follow');
    const init = await runEntry('cli', ['--profile', dir, 'init', '--relay', relay.url]);
    expect(init.code).toBe(0);
    const bobAddress = (init.json[0] as { address: string }).address;
    const alice = await newProfile(relay.url);

    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/main/client/cli/cli.ts'), '--profile', dir, 'sync', '--follow'],
      {
        cwd: ROOT,
        env: { ...process.env, RELAY_PASSPHRASE: PASSPHRASE },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const lines: Array<Record<string, unknown>> = [];
    const gotLine = new Promise<void>((resolve) => {
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        for (;;) {
          const nl = stdout.indexOf('\n');
          if (nl < 0) break;
          lines.push(JSON.parse(stdout.slice(0, nl)) as Record<string, unknown>);
          stdout = stdout.slice(nl + 1);
          resolve();
        }
      });
    });
    const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
    // the CLI starts from source here: give it time before its hold is looked for
    for (let i = 0; i < 600 && !stderr.includes('"following":true'); i++) await new Promise((r) => setTimeout(r, 100));
    await holding(relay);

    await alice.m.messages.sendAndWait(`direct:${bobAddress}`, 'follow me');
    await gotLine;
    expect(lines).toEqual([
      expect.objectContaining({ from: alice.address, text: 'follow me', routed: 'request', groupId: null }),
    ]);
    // each later message is a line of its own, printed as it is stored
    await alice.m.messages.sendAndWait(`direct:${bobAddress}`, 'and me');
    for (let i = 0; i < 400 && lines.length < 2; i++) await new Promise((r) => setTimeout(r, 25));
    expect(lines.map((l) => l.text)).toEqual(['follow me', 'and me']);
    proc.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toContain('"following":false');
    expect(relay.running.heldPulls()).toBe(0);
  }, 90_000);
});
