/**
 * Blobs look sealed throughout (docs/protocol.md, Blobs): the envelope plaintext check reads
 * text, but misses zero-filled data, UTF-16 text and an image padded with zeros. AES-GCM output
 * is indistinguishable from random bytes, whose empirical byte entropy over a window of n bytes
 * is 8 − G/(2n·ln 2), with G ≈ χ² on 255 degrees of freedom. Under 7.5 bits means G > n·ln 2:
 * for n = 1 KiB that is 710 against a mean of 255 (20 standard deviations; the Chernoff bound
 * puts it below 1e-42), so sealed bytes pass, while UTF-16 text is near 3.4 bits, a
 * half-zero-padded window near 5 and zeros 0.
 */

/** Each sampled window is this long, or the whole blob when that is shorter. */
export const ENTROPY_WINDOW = 4096;
/** Blobs shorter than this keep only the envelope check: too few bytes to estimate entropy. */
export const MIN_ENTROPY_BLOB = 1024;
export const MIN_BITS_PER_BYTE = 7.5;

/** Shannon entropy of the byte frequencies, in bits per byte (0–8). */
export function byteEntropy(bytes: Uint8Array): number {
  const counts = new Uint32Array(256);
  for (let i = 0; i < bytes.length; i++) counts[bytes[i]]++;
  let bits = 0;
  for (let v = 0; v < 256; v++) {
    if (counts[v] === 0) continue;
    const p = counts[v] / bytes.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** The windows sampled in a blob of `size` bytes: the first, a middle and the last (one when they coincide); none under MIN_ENTROPY_BLOB. */
export function entropyWindows(size: number): Array<{ start: number; length: number }> {
  if (size < MIN_ENTROPY_BLOB) return [];
  const length = Math.min(ENTROPY_WINDOW, size);
  const starts = [...new Set([0, Math.floor((size - length) / 2), size - length])];
  return starts.map((start) => ({ start, length }));
}

export function tooRegular(window: Uint8Array): boolean {
  return byteEntropy(window) < MIN_BITS_PER_BYTE;
}
