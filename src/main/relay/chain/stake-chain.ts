import {
  createPublicClient,
  encodeAbiParameters,
  fallback,
  hexToBytes,
  http,
  keccak256,
  recoverTypedDataAddress,
  type Hex,
  type PublicClient,
} from 'viem';
import { ESCROW_ABI, ESCROW_IMMUTABLE_RANGES, ESCROW_RUNTIME_HASH } from '../../contracts/escrow-artifact.js';
import { STAKE_STATUSES, type StakeStatus } from '../../../shared/stake/stake-types.js';

/** The chain a relay takes stakes on (docs/protocol.md §13 Stakes). */
export interface StakeChainConfig {
  /** tried in order; the next one answers when one fails */
  rpcUrls: string[];
  chainId: number;
  escrow: `0x${string}`;
  /** a stake counts once it is this many blocks deep (1: in the latest block) */
  confirmations: number;
}

export interface OnChainStake {
  sender: `0x${string}`;
  amountWei: bigint;
  recipient: `0x${string}`;
  /** epoch seconds */
  deadline: number;
  status: StakeStatus | 'none';
}

/** The chain could not be read: the relay answers 503 stake-unverifiable and delivers nothing. */
export class ChainUnreachableError extends Error {
  constructor(cause: unknown) {
    super(`the stake chain cannot be read: ${(cause as Error)?.message?.split('\n')[0] ?? String(cause)}`);
    this.name = 'ChainUnreachableError';
  }
}

/** The configured escrow is not ours (or the RPC serves another chain): the relay refuses to start. */
export class EscrowMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EscrowMismatchError';
  }
}

export interface StakeChain {
  readonly config: StakeChainConfig;
  /** Checks the RPC's chain id and the escrow's deployed code against the committed artifact. */
  verify(): Promise<void>;
  /** The stake as it stands `confirmations` deep, and whether it exists at the head already. */
  readStake(id: Hex): Promise<{ confirmed: OnChainStake; atHead: OnChainStake }>;
  /** Current stake, at the head: for listing statuses. */
  readLatest(id: Hex): Promise<OnChainStake>;
  /** Whether `signature` is the recipient's EIP-712 `Release(bytes32 id)` for this escrow. */
  isReleaseSignature(id: Hex, recipient: `0x${string}`, signature: Hex): Promise<boolean>;
}

/** keccak256(abi.encode(chainid, escrow, sender, recipient, ref)): the escrow's stake id. */
export function stakeIdOf(
  chainId: number,
  escrow: `0x${string}`,
  sender: `0x${string}`,
  recipient: `0x${string}`,
  ref: Hex,
): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'address' }, { type: 'address' }, { type: 'address' }, { type: 'bytes32' }],
      [BigInt(chainId), escrow, sender, recipient, ref],
    ),
  );
}

/** keccak256 of deployed code with the constructor-filled ranges zeroed. */
export function maskedCodeHash(code: Hex): Hex {
  const bytes = hexToBytes(code);
  for (const r of ESCROW_IMMUTABLE_RANGES) bytes.fill(0, r.start, r.start + r.length);
  return keccak256(bytes);
}

export function createStakeChain(config: StakeChainConfig): StakeChain {
  const client: PublicClient = createPublicClient({
    transport: fallback(
      config.rpcUrls.map((url) => http(url, { retryCount: 0, timeout: 8_000 })),
      { retryCount: 0 },
    ),
  });
  const read = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (e) {
      throw new ChainUnreachableError(e);
    }
  };
  const stakeAt = async (id: Hex, blockNumber: bigint | undefined): Promise<OnChainStake> => {
    const [sender, amount, recipient, deadline, status] = await client.readContract({
      address: config.escrow,
      abi: ESCROW_ABI,
      functionName: 'stakes',
      args: [id],
      blockNumber,
    });
    return {
      sender: sender.toLowerCase() as `0x${string}`,
      amountWei: amount,
      recipient: recipient.toLowerCase() as `0x${string}`,
      deadline,
      status: status === 0 ? 'none' : STAKE_STATUSES[status - 1],
    };
  };
  return {
    config,
    async verify() {
      const chainId = await read(() => client.getChainId());
      if (chainId !== config.chainId)
        throw new EscrowMismatchError(`the stake RPC serves chain ${chainId}, not --stake-chain-id ${config.chainId}`);
      const code = await read(() => client.getCode({ address: config.escrow }));
      if (!code || code === '0x')
        throw new EscrowMismatchError(
          `no contract at ${config.escrow} on chain ${chainId} (deploy one with \`relay admin deploy-escrow\`)`,
        );
      const hash = maskedCodeHash(code);
      if (hash !== ESCROW_RUNTIME_HASH)
        throw new EscrowMismatchError(
          `the code at ${config.escrow} is not this relay's RelayStakeEscrow (code hash ${hash}, expected ${ESCROW_RUNTIME_HASH})`,
        );
    },
    readStake: (id) =>
      read(async () => {
        const head = await client.getBlockNumber({ cacheTime: 0 });
        const depth = BigInt(config.confirmations - 1);
        const atHead = await stakeAt(id, head);
        const confirmed =
          head < depth
            ? { ...atHead, status: 'none' as const }
            : depth === 0n
              ? atHead
              : await stakeAt(id, head - depth);
        return { confirmed, atHead };
      }),
    readLatest: (id) => read(() => stakeAt(id, undefined)),
    async isReleaseSignature(id, recipient, signature) {
      try {
        const signer = await recoverTypedDataAddress({
          domain: { name: 'RelayStakeEscrow', version: '1', chainId: config.chainId, verifyingContract: config.escrow },
          types: { Release: [{ name: 'id', type: 'bytes32' }] },
          primaryType: 'Release',
          message: { id },
          signature,
        });
        return signer.toLowerCase() === recipient.toLowerCase();
      } catch {
        return false;
      }
    },
  };
}
