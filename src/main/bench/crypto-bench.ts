import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { nobleSealer } from '../vault/sealer-noble.js';
import { nodeSealer } from '../vault/sealer-node.js';
import type { SealedFields, Sealer } from '../vault/sealer.js';
import { recoverPersonalSigner, signPersonalMessage, walletFromPrivateKey } from '../vault/wallet.js';

/**
 * Seal/open throughput for 200-byte frames, three ways in one run:
 * - `native`: the bare node:crypto pipeline (X25519 + HKDF + AES-GCM with the same primitive
 *   choices as the fast path) without validation, encoding or error mapping — the ceiling;
 * - `fast`: nodeSealer, what the vault uses;
 * - `noble`: nobleSealer, the portable reference.
 * The rounds interleave the variants so machine drift hits all of them alike; each figure is
 * the median over rounds. Target: seal_fast >= 0.8 x seal_native.
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
  E: Buffer;
  n: Buffer;
  c: Buffer;
}

function nativePipeline(recipientPublic: Buffer, recipientPrivate: Buffer) {
  const R = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: recipientPublic.toString('base64url') }, format: 'jwk' });
  const r = createPrivateKey({ key: { kty: 'OKP', crv: 'X25519', x: recipientPublic.toString('base64url'), d: recipientPrivate.toString('base64url') }, format: 'jwk' });
  const seal = (frame: Buffer): NativeOpenInput => {
    const pair = generateKeyPairSync('x25519', { publicKeyEncoding: { format: 'jwk' } } as never) as unknown as { publicKey: JsonWebKey; privateKey: KeyObject };
    const E = Buffer.from(pair.publicKey.x as string, 'base64url');
    const s = diffieHellman({ privateKey: pair.privateKey, publicKey: R });
    const k = Buffer.from(hkdfSync('sha256', s, Buffer.concat([E, recipientPublic]), INFO, 32));
    const n = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', k, n);
    const c = Buffer.concat([cipher.update(frame), cipher.final(), cipher.getAuthTag()]);
    return { E, n, c };
  };
  const open = ({ E, n, c }: NativeOpenInput): Buffer => {
    const pub = createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: E.toString('base64url') }, format: 'jwk' });
    const s = diffieHellman({ privateKey: r, publicKey: pub });
    const k = Buffer.from(hkdfSync('sha256', s, Buffer.concat([E, recipientPublic]), INFO, 32));
    const d = createDecipheriv('aes-256-gcm', k, n);
    d.setAuthTag(c.subarray(c.length - 16));
    return Buffer.concat([d.update(c.subarray(0, c.length - 16)), d.final()]);
  };
  return { seal, open };
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
  const nativeSealed = native.seal(frame);
  const sealed: Record<string, SealedFields> = {
    fast: nodeSealer.seal(recipient.publicKey, frame),
    noble: nobleSealer.seal(recipient.publicKey, frame),
  };
  const impls: Array<[string, Sealer]> = [
    ['fast', nodeSealer],
    ['noble', nobleSealer],
  ];
  // sanity: every variant must produce what the others open
  if (!native.open(nativeSealed).equals(frame)) throw new Error('native pipeline does not round-trip');
  for (const [, s] of impls) for (const [, o] of impls) if (!Buffer.from(o.open(recipient.privateKey, s.seal(recipient.publicKey, frame))).equals(frame)) throw new Error('sealers disagree');

  const wallet = walletFromPrivateKey('0x' + '42'.repeat(32));
  const signed = signPersonalMessage(wallet.privateKey, frame.toString('base64'));

  const samples: Record<string, number[]> = {};
  const add = (name: string, value: number) => (samples[name] ??= []).push(value);
  for (let round = 0; round < rounds; round++) {
    add('seal_native_ops_s', measure(durationMs, () => native.seal(frame)));
    await yieldToLoop();
    for (const [name, s] of impls) {
      add(`seal_${name}_ops_s`, measure(durationMs, () => s.seal(recipient.publicKey, frame)));
      await yieldToLoop();
    }
    add('open_native_ops_s', measure(durationMs, () => native.open(nativeSealed)));
    await yieldToLoop();
    for (const [name, s] of impls) {
      add(`open_${name}_ops_s`, measure(durationMs, () => s.open(recipient.privateKey, sealed[name])));
      await yieldToLoop();
    }
    add('eip191_recover_ops_s', measure(durationMs, () => recoverPersonalSigner(frame.toString('base64'), signed)));
    await yieldToLoop();
  }

  const out: Record<string, number> = { frame_bytes: FRAME_BYTES, rounds };
  for (const [name, values] of Object.entries(samples)) out[name] = Math.round(median(values));
  const ratio = (a: string, b: string) => Math.round((out[a] / out[b]) * 1000) / 1000;
  out.seal_fast_vs_native = ratio('seal_fast_ops_s', 'seal_native_ops_s');
  out.open_fast_vs_native = ratio('open_fast_ops_s', 'open_native_ops_s');
  out.seal_noble_vs_native = ratio('seal_noble_ops_s', 'seal_native_ops_s');
  out.open_noble_vs_native = ratio('open_noble_ops_s', 'open_native_ops_s');
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
