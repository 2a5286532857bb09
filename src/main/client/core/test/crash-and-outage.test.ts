/**
 * Durability: a headless client SIGKILLed at every point of a sync pass (before the commit,
 * after it, after printing, after the ack) and restarted loses no message and prints none
 * twice; a message written while the relay is down waits in the outbox (across a client
 * restart) and is delivered once the relay is back on the same port and data.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../../shared/domain.js';
import { Messenger } from '../messenger.js';
import type { CrashPoint } from '../sync-pass.js';
import { PASSPHRASE, cleanup, cli, newProfile, startRelay } from '../../test/harness.js';

afterAll(cleanup);

describe('crash safety of the sync loop', () => {
  it('killing the client at any point of a pass and restarting loses nothing and shows nothing twice', async () => {
    const relay = await startRelay();
    const alice = await newProfile(relay.url);
    const bob = await newProfile(relay.url);
    await bob.m.contacts.acceptRequest({ address: alice.address });
    // the CLI drives bob's profile from here on; one process at a time owns it
    await bob.m.close();

    const sent: string[] = [];
    const send = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const { outcome } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, `message ${sent.length + 1}`);
        expect(outcome.state).toBe('sent');
        sent.push(outcome.messageId);
      }
    };

    const printed: string[] = [];
    const points: CrashPoint[] = ['before-commit', 'after-commit', 'after-print', 'after-ack'];
    for (const point of points) {
      await send(3);
      // --limit 2: the pass crashes in its first batch with more still queued behind it
      const r = await cli(bob.dir, ['sync', '--json', '--limit', '2'], { RELAY_CLIENT_TEST_CRASH: point });
      expect(r.signal, `${point}: ${r.stderr}`).toBe('SIGKILL');
      for (const line of r.json as Array<{ id: string }>) printed.push(line.id);
    }
    const final = await cli(bob.dir, ['sync', '--json', '--limit', '2']);
    expect(final.code, final.stderr).toBe(0);
    for (const line of final.json as Array<{ id: string; from: string; text: string; routed: string }>) {
      expect(line.from).toBe(alice.address);
      expect(line.routed).toBe('inbox');
      printed.push(line.id);
    }

    expect(sent).toHaveLength(12);
    expect([...printed].sort()).toEqual([...sent].sort()); // every message, each exactly once

    const again = await cli(bob.dir, ['sync', '--json']);
    expect(again.code).toBe(0);
    expect(again.json).toEqual([]);
    // and the relay holds nothing more for bob: everything committed was acked
    const reopened = await Messenger.open({ profileDir: bob.dir, autoSync: false });
    try {
      await reopened.wallet.unlock({ passphrase: PASSPHRASE });
      expect((await reopened.syncPass()).pulled).toBe(0);
      expect(
        reopened.messages
          .listMessages({ conversationId: `direct:${alice.address}`, limit: 100 })
          .map((m) => m.id)
          .sort(),
      ).toEqual([...sent].sort());
    } finally {
      await reopened.close();
    }
  }, 300_000);
});

describe('outbox while the relay is down', () => {
  it('queues across a client restart and delivers once the relay is back', async () => {
    const relay = await startRelay();
    const alice = await newProfile(relay.url);
    const bob = await newProfile(relay.url);
    await relay.stop();

    const { outcome, message } = await alice.m.messages.sendAndWait(`direct:${bob.address}`, 'written offline');
    expect(outcome.state).toBe('queued');
    expect(outcome.error).toBeTruthy();
    expect(message.state).toBe('sending');
    expect(alice.m.syncStatus().pendingOutbox).toBe(1);
    const sync = await alice.m.syncNow();
    expect(sync.state).toBe('offline');

    // the client restarts while the relay is still down: the message is still waiting
    await alice.m.close();
    const restarted = await Messenger.open({ profileDir: alice.dir, autoSync: true, pollIntervalMs: 100 });
    try {
      const delivered = new Promise<ChatMessage>((resolve) => {
        restarted.on('message.updated', (m) => {
          if (m.id === message.id && m.state === 'sent') resolve(m);
        });
      });
      await restarted.wallet.unlock({ passphrase: PASSPHRASE });
      expect(restarted.syncStatus().pendingOutbox).toBe(1);
      expect(restarted.messages.listMessages({ conversationId: `direct:${bob.address}` }).map((m) => m.state)).toEqual([
        'sending',
      ]);

      // same port, same data: the background loop's retry gets through
      await startRelay({ dataDir: relay.dataDir, port: relay.port });
      const sent = await delivered;
      expect(sent.routed).toBe('request');
      expect(restarted.syncStatus().pendingOutbox).toBe(0);
    } finally {
      await restarted.close();
    }

    const pass = await bob.m.syncPass();
    expect(pass.stored).toBe(1);
    expect(bob.m.messages.listMessages({ conversationId: `direct:${alice.address}` }).map((m) => m.text)).toEqual([
      'written offline',
    ]);
    expect((await bob.m.syncPass()).stored).toBe(0);
  }, 120_000);
});
