/** wei as a decimal amount of an 18-decimal currency (ETH, CRO), without trailing zeros: "50000000000000000" → "0.05". */
export function formatWei(wei: bigint | string): string {
  const v = BigInt(wei);
  const whole = v / 10n ** 18n;
  const frac = (v % 10n ** 18n).toString().padStart(18, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole.toString();
}
