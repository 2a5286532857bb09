/**
 * The CLI's remembered unlock (vault/keys/unlock-ticket.ts) as a user meets it: commands in a row
 * leave 0600 tickets in the profile, a wrong passphrase is still refused, `lock` and
 * `--unlock-ttl 0` forget them, and a bad --unlock-ttl is a usage error.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, cliOk, startRelay, tempDir, type Relay } from '../../test/harness.js';
import { LOWER_ADDRESS } from '../../../../shared/identity-patterns.js';

let relay: Relay | null = null;
afterAll(async () => {
  await relay?.stop();
  await cleanup();
});

// the tickets go to the profile folder when there is no per-user runtime folder
const NO_RUNTIME_DIR = { XDG_RUNTIME_DIR: undefined };

describe('CLI unlock tickets', () => {
  it('remembers an unlock between commands, refuses a wrong passphrase, and forgets on lock or --unlock-ttl 0', async () => {
    relay = await startRelay();
    const dir = tempDir('cli-unlock');
    await cliOk(dir, ['init', '--relay', relay.url], NO_RUNTIME_DIR);
    const tickets = ['unlock-vault.json', 'unlock-api-key.json'].map((f) => join(dir, f));

    const me = await cliOk<{ address: string }>(dir, ['whoami'], NO_RUNTIME_DIR);
    expect(me.address).toMatch(LOWER_ADDRESS);
    for (const t of tickets) expect(statSync(t).mode & 0o777).toBe(0o600);
    expect((await cliOk<{ address: string }>(dir, ['whoami'], NO_RUNTIME_DIR)).address).toBe(me.address);

    const wrong = await cli(dir, ['whoami'], { ...NO_RUNTIME_DIR, RELAY_PASSPHRASE: 'not the passphrase' });
    expect(wrong.code).toBe(1);
    // (the code's prefix is being unified between CLI and app: either spelling names the cause)
    expect((JSON.parse(wrong.stderr.trim().split('\n').at(-1)!) as { code: string }).code).toMatch(/^bad-passphrase$/);

    expect(await cliOk(dir, ['lock'], NO_RUNTIME_DIR)).toEqual({ locked: true });
    for (const t of tickets) expect(existsSync(t)).toBe(false);

    expect((await cliOk<{ address: string }>(dir, ['--unlock-ttl', '0', 'whoami'], NO_RUNTIME_DIR)).address).toBe(
      me.address,
    );
    for (const t of tickets) expect(existsSync(t)).toBe(false);

    const bad = await cli(dir, ['--unlock-ttl', 'soon', 'whoami'], NO_RUNTIME_DIR);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--unlock-ttl must be a whole number/);
  }, 240_000);
});
