import type { IntlShape } from 'react-intl';

/** Intl's units a timer is said in, largest first */
const UNITS = [
  [604_800, 'week'],
  [86_400, 'day'],
  [3600, 'hour'],
  [60, 'minute'],
  [1, 'second'],
] as const;

/** A timer's length in the largest whole unit ("5 minutes", "1 week"), through Intl in the reader's language. */
export function timerDuration(intl: IntlShape, seconds: number): string {
  const [size, unit] = UNITS.find(([size]) => seconds % size === 0)!;
  return intl.formatNumber(seconds / size, { style: 'unit', unit, unitDisplay: 'long' });
}
