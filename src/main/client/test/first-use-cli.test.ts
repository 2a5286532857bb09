/**
 * Issue 15, "first use without stumbling", the CLI half: each finding a new user hit, driven
 * through the real CLI as a child process against a real relay.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, cli, startRelay, tempDir } from './harness.js';

afterAll(cleanup);

const HARDHAT_KEY = 'ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const HARDHAT_ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('first use of the CLI', () => {
  it('1. imports a private key as wallets export it, without 0x', async () => {
    const relay = await startRelay();
    const profile = tempDir('nokey-prefix');
    const r = await cli(profile, ['init', '--relay', relay.url, '--private-key-env', 'WALLET_KEY'], { WALLET_KEY: `${HARDHAT_KEY}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json[0]).toMatchObject({ address: HARDHAT_ADDRESS });
  });
});
