/**
 * Checks on the three content fields of an envelope: the relay cannot read them, but it can
 * refuse what is plainly not sealed (docs/protocol.md §8 Sending envelopes, "Sealed, not plaintext").
 */

/**
 * `not-sealed` only for content that looks like plaintext; a field that is malformed (not
 * base64, the wrong length, a low-order key) is `invalid-envelope`, so a client can tell a bug
 * in its encoding from content it forgot to seal.
 */
export type FieldProblem = {
  status: 400 | 413;
  error: string;
  code: 'invalid-envelope' | 'not-sealed' | 'ciphertext-too-large';
};

/**
 * Decodes standard base64 with optional padding; null when it is not canonical base64.
 * Buffer's decoder is lenient (it skips foreign characters, takes the URL-safe alphabet and
 * ignores trailing bits), so the input is held against the re-encoding of what it decoded to:
 * only canonical input survives that, and it costs no regular expression (this runs for every
 * envelope of every send).
 */
export function decodeBase64(text: string): Buffer | null {
  return canonicalBase64(text)?.bytes ?? null;
}

function canonicalBase64(text: string): { bytes: Buffer; canonical: string } | null {
  const bytes = Buffer.from(text, 'base64');
  const canonical = bytes.toString('base64');
  if (canonical === text) return { bytes, canonical };
  // Or the canonical form without its padding?
  const pad = canonical.endsWith('==') ? 2 : canonical.endsWith('=') ? 1 : 0;
  if (pad > 0 && text.length === canonical.length - pad && canonical.startsWith(text)) return { bytes, canonical };
  return null;
}

const P = 2n ** 255n - 19n;
const hexLE = (u: bigint) => Buffer.from(u.toString(16).padStart(64, '0'), 'hex').reverse().toString('hex');
/**
 * Encodings (little-endian hex, top bit clear) of the X25519 points of small order: a shared
 * secret with any of them is all-zero, so an envelope claiming one was not sealed to anybody.
 * The u-coordinates are 0, 1, p-1 and two others; an encoding may also be non-canonical
 * (u + p still below 2^255), which only 0 and 1 have room for.
 */
const LOW_ORDER_HEX = new Set(
  [
    0n,
    1n,
    P - 1n,
    0xb8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0n,
    0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5fn,
    P,
    P + 1n,
  ].map(hexLE),
);

/** `hexKey`: 64 hex digits (the schema has checked them); the top bit is ignored, as X25519 does. */
export function isLowOrderPoint(hexKey: string): boolean {
  const key = hexKey.toLowerCase();
  const top = parseInt(key[62], 16);
  return LOW_ORDER_HEX.has(top >= 8 ? key.slice(0, 62) + (top - 8).toString(16) + key[63] : key);
}

export const MIN_CIPHERTEXT = 17; // 16-byte GCM tag + at least one byte
const TEXT_MIN_LENGTH = 24;
const TEXT_SHARE = 0.9;

/**
 * True when decoded bytes look like text rather than AES-GCM output: ≥ 90 % printable ASCII or
 * valid multi-byte UTF-8, or the bytes are themselves base64 text or JSON. Random bytes are
 * printable ASCII with p ≈ 0.37 each, so 24+ bytes at 90 % never happens by chance
 * (the test seals 100,000 random messages).
 */
export function looksLikePlaintext(bytes: Buffer): boolean {
  if (bytes.length < TEXT_MIN_LENGTH) return false;
  // Bytes that are not text, beyond which the share cannot be reached any more: random bytes
  // cross it within the first few dozen, so real ciphertext is not read to its end.
  const allowedOther = bytes.length - TEXT_SHARE * bytes.length;
  let texty = 0;
  for (let i = 0; i < bytes.length;) {
    if (i - texty > allowedOther) return false;
    const b = bytes[i];
    if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) {
      texty++;
      i++;
      continue;
    }
    const len = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len > 0 && i + len <= bytes.length && continuationBytes(bytes, i + 1, len - 1)) {
      texty += len;
      i += len;
    } else {
      i++;
    }
  }
  if (texty >= TEXT_SHARE * bytes.length) return true;
  return false;
}

function continuationBytes(bytes: Buffer, from: number, count: number): boolean {
  for (let j = from; j < from + count; j++) if ((bytes[j] & 0xc0) !== 0x80) return false;
  return true;
}

/**
 * Text-shaped content is the only way to be base64-again or JSON, and looksLikePlaintext already
 * refuses text of 24+ bytes; shorter bodies are checked here explicitly so `"hi"` or `e30=` also fail.
 */
function decodesAsTextPayload(bytes: Buffer): boolean {
  const text = bytes.toString('utf8');
  if (!/^[\x20-\x7e\t\r\n]*$/.test(text)) return false;
  const trimmed = text.trim();
  if (trimmed.length === 0) return true;
  if (trimmed.length >= 4 && decodeBase64(trimmed) !== null) return true;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/**
 * The relay's whole plaintext check on decoded ciphertext, for envelopes and for the first bytes
 * of a blob. Text of TEXT_MIN_LENGTH bytes or more is all caught by looksLikePlaintext.
 */
export function looksUnsealed(bytes: Buffer): boolean {
  return looksLikePlaintext(bytes) || (bytes.length < TEXT_MIN_LENGTH && decodesAsTextPayload(bytes));
}

export interface SealedFields {
  ciphertext: string; // canonical padded base64
  nonce: string;
  ephemeralPublicKey: string; // lower-case hex
  bytes: number;
}

/** Validates and normalises one envelope's content fields; returns a problem for the caller to answer. */
export function checkSealedFields(
  input: { ciphertext: string; nonce: string; ephemeralPublicKey: string },
  maxBytes: number,
): SealedFields | FieldProblem {
  const ct = canonicalBase64(input.ciphertext);
  const malformed = (error: string): FieldProblem => ({ status: 400, error, code: 'invalid-envelope' });
  if (!ct) return malformed('ciphertext must be standard base64');
  if (ct.bytes.length > maxBytes)
    return { status: 413, error: `ciphertext is over ${maxBytes} bytes`, code: 'ciphertext-too-large' };
  if (ct.bytes.length < MIN_CIPHERTEXT)
    return malformed(`ciphertext must decode to at least ${MIN_CIPHERTEXT} bytes (GCM tag + data)`);
  if (looksUnsealed(ct.bytes))
    return {
      status: 400,
      error: 'ciphertext looks like plaintext; seal content on the client first',
      code: 'not-sealed',
    };
  const nonce = canonicalBase64(input.nonce);
  if (!nonce || nonce.bytes.length !== 12) return malformed('nonce must be base64 of exactly 12 bytes');
  const eph = input.ephemeralPublicKey.toLowerCase();
  if (isLowOrderPoint(eph)) return malformed('ephemeralPublicKey is a low-order X25519 point');
  return { ciphertext: ct.canonical, nonce: nonce.canonical, ephemeralPublicKey: eph, bytes: ct.bytes.length };
}
