/**
 * What stakes need of viem: a JSON-RPC client for the stake chain, the escrow's call data, and
 * viem's errors read as ours. Imported only when a stake is paid, listed or settled (stakes.ts):
 * viem and its helpers are about 40 % of the client's code, and every other command and every
 * start of the app would otherwise load them.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  HttpRequestError,
  TimeoutError,
  createPublicClient,
  encodeFunctionData,
  http,
  type Hex,
  type PublicClient,
} from 'viem';
import { ESCROW_ABI } from '../../contracts/escrow-artifact.js';
import { MessengerError } from '../core/messenger-error.js';

export function chainClient(url: string, timeoutMs: number): PublicClient {
  return createPublicClient({ transport: http(url, { retryCount: 1, timeout: timeoutMs }), pollingInterval: 250 });
}

export function escrowCall(
  call:
    | { functionName: 'deposit'; args: [Hex, Hex, bigint | number] }
    | { functionName: 'forfeit' | 'refund'; args: [Hex] }
    | { functionName: 'releaseWithSig'; args: [Hex, Hex] },
): Hex {
  return encodeFunctionData({ abi: ESCROW_ABI, ...call } as Parameters<typeof encodeFunctionData>[0]);
}

export function chainError(e: unknown, url: string): Error {
  if (e instanceof MessengerError) return e;
  const unreachable =
    e instanceof BaseError && e.walk((x) => x instanceof HttpRequestError || x instanceof TimeoutError) !== null;
  if (unreachable)
    return new MessengerError(
      'chain-unreachable',
      `the stake chain cannot be reached at ${url}: check the RPC URL in Settings, or try later`,
    );
  const reverted = e instanceof BaseError ? e.walk((x) => x instanceof ContractFunctionRevertedError) : null;
  const reason =
    reverted instanceof ContractFunctionRevertedError
      ? (reverted.data?.errorName ?? reverted.shortMessage)
      : e instanceof BaseError
        ? e.shortMessage
        : (e as Error)?.message;
  return new MessengerError('chain-refused', `the chain refused the transaction: ${String(reason).split('\n')[0]}`);
}
