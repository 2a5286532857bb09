import { hkdfSync } from 'node:crypto';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { signDeviceCertificate, verifyDeviceCertificate } from './signing/device-certificate.js';
import { buildDirectFrame, buildGroupFrame, checkFrameMatchesEnvelope, isUuid, parseFrame } from './sealing/frames.js';
import { buildPayload, composeMessage, parsePayload, verifyPayload, type Via } from './sealing/payload.js';
import {
  DEFAULT_SCRYPT,
  acceptedScrypt,
  passphraseCodec,
  scryptFor,
  type ScryptParams,
  type VaultCodec,
} from './keys/secret-codec.js';
import { forgetProfileFolderTickets, forgetTicket, ticketingCodec, ticketPath } from './keys/unlock-ticket.js';
import { TAG_BYTES, deviceKeyBytes, type Sealer } from './sealing/sealer.js';
import { nodeSealer } from './sealing/sealer-node.js';
import { VaultError } from './vault-error.js';
import {
  readVaultHeader,
  readVaultSecrets,
  writeVault,
  type VaultHeader,
  type VaultSecrets,
} from './keys/vault-file.js';
import type {
  DeviceCertificate,
  EnvelopeToOpen,
  OpenOutcome,
  OpenedMessage,
  PassphraseParams,
  SealMessageParams,
  SealMessageResult,
  SignedTransaction,
  SiweSigned,
  TransactionToSign,
  TypedDataToSign,
  VaultStatus,
  WalletCreated,
  WalletImported,
} from './worker/vault-protocol.js';
import { addressFromPrivateKeyViaOpenSsl } from './signing/openssl-address.js';
import {
  newMnemonic,
  normalizeMnemonic,
  signPersonalMessage,
  walletFromMnemonic,
  walletFromPrivateKey,
  type WalletKey,
} from './signing/wallet.js';

/**
 * The vault's state and rules, independent of the thread it runs in. vault-worker.ts hosts it
 * in a worker; nothing here hands a private key or seed back to a caller.
 */

export interface VaultCoreOptions {
  /** profile folder holding vault.json */
  profileDir: string;
  /** wraps the data key instead of a passphrase (the app passes one backed by safeStorage) */
  codec?: VaultCodec;
  sealer?: Sealer;
  /**
   * The scrypt cost of the passphrase wraps this vault writes (default DEFAULT_SCRYPT, N=2^17).
   * Only tests pass a lower one, to make their many throw-away profiles cheap; the file records
   * its cost, so such a vault still opens, and one written at the default stays at it.
   */
  scrypt?: ScryptParams;
}

interface Unlocked {
  address: string;
  walletKey: Uint8Array;
  devicePrivateKey: Uint8Array;
  deviceKey: string;
  /** the recovery phrase, null for a wallet imported from a private key */
  mnemonic: string | null;
}

const MAX_RECIPIENTS = 1000;
const DATABASE_KEY_INFO = 'relay-messenger/client-db/v1';
const MAX_BATCH = 500;
/** the relay's limit on decoded ciphertext per envelope (docs/protocol.md §4 Limits) */
const MAX_CIPHERTEXT_BYTES = 64 * 1024;

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new VaultError('bad-request', `${name} must be a string`);
  return value;
}

/** a day: a remembered unlock is for a working session, not for good */
const MAX_REMEMBER_MS = 24 * 60 * 60 * 1000;

export class VaultCore {
  private readonly profileDir: string;
  private readonly externalCodec?: VaultCodec;
  private readonly sealer: Sealer;
  private readonly scrypt: ScryptParams;
  private unlocked: Unlocked | null = null;
  /** create/import/unlock touch the file; run them one at a time */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: VaultCoreOptions) {
    this.profileDir = options.profileDir;
    this.externalCodec = options.codec;
    this.sealer = options.sealer ?? nodeSealer;
    this.scrypt = options.scrypt ?? DEFAULT_SCRYPT;
    if (!acceptedScrypt(this.scrypt))
      throw new VaultError('bad-request', 'the scrypt option is outside the accepted range');
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async status(): Promise<VaultStatus> {
    const header = await readVaultHeader(this.profileDir);
    return {
      hasWallet: header !== null,
      unlocked: this.unlocked !== null,
      address: header?.address ?? null,
      deviceKey: header?.deviceKey ?? null,
      protection: header?.protection ?? null,
      hasRecoveryPhrase: this.unlocked ? this.unlocked.mnemonic !== null : null,
    };
  }

  private codecForNew(params: PassphraseParams): { codec: VaultCodec; protection: VaultHeader['protection'] } {
    if (this.externalCodec) return { codec: this.externalCodec, protection: 'codec' };
    if (typeof params?.passphrase !== 'string' || params.passphrase.length === 0) {
      throw new VaultError('no-passphrase', 'a passphrase is required to protect the wallet');
    }
    return { codec: this.passphraseCodec(params.passphrase, params), protection: 'passphrase' };
  }

  /** The passphrase codec, behind an unlock ticket when the caller asks to be remembered. */
  private passphraseCodec(passphrase: string, params: PassphraseParams): VaultCodec {
    const codec = passphraseCodec(passphrase, scryptFor(passphrase, this.scrypt));
    const rememberMs = params?.rememberMs;
    if (rememberMs === undefined) return codec;
    if (
      typeof rememberMs !== 'number' ||
      !Number.isInteger(rememberMs) ||
      rememberMs < 0 ||
      rememberMs > MAX_REMEMBER_MS
    ) {
      throw new VaultError('bad-request', `rememberMs must be an integer from 0 to ${MAX_REMEMBER_MS}`);
    }
    forgetProfileFolderTickets(this.profileDir);
    const path = ticketPath(this.profileDir, 'vault');
    if (rememberMs === 0) {
      forgetTicket(path);
      return codec;
    }
    return ticketingCodec(codec, { passphrase, path, ttlMs: rememberMs });
  }

  private codecForExisting(header: VaultHeader, params: PassphraseParams): VaultCodec {
    if (header.protection === 'codec') {
      if (!this.externalCodec)
        throw new VaultError(
          'codec-failed',
          'this vault is protected by the OS key store, which this process was not given',
        );
      return this.externalCodec;
    }
    if (typeof params?.passphrase !== 'string' || params.passphrase.length === 0) {
      throw new VaultError('no-passphrase', 'the passphrase is required to unlock');
    }
    return this.passphraseCodec(params.passphrase, params);
  }

  private async store(wallet: WalletKey, mnemonic: string | null, params: PassphraseParams): Promise<WalletImported> {
    let codec: VaultCodec;
    let protection: VaultHeader['protection'];
    try {
      if (await readVaultHeader(this.profileDir))
        throw new VaultError('wallet-exists', 'this profile already has a wallet; nothing was changed');
      ({ codec, protection } = this.codecForNew(params));
    } catch (e) {
      wallet.privateKey.fill(0);
      throw e;
    }
    const device = this.sealer.generateDeviceKeyPair();
    const deviceKey = bytesToHex(device.publicKey);
    const header: VaultHeader = {
      format: 'relay-vault',
      version: 1,
      protection,
      address: wallet.address,
      deviceKey,
      createdAt: new Date().toISOString(),
    };
    const secrets: VaultSecrets = {
      walletPrivateKey: bytesToHex(wallet.privateKey),
      mnemonic,
      devicePrivateKey: bytesToHex(device.privateKey),
    };
    await writeVault(this.profileDir, header, secrets, codec);
    this.replaceUnlocked({
      address: wallet.address,
      walletKey: wallet.privateKey,
      devicePrivateKey: device.privateKey,
      deviceKey,
      mnemonic,
    });
    return { address: wallet.address, deviceKey };
  }

  createWallet(params: PassphraseParams): Promise<WalletCreated> {
    return this.exclusive(async () => {
      const mnemonic = newMnemonic();
      const stored = await this.store(walletFromMnemonic(mnemonic), mnemonic, params);
      return { ...stored, mnemonic };
    });
  }

  importMnemonic(params: PassphraseParams & { mnemonic: string }): Promise<WalletImported> {
    return this.exclusive(async () => {
      const wallet = walletFromMnemonic(requireString(params?.mnemonic, 'mnemonic'));
      return this.store(wallet, normalizeMnemonic(params.mnemonic), params);
    });
  }

  importPrivateKey(params: PassphraseParams & { privateKey: string }): Promise<WalletImported> {
    return this.exclusive(async () =>
      this.store(walletFromPrivateKey(requireString(params?.privateKey, 'privateKey')), null, params),
    );
  }

  unlock(params: PassphraseParams): Promise<VaultStatus> {
    return this.exclusive(async () => {
      const header = await readVaultHeader(this.profileDir);
      if (!header) throw new VaultError('no-wallet', 'there is no wallet in this profile');
      const { secrets } = await readVaultSecrets(this.profileDir, this.codecForExisting(header, params));
      const walletKey = hexToBytes(secrets.walletPrivateKey);
      const devicePrivateKey = hexToBytes(secrets.devicePrivateKey);
      // the clear header must describe the secrets it sits beside
      if (
        addressFromPrivateKeyViaOpenSsl(walletKey) !== header.address ||
        bytesToHex(this.sealer.publicKeyOf(devicePrivateKey)) !== header.deviceKey
      ) {
        walletKey.fill(0);
        devicePrivateKey.fill(0);
        throw new VaultError('corrupt-vault', 'the vault header does not match its secrets');
      }
      this.replaceUnlocked({
        address: header.address,
        walletKey,
        devicePrivateKey,
        deviceKey: header.deviceKey,
        mnemonic: secrets.mnemonic ?? null,
      });
      return this.status();
    });
  }

  /**
   * The recovery phrase of the unlocked wallet. With a passphrase, that passphrase must open the
   * file (a scrypt), so a phrase shown long after setup asks for what protects it; a vault the
   * OS keychain protects has no passphrase to ask for.
   */
  recoveryPhrase(params: { passphrase?: string }): Promise<{ phrase: string | null }> {
    return this.exclusive(async () => {
      const k = this.keys();
      if (params?.passphrase === undefined) return { phrase: k.mnemonic };
      const header = await readVaultHeader(this.profileDir);
      if (!header) throw new VaultError('no-wallet', 'there is no wallet in this profile');
      if (header.protection === 'codec') return { phrase: k.mnemonic };
      const passphrase = requireString(params.passphrase, 'passphrase');
      if (passphrase.length === 0) throw new VaultError('no-passphrase', 'the passphrase is required');
      const codec = passphraseCodec(passphrase, scryptFor(passphrase, this.scrypt));
      const { secrets } = await readVaultSecrets(this.profileDir, codec);
      const walletKey = hexToBytes(secrets.walletPrivateKey);
      const same = bytesToHex(walletKey) === bytesToHex(k.walletKey);
      walletKey.fill(0);
      if (!same) throw new VaultError('corrupt-vault', 'the vault file no longer holds the unlocked wallet');
      return { phrase: secrets.mnemonic ?? null };
    });
  }

  /** Also ends a remembered unlock (the command-line client's ticket). */
  lock(): Promise<VaultStatus> {
    return this.exclusive(async () => {
      forgetTicket(ticketPath(this.profileDir, 'vault'));
      forgetProfileFolderTickets(this.profileDir);
      this.replaceUnlocked(null);
      return this.status();
    });
  }

  private replaceUnlocked(next: Unlocked | null): void {
    if (this.unlocked) {
      this.unlocked.walletKey.fill(0);
      this.unlocked.devicePrivateKey.fill(0);
    }
    this.unlocked = next;
  }

  private keys(): Unlocked {
    if (!this.unlocked) throw new VaultError('locked', 'the vault is locked');
    return this.unlocked;
  }

  deviceCertificate(): DeviceCertificate {
    const k = this.keys();
    return {
      address: k.address,
      publicKey: k.deviceKey,
      certificate: signDeviceCertificate(k.walletKey, k.deviceKey, k.address),
    };
  }

  /**
   * The local database's key: HKDF of the device secret, so it needs no file of its own, never
   * changes with the passphrase, and exists outside the vault only while the vault is unlocked.
   */
  databaseKey(): { key: string } {
    const k = this.keys();
    return {
      key: Buffer.from(hkdfSync('sha256', k.devicePrivateKey, Buffer.alloc(0), DATABASE_KEY_INFO, 32)).toString('hex'),
    };
  }

  async signSiwe(params: { message: string; expectedUri: string }): Promise<SiweSigned> {
    const message = requireString(params?.message, 'message');
    const expectedUri = requireString(params.expectedUri, 'expectedUri');
    // viem's SIWE module takes ~1 s to load; only sign-in needs it, so keep it off the worker's start
    const { checkSiweMessage } = await import('./signing/siwe.js');
    const k = this.keys();
    checkSiweMessage(message, { address: k.address, expectedUri });
    return { address: k.address, signature: signPersonalMessage(k.walletKey, message) };
  }

  /** An EIP-1559 transaction from the wallet (stake deposits and settlements). */
  async signTransaction(params: { transaction: TransactionToSign }): Promise<SignedTransaction> {
    // viem (serialising) loads in ~1 s: only stakes need it, so keep it off the worker's start
    const { signTransaction } = await import('./signing/chain-signing.js');
    return signTransaction(this.keys().walletKey, params?.transaction);
  }

  /** EIP-712 typed data from the wallet (the escrow's Release / Forfeit). */
  async signTypedData(params: { typedData: TypedDataToSign }): Promise<{ address: string; signature: string }> {
    const { signTypedData } = await import('./signing/chain-signing.js');
    const k = this.keys();
    return { address: k.address, signature: signTypedData(k.walletKey, params?.typedData) };
  }

  sealMessage(params: SealMessageParams): SealMessageResult {
    const k = this.keys();
    if (params === null || typeof params !== 'object') throw new VaultError('bad-request', 'params must be an object');
    const { frame, recipients } = params;
    if (frame !== 'direct' && frame !== 'group')
      throw new VaultError('bad-request', 'frame must be "direct" or "group"');
    if (!Array.isArray(recipients) || recipients.length === 0 || recipients.length > MAX_RECIPIENTS) {
      throw new VaultError('bad-request', `recipients must list 1 to ${MAX_RECIPIENTS} device keys`);
    }
    let groupId: string | null = null;
    if (frame === 'group') {
      if (!isUuid(params.groupId)) throw new VaultError('bad-request', 'a group frame needs groupId (uuid)');
      groupId = params.groupId.toLowerCase();
    } else if (params.groupId !== undefined && params.groupId !== null) {
      throw new VaultError('bad-request', 'a direct frame takes no groupId');
    }
    const targets = recipients.map((r) => {
      const bytes = deviceKeyBytes(r?.deviceKey);
      const deviceKey = bytesToHex(bytes);
      if (r.address !== undefined || r.certificate !== undefined) {
        if (
          typeof r.address !== 'string' ||
          typeof r.certificate !== 'string' ||
          !verifyDeviceCertificate(deviceKey, r.address, r.certificate)
        ) {
          throw new VaultError(
            'bad-certificate',
            `the certificate of device ${deviceKey.slice(0, 12)}... does not verify`,
          );
        }
      }
      return { bytes, deviceKey };
    });
    const m = composeMessage(params.message, k.address, groupId);
    const sig = signPersonalMessage(k.walletKey, m);
    const payload = buildPayload(m, sig);
    const plain = groupId === null ? buildDirectFrame(payload) : buildGroupFrame(groupId, payload);
    if (plain.length + TAG_BYTES > MAX_CIPHERTEXT_BYTES) {
      throw new VaultError(
        'bad-request',
        `the message is too large to send (${plain.length} bytes framed; the relay takes ${MAX_CIPHERTEXT_BYTES - TAG_BYTES})`,
      );
    }
    const sealed = targets.map((t) => ({ deviceKey: t.deviceKey, ...this.sealer.seal(t.bytes, plain) }));
    return { id: (JSON.parse(m) as { id: string }).id, m, sig, sealed };
  }

  openEnvelope(params: { envelope: EnvelopeToOpen }): OpenedMessage {
    return this.openOne(this.keys(), params?.envelope);
  }

  openMany(params: { envelopes: EnvelopeToOpen[] }): OpenOutcome[] {
    const k = this.keys();
    const list = params?.envelopes;
    if (!Array.isArray(list) || list.length > MAX_BATCH)
      throw new VaultError('bad-request', `envelopes must be an array of at most ${MAX_BATCH}`);
    return list.map((envelope) => {
      try {
        return { ok: true, value: this.openOne(k, envelope) };
      } catch (e) {
        const error =
          e instanceof VaultError
            ? { code: e.code, message: e.message }
            : { code: 'internal' as const, message: 'could not open the envelope' };
        return { ok: false, envelopeId: typeof envelope?.id === 'string' ? envelope.id : null, error };
      }
    });
  }

  private openOne(k: Unlocked, envelope: EnvelopeToOpen): OpenedMessage {
    if (envelope === null || typeof envelope !== 'object')
      throw new VaultError('bad-envelope', 'envelope must be an object');
    if (envelope.recipientDeviceKey != null && String(envelope.recipientDeviceKey).toLowerCase() !== k.deviceKey) {
      throw new VaultError('wrong-device', 'the envelope was sealed for another device');
    }
    const via: Via | null = envelope.via === 'group-token' || envelope.via === 'api-key' ? envelope.via : null;
    const plain = this.sealer.open(k.devicePrivateKey, envelope);
    const frame = parseFrame(plain);
    checkFrameMatchesEnvelope(frame, envelope.groupId);
    const groupId = frame.kind === 'group' ? frame.groupId : null;
    const payload = parsePayload(frame.payload);
    const { signer, author } = verifyPayload(payload, String(envelope.senderAddress), via, groupId);
    return {
      envelopeId: typeof envelope.id === 'string' ? envelope.id : null,
      kind: frame.kind,
      groupId,
      m: payload.m,
      mRaw: payload.mRaw,
      sig: payload.sig,
      signer,
      author,
    };
  }
}
