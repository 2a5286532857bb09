import type { MessagePort } from 'node:worker_threads';
import type { MessageBody, Via } from '../sealing/payload.js';
import type { VaultErrorCode } from '../vault-error.js';
import type { ScryptParams } from '../keys/secret-codec.js';

/**
 * The typed doorway between VaultClient (caller's thread) and the vault worker.
 * Request `{ seq, method, params }`; answer `{ seq, ok: true, value }` or
 * `{ seq, ok: false, error: { code, message } }`. No method returns a private key; the
 * recovery phrase leaves the vault only by design: `createWallet` returns the new one so the
 * UI can show it, and `recoveryPhrase` gives it again while the vault is unlocked (the caller
 * asks for the passphrase first once the person has confirmed writing it down).
 */

export interface VaultStatus {
  hasWallet: boolean;
  unlocked: boolean;
  /** lower-case; known while locked too (kept in clear in vault.json) */
  address: string | null;
  /** 64 hex, this device's X25519 public key */
  deviceKey: string | null;
  /** how vault.json is protected; null without a wallet */
  protection: 'passphrase' | 'codec' | null;
  /** the wallet was made or imported from a recovery phrase; null while locked (the file says so only inside) */
  hasRecoveryPhrase: boolean | null;
}

export interface WalletCreated {
  address: string;
  deviceKey: string;
  /** shown to the user as the recovery phrase; again only through `recoveryPhrase` */
  mnemonic: string;
}

export interface WalletImported {
  address: string;
  deviceKey: string;
}

export interface PassphraseParams {
  /** required unless the vault was started with a codec (OS keychain) */
  passphrase?: string;
  /**
   * Remember this unlock for so long (ms) in an unlock ticket (unlock-ticket.ts), so that the
   * next process unlocking with the same passphrase skips scrypt; 0 forgets any ticket. Only the
   * command-line client asks for it; passphrase-protected vaults only.
   */
  rememberMs?: number;
}

export interface DeviceCertificate {
  address: string;
  publicKey: string;
  /** EIP-191 signature over `Relay device key <publicKey> for <address>` */
  certificate: string;
}

export interface SiweSigned {
  address: string;
  signature: string;
}

export interface SealRecipient {
  deviceKey: string;
  /**
   * When given (both), the vault verifies the device certificate before sealing and fails the
   * call with `bad-certificate` otherwise. Clients should always pass them.
   */
  address?: string;
  certificate?: string;
}

/** A device certificate to check: did `address` sign it for `publicKey`? (device-certificate.ts) */
export interface CertificateToCheck {
  address: string;
  publicKey: string;
  certificate: string;
}

export interface SealMessageParams {
  frame: 'direct' | 'group';
  /** required for a group frame */
  groupId?: string;
  /**
   * The message without `from`/`sig` (the vault sets `from` and signs): at least `kind` and the
   * kind's fields; `id` (uuid) and `sentAt` (ISO 8601) are filled in when absent.
   */
  message: Record<string, unknown>;
  recipients: SealRecipient[];
}

export interface SealedForRecipient {
  /** lower-case */
  deviceKey: string;
  ephemeralPublicKey: string;
  nonce: string;
  ciphertext: string;
}

export interface SealMessageResult {
  id: string;
  /** the exact signed text */
  m: string;
  sig: string;
  sealed: SealedForRecipient[];
}

/** The envelope as the relay returns it; only these fields are read. */
export interface EnvelopeToOpen {
  id?: string;
  senderAddress: string;
  groupId?: string | null;
  via?: Via | null;
  recipientDeviceKey?: string | null;
  ephemeralPublicKey: string;
  nonce: string;
  ciphertext: string;
}

export interface OpenedMessage {
  envelopeId: string | null;
  kind: 'direct' | 'group';
  groupId: string | null;
  m: MessageBody;
  mRaw: string;
  sig: string;
  /** recovered signer = m.from */
  signer: string;
  /** who to show as the author (m.from; for a bot post this is the bot, not the relay-named sender) */
  author: string;
}

/**
 * An EIP-1559 transaction to a contract or account (amounts as decimal strings, so that the
 * request is plain data): the vault signs it with the wallet key and returns it serialised.
 */
export interface TransactionToSign {
  chainId: number;
  nonce: number;
  to: string;
  /** wei */
  value: string;
  data?: string;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}

export interface SignedTransaction {
  /** 0x02… for eth_sendRawTransaction */
  serialized: string;
  hash: string;
}

/** EIP-712 typed data as eth_signTypedData_v4 takes it (EIP712Domain may be left out of types). */
export interface TypedDataToSign {
  domain: Record<string, unknown>;
  types: Record<string, Array<{ name: string; type: string }>>;
  primaryType: string;
  message: Record<string, unknown>;
}

export interface SerializedError {
  code: VaultErrorCode;
  message: string;
}

export type OpenOutcome =
  { ok: true; value: OpenedMessage } | { ok: false; envelopeId: string | null; error: SerializedError };

export interface VaultMethods {
  ping: { params: Record<string, never>; result: { pong: true } };
  status: { params: Record<string, never>; result: VaultStatus };
  createWallet: { params: PassphraseParams; result: WalletCreated };
  importMnemonic: { params: PassphraseParams & { mnemonic: string }; result: WalletImported };
  importPrivateKey: { params: PassphraseParams & { privateKey: string }; result: WalletImported };
  unlock: { params: PassphraseParams; result: VaultStatus };
  lock: { params: Record<string, never>; result: VaultStatus };
  /**
   * The recovery phrase (null for a wallet imported from a private key), only while unlocked.
   * With `passphrase` it is checked against the file first (`bad-passphrase`); a vault the OS
   * keychain protects has none to check.
   */
  recoveryPhrase: { params: { passphrase?: string }; result: { phrase: string | null } };
  deviceCertificate: { params: Record<string, never>; result: DeviceCertificate };
  /** The key of the profile's local database (64 hex), derived from the device secret: only while unlocked. */
  databaseKey: { params: Record<string, never>; result: { key: string } };
  signSiwe: { params: { message: string; expectedUri: string }; result: SiweSigned };
  sealMessage: { params: SealMessageParams; result: SealMessageResult };
  signTransaction: { params: { transaction: TransactionToSign }; result: SignedTransaction };
  signTypedData: { params: { typedData: TypedDataToSign }; result: { address: string; signature: string } };
  openEnvelope: { params: { envelope: EnvelopeToOpen }; result: OpenedMessage };
  openMany: { params: { envelopes: EnvelopeToOpen[] }; result: OpenOutcome[] };
  /** Pure and keyless: the worker is a second core for a cold group send's certificate checks. */
  verifyCertificates: { params: { certificates: CertificateToCheck[] }; result: boolean[] };
}

/** Only honoured by a worker started with `testHooks: true`. */
export interface VaultTestMethods {
  __testCrash: { params: { mode: 'exit' | 'throw' }; result: never };
  __testHang: { params: { ms: number }; result: { slept: number } };
}

export type VaultMethod = keyof VaultMethods;
export type AnyVaultMethods = VaultMethods & VaultTestMethods;
export type AnyVaultMethod = keyof AnyVaultMethods;

/**
 * One request per method, discriminated by `method`: with M left open it is the union of all of
 * them, so a switch on `method` narrows `params`; with M generic it is that method's request.
 */
export type VaultRequest<M extends AnyVaultMethod = AnyVaultMethod> = {
  [K in M]: { seq: number; method: K; params: AnyVaultMethods[K]['params'] };
}[M];

export type VaultResponse<M extends AnyVaultMethod = AnyVaultMethod> =
  { seq: number; ok: true; value: AnyVaultMethods[M]['result'] } | { seq: number; ok: false; error: SerializedError };

/** Worker -> caller, on a dedicated port: ask the caller's codec (e.g. safeStorage) to wrap or unwrap the data key. */
export interface CodecRequest {
  id: number;
  op: 'encrypt' | 'decrypt';
  data: Uint8Array;
}

export type CodecResponse = { id: number; ok: true; data: Uint8Array } | { id: number; ok: false; message: string };

export interface VaultWorkerData {
  profileDir: string;
  testHooks: boolean;
  /** VaultCoreOptions.scrypt */
  scrypt?: ScryptParams;
  /** present when the caller supplies a codec */
  codecPort?: MessagePort;
}
