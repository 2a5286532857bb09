import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import {
  hashTypedData,
  keccak256,
  serializeTransaction,
  type TransactionSerializableEIP1559,
  type TypedDataDefinition,
} from 'viem';
import { ADDRESS } from '../../../shared/identity-patterns.js';
import { libsecp256k1 } from './libsecp256k1.js';
import { VaultError } from '../vault-error.js';
import type { TransactionToSign, TypedDataToSign } from '../worker/vault-protocol.js';

/**
 * Signing for the stake escrow: EIP-1559 transactions and EIP-712 typed data, with the wallet
 * key inside the vault worker. viem only serialises and hashes here; the signature is libsecp256k1's,
 * as for every other signature the vault makes. Loaded on first use (viem is slow to load).
 */

const HEX = /^0x[0-9a-fA-F]*$/;
const UINT = /^[0-9]{1,78}$/;

function uint(value: unknown, name: string): bigint {
  if (typeof value !== 'string' || !UINT.test(value))
    throw new VaultError('bad-request', `${name} must be a decimal integer string`);
  return BigInt(value);
}

/** r, s (low S) and the recovery bit. */
function signDigest(
  privateKey: Uint8Array,
  digest: Uint8Array,
): { r: `0x${string}`; s: `0x${string}`; recovery: number } {
  const { signature, recoveryId } = libsecp256k1().signRecoverable(digest, privateKey);
  return {
    recovery: recoveryId,
    r: `0x${bytesToHex(signature.subarray(0, 32))}`,
    s: `0x${bytesToHex(signature.subarray(32, 64))}`,
  };
}

/** The signed transaction, ready for eth_sendRawTransaction, and its hash. */
export function signTransaction(
  privateKey: Uint8Array,
  tx: TransactionToSign,
): { serialized: `0x${string}`; hash: `0x${string}` } {
  if (tx === null || typeof tx !== 'object') throw new VaultError('bad-request', 'the transaction must be an object');
  if (!Number.isInteger(tx.chainId) || tx.chainId < 1)
    throw new VaultError('bad-request', 'chainId must be a positive integer');
  if (!Number.isInteger(tx.nonce) || tx.nonce < 0)
    throw new VaultError('bad-request', 'nonce must be a non-negative integer');
  if (typeof tx.to !== 'string' || !ADDRESS.test(tx.to))
    throw new VaultError('bad-request', 'to must be an address (a contract creation is not signed here)');
  const data = tx.data ?? '0x';
  if (typeof data !== 'string' || !HEX.test(data) || data.length % 2 !== 0)
    throw new VaultError('bad-request', 'data must be 0x-prefixed hex');
  const unsigned: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId: tx.chainId,
    nonce: tx.nonce,
    to: tx.to as `0x${string}`,
    value: uint(tx.value, 'value'),
    data: data as `0x${string}`,
    gas: uint(tx.gas, 'gas'),
    maxFeePerGas: uint(tx.maxFeePerGas, 'maxFeePerGas'),
    maxPriorityFeePerGas: uint(tx.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
  };
  if (unsigned.maxPriorityFeePerGas! > unsigned.maxFeePerGas!)
    throw new VaultError('bad-request', 'maxPriorityFeePerGas is above maxFeePerGas');
  const { r, s, recovery } = signDigest(privateKey, hexToBytes(keccak256(serializeTransaction(unsigned)).slice(2)));
  const serialized = serializeTransaction(unsigned, { r, s, yParity: recovery });
  return { serialized, hash: keccak256(serialized) };
}

/** eth_signTypedData_v4: 0x + r(32) s(32) v(1), v = 27 + recovery bit. */
export function signTypedData(privateKey: Uint8Array, typed: TypedDataToSign): string {
  if (typed === null || typeof typed !== 'object' || typeof typed.primaryType !== 'string')
    throw new VaultError('bad-request', 'typed data needs domain, types, primaryType and message');
  let digest: `0x${string}`;
  try {
    // Plain data from the caller: viem checks the domain and message against the types as it
    // hashes (a mismatch throws, answered below), which its static type cannot say of such data.
    digest = hashTypedData(typed as TypedDataDefinition<Record<string, unknown>, string>);
  } catch (e) {
    throw new VaultError('bad-request', `the typed data does not encode: ${(e as Error).message.split('\n')[0]}`);
  }
  const { r, s, recovery } = signDigest(privateKey, hexToBytes(digest.slice(2)));
  return `${r}${s.slice(2)}${(27 + recovery).toString(16)}`;
}
