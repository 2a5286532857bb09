import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { gcm } from '@noble/ciphers/aes.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { nodeSealer } from '../../vault/sealing/sealer-node.js';
import {
  hashPersonalMessage,
  recoverPersonalSigner,
  signPersonalMessage,
  walletFromPrivateKey,
} from '../../vault/signing/wallet.js';
import { recoverPublicKey } from '../../vault/signing/public-key-recovery.js';

/**
 * Where the vault uses node:crypto and libsecp256k1 rather than @noble/curves (pure JS),
 * and why, measured in one run. Seal/open of 200-byte frames, three ways:
 * - `native`: the bare node:crypto pipeline (X25519 + HKDF + AES-GCM with the same primitive
 *   choices as the sealer) without validation, encoding or error mapping — the ceiling;
 * - `fast`: nodeSealer (sealer-node.ts), the one sealer;
 * - `noble`: the same seal on @noble's primitives, the baseline that keeps node:crypto there.
 * The rounds interleave the variants so machine drift hits all of them alike; each figure is
 * the median over rounds. Target: seal_fast >= 0.8 x seal_native.
 * Then secp256k1: EIP-191 recovery through libsecp256k1, the vault's one implementation, beside
 * the same recovery on @noble (node:crypto has none), and a wallet's public key
 * the first time in a fresh process, as an unlock pays it: @noble against OpenSSL's ECDH
 * (openssl-address.ts), the median of a few child processes each.
 */

const FRAME_BYTES = 200;
const INFO = Buffer.from('relay-seal-v1');

export interface CryptoBenchOptions {
  /** time per measurement, default 400 ms */
  durationMs?: number;
  /** interleaved rounds, default 3 */
  rounds?: number;
}

interface NativeOpenInput {
  E: Uint8Array;
  n: Uint8Array;
  c: Uint8Array;
}

function nativePipeline(recipientPublic: Buffer, recipientPrivate: Buffer) {
  const R = createPublicKey({
    key: { kty: 'OKP', crv: 'X25519', x: recipientPublic.toString('base64url') },
    format: 'jwk',
  });
  const r = createPrivateKey({
    key: {
      kty: 'OKP',
      crv: 'X25519',
      x: recipientPublic.toString('base64url'),
      d: recipientPrivate.toString('base64url'),
    },
    format: 'jwk',
  });
  const seal = (frame: Buffer): NativeOpenInput => {
    // the JWK overloads are declared in vault/sealing/node-crypto-jwk.d.ts
    const pair = generateKeyPairSync('x25519', { publicKeyEncoding: { format: 'jwk' } });
    const E = Buffer.from(pair.publicKey.x as string, 'base64url');
    const s = diffieHellman({ privateKey: pair.privateKey, publicKey: R });
    const k = Buffer.from(hkdfSync('sha256', s, Buffer.concat([E, recipientPublic]), INFO, 32));
    const n = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', k, n);
    const c = Buffer.concat([cipher.update(frame), cipher.final(), cipher.getAuthTag()]);
    return { E, n, c };
  };
  const open = ({ E, n, c }: NativeOpenInput): Buffer => {
    const pub = createPublicKey({
      key: { kty: 'OKP', crv: 'X25519', x: Buffer.from(E).toString('base64url') },
      format: 'jwk',
    });
    const s = diffieHellman({ privateKey: r, publicKey: pub });
    const k = Buffer.from(hkdfSync('sha256', s, Buffer.concat([E, recipientPublic]), INFO, 32));
    const d = createDecipheriv('aes-256-gcm', k, n);
    d.setAuthTag(c.subarray(c.length - 16));
    return Buffer.concat([d.update(c.subarray(0, c.length - 16)), d.final()]);
  };
  return { seal, open };
}

/** The seal on @noble's primitives: what the sealer would cost without node:crypto. */
function noblePipeline(recipientPublic: Uint8Array, recipientPrivate: Uint8Array) {
  const key = (s: Uint8Array, E: Uint8Array) => hkdf(sha256, s, new Uint8Array([...E, ...recipientPublic]), INFO, 32);
  const seal = (frame: Uint8Array): NativeOpenInput => {
    const e = x25519.utils.randomSecretKey();
    const E = x25519.getPublicKey(e);
    const n = randomBytes(12);
    return { E, n, c: gcm(key(x25519.getSharedSecret(e, recipientPublic), E), n).encrypt(frame) };
  };
  const open = ({ E, n, c }: NativeOpenInput): Uint8Array =>
    gcm(key(x25519.getSharedSecret(recipientPrivate, E), E), n).decrypt(c);
  return { seal, open };
}

/**
 * Milliseconds of the first public-key derivation in a fresh Node process (the library already
 * loaded, as it is in the vault worker when an unlock checks the stored address).
 */
function firstPublicKeyMs(via: 'noble' | 'openssl'): number {
  const noble = pathToFileURL(createRequire(import.meta.url).resolve('@noble/curves/secp256k1.js')).href;
  const derive =
    via === 'noble'
      ? `const { secp256k1 } = await import(${JSON.stringify(noble)}); const t = performance.now(); secp256k1.getPublicKey(key, false);`
      : `const { createECDH } = await import('node:crypto'); const t = performance.now(); const e = createECDH('secp256k1'); e.setPrivateKey(key); e.getPublicKey();`;
  const script = `const key = new Uint8Array(32).fill(0x42); ${derive} console.log(performance.now() - t);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  const ms = Number(run.stdout.trim());
  if (run.status !== 0 || !Number.isFinite(ms)) throw new Error(`first public key via ${via} failed: ${run.stderr}`);
  return ms;
}

/** Runs `fn` repeatedly for about `durationMs`; returns operations per second. */
function measure(durationMs: number, fn: () => void): number {
  for (let i = 0; i < 20; i++) fn(); // warm-up
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < durationMs) {
    for (let i = 0; i < 10; i++) fn();
    ops += 10;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function benchCrypto(options: CryptoBenchOptions = {}): Promise<Record<string, number>> {
  const durationMs = options.durationMs ?? 400;
  const rounds = options.rounds ?? 3;
  const frame = randomBytes(FRAME_BYTES);
  const recipient = nodeSealer.generateDeviceKeyPair();
  const rPub = Buffer.from(recipient.publicKey);
  const rPriv = Buffer.from(recipient.privateKey);
  const native = nativePipeline(rPub, rPriv);
  const noble = noblePipeline(recipient.publicKey, recipient.privateKey);
  const nativeSealed = native.seal(frame);
  const nobleSealed = noble.seal(frame);
  const fastSealed = nodeSealer.seal(recipient.publicKey, frame);
  // sanity: each variant must open what the others seal
  const fastAsRaw = (f: typeof fastSealed): NativeOpenInput => ({
    E: Buffer.from(f.ephemeralPublicKey, 'hex'),
    n: Buffer.from(f.nonce, 'base64'),
    c: Buffer.from(f.ciphertext, 'base64'),
  });
  const opened = [
    native.open(nobleSealed),
    noble.open(nativeSealed),
    noble.open(fastAsRaw(fastSealed)),
    nodeSealer.open(recipient.privateKey, {
      ephemeralPublicKey: Buffer.from(nobleSealed.E).toString('hex'),
      nonce: Buffer.from(nobleSealed.n).toString('base64'),
      ciphertext: Buffer.from(nobleSealed.c).toString('base64'),
    }),
  ];
  if (!opened.every((o) => Buffer.from(o).equals(frame))) throw new Error('the seal variants disagree');

  const wallet = walletFromPrivateKey('0x' + '42'.repeat(32));
  const signed = signPersonalMessage(wallet.privateKey, frame.toString('base64'));
  const signedHash = hashPersonalMessage(frame.toString('base64'));
  const signedBytes = Buffer.from(signed.slice(2), 'hex');
  // the same recovery on @noble: the baseline that keeps libsecp256k1 as the vault's secp256k1
  const nobleRecover = () =>
    secp256k1.Signature.fromBytes(signedBytes.subarray(0, 64), 'compact')
      .addRecoveryBit(signedBytes[64] - 27)
      .recoverPublicKey(signedHash)
      .toBytes(false);
  if (
    !Buffer.from(nobleRecover()).equals(
      Buffer.from(recoverPublicKey(signedHash, signedBytes.subarray(0, 64), (signedBytes[64] - 27) as 0 | 1)!),
    )
  )
    throw new Error('the recoveries disagree');

  const samples: Record<string, number[]> = {};
  const add = (name: string, value: number) => (samples[name] ??= []).push(value);
  for (let round = 0; round < rounds; round++) {
    const variants: Array<[string, () => unknown]> = [
      ['seal_native_ops_s', () => native.seal(frame)],
      ['seal_fast_ops_s', () => nodeSealer.seal(recipient.publicKey, frame)],
      ['seal_noble_ops_s', () => noble.seal(frame)],
      ['open_native_ops_s', () => native.open(nativeSealed)],
      ['open_fast_ops_s', () => nodeSealer.open(recipient.privateKey, fastSealed)],
      ['open_noble_ops_s', () => noble.open(nobleSealed)],
      ['eip191_recover_ops_s', () => recoverPersonalSigner(frame.toString('base64'), signed)],
      ['eip191_recover_noble_ops_s', nobleRecover],
    ];
    for (const [name, fn] of variants) {
      add(name, measure(durationMs, fn));
      await yieldToLoop();
    }
    add('pubkey_first_noble_ms', firstPublicKeyMs('noble'));
    add('pubkey_first_openssl_ms', firstPublicKeyMs('openssl'));
  }

  const out: Record<string, number> = { frame_bytes: FRAME_BYTES, rounds };
  for (const [name, values] of Object.entries(samples))
    out[name] = name.endsWith('_ms') ? Math.round(median(values) * 10) / 10 : Math.round(median(values));
  const ratio = (a: string, b: string) => Math.round((out[a] / out[b]) * 1000) / 1000;
  out.seal_fast_vs_native = ratio('seal_fast_ops_s', 'seal_native_ops_s');
  out.open_fast_vs_native = ratio('open_fast_ops_s', 'open_native_ops_s');
  out.seal_noble_vs_native = ratio('seal_noble_ops_s', 'seal_native_ops_s');
  out.open_noble_vs_native = ratio('open_noble_ops_s', 'open_native_ops_s');
  out.recover_vs_noble = ratio('eip191_recover_ops_s', 'eip191_recover_noble_ops_s');
  out.pubkey_first_openssl_vs_noble = ratio('pubkey_first_openssl_ms', 'pubkey_first_noble_ms');
  out.seal_fast_meets_target = out.seal_fast_vs_native >= 0.8 ? 1 : 0;
  return out;
}

function isMain(): boolean {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  benchCrypto().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (e) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
