/** secp256k1's group order n. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/**
 * The high-S twin of a 65-byte `r || s || v` signature: `s` → `n - s` with the recovery bit
 * flipped, which recovers the same signer over the same text. What a wallet never produces and
 * the relay must refuse.
 */
export function highSTwin(signature: string): string {
  const r = signature.slice(2, 66);
  const s = BigInt('0x' + signature.slice(66, 130));
  const v = parseInt(signature.slice(130, 132), 16);
  const twinV = v === 27 || v === 28 ? 55 - v : v ^ 1;
  return `0x${r}${(CURVE_ORDER - s).toString(16).padStart(64, '0')}${twinV.toString(16).padStart(2, '0')}`;
}
