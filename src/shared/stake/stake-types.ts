/** Status names of the escrow's `uint8 status` 1…4, in order (0 is "no such stake"). */
export const STAKE_STATUSES = ['active', 'released', 'forfeited', 'refunded'] as const;
export type StakeStatus = (typeof STAKE_STATUSES)[number];

/** Why a staked send was refused (docs/protocol.md §13 Stakes). */
export const STAKE_REFUSALS = [
  'unconfirmed',
  'not-found',
  'insufficient',
  'bad-deadline',
  'used',
  'expired-quote',
] as const;
export type StakeRefusal = (typeof STAKE_REFUSALS)[number];
