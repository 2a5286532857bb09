/**
 * Delivered receipts from the CLI (docs/cli.md, Live delivery, receipts and typing): `sync
 * --follow` sends them for what reaches the inbox; plain `sync` (like every other one-shot
 * command) sends none, and a message it stored never gets one later. And the status lines
 * `--follow` writes on stderr while stdout carries only messages.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ConversationId } from '../../../../shared/domain.js';
import { cleanup, cli, cliOk, followCli, newProfile, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

describe('delivered receipts from the CLI', () => {
  it('sync --follow sends them; plain sync does not, then or later', async () => {
    const relay = await startRelay();
    const alice = await newProfile(relay.url);
    const b = tempDir('cli-receipts-bob');
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url]);
    await cliOk(b, ['allow', alice.address]);
    const toBob = `direct:${bob.address}` as ConversationId;
    const delivery = async (id: string) => {
      await alice.m.syncPass();
      return alice.m.store.getMessage(id)!.delivery;
    };

    const first = await alice.m.messages.sendAndWait(toBob, 'read by a plain sync');
    expect(first.outcome.routed).toBe('inbox');
    const plain = await cli(b, ['sync', '--json']);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.json).toEqual([expect.objectContaining({ text: 'read by a plain sync', routed: 'inbox' })]);
    // the process has ended: whatever it sent is on the relay by now
    expect(await delivery(first.message.id)).toBe('sent');

    const follower = followCli(b);
    await follower.started;
    expect(follower.stderr()).toContain(
      '{"following":true,"note":"each message is printed as it arrives; Ctrl-C ends"}\n',
    );
    const second = await alice.m.messages.sendAndWait(toBob, 'read by sync --follow');
    await expect.poll(() => delivery(second.message.id), { timeout: 30_000 }).toBe('delivered');
    expect(follower.lines).toEqual([expect.objectContaining({ text: 'read by sync --follow', routed: 'inbox' })]);
    expect(await follower.stop()).toBe(0);
    expect(follower.stderr().trim().split('\n').at(-1)).toBe('{"following":false,"signal":"SIGTERM"}');
    // the first one was stored without a receipt, and following later did not send one for it
    expect(await delivery(first.message.id)).toBe('sent');
  }, 300_000);
});
