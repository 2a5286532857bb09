import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  type Chain,
  type Hex,
  type PublicClient,
  type TestClient,
  type WalletClient,
  type Account,
  type Transport,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { deployEscrow } from '../relay/chain/deploy-escrow.js';
import { ANVIL_KEYS, startAnvil, type Anvil, type AnvilOptions } from './anvil.js';

/** anvil with the escrow deployed, and viem clients on it: for tests and `npm run devchain`. */
export interface LocalChain {
  anvil: Anvil;
  chain: Chain;
  pub: PublicClient<Transport, Chain>;
  test: TestClient<'anvil', Transport, Chain>;
  escrow: `0x${string}`;
  wallet(key: Hex): WalletClient<Transport, Chain, Account>;
  stop(): Promise<void>;
}

export function chainFor(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `local ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export async function startLocalChain(opts: AnvilOptions = {}): Promise<LocalChain> {
  const anvil = await startAnvil(opts);
  try {
    const chain = chainFor(anvil.chainId, anvil.rpcUrl);
    const transport = http(anvil.rpcUrl, { retryCount: 0 });
    const { address } = await deployEscrow(anvil.rpcUrl, ANVIL_KEYS[0]);
    return {
      anvil,
      chain,
      pub: createPublicClient({ chain, transport, pollingInterval: 50 }),
      test: createTestClient({ chain, transport, mode: 'anvil' }),
      escrow: address,
      wallet: (key) => createWalletClient({ chain, transport, account: privateKeyToAccount(key), pollingInterval: 50 }),
      stop: () => anvil.stop(),
    };
  } catch (e) {
    await anvil.stop();
    throw e;
  }
}
