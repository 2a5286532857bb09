import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { libsecp256k1 } from './libsecp256k1.js';
import { recoverPublicKey } from './public-key-recovery.js';
import { VaultError } from '../vault-error.js';
import { ADDRESS } from '../../../shared/identity-patterns.js';

/**
 * The wallet half of an identity: a secp256k1 key, an Ethereum address, EIP-191 signatures.
 * Pure; signing, recovery and key checks through libsecp256k1 (libsecp256k1.ts), the unlock's
 * address through OpenSSL (openssl-address.ts), measured faster on that cold path.
 */

export const DERIVATION_PATH = "m/44'/60'/0'/0/0";

export interface WalletKey {
  privateKey: Uint8Array;
  /** lower-case 0x address */
  address: string;
}

/** with or without the 0x prefix: keys exported from common wallets have none */
const PRIVATE_KEY = /^(0[xX])?[0-9a-fA-F]{64}$/;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

export function isAddress(value: unknown): value is string {
  return typeof value === 'string' && ADDRESS.test(value);
}

/** Addresses compare case-insensitively and are stored lower-case. */
export function normalizeAddress(value: string): string {
  if (!isAddress(value)) throw new VaultError('bad-request', 'not an address (0x + 40 hex)');
  return value.toLowerCase();
}

/** EIP-55 mixed-case checksum spelling, for display and for SIWE messages. */
export function toChecksumAddress(address: string): string {
  const lower = normalizeAddress(address).slice(2);
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

export function addressFromPublicKey(publicKey: Uint8Array): string {
  const uncompressed = publicKey.length === 65 ? publicKey : libsecp256k1().pointCompress(publicKey, false);
  return '0x' + bytesToHex(keccak_256(uncompressed.subarray(1)).subarray(12));
}

/** The wallet's address (see openssl-address.ts for the one unlock uses, which skips the WebAssembly load). */
export function addressFromPrivateKey(privateKey: Uint8Array): string {
  const publicKey = libsecp256k1().pointFromScalar(privateKey, false);
  if (!publicKey) throw new VaultError('bad-private-key', 'not a valid secp256k1 private key');
  return addressFromPublicKey(publicKey);
}

/** Words separated by single spaces, lower-case, NFKD (BIP-39's normal form). */
export function normalizeMnemonic(mnemonic: string): string {
  return mnemonic.normalize('NFKD').trim().toLowerCase().split(/\s+/u).join(' ');
}

export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(normalizeMnemonic(mnemonic), wordlist);
}

export function newMnemonic(): string {
  return generateMnemonic(wordlist, 128);
}

export function walletFromMnemonic(mnemonic: string): WalletKey {
  const words = normalizeMnemonic(mnemonic);
  if (!validateMnemonic(words, wordlist)) throw new VaultError('bad-mnemonic', 'not a valid BIP-39 English mnemonic');
  const seed = mnemonicToSeedSync(words);
  const node = HDKey.fromMasterSeed(seed).derive(DERIVATION_PATH);
  seed.fill(0);
  if (!node.privateKey) throw new VaultError('bad-mnemonic', 'derivation gave no private key');
  const privateKey = new Uint8Array(node.privateKey);
  node.wipePrivateData();
  return { privateKey, address: addressFromPrivateKey(privateKey) };
}

export function walletFromPrivateKey(hex: string): WalletKey {
  if (typeof hex !== 'string' || !PRIVATE_KEY.test(hex.trim())) {
    throw new VaultError('bad-private-key', 'a private key is 64 hex characters, optionally starting with 0x');
  }
  const privateKey = hexToBytes(
    hex
      .trim()
      .replace(/^0[xX]/, '')
      .toLowerCase(),
  );
  if (!libsecp256k1().isPrivate(privateKey))
    throw new VaultError('bad-private-key', 'not a valid secp256k1 private key');
  return { privateKey, address: addressFromPrivateKey(privateKey) };
}

/** EIP-191 version 0x45: keccak256("\x19Ethereum Signed Message:\n" + byteLength + message). */
export function hashPersonalMessage(message: string | Uint8Array): Uint8Array {
  const bytes = typeof message === 'string' ? utf8ToBytes(message) : message;
  const prefix = utf8ToBytes(`\x19Ethereum Signed Message:\n${bytes.length}`);
  const all = new Uint8Array(prefix.length + bytes.length);
  all.set(prefix, 0);
  all.set(bytes, prefix.length);
  return keccak_256(all);
}

/** personal_sign: 0x + r(32) s(32) v(1), v = 27 + recovery bit, s always low; RFC 6979, so deterministic. */
export function signPersonalMessage(privateKey: Uint8Array, message: string | Uint8Array): string {
  const { signature, recoveryId } = libsecp256k1().signRecoverable(hashPersonalMessage(message), privateKey);
  const out = new Uint8Array(65);
  out.set(signature, 0);
  out[64] = 27 + recoveryId;
  return '0x' + bytesToHex(out);
}

/**
 * The lower-case address that signed `message`, or null when the signature is malformed,
 * high-S (malleable; wallets never produce it) or does not recover to a point.
 */
export function recoverPersonalSigner(message: string | Uint8Array, signature: string): string | null {
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  const bytes = hexToBytes(signature.slice(2).toLowerCase());
  let v = bytes[64];
  if (v >= 27) v -= 27;
  if (v !== 0 && v !== 1) return null;
  if (!lowS(bytes.subarray(32, 64))) return null;
  try {
    const publicKey = recoverPublicKey(hashPersonalMessage(message), bytes.subarray(0, 64), v);
    return publicKey === null ? null : addressFromPublicKey(publicKey);
  } catch {
    return null;
  }
}

/** secp256k1's group order n, halved: an s above it is the malleable twin of a valid signature. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

function lowS(s: Uint8Array): boolean {
  return BigInt('0x' + bytesToHex(s)) <= HALF_ORDER;
}

export function verifyPersonalSignature(message: string | Uint8Array, signature: string, address: string): boolean {
  const signer = recoverPersonalSigner(message, signature);
  return signer !== null && isAddress(address) && signer === address.toLowerCase();
}
