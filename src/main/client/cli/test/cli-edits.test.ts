/**
 * The command-line client's edit, delete and timer, end to end between two CLI profiles on
 * one relay: what the author's command prints, and what the peer's `sync` prints for them.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

describe('CLI edit, delete and timer', () => {
  it("edits, deletes and sets a timer; the peer's sync shows each", { timeout: 420_000 }, async () => {
    const relay = await startRelay();
    const a = tempDir('cli-edit-a');
    const b = tempDir('cli-edit-b');
    const ann = await cliOk<{ address: string }>(a, ['init', '--relay', relay.url, '--handle', 'ann_cli_e']);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'bob_cli_e']);
    await cliOk(b, ['allow', ann.address]);
    const sent = await cliOk<{ messageId: string }>(a, ['send', '@bob_cli_e', 'teh', 'plan']);
    await cliOk(b, ['sync', '--json']);

    expect(await cliOk(a, ['edit', '@bob_cli_e', sent.messageId, 'the', 'plan'])).toEqual({
      id: sent.messageId,
      conversationId: `direct:${bob.address}`,
      from: ann.address,
      edited: true,
      text: 'the plan',
      editedAt: expect.any(String),
      sent: true,
    });
    let sync = await cli(b, ['sync', '--json']);
    expect(sync.json).toEqual([
      {
        id: sent.messageId,
        conversationId: `direct:${ann.address}`,
        from: ann.address,
        edited: true,
        text: 'the plan',
        editedAt: expect.any(String),
      },
    ]);

    expect(await cliOk(a, ['delete', `direct:${bob.address}`, sent.messageId])).toMatchObject({
      id: sent.messageId,
      deleted: true,
      sent: true,
    });
    sync = await cli(b, ['sync', '--json']);
    expect(sync.json).toEqual([
      { id: sent.messageId, conversationId: `direct:${ann.address}`, from: ann.address, deleted: true },
    ]);

    expect(await cliOk(a, ['timer', '@bob_cli_e', '1h'])).toEqual({
      conversationId: `direct:${bob.address}`,
      timerSeconds: 3600,
      sent: true,
    });
    await cliOk(a, ['send', '@bob_cli_e', 'gone in an hour']);
    sync = await cli(b, ['sync']);
    expect(sync.stdout).toMatch(
      new RegExp(`${ann.address}: set disappearing messages to 1 hour\\n.*${ann.address}: gone in an hour\\n`),
    );

    // someone else's message, a bad timer: refused with a clear error
    const refused = await cli(b, ['edit', `direct:${ann.address}`, sent.messageId, 'mine now']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Only your own messages can be edited/);
    // below the wire format's 30 s
    const bad = await cli(a, ['timer', '@bob_cli_e', '10s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/off\|5m\|1h\|1d\|1w/);
  });
});
