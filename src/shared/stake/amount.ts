/** wei as a decimal amount of an 18-decimal currency (ETH, CRO), without trailing zeros: "50000000000000000" → "0.05". */
export function formatWei(wei: bigint | string): string {
  const v = BigInt(wei);
  const whole = v / 10n ** 18n;
  const frac = (v % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}

/** Decimals an amount shows at most; the whole value is one hover or copy away (the app's Amount). */
export const SHOWN_DECIMALS = 6;

/**
 * wei as people read an amount: at most six decimals, cut rather than rounded (a balance is
 * never shown as more than it is), without trailing zeros: "9999.999788188561745379" → "9999.999788".
 * An amount too small for that keeps its first six significant digits ("0.0000000123"), so it
 * never reads as 0.
 */
export function formatAmount(wei: bigint | string): string {
  const full = formatWei(wei);
  const [whole, frac = ''] = full.split('.');
  if (frac.length <= SHOWN_DECIMALS) return full;
  const leadingZeros = frac.length - frac.replace(/^0+/, '').length;
  const keep = whole === '0' && leadingZeros >= SHOWN_DECIMALS ? leadingZeros + SHOWN_DECIMALS : SHOWN_DECIMALS;
  const cut = frac.slice(0, keep).replace(/0+$/, '');
  return cut ? `${whole}.${cut}` : whole;
}
