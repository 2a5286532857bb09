/** secp256k1's group order n; a signature's `s` and `n - s` both verify. */
const CURVE_ORDER = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_ORDER = CURVE_ORDER / 2n;
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

/**
 * Whether a 65-byte `r || s || v` signature is in the canonical low-S form (EIP-2). For each
 * valid signature there is a second one with `s` replaced by `n - s` that recovers the same
 * signer; accepting both would give anyone holding one a different, equally valid one, and our
 * own client and the escrow refuse the high half, so the relay refuses it too
 * (docs/wire-format.md).
 */
export function isLowS(signature: string): boolean {
  if (!SIGNATURE.test(signature)) return false;
  const s = BigInt('0x' + signature.slice(66, 130));
  return s > 0n && s <= HALF_ORDER;
}
