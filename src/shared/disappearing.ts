/**
 * Disappearing-message timers (wire format, kind `timer`): 0 turns it off; otherwise 30 s to
 * 4 weeks. The app and the CLI offer a few choices; a peer may set any value in bounds.
 */
export const TIMER_MIN_SECONDS = 30;
export const TIMER_MAX_SECONDS = 2_419_200;

/** The choices the conversation header and the CLI (`timer <conversation> off|5m|1h|1d|1w`) offer. */
export const TIMER_CHOICES: ReadonlyArray<{ seconds: number; short: string; label: string }> = [
  { seconds: 0, short: 'off', label: 'Off' },
  { seconds: 300, short: '5m', label: '5 minutes' },
  { seconds: 3600, short: '1h', label: '1 hour' },
  { seconds: 86_400, short: '1d', label: '1 day' },
  { seconds: 604_800, short: '1w', label: '1 week' },
];

/** "5 minutes", "1 hour", or the seconds in the largest whole unit for a value no choice names. */
export function timerLabel(seconds: number): string {
  const choice = TIMER_CHOICES.find((c) => c.seconds === seconds);
  if (choice) return choice.label;
  const units: Array<[number, string]> = [
    [604_800, 'week'],
    [86_400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([size]) => seconds % size === 0)!;
  const n = seconds / size;
  return `${n} ${name}${n === 1 ? '' : 's'}`;
}
