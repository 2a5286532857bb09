/**
 * `npm run devchain` as an operator or tester meets it: anvil on 127.0.0.1 with the committed
 * escrow deployed, the wallets asked for funded, the relay flags printed; SIGTERM stops the
 * chain with it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPublicClient, http, parseEther, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { ESCROW_ABI } from '../../contracts/escrow-artifact.js';
import { ANVIL_MISSING } from '../anvil.js';

const ROOT = resolve(import.meta.dirname, '../../../..');
const why = ANVIL_MISSING ? ` (skipped: ${ANVIL_MISSING})` : '';
const FUNDED = '0x00000000000000000000000000000000000000f1';

describe.skipIf(ANVIL_MISSING !== null)(`npm run devchain${why}`, () => {
  it('deploys the escrow, funds --fund wallets, prints the relay flags, and stops on SIGTERM', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/main/devchain/cli.ts'), '--port', '0', '--fund', FUNDED],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    proc.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((r) => proc.once('close', (code) => r(code)));
    const printed = new Promise<string>((resolve, reject) => {
      proc.stdout.setEncoding('utf8').on('data', (d: string) => {
        stdout += d;
        if (stdout.includes('Ctrl-C stops the chain')) resolve(stdout);
      });
      void exited.then((code) => reject(new Error(`devchain exited (${code}) before printing: ${stderr}`)));
    });
    try {
      const out = await printed;
      // README says how many test wallets it prints: the same number as it does print
      const wallets = out.split('\n').filter((l) => /^ {2}0x[0-9a-fA-F]{40} {2}0x[0-9a-f]{64}$/.test(l)).length;
      const said = /relay flags and (\w+) test wallets/.exec(readFileSync(join(ROOT, 'README.md'), 'utf8'))?.[1];
      expect(wallets).toBeGreaterThan(0);
      expect(said && { five: 5, ten: 10 }[said]).toBe(wallets);
      const flags =
        /npm run relay -- --stake-rpc (http:\/\/127\.0\.0\.1:\d+) --stake-chain-id (\d+) --stake-escrow (0x[0-9a-fA-F]{40}) --stake-confirmations 1/.exec(
          out,
        );
      expect(flags).not.toBeNull();
      const [, rpcUrl, chainId, escrow] = flags!;
      expect(chainId).toBe('31337');
      const pub = createPublicClient({ transport: http(rpcUrl) });
      expect(await pub.getBalance({ address: FUNDED })).toBe(parseEther('100'));
      // the escrow answers as one: its 30-day lock and its EIP-712 domain
      expect(await pub.readContract({ address: escrow as Hex, abi: ESCROW_ABI, functionName: 'MAX_LOCK' })).toBe(
        30n * 86_400n,
      );
      expect(
        (await pub.readContract({ address: escrow as Hex, abi: ESCROW_ABI, functionName: 'eip712Domain' })).slice(1, 3),
      ).toEqual(['RelayStakeEscrow', '1']);
      expect(out).toContain(`Funded with 100 ETH:\n  ${FUNDED}`);
      proc.kill('SIGTERM');
      expect(await exited).toBe(0);
      // the chain went with it
      await expect(pub.getBlockNumber({ cacheTime: 0 })).rejects.toThrow();
    } finally {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    }
  }, 60_000);
});
