/**
 * First use without stumbling, the CLI half: each place a new user could stumble, driven
 * through the real CLI as a child process against a real relay.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runTs } from '../../../test-support/child-process.js';
import { ROOT, cleanup, cli, cliOk, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

const HARDHAT_KEY = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('first use of the CLI', () => {
  it('imports a private key as wallets export it, without 0x', async () => {
    const relay = await startRelay();
    const profile = tempDir('nokey-prefix');
    const r = await cli(profile, ['init', '--relay', relay.url, '--private-key-env', 'WALLET_KEY'], {
      WALLET_KEY: `${HARDHAT_KEY}\n`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json[0]).toMatchObject({ address: HARDHAT_ADDRESS });
  }, 120_000);

  it('a malformed address is called one, not an unclaimed handle', async () => {
    const relay = await startRelay();
    const profile = tempDir('malformed');
    await cliOk(profile, ['init', '--relay', relay.url]);
    for (const [to, says] of [
      ['0x123', 'it has 3 hex digits after 0x, and an address has 40'],
      ['0x' + 'g'.repeat(40), 'after 0x an address has only the digits 0-9 and letters a-f'],
    ]) {
      const r = await cli(profile, ['send', to, 'hi']);
      // bad usage (docs/cli.md): exit 2, refused before anything is queued
      expect(r.code).toBe(2);
      expect(r.json).toEqual([]);
      const err = JSON.parse(r.stderr.trim().split('\n')[0]) as { error: string; code: string };
      expect(err.code).toBe('usage');
      expect(err.error).toContain(`“${to}” is not a valid address`);
      expect(err.error).toContain(says);
      expect(err.error).not.toMatch(/handle/);
    }
  }, 120_000);

  it('a mistyped relay address or fingerprint is said to be one; a self-signed relay asks for its fingerprint', async () => {
    const lan = await startRelay({ lan: true });
    const profile = tempDir('relay-typos');
    const lastError = (r: { stderr: string }) =>
      JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; code: string };

    const scheme = await cli(profile, ['init', '--relay', 'htp://127.0.0.1:7300']);
    expect(scheme.code).toBe(1);
    expect(lastError(scheme)).toEqual({
      code: 'bad-argument',
      error: 'A relay address starts with http:// or https://, not htp://.',
    });

    const fp = await cli(profile, ['init', '--relay', lan.url, '--fingerprint', 'AB:CD:zz']);
    expect(lastError(fp)).toEqual({
      code: 'bad-argument',
      error: 'A fingerprint has only hex digits (0-9, A-F), optionally separated by colons.',
    });
    const short = await cli(profile, ['init', '--relay', lan.url, '--fingerprint', 'AB:CD:EF']);
    expect(lastError(short).error).toContain('A fingerprint is 64 hex digits (a SHA-256 hash); this one has 6.');

    const unpinned = await cli(profile, ['init', '--relay', lan.url]);
    expect(unpinned.code).toBe(1);
    expect(lastError(unpinned).code).toBe('self-signed');
    expect(lastError(unpinned).error).toContain('self-signed certificate');

    const pinned = await cli(profile, ['init', '--relay', lan.url, '--fingerprint', lan.fingerprint!]);
    expect(pinned.code, pinned.stderr).toBe(0);
  }, 240_000);

  it('joins a relay in invite mode with the invite link alone; without a code it says to ask for an invite', async () => {
    const relay = await startRelay({ lan: true, registration: 'invite' });
    const lastError = (r: { stderr: string }) =>
      JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; code: string };
    const relayCli = fileURLToPath(new URL('../../../relay/cli.ts', import.meta.url));
    const admin = async (...args: string[]) => {
      const r = await runTs(relayCli, ['admin', '--data', relay.dataDir, ...args], { cwd: ROOT });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };

    const stranger = tempDir('invite-none');
    const refused = await cli(stranger, ['init', '--relay', relay.url, '--fingerprint', relay.fingerprint!]);
    expect(refused.code).toBe(1);
    expect(lastError(refused).code).toBe('invite-required');
    expect(lastError(refused).error).toMatch(/Ask the relay’s owner for an invite/);

    // the link carries the address, the public-key pin and the code: nothing else is needed
    const { code, link } = (await admin('invite', 'create', '--uses', '1')) as { code: string; link: string };
    expect(link).toMatch(/\/join#invite=.*&pin=[0-9a-f]{64}$/);
    const joiner = tempDir('invite-link');
    const joined = await cliOk<{ address: string }>(joiner, ['init', '--invite', link]);
    expect(await cliOk(joiner, ['whoami'])).toMatchObject({ address: joined.address, relay: relay.url });

    // the one use is spent: the same code for another wallet is refused as no longer valid
    const late = tempDir('invite-late');
    const spent = await cli(late, [
      'init',
      '--relay',
      relay.url,
      '--fingerprint',
      relay.fingerprint!,
      '--invite',
      code,
    ]);
    expect(lastError(spent).code).toBe('invite-invalid');
    expect(lastError(spent).error).toMatch(/Ask them for a new one/);

    const bad = await cli(late, ['init', '--invite', 'https://host/not-a-join-link']);
    expect(bad.code).toBe(2);

    // a suspended wallet is told so on its next sign-in
    await admin('suspend', joined.address);
    await cliOk(joiner, ['lock']);
    const suspended = await cli(joiner, ['init', '--relay', relay.url, '--fingerprint', relay.fingerprint!]);
    expect(lastError(suspended).code).toBe('suspended');
  }, 240_000);

  it('a send that reached nobody exits 1 and says why; decline needs a request; lists sync first', async () => {
    const relay = await startRelay();
    const [a, b] = [tempDir('ten-a'), tempDir('ten-b')];
    const alice = await cliOk<{ address: string }>(a, ['init', '--relay', relay.url, '--handle', 'ten_alice']);
    const bob = await cliOk<{ address: string }>(b, ['init', '--relay', relay.url, '--handle', 'ten_bob']);

    // failed: nobody has devices at that address
    const failed = await cli(a, ['send', '0x000000000000000000000000000000000000dead', 'anyone?']);
    expect(failed.code).toBe(1);
    expect(failed.json[0]).toMatchObject({ state: 'failed', error: expect.stringContaining('no certified devices') });

    // requests sync first: bob sees alice's request without running sync
    await cliOk(a, ['send', '@ten_bob', 'hello bob']);
    expect(await cliOk<unknown[]>(b, ['requests'])).toEqual([
      expect.objectContaining({ address: alice.address, intro: 'hello bob' }),
    ]);

    // decline of someone who never asked is not "ok"
    const none = await cli(b, ['decline', '0x000000000000000000000000000000000000beef']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      '{"error":"There is no contact request from 0x000000000000000000000000000000000000beef.","code":"not-found"}',
    );

    // conversations sync first too: alice's newest message is there without a sync
    await cliOk(b, ['allow', alice.address]);
    await cliOk(a, ['send', bob.address, 'now in your inbox']);
    expect(await cliOk<unknown[]>(b, ['conversations'])).toEqual([
      expect.objectContaining({
        id: `direct:${alice.address}`,
        lastMessage: expect.objectContaining({ text: 'now in your inbox' }),
      }),
    ]);

    // blocked: not "sent"
    await cliOk(b, ['block', alice.address]);
    const blocked = await cli(a, ['send', bob.address, 'still there?']);
    expect(blocked.code).toBe(1);
    expect(blocked.json[0]).toMatchObject({ state: 'blocked', routed: 'blocked' });
  }, 300_000);

  it('offline, a send to a known @handle is queued, and goes out when the relay is back', async () => {
    let relay = await startRelay();
    const [a, b] = [tempDir('four-a'), tempDir('four-b')];
    await cliOk(a, ['init', '--relay', relay.url, '--handle', 'four_alice']);
    await cliOk(b, ['init', '--relay', relay.url, '--handle', 'four_bob']);
    expect(await cliOk(a, ['send', '@four_bob', 'hello'])).toMatchObject({ state: 'sent' });

    await relay.stop();
    const offline = await cli(a, ['send', '@four_bob', 'written offline']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.json[0]).toMatchObject({ state: 'queued' });
    // a handle never seen before cannot be resolved offline: that is an error, not a guess
    expect((await cli(a, ['send', '@someone_new', 'hi'])).code).toBe(1);

    relay = await startRelay({ dataDir: relay.dataDir, port: relay.port });
    expect(await cliOk(a, ['outbox'])).toMatchObject({ state: 'sent' });
    const synced = await cli(b, ['sync', '--json']);
    expect((synced.json as Array<{ text: string }>).map((l) => l.text)).toEqual(['hello', 'written offline']);
  }, 300_000);

  it('the device in use cannot be revoked from itself; the profile keeps working', async () => {
    const relay = await startRelay();
    const profile = tempDir('five');
    const me = await cliOk<{ deviceKey: string }>(profile, ['init', '--relay', relay.url, '--handle', 'five_me']);
    const r = await cli(profile, ['revoke-device', me.deviceKey]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('"error":"That is the device you are using; revoke it from another device');
    expect(await cliOk(profile, ['whoami'])).toMatchObject({ deviceKey: me.deviceKey, handle: 'five_me' });
    expect(await cliOk<Array<{ publicKey: string }>>(profile, ['devices'])).toEqual([
      expect.objectContaining({ publicKey: me.deviceKey }),
    ]);
  }, 240_000);

  it('a device revoked from another one is told so, by every command and by init again', async () => {
    const relay = await startRelay();
    const [laptop, phone] = [tempDir('five-laptop'), tempDir('five-phone')];
    const created = await cliOk<{ mnemonic: string }>(laptop, [
      'init',
      '--relay',
      relay.url,
      '--handle',
      'five_two',
      '--show-mnemonic',
    ]);
    const other = await cliOk<{ deviceKey: string }>(phone, ['init', '--relay', relay.url, '--mnemonic-env', 'WORDS'], {
      WORDS: created.mnemonic,
    });
    await cliOk(laptop, ['revoke-device', other.deviceKey]);

    const lastError = (r: { stderr: string }) =>
      JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; code: string };
    for (const args of [['devices'], ['send', '@five_two', 'still here?'], ['sync'], ['init', '--relay', relay.url]]) {
      const r = await cli(phone, args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(lastError(r)).toMatchObject({
        code: 'device-revoked',
        error: expect.stringContaining('This device was revoked'),
      });
    }
    // the other device is unaffected
    expect(await cliOk<Array<{ publicKey: string }>>(laptop, ['devices'])).toHaveLength(1);
  }, 300_000);
});
