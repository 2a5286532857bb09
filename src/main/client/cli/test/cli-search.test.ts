/**
 * `search` as QA drives it: two CLI profiles over a real relay; what one sent and the other
 * synced is found on each side from the local database, newest first, with the matched words
 * listed; in one conversation with --conversation; punctuation alone finds nothing; a bad
 * conversation id is a usage error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from '../../test/harness.js';

let relay: Relay | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

interface Hit {
  id: string;
  conversationId: string;
  from: string;
  fromMe: boolean;
  sentAt: string;
  snippet: string;
  matches: string[];
}

describe('CLI search', () => {
  it('finds sent and synced messages by word, across conversations or in one', async () => {
    relay = await startRelay();
    const a = tempDir('cli-search-alice');
    const b = tempDir('cli-search-bob');
    // one after the other: each derives its profile key, which is slow on a busy machine
    const alice = await cliOk<{ address: string }>(a, ['init', '--relay', relay.url, '--handle', 'alice_find']);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_find']);
    await cliOk(b, ['allow', alice.address]);
    const first = await cliOk<{ messageId: string }>(a, ['send', '@bob_find', 'Lunch at the harbour?']);
    const second = await cliOk<{ messageId: string }>(a, ['send', '@bob_find', 'lunch moved to noon']);
    expect((await cli(b, ['sync', '--json'])).json).toHaveLength(2);

    const mine = await cliOk<Hit[]>(a, ['search', 'lunch']);
    expect(mine).toEqual([
      {
        id: second.messageId,
        conversationId: `direct:${bob.address}`,
        from: alice.address,
        fromMe: true,
        sentAt: expect.any(String),
        snippet: 'lunch moved to noon',
        matches: ['lunch'],
      },
      {
        id: first.messageId,
        conversationId: `direct:${bob.address}`,
        from: alice.address,
        fromMe: true,
        sentAt: expect.any(String),
        snippet: 'Lunch at the harbour?',
        matches: ['Lunch'],
      },
    ]);

    const theirs = await cliOk<Hit[]>(b, ['search', 'harb', '--conversation', `direct:${alice.address}`]);
    expect(theirs).toEqual([
      expect.objectContaining({ id: first.messageId, from: alice.address, fromMe: false, matches: ['harbour'] }),
    ]);
    expect((await cliOk<Hit[]>(b, ['search', 'lunch', '--limit', '1'])).map((h) => h.id)).toEqual([second.messageId]);
    expect(await cliOk<Hit[]>(b, ['search', '"(*)"'])).toEqual([]);

    const bad = await cli(b, ['search', 'lunch', '--conversation', 'alice']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr.split('\n')[0])).toEqual({
      code: 'usage',
      error: expect.stringContaining('--conversation'),
    });
  }, 400_000);
});
