import { createPublicClient, createWalletClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ESCROW_ABI, ESCROW_BYTECODE } from '../../contracts/escrow-artifact.js';

export interface DeployedEscrow {
  address: `0x${string}`;
  chainId: number;
  txHash: Hex;
  gasUsed: bigint;
}

/**
 * Deploys the committed escrow bytecode (no constructor arguments, no owner) and waits for
 * the receipt. Used by `relay admin deploy-escrow` and `npm run devchain`.
 */
export async function deployEscrow(rpcUrl: string, privateKey: Hex): Promise<DeployedEscrow> {
  const account = privateKeyToAccount(privateKey);
  const transport = http(rpcUrl, { retryCount: 0, timeout: 20_000 });
  const pub = createPublicClient({ transport });
  const chainId = await pub.getChainId();
  const chain = {
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  const wallet = createWalletClient({ account, chain, transport });
  const txHash = await wallet.deployContract({ abi: ESCROW_ABI, bytecode: ESCROW_BYTECODE });
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash, pollingInterval: 250 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`the deployment ${txHash} failed`);
  return { address: receipt.contractAddress, chainId, txHash, gasUsed: receipt.gasUsed };
}
