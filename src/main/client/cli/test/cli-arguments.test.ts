/**
 * The CLI takes addresses, device keys and conversation ids only in the forms docs/cli.md states
 * (an address in lower case or in its exact EIP-55 spelling, a device key in lower case), and no
 * more arguments than a command takes; anything else is bad usage: exit 2, `code: "usage"`, a
 * sentence naming what is wrong, and nothing done.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { toChecksumAddress } from '../../../vault/signing/wallet.js';
import { cleanup, cli, cliOk, startRelay, tempDir } from '../../test/harness.js';

afterAll(cleanup);

/** An address with letters in it, its EIP-55 spelling, and that spelling with one letter's case flipped. */
const LOWER = '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed';
const CHECKSUMMED = toChecksumAddress(LOWER);
const letter = [...CHECKSUMMED].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c));
const flip = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
const MISTYPED = CHECKSUMMED.slice(0, letter) + flip(CHECKSUMMED[letter]) + CHECKSUMMED.slice(letter + 1);

function usage(r: { code: number | null; stderr: string; json: unknown[] }): string {
  expect(r.json, 'nothing on stdout').toEqual([]);
  expect(r.code, r.stderr).toBe(2);
  const err = JSON.parse(
    r.stderr
      .trim()
      .split('\n')
      .find((l) => l.startsWith('{'))!,
  ) as { error: string; code: string };
  expect(err.code).toBe('usage');
  return err.error;
}

describe('arguments the CLI refuses as bad usage', () => {
  it('addresses in mixed case that is not their checksum, device keys not in lower case, surplus arguments', async () => {
    const relay = await startRelay();
    const profile = tempDir('cli-args');
    const me = await cliOk<{ deviceKey: string }>(profile, ['init', '--relay', relay.url]);
    expect(CHECKSUMMED).not.toBe(LOWER);
    expect(MISTYPED.toLowerCase()).toBe(LOWER);

    // an address: lower case or its exact EIP-55 spelling, stored lower-case either way
    expect(await cliOk(profile, ['allow', LOWER])).toEqual({ ok: true, allowed: LOWER });
    expect(await cliOk(profile, ['unblock', CHECKSUMMED])).toEqual({ ok: true, unblocked: LOWER });
    for (const args of [
      ['allow', MISTYPED],
      ['block', MISTYPED],
      ['send', MISTYPED, 'hi'],
      ['safety-number', MISTYPED],
      ['timer', `direct:${MISTYPED}`, '1h'],
    ])
      expect(usage(await cli(profile, args)), args.join(' ')).toContain('EIP-55 checksum');
    expect(usage(await cli(profile, ['allow', LOWER.toUpperCase().replace('0X', '0x')]))).toContain('EIP-55 checksum');
    expect(usage(await cli(profile, ['allow', `0X${LOWER.slice(2)}`]))).toContain('starts with 0x');
    expect(usage(await cli(profile, ['send', '0x123', 'hi']))).toContain(
      'it has 3 hex digits after 0x, and an address has 40',
    );
    expect(usage(await cli(profile, ['messages', `direct:${CHECKSUMMED}`]))).toContain('not a conversation id');

    // a device key: 64 lower-case hex, as `devices` prints it
    expect(usage(await cli(profile, ['revoke-device', me.deviceKey.toUpperCase()]))).toContain('lower case');
    expect(usage(await cli(profile, ['history', 'send', me.deviceKey.toUpperCase()]))).toContain('lower case');

    // one argument more than the command takes is refused, not ignored
    expect(usage(await cli(profile, ['revoke-device', me.deviceKey, me.deviceKey]))).toContain('one too many');
    expect(usage(await cli(profile, ['allow', LOWER, LOWER]))).toContain('allow takes at most 1 argument');
    expect(usage(await cli(profile, ['whoami', 'extra']))).toContain('whoami takes no arguments');

    // the refused revoke-device revoked nothing
    const devices = await cliOk<Array<{ publicKey: string }>>(profile, ['devices']);
    expect(devices.map((d) => d.publicKey)).toEqual([me.deviceKey]);
  }, 300_000);
});
