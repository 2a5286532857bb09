/**
 * `npm run devchain`: a local chain to try stakes on. Starts anvil on 127.0.0.1, deploys the
 * escrow, funds the given wallets and prints the relay flags to use; Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { parseEther, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_KEYS } from './anvil.js';
import { startLocalChain } from './local-chain.js';
import { ADDRESS } from '../../shared/identity-patterns.js';

const USAGE = `Usage: npm run devchain -- [--port <n>] [--chain-id <n>] [--block-time <s>] [--fund <0xaddress>]...

  --port <n>        port on 127.0.0.1 (default 8545; 0 picks a free one)
  --chain-id <n>    chain id (default 31337)
  --block-time <s>  mine a block every s seconds (default: one block per transaction)
  --fund <address>  give this wallet 100 ETH; repeatable (e.g. the address your app shows in Settings)
`;

const FUNDING = parseEther('100');

function fail(message: string): never {
  process.stderr.write(`devchain: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function int(name: string, v: string | undefined, fallback: number, min: number): number {
  if (v === undefined) return fallback;
  if (!/^\d+$/.test(v) || Number(v) < min) fail(`--${name}: expected an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  return Number(v);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        'chain-id': { type: 'string' },
        'block-time': { type: 'string' },
        fund: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const fund = (values.fund ?? []).map((a) =>
    ADDRESS.test(a) ? (a as Hex) : fail(`--fund: not an address: ${JSON.stringify(a)}`),
  );
  const blockTime = values['block-time'] === undefined ? undefined : int('block-time', values['block-time'], 0, 1);
  const chain = await startLocalChain({
    port: int('port', values.port, 8545, 0),
    chainId: int('chain-id', values['chain-id'], 31337, 1),
    blockTime,
  });
  const stop = () => void chain.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (const address of fund) await chain.test.setBalance({ address, value: FUNDING });

  const { rpcUrl, chainId } = chain.anvil;
  const out = [
    `devchain: anvil on ${rpcUrl} (chain id ${chainId}), escrow ${chain.escrow}`,
    '',
    'Start a relay that takes stakes on it:',
    `  npm run relay -- --stake-rpc ${rpcUrl} --stake-chain-id ${chainId} --stake-escrow ${chain.escrow} --stake-confirmations 1`,
    '',
    ...(fund.length > 0 ? ['Funded with 100 ETH:', ...fund.map((a) => `  ${a}`), ''] : []),
    "Test wallets with 10000 ETH each (anvil's public development keys: never use them on a real chain):",
    ...ANVIL_KEYS.map((k) => `  ${privateKeyToAccount(k).address}  ${k}`),
    '',
    'Ctrl-C stops the chain; its state is not kept.',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`devchain: ${(e as Error).message}\n`);
  process.exit(1);
});
