/**
 * Checks on the three content fields of an envelope: the relay cannot read them, but it can
 * refuse what is plainly not sealed (relay-contract §3 and §4 "Plaintext check").
 */

export type FieldProblem = { status: 400 | 413; error: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Decodes standard base64 with optional padding; null when it is not base64. */
export function decodeBase64(text: string): Buffer | null {
  if (!BASE64.test(text)) return null;
  const unpadded = text.replace(/=+$/, '');
  if (unpadded.length % 4 === 1) return null;
  const buf = Buffer.from(unpadded, 'base64');
  // Buffer ignores trailing bits; re-encode to refuse non-canonical input.
  if (buf.toString('base64').replace(/=+$/, '') !== unpadded) return null;
  return buf;
}

const P = 2n ** 255n - 19n;
/**
 * u-coordinates (mod p) of the X25519 points of small order: a shared secret with any of them
 * is all-zero, so an envelope claiming one was not sealed to anybody. Encodings are 255-bit
 * little-endian with the top bit ignored and may be non-canonical (u ≥ p), hence the reduction.
 */
const LOW_ORDER_U = new Set([
  0n,
  1n,
  P - 1n,
  0xb8495f16056286fdb1329ceb8d09da6ac49ff1fae35616aeb8413b7c7aebe0n,
  0x57119fd0dd4e22d8868e1c58c45c44045bef839c55b1d0b1248c50a3bc959c5fn,
]);

export function isLowOrderPoint(hexKey: string): boolean {
  const le = Buffer.from(hexKey, 'hex');
  le[31] &= 0x7f;
  const u = BigInt('0x' + Buffer.from(le).reverse().toString('hex'));
  return LOW_ORDER_U.has(u % P);
}

const MIN_CIPHERTEXT = 17; // 16-byte GCM tag + at least one byte
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
  let texty = 0;
  for (let i = 0; i < bytes.length; ) {
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

export interface SealedFields {
  ciphertext: string; // canonical padded base64
  nonce: string;
  ephemeralPublicKey: string; // lower-case hex
  bytes: number;
}

/** Validates and normalises one envelope's content fields; returns a problem for the caller to answer. */
export function checkSealedFields(input: { ciphertext: string; nonce: string; ephemeralPublicKey: string }, maxBytes: number): SealedFields | FieldProblem {
  const ct = decodeBase64(input.ciphertext);
  if (!ct) return { status: 400, error: 'ciphertext must be standard base64' };
  if (ct.length > maxBytes) return { status: 413, error: `ciphertext is over ${maxBytes} bytes` };
  if (ct.length < MIN_CIPHERTEXT) return { status: 400, error: `ciphertext must decode to at least ${MIN_CIPHERTEXT} bytes (GCM tag + data)` };
  if (looksLikePlaintext(ct) || decodesAsTextPayload(ct)) return { status: 400, error: 'ciphertext looks like plaintext; seal content on the client first' };
  const nonce = decodeBase64(input.nonce);
  if (!nonce || nonce.length !== 12) return { status: 400, error: 'nonce must be base64 of exactly 12 bytes' };
  const eph = input.ephemeralPublicKey.toLowerCase();
  if (isLowOrderPoint(eph)) return { status: 400, error: 'ephemeralPublicKey is a low-order X25519 point' };
  return { ciphertext: ct.toString('base64'), nonce: nonce.toString('base64'), ephemeralPublicKey: eph, bytes: ct.length };
}
