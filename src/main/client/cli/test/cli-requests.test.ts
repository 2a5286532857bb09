/**
 * Contact requests from the CLI as docs/cli.md and docs/protocol.md §9 state them: replying to a
 * request accepts it (so a later `accept` answers not-found), and an intro sent with `--request`
 * (`asRequest`) to someone who already accepted the sender is still routed `request`, a message of
 * kind `request`, filed in the conversation without a new pending request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../../../../shared/domain.js';
import { cleanup, cli, cliOk, newProfile, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

describe('contact requests from the CLI', () => {
  it('a reply accepts the request; a later intro from an accepted sender is routed request but asks nothing', async () => {
    const relay = await startRelay();
    const alice = await newProfile(relay.url);
    const b = tempDir('cli-requests-bob');
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url]);
    const toBob = `direct:${bob.address}` as ConversationId;

    const intro = await alice.m.messages.sendAndWait(toBob, 'hello, this is alice', true);
    expect(intro.outcome.routed).toBe('request');
    expect(await cliOk(b, ['requests'])).toEqual([
      expect.objectContaining({ address: alice.address, intro: 'hello, this is alice' }),
    ]);

    // replying answers it: the request is gone, and accepting it now finds nothing
    expect(await cliOk(b, ['send', alice.address, 'hi alice'])).toMatchObject({ state: 'sent', routed: 'inbox' });
    expect(await cliOk(b, ['requests'])).toEqual([]);
    const accept = await cli(b, ['accept', alice.address]);
    expect(accept.code).toBe(1);
    expect(JSON.parse(accept.stderr.trim().split('\n').at(-1)!)).toEqual({
      code: 'not-found',
      error: `There is no contact request from ${alice.address}.`,
    });

    // Bob has written to Alice, so the relay knows her; asRequest still routes request
    const again = await alice.m.messages.sendAndWait(toBob, 'a second intro', true);
    expect(again.outcome.routed).toBe('request');
    const sync = await cli(b, ['sync', '--json']);
    expect(sync.code, sync.stderr).toBe(0);
    // `requests` stored the first without printing it: this sync prints both, each an intro
    expect(sync.json).toEqual([
      expect.objectContaining({
        from: alice.address,
        routed: 'request',
        kind: 'request',
        text: 'hello, this is alice',
      }),
      expect.objectContaining({ from: alice.address, routed: 'request', kind: 'request', text: 'a second intro' }),
    ]);
    expect(await cliOk(b, ['requests'])).toEqual([]);
    const shown = await cliOk<Array<{ text: string }>>(b, ['messages', `direct:${alice.address}`]);
    expect(shown.map((m) => m.text)).toEqual(['hello, this is alice', 'hi alice', 'a second intro']);
  }, 300_000);
});
