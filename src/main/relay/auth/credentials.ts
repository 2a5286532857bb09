import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Credential secrets: `<prefix><43 base64url chars of 32 random bytes><6 base64url chars of checksum>`.
 * The checksum (first 4 bytes of SHA-256 over prefix+body) lets a malformed or mistyped key be
 * refused without a database lookup. The database keeps only SHA-256 of the whole secret.
 */
export type CredentialKind = 'api-key' | 'group-token';

const PREFIX: Record<CredentialKind, string> = { 'api-key': 'sk_live_', 'group-token': 'gtk_live_' };
const BODY_CHARS = 43; // 32 bytes, base64url without padding
const SUM_CHARS = 6; // 4 bytes, base64url without padding, truncated
const SHAPE = /^(sk_live_|gtk_live_)([A-Za-z0-9_-]{43})([A-Za-z0-9_-]{6})$/;

function checksum(prefixAndBody: string): string {
  return hash('sha256', prefixAndBody, 'buffer').subarray(0, 4).toString('base64url').slice(0, SUM_CHARS);
}

export function mintSecret(kind: CredentialKind): { secret: string; hash: Buffer; prefix: string } {
  const head = PREFIX[kind] + randomBytes(32).toString('base64url');
  const secret = head + checksum(head);
  return { secret, hash: hashSecret(secret), prefix: publicPrefix(secret) };
}

/** One-shot hashing: every authenticated request hashes its secret twice, and a Hash object per call showed in profiles. */
export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** The short public part kept in metadata, e.g. `sk_live_Ab3d`. */
export function publicPrefix(secret: string): string {
  const kindPrefix = secret.startsWith('gtk_live_') ? 'gtk_live_' : 'sk_live_';
  return secret.slice(0, kindPrefix.length + 6);
}

/** Kind of a well-formed secret whose checksum matches, or null: no database work for garbage. */
export function parseSecret(secret: string): CredentialKind | null {
  const m = SHAPE.exec(secret);
  if (!m || m[2].length !== BODY_CHARS) return null;
  // A plain comparison: the checksum is a function of what the caller sent, so its timing
  // tells the caller nothing it could not compute; the secret's hash is compared in constant time.
  if (checksum(m[1] + m[2]) !== m[3]) return null;
  return m[1] === 'sk_live_' ? 'api-key' : 'group-token';
}

/** Constant-time comparison of a stored hash with the hash of a presented secret. */
export function hashesEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
