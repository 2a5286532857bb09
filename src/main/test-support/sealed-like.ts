/**
 * Envelopes that look like real sealed output to the relay's plaintext check: random bytes
 * (AES-GCM output is indistinguishable from them), a real X25519 public key as the ephemeral
 * key (never low-order), a 12-byte nonce. Nothing is encrypted: the bench measures the relay.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { x25519 } from '@noble/curves/ed25519.js';
import { bytesToHex } from '@noble/hashes/utils.js';

export interface EnvelopeInput {
  toAddress: string;
  recipientDeviceKey: string | null;
  ciphertext: string;
  ephemeralPublicKey: string;
  nonce: string;
}

/** A typical chat message: frame + signed JSON payload + 16-byte tag is a few hundred bytes. */
export function sealedLikeEnvelope(
  to: { address: string; deviceKey: string | null },
  size = randomInt(180, 420),
): EnvelopeInput {
  return {
    toAddress: to.address,
    recipientDeviceKey: to.deviceKey,
    ciphertext: randomBytes(size).toString('base64'),
    ephemeralPublicKey: bytesToHex(x25519.getPublicKey(x25519.utils.randomSecretKey())),
    nonce: randomBytes(12).toString('base64'),
  };
}

/** `count` JSON bodies, each with `perBody` envelopes to recipients taken in turn. */
export function envelopeBodies(
  recipients: { address: string; deviceKey: string | null }[],
  count: number,
  perBody: number,
): string[] {
  const bodies: string[] = [];
  let r = 0;
  for (let i = 0; i < count; i++) {
    const envs = Array.from({ length: perBody }, () => sealedLikeEnvelope(recipients[r++ % recipients.length]));
    bodies.push(JSON.stringify(perBody === 1 ? envs[0] : { envelopes: envs }));
  }
  return bodies;
}
